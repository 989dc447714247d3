/* aot_s16_rq.h - the output stage of the int16x8 kernels (int16
 * activations, int8 weights, int64 bias): TFLite's reference requantization
 * clamp(aot_mbqm64(acc + bias, mult, shift)) in an exact two-step form with
 * the bias folded into per-channel constants. Used by the convolution,
 * transpose convolution, depthwise and fully-connected kernels' Helium and
 * Arm DSP paths (aot_s16_simd.h, aot_fc16_simd.h); plain C, so every build
 * has it. */
#ifndef AOT_S16_RQ_H
#define AOT_S16_RQ_H

#include "aot_common.h"

/* aot_mbqm64 (aot_common.h) of acc + bias in two steps: per channel the
 * reduced multiplier red, the total right shift ts and c0 = bias * red +
 * 2^(ts - 1), then per sum (acc * red + c0) >> ts. aot_mbqm64 computes
 * (acc + bias) * red + 2^(ts - 1) in uint64 (modular) arithmetic, which is
 * the same number, its other expressions are the same. A sum that fits
 * int32 (the common case) takes one 32 x 32 -> 64 multiply. */
typedef struct aot_s16_rq {
  int64_t c0;
  int32_t red, ts;
} aot_s16_rq;

AOT_INLINE int64_t aot_s16_u2s(uint64_t u) {
  return u <= (uint64_t)INT64_MAX ? (int64_t)u : (int64_t)(u - 9223372036854775808u) + INT64_MIN;
}

AOT_INLINE aot_s16_rq aot_s16_rq_of(int32_t qm, int32_t shift, int64_t bias) {
  aot_s16_rq q;
  q.red = (qm < 0x7FFF0000) ? ((qm + (1 << 15)) >> 16) : 0x7FFF;
  q.ts = 15 - (shift > 14 ? 14 : (shift < -47 ? -47 : shift));
  q.c0 = aot_s16_u2s((uint64_t)bias * (uint64_t)(int64_t)q.red + ((uint64_t)1 << (q.ts - 1)));
  return q;
}

/* aot_s16_out for a sum that fits int32, through the channel's constants */
AOT_INLINE int16_t aot_s16_out32(int32_t acc, const aot_s16_rq *q, int32_t lo, int32_t hi) {
  const uint64_t u = (uint64_t)((int64_t)acc * q->red) + (uint64_t)q->c0;
  return (int16_t)aot_clamp_i32((int32_t)(aot_s16_u2s(u) >> q->ts), lo, hi);
}

/* the int16 output of sum acc of channel oc: clamp(aot_mbqm64(acc +
 * bias[oc], mult[oc], shift[oc]), lo, hi), through rq[oc] (rq NULL: the
 * constants are made here) */
AOT_INLINE int16_t aot_s16_out(int64_t acc, const aot_s16_rq *rq, int32_t oc,
                               const int32_t *mult, const int32_t *shift, const int64_t *bias,
                               int32_t lo, int32_t hi) {
  aot_s16_rq t;
  uint64_t u;
  if (!rq) {
    t = aot_s16_rq_of(mult[oc], shift[oc], bias ? bias[oc] : 0);
    rq = &t;
  } else {
    rq += oc;
  }
  if (acc >= INT32_MIN && acc <= INT32_MAX) return aot_s16_out32((int32_t)acc, rq, lo, hi);
  u = (uint64_t)acc * (uint64_t)(int64_t)rq->red + (uint64_t)rq->c0;
  return (int16_t)aot_clamp_i32((int32_t)(aot_s16_u2s(u) >> rq->ts), lo, hi);
}

#endif
