/* aot_neg_s32.c - NEG int32 (wraps: -INT32_MIN is INT32_MIN). */
#include "aot_elementwise.h"

int32_t aot_neg_s32(const aot_unary_params *p, const int32_t *in, int32_t *out) {
  int32_t i;
  for (i = 0; i < p->size; i++) out[i] = in[i] == INT32_MIN ? INT32_MIN : -in[i];
  return AOT_KERNEL_OK;
}
