/* test_ref.c - the host reference interpreter on tiny models built in memory
 * with the litert builder functions. Every expected value is worked out by
 * hand in the comments (none was printed by the code under test).
 *
 * Covered: state feedback (explicit state as input/output), sequence mode,
 * iterations, resets, resource variables with CALL_ONCE (shared between
 * subgraphs, zeros before the first assignment), variable tensors (SVDF state
 * kept across runs, zero or buffer-initialised, reset), WHILE and IF, run-time
 * (dynamic) shapes, and the error for an operator without implementation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aotc.h"
#include "io/npy.h"
#include "litert/litert.h"
#include "ref/ref.h"

/* ---- building helpers ------------------------------------------------------ */

static int tensor(litert_model *m, int sg, const char *name, int type, int rank,
                  const int32_t *shape) {
  return litert_add_tensor(m, sg, name, type, rank, shape, 0);
}

static int const_tensor(litert_model *m, int sg, const char *name, int type, int rank,
                        const int32_t *shape, const void *data, size_t bytes) {
  int b = litert_add_buffer(m, data, bytes);
  return litert_add_tensor(m, sg, name, type, rank, shape, b);
}

static int const_i32(litert_model *m, int sg, const char *name, int n, const int32_t *v) {
  int32_t sh[1] = {n};
  return const_tensor(m, sg, name, DT_INT32, 1, sh, v, sizeof(int32_t) * (size_t)n);
}

static litert_options opts_for(int builtin) {
  litert_options o;
  litert_options_default(&o);
  o.type = litert_builtin_options_type(builtin);
  return o;
}

static void op(litert_model *m, int sg, int builtin, int nin, const int32_t *in, int nout,
               const int32_t *out, const litert_options *o) {
  litert_options d = opts_for(builtin);
  litert_add_op(m, sg, builtin, NULL, nin, in, nout, out, o ? o : &d);
}

static void concat(litert_model *m, int sg, int a, int b, int out, int axis) {
  litert_options o = opts_for(OP_CONCATENATION);
  o.axis = axis;
  int32_t in[2] = {a, b}, ou[1] = {out};
  op(m, sg, OP_CONCATENATION, 2, in, 1, ou, &o);
}

/* out = x[:, 1:3] of a [1,3] tensor via SLICE with constant begin/size */
static void slice_last2(litert_model *m, int sg, int x, int out) {
  static const int32_t b[2] = {0, 1}, s[2] = {1, 2};
  int tb = const_i32(m, sg, "begin", 2, b), ts = const_i32(m, sg, "size", 2, s);
  int32_t in[3] = {x, tb, ts}, ou[1] = {out};
  op(m, sg, OP_SLICE, 3, in, 1, ou, NULL);
}

static npy_array arr_f32(const char *name, int rank, const int64_t *shape, const float *v) {
  npy_array a;
  aotc_diag d = {0};
  assert_int_equal(npy_init(&a, name, DT_FLOAT32, rank, shape, v, &d), 0);
  return a;
}

static void expect_f32(const npy_array *a, const float *want, size_t n) {
  assert_int_equal(a->dtype, DT_FLOAT32);
  assert_int_equal(a->count, n);
  const float *g = a->data;
  for (size_t i = 0; i < n; i++) {
    if (fabsf(g[i] - want[i]) > 1e-6f * (1.0f + fabsf(want[i])))
      fail_msg("element %zu: got %.9g, want %.9g", i, (double)g[i], (double)want[i]);
  }
}

/* ---- 1. explicit state: a shift register carried by state feedback --------- */

/* inputs x [1,1], s [1,2]; c = concat(s, x) [1,3]; outputs: 0 = c[:, 1:3]
 * (the new state), 1 = c. */
static litert_model *shift_model(void) {
  litert_model *m = litert_model_new();
  int sg = litert_add_subgraph(m, "main");
  int32_t s11[2] = {1, 1}, s12[2] = {1, 2}, s13[2] = {1, 3};
  int x = tensor(m, sg, "x", DT_FLOAT32, 2, s11);
  int s = tensor(m, sg, "state_in", DT_FLOAT32, 2, s12);
  int c = tensor(m, sg, "c", DT_FLOAT32, 2, s13);
  int ns = tensor(m, sg, "state_out", DT_FLOAT32, 2, s12);
  concat(m, sg, s, x, c, 1);
  slice_last2(m, sg, c, ns);
  int32_t in[2] = {x, s}, out[2] = {ns, c};
  litert_set_io(m, sg, 2, in, 2, out);
  return m;
}

