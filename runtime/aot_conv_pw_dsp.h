/* aot_conv_pw_dsp.h - pointwise (1x1, one group, no padding, any stride)
 * int8 CONV_2D on the Arm DSP extension (Cortex-M4F/M7/M33): the kernel
 * aot_conv2d_s8 (aot_conv2d_s8.c) hands these layers to. Bit-exact with
 * the portable kernel (TFLite reference ConvPerChannel).
 *
 * A pointwise convolution is a matrix product: output position q, channel c
 * is sum_k w[c][k] * x_q[k] requantized, x_q the in_c values of the input
 * pixel under q. Output positions are taken six at a time (AOT_PW_P; a last
 * block of four or five positions overlaps the previous block, one to three
 * go in pairs): the six input pixels are sign-extended once into 16-bit
 * pairs in the scratch buffer (per four taps (k0, k2), (k1, k3) of each
 * position, positions interleaved, so the dot loop reads them with one
 * post-incremented LDRD each), then every output channel runs one loop over
 * its filter row: per four taps one LDR of the filter word, two SXTB16 and
 * twelve SMLAD into the six sums (23 instructions for 24 MACs; the pair
 * kernel 11 for 8). The inputs are widened once per block for all out_c
 * channels, the weights once per four taps for six positions.
 *
 * The input offset is not added per tap: each channel's sum starts from
 * ks = bias + input_offset * sum w (p->kbias when aotc computed it, else
 * summed once per call; int32 wrap-around, the same integer as the portable
 * sum of w * (x + input_offset) + bias). A filter row whose length is not a
 * multiple of four is read past its end by up to three bytes, which meet
 * the zero taps that pad the widened inputs; the last row's padded copy is
 * kept in the scratch buffer so that nothing past the filter is read.
 *
 * Requantization per channel as aot_dsp_kc_set chooses it (aot_dsp.h), the
 * fast path folded with the output offset: ((r >> rs) + 1 + 2 * out_off) >> 1
 * equals ((r >> rs) + 1) >> 1 + out_off, and the shift right by one is
 * SSAT's operand shift when the activation range is all of int8. With
 * that range, each run of consecutive channels taking that path (the
 * common case) of a six-position block is one assembly loop (aot_pw_fast6:
 * the dot loop, six requantizations and stores, about 47 instructions per
 * channel besides the dot loop's 23 per four taps); the other channels'
 * sums go through aot_pw_out (aot_dsp_rqk, aot_dsp_st).
 *
 * Scratch (aot_conv2d_s8_scratch_dsp_pw, aot_conv.h): out_c channel
 * constants (aot_pw_kc, 16 bytes each), the widened inputs of six positions
 * (48 bytes per four taps), when in_c % 4 != 0 the padded last row, and
 * for a gathered layer its window (aot_conv2d_s8_dsp_pw_win bytes after
 * the widened inputs), in this order (the scratch is 8-byte aligned; LDRD
 * needs 4). */
#ifndef AOT_CONV_PW_DSP_H
#define AOT_CONV_PW_DSP_H

#include "aot_dsp.h"

#ifdef AOT_DSP

#define AOT_PW_P 6

/* the per-position four-tap group of the dot loops: one LDRD of the widened
 * inputs of position i, two SMLAD with the filter pairs u = (k0, k2),
 * t = (k1, k3) */
#define AOT_PW_POS(i)                              \
  "ldrd %[xa], %[xb], [%[col]], #8\n\t"            \
  "smlad %[a" #i "], %[u], %[xa], %[a" #i "]\n\t"  \
  "smlad %[a" #i "], %[t], %[xb], %[a" #i "]\n\t"
#define AOT_PW_W                                   \
  "ldr %[t], [%[w]], #4\n\t"                       \
  "sxtb16 %[u], %[t]\n\t"                          \
  "sxtb16 %[t], %[t], ror #8\n\t"
