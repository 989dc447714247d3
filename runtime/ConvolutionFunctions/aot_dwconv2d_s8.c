/* aot_dwconv2d_s8.c - DEPTHWISE_CONV_2D int8 (per-channel requantization), as
 * the TFLite reference DepthwiseConvPerChannel: output channel
 * oc = ic * depth_multiplier + m reads input channel ic and filter [.,.,.,oc].
 *
 * The valid filter window is computed once per output position. With depth
 * multiplier 1, four neighbouring channels are accumulated together (their
 * input and filter values are adjacent in memory). */
#include "aot_conv.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(AOT_NO_SIMD)
/* Arm Helium (MVE, Cortex-M55): aot_dwconv_mve.h. */
#include "aot_dwconv_mve.h"
#define AOT_DWCONV2D_S8_MVE 1
#elif defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32) && !defined(AOT_NO_SIMD)
/* Arm DSP extension (Cortex-M4F/M7/M33): depth multiplier 1 with up to
 * AOT_DW_S8_DSP_TAPS taps in aot_dwconv_dsp.h (the 3x3 channel-by-channel
 * path, else SMLAD over tap pairs; exact products); the general loop below
 * for the rest. */
#include "aot_dwconv_dsp.h"
#define AOT_DWCONV2D_S8_DSP 1
#endif

AOT_INLINE int8_t aot_dw_s8_out(int32_t acc, int32_t mult, int32_t shift, int32_t out_off,
                                int32_t lo, int32_t hi) {
  return (int8_t)aot_clamp_i32(aot_conv_mbqm(acc, mult, shift) + out_off, lo, hi);
}


#ifndef AOT_DWCONV2D_S8_DSP
/* depth multiplier 1 (DSP builds: aot_dw_s8_dsp_dm1 up to
 * AOT_DW_S8_DSP_TAPS taps, the general loop below beyond) */
static void aot_dw_s8_dm1(const aot_conv_params *p, const int8_t *input, const int8_t *filter,
                          const int32_t *bias, int8_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, ch = p->in_c;
  const int32_t fh = p->filter_h, fw = p->filter_w;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const int32_t in_off = p->input_offset, out_off = p->output_offset;
  const int32_t lo = p->act_min, hi = p->act_max;
  const int32_t *const mult = p->out_mult, *const shift = p->out_shift;
  const size_t in_row = (size_t)in_w * ch, x_step = (size_t)dw * ch;
  int32_t b, oy, ox;

  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + (size_t)b * in_h * in_row;
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, nfx, fy_end = fy1, c = 0;
        const int8_t *in_win = in_b, *f_win = filter;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        nfx = fx1 - fx0;
        if (fy1 <= fy0 || nfx <= 0) {
          fy_end = fy0;   /* empty window: bias only */
        } else {
          in_win = in_b + (size_t)(iy0 + fy0 * dh) * in_row + (size_t)(ix0 + fx0 * dw) * ch;
          f_win = filter + (size_t)(fy0 * fw + fx0) * ch;
        }
        for (; c + 4 <= ch; c += 4) {
          int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, fy;
          for (fy = fy0; fy < fy_end; fy++) {
            const int8_t *ip = in_win + (size_t)(fy - fy0) * dh * in_row + c;
            const int8_t *fp = f_win + (size_t)(fy - fy0) * fw * ch + c;
            int32_t k;
            for (k = 0; k < nfx; k++) {
              a0 += fp[0] * (ip[0] + in_off);
              a1 += fp[1] * (ip[1] + in_off);
              a2 += fp[2] * (ip[2] + in_off);
              a3 += fp[3] * (ip[3] + in_off);
              ip += x_step;
              fp += ch;
            }
          }
          if (bias) {
            a0 += bias[c];
            a1 += bias[c + 1];
            a2 += bias[c + 2];
            a3 += bias[c + 3];
          }
          output[0] = aot_dw_s8_out(a0, mult[c], shift[c], out_off, lo, hi);
          output[1] = aot_dw_s8_out(a1, mult[c + 1], shift[c + 1], out_off, lo, hi);
          output[2] = aot_dw_s8_out(a2, mult[c + 2], shift[c + 2], out_off, lo, hi);
          output[3] = aot_dw_s8_out(a3, mult[c + 3], shift[c + 3], out_off, lo, hi);
          output += 4;
        }
        for (; c < ch; c++) {
          int32_t acc = 0, fy;
          for (fy = fy0; fy < fy_end; fy++) {
            const int8_t *ip = in_win + (size_t)(fy - fy0) * dh * in_row + c;
            const int8_t *fp = f_win + (size_t)(fy - fy0) * fw * ch + c;
            int32_t k;
            for (k = 0; k < nfx; k++) {
              acc += *fp * (*ip + in_off);
              ip += x_step;
              fp += ch;
            }
          }
          if (bias) acc += bias[c];
          *output++ = aot_dw_s8_out(acc, mult[c], shift[c], out_off, lo, hi);
        }
      }
    }
  }
}
#endif

