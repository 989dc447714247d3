/* aot_s16_simd.h - int16 x int8 dot products of the int16x8 kernels (int16
 * activations, int8 weights): n int16 inputs against one to four rows of
 * int8 weights, summed exactly, plus the Cortex-M4 two-position block of the
 * convolutions. Shared by aot_conv2d_s16.c and aot_tconv2d_s16.c; generic
 * enough for other int16x8 kernels.
 *
 * Exactness: a product |x * w| <= 32768 * 128 = 2^22, so a sum of at most
 * AOT_S16_RUN (504 < 511) products is exact in int32. aot_s16_dot_s32 adds
 * at most that many products to int32 partial sums; aot_s16_dot_acc keeps
 * the count and moves the partial sums into int64 before it would pass the
 * limit, so the int64 totals equal the portable kernels' int64 sums (integer
 * addition is exact in any order).
 *
 * Builds (AOT_NO_SIMD forces the portable loop):
 *  - Helium (AOT_S16_MVE): a tail-predicated low-overhead loop (DLSTP.16 /
 *    LETP) of one VLDRH.16 of eight inputs, and per row one VLDRB.S16 of
 *    eight widened weights and one VMLADAVA.S16 (eight products into the
 *    row's int32 sum); the last iteration reads only the remaining lanes;
 *  - Arm DSP (AOT_S16_DSP): per four inputs (x0, x1), (x2, x3) repacked as
 *    (x0, x2), (x1, x3) with PKHBT / PKHTB, and per row one word of weights
 *    split by SXTB16 into (w0, w2) and (w1, w3) (ROR #8), two SMLAD. The
 *    convolutions' main path (aot_s16_dsp_dot2x2) reads inputs already
 *    repacked into a scratch column (aot_s16_dsp_col) for two output
 *    positions, so each weight word serves two positions and each input
 *    word two output channels. */
#ifndef AOT_S16_SIMD_H
#define AOT_S16_SIMD_H

#include <string.h>

#include "aot_common.h"
#include "aot_s16_rq.h"

#if !defined(AOT_NO_SIMD) && defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>
#define AOT_S16_MVE 1
#elif !defined(AOT_NO_SIMD) && defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32)
#include <arm_acle.h>
#include "aot_dsp.h"   /* aot_dsp_pkhbt / aot_dsp_pkhtb */
#define AOT_S16_DSP 1
#endif

/* products one int32 partial sum takes, at most (< 511; a multiple of 8) */
#define AOT_S16_RUN 504

/* s[r] += sum over k < n of x[k] * w[r * ws + k], r < rows (1 to 4), in
 * int32; n <= AOT_S16_RUN. The portable reference; s[rows..3] may change in
 * the SIMD builds (they hold repeated rows). */
AOT_INLINE void aot_s16_dot4_ref(const int16_t *x, const int8_t *w, int32_t ws, int32_t n,
                                 int32_t rows, int32_t *s) {
  int32_t k, r;
  for (r = 0; r < rows; r++, w += ws) {
    int32_t a = s[r];
    for (k = 0; k < n; k++) a += (int32_t)x[k] * w[k];
    s[r] = a;
  }
}

#if defined(AOT_S16_MVE)
/* Helium: see the file comment. One run of n taps of rows w0..w3 added to
 * the register variables s0..s3 of the scope. VMLADAVA needs even
 * accumulator registers (s0..s3: r6, r8, r10, r12), the widening VLDRB.S16
 * low base registers. */
#define AOT_S16_MVE_RUN(x, w0, w1, w2, w3, n)                                                   \
  __asm__ volatile("dlstp.16 lr, %[len]\n"                                                       \
                   "1:\n\t"                                                                    \
                   "vldrh.16 q0, [%[x]], #16\n\t"                                              \
                   "vldrb.s16 q1, [%[w0]], #8\n\t"                                             \
                   "vmladava.s16 %[s0], q0, q1\n\t"                                            \
                   "vldrb.s16 q1, [%[w1]], #8\n\t"                                             \
                   "vmladava.s16 %[s1], q0, q1\n\t"                                            \
                   "vldrb.s16 q1, [%[w2]], #8\n\t"                                             \
                   "vmladava.s16 %[s2], q0, q1\n\t"                                            \
                   "vldrb.s16 q1, [%[w3]], #8\n\t"                                             \
                   "vmladava.s16 %[s3], q0, q1\n\t"                                            \
                   "letp lr, 1b\n"                                                             \
                   : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [x] "+r"(x), \
                     [w0] "+l"(w0), [w1] "+l"(w1), [w2] "+l"(w2), [w3] "+l"(w3)               \
                   : [len] "r"(n)                                                                \
                   : "lr", "d0", "d1", "d2", "d3", "memory")

