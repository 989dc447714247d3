/* aot_ew_simd.h - fast paths of the quantized ADD / SUB / MUL kernels (int8
 * and int16), bit-identical to the portable per-element functions of
 * BasicMathFunctions/aot_{add,sub,mul}_s{8,16}.c (TFLite reference
 * arithmetic, gemmlowp double rounding).
 *
 * The output is walked as rows of the broadcast (aot_bcast): a row whose
 * inputs each have inner stride 1 or 0 (equal shapes, a scalar, or a
 * broadcast of an innermost-contiguous block) runs a loop without index
 * arithmetic; a stride-0 input is requantized once per row. Other rows fall
 * back to the portable element function.
 *
 * Arithmetic (every multiplier is >= 0, which the compiler guarantees; the
 * setup functions check it and return 0 to select the portable loop):
 *  - SaturatingRoundingDoublingHighMul(x, m) = floor((x*m + 2^30) / 2^31)
 *    for every sign of x*m (the sign-dependent nudge with truncation of
 *    gemmlowp gives the same integer); it saturates only for
 *    x = m = INT32_MIN, impossible with m >= 0. Helium computes it with
 *    VQRDMULH; Arm DSP with SMMULR(2x, m) when |x| < 2^30 (ADD/SUB int8:
 *    |x| < 2^28); elsewhere with one 64-bit product.
 *  - RoundingDivideByPOT(y, e) (half away from zero) = floor((y + 2^(e-1) -
 *    [y < 0]) / 2^e) for e > 0 and y for e = 0: rnd = 2^(e-1), mask = -1 for
 *    e > 0, rnd = mask = 0 for e = 0. Helium: VRSHL by -e rounds half up
 *    (floor((y + 2^(e-1)) / 2^e) computed without overflow) after adding
 *    (y >> 31) & mask with saturation (y = INT32_MIN gives the same quotient).
 * tests/target/ew_rec_kernels.c compares every path with the portable
 * kernels on random shapes, broadcasts, zero points and multipliers. */
#ifndef AOT_EW_SIMD_H
#define AOT_EW_SIMD_H

#include "aot_elementwise.h"

#if !defined(AOT_NO_SIMD)
#define AOT_EWS 1
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>
#define AOT_EWS_MVE 1
#elif defined(__ARM_FEATURE_DSP)
#define AOT_EWS_DSP 1
#endif
#endif

#ifdef AOT_EWS

/* Rescale constants of one input (or of the output) of ADD / SUB. */
typedef struct aot_ews_rq {
  int32_t mult;    /* >= 0 */
  int32_t e;       /* right shift 0..31 */
  int32_t rnd;     /* 2^(e-1), or 0 for e = 0 */
  int32_t mask;    /* -1 for e > 0, 0 for e = 0 */
} aot_ews_rq;

typedef struct aot_ews_addsub {
  aot_ews_rq in1, in2, out;
  int32_t off1, off2;      /* input offsets */
  int32_t ls;              /* left shift of the offset inputs */
  int32_t out_off, lo, hi;
} aot_ews_addsub;

typedef struct aot_ews_mul {
  int32_t off1, off2, out_off, lo, hi;
  int32_t mult, lsh;       /* mult >= 0, left shift >= 0 */
  aot_ews_rq r;            /* mult unused: the right shift */
} aot_ews_mul;

/* From a TFLite (multiplier, shift <= 0) pair; 0 when out of range. */
AOT_INLINE int aot_ews_rq_make(int32_t mult, int32_t shift, aot_ews_rq *q) {
  if (mult < 0 || shift > 0 || shift < -31) return 0;
  q->mult = mult;
  q->e = -shift;
  q->rnd = shift < 0 ? (int32_t)1 << (-shift - 1) : 0;
  q->mask = shift < 0 ? -1 : 0;
  return 1;
}

