/* aot_mul_s8.c - MUL int8_t (reference_integer_ops MulElementwise): the product
 * of the offset inputs is rescaled with one multiplier. */
#include "aot_elementwise.h"

AOT_INLINE int8_t aot_mul_s8_elem(const aot_mul_q_params *p, int8_t a, int8_t b) {
  const int32_t x1 = p->in1_offset + a;
  const int32_t x2 = p->in2_offset + b;
  const int32_t raw = p->out_offset + aot_mbqm(x1 * x2, p->out_mult, p->out_shift);
  return (int8_t)aot_clamp_i32(raw, p->act_min, p->act_max);
}

int32_t aot_mul_s8(const aot_mul_q_params *p, const int8_t *in1, const int8_t *in2, int8_t *out) {
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_mul_s8_elem, p);
  return AOT_KERNEL_OK;
}
