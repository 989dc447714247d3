/* aot_dwconv_mve.h - the Arm Helium (MVE, Cortex-M55) variant of
 * DEPTHWISE_CONV_2D int8 (aot_dwconv2d_s8.c dispatches to it when the
 * compiler targets MVE integer). Channels are vectorized; every product
 * w * (x + input_offset) is exact and summed per channel in int32 lanes, so
 * the sums equal the portable ones (int32 arithmetic is modular);
 * requantization bit-identical to aot_conv_mbqm (aot_mve_mbqm).
 *
 * Depth multiplier 1, at least 8 channels, filters of at most
 * AOT_DW_MVE_TAPS taps: blocks of 8 channels (the last 1..7 channels of a
 * layer: one more block of the last 8, the few recomputed channels get the
 * same bytes again). Input and filter are loaded sign-extended into 16-bit
 * lanes (VLDRB.S16) and VMULLB / VMULLT give the exact int32 products of the
 * even / odd lanes. The blocks are taken in groups of up to
 * AOT_DW_MVE_GRP (64 channels), each with its own ring of zero-point
 * padded rows in the scratch (aot_dw_mve_layout): one call per output row
 * fills the group's rings and finds the row offsets, so that every output
 * position takes one path without edge tests: kb = bias + input_offset *
 * (sum of the filter; aot_conv_params.kbias when aotc gives it) plus x * w
 * over all taps, two positions at a time (one filter load feeds both). 3x3
 * filters with stride_w 1 or 2, dilation_w 1 and every shift of the block
 * negative (the usual case) run in inline assembly (aot_dw_mve_pair3 /
 * aot_dw_mve_one3): taps unrolled, each input column loaded once per pair,
 * the cheaper rounding of aot_dw_mve_mbqm2. Depth multiplier
 * > 1, and fewer than 8 channels: aot_dw_s8_mve_g8, blocks of 8 output
 * channels whose lane i reads input channel (c + i) / dm with one gather
 * load, the last block predicated. Filters past AOT_DW_MVE_TAPS taps (unless
 * depth multiplier > 1 and the output channels are a multiple of 8) use
 * int32 lanes of four channels with lane predicates (gather loads for depth
 * multiplier > 1). tests/target/mve_kernels.c and dw8_kernels.c compare all
 * of it with the portable kernel under QEMU. */
#ifndef AOT_DWCONV_MVE_H
#define AOT_DWCONV_MVE_H

#include "aot_conv.h"
#include "aot_mve.h"

#ifdef AOT_MVE

/* requantize four channels (bias already added) */
AOT_INLINE int32x4_t aot_dw_s8_mve_rq(const aot_conv_params *p, int32x4_t acc, int32x4_t mult,
                                      int32x4_t shift) {
  return aot_mve_out_s8(acc, aot_mve_rq_make(mult, shift), p->output_offset, p->act_min,
                        p->act_max);
}

/* n (1..4) channels from c in int32 lanes: taps of the window, then store */
AOT_INLINE void aot_dw_s8_mve_4(const aot_conv_params *p, const int8_t *ip, const int8_t *fp,
                                uint32x4_t offs, int gather, int32_t nfy, int32_t nfx,
                                size_t x_rs, size_t x_step, int32_t w_rs, int32_t w_step,
                                const int32_t *bias, int32_t c, int32_t n, int8_t *out) {
  const mve_pred16_t pn = vctp32q((uint32_t)n);
  const int32_t in_off = p->input_offset;
  int32x4_t a = vdupq_n_s32(0);
  int32_t fy, k;
  for (fy = 0; fy < nfy; fy++) {
    const int8_t *xp = ip, *wp = fp;
    for (k = 0; k < nfx; k++) {
      const int32x4_t x =
          gather ? vldrbq_gather_offset_z_s32(xp, offs, pn) : vldrbq_z_s32(xp, pn);
      a = vaddq_s32(a, vmulq_s32(vaddq_n_s32(x, in_off), vldrbq_z_s32(wp, pn)));
      xp += x_step;
      wp += w_step;
    }
    ip += x_rs;
    fp += w_rs;
  }
  if (bias) a = vaddq_s32(a, vldrwq_z_s32(bias + c, pn));
  a = aot_dw_s8_mve_rq(p, a, vldrwq_z_s32(p->out_mult + c, pn), vldrwq_z_s32(p->out_shift + c, pn));
  vstrbq_p_s32(out, a, pn);
}

/* One filter row of two windows (inputs xa, xb; packed filter wp): x * w
 * added to the even / odd lanes of both. */
AOT_INLINE void aot_dw_s8_mve_row2(const int8_t *xa, const int8_t *xb, const int8_t *wp,
                                   size_t x_step, int32_t nfx, int32x4_t *ae0, int32x4_t *ao0,
                                   int32x4_t *ae1, int32x4_t *ao1) {
  int32_t k;
  for (k = 0; k < nfx; k++, xa += x_step, xb += x_step) {
    const int16x8_t w = vldrbq_s16(wp + 8 * k);
    int16x8_t x = vldrbq_s16(xa);
    *ae0 = vaddq_s32(*ae0, vmullbq_int_s16(x, w));
    *ao0 = vaddq_s32(*ao0, vmulltq_int_s16(x, w));
    x = vldrbq_s16(xb);
    *ae1 = vaddq_s32(*ae1, vmullbq_int_s16(x, w));
    *ao1 = vaddq_s32(*ao1, vmulltq_int_s16(x, w));
  }
}


