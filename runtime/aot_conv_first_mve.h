/* aot_conv_first_mve.h - Cortex-M55 Helium path of the int8 CONV_2D kernel
 * for layers of few input channels (first layers: 1-4 channels, one group,
 * dilation 1; aot_conv2d_s8_fmve_fits in aot_conv.h), where the generic
 * Helium path would copy every window (im2col) and spend most of its time
 * on those copies. Included by aot_conv2d_s8.c in its Helium build only,
 * after the generic path's pass helpers (aot_conv2d_s8_mve_sums,
 * aot_conv2d_s8_mve_sums16, aot_conv2d_s8_mve_rq), which it reuses.
 *
 * Per output row (b, oy):
 *  - P: the fh input rows the row reads, each wp = (out_w - 1) * stride_w
 *    + fw columns from ix = -pad_w, with the columns and rows outside the
 *    image set to the input zero point zp = -input_offset (P is filled with
 *    zp once per call; per row only the image's columns are rewritten). A
 *    tap at zp adds w * zp + input_offset * w = 0 to ks + sum w * x (ks =
 *    bias + input_offset * sum w, below), the same sum as skipping it;
 *  - B: P transposed by columns: per column x its fh rows' in_c bytes,
 *    t = fh * in_c bytes a column, so the window of output column ox is the
 *    one run of fsize = fw * t bytes from B + ox * stride_w * t. B is built
 *    16 bytes at a time by two 16-bit-offset byte gathers (VLDRB.S16 gather,
 *    even and odd lanes) narrowed into one vector (VMOVNB / VMOVNT): the
 *    offsets of 16 columns (t vectors) are computed once per call, and the
 *    next 16 columns are the same offsets from a base 16 * in_c further;
 *  - the filters, their taps reordered to B's order (fx, fy, c), are packed
 *    once per block of cb channels in the order aot_mve_pass4_s8 reads
 *    (aot_mve_pack4_s8's: per 16 taps the four filters' 16 bytes, zeros past
 *    the taps), so the row's windows run through the generic path's packed
 *    2-position x 4-channel passes in place (as its 1 x fw layers do) and
 *    its requantization (aot_mve_out_s8, bit-identical to aot_conv_mbqm).
 * Every sum is the portable kernel's int32 sum of w * (x + input_offset) +
 * bias, in modular int32 arithmetic like it, so the outputs are the same
 * bits. */
#ifndef AOT_CONV_FIRST_MVE_H
#define AOT_CONV_FIRST_MVE_H

/* gather offsets of 16 columns of B into P: vector 2q (even lanes) and
   2q + 1 (odd lanes) of chunk q, byte j = 16 q + lane of B at column j / t,
   row (j % t) / in_c, channel j % in_c */
static void aot_conv2d_s8_fmve_offsets(uint16_t *o, int32_t t, int32_t in_c, size_t rs) {
  int32_t j;
  for (j = 0; j < 16 * t; j++) {
    const int32_t x = j / t, r = j % t;
    o[(j >> 4) * 16 + (j & 1) * 8 + ((j & 15) >> 1)] =
        (uint16_t)((size_t)(r / in_c) * rs + (size_t)(x * in_c + r % in_c));
  }
}

/* B from P: ng groups of 16 columns, t chunks of 16 bytes each */
static __attribute__((noinline)) void aot_conv2d_s8_fmve_cols(int8_t *b, const int8_t *pr,
                                                             const uint16_t *o, int32_t t,
                                                             int32_t ng, int32_t in_c) {
  const int8x16_t z = vdupq_n_s8(0);
  int32_t g, q;
  for (g = 0; g < ng; g++, pr += 16 * in_c)
    for (q = 0; q < t; q++, b += 16) {
      const int16x8_t e = vldrbq_gather_offset_s16(pr, vldrhq_u16(o + 16 * q));
      const int16x8_t d = vldrbq_gather_offset_s16(pr, vldrhq_u16(o + 16 * q + 8));
      vstrbq_s8(b, vmovntq_s16(vmovnbq_s16(z, e), d));
    }
}