#define AOT_PW_G6 AOT_PW_W AOT_PW_POS(0) AOT_PW_POS(1) AOT_PW_POS(2) \
  AOT_PW_POS(3) AOT_PW_POS(4) AOT_PW_POS(5)
#define AOT_PW_G2 AOT_PW_W AOT_PW_POS(0) AOT_PW_POS(1)

/* s[i] += sum over k < 4 * ng of w[k] * x_i[k], i < np (6 or 2), the np
 * positions' widened inputs at col (ng >= 1 groups of 2 * np words): the
 * path of the channels outside aot_pw_fast6 and of pairs */
static __attribute__((noinline, unused)) void aot_pw_dot(const uint32_t *col, const int8_t *w,
                                                         int32_t ng, int32_t np, int32_t *s) {
  int32_t a0 = s[0], a1 = s[1], t, u, xa, xb;
  if (np == AOT_PW_P) {
    int32_t a2 = s[2], a3 = s[3], a4 = s[4], a5 = s[5];
    __asm__ volatile("1:\n\t" AOT_PW_G6
                     "subs %[n], %[n], #1\n\t"
                     "bne 1b\n"
                     : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3),
                       [a4] "+r"(a4), [a5] "+r"(a5), [t] "=&r"(t), [u] "=&r"(u),
                       [xa] "=&r"(xa), [xb] "=&r"(xb), [col] "+r"(col), [w] "+r"(w),
                       [n] "+r"(ng)
                     :
                     : "cc", "memory");
    s[2] = a2;
    s[3] = a3;
    s[4] = a4;
    s[5] = a5;
  } else {
    __asm__ volatile("1:\n\t" AOT_PW_G2
                     "subs %[n], %[n], #1\n\t"
                     "bne 1b\n"
                     : [a0] "+r"(a0), [a1] "+r"(a1), [t] "=&r"(t), [u] "=&r"(u),
                       [xa] "=&r"(xa), [xb] "=&r"(xb), [col] "+r"(col), [w] "+r"(w),
                       [n] "+r"(ng)
                     :
                     : "cc", "memory");
  }
  s[0] = a0;
  s[1] = a1;
}

/* A channel's constants (aot_dsp_kc) and how a block computes it: run > 0:
 * the first of run consecutive channels of aot_pw_fast6; run < 0: a
 * constant channel, every output is k.ks (see aot_conv2d_s8_pw_dsp);
 * run = 0: aot_pw_dot and aot_pw_out. A run's channels hold 2 * ks (the
 * inputs are widened doubled, and the doubled sums of a channel with
 * |ks + sum w * x| < 2^30 fit int32: the requantization's doubling is then
 * free). 16 bytes (the assembly's stride). */
typedef struct aot_pw_kc {
  aot_dsp_kc k;
  int32_t run;
} aot_pw_kc;

/* The state of aot_pw_fast6 (the assembly reads it by these offsets) */
typedef struct aot_pw_fast {
  const aot_pw_kc *kc;      /* 0: the channel's constants */
  const aot_pw_kc *kend;    /* 4: past the last channel of the loop */
  int8_t *o;                /* 8: the channel's output of the first position */
  int32_t out_c;            /* 12: outputs of one position */
  int32_t c1;               /* 16: 1 + 2 * output offset */
  const uint32_t *col;      /* 20: the widened inputs */
  int32_t ngm1;             /* 24: groups of four taps, less one */
  int32_t wpad;             /* 28: 4 * groups - in_c */
} aot_pw_fast;

/* the first group of the fast loop: a0 holds ks, the other sums start from it */
#define AOT_PW_POS0(i, off)                              \
  "ldrd %[xa], %[xb], [%[col], #" off "]\n\t"            \
  "smlad %[a" #i "], %[u], %[xa], %[a0]\n\t"             \
  "smlad %[a" #i "], %[t], %[xb], %[a" #i "]\n\t"
/* the fast requantization of the doubled sum i (m in u, rs in xa, c1 in
 * xb) */