static void test_feedback_sequence(void **state) {
  (void)state;
  litert_model *m = shift_model();
  /* 4 steps, x = 1, 2, 3, 4; state starts at [0, 0] (step 0 of input 1) */
  int64_t shx[3] = {4, 1, 1}, shs[3] = {4, 1, 2};
  float xv[4] = {1, 2, 3, 4}, sv[8] = {0, 0, 9, 9, 9, 9, 9, 9};
  npy_array in[2] = {arr_f32("input_0", 3, shx, xv), arr_f32("input_1", 3, shs, sv)};
  static const int fb[1][2] = {{0, 1}};
  ref_options o = {1, 1, fb, 1, 0, NULL};
  npy_array *out = NULL;
  int nout = 0;
  aotc_diag d = {0};
  int rc = ref_run(m, in, 2, &o, &out, &nout, &d);
  if (rc) fail_msg("%s", d.msg);
  assert_int_equal(nout, 2);
  /* c per step: [0,0,1] [0,1,2] [1,2,3] [2,3,4]; state = c[1:3] */
  float want_c[12] = {0, 0, 1, 0, 1, 2, 1, 2, 3, 2, 3, 4};
  float want_s[8] = {0, 1, 1, 2, 2, 3, 3, 4};
  assert_int_equal(out[1].rank, 3);
  assert_int_equal(out[1].shape[0], 4);
  expect_f32(&out[1], want_c, 12);
  expect_f32(&out[0], want_s, 8);
  assert_string_equal(out[0].name, "output_0");
  npz_free(out, nout);

  /* a reset before step 2 restarts from the state given for step 2 ([9,9]) */
  static const int resets[1] = {2};
  o.nresets = 1;
  o.resets = resets;
  rc = ref_run(m, in, 2, &o, &out, &nout, &d);
  if (rc) fail_msg("%s", d.msg);
  float want_c2[12] = {0, 0, 1, 0, 1, 2, 9, 9, 3, 9, 3, 4};
  expect_f32(&out[1], want_c2, 12);
  npz_free(out, nout);
  npy_free(&in[0]);
  npy_free(&in[1]);
  litert_model_free(m);
}

static void test_feedback_iterations(void **state) {
  (void)state;
  litert_model *m = shift_model();
  int64_t shx[2] = {1, 1}, shs[2] = {1, 2};
  float xv[1] = {5}, sv[2] = {7, 8};
  npy_array in[2] = {arr_f32("input_0", 2, shx, xv), arr_f32("input_1", 2, shs, sv)};
  static const int fb[1][2] = {{0, 1}};
  /* 3 iterations of x = 5 from state [7,8]: [7,8,5] -> [8,5,5] -> [5,5,5] */
  ref_options o = {3, 1, fb, 0, 0, NULL};
  npy_array *out = NULL;
  int nout = 0;
  aotc_diag d = {0};
  if (ref_run(m, in, 2, &o, &out, &nout, &d)) fail_msg("%s", d.msg);
  float want_c[3] = {5, 5, 5}, want_s[2] = {5, 5};
  assert_int_equal(out[1].rank, 2);
  expect_f32(&out[1], want_c, 3);
  expect_f32(&out[0], want_s, 2);
  npz_free(out, nout);
  /* 2 iterations: [7,8,5] -> [8,5,5] */
  o.iterations = 2;
  if (ref_run(m, in, 2, &o, &out, &nout, &d)) fail_msg("%s", d.msg);
  float want_c2[3] = {8, 5, 5};
  expect_f32(&out[1], want_c2, 3);
  npz_free(out, nout);
  /* without feedback, iterations do not change anything: [7,8,5] */
  o.nfeedback = 0;
  o.iterations = 3;
  if (ref_run(m, in, 2, &o, &out, &nout, &d)) fail_msg("%s", d.msg);
  float want_c3[3] = {7, 8, 5};
  expect_f32(&out[1], want_c3, 3);
  npz_free(out, nout);
  /* bad pairs are refused */
  static const int bad[1][2] = {{1, 1}};
  o.nfeedback = 1;
  o.feedback = bad;
  assert_int_not_equal(ref_run(m, in, 2, &o, &out, &nout, &d), 0);
  static const int bad2[1][2] = {{0, 5}};
  o.feedback = bad2;
  assert_int_not_equal(ref_run(m, in, 2, &o, &out, &nout, &d), 0);
  assert_non_null(strstr(d.msg, "state feedback"));
  npy_free(&in[0]);
  npy_free(&in[1]);
  litert_model_free(m);
}

