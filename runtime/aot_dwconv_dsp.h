/* aot_dwconv_dsp.h - the Arm DSP (Cortex-M4F/M7/M33) kernels of
 * DEPTHWISE_CONV_2D int8 with depth multiplier 1: aot_dw3_dsp for 3x3
 * filters of stride_w 1 or 2 without dilation (aot_dwconv2d_s8_dsp_is3;
 * described at its part below), and
 * aot_dw_s8_dsp_dm1 for the others of at most AOT_DW_S8_DSP_TAPS filter
 * taps; included by aot_dwconv2d_s8.c when AOT_DSP is defined (aot_dsp.h),
 * which keeps the portable loops for every other case. Their buffers are
 * the arena scratch the call is given (aot_dwconv2d_s8_scratch_dsp).
 *
 * aot_dw_s8_dsp_dm1: channels in blocks of up to AOT_DW_S8_DSP_CH (fewer for large filters,
 * whose widened taps fill AOT_DW_S8_DSP_W16 words); per block
 *  - a per-channel constant ks = bias + input_offset * (sum of the filter
 *    over all taps), so the taps add w * x only (int32 arithmetic is
 *    modular: the same integer as the portable sum);
 *  - the filter sign-extended once into 16-bit pairs in the order the loop
 *    reads them: per 4 channels and tap pair (t, t + 1), one word per
 *    channel (w_t[c], w_t+1[c]) (PKHBT / PKHTB then SXTB16, the split the
 *    loop applies to two input words); the last tap of an odd count as
 *    (w[c], w[c+2]) and (w[c+1], w[c+3]);
 *  - the requantization of every channel chosen once (aot_dsp_kc_set):
 *    aot_dsp_rqf (SMMULR) where the shift and the accumulator bound allow,
 *    else aot_conv_mbqm; both the portable requantization, bit for bit.
 *    Blocks whose channels all take aot_dsp_rqf with the activation range
 *    all of int8 requantize four channels in one asm block.
 * Per output position a table of the taps' input addresses: taps outside
 * the image point at a row of input zero points zp = -input_offset, whose
 * products w * zp cancel their share input_offset * w of ks, so clipped
 * windows need no other case. Four channels: per tap pair two input words,
 * PKHBT / PKHTB, four SXTB16 and four SMLAD (exact products, two taps per
 * SMLAD; 15 instructions per 8 products, one asm block per four pairs, the
 * one to three pairs left one block each), then the last tap of an odd
 * count with SMLABB / SMLATT. tests/target/dw8_kernels.c (and
 * mve_kernels.c's DSP cases) compare both with the portable kernel. */
#ifndef AOT_DWCONV_DSP_H
#define AOT_DWCONV_DSP_H

#include "aot_dsp.h"

#ifdef AOT_DSP

/* AOT_DW_S8_DSP_CH, AOT_DW_S8_DSP_TAPS, AOT_DW_S8_DSP_W16: aot_conv.h */


AOT_INLINE int16x2_t aot_dw_dsp_hi(uint32_t v) {
  int16x2_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}

/* aot_dsp_pkhbt (a, b) gives bytes (a0, a1, b0, b1), aot_dsp_pkhtb (a, b)
 * bytes (a2, a3, b2, b3) (aot_dsp.h): SXTB16 of these (plain and ROR #8)
 * gives the 16-bit pairs (a_i, b_i) of each channel i of two taps' words. */

#if AOT_F_DW_S8_GEN   /* a layer aot_dw3_dsp does not take (aot_features.h) */
/* the block-wide constants of one call */
typedef struct aot_dw_dsp_blk {
  const int8_t *const *tab;
  const uint32_t *w16;
  const aot_dsp_kc *k;
  int32_t nt, odd, n4, full, quick, out_off, lo, hi;
} aot_dw_dsp_blk;

/* one tap pair (asm text, operands of aot_dw_dsp_pairs4): the two taps'
 * addresses (LDRD from the table), one input word each at channel offset
 * c, PKHBT / PKHTB, then per channel SXTB16 and SMLAD with its widened
 * weight pair (two LDRD) */
#define AOT_DW_DSP_PAIR_ASM                              \
  "ldrd %[p0], %[p1], [%[tp]], #8\n\t"                  \
  "ldr %[xa], [%[p0], %[c]]\n\t"                        \
  "ldr %[xb], [%[p1], %[c]]\n\t"                        \
  "pkhbt %[lo], %[xa], %[xb], lsl #16\n\t"              \
  "pkhtb %[xb], %[xb], %[xa], asr #16\n\t"              \
  "ldrd %[p0], %[p1], [%[wp]], #8\n\t"                  \
  "sxtb16 %[xa], %[lo]\n\t"                             \
  "smlad %[a0], %[xa], %[p0], %[a0]\n\t"                \
  "sxtb16 %[xa], %[lo], ror #8\n\t"                     \
  "smlad %[a1], %[xa], %[p1], %[a1]\n\t"                \
  "ldrd %[p0], %[p1], [%[wp]], #8\n\t"                  \
  "sxtb16 %[xa], %[xb]\n\t"                             \
  "smlad %[a2], %[xa], %[p0], %[a2]\n\t"                \
  "sxtb16 %[xa], %[xb], ror #8\n\t"                     \
  "smlad %[a3], %[xa], %[p1], %[a3]\n\t"

/* the tap pairs of asm text TEXT (AOT_DW_DSP_PAIR_ASM once per pair) for
 * four channels (channel offset c; tab entries *tp and widened weights *wp,
 * both advanced past them): SMLAD adds the exact products of both taps of a
 * channel, 15 instructions per 8 products. AOT_DW_DSP_PAIRS4: four pairs in
 * one asm block; AOT_DW_DSP_PAIRS1: one (the one to three pairs after the
 * groups of four) */
#define AOT_DW_DSP_PAIRS(TEXT, tp, wp, c, a0, a1, a2, a3)                               \
  do {                                                                                   \
    uint32_t p0_, p1_, xa_, xb_, lo_;                                                    \
    __asm__(TEXT                                                                         \
            : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [tp] "+r"(tp),  \
              [wp] "+r"(wp), [p0] "=&r"(p0_), [p1] "=&r"(p1_), [xa] "=&r"(xa_),            \
              [xb] "=&r"(xb_), [lo] "=&r"(lo_)                                           \
            : [c] "r"(c)                                                                 \
            : "memory");                                                                 \
  } while (0)
