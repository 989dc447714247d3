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

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(AOT_NO_SIMD)
/* Arm Helium (MVE, Cortex-M55): see aot_conv2d_s8_mve below. */
#include "aot_mve.h"
#define AOT_CONV2D_S8_MVE 1
/* bytes of the on-stack window copy (im2col of one output position) */
#define AOT_CONV2D_S8_COL 1024
#elif defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32) && !defined(AOT_NO_SIMD)
/* Arm DSP extension (Cortex-M4F/M7/M33): see aot_conv2d_s8_dsp below; the
 * portable loop below keeps an SXTB16 + SADD16 + SMLAD inner loop for
 * filters larger than the window copy. */
#include <arm_acle.h>
#include <string.h>
#include "aot_dsp.h"
#include "aot_conv_pw_dsp.h"
#include "aot_dsp_conv4.h"
#include "aot_conv_first.h"
#define AOT_CONV2D_S8_DSP 1
#define AOT_CONV2D_S8_COL 1024
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

#ifdef AOT_CONV2D_S8_MVE
/* Helium. sum w * (x + input_offset) + bias is computed as sum w * x plus a
 * per-channel constant ks = bias + input_offset * sum w (the whole filter;
 * p->kbias when aotc computed it); int32 arithmetic is modular, so the
 * result is the portable sum. For filters of up to AOT_CONV2D_S8_COL taps
 * (the plan: aot_conv2d_s8_mve_plan_of in aot_conv.h, whose scratch the
 * caller gives):
 *  - the filters of a block of cb output channels are packed into the
 *    scratch, four at a time, in the order aot_mve_pass4_s8 loads them
 *    (aot_mve_pack4_s8), with their constants (ks, multiplier, left and
 *    right shift; channels past the block's end zero);
 *  - per output position the taps form one row of fsize values in filter
 *    order: the input itself when the window is one unclipped run (1 x fw
 *    filter, dilation_w 1 or fw 1, no padding, one group), else copied into
 *    the scratch (im2col, np positions at a time, rows 16-byte padded) with
 *    taps outside the image set to the input zero point zp = -input_offset
 *    (an int8): they add w * zp + input_offset * w = 0, the same sum as
 *    skipping them;
 *  - per four output channels, one assembly pass over the pairs of rows
 *    (aot_mve_pass4_s8: 6 loads and 8 VMLADAVA.S8 per 16 taps, the eight
 *    sums from ks by LDM, out by STM into int32; rows of at most 16 taps
 *    with the filters in registers, aot_mve_pass4_short_s8), then one
 *    requantization pass over those sums with the channels' constants in
 *    registers.
 * Larger filters walk the window's runs with aot_mve_dot4_s8 (which adds the
 * input offset itself), then bias. Requantization aot_mve_out_s8,
 * bit-identical to aot_conv_mbqm. */