#define AOT_PW_RQ(i)                                     \
  "smmulr %[a" #i "], %[a" #i "], %[u]\n\t"              \
  "add %[a" #i "], %[a" #i "], %[a" #i "], asr #31\n\t"  \
  "asr %[a" #i "], %[a" #i "], %[xa]\n\t"                \
  "add %[a" #i "], %[a" #i "], %[xb]\n\t"                \
  "ssat %[a" #i "], #8, %[a" #i "], asr #1\n\t"

/* one assembly string longer than the 4095 characters C99 promises
 * (-pedantic's -Woverlength-strings; GCC and Clang take it) */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif
/* Channels S->kc .. S->kend - 1 (at least one) of a six-position block, all
 * taking the fast requantization with SSAT (aot_pw_out's first case), w the
 * first channel's filter row: per channel the dot loop (first group peeled,
 * starting the six sums from ks; then two groups per iteration after an
 * odd one), the requantization and the six stores. */
static __attribute__((noinline, unused)) void aot_pw_fast6(aot_pw_fast *S, const int8_t *w) {
  int32_t a0, a1, a2, a3, a4, a5, t, u, xa, xb, col, n;
  __asm__ volatile(
      AOT_ASM_R7_SAVE
      "0:\n\t"
      "ldr %[t], [%[S], #0]\n\t"
      "ldr %[a0], [%[t]]\n\t"
      "ldr %[col], [%[S], #20]\n\t"
      "ldr " AOT_ASM_R7(n) ", [%[S], #24]\n\t"
      AOT_PW_W
      AOT_PW_POS0(1, "8") AOT_PW_POS0(2, "16") AOT_PW_POS0(3, "24") AOT_PW_POS0(4, "32")
      AOT_PW_POS0(5, "40")
      "ldrd %[xa], %[xb], [%[col]], #48\n\t"
      "smlad %[a0], %[u], %[xa], %[a0]\n\t"
      "smlad %[a0], %[t], %[xb], %[a0]\n\t"
      "lsrs " AOT_ASM_R7(n) ", " AOT_ASM_R7(n) ", #1\n\t"
      "bcc 2f\n\t"
      AOT_PW_G6
      "2:\n\t"
      "beq 3f\n"
      "1:\n\t"
      AOT_PW_G6
      AOT_PW_G6
      "subs " AOT_ASM_R7(n) ", " AOT_ASM_R7(n) ", #1\n\t"
      "bne 1b\n"
      "3:\n\t"
      "ldr %[t], [%[S], #0]\n\t"
      "ldr %[u], [%[t], #4]\n\t"
      "ldr %[xa], [%[t], #8]\n\t"
      "add %[t], %[t], #16\n\t"
      "str %[t], [%[S], #0]\n\t"
      "ldr %[xb], [%[S], #16]\n\t"
      AOT_PW_RQ(0) AOT_PW_RQ(1) AOT_PW_RQ(2) AOT_PW_RQ(3) AOT_PW_RQ(4) AOT_PW_RQ(5)
      "ldr %[col], [%[S], #8]\n\t"
      "ldr " AOT_ASM_R7(n) ", [%[S], #12]\n\t"
      "strb %[a0], [%[col]]\n\t"
      "strb %[a1], [%[col], " AOT_ASM_R7(n) "]\n\t"
      "add %[u], %[col], " AOT_ASM_R7(n) ", lsl #1\n\t"
      "strb %[a2], [%[u]]\n\t"
      "strb %[a3], [%[u], " AOT_ASM_R7(n) "]\n\t"
      "add %[u], %[u], " AOT_ASM_R7(n) ", lsl #1\n\t"
      "strb %[a4], [%[u]]\n\t"
      "strb %[a5], [%[u], " AOT_ASM_R7(n) "]\n\t"
      "add %[col], %[col], #1\n\t"
      "str %[col], [%[S], #8]\n\t"
      "ldr %[u], [%[S], #28]\n\t"
      "sub %[w], %[w], %[u]\n\t"
      "ldr %[u], [%[S], #4]\n\t"
      "cmp %[t], %[u]\n\t"
      "bne 0b\n" AOT_ASM_R7_RESTORE
      : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [a4] "=&r"(a4),
        [a5] "=&r"(a5), [t] "=&r"(t), [u] "=&r"(u), [xa] "=&r"(xa), [xb] "=&r"(xb),
        [col] "=&r"(col), AOT_ASM_R7_OP([n] "=&r"(n),) [w] "+r"(w)
      : [S] "r"(S)
      : "cc", "memory");
  (void)n;
}
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* The len taps of input pixel x widened and doubled (2x fits int16) into
 * col for position i of np interleaved positions: group g at
 * col[2 * (g * np + i)]; the last group padded with zero taps. */
