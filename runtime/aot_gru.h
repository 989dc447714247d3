/* aot_gru.h - internals of the GRU kernels (RecurrentFunctions/aot_gru_*.c):
 * the gate nonlinearities and the matrix products over the packed weight
 * layout documented in aot_recurrent.h (blocks of AOT_GRU_BLOCK = 8 rows,
 * each column of a block stored as 8 consecutive values).
 *
 * Three implementations of the products, chosen by the compiler target:
 *  - AOT_GRU_MVE (Arm Helium with floating point, Cortex-M55): outer-product
 *    form, one weight column of a block is one or two vectors multiplied by a
 *    broadcast scalar (VFMA, fused); the gate nonlinearities and the state
 *    update also run four lanes at a time;
 *  - AOT_GRU_VFP (M-profile single-precision FPU, e.g. Cortex-M4F): inline
 *    assembly with the accumulators in s0-s15, VLDM loads of whole weight
 *    columns, VMLA (product rounded, then added: exactly the portable C
 *    expression acc += x * w) and VCVTB/VCVTT for binary16 weights (exact);
 *  - portable C performing the same operations in the same order as the VFP
 *    code, so a Cortex-M4F build computes the same bits as the host.
 * AOT_NO_SIMD forces the portable code. */
#ifndef AOT_GRU_H
#define AOT_GRU_H

#include <math.h>

#include "aot_recurrent.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2) && !defined(AOT_NO_SIMD)
#include <arm_mve.h>
#include <string.h>
#define AOT_GRU_MVE 1
#elif defined(__GNUC__) && defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M' && \
    defined(__ARM_FP) && (__ARM_FP & 4) && !defined(AOT_NO_SIMD)
#define AOT_GRU_VFP 1
#endif

/* ---- nonlinearities --------------------------------------------------------
 * e^a = 2^n * (1 + q): n = round(a / ln 2) (adding 1.5 * 2^23 rounds to an
 * integer), r = a - n ln 2 with ln 2 split in a 16-bit head (n * head is exact
 * for |n| < 256) and a tail, |r| <= ln 2 / 2 (+ rounding), and
 * q = e^r - 1 = r + r^2/2! + ... + r^7/7! (truncation error < r^8/8! < 6e-9
 * relative to e^r). a must lie in [-86, 86] (2^n stays a normal float); the
 * callers use a <= 0 (no overflow, no branches beyond two selects).
 * Only float additions, multiplications and integer bit operations: the same
 * bits on every IEEE target without contraction. Measured against double
 * precision (tests/unit/test_kernels_recurrent_gru.c) the sigmoid is within
 * 1.5e-7 relative (down to -86, where the argument is clamped) and the tanh
 * within 1.5e-7 absolute / 2.2e-7 relative; the newlib expf/tanhf calls they
 * replace cost 70-110 instructions each on a Cortex-M4F. */
AOT_INLINE float aot_gru_exp_parts(float a, float *scale) {
  const float shifter = 12582912.0f; /* 1.5 * 2^23 */
  aot_f32_bits t, s;
  float n, r;
  t.f = a * 1.44269504f + shifter;
  n = t.f - shifter;
  r = (a - n * 0.693145751953125f) - n * 1.42860677e-6f;
  /* the low mantissa bits of t hold n (two's complement) */
  s.u = (t.u - 0x4B400000u + 127u) << 23;
  *scale = s.f;
  return r * (1.0f + r * (0.5f + r * (1.66666672e-1f + r * (4.16666679e-2f +
              r * (8.33333377e-3f + r * (1.38888892e-3f + r * 1.98412701e-4f))))));
}

/* 1 / (1 + e^-v) from e = e^-|v| (in (0, 1]; |v| clamped to 86):
 * 1 / (1 + e) for v >= 0, e / (1 + e) for v < 0 */
AOT_INLINE float aot_gru_sigmoid(float v) {
  float a = fabsf(v), s, q, e;
  if (a > 86.0f) a = 86.0f;
  q = aot_gru_exp_parts(-a, &s);
  e = s + s * q;
  return (v < 0.0f ? e : 1.0f) / (1.0f + e);
}

/* tanh v = sign(v) * -em / (em + 2) with em = e^-2|v| - 1 = 2^n q + (2^n - 1)
 * (in (-1, 0]; accurate near 0; |v| clamped to 43) */
AOT_INLINE float aot_gru_tanh(float v) {
  float a = fabsf(v), s, q, em, t;
  if (a > 43.0f) a = 43.0f;
  q = aot_gru_exp_parts(-(a + a), &s);
  em = s * q + (s - 1.0f);
  t = em / (em + 2.0f);
  return v < 0.0f ? t : -t;
}

