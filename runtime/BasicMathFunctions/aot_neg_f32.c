/* aot_neg_f32.c - NEG float32: -x. */
#include "aot_elementwise.h"

int32_t aot_neg_f32(const aot_unary_params *p, const float *in, float *out) {
  int32_t i;
  for (i = 0; i < p->size; i++) out[i] = -in[i];
  return AOT_KERNEL_OK;
}