/* ---- 2. resource variables and CALL_ONCE ------------------------------------ */

/* main: [CALL_ONCE init=1]; h = VAR_HANDLE("", "buf"); v = READ(h) [1,2];
 * c = concat(v, x) [1,3] (output 0); ASSIGN(h, c[:, 1:3]).
 * init (subgraph 1): h2 = VAR_HANDLE("", "buf"); ASSIGN(h2, [10, 20]). */
static litert_model *ring_model(int with_init) {
  litert_model *m = litert_model_new();
  int sg = litert_add_subgraph(m, "main");
  int32_t s11[2] = {1, 1}, s12[2] = {1, 2}, s13[2] = {1, 3};
  int x = tensor(m, sg, "x", DT_FLOAT32, 2, s11);
  int h = tensor(m, sg, "buf", DT_RESOURCE, 0, NULL);
  int v = tensor(m, sg, "read", DT_FLOAT32, 2, s12);
  int c = tensor(m, sg, "c", DT_FLOAT32, 2, s13);
  int ns = tensor(m, sg, "next", DT_FLOAT32, 2, s12);
  litert_options vo = opts_for(OP_VAR_HANDLE);
  vo.container = xstrdup("");
  vo.shared_name = xstrdup("buf");
  if (with_init) {
    litert_options co = opts_for(OP_CALL_ONCE);
    co.init_subgraph = 1;
    op(m, sg, OP_CALL_ONCE, 0, NULL, 0, NULL, &co);
  }
  int32_t ho[1] = {h};
  op(m, sg, OP_VAR_HANDLE, 0, NULL, 1, ho, &vo);
  int32_t ri[1] = {h}, ro[1] = {v};
  op(m, sg, OP_READ_VARIABLE, 1, ri, 1, ro, NULL);
  concat(m, sg, v, x, c, 1);
  slice_last2(m, sg, c, ns);
  int32_t ai[2] = {h, ns};
  op(m, sg, OP_ASSIGN_VARIABLE, 2, ai, 0, NULL, NULL);
  int32_t in[1] = {x}, out[1] = {c};
  litert_set_io(m, sg, 1, in, 1, out);
  if (with_init) {
    int sg1 = litert_add_subgraph(m, "init");
    int h2 = tensor(m, sg1, "buf2", DT_RESOURCE, 0, NULL);
    float iv[2] = {10, 20};
    int k = const_tensor(m, sg1, "init_value", DT_FLOAT32, 2, s12, iv, sizeof iv);
    int32_t h2o[1] = {h2};
    op(m, sg1, OP_VAR_HANDLE, 0, NULL, 1, h2o, &vo);
    int32_t a2[2] = {h2, k};
    op(m, sg1, OP_ASSIGN_VARIABLE, 2, a2, 0, NULL, NULL);
    litert_set_io(m, sg1, 0, NULL, 0, NULL);
  }
  litert_options_free(&vo);
  return m;
}

static void run_seq_x(litert_model *m, const float *xs, int steps, const int *resets, int nresets,
                      npy_array **out, int *nout) {
  int64_t sh[3] = {steps, 1, 1};
  npy_array in = arr_f32("input_0", 3, sh, xs);
  ref_options o = {1, 0, NULL, 1, nresets, resets};
  aotc_diag d = {0};
  if (ref_run(m, &in, 1, &o, out, nout, &d)) fail_msg("%s", d.msg);
  npy_free(&in);
}

static void test_resource_call_once(void **state) {
  (void)state;
  litert_model *m = ring_model(1);
  float xs[4] = {1, 2, 3, 4};
  npy_array *out;
  int nout;
  run_seq_x(m, xs, 4, NULL, 0, &out, &nout);
  /* init sets [10,20] once: [10,20,1] [20,1,2] [1,2,3] [2,3,4] */
  float want[12] = {10, 20, 1, 20, 1, 2, 1, 2, 3, 2, 3, 4};
  expect_f32(&out[0], want, 12);
  npz_free(out, nout);
  /* reset before step 2: CALL_ONCE runs again */
  static const int resets[1] = {2};
  run_seq_x(m, xs, 4, resets, 1, &out, &nout);
  float want2[12] = {10, 20, 1, 20, 1, 2, 10, 20, 3, 20, 3, 4};
  expect_f32(&out[0], want2, 12);
  npz_free(out, nout);
  litert_model_free(m);
}

