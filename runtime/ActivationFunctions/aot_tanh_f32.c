/* aot_tanh_f32.c - TANH float32: tanhf(x). */
#include <math.h>

#include "aot_elementwise.h"

int32_t aot_tanh_f32(const aot_unary_params *p, const float *in, float *out) {
  int32_t i;
  for (i = 0; i < p->size; i++) out[i] = tanhf(in[i]);
  return AOT_KERNEL_OK;
}
