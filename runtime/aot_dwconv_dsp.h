/* aot_dwconv_dsp.h - the Arm DSP (Cortex-M4F/M7/M33) kernel of
 * DEPTHWISE_CONV_2D int8 with depth multiplier 1 and at most
 * AOT_DW_S8_DSP_TAPS filter taps; included by aot_dwconv2d_s8.c when
 * AOT_DSP is defined (aot_dsp.h), which keeps the portable loops for every
 * other case.
 *
 * Channels in blocks of up to AOT_DW_S8_DSP_CH (fewer for large filters,
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
 * SMLAD; 15 instructions per 8 products, one asm block per four pairs; pairs
 * padded to groups of four with zero-weight taps reading the zero-point
 * row), then the last tap of an odd count with SMLABB / SMLATT. */
#ifndef AOT_DWCONV_DSP_H
#define AOT_DWCONV_DSP_H

#include "aot_dsp.h"

#ifdef AOT_DSP

#define AOT_DW_S8_DSP_CH 32      /* channels of a block, at most */
#define AOT_DW_S8_DSP_TAPS 49    /* filter taps (7 x 7), at most */
#define AOT_DW_S8_DSP_W16 432    /* words of the widened filter of a block */


/* the block-wide constants of one call */
typedef struct aot_dw_dsp_blk {
  const int8_t *const *tab;
  const uint32_t *w16;
  const aot_dsp_kc *k;
  int32_t nt, odd, n4, full, quick, out_off, lo, hi;
} aot_dw_dsp_blk;

AOT_INLINE int16x2_t aot_dw_dsp_hi(uint32_t v) {
  int16x2_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}

/* PKHBT lo, a, b, LSL #16: bytes (a0, a1, b0, b1); PKHTB hi, b, a, ASR #16:
 * bytes (a2, a3, b2, b3). SXTB16 of these (plain and ROR #8) gives the
 * 16-bit pairs (a_i, b_i) of each channel i of two taps' words a, b. */
