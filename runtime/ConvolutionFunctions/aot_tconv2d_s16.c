/* aot_tconv2d_s16.c - TRANSPOSE_CONV int16x8 (int16 activations, int8
 * weights, int64 bias): an int64 accumulator requantized with the int64
 * MultiplyByQuantizedMultiplier per channel.
 *
 * Portable path (the reference): the template aot_tconv2d_k.h, each output
 * gathering the products of the input rows / columns that reach it.
 *
 * SIMD paths (aot_s16_simd.h; AOT_TCONV2D_S16_MVE / AOT_TCONV2D_S16_DSP name
 * the variant built): the sub-pixel (phase) decomposition. With strides
 * (sh, sw) the outputs oy = py (mod sh), ox = px (mod sw) only meet the
 * filter taps fy = (py + pad_h) mod sh (mod sh), fx likewise: they are an
 * ordinary stride-1 convolution of the input with that sub-filter of
 * ceil(fh / sh) x ceil(fw / sw) x in_c taps, taken in reverse order (taps
 * ascending as the inputs they meet). Per phase the sub-filter is
 * rearranged into the scratch; an output's window is then its rows inside
 * the image, each one run of contiguous taps in both the input and the
 * sub-filter. Integer sums in another order are the same int64 sums (int32
 * partial sums within aot_s16_simd.h's limit):
 *  - Helium: two outputs ox, ox + sw whose windows lie inside the image in
 *    x through aot_s16_pair, the input read in place (B's taps in_c after
 *    A's); the others one at a time, four channels of aot_s16_win4;
 *  - Arm DSP: when in_c is a multiple of 4 and the window at most
 *    AOT_S16_RUN taps, the sub-filter of four channels at a time widened to
 *    int16 pairs (aot_tc16_dsp_quad), one output at a time, per window row
 *    aot_tc16_dsp_dot4 (one int32 sum per channel); other layers as the
 *    Helium build's one-output path.
 * Layers whose sub-filters exceed the scratch (aot_tconv2d_s16_scratch_size
 * gives the constants alone), or without scratch, run one output at a time
 * on the whole filter (aot_tc16_one). Every path requantizes through
 * aot_s16_rq.h. */
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
/* taps of residue r of a filter dimension of f taps, stride s */
AOT_INLINE int32_t aot_tc16_ntaps(int32_t r, int32_t s, int32_t f) {
  return r < f ? (f - r + s - 1) / s : 0;
}

/* The sub-filter of phase (ry, rx) (nfy x nfx taps) of every output channel
 * into pf: channel oc's taps at oc * nfy * nfx * in_c, tap (my, mx) the
 * filter's (ry + (nfy - 1 - my) sh, rx + (nfx - 1 - mx) sw), so that the
 * inputs it meets ascend with my, mx as an ordinary convolution's. */
static void aot_tc16_subfilter(const aot_conv_params *p, const int8_t *filter, int32_t ry,
                               int32_t rx, int32_t nfy, int32_t nfx, int8_t *pf) {
  const int32_t in_c = p->in_c, fw = p->filter_w, fsize = p->filter_h * fw * in_c;
  int32_t oc, my, mx;
  for (oc = 0; oc < p->out_c; oc++)
    for (my = 0; my < nfy; my++)
      for (mx = 0; mx < nfx; mx++, pf += in_c)
        memcpy(pf,
               filter + (size_t)oc * fsize +
                   ((ry + (nfy - 1 - my) * p->stride_h) * fw + rx + (nfx - 1 - mx) * p->stride_w) *
                       in_c,
               (size_t)in_c);
}

/* Phase (py, px): the outputs oy = py (mod sh), ox = px (mod sw) of every
 * image, with pf holding the phase's sub-filter. Output (oy, ox) is the
 * convolution of the sub-filter with the input window of origin (iy0, ix0),
 * iy0 = (oy + pad_h - ry) / sh - nfy + 1 (exact division: ry is the
 * residue), ix0 likewise (one column further for ox + sw): its rows y0 ..
 * y1 - 1 and columns x0 .. x1 - 1 inside the image, each row one run of
 * (x1 - x0) in_c taps, contiguous in the input and in pf. Helium: two
 * outputs ox, ox + sw whose windows are whole in x at once (aot_s16_pair,
 * the inputs read in place, B's in_c after A's); the others one at a time,
 * four channels of aot_s16_win4. */
