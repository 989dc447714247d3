/* test_kernels_hybrid.c - hybrid (dynamic-range: float32 activations, int8
 * weights) CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED.
 *
 * The kernels are checked against hand-computed cases and against an
 * independent, straightforward implementation of the documented arithmetic
 * written here with libm rounding (lrintf: half to even, roundf / round: half
 * away from zero):
 *  - XNNPACK qd8 input quantization (CONV_2D per image, or per pixel for a 1x1
 *    stride-1 convolution; FULLY_CONNECTED per row): m = 255 / (rmax - rmin)
 *    over [min(0, min), max(0, max)], zero point from the end with the smaller
 *    error rounded half to even, scale 1 / m, q = lrintf(x * (1 / scale)) + zp;
 *  - LiteRT AsymmetricQuantizeFloats (DEPTHWISE_CONV_2D, per image), in
 *    double, q = roundf(zp + x / scale);
 *  - acc = sum over the taps inside the image of w * (q - zp);
 *    out = ((float)acc * scale) * filter_scale[c] + bias[c], clamped.
 * Then the op_impls (check, scratch, eval) through tiny IR graphs, the
 * dequantize_hybrid_weights transform (keeps int8 weights of accepted ops),
 * and emit-vs-eval of single-op modules built with the host compiler. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "aot_conv.h"
#include "emit_harness.h"

extern const op_impl op_conv_2d, op_depthwise_conv_2d, op_transpose_conv, op_fully_connected;

static uint32_t seed = 12345;
static uint32_t rnd(void) {
  seed = seed * 1664525u + 1013904223u;
  return seed >> 8;
}
static int rr(int lo, int hi) { return lo + (int)(rnd() % (uint32_t)(hi - lo + 1)); }
static float rf(float lo, float hi) { return lo + (hi - lo) * (float)(rnd() & 0xFFFF) / 65535.0f; }

/* ======================= independent references ======================= */

static void ref_qd8(const float *v, int n, int8_t *q, float *scale, int *zp) {
  float mn = v[0], mx = v[0];
  for (int i = 1; i < n; i++) {
    mn = fminf(mn, v[i]);
    mx = fmaxf(mx, v[i]);
  }
  float rmin = fminf(0.0f, mn), rmax = fmaxf(0.0f, mx);
  float m = rmin == rmax ? 1.0f : 255.0f / (rmax - rmin);
  float from_min = -128.0f - rmin * m, from_max = 127.0f - rmax * m;
  float zf = (-128.0f + rmin * m) + (127.0f + rmax * m) > 0.0f ? from_min : from_max;
  zf = fmaxf(-128.0f, fminf(127.0f, zf));
  int z = (int)lrintf(zf);
  float s = 1.0f / m, mq = 1.0f / s;
  for (int i = 0; i < n; i++) {
    long r = lrintf(v[i] * mq) + z;
    q[i] = (int8_t)(r < -128 ? -128 : r > 127 ? 127 : r);
  }
  *scale = s;
  *zp = z;
}

static void ref_asym(const float *v, int n, int8_t *q, float *scale, int *zp) {
  float mn = v[0], mx = v[0];
  for (int i = 1; i < n; i++) {
    mn = fminf(mn, v[i]);
    mx = fmaxf(mx, v[i]);
  }
  double rmin = fmin(0.0, (double)mn), rmax = fmax(0.0, (double)mx);
  if (rmin == rmax) {
    memset(q, 0, (size_t)n);
    *scale = 1.0f;
    *zp = 0;
    return;
  }
  double s = (rmax - rmin) / 255.0;
  double zmin = -128.0 - rmin / s, zmax = 127.0 - rmax / s;
  double zd = 128.0 + fabs(rmin / s) < 127.0 + fabs(rmax / s) ? zmin : zmax;
  int z = zd <= -128.0 ? -128 : zd >= 127.0 ? 127 : (int)round(zd);
  float sf = (float)s, inv = 1.0f / sf;
  for (int i = 0; i < n; i++) {
    long r = (long)roundf((float)z + v[i] * inv);
    q[i] = (int8_t)(r < -128 ? -128 : r > 127 ? 127 : r);
  }
  *scale = sf;
  *zp = z;
}

static float ref_out(int32_t acc, float s, float fs, const float *bias, int c, float lo, float hi) {
  float o = (float)acc * s;
  o = o * fs;
  if (bias) o = o + bias[c];
  return fminf(fmaxf(o, lo), hi);
}

typedef struct geom {
  int n, h, w, c, oc, fh, fw, sh, sw, dh, dw, pad_h, pad_w, oh, ow, dm;
  float lo, hi;
} geom;

static void geom_out(geom *g, int same) {
  int efh = (g->fh - 1) * g->dh + 1, efw = (g->fw - 1) * g->dw + 1;
  g->oh = same ? (g->h + g->sh - 1) / g->sh : (g->h - efh + g->sh) / g->sh;
  g->ow = same ? (g->w + g->sw - 1) / g->sw : (g->w - efw + g->sw) / g->sw;
  int th = (g->oh - 1) * g->sh + efh - g->h, tw = (g->ow - 1) * g->sw + efw - g->w;
  g->pad_h = th > 0 ? th / 2 : 0;
  g->pad_w = tw > 0 ? tw / 2 : 0;
}

static void to_params(const geom *g, aot_conv_params *p) {
  memset(p, 0, sizeof *p);
  p->batches = g->n;
  p->in_h = g->h;
  p->in_w = g->w;
  p->in_c = g->c;
  p->out_h = g->oh;
  p->out_w = g->ow;
  p->out_c = g->oc;
  p->filter_h = g->fh;
  p->filter_w = g->fw;
  p->filter_in_c = g->dm ? 1 : g->c;
  p->stride_h = g->sh;
  p->stride_w = g->sw;
  p->dilation_h = g->dh;
  p->dilation_w = g->dw;
  p->pad_h = g->pad_h;
  p->pad_w = g->pad_w;
  p->depth_multiplier = g->dm;
  p->act_min_f = g->lo;
  p->act_max_f = g->hi;
}

