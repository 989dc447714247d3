/* aot_softmax_f32.c - SOFTMAX float32 (reference_ops Softmax): per row,
 * exp((x - max) * beta) normalized by the row sum. */
#include <float.h>
#include <math.h>

#include "aot_elementwise.h"

int32_t aot_softmax_f32(const aot_softmax_params *p, const float *in, float *out) {
  const int32_t depth = p->depth;
  const float beta = p->beta;
  int32_t r, c;
  for (r = 0; r < p->outer; r++) {
    const float *x = in + (size_t)r * (size_t)depth;
    float *y = out + (size_t)r * (size_t)depth;
    float max = -FLT_MAX, sum = 0.0f;
    for (c = 0; c < depth; c++)
      if (max < x[c]) max = x[c];
    for (c = 0; c < depth; c++) {
      const float e = expf((x[c] - max) * beta);
      y[c] = e;
      sum += e;
    }
    for (c = 0; c < depth; c++) y[c] = y[c] / sum;
  }
  return AOT_KERNEL_OK;
}
