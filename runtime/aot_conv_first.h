/* aot_conv_first.h - int8 CONV_2D of few input channels (the first layer of
 * image and audio networks: 1-4 input channels, one group, dilation 1,
 * small filters; aot_conv2d_s8_dsp_first, aot_conv.h) on the Arm DSP
 * extension (Cortex-M4F/M7/M33): the path aot_conv2d_s8 (aot_conv2d_s8.c)
 * hands these layers to. Bit-exact with the portable kernel (TFLite
 * reference ConvPerChannel).
 *
 * Such a layer has few taps per window (K = filter_h * filter_w * in_c, 6
 * to 80 in the usual models) and few output channels, so the generic
 * paths, which gather and widen a window per output position, spend most
 * of their time outside the dot products. Here no window is gathered:
 *  - the input rows an output row reads are sign-extended into 16-bit
 *    values and interleaved by pairs (word q * filter_h + col holds values
 *    2q, 2q + 1 of the row in column col), the values left and right of
 *    the image set to the input zero point zp = -input_offset (an int8:
 *    such a tap adds w * zp + input_offset * w = 0, the same sum as
 *    skipping it; rows above and below the image are all zp). Input row iy
 *    lives in column iy mod filter_h, so it is widened once however many
 *    output rows read it, and output row oy reads the filter copy rotated
 *    by (oy * stride_h - pad_h) mod filter_h (filter_h copies, when they fit
 *    in the scratch; else every output row widens its rows again into
 *    columns 0 .. filter_h - 1). The window of output column ox, whose
 *    filter row fy is the run of filter_w * in_c values from
 *    s = ox * stride_w * in_c in its row, is then one run of
 *    L = nj * filter_h words from word (s / 2) * filter_h, nj the pairs of
 *    a filter row. When stride_w * in_c is odd, half of the windows start at
 *    an odd value: the rows are then also interleaved shifted by one value
 *    (the B copy) and those windows read it;
 *  - the filter is widened once per call into the same order, eight output
 *    channels interleaved (a filter row of an odd number of taps gets a zero
 *    last weight, which meets the next value of the row: nothing outside the
 *    window is added; channels past out_c have zero filters);
 *  - per output row and eight channels one assembly loop over the
 *    positions (aot_cf_row8: per pair of taps one input word, four LDRD of
 *    filter pairs and eight SMLAD, 13 instructions for 16 MACs), the sums starting from
 *    ks = bias + input_offset * sum w (p->kbias when aotc computed it; int32
 *    wrap-around, the same integer as the portable sum of
 *    w * (x + input_offset) + bias; the sum of at most AOT_CONV_FIRST_L
 *    pairs cannot leave int32 beyond that wrap-around);
 *  - requantization per channel as aot_dsp_kc_set chooses it; when every
 *    channel takes its fast case and the activation range is all of int8,
 *    the fast case folded with the output offset and SSAT as in
 *    aot_conv_pw_dsp.h (((r >> rs) + 1 + 2 * out_off) >> 1 equals
 *    ((r >> rs) + 1) >> 1 + out_off).
 * Scratch as aot_conv2d_s8_first_layout (aot_conv.h) lays it out. */
#ifndef AOT_CONV_FIRST_H
#define AOT_CONV_FIRST_H

#include "aot_dsp.h"

#if defined(AOT_DSP) && AOT_F_CONV_S8_FIRST

/* one pair of taps for eight channels: the input word into r3, four LDRD of
 * filter words, eight SMLAD into r4-r11 */
#define AOT_CF_G                          \
  "ldr r3, [r0], #4\n\t"                  \
  "ldrd r12, lr, [r1], #8\n\t"            \
  "smlad r4, r12, r3, r4\n\t"             \
  "smlad r5, lr, r3, r5\n\t"              \
  "ldrd r12, lr, [r1], #8\n\t"            \
  "smlad r6, r12, r3, r6\n\t"             \
  "smlad r7, lr, r3, r7\n\t"              \
  "ldrd r12, lr, [r1], #8\n\t"            \
  "smlad r8, r12, r3, r8\n\t"             \
  "smlad r9, lr, r3, r9\n\t"              \
  "ldrd r12, lr, [r1], #8\n\t"            \
  "smlad r10, r12, r3, r10\n\t"           \
  "smlad r11, lr, r3, r11\n\t"