static void test_resource_read_before_assign(void **state) {
  (void)state;
  litert_model *m = ring_model(0);
  float xs[3] = {1, 2, 3};
  npy_array *out;
  int nout;
  run_seq_x(m, xs, 3, NULL, 0, &out, &nout);
  /* the first read sees zeros: [0,0,1] [0,1,2] [1,2,3] */
  float want[9] = {0, 0, 1, 0, 1, 2, 1, 2, 3};
  expect_f32(&out[0], want, 9);
  npz_free(out, nout);
  litert_model_free(m);
}

/* ---- 3. variable tensors: SVDF state --------------------------------------- */

/* SVDF float, 1 filter, memory 2, rank 1, 1 unit: weights_feature [[1]],
 * weights_time [[1, 10]], no bias. Each run shifts the state left and puts x
 * last, out = 1 * older + 10 * newer. */
static litert_model *svdf_model(const float *init_state) {
  litert_model *m = litert_model_new();
  int sg = litert_add_subgraph(m, "main");
  int32_t s11[2] = {1, 1}, s12[2] = {1, 2};
  float wf[1] = {1}, wt[2] = {1, 10};
  int x = tensor(m, sg, "x", DT_FLOAT32, 2, s11);
  int f = const_tensor(m, sg, "wf", DT_FLOAT32, 2, s11, wf, sizeof wf);
  int t = const_tensor(m, sg, "wt", DT_FLOAT32, 2, s12, wt, sizeof wt);
  int st;
  if (init_state) {
    int b = litert_add_buffer(m, init_state, 2 * sizeof(float));
    st = litert_add_tensor(m, sg, "state", DT_FLOAT32, 2, s12, b);
  } else {
    st = tensor(m, sg, "state", DT_FLOAT32, 2, s12);
  }
  m->subgraphs[sg].tensors[st].is_variable = 1;
  int y = tensor(m, sg, "y", DT_FLOAT32, 2, s11);
  litert_options o = opts_for(OP_SVDF);
  o.rank = 1;
  o.fused_act = ACT_NONE;
  int32_t in[5] = {x, f, t, -1, st}, ou[1] = {y};
  op(m, sg, OP_SVDF, 5, in, 1, ou, &o);
  int32_t gi[1] = {x}, go[1] = {y};
  litert_set_io(m, sg, 1, gi, 1, go);
  return m;
}

static void test_variable_tensor_state(void **state) {
  (void)state;
  litert_model *m = svdf_model(NULL);
  float xs[4] = {1, 2, 3, 4};
  npy_array *out;
  int nout;
  run_seq_x(m, xs, 4, NULL, 0, &out, &nout);
  /* states [0,1] [1,2] [2,3] [3,4] -> 10, 21, 32, 43 */
  float want[4] = {10, 21, 32, 43};
  expect_f32(&out[0], want, 4);
  npz_free(out, nout);
  /* reset before step 2: state back to zeros -> 10, 21, 30, 43 */
  static const int resets[1] = {2};
  run_seq_x(m, xs, 4, resets, 1, &out, &nout);
  float want2[4] = {10, 21, 30, 43};
  expect_f32(&out[0], want2, 4);
  npz_free(out, nout);
  /* 3 iterations of x = 2 in repeat mode: [0,2] [2,2] [2,2] -> 22 */
  int64_t sh[2] = {1, 1};
  float x2 = 2;
  npy_array in = arr_f32("input_0", 2, sh, &x2);
  ref_options o = {3, 0, NULL, 0, 0, NULL};
  aotc_diag d = {0};
  if (ref_run(m, &in, 1, &o, &out, &nout, &d)) fail_msg("%s", d.msg);
  float want3[1] = {22};
  expect_f32(&out[0], want3, 1);
  npz_free(out, nout);
  /* a fresh run (new instance) starts from zeros again: 20 */
  o.iterations = 1;
  if (ref_run(m, &in, 1, &o, &out, &nout, &d)) fail_msg("%s", d.msg);
  float want4[1] = {20};
  expect_f32(&out[0], want4, 1);
  npz_free(out, nout);
  npy_free(&in);
  litert_model_free(m);

  /* a variable tensor with a buffer starts at its data: [100, 7] -> [7, x] */
  float init[2] = {100, 7};
  m = svdf_model(init);
  run_seq_x(m, xs, 2, NULL, 0, &out, &nout);
  float want5[2] = {7 + 10, 1 + 20};
  expect_f32(&out[0], want5, 2);
  npz_free(out, nout);
  litert_model_free(m);
}

