/* aot_rec_simd.h - dot products of the integer recurrent kernels (SVDF,
 * LSTM): sum_k w[k] * (x[k] + x_off) over int8 w and x, in int32.
 *
 * The portable loop is the reference. Unless AOT_NO_SIMD is defined:
 *  - Helium (MVE): sixteen products per VMLADAVA, with x_off * sum_k w[k]
 *    added once (VADDVA sums the weights); int32 arithmetic is modular, so
 *    this is the same integer as the portable sum (which never exceeds the
 *    int32 range for the shapes the kernels accept);
 *  - Arm DSP: four products per two SMLAD on SXTB16 halves, x_off added to
 *    the int16 halves with SADD16 (|x + x_off| <= 255 fits int16; other
 *    offsets take the portable loop).
 * aot_rec_mbqm is an exact 64-bit form of aot_mbqm (aot_mbqm itself with
 * AOT_NO_SIMD).
 * tests/target/ew_rec_kernels.c compares the SVDF and LSTM kernels built
 * with these paths against the portable build. */
#ifndef AOT_REC_SIMD_H
#define AOT_REC_SIMD_H

#include "aot_common.h"

#if !defined(AOT_NO_SIMD) && defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>
#define AOT_REC_MVE 1
#elif !defined(AOT_NO_SIMD) && defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32)
#include <arm_acle.h>
#include <string.h>
#define AOT_REC_DSP 1
#endif

AOT_INLINE int32_t aot_rec_dot_s8_ref(const int8_t *w, const int8_t *x, int32_t n,
                                      int32_t x_off) {
  int32_t k, acc = 0;
  for (k = 0; k < n; k++) acc += (int32_t)w[k] * ((int32_t)x[k] + x_off);
  return acc;
}

/* aot_mbqm (TFLite MultiplyByQuantizedMultiplier, double rounding) with
 * 64-bit arithmetic instead of the reference's nudge-and-divide: for
 * m >= 0, SaturatingRoundingDoublingHighMul(x, m) = floor((x*m + 2^30) /
 * 2^31) and RoundingDivideByPOT(y, e) = floor((y + 2^(e-1) - [y < 0]) / 2^e)
 * (e > 0). Negative multipliers use aot_mbqm. */
#if defined(AOT_NO_SIMD)
#define aot_rec_mbqm aot_mbqm
#else
AOT_INLINE int32_t aot_rec_mbqm(int32_t x, int32_t m, int32_t shift) {
  int64_t y;
  if (m < 0 || shift > 31 || shift < -31) return aot_mbqm(x, m, shift);
  if (shift > 0) x = aot_shl_i32(x, shift);
  y = ((int64_t)x * m + ((int64_t)1 << 30)) >> 31;
  if (shift >= 0) return (int32_t)y;
  return (int32_t)((y + ((int64_t)1 << (-shift - 1)) - (y < 0)) >> -shift);
}
#endif

#if defined(AOT_REC_MVE)
AOT_INLINE int32_t aot_rec_dot_s8(const int8_t *w, const int8_t *x, int32_t n, int32_t x_off) {
  int32_t acc = 0, ws = 0;
  for (; n >= 16; n -= 16, w += 16, x += 16) {
    const int8x16_t wv = vldrbq_s8(w);
    acc = vmladavaq_s8(acc, wv, vldrbq_s8(x));
    ws = vaddvaq_s8(ws, wv);
  }
  if (n > 0) {
    const mve_pred16_t p = vctp8q((uint32_t)n);
    const int8x16_t wv = vldrbq_z_s8(w, p);
    acc = vmladavaq_s8(acc, wv, vldrbq_z_s8(x, p));
    ws = vaddvaq_s8(ws, wv);
  }
  return (int32_t)((uint32_t)acc + (uint32_t)x_off * (uint32_t)ws);
}
#elif defined(AOT_REC_DSP)
AOT_INLINE int16x2_t aot_rec_hi16(uint32_t v) {
  int16x2_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}
