/* test_kernels_recurrent_gru.c - binary16 conversions, GRU kernels and the
 * custom GRU op, against double-precision Keras GRU equations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_gru.h"
#include "aot_recurrent.h"
#include "ops/ops.h"
#include "test_kernels_recurrent_util.h"

extern const op_impl op_gru;

/* binary16 value from its fields, in double */
static double half_value(uint16_t h) {
  int sign = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  double v;
  if (e == 31) return m ? NAN : (sign ? -INFINITY : INFINITY);
  v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
  return sign ? -v : v;
}

static void test_f16_decode_exhaustive(void **state) {
  (void)state;
  for (uint32_t h = 0; h < 65536; h++) {
    float f = aot_f16_to_f32((uint16_t)h);
    double e = half_value((uint16_t)h);
    if (isnan(e)) {
      assert_true(isnan(f));
      continue;
    }
    assert_true((double)f == e);
    assert_int_equal(signbit(f) != 0, (h >> 15) != 0);
  }
}

static void test_f16_encode(void **state) {
  (void)state;
  /* every value round-trips */
  for (uint32_t h = 0; h < 65536; h++) {
    float f = aot_f16_to_f32((uint16_t)h);
    uint16_t back = aot_f32_to_f16(f);
    if (isnan(f)) {
      assert_true(((back >> 10) & 31) == 31 && (back & 1023) != 0);
      continue;
    }
    assert_int_equal(back, h);
  }
  /* midpoints round to even, just above/below go to the nearest */
  for (uint32_t h = 0; h < 0x7BFF; h++) {
    double a = half_value((uint16_t)h), b = half_value((uint16_t)(h + 1));
    float mid = (float)((a + b) / 2);   /* exact in float */
    uint16_t even = (h & 1) ? (uint16_t)(h + 1) : (uint16_t)h;
    assert_int_equal(aot_f32_to_f16(mid), even);
    assert_int_equal(aot_f32_to_f16(nextafterf(mid, 0.0f)), h);
    assert_int_equal(aot_f32_to_f16(nextafterf(mid, INFINITY)), h + 1);
    assert_int_equal(aot_f32_to_f16(-mid), 0x8000 | even);
  }
  assert_int_equal(aot_f32_to_f16(65504.0f), 0x7BFF);
  assert_int_equal(aot_f32_to_f16(65519.0f), 0x7BFF);
  assert_int_equal(aot_f32_to_f16(65520.0f), 0x7C00);   /* ties to even -> inf */
  assert_int_equal(aot_f32_to_f16(1e10f), 0x7C00);
  assert_int_equal(aot_f32_to_f16(-INFINITY), 0xFC00);
  assert_int_equal(aot_f32_to_f16(-0.0f), 0x8000);
  assert_int_equal(aot_f32_to_f16((float)ldexp(1, -25)), 0);        /* tie to even: 0 */
  assert_int_equal(aot_f32_to_f16((float)ldexp(1.5, -25)), 1);
  assert_int_equal(aot_f32_to_f16((float)ldexp(1, -26)), 0);
  assert_int_equal(aot_f32_to_f16((float)ldexp(3, -25)), 2);        /* 1.5 ulp -> even 2 */
  assert_int_equal(aot_f32_to_f16(1e-30f), 0);
  assert_true(isnan(aot_f16_to_f32(aot_f32_to_f16(NAN))));
}

/* ---- double reference ------------------------------------------------------ */

typedef struct gru_case {
  int nt, nf, nu, reset_after, gate, cand, back, seq, with_bx, with_bh;
} gru_case;

static double gate_fn(int act, double v) {
  if (act == AOT_GRU_HARD_SIGMOID) return fmin(1.0, fmax(0.0, 0.2 * v + 0.5));
  return 1.0 / (1.0 + exp(-v));
}

