/* aot_dwconv2d_s8.c - DEPTHWISE_CONV_2D int8 (per-channel requantization), as
 * the TFLite reference DepthwiseConvPerChannel: output channel
 * oc = ic * depth_multiplier + m reads input channel ic and filter [.,.,.,oc].
 *
 * The valid filter window is computed once per output position. With depth
 * multiplier 1, four neighbouring channels are accumulated together (their
 * input and filter values are adjacent in memory). */
#include "aot_conv.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(AOT_NO_SIMD)
/* Arm Helium (MVE, Cortex-M55): see aot_dw_s8_mve below. */
#include "aot_mve.h"
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

#ifdef AOT_DWCONV2D_S8_MVE
/* Helium. Channels are vectorized; every product w * (x + input_offset) is
 * exact and summed per channel in int32 lanes, so the sums equal the
 * portable ones; requantization aot_mve_out_s8, bit-identical to
 * aot_conv_mbqm.
 * Depth multiplier 1, blocks of 8 channels: input and filter are loaded
 * sign-extended into 16-bit lanes (VLDRB.S16), x + input_offset fits int16,
 * and VMULLB / VMULLT give the exact int32 products of the even / odd lanes
 * ((x + off) * w is at most 255 * 128 in magnitude). Each block of 8
 * channels walks every output position (aot_dw_s8_mve_blk8); bias,
 * multipliers and shifts are loaded once, de-interleaved (VLD2), and the
 * results re-interleaved with VMOVNB / VMOVNT and stored as 8 bytes. Other
 * channels (the last 1..7, and
 * depth multiplier > 1) use int32 lanes of four channels with lane
 * predicates; with depth multiplier > 1 lane i reads input channel
 * (oc + i) / dm through a gather load. */

/* requantize four channels (bias already added) */
AOT_INLINE int32x4_t aot_dw_s8_mve_rq(const aot_conv_params *p, int32x4_t acc, int32x4_t mult,
                                      int32x4_t shift) {
  return aot_mve_out_s8(acc, aot_mve_rq_make(mult, shift), p->output_offset, p->act_min,
                        p->act_max);
}

/* n (1..4) channels from c in int32 lanes: taps of the window, then store */
AOT_INLINE void aot_dw_s8_mve_4(const aot_conv_params *p, const int8_t *ip, const int8_t *fp,
                                uint32x4_t offs, int gather, int32_t nfy, int32_t nfx,
                                size_t x_rs, size_t x_step, int32_t w_rs, int32_t w_step,
                                const int32_t *bias, int32_t c, int32_t n, int8_t *out) {
  const mve_pred16_t pn = vctp32q((uint32_t)n);
  const int32_t in_off = p->input_offset;
  int32x4_t a = vdupq_n_s32(0);
  int32_t fy, k;
  for (fy = 0; fy < nfy; fy++) {
    const int8_t *xp = ip, *wp = fp;
    for (k = 0; k < nfx; k++) {
      const int32x4_t x =
          gather ? vldrbq_gather_offset_z_s32(xp, offs, pn) : vldrbq_z_s32(xp, pn);
      a = vaddq_s32(a, vmulq_s32(vaddq_n_s32(x, in_off), vldrbq_z_s32(wp, pn)));
      xp += x_step;
      wp += w_step;
    }
    ip += x_rs;
    fp += w_rs;
  }
  if (bias) a = vaddq_s32(a, vldrwq_z_s32(bias + c, pn));
  a = aot_dw_s8_mve_rq(p, a, vldrwq_z_s32(p->out_mult + c, pn), vldrwq_z_s32(p->out_shift + c, pn));
  vstrbq_p_s32(out, a, pn);
}

/* Depth multiplier 1, one block of 8 channels from c over every output
 * position (the block's constants stay out of the position loop). For a
 * window inside the image the input offset is folded into a per-channel
 * constant kb = bias + input_offset * (sum of the filter over all taps),
 * so the taps add x * w only; clipped windows add (x + input_offset) * w
 * over their valid taps and start from the bias. */