#define AOT_DW_DSP_PAIRS4(tp, wp, c, a0, a1, a2, a3)                                     \
  AOT_DW_DSP_PAIRS(AOT_DW_DSP_PAIR_ASM AOT_DW_DSP_PAIR_ASM AOT_DW_DSP_PAIR_ASM             \
                       AOT_DW_DSP_PAIR_ASM, tp, wp, c, a0, a1, a2, a3)
#define AOT_DW_DSP_PAIRS1(tp, wp, c, a0, a1, a2, a3)                                     \
  AOT_DW_DSP_PAIRS(AOT_DW_DSP_PAIR_ASM, tp, wp, c, a0, a1, a2, a3)

/* one channel's aot_dsp_rqf + output offset, SSAT and store (asm text,
 * operands of aot_dw_dsp_pos's quick requantization): m and s from
 * aot_dsp_kc at byte offset ko, the byte at out + oo */
#define AOT_DW_DSP_RQ_ASM(a, ko, oo)                        \
  "ldrd %[m], %[s], [%[k], #" #ko "]\n\t"                  \
  "lsl %[" #a "], %[" #a "], #1\n\t"                        \
  "smmulr %[" #a "], %[" #a "], %[m]\n\t"                   \
  "add %[" #a "], %[" #a "], %[" #a "], asr #31\n\t"        \
  "asr %[" #a "], %[" #a "], %[s]\n\t"                      \
  "add %[" #a "], %[" #a "], #1\n\t"                        \
  "add %[" #a "], %[off], %[" #a "], asr #1\n\t"            \
  "ssat %[" #a "], #8, %[" #a "]\n\t"                       \
  "strb %[" #a "], [%[out], #" #oo "]\n\t"

/* channels c < n4 (multiple of 4) of one output position: the tap pairs in
 * groups of four, the remaining one to three pairs one at a time, then the
 * last tap of an odd count (tab[np2]; SMLABB / SMLATT) */
static __attribute__((noinline)) void aot_dw_dsp_pos(const aot_dw_dsp_blk *b, int8_t *out) {
  const int8_t *const *const tab = b->tab;
  const uint32_t *wp = b->w16;
  const aot_dsp_kc *k = b->k;
  const int32_t np2 = b->nt, ng = np2 & ~7, odd = b->odd, n4 = b->n4, full = b->full;
  const int32_t quick = b->quick, out_off = b->out_off, lo = b->lo, hi = b->hi;
  int32_t c, t, v0, v1, v2, v3;
  for (c = 0; c < n4; c += 4, k += 4, out += 4) {
    int32_t a0 = k[0].ks, a1 = k[1].ks, a2 = k[2].ks, a3 = k[3].ks;
    const int8_t *const *tp = tab;
    for (t = 0; t < ng; t += 8) AOT_DW_DSP_PAIRS4(tp, wp, c, a0, a1, a2, a3);
    for (; t < np2; t += 2) AOT_DW_DSP_PAIRS1(tp, wp, c, a0, a1, a2, a3);
    if (odd) {
      uint32_t xv;
      int16x2_t x02, x13;
      memcpy(&xv, tab[np2] + c, 4);
      x02 = __sxtb16((int8x4_t)xv);
      x13 = aot_dw_dsp_hi(xv);
      a0 = __smlabb(x02, (int16x2_t)wp[0], a0);
      a2 = __smlatt(x02, (int16x2_t)wp[0], a2);
      a1 = __smlabb(x13, (int16x2_t)wp[1], a1);
      a3 = __smlatt(x13, (int16x2_t)wp[1], a3);
      wp += 2;
    }
    if (quick) {   /* every channel aot_dsp_rqf, activation range all of int8 */
      uint32_t m_, s_;
      __asm__ volatile(AOT_DW_DSP_RQ_ASM(a0, 4, 0) AOT_DW_DSP_RQ_ASM(a1, 16, 1)
              AOT_DW_DSP_RQ_ASM(a2, 28, 2) AOT_DW_DSP_RQ_ASM(a3, 40, 3)
              : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [m] "=&r"(m_),
                [s] "=&r"(s_)
              : [k] "r"(k), [out] "r"(out), [off] "r"(out_off)
              : "memory");
      continue;
    }
    if ((uint32_t)(k[0].s | k[1].s | k[2].s | k[3].s) < 32u) {
      v0 = aot_dsp_rqf(a0, k[0].m, k[0].s) + out_off;
      v1 = aot_dsp_rqf(a1, k[1].m, k[1].s) + out_off;
      v2 = aot_dsp_rqf(a2, k[2].m, k[2].s) + out_off;
      v3 = aot_dsp_rqf(a3, k[3].m, k[3].s) + out_off;
    } else {
      v0 = aot_dsp_rqk(a0, k) + out_off;
      v1 = aot_dsp_rqk(a1, k + 1) + out_off;
      v2 = aot_dsp_rqk(a2, k + 2) + out_off;
      v3 = aot_dsp_rqk(a3, k + 3) + out_off;
    }
    if (full) {
      out[0] = (int8_t)__ssat(v0, 8);
      out[1] = (int8_t)__ssat(v1, 8);
      out[2] = (int8_t)__ssat(v2, 8);
      out[3] = (int8_t)__ssat(v3, 8);
    } else {
      out[0] = (int8_t)aot_clamp_i32(v0, lo, hi);
      out[1] = (int8_t)aot_clamp_i32(v1, lo, hi);
      out[2] = (int8_t)aot_clamp_i32(v2, lo, hi);
      out[3] = (int8_t)aot_clamp_i32(v3, lo, hi);
    }
  }
}

