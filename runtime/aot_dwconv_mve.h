/* aot_dwconv_mve.h - the Arm Helium (MVE, Cortex-M55) variant of
 * DEPTHWISE_CONV_2D int8 (aot_dwconv2d_s8.c dispatches to it when the
 * compiler targets MVE integer). Channels are vectorized; every product
 * w * (x + input_offset) is exact and summed per channel in int32 lanes, so
 * the sums equal the portable ones (int32 arithmetic is modular);
 * requantization aot_mve_out_s8, bit-identical to aot_conv_mbqm.
 *
 * Depth multiplier 1, blocks of 8 channels (aot_dw_s8_mve_blk8; filters of
 * at most AOT_DW_MVE_TAPS taps): input and filter are loaded sign-extended
 * into 16-bit lanes (VLDRB.S16) and VMULLB / VMULLT give the exact int32
 * products of the even / odd lanes. The block's filter is packed on the
 * stack (8 bytes per tap, the order the loop loads it). The input offset is
 * folded into a per-channel constant kb = bias + input_offset * (sum of the
 * filter over the taps a window uses), so the taps add x * w only:
 *  - windows inside the image: kb over all taps, two output positions at a
 *    time (one filter load feeds both);
 *  - columns whose filter columns leave the image (a few at each edge):
 *    walked column by column (aot_dw_s8_mve_col8), kb over the column's
 *    valid filter columns;
 *  - the other columns of rows whose filter rows leave the image
 *    (aot_dw_s8_mve_prow8): kb over the valid filter rows;
 *  - windows clipped both ways (aot_dw_s8_mve_edge8): (x + input_offset) * w
 *    over the valid taps from the bias.
 * Requantization (aot_dw_s8_mve_st8): aot_mve_mbqm per half, saturating
 * narrows that re-interleave the lanes, the clamp on 8 lanes;
 * stored as 8 bytes. Small padded images (aot_dw_s8_mve_small8: the zero-
 * padded block of 8 channels fits AOT_DW_MVE_SMALL bytes on the stack): the
 * block is copied with the padding set to the input zero point and every
 * position takes the interior path. The last 1..7 channels of a layer of at least 8: one
 * more block of the last 8 channels (the few recomputed channels get the
 * same bytes again). Depth multiplier > 1, and fewer than 8 channels:
 * aot_dw_s8_mve_g8, blocks of 8 output channels whose lane i reads input
 * channel (c + i) / dm with one gather load, the last block predicated.
 * Filters past AOT_DW_MVE_TAPS taps (unless depth multiplier > 1 and the
 * output channels are a multiple of 8) use int32 lanes of four channels with
 * lane predicates (gather loads for depth multiplier > 1).
 * tests/target/mve_kernels.c compares all of it with the portable kernel
 * under QEMU. */
#ifndef AOT_DWCONV_MVE_H
#define AOT_DWCONV_MVE_H

#include "aot_conv.h"
#include "aot_mve.h"

#ifdef AOT_MVE

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

/* Requantize and store 8 channels (even lanes e, odd lanes o): aot_mve_mbqm
 * per half, then saturating narrows to int16 (VQMOVNB / VQMOVNT, which also
 * re-interleave the lanes), the output offset added with int16 saturation
 * and the activation clamp on 8 lanes at once. Saturation keeps the order of
 * values beyond the int16 range and [act_min, act_max] lies inside int8, so
 * this is clamp(mbqm + output_offset), the portable result. */
AOT_INLINE void aot_dw_s8_mve_st8(const aot_conv_params *p, int32x4_t e, int32x4_t o,
                                  const aot_mve_rq *rqe, const aot_mve_rq *rqo, int8_t *out) {
  int16x8_t r = vqmovnbq_s32(vuninitializedq_s16(), aot_mve_mbqm(e, *rqe));
  r = vqmovntq_s32(r, aot_mve_mbqm(o, *rqo));
  r = vqaddq_n_s16(r, (int16_t)p->output_offset);
  r = vmaxq_s16(r, vdupq_n_s16((int16_t)p->act_min));
  r = vminq_s16(r, vdupq_n_s16((int16_t)p->act_max));
  vstrbq_s16(out, r);
}

#if AOT_F_DW_S8_CLIP && AOT_F_DW_S8_DM1   /* windows that leave the image (aot_features.h) */
/* One window of 8 channels that leaves the image: (x + input_offset) * w
 * over its valid taps, from the bias (be, bo). in_b points at the batch's
 * input + c, fc at the filter + c. */