/* x [T,F], W [3U,F], U [3U,U]; out: sequence (processing order) and h. */
static void ref_gru(const gru_case *c, const double *x, const double *h0, const double *W,
                    const double *U, const double *bx, const double *bh, double *seq,
                    double *hout) {
  int nu = c->nu, nf = c->nf;
  double *h = malloc((size_t)nu * 8), *hn = malloc((size_t)nu * 8);
  memcpy(h, h0, (size_t)nu * 8);
  for (int s = 0; s < c->nt; s++) {
    const double *xt = x + (size_t)(c->back ? c->nt - 1 - s : s) * nf;
    for (int j = 0; j < nu; j++) {
      double xg[3], hg[3];
      for (int q = 0; q < 3; q++) {
        int row = q * nu + j;
        xg[q] = bx ? bx[row] : 0;
        for (int k = 0; k < nf; k++) xg[q] += W[row * nf + k] * xt[k];
        hg[q] = bh ? bh[row] : 0;
        for (int k = 0; k < nu; k++) hg[q] += U[row * nu + k] * h[k];
      }
      double z = gate_fn(c->gate, xg[0] + hg[0]);
      double r = gate_fn(c->gate, xg[1] + hg[1]);
      double pre;
      if (c->reset_after) {
        pre = xg[2] + r * hg[2];
      } else {
        /* (r * h) . Un + cn, with r computed per unit k */
        double a = bh ? bh[2 * nu + j] : 0;
        for (int k = 0; k < nu; k++) {
          double zk_unused = 0, rk;
          double gk = bx ? bx[nu + k] : 0, hk = bh ? bh[nu + k] : 0;
          (void)zk_unused;
          for (int m = 0; m < nf; m++) gk += W[(nu + k) * nf + m] * xt[m];
          for (int m = 0; m < nu; m++) hk += U[(nu + k) * nu + m] * h[m];
          rk = gate_fn(c->gate, gk + hk);
          a += U[(2 * nu + j) * nu + k] * rk * h[k];
        }
        pre = xg[2] + a;
      }
      double n = c->cand == AOT_GRU_LINEAR ? pre : tanh(pre);
      hn[j] = z * h[j] + (1 - z) * n;
    }
    memcpy(h, hn, (size_t)nu * 8);
    if (c->seq) memcpy(seq + (size_t)s * nu, h, (size_t)nu * 8);
  }
  if (!c->seq) memcpy(seq, h, (size_t)nu * 8);
  memcpy(hout, h, (size_t)nu * 8);
  free(h), free(hn);
}

/* ---- packed layout ---------------------------------------------------------- */

/* src [3 nu, cols] -> the kernels' packed layout (aot_recurrent.h), written
 * here from the layout's definition: gate g unit j is packed row
 * R = g * Up + j (Up = nu rounded up to 8); float32 element (R, k) at
 * (R / 8) * 8 cols + 8 k + R % 8; binary16 columns are 4 words per block,
 * word i = rows i (low half) and i + 4 (high half). */
static float *pack_f32(const float *src, int nu, int cols) {
  int up = (nu + 7) / 8 * 8;
  float *d = calloc((size_t)3 * up * cols, sizeof(float));
  for (int g = 0; g < 3; g++)
    for (int j = 0; j < nu; j++)
      for (int k = 0; k < cols; k++) {
        int R = g * up + j;
        d[(size_t)(R / 8) * 8 * cols + 8 * k + R % 8] = src[(size_t)(g * nu + j) * cols + k];
      }
  return d;
}

static uint32_t *pack_words(const uint16_t *src, int nu, int cols) {
  int up = (nu + 7) / 8 * 8;
  uint32_t *d = calloc((size_t)3 * up * cols / 2, sizeof(uint32_t));
  for (int g = 0; g < 3; g++)
    for (int j = 0; j < nu; j++)
      for (int k = 0; k < cols; k++) {
        int R = g * up + j;
        size_t word = (size_t)(R / 8) * 4 * cols + 4 * k + R % 4;
        d[word] |= (uint32_t)src[(size_t)(g * nu + j) * cols + k] << (R % 8 >= 4 ? 16 : 0);
      }
  return d;
}