/* im2col of the window at (iy0, ix0), group g, into col (fsize bytes) */
static __attribute__((noinline)) void aot_conv2d_s8_col(const aot_conv_params *p,
                                                        const int8_t *in_b, int32_t iy0,
                                                        int32_t ix0, int32_t fy0, int32_t fy1,
                                                        int32_t fx0, int32_t fx1, int32_t g,
                                                        int32_t groups, int8_t zp, int8_t *c) {
  const int32_t fh = p->filter_h, fw = p->filter_w, fic = p->filter_in_c, in_c = p->in_c;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const size_t in_row = (size_t)p->in_w * in_c;
  int32_t fy, fx;
#if !AOT_F_CONV_S8_CLIP
  /* every window inside the image, dilation_w 1, one group (aot_features.h;
     aot_conv2d_s8_mve refuses the rest) */
  (void)fy0, (void)fy1, (void)fx0, (void)fx1, (void)g, (void)groups, (void)zp, (void)fx, (void)dw;
#else
  if (dw == 1 && groups == 1 && fy0 == 0 && fy1 == fh && fx0 == 0 && fx1 == fw)
#endif
  {
    /* inside the image: one run per filter row */
    const int8_t *row = in_b + (size_t)iy0 * in_row + (size_t)ix0 * in_c;
    for (fy = 0; fy < fh; fy++, c += fw * fic, row += (size_t)dh * in_row)
      aot_mve_copy_run_s8(c, row, fw * fic);
    return;
  }
#if AOT_F_CONV_S8_CLIP
  if (dw == 1 && groups == 1) {
    /* clipped: zero points everywhere, then the valid run of each valid row */
    aot_mve_fill_s8(c, zp, fh * fw * fic);
    if (fx1 > fx0)
      for (fy = fy0; fy < fy1; fy++)
        aot_mve_copy_run_s8(c + (fy * fw + fx0) * fic,
                            in_b + (size_t)(iy0 + fy * dh) * in_row + (size_t)(ix0 + fx0) * in_c,
                            (fx1 - fx0) * fic);
    return;
  }
  for (fy = 0; fy < fh; fy++) {
    const int8_t *row;
    if (fy < fy0 || fy >= fy1 || fx1 <= fx0) {
      aot_mve_fill_s8(c, zp, fw * fic);
      c += fw * fic;
      continue;
    }
    row = in_b + (size_t)(iy0 + fy * dh) * in_row + (size_t)g * fic;
    if (dw == 1) {
      aot_mve_fill_s8(c, zp, fx0 * fic);
      if (groups == 1) {
        aot_mve_copy_run_s8(c + fx0 * fic, row + (size_t)(ix0 + fx0) * in_c, (fx1 - fx0) * fic);
      } else {
        for (fx = fx0; fx < fx1; fx++)
          aot_mve_copy_run_s8(c + fx * fic, row + (size_t)(ix0 + fx) * in_c, fic);
      }
      aot_mve_fill_s8(c + fx1 * fic, zp, (fw - fx1) * fic);
    } else {
      for (fx = 0; fx < fw; fx++) {
        if (fx < fx0 || fx >= fx1)
          aot_mve_fill_s8(c + fx * fic, zp, fic);
        else
          aot_mve_copy_run_s8(c + fx * fic, row + (size_t)(ix0 + fx * dw) * in_c, fic);
      }
    }
    c += fw * fic;
  }
#endif
}

/* sum of w * (x + input_offset) over the clipped window, by runs */
static int32x4_t aot_conv2d_s8_runs(const aot_conv_params *p, const int8_t *in_b, int32_t iy0,
                                    int32_t ix0, int32_t fy0, int32_t fy1, int32_t fx0,
                                    int32_t fx1, int32_t g, int32_t groups, const int8_t *w,
                                    int32_t nw) {
  const int32_t fw = p->filter_w, fic = p->filter_in_c, in_c = p->in_c;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const size_t in_row = (size_t)p->in_w * in_c;
  int32x4_t acc = vdupq_n_s32(0);
  aot_mve_dot_shape sh;
  const int8_t *xw, *ww;
  sh.fstride = p->filter_h * fw * fic;
  sh.nw = nw;
  if (fy1 <= fy0 || fx1 <= fx0) return acc;
  xw = in_b + (size_t)(iy0 + fy0 * dh) * in_row + (size_t)(ix0 + fx0 * dw) * in_c +
       (size_t)g * fic;
  ww = w + (fy0 * fw + fx0) * fic;
  if (dw == 1 && groups == 1) {   /* one run of taps per filter row */
    sh.len = (fx1 - fx0) * fic;
    sh.nrows = fy1 - fy0;
    sh.x_rs = dh * (int32_t)in_row;
    sh.w_rs = fw * fic;
    return aot_mve_dot4_s8(xw, ww, &sh, p->input_offset);
  } else {                        /* one run per tap */
    int32_t fy;
    sh.len = fic;
    sh.nrows = fx1 - fx0;
    sh.x_rs = dw * in_c;
    sh.w_rs = fic;
    for (fy = fy0; fy < fy1; fy++) {
      acc = vaddq_s32(acc, aot_mve_dot4_s8(xw, ww, &sh, p->input_offset));
      xw += (size_t)dh * in_row;
      ww += fw * fic;
    }
  }
  return acc;
}

