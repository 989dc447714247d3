/* aot_dsp.h - Arm DSP extension (Cortex-M4F/M7/M33) helpers of the int8
 * kernels. Everything here exists only when the compiler targets the DSP
 * extension (__ARM_FEATURE_DSP and __ARM_FEATURE_SIMD32), not MVE (Helium
 * has its own paths, aot_mve.h), and AOT_NO_SIMD is not defined; AOT_DSP is
 * then defined to 1. Kernels that include this header keep their portable
 * loops for every other target.
 *
 * The dot products sum w * x of int8 values exactly in int32: SXTB16 splits
 * a word of four int8 into the 16-bit pairs (b0, b2) and (b1, b3) (with
 * ROR #8), and SMLAD adds both 16 x 16 products of a pair to the
 * accumulator. Input and filter words are split the same way, so the pairs
 * line up without reordering. The input offset is not added per tap: the
 * kernels add a per-channel constant ksum = bias + input_offset * sum w
 * (modular int32 arithmetic: the same integer as the portable sum of
 * w * (x + input_offset) + bias), and pad clipped windows with the input
 * zero point, whose taps then add w * zp + input_offset * w = 0.
 *
 * Requantization is chosen per output channel when a kernel sets up its
 * constants (aot_dsp_kc_set), always bit-identical with aot_conv_mbqm:
 * SMMULR on the doubled accumulator where the accumulator provably stays
 * below 2^30 in magnitude (the common case: 8 instructions per output with
 * the SSAT store), the 64-bit doubling high multiply where it may not, and
 * aot_conv_mbqm itself (out of line) for shifts >= 0. The store is one SSAT
 * when the activation range is all of int8. */
#ifndef AOT_DSP_H
#define AOT_DSP_H

#include "aot_conv.h"

#if defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32) && \
    !(defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)) && !defined(AOT_NO_SIMD)
#include <arm_acle.h>
#include <string.h>

#define AOT_DSP 1

/* The 16-bit halves of two words: aot_dsp_pkhbt (a, b) = (lo16(a),
 * lo16(b)), aot_dsp_pkhtb (a, b) = (hi16(a), hi16(b)) (PKHBT a, b, LSL #16;
 * PKHTB b, a, ASR #16), low half first. */
AOT_INLINE uint32_t aot_dsp_pkhbt(uint32_t a, uint32_t b) {
  uint32_t r;
  __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
AOT_INLINE uint32_t aot_dsp_pkhtb(uint32_t a, uint32_t b) {
  uint32_t r;
  __asm__("pkhtb %0, %1, %2, asr #16" : "=r"(r) : "r"(b), "r"(a));
  return r;
}

/* Whether an output position's window reaches outside the image (padding
 * or a last window past the edge): the layer needs its clipped paths. */
AOT_INLINE int aot_dsp_clips(const aot_conv_params *p) {
  return p->pad_h > 0 || p->pad_w > 0 ||
         (p->out_h - 1) * p->stride_h - p->pad_h + (p->filter_h - 1) * p->dilation_h >= p->in_h ||
         (p->out_w - 1) * p->stride_w - p->pad_w + (p->filter_w - 1) * p->dilation_w >= p->in_w;
}

/* Sum of n int8 values: per word two SXTAB16 into 16-bit lane sums (bytes
 * 0, 2 and 1, 3), at most 256 words per lane sum (|sum| <= 256 * 128 fits
 * int16), then SMLAD with (1, 1) adds the lanes. */
AOT_INLINE int32_t aot_dsp_sum_s8(const int8_t *w, int32_t n) {
  const int16x2_t one = (int16x2_t)0x00010001;
  int32_t t = 0;
  while (n >= 4) {
    int32_t k = n >> 2 < 256 ? n >> 2 : 256;
    int16x2_t a = (int16x2_t)0, b = (int16x2_t)0;
    n -= 4 * k;
    for (; k > 0; k--, w += 4) {
      uint32_t v;
      memcpy(&v, w, 4);
      a = __sxtab16(a, (int8x4_t)v);
      __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(b) : "r"(b), "r"(v));
    }
    t = __smlad(a, one, t);
    t = __smlad(b, one, t);
  }
  for (; n > 0; n--) t += *w++;
  return t;
}