/* binary16 bias: the words of a one-column matrix, as uint16 (little endian) */
static uint16_t *pack_bias16(const uint16_t *src, int nu) {
  int up = (nu + 7) / 8 * 8;
  uint32_t *w = pack_words(src, nu, 1);
  uint16_t *d = malloc((size_t)3 * up * sizeof(uint16_t));
  for (int i = 0; i < 3 * up / 2; i++) d[2 * i] = (uint16_t)(w[i] & 0xFFFF), d[2 * i + 1] = (uint16_t)(w[i] >> 16);
  free(w);
  return d;
}

static void test_pack_index(void **state) {
  (void)state;
  /* 3 gates of 5 units -> Up 8, 24 packed rows, 3 columns */
  assert_int_equal(aot_gru_padded_units(5), 8);
  assert_int_equal(aot_gru_padded_units(8), 8);
  assert_int_equal(aot_gru_padded_units(9), 16);
  assert_int_equal(aot_gru_pack_index(0, 0, 3), 0);
  assert_int_equal(aot_gru_pack_index(7, 0, 3), 7);
  assert_int_equal(aot_gru_pack_index(1, 2, 3), 17);
  assert_int_equal(aot_gru_pack_index(9, 1, 3), 24 + 8 + 1);
  /* binary16: row 5 is the high half of word 1 -> uint16 index 3 */
  assert_int_equal(aot_gru_pack16_index(5, 0, 3), 3);
  assert_int_equal(aot_gru_pack16_index(1, 0, 3), 2);
  assert_int_equal(aot_gru_pack16_index(4, 2, 3), 16 + 1);
  assert_int_equal(aot_gru_pack16_index(19, 1, 3), 48 + 8 + 6 + 0);
  /* the test packers agree with the header's indices */
  float src[15 * 3];
  uint16_t s16[15 * 3];
  for (int i = 0; i < 45; i++) src[i] = (float)(i + 1), s16[i] = (uint16_t)(i + 1);
  float *pf = pack_f32(src, 5, 3);
  uint32_t *pw = pack_words(s16, 5, 3);
  for (int g = 0; g < 3; g++)
    for (int j = 0; j < 5; j++)
      for (int k = 0; k < 3; k++) {
        size_t i = aot_gru_pack16_index(g * 8 + j, k, 3);
        uint16_t h = (uint16_t)(i % 2 ? pw[i / 2] >> 16 : pw[i / 2] & 0xFFFF);
        assert_true(pf[aot_gru_pack_index(g * 8 + j, k, 3)] == src[(g * 5 + j) * 3 + k]);
        assert_int_equal(h, s16[(g * 5 + j) * 3 + k]);
      }
  free(pf), free(pw);
}

/* ---- nonlinearities ------------------------------------------------------------ */

/* The fast sigmoid / tanh of aot_gru.h against double precision over
 * [-100, 100] (dense near 0) and special values. */
static void test_gru_nonlinearities(void **state) {
  (void)state;
  /* relative error of the sigmoid down to -86, where the argument is clamped
   * (below, the result is about 4e-38 instead of smaller) */
  double sig_rel = 0, sig_abs = 0, tanh_abs = 0, tanh_rel = 0;
  for (int i = -2000000; i <= 2000000; i++) {
    float v = i <= -1000000 ? (float)((i + 1000000) / 10000.0 - 20)
              : i >= 1000000 ? (float)((i - 1000000) / 10000.0 + 20)
                             : (float)(i / 50000.0);
    if (i % 2) v = (float)(v * 1.0e-3);   /* small arguments too */
    double sd = 1.0 / (1.0 + exp(-(double)v)), td = tanh((double)v);
    double s = aot_gru_sigmoid(v), t = aot_gru_tanh(v);
    if (v > -86.0f) sig_rel = fmax(sig_rel, fabs(s - sd) / sd);
    sig_abs = fmax(sig_abs, fabs(s - sd));
    tanh_abs = fmax(tanh_abs, fabs(t - td));
    if (td != 0) tanh_rel = fmax(tanh_rel, fabs(t - td) / fabs(td));
  }
  fprintf(stderr, "GRU nonlinearities: sigmoid rel %.3g abs %.3g, tanh abs %.3g rel %.3g\n",
          sig_rel, sig_abs, tanh_abs, tanh_rel);
  assert_true(sig_rel < 4e-7);
  assert_true(sig_abs < 1.5e-7);
  assert_true(tanh_abs < 2.5e-7);
  assert_true(tanh_rel < 4e-7);
  assert_true(aot_gru_sigmoid(0.0f) == 0.5f);
  assert_true(aot_gru_tanh(0.0f) == 0.0f);
  assert_true(aot_gru_sigmoid(200.0f) == 1.0f && aot_gru_sigmoid(INFINITY) == 1.0f);
  assert_true(aot_gru_sigmoid(-200.0f) >= 0.0f && aot_gru_sigmoid(-200.0f) < 1e-37f);
  assert_true(aot_gru_sigmoid(-INFINITY) >= 0.0f && aot_gru_sigmoid(-INFINITY) < 1e-37f);
  assert_true(aot_gru_tanh(50.0f) == 1.0f && aot_gru_tanh(-INFINITY) == -1.0f);
  assert_true(isnan(aot_gru_sigmoid(NAN)) && isnan(aot_gru_tanh(NAN)));
}

