/* fc16_kernels.c - check of the int16x8 FULLY_CONNECTED and
 * DEPTHWISE_CONV_2D kernels (aot_fc_s16.c, aot_dwconv2d_s16.c with the
 * primitives of runtime/aot_fc16_simd.h) against the portable kernels.
 *
 * The kernels as built for this target (aot_*: Helium on Cortex-M55, Arm DSP
 * on Cortex-M4, portable on the host) are compared byte for byte with the
 * same files compiled with AOT_NO_SIMD (ref_*, fc16_ref_kernels.c) on random
 * cases: FULLY_CONNECTED with depths 1 .. 2000 (below and above the int32
 * flush of 496 products), 1 .. 300 output rows (not multiples of 4), 1 .. 3
 * batch rows; DEPTHWISE_CONV_2D with filters 1x1 .. 5x5, 1xK and Kx1 up to
 * 25 taps, a few windows above 511 taps (the portable fallback), strides
 * 1 .. 3, dilations 1 .. 2, paddings from none to more than the filter
 * (windows clipped on every side, empty windows), depth multipliers 1 .. 3,
 * channel counts 1 .. 40. Inputs are random int16 with runs of -32768 /
 * 32767, weights random int8 with runs of -128 / 127; per-channel or
 * per-tensor multipliers (a few of 0x7FFF0000 and above, a few negative),
 * shifts -40 .. 10 (total shifts both sides of 32), int64 biases up to
 * 2^40 or none, full or random activation ranges. The bytes after each
 * output must stay untouched. Prints one line per failure and
 * "N passed, M failed"; exit status 0 when everything passed. Built and run
 * by tests/integration/test_simd_fc16.sh on the host, Cortex-M4 and
 * Cortex-M55. */
#include <stdio.h>
#include <string.h>

#include "aot_conv.h"
#include "aot_fc16_simd.h"

int32_t ref_fc_s16(const aot_fc_params *p, const int16_t *input, const int8_t *weights,
                   const int64_t *bias, int16_t *output);
int32_t ref_dwconv2d_s16(const aot_conv_params *p, const int16_t *input, const int8_t *filter,
                         const int64_t *bias, int16_t *output);

#define KC_SEED 0x6A09E667u
#include "kernel_check.h"

#define MAXW 65536
#define MAXX 8192
#define MAXO 4096
#define MAXC 2048
#define GUARD 16
static int8_t wts[MAXW];
static int16_t xin[MAXX], o16[MAXO + GUARD], r16[MAXO + GUARD];
static int64_t bias[MAXC];
static int32_t mult[MAXC], shift[MAXC];
static int cases_fc, cases_fc_long, cases_dw, cases_dw_big;

static void fill16(int16_t *x, int32_t n) {
  const int32_t mode = rr(0, 5);
  int32_t i;
  for (i = 0; i < n; i++) {
    int32_t v = (int32_t)(rnd() & 0xFFFF) - 32768;
    if (mode == 1 || (mode == 2 && (rnd() & 3) == 0)) v = (rnd() & 1) ? 32767 : -32768;
    if (mode == 3) v = -32768;
    if (mode == 4) v = rr(-300, 300);
    x[i] = (int16_t)v;
  }
}

static void fill8(int8_t *w, int32_t n) {
  const int32_t mode = rr(0, 4);
  int32_t i;
  for (i = 0; i < n; i++) {
    int32_t v = (int32_t)(rnd() & 0xFF) - 128;
    if (mode == 1 || (mode == 2 && (rnd() & 3) == 0)) v = (rnd() & 1) ? 127 : -128;
    if (mode == 3) v = -128;
    w[i] = (int8_t)v;
  }
}

/* multipliers and shifts for n channels (n = 1: per tensor), biases, range */
static void quant(int32_t n, int32_t nb, int64_t **b, int32_t *lo, int32_t *hi) {
  const int32_t sh_lo = rr(-40, 0), sh_hi = sh_lo + rr(0, 12);
  const int32_t bmode = rr(0, 3);
  int32_t i;
  for (i = 0; i < n; i++) {
    mult[i] = (int32_t)(0x40000000u + (rnd() & 0x3FFFFFFFu));
    if ((rnd() & 15) == 0) mult[i] = 0x7FFF0000 + (int32_t)(rnd() & 0xFFFF);
    if ((rnd() & 31) == 0) mult[i] = -mult[i];
    shift[i] = rr(sh_lo, sh_hi > 10 ? 10 : sh_hi);
  }
  for (i = 0; i < nb; i++) {
    int64_t v = (int64_t)rr(-100000, 100000);
    if (bmode == 1) v *= (int64_t)rr(1, 1 << 23);
    if (bmode == 2) v = (int64_t)rr(-3, 3) * ((int64_t)1 << 40);
    bias[i] = v;
  }
  *b = bmode == 3 ? NULL : bias;
  if (rnd() & 1) {
    *lo = -32768, *hi = 32767;
  } else {
    *lo = rr(-32768, 0);
    *hi = rr(*lo, 32767);
  }
}

