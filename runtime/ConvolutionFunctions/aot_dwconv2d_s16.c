/* aot_dwconv2d_s16.c - DEPTHWISE_CONV_2D int16x8 (int16 activations, int8
 * weights, int64 bias), as the TFLite reference DepthwiseConvPerChannel
 * (int64 accumulator, aot_mbqm64, zero points 0): output channel
 * oc = ic * depth_multiplier + m reads input channel ic and filter [.,.,.,oc].
 *
 * The valid filter window is computed once per output position. With depth
 * multiplier 1, four neighbouring channels are accumulated together (their
 * input and filter values are adjacent in memory).
 *
 * Helium and Arm DSP builds take aot_dw_s16_simd for windows of at most
 * AOT_FC16_DW_TAPS taps (int32 sums are exact there, aot_fc16_simd.h): per
 * block of AOT_FC16_DW_B output channels (16 Helium, 32 Arm DSP), the
 * requantization constants once, then every output position's sums
 * (aot_fc16_dw_sums) requantized with an exact form of aot_mbqm64 that
 * folds the bias into the rounding constant (aot_s16_out32, aot_s16_rq.h). */
#include "aot_conv.h"
#include "aot_fc16_simd.h"

#if defined(AOT_FC16_MVE)
#define AOT_DWCONV2D_S16_MVE 1
#elif defined(AOT_FC16_DSP)
#define AOT_DWCONV2D_S16_DSP 1
#endif

#if defined(AOT_DWCONV2D_S16_MVE) || defined(AOT_DWCONV2D_S16_DSP)
static void aot_dw_s16_simd(const aot_conv_params *p, const int16_t *input,
                            const int8_t *filter, const int64_t *bias, int16_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c, out_c = p->out_c;
  const int32_t fw = p->filter_w, dm = p->depth_multiplier;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const size_t in_row = (size_t)in_w * in_c;
  aot_s16_rq q[AOT_FC16_DW_B];
  int32_t s[AOT_FC16_DW_B];
  aot_fc16_win g;
  int32_t c0;

  g.x_row = (size_t)dh * in_row;
  g.x_step = (size_t)dw * in_c;
  g.f_row = (size_t)fw * out_c;
  g.f_step = (size_t)out_c;
  for (c0 = 0; c0 < out_c; c0 += AOT_FC16_DW_B) {
    const int32_t nc = out_c - c0 < AOT_FC16_DW_B ? out_c - c0 : AOT_FC16_DW_B;
    int16_t *out = output + c0;
    int32_t j, b, oy, ox;
    for (j = 0; j < nc; j++)
      q[j] = aot_s16_rq_of(p->out_mult[c0 + j], p->out_shift[c0 + j], bias ? bias[c0 + j] : 0);
#if defined(AOT_FC16_MVE)
    if (dm > 1) aot_fc16_dw_idx(c0, dm, g.idx);
#endif
    for (b = 0; b < p->batches; b++) {
      const int16_t *in_b = input + (size_t)b * in_h * in_row;
      for (oy = 0; oy < p->out_h; oy++) {
        const int32_t iy0 = oy * p->stride_h - p->pad_h;
        int32_t fy0, fy1;
        aot_conv_window(iy0, dh, in_h, p->filter_h, &fy0, &fy1);
        for (ox = 0; ox < p->out_w; ox++, out += out_c) {
          const int32_t ix0 = ox * p->stride_w - p->pad_w;
          int32_t fx0, fx1;
          aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
          g.nfy = fy1 > fy0 && fx1 > fx0 ? fy1 - fy0 : 0;   /* 0: empty, bias only */
          g.nfx = fx1 - fx0;
          if (g.nfy > 0)
            aot_fc16_dw_sums(in_b + (size_t)(iy0 + fy0 * dh) * in_row + (size_t)(ix0 + fx0 * dw) * in_c,
                             filter + (size_t)(fy0 * fw + fx0) * out_c, c0, nc, dm, &g, s);
          else
            for (j = 0; j < nc; j++) s[j] = 0;
          for (j = 0; j < nc; j++)
            out[j] = aot_s16_out32(s[j], &q[j], p->act_min, p->act_max);
        }
      }
    }
  }
}
#endif

AOT_INLINE int16_t aot_dw_s16_out(int64_t acc, int32_t mult, int32_t shift, int32_t lo,
                                  int32_t hi) {
  return (int16_t)aot_clamp_i32(aot_mbqm64(acc, mult, shift), lo, hi);
}

