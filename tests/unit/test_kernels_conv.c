/* test_kernels_conv.c - convolution-family kernels (conv, depthwise,
 * transpose conv, fully connected, pooling) against hand-computed cases and
 * an independent straightforward reference written in the shape of the
 * TFLite reference kernels (per-tap bounds checks, scatter for transpose
 * conv), with the reference requantization written out from its definition
 * (gemmlowp SaturatingRoundingDoublingHighMul + RoundingDivideByPOT; the
 * int64 variant with the 16-bit reduced multiplier). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "aot_conv.h"

/* ---------------- deterministic random numbers ---------------- */
static uint32_t rng_state = 12345u;
static uint32_t rnd(void) {
  rng_state = rng_state * 1664525u + 1013904223u;
  return rng_state >> 8;
}
static int32_t rnd_range(int32_t lo, int32_t hi) {   /* inclusive */
  return lo + (int32_t)(rnd() % (uint32_t)(hi - lo + 1));
}
static float rnd_f(void) { return (float)rnd_range(-1000, 1000) / 250.0f; }

/* ---------------- independent reference requantization ---------------- */
static int32_t ref_srdhm(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  int64_t ab = (int64_t)a * b;
  int64_t nudge = ab >= 0 ? (1LL << 30) : (1 - (1LL << 30));
  return (int32_t)((ab + nudge) / (1LL << 31));   /* C division truncates */
}
/* x / 2^e rounded to nearest, ties away from zero */
static int32_t ref_rdbpot(int32_t x, int e) {
  if (e == 0) return x;
  double d = (double)x / (double)(1LL << e);
  return (int32_t)(d >= 0 ? floor(d + 0.5) : -floor(-d + 0.5));
}
static int32_t ref_mbqm(int32_t x, int32_t m, int shift) {
  int64_t xl = (int64_t)x * (1LL << (shift > 0 ? shift : 0));
  return ref_rdbpot(ref_srdhm((int32_t)xl, m), shift > 0 ? 0 : -shift);
}
static int32_t ref_mbqm64(int64_t x, int32_t m, int shift) {
  int64_t reduced = m < 0x7FFF0000 ? (m + (1 << 15)) / (1 << 16) : 0x7FFF;
  int total = 15 - shift;
  int64_t v = x * reduced + (1LL << (total - 1));
  /* floor division by 2^total */
  int64_t q = v / (1LL << total);
  if (v % (1LL << total) != 0 && v < 0) q -= 1;
  return (int32_t)q;
}
static int32_t clampi(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : v > hi ? hi : v; }
static float clampf(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }

/* random multiplier in [2^30, 2^31) and shift in [lo, hi] */
static void rnd_mults(int n, int32_t *m, int32_t *s, int slo, int shi) {
  for (int i = 0; i < n; i++) {
    m[i] = (int32_t)((1u << 30) + (rnd() % (1u << 23)) * 128u);
    s[i] = rnd_range(slo, shi);
  }
}

/* ======================= requantization sanity ======================= */
static void test_mbqm_helpers(void **state) {
  (void)state;
  /* 0.5 multiplier: 40 -> 20, 3 -> 2 (1.5 rounds up), -3 -> -1 (gemmlowp nudge) */
  assert_int_equal(aot_mbqm(40, 1 << 30, 0), 20);
  assert_int_equal(aot_mbqm(3, 1 << 30, 0), 2);
  assert_int_equal(aot_mbqm(-3, 1 << 30, 0), -1);
  /* 0.25: 50 -> 12.5 -> 13 (srdhm 25, then 25/2 rounds away from zero) */
  assert_int_equal(aot_mbqm(50, 1 << 30, -1), 13);
  /* int64 variant: 0.5 * 2^(shift) with reduced multiplier 2^14 */
  assert_int_equal(aot_mbqm64(1000, 1 << 30, 0), 500);
  assert_int_equal(aot_mbqm64(-1001, 1 << 30, 0), -500);  /* -500.5 + 0.5 floors to -500 */
  assert_int_equal(aot_mbqm64(1001, 1 << 30, 0), 501);
  for (int i = 0; i < 2000; i++) {
    int32_t m, s;
    rnd_mults(1, &m, &s, -12, 2);
    int32_t x = rnd_range(-2000000, 2000000);
    assert_int_equal(aot_mbqm(x, m, s), ref_mbqm(x, m, s));
    int64_t y = (int64_t)x * rnd_range(1, 4000);
    assert_int_equal(aot_mbqm64(y, m, s), ref_mbqm64(y, m, s));
  }
}

static void test_conv_mbqm_matches(void **state) {
  (void)state;
  /* aot_conv_mbqm must equal aot_mbqm for non-negative multipliers */
  const int32_t xs[] = {0, 1, -1, 2, -2, 3, -3, INT32_MAX, INT32_MIN, INT32_MIN + 1, 1 << 30,
                        -(1 << 30), 12345678, -12345678, 65535, -65536};
  const int32_t ms[] = {0, 1, 1 << 30, (1 << 30) + 1, INT32_MAX, 1518500250, 2147483000};
  for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
    for (size_t j = 0; j < sizeof ms / sizeof ms[0]; j++)
      for (int s = -31; s <= 8; s++)
        assert_int_equal(aot_conv_mbqm(xs[i], ms[j], s), aot_mbqm(xs[i], ms[j], s));
  for (int i = 0; i < 200000; i++) {
    int32_t x = (int32_t)(rnd() ^ (rnd() << 8));
    if (i & 1) x = rnd_range(-70000, 70000);
    int32_t m = (int32_t)((rnd() << 7) ^ rnd()) & INT32_MAX;
    int s = rnd_range(-31, 6);
    assert_int_equal(aot_conv_mbqm(x, m, s), aot_mbqm(x, m, s));
  }
}

