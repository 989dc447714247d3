/* test_kernels_gru_s8w.c - the hybrid (int8 weight) GRU kernel
 * aot_gru_f32_s8w against a direct implementation of the Keras GRU equations
 * whose six projections are hybrid FULLY_CONNECTED ops: each input row
 * (x_t, h, and r * h for reset_after = 0) quantized with
 * aot_hybrid_quantize_qd8 (the conversion of aot_fc_hybrid), the int8
 * products summed in int64, scaled back. The dynamic quantization is
 * discontinuous (a state differing in the last bit can round one value to
 * the next integer), so each step is checked on its own: the reference step
 * starts from the kernel's previous state, and the nonlinearities are the
 * kernels' aot_gru_sigmoid / aot_gru_tanh (checked against double precision
 * in test_kernels_recurrent_gru.c). Row order, padding, per-row / per-tensor
 * scales, both reset_after forms, hard sigmoid, linear candidate,
 * go_backwards and return_sequences are covered, with units and features
 * that are not multiples of 8 or 16. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_conv.h"
#include "aot_gru.h"
#include "aot_recurrent.h"

static uint32_t rng = 12345;
static double urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return (double)(rng >> 8) / 16777216.0;
}

/* one hybrid FC row set: out[R] = acc * s * scale[R] + bias[R] (the same
 * float operations the LiteRT / XNNPACK hybrid FC performs) */
static void ref_fc(const int8_t *w, const float *scale, const float *bias, int rows, int n,
                   const float *v, double *out) {
  int8_t *q = malloc((size_t)n);
  float s;
  int32_t zp;
  aot_hybrid_quantize_qd8(v, n, q, &s, &zp);
  for (int r = 0; r < rows; r++) {
    int64_t acc = 0;
    for (int k = 0; k < n; k++) acc += (int64_t)w[(size_t)r * n + k] * ((int64_t)q[k] - zp);
    float f = (float)acc * s;
    f *= scale[r];
    if (bias) f += bias[r];
    out[r] = f;
  }
  free(q);
}

static float gate(int act, float v) {
  return act == AOT_GRU_HARD_SIGMOID ? fminf(1.0f, fmaxf(0.0f, 0.2f * v + 0.5f))
                                     : aot_gru_sigmoid(v);
}