AOT_INLINE float aot_gru_cand(int32_t act, float v) {
  return act == AOT_GRU_LINEAR ? v : aot_gru_tanh(v);
}

#if defined(AOT_GRU_MVE)
/* Four lanes at a time with Helium: the same formulas with fused
 * multiply-adds; the divisions by d in [1, 2] (1 + e^-|v| and e^-2|v| + 1)
 * become a linear first guess 24/17 - 8/17 d (error <= 1/17) and three
 * Newton steps. NaN inputs give finite results (VMINNM). */
AOT_INLINE float32x4_t aot_gru_vexp_parts(float32x4_t a, float32x4_t *scale) {
  /* e^-a = scale * (1 + q) for a in [0, 86] */
  const float32x4_t shifter = vdupq_n_f32(12582912.0f);
  const float32x4_t t = vfmaq_n_f32(shifter, a, -1.44269504f);
  const float32x4_t n = vsubq_f32(t, shifter);
  float32x4_t r = vfmaq_n_f32(vnegq_f32(a), n, -0.693145751953125f), q;
  r = vfmaq_n_f32(r, n, -1.42860677e-6f);
  q = vfmasq_n_f32(vdupq_n_f32(1.98412701e-4f), r, 1.38888892e-3f); /* q r + c */
  q = vfmasq_n_f32(q, r, 8.33333377e-3f);
  q = vfmasq_n_f32(q, r, 4.16666679e-2f);
  q = vfmasq_n_f32(q, r, 1.66666672e-1f);
  q = vfmasq_n_f32(q, r, 0.5f);
  q = vfmasq_n_f32(q, r, 1.0f);
  *scale = vreinterpretq_f32_u32(
      vshlq_n_u32(vaddq_n_u32(vreinterpretq_u32_f32(t), 127u - 0x4B400000u), 23));
  return vmulq_f32(q, r);
}

AOT_INLINE float32x4_t aot_gru_vrecip12(float32x4_t d) {
  const float32x4_t one = vdupq_n_f32(1.0f);
  float32x4_t x = vfmaq_n_f32(vdupq_n_f32(24.0f / 17.0f), d, -8.0f / 17.0f);
  x = vfmaq_f32(x, x, vfmsq_f32(one, d, x));
  x = vfmaq_f32(x, x, vfmsq_f32(one, d, x));
  return vfmaq_f32(x, x, vfmsq_f32(one, d, x));
}

AOT_INLINE float32x4_t aot_gru_vsigmoid(float32x4_t v) {
  const float32x4_t a = vminnmq_f32(vabsq_f32(v), vdupq_n_f32(86.0f));
  float32x4_t s, q = aot_gru_vexp_parts(a, &s);
  const float32x4_t e = vfmaq_f32(s, s, q);
  const float32x4_t num = vpselq_f32(e, vdupq_n_f32(1.0f), vcmpltq_n_f32(v, 0.0f));
  return vmulq_f32(num, aot_gru_vrecip12(vaddq_n_f32(e, 1.0f)));
}

AOT_INLINE float32x4_t aot_gru_vtanh(float32x4_t v) {
  const float32x4_t a = vminnmq_f32(vabsq_f32(v), vdupq_n_f32(43.0f));
  float32x4_t s, q = aot_gru_vexp_parts(vaddq_f32(a, a), &s);
  const float32x4_t em = vfmaq_f32(vsubq_n_f32(s, 1.0f), s, q);
  const float32x4_t t = vmulq_f32(em, aot_gru_vrecip12(vaddq_n_f32(em, 2.0f)));
  return vpselq_f32(t, vnegq_f32(t), vcmpltq_n_f32(v, 0.0f));
}
#endif

/* g[i] = gate(a[i] + g[i]) for i < n (the z and r gates are adjacent; n is a
 * multiple of 8) */
AOT_INLINE void aot_gru_gates(int32_t act, const float *a, float *g, int32_t n) {
  int32_t i;
#if defined(AOT_GRU_MVE)
  if (act == AOT_GRU_HARD_SIGMOID) {
    for (i = 0; i < n; i += 4) {
      const float32x4_t x = vaddq_f32(vld1q_f32(a + i), vld1q_f32(g + i));
      const float32x4_t y = vfmaq_n_f32(vdupq_n_f32(0.5f), x, 0.2f);
      vst1q_f32(g + i, vminnmq_f32(vmaxnmq_f32(y, vdupq_n_f32(0.0f)), vdupq_n_f32(1.0f)));
    }
  } else {
    for (i = 0; i < n; i += 4)
      vst1q_f32(g + i, aot_gru_vsigmoid(vaddq_f32(vld1q_f32(a + i), vld1q_f32(g + i))));
  }
#else
  if (act == AOT_GRU_HARD_SIGMOID) {
    for (i = 0; i < n; i++) g[i] = aot_clamp_f32(0.2f * (a[i] + g[i]) + 0.5f, 0.0f, 1.0f);
  } else {
    for (i = 0; i < n; i++) g[i] = aot_gru_sigmoid(a[i] + g[i]);
  }
#endif
}

