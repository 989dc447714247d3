/* aot_fc16_simd.h - primitives of the int16x8 FULLY_CONNECTED and
 * DEPTHWISE_CONV_2D kernels (aot_fc_s16.c, aot_dwconv2d_s16.c): int16
 * activations times int8 weights, summed exactly (the outputs go through
 * aot_s16_rq.h's exact form of TFLite's int64 requantization).
 *
 * Nothing here is used with AOT_NO_SIMD: the portable kernels stay the
 * reference. Unless AOT_NO_SIMD is defined:
 *  - Helium (MVE, AOT_FC16_MVE): FULLY_CONNECTED widens eight weights with
 *    VLDRB.S16 and sums eight products per VMLADAVA.S16 into int32, four
 *    weight rows per pass over the input, predicated tail; DEPTHWISE_CONV_2D
 *    keeps sixteen channels in the int32 lanes of four vectors (VLDRH.S32,
 *    VLDRB.S32, VMUL, VADD; a gather load for depth multipliers above 1);
 *  - Arm DSP (AOT_FC16_DSP): FULLY_CONNECTED splits each weight word with
 *    SXTB16 into the pairs (w0, w2), (w1, w3) and pairs the inputs the same
 *    way with PKHBT / PKHTB, so two SMLAD take four products, four rows per
 *    pass; DEPTHWISE_CONV_2D takes four channels per tap with SMLABB /
 *    SMLATB / SMLABT / SMLATT on the input words and the SXTB16 halves of the
 *    filter word (depth multiplier 1 or 2).
 * Exactness: |x * w| <= 32768 * 128 = 2^22, so an int32 sum of at most 511
 * products cannot overflow (511 * 2^22 < 2^31). The dot products add their
 * int32 partial sums into int64 every AOT_FC16_CHUNK (<= 511) products; the
 * depthwise sums are int32 and the kernels take them only for windows of at
 * most AOT_FC16_DW_TAPS taps. */
#ifndef AOT_FC16_SIMD_H
#define AOT_FC16_SIMD_H

#include "aot_common.h"
#include "aot_s16_rq.h"

#if !defined(AOT_NO_SIMD) && defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>
#define AOT_FC16_MVE 1
/* depthwise output channels per group of the sums, and per block (the
 * block's requantization constants are on the stack: 16 bytes each) */
#define AOT_FC16_DW_G 16
#define AOT_FC16_DW_B 16   /* = AOT_FC16_DW_G: the gather indices are per block */
#elif !defined(AOT_NO_SIMD) && defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32)
#include <arm_acle.h>
#include <string.h>
#define AOT_FC16_DSP 1
#define AOT_FC16_DW_G 4
#define AOT_FC16_DW_B 32
#endif

/* products per int32 partial sum (a multiple of 16, at most 511) */
#define AOT_FC16_CHUNK 496
/* the most taps one depthwise window may have on the int32 paths */
#define AOT_FC16_DW_TAPS 511

#if defined(AOT_FC16_MVE) || defined(AOT_FC16_DSP)

/* one depthwise window: nfy rows of nfx taps; inputs x_row / x_step int16
 * apart (a row of the window / a tap), filter taps f_row / f_step apart;
 * Helium: the gather indices of depth multipliers > 1 (aot_fc16_dw_idx) */
typedef struct {
  int32_t nfy, nfx;
  size_t x_row, x_step, f_row, f_step;
#if defined(AOT_FC16_MVE)
  uint32x4_t idx[4];
#endif
} aot_fc16_win;

#endif

#if defined(AOT_FC16_DSP)
/* sxtb16 of the word rotated by 8: bytes 1 and 3 as int16 */
AOT_INLINE int16x2_t aot_fc16_hi(uint32_t v) {
  int16x2_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}

/* the four inputs x0..x3 at x as the pairs (x0, x2) and (x1, x3), the
 * order SXTB16 splits a weight word into (PKHBT, PKHTB) */
#define AOT_FC16_XPAIRS(x, p02, p13)                                                \
  do {                                                                              \
    uint32_t a_, b_;                                                                \
    memcpy(&a_, (x), 4);                                                            \
    memcpy(&b_, (x) + 2, 4);                                                        \
    __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(p02) : "r"(a_), "r"(b_));            \
    __asm__("pkhtb %0, %1, %2, asr #16" : "=r"(p13) : "r"(b_), "r"(a_));            \
  } while (0)

/* four products of one row (four int8 at wp) and the pairs into s */
#define AOT_FC16_MAC4(s, wp, p02, p13)                          \
  do {                                                          \
    uint32_t v_;                                                \
    memcpy(&v_, (wp), 4);                                       \
    (s) = __smlad(__sxtb16((int8x4_t)v_), (p02), (s));          \
    (s) = __smlad(aot_fc16_hi(v_), (p13), (s));                 \
    __asm__("" ::: "memory"); /* keeps GCC from hoisting loads */ \
  } while (0)

