/* test_shapes.c - the static shape inference pass (src/passes/shapes.c) on small
 * hand-built models: placeholder shapes (shape_signature -1, rank 0) taken
 * from producers, shape arithmetic constant-propagated, declared static
 * shapes trusted, WHILE loop variables, the TensorList set-item rewrite to
 * DYNAMIC_UPDATE_SLICE (checked by evaluating the rewritten body with the
 * ops' eval()), and the refusals. Expected shapes and values are worked out
 * by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ir/ir.h"
#include "litert/litert.h"
#include "ops/ops.h"
#include "passes/passes.h"

#define S(...) ((const int32_t[]){__VA_ARGS__})
#define IO(...) ((const int32_t[]){__VA_ARGS__})

static int t_add(litert_model *m, int sg, int type, int rank, const int32_t *shape) {
  return litert_add_tensor(m, sg, "t", type, rank, shape, 0);
}

static int t_const(litert_model *m, int sg, int type, int rank, const int32_t *shape,
                   const void *v, size_t bytes) {
  return litert_add_tensor(m, sg, "c", type, rank, shape, litert_add_buffer(m, v, bytes));
}

static int t_i32(litert_model *m, int sg, int rank, const int32_t *shape, const int32_t *v, int n) {
  return t_const(m, sg, DT_INT32, rank, shape, v, (size_t)n * 4);
}

/* declared shape is a placeholder: every shape_signature entry -1 */
static void sig_dyn(litert_model *m, int sg, int t) {
  litert_tensor *x = &m->subgraphs[sg].tensors[t];
  free(x->shape_signature);
  x->shape_signature = malloc(sizeof(int32_t) * (size_t)(x->rank > 0 ? x->rank : 1));
  for (int k = 0; k < x->rank; k++) x->shape_signature[k] = -1;
}

static void op_add(litert_model *m, int sg, int builtin, const litert_options *o, int nin,
                   const int32_t *in, int nout, const int32_t *out) {
  litert_options oo;
  if (o) oo = *o;
  else litert_options_default(&oo);
  if (!oo.type) oo.type = litert_builtin_options_type(builtin);
  litert_add_op(m, sg, builtin, NULL, nin, in, nout, out, &oo);
}

static litert_model *model_new(int nsg) {
  litert_model *m = litert_model_new();
  for (int i = 0; i < nsg; i++) litert_add_subgraph(m, i ? "sub" : "main");
  return m;
}

static void assert_shape(const ir_tensor *t, int rank, const int32_t *shape) {
  assert_int_equal(t->rank, rank);
  for (int k = 0; k < rank; k++) assert_int_equal(t->shape[k], shape[k]);
}

static int32_t i32_at(const ir_tensor *t, int k) {
  int32_t v;
  assert_true(t->role == ROLE_CONST && t->data && t->data_bytes >= 4 * (size_t)(k + 1));
  memcpy(&v, t->data + 4 * k, 4);
  return v;
}

/* x [1,4,3] -> TRANSPOSE perm (1,0,2) -> t (declared [1,1,1], signature -1)
 * -> ADD(t, t) -> y (same): t and y become [4,1,3]. TANH of x declared [3,4]
 * (static, inputs unchanged) keeps its declared shape. */
