/* aot_elu_f32.c - ELU float32: expm1f(x) for x < 0, else x. */
#include <math.h>

#include "aot_elementwise.h"

int32_t aot_elu_f32(const aot_unary_params *p, const float *in, float *out) {
  int32_t i;
  for (i = 0; i < p->size; i++) {
    const float x = in[i];
    out[i] = x < 0.0f ? expm1f(x) : x;
  }
  return AOT_KERNEL_OK;
}