/* CONV_2D [oc, fh, fw, c] filter; per-pixel quantization for 1x1 stride 1 */
static void ref_conv(const geom *g, const float *in, const int8_t *f, const float *fs, int pc,
                     const float *bias, float *out) {
  size_t img = (size_t)g->h * g->w * g->c;
  int8_t *q = malloc(img * (size_t)g->n);
  int npix = g->n * g->h * g->w;
  float *sc = malloc(sizeof(float) * (size_t)npix);
  int *zp = malloc(sizeof(int) * (size_t)npix);
  int per_pixel = g->fh == 1 && g->fw == 1 && g->sh == 1 && g->sw == 1;
  for (int b = 0; b < g->n; b++) {
    if (per_pixel) {
      for (int px = 0; px < g->h * g->w; px++) {
        int k = b * g->h * g->w + px;
        ref_qd8(in + (size_t)k * g->c, g->c, q + (size_t)k * g->c, &sc[k], &zp[k]);
      }
    } else {
      float s;
      int z;
      ref_qd8(in + b * img, (int)img, q + b * img, &s, &z);
      for (int px = 0; px < g->h * g->w; px++) {
        sc[b * g->h * g->w + px] = s;
        zp[b * g->h * g->w + px] = z;
      }
    }
  }
  for (int b = 0; b < g->n; b++)
    for (int oy = 0; oy < g->oh; oy++)
      for (int ox = 0; ox < g->ow; ox++)
        for (int c = 0; c < g->oc; c++) {
          int32_t acc = 0;
          for (int fy = 0; fy < g->fh; fy++)
            for (int fx = 0; fx < g->fw; fx++) {
              int iy = oy * g->sh - g->pad_h + fy * g->dh, ix = ox * g->sw - g->pad_w + fx * g->dw;
              if (iy < 0 || ix < 0 || iy >= g->h || ix >= g->w) continue;
              int k = (b * g->h + iy) * g->w + ix;
              for (int ic = 0; ic < g->c; ic++)
                acc += f[((c * g->fh + fy) * g->fw + fx) * g->c + ic] *
                       (q[(size_t)k * g->c + ic] - zp[k]);
            }
          /* the output pixel's quantization: per image, or its own pixel */
          int k = (b * g->h + oy) * g->w + ox;
          *out++ = ref_out(acc, sc[k], fs[pc ? c : 0], bias, c, g->lo, g->hi);
        }
  free(q);
  free(sc);
  free(zp);
}

/* DEPTHWISE_CONV_2D [1, fh, fw, oc] filter, LiteRT asymmetric per image */
static void ref_dw(const geom *g, const float *in, const int8_t *f, const float *fs, int pc,
                   const float *bias, float *out) {
  size_t img = (size_t)g->h * g->w * g->c;
  int8_t *q = malloc(img);
  for (int b = 0; b < g->n; b++) {
    float s;
    int z;
    ref_asym(in + b * img, (int)img, q, &s, &z);
    for (int oy = 0; oy < g->oh; oy++)
      for (int ox = 0; ox < g->ow; ox++)
        for (int c = 0; c < g->oc; c++) {
          int ic = c / g->dm;
          int32_t acc = 0;
          for (int fy = 0; fy < g->fh; fy++)
            for (int fx = 0; fx < g->fw; fx++) {
              int iy = oy * g->sh - g->pad_h + fy * g->dh, ix = ox * g->sw - g->pad_w + fx * g->dw;
              if (iy < 0 || ix < 0 || iy >= g->h || ix >= g->w) continue;
              acc += f[(fy * g->fw + fx) * g->oc + c] * (q[(iy * g->w + ix) * g->c + ic] - z);
            }
          *out++ = ref_out(acc, s, fs[pc ? c : 0], bias, c, g->lo, g->hi);
        }
  }
  free(q);
}

static void ref_fc(int rows, int depth, int od, const float *in, const int8_t *w, const float *fs,
                   int pc, const float *bias, float lo, float hi, float *out) {
  int8_t *q = malloc((size_t)depth);
  for (int r = 0; r < rows; r++) {
    float s;
    int z;
    ref_qd8(in + (size_t)r * depth, depth, q, &s, &z);
    for (int o = 0; o < od; o++) {
      int32_t acc = 0;
      for (int k = 0; k < depth; k++) acc += w[o * depth + k] * (q[k] - z);
      *out++ = ref_out(acc, s, fs[pc ? o : 0], bias, o, lo, hi);
    }
  }
  free(q);
}

static void expect_close(const float *got, const float *want, size_t n) {
  for (size_t i = 0; i < n; i++) {
    float tol = 1e-6f * fabsf(want[i]) + 1e-7f;
    if (!(fabsf(got[i] - want[i]) <= tol)) {
      print_error("index %zu: got %.9g want %.9g\n", i, (double)got[i], (double)want[i]);
      fail();
    }
  }
}

/* ======================= quantization ======================= */

