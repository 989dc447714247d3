/* first_kernels.c - check of the int8 CONV_2D kernel (aot_conv2d_s8.c) on
 * first-layer shapes, the layers its few-channel path takes on the Arm DSP
 * build (aot_conv_first.h, aot_conv2d_s8_dsp_first), against its portable
 * loop.
 *
 * The kernel as built for this target (aot_conv2d_s8: Helium on Cortex-M55,
 * Arm DSP on Cortex-M4, portable on the host) is compared byte for byte
 * with the same file compiled with AOT_NO_SIMD (ref_conv2d_s8,
 * first_ref_kernels.c) on random layers: 1-4 input channels, filters 1x1 to
 * 7x7 and 10x4 / 10x8, strides 1-3, paddings from none to filter - 1 (same
 * and valid), a last window past the edge, batches, 1-40 output channels
 * (mostly not multiples of 4 or 8), input and output zero points over all
 * of int8 (-128 and 127 included), inputs and weights at their extremes
 * (the largest sums), random per-channel multipliers and shifts (shifts
 * >= 0 and -31 included: the slow requantizations), biases large
 * enough that the sums pass 2^30 (no fast requantization; still within
 * int32, as the portable kernel needs), the folded
 * bias given or not, activation ranges, and the output's guard bytes
 * (nothing written past it), the few-channel path chosen (dsp_variant,
 * with the constants aot_conv2d_s8_first_pack computes, as aotc does) or
 * not; a third of the layers tame (channels a multiple of 8, all of int8,
 * small biases, negative shifts: the fast requantization in the loop).
 * Prints the number of cases (and of those the DSP few-channel path takes,
 * fast or not, by column kind), one line per failure and "N passed, M
 * failed"; exit status 0 when everything passed. Built and run by
 * tests/integration/test_simd_first.sh on the host, Cortex-M4 and
 * Cortex-M55. */
#include <stdio.h>
#include <string.h>

#include "aot_conv.h"
#include "aot_conv_first_pack.h"

int32_t ref_conv2d_s8(const aot_conv_params *p, const int8_t *input, const int8_t *filter,
                      const int32_t *bias, int8_t *output, void *scratch);

#define KC_SEED 0x0F125717u
#include "kernel_check.h"

#define MAXIN 16384
#define MAXF 8192
#define MAXOUT 16384
#define MAXC 40
#define GUARD 8
#define MAXSCR 20480
static int8_t in8[MAXIN], filt[MAXF];
static int32_t bias[MAXC], kbias[MAXC], mult[MAXC], shift[MAXC];
static int8_t out[MAXOUT + GUARD], ref[MAXOUT + GUARD];
static uint64_t scr[MAXSCR / 8];
static int32_t firstc[AOT_CONV_FIRST_BYTES / 4];
static int cases, first_cases, odd_cases, big_bias_cases, noop_cases;
static int fast_cases, slow_cases, spread_cases, even_cases;

#include "few_chan_gen.h"
static const few_gen_cfg gen = {7, 7, 24, 3};   /* filters up to 7x7, rows up to 24 values (64 in 1 draw of 8) */

static void one(int idx) {
  aot_conv_params p;
  few_layer l;
  int32_t nout;
  int use_bias, tame;
  size_t need;
  /* tame: channels a multiple of 8, all of int8, shifts below 0 and
     biases below 2^30 (the fast requantization in the assembly loop) */
  tame = (rnd() % 3) == 0;
  if (!few_gen(&p, &gen, tame, &l, &big_bias_cases)) return;
  nout = l.nout;
  use_bias = l.use_bias;
  /* aotc's choice of the few-channel path (most cases; the others run on
     the gathered windows) */
  p.dsp_variant = (rnd() % 8) != 0 ? AOT_DSP_VAR_FIRST : 0;
  /* and its constants, as aotc computes them (with the folded bias) */
  p.first = NULL;
  if (aot_conv2d_s8_dsp_first(&p)) {
    aot_conv_params q = p;
    aot_conv2d_s8_first_lay L;
    aot_conv2d_s8_first_layout(&p, &L);
    q.kbias = kbias;
    memset(firstc, 0xA5, sizeof firstc);
    aot_conv2d_s8_first_pack(&q, filt, firstc);
    check(4u * L.cwords <= sizeof firstc, "first constants size", idx);
    p.first = firstc;
  }
  need = aot_conv2d_s8_scratch_size(&p);
  memset(out, 0x5A, sizeof out);
  memset(ref, 0x5A, sizeof ref);
  memset(scr, 0xA5, sizeof scr);
  {
    const int32_t r1 = aot_conv2d_s8(&p, in8, filt, use_bias ? bias : NULL, out,
                                     need ? (void *)scr : NULL);
    const int32_t r2 = ref_conv2d_s8(&p, in8, filt, use_bias ? bias : NULL, ref, NULL);
    check(r1 == r2 && r1 == AOT_KERNEL_OK &&
              memcmp(out, ref, (size_t)nout + GUARD) == 0,
          "conv2d_s8", idx);
  }
  cases++;
  if (p.first) {
    first_cases++;
    if ((p.stride_w * p.in_c) & 1) odd_cases++;
    if (firstc[AOT_CF_FAST]) fast_cases++; else slow_cases++;
    if (firstc[AOT_CF_RV]) spread_cases++; else even_cases++;
  }
  if (p.filter_h * p.filter_w == 1) noop_cases++;
}

int main(void) {
  int c;
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(AOT_NO_SIMD)
  printf("first kernels (Helium)\n");
#elif defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32) && !defined(AOT_NO_SIMD)
  printf("first kernels (Arm DSP)\n");
#else
  printf("first kernels (portable)\n");
#endif
  for (c = 0; c < 800; c++) one(c);
  printf("cases: %d CONV_2D of 1-4 input channels (%d on the DSP few-channel path, %d of them "
         "with odd window starts; %d with the fast requantization, %d without; %d rows widened "
         "then spread, %d by four values; %d channels with sums past 2^30; %d 1x1)\n",
         cases, first_cases, odd_cases, fast_cases, slow_cases, spread_cases, even_cases,
         big_bias_cases, noop_cases);
  check(first_cases >= 300 && odd_cases >= 50 && big_bias_cases >= 20 && fast_cases >= 100 &&
            slow_cases >= 100 && spread_cases >= 100 && even_cases >= 100,
        "case coverage", 0);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
