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
/* Arm DSP extension (Cortex-M4/M7/M33/M55): the four channels of one tap are
 * loaded as one word, split with SXTB16, offset with SADD16 and accumulated
 * with SMLABB/SMLATT; the same products and sums as the portable loop. */
#include <arm_acle.h>
#include <string.h>
#include "aot_dsp.h"
#define AOT_DWCONV2D_S8_DSP 1
AOT_INLINE int16x2_t aot_dwconv2d_s8_hi(uint32_t v) {
  int16x2_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}
AOT_INLINE uint32_t aot_dwconv2d_s8_ld4(const int8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
#endif

AOT_INLINE int8_t aot_dw_s8_out(int32_t acc, int32_t mult, int32_t shift, int32_t out_off,
                                int32_t lo, int32_t hi) {
  return (int8_t)aot_clamp_i32(aot_conv_mbqm(acc, mult, shift) + out_off, lo, hi);
}


#ifdef AOT_DWCONV2D_S8_DSP
/* Arm DSP, depth multiplier 1, filters of at most AOT_DW_S8_DSP_TAPS taps.
 * Channels in blocks of AOT_DW_S8_DSP_CH; per block
 *  - a per-channel constant kb = bias + input_offset * (sum of the filter
 *    over all taps), so the taps add w * x only (int32 arithmetic is
 *    modular: the same integer as the portable sum);
 *  - the filter sign-extended once into 16-bit pairs in the order the loop
 *    reads them: per 4 channels c..c+3 and tap, (w[c], w[c+2]) and
 *    (w[c+1], w[c+3]), which is how SXTB16 splits an input word.
 * Per output position a table of the taps' input addresses: taps outside
 * the image point at a row of input zero points zp = -input_offset, whose
 * products w * zp cancel their share input_offset * w of kb, so clipped
 * windows need no other case. Four channels: one input word per tap, two
 * SXTB16 and four SMLABB/SMLATT (exact products). Requantization
 * aot_conv_mbqm. */
#define AOT_DW_S8_DSP_CH 32
#define AOT_DW_S8_DSP_TAPS 25

/* channels c < n4 (multiple of 4) of one output position: nt taps */
AOT_INLINE void aot_dw_s8_dsp_blk(const int8_t *const *tab, const uint32_t *w16, const int32_t *kb,
                                  const int32_t *mult, const int32_t *shift,
                                  const int32_t *rs, const int32_t nt,
                                  int32_t n4, int32_t out_off, int32_t lo, int32_t hi,
                                  int8_t *out) {
  int32_t c, t;
  const uint32_t *wp = w16;
  for (c = 0; c < n4; c += 4) {
    int32_t a0 = kb[c], a1 = kb[c + 1], a2 = kb[c + 2], a3 = kb[c + 3];
    for (t = 0; t < nt; t++, wp += 2) {
      uint32_t xv;
      int16x2_t x02, x13;
      memcpy(&xv, tab[t] + c, 4);
      x02 = __sxtb16((int8x4_t)xv);
      x13 = aot_dwconv2d_s8_hi(xv);
      a0 = __smlabb(x02, (int16x2_t)wp[0], a0);
      a2 = __smlatt(x02, (int16x2_t)wp[0], a2);
      a1 = __smlabb(x13, (int16x2_t)wp[1], a1);
      a3 = __smlatt(x13, (int16x2_t)wp[1], a3);
    }
    if (rs) {
      out[c] = (int8_t)aot_clamp_i32(aot_dsp_rq(a0, mult[c], rs[c]) + out_off, lo, hi);
      out[c + 1] = (int8_t)aot_clamp_i32(aot_dsp_rq(a1, mult[c + 1], rs[c + 1]) + out_off, lo, hi);
      out[c + 2] = (int8_t)aot_clamp_i32(aot_dsp_rq(a2, mult[c + 2], rs[c + 2]) + out_off, lo, hi);
      out[c + 3] = (int8_t)aot_clamp_i32(aot_dsp_rq(a3, mult[c + 3], rs[c + 3]) + out_off, lo, hi);
    } else {
      out[c] = aot_dw_s8_out(a0, mult[c], shift[c], out_off, lo, hi);
      out[c + 1] = aot_dw_s8_out(a1, mult[c + 1], shift[c + 1], out_off, lo, hi);
      out[c + 2] = aot_dw_s8_out(a2, mult[c + 2], shift[c + 2], out_off, lo, hi);
      out[c + 3] = aot_dw_s8_out(a3, mult[c + 3], shift[c + 3], out_off, lo, hi);
    }
  }
}

static void aot_dw_s8_dsp_dm1(const aot_conv_params *p, const int8_t *input,
                              const int8_t *filter, const int32_t *bias, int8_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, ch = p->in_c;
  const int32_t fh = p->filter_h, fw = p->filter_w, nt = fh * fw;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const int32_t out_off = p->output_offset, lo = p->act_min, hi = p->act_max;
  const uint32_t in_off = (uint32_t)p->input_offset;
  const size_t in_row = (size_t)in_w * ch;
  int8_t zrow[AOT_DW_S8_DSP_CH];
  int32_t kb[AOT_DW_S8_DSP_CH], rs[AOT_DW_S8_DSP_CH];
  uint32_t w16[AOT_DW_S8_DSP_CH / 4 * AOT_DW_S8_DSP_TAPS * 2];
  const int8_t *tab[AOT_DW_S8_DSP_TAPS];
  int32_t c0, i;

  memset(zrow, (int8_t)(-p->input_offset), sizeof zrow);
  for (c0 = 0; c0 < ch; c0 += AOT_DW_S8_DSP_CH) {
    const int32_t nch = ch - c0 < AOT_DW_S8_DSP_CH ? ch - c0 : AOT_DW_S8_DSP_CH;
    const int32_t n4 = nch & ~3;
    const int32_t *const mult = p->out_mult + c0, *const shift = p->out_shift + c0;
    const int32_t *const rsp = aot_dsp_rs(shift, nch, rs) ? rs : NULL;
    int32_t c, t, b, oy, ox;
    for (c = 0; c < nch; c++) {
      uint32_t sw = 0;
      for (t = 0; t < nt; t++) sw += (uint32_t)filter[(size_t)t * ch + c0 + c];
      kb[c] = (int32_t)((bias ? (uint32_t)bias[c0 + c] : 0u) + sw * in_off);
    }
    for (c = 0; c < n4; c += 4) {
      uint32_t *d = w16 + (size_t)(c / 4) * nt * 2;
      for (t = 0; t < nt; t++) {
        const int8_t *f = filter + (size_t)t * ch + c0 + c;
        d[2 * t] = (uint32_t)(uint16_t)f[0] | ((uint32_t)(uint16_t)f[2] << 16);
        d[2 * t + 1] = (uint32_t)(uint16_t)f[1] | ((uint32_t)(uint16_t)f[3] << 16);
      }
    }
    for (b = 0; b < p->batches; b++) {
      const int8_t *in_b = input + (size_t)b * in_h * in_row + c0;
      for (oy = 0; oy < p->out_h; oy++) {
        const int32_t iy0 = oy * p->stride_h - p->pad_h;
        for (ox = 0; ox < p->out_w; ox++) {
          const int32_t ix0 = ox * p->stride_w - p->pad_w;
          int8_t *out = output + (((size_t)b * p->out_h + oy) * p->out_w + ox) * ch + c0;
          int32_t fy, fx;
          for (fy = 0, i = 0; fy < fh; fy++) {
            const int32_t iy = iy0 + fy * dh;
            for (fx = 0; fx < fw; fx++, i++) {
              const int32_t ix = ix0 + fx * dw;
              tab[i] = iy >= 0 && iy < in_h && ix >= 0 && ix < in_w
                           ? in_b + (size_t)iy * in_row + (size_t)ix * ch
                           : zrow;
            }
          }
          if (nt == 9)   /* 3x3: the tap loop unrolled */
            aot_dw_s8_dsp_blk(tab, w16, kb, mult, shift, rsp, 9, n4, out_off, lo, hi, out);
          else
            aot_dw_s8_dsp_blk(tab, w16, kb, mult, shift, rsp, nt, n4, out_off, lo, hi, out);
          c = n4;
          for (; c < nch; c++) {
            int32_t acc = kb[c];
            for (t = 0; t < nt; t++) acc += filter[(size_t)t * ch + c0 + c] * tab[t][c];
            out[c] = aot_dw_s8_out(acc, mult[c], shift[c], out_off, lo, hi);
          }
        }
      }
    }
  }
}
#endif

/* depth multiplier 1 */
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
#ifdef AOT_DWCONV2D_S8_DSP
  const int16x2_t off2 =
      (int16x2_t)(((uint32_t)(uint16_t)in_off << 16) | (uint32_t)(uint16_t)in_off);
#endif

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
#ifdef AOT_DWCONV2D_S8_DSP
              const uint32_t xv = aot_dwconv2d_s8_ld4(ip), wv = aot_dwconv2d_s8_ld4(fp);
              const int16x2_t x02 = __sadd16(__sxtb16((int8x4_t)xv), off2);
              const int16x2_t x13 = __sadd16(aot_dwconv2d_s8_hi(xv), off2);
              const int16x2_t w02 = __sxtb16((int8x4_t)wv), w13 = aot_dwconv2d_s8_hi(wv);
              a0 = __smlabb(x02, w02, a0);
              a2 = __smlatt(x02, w02, a2);
              a1 = __smlabb(x13, w13, a1);
              a3 = __smlatt(x13, w13, a3);
#else
              a0 += fp[0] * (ip[0] + in_off);
              a1 += fp[1] * (ip[1] + in_off);
              a2 += fp[2] * (ip[2] + in_off);
              a3 += fp[3] * (ip[3] + in_off);
#endif
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

int32_t aot_dwconv2d_s8(const aot_conv_params *p, const int8_t *input,
                        const int8_t *filter, const int32_t *bias, int8_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c;
  const int32_t out_h = p->out_h, out_w = p->out_w, out_c = p->out_c;
  const int32_t fh = p->filter_h, fw = p->filter_w, dm = p->depth_multiplier;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const int32_t in_off = p->input_offset, out_off = p->output_offset;
  const int32_t act_min = p->act_min, act_max = p->act_max;
  const int32_t *const mult = p->out_mult, *const shift = p->out_shift;
  const int32_t x_step = dw * in_c, fx_step = out_c;
  int32_t b, oy, ox;

  if (dm <= 0 || out_c != in_c * dm) return AOT_KERNEL_BAD_PARAM;
#ifdef AOT_DWCONV2D_S8_MVE
  if (dm == 1)
    aot_dw_s8_mve_dm1(p, input, filter, bias, output);
  else
    aot_dw_s8_mve_dm(p, input, filter, bias, output);
  return AOT_KERNEL_OK;
#endif
#ifdef AOT_DWCONV2D_S8_DSP
  if (dm == 1 && fh * fw <= AOT_DW_S8_DSP_TAPS) {
    aot_dw_s8_dsp_dm1(p, input, filter, bias, output);
    return AOT_KERNEL_OK;
  }
#endif
  if (dm == 1) {
    aot_dw_s8_dm1(p, input, filter, bias, output);
    return AOT_KERNEL_OK;
  }

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
