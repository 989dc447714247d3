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
 *    by (oy * stride_h - pad_h) mod filter_h (filter_h copies: a layer
 *    whose copies do not fit AOT_CONV_FIRST_BYTES does not take the path).
 *    The window of output column ox, whose
 *    filter row fy is the run of filter_w * in_c values from
 *    s = ox * stride_w * in_c in its row, is then one run of
 *    L = nj * filter_h words from word (s / 2) * filter_h, nj the pairs of
 *    a filter row. When stride_w * in_c is odd, half of the windows start at
 *    an odd value: the rows are then also interleaved shifted by one value
 *    (the B copy) and those windows read it;
 *  - the filter is widened at compile time into the same order
 *    (aot_conv2d_s8_first_pack, aot_conv_first_pack.h: p->first), eight
 *    output channels interleaved (a filter row of an odd number of taps
 *    gets a zero last weight, which meets the next value of the row:
 *    nothing outside the window is added; channels past out_c have zero
 *    filters), with the start values and requantization constants;
 *  - per output row and eight channels one assembly loop over the
 *    positions (aot_cf_row8: per pair of taps one input word, four LDRD of
 *    filter pairs and eight SMLAD, 13 instructions for 16 MACs), the sums
 *    starting from ks = kbias (int32 wrap-around, the same integer as the
 *    portable sum of w * (x + input_offset) + bias; the sum of at most
 *    AOT_CONV_FIRST_L pairs cannot leave int32 beyond that wrap-around);
 *    when stride_w * in_c is odd, two such loops: the even positions
 *    (windows from X) and the odd ones (from XB);
 *  - when every channel takes aot_dsp_kc_set's fast case, the activation
 *    range is all of int8 and out_c a multiple of eight (the header's
 *    AOT_CF_FAST), the sums doubled (filter and ks doubled at compile
 *    time: |2w| <= 256 fits int16, |2 sum| < 2^31) and the fast case
 *    folded with the output offset and SSAT as in aot_conv_pw_dsp.h
 *    (((r >> rs) + 1 + 2 * out_off) >> 1 equals ((r >> rs) + 1) >> 1 +
 *    out_off) inside the loop; else
 *    (AOT_F_CONV_S8_FSLOW) one position at a time, the sums requantized
 *    per channel by aot_dsp_rqk.
 * Paths by layer (aot_features.h): AOT_F_CONV_S8_FSPREAD (shifted copies
 * or odd left padding: rows widened then spread), AOT_F_CONV_S8_FEVEN
 * (the others: four values into two words), AOT_F_CONV_S8_FSLOW; the
 * driver reads the layout from the constants' header (AOT_CF_*, aot_conv.h)
 * instead of computing it. Scratch as aot_conv2d_s8_first_layout lays it
 * out: the interleaved rows (twice when stride_w * in_c is odd), then one
 * widened row when spread. */
#ifndef AOT_CONV_FIRST_H
#define AOT_CONV_FIRST_H

#include "aot_dsp.h"

#if defined(AOT_DSP) && AOT_F_CONV_S8_FIRST

/* one pair of taps for eight channels: the input word into r3, four LDRD of
 * filter words, eight SMLAD into r4-r11 */
#define AOT_CF_G                          \
  "ldmia r0!, {r3}\n\t"                   \
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

/* npos output positions, eight channels, windows from x on: the sums
 * K[i] + the SMLAD of filter words w[8t + i] with input words x[t],
 * t < K[AOT_CF_BL]; then, when K[AOT_CF_BFAST] is set, the fast
 * requantization of each (sums doubled: the filter words and ks are; m and
 * rs from K[8 + 2i], K[9 + 2i], then SSAT with the output offset folded,
 * K[AOT_CF_BC1]) stored to out[i] (the next position's window
 * K[AOT_CF_BXSTEP] bytes after the end of this one, its outputs
 * K[AOT_CF_BOSTEP] after these), else the sums stored to out as eight
 * int32 (one position). Naked: the loop needs all fourteen registers
 * (eight sums, two pointers, the count, the input word, two filter
 * words); K, out, w and npos (the fifth argument, counted down in place)
 * on the stack. */
#define AOT_CF_UNUSED __attribute__((unused))
#define AOT_CF_RQ(r, i)                   \
  "ldrd r12, r3, [r2], #8\n\t"            \
  "smmulr " r ", " r ", r12\n\t"          \
  "add " r ", " r ", " r ", asr #31\n\t"  \
  "asrs " r ", " r ", r3\n\t"             \
  "add " r ", " r ", lr\n\t"              \
  "ssat " r ", #8, " r ", asr #1\n\t"     \
  "strb " r ", [r1, #" i "]\n\t"
