/* aot_sign_s32.c - SIGN int32: 1 for x > 0, -1 for x < 0, 0 for 0. */
#include "aot_elementwise.h"

int32_t aot_sign_s32(const aot_unary_params *p, const int32_t *in, int32_t *out) {
  int32_t i;
  for (i = 0; i < p->size; i++) out[i] = (int32_t)((in[i] > 0) - (in[i] < 0));
  return AOT_KERNEL_OK;
}