static void test_placeholder_from_producer(void **state) {
  (void)state;
  litert_model *m = model_new(1);
  int x = t_add(m, 0, DT_FLOAT32, 3, S(1, 4, 3));
  int perm = t_i32(m, 0, 1, S(3), S(1, 0, 2), 3);
  int t = t_add(m, 0, DT_FLOAT32, 3, S(1, 1, 1)), y = t_add(m, 0, DT_FLOAT32, 3, S(1, 1, 1));
  int z = t_add(m, 0, DT_FLOAT32, 2, S(3, 4));
  sig_dyn(m, 0, t);
  sig_dyn(m, 0, y);
  op_add(m, 0, OP_TRANSPOSE, NULL, 2, IO(x, perm), 1, IO(t));
  op_add(m, 0, OP_ADD, NULL, 2, IO(t, t), 1, IO(y));
  op_add(m, 0, OP_TANH, NULL, 1, IO(x), 1, IO(z));
  litert_set_io(m, 0, 1, IO(x), 2, IO(y, z));
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_non_null(g);
  assert_int_equal(ir_infer_shapes(g, &d), 0);
  assert_shape(&g->t[t], 3, S(4, 1, 3));
  assert_shape(&g->t[y], 3, S(4, 1, 3));
  assert_shape(&g->t[z], 2, S(3, 4));
  assert_int_equal(ir_verify(g, &d), 0);
  ir_free(g);
  litert_model_free(m);
}

/* STRIDED_SLICE of x [2,4,3] with a run-time begin (graph input):
 * dim 0 whole (begin_mask | end_mask), dim 1 shrunk at the run-time index,
 * dim 2 by offset with the constant length 2: the placeholder output becomes
 * [2,2]. With a run-time begin and neither shrink nor offset nor masks the
 * length is unknown: no shape. */
static void test_strided_slice_runtime_begin(void **state) {
  (void)state;
  litert_model *m = model_new(1);
  int x = t_add(m, 0, DT_FLOAT32, 3, S(2, 4, 3));
  int b = t_add(m, 0, DT_INT32, 1, S(3));
  int e = t_i32(m, 0, 1, S(3), S(0, 0, 2), 3), st = t_i32(m, 0, 1, S(3), S(1, 1, 1), 3);
  int y = t_add(m, 0, DT_FLOAT32, 2, S(1, 1)), z = t_add(m, 0, DT_FLOAT32, 3, S(1, 1, 1));
  sig_dyn(m, 0, y);
  sig_dyn(m, 0, z);
  litert_options o;
  litert_options_default(&o);
  o.begin_mask = 1;
  o.end_mask = 1;
  o.shrink_axis_mask = 2;
  o.ss_offset = 1;
  op_add(m, 0, OP_STRIDED_SLICE, &o, 4, IO(x, b, e, st), 1, IO(y));
  litert_options_default(&o);
  op_add(m, 0, OP_STRIDED_SLICE, &o, 4, IO(x, b, e, st), 1, IO(z));
  litert_set_io(m, 0, 2, IO(x, b), 2, IO(y, z));
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_int_equal(ir_infer_shapes(g, &d), 0);
  assert_shape(&g->t[y], 2, S(2, 2));
  assert_shape(&g->t[z], 3, S(1, 1, 1)); /* unchanged placeholder */
  const op_impl *impl = ops_find(g, &g->ops[0]);
  char why[256] = "";
  int rc = impl->check(g, &g->ops[0], why, sizeof why);
  if (rc) print_error("%s\n", why);
  assert_int_equal(rc, 0);
  ir_free(g);
  litert_model_free(m);
}

/* FULLY_CONNECTED x [3,6], weights [5,6]: an output stored with rank 0
 * (old converters' "unknown") becomes [3,5]; a real scalar (LESS of two
 * scalars) stays rank 0. */
static void test_rank0_placeholder(void **state) {
  (void)state;
  litert_model *m = model_new(1);
  float w[30] = {0};
  int x = t_add(m, 0, DT_FLOAT32, 2, S(3, 6));
  int wt = t_const(m, 0, DT_FLOAT32, 2, S(5, 6), w, sizeof w);
  int y = t_add(m, 0, DT_FLOAT32, 0, NULL);
  int a = t_add(m, 0, DT_INT32, 0, NULL), b = t_i32(m, 0, 0, NULL, S(4), 1);
  int c = t_add(m, 0, DT_BOOL, 0, NULL);
  op_add(m, 0, OP_FULLY_CONNECTED, NULL, 3, IO(x, wt, -1), 1, IO(y));
  op_add(m, 0, OP_LESS, NULL, 2, IO(a, b), 1, IO(c));
  litert_set_io(m, 0, 2, IO(x, a), 2, IO(y, c));
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_int_equal(ir_infer_shapes(g, &d), 0);
  assert_shape(&g->t[y], 2, S(3, 5));
  assert_int_equal(g->t[c].rank, 0);
  ir_free(g);
  litert_model_free(m);
}