static void test_quantize_hand(void **state) {
  (void)state;
  int8_t q[4];
  float s;
  int32_t z;
  /* range [0, 2.55f]: m = 255 / 2.55f = 100 (in float), zero point -128;
   * x * 100 = 0, 25.5 (0.255f * 100 = 25.49999952 rounds to the float 25.5),
   * 100, 255 (2.55f * 100 rounds to 255): XNNPACK rounds 25.5 to even (26) */
  const float a[4] = {0.0f, 0.255f, 1.0f, 2.55f};
  aot_hybrid_quantize_qd8(a, 4, q, &s, &z);
  assert_int_equal(z, -128);
  assert_true(s == 1.0f / 100.0f);
  const int8_t ea[4] = {-128, -102, -28, 127};
  assert_memory_equal(q, ea, 4);
  /* LiteRT: scale 2.55f / 255 (double, then float), zero point -128, 1 /
   * scale = 100; round(-128 + 25.5) = -103 (half away from zero) */
  aot_hybrid_quantize_asym(a, 4, q, &s, &z);
  assert_int_equal(z, -128);
  assert_true(s == (float)(2.549999952316284 / 255.0));
  const int8_t eaa[4] = {-128, -103, -28, 127};
  assert_memory_equal(q, eaa, 4);

  /* ties: range [0, 255/128] gives m = 128 exactly; x * 128 = 0, 0.5, 1.5,
   * 255. XNNPACK rounds half to even (0, 2), LiteRT half away from zero
   * (-128 + 0.5 -> -128, -128 + 1.5 = -126.5 -> -127) */
  const float t[4] = {0.0f, 1.0f / 256, 3.0f / 256, 255.0f / 128};
  aot_hybrid_quantize_qd8(t, 4, q, &s, &z);
  const int8_t et[4] = {-128, -128, -126, 127};
  assert_int_equal(z, -128);
  assert_true(s == 1.0f / 128);
  assert_memory_equal(q, et, 4);
  aot_hybrid_quantize_asym(t, 4, q, &s, &z);
  const int8_t eta[4] = {-128, -128, -127, 127};
  assert_int_equal(z, -128);
  assert_true(s == 1.0f / 128);
  assert_memory_equal(q, eta, 4);

  /* all negative: [-2, 0], m = 127.5, zero point 127; 1 / (1 / 127.5) =
   * 127.49999 in float: -2 -> -254.99998 -> -255 + 127, -1 -> -127 + 127 */
  const float neg[3] = {-2.0f, -1.0f, 0.0f};
  aot_hybrid_quantize_qd8(neg, 3, q, &s, &z);
  assert_int_equal(z, 127);
  const int8_t en[3] = {-128, 0, 127};
  assert_memory_equal(q, en, 3);
  aot_hybrid_quantize_asym(neg, 3, q, &s, &z);
  assert_int_equal(z, 127);
  assert_memory_equal(q, en, 3);

  /* all zero: XNNPACK scale 1, zero point 127 (q = 127); LiteRT scale 1,
   * zero point 0 */
  const float zero[3] = {0, 0, 0};
  aot_hybrid_quantize_qd8(zero, 3, q, &s, &z);
  assert_true(s == 1.0f && z == 127 && q[0] == 127 && q[2] == 127);
  aot_hybrid_quantize_asym(zero, 3, q, &s, &z);
  assert_true(s == 1.0f && z == 0 && q[0] == 0 && q[2] == 0);

  /* rounding helper: half to even / away, clamping, NaN */
  assert_int_equal(aot_hybrid_round(2.5f, -128, 127, 1), 2);
  assert_int_equal(aot_hybrid_round(2.5f, -128, 127, 0), 3);
  assert_int_equal(aot_hybrid_round(-2.5f, -128, 127, 1), -2);
  assert_int_equal(aot_hybrid_round(-2.5f, -128, 127, 0), -3);
  assert_int_equal(aot_hybrid_round(-3.5f, -128, 127, 1), -4);
  assert_int_equal(aot_hybrid_round(0.49999997f, -128, 127, 0), 0);
  assert_int_equal(aot_hybrid_round(300.0f, -128, 127, 0), 127);
  assert_int_equal(aot_hybrid_round(-1e30f, -128, 127, 1), -128);
  assert_int_equal(aot_hybrid_round(NAN, -128, 127, 1), -128);
}

static void test_quantize_random(void **state) {
  (void)state;
  float v[300];
  int8_t q1[300], q2[300];
  for (int it = 0; it < 3000; it++) {
    int n = rr(1, 300), kind = it % 5;
    float lo = rf(-50.0f, 0.0f), hi = rf(0.0f, 50.0f);
    if (kind == 1) lo = rf(0.01f, 3.0f);           /* all positive */
    if (kind == 2) hi = rf(-3.0f, -0.01f);         /* all negative */
    for (int i = 0; i < n; i++) {
      if (kind == 3) v[i] = (float)rr(-255, 255) / 256.0f; /* many ties */
      else if (kind == 4) v[i] = (float)rr(0, 510) / 256.0f;
      else v[i] = rf(lo < hi ? lo : hi, lo < hi ? hi : lo);
    }
    float s1, s2;
    int32_t z1;
    int z2;
    aot_hybrid_quantize_qd8(v, n, q1, &s1, &z1);
    ref_qd8(v, n, q2, &s2, &z2);
    if (s1 != s2 || z1 != z2 || memcmp(q1, q2, (size_t)n) != 0) {
      print_error("qd8 iteration %d n %d: scale %.9g/%.9g zp %d/%d\n", it, n, (double)s1,
                  (double)s2, (int)z1, z2);
      fail();
    }
    aot_hybrid_quantize_asym(v, n, q1, &s1, &z1);
    ref_asym(v, n, q2, &s2, &z2);
    if (s1 != s2 || z1 != z2 || memcmp(q1, q2, (size_t)n) != 0) {
      print_error("asym iteration %d n %d: scale %.9g/%.9g zp %d/%d\n", it, n, (double)s1,
                  (double)s2, (int)z1, z2);
      fail();
    }
  }
}

/* ======================= kernels: hand cases ======================= */

/* image {0, 1/256, 3/256, 255/128}: qd8 q = {-128, -128, -126, 127}, zero
 * point -128, scale 1/128, so q - zp = {0, 0, 2, 255} */
static const float img4[4] = {0.0f, 1.0f / 256, 3.0f / 256, 255.0f / 128};

static void test_conv_hand(void **state) {
  (void)state;
  geom g = {.n = 1, .h = 2, .w = 2, .c = 1, .oc = 1, .fh = 2, .fw = 2, .sh = 1, .sw = 1,
            .dh = 1, .dw = 1, .lo = -INFINITY, .hi = INFINITY};
  geom_out(&g, 0);
  aot_conv_params p;
  to_params(&g, &p);
  const int8_t f[4] = {1, 2, 3, 4};
  const float fs[1] = {0.5f}, bias[1] = {0.25f};
  aot_hybrid_params h = {0, fs};
  int8_t scratch[4];
  float out[4];
  assert_true(aot_conv2d_hybrid_buffer_size(&p) >= 4);  /* + the target loops' columns */
  /* acc = 3*2 + 4*255 = 1026; 1026/128 * 0.5 + 0.25 */
  assert_int_equal(aot_conv2d_hybrid(&p, &h, img4, f, bias, out, scratch), AOT_KERNEL_OK);
  assert_true(out[0] == 4.2578125f);
  /* fused RELU_N1_TO_1 */
  p.act_min_f = -1.0f;
  p.act_max_f = 1.0f;
  assert_int_equal(aot_conv2d_hybrid(&p, &h, img4, f, bias, out, scratch), AOT_KERNEL_OK);
  assert_true(out[0] == 1.0f);

  /* 3x3 all-ones filter, SAME: every output sees all four pixels and five
   * padded taps, which add nothing (a padded tap counted as 0 would add
   * 128 each): (0 + 0 + 2 + 255) / 128 = 2.0078125 */
  g.fh = g.fw = 3;
  geom_out(&g, 1);
  to_params(&g, &p);
  int8_t f9[9];
  memset(f9, 1, sizeof f9);
  const float one[1] = {1.0f};
  h.filter_scale = one;
  assert_int_equal(aot_conv2d_hybrid(&p, &h, img4, f9, NULL, out, scratch), AOT_KERNEL_OK);
  for (int i = 0; i < 4; i++) assert_true(out[i] == 2.0078125f);

  /* 1x1 stride 1 (XNNPACK GEMM): each pixel is quantized on its own. pixel
   * {0, 255/128}: q - zp = {0, 255}, scale 1/128; pixel {-1, 1}: m = 127.5,
   * zero point 0, q = {-127, 127}, scale 1/127.5. filter {2, 3}: outputs
   * 765/128 and 127/127.5 */
  geom g1 = {.n = 1, .h = 1, .w = 2, .c = 2, .oc = 1, .fh = 1, .fw = 1, .sh = 1, .sw = 1,
             .dh = 1, .dw = 1, .lo = -INFINITY, .hi = INFINITY};
  geom_out(&g1, 1);
  to_params(&g1, &p);
  assert_true(aot_conv2d_hybrid_buffer_size(&p) >= 2);  /* + the target loops' columns */
  const float in2[4] = {0.0f, 255.0f / 128, -1.0f, 1.0f};
  const int8_t f2[2] = {2, 3};
  assert_int_equal(aot_conv2d_hybrid(&p, &h, in2, f2, NULL, out, scratch), AOT_KERNEL_OK);
  assert_true(out[0] == 5.9765625f);
  assert_true(fabs(out[1] - 127.0 / 127.5) < 1e-6);

  /* missing scratch, grouped filter */
  assert_int_equal(aot_conv2d_hybrid(&p, &h, in2, f2, NULL, out, NULL), AOT_KERNEL_BAD_PARAM);
  p.filter_in_c = 1;
  assert_int_equal(aot_conv2d_hybrid(&p, &h, in2, f2, NULL, out, scratch), AOT_KERNEL_BAD_PARAM);
}