static int32_t aot_conv2d_s8_first_mve(const aot_conv_params *p, const int8_t *input,
                                       const int8_t *filter, const int32_t *bias,
                                       int8_t *output, void *scratch) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c, out_h = p->out_h;
  const int32_t out_w = p->out_w, out_c = p->out_c, fh = p->filter_h, fw = p->filter_w;
  const int32_t fsize = fh * fw * in_c, in_off = p->input_offset;
  const size_t in_row = (size_t)in_w * in_c;
  const int8_t zp = (int8_t)(-in_off);
  aot_conv2d_s8_fmve_plan pl;
  int32_t *cst, *st, *acc;
  int8_t *wp, *pr, *bc;
  uint16_t *offs;
  int32_t c0, cb, k16, t, xs, ncopy, x0;
  size_t pbytes;

  aot_conv2d_s8_fmve_plan_of(p, &pl);
  cb = pl.cb;
  k16 = pl.k16;
  t = pl.t;
  cst = (int32_t *)scratch;
  st = cst + 4 * cb;
  acc = st + 12;
  wp = (int8_t *)(acc + 4 * pl.na);
  offs = (uint16_t *)(wp + (size_t)cb * k16);
  pr = (int8_t *)(offs + 16 * t);
  pbytes = (size_t)fh * pl.rs + 16u * (size_t)in_c;
  bc = pr + pbytes;
  xs = p->stride_w * t;
  /* the image's columns of a P row: x0 .. x0 + ncopy (p->pad_w >= 0) */
  x0 = p->pad_w < pl.wp ? p->pad_w : pl.wp;
  ncopy = aot_min_i32(in_w, pl.wp - x0);
  aot_conv2d_s8_fmve_offsets(offs, t, in_c, pl.rs);
  aot_mve_fill_s8(pr, zp, (int32_t)pbytes);
  aot_mve_fill_s8(bc + (size_t)pl.ng * 16 * t, 0, 16);

  for (c0 = 0; c0 < out_c; c0 += cb) {
    const int32_t nc = out_c - c0 < cb ? out_c - c0 : cb;
    int32_t j, i, b, oy, fy, fx, c;
    aot_conv2d_s8_mve_consts(p, filter + (size_t)c0 * fsize, bias, c0, nc, cb, fsize, cst);
    /* filters in B's tap order (fx, fy, c), packed: tap k of channel j at
       (j / 4) * 4 * k16 + (k / 16) * 64 + (j % 4) * 16 + k % 16 */
    aot_mve_fill_s8(wp, 0, cb * k16);
    for (j = 0; j < nc; j++) {
      const int8_t *f = filter + (size_t)(c0 + j) * fsize;
      int8_t *d = wp + (size_t)(j >> 2) * 4 * k16 + (j & 3) * 16;
      for (fy = 0; fy < fh; fy++)
        for (fx = 0; fx < fw; fx++)
          for (c = 0; c < in_c; c++) {
            const int32_t k = fx * t + fy * in_c + c;
            d[(k >> 4) * 64 + (k & 15)] = *f++;
          }
    }
    /* every window read as k16 taps (whole chunks, no tail): the taps past
       fsize are the next columns of B (or its zeroed slack) and meet zero
       weights, so they add nothing */
    st[4] = k16 >> 4;
    st[6] = (int32_t)vctp8q(16u);
    for (b = 0; b < p->batches; b++) {
      const int8_t *in_b = input + (size_t)b * in_h * in_row;
      for (oy = 0; oy < out_h; oy++) {
        const int32_t iy0 = oy * p->stride_h - p->pad_h;
        int8_t *o = output + ((size_t)b * out_h + oy) * out_w * out_c + c0;
        for (fy = 0; fy < fh; fy++) {
          int8_t *d = pr + (size_t)fy * pl.rs + (size_t)x0 * in_c;
          const int32_t iy = iy0 + fy;
          if (ncopy <= 0) break;
          if (iy >= 0 && iy < in_h)
            aot_mve_copy_run_s8(d, in_b + (size_t)iy * in_row, ncopy * in_c);
          else
            aot_mve_fill_s8(d, zp, ncopy * in_c);
        }
        aot_conv2d_s8_fmve_cols(bc, pr, offs, t, pl.ng, in_c);
        for (j = 0; j < nc; j += 4) {
          int32_t cnt;
          st[0] = cst[j];
          st[1] = cst[j + 1];
          st[2] = cst[j + 2];
          st[3] = cst[j + 3];
          st[5] = (int32_t)(intptr_t)(wp + (size_t)j * k16);
          for (i = 0; i < out_w; i += cnt) {
            cnt = out_w - i < pl.na ? out_w - i : pl.na;
            if (k16 == 16)
              aot_conv2d_s8_mve_sums16(bc + (size_t)i * xs, (size_t)xs, cnt, st, acc, 0);
            else
              aot_conv2d_s8_mve_sums(bc + (size_t)i * xs, (size_t)xs, cnt, st, acc, 0, 0);
            aot_conv2d_s8_mve_rq(acc, cnt, cst + j, cb, o + (size_t)i * out_c + j,
                                 (size_t)out_c, nc - j < 4 ? nc - j : 4, p->output_offset,
                                 p->act_min, p->act_max);
          }
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}

#endif