/* kind 0: f32, 1: f32 with f16 weights, 2: f16 everything; proj_steps as given */
static void run_gru_case(const gru_case *c, int kind, double tol, unsigned seed, int proj_steps) {
  rng_seed(seed);
  int nt = c->nt, nf = c->nf, nu = c->nu;
  size_t nx = (size_t)nt * nf, nw = (size_t)3 * nu * nf, nuu = (size_t)3 * nu * nu;
  size_t nb = (size_t)3 * nu, ns = (size_t)(c->seq ? nt : 1) * nu;
  double *x = malloc(nx * 8), *h0 = malloc((size_t)nu * 8), *W = malloc(nw * 8);
  double *U = malloc(nuu * 8), *bx = malloc(nb * 8), *bh = malloc(nb * 8);
  double *rseq = malloc(ns * 8), *rh = malloc((size_t)nu * 8);
  float *fx = malloc(nx * 4), *fh0 = malloc((size_t)nu * 4), *fW = malloc(nw * 4);
  float *fU = malloc(nuu * 4), *fbx = malloc(nb * 4), *fbh = malloc(nb * 4);
  float *fseq = malloc(ns * 4), *fh = malloc((size_t)nu * 4);
  uint16_t *hx = malloc(nx * 2), *hh0 = malloc((size_t)nu * 2), *hW = malloc(nw * 2);
  uint16_t *hU = malloc(nuu * 2), *hbx = malloc(nb * 2), *hbh = malloc(nb * 2);
  uint16_t *hseq = malloc(ns * 2), *hh = malloc((size_t)nu * 2);
  aot_gru_params p = {nt, nf, nu, c->reset_after, c->gate, c->cand, c->back, c->seq, proj_steps};
  float *scratch = malloc(aot_gru_buffer_size(&p, kind));
  /* values exactly representable in binary16 so all kernels see the same data */
#define FILL(N, D, F, H, LO, HI)                                   \
  for (size_t i = 0; i < (N); i++) {                               \
    H[i] = aot_f32_to_f16((float)((LO) + ((HI) - (LO)) * rng_unit())); \
    F[i] = aot_f16_to_f32(H[i]);                                   \
    D[i] = F[i];                                                   \
  }
  FILL(nx, x, fx, hx, -2.0, 2.0)
  FILL((size_t)nu, h0, fh0, hh0, -0.5, 0.5)
  FILL(nw, W, fW, hW, -0.6, 0.6)
  FILL(nuu, U, fU, hU, -0.6, 0.6)
  FILL(nb, bx, fbx, hbx, -0.3, 0.3)
  FILL(nb, bh, fbh, hbh, -0.3, 0.3)
#undef FILL
  ref_gru(c, x, h0, W, U, c->with_bx ? bx : NULL, c->with_bh ? bh : NULL, rseq, rh);
  float *pW = pack_f32(fW, nu, nf), *pU = pack_f32(fU, nu, nu);
  float *pbx = pack_f32(fbx, nu, 1), *pbh = pack_f32(fbh, nu, 1);
  uint32_t *qW = pack_words(hW, nu, nf), *qU = pack_words(hU, nu, nu);
  uint16_t *qbx = pack_bias16(hbx, nu), *qbh = pack_bias16(hbh, nu);
  int32_t st;
  if (kind == 0)
    st = aot_gru_f32(&p, fx, fh0, pW, pU, c->with_bx ? pbx : NULL, c->with_bh ? pbh : NULL, fseq,
                     fh, scratch);
  else if (kind == 1)
    st = aot_gru_f32_f16w(&p, fx, fh0, qW, qU, c->with_bx ? qbx : NULL, c->with_bh ? qbh : NULL,
                          fseq, fh, scratch);
  else
    st = aot_gru_f16(&p, hx, hh0, qW, qU, c->with_bx ? qbx : NULL, c->with_bh ? qbh : NULL, hseq,
                     hh, scratch);
  assert_int_equal(st, 0);
  double worst = 0;
  for (size_t i = 0; i < ns; i++) {
    double v = kind == 2 ? aot_f16_to_f32(hseq[i]) : fseq[i];
    worst = fmax(worst, fabs(v - rseq[i]));
  }
  for (int i = 0; i < nu; i++) {
    double v = kind == 2 ? aot_f16_to_f32(hh[i]) : fh[i];
    worst = fmax(worst, fabs(v - rh[i]));
  }
  if (worst > tol) fprintf(stderr, "GRU kind %d: worst error %g > %g\n", kind, worst, tol);
  assert_true(worst <= tol);
  free(x), free(h0), free(W), free(U), free(bx), free(bh), free(rseq), free(rh);
  free(fx), free(fh0), free(fW), free(fU), free(fbx), free(fbh), free(fseq), free(fh);
  free(hx), free(hh0), free(hW), free(hU), free(hbx), free(hbh), free(hseq), free(hh);
  free(pW), free(pU), free(pbx), free(pbh), free(qW), free(qU), free(qbx), free(qbh);
  free(scratch);
}

