/* aot_hybrid_simd.h - target loops of the hybrid (float32 activations, int8
 * weights) CONV_2D and FULLY_CONNECTED kernels: a GEMM of the int8 weight
 * rows (k values per output channel, contiguous) with one or two "columns"
 * (the quantized taps of one output position or input row), the same int32
 * sums sum w * (q - zp) as the portable loops, followed by the portable
 * float epilogue ((float)acc * scale) * filter_scale[c] + bias[c], clamped,
 * in the same operations and order (bit-identical outputs).
 *
 * Variants (AOT_NO_SIMD: none, the kernel files keep their portable loops):
 *  - AOT_HYBS_DSP (Arm DSP, Cortex-M4F): a column holds the int16 values
 *    q - zp (in [-255, 255]; 0 for taps outside the image), each group of
 *    four taps stored as x0 x2 x1 x3 so that the two SXTB16 halves of a
 *    weight word (w0 w2 / w1 w3) meet them in one SMLAD each; the tail
 *    (k % 4 taps) is stored in order. Two output channels x two columns per
 *    pass: per four taps two weight loads, four SXTB16, four input loads,
 *    eight SMLAD.
 *  - AOT_HYBS_MVE (Helium, Cortex-M55): a column holds the int8 values q
 *    (zp for taps outside the image). Four output channels per pass, one
 *    column load per sixteen taps and four VMLADAVA; the zero-point term is
 *    folded per channel, sum w * q - zp * sum w (sum w computed once per
 *    call, aot_hybs_wsum), in modulo-2^32 arithmetic: the same integer as the
 *    portable int32 sum whenever that does not overflow.
 * aot_hybs_scratch gives the bytes the loops need (columns and weight sums)
 * for any variant, so a plan computed on the host serves every target. */
#ifndef AOT_HYBRID_SIMD_H
#define AOT_HYBRID_SIMD_H

#include <string.h>

#include "aot_common.h"
#include "aot_conv.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(AOT_NO_SIMD)
#include <arm_mve.h>
#define AOT_HYBS_MVE 1
typedef int8_t aot_hybs_col;
#elif defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32) && !defined(AOT_NO_SIMD)
#include <arm_acle.h>
#define AOT_HYBS_DSP 1
typedef int16_t aot_hybs_col;
#endif

/* bytes of the columns (two of k taps) and weight sums (n_out), aligned */
AOT_INLINE size_t aot_hybs_scratch(size_t k, size_t n_out) {
  return 8u + ((4u * k + 23u) & ~(size_t)7u) + 4u * n_out;
}

#if defined(AOT_HYBS_MVE) || defined(AOT_HYBS_DSP)
#define AOT_HYBS 1

typedef struct aot_hybs_ctx {
  const int8_t *w;          /* n_out rows of k weights */
  int32_t k, n_out;
  const int32_t *wsum;      /* Helium: sum of each row */
  const float *fscale;      /* filter_scale */
  int32_t per_channel;
  const float *bias;        /* or NULL */
  float lo, hi;
} aot_hybs_ctx;

/* scratch (aot_hybs_scratch bytes) split into two columns and the sums.
 * DSP: the two columns are interleaved, per group of four taps four int16
 * of column a then four of column b (cb = ca + 4; one pair of LDRD per
 * group), the k % 4 tail taps after the groups (2 * (k & ~3) + i - (k & ~3),
 * column b four further); Helium: two separate int8 columns. */
AOT_INLINE void aot_hybs_split(void *scratch, int32_t k, aot_hybs_col **ca, aot_hybs_col **cb,
                               int32_t **wsum) {
  uintptr_t a = ((uintptr_t)scratch + 7u) & ~(uintptr_t)7u;
  *ca = (aot_hybs_col *)a;
#ifdef AOT_HYBS_DSP
  *cb = *ca + 4;
#else
  *cb = *ca + k;
#endif
  *wsum = (int32_t *)(a + (((uintptr_t)4u * (uintptr_t)k + 23u) & ~(uintptr_t)7u));
}

/* column position of tap i of k */
AOT_INLINE int32_t aot_hybs_pos(int32_t i, int32_t k) {
#ifdef AOT_HYBS_DSP
  const int32_t k4 = k & ~3;
  if (i < k4) return ((i & ~3) << 1) | ((i & 1) << 1) | ((i & 2) >> 1);
  return k4 + i;
#else
  (void)k;
  return i;
#endif
}

/* the column value of quantized tap q (zero point zp) */
AOT_INLINE aot_hybs_col aot_hybs_val(int8_t q, int32_t zp) {
#ifdef AOT_HYBS_DSP
  return (aot_hybs_col)((int32_t)q - zp);
#else
  (void)zp;
  return q;
#endif
}