/* h[j] = z[j] h[j] + (1 - z[j]) cand(a[j] + r[j] b[j]) (r NULL: a[j] + b[j])
 * for j < nu; with Helium for j < up (lanes past nu hold zeros) */
AOT_INLINE void aot_gru_update(int32_t cand_act, const float *z, const float *r, const float *a,
                               const float *b, float *h, int32_t nu, int32_t up) {
  int32_t j;
#if defined(AOT_GRU_MVE)
  (void)nu;
  for (j = 0; j < up; j += 4) {
    const float32x4_t bv = vld1q_f32(b + j), av = vld1q_f32(a + j);
    const float32x4_t pre = r ? vfmaq_f32(av, vld1q_f32(r + j), bv) : vaddq_f32(av, bv);
    const float32x4_t c = cand_act == AOT_GRU_LINEAR ? pre : aot_gru_vtanh(pre);
    const float32x4_t hv = vld1q_f32(h + j);
    vst1q_f32(h + j, vfmaq_f32(c, vld1q_f32(z + j), vsubq_f32(hv, c)));
  }
#else
  (void)up;
  for (j = 0; j < nu; j++) {
    const float c = aot_gru_cand(cand_act, r ? a[j] + r[j] * b[j] : a[j] + b[j]);
    h[j] = z[j] * h[j] + (1.0f - z[j]) * c;
  }
#endif
}

/* ---- binary16 scalars (exact decode, round-to-nearest-even encode) -------- */
#if defined(AOT_GRU_VFP)
AOT_INLINE float aot_gru_h2f(uint16_t h) {
  float f;
  __asm__("vmov %0, %1\n\tvcvtb.f32.f16 %0, %0" : "=t"(f) : "r"((uint32_t)h));
  return f;
}
AOT_INLINE uint16_t aot_gru_f2h(float f) {
  float t;
  uint32_t r;
  __asm__("vcvtb.f16.f32 %1, %2\n\tvmov %0, %1" : "=r"(r), "=&t"(t) : "t"(f));
  return (uint16_t)(r & 0xFFFFu);
}
/* f rounded to the nearest binary16 value */
AOT_INLINE float aot_gru_r16(float f) {
  float t;
  __asm__("vcvtb.f16.f32 %0, %1\n\tvcvtb.f32.f16 %0, %0" : "=&t"(t) : "t"(f));
  return t;
}
#elif defined(AOT_GRU_MVE)
AOT_INLINE float aot_gru_h2f(uint16_t h) {
  float16_t v;
  memcpy(&v, &h, sizeof v);
  return (float)v;
}
AOT_INLINE uint16_t aot_gru_f2h(float f) {
  const float16_t v = (float16_t)f;
  uint16_t h;
  memcpy(&h, &v, sizeof h);
  return h;
}
AOT_INLINE float aot_gru_r16(float f) { return (float)(float16_t)f; }
#else
AOT_INLINE float aot_gru_h2f(uint16_t h) { return aot_f16_to_f32(h); }
AOT_INLINE uint16_t aot_gru_f2h(float f) { return aot_f32_to_f16(f); }
AOT_INLINE float aot_gru_r16(float f) { return aot_f16_to_f32(aot_f32_to_f16(f)); }
#endif

/* Decodes n packed binary16 values (aot_gru_pack16_index order, n a multiple
 * of 8; a NULL source gives zeros) into float32 in row order. */
AOT_INLINE void aot_gru_unpack16(const uint16_t *src, int32_t n, float *dst) {
  int32_t i;
  for (i = 0; i < n; i++) dst[i] = src ? aot_gru_h2f(src[aot_gru_pack16_index(i, 0, 1)]) : 0.0f;
}

/* ---- one block of 8 rows ----------------------------------------------------
 * b1: out[i] = init[i] + sum_k w(i, k) v[k]                 (i < 8, k < n)
 * b2: the same for two vectors v0 -> out0 and v1 -> out1.
 * _f32: float32 block columns w + 8k; _f16: binary16 block columns, four
 * words per column, word j = rows j (low half) and j + 4 (high half).
 * Accumulation order: init, then k = 0, 1, ..., n - 1. n >= 1. */