static __attribute__((noinline)) void aot_dw_s8_mve_edge8(
    const aot_conv_params *p, const int8_t *in_b, const int8_t *fc, int32_t iy0, int32_t ix0,
    int32x4_t ae, int32x4_t ao, const aot_mve_rq *rqe, const aot_mve_rq *rqo, int8_t *out) {
  const int32_t ch = p->in_c, dh = p->dilation_h, dw = p->dilation_w;
  const size_t in_row = (size_t)p->in_w * ch;
  const size_t x_step = (size_t)dw * ch, x_rs = (size_t)dh * in_row;
  const int32_t w_rs = p->filter_w * ch;
  const int16_t in_off = (int16_t)p->input_offset;
  int32_t fy0, fy1, fx0, fx1, fy, k;
  aot_conv_window(iy0, dh, p->in_h, p->filter_h, &fy0, &fy1);
  aot_conv_window(ix0, dw, p->in_w, p->filter_w, &fx0, &fx1);
  if (fy1 > fy0 && fx1 > fx0) {
    const int8_t *ip = in_b + (size_t)(iy0 + fy0 * dh) * in_row + (size_t)(ix0 + fx0 * dw) * ch;
    const int8_t *fp = fc + (size_t)(fy0 * p->filter_w + fx0) * ch;
    for (fy = fy1 - fy0; fy > 0; fy--, ip += x_rs, fp += w_rs) {
      const int8_t *xp = ip, *wp = fp;
      for (k = fx1 - fx0; k > 0; k--, xp += x_step, wp += ch) {
        const int16x8_t x = vaddq_n_s16(vldrbq_s16(xp), in_off);
        const int16x8_t w = vldrbq_s16(wp);
        ae = vaddq_s32(ae, vmullbq_int_s16(x, w));
        ao = vaddq_s32(ao, vmulltq_int_s16(x, w));
      }
    }
  }
  aot_dw_s8_mve_st8(p, ae, ao, rqe, rqo, out);
}

/* Every output row of the clipped column ox (8 channels from c; in_c
 * points at input + c, fc at filter + c, out at output + ox * ch + c):
 * rows whose window rows lie inside the image start from
 * kb = bias + input_offset * (sum of the filter over the column's valid
 * taps) and add x * w; the others go through aot_dw_s8_mve_edge8. */
static __attribute__((noinline)) void aot_dw_s8_mve_col8(
    const aot_conv_params *p, const int8_t *in_c, const int8_t *fc, int32_t ox, int32x4_t be,
    int32x4_t bo, const aot_mve_rq *rqe, const aot_mve_rq *rqo, int8_t *out) {
  const int32_t ch = p->in_c, in_h = p->in_h, fh = p->filter_h, fw = p->filter_w;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const size_t in_row = (size_t)p->in_w * ch, x_step = (size_t)dw * ch;
  const size_t x_rs = (size_t)dh * in_row, o_rs = (size_t)p->out_w * ch;
  const int32_t ix0 = ox * p->stride_w - p->pad_w, w_rs = fw * ch;
  int32_t fx0, fx1, nfx, b, oy, fy, k;
  int32x4_t se = vdupq_n_s32(0), so = se, kbe, kbo;
  const int8_t *fp0;
  aot_conv_window(ix0, dw, p->in_w, fw, &fx0, &fx1);
  nfx = fx1 > fx0 ? fx1 - fx0 : 0;
  fp0 = fc + (size_t)fx0 * ch;
  for (fy = 0; fy < fh; fy++)
    for (k = 0; k < nfx; k++) {
      const int16x8_t w = vldrbq_s16(fp0 + (size_t)fy * w_rs + (size_t)k * ch);
      se = vaddq_s32(se, vmovlbq_s16(w));
      so = vaddq_s32(so, vmovltq_s16(w));
    }
  kbe = vmlaq_n_s32(be, se, p->input_offset);
  kbo = vmlaq_n_s32(bo, so, p->input_offset);
  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = in_c + (size_t)b * in_h * in_row;
    for (oy = 0; oy < p->out_h; oy++, out += o_rs) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      if (iy0 >= 0 && iy0 + (fh - 1) * dh < in_h) {
        const int8_t *ip = in_b + (size_t)iy0 * in_row + (size_t)(ix0 + fx0 * dw) * ch;
        const int8_t *fp = fp0;
        int32x4_t ae = kbe, ao = kbo;
        for (fy = fh; fy > 0; fy--, ip += x_rs, fp += w_rs) {
          const int8_t *xp = ip, *wp = fp;
          for (k = nfx; k > 0; k--, xp += x_step, wp += ch) {
            const int16x8_t x = vldrbq_s16(xp), w = vldrbq_s16(wp);
            ae = vaddq_s32(ae, vmullbq_int_s16(x, w));
            ao = vaddq_s32(ao, vmulltq_int_s16(x, w));
          }
        }
        aot_dw_s8_mve_st8(p, ae, ao, rqe, rqo, out);
      } else {
        aot_dw_s8_mve_edge8(p, in_b, fc, iy0, ix0, be, bo, rqe, rqo, out);
      }
    }
  }
}

