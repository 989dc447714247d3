/* test_ref_f16.c - float16 operators in the host reference interpreter
 * (src/ref/ref_f16.c). Each test builds a one-op model whose tensors are all
 * float16 (inputs, constants, output), runs it with ref_run, and compares
 * every output with the operator's arithmetic written out here in double
 * precision on the decoded binary16 inputs, rounded to binary16: the result
 * must be that value or a neighbour (1 ulp: the float32 kernel rounds once
 * more, or approximates exp / tanh). The float16 rounding is also checked on
 * its own: an ADD whose exact sum is a binary16 tie must round to even. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_f16.h"
#include "io/npy.h"
#include "litert/litert.h"
#include "ref/ref.h"

static uint32_t rng = 99;
static double urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return (double)(rng >> 8) / 16777216.0;
}

static int tensor(litert_model *m, int rank, const int32_t *shape, const uint16_t *data, size_t n) {
  int b = data ? litert_add_buffer(m, data, n * 2) : 0;
  return litert_add_tensor(m, 0, data ? "const" : "act", DT_FLOAT16, rank, shape, b);
}

static void op(litert_model *m, int b, int nin, const int32_t *in, int out, int fused) {
  litert_options o;
  litert_options_default(&o);
  o.type = litert_builtin_options_type(b);
  o.fused_act = fused;
  if (b == OP_SOFTMAX) o.beta = 1.0f;
  int32_t outs[1] = {out};
  litert_add_op(m, 0, b, NULL, nin, in, 1, outs, &o);
  litert_options_free(&o);
}

/* runs m on the float16 inputs, returns output 0 (n values) */
static uint16_t *run(litert_model *m, int nin, uint16_t *const *in, const int64_t (*shape)[4],
                     const int *rank, size_t n) {
  npy_array a[4];
  aotc_diag d = {0};
  for (int i = 0; i < nin; i++) {
    char key[32];
    snprintf(key, sizeof key, "input_%d", i);
    assert_int_equal(npy_init(&a[i], key, DT_FLOAT16, rank[i], shape[i], in[i], &d), 0);
  }
  ref_options o = {1, 0, NULL, 0, 0, NULL};
  npy_array *out = NULL;
  int nout = 0;
  if (ref_run(m, a, nin, &o, &out, &nout, &d)) fail_msg("ref_run: %s", d.msg);
  assert_int_equal(out[0].dtype, DT_FLOAT16);
  assert_int_equal(out[0].count, n);
  uint16_t *r = malloc(n * 2);
  memcpy(r, out[0].data, n * 2);
  npz_free(out, nout);
  for (int i = 0; i < nin; i++) free(a[i].data), free(a[i].name);
  return r;
}

/* got within one binary16 step of want (rounded to binary16) */
static void expect_h(const uint16_t *got, const double *want, size_t n, const char *what) {
  for (size_t i = 0; i < n; i++) {
    uint16_t w = aot_f32_to_f16((float)want[i]);
    int d = (int)(got[i] & 0x7FFF) - (int)(w & 0x7FFF);
    int same_sign = (got[i] >> 15) == (w >> 15) || (got[i] & 0x7FFF) == 0 || (w & 0x7FFF) == 0;
    if (!same_sign || d < -1 || d > 1)
      fail_msg("%s element %zu: got %.6g, want %.6g", what, i, aot_f16_to_f32(got[i]), want[i]);
  }
}

static uint16_t *rand_h(size_t n, double lo, double hi) {
  uint16_t *h = malloc(n * 2);
  for (size_t i = 0; i < n; i++) h[i] = aot_f32_to_f16((float)(lo + (hi - lo) * urand()));
  return h;
}

static double H(uint16_t h) { return aot_f16_to_f32(h); }