AOT_INLINE void aot_s16_dot4_s32(const int16_t *x, const int8_t *w, int32_t ws, int32_t n,
                                 int32_t rows, int32_t *s) {
  register int32_t s0 __asm__("r6") = s[0];
  register int32_t s1 __asm__("r8") = s[1];
  register int32_t s2 __asm__("r10") = s[2];
  register int32_t s3 __asm__("r12") = s[3];
  /* rows past the last one repeat it (nothing is read past the rows) */
  const int8_t *w0 = w, *w1 = rows > 1 ? w + ws : w0, *w2 = rows > 2 ? w1 + ws : w1;
  const int8_t *w3 = rows > 3 ? w2 + ws : w2;
  if (n <= 0) return;
  AOT_S16_MVE_RUN(x, w0, w1, w2, w3, n);
  s[0] = s0;
  s[1] = s1;
  s[2] = s2;
  s[3] = s3;
}
#elif defined(AOT_S16_DSP)
/* Arm DSP, inputs in their natural order: per four inputs two LDR (any
 * alignment), PKHBT / PKHTB, then per row LDR, two SXTB16, two SMLAD. The
 * rows are w0, w0 + ws, w2, w2 + ws: four rows w2 = w + 2 ws; three rows
 * w2 = w + ws (rows 0, 1, 1, 2: the third sum is row 2's); two rows w2 = w;
 * one row ws = 0. The last n % 4 products are summed in C. Not inlined: the
 * loop needs thirteen registers. */
static __attribute__((noinline, unused)) void aot_s16_dot4_s32(const int16_t *x, const int8_t *w,
                                                               int32_t ws, int32_t n,
                                                               int32_t rows, int32_t *s) {
  int32_t s0 = s[0], s1 = s[1], s2 = rows == 3 ? 0 : s[2], s3 = rows == 3 ? s[2] : s[3];
  int32_t n4 = n >> 2, k;
  const int8_t *w0 = w, *w2;
  if (rows < 2) ws = 0;
  w2 = rows > 3 ? w + 2 * ws : rows == 3 ? w + ws : w;
  if (n4 > 0) {
    uint32_t xa, xb, u, t;
    __asm__ volatile(
        "1:\n\t"
        "ldr %[xa], [%[x]], #4\n\t"
        "ldr %[xb], [%[x]], #4\n\t"
        "pkhbt %[u], %[xa], %[xb], lsl #16\n\t"
        "pkhtb %[xb], %[xb], %[xa], asr #16\n\t"
        "ldr %[t], [%[w0], %[ws]]\n\t"
        "sxtb16 %[xa], %[t]\n\t"
        "smlad %[s1], %[xa], %[u], %[s1]\n\t"
        "sxtb16 %[t], %[t], ror #8\n\t"
        "smlad %[s1], %[t], %[xb], %[s1]\n\t"
        "ldr %[t], [%[w0]], #4\n\t"
        "sxtb16 %[xa], %[t]\n\t"
        "smlad %[s0], %[xa], %[u], %[s0]\n\t"
        "sxtb16 %[t], %[t], ror #8\n\t"
        "smlad %[s0], %[t], %[xb], %[s0]\n\t"
        "ldr %[t], [%[w2], %[ws]]\n\t"
        "sxtb16 %[xa], %[t]\n\t"
        "smlad %[s3], %[xa], %[u], %[s3]\n\t"
        "sxtb16 %[t], %[t], ror #8\n\t"
        "smlad %[s3], %[t], %[xb], %[s3]\n\t"
        "ldr %[t], [%[w2]], #4\n\t"
        "sxtb16 %[xa], %[t]\n\t"
        "smlad %[s2], %[xa], %[u], %[s2]\n\t"
        "sxtb16 %[t], %[t], ror #8\n\t"
        "smlad %[s2], %[t], %[xb], %[s2]\n\t"
        "subs %[n4], %[n4], #1\n\t"
        "bne 1b\n"
        : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [xa] "=&r"(xa),
          [xb] "=&r"(xb), [u] "=&r"(u), [t] "=&r"(t), [x] "+r"(x), [w0] "+r"(w0),
          [w2] "+r"(w2), [n4] "+r"(n4)
        : [ws] "r"(ws)
        : "cc", "memory");
  }
  for (k = 0; k < (n & 3); k++) {
    const int32_t v = x[k];
    s0 += v * w0[k];
    s1 += v * w0[ws + k];
    s2 += v * w2[k];
    s3 += v * w2[ws + k];
  }
  s[0] = s0;
  s[1] = s1;
  s[2] = rows == 3 ? s3 : s2;
  s[3] = rows == 3 ? s2 : s3;
}
#else
#define aot_s16_dot4_s32 aot_s16_dot4_ref
#endif