/* x [1,5,3]: SHAPE -> s = [1,5,3]; STRIDED_SLICE(s, [0], [1], [1], shrink)
 * -> n = 1 (scalar); PACK(n, 7) -> dims = [1,7]; FILL(dims, 0.5) -> f
 * (declared [1,1], signature -1) gets [1,7]; RESHAPE(x, SHAPE(f') ...) is
 * not needed: the integer ops are constants and dead, FILL (float) stays. */
static void test_shape_arithmetic(void **state) {
  (void)state;
  litert_model *m = model_new(1);
  float half = 0.5f;
  int x = t_add(m, 0, DT_FLOAT32, 3, S(1, 5, 3));
  int s = t_add(m, 0, DT_INT32, 1, S(3));
  int b0 = t_i32(m, 0, 1, S(1), S(0), 1), b1 = t_i32(m, 0, 1, S(1), S(1), 1);
  int n = t_add(m, 0, DT_INT32, 0, NULL);
  int seven = t_i32(m, 0, 0, NULL, S(7), 1);
  int dims = t_add(m, 0, DT_INT32, 1, S(2));
  int v = t_const(m, 0, DT_FLOAT32, 0, NULL, &half, 4);
  int f = t_add(m, 0, DT_FLOAT32, 2, S(1, 1));
  int y = t_add(m, 0, DT_FLOAT32, 3, S(1, 5, 3));
  sig_dyn(m, 0, f);
  litert_options o;
  op_add(m, 0, OP_SHAPE, NULL, 1, IO(x), 1, IO(s));
  litert_options_default(&o);
  o.shrink_axis_mask = 1;
  op_add(m, 0, OP_STRIDED_SLICE, &o, 4, IO(s, b0, b1, b1), 1, IO(n));
  litert_options_default(&o);
  o.axis = 0;
  o.num = 2;
  op_add(m, 0, OP_PACK, &o, 2, IO(n, seven), 1, IO(dims));
  op_add(m, 0, OP_FILL, NULL, 2, IO(dims, v), 1, IO(f));
  op_add(m, 0, OP_TANH, NULL, 1, IO(x), 1, IO(y));
  litert_set_io(m, 0, 1, IO(x), 2, IO(f, y));
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_int_equal(ir_infer_shapes(g, &d), 0);
  assert_true(g->ops[0].dead && g->ops[1].dead && g->ops[2].dead);
  assert_false(g->ops[3].dead);
  assert_int_equal(i32_at(&g->t[s], 0), 1);
  assert_int_equal(i32_at(&g->t[s], 1), 5);
  assert_int_equal(i32_at(&g->t[s], 2), 3);
  assert_int_equal(g->t[n].rank, 0);
  assert_int_equal(i32_at(&g->t[n], 0), 1);
  assert_int_equal(i32_at(&g->t[dims], 0), 1);
  assert_int_equal(i32_at(&g->t[dims], 1), 7);
  assert_shape(&g->t[f], 2, S(1, 7));
  assert_int_equal(ir_verify(g, &d), 0);
  /* the FILL op now passes its check (static dims) */
  const op_impl *impl = ops_find(g, &g->ops[3]);
  char why[256] = "";
  assert_non_null(impl);
  assert_int_equal(impl->check(g, &g->ops[3], why, sizeof why), 0);
  ir_free(g);
  litert_model_free(m);
}