static __attribute__((noinline)) void aot_dw_s8_mve_blk8(const aot_conv_params *p,
                                                         const int8_t *input,
                                                         const int8_t *filter,
                                                         const int32_t *bias, int32_t c,
                                                         int8_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, ch = p->in_c;
  const int32_t fh = p->filter_h, fw = p->filter_w;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const int16_t in_off = (int16_t)p->input_offset;
  const size_t in_row = (size_t)in_w * ch, x_step = (size_t)dw * ch, x_rs = (size_t)dh * in_row;
  const int32_t w_rs = fw * ch;
  const int32x4x2_t m = vld2q_s32(p->out_mult + c), sh = vld2q_s32(p->out_shift + c);
  const aot_mve_rq rqe = aot_mve_rq_make(m.val[0], sh.val[0]);
  const aot_mve_rq rqo = aot_mve_rq_make(m.val[1], sh.val[1]);
  int32x4_t be = vdupq_n_s32(0), bo = be, se = be, so = be, kbe, kbo;
  int32_t b, oy, ox, k, f_rows, f_cols, fc_ws;
  size_t fc_xs;

  if (bias) {
    const int32x4x2_t bv = vld2q_s32(bias + c);
    be = bv.val[0];
    bo = bv.val[1];
  }
  for (k = 0; k < fh * fw; k++) {   /* filter sums, even / odd channels */
    const int16x8_t w = vldrbq_s16(filter + (size_t)k * ch + c);
    se = vaddq_s32(se, vmovlbq_s16(w));
    so = vaddq_s32(so, vmovltq_s16(w));
  }
  kbe = vmlaq_n_s32(be, se, p->input_offset);
  kbo = vmlaq_n_s32(bo, so, p->input_offset);
  /* a one-column filter walks its rows as one loop */
  f_rows = fw == 1 ? 1 : fh;
  f_cols = fw == 1 ? fh : fw;
  fc_xs = fw == 1 ? x_rs : x_step;
  fc_ws = fw == 1 ? w_rs : ch;
  output += c;
  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + (size_t)b * in_h * in_row + c;
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++, output += ch) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, fy, nfx;
        int32x4_t ae, ao;
        int16x8_t r = vdupq_n_s16(0);
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        nfx = fx1 - fx0;
        if (fy1 - fy0 == fh && nfx == fw) {
          const int8_t *ip = in_b + (size_t)iy0 * in_row + (size_t)ix0 * ch;
          const int8_t *fp = filter + c;
          ae = kbe;
          ao = kbo;
          for (fy = 0; fy < f_rows; fy++) {
            const int8_t *xp = ip, *wp = fp;
            for (k = f_cols; k > 0; k--) {
              const int16x8_t x = vldrbq_s16(xp), w = vldrbq_s16(wp);
              ae = vaddq_s32(ae, vmullbq_int_s16(x, w));
              ao = vaddq_s32(ao, vmulltq_int_s16(x, w));
              xp += fc_xs;
              wp += fc_ws;
            }
            ip += x_rs;
            fp += w_rs;
          }
        } else {
          ae = be;
          ao = bo;
          if (fy1 > fy0 && nfx > 0) {
            const int8_t *ip =
                in_b + (size_t)(iy0 + fy0 * dh) * in_row + (size_t)(ix0 + fx0 * dw) * ch;
            const int8_t *fp = filter + (size_t)(fy0 * fw + fx0) * ch + c;
            for (fy = fy0; fy < fy1; fy++) {
              const int8_t *xp = ip, *wp = fp;
              for (k = nfx; k > 0; k--) {
                const int16x8_t x = vaddq_n_s16(vldrbq_s16(xp), in_off);
                const int16x8_t w = vldrbq_s16(wp);
                ae = vaddq_s32(ae, vmullbq_int_s16(x, w));
                ao = vaddq_s32(ao, vmulltq_int_s16(x, w));
                xp += x_step;
                wp += ch;
              }
              ip += x_rs;
              fp += w_rs;
            }
          }
        }
        r = vmovnbq_s32(r, aot_mve_out_s8(ae, rqe, p->output_offset, p->act_min, p->act_max));
        r = vmovntq_s32(r, aot_mve_out_s8(ao, rqo, p->output_offset, p->act_min, p->act_max));
        vstrbq_s16(output, r);
      }
    }
  }
}

