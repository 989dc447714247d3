/* test_kernels_recurrent.c - SVDF kernels and op_svdf.
 *
 * Expected values come from hand computation or from straightforward
 * references written here: integer references use int64 arithmetic and the
 * documented TFLite rounding (SaturatingRoundingDoublingHighMul: round to
 * nearest, ties away from zero for positive products and toward zero for
 * negative ones; RoundingDivideByPOT: ties away from zero), float references
 * use double precision. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_recurrent.h"
#include "ops/ops.h"
#include "test_kernels_recurrent_util.h"

extern const op_impl op_svdf;

/* ---- SVDF reference -------------------------------------------------------- */

typedef struct svdf_ref {
  int nb, ni, nf, nu, rank, nm;
  int in_zp, st_zp, out_zp;
  int32_t m1, s1, m2, s2;
} svdf_ref;

/* One step of the integer SVDF on int32 copies of the state. */
static void svdf_ref_step(const svdf_ref *r, const int8_t *x, const int8_t *wf, const int32_t *wt,
                          const int32_t *bias, int32_t *state, int st_min, int st_max,
                          int8_t *out) {
  int total = r->nb * r->nf * r->nm;
  for (int i = 0; i + 1 < total; i++) state[i] = state[i + 1];
  for (int b = 0; b < r->nb; b++)
    for (int f = 0; f < r->nf; f++) {
      int64_t dot = 0;
      for (int k = 0; k < r->ni; k++)
        dot += (int64_t)wf[f * r->ni + k] * (x[b * r->ni + k] - r->in_zp);
      int64_t v = ref_mbqm(dot, r->m1, r->s1) + r->st_zp;
      if (v < st_min) v = st_min;
      if (v > st_max) v = st_max;
      state[(b * r->nf + f) * r->nm + r->nm - 1] = (int32_t)v;
    }
  for (int b = 0; b < r->nb; b++)
    for (int u = 0; u < r->nu; u++) {
      int64_t acc = bias ? bias[u] : 0;
      for (int q = 0; q < r->rank; q++) {
        int f = u * r->rank + q;
        for (int t = 0; t < r->nm; t++)
          acc += (int64_t)wt[f * r->nm + t] * (state[(b * r->nf + f) * r->nm + t] - r->st_zp);
      }
      int64_t v = ref_mbqm(acc, r->m2, r->s2) + r->out_zp;
      out[b * r->nu + u] = (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
    }
}

/* Hand-computed case: 1 batch, 2 inputs, 2 filters, rank 1, memory 2,
 * multipliers exactly 0.5 (2^30, shift 0) and 0.25 (2^30, shift -1). */
static void test_svdf_s8_s16_hand(void **state) {
  (void)state;
  aot_svdf_params p = {.batch = 1, .input_size = 2, .num_filters = 2, .num_units = 2,
                       .rank = 1, .memory_size = 2, .input_zp = 1, .state_zp = 0,
                       .output_zp = -3, .mult1 = 1 << 30, .shift1 = 0,
                       .mult2 = 1 << 30, .shift2 = -1};
  const int8_t x[2] = {4, -2};          /* minus zp: 3, -3 */
  const int8_t wf[4] = {2, 1, -1, 5};   /* f0: 6-3=3 -> 1.5 -> 2 ; f1: -3-15=-18 -> -9 */
  const int16_t wt[4] = {10, 3, -2, 7}; /* [f][t] */
  const int32_t bias[2] = {5, -1};
  int16_t st[4] = {100, 7, -50, 11};    /* after shift: {7, -50, 11, x} */
  int8_t out[2];
  int32_t scratch[8];
  assert_int_equal(aot_svdf_s8_s16(&p, x, wf, wt, bias, st, out, scratch), 0);
  /* the flat state shifts left by one: f0 = [7, new], f1 = [11, new] */
  assert_int_equal(st[0], 7);
  assert_int_equal(st[1], 2);   /* f0 newest: mbqm(3, 0.5) = 1.5 -> 2 */
  assert_int_equal(st[2], 11);
  assert_int_equal(st[3], -9);  /* f1 newest: mbqm(-18, 0.5) = -9 */
  /* unit0 = 5 + 10*7 + 3*2 = 81; x 0.25 with TFLite's double rounding:
   *   high mul 81/2 = 40.5 -> 41, then 41/2 = 20.5 -> 21; -3 -> 18
   * unit1 = -1 + (-2)*11 + 7*(-9) = -86; high mul -43 (the negative tie goes
   *   toward zero), then -21.5 -> -22 (ties away); -3 -> -25 */
  assert_int_equal(out[0], 18);
  assert_int_equal(out[1], -25);
}

static void svdf_random_case(int state16, int nb, int ni, int nu, int rank, int nm, int steps,
                             unsigned seed) {
  rng_seed(seed);
  int nf = nu * rank;
  svdf_ref r = {nb, ni, nf, nu, rank, nm, rng_int(-128, 127), state16 ? 0 : rng_int(-60, 60),
                rng_int(-20, 20), 0, 0, 0, 0};
  int sh;
  quantize_multiplier(0.0021 + rng_unit() * 0.01, &r.m1, &sh);
  r.s1 = sh;
  quantize_multiplier(state16 ? 0.00007 + rng_unit() * 0.0002 : 0.004 + rng_unit() * 0.01,
                      &r.m2, &sh);
  r.s2 = sh;
  aot_svdf_params p = {.batch = nb, .input_size = ni, .num_filters = nf, .num_units = nu,
                       .rank = rank, .memory_size = nm, .input_zp = r.in_zp, .state_zp = r.st_zp,
                       .output_zp = r.out_zp, .mult1 = r.m1, .shift1 = r.s1, .mult2 = r.m2,
                       .shift2 = r.s2};
  int8_t *x = calloc((size_t)nb * ni, 1), *wf = calloc((size_t)nf * ni, 1);
  int32_t *wt32 = calloc((size_t)nf * nm, 4), *bias = calloc((size_t)nu, 4);
  int16_t *wt16 = calloc((size_t)nf * nm, 2), *st16 = calloc((size_t)nb * nf * nm, 2);
  int8_t *wt8 = calloc((size_t)nf * nm, 1), *st8 = calloc((size_t)nb * nf * nm, 1);
  int32_t *rst = calloc((size_t)nb * nf * nm, 4);
  int8_t *out = calloc((size_t)nb * nu, 1), *rout = calloc((size_t)nb * nu, 1);
  int32_t *scratch = malloc(aot_svdf_s8_buffer_size(nb, nf, nu));
  for (int i = 0; i < nf * ni; i++) wf[i] = (int8_t)rng_int(-127, 127);
  for (int i = 0; i < nf * nm; i++) {
    wt32[i] = state16 ? rng_int(-32767, 32767) : rng_int(-127, 127);
    wt16[i] = (int16_t)wt32[i];
    wt8[i] = (int8_t)wt32[i];
  }
  for (int i = 0; i < nu; i++) bias[i] = rng_int(-40000, 40000);
  for (int i = 0; i < nb * nf * nm; i++) {
    rst[i] = r.st_zp;
    st16[i] = (int16_t)rst[i];
    st8[i] = (int8_t)rst[i];
  }
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < nb * ni; i++) x[i] = (int8_t)rng_int(-128, 127);
    svdf_ref_step(&r, x, wf, wt32, bias, rst, state16 ? -32768 : -128, state16 ? 32767 : 127,
                  rout);
    int32_t st;
    if (state16)
      st = aot_svdf_s8_s16(&p, x, wf, wt16, bias, st16, out, scratch);
    else
      st = aot_svdf_s8_s8(&p, x, wf, wt8, bias, st8, out, scratch);
    assert_int_equal(st, 0);
    for (int i = 0; i < nb * nf * nm; i++)
      assert_int_equal(state16 ? st16[i] : st8[i], rst[i]);
    for (int i = 0; i < nb * nu; i++) assert_int_equal(out[i], rout[i]);
  }
  free(x), free(wf), free(wt32), free(bias), free(wt16), free(st16), free(wt8), free(st8);
  free(rst), free(out), free(rout), free(scratch);
}