/* ======================= conv2d ======================= */
static void test_conv2d_s8_hand(void **state) {
  (void)state;
  /* 1x3x3x1 input, zero point -1 (offset +1): x + 1 = 1..9; filter 2x2
   * {1,2;3,4}; VALID, stride 1: sums 37 47 67 77, + bias 3 -> 40 50 70 80.
   * x0.5 -> 20 25 35 40, + zp -5 -> 15 20 30 35.
   * x0.25 -> 10, 12.5->13, 17.5->18, 20, + zp -5 -> 5 8 13 15. */
  const int8_t in[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  const int8_t f[4] = {1, 2, 3, 4};
  const int32_t bias[1] = {3};
  int32_t mult[1] = {1 << 30}, shift[1] = {0};
  aot_conv_params p = {0};
  p.batches = 1; p.in_h = 3; p.in_w = 3; p.in_c = 1;
  p.out_h = 2; p.out_w = 2; p.out_c = 1;
  p.filter_h = 2; p.filter_w = 2; p.filter_in_c = 1;
  p.stride_h = p.stride_w = 1; p.dilation_h = p.dilation_w = 1;
  p.input_offset = 1; p.output_offset = -5;
  p.act_min = -128; p.act_max = 127;
  p.out_mult = mult; p.out_shift = shift;
  int8_t out[4];
  assert_int_equal(aot_conv2d_s8(&p, in, f, bias, out, NULL), AOT_KERNEL_OK);
  const int8_t e1[4] = {15, 20, 30, 35};
  assert_memory_equal(out, e1, 4);
  shift[0] = -1;
  assert_int_equal(aot_conv2d_s8(&p, in, f, bias, out, NULL), AOT_KERNEL_OK);
  const int8_t e2[4] = {5, 8, 13, 15};
  assert_memory_equal(out, e2, 4);
  /* activation clamp (e.g. RELU with zp -5 -> [-5, 127]) and no bias */
  p.act_min = 9; p.act_max = 14;
  assert_int_equal(aot_conv2d_s8(&p, in, f, NULL, out, NULL), AOT_KERNEL_OK);
  /* no bias, x0.25 with the reference's double rounding: 37 -> 18.5 -> 19
   * -> 9.5 -> 10; 47 -> 24 -> 12; 67 -> 34 -> 17; 77 -> 39 -> 20; then -5 and
   * the clamp: 5->9, 7->9, 12, 15->14. */
  const int8_t e3[4] = {9, 9, 12, 14};
  assert_memory_equal(out, e3, 4);
}

static void test_conv2d_same_padding_hand(void **state) {
  (void)state;
  /* float 3x3 input 1..9, 3x3 all-ones filter, SAME (pad 1), stride 2:
   * output 2x2 sums of clipped windows: (0,0): 1+2+4+5=12, (0,1): 2+3+5+6=16,
   * (1,0): 4+5+7+8=24, (1,1): 5+6+8+9=28; bias 0.5 then RELU6. */
  const float in[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  float f[9];
  for (int i = 0; i < 9; i++) f[i] = 1.0f;
  const float bias[1] = {0.5f};
  aot_conv_params p = {0};
  p.batches = 1; p.in_h = 3; p.in_w = 3; p.in_c = 1;
  p.out_h = 2; p.out_w = 2; p.out_c = 1;
  p.filter_h = 3; p.filter_w = 3; p.filter_in_c = 1;
  p.stride_h = p.stride_w = 2; p.dilation_h = p.dilation_w = 1;
  p.pad_h = p.pad_w = 1;
  p.act_min_f = -INFINITY; p.act_max_f = INFINITY;
  float out[4];
  assert_int_equal(aot_conv2d_f32(&p, in, f, bias, out), AOT_KERNEL_OK);
  assert_true(out[0] == 12.5f && out[1] == 16.5f && out[2] == 24.5f && out[3] == 28.5f);
  p.act_min_f = 0.0f; p.act_max_f = 20.0f;
  assert_int_equal(aot_conv2d_f32(&p, in, f, bias, out), AOT_KERNEL_OK);
  assert_true(out[0] == 12.5f && out[1] == 16.5f && out[2] == 20.0f && out[3] == 20.0f);
}

/* Naive reference in the TFLite shape: loops over every tap with an
 * inside-the-image test. kind: 0 float, 1 int8, 2 int16. */
typedef struct cfg {
  int n, ih, iw, ic, oc, fh, fw, sh, sw, dh, dw, ph, pw, groups, dm;
} cfg;

static int out_dim(int in, int f, int s, int d, int pad) {
  int eff = (f - 1) * d + 1;
  return (in + 2 * pad - eff) / s + 1;
}

static void fill_params(const cfg *c, aot_conv_params *p, int depthwise) {
  memset(p, 0, sizeof *p);
  p->batches = c->n; p->in_h = c->ih; p->in_w = c->iw; p->in_c = c->ic;
  p->out_h = out_dim(c->ih, c->fh, c->sh, c->dh, c->ph);
  p->out_w = out_dim(c->iw, c->fw, c->sw, c->dw, c->pw);
  p->out_c = depthwise ? c->ic * c->dm : c->oc;
  p->filter_h = c->fh; p->filter_w = c->fw;
  p->filter_in_c = depthwise ? 1 : c->ic / c->groups;
  p->stride_h = c->sh; p->stride_w = c->sw;
  p->dilation_h = c->dh; p->dilation_w = c->dw;
  p->pad_h = c->ph; p->pad_w = c->pw;
  p->depth_multiplier = c->dm;
}

/* returns the raw accumulator of output (b, oy, ox, oc) in double-free ints */
static int64_t ref_conv_acc(const aot_conv_params *p, int kind, const void *in, const int8_t *f,
                            int b, int oy, int ox, int oc, double *facc, const float *ff) {
  int fic = p->filter_in_c, groups = p->in_c / fic, per = p->out_c / groups;
  int g = oc / per;
  int64_t acc = 0;
  double fa = 0;
  float fsum = 0.0f;
  for (int fy = 0; fy < p->filter_h; fy++) {
    int iy = oy * p->stride_h - p->pad_h + fy * p->dilation_h;
    for (int fx = 0; fx < p->filter_w; fx++) {
      int ix = ox * p->stride_w - p->pad_w + fx * p->dilation_w;
      if (iy < 0 || iy >= p->in_h || ix < 0 || ix >= p->in_w) continue;
      for (int c = 0; c < fic; c++) {
        size_t ii = (((size_t)b * p->in_h + iy) * p->in_w + ix) * p->in_c + g * fic + c;
        size_t fi = (((size_t)oc * p->filter_h + fy) * p->filter_w + fx) * fic + c;
        if (kind == 0) {
          fsum += ((const float *)in)[ii] * ff[fi];
        } else if (kind == 1) {
          acc += (int64_t)f[fi] * (((const int8_t *)in)[ii] + p->input_offset);
        } else {
          acc += (int64_t)f[fi] * ((const int16_t *)in)[ii];
        }
      }
    }
  }
  (void)fa;
  if (facc) *facc = fsum;
  return acc;
}

static void run_conv_case(const cfg *c, int kind) {
  aot_conv_params p;
  fill_params(c, &p, 0);
  size_t nin = (size_t)c->n * c->ih * c->iw * c->ic;
  size_t nf = (size_t)p.out_c * c->fh * c->fw * p.filter_in_c;
  size_t nout = (size_t)c->n * p.out_h * p.out_w * p.out_c;
  int32_t *mult = calloc((size_t)p.out_c, 4), *shift = calloc((size_t)p.out_c, 4);
  int8_t *f8 = malloc(nf);
  float *ff = malloc(nf * sizeof(float));
  void *in = malloc(nin * 4), *out = malloc(nout * 4);
  int32_t *b32 = malloc((size_t)p.out_c * 4);
  int64_t *b64 = malloc((size_t)p.out_c * 8);
  float *bf = malloc((size_t)p.out_c * sizeof(float));
  for (size_t i = 0; i < nf; i++) { f8[i] = (int8_t)rnd_range(-127, 127); ff[i] = rnd_f(); }
  for (int i = 0; i < p.out_c; i++) {
    b32[i] = rnd_range(-5000, 5000);
    b64[i] = (int64_t)rnd_range(-3000000, 3000000) * 3;
    bf[i] = rnd_f();
  }
  rnd_mults(p.out_c, mult, shift, kind == 2 ? -17 : -13, kind == 2 ? -8 : -5);
  p.out_mult = mult; p.out_shift = shift;
  if (kind == 1) {
    p.input_offset = rnd_range(-127, 128);
    p.output_offset = rnd_range(-20, 20);
    p.act_min = -100; p.act_max = 120;
    for (size_t i = 0; i < nin; i++) ((int8_t *)in)[i] = (int8_t)rnd_range(-128, 127);
    assert_int_equal(aot_conv2d_s8(&p, in, f8, b32, out, NULL), AOT_KERNEL_OK);
  } else if (kind == 2) {
    p.act_min = -30000; p.act_max = 32767;
    for (size_t i = 0; i < nin; i++) ((int16_t *)in)[i] = (int16_t)rnd_range(-32768, 32767);
    assert_int_equal(aot_conv2d_s16(&p, in, f8, b64, out, NULL), AOT_KERNEL_OK);
  } else {
    p.act_min_f = -6.0f; p.act_max_f = 50.0f;
    for (size_t i = 0; i < nin; i++) ((float *)in)[i] = rnd_f();
    assert_int_equal(aot_conv2d_f32(&p, in, ff, bf, out), AOT_KERNEL_OK);
  }
  size_t k = 0;
  for (int b = 0; b < c->n; b++)
    for (int oy = 0; oy < p.out_h; oy++)
      for (int ox = 0; ox < p.out_w; ox++)
        for (int oc = 0; oc < p.out_c; oc++, k++) {
          double fa;
          int64_t acc = ref_conv_acc(&p, kind, in, f8, b, oy, ox, oc, &fa, ff);
          if (kind == 1) {
            int32_t v = ref_mbqm((int32_t)(acc + b32[oc]), mult[oc], shift[oc]) + p.output_offset;
            assert_int_equal(((int8_t *)out)[k], clampi(v, p.act_min, p.act_max));
          } else if (kind == 2) {
            int32_t v = ref_mbqm64(acc + b64[oc], mult[oc], shift[oc]);
            assert_int_equal(((int16_t *)out)[k], clampi(v, p.act_min, p.act_max));
          } else {
            float v = clampf((float)fa + bf[oc], p.act_min_f, p.act_max_f);
            assert_true(((float *)out)[k] == v);
          }
        }
  free(mult); free(shift); free(f8); free(ff); free(in); free(out); free(b32); free(b64); free(bf);
}

static const cfg conv_cfgs[] = {
    /* n ih iw ic oc fh fw sh sw dh dw ph pw groups dm */
    {1, 5, 5, 3, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},    /* SAME 3x3 */
    {2, 7, 6, 2, 3, 3, 2, 2, 2, 1, 1, 1, 0, 1, 1},    /* stride 2, batch 2 */
    {1, 8, 8, 4, 5, 3, 3, 1, 1, 2, 2, 2, 2, 1, 1},    /* dilation 2, SAME */
    {1, 6, 7, 4, 6, 3, 3, 1, 2, 1, 3, 0, 0, 2, 1},    /* groups 2, dilation w 3 */
    {1, 4, 4, 8, 8, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1},    /* pointwise */
    {1, 10, 3, 1, 2, 10, 4, 2, 1, 1, 1, 4, 1, 1, 1},  /* KWS-like first layer */
    {1, 2, 2, 3, 2, 5, 5, 1, 1, 1, 1, 2, 2, 1, 1},    /* filter larger than input */
    {1, 2, 2, 3, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},    /* empty windows (bias only) */
    {1, 3, 4, 6, 10, 2, 2, 1, 1, 1, 1, 1, 0, 2, 1},   /* groups 2, remainder channels */
};

static void test_conv2d_vs_reference(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof conv_cfgs / sizeof conv_cfgs[0]; i++)
    for (int kind = 0; kind < 3; kind++) run_conv_case(&conv_cfgs[i], kind);
}

/* ======================= depthwise ======================= */
static void test_dwconv_s8_hand(void **state) {
  (void)state;
  /* 1x2x2x2 input (zp 0), depth multiplier 2 -> 4 channels, 2x2 filter VALID.
   * ch0 x: 1 2 3 4, ch1 x: -1 -2 -3 -4 (interleaved NHWC).
   * filter [1,2,2,4] taps t=(0,0),(0,1),(1,0),(1,1):
   *   oc0 (ic0): 1 1 1 1 -> 10; oc1 (ic0): 1 0 0 -1 -> -3;
   *   oc2 (ic1): 2 0 0 0 -> -2; oc3 (ic1): 0 0 0 1 -> -4.
   * multiplier 1.0 (2^30, shift 1), bias {0,1,2,3}: 10 -2 0 -1. */
  const int8_t in[8] = {1, -1, 2, -2, 3, -3, 4, -4};
  const int8_t f[16] = {1, 1, 2, 0, /* t0 */ 1, 0, 0, 0, /* t1 */ 1, 0, 0, 0, /* t2 */ 1, -1, 0, 1};
  const int32_t bias[4] = {0, 1, 2, 3};
  const int32_t mult[4] = {1 << 30, 1 << 30, 1 << 30, 1 << 30}, shift[4] = {1, 1, 1, 1};
  aot_conv_params p = {0};
  p.batches = 1; p.in_h = 2; p.in_w = 2; p.in_c = 2;
  p.out_h = 1; p.out_w = 1; p.out_c = 4;
  p.filter_h = 2; p.filter_w = 2; p.filter_in_c = 1; p.depth_multiplier = 2;
  p.stride_h = p.stride_w = 1; p.dilation_h = p.dilation_w = 1;
  p.act_min = -128; p.act_max = 127;
  p.out_mult = mult; p.out_shift = shift;
  int8_t out[4];
  assert_int_equal(aot_dwconv2d_s8(&p, in, f, bias, out, NULL), AOT_KERNEL_OK);
  const int8_t e[4] = {10, -2, 0, -1};
  assert_memory_equal(out, e, 4);
  p.depth_multiplier = 3;  /* inconsistent with out_c */
  assert_int_equal(aot_dwconv2d_s8(&p, in, f, bias, out, NULL), AOT_KERNEL_BAD_PARAM);
}

static void run_dw_case(const cfg *c, int kind) {
  aot_conv_params p;
  fill_params(c, &p, 1);
  size_t nin = (size_t)c->n * c->ih * c->iw * c->ic;
  size_t nf = (size_t)c->fh * c->fw * p.out_c;
  size_t nout = (size_t)c->n * p.out_h * p.out_w * p.out_c;
  int32_t *mult = calloc((size_t)p.out_c, 4), *shift = calloc((size_t)p.out_c, 4);
  int8_t *f8 = malloc(nf);
  float *ff = malloc(nf * sizeof(float));
  void *in = malloc(nin * 4), *out = malloc(nout * 4);
  int32_t *b32 = malloc((size_t)p.out_c * 4);
  int64_t *b64 = malloc((size_t)p.out_c * 8);
  float *bf = malloc((size_t)p.out_c * sizeof(float));
  for (size_t i = 0; i < nf; i++) { f8[i] = (int8_t)rnd_range(-127, 127); ff[i] = rnd_f(); }
  for (int i = 0; i < p.out_c; i++) {
    b32[i] = rnd_range(-5000, 5000);
    b64[i] = (int64_t)rnd_range(-3000000, 3000000);
    bf[i] = rnd_f();
  }
  rnd_mults(p.out_c, mult, shift, kind == 2 ? -12 : -8, 1);
  p.out_mult = mult; p.out_shift = shift;
  int use_bias = (c->ih + c->dm) % 2 == 0;
  if (kind == 1) {
    p.input_offset = rnd_range(-127, 128);
    p.output_offset = rnd_range(-20, 20);
    p.act_min = -128; p.act_max = 127;
    for (size_t i = 0; i < nin; i++) ((int8_t *)in)[i] = (int8_t)rnd_range(-128, 127);
    assert_int_equal(aot_dwconv2d_s8(&p, in, f8, use_bias ? b32 : NULL, out, NULL), AOT_KERNEL_OK);
  } else if (kind == 2) {
    p.act_min = -32768; p.act_max = 32767;
    for (size_t i = 0; i < nin; i++) ((int16_t *)in)[i] = (int16_t)rnd_range(-32768, 32767);
    assert_int_equal(aot_dwconv2d_s16(&p, in, f8, use_bias ? b64 : NULL, out), AOT_KERNEL_OK);
  } else {
    p.act_min_f = -INFINITY; p.act_max_f = INFINITY;
    for (size_t i = 0; i < nin; i++) ((float *)in)[i] = rnd_f();
    assert_int_equal(aot_dwconv2d_f32(&p, in, ff, use_bias ? bf : NULL, out), AOT_KERNEL_OK);
  }
  size_t k = 0;
  for (int b = 0; b < c->n; b++)
    for (int oy = 0; oy < p.out_h; oy++)
      for (int ox = 0; ox < p.out_w; ox++)
        for (int oc = 0; oc < p.out_c; oc++, k++) {
          int ic = oc / c->dm;
          int64_t acc = 0;
          float fa = 0.0f;
          for (int fy = 0; fy < c->fh; fy++)
            for (int fx = 0; fx < c->fw; fx++) {
              int iy = oy * c->sh - c->ph + fy * c->dh, ix = ox * c->sw - c->pw + fx * c->dw;
              if (iy < 0 || iy >= c->ih || ix < 0 || ix >= c->iw) continue;
              size_t ii = (((size_t)b * c->ih + iy) * c->iw + ix) * c->ic + ic;
              size_t fi = ((size_t)fy * c->fw + fx) * p.out_c + oc;
              if (kind == 1) acc += f8[fi] * (((int8_t *)in)[ii] + p.input_offset);
              else if (kind == 2) acc += f8[fi] * ((int16_t *)in)[ii];
              else fa += ((float *)in)[ii] * ff[fi];
            }
          if (kind == 1) {
            int32_t v = ref_mbqm((int32_t)acc + (use_bias ? b32[oc] : 0), mult[oc], shift[oc]);
            assert_int_equal(((int8_t *)out)[k], clampi(v + p.output_offset, -128, 127));
          } else if (kind == 2) {
            int32_t v = ref_mbqm64(acc + (use_bias ? b64[oc] : 0), mult[oc], shift[oc]);
            assert_int_equal(((int16_t *)out)[k], clampi(v, -32768, 32767));
          } else {
            float v = fa + (use_bias ? bf[oc] : 0.0f);
            if (((float *)out)[k] != v)
              print_error("dw f32 cfg ih=%d ic=%d dm=%d b=%d oy=%d ox=%d oc=%d: %g vs %g\n", c->ih,
                          c->ic, c->dm, b, oy, ox, oc, (double)((float *)out)[k], (double)v);
            assert_true(((float *)out)[k] == v);
          }
        }
  free(mult); free(shift); free(f8); free(ff); free(in); free(out); free(b32); free(b64); free(bf);
}

static const cfg dw_cfgs[] = {
    /* n ih iw ic oc fh fw sh sw dh dw ph pw groups dm */
    {1, 6, 6, 4, 0, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},   /* SAME 3x3 (MobileNet) */
    {1, 7, 8, 3, 0, 3, 3, 2, 2, 1, 1, 0, 1, 1, 2},   /* stride 2, multiplier 2 */
    {2, 9, 5, 2, 0, 3, 2, 1, 1, 3, 2, 3, 1, 1, 3},   /* dilation, multiplier 3 */
    {1, 25, 5, 8, 0, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},  /* KWS-like */
    {1, 3, 3, 6, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},   /* empty windows, 6 channels */
    {1, 5, 6, 7, 0, 3, 3, 2, 1, 1, 1, 1, 1, 1, 1},   /* 7 channels (remainder) */
};

static void test_dwconv_vs_reference(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof dw_cfgs / sizeof dw_cfgs[0]; i++)
    for (int kind = 0; kind < 3; kind++) run_dw_case(&dw_cfgs[i], kind);
}

