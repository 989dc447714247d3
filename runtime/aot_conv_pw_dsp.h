/* aot_conv_pw_dsp.h - pointwise (1x1, one group, no padding, any stride)
 * int8 CONV_2D on the Arm DSP extension (Cortex-M4F/M7/M33): the kernel
 * aot_conv2d_s8_dsp (aot_conv2d_s8.c) hands these layers to. Bit-exact with
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
 * SSAT's operand shift when the activation range is all of int8.
 *
 * Scratch (aot_conv2d_s8_scratch_dsp_pw, aot_conv.h): out_c channel
 * constants (12 bytes each), the widened inputs of six positions
 * (48 bytes per four taps) and, when in_c % 4 != 0, the padded last row,
 * in this order (the scratch is 8-byte aligned; LDRD needs 4). */
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

/* a0..a5 += sum over k < 4 * ng of w[k] * x_i[k], the six positions'
 * widened inputs at col (ng >= 1 groups of 12 words); col, w and ng are
 * consumed. Two groups per iteration, an odd one first (LSRS puts ng's low
 * bit in C and the pair count's zero in Z; the group's instructions set no
 * flags). A statement on the caller's variables, so that the sums stay in
 * registers into the requantization. */
#define AOT_PW_DOT6(X_, W_, N_, A0, A1, A2, A3, A4, A5)                                 \
  do {                                                                                  \
    int32_t t_, u_, xa_, xb_;                                                           \
    __asm__ volatile("lsrs %[n], %[n], #1\n\t"                                          \
                     "bcc 2f\n\t" AOT_PW_G6 "2:\n\t"                                   \
                     "beq 3f\n"                                                         \
                     "1:\n\t" AOT_PW_G6 AOT_PW_G6 "subs %[n], %[n], #1\n\t"             \
                     "bne 1b\n"                                                         \
                     "3:\n"                                                             \
                     : [a0] "+r"(A0), [a1] "+r"(A1), [a2] "+r"(A2), [a3] "+r"(A3),       \
                       [a4] "+r"(A4), [a5] "+r"(A5), [t] "=&r"(t_), [u] "=&r"(u_),       \
                       [xa] "=&r"(xa_), [xb] "=&r"(xb_), [col] "+r"(X_), [w] "+r"(W_),   \
                       [n] "+r"(N_)                                                      \
                     :                                                                   \
                     : "cc", "memory");                                                  \
  } while (0)

/* the same for two positions (groups of 4 words) */
AOT_INLINE void aot_pw_dot2(const uint32_t *col, const int8_t *w, int32_t ng, int32_t *s) {
  int32_t a0 = s[0], a1 = s[1], t, u, xa, xb;
  __asm__ volatile(
      "lsrs %[n], %[n], #1\n\t"
      "bcc 2f\n\t"
      AOT_PW_G2
      "2:\n\t"
      "beq 3f\n"
      "1:\n\t"
      AOT_PW_G2
      AOT_PW_G2
      "subs %[n], %[n], #1\n\t"
      "bne 1b\n"
      "3:\n"
      : [a0] "+r"(a0), [a1] "+r"(a1), [t] "=&r"(t), [u] "=&r"(u), [xa] "=&r"(xa),
        [xb] "=&r"(xb), [col] "+r"(col), [w] "+r"(w), [n] "+r"(ng)
      :
      : "cc", "memory");
  s[0] = a0;
  s[1] = a1;
}

/* The len taps of input pixel x widened into col for position i of np
 * interleaved positions: group g at col[2 * (g * np + i)]; the last group
 * padded with zero taps. */
AOT_INLINE void aot_pw_widen(const int8_t *x, int32_t len, uint32_t *col, int32_t np) {
  const int32_t step = 2 * np;
  int32_t k;
  for (k = len >> 2; k > 0; k--, x += 4, col += step) {
    uint32_t v;
    memcpy(&v, x, 4);
    col[0] = (uint32_t)__sxtb16((int8x4_t)v);
    col[1] = (uint32_t)__sxtb16((int8x4_t)((v >> 8) | (v << 24)));
  }
  if (len & 3) {
    uint32_t v = 0;
    for (k = (len & 3) - 1; k >= 0; k--) v = (v << 8) | (uint8_t)x[k];
    col[0] = (uint32_t)__sxtb16((int8x4_t)v);
    col[1] = (uint32_t)__sxtb16((int8x4_t)((v >> 8) | (v << 24)));
  }
}