/* the column value of a tap outside the image */
AOT_INLINE aot_hybs_col aot_hybs_pad(int32_t zp) {
#ifdef AOT_HYBS_DSP
  (void)zp;
  return 0;
#else
  return (aot_hybs_col)zp;
#endif
}

/* column c from the n (= k) quantized values q */
AOT_INLINE void aot_hybs_fill(aot_hybs_col *c, const int8_t *q, int32_t n, int32_t zp) {
#ifdef AOT_HYBS_DSP
  const int32_t n4 = n & ~3;
  int32_t i;
  for (i = 0; i < n4; i += 4, c += 8) {
    c[0] = (int16_t)(q[i] - zp);
    c[1] = (int16_t)(q[i + 2] - zp);
    c[2] = (int16_t)(q[i + 1] - zp);
    c[3] = (int16_t)(q[i + 3] - zp);
  }
  for (; i < n; i++) *c++ = (int16_t)(q[i] - zp);
#else
  (void)zp;
  memcpy(c, q, (size_t)n);
#endif
}

/* weight row sums (Helium fold; nothing on DSP) */
AOT_INLINE void aot_hybs_wsum(const int8_t *w, int32_t k, int32_t n_out, int32_t *ws) {
#ifdef AOT_HYBS_MVE
  int32_t o;
  for (o = 0; o < n_out; o++) {
    int32_t s = 0, n;
    for (n = k; n >= 16; n -= 16) {
      s = vaddvaq_s8(s, vldrbq_s8(w));
      w += 16;
    }
    if (n > 0) {
      const mve_pred16_t pr = vctp8q((uint32_t)n);
      s = vaddvaq_p_s8(s, vldrbq_z_s8(w, pr), pr);
      w += n;
    }
    ws[o] = s;
  }
#else
  (void)w;
  (void)k;
  (void)n_out;
  (void)ws;
#endif
}

/* the portable epilogue of one output */
AOT_INLINE float aot_hybs_out(const aot_hybs_ctx *x, int32_t acc, float scale, int32_t c) {
  float o = (float)acc * scale;
  o *= x->fscale[x->per_channel ? c : 0];
  if (x->bias) o += x->bias[c];
  return aot_clamp_f32(o, x->lo, x->hi);
}

#ifdef AOT_HYBS_DSP
/* one group of four taps of aot_hybs_dsp_2x2 */
#define AOT_HYBS_GROUP \
  "ldr %[t0], [%[f0]], #4\n\t"                 \
  "ldrd %[x0], %[x1], [%[a]], #16\n\t"         \
  "sxtb16 %[t1], %[t0]\n\t"                    \
  "sxtb16 %[t0], %[t0], ror #8\n\t"            \
  "smlad %[s0], %[t1], %[x0], %[s0]\n\t"       \
  "smlad %[s0], %[t0], %[x1], %[s0]\n\t"       \
  "ldr %[t2], [%[f1]], #4\n\t"                 \
  "sxtb16 " AOT_ASM_R7(t3) ", %[t2]\n\t"                    \
  "sxtb16 %[t2], %[t2], ror #8\n\t"            \
  "smlad %[s1], " AOT_ASM_R7(t3) ", %[x0], %[s1]\n\t"       \
  "smlad %[s1], %[t2], %[x1], %[s1]\n\t"       \
  "ldrd %[x0], %[x1], [%[a], #-8]\n\t"         \
  "smlad %[s2], %[t1], %[x0], %[s2]\n\t"       \
  "smlad %[s2], %[t0], %[x1], %[s2]\n\t"       \
  "smlad %[s3], " AOT_ASM_R7(t3) ", %[x0], %[s3]\n\t"       \
  "smlad %[s3], %[t2], %[x1], %[s3]\n\t"

/* sums of rows f0, f1 with the interleaved columns a (b = a + 4):
 * r[0] = f0.a, r[1] = f1.a, r[2] = f0.b, r[3] = f1.b. Per group of four
 * taps: two weight words, their SXTB16 halves, two LDRD, eight SMLAD. */
