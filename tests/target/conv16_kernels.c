/* conv16_kernels.c - check of the int16x8 CONV_2D and TRANSPOSE_CONV
 * kernels (aot_conv2d_s16.c, aot_tconv2d_s16.c with aot_s16_simd.h) against
 * their portable loops.
 *
 * The kernels as built for this target (aot_*: Helium on Cortex-M55, Arm DSP
 * on Cortex-M4, portable on the host) are compared byte for byte with the
 * same files compiled with AOT_NO_SIMD (ref_*, conv16_ref_kernels.c) on
 * random layers: batches, strides 1-3, paddings, dilations, groups, channel
 * counts that are not multiples of 4 / 8, filters of up to 12 x 1 or 5 x 5
 * (TRANSPOSE_CONV: 1 x 1 to 5 x 8, VALID, SAME or any padding, layers run
 * by phases or not, phase windows over AOT_S16_RUN taps),
 * windows of more than AOT_S16_RUN (504) taps (int32 sums moved into int64)
 * and of more than AOT_S16_DSP_COL_K taps (no column: the one-position
 * path), inputs and weights at their extremes (-32768 / 32767, -128 / 127:
 * the largest products), random per-channel multipliers, shifts and int64
 * biases, activation ranges, the scratch given or not (NULL: constants made
 * per output), and the output's guard bytes (nothing written past it).
 * Prints one line per failure and "N passed, M failed"; exit status 0 when
 * everything passed. Built and run by tests/integration/test_simd_conv16.sh
 * on the host, Cortex-M4 and Cortex-M55. */
#include <stdio.h>
#include <string.h>

#include "aot_conv.h"
#include "aot_s16_simd.h"

int32_t ref_conv2d_s16(const aot_conv_params *p, const int16_t *input, const int8_t *filter,
                       const int64_t *bias, int16_t *output, void *scratch);
int32_t ref_tconv2d_s16(const aot_conv_params *p, const int16_t *input, const int8_t *filter,
                        const int64_t *bias, int16_t *output, void *scratch);

#define KC_SEED 0x16C0417Bu
#include "kernel_check.h"

#define MAXIN 12288
#define MAXF 40960
#define MAXOUT 6144
#define MAXC 96
#define GUARD 8
#define MAXSCR 40960
static int16_t in16[MAXIN];
static int8_t filt[MAXF];
static int64_t bias[MAXC];
static int32_t mult[MAXC], shift[MAXC];
static int16_t out[MAXOUT + GUARD], ref[MAXOUT + GUARD];
static uint64_t scr[MAXSCR / 8];
static int conv_cases, tconv_cases, long_cases, nocol_cases, col_cases, tlong_cases, phased_cases;

/* inputs and weights: mode 0 random, 1 extremes (largest products), 2
 * small inputs, 3 tiny inputs and weights (sums that requantize about one
 * to one: an error of one in a sum shows in the output) */
static void fill(int32_t nin, int32_t nf, int mode) {
  int32_t i;
  for (i = 0; i < nin; i++)
    in16[i] = (int16_t)(mode == 1   ? (rnd() & 1 ? -32768 : 32767)
                        : mode == 2 ? rr(-300, 300)
                        : mode == 3 ? rr(-6, 6)
                                    : rr(-32768, 32767));
  for (i = 0; i < nf; i++)
    filt[i] = (int8_t)(mode == 1 ? (rnd() & 1 ? -128 : 127) : mode == 3 ? rr(-6, 6) : rr(-128, 127));
  if (mode == 1 && (rnd() & 1)) {   /* all products of one sign: the largest sums */
    for (i = 0; i < nin; i++) in16[i] = -32768;
    for (i = 0; i < nf; i++) filt[i] = -128;
  }
}

/* per-channel requantization, bias and activation range; fine: shifts
 * of about one to one, small biases, the whole int16 range (mode 3) */
static void quant(aot_conv_params *p, int use_bias, int fine) {
  int32_t c;
  for (c = 0; c < p->out_c; c++) {
    mult[c] = (int32_t)(0x40000000u + (rnd() & 0x3FFFFFFFu));
    shift[c] = fine ? rr(0, 2) : rr(-40, 2);
    bias[c] = !use_bias ? 0 : fine ? rr(-500, 500) : (int64_t)(int32_t)rnd() * rr(-4096, 4096);
  }
  if (fine || (rnd() & 1)) {
    p->act_min = -32768;
    p->act_max = 32767;
  } else {
    p->act_min = rr(-32768, 0);
    p->act_max = rr(0, 32767);
  }
  p->out_mult = mult;
  p->out_shift = shift;
}