/* The int32 partial sums s of four rows and the products they hold (*cnt),
 * moved into the int64 totals a before they would pass AOT_S16_RUN. */
typedef struct aot_s16_acc {
  int32_t s[4];
  int32_t cnt;
  int64_t a[4];
} aot_s16_acc;

AOT_INLINE void aot_s16_acc_zero(aot_s16_acc *c) {
  memset(c, 0, sizeof *c);
}

/* the int64 totals (partial sums included) */
AOT_INLINE void aot_s16_acc_flush(aot_s16_acc *c) {
  int r;
  for (r = 0; r < 4; r++) {
    c->a[r] += c->s[r];
    c->s[r] = 0;
  }
  c->cnt = 0;
}

/* c's rows r < rows += sum over k < n of x[k] * w[r * ws + k], any n >= 0
 * (c's other rows may change). */
AOT_INLINE void aot_s16_dot_acc(const int16_t *x, const int8_t *w, int32_t ws, int32_t n,
                                int32_t rows, aot_s16_acc *c) {
  while (n > 0) {
    int32_t m = AOT_S16_RUN - c->cnt;
    if (m <= 0) {
      aot_s16_acc_flush(c);
      continue;
    }
    if (m > n) m = n;
    aot_s16_dot4_s32(x, w, ws, m, rows, c->s);
    c->cnt += m;
    x += m;
    w += m;
    n -= m;
  }
}

/* A window: n2 x n1 runs of n taps; run (i2, i1) reads the inputs at
 * x + i2 * x2 + i1 * x1 and the weights of row 0 at w + i2 * w2 + i1 * w1
 * (steps may be negative), row r at ws * r from row 0. A CONV_2D window is
 * its filter rows (outer) and the segments of a row (inner); a
 * TRANSPOSE_CONV one the input rows and columns that reach the output. */
typedef struct aot_s16_win {
  const int16_t *x;
  const int8_t *w;
  int32_t n, n1, n2;
  int32_t x1, w1, x2, w2;
} aot_s16_win;

/* a[r] += the sum over the window of x * w (row r), r < rows (1 to 4);
 * a[rows..3] may change. A window of at most AOT_S16_RUN products is summed
 * into int32 once (Helium: the sums stay in their registers from run to
 * run); a larger one run by run through aot_s16_dot_acc. */
AOT_INLINE void aot_s16_win4(const aot_s16_win *v, int32_t ws, int32_t rows, int64_t *a) {
  const int32_t n = v->n;
  int32_t i1, i2, r;
  if (n <= 0 || v->n1 <= 0 || v->n2 <= 0) return;
  if ((int64_t)n * v->n1 * v->n2 <= AOT_S16_RUN) {
#if defined(AOT_S16_MVE)
    /* the sums stay in their registers from run to run */
    register int32_t s0 __asm__("r6") = 0;
    register int32_t s1 __asm__("r8") = 0;
    register int32_t s2 __asm__("r10") = 0;
    register int32_t s3 __asm__("r12") = 0;
    const int32_t d1 = rows > 1 ? ws : 0, d2 = rows > 2 ? ws : 0, d3 = rows > 3 ? ws : 0;
    for (i2 = 0; i2 < v->n2; i2++) {
      const int16_t *xr = v->x + (ptrdiff_t)i2 * v->x2;
      const int8_t *wr = v->w + (ptrdiff_t)i2 * v->w2;
      for (i1 = 0; i1 < v->n1; i1++, xr += v->x1, wr += v->w1) {
        const int16_t *x = xr;
        const int8_t *w0 = wr, *w1 = w0 + d1, *w2 = w1 + d2, *w3 = w2 + d3;
        AOT_S16_MVE_RUN(x, w0, w1, w2, w3, n);
      }
    }
    a[0] += s0;
    a[1] += s1;
    a[2] += s2;
    a[3] += s3;
    (void)r;
#else
    int32_t s[4] = {0, 0, 0, 0};
    for (i2 = 0; i2 < v->n2; i2++) {
      const int16_t *x = v->x + (ptrdiff_t)i2 * v->x2;
      const int8_t *w = v->w + (ptrdiff_t)i2 * v->w2;
      for (i1 = 0; i1 < v->n1; i1++, x += v->x1, w += v->w1) aot_s16_dot4_s32(x, w, ws, n, rows, s);
    }
    for (r = 0; r < 4; r++) a[r] += s[r];
#endif
  } else {
    aot_s16_acc c;
    aot_s16_acc_zero(&c);
    for (i2 = 0; i2 < v->n2; i2++) {
      const int16_t *x = v->x + (ptrdiff_t)i2 * v->x2;
      const int8_t *w = v->w + (ptrdiff_t)i2 * v->w2;
      for (i1 = 0; i1 < v->n1; i1++, x += v->x1, w += v->w1) aot_s16_dot_acc(x, w, ws, n, rows, &c);
    }
    aot_s16_acc_flush(&c);
    for (r = 0; r < 4; r++) a[r] += c.a[r];
  }
}