/* binary elementwise ops and unary activations on [2, 8] */
static void test_elementwise(void **state) {
  (void)state;
  const int bins[] = {OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MAXIMUM, OP_MINIMUM};
  const int uns[] = {OP_LOGISTIC, OP_TANH, OP_RELU, OP_ABS, OP_NEG, OP_EXP};
  int32_t sh[2] = {2, 8};
  int64_t shl[4] = {2, 8};
  int64_t shapes[2][4] = {{2, 8}, {2, 8}};
  int ranks[2] = {2, 2};
  const size_t n = 16;
  for (size_t k = 0; k < sizeof bins / sizeof bins[0]; k++) {
    litert_model *m = litert_model_new();
    litert_add_subgraph(m, "main");
    int a = tensor(m, 2, sh, NULL, 0), b = tensor(m, 2, sh, NULL, 0), o = tensor(m, 2, sh, NULL, 0);
    int32_t in[2] = {a, b}, out[1] = {o};
    op(m, bins[k], 2, in, o, ACT_NONE);
    litert_set_io(m, 0, 2, in, 1, out);
    uint16_t *x = rand_h(n, -3, 3), *y = rand_h(n, 0.25, 4);
    uint16_t *ins[2] = {x, y};
    uint16_t *r = run(m, 2, ins, (const int64_t(*)[4])shapes, ranks, n);
    double want[16];
    for (size_t i = 0; i < n; i++) {
      double p = H(x[i]), q = H(y[i]);
      switch (bins[k]) {
        case OP_ADD: want[i] = p + q; break;
        case OP_SUB: want[i] = p - q; break;
        case OP_MUL: want[i] = p * q; break;
        case OP_DIV: want[i] = p / q; break;
        case OP_MAXIMUM: want[i] = p > q ? p : q; break;
        default: want[i] = p < q ? p : q; break;
      }
    }
    expect_h(r, want, n, litert_op_name(bins[k]));
    free(x), free(y), free(r);
    litert_model_free(m);
  }
  for (size_t k = 0; k < sizeof uns / sizeof uns[0]; k++) {
    litert_model *m = litert_model_new();
    litert_add_subgraph(m, "main");
    int a = tensor(m, 2, sh, NULL, 0), o = tensor(m, 2, sh, NULL, 0);
    int32_t in[1] = {a}, out[1] = {o};
    op(m, uns[k], 1, in, o, ACT_NONE);
    litert_set_io(m, 0, 1, in, 1, out);
    uint16_t *x = rand_h(n, -4, 4);
    uint16_t *ins[1] = {x};
    int64_t s1[1][4] = {{2, 8}};
    int r1[1] = {2};
    (void)shl;
    uint16_t *r = run(m, 1, ins, (const int64_t(*)[4])s1, r1, n);
    double want[16];
    for (size_t i = 0; i < n; i++) {
      double p = H(x[i]);
      switch (uns[k]) {
        case OP_LOGISTIC: want[i] = 1 / (1 + exp(-p)); break;
        case OP_TANH: want[i] = tanh(p); break;
        case OP_RELU: want[i] = p > 0 ? p : 0; break;
        case OP_ABS: want[i] = fabs(p); break;
        case OP_NEG: want[i] = -p; break;
        default: want[i] = exp(p); break;
      }
    }
    expect_h(r, want, n, litert_op_name(uns[k]));
    free(x), free(r);
    litert_model_free(m);
  }
}

