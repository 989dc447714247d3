/* aot_tconv2d_s16.c - TRANSPOSE_CONV int16x8 (int16 activations, int8
 * weights, int64 bias): an int64 accumulator requantized with the int64
 * MultiplyByQuantizedMultiplier per channel.
 *
 * Portable path (the reference): the template aot_tconv2d_k.h, each output
 * gathering the products of the input rows / columns that reach it.
 *
 * SIMD paths (aot_s16_simd.h; AOT_TCONV2D_S16_MVE / AOT_TCONV2D_S16_DSP name
 * the variant built). An output's sum is, over the input positions (iy, ix)
 * that reach it, the dot product over in_c of the input vector at (iy, ix)
 * and the filter slice [oc, ty - iy * sh, tx - ix * sw, :], both contiguous;
 * integer sums in another order are the same int64 sums (int32 partial sums
 * within aot_s16_simd.h's limit):
 *  - Helium: per output and four output channels, those runs as an
 *    aot_s16_win (input columns inner, rows outer), read in place;
 *  - Arm DSP: outputs ox and ox + stride_w of one row reach the same filter
 *    taps, from input columns one apart: such pairs are gathered into the
 *    scratch column (one block of in_c taps per filter tap, zeros where a
 *    position's input column is outside the image) and every pair of output
 *    channels runs aot_s16_dsp_dot2x2 block by block. Unpaired outputs, and
 *    layers without the scratch (aot_tconv2d_s16_scratch_size 0), take the
 *    one-output path of the Helium build on aot_s16_dot4_s32. */
#include "aot_conv.h"
#include "aot_s16_simd.h"

#if defined(AOT_S16_MVE)
#define AOT_TCONV2D_S16_MVE 1
#elif defined(AOT_S16_DSP)
#define AOT_TCONV2D_S16_DSP 1
#endif

#if !defined(AOT_S16_MVE) && !defined(AOT_S16_DSP)
static int32_t aot_tconv2d_s16_port(const aot_conv_params *p, const int16_t *input,
                                    const int8_t *filter, const int64_t *bias,
                                    int16_t *output);
#define AOT_TC_NAME aot_tconv2d_s16_port
#define AOT_TC_TIN int16_t
#define AOT_TC_TW int8_t
#define AOT_TC_TB int64_t
#define AOT_TC_TOUT int16_t
#define AOT_TC_ACC int64_t
#define AOT_TC_MAC(x, w) (int32_t)(x) * (w)
#define AOT_TC_OUT(acc, oc) \
  (int16_t)aot_clamp_i32(aot_mbqm64(acc, p->out_mult[oc], p->out_shift[oc]), p->act_min, p->act_max)
#include "aot_tconv2d_k.h"

int32_t aot_tconv2d_s16(const aot_conv_params *p, const int16_t *input, const int8_t *filter,
                        const int64_t *bias, int16_t *output, void *scratch) {
  (void)scratch;
  return aot_tconv2d_s16_port(p, input, filter, bias, output);
}

#else
/* the output of channel oc for the int64 sum acc (aot_s16_out) */
#define AOT_TC16_OUT(oc, acc) \
  aot_s16_out(acc, rq, oc, p->out_mult, p->out_shift, bias, p->act_min, p->act_max)

/* first and last input index reaching output coordinate t (stride s, filter
 * size f, input size n); *lo > *hi when none */
AOT_INLINE void aot_tc16_range(int32_t t, int32_t s, int32_t f, int32_t n, int32_t *lo,
                               int32_t *hi) {
  *lo = t - f + 1 <= 0 ? 0 : (t - f + s) / s;
  *hi = aot_min_i32(t / s, n - 1);
}

/* The outputs of position (oy, ox) of image in_b into out (out_c values). */
static void aot_tc16_one(const aot_conv_params *p, const int16_t *in_b, int32_t oy, int32_t ox,
                         const int8_t *filter, const int64_t *bias, const aot_s16_rq *rq,
                         int16_t *out) {
  const int32_t in_w = p->in_w, in_c = p->in_c, fw = p->filter_w, out_c = p->out_c;
  const int32_t sh = p->stride_h, sw = p->stride_w, fsize = p->filter_h * fw * in_c;
  const int32_t ty = oy + p->pad_h, tx = ox + p->pad_w;
  int32_t iy0, iy1, ix0, ix1, j;
  aot_s16_win v;
  aot_tc16_range(ty, sh, p->filter_h, p->in_h, &iy0, &iy1);
  aot_tc16_range(tx, sw, fw, in_w, &ix0, &ix1);
  v.n = in_c;
  v.n1 = ix1 - ix0 + 1;
  v.n2 = iy1 - iy0 + 1;
  v.x1 = in_c;
  v.w1 = -sw * in_c;
  v.x2 = in_w * in_c;
  v.w2 = -sh * fw * in_c;
  if (v.n1 <= 0 || v.n2 <= 0) v.n2 = 0;
  v.x = in_b;
  for (j = 0; j < out_c; j += 4) {
    const int32_t rows = aot_min_i32(4, out_c - j);
    int64_t a[4] = {0, 0, 0, 0};
    int32_t r;
    if (v.n2 > 0) {
      v.x = in_b + ((size_t)iy0 * in_w + (size_t)ix0) * in_c;
      v.w = filter + (size_t)j * fsize + ((ty - iy0 * sh) * fw + (tx - ix0 * sw)) * in_c;
      aot_s16_win4(&v, fsize, rows, a);
    }
    for (r = 0; r < rows; r++) out[j + r] = AOT_TC16_OUT(j + r, a[r]);
  }
}
#endif