AOT_INLINE void aot_hybs_dsp_2x2(const int8_t *f0, const int8_t *f1, const int16_t *a,
                                 int32_t k, int32_t *r) {
  int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, n = k >> 2;
  const int16_t *t = a + 2 * (k & ~3);
  if (n > 0) {
    uint32_t t0, t1, t2, t3, x0, x1;
#define AOT_HYBS_OPS                                                                     \
  : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [f0] "+r"(f0),          \
    [f1] "+r"(f1), [a] "+r"(a), [n] "+r"(n), [t0] "=&r"(t0), [t1] "=&r"(t1),            \
    [t2] "=&r"(t2), AOT_ASM_R7_OP([t3] "=&r"(t3),) [x0] "=&r"(x0), [x1] "=&r"(x1)                     \
  :                                                                                      \
  : "cc", "memory"
    /* the odd group, then two groups per iteration */
    if (n & 1) __asm__ volatile(AOT_ASM_R7_SAVE AOT_HYBS_GROUP AOT_ASM_R7_RESTORE AOT_HYBS_OPS);
    n >>= 1;
    if (n > 0)
      __asm__ volatile(AOT_ASM_R7_SAVE "1:\n\t" AOT_HYBS_GROUP AOT_HYBS_GROUP
                       "subs %[n], %[n], #1\n\t"
                       "bne 1b\n\t" AOT_ASM_R7_RESTORE AOT_HYBS_OPS);
    (void)t3;
#undef AOT_HYBS_OPS
  }
  for (n = k & 3; n > 0; n--) {
    s0 += (int32_t)*f0 * t[0];
    s1 += (int32_t)*f1 * t[0];
    s2 += (int32_t)*f0++ * t[4];
    s3 += (int32_t)*f1++ * t[4];
    t++;
  }
  r[0] = s0;
  r[1] = s1;
  r[2] = s2;
  r[3] = s3;
}
#endif

#ifdef AOT_HYBS_MVE
/* sums of the m (1..4) rows f, f + k, f + 2k, f + 3k with column x, into
 * r[0..3] (zero-point term not applied; rows past m repeat the last one) */
AOT_INLINE void aot_hybs_mve_4(const int8_t *f, int32_t m, const int8_t *x, int32_t k,
                               int32_t *r) {
  const int8_t *f1 = m > 1 ? f + k : f, *f2 = m > 2 ? f1 + k : f1, *f3 = m > 3 ? f2 + k : f2;
  int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, n;
  for (n = k; n >= 16; n -= 16) {
    const int8x16_t xv = vldrbq_s8(x);
    s0 = vmladavaq_s8(s0, vldrbq_s8(f), xv);
    s1 = vmladavaq_s8(s1, vldrbq_s8(f1), xv);
    s2 = vmladavaq_s8(s2, vldrbq_s8(f2), xv);
    s3 = vmladavaq_s8(s3, vldrbq_s8(f3), xv);
    x += 16;
    f += 16;
    f1 += 16;
    f2 += 16;
    f3 += 16;
  }
  if (n > 0) {
    const mve_pred16_t pr = vctp8q((uint32_t)n);
    const int8x16_t xv = vldrbq_z_s8(x, pr);
    s0 = vmladavaq_p_s8(s0, vldrbq_z_s8(f, pr), xv, pr);
    s1 = vmladavaq_p_s8(s1, vldrbq_z_s8(f1, pr), xv, pr);
    s2 = vmladavaq_p_s8(s2, vldrbq_z_s8(f2, pr), xv, pr);
    s3 = vmladavaq_p_s8(s3, vldrbq_z_s8(f3, pr), xv, pr);
  }
  r[0] = s0;
  r[1] = s1;
  r[2] = s2;
  r[3] = s3;
}

/* one column: every output channel to out[0..n_out-1] */
AOT_INLINE void aot_hybs_mve_col(const aot_hybs_ctx *x, const int8_t *c, int32_t zp,
                                 float scale, float *out) {
  const int32_t k = x->k, n = x->n_out;
  int32_t o, j, r[4];
  for (o = 0; o < n; o += 4) {
    const int32_t m = n - o < 4 ? n - o : 4;
    aot_hybs_mve_4(x->w + (size_t)o * (size_t)k, m, c, k, r);
#if (__ARM_FEATURE_MVE & 2)
    if (m == 4) {
      /* the epilogue in four lanes: the same float operations per lane */
      const int32x4_t a = vsubq_s32(vldrwq_s32(r), vmulq_n_s32(vldrwq_s32(x->wsum + o), zp));
      float32x4_t f = vmulq_n_f32(vcvtq_f32_s32(a), scale);
      f = x->per_channel ? vmulq_f32(f, vldrwq_f32(x->fscale + o)) : vmulq_n_f32(f, x->fscale[0]);
      if (x->bias) f = vaddq_f32(f, vldrwq_f32(x->bias + o));
      /* lo > f, not f < lo: the MVE LT condition is true for a NaN, and
       * aot_clamp_f32 keeps a NaN */
      f = vpselq_f32(vdupq_n_f32(x->lo), f, vcmpgtq_f32(vdupq_n_f32(x->lo), f));
      f = vpselq_f32(vdupq_n_f32(x->hi), f, vcmpgtq_n_f32(f, x->hi));
      vstrwq_f32(out + o, f);
      continue;
    }
#endif
    for (j = 0; j < m; j++) {
      const int32_t acc = (int32_t)((uint32_t)r[j] - (uint32_t)zp * (uint32_t)x->wsum[o + j]);
      out[o + j] = aot_hybs_out(x, acc, scale, o + j);
    }
  }
}
#endif