/* Requantizes cnt positions x four channels of acc (the int32 sums of
 * aot_mve_pass4_s8; constants cst: multiplier, left and right shift, cb
 * entries apart) into out + i * out_rs, the first nsub channels. */
static __attribute__((noinline)) void aot_conv2d_s8_mve_rq(const int32_t *acc, int32_t cnt,
                                                           const int32_t *cst, int32_t cb,
                                                           int8_t *out, size_t out_rs,
                                                           int32_t nsub, int32_t out_off,
                                                           int32_t lo, int32_t hi) {
  aot_mve_rq rq;
  int32_t i;
  rq.mult = vldrwq_s32(cst + cb);
  rq.lsh = vldrwq_s32(cst + 2 * cb);
  rq.rsh = vldrwq_s32(cst + 3 * cb);
  if (nsub == 4 && vmaxvq_s32(0, rq.lsh) == 0) {
    /* no left shift in the four channels (the usual case): VSHL by 0 is
       the identity, left out */
    for (i = 0; i < cnt; i++, acc += 4, out += out_rs)
      vstrbq_s32(out, aot_mve_clamp_out(aot_mve_mbqm_nl(vldrwq_s32(acc), rq), out_off, lo, hi));
  } else if (nsub == 4) {
    for (i = 0; i < cnt; i++, acc += 4, out += out_rs)
      vstrbq_s32(out, aot_mve_out_s8(vldrwq_s32(acc), rq, out_off, lo, hi));
  } else {
    const mve_pred16_t p4 = vctp32q((uint32_t)nsub);
    for (i = 0; i < cnt; i++, acc += 4, out += out_rs)
      vstrbq_p_s32(out, aot_mve_out_s8(vldrwq_s32(acc), rq, out_off, lo, hi), p4);
  }
}

/* aot_conv2d_s8_mve_sums (below) for rows of at most 16 taps, by
 * aot_mve_pass4_short_s8 (its own function: the filters in registers would
 * cost the other loops their registers) */
static __attribute__((noinline)) void aot_conv2d_s8_mve_sums16(const int8_t *x, size_t xs,
                                                               int32_t cnt, int32_t *st,
                                                               int32_t *acc, int odd_ok) {
  const int32_t even = odd_ok ? (cnt + 1) & ~1 : cnt & ~1;
  st[7] = (int32_t)(2 * xs);
  if (even > 0) {
    st[8] = (int32_t)(intptr_t)(acc + 4 * even);
    aot_mve_pass4_short_s8(x, x + xs, acc, st);
  }
  if (even < cnt) {
    const int8_t *xl = x + (size_t)even * xs;
    st[8] = (int32_t)(intptr_t)(acc + 4 * even + 8);
    aot_mve_pass4_short_s8(xl, xl, acc + 4 * even, st);
  }
}

/* Sums of cnt rows x + i * xs (cnt <= the plan's na) with the four packed
 * filters of st (aot_mve_pass4_s8; st[7] is set here) into acc (rows of
 * more than 16 taps; aot_conv2d_s8_mve_sums16 takes the others). odd_ok: a
 * row after the last one may be read (an odd last row is paired with it),
 * else it is paired with itself. */
static __attribute__((noinline)) void aot_conv2d_s8_mve_sums(const int8_t *x, size_t xs,
                                                             int32_t cnt, int32_t *st,
                                                             int32_t *acc, int tail,
                                                             int odd_ok) {
  const int32_t even = odd_ok ? (cnt + 1) & ~1 : cnt & ~1;
  st[7] = (int32_t)(2 * xs) - 16 * st[4];
  if (even > 0) {
    st[8] = (int32_t)(intptr_t)(acc + 4 * even);
    if (tail)
      aot_mve_pass4_s8(x, x + xs, acc, st, 1);
    else
      aot_mve_pass4_s8(x, x + xs, acc, st, 0);
  }
  if (even < cnt) {
    const int8_t *xl = x + (size_t)even * xs;
    st[8] = (int32_t)(intptr_t)(acc + 4 * even + 8);
    if (tail)
      aot_mve_pass4_s8(xl, xl, acc + 4 * even, st, 1);
    else
      aot_mve_pass4_s8(xl, xl, acc + 4 * even, st, 0);
  }
}