/* The state of one block of eight channels for aot_cf_row8 (the assembly
 * reads it by these offsets) */
typedef struct aot_cf_blk {
  const int32_t *ks;   /* 0: eight start values */
  const int32_t *ms;   /* 4: eight (m, rs) pairs of the fast requantization */
  int32_t L;           /* 8: pairs of taps of a window (>= 1) */
  int32_t c1;          /* 12: 1 + 2 * output offset */
  int32_t *io;         /* 16: the eight sums, when ms is NULL */
  const uint32_t *w;   /* 20: the block's widened filter */
  int32_t npos;        /* 24: positions left (>= 1; 1 when ms is NULL) */
  int32_t xstep;       /* 28: bytes from the end of a window to the next one */
  int32_t ostep;       /* 32: bytes from the end of eight outputs to the next */
} aot_cf_blk;

/* B->npos output positions, eight channels, windows from x on: the sums
 * B->ks[i] + the SMLAD of filter words B->w[8t + i] with input words x[t],
 * t < B->L; then, when B->ms is set, the fast requantization of each (sums
 * doubled: the filter words and ks are; m and rs from ms, then SSAT with
 * the output offset folded) stored to out[i] (the next position's window
 * B->xstep bytes after the end of this one, its outputs B->ostep after
 * these), else the sums stored to B->io (one position). B->npos is counted
 * down. Naked: the loop needs all fourteen registers (eight sums, two
 * pointers, the count, the input word, two filter words). */
#define AOT_CF_UNUSED __attribute__((unused))
#define AOT_CF_RQ(r)                      \
  "ldrd r12, lr, [r2], #8\n\t"            \
  "smmulr " r ", " r ", r12\n\t"          \
  "add " r ", " r ", " r ", asr #31\n\t"  \
  "asr " r ", " r ", lr\n\t"              \
  "add " r ", " r ", r3\n\t"              \
  "ssat " r ", #8, " r ", asr #1\n\t"     \
  "strb " r ", [r1], #1\n\t"
__attribute__((naked, noinline)) static void aot_cf_row8(AOT_CF_UNUSED const uint32_t *x,
                                                        AOT_CF_UNUSED aot_cf_blk *B,
                                                        AOT_CF_UNUSED int8_t *out) {
  __asm__ volatile(
      "push {r1, r2, r4, r5, r6, r7, r8, r9, r10, r11, lr}\n"
      "5:\n\t"
      "ldr r2, [sp]\n\t"
      "ldr r3, [r2]\n\t"
      "ldr r1, [r2, #20]\n\t"
      "ldm r3, {r4, r5, r6, r7, r8, r9, r10, r11}\n\t"
      "ldr r2, [r2, #8]\n\t"
      "lsrs r2, r2, #1\n\t"
      "bcc 2f\n\t"
      AOT_CF_G
      "2:\n\t"
      "beq 3f\n"
      "1:\n\t"
      AOT_CF_G
      AOT_CF_G
      "subs r2, r2, #1\n\t"
      "bne 1b\n"
      "3:\n\t"
      "ldr r2, [sp]\n\t"
      "ldr r1, [sp, #4]\n\t"
      "ldr r3, [r2, #12]\n\t"
      "ldr r2, [r2, #4]\n\t"
      "cmp r2, #0\n\t"
      "beq 4f\n\t"
      AOT_CF_RQ("r4") AOT_CF_RQ("r5") AOT_CF_RQ("r6") AOT_CF_RQ("r7")
      AOT_CF_RQ("r8") AOT_CF_RQ("r9") AOT_CF_RQ("r10") AOT_CF_RQ("r11")
      "ldr r2, [sp]\n\t"
      "ldrd r3, r12, [r2, #28]\n\t"
      "add r0, r0, r3\n\t"
      "add r1, r1, r12\n\t"
      "str r1, [sp, #4]\n\t"
      "ldr r3, [r2, #24]\n\t"
      "subs r3, r3, #1\n\t"
      "str r3, [r2, #24]\n\t"
      "bne 5b\n\t"
      "pop {r1, r2, r4, r5, r6, r7, r8, r9, r10, r11, pc}\n"
      "4:\n\t"
      "ldr r2, [sp]\n\t"
      "ldr r2, [r2, #16]\n\t"
      "stm r2, {r4, r5, r6, r7, r8, r9, r10, r11}\n\t"
      "pop {r1, r2, r4, r5, r6, r7, r8, r9, r10, r11, pc}\n");
}

