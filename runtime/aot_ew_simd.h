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
  int32_t fast;            /* contiguous rows may use the FAST variant */
  int32_t swap;            /* inputs swapped (commutative operator) */
} aot_ews_addsub;

typedef struct aot_ews_mul {
  int32_t off1, off2, out_off, lo, hi;
  int32_t mult, lsh;       /* mult >= 0, left shift >= 0 */
  aot_ews_rq r;            /* mult unused: the right shift */
  int32_t c8;              /* int8 contiguous rows: aot_ews_mul8_contig */
  int32_t add, cm;         /* out_off * 2^e + rnd; -1: sign correction */
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
  q->swap = 0;
  q->fast = 0;
  return 1;
}

/* size: bytes of the element type */
AOT_INLINE int aot_ews_mul_setup(const aot_mul_q_params *p, int size, aot_ews_mul *q) {
  int64_t add;
  if (p->out_mult < 0 || p->out_shift > 31 || p->out_shift < -31) return 0;
  /* int8: |(a + o1)(b + o2)| <= 2^16, so |product << lsh| < 2^30 for lsh <= 13
   * (SMMULR / VQRDMULH exact); Helium corrects the sign by [product < 0],
   * srdhm's sign for mult > 2^30 */
  add = (int64_t)p->out_offset * ((int64_t)1 << (p->out_shift < 0 ? -p->out_shift : 0)) +
        (p->out_shift < 0 ? (int64_t)1 << (-p->out_shift - 1) : 0);
  q->cm = p->out_shift < 0 ? -1 : 0;
  q->c8 = size == 1 && p->out_shift <= 13 && p->in1_offset >= -128 && p->in1_offset <= 128 &&
          p->in2_offset >= -128 && p->in2_offset <= 128 && add <= ((int64_t)1 << 30) &&
          add >= -((int64_t)1 << 30) && p->act_min >= -128 && p->act_max <= 127 &&
          p->act_min <= p->act_max;
#ifdef AOT_EWS_MVE
  if (q->cm && p->out_mult <= (int32_t)1 << 30) q->c8 = 0;
#endif
  q->add = q->c8 ? (int32_t)add : 0;
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

/* floor((x*m + 2^31) / 2^32) (SMMULR); = srdhm(x / 2, m) for even x. */
AOT_INLINE int32_t aot_ews_smmulr(int32_t x, int32_t m) {
#ifdef AOT_EWS_DSP
  int32_t r;
  __asm__("smmulr %0, %1, %2" : "=r"(r) : "r"(x), "r"(m));
  return r;
#else
  return (int32_t)(((int64_t)x * m + ((int64_t)1 << 31)) >> 32);
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

/* Contiguous rows (both inner strides 1). FAST (a constant 0 or 1): the
 * variant for in1.e == 0 with in1.mult == 2^30 (the input with the larger
 * scale: its multiplier is exactly 0.5, so its rescaled value is
 * (v + off) << (ls - 1) exactly as ls >= 1), in2.e > 0, out.e > 0 (no
 * masks), and (|out_off| + 1) << out.e <= 2^30 (the output offset is added
 * before the rounding shift). */
#ifdef AOT_EWS_MVE
/* unpredicated / predicated (pr) forms of the 4-lane loads and stores */
#define AOT_EWS_LDU_vldrbq_z_s32(P) vldrbq_s32(P)
#define AOT_EWS_LDU_vldrhq_z_s32(P) vldrhq_s32(P)
#define AOT_EWS_STU_vstrbq_p_s32(P, V) vstrbq_s32((P), (V))
#define AOT_EWS_STU_vstrhq_p_s32(P, V) vstrhq_s32((P), (V))
#define AOT_EWS_LDP_vldrbq_z_s32(P) vldrbq_z_s32((P), pr)
#define AOT_EWS_LDP_vldrhq_z_s32(P) vldrhq_z_s32((P), pr)
#define AOT_EWS_STP_vstrbq_p_s32(P, V) vstrbq_p_s32((P), (V), pr)
#define AOT_EWS_STP_vstrhq_p_s32(P, V) vstrhq_p_s32((P), (V), pr)
#define AOT_EWS_CONTIG_STEP(FAST, VOP, LDX, STX)                                     \
  {                                                                                   \
    int32x4_t x1 = vmlasq_n_s32(LDX(a), p1, o1);                                      \
    int32x4_t x2 = vqrdmulhq_n_s32(vmlasq_n_s32(LDX(b), p2, o2), m2);                 \
    int32x4_t y;                                                                      \
    if (!(FAST)) {                                                                    \
      x1 = vqrdmulhq_n_s32(x1, m1);                                                   \
      x1 = vrshlq_n_s32(vqaddq_s32(x1, vandq_s32(vshrq_n_s32(x1, 31), k1)), r1);      \
      x2 = vqaddq_s32(x2, vandq_s32(vshrq_n_s32(x2, 31), k2));                        \
    } else {                                                                          \
      x2 = vqaddq_s32(x2, vshrq_n_s32(x2, 31));                                       \
    }                                                                                 \
    x2 = vrshlq_n_s32(x2, r2);                                                        \
    y = vqrdmulhq_n_s32(VOP(x1, x2), mo);                                             \
    y = vqaddq_s32(y, (FAST) ? vshrq_n_s32(y, 31) : vandq_s32(vshrq_n_s32(y, 31), ko)); \
    y = vaddq_n_s32(vrshlq_n_s32(y, ro), zo);                                         \
    STX(o, vminq_s32(vmaxq_s32(y, lo), hi));                                          \
  }
#define AOT_EWS_CONTIG(FAST, T, OP, VOP, LD, ST, BOUNDED)                                    \
  {                                                                                   \
    const int32_t ls1 = (FAST) ? q->ls - 1 : q->ls;                                   \
    const int32x4_t p1 = vdupq_n_s32((int32_t)1 << ls1);                              \
    const int32x4_t p2 = vdupq_n_s32((int32_t)1 << q->ls);                            \
    const int32_t o1 = aot_shl_i32(q->off1, ls1), o2 = aot_shl_i32(q->off2, q->ls);   \
    const int32_t m1 = q->in1.mult, m2 = q->in2.mult, mo = q->out.mult;               \
    const int32_t r1 = -q->in1.e, r2 = -q->in2.e, ro = -q->out.e, zo = q->out_off;    \
    const int32x4_t k1 = vdupq_n_s32(q->in1.mask), k2 = vdupq_n_s32(q->in2.mask);     \
    const int32x4_t ko = vdupq_n_s32(q->out.mask);                                    \
    const int32x4_t lo = vdupq_n_s32(q->lo), hi = vdupq_n_s32(q->hi);                 \
    for (; n >= 4; n -= 4, a += 4, b += 4, o += 4)                                    \
      AOT_EWS_CONTIG_STEP(FAST, VOP, AOT_EWS_LDU_##LD, AOT_EWS_STU_##ST)              \
    if (n > 0) {                                                                      \
      const mve_pred16_t pr = vctp32q((uint32_t)n);                                   \
      AOT_EWS_CONTIG_STEP(FAST, VOP, AOT_EWS_LDP_##LD, AOT_EWS_STP_##ST)              \
    }                                                                                 \
  }
#else
#define AOT_EWS_CONTIG(FAST, T, OP, VOP, LD, ST, BOUNDED)                                    \
  {                                                                                   \
    const aot_ews_rq q1 = q->in1, q2 = q->in2, qo = q->out;                           \
    const int32_t off1 = q->off1, off2 = q->off2, zo = q->out_off;        \
    const int32_t lo = q->lo, hi = q->hi;                                             \
    const int32_t rzo = qo.rnd + (int32_t)((uint32_t)zo << qo.e);                     \
    const int32_t c1 = aot_shl_i32(off1, 20), c2 = aot_shl_i32(off2, 21);             \
    int32_t i;                                                                        \
    for (i = 0; i < n; i++) {                                                         \
      int32_t x1, x2, y;                                                              \
      if (FAST) {                                                                     \
        /* ls == 20: doubled values, SMMULR(2x, m) = srdhm(x, m) */                    \
        x2 = aot_ews_smmulr(aot_shl_i32((int32_t)b[i], 21) + c2, q2.mult);            \
        x2 = (x2 + (x2 >> 31) + q2.rnd) >> q2.e;                                      \
        x1 = aot_shl_i32((int32_t)a[i], 20) + c1;                                     \
        y = aot_ews_smmulr(x1 OP x2 * 2, qo.mult);                                    \
        y = (y + (y >> 31) + rzo) >> qo.e;                                            \
      } else {                                                                        \
        x1 = AOT_EWS_IN(a[i], off1, q, &q1, BOUNDED);                                 \
        x2 = AOT_EWS_IN(b[i], off2, q, &q2, BOUNDED);                                 \
        y = ((BOUNDED) ? aot_ews_rdb(aot_ews_srdhm_b(x1 OP x2, qo.mult), &qo)         \
                       : aot_rdbpot(aot_ews_srdhm(x1 OP x2, qo.mult), qo.e)) +        \
            zo;                                                                       \
      }                                                                               \
      o[i] = (T)aot_ews_clamp(y, lo, hi);                                             \
    }                                                                                 \
  }
#endif

#ifdef AOT_EWS_MVE
#define AOT_EWS_FAST_OK(BOUNDED) 1
#else
#define AOT_EWS_FAST_OK(BOUNDED) (BOUNDED)
#endif

/* Whether the FAST contiguous variant applies (scalar: BOUNDED only). */
AOT_INLINE int aot_ews_is_fast(const aot_ews_addsub *q) {
  const int32_t az = q->out_off < 0 ? -q->out_off : q->out_off;
#ifndef AOT_EWS_MVE
  if (q->ls != 20) return 0; /* the scalar FAST variant has ls = 20 built in */
#endif
  return q->ls >= 1 && q->in1.e == 0 && q->in1.mult == (int32_t)1 << 30 && q->in2.e > 0 &&
         q->out.e > 0 && q->out.e < 30 && ((int64_t)(az + 1) << q->out.e) <= ((int64_t)1 << 30);
}

/* For a commutative operator: puts the input that allows the FAST variant
 * first (q->swap = 1 when the row functions must swap their inputs). */
AOT_INLINE void aot_ews_prefer_fast(aot_ews_addsub *q) {
  aot_ews_addsub t = *q;
  q->swap = 0;
  if (aot_ews_is_fast(q)) return;
  t.in1 = q->in2;
  t.in2 = q->in1;
  t.off1 = q->off2;
  t.off2 = q->off1;
  if (aot_ews_is_fast(&t)) {
    *q = t;
    q->swap = 1;
  }
}

/* Broadcast rows (one inner stride 0): the stride-0 input is rescaled once. */
#ifdef AOT_EWS_MVE
#define AOT_EWS_BCAST_ROW(T, OP, VOP, LD, ST, BOUNDED)                                \
  {                                                                                   \
    const int32x4_t pw = vdupq_n_s32((int32_t)1 << q->ls);                            \
    const aot_ews_rq q1 = q->in1, q2 = q->in2;                                        \
    const aot_ews_addsub qc = *q;                                                     \
    const int32_t o1 = aot_shl_i32(q->off1, q->ls), o2 = aot_shl_i32(q->off2, q->ls); \
    const int vary1 = sa != 0;                                                        \
    const int32x4_t c = vdupq_n_s32(vary1 ? AOT_EWS_IN(b[0], q->off2, q, &q2, 0)      \
                                          : AOT_EWS_IN(a[0], q->off1, q, &q1, 0));    \
    const T *v = vary1 ? a : b;                                                       \
    const aot_ews_rq qv = vary1 ? q1 : q2;                                            \
    const int32_t ov = vary1 ? o1 : o2;                                               \
    int32_t i;                                                                        \
    for (i = 0; i < n; i += 4) {                                                      \
      const mve_pred16_t pr = vctp32q((uint32_t)(n - i));                             \
      const int32x4_t x = aot_ews_mve_in(LD(v + i, pr), pw, ov, &qv);                 \
      ST(o + i, aot_ews_mve_out(vary1 ? VOP(x, c) : VOP(c, x), &qc), pr);             \
    }                                                                                 \
  }
#else
#define AOT_EWS_BCAST_ROW(T, OP, VOP, LD, ST, BOUNDED)                                \
  {                                                                                   \
    const aot_ews_addsub qc = *q;                                                     \
    int32_t i;                                                                        \
    if (sa) {                                                                         \
      const int32_t x2 = AOT_EWS_IN(b[0], qc.off2, &qc, &qc.in2, BOUNDED);            \
      for (i = 0; i < n; i++) {                                                       \
        const int32_t x1 = AOT_EWS_IN(a[i], qc.off1, &qc, &qc.in1, BOUNDED);          \
        o[i] = (T)AOT_EWS_OUT(x1 OP x2, &qc, BOUNDED);                                \
      }                                                                               \
    } else {                                                                          \
      const int32_t x1 = AOT_EWS_IN(a[0], qc.off1, &qc, &qc.in1, BOUNDED);            \
      for (i = 0; i < n; i++) {                                                       \
        const int32_t x2 = AOT_EWS_IN(b[i], qc.off2, &qc, &qc.in2, BOUNDED);          \
        o[i] = (T)AOT_EWS_OUT(x1 OP x2, &qc, BOUNDED);                                \
      }                                                                               \
    }                                                                                 \
  }
#endif

/* Row function NAME(q, a, sa, b, sb, o, n) for element type T with OP + or -
 * (VOP vaddq_s32 / vsubq_s32), Helium load/store LD / ST (4 lanes widened to
 * int32), BOUNDED as above (|x| < 2^30 everywhere: int8). sa, sb are 0 or 1,
 * not both 0. */
#define AOT_EWS_ADDSUB_ROW(NAME, T, OP, VOP, LD, ST, BOUNDED)                         \
  static void NAME##_contig(const aot_ews_addsub *q, const T *a, const T *b, T *o,    \
                            int32_t n) {                                              \
    if ((AOT_EWS_FAST_OK(BOUNDED)) && q->fast) AOT_EWS_CONTIG(1, T, OP, VOP, LD, ST, BOUNDED)                 \
    else AOT_EWS_CONTIG(0, T, OP, VOP, LD, ST, BOUNDED)                                      \
  }                                                                                   \
  static void NAME##_bcast(const aot_ews_addsub *q, const T *a, int32_t sa, const T *b, \
                           T *o, int32_t n) AOT_EWS_BCAST_ROW(T, OP, VOP, LD, ST, BOUNDED) \
  static void NAME(const aot_ews_addsub *q, const T *a, int32_t sa, const T *b,       \
                   int32_t sb, T *o, int32_t n) {                                     \
    if (q->swap) {                                                                    \
      const T *t = a;                                                                 \
      int32_t s = sa;                                                                 \
      a = b;                                                                          \
      b = t;                                                                          \
      sa = sb;                                                                        \
      sb = s;                                                                         \
    }                                                                                 \
    if (sa && sb) NAME##_contig(q, a, b, o, n);                                       \
    else NAME##_bcast(q, a, sa, b, o, n);                                             \
  }

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

/* ---- int8 flat ADD / SUB through a rescale table ---------------------------
 * TFLite gives the input with the larger scale the multiplier 2^30 with shift
 * 0 ("linear": its rescaled value is (v + off) << 19 exactly). The other
 * input's rescaled value s(v) takes 256 values, held by a table indexed by its
 * byte (as uint8), with the linear input's offset folded in. One element is
 *   X = tab[t] + l * c,   c = +-2^20 (X = 2S; DSP, scalar) or +-2^19 (X = S)
 *   y = srdhm(S, mo) + add,  add = zo * 2^e + 2^(e-1)   (SMMLAR; VQRDMLASH)
 *   out = clamp(floor((y - [S < 0]) / 2^e), lo, hi)
 * (|S| < 2^28, so SMMLAR(2S, mo, add) is exact). [S < 0] is srdhm's sign for
 * mo > 2^30; it is dropped (FAST) when zo <= lo = -128 and hi = 127: then any
 * negative y clamps to lo either way. Helium takes the floor and the int8
 * saturation with one saturating shift left by 24 - e and a shift right by
 * 24. */
/* AOT_EWS_TAB_MIN: aot_elementwise.h */

typedef struct aot_ews_tabk {
  const int32_t *tab;                /* 256 entries, in the caller's scratch */
  int32_t mo, add, e, c, lo, hi, cm; /* cm: -1 with the sign correction */
  int32_t fast;                      /* no correction, full int8 range */
  int32_t tin;                       /* 1: in2 is the table input */
} aot_ews_tabk;

#ifdef AOT_EWS_MVE
#define AOT_EWS_TAB_UNIT 524288 /* 2^19: X = S */
#else
#define AOT_EWS_TAB_UNIT 1048576 /* 2^20: X = 2S */
#endif

#if defined(__GNUC__) || defined(__clang__)
#define AOT_EWS_NOINLINE static __attribute__((noinline, unused))
#else
#define AOT_EWS_NOINLINE static
#endif

/* tab[(uint8_t)v] = rdb(srdhm(x, q->mult), q) * mul + addc for v = -128..127,
 * x = x0 + (v + 128) * 2^20 (|x| <= 2^28) */
AOT_EWS_NOINLINE void aot_ews_tab_fill(int32_t *tab, int32_t x0, const aot_ews_rq *q, int32_t mul,
                                       int32_t addc) {
  int32_t i;
#ifdef AOT_EWS_MVE
  int32x4_t x = vaddq_n_s32(vmulq_n_s32(vreinterpretq_s32_u32(vidupq_n_u32(0, 1)), 1048576), x0);
  for (i = 0; i < 256; i += 4) {
    const int32x4_t y = aot_ews_mve_rdb(vqrdmulhq_n_s32(x, q->mult), q);
    vstrwq_s32(tab + (i ^ 128), vaddq_n_s32(vmulq_n_s32(y, mul), addc));
    x = vaddq_n_s32(x, 4 * 1048576);
  }
#else
  const int32_t m = q->mult, rnd = q->rnd, mask = q->mask, e = q->e;
  int32_t x = x0, h;
  int32_t *dst = tab + 128; /* v = -128..-1, then 0..127 */
  for (h = 0; h < 2; h++, dst = tab) {
    for (i = 0; i < 128; i += 2, x += 2 * 1048576) {
      const int32_t y0 = aot_ews_srdhm_b(x, m), y1 = aot_ews_srdhm_b(x + 1048576, m);
      *dst++ = ((y0 + rnd + ((y0 >> 31) & mask)) >> e) * mul + addc;
      *dst++ = ((y1 + rnd + ((y1 >> 31) & mask)) >> e) * mul + addc;
    }
  }
#endif
}

/* Fills k for ADD (sub 0) or SUB (sub 1) of parameters p, which the table
 * path takes (aot_ews_tab_applies), and the table tab (256 entries, 4-byte
 * aligned: the kernel's scratch, AOT_EWS_TAB_BYTES). */
AOT_INLINE void aot_ews_tab_setup(const aot_addsub_q_params *p, int sub, int32_t *tab,
                                  aot_ews_tabk *k) {
  aot_ews_rq q1, q2, qo, qt;
  int32_t offt, offl;
  int64_t add;
  const int32_t u = AOT_EWS_TAB_UNIT, f = AOT_EWS_TAB_UNIT / 524288;
  /* every range the constants below need holds when the path applies */
  (void)aot_ews_rq_make(p->in1_mult, p->in1_shift, &q1);
  (void)aot_ews_rq_make(p->in2_mult, p->in2_shift, &q2);
  (void)aot_ews_rq_make(p->out_mult, p->out_shift, &qo);
  k->tin = q2.e == 0 && q2.mult == (int32_t)1 << 30 ? 0 : 1;
  add = (int64_t)p->out_offset * ((int64_t)1 << qo.e) + qo.rnd;
  k->fast = p->out_offset <= p->act_min && p->act_min == -128 && p->act_max == 127;
  k->cm = p->out_offset > p->act_min && qo.e > 0 ? -1 : 0;
  k->mo = qo.mult;
  k->add = (int32_t)add;
  k->e = qo.e;
  k->lo = p->act_min;
  k->hi = p->act_max;
  qt = k->tin ? q2 : q1;
  offt = k->tin ? p->in2_offset : p->in1_offset;
  offl = k->tin ? p->in1_offset : p->in2_offset;
  k->c = sub && !k->tin ? -u : u;
  k->tab = tab;
  aot_ews_tab_fill(tab, (offt - 128) * 1048576, &qt, sub && k->tin ? -f : f,
                   sub && !k->tin ? -offl * u : offl * u);
}

#ifdef AOT_EWS_MVE
/* one step of 4 elements: GATHER(indices), LDL (the linear input), STO
 * (the store), unpredicated or predicated by pr (tail) */
#define AOT_EWS_TAB_GU(I) vldrwq_gather_shifted_offset_s32(tab, vldrbq_u32(I))
#define AOT_EWS_TAB_GP(I) vldrwq_gather_shifted_offset_z_s32(tab, vldrbq_z_u32((I), pr), pr)
#define AOT_EWS_TAB_LU(P) vldrbq_s32(P)
#define AOT_EWS_TAB_LP(P) vldrbq_z_s32((P), pr)
#define AOT_EWS_TAB_SU(P, V) vstrbq_s32((P), (V))
#define AOT_EWS_TAB_SP(P, V) vstrbq_p_s32((P), (V), pr)
#define AOT_EWS_TAB_STEP(FAST, GATHER, LDL, STO)                                      \
  {                                                                                   \
    const int32x4_t x = vmlaq_n_s32(GATHER(tp), LDL(lp), c);                          \
    int32x4_t y;                                                                      \
    if (FAST) {                                                                       \
      y = vqrdmlashq_n_s32(x, vmo, add);                                              \
    } else {                                                                          \
      y = vaddq_n_s32(vandq_s32(vshrq_n_s32(x, 31), vcm), add);                       \
      y = vqrdmlahq_n_s32(y, x, mo);                                                  \
    }                                                                                 \
    y = vshrq_n_s32(vqshlq_r_s32(y, sh), 24);                                         \
    if (!(FAST)) y = vmaxq_s32(vminq_s32(y, vhi), vlo);                               \
    STO(op, y);                                                                       \
    tp += 4;                                                                          \
    lp += 4;                                                                          \
    op += 4;                                                                          \
  }
#define AOT_EWS_TAB_LOOP(FAST)                                                        \
  {                                                                                   \
    int32_t j;                                                                        \
    for (j = n >> 3; j > 0; j--) {                                                    \
      AOT_EWS_TAB_STEP(FAST, AOT_EWS_TAB_GU, AOT_EWS_TAB_LU, AOT_EWS_TAB_SU)           \
      AOT_EWS_TAB_STEP(FAST, AOT_EWS_TAB_GU, AOT_EWS_TAB_LU, AOT_EWS_TAB_SU)           \
    }                                                                                 \
    for (n &= 7; n > 0; n -= 4) {                                                     \
      const mve_pred16_t pr = vctp32q((uint32_t)n);                                   \
      AOT_EWS_TAB_STEP(FAST, AOT_EWS_TAB_GP, AOT_EWS_TAB_LP, AOT_EWS_TAB_SP)           \
    }                                                                                 \
  }
AOT_EWS_NOINLINE void aot_ews_tab_run(const aot_ews_tabk *k, const int8_t *t, const int8_t *l, int8_t *o,
                                int32_t n) {
  const int32_t *tab = k->tab;
  const uint8_t *tp = (const uint8_t *)t;
  const int8_t *lp = l;
  int8_t *op = o;
  const int32_t c = k->c, mo = k->mo, add = k->add, sh = 24 - k->e;
  const int32x4_t vmo = vdupq_n_s32(mo), vcm = vdupq_n_s32(k->cm);
  const int32x4_t vlo = vdupq_n_s32(k->lo), vhi = vdupq_n_s32(k->hi);
  if (k->fast) {
    int32_t j = n >> 4;
    (void)vmo;
    if (j > 0) {
      /* the FAST steps of AOT_EWS_TAB_STEP, sixteen elements a turn, in
       * assembly for the post-indexed loads and stores */
      __asm__ volatile(
          "vdup.32 q3, %[mo]\n"
          "1:\n\t"
          "vldrb.u32 q0, [%[tp]], #4\n\t"
          "vldrb.s32 q1, [%[lp]], #4\n\t"
          "vldrw.u32 q2, [%[tab], q0, uxtw #2]\n\t"
          "vmla.s32 q2, q1, %[c]\n\t"
          "vqrdmlash.s32 q2, q3, %[add]\n\t"
          "vqshl.s32 q2, %[sh]\n\t"
          "vshr.s32 q2, q2, #24\n\t"
          "vstrb.32 q2, [%[op]], #4\n\t"
          "vldrb.u32 q0, [%[tp]], #4\n\t"
          "vldrb.s32 q1, [%[lp]], #4\n\t"
          "vldrw.u32 q2, [%[tab], q0, uxtw #2]\n\t"
          "vmla.s32 q2, q1, %[c]\n\t"
          "vqrdmlash.s32 q2, q3, %[add]\n\t"
          "vqshl.s32 q2, %[sh]\n\t"
          "vshr.s32 q2, q2, #24\n\t"
          "vstrb.32 q2, [%[op]], #4\n\t"
          "vldrb.u32 q0, [%[tp]], #4\n\t"
          "vldrb.s32 q1, [%[lp]], #4\n\t"
          "vldrw.u32 q2, [%[tab], q0, uxtw #2]\n\t"
          "vmla.s32 q2, q1, %[c]\n\t"
          "vqrdmlash.s32 q2, q3, %[add]\n\t"
          "vqshl.s32 q2, %[sh]\n\t"
          "vshr.s32 q2, q2, #24\n\t"
          "vstrb.32 q2, [%[op]], #4\n\t"
          "vldrb.u32 q0, [%[tp]], #4\n\t"
          "vldrb.s32 q1, [%[lp]], #4\n\t"
          "vldrw.u32 q2, [%[tab], q0, uxtw #2]\n\t"
          "vmla.s32 q2, q1, %[c]\n\t"
          "vqrdmlash.s32 q2, q3, %[add]\n\t"
          "vqshl.s32 q2, %[sh]\n\t"
          "vshr.s32 q2, q2, #24\n\t"
          "vstrb.32 q2, [%[op]], #4\n\t"
          "subs %[j], %[j], #1\n\t"
          "bne 1b"
          /* "l": the widening VLDRB.32 / VSTRB.32 take r0-r7 only */
          : [tp] "+l"(tp), [lp] "+l"(lp), [op] "+l"(op), [j] "+r"(j)
          : [tab] "r"(tab), [mo] "r"(mo), [c] "r"(c), [add] "r"(add), [sh] "r"(sh)
          : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "memory", "cc");
    }
    n &= 15;
  }
  /* the tail, and every non-FAST row (FAST implies cm = 0, full range) */
  AOT_EWS_TAB_LOOP(0)
}
#else
/* SMMLAR: floor((a * 2^32 + x * m + 2^31) / 2^32) */
AOT_INLINE int32_t aot_ews_smmlar(int32_t x, int32_t m, int32_t a) {
#ifdef AOT_EWS_DSP
  int32_t r;
  __asm__("smmlar %0, %1, %2, %3" : "=r"(r) : "r"(x), "r"(m), "r"(a));
  return r;
#else
  return (int32_t)(((int64_t)a * 4294967296LL + (int64_t)x * m + ((int64_t)1 << 31)) >> 32);
#endif
}
AOT_INLINE int32_t aot_ews_ssat8(int32_t x) {
#ifdef AOT_EWS_DSP
  int32_t r;
  __asm__("ssat %0, #8, %1" : "=r"(r) : "r"(x));
  return r;
#else
  return x < -128 ? -128 : (x > 127 ? 127 : x);
#endif
}
AOT_INLINE int32_t aot_ews_ssat16(int32_t x) {
#ifdef AOT_EWS_DSP
  int32_t r;
  __asm__("ssat %0, #16, %1" : "=r"(r) : "r"(x));
  return r;
#else
  return x < -32768 ? -32768 : (x > 32767 ? 32767 : x);
#endif
}
#define AOT_EWS_TAB_EL(FAST)                                                          \
  {                                                                                   \
    const int32_t x = tab[*tp++] + (int32_t)*lp++ * c;                                \
    int32_t y = aot_ews_smmlar(x, mo, add);                                           \
    if (!(FAST)) y += (x >> 31) & cm;                                                 \
    y = aot_ews_ssat8(y >> e);                                                        \
    if (!(FAST)) y = aot_ews_clamp(y, lo, hi);                                        \
    *op++ = (int8_t)y;                                                                \
  }
#define AOT_EWS_TAB_LOOP(FAST)                                                        \
  {                                                                                   \
    const int8_t *const end4 = lp + (n & ~3), *const end = lp + n;                    \
    while (lp != end4) {                                                              \
      AOT_EWS_TAB_EL(FAST) AOT_EWS_TAB_EL(FAST) AOT_EWS_TAB_EL(FAST) AOT_EWS_TAB_EL(FAST) \
    }                                                                                 \
    while (lp != end) AOT_EWS_TAB_EL(FAST)                                            \
  }
AOT_EWS_NOINLINE void aot_ews_tab_run(const aot_ews_tabk *k, const int8_t *t, const int8_t *l, int8_t *o,
                                int32_t n) {
  const int32_t *tab = k->tab;
  const uint8_t *tp = (const uint8_t *)t;
  const int8_t *lp = l;
  int8_t *op = o;
  const int32_t c = k->c, mo = k->mo, add = k->add, e = k->e, cm = k->cm;
  const int32_t lo = k->lo, hi = k->hi;
#ifdef AOT_EWS_DSP
  if (k->fast && n >= 4) {
    /* the FAST elements of AOT_EWS_TAB_EL, four a turn, in assembly for the
     * post-indexed loads and stores */
    int32_t j = n >> 2, a, b, x, y;
    __asm__ volatile(
        "1:\n\t"
        "ldrb %[a], [%[tp]], #1\n\t"
        "ldrsb %[b], [%[lp]], #1\n\t"
        "ldr %[x], [%[tab], %[a], lsl #2]\n\t"
        "mla %[x], %[b], %[c], %[x]\n\t"
        "ldrb %[a], [%[tp]], #1\n\t"
        "smmlar %[x], %[x], %[mo], %[add]\n\t"
        "ldrsb %[b], [%[lp]], #1\n\t"
        "ldr %[y], [%[tab], %[a], lsl #2]\n\t"
        "asr %[x], %[x], %[e]\n\t"
        "mla %[y], %[b], %[c], %[y]\n\t"
        "ssat %[x], #8, %[x]\n\t"
        "smmlar %[y], %[y], %[mo], %[add]\n\t"
        "strb %[x], [%[op]], #1\n\t"
        "asr %[y], %[y], %[e]\n\t"
        "ssat %[y], #8, %[y]\n\t"
        "strb %[y], [%[op]], #1\n\t"
        "ldrb %[a], [%[tp]], #1\n\t"
        "ldrsb %[b], [%[lp]], #1\n\t"
        "ldr %[x], [%[tab], %[a], lsl #2]\n\t"
        "mla %[x], %[b], %[c], %[x]\n\t"
        "ldrb %[a], [%[tp]], #1\n\t"
        "smmlar %[x], %[x], %[mo], %[add]\n\t"
        "ldrsb %[b], [%[lp]], #1\n\t"
        "ldr %[y], [%[tab], %[a], lsl #2]\n\t"
        "asr %[x], %[x], %[e]\n\t"
        "mla %[y], %[b], %[c], %[y]\n\t"
        "ssat %[x], #8, %[x]\n\t"
        "smmlar %[y], %[y], %[mo], %[add]\n\t"
        "strb %[x], [%[op]], #1\n\t"
        "asr %[y], %[y], %[e]\n\t"
        "ssat %[y], #8, %[y]\n\t"
        "strb %[y], [%[op]], #1\n\t"
        "subs %[j], %[j], #1\n\t"
        "bne 1b"
        : [tp] "+r"(tp), [lp] "+r"(lp), [op] "+r"(op), [j] "+r"(j), [a] "=&r"(a), [b] "=&r"(b),
          [x] "=&r"(x), [y] "=&r"(y)
        : [tab] "r"(tab), [mo] "r"(mo), [c] "r"(c), [add] "r"(add), [e] "r"(e)
        : "memory", "cc");
    n &= 3;
  }
  /* the tail, and every non-FAST row (FAST implies cm = 0, full range) */
  AOT_EWS_TAB_LOOP(0)
#else
  if (k->fast) AOT_EWS_TAB_LOOP(1)
  else AOT_EWS_TAB_LOOP(0)
#endif
}
#endif

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
    if (sa && sb && q->c8) { /* aot_ew_q.h */                                        \
      aot_ews_mul8_contig(q, (const int8_t *)a, (const int8_t *)b, (int8_t *)o, n);    \
    } else if (sa && sb) {                                                            \
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
    if (sa && sb && q->c8) { /* aot_ew_q.h */                                        \
      aot_ews_mul8_contig(q, (const int8_t *)a, (const int8_t *)b, (int8_t *)o, n);    \
    } else if (sa && sb) {                                                            \
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