#if defined(AOT_GRU_VFP)

/* acc s[A..A+7] += x * s[W..W+7], written out */
#define AOT_GRU_MLA8(x, A0, A1, A2, A3, A4, A5, A6, A7, W0, W1, W2, W3, W4, W5, W6, W7) \
  "vmla.f32 s" #A0 ", " x ", s" #W0 "\n\t"                                             \
  "vmla.f32 s" #A1 ", " x ", s" #W1 "\n\t"                                             \
  "vmla.f32 s" #A2 ", " x ", s" #W2 "\n\t"                                             \
  "vmla.f32 s" #A3 ", " x ", s" #W3 "\n\t"                                             \
  "vmla.f32 s" #A4 ", " x ", s" #W4 "\n\t"                                             \
  "vmla.f32 s" #A5 ", " x ", s" #W5 "\n\t"                                             \
  "vmla.f32 s" #A6 ", " x ", s" #W6 "\n\t"                                             \
  "vmla.f32 s" #A7 ", " x ", s" #W7 "\n\t"
/* decode four words s[R..R+3] into rows 0-7 at s[D..D+7] */
#define AOT_GRU_CVT8(R0, R1, R2, R3, D0, D1, D2, D3, D4, D5, D6, D7) \
  "vcvtb.f32.f16 s" #D0 ", s" #R0 "\n\t"                           \
  "vcvtt.f32.f16 s" #D4 ", s" #R0 "\n\t"                           \
  "vcvtb.f32.f16 s" #D1 ", s" #R1 "\n\t"                           \
  "vcvtt.f32.f16 s" #D5 ", s" #R1 "\n\t"                           \
  "vcvtb.f32.f16 s" #D2 ", s" #R2 "\n\t"                           \
  "vcvtt.f32.f16 s" #D6 ", s" #R2 "\n\t"                           \
  "vcvtb.f32.f16 s" #D3 ", s" #R3 "\n\t"                           \
  "vcvtt.f32.f16 s" #D7 ", s" #R3 "\n\t"

#define AOT_GRU_CLOBBER_S                                                                  \
  "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13",  \
      "s14", "s15", "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", \
      "s26", "s27", "s28", "s29", "s30", "s31", "cc", "memory"

AOT_INLINE void aot_gru_b1_f32(const float *w, const float *v, int32_t n, const float *init,
                               float *out) {
  uint32_t m;
  __asm__ volatile(
      "vldmia %[b], {s0-s7}\n\t"
      "lsrs %[m], %[n], #1\n\t"
      "bcc 1f\n\t"
      "vldmia %[v]!, {s8}\n\t"
      "vldmia %[w]!, {s16-s23}\n\t"
      AOT_GRU_MLA8("s8", 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23)
      "1:\n\t"
      "beq 3f\n"
      "2:\n\t"
      "vldmia %[v]!, {s8-s9}\n\t"
      "vldmia %[w]!, {s16-s31}\n\t"
      AOT_GRU_MLA8("s8", 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23)
      AOT_GRU_MLA8("s9", 0, 1, 2, 3, 4, 5, 6, 7, 24, 25, 26, 27, 28, 29, 30, 31)
      "subs %[m], %[m], #1\n\t"
      "bne 2b\n"
      "3:\n\t"
      "vstmia %[o], {s0-s7}\n\t"
      : [w] "+r"(w), [v] "+r"(v), [m] "=&r"(m)
      : [n] "r"(n), [b] "r"(init), [o] "r"(out)
      : AOT_GRU_CLOBBER_S);
}