/* What one call shares */
typedef struct aot_cf {
  const aot_dsp_kc *kc;   /* oc8 entries */
  int32_t fast;           /* every channel's fast requantization with SSAT */
  int32_t out_off, full, lo, hi;
} aot_cf;

/* the n outputs of sums a (not doubled) of channels k into o */
static __attribute__((noinline)) void aot_cf_out(const aot_cf *f, const int32_t *a,
                                                 const aot_dsp_kc *k, int32_t n, int8_t *o) {
  int32_t i;
  for (i = 0; i < n; i++)
    o[i] = aot_dsp_st(aot_dsp_rqk(a[i], k + i) + f->out_off, f->full, f->lo, f->hi);
}

/* Input row x (n int8) widened into the 16-bit row a of tot values: lead
 * zero points, the n values, then zero points. */
static __attribute__((noinline)) void aot_cf_widen(const int8_t *x, int32_t lead, int32_t n,
                                                   int32_t tot, int16_t zp, int16_t *a) {
  int16_t *d = a + lead;
  int32_t k;
  for (k = 0; k < lead; k++) a[k] = zp;
  for (k = n >> 2; k > 0; k--, x += 4, d += 4) {
    uint32_t v, lo, hi;
    memcpy(&v, x, 4);
    lo = (uint32_t)__sxtb16((int8x4_t)v);
    hi = (uint32_t)__sxtb16((int8x4_t)((v >> 8) | (v << 24)));
    v = aot_dsp_pkhbt(lo, hi);
    hi = aot_dsp_pkhtb(lo, hi);
    memcpy(d, &v, 4);
    memcpy(d + 2, &hi, 4);
  }
  for (k = n & 3; k > 0; k--) *d++ = *x++;
  for (k = tot - lead - n; k > 0; k--) *d++ = zp;
}

/* The words of widened row r (rw words, 2 * rw >= 2q + 2 values) into
 * column fy of the interleaved rows X (q words, fh apart), and shifted by
 * one value into XB when XB is not NULL. */
static __attribute__((noinline)) void aot_cf_spread(const uint32_t *r, int32_t q, int32_t fh,
                                                    uint32_t *X, uint32_t *XB) {
  int32_t k;
  for (k = 0; k < q; k++, X += fh) *X = r[k];
  if (XB) {
    const int8_t *rb = (const int8_t *)r + 2;
    for (k = 0; k < q; k++, XB += fh, rb += 4) memcpy(XB, rb, 4);
  }
}

/* Column of the interleaved rows X (q words, fh apart; XB: the B copy or
 * NULL) of input row x (n int8 after lead zero points, zero points after;
 * x NULL: a row outside the image, all zero points); tmp: a row of rw
 * words for the general case (lead odd, or the B copy). */
static __attribute__((noinline)) void aot_cf_col(const int8_t *x, int32_t lead, int32_t n,
                                                 const aot_conv2d_s8_first_lay *Ly, int32_t fh,
                                                 int16_t zp, uint32_t *X, uint32_t *XB,
                                                 uint32_t *tmp) {
  const uint32_t zp2 = (uint32_t)(uint16_t)zp * 0x10001u;
  const int32_t q = Ly->q;
  int32_t k;
  if (!x) {
    for (k = 0; k < q; k++, X += fh) *X = zp2;
    if (XB)
      for (k = 0; k < q; k++, XB += fh) *XB = zp2;
    return;
  }
  if (XB || (lead & 1)) {
    aot_cf_widen(x, lead, n, 2 * Ly->rw, zp, (int16_t *)tmp);
    aot_cf_spread(tmp, q, fh, X, XB);
    return;
  }
  /* lead even: four input values are two words of the column */
  for (k = lead >> 1; k > 0; k--, X += fh) *X = zp2;
  for (k = n >> 2; k > 0; k--, x += 4, X += 2 * fh) {
    uint32_t v, lo, hi;
    memcpy(&v, x, 4);
    lo = (uint32_t)__sxtb16((int8x4_t)v);
    hi = (uint32_t)__sxtb16((int8x4_t)((v >> 8) | (v << 24)));
    X[0] = aot_dsp_pkhbt(lo, hi);
    X[fh] = aot_dsp_pkhtb(lo, hi);
  }
  /* the last 0-3 values, then zero points */
  for (k = (lead >> 1) + 2 * (n >> 2), n &= 3; k < q; k++, X += fh, n -= 2) {
    const uint16_t lo = n > 0 ? (uint16_t)x[0] : (uint16_t)zp;
    const uint16_t hi = n > 1 ? (uint16_t)x[1] : (uint16_t)zp;
    *X = (uint32_t)lo | (uint32_t)hi << 16;
    if (n > 0) x += n > 1 ? 2 : 1;
  }
}

