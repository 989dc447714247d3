/* aot_mul_s8.c - MUL int8_t (reference_integer_ops MulElementwise): the product
 * of the offset inputs is rescaled with one multiplier. Unless AOT_NO_SIMD is
 * defined, rows with inner strides 0 or 1 run the fast paths of
 * aot_ew_simd.h (Helium: four lanes per step), bit-identical to
 * aot_mul_s8_elem. */
#include "aot_ew_simd.h"

AOT_INLINE int8_t aot_mul_s8_elem(const aot_mul_q_params *p, int8_t a, int8_t b) {
  const int32_t x1 = p->in1_offset + a;
  const int32_t x2 = p->in2_offset + b;
  const int32_t raw = p->out_offset + aot_mbqm(x1 * x2, p->out_mult, p->out_shift);
  return (int8_t)aot_clamp_i32(raw, p->act_min, p->act_max);
}

#ifdef AOT_EWS
AOT_EWS_MUL_ROW(aot_mul_s8_row, int8_t, vldrbq_z_s32, vstrbq_p_s32)
#endif

int32_t aot_mul_s8(const aot_mul_q_params *p, const int8_t *in1, const int8_t *in2, int8_t *out) {
#ifdef AOT_EWS
  aot_ews_mul q;
  if (aot_ews_mul_setup(p, &q)) {
    AOT_EWS_ROWS(&p->bc, in1, in2, out, aot_mul_s8_row, &q, aot_mul_s8_elem, p);
    return AOT_KERNEL_OK;
  }
#endif
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_mul_s8_elem, p);
  return AOT_KERNEL_OK;
}
