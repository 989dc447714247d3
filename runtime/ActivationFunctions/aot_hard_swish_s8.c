/* aot_hard_swish_s8.c - HARD_SWISH int8 (reference_ops HardSwish): 16-bit
 * fixed point; x is scaled by 2^7, a "relu-ish" factor in [0, 1] is derived
 * from x on a scale where 3.0 is 32768, and multiplied in with a truncating
 * doubling high multiply. */
#include "aot_elementwise.h"

/* gemmlowp SaturatingRoundingDoublingHighMul for int16. */
AOT_INLINE int32_t aot_hs_srdhm16(int32_t a, int32_t b) {
  const int32_t ab = a * b;
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  if (a == b && a == INT16_MIN) return INT16_MAX;
  return (ab + nudge) / (1 << 15);
}

/* SaturatingDoublingHighMul (rounds toward zero). */
AOT_INLINE int32_t aot_hs_sdhm16(int32_t a, int32_t b) {
  if (a == b && a == INT16_MIN) return INT16_MAX;
  return (a * b) / (1 << 15);
}

AOT_INLINE int32_t aot_hs_sat_shl16(int32_t v, int amount) {
  int64_t r;
  if (amount > 20) return v > 0 ? INT16_MAX : (v < 0 ? INT16_MIN : 0);
  r = (int64_t)v * ((int64_t)1 << amount);
  return r > INT16_MAX ? INT16_MAX : (r < INT16_MIN ? INT16_MIN : (int32_t)r);
}

int32_t aot_hard_swish_s8(const aot_hard_swish_s8_params *p, const int8_t *in, int8_t *out) {
  int32_t i;
  if (p->out_exp > 0) return AOT_KERNEL_BAD_PARAM;
  for (i = 0; i < p->size; i++) {
    const int32_t x = aot_wrap_i16((int32_t)in[i] - p->in_zp);
    const int32_t hires = aot_wrap_i16(x * 128);
    const int32_t preshift = aot_hs_srdhm16(hires, p->out_mult16);
    int32_t reluish = hires, v;
    if (p->reluish_exp > 0) reluish = aot_hs_sat_shl16(reluish, p->reluish_exp - 1);
    reluish = aot_hs_srdhm16(reluish, p->reluish_mult16);
    if (p->reluish_exp > 0) reluish = aot_hs_sat_shl16(reluish, 1);
    if (p->reluish_exp < 0) reluish = aot_rdbpot(reluish, -p->reluish_exp);
    reluish = (reluish + (1 << 15)) >> 1;
    v = aot_rdbpot(aot_hs_sdhm16(reluish, preshift), -p->out_exp);
    v = aot_wrap_i16(v + p->out_zp);
    out[i] = (int8_t)aot_clamp_i32(v, INT8_MIN, INT8_MAX);
  }
  return AOT_KERNEL_OK;
}
