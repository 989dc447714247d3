/* test_verify_control.c - the compiler and the reference interpreter agree
 * on which control-flow wirings are valid (src/ir/verify_control.c, issue 11
 * classes 1-3 and 5): every hostile model built here in memory is refused by
 * compile_litert() AND by ref_run() with the same one-line message naming
 * the subgraph and op; a valid WHILE and a valid IF are accepted by both and
 * the reference computes the right values. Also: a WHILE without loop
 * variables runs in the reference without leaking its condition value (the
 * test binary runs under LeakSanitizer, so a leak fails it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "io/npy.h"
#include "ir/verify_control.h"
#include "litert/litert.h"
#include "ref/ref.h"

static litert_model *M;

static int T(int sg, const char *name, int dt, int n) {
  int32_t s[1] = {n};
  return litert_add_tensor(M, sg, name, dt, 1, s, 0);
}

static int C(int sg, const char *name, int dt, int n, const void *data, size_t es) {
  int32_t s[1] = {n};
  return litert_add_tensor(M, sg, name, dt, 1, s, litert_add_buffer(M, data, es * (size_t)n));
}

static void op(int sg, int b, int nin, const int32_t *in, int nout, const int32_t *out, int s1, int s2) {
  litert_options o;
  litert_options_default(&o);
  o.type = litert_builtin_options_type(b);
  if (b == OP_WHILE) o.cond_subgraph = s1, o.body_subgraph = s2;
  if (b == OP_IF) o.then_subgraph = s1, o.else_subgraph = s2;
  if (b == OP_CALL_ONCE) o.init_subgraph = s1;
  litert_add_op(M, sg, b, NULL, nin, in, nout, out, &o);
}

/* cond: i < 3 */
static int cond_sg(void) {
  int s = litert_add_subgraph(M, "cond");
  int i = T(s, "i", DT_INT32, 1), v = T(s, "v", DT_FLOAT32, 2);
  int32_t three = 3;
  int c = C(s, "three", DT_INT32, 1, &three, 4), go = T(s, "go", DT_BOOL, 1);
  op(s, OP_LESS, 2, (int32_t[]){i, c}, 1, (int32_t[]){go}, 0, 0);
  litert_set_io(M, s, 2, (int32_t[]){i, v}, 1, (int32_t[]){go});
  return s;
}

/* body: i + 1, v + v */
static int body_sg(void) {
  int s = litert_add_subgraph(M, "body");
  int i = T(s, "i", DT_INT32, 1), v = T(s, "v", DT_FLOAT32, 2);
  int32_t one = 1;
  int c = C(s, "one", DT_INT32, 1, &one, 4);
  int i2 = T(s, "i2", DT_INT32, 1), v2 = T(s, "v2", DT_FLOAT32, 2);
  op(s, OP_ADD, 2, (int32_t[]){i, c}, 1, (int32_t[]){i2}, 0, 0);
  op(s, OP_ADD, 2, (int32_t[]){v, v}, 1, (int32_t[]){v2}, 0, 0);
  litert_set_io(M, s, 2, (int32_t[]){i, v}, 2, (int32_t[]){i2, v2});
  return s;
}

/* branch: y = relu(x) */
static int branch_sg(const char *name) {
  int s = litert_add_subgraph(M, name);
  int x = T(s, "x", DT_FLOAT32, 2), y = T(s, "y", DT_FLOAT32, 2);
  op(s, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y}, 0, 0);
  litert_set_io(M, s, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  return s;
}

enum { K_OK_WHILE, K_OK_IF, K_REC_BODY, K_REC_IF_AB, K_ABSENT_VAR, K_ABSENT_COND, K_COND_IS_BODY,
       K_ONCE_IO, K_CONST_SUB_IN, K_CONST_MODEL_IN, K_NO_OUTPUTS, K_DEEP, K_WHILE_NO_VARS, K_COUNT };