/* two columns per iteration (an odd first column alone) */
AOT_INLINE void aot_gru_b2_f32(const float *w, const float *v0, const float *v1, int32_t n,
                               const float *init, float *out0, float *out1) {
  uint32_t m;
  __asm__ volatile(
      "vldmia %[b], {s0-s7}\n\t"
      "vldmia %[b], {s8-s15}\n\t"
      "lsrs %[m], %[n], #1\n\t"
      "bcc 1f\n\t"
      "vldmia %[v0]!, {s16}\n\t"
      "vldmia %[v1]!, {s18}\n\t"
      "vldmia %[w]!, {s24-s31}\n\t"
      AOT_GRU_MLA8("s16", 0, 1, 2, 3, 4, 5, 6, 7, 24, 25, 26, 27, 28, 29, 30, 31)
      AOT_GRU_MLA8("s18", 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31)
      "1:\n\t"
      "beq 3f\n"
      "2:\n\t"
      "vldmia %[v0]!, {s16-s17}\n\t"
      "vldmia %[v1]!, {s18-s19}\n\t"
      "vldmia %[w]!, {s24-s31}\n\t"
      AOT_GRU_MLA8("s16", 0, 1, 2, 3, 4, 5, 6, 7, 24, 25, 26, 27, 28, 29, 30, 31)
      AOT_GRU_MLA8("s18", 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31)
      "vldmia %[w]!, {s24-s31}\n\t"
      AOT_GRU_MLA8("s17", 0, 1, 2, 3, 4, 5, 6, 7, 24, 25, 26, 27, 28, 29, 30, 31)
      AOT_GRU_MLA8("s19", 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31)
      "subs %[m], %[m], #1\n\t"
      "bne 2b\n"
      "3:\n\t"
      "vstmia %[o0], {s0-s7}\n\t"
      "vstmia %[o1], {s8-s15}\n\t"
      : [w] "+r"(w), [v0] "+r"(v0), [v1] "+r"(v1), [m] "=&r"(m)
      : [n] "r"(n), [b] "r"(init), [o0] "r"(out0), [o1] "r"(out1)
      : AOT_GRU_CLOBBER_S);
}

AOT_INLINE void aot_gru_b1_f16(const uint32_t *w, const float *v, int32_t n, const float *init,
                               float *out) {
  uint32_t m;
  __asm__ volatile(
      "vldmia %[b], {s0-s7}\n\t"
      "lsrs %[m], %[n], #1\n\t"
      "bcc 1f\n\t"
      "vldmia %[v]!, {s8}\n\t"
      "vldmia %[w]!, {s12-s15}\n\t"
      AOT_GRU_CVT8(12, 13, 14, 15, 20, 21, 22, 23, 24, 25, 26, 27)
      AOT_GRU_MLA8("s8", 0, 1, 2, 3, 4, 5, 6, 7, 20, 21, 22, 23, 24, 25, 26, 27)
      "1:\n\t"
      "beq 3f\n"
      "2:\n\t"
      "vldmia %[v]!, {s8-s9}\n\t"
      "vldmia %[w]!, {s12-s19}\n\t"
      AOT_GRU_CVT8(12, 13, 14, 15, 20, 21, 22, 23, 24, 25, 26, 27)
      AOT_GRU_MLA8("s8", 0, 1, 2, 3, 4, 5, 6, 7, 20, 21, 22, 23, 24, 25, 26, 27)
      AOT_GRU_CVT8(16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27)
      AOT_GRU_MLA8("s9", 0, 1, 2, 3, 4, 5, 6, 7, 20, 21, 22, 23, 24, 25, 26, 27)
      "subs %[m], %[m], #1\n\t"
      "bne 2b\n"
      "3:\n\t"
      "vstmia %[o], {s0-s7}\n\t"
      : [w] "+r"(w), [v] "+r"(v), [m] "=&r"(m)
      : [n] "r"(n), [b] "r"(init), [o] "r"(out)
      : AOT_GRU_CLOBBER_S);
}

AOT_INLINE void aot_gru_b2_f16(const uint32_t *w, const float *v0, const float *v1, int32_t n,
                               const float *init, float *out0, float *out1) {
  uint32_t m;
  __asm__ volatile(
      "vldmia %[b], {s0-s7}\n\t"
      "vldmia %[b], {s8-s15}\n\t"
      "lsrs %[m], %[n], #1\n\t"
      "bcc 1f\n\t"
      "vldmia %[v0]!, {s16}\n\t"
      "vldmia %[v1]!, {s18}\n\t"
      "vldmia %[w]!, {s20-s23}\n\t"
      AOT_GRU_CVT8(20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31)
      AOT_GRU_MLA8("s16", 0, 1, 2, 3, 4, 5, 6, 7, 24, 25, 26, 27, 28, 29, 30, 31)
      AOT_GRU_MLA8("s18", 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31)
      "1:\n\t"
      "beq 3f\n"
      "2:\n\t"
      "vldmia %[v0]!, {s16-s17}\n\t"
      "vldmia %[v1]!, {s18-s19}\n\t"
      "vldmia %[w]!, {s20-s23}\n\t"
      AOT_GRU_CVT8(20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31)
      AOT_GRU_MLA8("s16", 0, 1, 2, 3, 4, 5, 6, 7, 24, 25, 26, 27, 28, 29, 30, 31)
      AOT_GRU_MLA8("s18", 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31)
      "vldmia %[w]!, {s20-s23}\n\t"
      AOT_GRU_CVT8(20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31)
      AOT_GRU_MLA8("s17", 0, 1, 2, 3, 4, 5, 6, 7, 24, 25, 26, 27, 28, 29, 30, 31)
      AOT_GRU_MLA8("s19", 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31)
      "subs %[m], %[m], #1\n\t"
      "bne 2b\n"
      "3:\n\t"
      "vstmia %[o0], {s0-s7}\n\t"
      "vstmia %[o1], {s8-s15}\n\t"
      : [w] "+r"(w), [v0] "+r"(v0), [v1] "+r"(v1), [m] "=&r"(m)
      : [n] "r"(n), [b] "r"(init), [o0] "r"(out0), [o1] "r"(out1)
      : AOT_GRU_CLOBBER_S);
}

