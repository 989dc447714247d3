/* test_transforms.c - each IR transform on a small hand-built graph, and the
 * verifier's refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "test_ir_common.h"

static int transform_index(const char *name) {
  for (int i = 0; i < ir_ntransforms; i++)
    if (strcmp(ir_transforms[i].name, name) == 0) return i;
  return -1;
}

static int run_one(ir_graph *g, const char *name) {
  aotc_diag d = {0};
  int i = transform_index(name);
  assert_true(i >= 0);
  int n = ir_transforms[i].run(g, &d);
  ir_mark_used(g);
  assert_int_equal(ir_verify(g, &d), 0);
  return n;
}

/* x[1,4] -> RESHAPE [2,2] -> r ; ADD(r, r) -> y */
static void test_alias_reshape(void **state) {
  (void)state;
  litert_model *m = tm_new();
  int32_t s14[2] = {1, 4}, s22[2] = {2, 2}, s2[1] = {2};
  int32_t shp[2] = {2, 2};
  int x = tm_tensor(m, "x", 2, s14);
  int st = litert_add_tensor(m, 0, "shape", DT_INT32, 1, s2, litert_add_buffer(m, shp, sizeof shp));
  int r = tm_tensor(m, "r", 2, s22), y = tm_tensor(m, "y", 2, s22);
  tm_op(m, OP_RESHAPE, 2, (int32_t[]){x, st}, 1, (int32_t[]){r});
  tm_op(m, OP_ADD, 2, (int32_t[]){r, r}, 1, (int32_t[]){y});
  litert_set_io(m, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_non_null(g);
  assert_int_equal(run_one(g, "alias_reshapes"), 1);
  assert_true(g->ops[0].dead);
  assert_int_equal(g->t[r].alias, x);
  assert_int_equal(ir_root(g, r), x);
  ir_free(g);
  litert_model_free(m);
}

/* ADD(x, c) -> a ; RELU(a) -> y  ==>  ADD with fused RELU writing y */
static void test_fuse_activation(void **state) {
  (void)state;
  litert_model *m = tm_new();
  int32_t s14[2] = {1, 4};
  float cv[4] = {1, -2, 3, -4};
  int x = tm_tensor(m, "x", 2, s14), c = tm_const(m, "c", 2, s14, cv, 4);
  int a = tm_tensor(m, "a", 2, s14), y = tm_tensor(m, "y", 2, s14);
  tm_op(m, OP_ADD, 2, (int32_t[]){x, c}, 1, (int32_t[]){a});
  tm_op(m, OP_RELU, 1, (int32_t[]){a}, 1, (int32_t[]){y});
  litert_set_io(m, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_int_equal(run_one(g, "fuse_activation"), 1);
  assert_int_equal(g->ops[0].opts.fused_act, ACT_RELU);
  assert_int_equal(g->ops[0].out[0], y);
  assert_true(g->ops[1].dead);
  /* a RELU whose input is also a graph output must stay */
  ir_free(g);
  litert_set_io(m, 0, 1, (int32_t[]){x}, 2, (int32_t[]){y, a});
  g = ir_from_litert(m, 0, &d);
  assert_int_equal(run_one(g, "fuse_activation"), 0);
  assert_false(g->ops[1].dead);
  ir_free(g);
  litert_model_free(m);
}

/* ADD(c1, c2) -> t ; MUL(x, t) -> y  ==>  t becomes the constant c1 + c2 */
static void test_fold_constants(void **state) {
  (void)state;
  litert_model *m = tm_new();
  int32_t s14[2] = {1, 4};
  float c1v[4] = {1, 2, 3, 4}, c2v[4] = {0.5f, -2, 10, 0.25f};
  int x = tm_tensor(m, "x", 2, s14);
  int c1 = tm_const(m, "c1", 2, s14, c1v, 4), c2 = tm_const(m, "c2", 2, s14, c2v, 4);
  int t = tm_tensor(m, "t", 2, s14), y = tm_tensor(m, "y", 2, s14);
  tm_op(m, OP_ADD, 2, (int32_t[]){c1, c2}, 1, (int32_t[]){t});
  tm_op(m, OP_MUL, 2, (int32_t[]){x, t}, 1, (int32_t[]){y});
  litert_set_io(m, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_int_equal(run_one(g, "fold_constants"), 1);
  assert_true(g->ops[0].dead);
  assert_false(g->ops[1].dead);
  assert_int_equal(g->t[t].role, ROLE_CONST);
  const float *v = (const float *)g->t[t].data;
  assert_true(v[0] == 1.5f && v[1] == 0.0f && v[2] == 13.0f && v[3] == 4.25f);
  ir_free(g);
  litert_model_free(m);
}

/* an op nobody reads is removed, with its now unused tensors */
static void test_remove_dead(void **state) {
  (void)state;
  litert_model *m = tm_new();
  int32_t s14[2] = {1, 4};
  int x = tm_tensor(m, "x", 2, s14), y = tm_tensor(m, "y", 2, s14);
  int u = tm_tensor(m, "unused", 2, s14), u2 = tm_tensor(m, "unused2", 2, s14);
  tm_op(m, OP_ADD, 2, (int32_t[]){x, x}, 1, (int32_t[]){y});
  tm_op(m, OP_MUL, 2, (int32_t[]){x, x}, 1, (int32_t[]){u});
  tm_op(m, OP_RELU, 1, (int32_t[]){u}, 1, (int32_t[]){u2});
  litert_set_io(m, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_true(g->t[u].used && g->t[u2].used);
  assert_true(run_one(g, "remove_dead") >= 2);
  assert_false(g->ops[0].dead);
  assert_true(g->ops[1].dead && g->ops[2].dead);
  assert_false(g->t[u].used);
  assert_false(g->t[u2].used);
  ir_free(g);
  litert_model_free(m);
}

/* float TRANSPOSE_CONV with int8 per-channel weights: dequantized at compile time */
static void test_dequantize_hybrid(void **state) {
  (void)state;
  litert_model *m = tm_new();
  int32_t s4[1] = {4}, ws[4] = {2, 1, 1, 1}, xs[4] = {1, 2, 2, 1}, os[4] = {1, 2, 2, 2};
  int32_t oshape[4] = {1, 2, 2, 2};
  int8_t wq[2] = {-3, 100};
  float sc[2] = {0.5f, 0.25f};
  int64_t zp[2] = {0, 0};
  int osz = litert_add_tensor(m, 0, "out_shape", DT_INT32, 1, s4,
                              litert_add_buffer(m, oshape, sizeof oshape));
  int w = litert_add_tensor(m, 0, "w", DT_INT8, 4, ws, litert_add_buffer(m, wq, 2));
  litert_tensor_set_quant(m, 0, w, 2, sc, zp, 0);
  int x = tm_tensor(m, "x", 4, xs), y = tm_tensor(m, "y", 4, os);
  litert_options o;
  litert_options_default(&o);
  o.type = litert_builtin_options_type(OP_TRANSPOSE_CONV);
  o.padding = PAD_SAME;
  o.stride_w = o.stride_h = 1;
  litert_add_op(m, 0, OP_TRANSPOSE_CONV, NULL, 3, (int32_t[]){osz, w, x}, 1, (int32_t[]){y}, &o);
  litert_set_io(m, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_int_equal(run_one(g, "dequantize_hybrid_weights"), 1);
  assert_int_equal(g->t[w].dtype, DT_FLOAT32);
  assert_int_equal(g->t[w].nq, 0);
  const float *v = (const float *)g->t[w].data;
  assert_true(v[0] == -1.5f && v[1] == 25.0f);
  ir_free(g);
  litert_model_free(m);
}

static void test_verifier(void **state) {
  (void)state;
  litert_model *m = tm_new();
  int32_t s14[2] = {1, 4};
  int x = tm_tensor(m, "x", 2, s14), a = tm_tensor(m, "a", 2, s14), y = tm_tensor(m, "y", 2, s14);
  /* reads a before anything writes it */
  tm_op(m, OP_ADD, 2, (int32_t[]){x, a}, 1, (int32_t[]){y});
  tm_op(m, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){a});
  litert_set_io(m, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_int_not_equal(ir_verify(g, &d), 0);
  assert_non_null(strstr(d.msg, "subgraph 0 op 0 (ADD) reads tensor 1 'a' (input 1), which op 1 (RELU) writes only later"));
  /* two writers */
  g->ops[0].in[1] = x;
  g->ops[1].out[0] = y;
  assert_int_not_equal(ir_verify(g, &d), 0);
  assert_non_null(strstr(d.msg, "written by two ops"));
  ir_free(g);
  litert_model_free(m);
}

/* every transform can be disabled through the table */
static void test_disable(void **state) {
  (void)state;
  litert_model *m = tm_new();
  int32_t s14[2] = {1, 4};
  int x = tm_tensor(m, "x", 2, s14), a = tm_tensor(m, "a", 2, s14), y = tm_tensor(m, "y", 2, s14);
  tm_op(m, OP_ADD, 2, (int32_t[]){x, x}, 1, (int32_t[]){a});
  tm_op(m, OP_RELU, 1, (int32_t[]){a}, 1, (int32_t[]){y});
  litert_set_io(m, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  aotc_diag d = {0};
  int disabled[32] = {0};
  disabled[transform_index("fuse_activation")] = 1;
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_true(ir_run_transforms(g, disabled, &d) >= 0);
  assert_false(g->ops[1].dead);
  ir_free(g);
  g = ir_from_litert(m, 0, &d);
  assert_true(ir_run_transforms(g, NULL, &d) >= 1);
  assert_true(g->ops[1].dead);
  ir_free(g);
  litert_model_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_alias_reshape),  cmocka_unit_test(test_fuse_activation),
      cmocka_unit_test(test_fold_constants), cmocka_unit_test(test_remove_dead),
      cmocka_unit_test(test_dequantize_hybrid), cmocka_unit_test(test_verifier),
      cmocka_unit_test(test_disable),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