/* im2col of the cnt output positions from linear position pos (batch,
 * row, column) into col, rows k16 bytes apart: windows inside the image
 * (dilation_w 1, one group) as fh runs of fw * in_c taps, the others by
 * aot_conv2d_s8_col. Positions are walked along output rows, so the row
 * check is made once per row. */
static __attribute__((noinline)) void aot_conv2d_s8_mve_im2col(const aot_conv_params *p,
                                                               const int8_t *input, int32_t pos,
                                                               int32_t cnt, int32_t g,
                                                               int32_t groups, int8_t *col,
                                                               int32_t k16) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c, out_h = p->out_h;
  const int32_t out_w = p->out_w, fh = p->filter_h, fw = p->filter_w, fic = p->filter_in_c;
  const int32_t dh = p->dilation_h, dw = p->dilation_w, sw = p->stride_w;
  const size_t in_row = (size_t)in_w * in_c, dstep = (size_t)dh * in_row;
  const int fast = dw == 1 && groups == 1;
  const int32_t ylast = in_h - 1 - (fh - 1) * dh, xlast = in_w - fw, rl = fw * fic;
  const int8_t zp = (int8_t)(-p->input_offset);
  int32_t b = pos / (out_h * out_w), oy = pos % (out_h * out_w) / out_w, ox = pos % out_w;
  while (cnt > 0) {
    const int32_t n = out_w - ox < cnt ? out_w - ox : cnt;
    const int32_t iy0 = oy * p->stride_h - p->pad_h;
    const int8_t *in_b = input + (size_t)b * in_h * in_row;
    const int row_in = fast && iy0 >= 0 && iy0 <= ylast;
    const int8_t *src = in_b + (row_in ? (size_t)iy0 * in_row : 0);
    int32_t j, ix0 = ox * sw - p->pad_w;
    for (j = 0; j < n; j++, ix0 += sw, col += k16) {
      if (row_in && ix0 >= 0 && ix0 <= xlast) {
        const int8_t *q = src + (size_t)ix0 * in_c;
        int8_t *c = col;
        int32_t fy;
        for (fy = 0; fy < fh; fy++, c += rl, q += dstep) aot_mve_copy_run_s8(c, q, rl);
      } else {
        int32_t fy0, fy1, fx0, fx1;
        aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        aot_conv2d_s8_col(p, in_b, iy0, ix0, fy0, fy1, fx0, fx1, g, groups, zp, col);
      }
    }
    cnt -= n;
    ox = 0;
    if (++oy == out_h) {
      oy = 0;
      b++;
    }
  }
}

/* The constants of the cb channels from oc0 (nc of them real) as the
 * passes and aot_conv2d_s8_mve_rq read them: ks = bias + input_offset *
 * sum w (aotc's kbias when given; f: channel oc0's filter of fsize taps),
 * multiplier, left and right shift, each cb entries apart; channels past nc
 * zero. */