static void aot_dw_s8_dsp_dm1(const aot_conv_params *p, const int8_t *input,
                              const int8_t *filter, const int32_t *bias, int8_t *output,
                              void *scratch) {
  const int32_t in_h = p->in_h, in_w = p->in_w, ch = p->in_c;
  const int32_t fh = p->filter_h, fw = p->filter_w, nt = fh * fw;
  /* taps 0 .. np2 - 1 in pairs; the last tap of an odd count alone, in
   * tab[np2] */
  const int32_t np2 = nt & ~1, odd = nt & 1;
  const int32_t gw = 2 * np2 + 2 * odd;   /* widened filter words of four channels */
  /* channels of a block: as many fours as the widened filter holds */
  const int32_t cb = aot_min_i32(AOT_DW_S8_DSP_CH, AOT_DW_S8_DSP_W16 / gw * 4);
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const uint32_t in_off = (uint32_t)p->input_offset;
  const size_t in_row = (size_t)in_w * ch, sx = (size_t)p->stride_w * ch;
  /* scratch (aot_dwconv2d_s8_scratch_dsp): kc, w16, tab, zrow of n channels */
  const size_t n = (size_t)aot_min_i32(cb, ch);
  aot_dsp_kc *const kc = (aot_dsp_kc *)scratch;
  uint32_t *const w16 = (uint32_t *)(void *)((char *)scratch + aot_conv_scratch_round(12u * n));
  const int8_t **const tab = (const int8_t **)(void *)((char *)w16 + aot_conv_scratch_round(
                                                           4u * (n / 4u) * (size_t)gw));
  int8_t *const zrow =
      (int8_t *)tab + aot_conv_scratch_round(sizeof(const int8_t *) * (size_t)(np2 + odd));
  aot_dw_dsp_blk bk;
  int32_t c0, i;

  memset(zrow, (int8_t)(-p->input_offset), n);
  bk.tab = tab;
  bk.w16 = w16;
  bk.k = kc;
  bk.nt = np2;
  bk.odd = odd;
  bk.out_off = p->output_offset;
  bk.lo = p->act_min;
  bk.hi = p->act_max;
  bk.full = AOT_FULL8(p);
  for (c0 = 0; c0 < ch; c0 += cb) {
    const int32_t nch = ch - c0 < cb ? ch - c0 : cb;
    const int32_t n4 = nch & ~3;
    int32_t c, t, b, oy, ox;
    bk.n4 = n4;
    /* per four channels: the widened tap pairs (PKH and SXTB16 split two
     * filter words the way the loop splits two input words; zero past np2),
     * the widened last tap of an odd count (SXTB16 alone) and the filter sums
     * in 16-bit lanes (SXTAB16; at most 49 taps of |w| <= 128 fit int16) */
    for (c = 0; c < n4; c += 4) {
      uint32_t *d = w16 + (size_t)(c / 4) * gw;
      int16x2_t s02 = (int16x2_t)0, s13 = (int16x2_t)0;
      int32_t i4;
      memset(d, 0, (size_t)gw * sizeof *d);
      for (t = 0; t < nt; t++) {
        uint32_t v, u;
        memcpy(&v, filter + (size_t)t * ch + c0 + c, 4);
        if (t == np2) {   /* the last tap of an odd count */
          d[2 * np2] = (uint32_t)__sxtb16((int8x4_t)v);
          d[2 * np2 + 1] = (uint32_t)aot_dw_dsp_hi(v);
        } else if (t & 1) {
          memcpy(&u, filter + (size_t)(t - 1) * ch + c0 + c, 4);
          d[2 * t - 2] = (uint32_t)__sxtb16((int8x4_t)aot_dsp_pkhbt(u, v));
          d[2 * t - 1] = (uint32_t)aot_dw_dsp_hi(aot_dsp_pkhbt(u, v));
          d[2 * t] = (uint32_t)__sxtb16((int8x4_t)aot_dsp_pkhtb(u, v));
          d[2 * t + 1] = (uint32_t)aot_dw_dsp_hi(aot_dsp_pkhtb(u, v));
        }
        s02 = __sxtab16(s02, (int8x4_t)v);
        __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(s13) : "r"(s13), "r"(v));
      }
      for (i4 = 0; i4 < 4; i4++) {
        const uint32_t lanes = (uint32_t)(i4 & 1 ? s13 : s02);
        const uint32_t sw = (uint32_t)(int32_t)(int16_t)(i4 & 2 ? lanes >> 16 : lanes);
        aot_dsp_kc_set(kc + c + i4,
                       AOT_KB(p) ? p->kbias[c0 + c + i4]
                                : (int32_t)((bias ? (uint32_t)bias[c0 + c + i4] : 0u) + sw * in_off),
                       p->out_mult[c0 + c + i4], p->out_shift[c0 + c + i4], nt);
      }
    }
    bk.quick = bk.full;   /* aot_dw_dsp_pos's quick requantization */
    for (c = 0; c < n4; c++)
      if ((uint32_t)kc[c].s >= 32u) bk.quick = 0;
#if AOT_F_DW_S8_TAIL
    for (c = n4; c < nch; c++) {
      uint32_t sw = 0;
      for (t = 0; t < nt; t++) sw += (uint32_t)filter[(size_t)t * ch + c0 + c];
      aot_dsp_kc_set(kc + c,
                     AOT_KB(p) ? p->kbias[c0 + c]
                              : (int32_t)((bias ? (uint32_t)bias[c0 + c] : 0u) + sw * in_off),
                     p->out_mult[c0 + c], p->out_shift[c0 + c], nt);
    }
#endif
    for (b = 0; b < p->batches; b++) {
      const int8_t *in_b = input + (size_t)b * in_h * in_row + c0;
      for (oy = 0; oy < p->out_h; oy++) {
        const int32_t iy0 = oy * p->stride_h - p->pad_h;
        const int rows_in = iy0 >= 0 && iy0 + (fh - 1) * dh < in_h;
        int8_t *out = output + ((size_t)b * p->out_h + oy) * p->out_w * ch + c0;
        int prev = 0;   /* the previous position's window was inside the image */
        for (ox = 0; ox < p->out_w; ox++, out += ch) {
          const int32_t ix0 = ox * p->stride_w - p->pad_w;
          int32_t fy, fx;
          if (rows_in && ix0 >= 0 && ix0 + (fw - 1) * dw < in_w) {
            if (prev) {   /* the same taps one stride to the right */
              for (i = 0; i < nt; i++) tab[i] += sx;
            } else {
              const int8_t *row = in_b + (size_t)iy0 * in_row + (size_t)ix0 * ch;
              for (fy = 0, i = 0; fy < fh; fy++, row += (size_t)dh * in_row)
                for (fx = 0; fx < fw; fx++, i++)
                  tab[i] = row + (size_t)fx * dw * ch;
            }
            prev = 1;
          } else {
#if AOT_F_DW_S8_CLIP
            for (fy = 0, i = 0; fy < fh; fy++) {
              const int32_t iy = iy0 + fy * dh;
              const int row_in = iy >= 0 && iy < in_h;
              const int8_t *row = row_in ? in_b + (size_t)iy * in_row : in_b;
              for (fx = 0; fx < fw; fx++, i++) {
                const int32_t ix = ix0 + fx * dw;
                tab[i] = row_in && ix >= 0 && ix < in_w ? row + (size_t)ix * ch : zrow;
              }
            }
#endif
            prev = 0;
          }
          if (n4 > 0) aot_dw_dsp_pos(&bk, out);
#if AOT_F_DW_S8_TAIL
          for (c = n4; c < nch; c++) {
            int32_t acc = kc[c].ks;
            for (t = 0; t < nt; t++)
              acc += filter[(size_t)t * ch + c0 + c] * tab[t][c];
            out[c] = (int8_t)aot_clamp_i32(aot_dsp_rqk(acc, kc + c) + bk.out_off, bk.lo, bk.hi);
          }
#endif
        }
      }
    }
  }
}