/* ---- depth multiplier 1: blocks of 8 channels over a ring of padded rows
 * The block's input rows are copied, 8 bytes per position, into a ring of
 * span = (filter_h - 1) * dilation_h + 1 rows of pw positions whose padding
 * columns hold the input zero point (x + input_offset = 0 there, so those
 * taps add nothing); rows above or below the image read a row of the zero
 * point. Each input row is copied once per block (slot iy % span; the rows of
 * an output row's windows are span consecutive rows, those before them are
 * no longer needed as the windows move down), and every
 * output position then takes the same path: kb = bias + input_offset *
 * (sum of the filter) plus x * w over all taps, two positions at a time.
 * The blocks of a group share the per-row work (aot_dw_mve_rows: the ring
 * copies of all of them, the slots' offsets, the same for every ring), which
 * made up a quarter of a small map's instructions per block. The scratch
 * (aot_dw_mve_layout, all offsets multiples of 8):
 *   grp units of usz bytes, one per block of the group:
 *     wpk   the block's filter, 8 bytes per tap;
 *     cst   8 x int32x4: kb even / odd lanes, multiplier, left shift and
 *           right shift (VRSHL count) of the even / odd lanes; then act_min
 *           and act_max in 8 int16 lanes each (the assembly's clamp);
 *   off   filter_h row offsets (relative to a ring) of the current output row;
 *   ring  grp rings of rsz bytes: span rows, then a row of the zero point. */
#if AOT_F_DW_S8_DM1   /* depth multiplier 1 (aot_features.h) */
/* x * w of 8 channels added to the even (e) and odd (o) lanes */
AOT_INLINE void aot_dw_mve_mac(int16x8_t x, int16x8_t w, int32x4_t *e, int32x4_t *o) {
  *e = vaddq_s32(*e, vmullbq_int_s16(x, w));
  *o = vaddq_s32(*o, vmulltq_int_s16(x, w));
}

/* aot_mve_mbqm of a and b with the constants at q (multiplier; left shift
 * at q + 8, right shift at q + 16). gen == 0: every shift of the block is
 * negative (no left shift, every right shift non-zero): the -1 for negative
 * values is x >> 31, added without saturation (VQRDMULH by a multiplier
 * below 2^31 gives at least -2^31 + 1). */
AOT_INLINE void aot_dw_mve_mbqm2(int32x4_t *a, int32x4_t *b, const int32_t *q, const int gen) {
  const int32x4_t m = vldrwq_s32(q), rs = vldrwq_s32(q + 16);
  int32x4_t x = *a, y = *b;
  if (gen) {
    const int32x4_t ls = vldrwq_s32(q + 8);
    x = vshlq_s32(x, ls);
    y = vshlq_s32(y, ls);
  }
  x = vqrdmulhq_s32(x, m);
  y = vqrdmulhq_s32(y, m);
  if (gen) {
    x = vqaddq_s32(x, vshrq_n_s32(vandq_s32(x, rs), 31));
    y = vqaddq_s32(y, vshrq_n_s32(vandq_s32(y, rs), 31));
  } else {
    x = vaddq_s32(x, vshrq_n_s32(x, 31));
    y = vaddq_s32(y, vshrq_n_s32(y, 31));
  }
  *a = vrshlq_s32(x, rs);
  *b = vrshlq_s32(y, rs);
}

/* 8 requantized channels (even lanes e, odd lanes o) to int8: saturating
 * narrows (re-interleaving the lanes), output offset, clamp, store (as
 * aot_dw_s8_mve_st8) */
AOT_INLINE void aot_dw_mve_put8(const aot_conv_params *p, int32x4_t e, int32x4_t o,
                                int8_t *out) {
  int16x8_t r = vqmovnbq_s32(vuninitializedq_s16(), e);
  r = vqmovntq_s32(r, o);
  r = vqaddq_n_s16(r, (int16_t)p->output_offset);
  r = vmaxq_s16(r, vdupq_n_s16((int16_t)p->act_min));
  r = vminq_s16(r, vdupq_n_s16((int16_t)p->act_max));
  vstrbq_s16(out, r);
}

/* Requantize and store two positions (a[0..1] at out, a[2..3] at out + ch) */
AOT_INLINE void aot_dw_mve_out2(const aot_conv_params *p, const int32_t *cst, int32x4_t *a,
                                int8_t *out, size_t ch, const int gen) {
  aot_dw_mve_mbqm2(&a[0], &a[2], cst + 8, gen);
  aot_dw_mve_mbqm2(&a[1], &a[3], cst + 12, gen);
  aot_dw_mve_put8(p, a[0], a[1], out);
  aot_dw_mve_put8(p, a[2], a[3], out + ch);
}

/* x * w of the 8 channels in X (filter W) added to the even / odd sums E, O */
#define AOT_DW_MVE_MAC(X, W, E, O)                                                   \
  "vmullb.s16 q7, " X ", " W "\n\t"                                                  \
  "vadd.i32 " E ", " E ", q7\n\t"                                                    \
  "vmullt.s16 q7, " X ", " W "\n\t"                                                  \
  "vadd.i32 " O ", " O ", q7\n\t"
/* One filter row of 3 taps (packed at offsets W0, W1, W2 from %[w]) of two
 * positions one column apart (sums q0 / q1 and q2 / q3): the row's 4
 * columns from XR, each loaded once; XR moves on by 2 columns. */
#define AOT_DW_MVE_ROW_S1(XR, W0, W1, W2)                                            \
  "vldrb.s16 q4, [%[w], #" W0 "]\n\t"                                                \
  "vldrb.s16 q5, [%[w], #" W1 "]\n\t"                                                \
  "vldrb.s16 q6, [" XR "], #16\n\t"                                                  \
  AOT_DW_MVE_MAC("q6", "q4", "q0", "q1")                                             \
  "vldrb.s16 q6, [" XR ", #-8]\n\t"                                                  \
  AOT_DW_MVE_MAC("q6", "q5", "q0", "q1") AOT_DW_MVE_MAC("q6", "q4", "q2", "q3")      \
  "vldrb.s16 q4, [%[w], #" W2 "]\n\t"                                                \
  "vldrb.s16 q6, [" XR "]\n\t"                                                       \
  AOT_DW_MVE_MAC("q6", "q4", "q0", "q1") AOT_DW_MVE_MAC("q6", "q5", "q2", "q3")      \
  "vldrb.s16 q6, [" XR ", #8]\n\t"                                                   \
  AOT_DW_MVE_MAC("q6", "q4", "q2", "q3")