/* ======================= transpose conv ======================= */
static void test_tconv_hand(void **state) {
  (void)state;
  /* float 1x2x2x1 input {1,2,3,4}, 2x2 filter {1,10,100,1000}, stride 2, VALID
   * (pad 0): each input expands into a 2x2 block of the 4x4 output. */
  const float in[4] = {1, 2, 3, 4};
  const float f[4] = {1, 10, 100, 1000};
  aot_conv_params p = {0};
  p.batches = 1; p.in_h = 2; p.in_w = 2; p.in_c = 1;
  p.out_h = 4; p.out_w = 4; p.out_c = 1;
  p.filter_h = 2; p.filter_w = 2; p.filter_in_c = 1;
  p.stride_h = p.stride_w = 2; p.dilation_h = p.dilation_w = 1;
  p.act_min_f = -INFINITY; p.act_max_f = INFINITY;
  float out[16];
  assert_int_equal(aot_tconv2d_f32(&p, in, f, NULL, out), AOT_KERNEL_OK);
  const float e[16] = {1, 10, 2, 20, 100, 1000, 200, 2000,
                       3, 30, 4, 40, 300, 3000, 400, 4000};
  for (int i = 0; i < 16; i++) assert_true(out[i] == e[i]);
  /* stride 1 overlap, 3x3 output: centre gets all four products */
  p.out_h = p.out_w = 3; p.stride_h = p.stride_w = 1;
  assert_int_equal(aot_tconv2d_f32(&p, in, f, NULL, out), AOT_KERNEL_OK);
  /* out(1,1) = in(0,0)*f(1,1) + in(0,1)*f(1,0) + in(1,0)*f(0,1) + in(1,1)*f(0,0)
   *          = 1000 + 200 + 30 + 4 */
  assert_true(out[4] == 1234.0f);
  assert_true(out[0] == 1.0f && out[8] == 4000.0f);
}

