/* aot_conv2d_s8.c - CONV_2D int8 (per-channel requantization), as the TFLite
 * reference ConvPerChannel: int32 accumulator, zero padding by skipping taps
 * outside the image, grouped convolution when filter_in_c < in_c.
 *
 * Per output position the valid filter window is computed once. Four output
 * channels are accumulated together, so each input value is loaded once per
 * four multiply-accumulates. When the filter covers all input channels and
 * dilation_w is 1, the taps of one filter row are contiguous in both the
 * input and the filter and are walked as one run. */
#include "aot_conv.h"

#if defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32) && !defined(AOT_NO_SIMD)
/* Arm DSP extension (Cortex-M4/M7/M33/M55): four int8 taps per step with
 * SXTB16 + SADD16 (input offset) + SMLAD; the same products and sums as the
 * portable loop. */
#include <arm_acle.h>
#include <string.h>
#define AOT_CONV2D_S8_DSP 1
AOT_INLINE int16x2_t aot_conv2d_s8_lo(uint32_t v) { return __sxtb16((int8x4_t)v); }
AOT_INLINE int16x2_t aot_conv2d_s8_hi(uint32_t v) {
  int16x2_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}
AOT_INLINE uint32_t aot_conv2d_s8_ld4(const int8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
#endif

int32_t aot_conv2d_s8(const aot_conv_params *p, const int8_t *input,
                      const int8_t *filter, const int32_t *bias, int8_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c;
  const int32_t out_c = p->out_c, fh = p->filter_h, fw = p->filter_w;
  const int32_t fic = p->filter_in_c;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const int32_t in_off = p->input_offset, out_off = p->output_offset;
  const int32_t act_min = p->act_min, act_max = p->act_max;
  const int32_t *const mult = p->out_mult, *const shift = p->out_shift;
  const int32_t fsize = fh * fw * fic;
  const size_t in_row = (size_t)in_w * in_c;
  int32_t groups, per_group, b, oy, ox;
#ifdef AOT_CONV2D_S8_DSP
  /* input offset in both 16-bit lanes (x + offset fits int16) */
  const int16x2_t off2 =
      (int16x2_t)(((uint32_t)(uint16_t)in_off << 16) | (uint32_t)(uint16_t)in_off);
#endif

  if (fic <= 0 || in_c % fic != 0) return AOT_KERNEL_BAD_PARAM;
  groups = in_c / fic;
  if (out_c % groups != 0) return AOT_KERNEL_BAD_PARAM;
  per_group = out_c / groups;

  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + (size_t)b * in_h * in_row;
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, nseg, seg, seg_step, g, oc = 0;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        /* one filter row = nseg runs of seg values, input runs seg_step apart */
        if (dw == 1 && groups == 1) {
          nseg = 1;
          seg = (fx1 - fx0) * fic;
        } else {
          nseg = fx1 - fx0;
          seg = fic;
        }
        seg_step = dw * in_c;
        if (fy1 <= fy0 || fx1 <= fx0) nseg = 0;
        for (g = 0; g < groups; g++) {
          /* first tap of the window (input, group g) and of filter rows */
          const int8_t *in_win =
              nseg == 0 ? in_b
                        : in_b + (size_t)(iy0 + fy0 * dh) * in_row +
                              (size_t)(ix0 + fx0 * dw) * in_c + (size_t)g * fic;
          const int32_t f_first = (fy0 * fw + fx0) * fic;
          int32_t j = 0;
          for (; j + 4 <= per_group; j += 4, oc += 4) {
            const int8_t *f0 = filter + (size_t)oc * fsize + f_first;
            int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, fy, k;
            if (nseg > 0) {
              for (fy = fy0; fy < fy1; fy++) {
                const int8_t *ip = in_win + (size_t)(fy - fy0) * dh * in_row;
                const int8_t *fp = f0 + (fy - fy0) * fw * fic;
                for (k = 0; k < nseg; k++) {
                  const int8_t *ie = ip + seg;
                  const int8_t *q = ip, *w = fp;
#ifdef AOT_CONV2D_S8_DSP
                  int32_t r4;
                  for (r4 = seg >> 2; r4 > 0; r4--) {
                    const uint32_t xv = aot_conv2d_s8_ld4(q);
                    const int16x2_t x02 = __sadd16(aot_conv2d_s8_lo(xv), off2);
                    const int16x2_t x13 = __sadd16(aot_conv2d_s8_hi(xv), off2);
                    uint32_t wv = aot_conv2d_s8_ld4(w);
                    a0 = __smlad(aot_conv2d_s8_lo(wv), x02, a0);
                    a0 = __smlad(aot_conv2d_s8_hi(wv), x13, a0);
                    wv = aot_conv2d_s8_ld4(w + fsize);
                    a1 = __smlad(aot_conv2d_s8_lo(wv), x02, a1);
                    a1 = __smlad(aot_conv2d_s8_hi(wv), x13, a1);
                    wv = aot_conv2d_s8_ld4(w + 2 * fsize);
                    a2 = __smlad(aot_conv2d_s8_lo(wv), x02, a2);
                    a2 = __smlad(aot_conv2d_s8_hi(wv), x13, a2);
                    wv = aot_conv2d_s8_ld4(w + 3 * fsize);
                    a3 = __smlad(aot_conv2d_s8_lo(wv), x02, a3);
                    a3 = __smlad(aot_conv2d_s8_hi(wv), x13, a3);
                    q += 4;
                    w += 4;
                  }
#endif
                  while (q < ie) {
                    const int32_t x = *q++ + in_off;
                    a0 += w[0] * x;
                    a1 += w[fsize] * x;
                    a2 += w[2 * fsize] * x;
                    a3 += w[3 * fsize] * x;
                    w++;
                  }
                  ip += seg_step;
                  fp += seg;
                }
              }
            }
            if (bias) {
              a0 += bias[oc];
              a1 += bias[oc + 1];
              a2 += bias[oc + 2];
              a3 += bias[oc + 3];
            }
            a0 = aot_conv_mbqm(a0, mult[oc], shift[oc]) + out_off;
            a1 = aot_conv_mbqm(a1, mult[oc + 1], shift[oc + 1]) + out_off;
            a2 = aot_conv_mbqm(a2, mult[oc + 2], shift[oc + 2]) + out_off;
            a3 = aot_conv_mbqm(a3, mult[oc + 3], shift[oc + 3]) + out_off;
            output[0] = (int8_t)aot_clamp_i32(a0, act_min, act_max);
            output[1] = (int8_t)aot_clamp_i32(a1, act_min, act_max);
            output[2] = (int8_t)aot_clamp_i32(a2, act_min, act_max);
            output[3] = (int8_t)aot_clamp_i32(a3, act_min, act_max);
            output += 4;
          }
          for (; j < per_group; j++, oc++) {
            const int8_t *f0 = filter + (size_t)oc * fsize + f_first;
            int32_t acc = 0, fy, k;
            if (nseg > 0) {
              for (fy = fy0; fy < fy1; fy++) {
                const int8_t *ip = in_win + (size_t)(fy - fy0) * dh * in_row;
                const int8_t *fp = f0 + (fy - fy0) * fw * fic;
                for (k = 0; k < nseg; k++) {
                  const int8_t *ie = ip + seg;
                  const int8_t *q = ip, *w = fp;
                  while (q < ie) acc += *w++ * (*q++ + in_off);
                  ip += seg_step;
                  fp += seg;
                }
              }
            }
            if (bias) acc += bias[oc];
            acc = aot_conv_mbqm(acc, mult[oc], shift[oc]) + out_off;
            *output++ = (int8_t)aot_clamp_i32(acc, act_min, act_max);
          }
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}
