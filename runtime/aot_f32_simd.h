/* aot_f32_simd.h - target variants of the float32 CONV_2D, DEPTHWISE_CONV_2D
 * and FULLY_CONNECTED kernels, and the window description they share.
 *
 * aot_f32_win describes the taps of one output position that lie inside the
 * image: `rows` filter rows, each `nseg` runs of `seg` values that are
 * contiguous in the input and in the filter (a filter row of the window is
 * one contiguous block of nseg * seg filter values); FULLY_CONNECTED is one
 * row of one run of in_depth values.
 *
 * Variants (AOT_NO_SIMD forces the portable loops of the kernel files):
 *  - AOT_F32_MVE (Helium with floating point, MVE-F: Cortex-M55): output
 *    channels in the four lanes. aot_f32_mve_oc runs blocks of eight output
 *    channels (two vectors), then of four: per tap one input value (a core
 *    register, VFMA by scalar) and per vector one gather load of the filter
 *    value of its four channels (VLDRW with a vector of addresses that
 *    steps by one float per tap, written back). Each channel sums its taps
 *    in the portable order; only the rounding differs (fused multiply-add).
 *  - AOT_F32_BLK (the other Arm cores with a single-precision FPU, e.g.
 *    Cortex-M4F; the kernel files also compile it on the host when
 *    AOT_F32_FORCE_BLK is defined, for tests): register-blocked loops in
 *    plain C in the kernel files: two output positions whose windows have
 *    the same filter columns share every filter load (CONV_2D: 4 channels x
 *    2 positions, DEPTHWISE_CONV_2D: 4 channels x 2 positions), so the
 *    interior needs no per-tap bounds checks and fewer loads per MAC.
 * The variant a kernel file builds is named by <FILE>_MVE / <FILE>_DSP
 * macros (read by aotc verify --profile). */
#ifndef AOT_F32_SIMD_H
#define AOT_F32_SIMD_H

#include "aot_common.h"

typedef struct aot_f32_win {
  const float *in;    /* input at the first tap inside the image */
  int32_t rows;       /* filter rows inside the image (0: bias only) */
  int32_t nseg, seg;  /* runs per filter row, values per run */
  int32_t seg_step;   /* input elements from one run to the next */
  int32_t frow;       /* filter elements from one filter row to the next */
  size_t row_step;    /* input elements from one filter row to the next */
} aot_f32_win;

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2) && !defined(AOT_NO_SIMD)
#include <arm_mve.h>
#define AOT_F32_MVE 1
#elif ((defined(__ARM_FP) && (__ARM_FP & 4) && defined(__arm__)) || \
       defined(AOT_F32_FORCE_BLK)) && !defined(AOT_NO_SIMD)
#define AOT_F32_BLK 1
#endif

/* acc += x * w rounded twice, as the portable loops compute it; with
 * AOT_F32_BLK on Arm one VMLA.F32 (not fused), which GCC does not emit for
 * ISO C (it splits it into VMUL + VADD: two instructions per MAC). */
#if defined(AOT_F32_BLK) && defined(__arm__) && defined(__GNUC__)
#define AOT_F32_MLA(acc, x, w) __asm__("vmla.f32 %0, %1, %2" : "+t"(acc) : "t"(x), "t"(w))
#else
#define AOT_F32_MLA(acc, x, w) ((acc) += (x) * (w))
#endif

/* four sums of neighbouring channels plus bias[0..3] (if any), clamped, to
 * out[0..3] */
AOT_INLINE void aot_f32_out4(float *out, const float *bias, float a0, float a1, float a2,
                             float a3, float lo, float hi) {
  if (bias) {
    a0 += bias[0];
    a1 += bias[1];
    a2 += bias[2];
    a3 += bias[3];
  }
  out[0] = aot_clamp_f32(a0, lo, hi);
  out[1] = aot_clamp_f32(a1, lo, hi);
  out[2] = aot_clamp_f32(a2, lo, hi);
  out[3] = aot_clamp_f32(a3, lo, hi);
}

/* the variants that compute two output positions with the same window
 * shape together */
#if defined(AOT_F32_MVE) || defined(AOT_F32_BLK)
#define AOT_F32_PAIR 1
#endif

#ifdef AOT_F32_MVE
/* x clamped to [lo, hi] as aot_clamp_f32 does it (a NaN stays a NaN). The
 * low bound is tested as lo > x: Helium's VCMP LT is the negation of GE and
 * so true for a NaN, GT is an ordered compare like C's < and > */
AOT_INLINE float32x4_t aot_f32_mve_clamp(float32x4_t x, float lo, float hi) {
  const float32x4_t vlo = vdupq_n_f32(lo);
  x = vpselq_f32(vlo, x, vcmpgtq_f32(vlo, x));
  return vpselq_f32(vdupq_n_f32(hi), x, vcmpgtq_n_f32(x, hi));
}