/* columns ca (zero point za, scale sa) -> oa[0..n_out-1] and, when ob is
 * not NULL, cb (zb, sb) -> ob */
AOT_INLINE void aot_hybs_run(const aot_hybs_ctx *x, const aot_hybs_col *ca, int32_t za,
                             float sa, float *oa, const aot_hybs_col *cb, int32_t zb, float sb,
                             float *ob) {
#ifdef AOT_HYBS_MVE
  aot_hybs_mve_col(x, ca, za, sa, oa);
  if (ob) aot_hybs_mve_col(x, cb, zb, sb, ob);
#else
  const int32_t k = x->k, n = x->n_out;
  int32_t o, r[4];
  (void)za;
  (void)zb;
  (void)cb;  /* ca + 4 */
  const float *fs = x->fscale, *bias = x->bias;
  const float lo = x->lo, hi = x->hi;
  const int pc = x->per_channel;
  const int32_t n2 = n & ~1;
  for (o = 0; o < n; o += 2) {
    const int8_t *f0 = x->w + (size_t)o * (size_t)k;
    const int two = o + 1 < n;
    aot_hybs_dsp_2x2(f0, two ? f0 + k : f0, ca, k, r);
    if (o < n2 && ob) {
      /* the portable epilogue of the four sums, fields held in registers */
      const float f0s = fs[pc ? o : 0], f1s = fs[pc ? o + 1 : 0];
      float a0 = (float)r[0] * sa, a1 = (float)r[1] * sa;
      float b0 = (float)r[2] * sb, b1 = (float)r[3] * sb;
      a0 *= f0s;
      a1 *= f1s;
      b0 *= f0s;
      b1 *= f1s;
      if (bias) {
        a0 += bias[o];
        a1 += bias[o + 1];
        b0 += bias[o];
        b1 += bias[o + 1];
      }
      oa[o] = aot_clamp_f32(a0, lo, hi);
      oa[o + 1] = aot_clamp_f32(a1, lo, hi);
      ob[o] = aot_clamp_f32(b0, lo, hi);
      ob[o + 1] = aot_clamp_f32(b1, lo, hi);
      continue;
    }
    oa[o] = aot_hybs_out(x, r[0], sa, o);
    if (two) oa[o + 1] = aot_hybs_out(x, r[1], sa, o + 1);
    if (ob) {
      ob[o] = aot_hybs_out(x, r[2], sb, o);
      if (two) ob[o + 1] = aot_hybs_out(x, r[3], sb, o + 1);
    }
  }
#endif
}

/* Scale, zero point and reciprocal scale (returned) of
 * aot_hybrid_quantize_qd8 from the largest bit pattern of a row of finite
 * values as int32 (smax, the largest positive value) and as uint32 (umax,
 * the most negative value), both at least 0 and below the infinities. Shared
 * by the DSP and Helium quantizers; their two tests (finite row, finite
 * reciprocal) stay in the callers: a helper that also returned the verdict
 * moved the Helium loop and cost 2% on the float KWS. */
AOT_INLINE float aot_hybs_params(int32_t smax, uint32_t umax, float *scale, int32_t *z) {
  float rmin, rmax, m, dmin, dmax, fz;
  if (umax > 0x80000000u) memcpy(&rmin, &umax, 4);
  else rmin = 0.0f;
  if (smax > 0) memcpy(&rmax, &smax, 4);
  else rmax = 0.0f;
  m = rmin == rmax ? 1.0f : 255.0f / (rmax - rmin);
  dmin = rmin * m;
  dmax = rmax * m;
  fz = (-128.0f + dmin) + (127.0f + dmax) > 0.0f ? -128.0f - dmin : 127.0f - dmax;
  *z = aot_hybrid_round(fz, -128, 127, 1);
  *scale = 1.0f / m;
  return 1.0f / *scale;
}