/* Per output channel of the int8 kernels: ks = bias + input_offset * sum w
 * (the sum w * x of the taps is added), the multiplier m and the
 * requantization s set by aot_dsp_kc_set, with rs = -shift - 1 when the
 * shift is in [-31, -1]:
 *  - 0 <= s < 32: s = rs, aot_dsp_rqf (|ks + sum w * x| < 2^30; or m = 0,
 *    whose output is 0 whatever the shift and the sum);
 *  - s >= 32: s = rs + 32, aot_dsp_rq (64-bit doubling high multiply);
 *  - s < 0: s = shift - AOT_DSP_SLOW, aot_conv_mbqm (aot_dsp_mbqm). */
typedef struct aot_dsp_kc {
  int32_t ks, m, s;
} aot_dsp_kc;
#define AOT_DSP_SLOW 64

/* The constants of a matrix-vector product with requantization
 * (aot_dsp_gemv2_s8, the DSP counterpart of aot_mve_gemv_s8): for c < nc,
 *   out[c] = clamp(aot_conv_mbqm(sum_k w[c * len + k] * x[k] + kc[c].ks,
 *                                kc[c].m, shift[c]) + out_off, lo, hi) */
typedef struct aot_dsp_gemv {
  const aot_dsp_kc *kc;           /* nc entries */
  int32_t more_rows;              /* 1: filter rows follow the nc rows (may be read) */
  int32_t full;                   /* 1: lo = -128, hi = 127 (SSAT) */
  int32_t out_off, lo, hi;
} aot_dsp_gemv;

/* aot_conv_mbqm(x, m, shift) for shift < 0 and |x| < 2^30, given
 * rs = -shift - 1 in [0, 30]: (x * m + 2^30) >> 31 (the doubling high
 * multiply; 2x fits int32, so SMMULR's (2x * m + 2^31) >> 32 is the same
 * number without the 64-bit nudge), then r += r >> 31 and
 * ((r >> rs) + 1) >> 1: the rounding right shift without the tests of the
 * shift's sign (see aot_conv.h). */
AOT_INLINE int32_t aot_dsp_rqf(int32_t x, int32_t m, int32_t rs) {
  int32_t r;
  __asm__("smmulr %0, %1, %2" : "=r"(r) : "r"((uint32_t)x << 1), "r"(m));
  r += r >> 31;
  return ((r >> rs) + 1) >> 1;
}

/* 1 when |ks + sum w * x| < 2^30 for every int8 x and n taps of int8 w:
 * |sum w * x| <= 128 * 128 * n */
AOT_INLINE int aot_dsp_small(int32_t ks, int32_t n) {
  const int64_t a = ks < 0 ? -(int64_t)ks : ks;
  return a + (int64_t)n * 16384 < ((int64_t)1 << 30);
}

/* aot_conv_mbqm, not inlined: the kernels' rare path (shifts >= 0 or
 * accumulators that may reach 2^30) */
static __attribute__((noinline, unused)) int32_t aot_dsp_mbqm(int32_t x, int32_t m, int32_t sh) {
  return aot_conv_mbqm(x, m, sh);
}

/* aot_conv_mbqm(x, m, shift) for shift in [-31, -1], given rs = -shift - 1:
 * the 64-bit doubling high multiply, then the rounding right shift */
AOT_INLINE int32_t aot_dsp_rq(int32_t x, int32_t m, int32_t rs) {
  int32_t r = (int32_t)(((int64_t)x * m + ((int64_t)1 << 30)) >> 31);
  r += r >> 31;
  return ((r >> rs) + 1) >> 1;
}

/* the constants of one channel of n taps (see aot_dsp_kc) */
AOT_INLINE void aot_dsp_kc_set(aot_dsp_kc *k, int32_t ks, int32_t m, int32_t sh, int32_t n) {
  k->ks = ks;
  k->m = m;
  if (m == 0)
    k->s = 0;
  else if (sh >= 0 || sh < -31)
    k->s = sh - AOT_DSP_SLOW;
  else
    k->s = -sh - 1 + (aot_dsp_small(ks, n) ? 0 : 32);
}

/* the requantized value of acc (output offset not added) */
AOT_INLINE int32_t aot_dsp_rqk(int32_t acc, const aot_dsp_kc *k) {
  if ((uint32_t)k->s < 32u) return aot_dsp_rqf(acc, k->m, k->s);
  if (k->s >= 32) return aot_dsp_rq(acc, k->m, k->s - 32);
  return aot_dsp_mbqm(acc, k->m, k->s + AOT_DSP_SLOW);
}

/* the int8 of a requantized value v (output offset added): SSAT when the
 * activation range is all of int8 */