/* ---- WHILE with a TensorList set-item body --------------------------------
 * main:  x [1,2] input; dims = CONCATENATION([3], SHAPE(x)) = [3,1,2];
 *        L0 = FILL(dims, 0) (placeholder); WHILE(i0 = 0, L0, x) -> (i, L, h)
 * cond:  LESS(i, 3)
 * body:  i1 = i + 1
 *        p1 = SLICE(L, [0,0,0], CONCAT(RESHAPE(i, [1]), [-1,-1]))      L[0:i]
 *        p2 = SLICE(L, CONCAT(RESHAPE(i1, [1]), [0,0]), [-1,-1,-1])   L[i+gap:]
 *        L2 = CONCATENATION(p1, EXPAND_DIMS(h, 0), p2)  (placeholders)
 *        h2 = h + 1
 * With gap = 1 the body writes L[i] = h, and the pass rewrites it. */
typedef struct loopm {
  litert_model *m;
  int x, L0, Lout;              /* main */
  int bi, bL, bh, hx, L2, i1;   /* body */
} loopm;

static loopm loop_model(int gap, int grow) {
  loopm r;
  litert_model *m = model_new(3);
  r.m = m;
  float zero = 0.0f, one = 1.0f;
  litert_options o;
  /* main */
  int x = t_add(m, 0, DT_FLOAT32, 2, S(1, 2));
  int c3 = t_i32(m, 0, 1, S(1), S(3), 1);
  int sx = t_add(m, 0, DT_INT32, 1, S(2));
  int dims = t_add(m, 0, DT_INT32, 1, S(3));
  int fz = t_const(m, 0, DT_FLOAT32, 0, NULL, &zero, 4);
  int L0 = t_add(m, 0, DT_FLOAT32, 3, S(1, 1, 1));
  int i0 = t_i32(m, 0, 0, NULL, S(0), 1);
  int io = t_add(m, 0, DT_INT32, 0, NULL), Lo = t_add(m, 0, DT_FLOAT32, 3, S(1, 1, 1));
  int ho = t_add(m, 0, DT_FLOAT32, 2, S(1, 2));
  sig_dyn(m, 0, L0);
  sig_dyn(m, 0, Lo);
  op_add(m, 0, OP_SHAPE, NULL, 1, IO(x), 1, IO(sx));
  litert_options_default(&o);
  o.axis = 0;
  op_add(m, 0, OP_CONCATENATION, &o, 2, IO(c3, sx), 1, IO(dims));
  op_add(m, 0, OP_FILL, NULL, 2, IO(dims, fz), 1, IO(L0));
  litert_options_default(&o);
  o.cond_subgraph = 1;
  o.body_subgraph = 2;
  op_add(m, 0, OP_WHILE, &o, 3, IO(i0, L0, x), 3, IO(io, Lo, ho));
  litert_set_io(m, 0, 1, IO(x), 1, IO(Lo));
  /* cond */
  int ci = t_add(m, 1, DT_INT32, 0, NULL), cL = t_add(m, 1, DT_FLOAT32, 3, S(1, 1, 1));
  int ch = t_add(m, 1, DT_FLOAT32, 2, S(1, 2));
  int lim = t_i32(m, 1, 0, NULL, S(3), 1), cb = t_add(m, 1, DT_BOOL, 0, NULL);
  sig_dyn(m, 1, cL);
  op_add(m, 1, OP_LESS, NULL, 2, IO(ci, lim), 1, IO(cb));
  litert_set_io(m, 1, 3, IO(ci, cL, ch), 1, IO(cb));
  /* body */
  int bi = t_add(m, 2, DT_INT32, 0, NULL), bL = t_add(m, 2, DT_FLOAT32, 3, S(1, 1, 1));
  int bh = t_add(m, 2, DT_FLOAT32, 2, S(1, 2));
  sig_dyn(m, 2, bL);
  int k1 = t_i32(m, 2, 0, NULL, S(1), 1), kg = t_i32(m, 2, 0, NULL, S(gap), 1);
  int s1 = t_i32(m, 2, 1, S(1), S(1), 1);
  int m11 = t_i32(m, 2, 1, S(2), S(-1, -1), 2), z2 = t_i32(m, 2, 1, S(2), S(0, 0), 2);
  int z3 = t_i32(m, 2, 1, S(3), S(0, 0, 0), 3), m111 = t_i32(m, 2, 1, S(3), S(-1, -1, -1), 3);
  int ax0 = t_i32(m, 2, 0, NULL, S(0), 1);
  int fone = t_const(m, 2, DT_FLOAT32, 0, NULL, &one, 4);
  int i1 = t_add(m, 2, DT_INT32, 0, NULL), ig = t_add(m, 2, DT_INT32, 0, NULL);
  int ri = t_add(m, 2, DT_INT32, 1, S(1)), sz = t_add(m, 2, DT_INT32, 1, S(3));
  int rg = t_add(m, 2, DT_INT32, 1, S(1)), b2 = t_add(m, 2, DT_INT32, 1, S(3));
  int p1 = t_add(m, 2, DT_FLOAT32, 3, S(1, 1, 1)), p2 = t_add(m, 2, DT_FLOAT32, 3, S(1, 1, 1));
  int hx = t_add(m, 2, DT_FLOAT32, 3, S(1, 1, 2));
  int L2 = t_add(m, 2, DT_FLOAT32, 3, S(1, 1, 1)), h2 = t_add(m, 2, DT_FLOAT32, 2, S(1, 2));
  sig_dyn(m, 2, p1);
  sig_dyn(m, 2, p2);
  sig_dyn(m, 2, L2);
  op_add(m, 2, OP_ADD, NULL, 2, IO(bi, k1), 1, IO(i1));
  op_add(m, 2, OP_ADD, NULL, 2, IO(bi, kg), 1, IO(ig));
  litert_options_default(&o);
  o.new_shape_n = -1;
  op_add(m, 2, OP_RESHAPE, &o, 2, IO(bi, s1), 1, IO(ri));
  litert_options_default(&o);
  o.axis = 0;
  op_add(m, 2, OP_CONCATENATION, &o, 2, IO(ri, m11), 1, IO(sz));
  op_add(m, 2, OP_SLICE, NULL, 3, IO(bL, z3, sz), 1, IO(p1));
  litert_options_default(&o);
  o.new_shape_n = -1;
  op_add(m, 2, OP_RESHAPE, &o, 2, IO(ig, s1), 1, IO(rg));
  litert_options_default(&o);
  o.axis = 0;
  op_add(m, 2, OP_CONCATENATION, &o, 2, IO(rg, z2), 1, IO(b2));
  op_add(m, 2, OP_SLICE, NULL, 3, IO(bL, b2, m111), 1, IO(p2));
  op_add(m, 2, OP_EXPAND_DIMS, NULL, 2, IO(bh, ax0), 1, IO(hx));
  litert_options_default(&o);
  o.axis = 0;
  if (grow) op_add(m, 2, OP_CONCATENATION, &o, 2, IO(bL, hx), 1, IO(L2));
  else op_add(m, 2, OP_CONCATENATION, &o, 3, IO(p1, hx, p2), 1, IO(L2));
  op_add(m, 2, OP_ADD, NULL, 2, IO(bh, fone), 1, IO(h2));
  litert_set_io(m, 2, 3, IO(bi, bL, bh), 3, IO(i1, L2, h2));
  r.x = x;
  r.L0 = L0;
  r.Lout = Lo;
  r.bi = bi;
  r.bL = bL;
  r.bh = bh;
  r.hx = hx;
  r.L2 = L2;
  r.i1 = i1;
  return r;
}