/* max_abs: largest |value + offset| of the type (255 for int8, 65535 for
 * int16); max_ls: largest left shift the caller's arithmetic allows (int8:
 * 20, so that |x| < 2^28; int16: 15). Returns 0 when the fast path does not
 * apply. */
AOT_INLINE int aot_ews_addsub_setup(const aot_addsub_q_params *p, int32_t max_abs,
                                    int32_t max_ls, aot_ews_addsub *q) {
  if (p->left_shift < 0 || p->left_shift > max_ls) return 0;
  if (((int64_t)max_abs << p->left_shift) > INT32_MAX) return 0;
  if (p->in1_offset < -max_abs / 2 - 1 || p->in1_offset > max_abs / 2 + 1) return 0;
  if (p->in2_offset < -max_abs / 2 - 1 || p->in2_offset > max_abs / 2 + 1) return 0;
  if (!aot_ews_rq_make(p->in1_mult, p->in1_shift, &q->in1) ||
      !aot_ews_rq_make(p->in2_mult, p->in2_shift, &q->in2) ||
      !aot_ews_rq_make(p->out_mult, p->out_shift, &q->out))
    return 0;
  q->off1 = p->in1_offset;
  q->off2 = p->in2_offset;
  q->ls = p->left_shift;
  q->out_off = p->out_offset;
  q->lo = p->act_min;
  q->hi = p->act_max;
  return 1;
}

AOT_INLINE int aot_ews_mul_setup(const aot_mul_q_params *p, aot_ews_mul *q) {
  if (p->out_mult < 0 || p->out_shift > 31 || p->out_shift < -31) return 0;
  q->off1 = p->in1_offset;
  q->off2 = p->in2_offset;
  q->out_off = p->out_offset;
  q->lo = p->act_min;
  q->hi = p->act_max;
  q->mult = p->out_mult;
  q->lsh = p->out_shift > 0 ? p->out_shift : 0;
  return aot_ews_rq_make(0, p->out_shift > 0 ? 0 : p->out_shift, &q->r);
}

/* ---- scalar pieces --------------------------------------------------------- */

/* SaturatingRoundingDoublingHighMul for m >= 0 (any x). */
AOT_INLINE int32_t aot_ews_srdhm(int32_t x, int32_t m) {
  return (int32_t)(((int64_t)x * m + ((int64_t)1 << 30)) >> 31);
}

/* The same for |x| < 2^30. */
AOT_INLINE int32_t aot_ews_srdhm_b(int32_t x, int32_t m) {
#ifdef AOT_EWS_DSP
  int32_t r;
  __asm__("smmulr %0, %1, %2" : "=r"(r) : "r"(x * 2), "r"(m));
  return r;
#else
  return aot_ews_srdhm(x, m);
#endif
}

AOT_INLINE int32_t aot_ews_rdb(int32_t y, const aot_ews_rq *q) {
  return (y + q->rnd + ((y >> 31) & q->mask)) >> q->e;
}