static void run_tconv_case(const cfg *c, int kind) {
  /* c->oc output channels; output size from the transpose relation */
  aot_conv_params p = {0};
  p.batches = c->n; p.in_h = c->ih; p.in_w = c->iw; p.in_c = c->ic;
  p.out_h = (c->ih - 1) * c->sh + c->fh - 2 * c->ph;
  p.out_w = (c->iw - 1) * c->sw + c->fw - 2 * c->pw;
  p.out_c = c->oc;
  p.filter_h = c->fh; p.filter_w = c->fw; p.filter_in_c = c->ic;
  p.stride_h = c->sh; p.stride_w = c->sw; p.dilation_h = p.dilation_w = 1;
  p.pad_h = c->ph; p.pad_w = c->pw;
  size_t nin = (size_t)c->n * c->ih * c->iw * c->ic;
  size_t nf = (size_t)c->oc * c->fh * c->fw * c->ic;
  size_t nout = (size_t)c->n * p.out_h * p.out_w * p.out_c;
  int32_t *mult = calloc((size_t)p.out_c, 4), *shift = calloc((size_t)p.out_c, 4);
  int8_t *f8 = malloc(nf);
  float *ff = malloc(nf * sizeof(float));
  void *in = malloc(nin * 4), *out = malloc(nout * 4);
  int64_t *scratch = calloc(nout, 8);
  float *fscratch = calloc(nout, sizeof(float));
  int32_t *b32 = malloc((size_t)p.out_c * 4);
  int64_t *b64 = malloc((size_t)p.out_c * 8);
  float *bf = malloc((size_t)p.out_c * sizeof(float));
  for (size_t i = 0; i < nf; i++) { f8[i] = (int8_t)rnd_range(-127, 127); ff[i] = rnd_f(); }
  for (int i = 0; i < p.out_c; i++) {
    b32[i] = rnd_range(-5000, 5000);
    b64[i] = (int64_t)rnd_range(-3000000, 3000000);
    bf[i] = rnd_f();
  }
  rnd_mults(p.out_c, mult, shift, kind == 2 ? -12 : -8, 1);
  p.out_mult = mult; p.out_shift = shift;
  if (kind == 1) {
    p.input_offset = rnd_range(-127, 128);
    p.output_offset = rnd_range(-20, 20);
    p.act_min = -128; p.act_max = 127;
    for (size_t i = 0; i < nin; i++) ((int8_t *)in)[i] = (int8_t)rnd_range(-128, 127);
    assert_int_equal(aot_tconv2d_s8(&p, in, f8, b32, out), AOT_KERNEL_OK);
  } else if (kind == 2) {
    p.act_min = -32768; p.act_max = 32767;
    for (size_t i = 0; i < nin; i++) ((int16_t *)in)[i] = (int16_t)rnd_range(-32768, 32767);
    assert_int_equal(aot_tconv2d_s16(&p, in, f8, b64, out, NULL), AOT_KERNEL_OK);
  } else {
    p.act_min_f = -INFINITY; p.act_max_f = INFINITY;
    for (size_t i = 0; i < nin; i++) ((float *)in)[i] = rnd_f();
    assert_int_equal(aot_tconv2d_f32(&p, in, ff, bf, out), AOT_KERNEL_OK);
  }
  /* reference scatter, loop order of the TFLite reference */
  for (int b = 0; b < c->n; b++)
    for (int iy = 0; iy < c->ih; iy++)
      for (int ix = 0; ix < c->iw; ix++)
        for (int ic = 0; ic < c->ic; ic++)
          for (int fy = 0; fy < c->fh; fy++)
            for (int fx = 0; fx < c->fw; fx++)
              for (int oc = 0; oc < c->oc; oc++) {
                int oy = iy * c->sh - c->ph + fy, ox = ix * c->sw - c->pw + fx;
                if (oy < 0 || oy >= p.out_h || ox < 0 || ox >= p.out_w) continue;
                size_t ii = (((size_t)b * c->ih + iy) * c->iw + ix) * c->ic + ic;
                size_t fi = (((size_t)oc * c->fh + fy) * c->fw + fx) * c->ic + ic;
                size_t oi = (((size_t)b * p.out_h + oy) * p.out_w + ox) * c->oc + oc;
                if (kind == 1) scratch[oi] += (((int8_t *)in)[ii] + p.input_offset) * f8[fi];
                else if (kind == 2) scratch[oi] += ((int16_t *)in)[ii] * f8[fi];
                else fscratch[oi] += ((float *)in)[ii] * ff[fi];
              }
  for (size_t k = 0; k < nout; k++) {
    int oc = (int)(k % (size_t)c->oc);
    if (kind == 1) {
      int32_t v = ref_mbqm((int32_t)scratch[k] + b32[oc], mult[oc], shift[oc]) + p.output_offset;
      assert_int_equal(((int8_t *)out)[k], clampi(v, -128, 127));
    } else if (kind == 2) {
      int32_t v = ref_mbqm64(scratch[k] + b64[oc], mult[oc], shift[oc]);
      assert_int_equal(((int16_t *)out)[k], clampi(v, -32768, 32767));
    } else {
      assert_true(((float *)out)[k] == fscratch[k] + bf[oc]);
    }
  }
  free(mult); free(shift); free(f8); free(ff); free(in); free(out); free(scratch);
  free(fscratch); free(b32); free(b64); free(bf);
}