/* depth multiplier 1 */
static void aot_dw_s16_dm1(const aot_conv_params *p, const int16_t *input, const int8_t *filter,
                          const int64_t *bias, int16_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, ch = p->in_c;
  const int32_t fh = p->filter_h, fw = p->filter_w;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const int32_t lo = p->act_min, hi = p->act_max;
  const int32_t *const mult = p->out_mult, *const shift = p->out_shift;
  const size_t in_row = (size_t)in_w * ch, x_step = (size_t)dw * ch;
  int32_t b, oy, ox;

  for (b = 0; b < p->batches; b++) {
    const int16_t *in_b = input + (size_t)b * in_h * in_row;
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, nfx, fy_end = fy1, c = 0;
        const int16_t *in_win = in_b;
        const int8_t *f_win = filter;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        nfx = fx1 - fx0;
        if (fy1 <= fy0 || nfx <= 0) {
          fy_end = fy0;   /* empty window: bias only */
        } else {
          in_win = in_b + (size_t)(iy0 + fy0 * dh) * in_row + (size_t)(ix0 + fx0 * dw) * ch;
          f_win = filter + (size_t)(fy0 * fw + fx0) * ch;
        }
        for (; c + 4 <= ch; c += 4) {
          int64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
          int32_t fy;
          for (fy = fy0; fy < fy_end; fy++) {
            const int16_t *ip = in_win + (size_t)(fy - fy0) * dh * in_row + c;
            const int8_t *fp = f_win + (size_t)(fy - fy0) * fw * ch + c;
            int32_t k;
            for (k = 0; k < nfx; k++) {
              a0 += fp[0] * ip[0];
              a1 += fp[1] * ip[1];
              a2 += fp[2] * ip[2];
              a3 += fp[3] * ip[3];
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
          output[0] = aot_dw_s16_out(a0, mult[c], shift[c], lo, hi);
          output[1] = aot_dw_s16_out(a1, mult[c + 1], shift[c + 1], lo, hi);
          output[2] = aot_dw_s16_out(a2, mult[c + 2], shift[c + 2], lo, hi);
          output[3] = aot_dw_s16_out(a3, mult[c + 3], shift[c + 3], lo, hi);
          output += 4;
        }
        for (; c < ch; c++) {
          int64_t acc = 0;
          int32_t fy;
          for (fy = fy0; fy < fy_end; fy++) {
            const int16_t *ip = in_win + (size_t)(fy - fy0) * dh * in_row + c;
            const int8_t *fp = f_win + (size_t)(fy - fy0) * fw * ch + c;
            int32_t k;
            for (k = 0; k < nfx; k++) {
              acc += *fp * *ip;
              ip += x_step;
              fp += ch;
            }
          }
          if (bias) acc += bias[c];
          *output++ = aot_dw_s16_out(acc, mult[c], shift[c], lo, hi);
        }
      }
    }
  }
}

int32_t aot_dwconv2d_s16(const aot_conv_params *p, const int16_t *input,
                        const int8_t *filter, const int64_t *bias, int16_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c;
  const int32_t out_h = p->out_h, out_w = p->out_w, out_c = p->out_c;
  const int32_t fh = p->filter_h, fw = p->filter_w, dm = p->depth_multiplier;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const int32_t act_min = p->act_min, act_max = p->act_max;
  const int32_t *const mult = p->out_mult, *const shift = p->out_shift;
  const int32_t x_step = dw * in_c, fx_step = out_c;
  int32_t b, oy, ox;

  if (dm <= 0 || out_c != in_c * dm) return AOT_KERNEL_BAD_PARAM;
#if defined(AOT_DWCONV2D_S16_MVE) || defined(AOT_DWCONV2D_S16_DSP)
  if (fh * fw <= AOT_FC16_DW_TAPS) {
    aot_dw_s16_simd(p, input, filter, bias, output);
    return AOT_KERNEL_OK;
  }
#endif
  if (dm == 1) {
    aot_dw_s16_dm1(p, input, filter, bias, output);
    return AOT_KERNEL_OK;
  }

  for (b = 0; b < p->batches; b++) {
    const int16_t *in_b = input + (size_t)b * in_h * in_w * in_c;
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
          const int16_t *in_c0 = in_b + ic;
          int32_t m;
          for (m = 0; m < dm; m++, oc++) {
            int64_t acc = 0;
          int32_t fy;
            for (fy = fy0; fy < fy_end; fy++) {
              const int16_t *ip = in_c0 + ((size_t)(iy0 + fy * dh) * in_w +
                                          (ix0 + fx0 * dw)) * in_c;
              const int8_t *fp = filter + (size_t)(fy * fw + fx0) * out_c + oc;
              int32_t fx;
              for (fx = fx0; fx < fx1; fx++) {
                acc += *fp * *ip;
                ip += x_step;
                fp += fx_step;
              }
            }
            if (bias) acc += bias[oc];
            *output++ = aot_dw_s16_out(acc, mult[oc], shift[oc], act_min, act_max);
          }
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}