/* An int8 variable tensor starts at its zero point (TFLite's and TFLM's
 * ResetVariableTensors): y = concat(v, x) with v int8 [1,2] zero point -50
 * never written gives [-50, -50, x]. */
static void test_variable_int8_zero_point(void **state) {
  (void)state;
  litert_model *m = litert_model_new();
  int sg = litert_add_subgraph(m, "main");
  int32_t s11[2] = {1, 1}, s12[2] = {1, 2}, s13[2] = {1, 3};
  int x = tensor(m, sg, "x", DT_INT8, 2, s11);
  int v = tensor(m, sg, "v", DT_INT8, 2, s12);
  int y = tensor(m, sg, "y", DT_INT8, 2, s13);
  m->subgraphs[sg].tensors[v].is_variable = 1;
  float sc = 0.5f;
  int64_t zp = -50;
  litert_tensor_set_quant(m, sg, x, 1, &sc, &zp, 0);
  litert_tensor_set_quant(m, sg, v, 1, &sc, &zp, 0);
  litert_tensor_set_quant(m, sg, y, 1, &sc, &zp, 0);
  concat(m, sg, v, x, y, 1);
  int32_t io[2] = {x, y};
  litert_set_io(m, sg, 1, &io[0], 1, &io[1]);
  npy_array in;
  int64_t sh[2] = {1, 1};
  int8_t xv = 7;
  aotc_diag d = {0};
  assert_int_equal(npy_init(&in, "input_0", DT_INT8, 2, sh, &xv, &d), 0);
  npy_array *out;
  int nout;
  if (ref_run(m, &in, 1, NULL, &out, &nout, &d)) fail_msg("%s", d.msg);
  const int8_t *g = out[0].data;
  assert_int_equal(out[0].count, 3);
  assert_int_equal(g[0], -50);
  assert_int_equal(g[1], -50);
  assert_int_equal(g[2], 7);
  npz_free(out, nout);
  npy_free(&in);
  litert_model_free(m);
}

/* ---- 4. WHILE and IF ---------------------------------------------------------- */

/* FULLY_CONNECTED float y = x W^T (no bias) with W = [[1, 1], [0, 1]]:
 * [a, b] -> [a + b, b]. */
static void fc_shear(litert_model *m, int sg, int x, int y) {
  int32_t s22[2] = {2, 2};
  float w[4] = {1, 1, 0, 1};
  int tw = const_tensor(m, sg, "w", DT_FLOAT32, 2, s22, w, sizeof w);
  int32_t in[3] = {x, tw, -1}, ou[1] = {y};
  op(m, sg, OP_FULLY_CONNECTED, 3, in, 1, ou, NULL);
}

/* main: WHILE(cond=1, body=2) over (s int32 [3], x float [1,2]) with s from
 * a constant [1, 1, 0]; cond: CAST(s[0:1]) to bool; body: s' = concat(s[1:3],
 * [0]), x' = shear(x). Two iterations: x -> shear(shear(x)). */