#elif !defined(AOT_GRU_MVE)

AOT_INLINE void aot_gru_b1_f32(const float *w, const float *v, int32_t n, const float *init,
                               float *out) {
  float a[8];
  int32_t i, k;
  for (i = 0; i < 8; i++) a[i] = init[i];
  for (k = 0; k < n; k++, w += 8)
    for (i = 0; i < 8; i++) a[i] += v[k] * w[i];
  for (i = 0; i < 8; i++) out[i] = a[i];
}

AOT_INLINE void aot_gru_b2_f32(const float *w, const float *v0, const float *v1, int32_t n,
                               const float *init, float *out0, float *out1) {
  float a[8], b[8];
  int32_t i, k;
  for (i = 0; i < 8; i++) a[i] = b[i] = init[i];
  for (k = 0; k < n; k++, w += 8)
    for (i = 0; i < 8; i++) {
      a[i] += v0[k] * w[i];
      b[i] += v1[k] * w[i];
    }
  for (i = 0; i < 8; i++) out0[i] = a[i], out1[i] = b[i];
}

/* the 8 float weights of one binary16 block column (words w[0..3]) */
AOT_INLINE void aot_gru_col16(const uint32_t *w, float *c) {
  int32_t j;
  for (j = 0; j < 4; j++) {
    c[j] = aot_gru_h2f((uint16_t)(w[j] & 0xFFFFu));
    c[j + 4] = aot_gru_h2f((uint16_t)(w[j] >> 16));
  }
}

AOT_INLINE void aot_gru_b1_f16(const uint32_t *w, const float *v, int32_t n, const float *init,
                               float *out) {
  float a[8], c[8];
  int32_t i, k;
  for (i = 0; i < 8; i++) a[i] = init[i];
  for (k = 0; k < n; k++, w += 4) {
    aot_gru_col16(w, c);
    for (i = 0; i < 8; i++) a[i] += v[k] * c[i];
  }
  for (i = 0; i < 8; i++) out[i] = a[i];
}

AOT_INLINE void aot_gru_b2_f16(const uint32_t *w, const float *v0, const float *v1, int32_t n,
                               const float *init, float *out0, float *out1) {
  float a[8], b[8], c[8];
  int32_t i, k;
  for (i = 0; i < 8; i++) a[i] = b[i] = init[i];
  for (k = 0; k < n; k++, w += 4) {
    aot_gru_col16(w, c);
    for (i = 0; i < 8; i++) {
      a[i] += v0[k] * c[i];
      b[i] += v1[k] * c[i];
    }
  }
  for (i = 0; i < 8; i++) out0[i] = a[i], out1[i] = b[i];
}

#endif /* VFP / portable blocks */

#if defined(AOT_GRU_MVE)
/* Helium: the same blocks with fused multiply-adds (VFMA Qda, Qn, Rm), in
 * assembly for the post-incremented loads and the low-overhead loop. */
#define AOT_GRU_CLOBBER_Q \
  "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "lr", "cc", "memory"

AOT_INLINE void aot_gru_b1_f32(const float *w, const float *v, int32_t n, const float *init,
                               float *out) {
  __asm__ volatile(
      "vldrw.32 q0, [%[b]]\n\t"
      "vldrw.32 q1, [%[b], #16]\n\t"
      "dls lr, %[n]\n"
      "1:\n\t"
      "vldrw.32 q4, [%[w]], #16\n\t"
      "vldrw.32 q5, [%[w]], #16\n\t"
      "ldr %[n], [%[v]], #4\n\t"
      "vfma.f32 q0, q4, %[n]\n\t"
      "vfma.f32 q1, q5, %[n]\n\t"
      "le lr, 1b\n\t"
      "vstrw.32 q0, [%[o]]\n\t"
      "vstrw.32 q1, [%[o], #16]\n\t"
      : [w] "+r"(w), [v] "+r"(v), [n] "+r"(n)
      : [b] "r"(init), [o] "r"(out)
      : AOT_GRU_CLOBBER_Q);
}