/* the same for two positions two columns apart (5 columns, the middle one
 * loaded twice: the registers hold two filter taps); XR moves on by 4 */
#define AOT_DW_MVE_ROW_S2(XR, W0, W1, W2)                                            \
  "vldrb.s16 q4, [%[w], #" W0 "]\n\t"                                                \
  "vldrb.s16 q5, [%[w], #" W1 "]\n\t"                                                \
  "vldrb.s16 q6, [" XR "], #32\n\t"                                                  \
  AOT_DW_MVE_MAC("q6", "q4", "q0", "q1")                                             \
  "vldrb.s16 q6, [" XR ", #-16]\n\t"                                                 \
  AOT_DW_MVE_MAC("q6", "q4", "q2", "q3")                                             \
  "vldrb.s16 q6, [" XR ", #-24]\n\t"                                                 \
  AOT_DW_MVE_MAC("q6", "q5", "q0", "q1")                                             \
  "vldrb.s16 q6, [" XR ", #-8]\n\t"                                                  \
  AOT_DW_MVE_MAC("q6", "q5", "q2", "q3")                                             \
  "vldrb.s16 q4, [%[w], #" W2 "]\n\t"                                                \
  "vldrb.s16 q6, [" XR ", #-16]\n\t"                                                 \
  AOT_DW_MVE_MAC("q6", "q4", "q0", "q1")                                             \
  "vldrb.s16 q6, [" XR "]\n\t"                                                       \
  AOT_DW_MVE_MAC("q6", "q4", "q2", "q3")
/* aot_dw_mve_mbqm2 (gen == 0) of X and Y with multiplier and right shift at
 * offsets M and R from %[w] */
#define AOT_DW_MVE_RQ(X, Y, M, R)                                                    \
  "vldrw.32 q4, [%[w], #" M "]\n\t"                                                  \
  "vldrw.32 q5, [%[w], #" R "]\n\t"                                                  \
  "vqrdmulh.s32 " X ", " X ", q4\n\t"                                                \
  "vqrdmulh.s32 " Y ", " Y ", q4\n\t"                                                \
  "vshr.s32 q6, " X ", #31\n\t"                                                      \
  "vshr.s32 q7, " Y ", #31\n\t"                                                      \
  "vadd.i32 " X ", " X ", q6\n\t"                                                    \
  "vadd.i32 " Y ", " Y ", q7\n\t"                                                    \
  "vrshl.s32 " X ", " X ", q5\n\t"                                                   \
  "vrshl.s32 " Y ", " Y ", q5\n\t"

/* aot_dw_mve_mbqm2 (gen == 0) of one vector X, constants at offsets M, R */
#define AOT_DW_MVE_RQ1(X, M, R)                                                      \
  "vldrw.32 q4, [%[w], #" M "]\n\t"                                                  \
  "vldrw.32 q5, [%[w], #" R "]\n\t"                                                  \
  "vqrdmulh.s32 " X ", " X ", q4\n\t"                                                \
  "vshr.s32 q6, " X ", #31\n\t"                                                      \
  "vadd.i32 " X ", " X ", q6\n\t"                                                    \
  "vrshl.s32 " X ", " X ", q5\n\t"
/* one filter row of 3 taps at XR (dilation 1) for one position (q0 / q1) */
#define AOT_DW_MVE_ROW_1(XR, W0, W1, W2)                                             \
  "vldrb.s16 q4, [%[w], #" W0 "]\n\t"                                                \
  "vldrb.s16 q6, [" XR "]\n\t"                                                       \
  AOT_DW_MVE_MAC("q6", "q4", "q0", "q1")                                             \
  "vldrb.s16 q5, [%[w], #" W1 "]\n\t"                                                \
  "vldrb.s16 q2, [" XR ", #8]\n\t"                                                   \
  AOT_DW_MVE_MAC("q2", "q5", "q0", "q1")                                             \
  "vldrb.s16 q4, [%[w], #" W2 "]\n\t"                                                \
  "vldrb.s16 q6, [" XR ", #16]\n\t"                                                  \
  AOT_DW_MVE_MAC("q6", "q4", "q0", "q1")

/* One output position of a 3x3 filter, dilation_w 1, every shift negative
 * (the rows at x0, x1, x2; filter and constants at w as for
 * aot_dw_mve_pair3), stored at out. */
AOT_INLINE void aot_dw_mve_one3(const int8_t *x0, const int8_t *x1, const int8_t *x2,
                                const int8_t *w, int8_t *out, int32_t oo) {
  __asm__ volatile("vldrw.32 q0, [%[w], #72]\n\t"
                   "vldrw.32 q1, [%[w], #88]\n\t"
                   AOT_DW_MVE_ROW_1("%[a]", "0", "8", "16")
                   AOT_DW_MVE_ROW_1("%[b]", "24", "32", "40")
                   AOT_DW_MVE_ROW_1("%[c]", "48", "56", "64")
                   AOT_DW_MVE_RQ1("q0", "104", "168")
                   AOT_DW_MVE_RQ1("q1", "120", "184")
                   "vqmovnb.s32 q4, q0\n\t"
                   "vqmovnt.s32 q4, q1\n\t"
                   "vqadd.s16 q4, q4, %[oo]\n\t"
                   "vldrw.32 q6, [%[w], #200]\n\t"
                   "vldrw.32 q7, [%[w], #216]\n\t"
                   "vmax.s16 q4, q4, q6\n\t"
                   "vmin.s16 q4, q4, q7\n\t"
                   "vstrb.16 q4, [%[o]]\n\t"
                   :
                   : [a] "l"(x0), [b] "l"(x1), [c] "l"(x2), [o] "l"(out), [w] "l"(w), [oo] "r"(oo)
                   : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10",
                     "d11", "d12", "d13", "d14", "d15", "memory");
}