/* the fast requantization before the final shift: ((r >> rs) + c1), with
 * r the doubling high multiply (aot_dsp_rqf) and c1 = 1 + 2 * out_off */
AOT_INLINE int32_t aot_pw_rq(int32_t acc, int32_t m, int32_t rs, int32_t c1) {
  int32_t r;
  __asm__("smmulr %0, %1, %2" : "=r"(r) : "r"((uint32_t)acc << 1), "r"(m));
  r += r >> 31;
  return (r >> rs) + c1;
}

/* v >> 1 saturated to int8 (one SSAT with its operand shift) */
AOT_INLINE int32_t aot_pw_ssat(int32_t v) {
  int32_t r;
  __asm__("ssat %0, #8, %1, asr #1" : "=r"(r) : "r"(v));
  return r;
}

/* requantizes and stores the np sums s of channel k (outputs o[i * os]);
 * out of line: the pair kernel's and the rare channels' path */
static __attribute__((noinline, unused)) void aot_pw_out(const int32_t *s, int32_t np, const aot_dsp_kc *k,
                           const aot_dsp_gemv *g, int8_t *o, int32_t os) {
  int32_t i;
  if ((uint32_t)k->s < 32u) {
    const int32_t m = k->m, rs = k->s, c1 = 1 + 2 * g->out_off;
    if (g->full) {
      for (i = 0; i < np; i++, o += os) *o = (int8_t)aot_pw_ssat(aot_pw_rq(s[i], m, rs, c1));
    } else {
      for (i = 0; i < np; i++, o += os)
        *o = (int8_t)aot_clamp_i32(aot_pw_rq(s[i], m, rs, c1) >> 1, g->lo, g->hi);
    }
  } else {
    for (i = 0; i < np; i++, o += os)
      *o = aot_dsp_st(aot_dsp_rqk(s[i], k) + g->out_off, g->full, g->lo, g->hi);
  }
}

/* input pixel of output position (b, oy, ox) */
typedef struct aot_pw_it {
  int32_t b, oy, ox;
} aot_pw_it;

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

/* the np = 6 or 2 positions from it on: widen, then every channel
 * (outputs at out, out_c apart) */
static void aot_pw_block(const aot_conv_params *p, const int8_t *input, const int8_t *filter,
                         const aot_dsp_kc *kc, const aot_dsp_gemv *g, uint32_t *col,
                         const int8_t *wlast, int32_t np, aot_pw_it it, int8_t *out) {
  const int32_t K = p->in_c, out_c = p->out_c, ng = (K + 3) >> 2;
  const int32_t c1 = 1 + 2 * g->out_off, fast = g->full;
  const aot_dsp_kc *const kend = kc + out_c;
  const aot_dsp_kc *const klast = wlast != NULL ? kend - 1 : kend;
  int32_t i;
  for (i = 0; i < np; i++) {
    aot_pw_widen(aot_pw_px(p, input, &it), K, col + 2 * i, np);
    aot_pw_next(p, &it);
  }
  if (np != AOT_PW_P) {
    for (; kc < kend; kc++, filter += K, out++) {
      int32_t s[2];
      s[0] = s[1] = kc->ks;
      aot_pw_dot2(col, kc == klast ? wlast : filter, ng, s);
      aot_pw_out(s, 2, kc, g, out, out_c);
    }
    return;
  }
  for (; kc < kend; kc++, filter += K, out++) {
    const uint32_t *x = col;
    const int8_t *w = kc == klast ? wlast : filter;
    int32_t n = ng, a0, a1, a2, a3, a4, a5;
    a0 = a1 = a2 = a3 = a4 = a5 = kc->ks;
    AOT_PW_DOT6(x, w, n, a0, a1, a2, a3, a4, a5);
    if (fast && (uint32_t)kc->s < 32u) {
      const int32_t m = kc->m, rs = kc->s;
      int8_t *o = out;
      *o = (int8_t)aot_pw_ssat(aot_pw_rq(a0, m, rs, c1));
      o += out_c;
      *o = (int8_t)aot_pw_ssat(aot_pw_rq(a1, m, rs, c1));
      o += out_c;
      *o = (int8_t)aot_pw_ssat(aot_pw_rq(a2, m, rs, c1));
      o += out_c;
      *o = (int8_t)aot_pw_ssat(aot_pw_rq(a3, m, rs, c1));
      o += out_c;
      *o = (int8_t)aot_pw_ssat(aot_pw_rq(a4, m, rs, c1));
      o += out_c;
      *o = (int8_t)aot_pw_ssat(aot_pw_rq(a5, m, rs, c1));
    } else {
      int32_t s[AOT_PW_P];
      s[0] = a0;
      s[1] = a1;
      s[2] = a2;
      s[3] = a3;
      s[4] = a4;
      s[5] = a5;
      aot_pw_out(s, AOT_PW_P, kc, g, out, out_c);
    }
  }
}