static const cfg tconv_cfgs[] = {
    /* n ih iw ic oc fh fw sh sw dh dw ph pw groups dm */
    {1, 4, 4, 3, 2, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},
    {1, 5, 1, 4, 3, 8, 1, 4, 1, 1, 1, 2, 0, 1, 1},   /* seanet-like 1-D upsampling */
    {2, 3, 4, 2, 3, 2, 3, 1, 2, 1, 1, 0, 1, 1, 1},
    {1, 3, 3, 2, 2, 5, 5, 3, 3, 1, 1, 0, 0, 1, 1},
};

static void test_tconv_vs_reference(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof tconv_cfgs / sizeof tconv_cfgs[0]; i++)
    for (int kind = 0; kind < 3; kind++) run_tconv_case(&tconv_cfgs[i], kind);
}

/* ======================= fully connected ======================= */
static void test_fc_s8_hand(void **state) {
  (void)state;
  /* 2 batches x 3 inputs, zp 1 (offset -1): x - 1 = {0,1,2} and {-3,0,3}.
   * weights {1,2,3; -1,0,1}: batch0 -> 8, 2; batch1 -> 6, 6. bias {2,-2}:
   * 10 0 8 4. multiplier 0.5: 5 0 4 2, + zp 3: 8 3 7 5. */
  const int8_t in[6] = {1, 2, 3, -2, 1, 4};
  const int8_t w[6] = {1, 2, 3, -1, 0, 1};
  const int32_t bias[2] = {2, -2};
  const int32_t mult[1] = {1 << 30}, shift[1] = {0};
  aot_fc_params p = {0};
  p.batches = 2; p.in_depth = 3; p.out_depth = 2;
  p.input_offset = -1; p.output_offset = 3;
  p.act_min = -128; p.act_max = 127;
  p.out_mult = mult; p.out_shift = shift;
  int8_t out[4];
  assert_int_equal(aot_fc_s8(&p, in, w, bias, out), AOT_KERNEL_OK);
  const int8_t e[4] = {8, 3, 7, 5};
  assert_memory_equal(out, e, 4);
  /* per-channel: channel 1 gets multiplier 1.0 (2^30, shift 1): 0 -> 0, 4 -> 4 */
  const int32_t m2[2] = {1 << 30, 1 << 30}, s2[2] = {0, 1};
  p.per_channel = 1; p.out_mult = m2; p.out_shift = s2;
  assert_int_equal(aot_fc_s8(&p, in, w, bias, out), AOT_KERNEL_OK);
  const int8_t e2[4] = {8, 3, 7, 7};
  assert_memory_equal(out, e2, 4);
}

