/* aot_sub_s32.c - SUB int32 (unquantized; wraps on overflow), then the
 * activation clamp. */
#include "aot_elementwise.h"

AOT_INLINE int32_t aot_sub_s32_elem(const aot_arith_s32_params *p, int32_t a, int32_t b) {
  const uint32_t u = (uint32_t)a - (uint32_t)b;
  const int32_t x = u <= (uint32_t)INT32_MAX ? (int32_t)u : (int32_t)(u - 2147483648u) + INT32_MIN;
  return aot_clamp_i32(x, p->act_min, p->act_max);
}

int32_t aot_sub_s32(const aot_arith_s32_params *p, const int32_t *in1, const int32_t *in2,
                   int32_t *out) {
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_sub_s32_elem, p);
  return AOT_KERNEL_OK;
}
