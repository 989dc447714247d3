/* aot_log_softmax_f32.c - LOG_SOFTMAX float32 (reference_ops LogSoftmax):
 * x - max - log(sum(exp(x - max))) per row. */
#include <float.h>
#include <math.h>

#include "aot_elementwise.h"

int32_t aot_log_softmax_f32(const aot_softmax_params *p, const float *in, float *out) {
  const int32_t depth = p->depth;
  int32_t r, c;
  for (r = 0; r < p->outer; r++) {
    const float *x = in + (size_t)r * (size_t)depth;
    float *y = out + (size_t)r * (size_t)depth;
    float max = -FLT_MAX, sum = 0.0f, log_sum;
    for (c = 0; c < depth; c++)
      if (max < x[c]) max = x[c];
    for (c = 0; c < depth; c++) sum += expf(x[c] - max);
    log_sum = logf(sum);
    for (c = 0; c < depth; c++) y[c] = x[c] - max - log_sum;
  }
  return AOT_KERNEL_OK;
}