static int find_op(const ir_graph *g, int builtin) {
  for (int i = 0; i < g->nops; i++)
    if (!g->ops[i].dead && g->ops[i].builtin == builtin) return i;
  return -1;
}

/* Runs the live ops of g with eval() (after the transforms removed the dead
 * slices); inputs given, returns the buffers (caller frees). */
static void **run_graph(const ir_graph *g, const void *const *inputs) {
  void **data = calloc((size_t)g->nt, sizeof(void *));
  for (int t = 0; t < g->nt; t++) {
    size_t nb = ir_bytes(&g->t[t]);
    data[t] = calloc(1, nb + 16);
    if (g->t[t].role == ROLE_CONST && g->t[t].data) memcpy(data[t], g->t[t].data, nb);
  }
  for (int i = 0; i < g->nin; i++)
    memcpy(data[g->inputs[i]], inputs[i], ir_bytes(&g->t[g->inputs[i]]));
  for (int i = 0; i < g->nops; i++) {
    const ir_op *op = &g->ops[i];
    if (op->dead) continue;
    const op_impl *impl = ops_find(g, op);
    assert_non_null(impl);
    char why[256] = "";
    int rc = impl->check(g, op, why, sizeof why);
    if (rc) print_error("op %d (%s): %s\n", op->id, litert_op_name(op->builtin), why);
    assert_int_equal(rc, 0);
    /* aliased reshapes share their root's bytes */
    for (int k = 0; k < op->nin; k++)
      if (op->in[k] >= 0 && g->t[op->in[k]].alias >= 0)
        memcpy(data[op->in[k]], data[ir_root(g, op->in[k])], ir_bytes(&g->t[op->in[k]]));
    assert_int_equal(op_eval(impl, g, op, data, NULL), 0);
  }
  return data;
}