/* The columns ox_lo <= ox < ox_hi (their filter columns inside the image)
 * of an output row whose window rows leave the image: kb over the valid
 * filter rows, then x * w (wpk: the block's packed filter; in_b: the batch's
 * input + c; out: the output row + c). */
static __attribute__((noinline)) void aot_dw_s8_mve_prow8(
    const aot_conv_params *p, const int8_t *in_b, const int8_t *wpk, int32_t iy0, int32_t ox_lo,
    int32_t ox_hi, int32x4_t be, int32x4_t bo, const aot_mve_rq *rqe, const aot_mve_rq *rqo,
    int8_t *out) {
  const int32_t ch = p->in_c, fw = p->filter_w, dh = p->dilation_h;
  const size_t in_row = (size_t)p->in_w * ch, x_step = (size_t)p->dilation_w * ch;
  const size_t x_rs = (size_t)dh * in_row, pos_step = (size_t)p->stride_w * ch;
  int32_t fy0, fy1, nfy, ox, fy, k;
  int32x4_t se = vdupq_n_s32(0), so = se, kbe, kbo;
  const int8_t *w0, *xr;
  aot_conv_window(iy0, dh, p->in_h, p->filter_h, &fy0, &fy1);
  nfy = fy1 > fy0 ? fy1 - fy0 : 0;
  w0 = wpk + (size_t)fy0 * fw * 8;
  for (k = 0; k < nfy * fw; k++) {
    const int16x8_t w = vldrbq_s16(w0 + 8 * k);
    se = vaddq_s32(se, vmovlbq_s16(w));
    so = vaddq_s32(so, vmovltq_s16(w));
  }
  kbe = vmlaq_n_s32(be, se, p->input_offset);
  kbo = vmlaq_n_s32(bo, so, p->input_offset);
  xr = in_b + (size_t)(iy0 + fy0 * dh) * in_row + (size_t)(ox_lo * p->stride_w - p->pad_w) * ch;
  for (ox = ox_lo; ox < ox_hi; ox++, xr += pos_step) {
    const int8_t *ip = xr, *wp = w0;
    int32x4_t ae = kbe, ao = kbo;
    for (fy = nfy; fy > 0; fy--, ip += x_rs) {
      const int8_t *xp = ip;
      for (k = fw; k > 0; k--, xp += x_step, wp += 8) {
        const int16x8_t x = vldrbq_s16(xp), w = vldrbq_s16(wp);
        ae = vaddq_s32(ae, vmullbq_int_s16(x, w));
        ao = vaddq_s32(ao, vmulltq_int_s16(x, w));
      }
    }
    aot_dw_s8_mve_st8(p, ae, ao, rqe, rqo, out + (size_t)ox * ch);
  }
}
#endif /* AOT_F_DW_S8_CLIP */

/* One filter row of two windows (inputs xa, xb; packed filter wp): x * w
 * added to the even / odd lanes of both. */
AOT_INLINE void aot_dw_s8_mve_row2(const int8_t *xa, const int8_t *xb, const int8_t *wp,
                                   size_t x_step, int32_t nfx, int32x4_t *ae0, int32x4_t *ao0,
                                   int32x4_t *ae1, int32x4_t *ao1) {
  int32_t k;
  for (k = 0; k < nfx; k++, xa += x_step, xb += x_step) {
    const int16x8_t w = vldrbq_s16(wp + 8 * k);
    int16x8_t x = vldrbq_s16(xa);
    *ae0 = vaddq_s32(*ae0, vmullbq_int_s16(x, w));
    *ao0 = vaddq_s32(*ao0, vmulltq_int_s16(x, w));
    x = vldrbq_s16(xb);
    *ae1 = vaddq_s32(*ae1, vmullbq_int_s16(x, w));
    *ao1 = vaddq_s32(*ao1, vmulltq_int_s16(x, w));
  }
}