AOT_INLINE int32_t aot_rec_dot_s8(const int8_t *w, const int8_t *x, int32_t n, int32_t x_off) {
  int32_t acc = 0, k = 0;
  if (x_off >= -32768 + 128 && x_off <= 32767 - 128) {
    const int16x2_t off2 = (int16x2_t)(((uint32_t)x_off & 0xFFFFu) * 0x10001u);
    for (; k + 4 <= n; k += 4) {
      uint32_t wv, xv;
      memcpy(&wv, w + k, 4);
      memcpy(&xv, x + k, 4);
      acc = __smlad(__sxtb16((int8x4_t)wv), __sadd16(__sxtb16((int8x4_t)xv), off2), acc);
      acc = __smlad(aot_rec_hi16(wv), __sadd16(aot_rec_hi16(xv), off2), acc);
    }
  }
  for (; k < n; k++) acc += (int32_t)w[k] * ((int32_t)x[k] + x_off);
  return acc;
}
#else
#define aot_rec_dot_s8 aot_rec_dot_s8_ref
#endif

/* out[r] = init[r] + sum_k w(r, k) * x[k], r < 4, k < n (int32, modular), over one
 * block of four rows packed as aot_lstm_s8p_index (aot_recurrent.h) lays
 * them out: 16-column chunks of the four rows in turn, then the
 * t = pad4(n) - (n & ~15) tail columns row by row. x holds pad4(n) values
 * (zeros after n). Arm DSP: SMLAD with immediate offsets (one pointer);
 * Helium: one VMLADAVA per row and chunk, predicated tail. */
#if defined(AOT_REC_MVE)
AOT_INLINE void aot_rec_dot4p_s8(const int8_t *w, const int8_t *x, int32_t n,
                                 const int32_t *init, int32_t *out) {
  int32_t a0 = init[0], a1 = init[1], a2 = init[2], a3 = init[3];
  const int32_t k16 = n & ~15, t = ((n + 3) & ~3) - k16;
  const int8_t *xe = x + k16;
  for (; x < xe; x += 16, w += 64) {
    const int8x16_t xv = vldrbq_s8(x);
    a0 = vmladavaq_s8(a0, vldrbq_s8(w), xv);
    a1 = vmladavaq_s8(a1, vldrbq_s8(w + 16), xv);
    a2 = vmladavaq_s8(a2, vldrbq_s8(w + 32), xv);
    a3 = vmladavaq_s8(a3, vldrbq_s8(w + 48), xv);
  }
  if (t > 0) {
    const mve_pred16_t p = vctp8q((uint32_t)t);
    const int8x16_t xv = vldrbq_z_s8(x, p);
    a0 = vmladavaq_s8(a0, vldrbq_z_s8(w, p), xv);
    a1 = vmladavaq_s8(a1, vldrbq_z_s8(w + t, p), xv);
    a2 = vmladavaq_s8(a2, vldrbq_z_s8(w + 2 * t, p), xv);
    a3 = vmladavaq_s8(a3, vldrbq_z_s8(w + 3 * t, p), xv);
  }
  out[0] = a0, out[1] = a1, out[2] = a2, out[3] = a3;
}
#elif defined(AOT_REC_DSP)
/* four columns of the four rows: x at xq, row r at wq + r * rs */
#define AOT_REC_DOT4P_STEP(xq, wq, rs)                     \
  do {                                                     \
    uint32_t xv_, v_;                                      \
    int16x2_t xl_, xh_;                                    \
    memcpy(&xv_, (xq), 4);                                 \
    xl_ = __sxtb16((int8x4_t)xv_);                         \
    xh_ = aot_rec_hi16(xv_);                               \
    memcpy(&v_, (wq), 4);                                  \
    a0 = __smlad(__sxtb16((int8x4_t)v_), xl_, a0);         \
    a0 = __smlad(aot_rec_hi16(v_), xh_, a0);               \
    memcpy(&v_, (wq) + (rs), 4);                           \
    a1 = __smlad(__sxtb16((int8x4_t)v_), xl_, a1);         \
    a1 = __smlad(aot_rec_hi16(v_), xh_, a1);               \
    memcpy(&v_, (wq) + 2 * (rs), 4);                       \
    a2 = __smlad(__sxtb16((int8x4_t)v_), xl_, a2);         \
    a2 = __smlad(aot_rec_hi16(v_), xh_, a2);               \
    memcpy(&v_, (wq) + 3 * (rs), 4);                       \
    a3 = __smlad(__sxtb16((int8x4_t)v_), xl_, a3);         \
    a3 = __smlad(aot_rec_hi16(v_), xh_, a3);               \
    __asm__("" ::: "memory"); /* keeps GCC from hoisting   \
                                 loads into register spills */ \
  } while (0)