#endif /* AOT_F_DW_S8_GEN */

#if AOT_F_DW_S8_3S1 || AOT_F_DW_S8_3S2   /* a layer aot_dw3_dsp takes */
/* ---- 3x3, stride_w 1 or 2, no dilation: channel by channel ------------
 * The input rows a window reads are widened once into int16 planes, one per
 * channel (row ring of three slots, [slot][channel][column], columns from
 * -pad_w, zero points outside the image), so a channel's row of taps is
 * contiguous: one LDR gives two neighbouring taps (x[i], x[i + 1]) for
 * SMLAD, the third tap of a row is SMLABB / SMLABT / SMLATB on a word
 * already loaded. A channel's nine doubled weights (five words) stay in
 * registers over four output positions: per filter row five loads and eight
 * multiply-accumulates (stride 1 and 2 alike). The accumulator is the
 * doubled sum 2 * (ks + sum w * x) (|sum| < 2^30, checked), so the
 * requantization is SUB, SMMLAR, ASR, SSAT:
 *   aot_conv_mbqm(x, m, shift) + out_off
 *     = (r - [x < 0] + 2^(e-1) + out_off * 2^e) >> e,  e = -shift in [1, 31],
 * r = (2x * m + 2^31) >> 32 (SMMLAR adds the constant), where [x < 0]
 * stands for gemmlowp's [r < 0] (they differ only when r = 0, whose
 * result is 0 either way) and the sum provably fits int32 (checked per
 * channel at setup, else the layer takes aot_dw_s8_dsp_dm1). Activation
 * ranges narrower than int8 clamp each output row after it is written. */

/* per channel: the doubled weights of filter row r, (w_r0, w_r1) and
 * (w_r2, 0); 2 * ks, the multiplier, the folded constant
 * 2^(e-1) + out_off * 2^e and e */
typedef struct aot_dw3_ch {
  uint32_t w[6];
  int32_t ks2, m, k, e;
} aot_dw3_ch;

/* the sizes aotc plans the scratch with (aot_conv.h) */
typedef char aot_dw3_ch_size[sizeof(aot_dw3_ch) == AOT_DW3_CH_BYTES ? 1 : -1];
#define aot_dw3_wp aot_dwconv2d_s8_dsp_wp
#define aot_dw3_fits aot_dwconv2d_s8_dsp_is3

AOT_INLINE uint32_t aot_dw3_ld(const int16_t *q) {
  uint32_t v;
  memcpy(&v, q, 4);
  return v;
}

AOT_INLINE uint32_t aot_dw3_pk(int32_t lo, int32_t hi) {
  return ((uint32_t)(2 * lo) & 0xFFFFu) | ((uint32_t)(2 * hi) << 16);
}

/* aot_dwconv2d_s8_dsp_slow(ks, m, sh, out_off) (the same answer, which
 * aotc's choice of AOT_F_DW_S8_3SLOW relies on) in 32-bit steps, and when
 * it is 0 the folded constant k = 2^(e-1) + out_off * 2^e into *k:
 *  - ak = |ks| + 9 * 128 * 128 <= 2^31 + 2^18 fits uint32; past ak >= 2^30
 *    the product ak * m < 2^61 shifted by 31 is below 2^30 (rmax <= 2^30);
 *  - k = t * 2^(e-1) with t = 2 out_off + 1, and rmax + |k| + 1 >= 2^31
 *    holds iff |t| * 2^(e-1) >= lim = 2^31 - 1 - rmax (>= 2^30 - 1), i.e.
 *    iff |t| > (lim - 1) >> (e - 1);
 *  - otherwise |k| < 2^31, so k is t << (e - 1) modulo 2^32. */
AOT_INLINE int aot_dw3_slowk(int32_t ks, int32_t m, int32_t sh, int32_t out_off, int32_t *k) {
  uint32_t ak, rmax, lim;
  int64_t t;
  uint64_t at;
  if (m == 0) sh = -1;
  if (m < 0 || sh > -1 || sh < -31) return 1;
  ak = (ks < 0 ? 0u - (uint32_t)ks : (uint32_t)ks) + 9u * 128u * 128u;
  if (ak >= (1u << 30)) return 1;
  rmax = (uint32_t)(((uint64_t)ak * (uint32_t)m) >> 31) + 1u;
  lim = 0x7FFFFFFFu - rmax;
  t = 2 * (int64_t)out_off + 1;
  at = (uint64_t)(t < 0 ? -t : t);
  if (at > (uint64_t)((lim - 1u) >> (-sh - 1))) return 1;
  *k = (int32_t)((uint32_t)t << (-sh - 1));
  return 0;
}

/* the constants of channels c0 .. c0 + nb - 1 into cs[0 .. nb - 1]; e = 0
 * marks a channel whose requantization does not fold (aot_dw3_slow).
 * Returns 1 when such a channel needs the path the module left out
 * (AOT_F_DW_S8_3SLOW 0), else 0. */