/* aot_hybrid_quantize_qd8 of n > 0 values straight into column c, the same
 * scale, zero point and values, when every value is finite and the
 * reciprocal scale is finite (else the portable function, then
 * aot_hybs_fill): the range from the float bit patterns (the largest as a
 * signed integer is the largest positive value, the largest as an unsigned
 * integer the most negative one), q = SSAT8(round_half_even(x * m) + zp)
 * (DSP: VCVTR per value; Helium with floating point: four values per
 * VMUL / VCVTN / VMAX / VMIN / VSTRB)
 * (the products are finite and small, so rounding before the clamp is the
 * same as after it). */
#ifdef AOT_HYBS_DSP
/* q - zp of one finite value x (round half to even by VCVTR) */
AOT_INLINE int16_t aot_hybs_q1(float x, float mq, int32_t z) {
  float t = x * mq;
  int32_t r;
  __asm__("vcvtr.s32.f32 %0, %0" : "+t"(t));
  memcpy(&r, &t, 4);
  return (int16_t)(__ssat(r + z, 8) - z);
}
#endif

AOT_INLINE void aot_hybs_quant(const float *v, int32_t n, int8_t *q, aot_hybs_col *c,
                               float *scale, int32_t *zp) {
#ifdef AOT_HYBS_DSP
  int32_t smax = 0, i, z;
  uint32_t umax = 0;
  float mq;
  for (i = 0; i < n; i++) {
    uint32_t b;
    memcpy(&b, v + i, 4);
    if ((int32_t)b > smax) smax = (int32_t)b;
    if (b > umax) umax = b;
  }
  if (smax < 0x7F800000 && umax < 0xFF800000u &&
      (mq = aot_hybs_params(smax, umax, scale, &z)) <= 3.0e38f) {
    const int32_t n4 = n & ~3;
    *zp = z;
    for (i = 0; i < n4; i += 4, c += 8) {
      c[0] = aot_hybs_q1(v[i], mq, z);
      c[2] = aot_hybs_q1(v[i + 1], mq, z);
      c[1] = aot_hybs_q1(v[i + 2], mq, z);
      c[3] = aot_hybs_q1(v[i + 3], mq, z);
    }
    for (; i < n; i++) *c++ = aot_hybs_q1(v[i], mq, z);
    return;
  }
#elif defined(AOT_HYBS_MVE) && (__ARM_FEATURE_MVE & 2)
  int32x4_t vs = vdupq_n_s32(0);
  uint32x4_t vu = vdupq_n_u32(0);
  int32_t i, smax, z;
  uint32_t umax;
  float mq;
  for (i = 0; i < n; i += 4) {
    const mve_pred16_t pr = vctp32q((uint32_t)(n - i));
    const int32x4_t b = vldrwq_z_s32((const int32_t *)(const void *)(v + i), pr);
    vs = vmaxq_s32(vs, b);
    vu = vmaxq_u32(vu, vreinterpretq_u32_s32(b));
  }
  smax = vmaxvq_s32(0, vs);
  umax = vmaxvq_u32(0u, vu);
  if (smax < 0x7F800000 && umax < 0xFF800000u &&
      (mq = aot_hybs_params(smax, umax, scale, &z)) <= 3.0e38f) {
    *zp = z;
    for (i = 0; i < n; i += 4) {
      const mve_pred16_t pr = vctp32q((uint32_t)(n - i));
      int32x4_t r = vcvtnq_s32_f32(vmulq_n_f32(vldrwq_z_f32(v + i, pr), mq));
      r = vminq_s32(vmaxq_s32(vaddq_n_s32(r, z), vdupq_n_s32(-128)), vdupq_n_s32(127));
      vstrbq_p_s32(c + i, r, pr);
    }
    return;
  }
#endif
  aot_hybrid_quantize_qd8(v, n, q, scale, zp);
  aot_hybs_fill(c, q, n, *zp);
}

/* GEMM of rows input rows of k floats, each quantized on its own
 * (aot_hybrid_quantize_qd8 into q, k bytes), with the weights: out rows of
 * n_out */
AOT_INLINE void aot_hybs_gemm(const aot_hybs_ctx *x, const float *in, size_t rows, int8_t *q,
                              aot_hybs_col *ca, aot_hybs_col *cb, float *out) {
  const int32_t k = x->k, n = x->n_out;
  size_t i;
  for (i = 0; i < rows; i += 2) {
    float sa, sb = 0.0f;
    int32_t za, zb = 0;
    const int two = i + 1 < rows;
    aot_hybs_quant(in + i * (size_t)k, k, q, ca, &sa, &za);
    if (two) aot_hybs_quant(in + (i + 1) * (size_t)k, k, q, cb, &sb, &zb);
    aot_hybs_run(x, ca, za, sa, out + i * (size_t)n, cb, zb, sb,
                 two ? out + (i + 1) * (size_t)n : NULL);
  }
}
#endif

#endif