static const gru_case CASES[] = {
    /* nt nf nu ra gate cand back seq bx bh */
    {6, 5, 4, 1, AOT_GRU_SIGMOID, AOT_GRU_TANH, 0, 1, 1, 1},
    {5, 3, 6, 0, AOT_GRU_SIGMOID, AOT_GRU_TANH, 0, 1, 1, 0},
    {4, 4, 3, 1, AOT_GRU_HARD_SIGMOID, AOT_GRU_TANH, 1, 1, 1, 1},
    {7, 2, 5, 0, AOT_GRU_HARD_SIGMOID, AOT_GRU_LINEAR, 1, 0, 0, 1},
    {3, 6, 2, 1, AOT_GRU_SIGMOID, AOT_GRU_LINEAR, 0, 0, 0, 0},
    {12, 8, 16, 1, AOT_GRU_SIGMOID, AOT_GRU_TANH, 1, 1, 1, 1},
    {9, 13, 20, 0, AOT_GRU_SIGMOID, AOT_GRU_TANH, 1, 1, 1, 1},
    {8, 17, 24, 1, AOT_GRU_SIGMOID, AOT_GRU_TANH, 0, 1, 1, 1},
    {5, 1, 9, 0, AOT_GRU_SIGMOID, AOT_GRU_TANH, 0, 1, 0, 1},
};
#define NCASES (sizeof CASES / sizeof CASES[0])
/* projection blocks: all steps at once, 1, 2 and 3 steps per block */
static const int PROJ_STEPS[4] = {0, 1, 2, 3};

static void test_gru_f32(void **state) {
  (void)state;
  for (size_t i = 0; i < NCASES; i++)
    for (int q = 0; q < 4; q++) run_gru_case(&CASES[i], 0, 2e-5, 100 + (unsigned)i, PROJ_STEPS[q]);
}

static void test_gru_f32_f16w(void **state) {
  (void)state;
  for (size_t i = 0; i < NCASES; i++)
    for (int q = 0; q < 4; q++) run_gru_case(&CASES[i], 1, 2e-5, 200 + (unsigned)i, PROJ_STEPS[q]);
}