static void test_svdf_s8_s16_random(void **state) {
  (void)state;
  svdf_random_case(1, 1, 12, 4, 1, 5, 9, 11);
  svdf_random_case(1, 2, 7, 3, 2, 4, 6, 12);
}

static void test_svdf_s8_s8_random(void **state) {
  (void)state;
  svdf_random_case(0, 1, 16, 4, 1, 8, 12, 21);
  svdf_random_case(0, 3, 5, 2, 3, 3, 7, 22);
}

static void test_svdf_s8_s8_saturation(void **state) {
  (void)state;
  /* state zero point 100: the projection 50 + 100 = 150 must saturate to 127
   * (the zero point is added before the clamp). */
  aot_svdf_params p = {.batch = 1, .input_size = 1, .num_filters = 1, .num_units = 1,
                       .rank = 1, .memory_size = 1, .input_zp = 0, .state_zp = 100,
                       .output_zp = 0, .mult1 = 1 << 30, .shift1 = 1,
                       .mult2 = 1 << 30, .shift2 = 1};
  const int8_t x[1] = {25}, wf[1] = {2}, wt[1] = {1};
  int8_t st[1] = {0}, out[1];
  int32_t scratch[2];
  assert_int_equal(aot_svdf_s8_s8(&p, x, wf, wt, NULL, st, out, scratch), 0);
  assert_int_equal(st[0], 127);   /* 50 * 2 * 0.5 = 50, + 100 = 150 -> 127 */
  assert_int_equal(out[0], 27);   /* (127 - 100) * 1 */
}