static int aot_dw3_setup(const aot_conv_params *p, const int8_t *filter, const int32_t *bias,
                         aot_dw3_ch *cs, int32_t c0, int32_t nb) {
  const int32_t ch = p->in_c, tr = aot_dwconv2d_s8_dsp_tr(p);
  const size_t ts = (size_t)(tr ? 3 : 1) * ch, rs = (size_t)(tr ? 1 : 3) * ch;
  int32_t c;
  for (c = c0; c < c0 + nb; c++) {
    const int8_t *f = filter + c;
    int32_t t, e, sh = p->out_shift[c], m = p->out_mult[c];
    uint32_t ks;
    if (AOT_KB(p)) {
      ks = (uint32_t)p->kbias[c];
    } else {
      uint32_t sw = 0;
      for (t = 0; t < 9; t++) sw += (uint32_t)filter[(size_t)t * ch + c];
      ks = (bias ? (uint32_t)bias[c] : 0u) + sw * (uint32_t)p->input_offset;
    }
    aot_dw3_ch *q = cs + (c - c0);
    int32_t k = 0;
    const int slow = aot_dw3_slowk((int32_t)ks, m, sh, p->output_offset, &k);
    if (slow && !AOT_F_DW_S8_3SLOW) return 1;   /* aot_features.h */
    if (m == 0) sh = -1;   /* output out_off whatever the shift */
    e = -sh;
    for (t = 0; t < 3; t++) {   /* filter row t (column t when transposed) */
      const int8_t *fr = f + (size_t)t * rs;
      q->w[2 * t] = aot_dw3_pk(fr[0], fr[ts]);
      q->w[2 * t + 1] = aot_dw3_pk(fr[2 * ts], 0);
    }
    if (slow) {   /* e = 0: ks, the multiplier and the shift as given */
      q->ks2 = (int32_t)ks;
      q->m = m;
      q->k = p->out_shift[c];
      q->e = 0;
    } else {
      q->ks2 = (int32_t)(ks << 1);
      q->m = m;
      q->k = k;
      q->e = e;
    }
  }
  return 0;
}

/* the requantized output (offset added) of a doubled accumulator */
AOT_INLINE int32_t aot_dw3_rq(int32_t a, int32_t m, int32_t k, int32_t e) {
  int32_t t, r;
  __asm__("sub %0, %1, %2, lsr #31" : "=&r"(t) : "r"(k), "r"(a));
  __asm__("smmlar %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(m), "r"(t));
  return __ssat(r >> e, 8);
}

/* one filter row r of four positions, stride 1 (asm text of aot_dw3_g4):
 * the row's weights, then five words (x_i, x_i+1) of the row, pointer q
 * advanced by four columns (post-indexed first load): position i adds
 * (x_i, x_i+1) . (w0, w1) by SMLAD and x_i+2 * w2 by SMLABB / SMLATB */
#define AOT_DW3_ROW_S1(q, r, x0, x1, x2, x3)                     \
  "ldrd %[W], %[S], [%[w], #" #r "]\n\t"                \
  "ldr %[P], [%[" #q "]], #8\n\t"                       \
  "smlad %[a0], %[P], %[W], %[" x0 "]\n\t"           \
  "ldr %[P], [%[" #q "], #-6]\n\t"                      \
  "smlad %[a1], %[P], %[W], %[" x1 "]\n\t"          \
  "ldr %[P], [%[" #q "], #-4]\n\t"                      \
  "smlad %[a2], %[P], %[W], %[" x2 "]\n\t"          \
  "smlabb %[a0], %[P], %[S], %[a0]\n\t"                 \
  "ldr %[P], [%[" #q "], #-2]\n\t"                      \
  "smlad %[a3], %[P], %[W], %[" x3 "]\n\t"          \
  "smlabb %[a1], %[P], %[S], %[a1]\n\t"                 \
  "smlatb %[a2], %[P], %[S], %[a2]\n\t"                 \
  "ldr %[P], [%[" #q "]]\n\t"                           \
  "smlatb %[a3], %[P], %[S], %[a3]\n\t"

/* the same, stride 2: words at 0, 2, 4, 6, 8 columns, q advanced by 8 */
#define AOT_DW3_ROW_S2(q, r, x0, x1, x2, x3)                     \
  "ldrd %[W], %[S], [%[w], #" #r "]\n\t"                \
  "ldr %[P], [%[" #q "]], #16\n\t"                      \
  "smlad %[a0], %[P], %[W], %[" x0 "]\n\t"           \
  "ldr %[P], [%[" #q "], #-12]\n\t"                     \
  "smlad %[a1], %[P], %[W], %[" x1 "]\n\t"          \
  "smlabb %[a0], %[P], %[S], %[a0]\n\t"                 \
  "ldr %[P], [%[" #q "], #-8]\n\t"                      \
  "smlad %[a2], %[P], %[W], %[" x2 "]\n\t"          \
  "smlabb %[a1], %[P], %[S], %[a1]\n\t"                 \
  "ldr %[P], [%[" #q "], #-4]\n\t"                      \
  "smlad %[a3], %[P], %[W], %[" x3 "]\n\t"          \
  "smlabb %[a2], %[P], %[S], %[a2]\n\t"                 \
  "ldr %[P], [%[" #q "]]\n\t"                           \
  "smlabb %[a3], %[P], %[S], %[a3]\n\t"

/* the doubled accumulators of four positions: ks2 (into a3 first), then
 * the three filter rows */
#define AOT_DW3_G4(ROW, q0, q1, q2, w, a0, a1, a2, a3)                              \
  do {                                                                              \
    uint32_t W_, S_, P_;                                                            \
    __asm__("ldr %[a3], [%[w], #24]\n\t" ROW(q0, 0, "a3", "a3", "a3", "a3") \
            ROW(q1, 8, "a0", "a1", "a2", "a3") ROW(q2, 16, "a0", "a1", "a2", "a3") \
            : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3),       \
              [W] "=&r"(W_), [S] "=&r"(S_), [P] "=&r"(P_), [q0] "+r"(q0), [q1] "+r"(q1), \
              [q2] "+r"(q2)                                                         \
            : [w] "r"(w)                                                            \
            : "memory");                                                            \
  } while (0)

/* one output's requantization (asm text of AOT_DW3_G4Q): the sign term
 * and SMMLAR with the folded constant, then (all four) ASR by e and SSAT */
#define AOT_DW3_RQ1(a) \
  "sub %[P], %[S], %[" a "], lsr #31\n\tsmmlar %[" a "], %[" a "], %[W], %[P]\n\t"
#define AOT_DW3_RQ2(a) "asr %[" a "], %[" a "], %[P]\n\tssat %[" a "], #8, %[" a "]\n\t"

/* AOT_DW3_G4, then the four outputs requantized and stored at o, o + os,
 * o + 2 os, o + 3 os (o advanced by 4 os): one asm block of 13 registers,
 * built when optimizing (no frame pointer taking one) */