AOT_INLINE void aot_rec_dot4p_s8(const int8_t *w, const int8_t *x, int32_t n,
                                 const int32_t *init, int32_t *out) {
  int32_t a0 = init[0], a1 = init[1], a2 = init[2], a3 = init[3], k;
  const int32_t k16 = n & ~15, t = ((n + 3) & ~3) - k16;
  const int8_t *xe = x + k16;
  for (; x < xe; x += 16, w += 64) {
    AOT_REC_DOT4P_STEP(x, w, 16);
    AOT_REC_DOT4P_STEP(x + 4, w + 4, 16);
    AOT_REC_DOT4P_STEP(x + 8, w + 8, 16);
    AOT_REC_DOT4P_STEP(x + 12, w + 12, 16);
  }
  for (k = 0; k < t; k += 4) AOT_REC_DOT4P_STEP(x + k, w + k, t);
  out[0] = a0, out[1] = a1, out[2] = a2, out[3] = a3;
}
#else
AOT_INLINE void aot_rec_dot4p_s8(const int8_t *w, const int8_t *x, int32_t n,
                                 const int32_t *init, int32_t *out) {
  const int32_t k16 = n & ~15, t = ((n + 3) & ~3) - k16;
  int32_t r, k;
  for (r = 0; r < 4; r++) {
    uint32_t a = (uint32_t)init[r]; /* modular: init may be a wrapped bias */
    for (k = 0; k < k16; k++) a += (uint32_t)((int32_t)w[(k / 16) * 64 + r * 16 + k % 16] * x[k]);
    for (k = 0; k < t; k++) a += (uint32_t)((int32_t)w[4 * k16 + r * t + k] * x[k16 + k]);
    out[r] = a <= (uint32_t)INT32_MAX ? (int32_t)a : (int32_t)(a - 2147483648u) + INT32_MIN;
  }
}
#endif

#if defined(AOT_REC_DSP)
/* Arm DSP matrix products on a widened input (LSTM, SVDF): aot_rec_widen_s8
 * stores n4 groups of four int8 as 16-bit pairs (per group (x0, x2),
 * (x1, x3)); aot_rec_dot4w_s8 is aot_rec_dot4p_s8 on such an input, for
 * word-aligned packed weights: per 16-column chunk four LDRD of input pairs
 * and, per row, two LDRD of its sixteen weights, eight SXTB16 and eight
 * SMLAD (79 instructions per 64 MACs); the tail columns (row by row) one
 * LDRD of input pairs and per row one word, two SXTB16 and two SMLAD per
 * four columns (23 instructions per 16 MACs). */
AOT_INLINE void aot_rec_widen_s8(const int8_t *x, int32_t n4, uint32_t *xw) {
  for (; n4 > 0; n4--, x += 4, xw += 2) {
    uint32_t v, a, b;
    memcpy(&v, x, 4);
    __asm__("sxtb16 %0, %2\n\t"
            "sxtb16 %1, %2, ror #8"
            : "=&r"(a), "=&r"(b)
            : "r"(v));
    xw[0] = a;
    xw[1] = b;
  }
}