/* filters of at most this many taps take the 8-channel blocks (their
 * block's filter packed on the stack, 8 bytes per tap) */
#define AOT_DW_MVE_TAPS 64

#if AOT_F_DW_S8_DM1   /* depth multiplier 1 (aot_features.h) */
/* Depth multiplier 1, one block of 8 channels from c over every output
 * position (the block's constants stay out of the position loop):
 * kb = bias + input_offset * (sum of the filter over all taps); windows
 * inside the image add x * w, two output positions at a time (one filter
 * load feeds both); the others go through aot_dw_s8_mve_edge8 (from the
 * bias, valid taps only). */
static __attribute__((noinline)) void aot_dw_s8_mve_blk8(const aot_conv_params *p,
                                                         const int8_t *input,
                                                         const int8_t *filter,
                                                         const int32_t *bias, int32_t c,
                                                         int8_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, ch = p->in_c;
  const int32_t fh = p->filter_h, fw = p->filter_w, sw = p->stride_w;
  const int32_t dh = p->dilation_h, dw = p->dilation_w, out_w = p->out_w;
  const size_t in_row = (size_t)in_w * ch, x_step = (size_t)dw * ch, x_rs = (size_t)dh * in_row;
  const size_t pos_step = (size_t)sw * ch, out_step = (size_t)ch;
  const int32x4x2_t m = vld2q_s32(p->out_mult + c), sh = vld2q_s32(p->out_shift + c);
  const aot_mve_rq rqe = aot_mve_rq_make(m.val[0], sh.val[0]);
  const aot_mve_rq rqo = aot_mve_rq_make(m.val[1], sh.val[1]);
  const int8_t *const fc = filter + c;
  int8_t wpk[AOT_DW_MVE_TAPS * 8];   /* the block's filter, 8 bytes per tap */
  int32x4_t be = vdupq_n_s32(0), bo = be, se = be, so = be, kbe, kbo;
  int32_t b, oy, ox, k, ox_lo, ox_hi, lim, fy;

  if (bias) {
    const int32x4x2_t bv = vld2q_s32(bias + c);
    be = bv.val[0];
    bo = bv.val[1];
  }
  for (k = 0; k < fh * fw; k++) {   /* filter sums, even / odd channels; packed filter */
    const int16x8_t w = vldrbq_s16(fc + (size_t)k * ch);
    vstrbq_s16(wpk + 8 * k, w);
    se = vaddq_s32(se, vmovlbq_s16(w));
    so = vaddq_s32(so, vmovltq_s16(w));
  }
  kbe = vmlaq_n_s32(be, se, p->input_offset);
  kbo = vmlaq_n_s32(bo, so, p->input_offset);
  /* columns ox_lo <= ox < ox_hi have every filter column inside the image */
  ox_lo = (p->pad_w + sw - 1) / sw;
  if (ox_lo > out_w) ox_lo = out_w;
  lim = in_w - 1 - (fw - 1) * dw + p->pad_w;
  ox_hi = lim < 0 ? 0 : lim / sw + 1;
  if (ox_hi > out_w) ox_hi = out_w;
  if (ox_hi < ox_lo) ox_hi = ox_lo;
  output += c;
  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + (size_t)b * in_h * in_row + c;
    for (oy = 0; oy < p->out_h; oy++, output += (size_t)out_w * ch) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      const int rows_in = iy0 >= 0 && iy0 + (fh - 1) * dh < in_h;
      const int32_t hi = rows_in ? ox_hi : ox_lo;
#if AOT_F_DW_S8_CLIP
      /* the clipped columns ox < ox_lo, ox >= ox_hi: aot_dw_s8_mve_col8 */
      if (!rows_in && ox_lo < ox_hi)
        aot_dw_s8_mve_prow8(p, in_b, wpk, iy0, ox_lo, ox_hi, be, bo, &rqe, &rqo, output);
#endif
      ox = ox_lo;
      if (ox < hi) {   /* the windows inside the image, two at a time */
        const int8_t *xr = in_b + (size_t)iy0 * in_row + (size_t)(ox * sw - p->pad_w) * ch;
        int8_t *out = output + (size_t)ox * out_step;
        for (; ox + 2 <= hi; ox += 2, xr += 2 * pos_step, out += 2 * out_step) {
          const int8_t *ip = xr, *wp = wpk;
          int32x4_t ae0 = kbe, ao0 = kbo, ae1 = kbe, ao1 = kbo;
          for (fy = fh; fy > 0; fy--, ip += x_rs, wp += 8 * fw)
            aot_dw_s8_mve_row2(ip, ip + pos_step, wp, x_step, fw, &ae0, &ao0, &ae1, &ao1);
          aot_dw_s8_mve_st8(p, ae0, ao0, &rqe, &rqo, out);
          aot_dw_s8_mve_st8(p, ae1, ao1, &rqe, &rqo, out + out_step);
        }
        if (ox < hi) {
          const int8_t *ip = xr, *wp = wpk;
          int32x4_t ae0 = kbe, ao0 = kbo;
          for (fy = fh; fy > 0; fy--, ip += x_rs) {
            const int8_t *xa = ip;
            for (k = fw; k > 0; k--, xa += x_step, wp += 8) {
              const int16x8_t w = vldrbq_s16(wp), x = vldrbq_s16(xa);
              ae0 = vaddq_s32(ae0, vmullbq_int_s16(x, w));
              ao0 = vaddq_s32(ao0, vmulltq_int_s16(x, w));
            }
          }
          aot_dw_s8_mve_st8(p, ae0, ao0, &rqe, &rqo, out);
          ox++;
        }
      }
    }
  }