/* Two output positions of a 3x3 filter, stride s (1 or 2), dilation_w 1,
 * every shift negative: the rows at *x0, *x1, *x2 (moved on by 2 * s
 * columns), the packed filter at w with the block's constants right after
 * it (offset 72, aot_dw_mve_layout), requantized (aot_dw_mve_out2, gen 0)
 * and stored at *out and *out + ch (*out moves on by 2 * ch). In assembly:
 * GCC 12 schedules the intrinsics' loads early and spills half the filter.
 * The widening loads and narrowing stores take low base registers ("l"). */
AOT_INLINE void aot_dw_mve_pair3(const int8_t **x0, const int8_t **x1, const int8_t **x2,
                                 const int8_t *w, int8_t **out, int32_t ch, int32_t oo,
                                 const int s) {
  const int8_t *a = *x0, *b = *x1, *c = *x2;
  int8_t *o = *out;
#define AOT_DW_MVE_PAIR_TAIL                                                         \
  AOT_DW_MVE_RQ("q0", "q2", "104", "168")                                            \
  AOT_DW_MVE_RQ("q1", "q3", "120", "184")                                            \
  "vqmovnb.s32 q4, q0\n\t"                                                           \
  "vqmovnt.s32 q4, q1\n\t"                                                           \
  "vqmovnb.s32 q5, q2\n\t"                                                           \
  "vqmovnt.s32 q5, q3\n\t"                                                           \
  "vqadd.s16 q4, q4, %[oo]\n\t"                                                      \
  "vqadd.s16 q5, q5, %[oo]\n\t"                                                      \
  "vldrw.32 q6, [%[w], #200]\n\t"                                                            \
  "vldrw.32 q7, [%[w], #216]\n\t"                                                            \
  "vmax.s16 q4, q4, q6\n\t"                                                          \
  "vmax.s16 q5, q5, q6\n\t"                                                          \
  "vmin.s16 q4, q4, q7\n\t"                                                          \
  "vmin.s16 q5, q5, q7\n\t"                                                          \
  "vstrb.16 q4, [%[o]]\n\t"                                                          \
  "add %[o], %[o], %[ch]\n\t"                                                        \
  "vstrb.16 q5, [%[o]]\n\t"                                                          \
  "add %[o], %[o], %[ch]\n\t"
  if (s == 1)
    __asm__ volatile("vldrw.32 q0, [%[w], #72]\n\t"
                     "vldrw.32 q1, [%[w], #88]\n\t"
                     "vmov q2, q0\n\t"
                     "vmov q3, q1\n\t"
                     AOT_DW_MVE_ROW_S1("%[a]", "0", "8", "16")
                     AOT_DW_MVE_ROW_S1("%[b]", "24", "32", "40")
                     AOT_DW_MVE_ROW_S1("%[c]", "48", "56", "64")
                     AOT_DW_MVE_PAIR_TAIL
                     : [a] "+l"(a), [b] "+l"(b), [c] "+l"(c), [o] "+l"(o)
                     : [w] "l"(w), [ch] "r"(ch), [oo] "r"(oo)
                     : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10",
                       "d11", "d12", "d13", "d14", "d15", "memory");
  else
    __asm__ volatile("vldrw.32 q0, [%[w], #72]\n\t"
                     "vldrw.32 q1, [%[w], #88]\n\t"
                     "vmov q2, q0\n\t"
                     "vmov q3, q1\n\t"
                     AOT_DW_MVE_ROW_S2("%[a]", "0", "8", "16")
                     AOT_DW_MVE_ROW_S2("%[b]", "24", "32", "40")
                     AOT_DW_MVE_ROW_S2("%[c]", "48", "56", "64")
                     AOT_DW_MVE_PAIR_TAIL
                     : [a] "+l"(a), [b] "+l"(b), [c] "+l"(c), [o] "+l"(o)
                     : [w] "l"(w), [ch] "r"(ch), [oo] "r"(oo)
                     : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10",
                       "d11", "d12", "d13", "d14", "d15", "memory");
#undef AOT_DW_MVE_PAIR_TAIL
  *x0 = a;
  *x1 = b;
  *x2 = c;
  *out = o;
}

/* Block setup (8 channels from c): the packed filter, kb (p->kbias, else
 * from the filter sums) and the requantization constants into the scratch s. Returns 1 when every shift
 * of the block is negative (aot_dw_mve_mbqm2's gen == 0). */