static void test_dwconv_hand(void **state) {
  (void)state;
  /* LiteRT asymmetric: q - zp = {0, 0, 1, 255} (half away from zero),
   * scale 1/128; channel 0 filter {1,2,3,4}: acc = 3 + 1020 = 1023 ->
   * 1023/128 * 0.5 + 0.25; depth multiplier 2, channel 1 filter {0,0,0,-1}:
   * -255/128 * 2 - 1 */
  geom g = {.n = 1, .h = 2, .w = 2, .c = 1, .oc = 2, .fh = 2, .fw = 2, .sh = 1, .sw = 1,
            .dh = 1, .dw = 1, .dm = 2, .lo = -INFINITY, .hi = INFINITY};
  geom_out(&g, 0);
  aot_conv_params p;
  to_params(&g, &p);
  const int8_t f[8] = {1, 0, 2, 0, 3, 0, 4, -1};
  const float fs[2] = {0.5f, 2.0f}, bias[2] = {0.25f, -1.0f};
  aot_hybrid_params h = {1, fs};
  int8_t scratch[4];
  float out[2];
  assert_int_equal(aot_dwconv2d_hybrid_buffer_size(&p), 4);
  assert_int_equal(aot_dwconv2d_hybrid(&p, &h, img4, f, bias, out, scratch), AOT_KERNEL_OK);
  assert_true(out[0] == 4.24609375f);
  assert_true(out[1] == -1.0f - 255.0f / 64);
  p.act_min_f = 0.0f;   /* RELU */
  assert_int_equal(aot_dwconv2d_hybrid(&p, &h, img4, f, bias, out, scratch), AOT_KERNEL_OK);
  assert_true(out[1] == 0.0f);
  p.depth_multiplier = 3;
  assert_int_equal(aot_dwconv2d_hybrid(&p, &h, img4, f, bias, out, scratch),
                   AOT_KERNEL_BAD_PARAM);
}

static void test_fc_hand(void **state) {
  (void)state;
  /* row img4 (q - zp = {0,0,2,255}, scale 1/128); weights {1,2,3,4} and
   * {-1,0,0,1}, scales {0.5, 2}, bias {0.25, -1}: 1026/128*0.5 + 0.25 and
   * 255/128*2 - 1. Second row all zero: zero point 127, acc 0 -> bias. */
  aot_fc_params p;
  memset(&p, 0, sizeof p);
  p.batches = 2;
  p.in_depth = 4;
  p.out_depth = 2;
  p.act_min_f = -INFINITY;
  p.act_max_f = INFINITY;
  float in[8] = {0};
  memcpy(in, img4, sizeof img4);
  const int8_t w[8] = {1, 2, 3, 4, -1, 0, 0, 1};
  const float fs[2] = {0.5f, 2.0f}, bias[2] = {0.25f, -1.0f};
  aot_hybrid_params h = {1, fs};
  int8_t scratch[4];
  float out[4];
  assert_true(aot_fc_hybrid_buffer_size(&p) >= 4);  /* + the target loops' columns */
  assert_int_equal(aot_fc_hybrid(&p, &h, in, w, bias, out, scratch), AOT_KERNEL_OK);
  assert_true(out[0] == 4.2578125f);
  assert_true(out[1] == 2.984375f);
  assert_true(out[2] == 0.25f && out[3] == -1.0f);
  /* per-tensor scale (0.5 for both), no bias, RELU6 */
  h.per_channel = 0;
  p.act_min_f = 0.0f;
  p.act_max_f = 6.0f;
  assert_int_equal(aot_fc_hybrid(&p, &h, in, w, NULL, out, scratch), AOT_KERNEL_OK);
  assert_true(out[0] == 4.0078125f && out[1] == 0.99609375f && out[2] == 0.0f);
  assert_int_equal(aot_fc_hybrid(&p, &h, in, w, NULL, out, NULL), AOT_KERNEL_BAD_PARAM);
}

/* ======================= kernels: random vs reference ======================= */

static void fill_f(float *v, size_t n, float lo, float hi) {
  for (size_t i = 0; i < n; i++) v[i] = rf(lo, hi);
}
static void fill_i8(int8_t *v, size_t n) {
  for (size_t i = 0; i < n; i++) v[i] = (int8_t)rr(-127, 127);
}

typedef struct ccase {
  int n, h, w, c, oc, fh, fw, sh, sw, dh, dw, same, act, bias, pc, dm;
} ccase;

static void act_range(int act, float *lo, float *hi) {
  *lo = -INFINITY;
  *hi = INFINITY;
  if (act == ACT_RELU) *lo = 0.0f;
  if (act == ACT_RELU6) {
    *lo = 0.0f;
    *hi = 6.0f;
  }
  if (act == ACT_RELU_N1_TO_1) {
    *lo = -1.0f;
    *hi = 1.0f;
  }
}