#if AOT_F_DW_S8_CLIP
  output -= (size_t)p->batches * p->out_h * out_w * ch;
  for (ox = 0; ox < out_w; ox = ox + 1 == ox_lo ? ox_hi : ox + 1)
    if (ox < ox_lo || ox >= ox_hi)
      aot_dw_s8_mve_col8(p, input + c, fc, ox, be, bo, &rqe, &rqo, output + (size_t)ox * out_step);
#endif
}
#endif /* AOT_F_DW_S8_DM1 */

/* One block of n (1..8) output channels from c over every output position,
 * any depth multiplier (filters past AOT_DW_MVE_TAPS taps: n == 8): lane i
 * reads input channel (c + i) / dm with one gather load (VLDRB.S16 with
 * offsets; lanes past n read input channel c / dm again and are not
 * stored), the block's filter packed on the stack with zeros past n,
 * VMULLB / VMULLT into int32 lanes. Windows inside the image start from
 * kb = bias + input_offset * (filter sum) and add x * w; clipped windows add
 * (x + input_offset) * w over their valid taps from the bias. */
AOT_INLINE void aot_dw_s8_mve_g8_body(const aot_conv_params *p, const int8_t *input,
                                      const int8_t *filter, const int32_t *bias, int32_t c,
                                      int32_t n, int8_t *output, const int packed) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c, out_c = p->out_c;
  const int32_t fh = p->filter_h, fw = p->filter_w, dm = p->depth_multiplier;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const size_t in_row = (size_t)in_w * in_c, x_step = (size_t)dw * in_c;
  const size_t x_rs = (size_t)dh * in_row;
  const int32_t ic = c / dm;
  const mve_pred16_t pn = vctp16q((uint32_t)n);
  const int16_t in_off = (int16_t)p->input_offset;
  int8_t wpk[AOT_DW_MVE_TAPS * 8];   /* the block's filter, 8 bytes per tap */
  /* packed == 0 (larger filters, then n == 8): read in place, out_c bytes per tap */
  const size_t ws = packed ? 8 : (size_t)out_c;
  const int8_t *const wf = packed ? wpk : filter + c;
  int32_t mb[8], sb[8], bb[8];
  uint16_t ob[8];
  int32x4_t be, bo, se = vdupq_n_s32(0), so = se, kbe, kbo;
  int32x4x2_t v;
  aot_mve_rq rqe, rqo;
  uint16x8_t offs;
  int32_t i, b, oy, ox, fy, k;

  for (i = 0; i < 8; i++) {
    mb[i] = i < n ? p->out_mult[c + i] : 0;
    sb[i] = i < n ? p->out_shift[c + i] : 0;
    bb[i] = i < n && bias ? bias[c + i] : 0;
    ob[i] = (uint16_t)(i < n ? (c + i) / dm - ic : 0);
  }
  offs = vld1q_u16(ob);
  v = vld2q_s32(mb);
  {
    const int32x4x2_t sv = vld2q_s32(sb);
    rqe = aot_mve_rq_make(v.val[0], sv.val[0]);
    rqo = aot_mve_rq_make(v.val[1], sv.val[1]);
  }
  v = vld2q_s32(bb);
  be = v.val[0];
  bo = v.val[1];
  for (k = 0; k < fh * fw; k++) {   /* packed filter (zeros past n) and its sums */
    const int16x8_t w = vldrbq_z_s16(filter + (size_t)k * out_c + c, pn);
    if (packed) vstrbq_s16(wpk + 8 * k, w);
    se = vaddq_s32(se, vmovlbq_s16(w));
    so = vaddq_s32(so, vmovltq_s16(w));
  }
  kbe = vmlaq_n_s32(be, se, p->input_offset);
  kbo = vmlaq_n_s32(bo, so, p->input_offset);
  output += c;
  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + (size_t)b * in_h * in_row + ic;
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++, output += out_c) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1;
        int32x4_t ae, ao;
        int16x8_t r;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        if (fy0 == 0 && fy1 == fh && fx0 == 0 && fx1 == fw) {
          const int8_t *ip = in_b + (size_t)iy0 * in_row + (size_t)ix0 * in_c, *wp = wf;
          ae = kbe;
          ao = kbo;
          for (fy = fh; fy > 0; fy--, ip += x_rs) {
            const int8_t *xp = ip;
            for (k = fw; k > 0; k--, xp += x_step, wp += ws) {
              const int16x8_t x = vldrbq_gather_offset_s16(xp, offs), w = vldrbq_s16(wp);
              ae = vaddq_s32(ae, vmullbq_int_s16(x, w));
              ao = vaddq_s32(ao, vmulltq_int_s16(x, w));
            }
          }
        } else {
          ae = be;
          ao = bo;
          if (fy1 > fy0 && fx1 > fx0) {
            const int8_t *ip =
                in_b + (size_t)(iy0 + fy0 * dh) * in_row + (size_t)(ix0 + fx0 * dw) * in_c;
            const int8_t *wr = wf + (size_t)(fy0 * fw + fx0) * ws;
            for (fy = fy1 - fy0; fy > 0; fy--, ip += x_rs, wr += ws * fw) {
              const int8_t *xp = ip, *wp = wr;
              for (k = fx1 - fx0; k > 0; k--, xp += x_step, wp += ws) {
                const int16x8_t x = vaddq_n_s16(vldrbq_gather_offset_s16(xp, offs), in_off);
                const int16x8_t w = vldrbq_s16(wp);
                ae = vaddq_s32(ae, vmullbq_int_s16(x, w));
                ao = vaddq_s32(ao, vmulltq_int_s16(x, w));
              }
            }
          }
        }
        r = vqmovnbq_s32(vuninitializedq_s16(), aot_mve_mbqm(ae, rqe));
        r = vqmovntq_s32(r, aot_mve_mbqm(ao, rqo));
        r = vqaddq_n_s16(r, (int16_t)p->output_offset);
        r = vmaxq_s16(r, vdupq_n_s16((int16_t)p->act_min));
        r = vminq_s16(r, vdupq_n_s16((int16_t)p->act_max));
        vstrbq_p_s16(output, r, pn);
      }
    }
  }
}