static void test_while_set_item(void **state) {
  (void)state;
  loopm lm = loop_model(1, 0);
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(lm.m, 0, &d);
  assert_int_equal(ir_infer_shapes(g, &d), 0);
  /* dims = [3] ++ SHAPE(x) = [3,1,2] is a constant; FILL and WHILE get it */
  assert_shape(&g->t[lm.L0], 3, S(3, 1, 2));
  assert_shape(&g->t[lm.Lout], 3, S(3, 1, 2));
  int w = find_op(g, OP_WHILE);
  assert_true(w >= 0);
  ir_graph *cond = ir_from_litert(lm.m, 1, &d), *body = ir_from_litert(lm.m, 2, &d);
  assert_int_equal(ir_infer_callee_shapes(cond, g, &g->ops[w], &d), 0);
  assert_shape(&cond->t[cond->inputs[1]], 3, S(3, 1, 2));
  int n = ir_infer_callee_shapes(body, g, &g->ops[w], &d);
  if (n < 0) print_error("%s\n", d.msg);
  assert_int_equal(n, 1);
  assert_shape(&body->t[lm.bL], 3, S(3, 1, 2));
  assert_shape(&body->t[lm.L2], 3, S(3, 1, 2));
  int u = find_op(body, OP_DYNAMIC_UPDATE_SLICE);
  assert_true(u >= 0);
  const ir_op *dus = &body->ops[u];
  assert_int_equal(dus->in[0], lm.bL);
  assert_int_equal(dus->in[1], lm.hx);
  assert_int_equal(dus->out[0], lm.L2);
  /* start = PACK(i, 0, 0), placed before the update */
  int pk = find_op(body, OP_PACK);
  assert_true(pk >= 0 && pk < u);
  assert_int_equal(body->ops[pk].out[0], dus->in[2]);
  assert_int_equal(body->ops[pk].in[0], lm.bi);
  assert_shape(&body->t[dus->in[2]], 1, S(3));
  /* the transforms drop the slices; the body then computes L[i] = h */
  assert_true(ir_run_transforms(body, NULL, &d) >= 0);
  assert_true(find_op(body, OP_SLICE) < 0);
  int32_t i = 1;
  float L[6] = {1, 2, 3, 4, 5, 6}, h[2] = {7, 8};
  const void *ins[3] = {&i, L, h};
  void **data = run_graph(body, ins);
  const float want[6] = {1, 2, 7, 8, 5, 6};
  assert_memory_equal(data[lm.L2], want, sizeof want);
  assert_int_equal(*(int32_t *)data[lm.i1], 2);
  for (int t = 0; t < body->nt; t++) free(data[t]);
  free(data);
  ir_free(cond);
  ir_free(body);
  ir_free(g);
  litert_model_free(lm.m);
}