AOT_INLINE int8_t aot_dsp_st(int32_t v, int32_t full, int32_t lo, int32_t hi) {
  if (full) return (int8_t)__ssat(v, 8);
  return (int8_t)aot_clamp_i32(v, lo, hi);
}

/* Two positions x two filters: s[2 * p + i] += sum over k < 4 * n4 of
 * w_i[k] * x_p[k], the inputs of both positions already sign-extended into
 * 16-bit pairs by aot_dsp_widen2 (per four taps four words: position 0
 * (k0, k2), (k1, k3), position 1 (k0, k2), (k1, k3)). Per four taps two
 * LDRD of inputs, and per filter one word, two SXTB16 and four SMLAD: each
 * filter word serves both positions. */
AOT_INLINE void aot_dsp_dot2x2(const uint32_t *col, const int8_t *w0, const int8_t *w1,
                               int32_t n4, int32_t *s) {
  int32_t a00 = s[0], a01 = s[1], a10 = s[2], a11 = s[3], t, u, xa, xb, xc, xd;
  if (n4 <= 0) return;
  __asm__ volatile(
      "1:\n\t"
      "ldrd %[xa], %[xb], [%[col]], #8\n\t"
      "ldrd %[xc], %[xd], [%[col]], #8\n\t"
      "ldr %[t], [%[w0]], #4\n\t"
      "sxtb16 %[u], %[t]\n\t"
      "smlad %[a00], %[u], %[xa], %[a00]\n\t"
      "smlad %[a10], %[u], %[xc], %[a10]\n\t"
      "sxtb16 %[t], %[t], ror #8\n\t"
      "smlad %[a00], %[t], %[xb], %[a00]\n\t"
      "smlad %[a10], %[t], %[xd], %[a10]\n\t"
      "ldr %[t], [%[w1]], #4\n\t"
      "sxtb16 %[u], %[t]\n\t"
      "smlad %[a01], %[u], %[xa], %[a01]\n\t"
      "smlad %[a11], %[u], %[xc], %[a11]\n\t"
      "sxtb16 %[t], %[t], ror #8\n\t"
      "smlad %[a01], %[t], %[xb], %[a01]\n\t"
      "smlad %[a11], %[t], %[xd], %[a11]\n\t"
      "subs %[n], %[n], #1\n\t"
      "bne 1b\n"
      : [a00] "+r"(a00), [a01] "+r"(a01), [a10] "+r"(a10), [a11] "+r"(a11), [t] "=&r"(t),
        [u] "=&r"(u), [xa] "=&r"(xa), [xb] "=&r"(xb), [xc] "=&r"(xc), [xd] "=&r"(xd),
        [col] "+r"(col), [w0] "+r"(w0), [w1] "+r"(w1), [n] "+r"(n4)
      :
      : "cc", "memory");
  s[0] = a00;
  s[1] = a01;
  s[2] = a10;
  s[3] = a11;
}

/* The taps of two positions x0, x1 into col in the layout of
 * aot_dsp_dot2x2, (len + 3) / 4 groups of four words; the last group is
 * padded with zero taps. */
AOT_INLINE void aot_dsp_widen2(const int8_t *x0, const int8_t *x1, int32_t len,
                               uint32_t *col) {
  int32_t k;
  for (k = len >> 2; k > 0; k--, x0 += 4, x1 += 4, col += 4) {
    uint32_t v0, v1;
    memcpy(&v0, x0, 4);
    memcpy(&v1, x1, 4);
    col[0] = (uint32_t)__sxtb16((int8x4_t)v0);
    col[1] = (uint32_t)__sxtb16((int8x4_t)((v0 >> 8) | (v0 << 24)));
    col[2] = (uint32_t)__sxtb16((int8x4_t)v1);
    col[3] = (uint32_t)__sxtb16((int8x4_t)((v1 >> 8) | (v1 << 24)));
  }
  if (len & 3) {
    int8_t t0[4] = {0, 0, 0, 0}, t1[4] = {0, 0, 0, 0};
    uint32_t v0, v1;
    for (k = 0; k < (len & 3); k++) {
      t0[k] = x0[k];
      t1[k] = x1[k];
    }
    memcpy(&v0, t0, 4);
    memcpy(&v1, t1, 4);
    col[0] = (uint32_t)__sxtb16((int8x4_t)v0);
    col[1] = (uint32_t)__sxtb16((int8x4_t)((v0 >> 8) | (v0 << 24)));
    col[2] = (uint32_t)__sxtb16((int8x4_t)v1);
    col[3] = (uint32_t)__sxtb16((int8x4_t)((v1 >> 8) | (v1 << 24)));
  }
}