#if AOT_F_DW_S8_DM || AOT_F_DW_S8_FEW   /* the gather path (aot_features.h) */
/* aot_dw_s8_mve_g8_body with the filter's tap stride a constant */
static __attribute__((noinline)) void aot_dw_s8_mve_g8(const aot_conv_params *p,
                                                       const int8_t *input,
                                                       const int8_t *filter,
                                                       const int32_t *bias, int32_t c,
                                                       int32_t n, int8_t *output) {
  if (p->filter_h * p->filter_w <= AOT_DW_MVE_TAPS)
    aot_dw_s8_mve_g8_body(p, input, filter, bias, c, n, output, 1);
  else
    aot_dw_s8_mve_g8_body(p, input, filter, bias, c, n, output, 0);
}
#endif

#if AOT_F_DW_S8_CLIP && AOT_F_DW_S8_DM1   /* small padded images */
/* small images: the padded block of 8 channels fits this many bytes */
#define AOT_DW_MVE_SMALL 2048

/* Depth multiplier 1, one block of 8 channels from c of a small image (its
 * zero-padded block, 8 bytes per position, at most AOT_DW_MVE_SMALL bytes):
 * the block is copied into xp with the padding set to the input zero point
 * (x + input_offset = 0 there, so those taps add nothing to
 * sum w * (x + input_offset)), then every output position takes the
 * interior path: kb = bias + input_offset * (sum of the filter) plus x * w
 * over all taps, two positions at a time. The clipped-edge paths would
 * otherwise cover most positions of such images. */