static litert_model *while_model(int identity_body) {
  litert_model *m = litert_model_new();
  int s0 = litert_add_subgraph(m, "main");
  int s1 = litert_add_subgraph(m, "cond");
  int s2 = litert_add_subgraph(m, "body");
  int32_t s3[1] = {3}, s1v[1] = {1}, s2v[1] = {2}, s12[2] = {1, 2};
  int32_t sv[3] = {1, 1, 0};
  /* main */
  int x = tensor(m, s0, "x", DT_FLOAT32, 2, s12);
  int cs = const_tensor(m, s0, "counter", DT_INT32, 1, s3, sv, sizeof sv);
  int os = tensor(m, s0, "s_out", DT_INT32, 1, s3);
  int ox = tensor(m, s0, "x_out", DT_FLOAT32, 2, s12);
  litert_options wo = opts_for(OP_WHILE);
  wo.cond_subgraph = s1;
  wo.body_subgraph = s2;
  int32_t wi[2] = {cs, x}, wout[2] = {os, ox};
  op(m, s0, OP_WHILE, 2, wi, 2, wout, &wo);
  int32_t gi[1] = {x}, go[2] = {ox, os};
  litert_set_io(m, s0, 1, gi, 2, go);
  /* cond */
  int cs_ = tensor(m, s1, "s", DT_INT32, 1, s3);
  int cx_ = tensor(m, s1, "x", DT_FLOAT32, 2, s12);
  int first = tensor(m, s1, "first", DT_INT32, 1, s1v);
  int b = tensor(m, s1, "go", DT_BOOL, 1, s1v);
  static const int32_t b0[1] = {0}, z1[1] = {1};
  int tb = const_i32(m, s1, "b", 1, b0), tz = const_i32(m, s1, "z", 1, z1);
  int32_t sli[3] = {cs_, tb, tz}, slo[1] = {first};
  op(m, s1, OP_SLICE, 3, sli, 1, slo, NULL);
  litert_options co = opts_for(OP_CAST);
  co.in_data_type = DT_INT32;
  co.out_data_type = DT_BOOL;
  int32_t ci[1] = {first}, cout[1] = {b};
  op(m, s1, OP_CAST, 1, ci, 1, cout, &co);
  int32_t c_in[2] = {cs_, cx_}, c_out[1] = {b};
  litert_set_io(m, s1, 2, c_in, 1, c_out);
  /* body */
  int bs = tensor(m, s2, "s", DT_INT32, 1, s3);
  int bx = tensor(m, s2, "x", DT_FLOAT32, 2, s12);
  int rest = tensor(m, s2, "rest", DT_INT32, 1, s2v);
  int ns = tensor(m, s2, "s_next", DT_INT32, 1, s3);
  int nx = tensor(m, s2, "x_next", DT_FLOAT32, 2, s12);
  static const int32_t b1[1] = {1}, sz2[1] = {2}, zero[1] = {0};
  int tb1 = const_i32(m, s2, "b", 1, b1), tsz = const_i32(m, s2, "size", 1, sz2);
  int tzero = const_i32(m, s2, "zero", 1, zero);
  int32_t bsi[3] = {bs, tb1, tsz}, bso[1] = {rest};
  op(m, s2, OP_SLICE, 3, bsi, 1, bso, NULL);
  concat(m, s2, rest, tzero, ns, 0);
  fc_shear(m, s2, bx, nx);
  int32_t b_in[2] = {bs, bx}, b_out[2] = {ns, nx};
  if (identity_body) {
    /* outputs = inputs: the loop can never end */
    b_out[0] = bs;
    b_out[1] = bx;
  }
  litert_set_io(m, s2, 2, b_in, 2, b_out);
  return m;
}

static void test_while(void **state) {
  (void)state;
  litert_model *m = while_model(0);
  int64_t sh[2] = {1, 2};
  float xv[2] = {1, 2};
  npy_array in = arr_f32("input_0", 2, sh, xv);
  npy_array *out;
  int nout;
  aotc_diag d = {0};
  if (ref_run(m, &in, 1, NULL, &out, &nout, &d)) fail_msg("%s", d.msg);
  assert_int_equal(nout, 2);
  /* [1,2] -> [3,2] -> [5,2]; counter [1,1,0] -> [1,0,0] -> [0,0,0] */
  float want[2] = {5, 2};
  expect_f32(&out[0], want, 2);
  assert_int_equal(out[1].dtype, DT_INT32);
  const int32_t *sv = out[1].data;
  assert_int_equal(sv[0], 0);
  assert_int_equal(sv[1], 0);
  assert_int_equal(sv[2], 0);
  npz_free(out, nout);
  litert_model_free(m);
  /* a body that changes nothing would loop forever: refused */
  m = while_model(1);
  assert_int_not_equal(ref_run(m, &in, 1, NULL, &out, &nout, &d), 0);
  assert_non_null(strstr(d.msg, "never ends"));
  npy_free(&in);
  litert_model_free(m);
}

/* main: IF(c, x) with then = shear, else = identity-by-reshape... kept
 * simple: else = slice/concat-free copy through RESHAPE. */