#define AOT_DW3_G4Q(ROW, q0, q1, q2, w, op_, os_)                                       \
  do {                                                                               \
    uint32_t W_, S_, P_, a0_, a1_, a2_, a3_;                                         \
    __asm__("ldr %[a3], [%[w], #24]\n\t" ROW(q0, 0, "a3", "a3", "a3", "a3")          \
            ROW(q1, 8, "a0", "a1", "a2", "a3") ROW(q2, 16, "a0", "a1", "a2", "a3")   \
            "ldrd %[W], %[S], [%[w], #28]\n\t"                                      \
            AOT_DW3_RQ1("a0") AOT_DW3_RQ1("a1") AOT_DW3_RQ1("a2") AOT_DW3_RQ1("a3")   \
            "ldr %[P], [%[w], #36]\n\t"                                             \
            AOT_DW3_RQ2("a0") AOT_DW3_RQ2("a1") AOT_DW3_RQ2("a2") AOT_DW3_RQ2("a3")   \
            "strb %[a0], [%[o]]\n\t"                                                \
            "strb %[a1], [%[o], %[os]]\n\t"                                         \
            "add %[o], %[o], %[os], lsl #1\n\t"                                     \
            "strb %[a2], [%[o]]\n\t"                                                \
            "strb %[a3], [%[o], %[os]]\n\t"                                         \
            "add %[o], %[o], %[os], lsl #1\n\t"                                     \
            : [a0] "=&r"(a0_), [a1] "=&r"(a1_), [a2] "=&r"(a2_), [a3] "=&r"(a3_),    \
              [W] "=&r"(W_), [S] "=&r"(S_), [P] "=&r"(P_), [q0] "+r"(q0), [q1] "+r"(q1), \
              [q2] "+r"(q2), [o] "+r"(op_)                                          \
            : [w] "r"(w), [os] "r"(os_)                                             \
            : "memory");                                                            \
  } while (0)

/* one filter row of two positions (AOT_DW3_G2Q), q advanced by two
 * columns: stride 1 words at columns 0, 1, 2 (position 1's third tap is
 * the high half of column 2), stride 2 at columns 0, 2, 4 */
#define AOT_DW3_ROW2_S1(q, r, x0, x1)                   \
  "ldrd %[W], %[S], [%[w], #" #r "]\n\t"                \
  "ldr %[P], [%[" #q "]], #4\n\t"                       \
  "smlad %[a0], %[P], %[W], %[" x0 "]\n\t"              \
  "ldr %[P], [%[" #q "], #-2]\n\t"                      \
  "smlad %[a1], %[P], %[W], %[" x1 "]\n\t"              \
  "ldr %[P], [%[" #q "]]\n\t"                           \
  "smlabb %[a0], %[P], %[S], %[a0]\n\t"                 \
  "smlatb %[a1], %[P], %[S], %[a1]\n\t"
#define AOT_DW3_ROW2_S2(q, r, x0, x1)                   \
  "ldrd %[W], %[S], [%[w], #" #r "]\n\t"                \
  "ldr %[P], [%[" #q "]], #8\n\t"                       \
  "smlad %[a0], %[P], %[W], %[" x0 "]\n\t"              \
  "ldr %[P], [%[" #q "], #-4]\n\t"                      \
  "smlad %[a1], %[P], %[W], %[" x1 "]\n\t"              \
  "smlabb %[a0], %[P], %[S], %[a0]\n\t"                 \
  "ldr %[P], [%[" #q "]]\n\t"                           \
  "smlabb %[a1], %[P], %[S], %[a1]\n\t"

/* two positions: the doubled accumulators (ks2 into a1 first), the
 * requantization and the stores at o, o + os (o advanced by 2 os) */
#define AOT_DW3_G2Q(ROW, q0, q1, q2, w, op_, os_)                                    \
  do {                                                                               \
    uint32_t W_, S_, P_, a0_, a1_;                                                   \
    __asm__("ldr %[a1], [%[w], #24]\n\t" ROW(q0, 0, "a1", "a1") ROW(q1, 8, "a0", "a1") \
            ROW(q2, 16, "a0", "a1")                                                  \
            "ldrd %[W], %[S], [%[w], #28]\n\t"                                      \
            AOT_DW3_RQ1("a0") AOT_DW3_RQ1("a1")                                     \
            "ldr %[P], [%[w], #36]\n\t"                                             \
            AOT_DW3_RQ2("a0") AOT_DW3_RQ2("a1")                                     \
            "strb %[a0], [%[o]]\n\t"                                                \
            "strb %[a1], [%[o], %[os]]\n\t"                                         \
            "add %[o], %[o], %[os], lsl #1\n\t"                                     \
            : [a0] "=&r"(a0_), [a1] "=&r"(a1_), [W] "=&r"(W_), [S] "=&r"(S_),        \
              [P] "=&r"(P_), [q0] "+r"(q0), [q1] "+r"(q1), [q2] "+r"(q2), [o] "+r"(op_) \
            : [w] "r"(w), [os] "r"(os_)                                             \
            : "memory");                                                            \
  } while (0)

/* one position (the row's last out_w % 4): pairs at q, third taps at q + 2 */
AOT_INLINE int32_t aot_dw3_g1(const int16_t *q0, const int16_t *q1, const int16_t *q2,
                              const aot_dw3_ch *w) {
  int32_t a = w->ks2;
  a = __smlad((int16x2_t)aot_dw3_ld(q0), (int16x2_t)w->w[0], a);
  a = __smlabb((int32_t)aot_dw3_ld(q0 + 2), (int32_t)w->w[1], a);
  a = __smlad((int16x2_t)aot_dw3_ld(q1), (int16x2_t)w->w[2], a);
  a = __smlabb((int32_t)aot_dw3_ld(q1 + 2), (int32_t)w->w[3], a);
  a = __smlad((int16x2_t)aot_dw3_ld(q2), (int16x2_t)w->w[4], a);
  return __smlabb((int32_t)aot_dw3_ld(q2 + 2), (int32_t)w->w[5], a);
}

/* one output row of every channel: rows[] the three widened input rows of
 * the window (column 0 = input column -pad_w), o the row's first output,
 * s the stride (1 or 2) */
