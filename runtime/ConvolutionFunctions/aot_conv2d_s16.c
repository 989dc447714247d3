/* aot_conv2d_s16.c - CONV_2D int16x8 (int16 activations, int8 weights, int64
 * bias), as the TFLite reference ConvPerChannel: int64 accumulator and
 * aot_mbqm64, zero padding by skipping taps outside the image, grouped
 * convolution when filter_in_c < in_c. Zero points are 0.
 *
 * Portable path (aot_conv2d_s16_port, the reference): per output position
 * the valid filter window is computed once. Two output channels are
 * accumulated together, so each input value is loaded once per two
 * multiply-accumulates. When the filter covers all input channels and
 * dilation_w is 1, the taps of one filter row are contiguous in both the
 * input and the filter and are walked as one run.
 *
 * SIMD paths (aot_s16_simd.h; AOT_CONV2D_S16_MVE / AOT_CONV2D_S16_DSP name
 * the variant built); the sums are the portable int64 sums exactly (integer
 * sums in another order, int32 partial sums within the limit
 * aot_s16_simd.h proves):
 *  - Helium: per output position and four output channels, the window's
 *    runs (the portable loop's) through aot_s16_win4, read in place;
 *  - Arm DSP: two output positions at a time (consecutive in NHWC order) are
 *    gathered into the scratch column (aot_s16_dsp_col layout; taps outside
 *    the image are zeros, which add nothing), then every pair of output
 *    channels runs aot_s16_dsp_dot2x2 over it, in blocks of at most
 *    AOT_S16_RUN products per int32 sum; a last odd position, and layers
 *    without the scratch (windows over AOT_S16_DSP_COL_K taps), take the
 *    one-position path of the Helium build on aot_s16_dot4_s32.
 * Every path requantizes the int64 sum plus bias with aot_mbqm64 and clamps,
 * as the portable loop. */
#include "aot_conv.h"
#include "aot_s16_simd.h"

#if defined(AOT_S16_MVE)
#define AOT_CONV2D_S16_MVE 1
#elif defined(AOT_S16_DSP)
#define AOT_CONV2D_S16_DSP 1
#endif