/* The product of aot_dsp_gemv for two input vectors x0, x1 (two output
 * positions, the same filters): out0[c], out1[c] (x1 == x0 and out1 == out0
 * for a single position); col is scratch of 4 * ((len + 3) / 4) words. Two
 * rows share each filter word; the last len % 4 taps of the last block and
 * an odd last row are summed in C. Not inlined: the loop gets the
 * registers. */
static __attribute__((noinline, unused)) void aot_dsp_gemv2_s8(const int8_t *x0,
                                                                const int8_t *x1,
                                                                const int8_t *w, int32_t len,
                                                                int32_t nc,
                                                                const aot_dsp_gemv *g,
                                                                uint32_t *col, int8_t *out0,
                                                                int8_t *out1) {
  const int32_t n4 = len >> 2, k4 = len & ~3;
  const aot_dsp_kc *k = g->kc;
  const int32_t full = g->full, out_off = g->out_off, lo = g->lo, hi = g->hi;
  /* pairs of rows that may sum the padded last group: its zero taps meet
   * the next row's first weights, which exist unless this is the filter's
   * last pair */
  const int32_t npair = nc >> 1;
  const int32_t nfull = k4 == len ? npair : (nc & 1) || g->more_rows ? npair : npair - 1;
  const int32_t n4p = k4 == len ? n4 : n4 + 1;
  int8_t *const end0 = out0 + 2 * npair;
  int32_t i;
  aot_dsp_widen2(x0, x1, len, col);
  for (i = 0; out0 < end0; i++, w += 2 * len, k += 2, out0 += 2, out1 += 2) {
    int32_t s[4], v0, v1, v2, v3;
    s[0] = s[2] = k[0].ks;
    s[1] = s[3] = k[1].ks;
    if (i < nfull) {
      aot_dsp_dot2x2(col, w, w + len, n4p, s);
    } else {
      int32_t j;
      aot_dsp_dot2x2(col, w, w + len, n4, s);
      for (j = k4; j < len; j++) {
        s[0] += w[j] * x0[j];
        s[1] += w[len + j] * x0[j];
        s[2] += w[j] * x1[j];
        s[3] += w[len + j] * x1[j];
      }
    }
    if ((uint32_t)(k[0].s | k[1].s) < 32u) {
      v0 = aot_dsp_rqf(s[0], k[0].m, k[0].s);
      v1 = aot_dsp_rqf(s[1], k[1].m, k[1].s);
      v2 = aot_dsp_rqf(s[2], k[0].m, k[0].s);
      v3 = aot_dsp_rqf(s[3], k[1].m, k[1].s);
    } else {
      v0 = aot_dsp_rqk(s[0], k);
      v1 = aot_dsp_rqk(s[1], k + 1);
      v2 = aot_dsp_rqk(s[2], k);
      v3 = aot_dsp_rqk(s[3], k + 1);
    }
    v0 += out_off;
    v1 += out_off;
    v2 += out_off;
    v3 += out_off;
    out0[0] = aot_dsp_st(v0, full, lo, hi);
    out0[1] = aot_dsp_st(v1, full, lo, hi);
    out1[0] = aot_dsp_st(v2, full, lo, hi);
    out1[1] = aot_dsp_st(v3, full, lo, hi);
  }
  if (nc & 1) {
    int32_t a0 = k->ks, a1 = k->ks, j;
    for (j = 0; j < len; j++) {
      a0 += w[j] * x0[j];
      a1 += w[j] * x1[j];
    }
    out0[0] = aot_dsp_st(aot_dsp_rqk(a0, k) + out_off, full, lo, hi);
    out1[0] = aot_dsp_st(aot_dsp_rqk(a1, k) + out_off, full, lo, hi);
  }
}

/* Sums of w_i[k] * x[k] over k < 4 * n4 for four filters w_i (the loop of
 * FULLY_CONNECTED), the input already widened (aot_dsp_widen_off): per four
 * taps one LDRD of the two input pairs, and per filter one word, two SXTB16
 * and two SMLAD. In assembly so that the 13 loop registers stay in
 * registers and the loads post-increment. s[i] is added to. Unaligned word
 * loads are allowed on the Cortex-M4 (LDR, not LDRD/LDM). */