AOT_INLINE void aot_pw_widen(const int8_t *x, int32_t len, uint32_t *col, int32_t np) {
  const int32_t step = 2 * np;
  int32_t k;
  for (k = len >> 2; k > 0; k--, x += 4, col += step) {
    uint32_t v;
    memcpy(&v, x, 4);
    const int16x2_t a = __sxtb16((int8x4_t)v), b = __sxtb16((int8x4_t)((v >> 8) | (v << 24)));
    col[0] = (uint32_t)__sadd16(a, a);
    col[1] = (uint32_t)__sadd16(b, b);
  }
  if (len & 3) {
    uint32_t v = 0;
    int16x2_t a, b;
    for (k = (len & 3) - 1; k >= 0; k--) v = (v << 8) | (uint8_t)x[k];
    a = __sxtb16((int8x4_t)v);
    b = __sxtb16((int8x4_t)((v >> 8) | (v << 24)));
    col[0] = (uint32_t)__sadd16(a, a);
    col[1] = (uint32_t)__sadd16(b, b);
  }
}

/* requantizes and stores the np sums s of channel k (outputs o[i * os]) */
static __attribute__((noinline, unused)) void aot_pw_out(const int32_t *s, int32_t np,
                                                         const aot_dsp_kc *k,
                                                         const aot_dsp_gemv *g, int8_t *o,
                                                         int32_t os) {
  int32_t i;
  for (i = 0; i < np; i++, o += os)
    *o = aot_dsp_st(aot_dsp_rqk(s[i], k) + g->out_off, g->full, g->lo, g->hi);
}

/* output position (b, oy, ox) */
typedef struct aot_pw_it {
  int32_t b, oy, ox;
} aot_pw_it;

/* its input pixel */
AOT_INLINE const int8_t *aot_pw_px(const aot_conv_params *p, const int8_t *input,
                                   const aot_pw_it *q) {
  return input + (((size_t)q->b * p->in_h + (size_t)q->oy * p->stride_h) * p->in_w +
                  (size_t)q->ox * p->stride_w) * p->in_c;
}

AOT_INLINE void aot_pw_next(const aot_conv_params *p, aot_pw_it *q) {
  if (++q->ox == p->out_w) {
    q->ox = 0;
    if (++q->oy == p->out_h) {
      q->oy = 0;
      q->b++;
    }
  }
}

/* What the blocks share */
typedef struct aot_pw_ctx {
  const aot_conv_params *p;
  const int8_t *input, *filter, *wlast;   /* wlast: the padded last row or NULL */
  const aot_pw_kc *kc;
  const aot_dsp_gemv *g;
  uint32_t *col;
  int8_t *win;   /* windows gathered (aot_conv2d_s8_dsp_gw), else NULL */
  int32_t K;     /* taps of a window: in_c, or filter_h * filter_w * in_c */
  /* of gathered windows: a filter row's taps, windows at 0 <= iy0 <= lim_y,
     0 <= ix0 <= lim_x are inside the image; bytes of an input row, of the
     rows dilation_h apart, of an image */
  int32_t rowlen, lim_y, lim_x;
  size_t in_row, rstep, img;
} aot_pw_ctx;