#define AOT_REC_ROW8(A, OFF)                    \
  "ldrd %[t], %[u], [%[w], #" OFF "]\n\t"            \
  "sxtb16 " AOT_ASM_R7(v) ", %[t]\n\t"                            \
  "smlad %[" A "], " AOT_ASM_R7(v) ", %[x0], %[" A "]\n\t"        \
  "sxtb16 %[t], %[t], ror #8\n\t"                    \
  "smlad %[" A "], %[t], %[x1], %[" A "]\n\t"        \
  "sxtb16 " AOT_ASM_R7(v) ", %[u]\n\t"                            \
  "smlad %[" A "], " AOT_ASM_R7(v) ", %[x2], %[" A "]\n\t"        \
  "sxtb16 %[u], %[u], ror #8\n\t"                    \
  "smlad %[" A "], %[u], %[x3], %[" A "]\n\t"
/* s[r] += the 16-column chunks (nch >= 1) of the four rows of one block */
AOT_INLINE void aot_rec_chunks_s8(const uint32_t *xw, const int8_t *w, int32_t nch,
                                    int32_t *s) {
  int32_t a0 = s[0], a1 = s[1], a2 = s[2], a3 = s[3], t, u, v, x0, x1, x2, x3;
  __asm__ volatile(
      AOT_ASM_R7_SAVE
      "1:\n\t"
      "ldrd %[x0], %[x1], [%[x]], #8\n\t"
      "ldrd %[x2], %[x3], [%[x]], #8\n\t"
      AOT_REC_ROW8("a0", "0") AOT_REC_ROW8("a1", "16")
      AOT_REC_ROW8("a2", "32") AOT_REC_ROW8("a3", "48")
      "ldrd %[x0], %[x1], [%[x]], #8\n\t"
      "ldrd %[x2], %[x3], [%[x]], #8\n\t"
      AOT_REC_ROW8("a0", "8") AOT_REC_ROW8("a1", "24")
      AOT_REC_ROW8("a2", "40") AOT_REC_ROW8("a3", "56")
      "add %[w], %[w], #64\n\t"
      "subs %[n], %[n], #1\n\t"
      "bne 1b\n" AOT_ASM_R7_RESTORE
      : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [t] "=&r"(t),
        [u] "=&r"(u), AOT_ASM_R7_OP([v] "=&r"(v),) [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2),
        [x3] "=&r"(x3), [x] "+r"(xw), [w] "+r"(w), [n] "+r"(nch)
      :
      : "cc", "memory");
  (void)v;
  s[0] = a0;
  s[1] = a1;
  s[2] = a2;
  s[3] = a3;
}

/* out[r] = init[r] + the sums of one block of four packed rows of n columns
 * over the widened xw */