int32_t aot_dwconv2d_s8(const aot_conv_params *p, const int8_t *input,
                        const int8_t *filter, const int32_t *bias, int8_t *output,
                        void *scratch) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c;
  const int32_t out_h = p->out_h, out_w = p->out_w, out_c = p->out_c;
  const int32_t fh = p->filter_h, fw = p->filter_w, dm = p->depth_multiplier;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const int32_t in_off = p->input_offset, out_off = p->output_offset;
  const int32_t act_min = p->act_min, act_max = p->act_max;
  const int32_t *const mult = p->out_mult, *const shift = p->out_shift;
  const int32_t x_step = dw * in_c, fx_step = out_c;
  int32_t b, oy, ox;

  (void)scratch;
  if (dm <= 0 || out_c != in_c * dm) return AOT_KERNEL_BAD_PARAM;
#if defined(AOT_DWCONV2D_S8_MVE) || defined(AOT_DWCONV2D_S8_DSP)
  /* a layer without aotc's folded bias: a path the module left out */
  if (!AOT_F_CONV_S8_NOKB && !p->kbias) return AOT_KERNEL_BAD_PARAM;
#endif
#ifdef AOT_DWCONV2D_S8_MVE
  /* the packed filter / padded rows (aot_dwconv2d_s8_scratch_mve) */
  if (!scratch && aot_dwconv2d_s8_scratch_mve(p) > 0) return AOT_KERNEL_BAD_PARAM;
  /* a path the module left out (aot_features.h): AOT_KERNEL_BAD_PARAM */
  if (!AOT_F_DW_S8_CLIP && aot_conv_clips(p)) return AOT_KERNEL_BAD_PARAM;
  if (dm == 1) {
#if AOT_F_DW_S8_DM1
    return aot_dw_s8_mve_dm1(p, input, filter, bias, output, scratch);
#else
    return AOT_KERNEL_BAD_PARAM;
#endif
  }
#if AOT_F_DW_S8_DM
  aot_dw_s8_mve_dm(p, input, filter, bias, output, scratch);
  return AOT_KERNEL_OK;
#else
  return AOT_KERNEL_BAD_PARAM;
#endif
#endif
#ifdef AOT_DWCONV2D_S8_DSP
  /* a narrower activation range than int8: a path the module left out */
  if (!AOT_F_CONV_S8_NARROW && !(act_min == -128 && act_max == 127)) return AOT_KERNEL_BAD_PARAM;
  if (aot_dwconv2d_s8_dsp_is3(p)) {
#if AOT_F_DW_S8_3S1 || AOT_F_DW_S8_3S2
    /* a stride the module left out (aot_features.h) */
    const int32_t s3 = aot_dwconv2d_s8_dsp_tr(p) ? p->stride_h : p->stride_w;
    if ((!AOT_F_DW_S8_3S1 && s3 == 1) || (!AOT_F_DW_S8_3S2 && s3 == 2))
      return AOT_KERNEL_BAD_PARAM;
    return aot_dw3_dsp(p, input, filter, bias, output, scratch);
#else
    return AOT_KERNEL_BAD_PARAM;   /* no such layer (aot_features.h) */
#endif
  }
#if AOT_F_DW_S8_GEN
  if (dm == 1 && fh * fw <= AOT_DW_S8_DSP_TAPS) {
    /* paths the module left out (aot_features.h) */
    if ((!AOT_F_DW_S8_TAIL && (in_c & 3) != 0) || (!AOT_F_DW_S8_CLIP && aot_dsp_clips(p)))
      return AOT_KERNEL_BAD_PARAM;
    aot_dw_s8_dsp_dm1(p, input, filter, bias, output, scratch);
    return AOT_KERNEL_OK;
  }
#else
  if (dm == 1 && fh * fw <= AOT_DW_S8_DSP_TAPS) return AOT_KERNEL_BAD_PARAM;
#endif
#if !AOT_F_DW_S8_DM && !AOT_F_DW_S8_BIG
  /* the module has no such layer (aot_features.h) */
  return AOT_KERNEL_BAD_PARAM;
#endif
#else
  if (dm == 1) {
    aot_dw_s8_dm1(p, input, filter, bias, output);
    return AOT_KERNEL_OK;
  }
#if !AOT_F_DW_S8_DM
  return AOT_KERNEL_BAD_PARAM;   /* no depth multiplier above 1 (aot_features.h) */
#endif
#endif

  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + (size_t)b * in_h * in_w * in_c;
    for (oy = 0; oy < out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
      for (ox = 0; ox < out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, fy_end, ic, oc = 0;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        fy_end = fx1 <= fx0 ? fy0 : fy1;   /* empty window: bias only */
        for (ic = 0; ic < in_c; ic++) {
          const int8_t *in_c0 = in_b + ic;
          int32_t m;
          for (m = 0; m < dm; m++, oc++) {
            int32_t acc = 0, fy;
            for (fy = fy0; fy < fy_end; fy++) {
              const int8_t *ip = in_c0 + ((size_t)(iy0 + fy * dh) * in_w +
                                          (ix0 + fx0 * dw)) * in_c;
              const int8_t *fp = filter + (size_t)(fy * fw + fx0) * out_c + oc;
              int32_t fx;
              for (fx = fx0; fx < fx1; fx++) {
                acc += *fp * (*ip + in_off);
                ip += x_step;
                fp += fx_step;
              }
            }
            if (bias) acc += bias[oc];
            *output++ = aot_dw_s8_out(acc, mult[oc], shift[oc], out_off, act_min, act_max);
          }
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}