static void test_fc_vs_reference(void **state) {
  (void)state;
  const int B = 3, I = 37, O = 11;
  int8_t in8[3 * 37], w8[11 * 37], out8[3 * 11];
  int16_t in16[3 * 37], out16[3 * 11];
  float inf_[3 * 37], wf[11 * 37], outf[3 * 11], bf[11];
  int32_t b32[11], mult[11], shift[11];
  int64_t b64[11];
  for (int i = 0; i < B * I; i++) {
    in8[i] = (int8_t)rnd_range(-128, 127);
    in16[i] = (int16_t)rnd_range(-32768, 32767);
    inf_[i] = rnd_f();
  }
  for (int i = 0; i < O * I; i++) { w8[i] = (int8_t)rnd_range(-127, 127); wf[i] = rnd_f(); }
  for (int i = 0; i < O; i++) {
    b32[i] = rnd_range(-9000, 9000);
    b64[i] = rnd_range(-9000000, 9000000);
    bf[i] = rnd_f();
  }
  for (int pc = 0; pc < 2; pc++) {
    rnd_mults(O, mult, shift, -12, 0);
    aot_fc_params p = {0};
    p.batches = B; p.in_depth = I; p.out_depth = O;
    p.input_offset = 17; p.output_offset = -9;
    p.act_min = -128; p.act_max = 100;
    p.per_channel = pc; p.out_mult = mult; p.out_shift = shift;
    assert_int_equal(aot_fc_s8(&p, in8, w8, b32, out8), AOT_KERNEL_OK);
    for (int b = 0; b < B; b++)
      for (int o = 0; o < O; o++) {
        int32_t acc = b32[o];
        for (int d = 0; d < I; d++) acc += w8[o * I + d] * (in8[b * I + d] + 17);
        int c = pc ? o : 0;
        int32_t v = clampi(ref_mbqm(acc, mult[c], shift[c]) - 9, -128, 100);
        assert_int_equal(out8[b * O + o], v);
      }
    p.input_offset = p.output_offset = 0;
    p.act_min = -32768; p.act_max = 32767;
    assert_int_equal(aot_fc_s16(&p, in16, w8, b64, out16), AOT_KERNEL_OK);
    for (int b = 0; b < B; b++)
      for (int o = 0; o < O; o++) {
        int64_t acc = b64[o];
        for (int d = 0; d < I; d++) acc += w8[o * I + d] * in16[b * I + d];
        int c = pc ? o : 0;
        assert_int_equal(out16[b * O + o], clampi(ref_mbqm64(acc, mult[c], shift[c]), -32768, 32767));
      }
  }
  aot_fc_params p = {0};
  p.batches = B; p.in_depth = I; p.out_depth = O;
  p.act_min_f = 0.0f; p.act_max_f = 6.0f;
  assert_int_equal(aot_fc_f32(&p, inf_, wf, bf, outf), AOT_KERNEL_OK);
  for (int b = 0; b < B; b++)
    for (int o = 0; o < O; o++) {
      float acc = 0.0f;
      for (int d = 0; d < I; d++) acc += inf_[b * I + d] * wf[o * I + d];
      assert_true(outf[b * O + o] == clampf(acc + bf[o], 0.0f, 6.0f));
    }
  assert_int_equal(aot_fc_f32(&p, inf_, wf, NULL, outf), AOT_KERNEL_OK);
  {
    float acc = 0.0f;
    for (int d = 0; d < I; d++) acc += inf_[d] * wf[d];
    assert_true(outf[0] == clampf(acc, 0.0f, 6.0f));
  }
}