AOT_INLINE void aot_rec_dot4w_s8(const int8_t *w, const uint32_t *xw, int32_t n,
                                   const int32_t *init, int32_t *out) {
  const int32_t k16 = n & ~15, t = ((n + 3) & ~3) - k16;
  int32_t s[4];
  s[0] = init[0];
  s[1] = init[1];
  s[2] = init[2];
  s[3] = init[3];
  if (k16) aot_rec_chunks_s8(xw, w, k16 >> 4, s);
  w += 4 * k16;
  xw += k16 >> 1;
  if (t > 0) {
    /* the tail: row r at w + r * t, four columns per pass (t / 4 >= 1) */
    int32_t a0 = s[0], a1 = s[1], a2 = s[2], a3 = s[3], n4 = t >> 2, xa, xb, v, u;
    const int8_t *w3 = w + 3 * t;
    __asm__ volatile(
        "1:\n\t"
        "ldrd %[xa], %[xb], [%[x]], #8\n\t"
        "ldr %[v], [%[w], %[ts]]\n\t"
        "sxtb16 %[u], %[v]\n\t"
        "smlad %[a1], %[u], %[xa], %[a1]\n\t"
        "sxtb16 %[v], %[v], ror #8\n\t"
        "smlad %[a1], %[v], %[xb], %[a1]\n\t"
        "ldr %[v], [%[w], %[ts], lsl #1]\n\t"
        "sxtb16 %[u], %[v]\n\t"
        "smlad %[a2], %[u], %[xa], %[a2]\n\t"
        "sxtb16 %[v], %[v], ror #8\n\t"
        "smlad %[a2], %[v], %[xb], %[a2]\n\t"
        "ldr %[v], [%[w3]], #4\n\t"
        "sxtb16 %[u], %[v]\n\t"
        "smlad %[a3], %[u], %[xa], %[a3]\n\t"
        "sxtb16 %[v], %[v], ror #8\n\t"
        "smlad %[a3], %[v], %[xb], %[a3]\n\t"
        "ldr %[v], [%[w]], #4\n\t"
        "sxtb16 %[u], %[v]\n\t"
        "smlad %[a0], %[u], %[xa], %[a0]\n\t"
        "sxtb16 %[v], %[v], ror #8\n\t"
        "smlad %[a0], %[v], %[xb], %[a0]\n\t"
        "subs %[n], %[n], #1\n\t"
        "bne 1b\n"
        : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [xa] "=&r"(xa),
          [xb] "=&r"(xb), [v] "=&r"(v), [u] "=&r"(u), [x] "+r"(xw), [w] "+r"(w),
          [w3] "+r"(w3), [n] "+r"(n4)
        : [ts] "r"(t)
        : "cc", "memory");
    s[0] = a0;
    s[1] = a1;
    s[2] = a2;
    s[3] = a3;
  }
  out[0] = s[0];
  out[1] = s[1];
  out[2] = s[2];
  out[3] = s[3];
}

#endif

/* int16 x int8 products for the packed int16 LSTM. aot_rec_x16_load copies
 * n int16 values into dst as pad4(n) values (zeros after n), in the order
 * aot_rec_dot4p_s16 reads them (Arm DSP: each group of four as x0 x2 x1 x3,
 * the order SXTB16 unpacks the weights; elsewhere unchanged).
 * aot_rec_dot4p_s16: out[r] = sum_k w(r, k) * x[k] (int64) over one block
 * of four rows packed as aot_lstm_s8p_index lays them out. Helium: VMLALDAVA
 * on weights widened by VLDRB.S16; Arm DSP: SMLALD. */
AOT_INLINE void aot_rec_x16_load(int16_t *dst, const int16_t *src, int32_t n) {
  const int32_t n4 = (n + 3) & ~3;
  int32_t k;
  for (k = 0; k < n4; k++) {
#if defined(AOT_REC_DSP)
    static const int8_t perm[4] = {0, 2, 1, 3};
    const int32_t sk = (k & ~3) + perm[k & 3];
#else
    const int32_t sk = k;
#endif
    dst[k] = sk < n ? src[sk] : 0;
  }
}