static __attribute__((noinline)) int aot_dw_mve_setup(const aot_conv_params *p,
                                                     const int8_t *filter, const int32_t *bias,
                                                     int32_t c, int8_t *s,
                                                     const aot_dw_mve_lay *l) {
  int32_t *const cst = (int32_t *)(void *)(s + l->cst);
  int8_t *const wpk = s + l->wpk;
  const int32_t ch = p->in_c, taps = p->filter_h * p->filter_w;
  const int32x4x2_t m = vld2q_s32(p->out_mult + c), sh = vld2q_s32(p->out_shift + c);
  const int32x4_t zero = vdupq_n_s32(0);
  int32x4_t be = zero, bo = zero, se = zero, so = zero;
  int32_t k;
  if (AOT_KB(p)) {   /* kb from aotc (aot_conv_params.kbias) */
    const int32x4x2_t kv = vld2q_s32(p->kbias + c);
    for (k = 0; k < taps; k++) vstrbq_s16(wpk + 8 * k, vldrbq_s16(filter + c + (size_t)k * ch));
    vstrwq_s32(cst, kv.val[0]);
    vstrwq_s32(cst + 4, kv.val[1]);
  } else {
    if (bias) {
      const int32x4x2_t bv = vld2q_s32(bias + c);
      be = bv.val[0];
      bo = bv.val[1];
    }
    for (k = 0; k < taps; k++) {
      const int16x8_t w = vldrbq_s16(filter + c + (size_t)k * ch);
      vstrbq_s16(wpk + 8 * k, w);
      se = vaddq_s32(se, vmovlbq_s16(w));
      so = vaddq_s32(so, vmovltq_s16(w));
    }
    vstrwq_s32(cst, vmlaq_n_s32(be, se, p->input_offset));
    vstrwq_s32(cst + 4, vmlaq_n_s32(bo, so, p->input_offset));
  }
  vstrwq_s32(cst + 8, m.val[0]);
  vstrwq_s32(cst + 12, m.val[1]);
  vstrwq_s32(cst + 16, vmaxq_s32(sh.val[0], zero));
  vstrwq_s32(cst + 20, vmaxq_s32(sh.val[1], zero));
  vstrwq_s32(cst + 24, vminq_s32(sh.val[0], zero));
  vstrwq_s32(cst + 28, vminq_s32(sh.val[1], zero));
  vst1q_s16((int16_t *)(void *)(cst + 32), vdupq_n_s16((int16_t)p->act_min));
  vst1q_s16((int16_t *)(void *)(cst + 36), vdupq_n_s16((int16_t)p->act_max));
  return vmaxvq_s32(-1, vmaxq_s32(sh.val[0], sh.val[1])) < 0;
}

/* One output row's input rows: copies the input rows up to iy0 + span - 1
 * (inside the image, from *next on: the rows before are in the rings or no
 * longer needed) of each of the group's nb blocks (channels cb[g] of the
 * batch's input in_b) into their slots (row r: r % span of ring g), then
 * stores the filter_h row offsets of the output row's windows (relative to
 * a ring; the zero-point row span for rows outside the image) in off. */
static __attribute__((noinline)) void aot_dw_mve_rows(const aot_conv_params *p,
                                                      const aot_dw_mve_lay *l, int8_t *ring,
                                                      const int8_t *in_b, const int32_t *cb,
                                                      int32_t nb, int32_t iy0, int32_t *next,
                                                      int32_t fh, uint32_t *off) {
  const int32_t span = l->span, in_h = p->in_h, in_w = p->in_w, ch = p->in_c;
  const int32_t hi = aot_min_i32(iy0 + span - 1, in_h - 1);
  const size_t prow = (size_t)l->pw * 8, rsz = l->rsz, rowb = (size_t)in_w * ch;
  int32_t r = aot_max_i32(*next, aot_max_i32(iy0, 0)), g, ix, fy;
  for (; r <= hi; r++) {
    int8_t *const slot = ring + (size_t)(r % span) * prow + (size_t)p->pad_w * 8;
    const int8_t *const row = in_b + (size_t)r * rowb;
    for (g = 0; g < nb; g++) {
      int8_t *d = slot + (size_t)g * rsz;
      const int8_t *src = row + cb[g];
      for (ix = in_w; ix > 0; ix--, d += 8, src += ch) vstrbq_s16(d, vldrbq_s16(src));
    }
  }
  if (hi + 1 > *next) *next = hi + 1;
  for (fy = 0; fy < fh; fy++) {
    const int32_t iy = iy0 + fy * p->dilation_h;
    off[fy] = (uint32_t)(((uint32_t)iy >= (uint32_t)in_h ? span : iy % span) * (int32_t)prow);
  }
}

/* A group of nb blocks of 8 channels (block g: channels cb[g], its unit at
 * s + g * usz set up, its ring at ring + g * rsz) over every output
 * position: the rings are filled and the row offsets found once per output
 * row for all nb blocks. kind 1 / 2: 3x3 filter, dilation_w 1, stride_w
 * kind, every shift of the group negative: the taps unrolled, each input
 * column loaded once per pair of positions; kind 0: any filter, stride and
 * dilation. */