/* (acc + bias[0..3]) clamped, stored to out[0..3] */
AOT_INLINE void aot_f32_mve_out(float *out, float32x4_t acc, const float *bias, float lo,
                                float hi) {
  if (bias) acc = vaddq_f32(acc, vldrwq_f32(bias));
  vstrwq_f32(out, aot_f32_mve_clamp(acc, lo, hi));
}

/* The float at each lane's address + 4, the addresses advanced by 4 (VLDRW
 * gather with writeback; inline assembly: GCC 12 rejects the immediate of
 * vldrwq_gather_base_wb_f32 once inlined). */
AOT_INLINE float32x4_t aot_f32_mve_gather_next(uint32x4_t *addr) {
  float32x4_t v;
  __asm__("vldrw.u32 %q0, [%q1, #4]!" : "=&w"(v), "+w"(*addr) : : "memory");
  return v;
}

/* Addresses of the filter value before f of four channels fsize apart. */
AOT_INLINE uint32x4_t aot_f32_mve_addr(const float *f, int32_t fsize) {
  return vaddq_n_u32(vmulq_n_u32(vidupq_n_u32(0u, 1), (uint32_t)fsize * 4u),
                     (uint32_t)(uintptr_t)(f - 1));
}

/* The sums of the window's taps of 4 * nv (1 or 2) channels from filter f0
 * (channel stride fsize) into a[0..nv-1]. */
AOT_INLINE void aot_f32_mve_sum(const aot_f32_win *wn, const float *f0, int32_t fsize, int nv,
                                float32x4_t *a) {
  uint32x4_t p0 = aot_f32_mve_addr(f0, fsize);
  uint32x4_t p1 = vaddq_n_u32(p0, (uint32_t)fsize * 16u);
  const uint32_t skip = (uint32_t)(wn->frow - wn->nseg * wn->seg) * 4u;
  float32x4_t a0 = vdupq_n_f32(0.0f), a1 = vdupq_n_f32(0.0f);
  int32_t r, k;
  for (r = 0; r < wn->rows; r++) {
    const float *ip = wn->in + (size_t)r * wn->row_step;
    for (k = 0; k < wn->nseg; k++) {
      const float *q = ip, *e = ip + wn->seg;
      if (nv == 2) {
        while (q < e) {
          const float x = *q++;
          a0 = vfmaq_n_f32(a0, aot_f32_mve_gather_next(&p0), x);
          a1 = vfmaq_n_f32(a1, aot_f32_mve_gather_next(&p1), x);
        }
      } else {
        while (q < e) a0 = vfmaq_n_f32(a0, aot_f32_mve_gather_next(&p0), *q++);
      }
      ip += wn->seg_step;
    }
    p0 = vaddq_n_u32(p0, skip);
    if (nv == 2) p1 = vaddq_n_u32(p1, skip);
  }
  a[0] = a0;
  if (nv == 2) a[1] = a1;
}

/* Output channels 0 .. n - n % 4 - 1 of one window (filter f0 of channel 0,
 * channel stride fsize; bias and out at channel 0); returns how many were
 * written. */
AOT_INLINE int32_t aot_f32_mve_oc(const aot_f32_win *wn, const float *f0, int32_t fsize,
                                  int32_t n, const float *bias, float lo, float hi,
                                  float *out) {
  int32_t c = 0;
  float32x4_t a[2];
  for (; c + 8 <= n; c += 8) {
    aot_f32_mve_sum(wn, f0 + (size_t)c * fsize, fsize, 2, a);
    aot_f32_mve_out(out + c, a[0], bias ? bias + c : bias, lo, hi);
    aot_f32_mve_out(out + c + 4, a[1], bias ? bias + c + 4 : bias, lo, hi);
  }
  if (c + 4 <= n) {
    aot_f32_mve_sum(wn, f0 + (size_t)c * fsize, fsize, 1, a);
    aot_f32_mve_out(out + c, a[0], bias ? bias + c : bias, lo, hi);
    c += 4;
  }
  return c;
}

/* aot_f32_mve_sum for two windows dx input elements apart: a[0..nv-1] and
 * a[2..2+nv-1]; each gathered filter vector feeds both. */