/* n bytes from s to d, a word at a time (unaligned words are allowed) */
AOT_INLINE void aot_conv2d_s8_cp(int8_t *d, const int8_t *s, int32_t n) {
  for (; n >= 4; n -= 4, d += 4, s += 4) {
    uint32_t v;
    memcpy(&v, s, 4);
    memcpy(d, &v, 4);
  }
  for (; n > 0; n--) *d++ = *s++;
}

/* aot_pw_widen out of line for the gathered windows (one copy of its loop) */
static __attribute__((noinline, unused)) void aot_pw_widen_g(const int8_t *x, int32_t len,
                                                             uint32_t *col, int32_t np) {
  aot_pw_widen(x, len, col, np);
}

/* The window of output position q of a layer that is not pointwise
 * (aot_conv2d_s8_dsp_gw: one group, dilation_w 1) widened into col for
 * position i of np: rows of a multiple of four taps inside the image
 * straight from the input (each row starts a group), any other window
 * first copied into x->win with the taps outside the image set to the
 * input zero point zp = -input_offset (an int8: such a tap adds
 * w * zp + input_offset * w = 0 to the sum, as skipping it). */
static __attribute__((noinline, unused)) void aot_pw_gather(const aot_pw_ctx *x,
                                                            const aot_pw_it *q, uint32_t *col,
                                                            int32_t np) {
  const aot_conv_params *p = x->p;
  const int32_t fh = p->filter_h, in_c = p->in_c, rowlen = x->rowlen;
  const int32_t iy0 = q->oy * p->stride_h - p->pad_h, ix0 = q->ox * p->stride_w - p->pad_w;
  const int8_t *src = x->input + (size_t)q->b * x->img;
  int8_t *c = x->win;
  int32_t fy;
  /* (lim_y, lim_x < 0: a filter larger than the image, no window inside) */
  if (iy0 >= 0 && ix0 >= 0 && iy0 <= x->lim_y && ix0 <= x->lim_x) {
    src += (size_t)iy0 * x->in_row + (size_t)ix0 * in_c;
    if ((rowlen & 3) == 0) {
      for (fy = 0; fy < fh; fy++, src += x->rstep, col += (rowlen >> 1) * np)
        aot_pw_widen_g(src, rowlen, col, np);
      return;
    }
    for (fy = 0; fy < fh; fy++, src += x->rstep, c += rowlen) aot_conv2d_s8_cp(c, src, rowlen);
  } else {
#if AOT_F_CONV_S8_CLIP
    /* (aot_conv2d_s8_dcol's case of one group and dilation_w 1, without its
       per-row zero-point fills and group / dilation cases: measured 0.8% fewer
       instructions on KWS and about 420 bytes less code than calling it) */
    const int8_t zp = (int8_t)(-p->input_offset);
    int32_t fy0, fy1, fx0, fx1;
    aot_conv_window(iy0, p->dilation_h, p->in_h, fh, &fy0, &fy1);
    aot_conv_window(ix0, 1, p->in_w, p->filter_w, &fx0, &fx1);
    memset(c, zp, (size_t)x->K);
    if (fx1 > fx0)
      for (fy = fy0; fy < fy1; fy++)
        memcpy(c + fy * rowlen + fx0 * in_c,
               src + (size_t)(iy0 + fy * p->dilation_h) * x->in_row + (size_t)(ix0 + fx0) * in_c,
               (size_t)((fx1 - fx0) * in_c));
#endif
  }
  aot_pw_widen_g(x->win, x->K, col, np);
}

/* channel c of a block (np positions, one: a single position twice), its
 * filter row w: a constant, or the dot loop and aot_pw_out */