/* ---- two output positions x AOT_S16_PR output channels ------------------
 * The convolutions' main path. A column holds the taps of a window for two
 * output positions A and B (aot_s16_colp; zeros where a position's input is
 * outside the image: zero point 0, so they add nothing):
 *  - Helium: A's tap k at col[k], B's at col[kb + k];
 *  - Arm DSP: per group of four taps k..k+3 four words, A (xk, xk+2),
 *    A (xk+1, xk+3), B (xk, xk+2), B (xk+1, xk+3) (kb unused): the pairs
 *    SXTB16 makes of a weight word.
 * aot_s16_pair sums a window of blocks (aot_s16_pwin) against AOT_S16_PR
 * rows of weights: each weight load serves both positions, each input load
 * every row. */
#if defined(AOT_S16_MVE) || defined(AOT_S16_DSP)
#if defined(AOT_S16_MVE)
#define AOT_S16_PR 3
#else
#define AOT_S16_PR 2
#endif

/* n2 x n1 blocks of bn taps; block (i2, i1) reads A's taps from tap
 * i2 * x2 + i1 * x1 of x (a column; on Helium also the input itself), B's
 * kb taps further (Helium), and the weights of row 0 at w + i2 * w2 +
 * i1 * w1 (steps may be negative) */
typedef struct aot_s16_pwin {
  int32_t bn, n1, n2, x1, x2, w1, w2;
} aot_s16_pwin;
#endif

#if defined(AOT_S16_MVE)
/* taps k..k+n-1 of position which (0: A, 1: B) from src (NULL: zeros) */
AOT_INLINE void aot_s16_colp(int16_t *col, int32_t kb, int32_t which, int32_t k,
                             const int16_t *src, int32_t n) {
  int16_t *d = col + (which ? kb : 0) + k;
  if (src) {
    for (; n > 0; n -= 8, d += 8, src += 8) {
      const mve_pred16_t p = vctp16q((uint32_t)n);
      vstrhq_p_s16(d, vldrhq_z_s16(src, p), p);
    }
  } else {
    const int16x8_t z = vdupq_n_s16(0);
    for (; n > 0; n -= 8, d += 8) vstrhq_p_s16(d, z, vctp16q((uint32_t)n));
  }
}

/* One run of n taps of A (xa) and B (xb) against rows w0..w2, added to the
 * register variables a0..a2 (A) and b0..b2 (B) of the scope (even
 * registers: VMLADAVA): per eight taps two VLDRH, three VLDRB.S16, six
 * VMLADAVA.S16 (48 products), tail-predicated. */
#define AOT_S16_MVE_RUN2(xa, xb, w0, w1, w2, n)                                              \
  __asm__ volatile("dlstp.16 lr, %[len]\n"                                                    \
                   "1:\n\t"                                                                  \
                   "vldrh.16 q0, [%[xa]], #16\n\t"                                           \
                   "vldrh.16 q1, [%[xb]], #16\n\t"                                           \
                   "vldrb.s16 q2, [%[w0]], #8\n\t"                                           \
                   "vmladava.s16 %[a0], q0, q2\n\t"                                          \
                   "vmladava.s16 %[b0], q1, q2\n\t"                                          \
                   "vldrb.s16 q2, [%[w1]], #8\n\t"                                           \
                   "vmladava.s16 %[a1], q0, q2\n\t"                                          \
                   "vmladava.s16 %[b1], q1, q2\n\t"                                          \
                   "vldrb.s16 q2, [%[w2]], #8\n\t"                                           \
                   "vmladava.s16 %[a2], q0, q2\n\t"                                          \
                   "vmladava.s16 %[b2], q1, q2\n\t"                                          \
                   "letp lr, 1b\n"                                                          \
                   : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [b0] "+r"(b0),            \
                     [b1] "+r"(b1), [b2] "+r"(b2), [xa] "+r"(xa), [xb] "+r"(xb),            \
                     [w0] "+l"(w0), [w1] "+l"(w1), [w2] "+l"(w2)                            \
                   : [len] "r"(n)                                                             \
                   : "lr", "d0", "d1", "d2", "d3", "d4", "d5", "memory")