/* main of a WHILE model: inputs i [1] int32, v [2] float32 */
static void main_while(int c, int b, int absent) {
  int i = T(0, "i", DT_INT32, 1), v = T(0, "v", DT_FLOAT32, 2);
  int io = T(0, "i_out", DT_INT32, 1), vo = T(0, "v_out", DT_FLOAT32, 2);
  op(0, OP_WHILE, 2, (int32_t[]){absent ? -1 : i, v}, 2, (int32_t[]){io, vo}, c, b);
  litert_set_io(M, 0, 2, (int32_t[]){i, v}, 2, (int32_t[]){io, vo});
}

/* main of an IF model: inputs c [1] bool, x [2] float32 */
static void main_if(int t, int e, int absent) {
  int c = T(0, "c", DT_BOOL, 1), x = T(0, "x", DT_FLOAT32, 2), y = T(0, "y", DT_FLOAT32, 2);
  op(0, OP_IF, 2, (int32_t[]){absent ? -1 : c, x}, 1, (int32_t[]){y}, t, e);
  litert_set_io(M, 0, 2, (int32_t[]){c, x}, 1, (int32_t[]){y});
}

static litert_model *build(int k) {
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  switch (k) {
    case K_OK_WHILE: { int c = cond_sg(), b = body_sg(); main_while(c, b, 0); break; }
    case K_OK_IF: { int t = branch_sg("then"), e = branch_sg("else"); main_if(t, e, 0); break; }
    case K_REC_BODY: {
      int c = cond_sg();
      int b = litert_add_subgraph(M, "body");
      int i = T(b, "i", DT_INT32, 1), v = T(b, "v", DT_FLOAT32, 2);
      int i2 = T(b, "i2", DT_INT32, 1), v2 = T(b, "v2", DT_FLOAT32, 2);
      op(b, OP_WHILE, 2, (int32_t[]){i, v}, 2, (int32_t[]){i2, v2}, c, b);
      litert_set_io(M, b, 2, (int32_t[]){i, v}, 2, (int32_t[]){i2, v2});
      main_while(c, b, 0);
      break;
    }
    case K_REC_IF_AB: {
      int a = litert_add_subgraph(M, "A"), b = litert_add_subgraph(M, "B");
      for (int j = 0; j < 2; j++) {
        int s = j ? b : a;
        int c = T(s, "c", DT_BOOL, 1), x = T(s, "x", DT_FLOAT32, 2), y = T(s, "y", DT_FLOAT32, 2);
        op(s, OP_IF, 2, (int32_t[]){c, x}, 1, (int32_t[]){y}, j ? a : b, j ? a : b);
        litert_set_io(M, s, 2, (int32_t[]){c, x}, 1, (int32_t[]){y});
      }
      int c = T(0, "c", DT_BOOL, 1), x = T(0, "x", DT_FLOAT32, 2), y = T(0, "y", DT_FLOAT32, 2);
      op(0, OP_IF, 3, (int32_t[]){c, c, x}, 1, (int32_t[]){y}, a, a);
      litert_set_io(M, 0, 2, (int32_t[]){c, x}, 1, (int32_t[]){y});
      break;
    }
    case K_ABSENT_VAR: { int c = cond_sg(), b = body_sg(); main_while(c, b, 1); break; }
    case K_ABSENT_COND: { int t = branch_sg("then"), e = branch_sg("else"); main_if(t, e, 1); break; }
    case K_COND_IS_BODY: { int c = cond_sg(); main_while(c, c, 0); break; }
    case K_ONCE_IO: {
      int s = branch_sg("init_with_io");
      int x = T(0, "x", DT_FLOAT32, 2), y = T(0, "y", DT_FLOAT32, 2);
      op(0, OP_CALL_ONCE, 0, NULL, 0, NULL, s, 0);
      op(0, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y}, 0, 0);
      litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
      break;
    }
    case K_CONST_SUB_IN: {
      int t = litert_add_subgraph(M, "then");
      float k2[2] = {1, -1};
      int x = C(t, "x", DT_FLOAT32, 2, k2, 4), y = T(t, "y", DT_FLOAT32, 2);
      op(t, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y}, 0, 0);
      litert_set_io(M, t, 1, (int32_t[]){x}, 1, (int32_t[]){y});
      main_if(t, branch_sg("else"), 0);
      break;
    }
    case K_CONST_MODEL_IN: {
      float k2[2] = {1, -1};
      int x = C(0, "x", DT_FLOAT32, 2, k2, 4), y = T(0, "y", DT_FLOAT32, 2);
      op(0, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y}, 0, 0);
      litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
      break;
    }
    case K_NO_OUTPUTS: {
      int x = T(0, "x", DT_FLOAT32, 2), y = T(0, "y", DT_FLOAT32, 2);
      op(0, OP_MUL, 2, (int32_t[]){x, x}, 0, NULL, 0, 0);
      op(0, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y}, 0, 0);
      litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
      break;
    }
    case K_DEEP: {
      /* 70 nested IFs: main -> 1 -> ... -> 69 */
      int n = 70;
      for (int s = 1; s < n; s++) litert_add_subgraph(M, "level");
      for (int s = n - 1; s >= 0; s--) {
        int c = T(s, "c", DT_BOOL, 1), x = T(s, "x", DT_FLOAT32, 2), y = T(s, "y", DT_FLOAT32, 2);
        if (s == n - 1) op(s, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y}, 0, 0);
        else op(s, OP_IF, 3, (int32_t[]){c, c, x}, 1, (int32_t[]){y}, s + 1, s + 1);
        litert_set_io(M, s, 2, (int32_t[]){c, x}, 1, (int32_t[]){y});
      }
      break;
    }
    case K_WHILE_NO_VARS: {
      int c = litert_add_subgraph(M, "cond_false");
      uint8_t f = 0;
      int go = C(c, "false", DT_BOOL, 1, &f, 1);
      litert_set_io(M, c, 0, NULL, 1, (int32_t[]){go});
      int b = litert_add_subgraph(M, "body");
      litert_set_io(M, b, 0, NULL, 0, NULL);
      int x = T(0, "x", DT_FLOAT32, 2), y = T(0, "y", DT_FLOAT32, 2);
      op(0, OP_WHILE, 0, NULL, 0, NULL, c, b);
      op(0, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y}, 0, 0);
      litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
      break;
    }
  }
  litert_model *m = M;
  M = NULL;
  return m;
}