#define AOT_DSP_DOT4W_GROUP                      \
  "ldrd %[x02], %[x13], [%[x]], #8\n\t"          \
  "ldr %[t], [%[w0]], #4\n\t"                    \
  "sxtb16 " AOT_ASM_R7(u) ", %[t]\n\t"                        \
  "smlad %[a0], " AOT_ASM_R7(u) ", %[x02], %[a0]\n\t"         \
  "sxtb16 %[t], %[t], ror #8\n\t"                \
  "smlad %[a0], %[t], %[x13], %[a0]\n\t"         \
  "ldr %[t], [%[w1]], #4\n\t"                    \
  "sxtb16 " AOT_ASM_R7(u) ", %[t]\n\t"                        \
  "smlad %[a1], " AOT_ASM_R7(u) ", %[x02], %[a1]\n\t"         \
  "sxtb16 %[t], %[t], ror #8\n\t"                \
  "smlad %[a1], %[t], %[x13], %[a1]\n\t"         \
  "ldr %[t], [%[w2]], #4\n\t"                    \
  "sxtb16 " AOT_ASM_R7(u) ", %[t]\n\t"                        \
  "smlad %[a2], " AOT_ASM_R7(u) ", %[x02], %[a2]\n\t"         \
  "sxtb16 %[t], %[t], ror #8\n\t"                \
  "smlad %[a2], %[t], %[x13], %[a2]\n\t"         \
  "ldr %[t], [%[w3]], #4\n\t"                    \
  "sxtb16 " AOT_ASM_R7(u) ", %[t]\n\t"                        \
  "smlad %[a3], " AOT_ASM_R7(u) ", %[x02], %[a3]\n\t"         \
  "sxtb16 %[t], %[t], ror #8\n\t"                \
  "smlad %[a3], %[t], %[x13], %[a3]\n\t"

/* The loop runs two groups per iteration; an odd group first (LSRS puts
 * n4's low bit in C and leaves Z for the pair count: the group's
 * instructions do not set flags). */
AOT_INLINE void aot_dsp_dot4w(const uint32_t *x, const int8_t *w0, const int8_t *w1,
                              const int8_t *w2, const int8_t *w3, int32_t n4, int32_t *s) {
  int32_t a0 = s[0], a1 = s[1], a2 = s[2], a3 = s[3], t, u, x02, x13;
  if (n4 <= 0) return;
  __asm__ volatile(
      AOT_ASM_R7_SAVE
      "lsrs %[n], %[n], #1\n\t"
      "bcc 2f\n\t"
      AOT_DSP_DOT4W_GROUP
      "2:\n\t"
      "beq 3f\n"
      "1:\n\t"
      AOT_DSP_DOT4W_GROUP
      AOT_DSP_DOT4W_GROUP
      "subs %[n], %[n], #1\n\t"
      "bne 1b\n"
      "3:\n" AOT_ASM_R7_RESTORE
      : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [t] "=&r"(t),
        AOT_ASM_R7_OP([u] "=&r"(u),) [x02] "=&r"(x02), [x13] "=&r"(x13), [x] "+r"(x), [w0] "+r"(w0),
        [w1] "+r"(w1), [w2] "+r"(w2), [w3] "+r"(w3), [n] "+r"(n4)
      :
      : "cc", "memory");
  (void)u;
  s[0] = a0;
  s[1] = a1;
  s[2] = a2;
  s[3] = a3;
}

/* x[k] + in_off (k < len, fits int16) as 16-bit pairs, per four taps
 * (k0, k2) and (k1, k3); the last group padded with zero taps (which add
 * nothing whatever weight they meet). */
AOT_INLINE void aot_dsp_widen_off(const int8_t *x, int32_t len, int32_t in_off, uint32_t *col) {
  const uint32_t off2 = ((uint32_t)(uint16_t)in_off << 16) | (uint32_t)(uint16_t)in_off;
  int32_t k;
  for (k = len >> 2; k > 0; k--, x += 4, col += 2) {
    uint32_t v;
    memcpy(&v, x, 4);
    col[0] = (uint32_t)__sadd16(__sxtb16((int8x4_t)v), (int16x2_t)off2);
    col[1] = (uint32_t)__sadd16(__sxtb16((int8x4_t)((v >> 8) | (v << 24))), (int16x2_t)off2);
  }
  if (len & 3) {
    int16_t t[4] = {0, 0, 0, 0};
    for (k = 0; k < (len & 3); k++) t[k] = (int16_t)(x[k] + in_off);
    col[0] = (uint32_t)(uint16_t)t[0] | ((uint32_t)(uint16_t)t[2] << 16);
    col[1] = (uint32_t)(uint16_t)t[1] | ((uint32_t)(uint16_t)t[3] << 16);
  }
}

#endif /* DSP */

#endif
