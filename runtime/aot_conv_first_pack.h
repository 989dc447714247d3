/* aot_conv_first_pack.h - the compile-time constants of an int8 CONV_2D on
 * the Cortex-M4 few-channel path (aot_conv_first.h): aotc computes them
 * once per layer (src/ops/op_conv.c) and emits them as the const array
 * p->first the kernel reads; the kernel test (tests/target/first_kernels.c)
 * calls the same function. Plain C99 for the host and the targets; no
 * module includes it (the kernel only reads the array).
 *
 * The array (aot_conv2d_s8_first_lay.cwords int32, aot_conv.h):
 *  - the header (AOT_CF_*, aot_conv.h): the layout the kernel reads
 *    instead of computing it, and AOT_CF_FAST: 1 when every channel takes
 *    the fast requantization (as aot_dsp_kc_set decides it: m = 0, or a shift in [-31, -1] with
 *    |ks| + 16384 * K < 2^30, so the doubled sums fit int32), the
 *    activation range is all of int8 and out_c is a multiple of eight:
 *    the assembly loop requantizes and stores; else 0 (the kernel's exact
 *    per-position requantization, AOT_F_CONV_S8_FSLOW);
 *  - per eight channels AOT_CONV_FIRST_BLK words: eight start values ks =
 *    kbias (doubled when fast; int32 wrap-around, the portable sum's
 *    integer), then eight (m, s) pairs, s as aot_dsp_kc.s (on the fast path
 *    rs = -shift - 1); channels past out_c 0; then the loop's constants
 *    (AOT_CF_B*, aot_conv.h);
 *  - the nrot widened filter copies (w_words each): in copy r, word
 *    (c / 8) * 8L + (j * fh + col) * 8 + c % 8 holds taps 2j, 2j + 1 of
 *    filter row (col - r) mod fh of channel c as two int16 (doubled when
 *    fast: |2w| <= 256 fits), 0 past the row's end or the last channel. */
#ifndef AOT_CONV_FIRST_PACK_H
#define AOT_CONV_FIRST_PACK_H

#include "aot_conv.h"

/* the s of aot_dsp_kc_set (aot_dsp.h) for start value ks, multiplier m,
 * shift sh and K taps: 0-30 fast, 32-62 the 64-bit product, below 0 the
 * general requantization (shift + 64 recovers it) */
AOT_INLINE int32_t aot_conv_first_s(int32_t ks, int32_t m, int32_t sh, int32_t K) {
  const int64_t a = ks < 0 ? -(int64_t)ks : ks;
  if (m == 0) return 0;
  if (sh >= 0 || sh < -31) return sh - 64;
  return -sh - 1 + (a + (int64_t)K * 16384 < ((int64_t)1 << 30) ? 0 : 32);
}

/* Fills dst (L.cwords int32) for layer p (its out_mult, out_shift and
 * kbias set) and filter (out_c x K int8). */
AOT_INLINE void aot_conv2d_s8_first_pack(const aot_conv_params *p, const int8_t *filter,
                                         int32_t *dst) {
  aot_conv2d_s8_first_lay Ly;
  const int32_t fh = p->filter_h, rl = p->filter_w * p->in_c, K = fh * rl, oc = p->out_c;
  int32_t c, r, fy, j, fast, dbl, step;
  uint32_t *w;
  aot_conv2d_s8_first_layout(p, &Ly);
  fast = p->act_min == -128 && p->act_max == 127 && oc % 8 == 0;
  for (c = 0; c < oc; c++)
    if ((uint32_t)aot_conv_first_s(p->kbias[c], p->out_mult[c], p->out_shift[c], K) >= 32u)
      fast = 0;
  dbl = fast ? 2 : 1;
  /* windows of one loop: every position, sw * in_c / 2 pairs apart; when
     sw * in_c is odd, every other position, sw * in_c pairs apart */
  step = ((p->stride_w * p->in_c) << Ly.odd) >> 1;
  dst[AOT_CF_FAST] = fast;
  dst[AOT_CF_L] = Ly.L;
  dst[AOT_CF_Q] = Ly.q;
  dst[AOT_CF_LEAD] = Ly.lead;
  dst[AOT_CF_N] = Ly.n;
  dst[AOT_CF_RV] = Ly.spread ? 2 * Ly.rw : 0;
  dst[AOT_CF_ODD] = Ly.odd;
  dst[AOT_CF_NROT] = Ly.nrot;
  dst[AOT_CF_WW] = (int32_t)Ly.w_words;
  dst[AOT_CF_WOFS] = AOT_CF_HDR + AOT_CONV_FIRST_BLK * (Ly.oc8 / 8);
  dst[AOT_CF_WSTEP] = step * fh;
  dst[AOT_CF_NEED] = (Ly.spread ? 1 : 2) + (fast ? 0 : 4);
  dst[AOT_CF_ZP2] = (int32_t)((uint32_t)(uint16_t)(-p->input_offset) * 0x10001u);
  for (c = 0; c < Ly.oc8; c++) {
    int32_t *b = dst + AOT_CF_HDR + AOT_CONV_FIRST_BLK * (c >> 3);
    const int32_t ks = c < oc ? p->kbias[c] : 0;
    b[c & 7] = (int32_t)((uint32_t)ks * (uint32_t)dbl);
    b[8 + 2 * (c & 7)] = c < oc ? p->out_mult[c] : 0;
    b[9 + 2 * (c & 7)] = c < oc ? aot_conv_first_s(ks, p->out_mult[c], p->out_shift[c], K) : 0;
    b[AOT_CF_BL] = Ly.L;
    b[AOT_CF_BC1] = 1 + 2 * p->output_offset;
    b[AOT_CF_BXSTEP] = 4 * (step * fh - Ly.L);
    b[AOT_CF_BOSTEP] = oc << Ly.odd;
    b[AOT_CF_BFAST] = fast;
  }
  w = (uint32_t *)(dst + dst[AOT_CF_WOFS]);
  for (r = 0; r < Ly.nrot; r++)
    for (c = 0; c < Ly.oc8; c++)
      for (fy = 0; fy < fh; fy++) {
        const int8_t *wr = c < oc ? filter + (size_t)c * K + (fy - r + fh) % fh * rl : filter;
        uint32_t *d = w + Ly.w_words * r + (size_t)(c >> 3) * Ly.L * 8 + (c & 7) + 8 * fy;
        for (j = 0; j < Ly.nj; j++, d += 8 * fh) {
          const int32_t lo = c < oc ? wr[2 * j] * dbl : 0;
          const int32_t hi = c < oc && 2 * j + 1 < rl ? wr[2 * j + 1] * dbl : 0;
          *d = (uint32_t)(uint16_t)lo | (uint32_t)(uint16_t)hi << 16;
        }
      }
}

#endif