/* Inputs for the model's input tensors: int32 1, float32 {-2, 3}, bool 1. */
static int run_ref(const litert_model *m, npy_array **out, int *nout, aotc_diag *d) {
  const litert_subgraph *g = &m->subgraphs[0];
  npy_array in[4];
  memset(in, 0, sizeof in);
  int n = g->ninputs < 4 ? g->ninputs : 4;
  for (int i = 0; i < n; i++) {
    const litert_tensor *t = &g->tensors[g->inputs[i]];
    int64_t shape[1] = {t->rank > 0 ? t->shape[0] : 1};
    char key[16];
    snprintf(key, sizeof key, "input_%d", i);
    float fv[2] = {-2.0f, 3.0f};
    int32_t iv[1] = {1};
    uint8_t bv[1] = {1};
    const void *data = t->type == DT_FLOAT32 ? (const void *)fv : t->type == DT_INT32 ? (const void *)iv : bv;
    assert_int_equal(npy_init(&in[i], key, t->type, 1, shape, data, d), 0);
  }
  int rc = ref_run(m, in, n, NULL, out, nout, d);
  for (int i = 0; i < n; i++) npy_free(&in[i]);
  return rc;
}

static void expect_same_verdict(int k, int valid) {
  litert_model *m = build(k);
  aotc_diag dr = {0}, dc = {0};
  dr.quiet = dc.quiet = 1;
  npy_array *out = NULL;
  int nout = 0;
  int rr = run_ref(m, &out, &nout, &dr);
  if (out) npz_free(out, nout);
  litert_model_free(m);
  compiled cm;
  int rcmp = compile_litert(NULL, build(k), NULL, 1, &cm, &dc);
  if (rcmp == 0) compiled_free(&cm);
  if (valid) {
    if (rr) fail_msg("case %d: reference refused a valid model: %s", k, dr.msg);
    if (rcmp) fail_msg("case %d: compiler refused a valid model: %s", k, dc.msg);
    return;
  }
  if (rr == 0) fail_msg("case %d: reference accepted a hostile model", k);
  if (rcmp == 0) fail_msg("case %d: compiler accepted a hostile model", k);
  assert_string_equal(dr.msg, dc.msg);
  assert_non_null(strstr(dc.msg, "op "));
  assert_null(strchr(dc.msg, '\n'));
}