/* two blocks (wa: rows 0-7, wb: rows 8-15) sharing the vector loads */
AOT_INLINE void aot_gru_b1x2_f32(const float *wa, const float *wb, const float *v, int32_t n,
                                 const float *init, float *out) {
  __asm__ volatile(
      "vldrw.32 q0, [%[b]]\n\t"
      "vldrw.32 q1, [%[b], #16]\n\t"
      "vldrw.32 q2, [%[b], #32]\n\t"
      "vldrw.32 q3, [%[b], #48]\n\t"
      "dls lr, %[n]\n"
      "1:\n\t"
      "vldrw.32 q4, [%[wa]], #16\n\t"
      "vldrw.32 q5, [%[wa]], #16\n\t"
      "vldrw.32 q6, [%[wb]], #16\n\t"
      "vldrw.32 q7, [%[wb]], #16\n\t"
      "ldr %[n], [%[v]], #4\n\t"
      "vfma.f32 q0, q4, %[n]\n\t"
      "vfma.f32 q1, q5, %[n]\n\t"
      "vfma.f32 q2, q6, %[n]\n\t"
      "vfma.f32 q3, q7, %[n]\n\t"
      "le lr, 1b\n\t"
      "vstrw.32 q0, [%[o]]\n\t"
      "vstrw.32 q1, [%[o], #16]\n\t"
      "vstrw.32 q2, [%[o], #32]\n\t"
      "vstrw.32 q3, [%[o], #48]\n\t"
      : [wa] "+r"(wa), [wb] "+r"(wb), [v] "+r"(v), [n] "+r"(n)
      : [b] "r"(init), [o] "r"(out)
      : AOT_GRU_CLOBBER_Q);
}

AOT_INLINE void aot_gru_b2_f32(const float *w, const float *v0, const float *v1, int32_t n,
                               const float *init, float *out0, float *out1) {
  uint32_t x0, x1;
  __asm__ volatile(
      "vldrw.32 q0, [%[b]]\n\t"
      "vldrw.32 q1, [%[b], #16]\n\t"
      "vmov q2, q0\n\t"
      "vmov q3, q1\n\t"
      "dls lr, %[n]\n"
      "1:\n\t"
      "vldrw.32 q4, [%[w]], #16\n\t"
      "vldrw.32 q5, [%[w]], #16\n\t"
      "ldr %[x0], [%[v0]], #4\n\t"
      "ldr %[x1], [%[v1]], #4\n\t"
      "vfma.f32 q0, q4, %[x0]\n\t"
      "vfma.f32 q1, q5, %[x0]\n\t"
      "vfma.f32 q2, q4, %[x1]\n\t"
      "vfma.f32 q3, q5, %[x1]\n\t"
      "le lr, 1b\n\t"
      "vstrw.32 q0, [%[o0]]\n\t"
      "vstrw.32 q1, [%[o0], #16]\n\t"
      "vstrw.32 q2, [%[o1]]\n\t"
      "vstrw.32 q3, [%[o1], #16]\n\t"
      : [w] "+r"(w), [v0] "+r"(v0), [v1] "+r"(v1), [x0] "=&r"(x0), [x1] "=&r"(x1)
      : [n] "r"(n), [b] "r"(init), [o0] "r"(out0), [o1] "r"(out1)
      : AOT_GRU_CLOBBER_Q);
}

/* binary16 column: lanes in stored order (word i = lanes 2i, 2i + 1 = rows i,
 * i + 4) */
AOT_INLINE float16x8_t aot_gru_ld16(const uint32_t *w) {
  return vreinterpretq_f16_u32(vld1q_u32(w));
}

/* Binary16 weights with float32 activations: the columns are widened by the
 * scalar VCVTB/VCVTT into s0-s7 (= q0, q1), then multiplied with vector
 * VFMA. The vector forms VCVTB/VCVTT.F32.F16 Qd, Qm are avoided: the GNU
 * assembler 2.40 (Debian 12's arm-none-eabi toolchain) encodes their
 * register fields wrongly (QEMU and Arm cores raise UNDEFINSTR). */
#define AOT_GRU_CVT_Q01                  \
  "vcvtb.f32.f16 s0, s8\n\t"             \
  "vcvtb.f32.f16 s1, s9\n\t"             \
  "vcvtb.f32.f16 s2, s10\n\t"            \
  "vcvtb.f32.f16 s3, s11\n\t"            \
  "vcvtt.f32.f16 s4, s8\n\t"             \
  "vcvtt.f32.f16 s5, s9\n\t"             \
  "vcvtt.f32.f16 s6, s10\n\t"            \
  "vcvtt.f32.f16 s7, s11\n\t"