static __attribute__((noinline)) int32_t aot_conv2d_s8_first_dsp(const aot_conv_params *p,
                                                                 const int8_t *input,
                                                                 const int8_t *filter,
                                                                 const int32_t *bias,
                                                                 int8_t *output, void *scratch) {
  aot_conv2d_s8_first_lay Ly;
  const int32_t in_c = p->in_c, fh = p->filter_h, fw = p->filter_w, oc = p->out_c;
  const int32_t K = fh * fw * in_c, rl = fw * in_c, sw = p->stride_w, in_h = p->in_h;
  const int32_t out_w = p->out_w;
  const uint32_t in_off = (uint32_t)p->input_offset;
  const int16_t zp = (int16_t)(-p->input_offset);
  const size_t in_row = (size_t)p->in_w * in_c;
  aot_dsp_kc *kc;
  aot_cf_blk *blk;
  int32_t *ks, *ms, io[8];
  uint32_t *wpk, *tmp, *X, *XB;
  int32_t tag[AOT_CONV_FIRST_FH];
  int32_t c, fy, j, r, b, oy, ox, lead, n, dbl;
  aot_cf f;

  if (!AOT_KB(p)) {
#if !AOT_F_CONV_S8_NOKB
    return AOT_KERNEL_BAD_PARAM;   /* no layer without the folded bias */
#endif
  }
  aot_conv2d_s8_first_layout(p, &Ly);
  kc = (aot_dsp_kc *)scratch;
  ks = (int32_t *)(kc + Ly.oc8);
  ms = ks + Ly.oc8;
  blk = (aot_cf_blk *)(ms + 2 * Ly.oc8);
  wpk = (uint32_t *)((char *)scratch + Ly.kc_bytes);
  tmp = wpk + Ly.w_words * Ly.nrot;
  X = tmp + Ly.rw;
  XB = Ly.odd ? X + (size_t)Ly.q * fh : NULL;
  f.kc = kc;
  f.out_off = p->output_offset;
  f.full = AOT_FULL8(p);
  f.lo = p->act_min;
  f.hi = p->act_max;
  /* channel constants; the fast path when every channel takes the fast
     requantization (|ks + sum| < 2^30: the doubled sums fit int32) */
  f.fast = f.full;
  for (c = 0; c < Ly.oc8; c++) {
    if (c >= oc) {
      kc[c].ks = 0;
      kc[c].m = 0;
      kc[c].s = 0;
    } else {
      int32_t k;
      if (AOT_KB(p)) {
        k = p->kbias[c];
      } else {
        const uint32_t t = (uint32_t)aot_dsp_sum_s8(filter + (size_t)c * K, K);
        k = (int32_t)((bias ? (uint32_t)bias[c] : 0u) + t * in_off);
      }
      aot_dsp_kc_set(kc + c, k, p->out_mult[c], p->out_shift[c], K);
      if ((uint32_t)kc[c].s >= 32u) f.fast = 0;
    }
  }
  dbl = f.fast ? 1 : 0;
  for (c = 0; c < Ly.oc8; c++) {
    ks[c] = (int32_t)((uint32_t)kc[c].ks << dbl);
    ms[2 * c] = kc[c].m;
    ms[2 * c + 1] = kc[c].s;
  }
  for (c = 0; c < Ly.oc8; c += 8) {
    aot_cf_blk *B = blk + (c >> 3);
    B->ks = ks + c;
    B->ms = f.fast && c + 8 <= oc ? ms + 2 * c : NULL;
    B->L = Ly.L;
    B->c1 = 1 + 2 * p->output_offset;
    B->io = io;
    /* (windows sw * in_c / 2 * fh words apart when sw * in_c is even) */
    B->xstep = 4 * ((sw * in_c >> 1) * fh - Ly.L);
    B->ostep = oc - 8;
  }
  /* the widened filters (doubled on the fast path: |2w| <= 256 fits
     int16): in copy r, word (c / 8, j * fh + col, c % 8) holds taps 2j,
     2j + 1 of filter row (col - r) mod fh of channel c (0 past the row's
     end or the last channel) */
  for (r = 0; r < Ly.nrot; r++)
    for (c = 0; c < Ly.oc8; c++) {
      uint32_t *const d0 = wpk + Ly.w_words * r + (size_t)(c >> 3) * Ly.L * 8 + (c & 7);
      for (fy = 0; fy < fh; fy++) {
        const int8_t *wr = filter + (size_t)c * K + (fy - r + fh) % fh * rl;
        uint32_t *d = d0 + 8 * fy;
        if (c >= oc) {
          for (j = 0; j < Ly.nj; j++, d += 8 * fh) *d = 0;
          continue;
        }
        for (j = 0; 2 * j + 1 < rl; j++, d += 8 * fh, wr += 2)
          *d = (uint32_t)(uint16_t)(wr[0] * (1 + dbl)) | (uint32_t)(uint16_t)(wr[1] * (1 + dbl)) << 16;
        if (rl & 1) *d = (uint32_t)(uint16_t)(wr[0] * (1 + dbl));
      }
    }
  (void)bias;
  lead = p->pad_w * in_c;
  if (lead > Ly.tot) lead = Ly.tot;
  n = (int32_t)in_row;
  if (n > Ly.tot - lead) n = Ly.tot - lead;
  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + (size_t)b * in_h * in_row;
    for (fy = 0; fy < fh; fy++) tag[fy] = INT32_MIN;
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      /* ring: input row iy in column iy mod fh, filter copy iy0 mod fh;
         else row fy in column fy, every output row */
      const int32_t rot = Ly.nrot > 1 ? (iy0 % fh + fh) % fh : 0;
      const uint32_t *wr = wpk + Ly.w_words * rot;
      int8_t *out = output + ((size_t)b * p->out_h + oy) * out_w * oc;
      int32_t s;
      for (fy = 0; fy < fh; fy++) {
        const int32_t iy = iy0 + fy, cl = (rot + fy) % fh;
        if (Ly.nrot > 1 && tag[cl] == iy) continue;
        tag[cl] = Ly.nrot > 1 ? iy : INT32_MIN;
        aot_cf_col(iy >= 0 && iy < in_h ? in_b + (size_t)iy * in_row : NULL, lead, n, &Ly, fh,
                   zp, X + cl, XB ? XB + cl : NULL, tmp);
      }
      /* window of column ox: from value s = ox * sw * in_c (the B copy from
         value s - 1 when s is odd: the same word index s / 2); a row of
         windows sw * in_c / 2 pairs apart in one loop per block when every
         s is even */
      for (c = 0; c < oc; c += 8) {
        aot_cf_blk *B = blk + (c >> 3);
        B->w = wr + (size_t)c * Ly.L;
        if (B->ms && !Ly.odd) {
          B->npos = out_w;
          aot_cf_row8(X, B, out + c);
          continue;
        }
        for (ox = 0, s = 0; ox < out_w; ox++, s += sw * in_c) {
          const uint32_t *x = ((s & 1) ? XB : X) + (size_t)(s >> 1) * fh;
          B->npos = 1;
          aot_cf_row8(x, B, out + (size_t)ox * oc + c);
          if (!B->ms) {   /* the sums in io (doubled on the fast path: exact halves) */
            for (j = 0; j < 8; j++) io[j] >>= dbl;
            aot_cf_out(&f, io, kc + c, oc - c < 8 ? oc - c : 8, out + (size_t)ox * oc + c);
          }
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}

#endif /* AOT_DSP && AOT_F_CONV_S8_FIRST */

#endif