static void run_conv_case(const ccase *k, int depthwise) {
  geom g = {.n = k->n, .h = k->h, .w = k->w, .c = k->c, .oc = k->oc, .fh = k->fh, .fw = k->fw,
            .sh = k->sh, .sw = k->sw, .dh = k->dh, .dw = k->dw, .dm = depthwise ? k->dm : 0};
  act_range(k->act, &g.lo, &g.hi);
  geom_out(&g, k->same);
  aot_conv_params p;
  to_params(&g, &p);
  size_t ni = (size_t)g.n * g.h * g.w * g.c, no = (size_t)g.n * g.oh * g.ow * g.oc;
  size_t nf = (size_t)g.oc * g.fh * g.fw * (depthwise ? 1 : g.c);
  float *in = malloc(ni * 4), *o1 = malloc(no * 4), *o2 = malloc(no * 4);
  float *fs = malloc((size_t)g.oc * 4), *bias = malloc((size_t)g.oc * 4);
  int8_t *f = malloc(nf);
  /* a ReLU-like (non-negative) input every other case */
  fill_f(in, ni, (k->n & 1) ? -3.0f : 0.0f, 3.0f);
  fill_i8(f, nf);
  fill_f(fs, (size_t)g.oc, 0.001f, 0.05f);
  fill_f(bias, (size_t)g.oc, -1.0f, 1.0f);
  aot_hybrid_params h = {k->pc, fs};
  size_t sb = depthwise ? aot_dwconv2d_hybrid_buffer_size(&p) : aot_conv2d_hybrid_buffer_size(&p);
  void *scratch = malloc(sb);
  const float *b = k->bias ? bias : NULL;
  int32_t st = depthwise ? aot_dwconv2d_hybrid(&p, &h, in, f, b, o1, scratch)
                         : aot_conv2d_hybrid(&p, &h, in, f, b, o1, scratch);
  assert_int_equal(st, AOT_KERNEL_OK);
  if (depthwise)
    ref_dw(&g, in, f, fs, k->pc, b, o2);
  else
    ref_conv(&g, in, f, fs, k->pc, b, o2);
  expect_close(o1, o2, no);
  free(in);
  free(o1);
  free(o2);
  free(fs);
  free(bias);
  free(f);
  free(scratch);
}