static void test_svdf_f32(void **state) {
  (void)state;
  rng_seed(5);
  const int nb = 2, ni = 5, nu = 3, rank = 2, nf = 6, nm = 4;
  float x[10], wf[30], wt[24], bias[3], st[48], out[6], scratch[12];
  double dst[48];
  for (int i = 0; i < 30; i++) wf[i] = (float)(rng_unit() * 2 - 1);
  for (int i = 0; i < 24; i++) wt[i] = (float)(rng_unit() * 2 - 1);
  for (int i = 0; i < 3; i++) bias[i] = (float)(rng_unit() - 0.5);
  for (int i = 0; i < 48; i++) st[i] = 0.0f, dst[i] = 0.0;
  for (int act = 0; act < 2; act++) {
    aot_svdf_params p = {.batch = nb, .input_size = ni, .num_filters = nf, .num_units = nu,
                         .rank = rank, .memory_size = nm,
                         .activation = act ? AOT_ACT_RELU : AOT_ACT_NONE};
    for (int s = 0; s < 5; s++) {
      for (int i = 0; i < 10; i++) x[i] = (float)(rng_unit() * 4 - 2);
      assert_int_equal(aot_svdf_f32(&p, x, wf, wt, bias, st, out, scratch), 0);
      for (int i = 0; i + 1 < 48; i++) dst[i] = dst[i + 1];
      for (int b = 0; b < nb; b++)
        for (int f = 0; f < nf; f++) {
          double d = 0;
          for (int k = 0; k < ni; k++) d += (double)wf[f * ni + k] * x[b * ni + k];
          dst[(b * nf + f) * nm + nm - 1] = d;
        }
      for (int i = 0; i < 48; i++) assert_true(fabs(st[i] - dst[i]) < 1e-5);
      for (int b = 0; b < nb; b++)
        for (int u = 0; u < nu; u++) {
          double a = bias[u];
          for (int q = 0; q < rank; q++)
            for (int t = 0; t < nm; t++)
              a += (double)wt[(u * rank + q) * nm + t] * dst[(b * nf + u * rank + q) * nm + t];
          if (act && a < 0) a = 0;
          assert_true(fabs(out[b * nu + u] - a) < 1e-4);
        }
    }
  }
}

/* ---- op_svdf through a hand-built IR graph ------------------------------- */

static void test_op_svdf_eval_int8(void **state) {
  (void)state;
  rng_seed(77);
  tgraph G;
  tg_init(&G);
  const int nb = 1, ni = 6, nu = 2, rank = 2, nf = 4, nm = 3;
  int8_t wf[24], wt[12];
  int32_t bias[2] = {300, -200};
  for (int i = 0; i < 24; i++) wf[i] = (int8_t)rng_int(-127, 127);
  for (int i = 0; i < 12; i++) wt[i] = (int8_t)rng_int(-127, 127);
  int tx = tg_tensor(&G, DT_INT8, 2, (int[]){nb, ni}, 0.05f, -10, ROLE_INPUT, NULL);
  int twf = tg_tensor(&G, DT_INT8, 2, (int[]){nf, ni}, 0.009f, 0, ROLE_CONST, wf);
  int twt = tg_tensor(&G, DT_INT8, 2, (int[]){nf, nm}, 0.015f, 0, ROLE_CONST, wt);
  int tb = tg_tensor(&G, DT_INT32, 1, (int[]){nu}, 0.8f * 0.015f, 0, ROLE_CONST, bias);
  int tst = tg_tensor(&G, DT_INT8, 2, (int[]){nb, nm * nf}, 0.8f, -50, ROLE_PERSISTENT, NULL);
  int to = tg_tensor(&G, DT_INT8, 2, (int[]){nb, nu}, 0.23f, -7, ROLE_OUTPUT, NULL);
  litert_options o;
  memset(&o, 0, sizeof o);
  o.rank = rank;
  o.fused_act = ACT_RELU;
  ir_op *op = tg_op(&G, OP_SVDF, 5, (int[]){tx, twf, twt, tb, tst}, 1, (int[]){to}, &o);
  const op_impl *impl = &op_svdf;
  char why[256] = "";
  assert_int_equal(impl->check(&G.g, op, why, sizeof why), 0);
  /* reference multipliers: float products as TFLM computes them */
  svdf_ref r = {nb, ni, nf, nu, rank, nm, -10, -50, -7, 0, 0, 0, 0};
  int sh;
  float e1 = 0.05f * 0.009f / 0.8f, e2 = 0.8f * 0.015f / 0.23f;
  ref_quantize_multiplier((double)e1, &r.m1, &sh);
  r.s1 = sh;
  ref_quantize_multiplier((double)e2, &r.m2, &sh);
  r.s2 = sh;
  void **data = tg_alloc_data(&G);
  memset(data[tst], -50, (size_t)nb * nm * nf);
  int32_t rst[12], wt32[12];
  int8_t rout[2];
  for (int i = 0; i < 12; i++) rst[i] = -50, wt32[i] = wt[i];
  size_t sb = impl->scratch(&G.g, op);
  assert_true(sb >= aot_svdf_s8_buffer_size(nb, nf, nu));
  void *scratch = malloc(sb);
  for (int s = 0; s < 4; s++) {
    int8_t *x = data[tx];
    for (int i = 0; i < ni; i++) x[i] = (int8_t)rng_int(-128, 127);
    assert_int_equal(op_eval(impl, &G.g, op, data, scratch), 0);
    svdf_ref_step(&r, x, wf, wt32, bias, rst, -128, 127, rout);
    for (int i = 0; i < 12; i++) assert_int_equal(((int8_t *)data[tst])[i], rst[i]);
    for (int i = 0; i < nu; i++) assert_int_equal(((int8_t *)data[to])[i], rout[i]);
  }
  free(scratch);
  tg_free_data(&G, data);
  tg_free(&G);
}