AOT_INLINE void aot_dw_mve_blk(const aot_conv_params *p, const int8_t *input, const int32_t *cb,
                               int32_t nb, int8_t *output, int8_t *s, const aot_dw_mve_lay *l,
                               const int kind) {
  const int32_t ch = p->in_c, out_w = p->out_w, fh = p->filter_h, fw = p->filter_w;
  const size_t x_step = (size_t)p->dilation_w * 8, pos = (size_t)p->stride_w * 8;
  uint32_t *const off = (uint32_t *)(void *)(s + l->off);
  int8_t *const ring = s + l->ring;
  const size_t rsz = l->rsz, usz = l->usz;
  uint32_t o3[3];   /* kind 1 / 2: the 3 row offsets kept in registers */
  uint32_t *const ro = kind ? o3 : off;
  int32_t b, oy, ox, fy, k, g;
  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + (size_t)b * p->in_h * p->in_w * ch;
    int32_t next = 0;
    for (oy = 0; oy < p->out_h; oy++, output += (size_t)out_w * ch) {
      aot_dw_mve_rows(p, l, ring, in_b, cb, nb, oy * p->stride_h - p->pad_h, &next,
                      kind ? 3 : fh, ro);
      if (kind) {   /* the blocks' rows: the ring and unit pointers moved on per block */
        const int8_t *r0 = ring + o3[0], *r1 = ring + o3[1], *r2 = ring + o3[2];
        const int8_t *wpk = s + l->wpk;
        const int32_t oo = p->output_offset;
        for (g = 0; g < nb; g++, r0 += rsz, r1 += rsz, r2 += rsz, wpk += usz) {
          const int8_t *x0 = r0, *x1 = r1, *x2 = r2;
          int8_t *out = output + cb[g];
          for (ox = 0; ox + 2 <= out_w; ox += 2)
            aot_dw_mve_pair3(&x0, &x1, &x2, wpk, &out, ch, oo, kind);
          if (ox < out_w) aot_dw_mve_one3(x0, x1, x2, wpk, out, oo);
        }
        continue;
      }
      for (g = 0; g < nb; g++) {
        const int8_t *const rg = ring + (size_t)g * rsz;
        const int8_t *const wpk = s + (size_t)g * usz + l->wpk;
        const int32_t *const cst = (const int32_t *)(const void *)(s + (size_t)g * usz + l->cst);
        int8_t *out = output + cb[g];
        int32x4_t a[4];
        {
          size_t col = 0;
          for (ox = 0; ox + 2 <= out_w; ox += 2, out += 2 * ch, col += 2 * pos) {
            a[0] = a[2] = vldrwq_s32(cst);
            a[1] = a[3] = vldrwq_s32(cst + 4);
            for (fy = 0; fy < fh; fy++) {
              const int8_t *xp = rg + off[fy] + col;
              aot_dw_s8_mve_row2(xp, xp + pos, wpk + (size_t)fy * fw * 8, x_step, fw, &a[0],
                                 &a[1], &a[2], &a[3]);
            }
            aot_dw_mve_out2(p, cst, a, out, (size_t)ch, 1);
          }
          if (ox < out_w) {
            const int8_t *wp = wpk;
            a[0] = vldrwq_s32(cst);
            a[1] = vldrwq_s32(cst + 4);
            for (fy = 0; fy < fh; fy++) {
              const int8_t *xp = rg + off[fy] + col;
              for (k = 0; k < fw; k++, xp += x_step, wp += 8)
                aot_dw_mve_mac(vldrbq_s16(xp), vldrbq_s16(wp), &a[0], &a[1]);
            }
            a[2] = a[0];
            a[3] = a[1];
            aot_dw_mve_mbqm2(&a[0], &a[2], cst + 8, 1);
            aot_dw_mve_mbqm2(&a[1], &a[3], cst + 12, 1);
            aot_dw_mve_put8(p, a[0], a[1], out);
          }
        }
      }
    }
  }
}

static __attribute__((noinline)) void aot_dw_mve_blk_gen(const aot_conv_params *p,
                                                         const int8_t *input, const int32_t *cb,
                                                         int32_t nb, int8_t *output, int8_t *s,
                                                         const aot_dw_mve_lay *l) {
  aot_dw_mve_blk(p, input, cb, nb, output, s, l, 0);
}
static __attribute__((noinline)) void aot_dw_mve_blk_3s1(const aot_conv_params *p,
                                                         const int8_t *input, const int32_t *cb,
                                                         int32_t nb, int8_t *output, int8_t *s,
                                                         const aot_dw_mve_lay *l) {
  aot_dw_mve_blk(p, input, cb, nb, output, s, l, 1);
}
static __attribute__((noinline)) void aot_dw_mve_blk_3s2(const aot_conv_params *p,
                                                         const int8_t *input, const int32_t *cb,
                                                         int32_t nb, int8_t *output, int8_t *s,
                                                         const aot_dw_mve_lay *l) {
  aot_dw_mve_blk(p, input, cb, nb, output, s, l, 2);
}
#endif /* AOT_F_DW_S8_DM1 */

/* One block of n (1..8) output channels from c over every output position,
 * any depth multiplier (filters past AOT_DW_MVE_TAPS taps: n == 8): lane i
 * reads input channel (c + i) / dm with one gather load (VLDRB.S16 with
 * offsets; lanes past n read input channel c / dm again and are not
 * stored), the block's filter packed in the scratch with zeros past n,
 * VMULLB / VMULLT into int32 lanes. Windows inside the image start from
 * kb = bias + input_offset * (filter sum) and add x * w; clipped windows add
 * (x + input_offset) * w over their valid taps from the bias. */
