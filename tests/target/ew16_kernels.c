/* ew16_kernels.c - check of the fast LEAKY_RELU (int8, int16, runtime/
 * aot_leaky_simd.h), QUANTIZE (requantize, every integer type pair) and int16
 * ADD / SUB broadcast (aot_ews_s16_bcast of aot_ew_q.h) and int8
 * MAX_POOL_2D (PoolingFunctions/aot_maxpool_s8.c) paths against the portable
 * kernels.
 *
 * The kernels as built for this target (aot_*: Helium on Cortex-M55, Arm DSP
 * on Cortex-M4, the fast scalar paths on the host) are compared byte for
 * byte with the same files compiled with AOT_NO_SIMD (ref_*,
 * ew16_ref_kernels.c) on random cases: lengths 1..700 (not multiples of 4),
 * inputs with the extremes of their type, random zero points (zero for most
 * int16 cases, as TFLite's int16), multipliers of every shift from scale
 * ratios 2^-20..2^17 (power-of-two ratios: rounding ties), alpha of zero or
 * negative (the portable fallback), outputs of the type's range and
 * narrower activation ranges, broadcasts [A, B, N] +- [N] / [B, N] / [A, 1,
 * N] in either order, pools of 1..4 x 1..4 with strides 1..3, paddings
 * 0..2 (clipped and empty windows) over 1..40 channels, and the bytes after
 * the output (nothing written past
 * it). Prints the case counts, one line per failure and "N passed, M
 * failed"; exit status 0 when everything passed. Built and run by
 * tests/integration/test_simd_ew16.sh on the host, Cortex-M4 and Cortex-M55. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "aot_ew_q.h"
#include "aot_leaky_simd.h"
#include "aot_conv.h"

int32_t ref_maxpool_s8(const aot_pool_params *p, const int8_t *in, int8_t *out);
int32_t ref_leaky_relu_s8(const aot_leaky_relu_q_params *p, const int8_t *in, int8_t *out);
int32_t ref_leaky_relu_s16(const aot_leaky_relu_q_params *p, const int16_t *in, int16_t *out);
int32_t ref_add_s16(const aot_addsub_q_params *p, const int16_t *a, const int16_t *b,
                    int16_t *o);
int32_t ref_sub_s16(const aot_addsub_q_params *p, const int16_t *a, const int16_t *b,
                    int16_t *o);
#define RQ_PROTO(I, O, TI, TO)                                                        \
  int32_t ref_requantize_##I##_##O(const aot_requant_params *p, const TI *in, TO *out);
RQ_PROTO(s8, s8, int8_t, int8_t)
RQ_PROTO(s8, u8, int8_t, uint8_t)
RQ_PROTO(s8, s16, int8_t, int16_t)
RQ_PROTO(s8, s32, int8_t, int32_t)
RQ_PROTO(u8, s8, uint8_t, int8_t)
RQ_PROTO(s16, s8, int16_t, int8_t)
RQ_PROTO(s16, s16, int16_t, int16_t)
RQ_PROTO(s16, s32, int16_t, int32_t)
RQ_PROTO(s32, s8, int32_t, int8_t)
RQ_PROTO(s32, s16, int32_t, int16_t)

#define KC_SEED 0x1E16A5C3u
#include "kernel_check.h"

/* TFLite QuantizeMultiplier (shift > 0 = left) of r > 0. */
static void qm(double r, int32_t *m, int32_t *s) {
  int e;
  int64_t q;
  const double f = frexp(r, &e);
  q = (int64_t)llround(f * 2147483648.0);
  if (q == ((int64_t)1 << 31)) {
    q /= 2;
    e++;
  }
  *m = (int32_t)q;
  *s = e;
}

/* a scale ratio: 2^[lo, hi] times a random mantissa, or an exact power of
 * two (every third) */
static double ratio(int lo, int hi) {
  const double p = ldexp(1.0, rr(lo, hi));
  return rr(0, 2) == 0 ? p : p * (1.0 + (double)(rnd() & 0xFFFFF) / 1048576.0);
}

#define MAXN 700
#define GUARD 16
static union {
  int8_t s8[MAXN + GUARD];
  uint8_t u8[MAXN + GUARD];
  int16_t s16[MAXN + GUARD];
  int32_t s32[MAXN + GUARD];
} in1, in2, oa, ob;