static void test_gru_f16(void **state) {
  (void)state;
  for (size_t i = 0; i < NCASES; i++)
    for (int q = 0; q < 4; q++) run_gru_case(&CASES[i], 2, 1e-2, 300 + (unsigned)i, PROJ_STEPS[q]);
}

static void test_gru_h0_aliases_hout(void **state) {
  (void)state;
  /* 1 step, 1 unit, 1 feature, hand-computed (reset_after, sigmoid, tanh):
   * z = s(0.5*1 + 0 + 1*0.2) = s(0.7), r = s(0), n = tanh(0.3 + 0.5 * (0.4*0.2))
   * h' = z*0.2 + (1-z)*n */
  aot_gru_params p = {1, 1, 1, 1, AOT_GRU_SIGMOID, AOT_GRU_TANH, 0, 1, 0};
  const float x[1] = {1.0f};
  /* packed: Up = 8, rows 0 (z), 8 (r), 16 (n), one column */
  float W[24] = {0}, U[24] = {0};
  float h[1] = {0.2f}, seq[1], scratch[64];
  W[0] = 0.5f, W[16] = 0.3f, U[0] = 1.0f, U[16] = 0.4f;
  assert_true(aot_gru_buffer_size(&p, AOT_GRU_KIND_F32) <= sizeof scratch);
  assert_int_equal(aot_gru_f32(&p, x, h, W, U, NULL, NULL, seq, h, scratch), 0);
  double z = 1 / (1 + exp(-0.7)), n = tanh(0.3 + 0.5 * 0.08), e = z * 0.2 + (1 - z) * n;
  assert_true(fabs(h[0] - e) < 1e-6);
  assert_true(fabs(seq[0] - e) < 1e-6);
}

/* ---- the op ------------------------------------------------------------------ */

static void put32(uint8_t *b, int32_t v) {
  uint32_t u = (uint32_t)v;
  b[0] = (uint8_t)u, b[1] = (uint8_t)(u >> 8), b[2] = (uint8_t)(u >> 16), b[3] = (uint8_t)(u >> 24);
}