/* one channel's row whose requantization does not fold (shift >= 0, or
 * sums that may reach 2^30): the exact sum (the doubled products summed in
 * int64, halved) and aot_conv_mbqm */
#if AOT_F_DW_S8_3SLOW
static __attribute__((noinline)) void aot_dw3_slow(const int16_t *const *rows, size_t coff,
                                                   const aot_dw3_ch *w, int8_t *o, int32_t os,
                                                   int32_t ow, int32_t s, int32_t out_off) {
  int32_t j, r;
  for (j = 0; j < ow; j++, o += os) {
    int64_t a = 0;
    for (r = 0; r < 3; r++) {
      const int16_t *x = rows[r] + coff + (size_t)j * s;
      const uint32_t wa = w->w[2 * r], wb = w->w[2 * r + 1];
      a += (int64_t)x[0] * (int16_t)(wa & 0xFFFFu) + (int64_t)x[1] * (int16_t)(wa >> 16) +
           (int64_t)x[2] * (int16_t)(wb & 0xFFFFu);
    }
    *o = (int8_t)__ssat(aot_conv_mbqm((int32_t)((uint32_t)w->ks2 + (uint32_t)(int32_t)(a / 2)),
                                      w->m, w->k) + out_off, 8);
  }
}
#endif

AOT_INLINE void aot_dw3_rowc(const int16_t *const *rows, const aot_dw3_ch *w, int8_t *o,
                             int32_t ch, int32_t os, int32_t ow, int32_t wp, const int32_t s,
                             int32_t out_off) {
  const int32_t n4 = ow >> 2;
  int32_t c, g;
  for (c = 0; c < ch; c++, w++, o++) {
    const int16_t *q0 = rows[0] + (size_t)c * wp, *q1 = rows[1] + (size_t)c * wp;
    const int16_t *q2 = rows[2] + (size_t)c * wp;
    int8_t *op = o;
#if AOT_F_DW_S8_3SLOW
    if (w->e == 0) {
      aot_dw3_slow(rows, (size_t)c * wp, w, o, os, ow, s, out_off);
      continue;
    }
#else
    (void)out_off;   /* every channel folds its offset (aot_features.h) */
#endif
#if defined(__OPTIMIZE__)
    for (g = 0; g < n4; g++) {
      if (s == 1)
        AOT_DW3_G4Q(AOT_DW3_ROW_S1, q0, q1, q2, w, op, os);
      else
        AOT_DW3_G4Q(AOT_DW3_ROW_S2, q0, q1, q2, w, op, os);
    }
    if (ow & 2) {
      if (s == 1)
        AOT_DW3_G2Q(AOT_DW3_ROW2_S1, q0, q1, q2, w, op, os);
      else
        AOT_DW3_G2Q(AOT_DW3_ROW2_S2, q0, q1, q2, w, op, os);
    }
    if (ow & 1) *op = (int8_t)aot_dw3_rq(aot_dw3_g1(q0, q1, q2, w), w->m, w->k, w->e);
#else
    for (g = 0; g < n4; g++, op += 4 * os) {
      int32_t a0, a1, a2, a3, m, k, e;
      if (s == 1)
        AOT_DW3_G4(AOT_DW3_ROW_S1, q0, q1, q2, w, a0, a1, a2, a3);
      else
        AOT_DW3_G4(AOT_DW3_ROW_S2, q0, q1, q2, w, a0, a1, a2, a3);
      m = w->m;
      k = w->k;
      e = w->e;
      op[0] = (int8_t)aot_dw3_rq(a0, m, k, e);
      op[os] = (int8_t)aot_dw3_rq(a1, m, k, e);
      op[2 * os] = (int8_t)aot_dw3_rq(a2, m, k, e);
      op[3 * os] = (int8_t)aot_dw3_rq(a3, m, k, e);
    }
    for (g = 4 * n4; g < ow; g++, q0 += s, q1 += s, q2 += s, op += os)
      *op = (int8_t)aot_dw3_rq(aot_dw3_g1(q0, q1, q2, w), w->m, w->k, w->e);
#endif
  }
}

static __attribute__((noinline)) void aot_dw3_row(const int16_t *const *rows,
                                                  const aot_dw3_ch *w, int8_t *o, int32_t ch,
                                                  int32_t os, int32_t ow, int32_t wp,
                                                  int32_t s, int32_t out_off) {
#if AOT_F_DW_S8_3S1 && AOT_F_DW_S8_3S2
  if (s == 1)
    aot_dw3_rowc(rows, w, o, ch, os, ow, wp, 1, out_off);
  else
    aot_dw3_rowc(rows, w, o, ch, os, ow, wp, 2, out_off);
#elif AOT_F_DW_S8_3S1
  (void)s;   /* every layer of the module: stride 1 (aot_features.h) */
  aot_dw3_rowc(rows, w, o, ch, os, ow, wp, 1, out_off);
#else
  (void)s;   /* every layer of the module: stride 2 (aot_features.h) */
  aot_dw3_rowc(rows, w, o, ch, os, ow, wp, 2, out_off);
#endif
}

/* input row src (ch channels, nx columns xs elements apart) widened into
 * slot dst ([channel][wp], column pw + ix): per four channels and two
 * columns two loads, PKHBT / PKHTB, four SXTB16 and four stores */
static __attribute__((noinline)) void aot_dw3_widen(const int8_t *src, int16_t *dst, int32_t ch,
                                                    size_t xs, int32_t nx, int32_t wp,
                                                    int32_t pw) {
  const int32_t n4 = ch & ~3, np = nx >> 1;
  int32_t c, ix;
  for (c = 0; c < n4; c += 4) {
    const int8_t *sp = src + c;
    int16_t *d0 = dst + (size_t)c * wp + pw, *d1 = d0 + wp, *d2 = d1 + wp, *d3 = d2 + wp;
    for (ix = 0; ix < np; ix++, sp += 2 * xs, d0 += 2, d1 += 2, d2 += 2, d3 += 2) {
      uint32_t a, b, lo, hi, v;
      memcpy(&a, sp, 4);
      memcpy(&b, sp + xs, 4);
      lo = aot_dsp_pkhbt(a, b);
      hi = aot_dsp_pkhtb(a, b);
      v = (uint32_t)__sxtb16((int8x4_t)lo);
      memcpy(d0, &v, 4);
      v = (uint32_t)aot_dw_dsp_hi(lo);
      memcpy(d1, &v, 4);
      v = (uint32_t)__sxtb16((int8x4_t)hi);
      memcpy(d2, &v, 4);
      v = (uint32_t)aot_dw_dsp_hi(hi);
      memcpy(d3, &v, 4);
    }
    if (nx & 1) {
      int16_t *e = dst + (size_t)c * wp + pw + 2 * np;
      e[0] = sp[0];
      e[wp] = sp[1];
      e[2 * wp] = sp[2];
      e[3 * wp] = sp[3];
    }
  }
  for (c = n4; c < ch; c++) {
    int16_t *d = dst + (size_t)c * wp + pw;
    for (ix = 0; ix < nx; ix++) d[ix] = src[(size_t)ix * xs + c];
  }
}