#if defined(AOT_REC_MVE)
AOT_INLINE void aot_rec_dot4p_s16(const int8_t *w, const int16_t *x, int32_t n, int64_t *out) {
  int64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  const int32_t k16 = n & ~15, t = ((n + 3) & ~3) - k16;
  const int16_t *xe = x + k16;
  for (; x < xe; x += 16, w += 64) {
    const int16x8_t xl = vldrhq_s16(x), xh = vldrhq_s16(x + 8);
    a0 = vmlaldavaq_s16(a0, vldrbq_s16(w), xl);
    a0 = vmlaldavaq_s16(a0, vldrbq_s16(w + 8), xh);
    a1 = vmlaldavaq_s16(a1, vldrbq_s16(w + 16), xl);
    a1 = vmlaldavaq_s16(a1, vldrbq_s16(w + 24), xh);
    a2 = vmlaldavaq_s16(a2, vldrbq_s16(w + 32), xl);
    a2 = vmlaldavaq_s16(a2, vldrbq_s16(w + 40), xh);
    a3 = vmlaldavaq_s16(a3, vldrbq_s16(w + 48), xl);
    a3 = vmlaldavaq_s16(a3, vldrbq_s16(w + 56), xh);
  }
  if (t > 0) {
    const mve_pred16_t pl = vctp16q((uint32_t)t), ph = vctp16q((uint32_t)(t > 8 ? t - 8 : 0));
    const int16x8_t xl = vldrhq_z_s16(x, pl), xh = vldrhq_z_s16(x + 8, ph);
    a0 = vmlaldavaq_s16(a0, vldrbq_z_s16(w, pl), xl);
    a1 = vmlaldavaq_s16(a1, vldrbq_z_s16(w + t, pl), xl);
    a2 = vmlaldavaq_s16(a2, vldrbq_z_s16(w + 2 * t, pl), xl);
    a3 = vmlaldavaq_s16(a3, vldrbq_z_s16(w + 3 * t, pl), xl);
    if (t > 8) {
      a0 = vmlaldavaq_s16(a0, vldrbq_z_s16(w + 8, ph), xh);
      a1 = vmlaldavaq_s16(a1, vldrbq_z_s16(w + t + 8, ph), xh);
      a2 = vmlaldavaq_s16(a2, vldrbq_z_s16(w + 2 * t + 8, ph), xh);
      a3 = vmlaldavaq_s16(a3, vldrbq_z_s16(w + 3 * t + 8, ph), xh);
    }
  }
  out[0] = a0, out[1] = a1, out[2] = a2, out[3] = a3;
}
#elif defined(AOT_REC_DSP)
/* four columns of the four rows: x (permuted) at xq, row r at wq + r * rs */
#define AOT_REC_DOT4P16_STEP(xq, wq, rs)                   \
  do {                                                     \
    uint32_t v_;                                           \
    int16x2_t xa_, xb_;                                    \
    memcpy(&xa_, (xq), 4);                                 \
    memcpy(&xb_, (xq) + 2, 4);                             \
    memcpy(&v_, (wq), 4);                                  \
    a0 = __smlald(__sxtb16((int8x4_t)v_), xa_, a0);        \
    a0 = __smlald(aot_rec_hi16(v_), xb_, a0);              \
    memcpy(&v_, (wq) + (rs), 4);                           \
    a1 = __smlald(__sxtb16((int8x4_t)v_), xa_, a1);        \
    a1 = __smlald(aot_rec_hi16(v_), xb_, a1);              \
    memcpy(&v_, (wq) + 2 * (rs), 4);                       \
    a2 = __smlald(__sxtb16((int8x4_t)v_), xa_, a2);        \
    a2 = __smlald(aot_rec_hi16(v_), xb_, a2);              \
    memcpy(&v_, (wq) + 3 * (rs), 4);                       \
    a3 = __smlald(__sxtb16((int8x4_t)v_), xa_, a3);        \
    a3 = __smlald(aot_rec_hi16(v_), xb_, a3);              \
    __asm__("" ::: "memory");                              \
  } while (0)