static void test_op_gru(void **state) {
  (void)state;
  rng_seed(55);
  const int nt = 5, nf = 3, nu = 4;
  float W[36], U[48], bx[12], bh[12];
  for (int i = 0; i < 36; i++) W[i] = (float)(rng_unit() - 0.5);
  for (int i = 0; i < 48; i++) U[i] = (float)(rng_unit() - 0.5);
  for (int i = 0; i < 12; i++) bx[i] = (float)(rng_unit() * 0.2), bh[i] = (float)(rng_unit() * 0.2);
  tgraph G;
  tg_init(&G);
  int tx = tg_tensor(&G, DT_FLOAT32, 3, (int[]){1, nt, nf}, 0, 0, ROLE_INPUT, NULL);
  int th = tg_tensor(&G, DT_FLOAT32, 2, (int[]){1, nu}, 0, 0, ROLE_PERSISTENT, NULL);
  int tw = tg_tensor(&G, DT_FLOAT32, 2, (int[]){3 * nu, nf}, 0, 0, ROLE_CONST, W);
  int tu = tg_tensor(&G, DT_FLOAT32, 2, (int[]){3 * nu, nu}, 0, 0, ROLE_CONST, U);
  int tbx = tg_tensor(&G, DT_FLOAT32, 1, (int[]){3 * nu}, 0, 0, ROLE_CONST, bx);
  int tbh = tg_tensor(&G, DT_FLOAT32, 1, (int[]){3 * nu}, 0, 0, ROLE_CONST, bh);
  int ts = tg_tensor(&G, DT_FLOAT32, 3, (int[]){1, nt, nu}, 0, 0, ROLE_OUTPUT, NULL);
  int tho = tg_tensor(&G, DT_FLOAT32, 2, (int[]){1, nu}, 0, 0, ROLE_OUTPUT, NULL);
  ir_op *op = tg_op(&G, OP_CUSTOM, 6, (int[]){tx, th, tw, tu, tbx, tbh}, 2, (int[]){ts, tho}, NULL);
  op->custom = xstrdup("GRU");
  uint8_t opts[AOT_GRU_OPTIONS_SIZE];
  put32(opts, nu), put32(opts + 4, 1), put32(opts + 8, AOT_GRU_SIGMOID);
  put32(opts + 12, AOT_GRU_TANH), put32(opts + 16, 0), put32(opts + 20, 1);
  op->custom_options = opts;
  op->custom_options_len = sizeof opts;
  assert_ptr_equal(ops_find(&G.g, op), &op_gru);
  char why[256] = "";
  assert_int_equal(op_gru.check(&G.g, op, why, sizeof why), 0);
  void **data = tg_alloc_data(&G);
  double x[15], h0[4] = {0.1, -0.2, 0.3, 0.0}, dW[36], dU[48], dbx[12], dbh[12], rseq[20], rh[4];
  for (int i = 0; i < 15; i++) x[i] = ((float *)data[tx])[i] = (float)(rng_unit() * 2 - 1);
  for (int i = 0; i < 4; i++) ((float *)data[th])[i] = (float)h0[i], h0[i] = (float)h0[i];
  for (int i = 0; i < 36; i++) dW[i] = W[i];
  for (int i = 0; i < 48; i++) dU[i] = U[i];
  for (int i = 0; i < 12; i++) dbx[i] = bx[i], dbh[i] = bh[i];
  void *scratch = malloc(op_gru.scratch(&G.g, op));
  assert_int_equal(op_eval(&op_gru, &G.g, op, data, scratch), 0);
  gru_case c = {nt, nf, nu, 1, AOT_GRU_SIGMOID, AOT_GRU_TANH, 0, 1, 1, 1};
  ref_gru(&c, x, h0, dW, dU, dbx, dbh, rseq, rh);
  for (int i = 0; i < 20; i++) assert_true(fabs(((float *)data[ts])[i] - rseq[i]) < 1e-5);
  for (int i = 0; i < 4; i++) assert_true(fabs(((float *)data[tho])[i] - rh[i]) < 1e-5);
  /* refusals */
  op->custom_options_len = 20;
  assert_int_equal(op_gru.check(&G.g, op, why, sizeof why), -1);
  assert_non_null(strstr(why, "24"));
  op->custom_options_len = sizeof opts;
  put32(opts, 5);
  assert_int_equal(op_gru.check(&G.g, op, why, sizeof why), -1);
  put32(opts, nu);
  put32(opts + 8, 7);
  assert_int_equal(op_gru.check(&G.g, op, why, sizeof why), -1);
  assert_non_null(strstr(why, "gate activation"));
  put32(opts + 8, AOT_GRU_SIGMOID);
  put32(opts + 20, 0);   /* return_sequences 0 needs a U-sized output 0 */
  assert_int_equal(op_gru.check(&G.g, op, why, sizeof why), -1);
  free(scratch);
  tg_free_data(&G, data);
  op->custom_options = NULL;
  tg_free(&G);
}

/* A long sequence: the op computes the input projection in blocks of steps
 * (proj_steps < time_steps); float16 weights, reset_after 0, backwards. */