/* four inputs at x into rows wa, wa + ws, wb, wb + ws */
#define AOT_FC16_STEP4(x, wa, wb, ws)        \
  do {                                       \
    int16x2_t p02, p13;                      \
    AOT_FC16_XPAIRS(x, p02, p13);            \
    AOT_FC16_MAC4(s0, wa, p02, p13);         \
    AOT_FC16_MAC4(s1, (wa) + (ws), p02, p13); \
    AOT_FC16_MAC4(s2, wb, p02, p13);         \
    AOT_FC16_MAC4(s3, (wb) + (ws), p02, p13); \
  } while (0)

/* acc[r] = sum_k w[r * ws + k] * x[k], k < n, rows r < 4 */
static __attribute__((noinline, unused)) void aot_fc16_dot4(const int16_t *x, const int8_t *w,
                                                            int32_t ws, int32_t n,
                                                            int64_t *acc) {
  const int8_t *wb = w + 2 * ws;
  acc[0] = acc[1] = acc[2] = acc[3] = 0;
  while (n > 0) {
    const int32_t k = n < AOT_FC16_CHUNK ? n : AOT_FC16_CHUNK;
    const int16_t *x8 = x + (k & ~7), *xe = x + k;
    int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    n -= k;
    for (; x < x8; x += 8, w += 8, wb += 8) {
      AOT_FC16_STEP4(x, w, wb, ws);
      AOT_FC16_STEP4(x + 4, w + 4, wb + 4, ws);
    }
    if (k & 4) {
      AOT_FC16_STEP4(x, w, wb, ws);
      x += 4, w += 4, wb += 4;
    }
    for (; x < xe; x++, w++, wb++) {
      s0 += w[0] * x[0];
      s1 += w[ws] * x[0];
      s2 += wb[0] * x[0];
      s3 += wb[ws] * x[0];
    }
    acc[0] += s0, acc[1] += s1, acc[2] += s2, acc[3] += s3;
  }
}

/* the int32 sum of w[j] * x[j], j < k (k <= AOT_FC16_CHUNK) */
AOT_INLINE int32_t aot_fc16_run1(const int16_t *x, const int8_t *w, int32_t k) {
  int32_t s = 0, j;
  for (; k >= 4; k -= 4, x += 4, w += 4) {
    int16x2_t p02, p13;
    AOT_FC16_XPAIRS(x, p02, p13);
    AOT_FC16_MAC4(s, w, p02, p13);
  }
  for (j = 0; j < k; j++) s += w[j] * x[j];
  return s;
}
/* one group: the int32 sums of output channels c0 .. c0 + nc - 1 (nc <= 4) over one
 * window: x at the window's first tap (channel 0), f at its first filter
 * tap (output channel 0). Four channels with depth multiplier 1 or 2 take
 * SMLAxy: with the filter word's halves wa = (w0, w2), wb = (w1, w3), and
 * multiplier 1 the input words (x0, x1), (x2, x3): x0 w0 = BB(xa, wa),
 * x1 w1 = TB(xa, wb), x2 w2 = BT(xb, wa), x3 w3 = TT(xb, wb); multiplier 2
 * reads the one input word (xi, xi+1) for the four: xi w0 = BB, xi w1 =
 * BB(xa, wb), xi+1 w2 = TT(xa, wa), xi+1 w3 = TT(xa, wb). */
AOT_INLINE void aot_fc16_dw_grp(const int16_t *x, const int8_t *f, int32_t c0, int32_t nc,
                                int32_t dm, const aot_fc16_win *g, int32_t *s) {
  int32_t fy, k;
  if (nc == 4 && dm <= 2) {
    int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    x += dm == 1 ? c0 : c0 >> 1;
    f += c0;
    for (fy = 0; fy < g->nfy; fy++) {
      const int16_t *ip = x + fy * g->x_row;
      const int8_t *fp = f + fy * g->f_row;
      const int8_t *const fe = fp + g->nfx * g->f_step;
      if (dm == 1) {
        for (; fp != fe; ip += g->x_step, fp += g->f_step) {
          int32_t xa, xb, wh;
          uint32_t v;
          memcpy(&xa, ip, 4);
          memcpy(&xb, ip + 2, 4);
          memcpy(&v, fp, 4);
          wh = (int32_t)__sxtb16((int8x4_t)v);
          s0 = __smlabb(xa, wh, s0);
          s2 = __smlabt(xb, wh, s2);
          wh = (int32_t)aot_fc16_hi(v);
          s1 = __smlatb(xa, wh, s1);
          s3 = __smlatt(xb, wh, s3);
        }
      } else {
        for (; fp != fe; ip += g->x_step, fp += g->f_step) {
          int32_t xa, wh;
          uint32_t v;
          memcpy(&xa, ip, 4);
          memcpy(&v, fp, 4);
          wh = (int32_t)__sxtb16((int8x4_t)v);
          s0 = __smlabb(xa, wh, s0);
          s2 = __smlatt(xa, wh, s2);
          wh = (int32_t)aot_fc16_hi(v);
          s1 = __smlabb(xa, wh, s1);
          s3 = __smlatt(xa, wh, s3);
        }
      }
    }
    s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;
    return;
  }
  for (k = 0; k < nc; k++) {
    const int16_t *xc = x + (c0 + k) / dm;
    const int8_t *fc = f + c0 + k;
    int32_t a = 0, fx;
    for (fy = 0; fy < g->nfy; fy++)
      for (fx = 0; fx < g->nfx; fx++)
        a += fc[fy * g->f_row + fx * g->f_step] * xc[fy * g->x_row + fx * g->x_step];
    s[k] = a;
  }
}
#endif