AOT_INLINE int32_t aot_ews_clamp(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

/* ---- Helium pieces ----------------------------------------------------------- */
#ifdef AOT_EWS_MVE
AOT_INLINE int32x4_t aot_ews_mve_rdb(int32x4_t y, const aot_ews_rq *q) {
  y = vqaddq_s32(y, vandq_s32(vshrq_n_s32(y, 31), vdupq_n_s32(q->mask)));
  return vrshlq_n_s32(y, -q->e);
}
/* rescaled input: rdb(srdhm((v + off) << ls, mult)) */
AOT_INLINE int32x4_t aot_ews_mve_in(int32x4_t v, int32x4_t pow_ls, int32_t off_ls,
                                    const aot_ews_rq *q) {
  return aot_ews_mve_rdb(vqrdmulhq_n_s32(vmlasq_n_s32(v, pow_ls, off_ls), q->mult), q);
}
AOT_INLINE int32x4_t aot_ews_mve_out(int32x4_t sum, const aot_ews_addsub *q) {
  int32x4_t r = vaddq_n_s32(aot_ews_mve_rdb(vqrdmulhq_n_s32(sum, q->out.mult), &q->out),
                            q->out_off);
  return vminq_s32(vmaxq_s32(r, vdupq_n_s32(q->lo)), vdupq_n_s32(q->hi));
}
#endif

/* ---- ADD / SUB kernel body ------------------------------------------------ */

/* Rescaled input value (scalar). BOUNDED: |(v + off) << ls| < 2^30. */
#define AOT_EWS_IN(V, OFF, Q, RQ, BOUNDED)                                            \
  ((BOUNDED) ? aot_ews_rdb(aot_ews_srdhm_b(aot_shl_i32((int32_t)(V) + (OFF), (Q)->ls), \
                                           (RQ)->mult),                               \
                           (RQ))                                                      \
             : aot_rdbpot(aot_ews_srdhm(aot_shl_i32((int32_t)(V) + (OFF), (Q)->ls),    \
                                        (RQ)->mult),                                  \
                          (RQ)->e))

#define AOT_EWS_OUT(SUM, Q, BOUNDED)                                                  \
  aot_ews_clamp(((BOUNDED) ? aot_ews_rdb(aot_ews_srdhm_b((SUM), (Q)->out.mult), &(Q)->out) \
                           : aot_rdbpot(aot_ews_srdhm((SUM), (Q)->out.mult), (Q)->out.e)) + \
                    (Q)->out_off,                                                     \
                (Q)->lo, (Q)->hi)

/* Row function NAME(q, a, sa, b, sb, o, n) for element type T with OP + or -
 * (VOP vaddq_s32 / vsubq_s32), Helium load/store LD / ST (4 lanes widened to
 * int32), BOUNDED as above. sa, sb are 0 or 1. */
#ifdef AOT_EWS_MVE
#define AOT_EWS_ROW_VEC(T, OP, VOP, LD, ST, BOUNDED)                                               \
  {                                                                                   \
    const int32x4_t pw = vdupq_n_s32((int32_t)1 << q->ls);                            \
    const int32_t o1 = aot_shl_i32(q->off1, q->ls), o2 = aot_shl_i32(q->off2, q->ls); \
    int32_t i;                                                                        \
    if (sa && sb) {                                                                   \
      for (i = 0; i < n; i += 4) {                                                    \
        const mve_pred16_t pr = vctp32q((uint32_t)(n - i));                           \
        const int32x4_t x1 = aot_ews_mve_in(LD(a + i, pr), pw, o1, &q->in1);          \
        const int32x4_t x2 = aot_ews_mve_in(LD(b + i, pr), pw, o2, &q->in2);          \
        ST(o + i, aot_ews_mve_out(VOP(x1, x2), q), pr);                               \
      }                                                                               \
    } else if (sa) {                                                                  \
      const int32x4_t x2 = vdupq_n_s32(AOT_EWS_IN(b[0], q->off2, q, &q->in2, 0));     \
      for (i = 0; i < n; i += 4) {                                                    \
        const mve_pred16_t pr = vctp32q((uint32_t)(n - i));                           \
        const int32x4_t x1 = aot_ews_mve_in(LD(a + i, pr), pw, o1, &q->in1);          \
        ST(o + i, aot_ews_mve_out(VOP(x1, x2), q), pr);                               \
      }                                                                               \
    } else {                                                                          \
      const int32x4_t x1 = vdupq_n_s32(AOT_EWS_IN(a[0], q->off1, q, &q->in1, 0));     \
      for (i = 0; i < n; i += 4) {                                                    \
        const mve_pred16_t pr = vctp32q((uint32_t)(n - i));                           \
        const int32x4_t x2 = aot_ews_mve_in(LD(b + i, pr), pw, o2, &q->in2);          \
        ST(o + i, aot_ews_mve_out(VOP(x1, x2), q), pr);                               \
      }                                                                               \
    }                                                                                 \
  }
#else
#define AOT_EWS_ROW_VEC(T, OP, VOP, LD, ST, BOUNDED)                                               \
  {                                                                                   \
    int32_t i;                                                                        \
    if (sa && sb) {                                                                   \
      for (i = 0; i < n; i++) {                                                       \
        const int32_t x1 = AOT_EWS_IN(a[i], q->off1, q, &q->in1, BOUNDED);            \
        const int32_t x2 = AOT_EWS_IN(b[i], q->off2, q, &q->in2, BOUNDED);            \
        o[i] = (T)AOT_EWS_OUT(x1 OP x2, q, BOUNDED);                                  \
      }                                                                               \
    } else if (sa) {                                                                  \
      const int32_t x2 = AOT_EWS_IN(b[0], q->off2, q, &q->in2, BOUNDED);              \
      for (i = 0; i < n; i++) {                                                       \
        const int32_t x1 = AOT_EWS_IN(a[i], q->off1, q, &q->in1, BOUNDED);            \
        o[i] = (T)AOT_EWS_OUT(x1 OP x2, q, BOUNDED);                                  \
      }                                                                               \
    } else {                                                                          \
      const int32_t x1 = AOT_EWS_IN(a[0], q->off1, q, &q->in1, BOUNDED);              \
      for (i = 0; i < n; i++) {                                                       \
        const int32_t x2 = AOT_EWS_IN(b[i], q->off2, q, &q->in2, BOUNDED);            \
        o[i] = (T)AOT_EWS_OUT(x1 OP x2, q, BOUNDED);                                  \
      }                                                                               \
    }                                                                                 \
  }
#endif

#define AOT_EWS_ADDSUB_ROW(NAME, T, OP, VOP, LD, ST, BOUNDED)                         \
  static void NAME(const aot_ews_addsub *q, const T *a, int32_t sa, const T *b,       \
                   int32_t sb, T *o, int32_t n) AOT_EWS_ROW_VEC(T, OP, VOP, LD, ST, BOUNDED)

/* Walks the rows of the broadcast BC: ROW(Q, ...) where both inner strides
 * are 0 or 1 (not both 0), else the portable ELEM(P, a, b) per element. */
#define AOT_EWS_ROWS(BC, IN1, IN2, OUT, ROW, Q, ELEM, P)                              \
  do {                                                                                \
    const aot_bcast *aot_b_ = (BC);                                                   \
    if (aot_b_->ndims == 0) {                                                         \
      if (aot_b_->size > 0) ROW((Q), (IN1), 1, (IN2), 1, (OUT), aot_b_->size);        \
    } else {                                                                          \
      aot_bcast_it aot_it_;                                                           \
      const int32_t aot_n_ = aot_b_->shape[aot_b_->ndims - 1];                        \
      const int32_t aot_s1_ = aot_b_->stride[0][aot_b_->ndims - 1];                   \
      const int32_t aot_s2_ = aot_b_->stride[1][aot_b_->ndims - 1];                   \
      const int aot_fast_ = (aot_s1_ == 0 || aot_s1_ == 1) &&                         \
                            (aot_s2_ == 0 || aot_s2_ == 1) && (aot_s1_ | aot_s2_);    \
      const int32_t aot_rows_ = aot_bcast_rows(aot_b_);                               \
      int32_t aot_r_, aot_i_, aot_o_ = 0;                                             \
      aot_bcast_begin(&aot_it_);                                                      \
      for (aot_r_ = 0; aot_r_ < aot_rows_; aot_r_++) {                                \
        if (aot_fast_) {                                                              \
          ROW((Q), (IN1) + aot_it_.off[0], aot_s1_, (IN2) + aot_it_.off[1], aot_s2_,  \
              (OUT) + aot_o_, aot_n_);                                                \
        } else {                                                                      \
          int32_t aot_j1_ = aot_it_.off[0], aot_j2_ = aot_it_.off[1];                 \
          for (aot_i_ = 0; aot_i_ < aot_n_; aot_i_++) {                               \
            (OUT)[aot_o_ + aot_i_] = ELEM((P), (IN1)[aot_j1_], (IN2)[aot_j2_]);       \
            aot_j1_ += aot_s1_;                                                       \
            aot_j2_ += aot_s2_;                                                       \
          }                                                                           \
        }                                                                             \
        aot_o_ += aot_n_;                                                             \
        aot_bcast_next(aot_b_, &aot_it_);                                             \
      }                                                                               \
    }                                                                                 \
  } while (0)

/* ---- MUL kernel body ------------------------------------------------------ */

AOT_INLINE int32_t aot_ews_mul_s(int32_t x1, int32_t x2, const aot_ews_mul *q) {
  const int32_t y = aot_rdbpot(aot_ews_srdhm(aot_shl_i32(x1 * x2, q->lsh), q->mult), q->r.e);
  return aot_ews_clamp(y + q->out_off, q->lo, q->hi);
}

#ifdef AOT_EWS_MVE
AOT_INLINE int32x4_t aot_ews_mve_mul(int32x4_t x1, int32x4_t x2, const aot_ews_mul *q) {
  int32x4_t y = vqrdmulhq_n_s32(vshlq_r_s32(vmulq_s32(x1, x2), q->lsh), q->mult);
  y = vaddq_n_s32(aot_ews_mve_rdb(y, &q->r), q->out_off);
  return vminq_s32(vmaxq_s32(y, vdupq_n_s32(q->lo)), vdupq_n_s32(q->hi));
}
#define AOT_EWS_MUL_ROW(NAME, T, LD, ST)                                              \
  static void NAME(const aot_ews_mul *q, const T *a, int32_t sa, const T *b,          \
                   int32_t sb, T *o, int32_t n) {                                     \
    int32_t i;                                                                        \
    if (sa && sb) {                                                                   \
      for (i = 0; i < n; i += 4) {                                                    \
        const mve_pred16_t pr = vctp32q((uint32_t)(n - i));                           \
        ST(o + i,                                                                     \
           aot_ews_mve_mul(vaddq_n_s32(LD(a + i, pr), q->off1),                       \
                           vaddq_n_s32(LD(b + i, pr), q->off2), q),                   \
           pr);                                                                       \
      }                                                                               \
    } else {                                                                          \
      const T *v = sa ? a : b;                                                        \
      const int32x4_t c = vdupq_n_s32(sa ? (int32_t)b[0] + q->off2                    \
                                         : (int32_t)a[0] + q->off1);                  \
      const int32_t ov = sa ? q->off1 : q->off2;                                      \
      for (i = 0; i < n; i += 4) {                                                    \
        const mve_pred16_t pr = vctp32q((uint32_t)(n - i));                           \
        ST(o + i, aot_ews_mve_mul(vaddq_n_s32(LD(v + i, pr), ov), c, q), pr);         \
      }                                                                               \
    }                                                                                 \
  }
#else
#define AOT_EWS_MUL_ROW(NAME, T, LD, ST)                                              \
  static void NAME(const aot_ews_mul *q, const T *a, int32_t sa, const T *b,          \
                   int32_t sb, T *o, int32_t n) {                                     \
    int32_t i;                                                                        \
    if (sa && sb) {                                                                   \
      for (i = 0; i < n; i++)                                                         \
        o[i] = (T)aot_ews_mul_s((int32_t)a[i] + q->off1, (int32_t)b[i] + q->off2, q); \
    } else {                                                                          \
      const T *v = sa ? a : b;                                                        \
      const int32_t c = sa ? (int32_t)b[0] + q->off2 : (int32_t)a[0] + q->off1;       \
      const int32_t ov = sa ? q->off1 : q->off2;                                      \
      for (i = 0; i < n; i++) o[i] = (T)aot_ews_mul_s((int32_t)v[i] + ov, c, q);      \
    }                                                                                 \
  }
#endif

#endif /* AOT_EWS */
#endif