static void test_op_gru_blocks(void **state) {
  (void)state;
  rng_seed(77);
  enum { NT = 40, NF = 7, NU = 20 };
  static uint16_t W[3 * NU * NF], U[3 * NU * NU], bx[3 * NU], bh[3 * NU];
  static double dW[3 * NU * NF], dU[3 * NU * NU], dbx[3 * NU], dbh[3 * NU];
  static double x[NT * NF], h0[NU], rseq[NT * NU], rh[NU];
  for (int i = 0; i < 3 * NU * NF; i++) W[i] = aot_f32_to_f16((float)(rng_unit() - 0.5)), dW[i] = aot_f16_to_f32(W[i]);
  for (int i = 0; i < 3 * NU * NU; i++) U[i] = aot_f32_to_f16((float)(rng_unit() - 0.5)), dU[i] = aot_f16_to_f32(U[i]);
  for (int i = 0; i < 3 * NU; i++) {
    bx[i] = aot_f32_to_f16((float)(rng_unit() * 0.2)), dbx[i] = aot_f16_to_f32(bx[i]);
    bh[i] = aot_f32_to_f16((float)(rng_unit() * 0.2)), dbh[i] = aot_f16_to_f32(bh[i]);
  }
  tgraph G;
  tg_init(&G);
  int tx = tg_tensor(&G, DT_FLOAT32, 3, (int[]){1, NT, NF}, 0, 0, ROLE_INPUT, NULL);
  int th = tg_tensor(&G, DT_FLOAT32, 2, (int[]){1, NU}, 0, 0, ROLE_PERSISTENT, NULL);
  int tw = tg_tensor(&G, DT_FLOAT16, 2, (int[]){3 * NU, NF}, 0, 0, ROLE_CONST, W);
  int tu = tg_tensor(&G, DT_FLOAT16, 2, (int[]){3 * NU, NU}, 0, 0, ROLE_CONST, U);
  int tbx = tg_tensor(&G, DT_FLOAT16, 1, (int[]){3 * NU}, 0, 0, ROLE_CONST, bx);
  int tbh = tg_tensor(&G, DT_FLOAT16, 1, (int[]){3 * NU}, 0, 0, ROLE_CONST, bh);
  int ts = tg_tensor(&G, DT_FLOAT32, 3, (int[]){1, NT, NU}, 0, 0, ROLE_OUTPUT, NULL);
  ir_op *op = tg_op(&G, OP_CUSTOM, 6, (int[]){tx, th, tw, tu, tbx, tbh}, 1, (int[]){ts}, NULL);
  op->custom = xstrdup("GRU");
  uint8_t opts[AOT_GRU_OPTIONS_SIZE];
  put32(opts, NU), put32(opts + 4, 0), put32(opts + 8, AOT_GRU_SIGMOID);
  put32(opts + 12, AOT_GRU_TANH), put32(opts + 16, 1), put32(opts + 20, 1);
  op->custom_options = opts;
  op->custom_options_len = sizeof opts;
  char why[256] = "";
  assert_int_equal(op_gru.check(&G.g, op, why, sizeof why), 0);
  /* 3 x 24 packed rows: 288 bytes per step, blocks of 12 of the 40 steps */
  aot_gru_params p = {NT, NF, NU, 0, 0, 0, 1, 1, 12};
  assert_int_equal(op_gru.scratch(&G.g, op), aot_gru_buffer_size(&p, AOT_GRU_KIND_F32_F16W));
  void **data = tg_alloc_data(&G);
  for (int i = 0; i < NT * NF; i++) x[i] = ((float *)data[tx])[i] = (float)(rng_unit() * 2 - 1);
  for (int i = 0; i < NU; i++) h0[i] = ((float *)data[th])[i] = (float)(rng_unit() - 0.5);
  void *scratch = malloc(op_gru.scratch(&G.g, op));
  assert_int_equal(op_eval(&op_gru, &G.g, op, data, scratch), 0);
  gru_case c = {NT, NF, NU, 0, AOT_GRU_SIGMOID, AOT_GRU_TANH, 1, 1, 1, 1};
  ref_gru(&c, x, h0, dW, dU, dbx, dbh, rseq, rh);
  double worst = 0;
  for (int i = 0; i < NT * NU; i++) worst = fmax(worst, fabs(((float *)data[ts])[i] - rseq[i]));
  assert_true(worst < 2e-5);
  free(scratch);
  tg_free_data(&G, data);
  op->custom_options = NULL;
  tg_free(&G);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_f16_decode_exhaustive), cmocka_unit_test(test_f16_encode),
      cmocka_unit_test(test_gru_f32),               cmocka_unit_test(test_gru_f32_f16w),
      cmocka_unit_test(test_gru_f16),               cmocka_unit_test(test_gru_h0_aliases_hout),
      cmocka_unit_test(test_op_gru),                cmocka_unit_test(test_pack_index),
      cmocka_unit_test(test_gru_nonlinearities),    cmocka_unit_test(test_op_gru_blocks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