/* runs both kernels and compares the outputs and the guard bytes */
static void compare(int tconv, const aot_conv_params *p, int use_bias, int use_scr,
                    const char *what, int idx) {
  const int32_t n = p->batches * p->out_h * p->out_w * p->out_c;
  const size_t need = tconv ? aot_tconv2d_s16_scratch_size(p) : aot_conv2d_s16_scratch_size(p);
  void *sc = use_scr && need > 0 ? (void *)scr : NULL;
  int32_t r1, r2;
  if (need > sizeof scr) {
    check(0, "scratch too small for the case", idx);
    return;
  }
  if (sc && need > aot_s16_rq_bytes(p)) col_cases++;
  memset(out, 0x5A, sizeof out);
  memset(ref, 0x5A, sizeof ref);
  memset(scr, 0xA5, sizeof scr);
  if (tconv) {
    r1 = aot_tconv2d_s16(p, in16, filt, use_bias ? bias : NULL, out, sc);
    r2 = ref_tconv2d_s16(p, in16, filt, use_bias ? bias : NULL, ref, NULL);
  } else {
    r1 = aot_conv2d_s16(p, in16, filt, use_bias ? bias : NULL, out, sc);
    r2 = ref_conv2d_s16(p, in16, filt, use_bias ? bias : NULL, ref, NULL);
  }
  check(r1 == r2 && memcmp(out, ref, sizeof(int16_t) * (size_t)(n + GUARD)) == 0, what, idx);
}

static void conv_case(int idx) {
  aot_conv_params p;
  int32_t groups, fsize, nin, nf, nout, ktot;
  int tries = 0, use_bias = (rnd() % 4) != 0, mode;
  memset(&p, 0, sizeof p);
  do {
    const int kind = (int)(rnd() % 8);
    p.batches = rr(1, 2);
    groups = kind == 0 ? rr(2, 4) : 1;
    p.filter_in_c = kind == 1 ? rr(40, 64) : kind == 2 ? rr(236, 300) : rr(1, 20);
    if (kind == 3) p.filter_in_c = 4 * rr(1, 16);
    p.in_c = p.filter_in_c * groups;
    p.out_c = groups * (kind == 2 ? rr(1, 3) : rr(1, MAXC / groups > 12 ? 12 : MAXC / groups));
    p.filter_h = kind == 2 ? 3 : rr(1, 5);
    p.filter_w = kind == 2 ? 3 : rr(1, 5);
    if (kind == 4) {   /* temporal filters: one wide, tall */
      p.filter_w = 1;
      p.filter_h = rr(4, 12);
    }
    p.stride_h = rr(1, 3);
    p.stride_w = rr(1, 3);
    p.dilation_h = (rnd() % 4) == 0 ? 2 : 1;
    p.dilation_w = (rnd() % 4) == 0 ? 2 : 1;
    p.in_h = rr(1, kind == 2 ? 4 : 12);
    p.in_w = rr(1, kind == 2 ? 6 : 24);
    p.pad_h = rr(0, p.filter_h - 1);
    p.pad_w = rr(0, p.filter_w - 1);
    p.out_h = (p.in_h + 2 * p.pad_h - p.dilation_h * (p.filter_h - 1) - 1) / p.stride_h + 1;
    p.out_w = (p.in_w + 2 * p.pad_w - p.dilation_w * (p.filter_w - 1) - 1) / p.stride_w + 1;
    if (rnd() & 1) p.out_w += rr(0, 1);   /* a last window past the edge */
    fsize = p.filter_h * p.filter_w * p.filter_in_c;
    nin = p.batches * p.in_h * p.in_w * p.in_c;
    nf = p.out_c * fsize;
    nout = p.batches * p.out_h * p.out_w * p.out_c;
    tries++;
  } while (p.out_h < 1 || p.out_w < 1 || nin > MAXIN || nf > MAXF || nout > MAXOUT ||
           p.out_c > MAXC || tries > 1000);
  if (tries > 1000) return;
  ktot = fsize;
  if (ktot > AOT_S16_RUN) long_cases++;
  if (ktot > AOT_S16_DSP_COL_K) nocol_cases++;
  mode = (int)(rnd() % 4);
  fill(nin, nf, mode);
  quant(&p, use_bias, mode == 3);
  conv_cases++;
  compare(0, &p, use_bias, (rnd() % 8) != 0, "conv2d_s16", idx);
}