static litert_model *if_model(void) {
  litert_model *m = litert_model_new();
  int s0 = litert_add_subgraph(m, "main");
  int s1 = litert_add_subgraph(m, "then");
  int s2 = litert_add_subgraph(m, "else");
  int32_t s1v[1] = {1}, s12[2] = {1, 2};
  int c = tensor(m, s0, "c", DT_BOOL, 1, s1v);
  int x = tensor(m, s0, "x", DT_FLOAT32, 2, s12);
  int y = tensor(m, s0, "y", DT_FLOAT32, 2, s12);
  litert_options io = opts_for(OP_IF);
  io.then_subgraph = s1;
  io.else_subgraph = s2;
  int32_t ii[2] = {c, x}, iout[1] = {y};
  op(m, s0, OP_IF, 2, ii, 1, iout, &io);
  int32_t gi[2] = {c, x}, go[1] = {y};
  litert_set_io(m, s0, 2, gi, 1, go);
  /* then: shear */
  int tx = tensor(m, s1, "x", DT_FLOAT32, 2, s12);
  int ty = tensor(m, s1, "y", DT_FLOAT32, 2, s12);
  fc_shear(m, s1, tx, ty);
  int32_t tio[2] = {tx, ty};
  litert_set_io(m, s1, 1, &tio[0], 1, &tio[1]);
  /* else: RESHAPE to the same shape (a copy) */
  int ex = tensor(m, s2, "x", DT_FLOAT32, 2, s12);
  int ey = tensor(m, s2, "y", DT_FLOAT32, 2, s12);
  static const int32_t shp[2] = {1, 2};
  int ts = const_i32(m, s2, "shape", 2, shp);
  int32_t ri[2] = {ex, ts}, ro[1] = {ey};
  op(m, s2, OP_RESHAPE, 2, ri, 1, ro, NULL);
  int32_t eio[2] = {ex, ey};
  litert_set_io(m, s2, 1, &eio[0], 1, &eio[1]);
  return m;
}

static void test_if(void **state) {
  (void)state;
  litert_model *m = if_model();
  int64_t sh[2] = {1, 2}, shc[1] = {1};
  float xv[2] = {4, 5};
  aotc_diag d = {0};
  for (int branch = 0; branch < 2; branch++) {
    npy_array in[2];
    uint8_t cv = (uint8_t)branch;
    assert_int_equal(npy_init(&in[0], "input_0", DT_BOOL, 1, shc, &cv, &d), 0);
    in[1] = arr_f32("input_1", 2, sh, xv);
    npy_array *out;
    int nout;
    if (ref_run(m, in, 2, NULL, &out, &nout, &d)) fail_msg("%s", d.msg);
    float want_then[2] = {9, 5}, want_else[2] = {4, 5};
    expect_f32(&out[0], branch ? want_then : want_else, 2);
    npz_free(out, nout);
    npy_free(&in[0]);
    npy_free(&in[1]);
  }
  litert_model_free(m);
}

/* ---- 5. run-time shapes ------------------------------------------------------------ */

/* x [1,2] with shape_signature [-1,2]; s = SHAPE(x); ones = FILL(s, 1.0)
 * (signature [-1,-1]); y = concat(x, ones, axis 1) (signature [-1,4]). Given
 * x of shape [3,2], y is [3,4]. */