#if defined(AOT_FC16_MVE)
/* acc[r] = sum_k w[r * ws + k] * x[k], k < n, rows r < 4 */
static __attribute__((noinline, unused)) void aot_fc16_dot4(const int16_t *x, const int8_t *w,
                                                            int32_t ws, int32_t n,
                                                            int64_t *acc) {
  const int8_t *w1 = w + ws, *w2 = w + 2 * ws, *w3 = w + 3 * ws;
  acc[0] = acc[1] = acc[2] = acc[3] = 0;
  while (n > 0) {
    int32_t k = n < AOT_FC16_CHUNK ? n : AOT_FC16_CHUNK;
    int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, j;
    n -= k;
    for (j = k >> 3; j > 0; j--) {
      const int16x8_t xv = vldrhq_s16(x);
      s0 = vmladavaq_s16(s0, vldrbq_s16(w), xv);
      s1 = vmladavaq_s16(s1, vldrbq_s16(w1), xv);
      s2 = vmladavaq_s16(s2, vldrbq_s16(w2), xv);
      s3 = vmladavaq_s16(s3, vldrbq_s16(w3), xv);
      x += 8, w += 8, w1 += 8, w2 += 8, w3 += 8;
    }
    k &= 7;
    if (k > 0) {
      const mve_pred16_t pk = vctp16q((uint32_t)k);
      const int16x8_t xv = vldrhq_z_s16(x, pk);
      s0 = vmladavaq_s16(s0, vldrbq_z_s16(w, pk), xv);
      s1 = vmladavaq_s16(s1, vldrbq_z_s16(w1, pk), xv);
      s2 = vmladavaq_s16(s2, vldrbq_z_s16(w2, pk), xv);
      s3 = vmladavaq_s16(s3, vldrbq_z_s16(w3, pk), xv);
      x += k, w += k, w1 += k, w2 += k, w3 += k;
    }
    acc[0] += s0, acc[1] += s1, acc[2] += s2, acc[3] += s3;
  }
}

/* the int32 sum of w[j] * x[j], j < k (k <= AOT_FC16_CHUNK) */
AOT_INLINE int32_t aot_fc16_run1(const int16_t *x, const int8_t *w, int32_t k) {
  int32_t s = 0, j;
  for (j = k >> 3; j > 0; j--, x += 8, w += 8) s = vmladavaq_s16(s, vldrbq_s16(w), vldrhq_s16(x));
  k &= 7;
  if (k > 0) {
    const mve_pred16_t pk = vctp16q((uint32_t)k);
    s = vmladavaq_s16(s, vldrbq_z_s16(w, pk), vldrhq_z_s16(x, pk));
  }
  return s;
}
/* the input channel of each output channel c0 + l (l < 16) as an index
 * vector per four lanes, for the gather loads of depth multipliers > 1 */
AOT_INLINE void aot_fc16_dw_idx(int32_t c0, int32_t dm, uint32x4_t *idx) {
  int32_t v;
  for (v = 0; v < 4; v++) {
    const uint32x4_t l = vaddq_n_u32(vidupq_n_u32(0, 1), (uint32_t)(c0 + 4 * v));
    uint32_t t[4];
    int32_t j;
    vst1q_u32(t, l);
    for (j = 0; j < 4; j++) t[j] /= (uint32_t)dm;
    idx[v] = vld1q_u32(t);
  }
}