#if !defined(AOT_S16_MVE) && !defined(AOT_S16_DSP)
static int32_t aot_conv2d_s16_port(const aot_conv_params *p, const int16_t *input,
                                   const int8_t *filter, const int64_t *bias,
                                   int16_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c;
  const int32_t out_c = p->out_c, fh = p->filter_h, fw = p->filter_w;
  const int32_t fic = p->filter_in_c;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const int32_t act_min = p->act_min, act_max = p->act_max;
  const int32_t *const mult = p->out_mult, *const shift = p->out_shift;
  const int32_t fsize = fh * fw * fic;
  const size_t in_row = (size_t)in_w * in_c;
  int32_t groups, per_group, b, oy, ox;

  if (fic <= 0 || in_c % fic != 0) return AOT_KERNEL_BAD_PARAM;
  groups = in_c / fic;
  if (out_c % groups != 0) return AOT_KERNEL_BAD_PARAM;
  per_group = out_c / groups;

  for (b = 0; b < p->batches; b++) {
    const int16_t *in_b = input + (size_t)b * in_h * in_row;
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
          const int16_t *in_win =
              nseg == 0 ? in_b
                        : in_b + (size_t)(iy0 + fy0 * dh) * in_row +
                              (size_t)(ix0 + fx0 * dw) * in_c + (size_t)g * fic;
          const int32_t f_first = (fy0 * fw + fx0) * fic;
          int32_t j = 0;
          for (; j + 2 <= per_group; j += 2, oc += 2) {
            const int8_t *f0 = filter + (size_t)oc * fsize + f_first;
            int64_t a0 = 0, a1 = 0;
            int32_t fy, k;
            if (nseg > 0) {
              for (fy = fy0; fy < fy1; fy++) {
                const int16_t *ip = in_win + (size_t)(fy - fy0) * dh * in_row;
                const int8_t *fp = f0 + (fy - fy0) * fw * fic;
                for (k = 0; k < nseg; k++) {
                  const int16_t *ie = ip + seg, *q = ip;
                  const int8_t *w = fp;
                  while (q < ie) {
                    const int32_t x = *q++;
                    a0 += w[0] * x;
                    a1 += w[fsize] * x;
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
            }
            output[0] = (int16_t)aot_clamp_i32(aot_mbqm64(a0, mult[oc], shift[oc]), act_min, act_max);
            output[1] = (int16_t)aot_clamp_i32(aot_mbqm64(a1, mult[oc + 1], shift[oc + 1]),
                                               act_min, act_max);
            output += 2;
          }
          for (; j < per_group; j++, oc++) {
            const int8_t *f0 = filter + (size_t)oc * fsize + f_first;
            int64_t acc = 0;
            int32_t fy, k;
            if (nseg > 0) {
              for (fy = fy0; fy < fy1; fy++) {
                const int16_t *ip = in_win + (size_t)(fy - fy0) * dh * in_row;
                const int8_t *fp = f0 + (fy - fy0) * fw * fic;
                for (k = 0; k < nseg; k++) {
                  const int16_t *ie = ip + seg, *q = ip;
                  const int8_t *w = fp;
                  while (q < ie) acc += (int32_t)*w++ * *q++;
                  ip += seg_step;
                  fp += seg;
                }
              }
            }
            if (bias) acc += bias[oc];
            *output++ = (int16_t)aot_clamp_i32(aot_mbqm64(acc, mult[oc], shift[oc]), act_min, act_max);
          }
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}
#endif

#if defined(AOT_S16_MVE) || defined(AOT_S16_DSP)
/* the output of channel oc for the int64 sum acc (aot_s16_out) */
#define AOT_C16_OUT(oc, acc) \
  aot_s16_out(acc, rq, oc, p->out_mult, p->out_shift, bias, p->act_min, p->act_max)

/* The outputs of one position (oy, ox) of image in_b into out (out_c
 * values): the portable loop's window as an aot_s16_win, four channels of a
 * group at a time. */
static void aot_c16_one(const aot_conv_params *p, const int16_t *in_b, int32_t oy, int32_t ox,
                        const int8_t *filter, const int64_t *bias, const aot_s16_rq *rq,
                        int16_t *out) {
  const int32_t in_w = p->in_w, in_c = p->in_c, fw = p->filter_w, fic = p->filter_in_c;
  const int32_t dh = p->dilation_h, dw = p->dilation_w, groups = in_c / fic;
  const int32_t per_group = p->out_c / groups, fsize = p->filter_h * fw * fic;
  const int32_t iy0 = oy * p->stride_h - p->pad_h, ix0 = ox * p->stride_w - p->pad_w;
  int32_t fy0, fy1, fx0, fx1, g, j, oc = 0;
  aot_s16_win v;
  aot_conv_window(iy0, dh, p->in_h, p->filter_h, &fy0, &fy1);
  aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
  /* filter rows (outer) x segments of a row (inner), as the portable loop */
  if (dw == 1 && groups == 1) {
    v.n1 = 1;
    v.n = (fx1 - fx0) * fic;
  } else {
    v.n1 = fx1 - fx0;
    v.n = fic;
  }
  v.n2 = fy1 - fy0;
  v.x1 = dw * in_c;
  v.w1 = v.n;
  v.x2 = dh * in_w * in_c;
  v.w2 = fw * fic;
  if (fy1 <= fy0 || fx1 <= fx0) v.n2 = 0;
  for (g = 0; g < groups; g++) {
    const int16_t *xg =
        v.n2 == 0 ? in_b
                  : in_b + ((size_t)(iy0 + fy0 * dh) * in_w + (size_t)(ix0 + fx0 * dw)) * in_c +
                        (size_t)g * fic;
    for (j = 0; j < per_group; j += 4) {
      const int32_t rows = aot_min_i32(4, per_group - j);
      int64_t a[4] = {0, 0, 0, 0};
      int32_t r;
      v.x = xg;
      v.w = filter + (size_t)(oc + j) * fsize + (fy0 * fw + fx0) * fic;
      aot_s16_win4(&v, fsize, rows, a);
      for (r = 0; r < rows; r++) out[oc + j + r] = AOT_C16_OUT(oc + j + r, a[r]);
    }
    oc += per_group;
  }
}
#endif

#if defined(AOT_S16_MVE) || defined(AOT_S16_DSP)
/* Position q's taps of group g into the column (which: 0 for A, 1 for B;
 * kb: B's offset; q < 0: zeros), in filter order: per filter row, the taps
 * left of the image, the run inside it, the taps right of it (zeros
 * outside). */
static void aot_c16_gather(const aot_conv_params *p, const int16_t *input, int32_t q,
                           int32_t g, int16_t *col, int32_t kb, int32_t which) {
  const int32_t in_w = p->in_w, in_c = p->in_c, fh = p->filter_h, fw = p->filter_w;
  const int32_t fic = p->filter_in_c, dh = p->dilation_h, dw = p->dilation_w;
  const int32_t hw = p->out_h * p->out_w;
  const int32_t b = q / hw, oy = (q % hw) / p->out_w, ox = q % p->out_w;
  const int32_t iy0 = oy * p->stride_h - p->pad_h, ix0 = ox * p->stride_w - p->pad_w;
  const int16_t *in_b = input + (size_t)b * p->in_h * in_w * in_c + (size_t)g * fic;
  int32_t fy0, fy1, fx0, fx1, fy, fx, k = 0;
  if (q < 0) {
    aot_s16_colp(col, kb, which, 0, NULL, fh * fw * fic);
    return;
  }
  aot_conv_window(iy0, dh, p->in_h, fh, &fy0, &fy1);
  aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
  for (fy = 0; fy < fh; fy++, k += fw * fic) {
    const int16_t *row;
    if (fy < fy0 || fy >= fy1 || fx0 >= fx1) {
      aot_s16_colp(col, kb, which, k, NULL, fw * fic);
      continue;
    }
    row = in_b + ((size_t)(iy0 + fy * dh) * in_w + (size_t)(ix0 + fx0 * dw)) * in_c;
    aot_s16_colp(col, kb, which, k, NULL, fx0 * fic);
    if (dw == 1 && fic == in_c) {   /* the row's taps are one run of the input */
      aot_s16_colp(col, kb, which, k + fx0 * fic, row, (fx1 - fx0) * fic);
    } else {
      for (fx = fx0; fx < fx1; fx++, row += (size_t)dw * in_c)
        aot_s16_colp(col, kb, which, k + fx * fic, row, fic);
    }
    aot_s16_colp(col, kb, which, k + fx1 * fic, NULL, (fw - fx1) * fic);
  }
}

#if defined(AOT_S16_MVE)
/* Helium: 1 when positions q0 and q1 are in one output row and neither
 * window leaves the image; *x0 = q0's first tap (group 0). Their taps are
 * then read in place, q1's stride_w * in_c after q0's. */
static int aot_c16_inside(const aot_conv_params *p, const int16_t *input, int32_t q0,
                          int32_t q1, const int16_t **x0) {
  const int32_t hw = p->out_h * p->out_w, ow = p->out_w;
  const int32_t oy = (q0 % hw) / ow, ox = q0 % ow;
  const int32_t iy0 = oy * p->stride_h - p->pad_h, ix0 = ox * p->stride_w - p->pad_w;
  if (q1 != q0 + 1 || q1 % ow == 0 || iy0 < 0 || ix0 < 0 ||
      iy0 + (p->filter_h - 1) * p->dilation_h >= p->in_h ||
      ix0 + p->stride_w + (p->filter_w - 1) * p->dilation_w >= p->in_w)
    return 0;
  *x0 = input + (size_t)(q0 / hw) * p->in_h * p->in_w * p->in_c +
        ((size_t)iy0 * p->in_w + (size_t)ix0) * p->in_c;
  return 1;
}
#endif

/* Positions q0 and q1 (q1 < 0: none) of every group: gather (Helium: or
 * read in place), then AOT_S16_PR channels at a time. */
static void aot_c16_pair(const aot_conv_params *p, const int16_t *input, int32_t q0, int32_t q1,
                         const int8_t *filter, const aot_s16_rq *rq, int16_t *col,
                         int16_t *out0, int16_t *out1) {
  const int32_t fic = p->filter_in_c, groups = p->in_c / fic, per_group = p->out_c / groups;
  const int32_t K = p->filter_h * p->filter_w * fic;
  const int16_t *x = col;
  aot_s16_pwin v;
  int32_t g, oc = 0, kb = K, inside = 0;
  v.bn = K;
  v.n1 = v.n2 = 1;
  v.x1 = v.x2 = v.w1 = v.w2 = 0;
#if defined(AOT_S16_MVE)
  inside = aot_c16_inside(p, input, q0, q1, &x);
  if (inside) {   /* the portable loop's runs */
    const int32_t dw = p->dilation_w, in_c = p->in_c;
    const int32_t xrow = p->dilation_h * p->in_w * in_c, wrow = p->filter_w * fic;
    if (dw == 1 && groups == 1) {   /* a filter row is a run: the rows inner */
      v.bn = wrow;
      v.n1 = p->filter_h;
      v.x1 = xrow;
      v.w1 = wrow;
    } else {
      v.bn = fic;
      v.n1 = p->filter_w;
      v.x1 = dw * in_c;
      v.w1 = fic;
      v.n2 = p->filter_h;
      v.x2 = xrow;
      v.w2 = wrow;
    }
    kb = p->stride_w * in_c;
  }
#endif
  for (g = 0; g < groups; g++, oc += per_group) {
    const int16_t *xg = inside ? x + (size_t)g * fic : col;
    if (!inside) {
      aot_c16_gather(p, input, q0, g, col, K, 0);
      aot_c16_gather(p, input, q1, g, col, K, 1);
    }
    aot_s16_pair(xg, kb, filter + (size_t)oc * K, K, per_group, &v, rq, oc, p->act_min,
                 p->act_max, out0, q1 >= 0 ? out1 : NULL);
  }
}
#endif

#if defined(AOT_S16_MVE) || defined(AOT_S16_DSP)
static int32_t aot_conv2d_s16_simd(const aot_conv_params *p, const int16_t *input,
                                   const int8_t *filter, const int64_t *bias,
                                   int16_t *output, void *scratch) {
  const int32_t hw = p->out_h * p->out_w, npos = p->batches * hw, out_c = p->out_c;
  const size_t in_img = (size_t)p->in_h * p->in_w * p->in_c;
  aot_s16_rq *rq = (aot_s16_rq *)scratch;
  int32_t q = 0, c;
  if (p->filter_in_c <= 0 || p->in_c % p->filter_in_c != 0 ||
      p->out_c % (p->in_c / p->filter_in_c) != 0)
    return AOT_KERNEL_BAD_PARAM;
  if (rq)
    for (c = 0; c < out_c; c++) rq[c] = aot_s16_rq_of(p->out_mult[c], p->out_shift[c], bias ? bias[c] : 0);
  if (scratch && aot_conv2d_s16_scratch_size(p) > aot_s16_rq_bytes(p)) {
    int16_t *col = (int16_t *)(void *)((char *)scratch + aot_s16_rq_bytes(p));
    for (; q + 2 <= npos; q += 2)
      aot_c16_pair(p, input, q, q + 1, filter, rq, col, output + (size_t)q * out_c,
                   output + (size_t)(q + 1) * out_c);
  }
  for (; q < npos; q++) {
    const int32_t b = q / hw, oy = (q % hw) / p->out_w, ox = q % p->out_w;
    aot_c16_one(p, input + (size_t)b * in_img, oy, ox, filter, bias, rq,
                output + (size_t)q * out_c);
  }
  return AOT_KERNEL_OK;
}
#endif

int32_t aot_conv2d_s16(const aot_conv_params *p, const int16_t *input, const int8_t *filter,
                       const int64_t *bias, int16_t *output, void *scratch) {
#if defined(AOT_S16_MVE) || defined(AOT_S16_DSP)
  return aot_conv2d_s16_simd(p, input, filter, bias, output, scratch);
#else
  (void)scratch;
  return aot_conv2d_s16_port(p, input, filter, bias, output);
#endif
}