static void test_dynamic_shapes(void **state) {
  (void)state;
  litert_model *m = litert_model_new();
  int sg = litert_add_subgraph(m, "main");
  int32_t s12[2] = {1, 2}, s14[2] = {1, 4}, s2[1] = {2};
  int x = tensor(m, sg, "x", DT_FLOAT32, 2, s12);
  int s = tensor(m, sg, "shape", DT_INT32, 1, s2);
  int ones = tensor(m, sg, "ones", DT_FLOAT32, 2, s12);
  int y = tensor(m, sg, "y", DT_FLOAT32, 2, s14);
  float one = 1.0f;
  int k = const_tensor(m, sg, "one", DT_FLOAT32, 0, NULL, &one, sizeof one);
  litert_tensor *T = m->subgraphs[sg].tensors;
  int32_t sig_x[2] = {-1, 2}, sig_o[2] = {-1, -1}, sig_y[2] = {-1, 4};
  T[x].shape_signature = xmalloc(sizeof sig_x);
  memcpy(T[x].shape_signature, sig_x, sizeof sig_x);
  T[ones].shape_signature = xmalloc(sizeof sig_o);
  memcpy(T[ones].shape_signature, sig_o, sizeof sig_o);
  T[y].shape_signature = xmalloc(sizeof sig_y);
  memcpy(T[y].shape_signature, sig_y, sizeof sig_y);
  litert_options so = opts_for(OP_SHAPE);
  so.out_type = DT_INT32;
  int32_t si[1] = {x}, sout[1] = {s};
  op(m, sg, OP_SHAPE, 1, si, 1, sout, &so);
  int32_t fi[2] = {s, k}, fo[1] = {ones};
  op(m, sg, OP_FILL, 2, fi, 1, fo, NULL);
  concat(m, sg, x, ones, y, 1);
  int32_t xio[2] = {x, y};
  litert_set_io(m, sg, 1, &xio[0], 1, &xio[1]);

  int64_t sh[2] = {3, 2};
  float xv[6] = {1, 2, 3, 4, 5, 6};
  npy_array in = arr_f32("input_0", 2, sh, xv);
  npy_array *out;
  int nout;
  aotc_diag d = {0};
  if (ref_run(m, &in, 1, NULL, &out, &nout, &d)) fail_msg("%s", d.msg);
  assert_int_equal(out[0].rank, 2);
  assert_int_equal(out[0].shape[0], 3);
  assert_int_equal(out[0].shape[1], 4);
  float want[12] = {1, 2, 1, 1, 3, 4, 1, 1, 5, 6, 1, 1};
  expect_f32(&out[0], want, 12);
  npz_free(out, nout);
  npy_free(&in);

  /* a shape the signature does not allow is refused with both shapes named */
  int64_t bad[2] = {1, 3};
  float bv[3] = {0, 0, 0};
  in = arr_f32("input_0", 2, bad, bv);
  assert_int_not_equal(ref_run(m, &in, 1, NULL, &out, &nout, &d), 0);
  assert_non_null(strstr(d.msg, "[1, 3]"));
  assert_non_null(strstr(d.msg, "[1, 2]"));
  npy_free(&in);
  litert_model_free(m);
}

/* ---- 6. errors ------------------------------------------------------------------ */

static void test_unsupported_op(void **state) {
  (void)state;
  litert_model *m = litert_model_new();
  int sg = litert_add_subgraph(m, "main");
  int32_t s4[1] = {4};
  int x = tensor(m, sg, "x", DT_FLOAT32, 1, s4);
  int y = tensor(m, sg, "y", DT_FLOAT32, 1, s4);
  int32_t in[1] = {x}, out[1] = {y};
  op(m, sg, OP_HASHTABLE_LOOKUP, 1, in, 1, out, NULL);
  litert_set_io(m, sg, 1, in, 1, out);
  int64_t sh[1] = {4};
  float xv[4] = {0};
  npy_array a = arr_f32("input_0", 1, sh, xv);
  npy_array *o;
  int no;
  aotc_diag d = {0};
  assert_int_not_equal(ref_run(m, &a, 1, NULL, &o, &no, &d), 0);
  assert_int_equal(d.code, 2);
  assert_non_null(strstr(d.msg, "op 0 (HASHTABLE_LOOKUP, float32 -> float32)"));
  /* wrong input dtype / count */
  npy_array b;
  int64_t shb[1] = {4};
  int32_t iv[4] = {0};
  assert_int_equal(npy_init(&b, "input_0", DT_INT32, 1, shb, iv, &d), 0);
  assert_int_not_equal(ref_run(m, &b, 1, NULL, &o, &no, &d), 0);
  assert_non_null(strstr(d.msg, "int32"));
  assert_int_not_equal(ref_run(m, &a, 0, NULL, &o, &no, &d), 0);
  npy_free(&a);
  npy_free(&b);
  litert_model_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_feedback_sequence),
      cmocka_unit_test(test_feedback_iterations),
      cmocka_unit_test(test_resource_call_once),
      cmocka_unit_test(test_resource_read_before_assign),
      cmocka_unit_test(test_variable_tensor_state),
      cmocka_unit_test(test_variable_int8_zero_point),
      cmocka_unit_test(test_while),
      cmocka_unit_test(test_if),
      cmocka_unit_test(test_dynamic_shapes),
      cmocka_unit_test(test_unsupported_op),
  };
  return cmocka_run_group_tests_name("ref", tests, NULL, NULL);
}