#if defined(AOT_S16_MVE) || defined(AOT_S16_DSP)
/* Outputs ox and ox + sw of row oy of image in_b (out0, out1): the filter
 * taps fy = fys + i2 * sh (i2 < ny: the rows whose input row exists) and
 * fx = fxs + i1 * sw (i1 < nx: the columns where either output's input
 * column exists, ix for ox and ix + 1 for ox + sw), block (i2, i1) of in_c
 * taps at k = (i2 * nx + i1) * in_c of the column. */
static void aot_tc16_pair(const aot_conv_params *p, const int16_t *in_b, int32_t oy,
                          int32_t ox, const int8_t *filter, const aot_s16_rq *rq,
                          int16_t *col, int16_t *out0, int16_t *out1) {
  const int32_t in_w = p->in_w, in_c = p->in_c, fw = p->filter_w, out_c = p->out_c;
  const int32_t sh = p->stride_h, sw = p->stride_w, fsize = p->filter_h * fw * in_c;
  const int32_t ty = oy + p->pad_h, tx = ox + p->pad_w;
  const int32_t nlo = tx - fw + 1;
  int32_t iy0, iy1, ilo, ihi, ny, nx, fys, fxs, kb, i1, i2;
  aot_s16_pwin v;
  aot_tc16_range(ty, sh, p->filter_h, p->in_h, &iy0, &iy1);
  /* filter column fx = tx - i * sw, 0 <= fx < fw, reads input column i for
   * ox and i + 1 for ox + sw: i from ceil((tx - fw + 1) / sw) (C division
   * rounds a negative quotient up) to tx / sw, where either column exists */
  ilo = aot_max_i32(nlo > 0 ? (nlo + sw - 1) / sw : nlo / sw, -1);
  ihi = aot_min_i32(tx / sw, in_w - 1);
  ny = iy1 - iy0 + 1;
  nx = ihi - ilo + 1;
  fys = ty - iy1 * sh;
  fxs = tx - ihi * sw;
  if (ny <= 0 || nx <= 0) ny = nx = 0;
  kb = ny * nx * in_c;
  /* gather: block (i2, i1) reads input row iy1 - i2, columns ihi - i1 (ox)
   * and ihi - i1 + 1 (ox + sw) */
  for (i2 = 0; i2 < ny; i2++) {
    const int16_t *row = in_b + (size_t)(iy1 - i2) * in_w * in_c;
    for (i1 = 0; i1 < nx; i1++) {
      const int32_t ix = ihi - i1, k = (i2 * nx + i1) * in_c;
      aot_s16_colp(col, kb, 0, k, ix >= 0 ? row + (size_t)ix * in_c : NULL, in_c);
      aot_s16_colp(col, kb, 1, k, ix + 1 < in_w ? row + (size_t)(ix + 1) * in_c : NULL, in_c);
    }
  }
  v.bn = in_c;
  v.n1 = nx;
  v.n2 = ny;
  v.x1 = in_c;
  v.x2 = nx * in_c;
  v.w1 = sw * in_c;
  v.w2 = sh * fw * in_c;
  aot_s16_pair(col, kb, filter + (fys * fw + fxs) * in_c, fsize, out_c, &v, rq, 0, p->act_min,
               p->act_max, out0, out1);
}
#endif

#if defined(AOT_S16_MVE) || defined(AOT_S16_DSP)
int32_t aot_tconv2d_s16(const aot_conv_params *p, const int16_t *input, const int8_t *filter,
                        const int64_t *bias, int16_t *output, void *scratch) {
  const int32_t out_w = p->out_w, out_c = p->out_c, sw = p->stride_w;
  const size_t in_img = (size_t)p->in_h * p->in_w * p->in_c;
  aot_s16_rq *rq = (aot_s16_rq *)scratch;
  int32_t b, oy, ox, c;
  int16_t *col = scratch && aot_tconv2d_s16_scratch_size(p) > aot_s16_rq_bytes(p)
                     ? (int16_t *)(void *)((char *)scratch + aot_s16_rq_bytes(p))
                     : NULL;
  if (p->stride_h <= 0 || sw <= 0 || p->pad_h < 0 || p->pad_w < 0 || p->filter_in_c != p->in_c)
    return AOT_KERNEL_BAD_PARAM;
  if (rq)
    for (c = 0; c < out_c; c++) rq[c] = aot_s16_rq_of(p->out_mult[c], p->out_shift[c], bias ? bias[c] : 0);
  for (b = 0; b < p->batches; b++) {
    const int16_t *in_b = input + (size_t)b * in_img;
    for (oy = 0; oy < p->out_h; oy++) {
      int16_t *orow = output + ((size_t)b * p->out_h + oy) * out_w * out_c;
      ox = 0;
      /* pairs ox, ox + sw in runs of 2 sw outputs; the rest one by one */
      for (; col && ox + 2 * sw <= out_w; ox += 2 * sw) {
        int32_t ph;
        for (ph = 0; ph < sw; ph++)
          aot_tc16_pair(p, in_b, oy, ox + ph, filter, rq, col,
                        orow + (size_t)(ox + ph) * out_c, orow + (size_t)(ox + ph + sw) * out_c);
      }
      for (; ox < out_w; ox++)
        aot_tc16_one(p, in_b, oy, ox, filter, bias, rq, orow + (size_t)ox * out_c);
    }
  }
  return AOT_KERNEL_OK;
}
#endif