AOT_INLINE void aot_f32_mve_sum2(const aot_f32_win *wn, size_t dx, const float *f0,
                                 int32_t fsize, int nv, float32x4_t *a) {
  uint32x4_t p0 = aot_f32_mve_addr(f0, fsize);
  uint32x4_t p1 = vaddq_n_u32(p0, (uint32_t)fsize * 16u);
  const uint32_t skip = (uint32_t)(wn->frow - wn->nseg * wn->seg) * 4u;
  float32x4_t a0 = vdupq_n_f32(0.0f), a1 = a0, b0 = a0, b1 = a0;
  int32_t r, k;
  for (r = 0; r < wn->rows; r++) {
    const float *ip = wn->in + (size_t)r * wn->row_step;
    for (k = 0; k < wn->nseg; k++) {
      const float *q = ip, *e = ip + wn->seg;
      if (nv == 2) {
        for (; q < e; q++) {
          const float x = q[0], y = q[dx];
          float32x4_t g = aot_f32_mve_gather_next(&p0);
          a0 = vfmaq_n_f32(a0, g, x);
          b0 = vfmaq_n_f32(b0, g, y);
          g = aot_f32_mve_gather_next(&p1);
          a1 = vfmaq_n_f32(a1, g, x);
          b1 = vfmaq_n_f32(b1, g, y);
        }
      } else {
        for (; q < e; q++) {
          const float32x4_t g = aot_f32_mve_gather_next(&p0);
          a0 = vfmaq_n_f32(a0, g, q[0]);
          b0 = vfmaq_n_f32(b0, g, q[dx]);
        }
      }
      ip += wn->seg_step;
    }
    p0 = vaddq_n_u32(p0, skip);
    if (nv == 2) p1 = vaddq_n_u32(p1, skip);
  }
  a[0] = a0;
  a[2] = b0;
  if (nv == 2) {
    a[1] = a1;
    a[3] = b1;
  }
}

/* aot_f32_mve_oc for two windows dx input elements apart (out, out2) */
AOT_INLINE int32_t aot_f32_mve_oc2(const aot_f32_win *wn, size_t dx, const float *f0,
                                   int32_t fsize, int32_t n, const float *bias, float lo,
                                   float hi, float *out, float *out2) {
  int32_t c = 0;
  float32x4_t a[4];
  for (; c + 8 <= n; c += 8) {
    aot_f32_mve_sum2(wn, dx, f0 + (size_t)c * fsize, fsize, 2, a);
    aot_f32_mve_out(out + c, a[0], bias ? bias + c : bias, lo, hi);
    aot_f32_mve_out(out + c + 4, a[1], bias ? bias + c + 4 : bias, lo, hi);
    aot_f32_mve_out(out2 + c, a[2], bias ? bias + c : bias, lo, hi);
    aot_f32_mve_out(out2 + c + 4, a[3], bias ? bias + c + 4 : bias, lo, hi);
  }
  if (c + 4 <= n) {
    aot_f32_mve_sum2(wn, dx, f0 + (size_t)c * fsize, fsize, 1, a);
    aot_f32_mve_out(out + c, a[0], bias ? bias + c : bias, lo, hi);
    aot_f32_mve_out(out2 + c, a[2], bias ? bias + c : bias, lo, hi);
    c += 4;
  }
  return c;
}
#endif

/* Output channels 0 .. n-1 of one window (CONV_2D, and FULLY_CONNECTED as a
 * window of one run): filter f0 (channel 0 at the window's first tap,
 * channels fsize apart), bias at channel 0 (or NULL). Channel blocks of the
 * variant, then one channel at a time; each channel sums its taps in window
 * order. Not inlined: the convolution calls it from several places. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((unused))
#endif
static void aot_f32_oc(const aot_f32_win *wn, const float *f0, int32_t fsize, int32_t n,
                       const float *bias, float lo, float hi, float *out) {
  int32_t j = 0, r, k;
#ifdef AOT_F32_MVE
  j = aot_f32_mve_oc(wn, f0, fsize, n, bias, lo, hi, out);
#else
  for (; j + 4 <= n; j += 4) {
    const float *w = f0 + (size_t)j * fsize;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    for (r = 0; r < wn->rows; r++, w += wn->frow - wn->nseg * wn->seg) {
      const float *ip = wn->in + (size_t)r * wn->row_step;
      for (k = 0; k < wn->nseg; k++, ip += wn->seg_step) {
        const float *q = ip, *e = ip + wn->seg;
        while (q < e) {
          const float x = *q++;
          AOT_F32_MLA(a0, x, w[0]);
          AOT_F32_MLA(a1, x, w[fsize]);
          AOT_F32_MLA(a2, x, w[2 * fsize]);
          AOT_F32_MLA(a3, x, w[3 * fsize]);
          w++;
        }
      }
    }
    aot_f32_out4(out + j, bias ? bias + j : bias, a0, a1, a2, a3, lo, hi);
  }
#endif
  for (; j < n; j++) {
    const float *w = f0 + (size_t)j * fsize;
    float acc = 0.0f;
    for (r = 0; r < wn->rows; r++, w += wn->frow - wn->nseg * wn->seg) {
      const float *ip = wn->in + (size_t)r * wn->row_step;
      for (k = 0; k < wn->nseg; k++, ip += wn->seg_step) {
        const float *q = ip, *e = ip + wn->seg;
        for (; q < e; q++, w++) AOT_F32_MLA(acc, *q, *w);
      }
    }
    if (bias) acc += bias[j];
    out[j] = aot_clamp_f32(acc, lo, hi);
  }
}

#endif
