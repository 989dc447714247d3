/* fmve_kernels.c - check of the int8 CONV_2D kernel (aot_conv2d_s8.c) on
 * the layers its Cortex-M55 Helium few-channel path takes
 * (aot_conv_first_mve.h, aot_conv2d_s8_fmve_fits: 1-4 input channels, one
 * group, dilation 1, output rows of 12 or more columns), against its
 * portable loop.
 *
 * The kernel as built for this target (Helium on Cortex-M55, Arm DSP on
 * Cortex-M4, portable on the host) is compared byte for byte with the same
 * file compiled with AOT_NO_SIMD (ref_conv2d_s8, fmve_ref_kernels.c) on
 * random layers: 1-4 input channels, filters 1x1 to 10x8 (3x3, 10x4 and
 * 10x8 often), strides 1-3, paddings from none to filter - 1 (same and
 * valid), a last window past the edge, batches, 1-40 output channels
 * (mostly not multiples of 4, 8 or 16), input and output zero points over
 * all of int8 (-128 and 127 included), inputs and weights at their extremes
 * (the largest sums), random per-channel multipliers and shifts (shifts >= 0
 * and -31 included), biases whose sums pass 2^30, the folded bias given or
 * not, activation ranges, and the output's guard bytes (nothing written
 * past it). Prints the number of cases (and of those the Helium few-channel
 * path takes), one line per failure and "N passed, M failed"; exit status 0
 * when everything passed. Built and run by
 * tests/integration/test_simd_fmve.sh on the host, Cortex-M4 and
 * Cortex-M55. */
#include <stdio.h>
#include <string.h>

#include "aot_conv.h"

int32_t ref_conv2d_s8(const aot_conv_params *p, const int8_t *input, const int8_t *filter,
                      const int32_t *bias, int8_t *output, void *scratch);

#define KC_SEED 0x3F7E5A11u
#include "kernel_check.h"

#define MAXIN 16384
#define MAXF 8192
#define MAXOUT 16384
#define MAXC 40
#define GUARD 8
#define MAXSCR 65536
static int8_t in8[MAXIN], filt[MAXF];
static int32_t bias[MAXC], kbias[MAXC], mult[MAXC], shift[MAXC];
static int8_t out[MAXOUT + GUARD], ref[MAXOUT + GUARD];
static uint64_t scr[MAXSCR / 8];
static int cases, fmve_cases, k16_cases, big_bias_cases, noop_cases;

#include "few_chan_gen.h"
static const few_gen_cfg gen = {10, 8, 40, 4};   /* filters up to 10x8, rows up to 40 values (64 in 2 draws of 8) */

static void one(int idx) {
  aot_conv_params p;
  few_layer l;
  int32_t K, nout;
  int use_bias;
  size_t need;
  if (!few_gen(&p, &gen, 0, &l, &big_bias_cases)) return;
  K = l.K;
  nout = l.nout;
  use_bias = l.use_bias;
  /* aotc's choice of the few-channel path (most cases; the others run on
     the gathered windows) */
  p.dsp_variant = (rnd() % 8) != 0 ? AOT_DSP_VAR_FIRST : 0;
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
  if (aot_conv2d_s8_fmve_fits(&p)) {
    fmve_cases++;
    if (K <= 16) k16_cases++;
  }
  if (p.filter_h * p.filter_w == 1) noop_cases++;
}

int main(void) {
  int c;
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(AOT_NO_SIMD)
  printf("fmve kernels (Helium)\n");
#elif defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32) && !defined(AOT_NO_SIMD)
  printf("fmve kernels (Arm DSP)\n");
#else
  printf("fmve kernels (portable)\n");
#endif
  for (c = 0; c < 600; c++) one(c);
  printf("cases: %d CONV_2D of 1-4 input channels (%d on the Helium few-channel path, %d of them "
         "of at most 16 taps; %d channels with sums past 2^30; %d 1x1)\n",
         cases, fmve_cases, k16_cases, big_bias_cases, noop_cases);
  check(fmve_cases >= 300 && k16_cases >= 30 && big_bias_cases >= 20, "case coverage", 0);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