AOT_INLINE void aot_rec_dot4p_s16(const int8_t *w, const int16_t *x, int32_t n, int64_t *out) {
  int64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  int32_t k;
  const int32_t k16 = n & ~15, t = ((n + 3) & ~3) - k16;
  const int16_t *xe = x + k16;
  for (; x < xe; x += 16, w += 64) {
    AOT_REC_DOT4P16_STEP(x, w, 16);
    AOT_REC_DOT4P16_STEP(x + 4, w + 4, 16);
    AOT_REC_DOT4P16_STEP(x + 8, w + 8, 16);
    AOT_REC_DOT4P16_STEP(x + 12, w + 12, 16);
  }
  for (k = 0; k < t; k += 4) AOT_REC_DOT4P16_STEP(x + k, w + k, t);
  out[0] = a0, out[1] = a1, out[2] = a2, out[3] = a3;
}
#else
AOT_INLINE void aot_rec_dot4p_s16(const int8_t *w, const int16_t *x, int32_t n, int64_t *out) {
  const int32_t k16 = n & ~15, t = ((n + 3) & ~3) - k16;
  int32_t r, k;
  for (r = 0; r < 4; r++) {
    int64_t a = 0;
    for (k = 0; k < k16; k++) a += (int64_t)w[(k / 16) * 64 + r * 16 + k % 16] * x[k];
    for (k = 0; k < t; k++) a += (int64_t)w[4 * k16 + r * t + k] * x[k16 + k];
    out[r] = a;
  }
}
#endif

/* sum_k w[k] * s[k] over int16 w and s (int32, modular). Helium: eight
 * products per VMLADAVA; Arm DSP: two per SMLAD. */
AOT_INLINE int32_t aot_rec_dot_s16(const int16_t *w, const int16_t *s, int32_t n) {
#if defined(AOT_REC_MVE)
  int32_t acc = 0;
  for (; n > 0; n -= 8, w += 8, s += 8) {
    const mve_pred16_t p = vctp16q((uint32_t)n);
    acc = vmladavaq_s16(acc, vldrhq_z_s16(w, p), vldrhq_z_s16(s, p));
  }
  return acc;
#elif defined(AOT_REC_DSP)
  int32_t acc = 0, k = 0;
  for (; k + 2 <= n; k += 2) {
    uint32_t wv, sv;
    memcpy(&wv, w + k, 4);
    memcpy(&sv, s + k, 4);
    acc = __smlad((int16x2_t)wv, (int16x2_t)sv, acc);
  }
  if (k < n) acc = (int32_t)((uint32_t)acc + (uint32_t)((int32_t)w[k] * s[k]));
  return acc;
#else
  uint32_t acc = 0;
  int32_t k;
  for (k = 0; k < n; k++) acc += (uint32_t)((int32_t)w[k] * s[k]);
  return acc <= (uint32_t)INT32_MAX ? (int32_t)acc : (int32_t)(acc - 2147483648u) + INT32_MIN;
#endif
}

/* sum_k w[k] * s[k] over int8 w and s (int32, modular), no offset. */
AOT_INLINE int32_t aot_rec_dot0_s8(const int8_t *w, const int8_t *s, int32_t n) {
#if defined(AOT_REC_MVE)
  int32_t acc = 0;
  for (; n > 0; n -= 16, w += 16, s += 16) {
    const mve_pred16_t p = vctp8q((uint32_t)n);
    acc = vmladavaq_s8(acc, vldrbq_z_s8(w, p), vldrbq_z_s8(s, p));
  }
  return acc;
#elif defined(AOT_REC_DSP)
  int32_t acc = 0, k = 0;
  for (; k + 4 <= n; k += 4) {
    uint32_t wv, sv;
    memcpy(&wv, w + k, 4);
    memcpy(&sv, s + k, 4);
    acc = __smlad(__sxtb16((int8x4_t)wv), __sxtb16((int8x4_t)sv), acc);
    acc = __smlad(aot_rec_hi16(wv), aot_rec_hi16(sv), acc);
  }
  for (; k < n; k++) acc = (int32_t)((uint32_t)acc + (uint32_t)((int32_t)w[k] * s[k]));
  return acc;
#else
  uint32_t acc = 0;
  int32_t k;
  for (k = 0; k < n; k++) acc += (uint32_t)((int32_t)w[k] * s[k]);
  return acc <= (uint32_t)INT32_MAX ? (int32_t)acc : (int32_t)(acc - 2147483648u) + INT32_MIN;
#endif
}