AOT_INLINE void aot_dw_s8_mve_g8_body(const aot_conv_params *p, const int8_t *input,
                                      const int8_t *filter, const int32_t *bias, int32_t c,
                                      int32_t n, int8_t *output, int8_t *wpk,
                                      const int packed) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c, out_c = p->out_c;
  const int32_t fh = p->filter_h, fw = p->filter_w, dm = p->depth_multiplier;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const size_t in_row = (size_t)in_w * in_c, x_step = (size_t)dw * in_c;
  const size_t x_rs = (size_t)dh * in_row;
  const int32_t ic = c / dm;
  const mve_pred16_t pn = vctp16q((uint32_t)n);
  const int16_t in_off = (int16_t)p->input_offset;
  /* wpk: the block's filter, 8 bytes per tap (the scratch, packed == 1);
   * packed == 0 (larger filters, then n == 8): read in place, out_c bytes per tap */
  const size_t ws = packed ? 8 : (size_t)out_c;
  const int8_t *const wf = packed ? wpk : filter + c;
  int32_t mb[8], sb[8], bb[8];
  uint16_t ob[8];
  int32x4_t be, bo, se = vdupq_n_s32(0), so = se, kbe, kbo;
  int32x4x2_t v;
  aot_mve_rq rqe, rqo;
  uint16x8_t offs;
  int32_t i, b, oy, ox, fy, k;

  for (i = 0; i < 8; i++) {
    mb[i] = i < n ? p->out_mult[c + i] : 0;
    sb[i] = i < n ? p->out_shift[c + i] : 0;
    bb[i] = i < n && bias ? bias[c + i] : 0;
    ob[i] = (uint16_t)(i < n ? (c + i) / dm - ic : 0);
  }
  offs = vld1q_u16(ob);
  v = vld2q_s32(mb);
  {
    const int32x4x2_t sv = vld2q_s32(sb);
    rqe = aot_mve_rq_make(v.val[0], sv.val[0]);
    rqo = aot_mve_rq_make(v.val[1], sv.val[1]);
  }
  v = vld2q_s32(bb);
  be = v.val[0];
  bo = v.val[1];
  for (k = 0; k < fh * fw; k++) {   /* packed filter (zeros past n) and its sums */
    const int16x8_t w = vldrbq_z_s16(filter + (size_t)k * out_c + c, pn);
    if (packed) vstrbq_s16(wpk + 8 * k, w);
    se = vaddq_s32(se, vmovlbq_s16(w));
    so = vaddq_s32(so, vmovltq_s16(w));
  }
  kbe = vmlaq_n_s32(be, se, p->input_offset);
  kbo = vmlaq_n_s32(bo, so, p->input_offset);
  output += c;
  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + (size_t)b * in_h * in_row + ic;
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++, output += out_c) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1;
        int32x4_t ae, ao;
        int16x8_t r;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        if (fy0 == 0 && fy1 == fh && fx0 == 0 && fx1 == fw) {
          const int8_t *ip = in_b + (size_t)iy0 * in_row + (size_t)ix0 * in_c, *wp = wf;
          ae = kbe;
          ao = kbo;
          for (fy = fh; fy > 0; fy--, ip += x_rs) {
            const int8_t *xp = ip;
            for (k = fw; k > 0; k--, xp += x_step, wp += ws) {
              const int16x8_t x = vldrbq_gather_offset_s16(xp, offs), w = vldrbq_s16(wp);
              ae = vaddq_s32(ae, vmullbq_int_s16(x, w));
              ao = vaddq_s32(ao, vmulltq_int_s16(x, w));
            }
          }
        } else {
          ae = be;
          ao = bo;
          if (fy1 > fy0 && fx1 > fx0) {
            const int8_t *ip =
                in_b + (size_t)(iy0 + fy0 * dh) * in_row + (size_t)(ix0 + fx0 * dw) * in_c;
            const int8_t *wr = wf + (size_t)(fy0 * fw + fx0) * ws;
            for (fy = fy1 - fy0; fy > 0; fy--, ip += x_rs, wr += ws * fw) {
              const int8_t *xp = ip, *wp = wr;
              for (k = fx1 - fx0; k > 0; k--, xp += x_step, wp += ws) {
                const int16x8_t x = vaddq_n_s16(vldrbq_gather_offset_s16(xp, offs), in_off);
                const int16x8_t w = vldrbq_s16(wp);
                ae = vaddq_s32(ae, vmullbq_int_s16(x, w));
                ao = vaddq_s32(ao, vmulltq_int_s16(x, w));
              }
            }
          }
        }
        r = vqmovnbq_s32(vuninitializedq_s16(), aot_mve_mbqm(ae, rqe));
        r = vqmovntq_s32(r, aot_mve_mbqm(ao, rqo));
        r = vqaddq_n_s16(r, (int16_t)p->output_offset);
        r = vmaxq_s16(r, vdupq_n_s16((int16_t)p->act_min));
        r = vminq_s16(r, vdupq_n_s16((int16_t)p->act_max));
        vstrbq_p_s16(output, r, pn);
      }
    }
  }
}

#if AOT_F_DW_S8_DM || AOT_F_DW_S8_FEW   /* the gather path (aot_features.h) */
/* aot_dw_s8_mve_g8_body with the filter's tap stride a constant */
static __attribute__((noinline)) void aot_dw_s8_mve_g8(const aot_conv_params *p,
                                                       const int8_t *input,
                                                       const int8_t *filter,
                                                       const int32_t *bias, int32_t c,
                                                       int32_t n, int8_t *output,
                                                       void *scratch) {
  if (p->filter_h * p->filter_w <= AOT_DW_MVE_TAPS)
    aot_dw_s8_mve_g8_body(p, input, filter, bias, c, n, output, (int8_t *)scratch, 1);
  else
    aot_dw_s8_mve_g8_body(p, input, filter, bias, c, n, output, (int8_t *)scratch, 0);
}
#endif

#if AOT_F_DW_S8_BIG && AOT_F_DW_S8_DM1
/* depth multiplier 1, filters past AOT_DW_MVE_TAPS taps: int32 lanes of
 * four channels with lane predicates */
static __attribute__((noinline)) void aot_dw_s8_mve_dm1_big(const aot_conv_params *p,
                                                            const int8_t *input,
                                                            const int8_t *filter,
                                                            const int32_t *bias, int8_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, ch = p->in_c;
  const int32_t fh = p->filter_h, fw = p->filter_w;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const size_t in_row = (size_t)in_w * ch, x_step = (size_t)dw * ch, x_rs = (size_t)dh * in_row;
  const int32_t w_rs = fw * ch, c8 = 0;
  const uint32x4_t no_offs = vdupq_n_u32(0);
  int32_t b, oy, ox, c;

  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + (size_t)b * in_h * in_row;
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, nfx, nfy = fy1 - fy0;
        const int8_t *in_win = in_b, *f_win = filter;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        nfx = fx1 - fx0;
        if (nfy <= 0 || nfx <= 0) {
          nfy = 0;   /* empty window: bias only */
        } else {
          in_win = in_b + (size_t)(iy0 + fy0 * dh) * in_row + (size_t)(ix0 + fx0 * dw) * ch;
          f_win = filter + (size_t)(fy0 * fw + fx0) * ch;
        }
        for (c = c8; c < ch; c += 4) {
          const int32_t n = ch - c < 4 ? ch - c : 4;
          aot_dw_s8_mve_4(p, in_win + c, f_win + c, no_offs, 0, nfy, nfx, x_rs, x_step, w_rs, ch,
                          bias, c, n, output + c);
        }
        output += ch;
      }
    }
  }
}
#endif /* AOT_F_DW_S8_BIG */

