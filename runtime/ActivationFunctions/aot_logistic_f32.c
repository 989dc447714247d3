/* aot_logistic_f32.c - LOGISTIC float32 as the TFLite reference: 1 above
 * 16.619047, exp(x) below -9, else 1 / (1 + exp(-x)). */
#include <math.h>

#include "aot_elementwise.h"

int32_t aot_logistic_f32(const aot_unary_params *p, const float *in, float *out) {
  const float cutoff_upper = 16.619047164916992188f;
  const float cutoff_lower = -9.0f;
  int32_t i;
  for (i = 0; i < p->size; i++) {
    const float x = in[i];
    float r;
    if (x > cutoff_upper) r = 1.0f;
    else if (x < cutoff_lower) r = expf(x);
    else r = 1.0f / (1.0f + expf(-x));
    out[i] = r;
  }
  return AOT_KERNEL_OK;
}