/* FULLY_CONNECTED x [3, 20] . W [7, 20]^T + b [7], float16 constants, RELU fused */
static void test_fully_connected(void **state) {
  (void)state;
  litert_model *m = litert_model_new();
  litert_add_subgraph(m, "main");
  int32_t sx[2] = {3, 20}, sw[2] = {7, 20}, sb[1] = {7}, so[2] = {3, 7};
  uint16_t *w = rand_h(140, -0.5, 0.5), *bv = rand_h(7, -1, 1), *x = rand_h(60, -2, 2);
  int xt = tensor(m, 2, sx, NULL, 0), wt = tensor(m, 2, sw, w, 140), bt = tensor(m, 1, sb, bv, 7);
  int o = tensor(m, 2, so, NULL, 0);
  int32_t in[3] = {xt, wt, bt}, gi[1] = {xt}, go[1] = {o};
  op(m, OP_FULLY_CONNECTED, 3, in, o, ACT_RELU);
  litert_set_io(m, 0, 1, gi, 1, go);
  uint16_t *ins[1] = {x};
  int64_t s1[1][4] = {{3, 20}};
  int r1[1] = {2};
  uint16_t *r = run(m, 1, ins, (const int64_t(*)[4])s1, r1, 21);
  double want[21];
  for (int b = 0; b < 3; b++)
    for (int u = 0; u < 7; u++) {
      double acc = H(bv[u]);
      for (int k = 0; k < 20; k++) acc += H(x[b * 20 + k]) * H(w[u * 20 + k]);
      want[b * 7 + u] = acc > 0 ? acc : 0;
    }
  expect_h(r, want, 21, "FULLY_CONNECTED");
  free(w), free(bv), free(x), free(r);
  litert_model_free(m);
}

/* SOFTMAX over [2, 10] */
static void test_softmax(void **state) {
  (void)state;
  litert_model *m = litert_model_new();
  litert_add_subgraph(m, "main");
  int32_t sh[2] = {2, 10};
  int a = tensor(m, 2, sh, NULL, 0), o = tensor(m, 2, sh, NULL, 0);
  int32_t in[1] = {a}, out[1] = {o};
  op(m, OP_SOFTMAX, 1, in, o, ACT_NONE);
  litert_set_io(m, 0, 1, in, 1, out);
  uint16_t *x = rand_h(20, -5, 5);
  uint16_t *ins[1] = {x};
  int64_t s1[1][4] = {{2, 10}};
  int r1[1] = {2};
  uint16_t *r = run(m, 1, ins, (const int64_t(*)[4])s1, r1, 20);
  double want[20];
  for (int b = 0; b < 2; b++) {
    double mx = -1e30, sum = 0;
    for (int k = 0; k < 10; k++) mx = fmax(mx, H(x[b * 10 + k]));
    for (int k = 0; k < 10; k++) sum += exp(H(x[b * 10 + k]) - mx);
    for (int k = 0; k < 10; k++) want[b * 10 + k] = exp(H(x[b * 10 + k]) - mx) / sum;
  }
  expect_h(r, want, 20, "SOFTMAX");
  free(x), free(r);
  litert_model_free(m);
}

/* the float32 result is rounded to nearest even: 1 + 2^-11 is a tie between
 * 1 and 1 + 2^-10 (rounds to 1), 1 + 3 * 2^-11 rounds up to 1 + 2^-9 */
static void test_rounding(void **state) {
  (void)state;
  litert_model *m = litert_model_new();
  litert_add_subgraph(m, "main");
  int32_t sh[1] = {2};
  int a = tensor(m, 1, sh, NULL, 0), b = tensor(m, 1, sh, NULL, 0), o = tensor(m, 1, sh, NULL, 0);
  int32_t in[2] = {a, b}, out[1] = {o};
  op(m, OP_ADD, 2, in, o, ACT_NONE);
  litert_set_io(m, 0, 2, in, 1, out);
  uint16_t x[2] = {aot_f32_to_f16(1.0f), aot_f32_to_f16(1.0f + 0x1p-10f)};
  uint16_t y[2] = {aot_f32_to_f16(0x1p-11f), aot_f32_to_f16(0x1p-11f)};
  uint16_t *ins[2] = {x, y};
  int64_t s2[2][4] = {{2}, {2}};
  int r2[2] = {1, 1};
  uint16_t *r = run(m, 2, ins, (const int64_t(*)[4])s2, r2, 2);
  assert_int_equal(r[0], aot_f32_to_f16(1.0f));
  assert_int_equal(r[1], aot_f32_to_f16(1.0f + 0x1p-9f));
  free(r);
  litert_model_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_elementwise),
      cmocka_unit_test(test_fully_connected),
      cmocka_unit_test(test_softmax),
      cmocka_unit_test(test_rounding),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