/* The second slice starts at i + 2 while the item has extent 1: not a
 * set-item, left alone (its shapes stay unknown, the ops refuse later). */
static void test_set_item_gap_not_rewritten(void **state) {
  (void)state;
  loopm lm = loop_model(2, 0);
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(lm.m, 0, &d);
  assert_int_equal(ir_infer_shapes(g, &d), 0);
  int w = find_op(g, OP_WHILE);
  ir_graph *body = ir_from_litert(lm.m, 2, &d);
  d.quiet = 1;
  assert_int_equal(ir_infer_callee_shapes(body, g, &g->ops[w], &d), -1);
  assert_non_null(strstr(d.msg, "cannot be inferred statically"));
  assert_true(find_op(body, OP_DYNAMIC_UPDATE_SLICE) < 0);
  assert_true(find_op(body, OP_CONCATENATION) >= 0);
  ir_free(body);
  ir_free(g);
  litert_model_free(lm.m);
}

/* A body whose list grows (CONCATENATION(L, h)) changes a loop variable's
 * shape: refused with a message naming the loop variable. */
static void test_loop_variable_changes_shape(void **state) {
  (void)state;
  loopm lm = loop_model(1, 1);
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(lm.m, 0, &d);
  assert_int_equal(ir_infer_shapes(g, &d), 0);
  int w = find_op(g, OP_WHILE);
  ir_graph *body = ir_from_litert(lm.m, 2, &d);
  d.quiet = 1;
  assert_int_equal(ir_infer_callee_shapes(body, g, &g->ops[w], &d), -1);
  assert_non_null(strstr(d.msg, "loop variable 1"));
  assert_non_null(strstr(d.msg, "[3, 1, 2]"));
  assert_non_null(strstr(d.msg, "[4, 1, 2]"));
  ir_free(body);
  ir_free(g);
  litert_model_free(lm.m);
}

/* Outputs of the graph and int32 results too large for shape arithmetic are
 * not turned into constants. */
static void test_no_fold_outputs(void **state) {
  (void)state;
  litert_model *m = model_new(1);
  int x = t_add(m, 0, DT_FLOAT32, 2, S(2, 3));
  int s = t_add(m, 0, DT_INT32, 1, S(2));
  int a = t_i32(m, 0, 1, S(100), (int32_t[100]){0}, 100), b = t_i32(m, 0, 0, NULL, S(1), 1);
  int big = t_add(m, 0, DT_INT32, 1, S(100)), y = t_add(m, 0, DT_FLOAT32, 2, S(2, 3));
  op_add(m, 0, OP_SHAPE, NULL, 1, IO(x), 1, IO(s));
  op_add(m, 0, OP_ADD, NULL, 2, IO(a, b), 1, IO(big));
  op_add(m, 0, OP_TANH, NULL, 1, IO(x), 1, IO(y));
  litert_set_io(m, 0, 1, IO(x), 2, IO(s, y));
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_int_equal(ir_infer_shapes(g, &d), 0);
  assert_false(g->ops[0].dead);
  assert_false(g->ops[1].dead);
  assert_int_equal(g->t[s].role, ROLE_OUTPUT);
  ir_free(g);
  litert_model_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_placeholder_from_producer),
      cmocka_unit_test(test_strided_slice_runtime_begin),
      cmocka_unit_test(test_rank0_placeholder),
      cmocka_unit_test(test_shape_arithmetic),
      cmocka_unit_test(test_while_set_item),
      cmocka_unit_test(test_set_item_gap_not_rewritten),
      cmocka_unit_test(test_loop_variable_changes_shape),
      cmocka_unit_test(test_no_fold_outputs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