static void aot_pw_chan(const aot_pw_ctx *x, int32_t c, int32_t np, int32_t one,
                        const int8_t *w, int8_t *out) {
  const int32_t out_c = x->p->out_c;
  int32_t s[AOT_PW_P], i;
  if (AOT_F_CONV_S8_PWK && x->kc[c].run < 0) {   /* constant */
    for (i = one ? 1 : np, out += c; i > 0; i--, out += out_c) *out = (int8_t)x->kc[c].k.ks;
    return;
  }
  /* the sums are doubled: a run's channel starts from its doubled ks (the
     doubled total fits int32), any other from 0 (|2 * sum w * x| <=
     32768 * in_c < 2^31) and adds ks to the halved sum */
  for (i = 0; i < np; i++) s[i] = x->kc[c].run > 0 ? x->kc[c].k.ks : 0;
  aot_pw_dot(x->col, x->wlast != NULL && c == out_c - 1 ? x->wlast : w, (x->K + 3) >> 2,
             np, s);
  for (i = 0; i < np; i++) s[i] = (x->kc[c].run > 0 ? 0 : x->kc[c].k.ks) + (s[i] >> 1);
  aot_pw_out(s, one ? 1 : np, &x->kc[c].k, x->g, out + c, out_c);
}

/* The np = 6 or 2 positions from it on (np = 2 and one = 1: the position
 * it twice), outputs at out: widen, then every channel (runs of fast ones
 * in six-position blocks through aot_pw_fast6, the others one by one). */
static void aot_pw_block(const aot_pw_ctx *x, int32_t np, int32_t one, aot_pw_it it, int8_t *out) {
  const aot_conv_params *p = x->p;
  const int32_t K = x->K, out_c = p->out_c, ng = (K + 3) >> 2;
  const int8_t *w = x->filter;
  int32_t i, c = 0;
  aot_pw_fast S;
  for (i = 0; i < np; i++) {
    if (AOT_F_CONV_S8_GW && x->win)   /* (the flag: Clang keeps the call otherwise) */
      aot_pw_gather(x, &it, x->col + 2 * i, np);
    else
      aot_pw_widen(aot_pw_px(p, x->input, &it), K, x->col + 2 * i, np);
    if (!one) aot_pw_next(p, &it);
  }
  S.out_c = out_c;
  S.c1 = 1 + 2 * x->g->out_off;
  S.col = x->col;
  S.ngm1 = ng - 1;
  S.wpad = 4 * ng - K;
  while (c < out_c) {
    const int32_t r = x->kc[c].run;
    if (r > 0 && np == AOT_PW_P) {
      S.kc = x->kc + c;
      S.kend = x->kc + c + r;
      S.o = out + c;
      aot_pw_fast6(&S, w);
      w += (size_t)r * K;
      c += r;
    } else {
      aot_pw_chan(x, c, np, one, w, out);
      c++;
      w += K;
    }
  }
}

/* the pointwise convolution (1x1 filter, one group, no clipped window;
 * aot_conv2d_s8_is_pw); scratch as in the file comment */