/* ======================= pooling ======================= */
static void test_avgpool_s8_hand(void **state) {
  (void)state;
  /* 1x2x4x1, 2x2 window stride 2 VALID: windows {1,2,5,6}? no: rows
   * {1,2,3,4} and {5,6,7,-30}. Window 0: 1+2+5+6=14 -> 14/4=3.5 -> 4;
   * window 1: 3+4+7-30=-16 -> -4. Then 2x1 windows: (1+5)/2=3,
   * (2+6)/2=4, (3+7)/2=5, (4-30)/2=-13. Ties: {1,2} -> 1.5 -> 2, {-1,-2} ->
   * -1.5 -> -2 (away from zero). */
  const int8_t in[8] = {1, 2, 3, 4, 5, 6, 7, -30};
  aot_pool_params p = {0};
  p.batches = 1; p.in_h = 2; p.in_w = 4; p.channels = 1;
  p.out_h = 1; p.out_w = 2; p.filter_h = 2; p.filter_w = 2;
  p.stride_h = 2; p.stride_w = 2;
  p.act_min = -128; p.act_max = 127;
  int8_t out[4];
  assert_int_equal(aot_avgpool_s8(&p, in, out), AOT_KERNEL_OK);
  assert_int_equal(out[0], 4);
  assert_int_equal(out[1], -4);
  const int8_t t[4] = {1, 2, -1, -2};
  aot_pool_params q = {0};
  q.batches = 1; q.in_h = 1; q.in_w = 4; q.channels = 1;
  q.out_h = 1; q.out_w = 2; q.filter_h = 1; q.filter_w = 2;
  q.stride_h = 1; q.stride_w = 2;
  q.act_min = -128; q.act_max = 127;
  assert_int_equal(aot_avgpool_s8(&q, t, out), AOT_KERNEL_OK);
  assert_int_equal(out[0], 2);
  assert_int_equal(out[1], -2);
  /* -5 / 3 = -1.67 -> -2; 5 / 3 -> 2 (3 taps) */
  const int8_t u[6] = {-1, -2, -2, 1, 2, 2};
  q.in_w = 6; q.filter_w = 3; q.stride_w = 3;
  assert_int_equal(aot_avgpool_s8(&q, u, out), AOT_KERNEL_OK);
  assert_int_equal(out[0], -2);
  assert_int_equal(out[1], 2);
}

static void test_pool_same_padding(void **state) {
  (void)state;
  /* 3x3 input 1..9 (2 channels: c1 = -c0), 3x3 window stride 1 SAME pad 1:
   * corner (0,0) averages {1,2,4,5}=12/4=3; edge (0,1) {1..6}=21/6=3.5->4;
   * centre 45/9=5. Max pool corner 5, edge 6, centre 9; channel 1: max of
   * negatives -1 at (0,0). */
  int8_t in[18];
  for (int i = 0; i < 9; i++) { in[2 * i] = (int8_t)(i + 1); in[2 * i + 1] = (int8_t)-(i + 1); }
  aot_pool_params p = {0};
  p.batches = 1; p.in_h = 3; p.in_w = 3; p.channels = 2;
  p.out_h = 3; p.out_w = 3; p.filter_h = 3; p.filter_w = 3;
  p.stride_h = p.stride_w = 1; p.pad_h = p.pad_w = 1;
  p.act_min = -128; p.act_max = 127;
  int8_t out[18];
  assert_int_equal(aot_avgpool_s8(&p, in, out), AOT_KERNEL_OK);
  assert_int_equal(out[0], 3);
  assert_int_equal(out[1], -3);
  assert_int_equal(out[2], 4);
  assert_int_equal(out[3], -4);
  assert_int_equal(out[8], 5);
  assert_int_equal(out[9], -5);
  assert_int_equal(aot_maxpool_s8(&p, in, out), AOT_KERNEL_OK);
  assert_int_equal(out[0], 5);
  assert_int_equal(out[1], -1);
  assert_int_equal(out[2], 6);
  assert_int_equal(out[8], 9);
  assert_int_equal(out[16], 9);
  assert_int_equal(out[17], -5);
  /* RELU clamp at zero point 0 */
  p.act_min = 0;
  assert_int_equal(aot_maxpool_s8(&p, in, out), AOT_KERNEL_OK);
  assert_int_equal(out[1], 0);
  /* float */
  float fin[18], fout[18];
  for (int i = 0; i < 18; i++) fin[i] = (float)in[i];
  p.act_min_f = -INFINITY; p.act_max_f = INFINITY;
  assert_int_equal(aot_avgpool_f32(&p, fin, fout), AOT_KERNEL_OK);
  assert_true(fout[0] == 3.0f && fout[2] == 3.5f && fout[3] == -3.5f && fout[8] == 5.0f);
  assert_int_equal(aot_maxpool_f32(&p, fin, fout), AOT_KERNEL_OK);
  assert_true(fout[0] == 5.0f && fout[1] == -1.0f && fout[17] == -5.0f);
  /* int16 */
  int16_t in16[18], out16[18];
  for (int i = 0; i < 18; i++) in16[i] = (int16_t)(in[i] * 1000);
  p.act_min = -32768; p.act_max = 32767;
  assert_int_equal(aot_avgpool_s16(&p, in16, out16), AOT_KERNEL_OK);
  assert_int_equal(out16[0], 3000);
  assert_int_equal(out16[2], 3500);
  assert_int_equal(out16[3], -3500);
  assert_int_equal(aot_maxpool_s16(&p, in16, out16), AOT_KERNEL_OK);
  assert_int_equal(out16[1], -1000);
  assert_int_equal(out16[16], 9000);
}

static void test_pool_vs_reference(void **state) {
  (void)state;
  const int N = 2, H = 9, W = 7, C = 3, FH = 3, FW = 2, SH = 2, SW = 2, PH = 1, PW = 0;
  const int OH = (H + 2 * PH - FH) / SH + 1, OW = (W + 2 * PW - FW) / SW + 1;
  int8_t in[2 * 9 * 7 * 3], out[2 * 9 * 7 * 3];
  for (int i = 0; i < N * H * W * C; i++) in[i] = (int8_t)rnd_range(-128, 127);
  aot_pool_params p = {0};
  p.batches = N; p.in_h = H; p.in_w = W; p.channels = C;
  p.out_h = OH; p.out_w = OW; p.filter_h = FH; p.filter_w = FW;
  p.stride_h = SH; p.stride_w = SW; p.pad_h = PH; p.pad_w = PW;
  p.act_min = -100; p.act_max = 90;
  for (int mx = 0; mx < 2; mx++) {
    assert_int_equal(mx ? aot_maxpool_s8(&p, in, out) : aot_avgpool_s8(&p, in, out), AOT_KERNEL_OK);
    int k = 0;
    for (int b = 0; b < N; b++)
      for (int oy = 0; oy < OH; oy++)
        for (int ox = 0; ox < OW; ox++)
          for (int c = 0; c < C; c++, k++) {
            int sum = 0, cnt = 0, m = -128;
            for (int fy = 0; fy < FH; fy++)
              for (int fx = 0; fx < FW; fx++) {
                int iy = oy * SH - PH + fy, ix = ox * SW - PW + fx;
                if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                int v = in[((b * H + iy) * W + ix) * C + c];
                sum += v;
                cnt++;
                if (v > m) m = v;
              }
            double avg = (double)sum / cnt;
            int r = (int)(avg >= 0 ? floor(avg + 0.5) : -floor(-avg + 0.5));
            assert_int_equal(out[k], clampi(mx ? m : r, -100, 90));
          }
  }
}

