/* aot_leaky_simd.h - fast paths of the quantized LEAKY_RELU kernels (int8
 * and int16, ActivationFunctions/aot_leaky_relu_s{8,16}.c), bit-identical to
 * the portable element of aot_act_q.h (reference_ops QuantizeLeakyRelu:
 * out = clamp(out_zp + mbqm(x, m, s)), x = in - in_zp, with the identity
 * multiplier for x >= 0 and the alpha multiplier below).
 *
 * Each branch b (identity, alpha) is set up once: l = max(s, 0), e =
 * max(-s, 0). The fast path applies when both multipliers are >= 0, e <= 31
 * and every x of the branch's sign satisfies -2^30 <= x << l < 2^30 (int16
 * with zero point 0: l <= 14 on the positive side, l <= 15 below). Then:
 *  - srdhm(x << l, m) = floor((x * 2^l * m + 2^30) / 2^31) =
 *    SMMULR(x << (l + 1), m) (x << (l + 1) fits int32; SMMLAR adds the
 *    rounding term below in the same instruction; Helium: VQRDMULH of
 *    x << l, which cannot saturate as x << l != INT32_MIN);
 *  - the product has the sign of x (m >= 0), so RoundingDivideByPOT needs
 *    no sign test: floor((y + 2^(e-1)) / 2^e) for x >= 0 and
 *    floor((y + 2^(e-1) - 1) / 2^e) for x < 0 (y = 0 gives 0 either way),
 *    y for e = 0; |y| <= 2^30 so the sums do not overflow (y >= 0 stays
 *    below 2^30: x << l < 2^30);
 *  - the clamp to the type's range is one SSAT (Arm DSP) or VMAX / VMIN.
 * Other parameters return 0 from the setup and run the portable loop. */
#ifndef AOT_LEAKY_SIMD_H
#define AOT_LEAKY_SIMD_H

#include "aot_ew_simd.h"

#ifdef AOT_EWS

/* One branch: y = (SMMULR(x << sh, m) + rnd) >> e (sh = l + 1; Helium:
 * VQRDMULH(x << (sh - 1), m), rounding shift by -e after adding rnd_m, the
 * -1 of the negative branch). */
typedef struct aot_lrs_br {
  int32_t sh, m, rnd, e, rnd_m;
} aot_lrs_br;

typedef struct aot_lrs {
  aot_lrs_br pos, neg;
  int32_t in_zp, out_zp;
} aot_lrs;

/* A branch of multiplier m and shift s for x in [xlo, xhi] (xlo <= 0 <=
 * xhi: one side is 0); neg 1 for the alpha branch. */
AOT_INLINE int aot_lrs_branch(int32_t m, int32_t s, int64_t xlo, int64_t xhi, int neg,
                              aot_lrs_br *b) {
  const int32_t l = s > 0 ? s : 0, e = s > 0 ? 0 : -s;
  if (m < 0 || l > 20 || e > 31) return 0;
  if (xhi * ((int64_t)1 << l) >= ((int64_t)1 << 30)) return 0;
  if (xlo * ((int64_t)1 << l) < -((int64_t)1 << 30)) return 0;
  b->sh = l + 1;
  b->m = m;
  b->e = e;
  b->rnd_m = neg && e > 0 ? -1 : 0;
  b->rnd = (e > 0 ? (int32_t)1 << (e - 1) : 0) + b->rnd_m;
  return 1;
}

/* tmin, tmax: the element type's range. Returns 0 when the fast path does
 * not apply. */
AOT_INLINE int aot_lrs_setup(const aot_leaky_relu_q_params *p, int32_t tmin, int32_t tmax,
                             aot_lrs *q) {
  if (p->in_zp < tmin || p->in_zp > tmax || p->out_zp < tmin || p->out_zp > tmax) return 0;
  q->in_zp = p->in_zp;
  q->out_zp = p->out_zp;
  return aot_lrs_branch(p->mult_identity, p->shift_identity, 0, (int64_t)tmax - p->in_zp, 0,
                        &q->pos) &&
         aot_lrs_branch(p->mult_alpha, p->shift_alpha, (int64_t)tmin - p->in_zp, 0, 1, &q->neg);
}

#ifdef AOT_EWS_MVE
/* one step of 4 lanes: LDX the widened input, STX the store; ZP 1: both
 * zero points are 0. The branch of each lane is selected with the sign mask
 * of x (yp + ((yn - yp) & mask): GCC spills a VPSEL predicate here); the
 * int16 clamp to the type's range is VQMOVNB (saturating narrow into the
 * lanes' low halves, which the halfword store writes; the high halves,
 * left as they were, are not stored). */
#define AOT_LRS_STEP(LDX, STX, ZP)                                                    \
  {                                                                                   \
    const int32x4_t x = (ZP) ? LDX(in_) : vsubq_n_s32(LDX(in_), izp);                 \
    int32x4_t yp = vqrdmulhq_n_s32(vshlq_r_s32(x, lp), mp);                           \
    int32x4_t yn = vqrdmulhq_n_s32(vshlq_r_s32(x, ln), mn);                           \
    yp = vrshlq_n_s32(yp, ep);                                                        \
    yn = vrshlq_n_s32(vaddq_n_s32(yn, cn), en);                                       \
    yp = vaddq_s32(yp, vandq_s32(vsubq_s32(yn, yp), vshrq_n_s32(x, 31)));             \
    if (!(ZP)) yp = vaddq_n_s32(yp, ozp);                                             \
    if (tmax == 32767)                                                                \
      yp = vreinterpretq_s32_s16(vqmovnbq_s32(vreinterpretq_s16_s32(yp), yp));                   \
    else                                                                              \
      yp = vminq_s32(vmaxq_s32(yp, vlo), vhi);                                        \
    STX(out_, yp);                                                                    \
  }