#if AOT_F_DW_S8_DM1   /* depth multiplier 1 (aot_features.h) */
/* depth multiplier 1: blocks of 8 channels (the last one overlapping when
 * the channels are not a multiple of 8) over the padded-row ring in scratch
 * (aot_dw_mve_layout's bytes); AOT_KERNEL_BAD_PARAM for a path the module
 * left out (aot_features.h) */
static int32_t aot_dw_s8_mve_dm1(const aot_conv_params *p, const int8_t *input,
                                 const int8_t *filter, const int32_t *bias, int8_t *output,
                                 void *scratch) {
  const int32_t ch = p->in_c;
  int8_t *const s = (int8_t *)scratch;
  aot_dw_mve_lay l;
  int32_t c, kind;

  if (p->filter_h * p->filter_w > AOT_DW_MVE_TAPS) {
#if AOT_F_DW_S8_BIG
    aot_dw_s8_mve_dm1_big(p, input, filter, bias, output);
    return AOT_KERNEL_OK;
#else
    return AOT_KERNEL_BAD_PARAM;
#endif
  }
  if (ch < 8) {   /* fewer than 8 channels */
#if AOT_F_DW_S8_FEW
    aot_dw_s8_mve_g8(p, input, filter, bias, 0, ch, output, scratch);
    return AOT_KERNEL_OK;
#else
    return AOT_KERNEL_BAD_PARAM;
#endif
  }
  aot_dw_mve_layout(p, &l);
  /* the rings' padding columns and zero-point rows (the image columns are
   * written before they are read) */
  aot_mve_fill_s8(s + l.ring, (int8_t)-p->input_offset, (int32_t)(l.rsz * (size_t)l.grp));
  kind = p->filter_h == 3 && p->filter_w == 3 && p->dilation_w == 1 &&
                 (p->stride_w == 1 || p->stride_w == 2)
             ? p->stride_w
             : 0;
  for (c = 0; c < ch; c += 8 * l.grp) {
    int32_t cb[AOT_DW_MVE_GRP], nb = 0, neg = 1;
    for (; nb < l.grp && c + 8 * nb < ch; nb++) {
      const int32_t c8 = c + 8 * nb;
      cb[nb] = c8 + 8 <= ch ? c8 : ch - 8;
      neg &= aot_dw_mve_setup(p, filter, bias, cb[nb], s + (size_t)nb * l.usz, &l);
    }
    if (neg && kind == 1)
      aot_dw_mve_blk_3s1(p, input, cb, nb, output, s, &l);
    else if (neg && kind == 2)
      aot_dw_mve_blk_3s2(p, input, cb, nb, output, s, &l);
    else
      aot_dw_mve_blk_gen(p, input, cb, nb, output, s, &l);
  }
  return AOT_KERNEL_OK;
}
#endif /* AOT_F_DW_S8_DM1 */

#if AOT_F_DW_S8_DM   /* depth multiplier above 1 (aot_features.h) */
/* depth multiplier > 1 (not inlined: keeps its registers) */
static __attribute__((noinline)) void aot_dw_s8_mve_dm(const aot_conv_params *p,
                                                       const int8_t *input, const int8_t *filter,
                                                       const int32_t *bias, int8_t *output,
                                                       void *scratch) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c, out_c = p->out_c;
  const int32_t fh = p->filter_h, fw = p->filter_w, dm = p->depth_multiplier;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const size_t in_row = (size_t)in_w * in_c, x_step = (size_t)dw * in_c;
  const size_t x_rs = (size_t)dh * in_row;
  const int32_t w_rs = fw * out_c;
  int32_t b, oy, ox;

  if (fh * fw <= AOT_DW_MVE_TAPS || out_c % 8 == 0) {   /* blocks of 8, the last predicated */
    for (b = 0; b < out_c; b += 8)
      aot_dw_s8_mve_g8(p, input, filter, bias, b, out_c - b < 8 ? out_c - b : 8, output,
                       scratch);
    return;
  }
  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + (size_t)b * in_h * in_row;
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, nfx, nfy = fy1 - fy0, oc;
        const int8_t *in_win = in_b, *f_win = filter;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        nfx = fx1 - fx0;
        if (nfy <= 0 || nfx <= 0) {
          nfy = 0;
        } else {
          in_win = in_b + (size_t)(iy0 + fy0 * dh) * in_row + (size_t)(ix0 + fx0 * dw) * in_c;
          f_win = filter + (size_t)(fy0 * fw + fx0) * out_c;
        }
        for (oc = 0; oc < out_c; oc += 4) {
          const int32_t n = out_c - oc < 4 ? out_c - oc : 4;
          const int32_t ic = oc / dm;
          /* lanes past n repeat the last input channel (and are not stored) */
          const int32_t l1 = (n > 1 ? oc + 1 : oc) / dm - ic;
          const int32_t l2 = (n > 2 ? oc + 2 : oc) / dm - ic;
          const int32_t l3 = (n > 3 ? oc + 3 : oc) / dm - ic;
          const uint32x4_t offs = vreinterpretq_u32_s32(aot_mve_vec4(0, l1, l2, l3));
          aot_dw_s8_mve_4(p, in_win + ic, f_win + oc, offs, 1, nfy, nfx, x_rs, x_step, w_rs, out_c,
                          bias, oc, n, output);
          output += n;
        }
      }
    }
  }
}
#endif /* AOT_F_DW_S8_DM */

#endif /* AOT_MVE */

#endif