static __attribute__((noinline)) void aot_dw_s8_mve_small8(const aot_conv_params *p,
                                                           const int8_t *input,
                                                           const int8_t *filter,
                                                           const int32_t *bias, int32_t c,
                                                           int32_t ph, int32_t pw,
                                                           int8_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, ch = p->in_c;
  const int32_t fh = p->filter_h, fw = p->filter_w, sw = p->stride_w;
  const int32_t out_w = p->out_w;
  const size_t prow = (size_t)pw * 8, x_step = (size_t)p->dilation_w * 8;
  const size_t x_rs = (size_t)p->dilation_h * prow, pos_step = (size_t)sw * 8;
  const size_t out_step = (size_t)ch;
  const int32x4x2_t m = vld2q_s32(p->out_mult + c), sh = vld2q_s32(p->out_shift + c);
  const aot_mve_rq rqe = aot_mve_rq_make(m.val[0], sh.val[0]);
  const aot_mve_rq rqo = aot_mve_rq_make(m.val[1], sh.val[1]);
  const int8x16_t zp = vdupq_n_s8((int8_t)-p->input_offset);
  int8_t wpk[AOT_DW_MVE_TAPS * 8];   /* the block's filter, 8 bytes per tap */
  int8_t xpad[AOT_DW_MVE_SMALL];     /* the block's padded input, 8 bytes per position */
  int32x4_t be = vdupq_n_s32(0), bo = be, se = be, so = be, kbe, kbo;
  int32_t b, oy, ox, k, fy, iy, ix;

  if (bias) {
    const int32x4x2_t bv = vld2q_s32(bias + c);
    be = bv.val[0];
    bo = bv.val[1];
  }
  for (k = 0; k < fh * fw; k++) {
    const int16x8_t w = vldrbq_s16(filter + c + (size_t)k * ch);
    vstrbq_s16(wpk + 8 * k, w);
    se = vaddq_s32(se, vmovlbq_s16(w));
    so = vaddq_s32(so, vmovltq_s16(w));
  }
  kbe = vmlaq_n_s32(be, se, p->input_offset);
  kbo = vmlaq_n_s32(bo, so, p->input_offset);
  for (k = 0; k + 16 <= ph * pw * 8; k += 16) vst1q_s8(xpad + k, zp);
  if (k < ph * pw * 8) vstrbq_p_s8(xpad + k, zp, vctp8q((uint32_t)(ph * pw * 8 - k)));
  output += c;
  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + (size_t)b * in_h * in_w * ch + c;
    for (iy = 0; iy < in_h; iy++) {
      int8_t *d = xpad + (size_t)(iy + p->pad_h) * prow + (size_t)p->pad_w * 8;
      const int8_t *sp = in_b + (size_t)iy * in_w * ch;
      for (ix = 0; ix < in_w; ix++, d += 8, sp += ch) vstrbq_s16(d, vldrbq_s16(sp));
    }
    for (oy = 0; oy < p->out_h; oy++, output += (size_t)out_w * ch) {
      const int8_t *xr = xpad + (size_t)(oy * p->stride_h) * prow;
      int8_t *out = output;
      for (ox = 0; ox + 2 <= out_w; ox += 2, xr += 2 * pos_step, out += 2 * out_step) {
        const int8_t *ip = xr, *wp = wpk;
        int32x4_t ae0 = kbe, ao0 = kbo, ae1 = kbe, ao1 = kbo;
        for (fy = fh; fy > 0; fy--, ip += x_rs, wp += 8 * fw)
          aot_dw_s8_mve_row2(ip, ip + pos_step, wp, x_step, fw, &ae0, &ao0, &ae1, &ao1);
        aot_dw_s8_mve_st8(p, ae0, ao0, &rqe, &rqo, out);
        aot_dw_s8_mve_st8(p, ae1, ao1, &rqe, &rqo, out + out_step);
      }
      if (ox < out_w) {
        const int8_t *ip = xr, *wp = wpk;
        int32x4_t ae0 = kbe, ao0 = kbo;
        for (fy = fh; fy > 0; fy--, ip += x_rs) {
          const int8_t *xa = ip;
          for (k = fw; k > 0; k--, xa += x_step, wp += 8) {
            const int16x8_t w = vldrbq_s16(wp), x = vldrbq_s16(xa);
            ae0 = vaddq_s32(ae0, vmullbq_int_s16(x, w));
            ao0 = vaddq_s32(ao0, vmulltq_int_s16(x, w));
          }
        }
        aot_dw_s8_mve_st8(p, ae0, ao0, &rqe, &rqo, out);
      }
    }
  }
}
#endif /* AOT_F_DW_S8_CLIP */

