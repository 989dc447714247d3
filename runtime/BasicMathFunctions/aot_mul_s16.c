/* aot_mul_s16.c - MUL int16_t (reference_integer_ops MulElementwise): the product
 * of the offset inputs is rescaled with one multiplier. */
#include "aot_elementwise.h"

AOT_INLINE int16_t aot_mul_s16_elem(const aot_mul_q_params *p, int16_t a, int16_t b) {
  const int32_t x1 = p->in1_offset + a;
  const int32_t x2 = p->in2_offset + b;
  const int32_t raw = p->out_offset + aot_mbqm(x1 * x2, p->out_mult, p->out_shift);
  return (int16_t)aot_clamp_i32(raw, p->act_min, p->act_max);
}

int32_t aot_mul_s16(const aot_mul_q_params *p, const int16_t *in1, const int16_t *in2, int16_t *out) {
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_mul_s16_elem, p);
  return AOT_KERNEL_OK;
}