#define AOT_CF_S2(x) #x
#define AOT_CF_S(x) AOT_CF_S2(x)
__attribute__((naked, noinline)) static void aot_cf_row8(AOT_CF_UNUSED const uint32_t *x,
                                                        AOT_CF_UNUSED const int32_t *K,
                                                        AOT_CF_UNUSED int8_t *out,
                                                        AOT_CF_UNUSED const uint32_t *w,
                                                        AOT_CF_UNUSED int32_t npos) {
  __asm__ volatile(
      "push {r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, lr}\n"
      "5:\n\t"
      "ldr r2, [sp]\n\t"
      "ldr r1, [sp, #8]\n\t"
      "ldm r2, {r4, r5, r6, r7, r8, r9, r10, r11}\n\t"
      "ldr r2, [r2, #" AOT_CF_S(AOT_CF_BL_BYTES) "]\n\t"
      /* (L + 1) / 2 turns of two pairs; L odd: the first turn from its
         second pair (C clear: L + 1 even) */
      "adds r2, r2, #1\n\t"
      "lsrs r2, r2, #1\n\t"
      "bcc 6f\n"
      "1:\n\t"
      AOT_CF_G
      "6:\n\t"
      AOT_CF_G
      "subs r2, r2, #1\n\t"
      "bne 1b\n\t"
      "ldr r2, [sp]\n\t"
      "ldr r1, [sp, #4]\n\t"
      "ldr r3, [r2, #" AOT_CF_S(AOT_CF_BFAST_BYTES) "]\n\t"
      "cbnz r3, 7f\n\t"
      "stm r1, {r4, r5, r6, r7, r8, r9, r10, r11}\n\t"
      "pop {r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, pc}\n"
      "7:\n\t"
      "ldr lr, [r2, #" AOT_CF_S(AOT_CF_BC1_BYTES) "]\n\t"
      "adds r2, r2, #32\n\t"
      AOT_CF_RQ("r4", "0") AOT_CF_RQ("r5", "1") AOT_CF_RQ("r6", "2") AOT_CF_RQ("r7", "3")
      AOT_CF_RQ("r8", "4") AOT_CF_RQ("r9", "5") AOT_CF_RQ("r10", "6") AOT_CF_RQ("r11", "7")
      "ldr r2, [sp]\n\t"
      "ldrd r3, r12, [r2, #" AOT_CF_S(AOT_CF_BXSTEP_BYTES) "]\n\t"
      "add r0, r0, r3\n\t"
      "add r1, r1, r12\n\t"
      "str r1, [sp, #4]\n\t"
      "ldr r3, [sp, #48]\n\t"
      "subs r3, r3, #1\n\t"
      "str r3, [sp, #48]\n\t"
      "bne 5b\n\t"
      "pop {r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, pc}\n");
}

/* The driver's loops run a few hundred times per call: compiled for size
 * (GCC; Clang's level as it is) */
#if defined(__clang__)
#define AOT_CF_SMALL
#else
#define AOT_CF_SMALL __attribute__((optimize("Os")))
#endif

/* Column of the interleaved rows X (q words, fh apart; XB: the B copy or
 * NULL) of input row x (n int8 after lead zero points, zero points after;
 * n 0: a row outside the image, all zero points; q, lead and the zero
 * point from the header F); tmp: a widened row of F[AOT_CF_RV] values (the
 * spread case). */
static __attribute__((noinline)) void aot_cf_col(const int8_t *x, int32_t n, const int32_t *F,
                                                 int32_t fh, uint32_t *X, uint32_t *XB,
                                                 uint32_t *tmp) {
  const int32_t q = F[AOT_CF_Q], lead = F[AOT_CF_LEAD];
  const uint32_t zp2 = (uint32_t)F[AOT_CF_ZP2];
  int32_t k;
#if AOT_F_CONV_S8_FSPREAD
  if (F[AOT_CF_RV]) {   /* the row widened, then its words (and those one value on) */
    int16_t *const a = (int16_t *)tmp;
    const int16_t zp = (int16_t)zp2;
    for (k = 0; k < F[AOT_CF_RV]; k++) a[k] = k >= lead && k - lead < n ? x[k - lead] : zp;
    for (k = 0; k < q; k++, X += fh) {
      memcpy(X, a + 2 * k, 4);
      if (XB) {
        memcpy(XB, a + 2 * k + 1, 4);
        XB += fh;
      }
    }
    return;
  }
#endif
#if AOT_F_CONV_S8_FEVEN
  {   /* lead even: zero points around the values, then four input values
         into two words at a time, the last 0-3 values by halves (memcpy:
         after the zero points' stores, whose types differ) */
    uint32_t *Y = X;
    for (k = 0; k < lead >> 1; k++, Y += fh) *Y = zp2;
    for (k = (lead + n) >> 1, Y = X + k * fh; k < q; k++, Y += fh) *Y = zp2;
    for (X += (lead >> 1) * fh, k = n >> 2; k > 0; k--, x += 4, X += 2 * fh) {
      uint32_t v, lo, hi;
      memcpy(&v, x, 4);
      lo = (uint32_t)__sxtb16((int8x4_t)v);
      hi = (uint32_t)__sxtb16((int8x4_t)((v >> 8) | (v << 24)));
      X[0] = aot_dsp_pkhbt(lo, hi);
      X[fh] = aot_dsp_pkhtb(lo, hi);
    }
    for (k = 0; k < (n & 3); k++) {
      const int16_t v = x[k];
      memcpy((int16_t *)(X + (k >> 1) * fh) + (k & 1), &v, 2);
    }
  }
#endif
  (void)XB;
  (void)tmp;
}