static void tconv_case(int idx) {
  aot_conv_params p;
  int32_t nin, nf, nout, th, tw;
  int tries = 0, use_bias = (rnd() % 4) != 0, mode;
  memset(&p, 0, sizeof p);
  do {
    const int kind = (int)(rnd() % 7), pad = (int)(rnd() % 3);
    p.batches = rr(1, 2);
    p.in_c = kind == 0 ? rr(1, 15) : kind == 1 ? 4 * rr(100, 130) : kind == 2 ? rr(130, 300)
                                                                 : 4 * rr(1, 20);
    if (kind == 3) p.in_c += rr(1, 3);   /* not a multiple of 4 */
    p.filter_in_c = p.in_c;
    p.out_c = kind == 1 || kind == 2 ? rr(1, 5) : rr(1, 20);
    p.filter_h = rr(1, 5);
    p.filter_w = rr(1, 8);
    p.stride_h = rr(1, 3);
    p.stride_w = rr(1, 3);
    p.dilation_h = p.dilation_w = 1;
    p.in_h = kind == 2 ? rr(2, 4) : rr(1, kind == 1 ? 2 : 4);
    p.in_w = kind == 2 ? rr(4, 8) : rr(1, kind == 1 ? 3 : 12);
    if (pad == 0) {   /* VALID */
      th = tw = 0;
    } else if (pad == 1) {   /* SAME: out = in * stride */
      th = aot_max_i32(p.filter_h - p.stride_h, 0);
      tw = aot_max_i32(p.filter_w - p.stride_w, 0);
    } else {   /* any total padding */
      th = rr(0, p.filter_h - 1);
      tw = rr(0, p.filter_w - 1);
    }
    p.pad_h = th / 2;
    p.pad_w = tw / 2;
    p.out_h = (p.in_h - 1) * p.stride_h + p.filter_h - th;
    p.out_w = (p.in_w - 1) * p.stride_w + p.filter_w - tw;
    if (pad == 1) {   /* TFLite's SAME: outputs past the filter's reach when f < stride */
      p.out_h = p.in_h * p.stride_h;
      p.out_w = p.in_w * p.stride_w;
    }
    nin = p.batches * p.in_h * p.in_w * p.in_c;
    nf = p.out_c * p.filter_h * p.filter_w * p.in_c;
    nout = p.batches * p.out_h * p.out_w * p.out_c;
    tries++;
  } while (p.out_h < 1 || p.out_w < 1 || nin > MAXIN || nf > MAXF || nout > MAXOUT ||
           tries > 1000);
  if (tries > 1000) return;
  if (p.in_c > AOT_S16_RUN) long_cases++;
  if (aot_tconv2d_s16_phased(&p)) {
    phased_cases++;
    if (aot_tconv2d_s16_phase_k(&p) > AOT_S16_RUN) tlong_cases++;
  }
  mode = (int)(rnd() % 4);
  fill(nin, nf, mode);
  quant(&p, use_bias, mode == 3);
  tconv_cases++;
  compare(1, &p, use_bias, (rnd() % 8) != 0, "tconv2d_s16", idx);
}

/* aot_s16_out (the split aot_mbqm64) against aot_mbqm64 on edge values */
static void rq_cases(void) {
  static const int64_t edge[] = {0, 1, -1, 32767, -32768, INT32_MAX, INT32_MIN,
                                 (int64_t)INT32_MAX + 1, (int64_t)INT32_MIN - 1,
                                 (int64_t)1 << 40, -((int64_t)1 << 40), (int64_t)1 << 47};
  int i, bad = 0;
  for (i = 0; i < 4000; i++) {
    const int32_t m = (int32_t)(rnd() >> 1), sh = rr(-47, 14);
    const int64_t b = (int64_t)(int32_t)rnd() * rr(-65536, 65536);
    const int64_t x = i < 12 * 40 ? edge[i % 12] : (int64_t)(int32_t)rnd() * rr(-2048, 2048);
    const aot_s16_rq q = aot_s16_rq_of(m, sh, b);
    const int32_t want = aot_clamp_i32(aot_mbqm64(x + b, m, sh), -32768, 32767);
    if (aot_s16_out(x, &q, 0, NULL, NULL, NULL, -32768, 32767) != want) bad++;
    if (aot_s16_out(x, NULL, 0, &m, &sh, &b, -32768, 32767) != want) bad++;
  }
  check(bad == 0, "aot_s16_out", bad);
}

int main(void) {
  int c;
#if defined(AOT_S16_MVE)
  printf("conv16 kernels (Helium)\n");
#elif defined(AOT_S16_DSP)
  printf("conv16 kernels (Arm DSP)\n");
#else
  printf("conv16 kernels (portable)\n");
#endif
  rq_cases();
  for (c = 0; c < 500; c++) conv_case(c);
  for (c = 0; c < 600; c++) tconv_case(c);
  printf("cases: %d CONV_2D (%d over %d taps, %d over %d), %d TRANSPOSE_CONV (%d by phases, %d "
         "of them over %d taps), %d with more scratch than the constants\n",
         conv_cases, long_cases, AOT_S16_RUN, nocol_cases, AOT_S16_DSP_COL_K, tconv_cases,
         phased_cases, tlong_cases, AOT_S16_RUN, col_cases);
  check(long_cases >= 20 && nocol_cases >= 5 && col_cases >= 300 && phased_cases >= 200 &&
            tlong_cases >= 20,
        "case coverage", 0);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