#define AOT_LRS_LOOP(LD, ST, ZP)                                                      \
  {                                                                                   \
    for (; n >= 4; n -= 4, in_ += 4, out_ += 4)                                       \
      AOT_LRS_STEP(AOT_EWS_LDU_##LD, AOT_EWS_STU_##ST, ZP)                            \
    if (n > 0) {                                                                      \
      const mve_pred16_t pr = vctp32q((uint32_t)n);                                   \
      AOT_LRS_STEP(AOT_EWS_LDP_##LD, AOT_EWS_STP_##ST, ZP)                            \
    }                                                                                 \
  }
/* the kernel body: T, LD / ST (AOT_EWS_LDU_* / AOT_EWS_STU_* names of
 * aot_ew_simd.h: vldrbq_z_s32 / vstrbq_p_s32 or the halfword forms) */
#define AOT_LRS_RUN(Q, T, LD, ST, IN, OUT, N)                                         \
  {                                                                                   \
    const T *in_ = (IN);                                                              \
    T *out_ = (OUT);                                                                  \
    int32_t n = (N);                                                                  \
    const int32_t izp = (Q)->in_zp, ozp = (Q)->out_zp;                                \
    const int32_t lp = (Q)->pos.sh - 1, ln = (Q)->neg.sh - 1;                         \
    const int32_t mp = (Q)->pos.m, mn = (Q)->neg.m, cn = (Q)->neg.rnd_m;              \
    const int32_t ep = -(Q)->pos.e, en = -(Q)->neg.e;                                 \
    const int32x4_t vlo = vdupq_n_s32(tmin), vhi = vdupq_n_s32(tmax);                 \
    if (izp == 0 && ozp == 0) AOT_LRS_LOOP(LD, ST, 1)                                 \
    else AOT_LRS_LOOP(LD, ST, 0)                                                      \
  }
#else
/* scalar (Arm DSP: SMMLAR adds the rounding term, SSAT); ZP 1: both zero
 * points are 0 */
#define AOT_LRS_LOOP(T, SAT, ZP)                                                      \
  for (i = 0; i < n; i++) {                                                           \
    const int32_t x = (ZP) ? (int32_t)in_[i] : (int32_t)in_[i] - izp;                   \
    int32_t y;                                                                        \
    if (x >= 0) y = aot_ews_smmlar(x << sp, mp, rp) >> ep;                           \
    else y = aot_ews_smmlar(aot_shl_i32(x, sn), mn, rn) >> en;                        \
    out_[i] = (T)SAT((ZP) ? y : y + ozp);                                              \
  }
#define AOT_LRS_RUN(Q, T, LD, ST, IN, OUT, N)                                         \
  {                                                                                   \
    const T *in_ = (IN);                                                               \
    T *out_ = (OUT);                                                                   \
    const int32_t n = (N), izp = (Q)->in_zp, ozp = (Q)->out_zp;                       \
    const int32_t sp = (Q)->pos.sh, mp = (Q)->pos.m, rp = (Q)->pos.rnd, ep = (Q)->pos.e; \
    const int32_t sn = (Q)->neg.sh, mn = (Q)->neg.m, rn = (Q)->neg.rnd, en = (Q)->neg.e; \
    int32_t i;                                                                        \
    if (izp == 0 && ozp == 0) {                                                       \
      if (tmax == 127) AOT_LRS_LOOP(T, aot_ews_ssat8, 1)                              \
      else AOT_LRS_LOOP(T, aot_ews_ssat16, 1)                                         \
    } else {                                                                          \
      if (tmax == 127) AOT_LRS_LOOP(T, aot_ews_ssat8, 0)                              \
      else AOT_LRS_LOOP(T, aot_ews_ssat16, 0)                                         \
    }                                                                                 \
  }
#endif

/* The body of a LEAKY_RELU kernel of type T and range [TMIN, TMAX]: the
 * fast path when it applies (then returns AOT_KERNEL_OK), else nothing. */
#define AOT_LRS_TRY(P, T, TMIN, TMAX, LD, ST, IN, OUT)                                \
  {                                                                                   \
    aot_lrs q;                                                                        \
    const int32_t tmin = (TMIN), tmax = (TMAX);                                       \
    if (aot_lrs_setup((P), tmin, tmax, &q)) {                                         \
      AOT_LRS_RUN(&q, T, LD, ST, IN, OUT, (P)->size)                                  \
      return AOT_KERNEL_OK;                                                           \
    }                                                                                 \
  }

#else
#define AOT_LRS_TRY(P, T, TMIN, TMAX, LD, ST, IN, OUT)
#endif /* AOT_EWS */

#endif /* AOT_LEAKY_SIMD_H */