/* depth multiplier 1: blocks of 8 channels, then the last 1..7 channels */
static void aot_dw_s8_mve_dm1(const aot_conv_params *p, const int8_t *input,
                              const int8_t *filter, const int32_t *bias, int8_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, ch = p->in_c;
  const int32_t fh = p->filter_h, fw = p->filter_w;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const size_t in_row = (size_t)in_w * ch, x_step = (size_t)dw * ch, x_rs = (size_t)dh * in_row;
  const int32_t w_rs = fw * ch;
  const int32_t c8 = ch & ~7;
  const uint32x4_t no_offs = vdupq_n_u32(0);
  int32_t b, oy, ox, c;

  for (c = 0; c < c8; c += 8) aot_dw_s8_mve_blk8(p, input, filter, bias, c, output);
  if (c8 == ch) return;
  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + (size_t)b * in_h * in_row;
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, nfx, nfy = fy1 - fy0;
        const int8_t *in_win = in_b, *f_win = filter;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        nfx = fx1 - fx0;
        if (nfy <= 0 || nfx <= 0) {
          nfy = 0;   /* empty window: bias only */
        } else {
          in_win = in_b + (size_t)(iy0 + fy0 * dh) * in_row + (size_t)(ix0 + fx0 * dw) * ch;
          f_win = filter + (size_t)(fy0 * fw + fx0) * ch;
        }
        for (c = c8; c < ch; c += 4) {
          const int32_t n = ch - c < 4 ? ch - c : 4;
          aot_dw_s8_mve_4(p, in_win + c, f_win + c, no_offs, 0, nfy, nfx, x_rs, x_step, w_rs, ch,
                          bias, c, n, output + c);
        }
        output += ch;
      }
    }
  }
}

/* depth multiplier > 1 (not inlined: keeps its registers) */
static __attribute__((noinline)) void aot_dw_s8_mve_dm(const aot_conv_params *p, const int8_t *input,
                             const int8_t *filter, const int32_t *bias, int8_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c, out_c = p->out_c;
  const int32_t fh = p->filter_h, fw = p->filter_w, dm = p->depth_multiplier;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const size_t in_row = (size_t)in_w * in_c, x_step = (size_t)dw * in_c;
  const size_t x_rs = (size_t)dh * in_row;
  const int32_t w_rs = fw * out_c;
  int32_t b, oy, ox;

  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + (size_t)b * in_h * in_row;
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, nfx, nfy = fy1 - fy0, oc;
        const int8_t *in_win = in_b, *f_win = filter;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        nfx = fx1 - fx0;
        if (nfy <= 0 || nfx <= 0) {
          nfy = 0;
        } else {
          in_win = in_b + (size_t)(iy0 + fy0 * dh) * in_row + (size_t)(ix0 + fx0 * dw) * in_c;
          f_win = filter + (size_t)(fy0 * fw + fx0) * out_c;
        }
        for (oc = 0; oc < out_c; oc += 4) {
          const int32_t n = out_c - oc < 4 ? out_c - oc : 4;
          const int32_t ic = oc / dm;
          /* lanes past n repeat the last input channel (and are not stored) */
          const int32_t l1 = (n > 1 ? oc + 1 : oc) / dm - ic;
          const int32_t l2 = (n > 2 ? oc + 2 : oc) / dm - ic;
          const int32_t l3 = (n > 3 ? oc + 3 : oc) / dm - ic;
          const uint32x4_t offs = vreinterpretq_u32_s32(aot_mve_vec4(0, l1, l2, l3));
          aot_dw_s8_mve_4(p, in_win + ic, f_win + oc, offs, 1, nfy, nfx, x_rs, x_step, w_rs, out_c,
                          bias, oc, n, output);
          output += n;
        }
      }
    }
  }
}
#endif

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