#if AOT_F_DW_S8_BIG && AOT_F_DW_S8_DM1
/* depth multiplier 1, filters past AOT_DW_MVE_TAPS taps: int32 lanes of
 * four channels with lane predicates */
static __attribute__((noinline)) void aot_dw_s8_mve_dm1_big(const aot_conv_params *p,
                                                            const int8_t *input,
                                                            const int8_t *filter,
                                                            const int32_t *bias, int8_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, ch = p->in_c;
  const int32_t fh = p->filter_h, fw = p->filter_w;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const size_t in_row = (size_t)in_w * ch, x_step = (size_t)dw * ch, x_rs = (size_t)dh * in_row;
  const int32_t w_rs = fw * ch, c8 = 0;
  const uint32x4_t no_offs = vdupq_n_u32(0);
  int32_t b, oy, ox, c;

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
#endif /* AOT_F_DW_S8_BIG */

#if AOT_F_DW_S8_DM1   /* depth multiplier 1 (aot_features.h) */
/* depth multiplier 1: blocks of 8 channels, then the last 1..7 channels;
 * AOT_KERNEL_BAD_PARAM for a path the module left out (aot_features.h) */
static int32_t aot_dw_s8_mve_dm1(const aot_conv_params *p, const int8_t *input,
                              const int8_t *filter, const int32_t *bias, int8_t *output) {
  const int32_t ch = p->in_c, c8 = ch & ~7;
  int32_t c;
#if AOT_F_DW_S8_CLIP
  const int32_t fh = p->filter_h, fw = p->filter_w;
  /* the padded image's height and width (covering every window) */
  const int32_t ph = aot_max_i32(p->in_h + p->pad_h,
                                 (p->out_h - 1) * p->stride_h + (fh - 1) * p->dilation_h + 1);
  const int32_t pw = aot_max_i32(p->in_w + p->pad_w,
                                 (p->out_w - 1) * p->stride_w + (fw - 1) * p->dilation_w + 1);
  const int small = (p->pad_h > 0 || p->pad_w > 0) && (int64_t)ph * pw * 8 <= AOT_DW_MVE_SMALL;
#endif

  if (p->filter_h * p->filter_w > AOT_DW_MVE_TAPS) {
#if AOT_F_DW_S8_BIG
    aot_dw_s8_mve_dm1_big(p, input, filter, bias, output);
    return AOT_KERNEL_OK;
#else
    return AOT_KERNEL_BAD_PARAM;
#endif
  }
  if (c8 == 0) {   /* fewer than 8 channels */
#if AOT_F_DW_S8_FEW
    aot_dw_s8_mve_g8(p, input, filter, bias, 0, ch, output);
    return AOT_KERNEL_OK;
#else
    return AOT_KERNEL_BAD_PARAM;
#endif
  }
  for (c = 0; c < c8; c += 8)
#if AOT_F_DW_S8_CLIP
    if (small)
      aot_dw_s8_mve_small8(p, input, filter, bias, c, ph, pw, output);
    else
#endif
      aot_dw_s8_mve_blk8(p, input, filter, bias, c, output);
  if (c8 == ch) return AOT_KERNEL_OK;
  /* the last 1..7 channels: a block of the last 8 (recomputes a few) */
#if AOT_F_DW_S8_CLIP
  if (small)
    aot_dw_s8_mve_small8(p, input, filter, bias, ch - 8, ph, pw, output);
  else
#endif
    aot_dw_s8_mve_blk8(p, input, filter, bias, ch - 8, output);
  return AOT_KERNEL_OK;
}
#endif /* AOT_F_DW_S8_DM1 */

#if AOT_F_DW_S8_DM   /* depth multiplier above 1 (aot_features.h) */
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

  if (fh * fw <= AOT_DW_MVE_TAPS || out_c % 8 == 0) {   /* blocks of 8, the last predicated */
    for (b = 0; b < out_c; b += 8)
      aot_dw_s8_mve_g8(p, input, filter, bias, b, out_c - b < 8 ? out_c - b : 8, output);
    return;
  }
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
#endif /* AOT_F_DW_S8_DM */

#endif /* AOT_MVE */

#endif