/* the pointwise convolution (1x1 filter, one group, no clipped window;
 * the caller checks); scratch as in the file comment */
static int32_t aot_conv2d_s8_pw_dsp(const aot_conv_params *p, const int8_t *input,
                                    const int8_t *filter, const int32_t *bias,
                                    int8_t *output, void *scratch) {
  const int32_t K = p->in_c, out_c = p->out_c, ng = (K + 3) >> 2;
  const int32_t npos = p->batches * p->out_h * p->out_w;
  const uint32_t in_off = (uint32_t)p->input_offset;
  aot_dsp_kc *const kc = (aot_dsp_kc *)scratch;
  uint32_t *const col = (uint32_t *)(kc + out_c);
  const int32_t *const kbias = p->kbias;
  int8_t *wlast = NULL;
  aot_dsp_gemv g;
  aot_pw_it it = {0, 0, 0};
  int32_t c, pos;
  if (npos <= 0 || out_c <= 0) return AOT_KERNEL_OK;
  for (c = 0; c < out_c; c++) {
    int32_t ks;
    if (kbias != NULL) {
      ks = kbias[c];
    } else {
      const uint32_t t = (uint32_t)aot_dsp_sum_s8(filter + (size_t)c * K, K);
      ks = (int32_t)((bias ? (uint32_t)bias[c] : 0u) + t * in_off);
    }
    aot_dsp_kc_set(kc + c, ks, p->out_mult[c], p->out_shift[c], K);
  }
  if (K & 3) {   /* the last row, zero-padded to whole words */
    wlast = (int8_t *)(col + (size_t)2 * AOT_PW_P * ng);
    memset(wlast, 0, (size_t)ng * 4);
    memcpy(wlast, filter + (size_t)(out_c - 1) * K, (size_t)K);
  }
  g.kc = kc;
  g.more_rows = 0;
  g.full = p->act_min == -128 && p->act_max == 127;
  g.out_off = p->output_offset;
  g.lo = p->act_min;
  g.hi = p->act_max;
  /* six positions at a time; a rest of four or five as one block that
     overlaps the previous one, of one to three in pairs (the last pair
     overlapping, or one position twice when there is only one) */
  for (pos = 0; pos + AOT_PW_P <= npos; pos += AOT_PW_P) {
    aot_pw_block(p, input, filter, kc, &g, col, wlast, AOT_PW_P, it,
                 output + (size_t)pos * out_c);
    for (c = 0; c < AOT_PW_P; c++) aot_pw_next(p, &it);
  }
  while (pos < npos) {
    const int32_t rest = npos - pos;
    int32_t np = rest >= 4 && npos >= AOT_PW_P ? AOT_PW_P : 2, back = 0;
    if (np > rest) back = npos >= np ? np - rest : 0;
    if (np == 2 && npos == 1) np = 1;
    for (c = 0; c < back; c++) {   /* step it back by 'back' positions */
      if (--it.ox < 0) {
        it.ox = p->out_w - 1;
        if (--it.oy < 0) {
          it.oy = p->out_h - 1;
          it.b--;
        }
      }
    }
    if (np == 1) {   /* a single position: the pair kernel on it twice */
      aot_pw_widen(aot_pw_px(p, input, &it), K, col, 2);
      aot_pw_widen(aot_pw_px(p, input, &it), K, col + 2, 2);
      for (c = 0; c < out_c; c++) {
        const int8_t *w = wlast != NULL && c == out_c - 1 ? wlast : filter + (size_t)c * K;
        int32_t s[2];
        s[0] = s[1] = kc[c].ks;
        aot_pw_dot2(col, w, ng, s);
        aot_pw_out(s, 1, kc + c, &g, output + c, out_c);
      }
      break;
    }
    aot_pw_block(p, input, filter, kc, &g, col, wlast, np, it,
                 output + (size_t)(pos - back) * out_c);
    for (c = 0; c < np; c++) aot_pw_next(p, &it);
    pos += np - back;
  }
  return AOT_KERNEL_OK;
}

#endif /* AOT_DSP */

#endif