/* n values of bits (8, 16, 32; neg 0: unsigned 8) with many extremes */
static void fill(void *v, int32_t n, int bits, int neg) {
  const int32_t hi = bits == 32 ? INT32_MAX : (1 << (bits - neg)) - 1;
  const int32_t lo = !neg ? 0 : bits == 32 ? INT32_MIN : -(1 << (bits - 1));
  int32_t i;
  for (i = 0; i < n; i++) {
    const int k = rr(0, 7);
    int32_t x = k == 0 ? lo : k == 1 ? hi : k == 2 ? rr(-3, 3) : (int32_t)rnd();
    if (k >= 3 && bits < 32) x = lo + (int32_t)((uint32_t)x % (uint32_t)(hi - lo + 1));
    if (k == 2 && x < lo) x = lo;
    if (bits == 8 && neg) ((int8_t *)v)[i] = (int8_t)x;
    else if (bits == 8) ((uint8_t *)v)[i] = (uint8_t)x;
    else if (bits == 16) ((int16_t *)v)[i] = (int16_t)x;
    else ((int32_t *)v)[i] = x;
  }
}

static void clear_out(void) {
  memset(&oa, 0x5A, sizeof oa);
  memset(&ob, 0x5A, sizeof ob);
}
#define SAME() (memcmp(&oa, &ob, sizeof oa) == 0)

static int leaky_fast;

/* LEAKY_RELU alpha: 0 (one in eight) or 0.01 .. 1.51 */
static double runit_alpha(void) {
  return rr(0, 7) == 0 ? 0.0 : 0.01 + (double)(rnd() & 0xFFFF) / 65536.0 * 1.5;
}

static void leaky_case(int c, int is16) {
  aot_leaky_relu_q_params p;
  const int32_t tmin = is16 ? -32768 : -128, tmax = is16 ? 32767 : 127;
  const double r = ratio(-6, is16 ? 16 : 20), alpha = rr(0, 9) == 0 ? -0.3 : runit_alpha();
  memset(&p, 0, sizeof p);
  p.size = rr(1, MAXN);
  p.in_zp = is16 ? (rr(0, 3) ? 0 : rr(-300, 300)) : rr(-128, 127);
  p.out_zp = is16 ? (rr(0, 3) ? 0 : rr(-300, 300)) : rr(-128, 127);
  if (rr(0, 5) == 0) {
    p.mult_identity = 1 << 30; /* ratio 1 */
    p.shift_identity = 1;
  } else {
    qm(r, &p.mult_identity, &p.shift_identity);
  }
  if (alpha == 0.0) {
    p.mult_alpha = 0;
    p.shift_alpha = 0;
  } else {
    qm(fabs(alpha) * r, &p.mult_alpha, &p.shift_alpha);
    if (alpha < 0) p.mult_alpha = -p.mult_alpha;
  }
#ifdef AOT_EWS
  {
    aot_lrs q;
    leaky_fast += aot_lrs_setup(&p, tmin, tmax, &q);
  }
#else
  (void)tmin;
  (void)tmax;
#endif
  fill(&in1, p.size, is16 ? 16 : 8, 1);
  clear_out();
  if (is16) {
    check(aot_leaky_relu_s16(&p, in1.s16, oa.s16) == ref_leaky_relu_s16(&p, in1.s16, ob.s16),
          "leaky_relu_s16 status", c);
    check(SAME(), "leaky_relu_s16", c);
  } else {
    check(aot_leaky_relu_s8(&p, in1.s8, oa.s8) == ref_leaky_relu_s8(&p, in1.s8, ob.s8),
          "leaky_relu_s8 status", c);
    check(SAME(), "leaky_relu_s8", c);
  }
}