static void test_conv_random(void **state) {
  (void)state;
  static const ccase cases[] = {
      /* n  h   w  c  oc fh fw sh sw dh dw same act bias pc */
      {1, 49, 10, 1, 8, 10, 4, 2, 2, 1, 1, 1, ACT_RELU, 1, 0, 0},   /* KWS first layer */
      {1, 7, 6, 3, 5, 3, 3, 1, 1, 1, 1, 1, ACT_NONE, 1, 1, 0},
      {2, 9, 8, 4, 6, 3, 2, 2, 1, 1, 1, 0, ACT_RELU6, 0, 1, 0},
      {1, 10, 9, 2, 3, 2, 3, 1, 2, 2, 2, 0, ACT_RELU_N1_TO_1, 1, 0, 0},
      {1, 8, 8, 3, 4, 3, 3, 1, 1, 2, 1, 1, ACT_NONE, 1, 1, 0},      /* SAME + dilation */
      {1, 5, 5, 16, 12, 1, 1, 1, 1, 1, 1, 1, ACT_RELU, 1, 0, 0},    /* 1x1: per pixel */
      {3, 4, 3, 7, 5, 1, 1, 1, 1, 1, 1, 0, ACT_NONE, 0, 1, 0},      /* 1x1, batches */
      {1, 6, 6, 5, 4, 1, 1, 2, 2, 1, 1, 1, ACT_NONE, 1, 1, 0},      /* 1x1 stride 2: per image */
      {2, 3, 4, 2, 3, 4, 5, 1, 1, 1, 1, 1, ACT_NONE, 1, 0, 0},      /* filter larger than image */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_conv_case(&cases[i], 0);
}

static void test_dwconv_random(void **state) {
  (void)state;
  static const ccase cases[] = {
      /* n  h   w   c  oc fh fw sh sw dh dw same act bias pc dm */
      {1, 25, 5, 8, 8, 3, 3, 1, 1, 1, 1, 1, ACT_RELU, 1, 1, 1},
      {2, 7, 6, 3, 6, 3, 3, 2, 1, 1, 1, 1, ACT_NONE, 1, 1, 2},
      {1, 9, 9, 2, 6, 2, 3, 1, 2, 2, 1, 0, ACT_RELU6, 0, 1, 3},
      {1, 6, 5, 4, 4, 3, 3, 1, 1, 1, 2, 1, ACT_RELU_N1_TO_1, 1, 1, 1},
      {1, 4, 4, 1, 1, 3, 3, 1, 1, 1, 1, 1, ACT_NONE, 1, 0, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_conv_case(&cases[i], 1);
}

static void test_fc_random(void **state) {
  (void)state;
  static const int cases[][6] = {
      /* rows depth out act bias pc */
      {1, 64, 12, ACT_NONE, 1, 0},
      {3, 37, 9, ACT_RELU, 1, 1},
      {2, 5, 1, ACT_RELU6, 0, 1},
      {4, 200, 7, ACT_RELU_N1_TO_1, 1, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const int *k = cases[i];
    aot_fc_params p;
    memset(&p, 0, sizeof p);
    p.batches = k[0];
    p.in_depth = k[1];
    p.out_depth = k[2];
    act_range(k[3], &p.act_min_f, &p.act_max_f);
    size_t ni = (size_t)k[0] * k[1], no = (size_t)k[0] * k[2], nw = (size_t)k[1] * k[2];
    float *in = malloc(ni * 4), *o1 = malloc(no * 4), *o2 = malloc(no * 4);
    float *fs = malloc((size_t)k[2] * 4), *bias = malloc((size_t)k[2] * 4);
    int8_t *w = malloc(nw), *scratch = malloc(aot_fc_hybrid_buffer_size(&p));
    fill_f(in, ni, -4.0f, 4.0f);
    if (i == 2) fill_f(in, ni, 0.5f, 4.0f); /* all positive rows */
    fill_i8(w, nw);
    fill_f(fs, (size_t)k[2], 0.001f, 0.05f);
    fill_f(bias, (size_t)k[2], -1.0f, 1.0f);
    aot_hybrid_params h = {k[5], fs};
    const float *b = k[4] ? bias : NULL;
    assert_int_equal(aot_fc_hybrid(&p, &h, in, w, b, o1, scratch), AOT_KERNEL_OK);
    ref_fc(k[0], k[1], k[2], in, w, fs, k[5], b, p.act_min_f, p.act_max_f, o2);
    expect_close(o1, o2, no);
    free(in);
    free(o1);
    free(o2);
    free(fs);
    free(bias);
    free(w);
    free(scratch);
  }
}

/* ======================= op_impls through tiny IR graphs ======================= */

#define MAXT 6
typedef struct tg {
  ir_graph g;
  ir_tensor t[MAXT];
  float scales[MAXT][16];
  int32_t zps[MAXT][16];
  void *data[MAXT];
  ir_op op;
  int in[4], out[1];
} tg;

static void tg_init(tg *x, int builtin) {
  memset(x, 0, sizeof *x);
  x->g.t = x->t;
  x->g.ops = &x->op;
  x->g.nops = 1;
  x->op.builtin = builtin;
  x->op.in = x->in;
  x->op.out = x->out;
  x->op.nout = 1;
  x->op.opts.stride_w = x->op.opts.stride_h = 1;
  x->op.opts.dilation_w = x->op.opts.dilation_h = 1;
  x->op.opts.padding = PAD_VALID;
}

static int tg_t(tg *x, int dtype, int rank, const int32_t *shape, const void *data) {
  int i = x->g.nt++;
  ir_tensor *t = &x->t[i];
  t->name = (char *)"";
  t->dtype = dtype;
  t->rank = rank;
  size_t n = 1;
  for (int k = 0; k < rank; k++) n *= (size_t)(t->shape[k] = shape[k]);
  t->alias = -1;
  t->io_index = -1;
  t->scale = x->scales[i];
  t->zero_point = x->zps[i];
  size_t bytes = n * dtype_size(dtype);
  x->data[i] = calloc(1, bytes);
  if (data) {
    memcpy(x->data[i], data, bytes);
    t->role = ROLE_CONST;
    t->data = x->data[i];
    t->data_bytes = bytes;
  }
  return i;
}

static void tg_quant(tg *x, int t, int n, const float *s, int qdim) {
  x->t[t].nq = n;
  x->t[t].qdim = qdim;
  for (int i = 0; i < n; i++) x->scales[t][i] = s[i];
}

static void tg_io(tg *x, int nin, const int *in, int out) {
  x->op.nin = nin;
  for (int i = 0; i < nin; i++) x->in[i] = in[i];
  x->out[0] = out;
}

static void tg_done(tg *x) {
  for (int i = 0; i < x->g.nt; i++) {
    if (x->t[i].owned_data) free(x->t[i].owned_data);
    free(x->data[i]);
  }
}

static int tg_check(const op_impl *impl, tg *x, char *why) {
  return impl->check(&x->g, &x->op, why, 256);
}

static void tg_eval(const op_impl *impl, tg *x) {
  char why[256] = "";
  int r = tg_check(impl, x, why);
  if (r) print_error("check failed: %s\n", why);
  assert_int_equal(r, 0);
  size_t sb = impl->scratch ? impl->scratch(&x->g, &x->op) : 0;
  void *scratch = malloc(sb + 1);
  assert_int_equal(op_eval(impl, &x->g, &x->op, x->data, scratch), 0);
  free(scratch);
}

static void expect_reject(const op_impl *impl, tg *x, const char *needle) {
  char why[256] = "";
  assert_int_not_equal(tg_check(impl, x, why), 0);
  if (!strstr(why, needle)) print_error("reason '%s' lacks '%s'\n", why, needle);
  assert_non_null(strstr(why, needle));
}

static void test_op_conv(void **state) {
  (void)state;
  tg x;
  tg_init(&x, OP_CONV_2D);
  /* the hand case through the op: 1x2x2x1 input, 2x2 filter, bias */
  const int8_t f[4] = {1, 2, 3, 4};
  const float bias[1] = {0.25f};
  int ti = tg_t(&x, DT_FLOAT32, 4, (int32_t[]){1, 2, 2, 1}, NULL);
  int tf = tg_t(&x, DT_INT8, 4, (int32_t[]){1, 2, 2, 1}, f);
  int tb = tg_t(&x, DT_FLOAT32, 1, (int32_t[]){1}, bias);
  int to = tg_t(&x, DT_FLOAT32, 4, (int32_t[]){1, 1, 1, 1}, NULL);
  tg_quant(&x, tf, 1, (float[]){0.5f}, 0);
  memcpy(x.data[ti], img4, sizeof img4);
  tg_io(&x, 3, (int[]){ti, tf, tb}, to);
  assert_true(op_conv_2d.scratch(&x.g, &x.op) >= 4);  /* + the target loops' columns */
  tg_eval(&op_conv_2d, &x);
  assert_true(((float *)x.data[to])[0] == 4.2578125f);
  /* fused RELU6 clamps 4.26 -> 4.26; RELU_N1_TO_1 -> 1 */
  x.op.opts.fused_act = ACT_RELU_N1_TO_1;
  tg_eval(&op_conv_2d, &x);
  assert_true(((float *)x.data[to])[0] == 1.0f);
  x.op.opts.fused_act = ACT_NONE;
  /* refused forms (dequantized at compile time instead) */
  x.zps[tf][0] = 1;
  expect_reject(&op_conv_2d, &x, "zero point");
  x.zps[tf][0] = 0;
  x.t[tb].dtype = DT_INT32;
  expect_reject(&op_conv_2d, &x, "float32 bias");
  x.t[tb].dtype = DT_FLOAT32;
  x.t[tf].dtype = DT_INT16;
  expect_reject(&op_conv_2d, &x, "int16 filter");
  x.t[tf].dtype = DT_INT8;
  /* a float filter is the float kernel, no scratch */
  tg_done(&x);

  /* per-channel with 1x1 stride 1: scratch is one pixel, values vs the
   * reference; grouped filters are refused */
  tg_init(&x, OP_CONV_2D);
  int8_t f2[3 * 4];
  fill_i8(f2, 12);
  float in[2 * 3 * 4];
  fill_f(in, 24, -2.0f, 2.0f);
  ti = tg_t(&x, DT_FLOAT32, 4, (int32_t[]){2, 3, 1, 4}, NULL);
  tf = tg_t(&x, DT_INT8, 4, (int32_t[]){3, 1, 1, 4}, f2);
  to = tg_t(&x, DT_FLOAT32, 4, (int32_t[]){2, 3, 1, 3}, NULL);
  const float fs[3] = {0.01f, 0.02f, 0.03f};
  tg_quant(&x, tf, 3, fs, 0);
  memcpy(x.data[ti], in, sizeof in);
  x.in[2] = -1;
  tg_io(&x, 3, (int[]){ti, tf, -1}, to);
  assert_true(op_conv_2d.scratch(&x.g, &x.op) >= 4);  /* + the target loops' columns */
  tg_eval(&op_conv_2d, &x);
  geom g = {.n = 2, .h = 3, .w = 1, .c = 4, .oc = 3, .fh = 1, .fw = 1, .sh = 1, .sw = 1,
            .dh = 1, .dw = 1, .lo = -INFINITY, .hi = INFINITY};
  geom_out(&g, 0);
  float want[18];
  ref_conv(&g, in, f2, fs, 1, NULL, want);
  expect_close(x.data[to], want, 18);
  /* per-channel scales along the wrong dimension */
  x.t[tf].qdim = 3;
  expect_reject(&op_conv_2d, &x, "scales");
  x.t[tf].qdim = 0;
  /* 4 input channels with a 2-channel filter: groups */
  x.t[tf].shape[3] = 2;
  x.t[ti].shape[3] = 4;
  expect_reject(&op_conv_2d, &x, "group");
  tg_done(&x);

  /* TRANSPOSE_CONV has no hybrid kernel */
  tg_init(&x, OP_TRANSPOSE_CONV);
  const int32_t oshape[4] = {1, 2, 2, 1};
  int ts = tg_t(&x, DT_INT32, 1, (int32_t[]){4}, oshape);
  tf = tg_t(&x, DT_INT8, 4, (int32_t[]){1, 1, 1, 1}, f);
  ti = tg_t(&x, DT_FLOAT32, 4, (int32_t[]){1, 2, 2, 1}, NULL);
  to = tg_t(&x, DT_FLOAT32, 4, (int32_t[]){1, 2, 2, 1}, NULL);
  tg_quant(&x, tf, 1, (float[]){0.5f}, 0);
  tg_io(&x, 3, (int[]){ts, tf, ti}, to);
  expect_reject(&op_transpose_conv, &x, "int8 filter not supported");
  tg_done(&x);
}

static void test_op_dwconv(void **state) {
  (void)state;
  tg x;
  tg_init(&x, OP_DEPTHWISE_CONV_2D);
  const int8_t f[8] = {1, 0, 2, 0, 3, 0, 4, -1};
  const float bias[2] = {0.25f, -1.0f};
  int ti = tg_t(&x, DT_FLOAT32, 4, (int32_t[]){1, 2, 2, 1}, NULL);
  int tf = tg_t(&x, DT_INT8, 4, (int32_t[]){1, 2, 2, 2}, f);
  int tb = tg_t(&x, DT_FLOAT32, 1, (int32_t[]){2}, bias);
  int to = tg_t(&x, DT_FLOAT32, 4, (int32_t[]){1, 1, 1, 2}, NULL);
  tg_quant(&x, tf, 2, (float[]){0.5f, 2.0f}, 3);
  memcpy(x.data[ti], img4, sizeof img4);
  x.op.opts.depth_multiplier = 2;
  tg_io(&x, 3, (int[]){ti, tf, tb}, to);
  assert_int_equal(op_depthwise_conv_2d.scratch(&x.g, &x.op), 4);
  tg_eval(&op_depthwise_conv_2d, &x);
  const float *o = x.data[to];
  assert_true(o[0] == 4.24609375f && o[1] == -1.0f - 255.0f / 64);
  /* LiteRT needs one scale per output channel */
  tg_quant(&x, tf, 1, (float[]){0.5f}, 0);
  expect_reject(&op_depthwise_conv_2d, &x, "one filter scale per output channel");
  tg_done(&x);
}

static void test_op_fc(void **state) {
  (void)state;
  tg x;
  tg_init(&x, OP_FULLY_CONNECTED);
  const int8_t w[8] = {1, 2, 3, 4, -1, 0, 0, 1};
  const float bias[2] = {0.25f, -1.0f};
  int ti = tg_t(&x, DT_FLOAT32, 2, (int32_t[]){2, 4}, NULL);
  int tw = tg_t(&x, DT_INT8, 2, (int32_t[]){2, 4}, w);
  int tb = tg_t(&x, DT_FLOAT32, 1, (int32_t[]){2}, bias);
  int to = tg_t(&x, DT_FLOAT32, 2, (int32_t[]){2, 2}, NULL);
  tg_quant(&x, tw, 2, (float[]){0.5f, 2.0f}, 0);
  memcpy(x.data[ti], img4, sizeof img4);
  tg_io(&x, 3, (int[]){ti, tw, tb}, to);
  assert_true(op_fully_connected.scratch(&x.g, &x.op) >= 4);  /* + the target loops' columns */
  /* asymmetric_quantize_inputs does not change what the runtime computes */
  x.op.opts.asymmetric_quantize_inputs = 1;
  tg_eval(&op_fully_connected, &x);
  const float *o = x.data[to];
  assert_true(o[0] == 4.2578125f && o[1] == 2.984375f && o[2] == 0.25f && o[3] == -1.0f);
  x.zps[tw][1] = 3;
  expect_reject(&op_fully_connected, &x, "zero point");
  x.zps[tw][1] = 0;
  x.t[tb].dtype = DT_INT32;
  expect_reject(&op_fully_connected, &x, "float32 bias");
  tg_done(&x);
}

/* ======================= the transform ======================= */

static int run_transform(ir_graph *g, const char *name) {
  aotc_diag d;
  memset(&d, 0, sizeof d);
  for (int i = 0; i < ir_ntransforms; i++)
    if (strcmp(ir_transforms[i].name, name) == 0) return ir_transforms[i].run(g, &d);
  fail_msg("no transform %s", name);
  return -1;
}

static void test_transform_keeps_hybrid(void **state) {
  (void)state;
  tg x;
  tg_init(&x, OP_CONV_2D);
  const int8_t f[4] = {1, 2, 3, 4};
  int ti = tg_t(&x, DT_FLOAT32, 4, (int32_t[]){1, 2, 2, 1}, NULL);
  int tf = tg_t(&x, DT_INT8, 4, (int32_t[]){1, 2, 2, 1}, f);
  int to = tg_t(&x, DT_FLOAT32, 4, (int32_t[]){1, 1, 1, 1}, NULL);
  tg_quant(&x, tf, 1, (float[]){0.5f}, 0);
  tg_io(&x, 2, (int[]){ti, tf}, to);
  /* accepted in hybrid form: the weights stay int8 */
  assert_int_equal(run_transform(&x.g, "dequantize_hybrid_weights"), 0);
  assert_int_equal(x.t[tf].dtype, DT_INT8);
  assert_int_equal(x.t[tf].nq, 1);
  /* a filter zero point is refused by the hybrid check: dequantized */
  x.zps[tf][0] = 1;
  assert_int_equal(run_transform(&x.g, "dequantize_hybrid_weights"), 1);
  assert_int_equal(x.t[tf].dtype, DT_FLOAT32);
  assert_int_equal(x.t[tf].nq, 0);
  const float *v = (const float *)x.t[tf].data;
  assert_true(v[0] == 0.0f && v[1] == 0.5f && v[3] == 1.5f);
  char why[256];
  assert_int_equal(tg_check(&op_conv_2d, &x, why), 0);   /* now a float conv */
  assert_int_equal(op_conv_2d.scratch(&x.g, &x.op), 0);
  tg_done(&x);
}

/* ======================= emit vs eval ======================= */

/* A single-op model is written to a .tflite, compiled into a module (which
 * keeps the int8 weights: the transforms leave accepted hybrid ops alone),
 * built with the host compiler (-std=c99 -Wall -Wextra -Werror -pedantic) and
 * run; its output must equal, byte for byte, the op's eval() on the same
 * input, which the kernel tests above tie to the reference. */
static int lm_w(litert_model *m, int rank, const int32_t *shape, int nscale, int qdim) {
  size_t n = 1;
  for (int i = 0; i < rank; i++) n *= (size_t)shape[i];
  int8_t *d = malloc(n);
  fill_i8(d, n);
  int t = litert_add_tensor(m, 0, "w", DT_INT8, rank, shape, litert_add_buffer(m, d, n));
  free(d);
  float sc[64];
  int64_t z[64];
  for (int i = 0; i < nscale; i++) {
    sc[i] = rf(0.002f, 0.03f);
    z[i] = 0;
  }
  litert_tensor_set_quant(m, 0, t, nscale, sc, z, qdim);
  return t;
}
static int lm_bias(litert_model *m, int n) {
  float v[64];
  fill_f(v, (size_t)n, -0.5f, 0.5f);
  return litert_add_tensor(m, 0, "b", DT_FLOAT32, 1, (int32_t[]){n},
                           litert_add_buffer(m, v, (size_t)n * 4));
}

/* The input: floats in [-2, 3] from the shared generator. */
static void fill_hyb(void *p, int dtype, size_t n, uint32_t index) {
  (void)dtype;
  (void)index;
  fill_f(p, n, -2.0f, 3.0f);
}

/* The op needs scratch (its input quantization) and, in the module, kept its
 * int8 weights. */
static void inspect_hyb(const ir_graph *g, int compiled) {
  if (!compiled) {
    const op_impl *impl = ops_find(g, &g->ops[0]);
    assert_non_null(impl->scratch);
    assert_true(impl->scratch(g, &g->ops[0]) > 0);
    return;
  }
  int int8_weights = 0;
  for (int i = 0; i < g->nt; i++)
    if (g->t[i].role == ROLE_CONST && g->t[i].dtype == DT_INT8) int8_weights++;
  assert_int_equal(int8_weights, 1);
}

/* Runs the model's single op both ways (emit_harness.h) and compares. */
static void emit_check(mb *b, const char *name) { eh_check_ex(b, name, fill_hyb, 1, inspect_hyb); }

static void emit_conv(const char *name, int dw, int h, int w, int c, int oc, int fh, int fw,
                      int s, int same, int act, int nscale) {
  mb *b = mb_new();
  int in = mb_in(b, DT_FLOAT32, 4, S(1, h, w, c));
  int f = dw ? lm_w(b->m, 4, S(1, fh, fw, oc), nscale, 3) : lm_w(b->m, 4, S(oc, fh, fw, c), nscale, 0);
  int bias = lm_bias(b->m, oc);
  int oh = same ? (h + s - 1) / s : (h - fh + s) / s, ow = same ? (w + s - 1) / s : (w - fw + s) / s;
  int out = mb_out(b, DT_FLOAT32, 4, S(1, oh, ow, oc));
  litert_options o;
  litert_options_default(&o);
  o.stride_h = o.stride_w = s;
  o.padding = same ? PAD_SAME : PAD_VALID;
  o.fused_act = act;
  o.depth_multiplier = dw ? oc / c : 0;
  mb_op(b, dw ? OP_DEPTHWISE_CONV_2D : OP_CONV_2D, &o, 3, IO(in, f, bias), 1, IO(out));
  emit_check(b, name);
}

static void test_emit_hybrid(void **state) {
  (void)state;
  if (!eh_have_cc) skip();
  emit_conv("hyb_conv_same_s2", 0, 9, 7, 3, 5, 3, 3, 2, 1, ACT_RELU, 1);
  emit_conv("hyb_conv_1x1_pc", 0, 4, 5, 6, 7, 1, 1, 1, 1, ACT_NONE, 7);
  emit_conv("hyb_dw_dm2", 1, 6, 5, 3, 6, 3, 3, 1, 1, ACT_RELU6, 6);
  mb *b = mb_new();
  int in = mb_in(b, DT_FLOAT32, 2, S(3, 20));
  int wt = lm_w(b->m, 2, S(6, 20), 6, 0);
  int bias = lm_bias(b->m, 6);
  int out = mb_out(b, DT_FLOAT32, 2, S(3, 6));
  litert_options o;
  litert_options_default(&o);
  o.fused_act = ACT_RELU;
  mb_op(b, OP_FULLY_CONNECTED, &o, 3, IO(in, wt, bias), 1, IO(out));
  emit_check(b, "hyb_fc");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_quantize_hand),   cmocka_unit_test(test_quantize_random),
      cmocka_unit_test(test_conv_hand),       cmocka_unit_test(test_dwconv_hand),
      cmocka_unit_test(test_fc_hand),         cmocka_unit_test(test_conv_random),
      cmocka_unit_test(test_dwconv_random),   cmocka_unit_test(test_fc_random),
      cmocka_unit_test(test_op_conv),         cmocka_unit_test(test_op_dwconv),
      cmocka_unit_test(test_op_fc),           cmocka_unit_test(test_transform_keeps_hybrid),
      cmocka_unit_test(test_emit_hybrid),
  };
  return cmocka_run_group_tests(tests, eh_setup, eh_teardown);
}