AOT_INLINE void aot_conv2d_s8_mve_consts(const aot_conv_params *p, const int8_t *f,
                                         const int32_t *bias, int32_t oc0, int32_t nc,
                                         int32_t cb, int32_t fsize, int32_t *cst) {
  int32_t j;
  for (j = 0; j < cb; j++) {
    int32_t ks = 0, m = 0, sh = 0;
    if (j < nc) {
      const int32_t oc = oc0 + j;
      if (p->kbias) {
        ks = p->kbias[oc];
      } else {
        const uint32_t t = (uint32_t)aot_mve_sum_s8(f + (size_t)j * fsize, fsize);
        ks = (int32_t)((bias ? (uint32_t)bias[oc] : 0u) + t * (uint32_t)p->input_offset);
      }
      m = p->out_mult[oc];
      sh = p->out_shift[oc];
    }
    cst[j] = ks;
    cst[cb + j] = m;
    cst[2 * cb + j] = sh > 0 ? sh : 0;
    cst[3 * cb + j] = sh < 0 ? sh : 0;
  }
}

/* layers of 1-4 input channels: aot_conv_first_mve.h (uses the passes
   above), in modules with such a layer (aot_features.h) */
#if AOT_F_CONV_S8_FMVE
#include "aot_conv_first_mve.h"
#endif

static int32_t aot_conv2d_s8_mve(const aot_conv_params *p, const int8_t *input,
                                 const int8_t *filter, const int32_t *bias, int8_t *output,
                                 void *scratch) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c;
  const int32_t out_h = p->out_h, out_w = p->out_w, out_c = p->out_c;
  const int32_t fh = p->filter_h, fw = p->filter_w, fic = p->filter_in_c;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const int32_t out_off = p->output_offset;
  const int32_t act_min = p->act_min, act_max = p->act_max;
  const int32_t fsize = fh * fw * fic;
  const size_t in_row = (size_t)in_w * in_c;
  int32_t groups, per_group, g, c0;
  aot_conv2d_s8_mve_plan pl;
  size_t wbytes;

#if AOT_F_CONV_S8_FMVE
  if (aot_conv2d_s8_fmve_fits(p))
    return aot_conv2d_s8_first_mve(p, input, filter, bias, output, scratch);