static void test_valid_models(void **state) {
  (void)state;
  expect_same_verdict(K_OK_WHILE, 1);
  expect_same_verdict(K_OK_IF, 1);
  expect_same_verdict(K_WHILE_NO_VARS, 1);
}

static void test_hostile_models_refused_by_both(void **state) {
  (void)state;
  for (int k = K_REC_BODY; k <= K_DEEP; k++) {
    if (k == K_CONST_MODEL_IN || k == K_NO_OUTPUTS) continue;  /* no op in the message */
    expect_same_verdict(k, 0);
  }
  /* these name a subgraph and an input instead of an op */
  for (int k = K_CONST_MODEL_IN; k <= K_NO_OUTPUTS; k++) {
    litert_model *m = build(k);
    aotc_diag d = {0};
    d.quiet = 1;
    assert_int_not_equal(ir_check_program(m, &d), 0);
    assert_non_null(strstr(d.msg, "subgraph 0"));
    npy_array *out = NULL;
    int nout = 0;
    aotc_diag dr = {0};
    dr.quiet = 1;
    assert_int_not_equal(run_ref(m, &out, &nout, &dr), 0);
    assert_string_equal(dr.msg, d.msg);
    litert_model_free(m);
  }
}

static void test_messages_name_the_cycle(void **state) {
  (void)state;
  litert_model *m = build(K_REC_IF_AB);
  aotc_diag d = {0};
  assert_int_not_equal(ir_check_program(m, &d), 0);
  assert_int_equal(d.code, 2);
  assert_non_null(strstr(d.msg, "0 (op 0 IF) -> 1 (op 0 IF) -> 2 (op 0 IF) -> 1"));
  litert_model_free(m);
  m = build(K_DEEP);
  memset(&d, 0, sizeof d);
  assert_int_not_equal(ir_check_program(m, &d), 0);
  assert_non_null(strstr(d.msg, "deeper than 64"));
  litert_model_free(m);
}

static void test_while_values(void **state) {
  (void)state;
  /* i = 1, v = {-2, 3}: two iterations (i = 1, 2) double v */
  litert_model *m = build(K_OK_WHILE);
  aotc_diag d = {0};
  npy_array *out = NULL;
  int nout = 0;
  if (run_ref(m, &out, &nout, &d)) fail_msg("%s", d.msg);
  assert_int_equal(nout, 2);
  assert_int_equal(((const int32_t *)out[0].data)[0], 3);
  assert_true(((const float *)out[1].data)[0] == -8.0f);
  assert_true(((const float *)out[1].data)[1] == 12.0f);
  npz_free(out, nout);
  litert_model_free(m);
  /* no loop variables: the cond value is freed (LeakSanitizer) and y = relu(x) */
  m = build(K_WHILE_NO_VARS);
  if (run_ref(m, &out, &nout, &d)) fail_msg("%s", d.msg);
  assert_true(((const float *)out[0].data)[0] == 0.0f);
  assert_true(((const float *)out[0].data)[1] == 3.0f);
  npz_free(out, nout);
  litert_model_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_valid_models),
      cmocka_unit_test(test_hostile_models_refused_by_both),
      cmocka_unit_test(test_messages_name_the_cycle),
      cmocka_unit_test(test_while_values),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