/* one vector of four channels (lanes v * 4 ..) of one tap, predicated */
#define AOT_FC16_DW_XL1(v) vldrhq_z_s32(ip + 4 * (v), pv)
#define AOT_FC16_DW_XLG(v) vldrhq_gather_shifted_offset_z_s32(ip, g->idx[v], pv)
#define AOT_FC16_DW_TAP1(XL) a0 = vaddq_s32(a0, vmulq_s32(XL(v), vldrbq_z_s32(fp + 4 * v, pv)))
#define AOT_FC16_DW_TAPF(XL)                                       \
  do {                                                             \
    a0 = vaddq_s32(a0, vmulq_s32(XL(0), vldrbq_s32(fp)));          \
    a1 = vaddq_s32(a1, vmulq_s32(XL(1), vldrbq_s32(fp + 4)));      \
    a2 = vaddq_s32(a2, vmulq_s32(XL(2), vldrbq_s32(fp + 8)));      \
    a3 = vaddq_s32(a3, vmulq_s32(XL(3), vldrbq_s32(fp + 12)));     \
    __asm__("" ::: "memory"); /* keeps GCC from hoisting loads */ \
  } while (0)
#define AOT_FC16_DW_XF1(v) vldrhq_s32(ip + 4 * (v))

/* one group: the int32 sums of output channels c0 .. c0 + nc - 1 (nc <= 16) over one
 * window, channels in the lanes of four vectors: x at the window's first
 * tap (channel 0), f at its first filter tap (output channel 0); g->idx
 * from aot_fc16_dw_idx when dm > 1. Lanes past nc load nothing (predicated). */
AOT_INLINE void aot_fc16_dw_grp(const int16_t *x, const int8_t *f, int32_t c0, int32_t nc,
                                int32_t dm, const aot_fc16_win *g, int32_t *s) {
  int32x4_t a0 = vdupq_n_s32(0), a1 = a0, a2 = a0, a3 = a0;
  int32_t fy, k, v;
  f += c0;
  if (dm == 1 && nc == 16) {
    x += c0;
    for (fy = 0; fy < g->nfy; fy++) {
      const int16_t *ip = x + fy * g->x_row;
      const int8_t *fp = f + fy * g->f_row;
      for (k = 0; k < g->nfx; k++, ip += g->x_step, fp += g->f_step) AOT_FC16_DW_TAPF(AOT_FC16_DW_XF1);
    }
    vst1q_s32(s, a0);
    vst1q_s32(s + 4, a1);
    vst1q_s32(s + 8, a2);
    vst1q_s32(s + 12, a3);
    return;
  }
  if (dm == 1) x += c0;
  for (v = 0; v * 4 < nc; v++) {   /* fewer channels, or a gather: a vector at a time */
    const mve_pred16_t pv = vctp32q((uint32_t)(nc - 4 * v));
    a0 = vdupq_n_s32(0);
    for (fy = 0; fy < g->nfy; fy++) {
      const int16_t *ip = x + fy * g->x_row;
      const int8_t *fp = f + fy * g->f_row;
      if (dm == 1)
        for (k = 0; k < g->nfx; k++, ip += g->x_step, fp += g->f_step) AOT_FC16_DW_TAP1(AOT_FC16_DW_XL1);
      else
        for (k = 0; k < g->nfx; k++, ip += g->x_step, fp += g->f_step) AOT_FC16_DW_TAP1(AOT_FC16_DW_XLG);
    }
    vst1q_s32(s + 4 * v, a0);
  }
}
#endif


#if defined(AOT_FC16_MVE) || defined(AOT_FC16_DSP)
/* sum_k w[k] * x[k], k < n: int32 runs of at most AOT_FC16_CHUNK products
 * (exact) added into int64 */
static __attribute__((noinline, unused)) int64_t aot_fc16_dot1(const int16_t *x, const int8_t *w,
                                                               int32_t n) {
  int64_t acc = 0;
  while (n > 0) {
    const int32_t k = n < AOT_FC16_CHUNK ? n : AOT_FC16_CHUNK;
    acc += aot_fc16_run1(x, w, k);
    x += k, w += k, n -= k;
  }
  return acc;
}
#endif


#if (defined(AOT_FC16_MVE) || defined(AOT_FC16_DSP)) && AOT_FC16_DW_G == AOT_FC16_DW_B
/* the int32 sums of output channels c0 .. c0 + nc - 1 (nc <= AOT_FC16_DW_B)
 * over one window (see aot_fc16_dw_grp): one group */
#define aot_fc16_dw_sums aot_fc16_dw_grp
#elif defined(AOT_FC16_MVE) || defined(AOT_FC16_DSP)
/* the same, AOT_FC16_DW_G channels at a time */
AOT_INLINE void aot_fc16_dw_sums(const int16_t *x, const int8_t *f, int32_t c0, int32_t nc,
                                 int32_t dm, const aot_fc16_win *g, int32_t *s) {
  int32_t j;
  for (j = 0; j < nc; j += AOT_FC16_DW_G)
    aot_fc16_dw_grp(x, f, c0 + j, nc - j < AOT_FC16_DW_G ? nc - j : AOT_FC16_DW_G, dm, g, s + j);
}
#endif

#endif