static void aot_tc16_phase(const aot_conv_params *p, const int16_t *input, int32_t py,
                           int32_t px, const int8_t *filter, const aot_s16_rq *rq, int8_t *pf,
                           int16_t *output) {
  const int32_t in_c = p->in_c, in_w = p->in_w, out_c = p->out_c, out_w = p->out_w;
  const int32_t sh = p->stride_h, sw = p->stride_w;
  const int32_t ry = (py + p->pad_h) % sh, rx = (px + p->pad_w) % sw;
  const int32_t nfy = aot_tc16_ntaps(ry, sh, p->filter_h);
  const int32_t nfx = aot_tc16_ntaps(rx, sw, p->filter_w), kp = nfy * nfx * in_c;
  const size_t in_img = (size_t)p->in_h * in_w * in_c;
  int32_t b, oy, ox, j, r;
  if (kp > 0) aot_tc16_subfilter(p, filter, ry, rx, nfy, nfx, pf);
  for (b = 0; b < p->batches; b++) {
    const int16_t *in_b = input + (size_t)b * in_img;
    for (oy = py; oy < p->out_h; oy += sh) {
      const int32_t iy0 = (oy + p->pad_h - ry) / sh - nfy + 1;
      const int32_t y0 = aot_max_i32(0, -iy0), y1 = aot_min_i32(nfy, p->in_h - iy0);
      int16_t *orow = output + ((size_t)b * p->out_h + oy) * out_w * out_c;
      for (ox = px; ox < out_w;) {
        const int32_t ix0 = (ox + p->pad_w - rx) / sw - nfx + 1;
        const int32_t x0 = aot_max_i32(0, -ix0), x1 = aot_min_i32(nfx, in_w - ix0);
        int16_t *o = orow + (size_t)ox * out_c;
        aot_s16_win v;
#if defined(AOT_S16_MVE)
        if (y0 < y1 && ix0 >= 0 && ix0 + nfx < in_w && ox + sw < out_w) {
          aot_s16_pwin w;
          w.bn = nfx * in_c;
          w.n1 = y1 - y0;
          w.n2 = 1;
          w.x1 = in_w * in_c;
          w.w1 = nfx * in_c;
          w.x2 = w.w2 = 0;
          aot_s16_pair(in_b + ((size_t)(iy0 + y0) * in_w + (size_t)ix0) * in_c, in_c,
                       pf + (size_t)y0 * nfx * in_c, kp, out_c, &w, rq, 0, p->act_min,
                       p->act_max, o, o + (size_t)sw * out_c);
          ox += 2 * sw;
          continue;
        }
#endif
        v.n = (x1 - x0) * in_c;
        v.n1 = y1 - y0;
        v.n2 = 1;
        v.x1 = in_w * in_c;
        v.w1 = nfx * in_c;
        v.x2 = v.w2 = 0;
        if (x0 >= x1 || y0 >= y1) v.n1 = 0;
        v.x = v.n1 == 0 ? in_b : in_b + ((size_t)(iy0 + y0) * in_w + (size_t)(ix0 + x0)) * in_c;
        for (j = 0; j < out_c; j += 4) {
          const int32_t rows = aot_min_i32(4, out_c - j);
          int64_t a[4] = {0, 0, 0, 0};
          v.w = pf + (size_t)j * kp + (size_t)(y0 * nfx + x0) * in_c;
          if (v.n1 > 0) aot_s16_win4(&v, kp, rows, a);
          for (r = 0; r < rows; r++)
            o[j + r] = aot_s16_out(a[r], rq, j + r, NULL, NULL, NULL, p->act_min, p->act_max);
        }
        ox += sw;
      }
    }
  }
}
#endif

#if defined(AOT_S16_MVE) || defined(AOT_S16_DSP)
/* Layers of little filter reuse (aot_tconv2d_s16_phased 0): */
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

#if defined(AOT_S16_DSP)
/* Arm DSP, layers with aot_tconv2d_s16_quad_bytes: one output and four
 * channels at a time. Channels oc0..oc0 + 3 of phase (ry, rx)'s sub-filter
 * (aot_tc16_subfilter's tap order; zeros past out_c) widened into q: per
 * four taps k..k+3 of the window eight words, per channel (wk, wk+2) and
 * (wk+1, wk+3) as int16 pairs (what SXTB16 would make of a weight word). */