/* Layer p on the few-channel path from its constants p->first (F: header,
 * AOT_CF_*; blocks of channel constants; filter copies) */
static __attribute__((noinline)) AOT_CF_SMALL int32_t
aot_conv2d_s8_first_dsp(const aot_conv_params *p, const int8_t *input, int8_t *output,
                        void *scratch) {
  const int32_t *const F = p->first;
  const int32_t fh = p->filter_h, oc = p->out_c, in_h = p->in_h;
  /* (no shifted copies without FSPREAD; all fast without FSLOW) */
  const int32_t odd = AOT_F_CONV_S8_FSPREAD ? F[AOT_CF_ODD] : 0;
  const int32_t fast = AOT_F_CONV_S8_FSLOW ? F[AOT_CF_FAST] : 1;
  const size_t in_row = (size_t)p->in_w * p->in_c, qf = (size_t)F[AOT_CF_Q] * fh;
  uint32_t *const X = (uint32_t *)scratch, *const XB = X + qf;
  int32_t oy, iy, hi, c, h;

  /* a path the module left out (aot_features.h) */
  if (F[AOT_CF_NEED] &
      ~(AOT_F_CONV_S8_FSPREAD * 1 + AOT_F_CONV_S8_FEVEN * 2 + AOT_F_CONV_S8_FSLOW * 4))
    return AOT_KERNEL_BAD_PARAM;
  /* input row iy in column iy mod fh (a ring: iy > -fh), each loaded once
     (rows hi on are not yet), output row iy0 / stride_h reading filter
     copy iy0 mod fh */
  for (oy = 0, hi = -p->pad_h; oy < p->out_h; oy++, output += (size_t)p->out_w * oc) {
    const int32_t iy0 = oy * p->stride_h - p->pad_h;
    const uint32_t *x = X;
    for (iy = hi > iy0 ? hi : iy0; iy < iy0 + fh; iy++) {
      const int32_t cl = (iy + fh) % fh;
      const int in = iy >= 0 && iy < in_h;
      aot_cf_col(input + (in ? (size_t)iy * in_row : 0u), in ? F[AOT_CF_N] : 0, F, fh, X + cl,
                 odd ? XB + cl : NULL, X + qf * (1u + (uint32_t)odd));
    }
    hi = iy0 + fh;
    /* the positions of one loop (all; or the even ones from X, then the
       odd ones from XB, whose word s / 2 starts at value s, the odd first
       value of their window; out_w >= 2: both loops have positions) */
    for (h = 0; h <= odd; h++, x = XB + (size_t)((p->stride_w * p->in_c) >> 1) * fh) {
      const int32_t np = (p->out_w - h + odd) >> odd;
      int8_t *o = output + (size_t)h * oc;
      const int32_t *K = F + AOT_CF_HDR;
      const uint32_t *w =
          (const uint32_t *)(F + F[AOT_CF_WOFS]) + (size_t)F[AOT_CF_WW] * ((iy0 + fh) % fh);
      for (c = 0; c < oc; c += 8, o += 8, K += AOT_CONV_FIRST_BLK, w += 8 * F[AOT_CF_L]) {
        if (fast) {
          aot_cf_row8(x, K, o, w, np);
          continue;
        }
#if AOT_F_CONV_S8_FSLOW
        {   /* one position at a time: the sums in io, then the
               requantization of each channel (aot_dsp_rqk) */
          const uint32_t *xp = x;
          int32_t io[8];
          const int32_t nc = oc - c < 8 ? oc - c : 8;
          int8_t *op = o;
          int32_t i, k;
          for (k = 0; k < np; k++, xp += F[AOT_CF_WSTEP], op += oc << odd) {
            aot_cf_row8(xp, K, (int8_t *)io, w, 1);
            for (i = 0; i < nc; i++) {
              const aot_dsp_kc kc = {0, K[8 + 2 * i], K[9 + 2 * i]};
              op[i] = aot_dsp_st(aot_dsp_rqk(io[i], &kc) + p->output_offset, AOT_FULL8(p),
                                 p->act_min, p->act_max);
            }
          }
        }
#endif
      }
    }
  }
  return AOT_KERNEL_OK;
}

#endif /* AOT_DSP && AOT_F_CONV_S8_FIRST */

#endif