AOT_INLINE void aot_gru_b1_f16(const uint32_t *w, const float *v, int32_t n, const float *init,
                               float *out) {
  __asm__ volatile(
      "vldrw.32 q6, [%[b]]\n\t"
      "vldrw.32 q7, [%[b], #16]\n\t"
      "dls lr, %[n]\n"
      "1:\n\t"
      "vldmia %[w]!, {s8-s11}\n\t"
      "ldr %[n], [%[v]], #4\n\t"
      AOT_GRU_CVT_Q01
      "vfma.f32 q6, q0, %[n]\n\t"
      "vfma.f32 q7, q1, %[n]\n\t"
      "le lr, 1b\n\t"
      "vstrw.32 q6, [%[o]]\n\t"
      "vstrw.32 q7, [%[o], #16]\n\t"
      : [w] "+r"(w), [v] "+r"(v), [n] "+r"(n)
      : [b] "r"(init), [o] "r"(out)
      : AOT_GRU_CLOBBER_Q);
}

AOT_INLINE void aot_gru_b2_f16(const uint32_t *w, const float *v0, const float *v1, int32_t n,
                               const float *init, float *out0, float *out1) {
  uint32_t x0, x1;
  __asm__ volatile(
      "vldrw.32 q4, [%[b]]\n\t"
      "vldrw.32 q5, [%[b], #16]\n\t"
      "vmov q6, q4\n\t"
      "vmov q7, q5\n\t"
      "dls lr, %[n]\n"
      "1:\n\t"
      "vldmia %[w]!, {s8-s11}\n\t"
      "ldr %[x0], [%[v0]], #4\n\t"
      "ldr %[x1], [%[v1]], #4\n\t"
      AOT_GRU_CVT_Q01
      "vfma.f32 q4, q0, %[x0]\n\t"
      "vfma.f32 q5, q1, %[x0]\n\t"
      "vfma.f32 q6, q0, %[x1]\n\t"
      "vfma.f32 q7, q1, %[x1]\n\t"
      "le lr, 1b\n\t"
      "vstrw.32 q4, [%[o0]]\n\t"
      "vstrw.32 q5, [%[o0], #16]\n\t"
      "vstrw.32 q6, [%[o1]]\n\t"
      "vstrw.32 q7, [%[o1], #16]\n\t"
      : [w] "+r"(w), [v0] "+r"(v0), [v1] "+r"(v1), [x0] "=&r"(x0), [x1] "=&r"(x1)
      : [n] "r"(n), [b] "r"(init), [o0] "r"(out0), [o1] "r"(out1)
      : AOT_GRU_CLOBBER_Q);
}

/* 8 binary16 values (4 words, aot_gru_ld16 order) -> 8 floats in row order */
AOT_INLINE void aot_gru_unpack8(const void *src, float *dst) {
  __asm__ volatile(
      "vldmia %[s], {s8-s11}\n\t"
      AOT_GRU_CVT_Q01
      "vstmia %[d], {s0-s7}\n\t"
      :
      : [s] "r"(src), [d] "r"(dst)
      : "q0", "q1", "q2", "memory");
}
#endif

static const float aot_gru_zeros8[8] = {0, 0, 0, 0, 0, 0, 0, 0};

/* out[r] = init[r] + sum_k M(r, k) v[k] for rows r < rows (a multiple of 8)
 * of a packed float32 matrix with n columns; init NULL = zeros. */
AOT_INLINE void aot_gru_mv_f32(const float *m, int32_t rows, int32_t n, const float *v,
                               const float *init, float *out) {
  int32_t r = 0;
#if defined(AOT_GRU_MVE)
  static const float zeros16[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  for (; r + 16 <= rows; r += 16, m += 16 * (size_t)n)
    aot_gru_b1x2_f32(m, m + 8 * (size_t)n, v, n, init ? init + r : zeros16, out + r);
#endif
  for (; r < rows; r += 8, m += 8 * (size_t)n)
    aot_gru_b1_f32(m, v, n, init ? init + r : aot_gru_zeros8, out + r);
}

AOT_INLINE void aot_gru_mv_f16(const uint32_t *m, int32_t rows, int32_t n, const float *v,
                               const float *init, float *out) {
  int32_t r;
  for (r = 0; r < rows; r += 8, m += 4 * (size_t)n)
    aot_gru_b1_f16(m, v, n, init ? init + r : aot_gru_zeros8, out + r);
}

#endif