/* QUANTIZE of one type pair: input bits / signedness, output range */
#define RQ_CASE(I, O, TI, TO, IBITS, INEG, OMIN, OMAX, F)                             \
  static void rq_##I##_##O(int c) {                                                   \
    aot_requant_params p;                                                             \
    memset(&p, 0, sizeof p);                                                          \
    p.size = rr(1, MAXN);                                                             \
    p.in_zp = (IBITS) == 32 ? (rr(0, 3) ? 0 : (int32_t)rnd())                          \
                            : (rr(0, 2) ? 0 : rr(INEG ? -(1 << (IBITS - 1)) : 0,       \
                                                (1 << (IBITS - INEG)) - 1));          \
    if (p.in_zp == INT32_MIN) p.in_zp = 0;                                            \
    p.out_zp = rr(0, 2) ? 0 : rr((OMIN) > -32768 ? (OMIN) : -32768,                   \
                                 (OMAX) < 32767 ? (OMAX) : 32767);                    \
    qm(ratio((IBITS) == 32 ? -20 : -12, (IBITS) == 32 ? 4 : 16), &p.mult, &p.shift);   \
    fill(&in1, p.size, IBITS, INEG);                                                  \
    clear_out();                                                                      \
    check(aot_requantize_##I##_##O(&p, (const TI *)in1.F, (TO *)oa.s8) ==             \
              ref_requantize_##I##_##O(&p, (const TI *)in1.F, (TO *)ob.s8),           \
          "requantize_" #I "_" #O " status", c);                                      \
    check(SAME(), "requantize_" #I "_" #O, c);                                        \
  }
RQ_CASE(s8, s8, int8_t, int8_t, 8, 1, -128, 127, s8)
RQ_CASE(s8, u8, int8_t, uint8_t, 8, 1, 0, 255, s8)
RQ_CASE(s8, s16, int8_t, int16_t, 8, 1, -32768, 32767, s8)
RQ_CASE(s8, s32, int8_t, int32_t, 8, 1, INT32_MIN, INT32_MAX, s8)
RQ_CASE(u8, s8, uint8_t, int8_t, 8, 0, -128, 127, u8)
RQ_CASE(s16, s8, int16_t, int8_t, 16, 1, -128, 127, s16)
RQ_CASE(s16, s16, int16_t, int16_t, 16, 1, -32768, 32767, s16)
RQ_CASE(s16, s32, int16_t, int32_t, 16, 1, INT32_MIN, INT32_MAX, s16)
RQ_CASE(s32, s8, int32_t, int8_t, 32, 1, -128, 127, s32)
RQ_CASE(s32, s16, int32_t, int16_t, 32, 1, -32768, 32767, s32)

/* int16 ADD / SUB over a broadcast with contiguous rows: output [A, B, N];
 * the other input [N], [B, N] or [A, 1, N], as in1 or in2 (TFLite's int16
 * parameters: left shift 15, zero input offsets, the larger input scale's
 * multiplier exactly 0.5) */
static int bcast_fast;
static void addsub_bcast_case(int c) {
  aot_addsub_q_params p;
  const int32_t a = rr(1, 4), b = rr(1, 6), n = rr(1, 40), kind = rr(0, 2);
  const int full = (int)(rnd() & 1), sub = (int)(rnd() & 1);
  const double s1 = ratio(-14, -4), s2 = s1 * ratio(-8, 3), so = (s1 > s2 ? s1 : s2) * ratio(-3, 2);
  const double tm = 2.0 * (s1 > s2 ? s1 : s2);
  int32_t *sf, *sb, zo;
  memset(&p, 0, sizeof p);
  p.bc.ndims = 3;
  p.bc.shape[0] = a;
  p.bc.shape[1] = b;
  p.bc.shape[2] = n;
  p.bc.size = a * b * n;
  sf = p.bc.stride[full];
  sb = p.bc.stride[!full];
  sf[0] = b * n;
  sf[1] = n;
  sf[2] = 1;
  sb[0] = kind == 2 ? n : kind == 1 ? 0 : 0;
  sb[1] = kind == 1 ? n : 0;
  sb[2] = 1;
  p.left_shift = 15;
  qm(s1 / tm, &p.in1_mult, &p.in1_shift);
  qm(s2 / tm, &p.in2_mult, &p.in2_shift);
  qm(tm / (32768.0 * so), &p.out_mult, &p.out_shift);
  zo = rr(0, 3) ? 0 : rr(-300, 300);
  p.out_offset = zo;
  p.act_min = -32768;
  p.act_max = 32767;
  if (rr(0, 3) == 0) p.act_min = zo;
  if (rr(0, 3) == 0) {
    p.act_min = rr(-32768, zo);
    p.act_max = rr(zo, 32767);
  }
  fill(&in1, MAXN, 16, 1);
  fill(&in2, MAXN, 16, 1);
  clear_out();
#if defined(AOT_EWS) && !defined(AOT_EWS_MVE)
  {
    aot_ews_s16k k;
    bcast_fast += aot_ews_s16_setup(&p, sub, &k);
  }
#endif
  if (sub) {
    check(aot_sub_s16(&p, in1.s16, in2.s16, oa.s16) == ref_sub_s16(&p, in1.s16, in2.s16, ob.s16),
          "sub_s16 bcast status", c);
    check(SAME(), "sub_s16 bcast", c);
  } else {
    check(aot_add_s16(&p, in1.s16, in2.s16, oa.s16) == ref_add_s16(&p, in1.s16, in2.s16, ob.s16),
          "add_s16 bcast status", c);
    check(SAME(), "add_s16 bcast", c);
  }
}

/* int8 MAX_POOL_2D */
static int maxpool_cases;
static int8_t mp_in[4096], mp_oa[2048 + GUARD], mp_ob[2048 + GUARD];
static void maxpool_case(int c) {
  aot_pool_params p;
  int32_t k;
  memset(&p, 0, sizeof p);
  p.batches = rr(1, 2);
  p.in_h = rr(1, 8);
  p.in_w = rr(1, 10);
  p.channels = rr(0, 3) == 0 ? rr(1, 40) : 4 * rr(1, 8) + (rr(0, 1) ? 0 : rr(1, 3));
  if (p.batches * p.in_h * p.in_w * p.channels > 4096) return;
  p.filter_h = rr(1, 4);
  p.filter_w = rr(1, 4);
  p.stride_h = rr(1, 3);
  p.stride_w = rr(1, 3);
  p.pad_h = rr(0, 2);
  p.pad_w = rr(0, 2);
  p.out_h = (p.in_h + 2 * p.pad_h - p.filter_h) / p.stride_h + 1 + rr(0, 1);
  p.out_w = (p.in_w + 2 * p.pad_w - p.filter_w) / p.stride_w + 1 + rr(0, 1);
  if (p.out_h < 1) p.out_h = 1;
  if (p.out_w < 1) p.out_w = 1;
  if (p.batches * p.out_h * p.out_w * p.channels > 2048) return;
  k = rr(0, 9);
  p.act_min = k < 5 ? -128 : k < 8 ? rr(-128, 20) : rr(-200, -100);
  p.act_max = k < 5 ? 127 : k < 8 ? rr(p.act_min, 127) : rr(100, 200);
  fill(mp_in, p.batches * p.in_h * p.in_w * p.channels, 8, 1);
  memset(mp_oa, 0x5A, sizeof mp_oa);
  memset(mp_ob, 0x5A, sizeof mp_ob);
  check(aot_maxpool_s8(&p, mp_in, mp_oa) == ref_maxpool_s8(&p, mp_in, mp_ob), "maxpool_s8 status",
        c);
  check(memcmp(mp_oa, mp_ob, sizeof mp_oa) == 0, "maxpool_s8", c);
  maxpool_cases++;
}

int main(void) {
  int c;
  const int nc = 0;
#if defined(AOT_EWS_MVE)
  printf("EW16 kernels (Helium)\n");
#elif defined(AOT_EWS_DSP)
  printf("EW16 kernels (Arm DSP)\n");
#else
  printf("EW16 kernels (fast scalar)\n");
#endif
  for (c = 0; c < 600; c++) {
    leaky_case(c, 0);
    leaky_case(c, 1);
  }
  printf("leaky_relu: 1200 cases, %d through the fast path\n", leaky_fast);
#ifdef AOT_EWS
  check(leaky_fast >= 600, "leaky_relu cases through the fast path", leaky_fast);
#endif
  for (c = 0; c < 150; c++) {
    rq_s8_s8(c);
    rq_s8_u8(c);
    rq_s8_s16(c);
    rq_s8_s32(c);
    rq_u8_s8(c);
    rq_s16_s8(c);
    rq_s16_s16(c);
    rq_s16_s32(c);
    rq_s32_s8(c);
    rq_s32_s16(c);
  }
  printf("requantize: 1500 cases (10 type pairs)\n");
  for (c = 0; c < 600; c++) addsub_bcast_case(c);
  printf("add/sub int16 broadcast: 600 cases, %d through the row path\n", bcast_fast);
#if defined(AOT_EWS) && !defined(AOT_EWS_MVE)
  check(bcast_fast >= 300, "add/sub int16 broadcast cases through the row path", bcast_fast);
#endif
  for (c = 0; c < 800; c++) maxpool_case(c);
  printf("maxpool_s8: %d cases\n", maxpool_cases);
  check(maxpool_cases >= 400, "maxpool_s8 cases run", maxpool_cases);
  (void)nc;
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