/* n (even) int16 of value v from d (4-byte aligned: wp is even) */
static void aot_dw3_fill(int16_t *d, size_t n, int16_t v) {
  const uint32_t v2 = ((uint32_t)(uint16_t)v) * 0x10001u;
  uint32_t *w = (uint32_t *)(void *)d;
  size_t i = n / 2;
  for (; i >= 4; i -= 4, w += 4) {   /* four words a step (two STRD) */
    w[0] = v2;
    w[1] = v2;
    w[2] = v2;
    w[3] = v2;
  }
  for (; i > 0; i--) *w++ = v2;
}

/* activation range narrower than int8: clamp n outputs, four per word
 * (SSUB8 sets GE per byte where o >= lo, resp. o >= hi; SEL picks) */
static void aot_dw3_clamp(int8_t *o, int32_t n, int32_t lo, int32_t hi) {
  const uint32_t l4 = (uint32_t)(uint8_t)lo * 0x01010101u, h4 = (uint32_t)(uint8_t)hi * 0x01010101u;
  int32_t i;
  for (i = 0; i + 4 <= n; i += 4) {
    uint32_t v;
    memcpy(&v, o + i, 4);
    (void)__ssub8((int8x4_t)v, (int8x4_t)l4);
    v = (uint32_t)__sel((uint8x4_t)v, (uint8x4_t)l4);
    (void)__ssub8((int8x4_t)v, (int8x4_t)h4);
    v = (uint32_t)__sel((uint8x4_t)h4, (uint8x4_t)v);
    memcpy(o + i, &v, 4);
  }
  for (; i < n; i++) o[i] = (int8_t)aot_clamp_i32(o[i], lo, hi);
}

/* the layer (aot_dw3_fits), in blocks of AOT_DW3_CB channels (scratch: their
 * constants, then the ring); transposed (aot_dwconv2d_s8_dsp_tr): input and
 * output columns taken as the rows, the filter's too */
static int32_t aot_dw3_dsp(const aot_conv_params *p, const int8_t *input, const int8_t *filter,
                           const int32_t *bias, int8_t *output, void *scratch) {
  const int32_t tr = aot_dwconv2d_s8_dsp_tr(p), ch = p->in_c, wp = aot_dw3_wp(p);
  const int32_t in_h = tr ? p->in_w : p->in_h, in_w = tr ? p->in_h : p->in_w;
  const int32_t oh = tr ? p->out_w : p->out_h, ow = tr ? p->out_h : p->out_w;
  const int32_t pw = tr ? p->pad_h : p->pad_w, ph = tr ? p->pad_w : p->pad_h;
  const int32_t sh = tr ? p->stride_w : p->stride_h, sw = tr ? p->stride_h : p->stride_w;
  const int32_t nx = aot_max_i32(0, aot_min_i32(in_w, wp - pw));
  const int32_t cb = aot_min_i32(ch, AOT_DW3_CB);
  aot_dw3_ch *const cs = (aot_dw3_ch *)scratch;
  int16_t *const ring =
      (int16_t *)(void *)((char *)scratch + aot_conv_scratch_round(AOT_DW3_CH_BYTES * (size_t)cb));
  /* elements between rows / columns of the (transposed) input and output */
  const size_t in_row = tr ? (size_t)ch : (size_t)p->in_w * ch;
  const size_t in_col = tr ? (size_t)p->in_w * ch : (size_t)ch;
  const size_t out_row = tr ? (size_t)ch : (size_t)p->out_w * ch;
  const int32_t out_col = tr ? p->out_w * ch : ch;
  const size_t img_in = (size_t)p->in_h * p->in_w * ch, img_out = (size_t)p->out_h * p->out_w * ch;
  const int16_t zp = (int16_t)(-p->input_offset);
  const int full = AOT_FULL8(p);
  int32_t b, oy, c0;
  for (c0 = 0; c0 < ch; c0 += cb) {
    const int32_t nb = aot_min_i32(cb, ch - c0);
    const size_t slot = (size_t)nb * wp;
    if (aot_dw3_setup(p, filter, bias, cs, c0, nb)) return AOT_KERNEL_BAD_PARAM;
    for (b = 0; b < p->batches; b++) {
      const int8_t *in_b = input + (size_t)b * img_in + c0;
      int8_t *out_b = output + (size_t)b * img_out + c0;
      int32_t held[3] = {-1, -1, -1};   /* input row + pad_h in each slot, or -1 */
      aot_dw3_fill(ring, 3 * slot, zp);
      for (oy = 0; oy < oh; oy++) {
        const int16_t *rows[3];
        int32_t fy;
        for (fy = 0; fy < 3; fy++) {
          const int32_t r = oy * sh + fy, iy = r - ph, sl = r % 3;
          int16_t *d = ring + (size_t)sl * slot;
          if (held[sl] != r) {
            if (iy < 0 || iy >= in_h) {
              if (held[sl] >= ph && held[sl] < ph + in_h) aot_dw3_fill(d, slot, zp);
            } else {
              aot_dw3_widen(in_b + (size_t)iy * in_row, d, nb, in_col, nx, wp, pw);
            }
            held[sl] = r;
          }
          rows[fy] = d;
        }
        aot_dw3_row(rows, cs, out_b + (size_t)oy * out_row, nb, out_col, ow, wp, sw,
                    p->output_offset);
      }
    }
  }
  if (!full) aot_dw3_clamp(output, (int32_t)(img_out * (size_t)p->batches), p->act_min, p->act_max);
  return AOT_KERNEL_OK;
}
#endif /* AOT_F_DW_S8_3S1 || AOT_F_DW_S8_3S2 */

#endif /* AOT_DSP */

#endif