/* A requantization multiplier prepared once per call: m >= 0, the left
 * shift, the right shift and its mask (aot_rec_q_init). */
typedef struct aot_rec_q {
  int32_t m, lsh, rsh, mask;
} aot_rec_q;

/* 0 when m < 0 or the shift is outside [-31, 31] (the compiler then uses
 * the portable kernel). */
AOT_INLINE int aot_rec_q_init(aot_rec_q *q, int32_t m, int32_t shift) {
  if (m < 0 || shift < -31 || shift > 31) return 0;
  q->m = m;
  q->lsh = shift > 0 ? shift : 0;
  q->rsh = shift < 0 ? -shift : 0;
  q->mask = (int32_t)(((uint32_t)1 << q->rsh) - 1u);
  return 1;
}

/* aot_mbqm(x, m, shift) for such a multiplier without branches: the wrapping
 * left shift, SaturatingRoundingDoublingHighMul as floor((x m + 2^30) / 2^31)
 * (m >= 0 never saturates), gemmlowp's RoundingDivideByPOT (rsh = 0: mask 0
 * leaves x unchanged). */
AOT_INLINE int32_t aot_rec_qmul(int32_t x, const aot_rec_q *q) {
  const uint32_t u = (uint32_t)x << q->lsh;
  const int32_t xs = u <= (uint32_t)INT32_MAX ? (int32_t)u : (int32_t)(u - 2147483648u) + INT32_MIN;
  const int32_t y = (int32_t)(((int64_t)xs * q->m + ((int64_t)1 << 30)) >> 31);
  return (y >> q->rsh) + ((y & q->mask) > ((q->mask >> 1) + (y < 0)));
}

#if defined(AOT_REC_DSP)
/* aot_rec_qmul(x, q) for q->lsh == 0, q->rsh >= 1 and |x| < 2^30, given
 * rs = q->rsh - 1: SMMULR on 2x is the doubling high multiply with its
 * rounding (2x fits int32), then r += r >> 31 and ((r >> rs) + 1) >> 1 is
 * the rounding right shift (round half away from zero). */
AOT_INLINE int32_t aot_rec_qmulf(int32_t x, int32_t m, int32_t rs) {
  int32_t r;
  __asm__("smmulr %0, %1, %2" : "=r"(r) : "r"((uint32_t)x << 1), "r"(m));
  r += r >> 31;
  return ((r >> rs) + 1) >> 1;
}
#endif

/* Moves bytes [1, n) of buf to [0, n - 1) (forward, in chunks that read
 * ahead of what they write). */
AOT_INLINE void aot_rec_shift_bytes(uint8_t *buf, size_t n, size_t by) {
  size_t i = 0;
#if defined(AOT_REC_MVE)
  for (; i + 16 + by <= n; i += 16) vstrbq_u8(buf + i, vldrbq_u8(buf + i + by));
#elif defined(AOT_REC_DSP)
  /* each word is loaded before the store that could overlap it */
  for (; i + 16 + by <= n; i += 16) {
    uint32_t v0, v1, v2, v3;
    memcpy(&v0, buf + i + by, 4);
    memcpy(buf + i, &v0, 4);
    memcpy(&v1, buf + i + by + 4, 4);
    memcpy(buf + i + 4, &v1, 4);
    memcpy(&v2, buf + i + by + 8, 4);
    memcpy(buf + i + 8, &v2, 4);
    memcpy(&v3, buf + i + by + 12, 4);
    memcpy(buf + i + 12, &v3, 4);
  }
  for (; i + 4 + by <= n; i += 4) {
    uint32_t v;
    memcpy(&v, buf + i + by, 4);
    memcpy(buf + i, &v, 4);
  }
#endif
  for (; i + by < n; i++) buf[i] = buf[i + by];
}

#endif