static int outputs_equal(int32_t n) {
  int32_t i;
  for (i = 0; i < n + GUARD; i++)
    if (o16[i] != r16[i]) return 0;
  return 1;
}

static void fc_case(int c) {
  aot_fc_params p;
  int64_t *b;
  int32_t k, rc1, rc2;
  memset(&p, 0, sizeof p);
  if (c % 4 == 0) p.in_depth = rr(400, 2000);
  else if (c % 4 == 1) p.in_depth = rr(1, 40);
  else p.in_depth = rr(1, 600);
  k = p.in_depth;
  p.batches = rr(1, 3);
  if (p.batches * k > MAXX) p.batches = MAXX / k;
  p.out_depth = rr(1, 300);
  if (p.out_depth * k > MAXW) p.out_depth = MAXW / k;
  if (p.out_depth * p.batches > MAXO) p.out_depth = MAXO / p.batches;
  p.per_channel = (int32_t)(rnd() & 1);
  quant(p.per_channel ? p.out_depth : 1, p.out_depth, &b, &p.act_min, &p.act_max);
  p.out_mult = mult;
  p.out_shift = shift;
  fill16(xin, p.batches * k);
  fill8(wts, p.out_depth * k);
  memset(o16, 0x5A, sizeof o16);
  memset(r16, 0x5A, sizeof r16);
  rc1 = aot_fc_s16(&p, xin, wts, b, o16);
  rc2 = ref_fc_s16(&p, xin, wts, b, r16);
  check(rc1 == rc2 && outputs_equal(p.batches * p.out_depth), "fc_s16", c);
  cases_fc++;
  if (k > AOT_FC16_CHUNK) cases_fc_long++;
}

static void dw_case(int c) {
  aot_conv_params p;
  int64_t *b;
  int32_t eh, ew, rc1, rc2, n_in, n_out;
  memset(&p, 0, sizeof p);
  p.depth_multiplier = rr(1, 3) == 3 ? rr(2, 3) : rr(1, 2);
  p.in_c = rr(1, 40);
  if (c % 30 == 7) {   /* a window above 511 taps: the portable fallback */
    p.filter_h = 1;
    p.filter_w = rr(512, 700);
    p.in_c = rr(1, 5);
  } else if (c % 5 == 0) {
    p.filter_h = 1;
    p.filter_w = rr(1, 25);
  } else if (c % 5 == 1) {
    p.filter_h = rr(1, 25);
    p.filter_w = 1;
  } else {
    p.filter_h = rr(1, 5);
    p.filter_w = rr(1, 5);
  }
  p.out_c = p.in_c * p.depth_multiplier;
  p.stride_h = rr(1, 3);
  p.stride_w = rr(1, 3);
  p.dilation_h = p.filter_h > 5 ? 1 : rr(1, 2);
  p.dilation_w = p.filter_w > 5 ? 1 : rr(1, 2);
  eh = (p.filter_h - 1) * p.dilation_h + 1;
  ew = (p.filter_w - 1) * p.dilation_w + 1;
  p.batches = rr(1, 2);
  p.in_h = p.filter_h == 1 ? rr(1, 12) : rr(1, eh + 6);
  p.in_w = p.filter_w > 25 ? p.filter_w + rr(0, 3) : rr(1, ew + 6);
  p.pad_h = rr(0, eh);
  p.pad_w = rr(0, ew > 30 ? 2 : ew);
  p.out_h = (p.in_h + 2 * p.pad_h - eh) / p.stride_h + 1;
  p.out_w = (p.in_w + 2 * p.pad_w - ew) / p.stride_w + 1;
  if (p.out_h < 1) p.out_h = 1;
  if (p.out_w < 1) p.out_w = 1;
  if (rnd() & 1) p.out_h += rr(0, 1);   /* a last window past the edge */
  n_in = p.batches * p.in_h * p.in_w * p.in_c;
  n_out = p.batches * p.out_h * p.out_w * p.out_c;
  if (n_in > MAXX || n_out > MAXO || p.filter_h * p.filter_w * p.out_c > MAXW) return;
  p.filter_in_c = 1;
  quant(p.out_c, p.out_c, &b, &p.act_min, &p.act_max);
  if (rnd() & 1)   /* per tensor, as aotc passes it: the one value repeated */
    for (eh = 1; eh < p.out_c; eh++) mult[eh] = mult[0], shift[eh] = shift[0];
  p.out_mult = mult;
  p.out_shift = shift;
  fill16(xin, n_in);
  fill8(wts, p.filter_h * p.filter_w * p.out_c);
  memset(o16, 0x5A, sizeof o16);
  memset(r16, 0x5A, sizeof r16);
  rc1 = aot_dwconv2d_s16(&p, xin, wts, b, o16);
  rc2 = ref_dwconv2d_s16(&p, xin, wts, b, r16);
  check(rc1 == rc2 && outputs_equal(n_out), "dwconv2d_s16", c);
  cases_dw++;
  if (p.filter_h * p.filter_w > AOT_FC16_DW_TAPS) cases_dw_big++;
}