#endif
  if (fic <= 0 || in_c % fic != 0) return AOT_KERNEL_BAD_PARAM;
  groups = in_c / fic;
  if (out_c % groups != 0) return AOT_KERNEL_BAD_PARAM;
  per_group = out_c / groups;
  /* paths the module left out (aot_features.h) */
  if (!AOT_F_CONV_S8_CLIP && (groups != 1 || dw != 1 || aot_conv_clips(p)))
    return AOT_KERNEL_BAD_PARAM;
  aot_conv2d_s8_mve_plan_of(p, &pl);
  /* a packed filter: the layout the packed path reads (aot_conv_params) */
  if (p->filter_packed && (groups != 1 || !p->kbias || !pl.cb || out_c % 4 != 0 || fsize % 16 != 0))
    return AOT_KERNEL_BAD_PARAM;
  /* the scratch's packing buffer (none for a packed filter) */
  wbytes = p->filter_packed ? 0 : (size_t)pl.cb * (size_t)pl.k16;

  for (g = 0; g < groups; g++) {
    for (c0 = 0; c0 < per_group; c0 += pl.cb ? pl.cb : per_group) {
      const int32_t oc0 = g * per_group + c0;
      const int8_t *f0 = filter + (size_t)oc0 * fsize;
      int32_t j, b, oy, ox;
      if (pl.cb) {
        /* packed filters and constants of channels oc0 .. oc0 + nc */
        const int32_t nc = per_group - c0 < pl.cb ? per_group - c0 : pl.cb, cb = pl.cb;
        const int32_t k16 = pl.k16, npos = p->batches * out_h * out_w;
        int32_t *cst = (int32_t *)scratch, *st = cst + 4 * cb, *acc = st + 12;
        int8_t *wp = (int8_t *)(acc + 4 * pl.na), *const col = wp + wbytes;
        aot_conv2d_s8_mve_consts(p, f0, bias, oc0, nc, cb, fsize, cst);
        if (p->filter_packed)   /* packed by aotc (aot_conv_params) */
          wp = (int8_t *)(intptr_t)f0;
        else
          for (j = 0; j < nc; j += 4)
            aot_mve_pack4_s8(wp + (size_t)j * k16, f0 + (size_t)j * fsize, (size_t)fsize,
                             nc - j < 4 ? nc - j : 4, fsize);
        if (!pl.np) {
          /* the windows are runs of the input: fsize taps from (iy0, ix0);
             positions along an output row are stride_w * in_c bytes apart
             (all positions in_c apart for a stride-1 pointwise layer) */
          const int uniform = p->stride_h == 1 && p->stride_w == 1 && out_h == in_h &&
                              out_w == in_w && fw == 1;
          const size_t xs = uniform ? (size_t)in_c : (size_t)p->stride_w * in_c;
          const int32_t rlen = uniform ? npos : out_w, nrows = uniform ? 1 : npos / out_w;
          const int tail = (fsize & 15) != 0;
          st[4] = fsize >> 4;
          st[6] = (int32_t)vctp8q((uint32_t)(((fsize - 1) & 15) + 1));   /* 1..16 lanes */
          for (j = 0; j < nc; j += 4) {
            int32_t r, i, cnt;
            st[0] = cst[j];
            st[1] = cst[j + 1];
            st[2] = cst[j + 2];
            st[3] = cst[j + 3];
            st[5] = (int32_t)(intptr_t)(wp + (size_t)j * k16);
            for (r = 0; r < nrows; r++) {
              /* output row r = (b, oy) */
              const int32_t bb = r / out_h, yy = r % out_h;
              const int8_t *x = input + ((size_t)bb * in_h + (size_t)yy * p->stride_h) * in_row;
              int8_t *o = output + (size_t)r * rlen * out_c + oc0 + j;
              for (i = 0; i < rlen; i += cnt) {
                cnt = rlen - i < pl.na ? rlen - i : pl.na;
                if (fsize <= 16)
                  aot_conv2d_s8_mve_sums16(x + (size_t)i * xs, xs, cnt, st, acc, 0);
                else
                  aot_conv2d_s8_mve_sums(x + (size_t)i * xs, xs, cnt, st, acc, tail, 0);
                aot_conv2d_s8_mve_rq(acc, cnt, cst + j, cb, o + (size_t)i * out_c,
                                     (size_t)out_c, nc - j < 4 ? nc - j : 4, out_off, act_min,
                                     act_max);
              }
            }
          }
          continue;
        }
        /* im2col of np positions at a time (rows k16 bytes apart; the taps
           past fsize meet zero weights; np is even, so an odd last row is
           paired with a row of the buffer), then the passes over them */
        {
          int32_t pos, cnt;
          st[4] = k16 >> 4;
          st[6] = (int32_t)vctp8q(16u);
          for (pos = 0; pos < npos; pos += cnt) {
            cnt = npos - pos < pl.np ? npos - pos : pl.np;
            aot_conv2d_s8_mve_im2col(p, input, pos, cnt, g, groups, col, k16);
            for (j = 0; j < nc; j += 4) {
              st[0] = cst[j];
              st[1] = cst[j + 1];
              st[2] = cst[j + 2];
              st[3] = cst[j + 3];
              st[5] = (int32_t)(intptr_t)(wp + (size_t)j * k16);
              if (k16 == 16)
                aot_conv2d_s8_mve_sums16(col, (size_t)k16, cnt, st, acc, 1);
              else
                aot_conv2d_s8_mve_sums(col, (size_t)k16, cnt, st, acc, 0, 1);
              aot_conv2d_s8_mve_rq(acc, cnt, cst + j, cb, output + (size_t)pos * out_c + oc0 + j,
                                   (size_t)out_c, nc - j < 4 ? nc - j : 4, out_off, act_min,
                                   act_max);
            }
          }
        }
        continue;
      }
      /* filters past AOT_CONV2D_S8_COL. Compiled even without
         AOT_F_CONV_S8_BIG: leaving it out made GCC compile the paths above
         into 0.01-0.08% more instructions (KWS, VWW, ResNet-8) */
      for (b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (size_t)b * in_h * in_row;
        const int32_t nc = per_group;
        for (oy = 0; oy < out_h; oy++) {
          const int32_t iy0 = oy * p->stride_h - p->pad_h;
          int32_t fy0, fy1;
          aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
          for (ox = 0; ox < out_w; ox++) {
            const int32_t ix0 = ox * p->stride_w - p->pad_w;
            int8_t *out = output + (((size_t)b * out_h + oy) * out_w + ox) * out_c + oc0;
            int32_t fx0, fx1;
            aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
            for (j = 0; j < nc; j += 4) {
              const int32_t n = nc - j < 4 ? nc - j : 4;
              const int32_t oc = oc0 + j;
              const mve_pred16_t p4 = vctp32q((uint32_t)n);
              int32x4_t acc = aot_conv2d_s8_runs(p, in_b, iy0, ix0, fy0, fy1, fx0, fx1, g,
                                                 groups, f0 + (size_t)j * fsize, n);
              if (bias) acc = vaddq_s32(acc, vldrwq_z_s32(bias + oc, p4));
              acc = aot_mve_out_s8(acc,
                                   aot_mve_rq_make(vldrwq_z_s32(p->out_mult + oc, p4),
                                                   vldrwq_z_s32(p->out_shift + oc, p4)),
                                   out_off, act_min, act_max);
              vstrbq_p_s32(out + j, acc, p4);
            }
          }
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}
#endif

#if defined(AOT_CONV2D_S8_DSP) && AOT_F_CONV_S8_G4
/* Arm DSP, grouped or dilated layers of up to AOT_CONV2D_S8_COL taps (every
 * other layer of that size runs on the pointwise kernel, aot_conv_pw_dsp.h,
 * its windows gathered). Per block of up to AOT_CONV2D_S8_OCB output
 * channels a per-channel constant ksum = bias + input_offset * sum w (the
 * whole filter; aotc's kbias when given) is set up once with the
 * requantization (aot_dsp_kc); the sums of w * x are then exact SMLAD sums
 * over four positions at a time (aot_conv2d_s8_dsp4): each window is copied
 * (im2col) with the taps outside the image set to the input zero point
 * (they add w * zp + input_offset * w = 0), widened once into the
 * interleaved int16 layout of aot_dsp_conv4.h, and every channel sums its
 * filter against the four. Requantization bit-identical to aot_conv_mbqm.
 * Buffers are the layer's scratch (aot_conv2d_s8_scratch_dsp_col). */
#define AOT_CONV2D_S8_OCB 64

static int32_t aot_conv2d_s8_dsp(const aot_conv_params *p, const int8_t *input,
                                 const int8_t *filter, const int32_t *bias, int8_t *output,
                                 void *scratch) {
  const int32_t in_c = p->in_c, out_c = p->out_c;
  const int32_t fic = p->filter_in_c;
  const uint32_t in_off = (uint32_t)p->input_offset;
  const int32_t fsize = p->filter_h * p->filter_w * fic;
  int32_t groups, per_group, g, c0;
  /* scratch (aot_conv2d_s8_scratch_dsp_col): the channel constants, then
     the widened windows, then one int8 window */
  aot_dsp_kc *const kc = (aot_dsp_kc *)scratch;
  uint32_t *const col16 =
      (uint32_t *)((char *)scratch + aot_conv_scratch_round(aot_conv2d_s8_dsp_kc(p)));
  aot_dsp_gemv gv;

  groups = in_c / fic;
  per_group = out_c / groups;
  /* filters of fsize % 4 taps read as they are (the last one padded) */
  if (!AOT_F_CONV_S8_FPAD && (fsize & 3)) return AOT_KERNEL_BAD_PARAM;
  if (!AOT_KB(p)) {
#if !AOT_F_CONV_S8_NOKB
    return AOT_KERNEL_BAD_PARAM;   /* no layer without the folded bias */
#endif
  }
  gv.kc = kc;
  gv.out_off = p->output_offset;
  gv.lo = p->act_min;
  gv.hi = p->act_max;
  gv.full = AOT_FULL8(p);
  for (g = 0; g < groups; g++) {
    for (c0 = 0; c0 < per_group; c0 += AOT_CONV2D_S8_OCB) {
      const int32_t nc = per_group - c0 < AOT_CONV2D_S8_OCB ? per_group - c0 : AOT_CONV2D_S8_OCB;
      const int32_t oc0 = g * per_group + c0;
      const int8_t *f0 = filter + (size_t)oc0 * fsize;
      int32_t j;
      for (j = 0; j < nc; j++) {
        int32_t ks;
        if (AOT_KB(p)) {   /* folded by aotc */
          ks = p->kbias[oc0 + j];
        } else {
          const uint32_t t = (uint32_t)aot_dsp_sum_s8(f0 + (size_t)j * fsize, fsize);
          ks = (int32_t)((bias ? (uint32_t)bias[oc0 + j] : 0u) + t * in_off);
        }
        aot_dsp_kc_set(kc + j, ks, p->out_mult[oc0 + j], p->out_shift[oc0 + j], fsize);
      }
      aot_conv2d_s8_dsp4(p, input, filter, output, g, oc0, nc, &gv,
                         (int8_t *)(col16 + AOT_DSP_COL4_WORDS(fsize)), col16);
    }
  }
  return AOT_KERNEL_OK;
}
#endif

int32_t aot_conv2d_s8(const aot_conv_params *p, const int8_t *input,
                      const int8_t *filter, const int32_t *bias, int8_t *output,
                      void *scratch) {
#ifdef AOT_CONV2D_S8_MVE
  return aot_conv2d_s8_mve(p, input, filter, bias, output, scratch);
#else
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

  /* a filter packed for Helium (a module built for MVE, kernels without) */
  if (fic <= 0 || in_c % fic != 0 || p->filter_packed) return AOT_KERNEL_BAD_PARAM;
  groups = in_c / fic;
  if (out_c % groups != 0) return AOT_KERNEL_BAD_PARAM;
  per_group = out_c / groups;
  (void)scratch;
#ifdef AOT_CONV2D_S8_DSP
  /* a narrower activation range than int8: a path the module left out */
  if (!AOT_F_CONV_S8_NARROW && !(act_min == -128 && act_max == 127)) return AOT_KERNEL_BAD_PARAM;
  /* pointwise (in_c < 65536: its doubled sums), and the other layers of
     one group, dilation_w 1 and at most AOT_CONV2D_S8_COL taps with their
     windows gathered: aot_conv_pw_dsp.h (as aot_conv2d_s8_dsp_pwt) */
  if (aot_conv2d_s8_is_pw(p) && in_c < 65536)
    return aot_conv2d_s8_pw_dsp(p, input, filter, bias, output, scratch);
#if AOT_F_CONV_S8_FIRST
  /* 1-4 input channels where aotc chose it (after the pointwise layers,
     which never take it): aot_conv_first.h */
  if (p->first)   /* (set only where aotc chose the path and the layer fits) */
    return aot_conv2d_s8_first_dsp(p, input, output, scratch);
#endif
  if (aot_conv2d_s8_dsp_gw(p)) {
#if AOT_F_CONV_S8_GW
    return aot_conv2d_s8_pw_dsp(p, input, filter, bias, output, scratch);
#else
    return AOT_KERNEL_BAD_PARAM;   /* no such layer in the module (aot_features.h) */
#endif
  }
  if (fsize <= AOT_CONV2D_S8_COL) {
#if AOT_F_CONV_S8_G4
    return aot_conv2d_s8_dsp(p, input, filter, bias, output, scratch);
#else
    return AOT_KERNEL_BAD_PARAM;   /* no grouped or dilated layer (aot_features.h) */
#endif
  }
#if !AOT_F_CONV_S8_BIG
  /* the module has no filter this large (aot_features.h) */
  return AOT_KERNEL_BAD_PARAM;
#endif
#endif

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
#endif
}