static __attribute__((noinline)) int32_t aot_conv2d_s8_pw_dsp(const aot_conv_params *p,
                                                              const int8_t *input,
                                                              const int8_t *filter,
                                                              const int32_t *bias,
                                                              int8_t *output, void *scratch) {
  const int32_t K = aot_conv2d_s8_dsp_pwk(p), out_c = p->out_c, ng = (K + 3) >> 2;
  const int32_t npos = p->batches * p->out_h * p->out_w;
  const uint32_t in_off = (uint32_t)p->input_offset;
  aot_pw_kc *const kc = (aot_pw_kc *)scratch;
  const int32_t nfast = K & 3 ? out_c - 1 : out_c;   /* the padded last row: not in a run */
  aot_dsp_gemv g;
  aot_pw_ctx x;
  aot_pw_it it = {0, 0, 0};
  int32_t c, pos;
  if (!AOT_F_CONV_S8_NOKB && !p->kbias) return AOT_KERNEL_BAD_PARAM;   /* aot_features.h */
  if (npos <= 0 || out_c <= 0) return AOT_KERNEL_OK;
  g.kc = NULL;
  g.more_rows = 0;
  g.full = AOT_FULL8(p);
  g.out_off = p->output_offset;
  g.lo = p->act_min;
  g.hi = p->act_max;
  x.p = p;
  x.input = input;
  x.filter = filter;
  x.wlast = NULL;
  x.kc = kc;
  x.g = &g;
  x.col = (uint32_t *)(kc + out_c);
  x.K = K;
  x.rowlen = p->filter_w * p->in_c;
  x.lim_y = p->in_h - (p->filter_h - 1) * p->dilation_h - 1;
  x.lim_x = p->in_w - p->filter_w;
  x.in_row = (size_t)p->in_w * p->in_c;
  x.rstep = (size_t)p->dilation_h * x.in_row;
  x.img = (size_t)p->in_h * x.in_row;
  /* after the widened inputs and the padded last row: the gathered window */
  /* (a module without such a layer leaves the gather out: aot_features.h) */
  x.win = !AOT_F_CONV_S8_GW || aot_conv2d_s8_is_pw(p) ? NULL
                                                      : (int8_t *)x.col + aot_conv2d_s8_dsp_pw_win(K);
  for (c = out_c - 1; c >= 0; c--) {
    const int32_t m = p->out_mult[c], sh = p->out_shift[c];
    int32_t ks, v;
    if (AOT_KB(p)) {
      ks = p->kbias[c];
    } else {
      const uint32_t t = (uint32_t)aot_dsp_sum_s8(filter + (size_t)c * K, K);
      ks = (int32_t)((bias ? (uint32_t)bias[c] : 0u) + t * in_off);
    }
    aot_dsp_kc_set(&kc[c].k, ks, m, sh, K);
    kc[c].run = 0;
    /* a channel of one output whatever the input (aot_conv2d_s8_pw_const;
       only in modules with one, AOT_F_CONV_S8_PWK) */
    if (AOT_F_CONV_S8_PWK && aot_conv2d_s8_pw_const(ks, m, sh, K, g.out_off, g.lo, g.hi, &v)) {
      kc[c].k.ks = v;
      kc[c].run = -1;
      continue;
    }
    if (g.full && c < nfast && (uint32_t)kc[c].k.s < 32u) {   /* |ks + sum| < 2^30 */
      kc[c].run = c + 1 < nfast && kc[c + 1].run > 0 ? kc[c + 1].run + 1 : 1;
      kc[c].k.ks = (int32_t)((uint32_t)ks << 1);   /* the sums are doubled */
    }
  }
  if (K & 3) {   /* the last row, zero-padded to whole words */
    int8_t *const wl = (int8_t *)(x.col + (size_t)2 * AOT_PW_P * ng);
    memset(wl, 0, (size_t)ng * 4);
    memcpy(wl, filter + (size_t)(out_c - 1) * K, (size_t)K);
    x.wlast = wl;
  }
  /* six positions at a time; a rest of four or five as one block that
     overlaps the previous one, of one to three in pairs (the last pair
     overlapping, or one position twice when there is only one) */
  for (pos = 0; pos + AOT_PW_P <= npos; pos += AOT_PW_P) {
    aot_pw_block(&x, AOT_PW_P, 0, it, output + (size_t)pos * out_c);
    for (c = 0; c < AOT_PW_P; c++) aot_pw_next(p, &it);
  }
  while (pos < npos) {
    const int32_t rest = npos - pos;
    const int32_t np = rest >= 4 && npos >= AOT_PW_P ? AOT_PW_P : 2;
    const int32_t back = np > rest && npos >= np ? np - rest : 0;
    for (c = 0; c < back; c++) {   /* step it back by 'back' positions */
      if (--it.ox < 0) {
        it.ox = p->out_w - 1;
        if (--it.oy < 0) {
          it.oy = p->out_h - 1;
          it.b--;
        }
      }
    }
    aot_pw_block(&x, np, npos == 1, it, output + (size_t)(pos - back) * out_c);
    for (c = 0; c < np; c++) aot_pw_next(p, &it);
    pos += np - back;
  }
  return AOT_KERNEL_OK;
}

#endif /* AOT_DSP */

#endif