AOT_INLINE uint32_t aot_dw_dsp_pklo(uint32_t a, uint32_t b) {
  uint32_t r;
  __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
AOT_INLINE uint32_t aot_dw_dsp_pkhi(uint32_t a, uint32_t b) {
  uint32_t r;
  __asm__("pkhtb %0, %1, %2, asr #16" : "=r"(r) : "r"(b), "r"(a));
  return r;
}

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

/* four tap pairs of four channels (channel offset c; tab entries *tp and
 * widened weights *wp, both advanced past the group): SMLAD adds the exact
 * products of both taps of a channel, 15 instructions per 8 products */
#define AOT_DW_DSP_PAIRS4(tp, wp, c, a0, a1, a2, a3)                                     \
  do {                                                                                   \
    uint32_t p0_, p1_, xa_, xb_, lo_;                                                    \
    __asm__(AOT_DW_DSP_PAIR_ASM AOT_DW_DSP_PAIR_ASM AOT_DW_DSP_PAIR_ASM AOT_DW_DSP_PAIR_ASM \
            : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [tp] "+r"(tp),  \
              [wp] "+r"(wp), [p0] "=&r"(p0_), [p1] "=&r"(p1_), [xa] "=&r"(xa_),            \
              [xb] "=&r"(xb_), [lo] "=&r"(lo_)                                           \
            : [c] "r"(c)                                                                 \
            : "memory");                                                                 \
  } while (0)

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
 * groups of four (tab and w16 padded with zero-weight taps to nt8), then
 * the last tap of an odd count (tab[nt8]; SMLABB / SMLATT) */
static __attribute__((noinline)) void aot_dw_dsp_pos(const aot_dw_dsp_blk *b, int8_t *out) {
  const int8_t *const *const tab = b->tab;
  const uint32_t *wp = b->w16;
  const aot_dsp_kc *k = b->k;
  const int32_t nt8 = b->nt, odd = b->odd, n4 = b->n4, full = b->full, quick = b->quick;
  const int32_t out_off = b->out_off, lo = b->lo, hi = b->hi;
  int32_t c, t, v0, v1, v2, v3;
  for (c = 0; c < n4; c += 4, k += 4, out += 4) {
    int32_t a0 = k[0].ks, a1 = k[1].ks, a2 = k[2].ks, a3 = k[3].ks;
    const int8_t *const *tp = tab;
    for (t = 0; t < nt8; t += 8) AOT_DW_DSP_PAIRS4(tp, wp, c, a0, a1, a2, a3);
    if (odd) {
      uint32_t xv;
      int16x2_t x02, x13;
      memcpy(&xv, tab[nt8] + c, 4);
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
                              const int8_t *filter, const int32_t *bias, int8_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, ch = p->in_c;
  const int32_t fh = p->filter_h, fw = p->filter_w, nt = fh * fw;
  /* taps 0 .. np2 - 1 in pairs, padded to nt8 (groups of four pairs); the
   * last tap of an odd count alone, in tab[nt8] */
  const int32_t np2 = nt & ~1, odd = nt & 1, nt8 = (np2 + 7) & ~7;
  const int32_t gw = 2 * nt8 + 2 * odd;   /* widened filter words of four channels */
  /* channels of a block: as many fours as the widened filter holds */
  const int32_t cb = aot_min_i32(AOT_DW_S8_DSP_CH, AOT_DW_S8_DSP_W16 / gw * 4);
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const uint32_t in_off = (uint32_t)p->input_offset;
  const size_t in_row = (size_t)in_w * ch, sx = (size_t)p->stride_w * ch;
  int8_t zrow[AOT_DW_S8_DSP_CH];
  aot_dsp_kc kc[AOT_DW_S8_DSP_CH];
  uint32_t w16[AOT_DW_S8_DSP_W16];
  const int8_t *tab[AOT_DW_S8_DSP_TAPS];   /* nt8 + odd <= 49 */
  aot_dw_dsp_blk bk;
  int32_t c0, i;

  memset(zrow, (int8_t)(-p->input_offset), sizeof zrow);
  bk.tab = tab;
  bk.w16 = w16;
  bk.k = kc;
  bk.nt = nt8;
  bk.odd = odd;
  for (i = np2; i < nt8; i++) tab[i] = zrow;
  bk.out_off = p->output_offset;
  bk.lo = p->act_min;
  bk.hi = p->act_max;
  bk.full = p->act_min == -128 && p->act_max == 127;
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
          d[2 * nt8] = (uint32_t)__sxtb16((int8x4_t)v);
          d[2 * nt8 + 1] = (uint32_t)aot_dw_dsp_hi(v);
        } else if (t & 1) {
          memcpy(&u, filter + (size_t)(t - 1) * ch + c0 + c, 4);
          d[2 * t - 2] = (uint32_t)__sxtb16((int8x4_t)aot_dw_dsp_pklo(u, v));
          d[2 * t - 1] = (uint32_t)aot_dw_dsp_hi(aot_dw_dsp_pklo(u, v));
          d[2 * t] = (uint32_t)__sxtb16((int8x4_t)aot_dw_dsp_pkhi(u, v));
          d[2 * t + 1] = (uint32_t)aot_dw_dsp_hi(aot_dw_dsp_pkhi(u, v));
        }
        s02 = __sxtab16(s02, (int8x4_t)v);
        __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(s13) : "r"(s13), "r"(v));
      }
      for (i4 = 0; i4 < 4; i4++) {
        const uint32_t lanes = (uint32_t)(i4 & 1 ? s13 : s02);
        const uint32_t sw = (uint32_t)(int32_t)(int16_t)(i4 & 2 ? lanes >> 16 : lanes);
        aot_dsp_kc_set(kc + c + i4,
                       (int32_t)((bias ? (uint32_t)bias[c0 + c + i4] : 0u) + sw * in_off),
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
      aot_dsp_kc_set(kc + c, (int32_t)((bias ? (uint32_t)bias[c0 + c] : 0u) + sw * in_off),
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
              for (i = 0; i < np2; i++) tab[i] += sx;
              if (odd) tab[nt8] += sx;
            } else {
              const int8_t *row = in_b + (size_t)iy0 * in_row + (size_t)ix0 * ch;
              for (fy = 0, i = 0; fy < fh; fy++, row += (size_t)dh * in_row)
                for (fx = 0; fx < fw; fx++, i++)
                  tab[i < np2 ? i : nt8] = row + (size_t)fx * dw * ch;
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
                tab[i < np2 ? i : nt8] =
                    row_in && ix >= 0 && ix < in_w ? row + (size_t)ix * ch : zrow;
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
              acc += filter[(size_t)t * ch + c0 + c] * tab[t < np2 ? t : nt8][c];
            out[c] = (int8_t)aot_clamp_i32(aot_dsp_rqk(acc, kc + c) + bk.out_off, bk.lo, bk.hi);
          }
#endif
        }
      }
    }
  }
}

#endif /* AOT_DSP */

#endif
