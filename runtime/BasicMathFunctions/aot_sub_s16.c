/* aot_sub_s16.c - SUB int16_t, TFLite general quantized path: both inputs are
 * rescaled to a common scale with left_shift headroom, then subtracted and
 * rescaled to the output (reference_ops AddElementwise / SubElementwise).
 * Unless AOT_NO_SIMD is defined, rows with inner strides 0 or 1 run the
 * fast paths of aot_ew_simd.h (Helium: four lanes per step; Arm DSP: SMMULR
 * requantization), bit-identical to aot_sub_s16_elem. */
#include "aot_ew_simd.h"

AOT_INLINE int16_t aot_sub_s16_elem(const aot_addsub_q_params *p, int16_t a, int16_t b) {
  const int32_t x1 = aot_shl_i32(p->in1_offset + a, p->left_shift);
  const int32_t x2 = aot_shl_i32(p->in2_offset + b, p->left_shift);
  const int32_t s1 = aot_mbqm_lt1(x1, p->in1_mult, p->in1_shift);
  const int32_t s2 = aot_mbqm_lt1(x2, p->in2_mult, p->in2_shift);
  const int32_t raw = aot_mbqm_lt1(s1 - s2, p->out_mult, p->out_shift) + p->out_offset;
  return (int16_t)aot_clamp_i32(raw, p->act_min, p->act_max);
}

#ifdef AOT_EWS
AOT_EWS_ADDSUB_ROW(aot_sub_s16_row, int16_t, -, vsubq_s32, vldrhq_z_s32, vstrhq_p_s32, 0)
#endif

int32_t aot_sub_s16(const aot_addsub_q_params *p, const int16_t *in1, const int16_t *in2, int16_t *out) {
#ifdef AOT_EWS
  aot_ews_addsub q;
  if (aot_ews_addsub_setup(p, 65535, 15, &q)) {
    q.fast = aot_ews_is_fast(&q);
    AOT_EWS_ROWS(&p->bc, in1, in2, out, aot_sub_s16_row, &q, aot_sub_s16_elem, p);
    return AOT_KERNEL_OK;
  }
#endif
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_sub_s16_elem, p);
  return AOT_KERNEL_OK;
}
