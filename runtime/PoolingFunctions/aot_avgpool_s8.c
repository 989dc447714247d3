/* aot_avgpool_s8.c - AVERAGE_POOL_2D int8, as the TFLite reference: the
 * window is clipped to the image, the int32 sum is divided by the number of
 * taps rounding half away from zero ((sum +- count/2) / count), then clamped.
 * Input and output share scale and zero point. The SIMD builds keep that
 * loop for the channels and windows their blocks leave over only with
 * AOT_F_POOL_S8_TAIL (aot_features.h). */
#include "aot_conv.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(AOT_NO_SIMD)
/* Arm Helium (MVE, Cortex-M55): windows of at most 256 taps are summed 16
 * channels at a time in 16-bit lanes (|sum| <= 128 * 256 fits int16, so the
 * sums are exact); the division and clamp stay scalar as below. */
#include "aot_mve.h"
#define AOT_AVGPOOL_S8_MVE 1
#elif defined(__ARM_FEATURE_DSP) && !defined(AOT_NO_SIMD)
/* Arm DSP extension (Cortex-M4F): windows of at most 256 taps are summed 8
 * channels at a time with SXTAB16, two 16-bit lanes per register
 * (exact, as above); a window of whole rows is one run of taps. The division
 * and clamp stay scalar. */
#include <string.h>
#define AOT_AVGPOOL_S8_DSP 1
/* acc + the sign-extended bytes 0 and 2 (R8 0) or 1 and 3 (R8 1) of w, in
 * two 16-bit lanes */
AOT_INLINE uint32_t aot_avgpool_s8_sx(uint32_t acc, uint32_t w) {
  uint32_t r;
  __asm__("sxtab16 %0, %1, %2" : "=r"(r) : "r"(acc), "r"(w));
  return r;
}
AOT_INLINE uint32_t aot_avgpool_s8_sxr(uint32_t acc, uint32_t w) {
  uint32_t r;
  __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(acc), "r"(w));
  return r;
}
AOT_INLINE uint32_t aot_avgpool_s8_ld4(const int8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
/* the signed 16-bit lanes of a sum */
#define AOT_AVGPOOL_S8_LO(A) ((int32_t)(int16_t)(uint16_t)((A) & 0xFFFFu))
#define AOT_AVGPOOL_S8_HI(A) ((int32_t)(int16_t)(uint16_t)((A) >> 16))
#endif

#if defined(AOT_AVGPOOL_S8_MVE) || defined(AOT_AVGPOOL_S8_DSP)
/* the scalar division and clamp of the portable loop */
AOT_INLINE int8_t aot_avgpool_s8_div(int32_t acc, int32_t count, int32_t lo, int32_t hi) {
  acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
  return (int8_t)aot_clamp_i32(acc, lo, hi);
}
#endif

int32_t aot_avgpool_s8(const aot_pool_params *p, const int8_t *input, int8_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, ch = p->channels;
  const int32_t act_min = p->act_min, act_max = p->act_max;
  int32_t b, oy, ox;

  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + (size_t)b * in_h * in_w * ch;
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, 1, in_h, p->filter_h, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, count, c;
        const int8_t *base;
        aot_conv_window(ix0, 1, in_w, p->filter_w, &fx0, &fx1);
        count = (fy1 - fy0) * (fx1 - fx0);
        if (fy1 <= fy0 || fx1 <= fx0) return AOT_KERNEL_BAD_PARAM;
        base = in_b + ((size_t)(iy0 + fy0) * in_w + (ix0 + fx0)) * ch;
        c = 0;
#ifdef AOT_AVGPOOL_S8_MVE
        if (count <= 256) {
          for (; c < ch; c += 16) {
            const int32_t n = ch - c < 16 ? ch - c : 16;
            const mve_pred16_t p0 = vctp16q((uint32_t)n);
            const mve_pred16_t p1 = vctp16q((uint32_t)(n > 8 ? n - 8 : 0));
            const int8_t *row = base + c;
            int16x8_t s0 = vdupq_n_s16(0), s1 = s0;
            int16_t sums[16];
            int32_t fy, fx, k;
            for (fy = fy0; fy < fy1; fy++) {
              const int8_t *ip = row;
              if (n == 16) {
                for (fx = fx0; fx < fx1; fx++) {
                  s0 = vaddq_s16(s0, vldrbq_s16(ip));
                  s1 = vaddq_s16(s1, vldrbq_s16(ip + 8));
                  ip += ch;
                }
              } else {
                for (fx = fx0; fx < fx1; fx++) {
                  s0 = vaddq_s16(s0, vldrbq_z_s16(ip, p0));
                  s1 = vaddq_s16(s1, vldrbq_z_s16(ip + 8, p1));
                  ip += ch;
                }
              }
              row += (size_t)in_w * ch;
            }
            vst1q_s16(sums, s0);
            vst1q_s16(sums + 8, s1);
            for (k = 0; k < n; k++) *output++ = aot_avgpool_s8_div(sums[k], count, act_min, act_max);
          }
        }
#endif
#ifdef AOT_AVGPOOL_S8_DSP
        if (count <= 256) {
          /* whole rows: one run of count taps, ch apart */
          const int32_t nrows = fx1 - fx0 == in_w ? 1 : fy1 - fy0;
          const int32_t ntaps = fx1 - fx0 == in_w ? count : fx1 - fx0;
          const size_t rstep = (size_t)in_w * ch;
          for (; c + 8 <= ch; c += 8) {
            const int8_t *row = base + c;
            uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
            int32_t r, k;
            for (r = 0; r < nrows; r++, row += rstep) {
              const int8_t *ip = row;
              for (k = ntaps; k > 0; k--, ip += ch) {
                const uint32_t w0 = aot_avgpool_s8_ld4(ip), w1 = aot_avgpool_s8_ld4(ip + 4);
                a0 = aot_avgpool_s8_sx(a0, w0);
                a1 = aot_avgpool_s8_sxr(a1, w0);
                a2 = aot_avgpool_s8_sx(a2, w1);
                a3 = aot_avgpool_s8_sxr(a3, w1);
              }
            }
            {
              const int32_t sums[8] = {AOT_AVGPOOL_S8_LO(a0), AOT_AVGPOOL_S8_LO(a1),
                                       AOT_AVGPOOL_S8_HI(a0), AOT_AVGPOOL_S8_HI(a1),
                                       AOT_AVGPOOL_S8_LO(a2), AOT_AVGPOOL_S8_LO(a3),
                                       AOT_AVGPOOL_S8_HI(a2), AOT_AVGPOOL_S8_HI(a3)};
              for (k = 0; k < 8; k++) *output++ = aot_avgpool_s8_div(sums[k], count, act_min, act_max);
            }
          }
        }
#endif
#if (defined(AOT_AVGPOOL_S8_MVE) || defined(AOT_AVGPOOL_S8_DSP)) && !AOT_F_POOL_S8_TAIL
        if (c < ch) return AOT_KERNEL_BAD_PARAM;   /* no such layer (aot_features.h) */
#endif
        for (; c < ch; c++) {
          const int8_t *row = base + c;
          int32_t acc = 0, fy;
          for (fy = fy0; fy < fy1; fy++) {
            const int8_t *ip = row;
            int32_t fx;
            for (fx = fx0; fx < fx1; fx++) {
              acc += *ip;
              ip += ch;
            }
            row += (size_t)in_w * ch;
          }
          acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
          *output++ = (int8_t)aot_clamp_i32(acc, act_min, act_max);
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}