/* aot_s16_out / aot_s16_out32 (aot_s16_rq.h, the bias folded into the
 * channel's constants) against clamp(aot_mbqm64(acc + bias)) on random and
 * edge accumulators and biases (acc + bias taken modulo 2^64, as the
 * constants fold it) */
static void rq_cases(void) {
  static const int64_t edge[] = {0, 1, -1, 2147483647, -2147483647 - 1, 4294967296LL,
                                 -4294967296LL, 140737488355327LL, -140737488355328LL,
                                 9223372036854775807LL, -9223372036854775807LL - 1};
  const int ne = (int)(sizeof edge / sizeof edge[0]);
  int c;
  for (c = 0; c < 4000; c++) {
    aot_s16_rq q;
    int32_t m = (int32_t)(0x40000000u + (rnd() & 0x3FFFFFFFu)), s = rr(-60, 20);
    int32_t lo = -32768, hi = 32767, want;
    int64_t a, bias = (int64_t)(((uint64_t)rnd() << 32) | rnd()) >> rr(20, 63);
    if (c % 7 == 0) m = 0x7FFF0000 + (int32_t)(rnd() & 0xFFFF);
    if (c % 11 == 0) m = -m;
    if (c % 13 == 0) m = rr(-70000, 70000);
    if (c % 3 == 0) { lo = rr(-32768, 0); hi = rr(0, 32767); }
    if (c % 17 == 0) bias = edge[c / 17 % ne];
    a = (int64_t)(((uint64_t)rnd() << 32) | rnd()) >> rr(0, 63);
    if (c % 5 == 0) a = edge[c / 5 % ne];
    q = aot_s16_rq_of(m, s, bias);
    want = aot_clamp_i32(aot_mbqm64(aot_s16_u2s((uint64_t)a + (uint64_t)bias), m, s), lo, hi);
    check(aot_s16_out(a, &q, 0, NULL, NULL, NULL, lo, hi) == want, "aot_s16_out", c);
    check(aot_s16_out(a, NULL, 0, &m, &s, &bias, lo, hi) == want, "aot_s16_out (no rq)", c);
    if (a >= INT32_MIN && a <= INT32_MAX)
      check(aot_s16_out32((int32_t)a, &q, lo, hi) == want, "aot_s16_out32", c);
  }
}

int main(void) {
  int c;
#if defined(AOT_FC16_MVE)
  printf("FC16 kernels (Helium)\n");
#elif defined(AOT_FC16_DSP)
  printf("FC16 kernels (Arm DSP)\n");
#else
  printf("FC16 kernels (portable)\n");
#endif
  rq_cases();
  for (c = 0; c < 500; c++) fc_case(c);
  for (c = 0; c < 1500; c++) dw_case(c);
  printf("compared: %d FULLY_CONNECTED (%d with depth > %d), %d DEPTHWISE_CONV_2D (%d above %d taps)\n",
         cases_fc, cases_fc_long, (int)AOT_FC16_CHUNK, cases_dw, cases_dw_big, (int)AOT_FC16_DW_TAPS);
  check(cases_fc_long >= 50 && cases_dw >= 1000 && cases_dw_big >= 5, "case counts", 0);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
