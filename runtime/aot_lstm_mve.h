/* aot_lstm_mve.h - Helium (MVE) forms of the elementwise part of the packed
 * int8 LSTM (aot_lstm_s8p.c): four units per vector, the same integers as the
 * scalar loops there (TFLM's reference arithmetic).
 *
 *  - MultiplyByQuantizedMultiplier: wrapping left shift (VSHL), VQRDMULH
 *    (exactly SaturatingRoundingDoublingHighMul), then RoundingDivideByPOT as
 *    CMSIS-NN does it: subtract 1 from negative values (the sign of y & -rsh,
 *    0 when rsh = 0) and round with VRSHL, which rounds half up without
 *    overflow; for negative values that is gemmlowp's round half away.
 *  - sigmoid / tanh: TFLite's 256-entry table read with VLDRH gathers; the
 *    sigmoid of a saturated Q3.12 value indexes at most entry 193, the tanh
 *    clamps the index and selects the saturated value as the scalar code.
 * Included by aot_lstm_s8p.c only when Helium is available. */
#ifndef AOT_LSTM_MVE_H
#define AOT_LSTM_MVE_H

#include <arm_mve.h>

#include "aot_common.h"

/* aot_mbqm(x, m, shift) for m >= 0, shift = lsh - rsh in [-31, 31] */
AOT_INLINE int32x4_t aot_lstm_mve_mbqm(int32x4_t x, int32_t m, int32_t lsh, int32_t rsh) {
  const int32x4_t y = vqrdmulhq_n_s32(vshlq_r_s32(x, lsh), m);
  const int32x4_t fix = vshrq_n_s32(vandq_s32(y, vdupq_n_s32(-rsh)), 31);
  return vrshlq_n_s32(vqaddq_s32(y, fix), -rsh);
}

AOT_INLINE int32x4_t aot_lstm_mve_sat16(int32x4_t v) {
  return vmaxq_s32(vminq_s32(v, vdupq_n_s32(32767)), vdupq_n_s32(-32768));
}

/* int16 logistic of Q3.12 values (|v| <= 32768) into Q0.15. */
AOT_INLINE int32x4_t aot_lstm_mve_sigmoid(int32x4_t v, const uint16_t *lut) {
  const int32x4_t in = vmulq_n_s32(v, 3);
  const uint32x4_t a = vreinterpretq_u32_s32(vabsq_s32(in)), uh = vshrq_n_u32(a, 9);
  const uint32x4_t ua = vldrhq_gather_shifted_offset_u32(lut, uh);
  const uint32x4_t ub = vldrhq_gather_shifted_offset_u32(lut, vaddq_n_u32(uh, 1));
  uint32x4_t r = vaddq_u32(vshlq_n_u32(ua, 9), vmulq_u32(vandq_u32(a, vdupq_n_u32(0x1FFu)), vsubq_u32(ub, ua)));
  const mve_pred16_t pos = vcmpgeq_n_s32(in, 0);
  r = vpselq_u32(vaddq_n_u32(r, 1u << 9), vsubq_u32(vdupq_n_u32((1u << 25) + (1u << 9) - 1u), r),
                 pos);
  return vreinterpretq_s32_u32(vshrq_n_u32(r, 10));
}

/* int16 tanh into Q0.15 of (v * mult + round) >> shift (arithmetic). */
AOT_INLINE int32x4_t aot_lstm_mve_tanh(int32x4_t v, int32_t mult, int32_t shift, int32_t round,
                                       const uint16_t *lut) {
  const int32x4_t x = vshlq_r_s32(vaddq_n_s32(vmulq_n_s32(v, mult), round), -shift);
  const uint32x4_t a = vreinterpretq_u32_s32(vabsq_s32(x)), uh = vshrq_n_u32(a, 8);
  const mve_pred16_t big = vcmpcsq_n_u32(uh, 255u);
  const uint32x4_t idx = vminq_u32(uh, vdupq_n_u32(254u));
  const uint32x4_t ua = vldrhq_gather_shifted_offset_u32(lut, idx);
  const uint32x4_t ub = vldrhq_gather_shifted_offset_u32(lut, vaddq_n_u32(idx, 1));
  uint32x4_t ru = vaddq_u32(vshlq_n_u32(ua, 8), vmulq_u32(vandq_u32(a, vdupq_n_u32(0xFFu)), vsubq_u32(ub, ua)));
  int32x4_t r;
  ru = vpselq_u32(vdupq_n_u32(0xFFFFu << 8), ru, big);
  r = vreinterpretq_s32_u32(ru);
  r = vpselq_s32(vaddq_n_s32(r, -(1 << 23) + (1 << 7)),
                 vsubq_s32(vdupq_n_s32((1 << 23) + (1 << 7) - 1), r), vcmpgeq_n_s32(x, 0));
  return vshrq_n_s32(r, 8);
}

#endif