static void aot_tc16_dsp_quad(const aot_conv_params *p, const int8_t *filter, int32_t oc0,
                              int32_t ry, int32_t rx, int32_t nfy, int32_t nfx, uint32_t *q) {
  const int32_t in_c = p->in_c, fw = p->filter_w, fsize = p->filter_h * fw * in_c;
  const int32_t nc = aot_min_i32(4, p->out_c - oc0);
  int32_t my, mx, c, k;
  for (my = 0; my < nfy; my++)
    for (mx = 0; mx < nfx; mx++) {
      const int8_t *w = filter + (size_t)oc0 * fsize +
                        ((ry + (nfy - 1 - my) * p->stride_h) * fw + rx + (nfx - 1 - mx) * p->stride_w) * in_c;
      for (k = 0; k < in_c; k += 4, q += 8) {
        for (c = 0; c < nc; c++) {
          uint32_t t;
          memcpy(&t, w + (size_t)c * fsize + k, 4);
          q[2 * c] = __sxtb16(t);
          q[2 * c + 1] = __sxtb16(t >> 8);   /* bytes 1 and 3 */
        }
        for (; c < 4; c++) q[2 * c] = q[2 * c + 1] = 0;
      }
    }
}

/* s[c] += the sum over n4 > 0 groups of four inputs x of x * channel c's
 * widened weights q (c < 4): per group two LDR and PKHBT / PKHTB make
 * (x0, x2), (x1, x3), then per channel one LDRD of q (word-aligned) and two
 * SMLAD (18 instructions, 16 products). At most AOT_S16_RUN products per
 * sum: int32 is exact. Not inlined: the loop gets the registers. */
static __attribute__((noinline)) void aot_tc16_dsp_dot4(const int16_t *x, const uint32_t *q,
                                                        int32_t n4, int32_t *s) {
  int32_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
  uint32_t xa, xb, u, t;
#define AOT_TC16_CH(s) \
  "ldrd %[xa], %[t], [%[q]], #8\n\t" \
  "smlad %[" s "], %[xa], %[u], %[" s "]\n\t" \
  "smlad %[" s "], %[t], %[xb], %[" s "]\n\t"
  __asm__ volatile("1:\n\t"
                   "ldr %[xa], [%[x]], #4\n\t"
                   "ldr %[xb], [%[x]], #4\n\t"
                   "pkhbt %[u], %[xa], %[xb], lsl #16\n\t"
                   "pkhtb %[xb], %[xb], %[xa], asr #16\n\t"
                   AOT_TC16_CH("s0") AOT_TC16_CH("s1") AOT_TC16_CH("s2") AOT_TC16_CH("s3")
                   "subs %[n], %[n], #1\n\t"
                   "bne 1b\n"
                   : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [xa] "=&r"(xa),
                     [xb] "=&r"(xb), [u] "=&r"(u), [t] "=&r"(t), [x] "+r"(x), [q] "+r"(q),
                     [n] "+r"(n4)
                   :
                   : "cc", "memory");
#undef AOT_TC16_CH
  {
    const int32_t r[4] = {s0, s1, s2, s3};
    memcpy(s, r, sizeof r);
  }
}

/* Phase (py, px) four channels at a time: per output the window's rows
 * inside the image, each one run of the columns inside it (contiguous in
 * the input and in q), then aot_s16_out32 (one int32 sum: the window has
 * at most AOT_S16_RUN taps). */
static void aot_tc16_dsp_phase(const aot_conv_params *p, const int16_t *input, int32_t py,
                               int32_t px, const int8_t *filter, const aot_s16_rq *rq,
                               uint32_t *q, int16_t *output) {
  const int32_t in_c = p->in_c, in_w = p->in_w, out_c = p->out_c, out_w = p->out_w;
  const int32_t sh = p->stride_h, sw = p->stride_w;
  const int32_t ry = (py + p->pad_h) % sh, rx = (px + p->pad_w) % sw;
  const int32_t nfy = aot_tc16_ntaps(ry, sh, p->filter_h), nfx = aot_tc16_ntaps(rx, sw, p->filter_w);
  const size_t in_img = (size_t)p->in_h * in_w * in_c;
  int32_t oc0, b, oy, ox, r, my;
  for (oc0 = 0; oc0 < out_c; oc0 += 4) {
    const int32_t nr = aot_min_i32(4, out_c - oc0);
    aot_tc16_dsp_quad(p, filter, oc0, ry, rx, nfy, nfx, q);
    for (b = 0; b < p->batches; b++) {
      const int16_t *in_b = input + (size_t)b * in_img;
      for (oy = py; oy < p->out_h; oy += sh) {
        const int32_t iy0 = (oy + p->pad_h - ry) / sh - nfy + 1;
        const int32_t y0 = aot_max_i32(0, -iy0), y1 = aot_min_i32(nfy, p->in_h - iy0);
        int16_t *o = output + (((size_t)b * p->out_h + oy) * out_w + px) * out_c + oc0;
        for (ox = px; ox < out_w; ox += sw, o += (size_t)sw * out_c) {
          const int32_t ix0 = (ox + p->pad_w - rx) / sw - nfx + 1;
          const int32_t x0 = aot_max_i32(0, -ix0), x1 = aot_min_i32(nfx, in_w - ix0);
          int32_t s[4] = {0, 0, 0, 0};
          if (x0 < x1)   /* in_c a multiple of 4: whole groups */
            for (my = y0; my < y1; my++)
              aot_tc16_dsp_dot4(in_b + ((size_t)(iy0 + my) * in_w + (size_t)(ix0 + x0)) * in_c,
                                q + (size_t)(my * nfx + x0) * in_c * 2, (x1 - x0) * in_c / 4, s);
          for (r = 0; r < nr; r++) o[r] = aot_s16_out32(s[r], rq + oc0 + r, p->act_min, p->act_max);
        }
      }
    }
  }
}
#endif