static void test_op_svdf_check_refuses(void **state) {
  (void)state;
  tgraph G;
  tg_init(&G);
  /* the litert-testdata svdf models: 6 filters, memory 7, state 9 */
  int tx = tg_tensor(&G, DT_INT8, 2, (int[]){1, 4}, 0.07f, -128, ROLE_INPUT, NULL);
  int twf = tg_tensor(&G, DT_INT8, 2, (int[]){6, 4}, 0.00076f, 0, ROLE_CONST, NULL);
  int twt = tg_tensor(&G, DT_INT16, 2, (int[]){6, 7}, 0.00019f, 0, ROLE_CONST, NULL);
  int tb = tg_tensor(&G, DT_INT32, 1, (int[]){6}, 7e-7f, 0, ROLE_CONST, NULL);
  int tst = tg_tensor(&G, DT_INT16, 2, (int[]){1, 9}, 0.0039f, 0, ROLE_PERSISTENT, NULL);
  int to = tg_tensor(&G, DT_INT8, 2, (int[]){1, 4}, 0.157f, -128, ROLE_OUTPUT, NULL);
  litert_options o;
  memset(&o, 0, sizeof o);
  o.rank = 1;
  ir_op *op = tg_op(&G, OP_SVDF, 5, (int[]){tx, twf, twt, tb, tst}, 1, (int[]){to}, &o);
  char why[256] = "";
  assert_int_equal(op_svdf.check(&G.g, op, why, sizeof why), -1);
  assert_non_null(strstr(why, "9"));
  assert_non_null(strstr(why, "42"));
  assert_non_null(strstr(why, "state"));
  /* rank 0 refused */
  G.g.t[tst].shape[1] = 42;
  o.rank = 0;
  op->opts.rank = 0;
  assert_int_equal(op_svdf.check(&G.g, op, why, sizeof why), -1);
  /* state not variable refused */
  op->opts.rank = 2;
  G.g.t[to].shape[1] = 3;
  assert_int_equal(op_svdf.check(&G.g, op, why, sizeof why), -1); /* bias [6] vs units 3 */
  G.g.t[tb].shape[0] = 3;
  assert_int_equal(op_svdf.check(&G.g, op, why, sizeof why), 0);
  G.g.t[tst].role = ROLE_SCRATCH;
  assert_int_equal(op_svdf.check(&G.g, op, why, sizeof why), -1);
  assert_non_null(strstr(why, "variable"));
  tg_free(&G);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_svdf_s8_s16_hand),     cmocka_unit_test(test_svdf_s8_s16_random),
      cmocka_unit_test(test_svdf_s8_s8_random),    cmocka_unit_test(test_svdf_s8_s8_saturation),
      cmocka_unit_test(test_svdf_f32),             cmocka_unit_test(test_op_svdf_eval_int8),
      cmocka_unit_test(test_op_svdf_check_refuses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