static void run_case(int U, int F, int T, int reset_after, int hard, int linear, int back,
                     int seq, int per_tensor) {
  const int up = aot_gru_padded_units(U);
  int8_t *W = calloc((size_t)3 * U * F, 1), *Uw = calloc((size_t)3 * U * U, 1);
  float *ws = calloc((size_t)3 * U, 4), *us = calloc((size_t)3 * U, 4);
  float *bx = calloc((size_t)3 * U, 4), *bh = calloc((size_t)3 * U, 4);
  for (int i = 0; i < 3 * U * F; i++) W[i] = (int8_t)((int)(urand() * 255) - 127);
  for (int i = 0; i < 3 * U * U; i++) Uw[i] = (int8_t)((int)(urand() * 255) - 127);
  for (int r = 0; r < 3 * U; r++) {
    ws[r] = per_tensor ? 0.004f : (float)(0.001 + 0.01 * urand());
    us[r] = per_tensor ? 0.003f : (float)(0.001 + 0.01 * urand());
    bx[r] = (float)(urand() - 0.5);
    bh[r] = (float)(urand() - 0.5);
  }
  float *x = malloc(sizeof(float) * (size_t)T * F), *h0 = malloc(sizeof(float) * U);
  for (int i = 0; i < T * F; i++) x[i] = (float)(4 * urand() - 2);
  for (int j = 0; j < U; j++) h0[j] = j % 3 == 0 ? 0.0f : (float)(urand() - 0.5);
  /* the kernel's packed layout: rows g * up + j, zero rows and scales */
  int8_t *Wp = calloc((size_t)3 * up * F, 1), *Up = calloc((size_t)3 * up * U, 1);
  float *wsp = calloc((size_t)3 * up, 4), *usp = calloc((size_t)3 * up, 4);
  float *bxp = calloc((size_t)3 * up, 4), *bhp = calloc((size_t)3 * up, 4);
  for (int g = 0; g < 3; g++)
    for (int j = 0; j < U; j++) {
      memcpy(Wp + ((size_t)g * up + j) * F, W + ((size_t)g * U + j) * F, (size_t)F);
      memcpy(Up + ((size_t)g * up + j) * U, Uw + ((size_t)g * U + j) * U, (size_t)U);
      wsp[g * up + j] = ws[g * U + j], usp[g * up + j] = us[g * U + j];
      bxp[g * up + j] = bx[g * U + j], bhp[g * up + j] = bh[g * U + j];
    }
  aot_gru_params p = {.time_steps = T, .features = F, .units = U, .reset_after = reset_after,
                      .gate_act = hard ? AOT_GRU_HARD_SIGMOID : AOT_GRU_SIGMOID,
                      .cand_act = linear ? AOT_GRU_LINEAR : AOT_GRU_TANH,
                      .go_backwards = back, .return_sequences = 1, .proj_steps = 0};
  float *scratch = malloc(aot_gru_buffer_size(&p, AOT_GRU_KIND_F32_S8W));
  float *so = malloc(sizeof(float) * (size_t)T * U), *ho = malloc(sizeof(float) * U);
  assert_int_equal(aot_gru_f32_s8w(&p, x, h0, Wp, wsp, Up, usp, bxp, bhp, so, ho, scratch),
                   AOT_KERNEL_OK);
  if (!seq) {
    /* only the last step, the same bits */
    float *last = malloc(sizeof(float) * U), *ho2 = malloc(sizeof(float) * U);
    p.return_sequences = 0;
    assert_int_equal(aot_gru_f32_s8w(&p, x, h0, Wp, wsp, Up, usp, bxp, bhp, last, ho2, scratch),
                     AOT_KERNEL_OK);
    assert_memory_equal(last, so + (size_t)(T - 1) * U, sizeof(float) * U);
    assert_memory_equal(ho2, ho, sizeof(float) * U);
    free(last), free(ho2);
  }
  /* reference */
  float *h = malloc(sizeof(float) * U), *rh = malloc(sizeof(float) * U);
  double *gx = malloc(sizeof(double) * 3 * U), *gh = malloc(sizeof(double) * 3 * U);
  for (int s = 0; s < T; s++) {
    int t = back ? T - 1 - s : s;
    memcpy(h, s ? so + (size_t)(s - 1) * U : h0, sizeof(float) * U);
    ref_fc(W, ws, bx, 3 * U, F, x + (size_t)t * F, gx);
    ref_fc(Uw, us, bh, 3 * U, U, h, gh);
    float z[512], r[512];
    for (int j = 0; j < U; j++) {
      z[j] = gate(p.gate_act, (float)gx[j] + (float)gh[j]);
      r[j] = gate(p.gate_act, (float)gx[U + j] + (float)gh[U + j]);
    }
    if (!reset_after) {
      for (int j = 0; j < U; j++) rh[j] = r[j] * h[j];
      ref_fc(Uw + (size_t)2 * U * U, us + 2 * U, bh + 2 * U, U, U, rh, gh + 2 * U);
    }
    for (int j = 0; j < U; j++) {
      float a = reset_after ? (float)gx[2 * U + j] + r[j] * (float)gh[2 * U + j]
                            : (float)gx[2 * U + j] + (float)gh[2 * U + j];
      float c = linear ? a : aot_gru_tanh(a);
      float hn = z[j] * h[j] + (1.0f - z[j]) * c;
      double e = fabs((double)so[(size_t)s * U + j] - hn);
      if (!(e <= 1e-6 + 1e-5 * fabs(hn)))
        fail_msg("U %d F %d T %d ra %d step %d unit %d: kernel %.9g reference %.9g", U, F, T,
                 reset_after, s, j, so[(size_t)s * U + j], hn);
    }
  }
  assert_memory_equal(ho, so + (size_t)(T - 1) * U, sizeof(float) * U);
  free(W), free(Uw), free(ws), free(us), free(bx), free(bh), free(x), free(h0), free(Wp);
  free(Up), free(wsp), free(usp), free(bxp), free(bhp), free(scratch), free(so), free(ho);
  free(h), free(rh), free(gx), free(gh);
}

static void test_gru_s8w_forms(void **state) {
  (void)state;
  static const int shapes[][3] = {{5, 3, 4}, {8, 16, 3}, {13, 17, 6}, {64, 40, 5}, {1, 1, 2}};
  for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++)
    for (int ra = 0; ra < 2; ra++)
      for (int v = 0; v < 4; v++)
        run_case(shapes[c][0], shapes[c][1], shapes[c][2], ra, v == 1, v == 2, v == 3, v != 2,
                 (int)(c + v) % 2);
}

/* the kernel must reject what it cannot run */
static void test_gru_s8w_bad_params(void **state) {
  (void)state;
  aot_gru_params p = {.time_steps = 2, .features = 2, .units = 2, .gate_act = 7};
  int8_t w[48] = {0};
  float s[24] = {0}, x[4] = {0}, h[2] = {0}, out[4], sc[64];
  assert_int_equal(aot_gru_f32_s8w(&p, x, h, w, s, w, s, NULL, NULL, out, NULL, sc),
                   AOT_KERNEL_BAD_PARAM);
  p.gate_act = AOT_GRU_SIGMOID;
  assert_int_equal(aot_gru_f32_s8w(&p, x, h, w, NULL, w, s, NULL, NULL, out, NULL, sc),
                   AOT_KERNEL_BAD_PARAM);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gru_s8w_forms),
      cmocka_unit_test(test_gru_s8w_bad_params),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
