/* aot_log_softmax_f32.c - LOG_SOFTMAX float32 (reference_ops LogSoftmax):
 * x - max - log(sum(exp(x - max))) per row. */
#include <float.h>
#include <math.h>

#include "aot_elementwise.h"

int32_t aot_log_softmax_f32(const aot_softmax_params *p, const float *in, float *out) {
  const int32_t depth = p->depth;
  int32_t r, c;
  if (depth < 0) return AOT_KERNEL_BAD_PARAM;
  /* one row of depth values per step */
  for (r = 0; r < p->outer; r++, in += depth, out += depth) {
    float max = -FLT_MAX, sum = 0.0f, log_sum;
    for (c = 0; c < depth; c++)
      if (max < in[c]) max = in[c];
    for (c = 0; c < depth; c++) sum += expf(in[c] - max);
    log_sum = logf(sum);
    for (c = 0; c < depth; c++) out[c] = in[c] - max - log_sum;
  }
  return AOT_KERNEL_OK;
}