#if defined(AOT_S16_MVE) || defined(AOT_S16_DSP)
int32_t aot_tconv2d_s16(const aot_conv_params *p, const int16_t *input, const int8_t *filter,
                        const int64_t *bias, int16_t *output, void *scratch) {
  const int32_t out_w = p->out_w, out_c = p->out_c, sw = p->stride_w;
  const size_t in_img = (size_t)p->in_h * p->in_w * p->in_c;
  aot_s16_rq *rq = (aot_s16_rq *)scratch;
  int32_t b, oy, ox, c;
  if (p->stride_h <= 0 || p->stride_w <= 0 || p->pad_h < 0 || p->pad_w < 0 ||
      p->filter_in_c != p->in_c)
    return AOT_KERNEL_BAD_PARAM;
  if (rq)
    for (c = 0; c < out_c; c++) rq[c] = aot_s16_rq_of(p->out_mult[c], p->out_shift[c], bias ? bias[c] : 0);
  if (rq && !aot_tconv2d_s16_phased(p) && aot_tconv2d_s16_scratch_size(p) > aot_s16_rq_bytes(p)) {
    int16_t *col = (int16_t *)(void *)((char *)scratch + aot_s16_rq_bytes(p));
    for (b = 0; b < p->batches; b++) {
      const int16_t *in_b = input + (size_t)b * in_img;
      for (oy = 0; oy < p->out_h; oy++) {
        int16_t *orow = output + ((size_t)b * p->out_h + oy) * out_w * out_c;
        /* pairs ox, ox + sw in runs of 2 sw outputs; the rest one by one */
        for (ox = 0; ox + 2 * sw <= out_w; ox += 2 * sw) {
          int32_t ph;
          for (ph = 0; ph < sw; ph++)
            aot_tc16_pair(p, in_b, oy, ox + ph, filter, rq, col, orow + (size_t)(ox + ph) * out_c,
                          orow + (size_t)(ox + ph + sw) * out_c);
        }
        for (; ox < out_w; ox++)
          aot_tc16_one(p, in_b, oy, ox, filter, bias, rq, orow + (size_t)ox * out_c);
      }
    }
    return AOT_KERNEL_OK;
  }
  if (rq && aot_tconv2d_s16_scratch_size(p) > aot_s16_rq_bytes(p)) {
    /* phase by phase (the sub-filter rearranged once per phase) */
    int8_t *pf = (int8_t *)scratch + aot_s16_rq_bytes(p);
    int32_t py, px;
#if defined(AOT_S16_DSP)
    uint32_t *q = (uint32_t *)(void *)(pf + aot_conv_scratch_round(
                                               (size_t)aot_tconv2d_s16_phase_k(p) * (size_t)out_c));
    const int quads = aot_tconv2d_s16_quad_bytes(p) > 0;
#else
    const int quads = 0;
    uint32_t *q = NULL;
#endif
    for (py = 0; py < p->stride_h && py < p->out_h; py++)
      for (px = 0; px < p->stride_w && px < out_w; px++) {
#if defined(AOT_S16_DSP)
        if (quads) {
          aot_tc16_dsp_phase(p, input, py, px, filter, rq, q, output);
          continue;
        }
#endif
        aot_tc16_phase(p, input, py, px, filter, rq, pf, output);
      }
    (void)q;
    (void)quads;
    return AOT_KERNEL_OK;
  }
  for (b = 0; b < p->batches; b++) {
    const int16_t *in_b = input + (size_t)b * in_img;
    for (oy = 0; oy < p->out_h; oy++) {
      int16_t *orow = output + ((size_t)b * p->out_h + oy) * out_w * out_c;
      for (ox = 0; ox < out_w; ox++)
        aot_tc16_one(p, in_b, oy, ox, filter, bias, rq, orow + (size_t)ox * out_c);
    }
  }
  return AOT_KERNEL_OK;
}
#endif