/* ======================= batch matmul ======================= */
static void bmm_params(aot_bmm_params *p, int m, int k, int n) {
  memset(p, 0, sizeof *p);
  for (int d = 0; d < AOT_BMM_MAX_BATCH_DIMS; d++) p->batch_dims[d] = 1;
  p->m = m; p->k = k; p->n = n;
}

static void test_bmm_hand(void **state) {
  (void)state;
  /* [2,3] x [3,2]: {1,2,3;4,5,6} x {1,0;0,1;1,1} = {4,5;10,11} */
  const float l[6] = {1, 2, 3, 4, 5, 6}, r[6] = {1, 0, 0, 1, 1, 1};
  const float lt[6] = {1, 4, 2, 5, 3, 6}, rt[6] = {1, 0, 1, 0, 1, 1};
  const float e[4] = {4, 5, 10, 11};
  float o[4];
  aot_bmm_params p;
  bmm_params(&p, 2, 3, 2);
  assert_int_equal(aot_batch_matmul_f32(&p, l, r, o), AOT_KERNEL_OK);
  for (int i = 0; i < 4; i++) assert_true(o[i] == e[i]);
  p.adj_x = 1; p.adj_y = 1;
  assert_int_equal(aot_batch_matmul_f32(&p, lt, rt, o), AOT_KERNEL_OK);
  for (int i = 0; i < 4; i++) assert_true(o[i] == e[i]);
  /* int8, zero points lhs 1 / rhs -1 (offsets -1 / +1), multiplier 0.5,
   * output zp 2: (l-1) x (r+1) with l = {2,3,4;5,6,7}, r = {0,-1;-1,0;0,0}
   * gives {4,5;10,11} -> 2,2.5->3,5,5.5->6 -> +2 */
  const int8_t l8[6] = {2, 3, 4, 5, 6, 7}, r8[6] = {0, -1, -1, 0, 0, 0};
  int8_t o8[4];
  bmm_params(&p, 2, 3, 2);
  p.lhs_offset = -1; p.rhs_offset = 1; p.output_offset = 2;
  p.out_mult = 1 << 30; p.out_shift = 0; p.act_min = -128; p.act_max = 127;
  assert_int_equal(aot_batch_matmul_s8(&p, l8, r8, o8), AOT_KERNEL_OK);
  const int8_t e8[4] = {4, 5, 7, 8};
  assert_memory_equal(o8, e8, 4);
}

static void test_bmm_broadcast_vs_reference(void **state) {
  (void)state;
  /* lhs [2,1,3,4] x rhs [3,4,5] -> [2,3,3,5], all adj combinations */
  enum { B0 = 2, B1 = 3, M = 3, K = 4, N = 5 };
  float lf[B0 * M * K], rf[B1 * K * N], of[B0 * B1 * M * N];
  int8_t l8[B0 * M * K], r8[B1 * K * N], o8[B0 * B1 * M * N];
  int16_t l16[B0 * M * K], r16[B1 * K * N], o16[B0 * B1 * M * N];
  for (int i = 0; i < B0 * M * K; i++) {
    lf[i] = rnd_f(); l8[i] = (int8_t)rnd_range(-128, 127); l16[i] = (int16_t)rnd_range(-32768, 32767);
  }
  for (int i = 0; i < B1 * K * N; i++) {
    rf[i] = rnd_f(); r8[i] = (int8_t)rnd_range(-128, 127); r16[i] = (int16_t)rnd_range(-32768, 32767);
  }
  for (int adj = 0; adj < 4; adj++) {
    aot_bmm_params p;
    bmm_params(&p, M, K, N);
    p.adj_x = adj & 1; p.adj_y = adj >> 1;
    p.batch_dims[3] = B0; p.batch_dims[4] = B1;
    p.lhs_bstride[3] = M * K; p.lhs_bstride[4] = 0;
    p.rhs_bstride[3] = 0; p.rhs_bstride[4] = K * N;
    p.lhs_offset = 7; p.rhs_offset = -3; p.output_offset = 5;
    p.out_mult = 1300000000; p.out_shift = -8; p.act_min = -128; p.act_max = 127;
    assert_int_equal(aot_batch_matmul_f32(&p, lf, rf, of), AOT_KERNEL_OK);
    assert_int_equal(aot_batch_matmul_s8(&p, l8, r8, o8), AOT_KERNEL_OK);
    aot_bmm_params q = p;
    q.lhs_offset = q.rhs_offset = q.output_offset = 0;
    q.out_shift = -12; q.act_min = -32768; q.act_max = 32767;
    assert_int_equal(aot_batch_matmul_s16(&q, l16, r16, o16), AOT_KERNEL_OK);
    int o = 0;
    for (int b0 = 0; b0 < B0; b0++)
      for (int b1 = 0; b1 < B1; b1++)
        for (int i = 0; i < M; i++)
          for (int j = 0; j < N; j++, o++) {
            float fs = 0.0f;
            int32_t a8 = 0;
            int64_t a16 = 0;
            for (int k = 0; k < K; k++) {
              /* logical lhs[b0][i][k], rhs[b1][k][j] in their stored layouts */
              int li = b0 * M * K + (p.adj_x ? k * M + i : i * K + k);
              int ri = b1 * K * N + (p.adj_y ? j * K + k : k * N + j);
              fs += lf[li] * rf[ri];
              a8 += (l8[li] + 7) * (r8[ri] - 3);
              a16 += (int64_t)l16[li] * r16[ri];
            }
            assert_true(of[o] == fs);
            assert_int_equal(o8[o], clampi(ref_mbqm(a8, p.out_mult, p.out_shift) + 5, -128, 127));
            assert_int_equal(o16[o], clampi(ref_mbqm64(a16, q.out_mult, q.out_shift), -32768, 32767));
          }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mbqm_helpers),
      cmocka_unit_test(test_conv_mbqm_matches),
      cmocka_unit_test(test_conv2d_s8_hand),
      cmocka_unit_test(test_conv2d_same_padding_hand),
      cmocka_unit_test(test_conv2d_vs_reference),
      cmocka_unit_test(test_dwconv_s8_hand),
      cmocka_unit_test(test_dwconv_vs_reference),
      cmocka_unit_test(test_tconv_hand),
      cmocka_unit_test(test_tconv_vs_reference),
      cmocka_unit_test(test_fc_s8_hand),
      cmocka_unit_test(test_fc_vs_reference),
      cmocka_unit_test(test_avgpool_s8_hand),
      cmocka_unit_test(test_pool_same_padding),
      cmocka_unit_test(test_pool_vs_reference),
      cmocka_unit_test(test_bmm_hand),
      cmocka_unit_test(test_bmm_broadcast_vs_reference),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