#elif defined(AOT_S16_DSP)
AOT_INLINE uint32_t aot_s16_ld32(const int16_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

/* the column index of tap k of position which (0: A, 1: B) */
AOT_INLINE int32_t aot_s16_dsp_coli(int32_t which, int32_t k) {
  return (k >> 2) * 8 + which * 4 + ((k & 1) << 1) + ((k >> 1) & 1);
}


/* taps k..k+n-1 of position which (0: A, 1: B) from src (NULL: zeros) */
AOT_INLINE void aot_s16_colp(int16_t *col, int32_t kb, int32_t which, int32_t k,
                             const int16_t *src, int32_t n) {
  int16_t *d;
  (void)kb;
  for (; n > 0 && (k & 3) != 0; n--, k++) col[aot_s16_dsp_coli(which, k)] = src ? *src++ : 0;
  d = col + (k >> 2) * 8 + which * 4;
  k += n & ~3;
  if (src) {
    for (; n >= 4; n -= 4, src += 4, d += 8) {
      const uint32_t x01 = aot_s16_ld32(src), x23 = aot_s16_ld32(src + 2);
      const uint32_t v0 = aot_dsp_pkhbt(x01, x23), v1 = aot_dsp_pkhtb(x01, x23);
      memcpy(d, &v0, 4);
      memcpy(d + 2, &v1, 4);
    }
  } else {
    for (; n >= 4; n -= 4, d += 8) memset(d, 0, 8);
  }
  for (; n > 0; n--, k++) col[aot_s16_dsp_coli(which, k)] = src ? *src++ : 0;
}

/* s = {A x w0, A x w1, B x w0, B x w1} += the sums over n4 groups of col
 * (4 n4 <= AOT_S16_RUN products per sum). Per two groups four LDRD of
 * inputs, four LDR of weights, eight SXTB16 and sixteen SMLAD (32
 * products); an odd first group runs alone. */
AOT_INLINE void aot_s16_dsp_dot2x2(const uint32_t *col, const int8_t *w0, const int8_t *w1,
                                   int32_t n4, int32_t *s) {
  int32_t a0 = s[0], a1 = s[1], b0 = s[2], b1 = s[3];
  uint32_t t, u, xa, xb, xc, xd;
  if (n4 <= 0) return;
#define AOT_S16_G2X2                                 \
  "ldrd %[xa], %[xb], [%[col]], #8\n\t"              \
  "ldrd %[xc], %[xd], [%[col]], #8\n\t"              \
  "ldr %[t], [%[w0]], #4\n\t"                        \
  "sxtb16 " AOT_ASM_R7(u) ", %[t]\n\t"                            \
  "smlad %[a0], " AOT_ASM_R7(u) ", %[xa], %[a0]\n\t"              \
  "smlad %[b0], " AOT_ASM_R7(u) ", %[xc], %[b0]\n\t"              \
  "sxtb16 %[t], %[t], ror #8\n\t"                    \
  "smlad %[a0], %[t], %[xb], %[a0]\n\t"              \
  "smlad %[b0], %[t], %[xd], %[b0]\n\t"              \
  "ldr %[t], [%[w1]], #4\n\t"                        \
  "sxtb16 " AOT_ASM_R7(u) ", %[t]\n\t"                            \
  "smlad %[a1], " AOT_ASM_R7(u) ", %[xa], %[a1]\n\t"              \
  "smlad %[b1], " AOT_ASM_R7(u) ", %[xc], %[b1]\n\t"              \
  "sxtb16 %[t], %[t], ror #8\n\t"                    \
  "smlad %[a1], %[t], %[xb], %[a1]\n\t"              \
  "smlad %[b1], %[t], %[xd], %[b1]\n\t"
  __asm__ volatile(
      AOT_ASM_R7_SAVE
      "lsrs %[n], %[n], #1\n\t"
      "bcc 2f\n\t"
      AOT_S16_G2X2
      "cmp %[n], #0\n\t"
      "beq 3f\n"
      "2:\n\t"
      AOT_S16_G2X2
      AOT_S16_G2X2
      "subs %[n], %[n], #1\n\t"
      "bne 2b\n"
      "3:\n" AOT_ASM_R7_RESTORE
      : [a0] "+r"(a0), [a1] "+r"(a1), [b0] "+r"(b0), [b1] "+r"(b1), [t] "=&r"(t),
        AOT_ASM_R7_OP([u] "=&r"(u),)
        [xa] "=&r"(xa), [xb] "=&r"(xb), [xc] "=&r"(xc), [xd] "=&r"(xd), [col] "+r"(col),
        [w0] "+r"(w0), [w1] "+r"(w1), [n] "+r"(n4)
      :
      : "cc", "memory");
  (void)u;
#undef AOT_S16_G2X2
  s[0] = a0;
  s[1] = a1;
  s[2] = b0;
  s[3] = b1;
}
#endif

#if defined(AOT_S16_DSP)
/* s += the products of the last m % 4 taps of a piece of m taps at tap k0
 * of the column x, weights w0, w1 (from the piece's start) */
AOT_INLINE void aot_s16_dsp_tail(const int16_t *x, int32_t k0, int32_t m, const int8_t *w0,
                                 const int8_t *w1, int32_t *s) {
  int32_t t;
  for (t = m & ~3; t < m; t++) {
    const int32_t xa = x[aot_s16_dsp_coli(0, k0 + t)], xb = x[aot_s16_dsp_coli(1, k0 + t)];
    s[0] += xa * w0[t];
    s[1] += xa * w1[t];
    s[2] += xb * w0[t];
    s[3] += xb * w1[t];
  }
}
#endif

#if defined(AOT_S16_MVE) || defined(AOT_S16_DSP)

#if defined(AOT_S16_MVE) && defined(__clang__)
/* aot_s16_pair_sums' run loop needs 14 registers: under Clang (r7 is the
 * frame pointer, see AOT_ASM_R7 in aot_common.h) its scratch register is r7,
 * saved around the statement, and r12 is left to the compiler */
#define AOT_S16_PS_T "r7"
#define AOT_S16_PS_CLOB
#elif defined(AOT_S16_MVE)
#define AOT_S16_PS_T "r12"
#define AOT_S16_PS_CLOB "r12",
#endif
/* a[r] = A's sum, a[AOT_S16_PR + r] = B's sum of weight row r (at w +
 * r * ws), r < rows (1 to AOT_S16_PR; the other sums may change), over the
 * window v of x (B's taps at kb on Helium). The int32 sums move into int64
 * after at most AOT_S16_RUN products; a block longer than that runs in
 * pieces of AOT_S16_RUN taps (a multiple of 8: the DSP's groups stay whole;
 * only the window's last piece may end inside a group, its last taps are
 * summed in C). */
AOT_INLINE void aot_s16_pair_sums(const int16_t *x, int32_t kb, const int8_t *w, int32_t ws,
                                  int32_t rows, const aot_s16_pwin *v, int small, int32_t *s32,
                                  int64_t *a) {
  const int32_t bn = v->bn, d1 = rows > 1 ? ws : 0;
  int64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0;
  int32_t i1, i2, cnt = 0;
#if defined(AOT_S16_MVE)
  /* (with r12 among them GCC 12 finds no registers for the rest) */
  register int32_t a0 __asm__("r0") = 0;
  register int32_t a1 __asm__("r2") = 0;
  register int32_t a2 __asm__("r4") = 0;
  register int32_t b0 __asm__("r6") = 0;
  register int32_t b1 __asm__("r8") = 0;
  register int32_t b2 __asm__("r10") = 0;
  const int32_t d2 = rows > 2 ? ws : 0;
  int64_t t4 = 0, t5 = 0;
#define AOT_S16_PAIR_FLUSH()          \
  do {                                \
    t0 += a0;                         \
    t1 += a1;                         \
    t2 += a2;                         \
    t3 += b0;                         \
    t4 += b1;                         \
    t5 += b2;                         \
    a0 = a1 = a2 = b0 = b1 = b2 = 0;  \
  } while (0)
#else
  int32_t s[4] = {0, 0, 0, 0};
  (void)kb;
#define AOT_S16_PAIR_FLUSH()          \
  do {                                \
    t0 += s[0];                       \
    t1 += s[1];                       \
    t2 += s[2];                       \
    t3 += s[3];                       \
    s[0] = s[1] = s[2] = s[3] = 0;    \
  } while (0)
#endif
  if (small) {   /* at most AOT_S16_RUN products: one int32 sum each, into s32 */
    const int32_t n1 = v->n1, n2 = v->n2;
    const int16_t *xr = x;
    const int8_t *wr = w;
#if defined(AOT_S16_MVE)
    /* the runs of a row of blocks in one asm statement: after each run
     * the pointers step by the rest of x1 / w1 (the run advanced them by
     * bn rounded up to 8: the post-increments of the tail-predicated last
     * iteration are whole); pb: bn, the steps in bytes, the runs left */
    const int32_t b8 = (bn + 7) & ~7;
    int32_t pb[4];
    pb[0] = bn;
    pb[1] = 2 * (v->x1 - b8);
    pb[2] = v->w1 - b8;
    for (i2 = 0; i2 < n2; i2++, xr += v->x2, wr += v->w2) {
      register const int16_t *xa __asm__("r9") = xr;
      register const int16_t *xb __asm__("r11") = xr + kb;
      register const int8_t *w0 __asm__("r1") = wr;
      register const int8_t *w1 __asm__("r3") = wr + d1;
      register const int8_t *w2 __asm__("r5") = wr + d1 + d2;
      pb[3] = n1;
      __asm__ volatile(AOT_ASM_R7_SAVE "1:\n\t"
                       "ldr " AOT_S16_PS_T ", [%[pb]]\n\t"
                       "dlstp.16 lr, " AOT_S16_PS_T "\n"
                       "2:\n\t"
                       "vldrh.16 q0, [%[xa]], #16\n\t"
                       "vldrh.16 q1, [%[xb]], #16\n\t"
                       "vldrb.s16 q2, [%[w0]], #8\n\t"
                       "vmladava.s16 %[a0], q0, q2\n\t"
                       "vmladava.s16 %[b0], q1, q2\n\t"
                       "vldrb.s16 q2, [%[w1]], #8\n\t"
                       "vmladava.s16 %[a1], q0, q2\n\t"
                       "vmladava.s16 %[b1], q1, q2\n\t"
                       "vldrb.s16 q2, [%[w2]], #8\n\t"
                       "vmladava.s16 %[a2], q0, q2\n\t"
                       "vmladava.s16 %[b2], q1, q2\n\t"
                       "letp lr, 2b\n\t"
                       "ldr " AOT_S16_PS_T ", [%[pb], #4]\n\t"
                       "add %[xa], %[xa], " AOT_S16_PS_T "\n\t"
                       "add %[xb], %[xb], " AOT_S16_PS_T "\n\t"
                       "ldr " AOT_S16_PS_T ", [%[pb], #8]\n\t"
                       "add %[w0], %[w0], " AOT_S16_PS_T "\n\t"
                       "add %[w1], %[w1], " AOT_S16_PS_T "\n\t"
                       "add %[w2], %[w2], " AOT_S16_PS_T "\n\t"
                       "ldr " AOT_S16_PS_T ", [%[pb], #12]\n\t"
                       "subs " AOT_S16_PS_T ", " AOT_S16_PS_T ", #1\n\t"
                       "str " AOT_S16_PS_T ", [%[pb], #12]\n\t"
                       "bne 1b\n" AOT_ASM_R7_RESTORE
                       : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [b0] "+r"(b0),
                         [b1] "+r"(b1), [b2] "+r"(b2), [xa] "+r"(xa), [xb] "+r"(xb),
                         [w0] "+l"(w0), [w1] "+l"(w1), [w2] "+l"(w2)
                       : [pb] "r"(pb)
                       : AOT_S16_PS_CLOB "lr", "d0", "d1", "d2", "d3", "d4", "d5", "cc", "memory");
    }
    (void)i1;
#else
    for (i2 = 0; i2 < n2; i2++, xr += v->x2, wr += v->w2) {
      const int16_t *xq = xr;
      const int8_t *wq = wr;
      for (i1 = 0; i1 < n1; i1++, xq += v->x1, wq += v->w1) {
        const int32_t k0 = (int32_t)(xq - x);
        aot_s16_dsp_dot2x2((const uint32_t *)(const void *)(x + 2 * k0), wq, wq + d1, bn >> 2, s);
        if (bn & 3) aot_s16_dsp_tail(x, k0, bn, wq, wq + d1, s);
      }
    }
#endif
#if defined(AOT_S16_MVE)
    s32[0] = a0;
    s32[1] = a1;
    s32[2] = a2;
    s32[3] = b0;
    s32[4] = b1;
    s32[5] = b2;
#else
    s32[0] = s[0];
    s32[1] = s[1];
    s32[2] = s[2];
    s32[3] = s[3];
#endif
    return;
  }
  for (i2 = 0; i2 < v->n2; i2++) {
    for (i1 = 0; i1 < v->n1; i1++) {
      const int32_t k = i2 * v->x2 + i1 * v->x1;
      const int8_t *wb = w + (ptrdiff_t)i2 * v->w2 + (ptrdiff_t)i1 * v->w1;
      int32_t off = 0;
      while (off < bn) {
        int32_t m = AOT_S16_RUN - cnt;
        if (m <= 0) {
          AOT_S16_PAIR_FLUSH();
          cnt = 0;
          continue;
        }
        if (m > bn - off) m = bn - off;
        {
#if defined(AOT_S16_MVE)
          /* every operand in a register of its own choosing (GCC 12
           * finds none for some otherwise); r7 is left to a frame pointer */
          register const int16_t *xa __asm__("r9") = x + k + off;
          register const int16_t *xb __asm__("r11") = x + k + off + kb;
          register const int8_t *w0 __asm__("r1") = wb + off;
          register const int8_t *w1 __asm__("r3") = wb + off + d1;
          register const int8_t *w2 __asm__("r5") = wb + off + d1 + d2;
          register int32_t len __asm__("r12") = m;
          AOT_S16_MVE_RUN2(xa, xb, w0, w1, w2, len);
#else
          const int8_t *w0 = wb + off, *w1 = w0 + d1;
          const int32_t k0 = k + off;
          aot_s16_dsp_dot2x2((const uint32_t *)(const void *)(x + 2 * k0), w0, w1, m >> 2, s);
          if (m & 3) aot_s16_dsp_tail(x, k0, m, w0, w1, s);
#endif
        }
        off += m;
        cnt += m;
      }
    }
  }
  AOT_S16_PAIR_FLUSH();
#undef AOT_S16_PAIR_FLUSH
  a[0] = t0;
  a[1] = t1;
  a[2] = t2;
  a[3] = t3;
#if defined(AOT_S16_MVE)
  a[4] = t4;
  a[5] = t5;
#endif
}

/* The outputs of rows 0..nr-1 (weights at w + r * ws, channel oc0 + r) for
 * positions A (out0) and B (out1, NULL: none): aot_s16_pair_sums over
 * AOT_S16_PR rows at a time, then aot_s16_out through rq (bias included),
 * clamped to [lo, hi]. Not inlined: the loop gets the registers. */
static __attribute__((noinline, unused)) void aot_s16_pair(const int16_t *x, int32_t kb,
                                                           const int8_t *w, int32_t ws,
                                                           int32_t nr, const aot_s16_pwin *v,
                                                           const aot_s16_rq *rq, int32_t oc0,
                                                           int32_t lo, int32_t hi,
                                                           int16_t *out0, int16_t *out1) {
  /* sums of one int32 each (aot_s16_pair_sums' first path; its asm needs
   * bn and n1 positive) */
  const int small = (int64_t)v->bn * v->n1 * v->n2 <= AOT_S16_RUN && v->bn > 0 && v->n1 > 0;
  int32_t j, r;
  for (j = 0; j < nr; j += AOT_S16_PR, w += AOT_S16_PR * ws) {
    const int32_t rows = aot_min_i32(AOT_S16_PR, nr - j), c = oc0 + j;
    int64_t a[2 * AOT_S16_PR];
    int32_t s32[2 * AOT_S16_PR];
    aot_s16_pair_sums(x, kb, w, ws, rows, v, small, s32, a);
    if (small) {
      for (r = 0; r < rows; r++) {
        out0[c + r] = aot_s16_out32(s32[r], rq + c + r, lo, hi);
        if (out1) out1[c + r] = aot_s16_out32(s32[AOT_S16_PR + r], rq + c + r, lo, hi);
      }
    } else {
      for (r = 0; r < rows; r++) {
        out0[c + r] = aot_s16_out(a[r], rq, c + r, NULL, NULL, NULL, lo, hi);
        if (out1)
          out1[c + r] = aot_s16_out(a[AOT_S16_PR + r], rq, c + r, NULL, NULL, NULL, lo, hi);
      }
    }
  }
}
#endif

#endif
