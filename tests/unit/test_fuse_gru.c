/* test_fuse_gru.c - the LiteRT hook fuse_rolled_gru.
 *
 * References used here are independent of the hook:
 *  - the shared Keras models (bigru64 fp32 / fp16 weights, precise hey
 *    mycroft) and their LiteRT goldens (shared/goldens/gru);
 *  - the fused parameters are compared with the weights of the original
 *    loop bodies (read back from the unfused model by op position);
 *  - random GRU loops synthesized here in the Keras WHILE form, from weights
 *    generated here, are checked against a double-precision GRU written in
 *    this file (and against the reference interpreter on the unfused model).
 * Negative cases modify a real model's body in memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "aot_recurrent.h"
#include "io/npy.h"
#include "ir/ir.h"
#include "litert/fp16.h"
#include "litert/hooks.h"
#include "litert/litert.h"
#include "ops/ops.h"
#include "ref/ref.h"

/* The reference interpreter may not be linked in every build. */
#pragma weak ref_run

/* ---- helpers --------------------------------------------------------------- */

static const char *shared_dir(void) {
  const char *s = getenv("AOTC_SHARED");
  return s && *s ? s : "../shared";
}

static char *shared_path(const char *rel) {
  char *p = xasprintf("%s/%s", shared_dir(), rel);
  struct stat st;
  if (stat(p, &st) != 0) {
    fprintf(stderr, "skipping: %s not found (set AOTC_SHARED)\n", p);
    free(p);
    return NULL;
  }
  return p;
}

static litert_model *load_shared(const char *rel) {
  char *p = shared_path(rel);
  if (!p) return NULL;
  aotc_diag d = {0};
  litert_model *m = litert_read_file(p, &d);
  if (!m) fprintf(stderr, "%s: %s\n", p, d.msg);
  free(p);
  assert_non_null(m);
  return m;
}

static int count_builtin(const litert_model *m, int sg, int builtin, const char *custom) {
  int n = 0;
  const litert_subgraph *s = &m->subgraphs[sg];
  for (int i = 0; i < s->nops; i++) {
    if (litert_op_builtin(m, &s->ops[i]) != builtin) continue;
    const char *c = litert_op_custom(m, &s->ops[i]);
    if (custom && (!c || strcmp(c, custom) != 0)) continue;
    n++;
  }
  return n;
}

static const litert_op *nth_op(const litert_model *m, int sg, int builtin, int nth) {
  const litert_subgraph *s = &m->subgraphs[sg];
  for (int i = 0; i < s->nops; i++)
    if (litert_op_builtin(m, &s->ops[i]) == builtin && nth-- == 0) return &s->ops[i];
  return NULL;
}

static int32_t opt_word(const litert_op *op, int i) {
  const uint8_t *b = op->custom_options + 4 * i;
  return (int32_t)((uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) |
                   ((uint32_t)b[3] << 24));
}

/* Values of a constant tensor as floats (float32 or float16 storage). */
static float *tensor_floats(const litert_model *m, int sg, int t, size_t *n) {
  const litert_tensor *x = &m->subgraphs[sg].tensors[t];
  const litert_buffer *b = &m->buffers[x->buffer];
  size_t es = x->type == DT_FLOAT16 ? 2 : 4;
  *n = b->size / es;
  float *v = malloc(sizeof(float) * (*n + 1));
  for (size_t i = 0; i < *n; i++) {
    if (x->type == DT_FLOAT16) {
      uint16_t h;
      memcpy(&h, b->data + 2 * i, 2);
      v[i] = aot_f16_to_f32(h);
    } else {
      memcpy(&v[i], b->data + 4 * i, 4);
    }
  }
  return v;
}

/* The constant behind t: its own buffer or the one a DEQUANTIZE reads. */
static int const_source(const litert_model *m, int sg, int t) {
  const litert_subgraph *s = &m->subgraphs[sg];
  if (s->tensors[t].buffer && m->buffers[s->tensors[t].buffer].size) return t;
  for (int i = 0; i < s->nops; i++)
    if (s->ops[i].noutputs == 1 && s->ops[i].outputs[0] == t &&
        litert_op_builtin(m, &s->ops[i]) == OP_DEQUANTIZE)
      return s->ops[i].inputs[0];
  return -1;
}

/* ---- evaluating subgraph 0 with the operators' eval functions ------------------- */

/* Runs the fused main graph (no transforms) with op evals. Returns 1 and
 * fills out (float32 copy of output `which`) on success, 0 when some op
 * has no linked implementation (skip). */
static int eval_graph(const litert_model *m, const float *const *inputs, int which, float *out,
                      size_t nout) {
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_non_null(g);
  for (int i = 0; i < g->nops; i++) {
    const op_impl *impl = ops_find(g, &g->ops[i]);
    if (!impl || !op_has_eval(impl)) {
      fprintf(stderr, "skipping eval: op %d (%s) not linked\n", i,
              g->ops[i].custom ? g->ops[i].custom : litert_op_name(g->ops[i].builtin));
      ir_free(g);
      return 0;
    }
  }
  void **data = calloc((size_t)g->nt, sizeof(void *));
  char *own = calloc((size_t)g->nt, 1);
  for (int t = 0; t < g->nt; t++) {
    if (g->t[t].role == ROLE_CONST) {
      data[t] = (void *)g->t[t].data;
    } else {
      data[t] = calloc(1, ir_bytes(&g->t[t]) + 16);
      own[t] = 1;
    }
  }
  for (int i = 0; i < g->nin; i++) {
    ir_tensor *x = &g->t[g->inputs[i]];
    size_t n = ir_numel(x);
    for (size_t e = 0; e < n; e++) {
      if (x->dtype == DT_FLOAT16) ((uint16_t *)data[g->inputs[i]])[e] = aot_f32_to_f16(inputs[i][e]);
      else ((float *)data[g->inputs[i]])[e] = inputs[i][e];
    }
  }
  for (int i = 0; i < g->nops; i++) {
    const ir_op *op = &g->ops[i];
    const op_impl *impl = ops_find(g, op);
    char why[256] = "";
    if (impl->check && impl->check(g, op, why, sizeof why) != 0)
      fail_msg("op %d (%s): check failed: %s", i, op->custom ? op->custom : litert_op_name(op->builtin), why);
    size_t sb = impl->scratch ? impl->scratch(g, op) : 0;
    void *scratch = calloc(1, sb + 16);
    int st = op_eval(impl, g, op, data, scratch);
    free(scratch);
    if (st != 0) fail_msg("op %d (%s): eval status %d", i, litert_op_name(op->builtin), st);
  }
  ir_tensor *o = &g->t[g->outputs[which]];
  assert_int_equal(ir_numel(o), nout);
  for (size_t e = 0; e < nout; e++)
    out[e] = o->dtype == DT_FLOAT16 ? aot_f16_to_f32(((uint16_t *)data[g->outputs[which]])[e])
                                    : ((float *)data[g->outputs[which]])[e];
  for (int t = 0; t < g->nt; t++)
    if (own[t]) free(data[t]);
  free(data);
  free(own);
  ir_free(g);
  return 1;
}

/* Serializes and reads back (the writer must accept the rewritten model). */
static void check_roundtrip(const litert_model *m) {
  aotc_diag d = {0};
  uint8_t *buf = NULL;
  size_t len = 0;
  if (litert_write(m, &buf, &len, &d) != 0) fail_msg("litert_write: %s", d.msg);
  litert_model *r = litert_read(buf, len, &d);
  if (!r) fail_msg("reading the written model: %s", d.msg);
  char why[256];
  if (!litert_model_equal(m, r, why, sizeof why)) fail_msg("roundtrip differs: %s", why);
  litert_model_free(r);
  free(buf);
}

/* ---- the shared models ------------------------------------------------------------ */

/* Fused parameters of the GRU op vs the FC weights of the original body:
 * W = weights of the FC reading the GATHERed input, U = weights of the FC
 * reading the state, biases likewise. */
static void check_bigru_params(const litert_model *orig, int body, const litert_model *m,
                               const litert_op *gop, int want_dtype) {
  const litert_subgraph *B = &orig->subgraphs[body];
  int fc_h = -1, fc_x = -1;
  for (int i = 0; i < B->nops; i++) {
    if (litert_op_builtin(orig, &B->ops[i]) != OP_FULLY_CONNECTED) continue;
    if (B->ops[i].inputs[0] == B->inputs[3]) fc_h = i;
    else fc_x = i;
  }
  assert_true(fc_h >= 0 && fc_x >= 0);
  int src[4] = {const_source(orig, body, B->ops[fc_x].inputs[1]),
                const_source(orig, body, B->ops[fc_h].inputs[1]),
                const_source(orig, body, B->ops[fc_x].inputs[2]),
                const_source(orig, body, B->ops[fc_h].inputs[2])};
  for (int k = 0; k < 4; k++) {
    assert_true(src[k] >= 0);
    int ft = gop->inputs[2 + k];
    assert_true(ft >= 0);
    const litert_tensor *F = &m->subgraphs[0].tensors[ft];
    const litert_tensor *O = &B->tensors[src[k]];
    assert_int_equal(F->type, want_dtype);
    assert_int_equal(F->rank, O->rank);
    for (int r = 0; r < F->rank; r++) assert_int_equal(F->shape[r], O->shape[r]);
    size_t na, nb;
    float *a = tensor_floats(m, 0, ft, &na), *b = tensor_floats(orig, body, src[k], &nb);
    assert_int_equal(na, nb);
    for (size_t e = 0; e < na; e++)
      if (memcmp(&a[e], &b[e], sizeof(float)) != 0) fail_msg("param %d elem %zu: %g vs %g", k, e, a[e], b[e]);
    free(a), free(b);
  }
}

static void golden_check(const litert_model *m, const char *golden, double tol) {
  char *p = shared_path(golden);
  if (!p) return;
  aotc_diag d = {0};
  npy_array *a = NULL;
  int n = 0;
  if (npz_read(p, &a, &n, &d) != 0) fail_msg("%s: %s", p, d.msg);
  free(p);
  const npy_array *in = npz_find(a, n, "input_0"), *out = npz_find(a, n, "output_0");
  assert_non_null(in);
  assert_non_null(out);
  float *x = malloc(sizeof(float) * in->count);
  for (size_t i = 0; i < in->count; i++) x[i] = (float)npy_get_double(in, i);
  float *y = malloc(sizeof(float) * out->count);
  const float *ins[1] = {x};
  if (eval_graph(m, ins, 0, y, out->count)) {
    double worst = 0;
    for (size_t i = 0; i < out->count; i++) {
      double e = fabs((double)y[i] - npy_get_double(out, i));
      if (e > worst) worst = e;
    }
    fprintf(stderr, "  %s: max |fused - golden| = %.3g\n", golden, worst);
    assert_true(worst <= tol);
  }
  free(x), free(y);
  npz_free(a, n);
}

static void test_bigru_fp32(void **state) {
  (void)state;
  litert_model *m = load_shared("models/gru/bigru64_fp32.tflite");
  if (!m) skip();
  litert_model *orig = load_shared("models/gru/bigru64_fp32.tflite");
  aotc_diag d = {0};
  assert_int_equal(count_builtin(m, 0, OP_WHILE, NULL), 2);
  int n = litert_hook_fuse_rolled_gru(m, 0, "bigru64_fp32.tflite", &d);
  if (n != 2) fail_msg("fused %d: %s", n, d.msg);
  assert_int_equal(count_builtin(m, 0, OP_WHILE, NULL), 0);
  assert_int_equal(count_builtin(m, 0, OP_CUSTOM, "GRU"), 2);
  assert_int_equal(m->nsubgraphs, 1);  /* cond/body subgraphs dropped */
  assert_int_equal(count_builtin(m, 0, OP_REVERSE_V2, NULL), 1); /* only Bidirectional's */
  int backwards = 0;
  for (int k = 0; k < 2; k++) {
    const litert_op *gop = nth_op(m, 0, OP_CUSTOM, k);
    assert_int_equal(gop->custom_options_len, AOT_GRU_OPTIONS_SIZE);
    assert_int_equal(opt_word(gop, 0), 64);
    assert_int_equal(opt_word(gop, 1), 1);               /* reset_after */
    assert_int_equal(opt_word(gop, 2), AOT_GRU_SIGMOID);
    assert_int_equal(opt_word(gop, 3), AOT_GRU_TANH);
    assert_int_equal(opt_word(gop, 5), 1);               /* return_sequences */
    backwards += opt_word(gop, 4);
    /* the original loop k: WHILE op k of the original main graph */
    const litert_op *w = nth_op(orig, 0, OP_WHILE, k);
    check_bigru_params(orig, w->opts.body_subgraph, m, gop, DT_FLOAT32);
    const litert_tensor *x = &m->subgraphs[0].tensors[gop->inputs[0]];
    assert_int_equal(x->rank, 3);
    assert_int_equal(x->shape[0], 1);
    assert_int_equal(x->shape[1], 15);
    assert_int_equal(x->shape[2], 128);
  }
  assert_int_equal(backwards, 1);
  check_roundtrip(m);
  golden_check(m, "goldens/gru/bigru64_fp32.npz", 1e-4);
  /* running the hook again changes nothing */
  assert_int_equal(litert_hook_fuse_rolled_gru(m, 0, NULL, &d), 0);
  litert_model_free(m);
  litert_model_free(orig);
}

/* Dynamic-range (int8 weight) form of bigru64: every FULLY_CONNECTED weight of
 * the bodies int8 symmetric per row. The hook must fuse both loops with int8
 * W / U carrying one scale per row, and each fused value times its scale
 * must be the float weight the float hook packs at the same place (within
 * half a step: the rows were reordered by gate, not requantized). */
static void quantize_bodies(litert_model *m) {
  for (int s = 1; s < m->nsubgraphs; s++) {
    litert_subgraph *g = &m->subgraphs[s];
    for (int i = 0; i < g->nops; i++) {
      litert_op *op = &g->ops[i];
      if (litert_op_builtin(m, op) != OP_FULLY_CONNECTED || op->ninputs < 2) continue;
      litert_tensor *w = &g->tensors[op->inputs[1]];
      if (w->type != DT_FLOAT32 || w->rank != 2 || !w->buffer) continue;
      int rows = w->shape[0], cols = w->shape[1];
      const float *f = (const float *)m->buffers[w->buffer].data;
      int8_t *q = xmalloc((size_t)rows * cols);
      float *sc = xmalloc(sizeof(float) * rows);
      for (int r = 0; r < rows; r++) {
        float mx = 0;
        for (int c = 0; c < cols; c++) mx = fmaxf(mx, fabsf(f[(size_t)r * cols + c]));
        sc[r] = mx > 0 ? mx / 127 : 1;
        for (int c = 0; c < cols; c++) q[(size_t)r * cols + c] = (int8_t)lroundf(f[(size_t)r * cols + c] / sc[r]);
      }
      int b = litert_add_buffer(m, q, (size_t)rows * cols);
      free(q);
      g = &m->subgraphs[s];
      w = &g->tensors[g->ops[i].inputs[1]];
      w->buffer = (uint32_t)b;
      w->type = DT_INT8;
      w->q.nscale = w->q.nzero = rows;
      w->q.scale = sc;
      w->q.zero_point = xcalloc((size_t)rows, sizeof(int64_t));
      w->q.quantized_dimension = 0;
    }
  }
}

static void test_bigru_int8(void **state) {
  (void)state;
  litert_model *m = load_shared("models/gru/bigru64_fp32.tflite");
  if (!m) skip();
  litert_model *f = load_shared("models/gru/bigru64_fp32.tflite");
  quantize_bodies(m);
  aotc_diag d = {0};
  assert_int_equal(litert_hook_fuse_rolled_gru(m, 0, NULL, &d), 2);
  assert_int_equal(d.nwarn, 0);
  assert_int_equal(litert_hook_fuse_rolled_gru(f, 0, NULL, &d), 2);
  for (int k = 0; k < 2; k++) {
    const litert_op *gq = nth_op(m, 0, OP_CUSTOM, k), *gf = nth_op(f, 0, OP_CUSTOM, k);
    for (int i = 2; i <= 3; i++) {
      const litert_tensor *tq = &m->subgraphs[0].tensors[gq->inputs[i]];
      const litert_tensor *tf = &f->subgraphs[0].tensors[gf->inputs[i]];
      assert_int_equal(tq->type, DT_INT8);
      assert_int_equal(tq->q.nscale, tq->shape[0]);
      assert_int_equal(tq->q.quantized_dimension, 0);
      const int8_t *q = (const int8_t *)m->buffers[tq->buffer].data;
      const float *w = (const float *)f->buffers[tf->buffer].data;
      int cols = tq->shape[1];
      for (int r = 0; r < tq->shape[0]; r++)
        for (int c = 0; c < cols; c++) {
          float s = tq->q.scale[r];
          if (fabsf(q[(size_t)r * cols + c] * s - w[(size_t)r * cols + c]) > 0.5f * s * 1.0001f)
            fail_msg("loop %d input %d (%d, %d): %g vs %g", k, i, r, c, q[(size_t)r * cols + c] * s,
                     w[(size_t)r * cols + c]);
        }
    }
    /* biases stay float32 */
    assert_int_equal(m->subgraphs[0].tensors[gq->inputs[4]].type, DT_FLOAT32);
  }
  litert_model_free(m);
  litert_model_free(f);
}

static void test_bigru_fp16w(void **state) {
  (void)state;
  litert_model *m = load_shared("models/gru/bigru64_fp16w.tflite");
  if (!m) skip();
  litert_model *orig = load_shared("models/gru/bigru64_fp16w.tflite");
  aotc_diag d = {0};
  int n = litert_hook_fuse_rolled_gru(m, 0, NULL, &d);
  if (n != 2) fail_msg("fused %d: %s", n, d.msg);
  assert_int_equal(count_builtin(m, 0, OP_WHILE, NULL), 0);
  assert_int_equal(m->nsubgraphs, 1);
  for (int k = 0; k < 2; k++) {
    const litert_op *gop = nth_op(m, 0, OP_CUSTOM, k);
    const litert_op *w = nth_op(orig, 0, OP_WHILE, k);
    check_bigru_params(orig, w->opts.body_subgraph, m, gop, DT_FLOAT16); /* same bits, half size */
    assert_int_equal(m->subgraphs[0].tensors[gop->inputs[0]].type, DT_FLOAT32);
    assert_int_equal(m->subgraphs[0].tensors[gop->inputs[1]].type, DT_FLOAT32);
  }
  check_roundtrip(m);
  golden_check(m, "goldens/gru/bigru64_fp16w.npz", 1e-4);
  litert_model_free(m);
  litert_model_free(orig);
}

static void test_hey_mycroft(void **state) {
  (void)state;
  litert_model *m = load_shared("models/gru/precise_hey_mycroft.tflite");
  if (!m) skip();
  litert_model *orig = load_shared("models/gru/precise_hey_mycroft.tflite");
  aotc_diag d = {0};
  int n = litert_hook_fuse_rolled_gru(m, 0, NULL, &d);
  if (n != 1) fail_msg("fused %d: %s", n, d.msg);
  assert_int_equal(count_builtin(m, 0, OP_WHILE, NULL), 0);
  const litert_op *gop = nth_op(m, 0, OP_CUSTOM, 0);
  assert_int_equal(opt_word(gop, 0), 20);
  assert_int_equal(opt_word(gop, 1), 0);                   /* (r * h).U */
  assert_int_equal(opt_word(gop, 2), AOT_GRU_HARD_SIGMOID);
  assert_int_equal(opt_word(gop, 3), AOT_GRU_LINEAR);
  assert_int_equal(opt_word(gop, 4), 0);
  assert_int_equal(opt_word(gop, 5), 0);                   /* only the last step is used */
  /* the input is the model input itself (the TRANSPOSE is bypassed) */
  assert_int_equal(gop->inputs[0], m->subgraphs[0].inputs[0]);
  /* parameters: per-gate FCs of the body, found by what they read:
   * x-projections read the masked input, recurrent ones read h or r*h. The
   * gate order is given by the equations: z multiplies h, r multiplies h
   * before U_n. Here: z = FC ops 8 (x) and 1 (h), r = 16 and 2, n = 24 and 23. */
  const litert_op *w = nth_op(orig, 0, OP_WHILE, 0);
  int body = w->opts.body_subgraph;
  const litert_subgraph *B = &orig->subgraphs[body];
  int xs[3] = {8, 16, 24}, hs[3] = {1, 2, 23};
  size_t nw, nu, nb;
  float *W = tensor_floats(m, 0, gop->inputs[2], &nw);
  float *U = tensor_floats(m, 0, gop->inputs[3], &nu);
  float *bx = tensor_floats(m, 0, gop->inputs[4], &nb);
  assert_int_equal(nw, 60 * 13);
  assert_int_equal(nu, 60 * 20);
  assert_int_equal(nb, 60);
  assert_int_equal(gop->inputs[5], -1); /* no recurrent bias in this model */
  for (int gi = 0; gi < 3; gi++) {
    assert_int_equal(litert_op_builtin(orig, &B->ops[xs[gi]]), OP_FULLY_CONNECTED);
    assert_int_equal(litert_op_builtin(orig, &B->ops[hs[gi]]), OP_FULLY_CONNECTED);
    size_t n1, n2, n3;
    float *a = tensor_floats(orig, body, B->ops[xs[gi]].inputs[1], &n1);
    float *b = tensor_floats(orig, body, B->ops[hs[gi]].inputs[1], &n2);
    float *c = tensor_floats(orig, body, B->ops[xs[gi]].inputs[2], &n3);
    assert_int_equal(n1, 20 * 13);
    assert_int_equal(n2, 20 * 20);
    assert_memory_equal(a, W + gi * 260, n1 * sizeof(float));
    assert_memory_equal(b, U + gi * 400, n2 * sizeof(float));
    assert_memory_equal(c, bx + gi * 20, n3 * sizeof(float));
    free(a), free(b), free(c);
  }
  free(W), free(U), free(bx);
  check_roundtrip(m);
  golden_check(m, "goldens/gru/precise_hey_mycroft.npz", 1e-4);
  litert_model_free(m);
  litert_model_free(orig);
}

/* ---- negative cases on a real body ------------------------------------------------------ */

static int opcode_of(litert_model *m, int builtin) {
  return litert_add_opcode(m, builtin, NULL, 1);
}

/* Body op index `nth` with builtin b. */
static litert_op *body_op(litert_model *m, int body, int b, int nth) {
  litert_subgraph *s = &m->subgraphs[body];
  for (int i = 0; i < s->nops; i++)
    if (litert_op_builtin(m, &s->ops[i]) == b && nth-- == 0) return &s->ops[i];
  return NULL;
}

static void test_negative_tanh_swapped(void **state) {
  (void)state;
  litert_model *m = load_shared("models/gru/bigru64_fp32.tflite");
  if (!m) skip();
  int body = nth_op(m, 0, OP_WHILE, 0)->opts.body_subgraph;
  litert_op *t = body_op(m, body, OP_TANH, 0);
  assert_non_null(t);
  t->opcode_index = (uint32_t)opcode_of(m, OP_LOGISTIC); /* n = sigmoid(...) */
  aotc_diag d = {0};
  assert_int_equal(litert_hook_fuse_rolled_gru(m, 0, NULL, &d), 1); /* only the other loop */
  assert_int_equal(count_builtin(m, 0, OP_WHILE, NULL), 1);
  assert_int_equal(nth_op(m, 0, OP_WHILE, 0)->opts.body_subgraph, 2); /* kept */
  assert_int_equal(m->nsubgraphs, 3);
  check_roundtrip(m);
  litert_model_free(m);
}

static void test_negative_z_exchanged(void **state) {
  (void)state;
  litert_model *m = load_shared("models/gru/bigru64_fp32.tflite");
  if (!m) skip();
  int body = nth_op(m, 0, OP_WHILE, 1)->opts.body_subgraph;
  litert_subgraph *B = &m->subgraphs[body];
  /* z = first LOGISTIC's output, 1 - z = the SUB's output */
  litert_op *sig = body_op(m, body, OP_LOGISTIC, 0), *sub = body_op(m, body, OP_SUB, 0);
  int z = sig->outputs[0], omz = sub->outputs[0];
  int swapped = 0;
  for (int i = 0; i < B->nops; i++) {
    litert_op *op = &B->ops[i];
    if (litert_op_builtin(m, op) != OP_MUL) continue;
    for (int k = 0; k < op->ninputs; k++) {
      if (op->inputs[k] == z) op->inputs[k] = omz, swapped++;
      else if (op->inputs[k] == omz) op->inputs[k] = z, swapped++;
    }
  }
  assert_int_equal(swapped, 2); /* h' = (1 - z) * h + z * n */
  aotc_diag d = {0};
  assert_int_equal(litert_hook_fuse_rolled_gru(m, 0, NULL, &d), 1);
  assert_int_equal(count_builtin(m, 0, OP_WHILE, NULL), 1);
  /* the other loop's subgraphs are gone; this loop's are renumbered */
  assert_int_equal(m->nsubgraphs, 3);
  assert_int_equal(nth_op(m, 0, OP_WHILE, 0)->opts.cond_subgraph, 1);
  assert_int_equal(nth_op(m, 0, OP_WHILE, 0)->opts.body_subgraph, 2);
  check_roundtrip(m);
  litert_model_free(m);
}

static void test_negative_reset_gate_misplaced(void **state) {
  (void)state;
  /* r multiplies the input projection instead of the recurrent one */
  litert_model *m = load_shared("models/gru/bigru64_fp32.tflite");
  if (!m) skip();
  int body = nth_op(m, 0, OP_WHILE, 0)->opts.body_subgraph;
  litert_op *split = body_op(m, body, OP_SPLIT, 0);
  litert_op *mul = body_op(m, body, OP_MUL, 1);   /* r * hn */
  litert_op *add = body_op(m, body, OP_ADD, 4);   /* xn + r*hn */
  int xn = split->outputs[2];
  int hn = mul->inputs[1];
  assert_int_equal(add->inputs[0], xn);
  mul->inputs[1] = xn;
  add->inputs[0] = hn;
  aotc_diag d = {0};
  assert_int_equal(litert_hook_fuse_rolled_gru(m, 0, NULL, &d), 1);
  litert_model_free(m);
}

static void test_negative_trip_count(void **state) {
  (void)state;
  /* the loop stops one step early: not over exactly the time steps */
  litert_model *m = load_shared("models/gru/bigru64_fp32.tflite");
  if (!m) skip();
  int cond = nth_op(m, 0, OP_WHILE, 0)->opts.cond_subgraph;
  int32_t v = 14;
  int b = litert_add_buffer(m, &v, 4);
  int nt = litert_add_tensor(m, cond, "bound14", DT_INT32, 0, NULL, b);
  for (int i = 0; i < m->subgraphs[cond].nops; i++)
    if (litert_op_builtin(m, &m->subgraphs[cond].ops[i]) == OP_LESS) m->subgraphs[cond].ops[i].inputs[1] = nt;
  aotc_diag d = {0};
  assert_int_equal(litert_hook_fuse_rolled_gru(m, 0, NULL, &d), 1);
  litert_model_free(m);
}

static void test_error_nonconst_weight(void **state) {
  (void)state;
  /* the input kernel becomes a model input passed through the loop */
  litert_model *m = load_shared("models/gru/bigru64_fp32.tflite");
  if (!m) skip();
  int wi = -1;
  litert_subgraph *M = &m->subgraphs[0];
  for (int i = 0; i < M->nops && wi < 0; i++)
    if (litert_op_builtin(m, &M->ops[i]) == OP_WHILE) wi = i;
  litert_op *w = &M->ops[wi];
  int body = w->opts.body_subgraph, cond = w->opts.cond_subgraph;
  int32_t shp[2] = {192, 128};
  int win = litert_add_tensor(m, 0, "kernel_in", DT_FLOAT32, 2, shp, 0);
  int wout = litert_add_tensor(m, 0, "kernel_out", DT_FLOAT32, 2, shp, 0);
  int barg = litert_add_tensor(m, body, "kernel_arg", DT_FLOAT32, 2, shp, 0);
  int carg = litert_add_tensor(m, cond, "kernel_arg", DT_FLOAT32, 2, shp, 0);
  M = &m->subgraphs[0];
  w = &M->ops[wi];
  w->inputs = xrealloc(w->inputs, sizeof(int32_t) * (size_t)(w->ninputs + 1));
  w->inputs[w->ninputs++] = win;
  w->outputs = xrealloc(w->outputs, sizeof(int32_t) * (size_t)(w->noutputs + 1));
  w->outputs[w->noutputs++] = wout;
  M->inputs = xrealloc(M->inputs, sizeof(int32_t) * (size_t)(M->ninputs + 1));
  M->inputs[M->ninputs++] = win;
  litert_subgraph *B = &m->subgraphs[body], *C = &m->subgraphs[cond];
  B->inputs = xrealloc(B->inputs, sizeof(int32_t) * (size_t)(B->ninputs + 1));
  B->inputs[B->ninputs++] = barg;
  B->outputs = xrealloc(B->outputs, sizeof(int32_t) * (size_t)(B->noutputs + 1));
  B->outputs[B->noutputs++] = barg;
  C->inputs = xrealloc(C->inputs, sizeof(int32_t) * (size_t)(C->ninputs + 1));
  C->inputs[C->ninputs++] = carg;
  for (int i = 0; i < B->nops; i++) {
    litert_op *op = &B->ops[i];
    if (litert_op_builtin(m, op) == OP_FULLY_CONNECTED && op->inputs[0] != B->inputs[3])
      op->inputs[1] = barg;
  }
  /* the proof holds but no kernel takes non-constant weights: the loop stays
   * a WHILE (the lowering runs it) with one note */
  aotc_diag d = {0};
  int nw0 = count_builtin(m, 0, OP_WHILE, NULL);
  assert_int_equal(litert_hook_fuse_rolled_gru(m, 0, NULL, &d), 1);
  assert_int_equal(d.nwarn, 1);
  assert_int_equal(d.code, 0);
  assert_int_equal(count_builtin(m, 0, OP_WHILE, NULL), nw0 - 1);
  litert_model_free(m);
}

static void test_error_collision(void **state) {
  (void)state;
  litert_model *m = load_shared("models/gru/bigru64_fp32.tflite");
  if (!m) skip();
  litert_add_opcode(m, OP_CUSTOM, "GRU", 1);
  aotc_diag d = {0};
  assert_int_equal(litert_hook_fuse_rolled_gru(m, 0, NULL, &d), -1);
  assert_int_equal(d.code, 2);
  fprintf(stderr, "  message: %s\n", d.msg);
  assert_non_null(strstr(d.msg, "op 7 "));
  assert_non_null(strstr(d.msg, "\"GRU\""));
  assert_int_equal(count_builtin(m, 0, OP_WHILE, NULL), 2);
  litert_model_free(m);
}

/* ---- synthesized Keras-form GRU loops ------------------------------------------------- */

typedef struct synth {
  int U, T, F;
  int batch;
  int reset_after;      /* 1: wide FCs + SPLIT / STRIDED_SLICE; 0: per-gate FCs, (r*h).U */
  int per_gate;         /* reset_after=1 with per-gate FCs */
  int hard;             /* hard sigmoid gates */
  int linear;           /* linear candidate */
  int backwards;        /* REVERSE_V2 in front */
  int last_only;        /* model output 0 = last step (STRIDED_SLICE) instead of the sequence */
  int form;             /* 0: z*h + (1-z)*n; 1: n + z*(h-n); 2: 1-z as 1 + (-1)*z, swapped operands */
  int h0_input;         /* h0 is a model input (else a random constant) */
  int h0_variable;      /* h0 is a variable tensor */
  int act_f16;          /* activations float16 (weights float32): a dtype mix */
  int counter_start;    /* initial value of the counters (0 for a real GRU) */
  int fp16_weights;     /* weights behind DEQUANTIZE of float16 constants */
  int slice_style;      /* wide FCs: 0 SPLIT (x) + STRIDED_SLICE (h); 1 SPLIT_V (x) + SLICE (h) */
  int bias_add;         /* wide FCs without bias, biases added by ADD ops */
  int hostile;          /* z pre-activation through 40 levels of ADD(a, a) */
  int x_read;           /* x_t: 0 GATHER, 1 SLICE + RESHAPE, 2 STRIDED_SLICE (shrink), 3 (end i+1) */
  /* generated */
  float *W, *Uw, *bx, *bh, *h0;
} synth;

static uint32_t rng_state = 12345u;
static int ref_checked;
static float frand(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return ((float)(rng_state >> 8) / (float)(1u << 24)) - 0.5f;
}

typedef struct bld {
  litert_model *m;
  int sg;
  int act;              /* activation dtype */
} bld;

static int T_(bld *b, const char *name, int type, int rank, const int32_t *shape) {
  return litert_add_tensor(b->m, b->sg, name, type, rank, shape, 0);
}
static int T2(bld *b, const char *name, int d0, int d1) {
  int32_t s[2] = {d0, d1};
  return T_(b, name, b->act, 2, s);
}
static int C_i32(bld *b, int rank, const int32_t *shape, const int32_t *v, size_t n) {
  int buf = litert_add_buffer(b->m, v, n * 4);
  return litert_add_tensor(b->m, b->sg, "c", DT_INT32, rank, shape, buf);
}
static int C_scalar_i32(bld *b, int32_t v) { return C_i32(b, 0, NULL, &v, 1); }
static int C_vec_i32(bld *b, const int32_t *v, int n) {
  int32_t s = n;
  return C_i32(b, 1, &s, v, (size_t)n);
}
/* A float constant, stored float32 (or float16 behind a DEQUANTIZE when fp16w
 * is 1, or a plain float16 constant when fp16w is 2). */
static int C_f(bld *b, int rank, const int32_t *shape, const float *v, size_t n, int fp16w) {
  if (fp16w == 2) {
    uint16_t *h = malloc(n * 2 + 2);
    for (size_t i = 0; i < n; i++) h[i] = aot_f32_to_f16(v[i]);
    int buf = litert_add_buffer(b->m, h, n * 2);
    free(h);
    return litert_add_tensor(b->m, b->sg, "c16", DT_FLOAT16, rank, shape, buf);
  }
  if (fp16w) {
    uint16_t *h = malloc(n * 2 + 2);
    for (size_t i = 0; i < n; i++) h[i] = aot_f32_to_f16(v[i]);
    int buf = litert_add_buffer(b->m, h, n * 2);
    free(h);
    int t = litert_add_tensor(b->m, b->sg, "w16", DT_FLOAT16, rank, shape, buf);
    int o = litert_add_tensor(b->m, b->sg, "w", DT_FLOAT32, rank, shape, 0);
    int32_t in[1] = {t}, out[1] = {o};
    litert_add_op(b->m, b->sg, OP_DEQUANTIZE, NULL, 1, in, 1, out, NULL);
    return o;
  }
  int buf = litert_add_buffer(b->m, v, n * 4);
  return litert_add_tensor(b->m, b->sg, "w", DT_FLOAT32, rank, shape, buf);
}
static int C_fs(bld *b, float v) {
  if (b->act == DT_FLOAT16) {
    uint16_t h = aot_f32_to_f16(v);
    int buf = litert_add_buffer(b->m, &h, 2);
    return litert_add_tensor(b->m, b->sg, "s", DT_FLOAT16, 0, NULL, buf);
  }
  return C_f(b, 0, NULL, &v, 1, 0);
}

static int OP1(bld *b, int builtin, int in0, int out, const litert_options *o) {
  int32_t i[1] = {in0}, q[1] = {out};
  return litert_add_op(b->m, b->sg, builtin, NULL, 1, i, 1, q, o);
}
static int OPn(bld *b, int builtin, int nin, const int32_t *in, int out, const litert_options *o) {
  int32_t q[1] = {out};
  return litert_add_op(b->m, b->sg, builtin, NULL, nin, in, 1, q, o);
}
static int bin(bld *b, int builtin, int x, int y, int out) {
  int32_t in[2] = {x, y};
  return OPn(b, builtin, 2, in, out, NULL);
}
static int fc(bld *b, int x, int w, int bias, int out) {
  int32_t in[3] = {x, w, bias};
  return OPn(b, OP_FULLY_CONNECTED, 3, in, out, NULL);
}

static void set_sig(litert_model *m, int sg, int t, const int32_t *sig) {
  litert_tensor *x = &m->subgraphs[sg].tensors[t];
  x->shape_signature = malloc(sizeof(int32_t) * (size_t)x->rank);
  memcpy(x->shape_signature, sig, sizeof(int32_t) * (size_t)x->rank);
}

/* gate activation of p */
static int gate(bld *b, int p, int hard, int U, int B) {
  int o = T2(b, "gate", B, U);
  if (!hard) {
    OP1(b, OP_LOGISTIC, p, o, NULL);
    return o;
  }
  int a = T2(b, "g1", B, U), c = T2(b, "g2", B, U), d = T2(b, "g3", B, U);
  bin(b, OP_MUL, p, C_fs(b, 0.2f), a);
  bin(b, OP_ADD, a, C_fs(b, 0.5f), c);
  bin(b, OP_MINIMUM, c, C_fs(b, 1.0f), d);
  bin(b, OP_MAXIMUM, d, C_fs(b, 0.0f), o);
  return o;
}

/* Builds the synthesized model; fills s->W etc. */
static litert_model *synth_build(synth *s) {
  int U = s->U, T = s->T, F = s->F, Bt = s->batch;
  size_t nW = (size_t)3 * U * F, nU = (size_t)3 * U * U;
  s->W = malloc(sizeof(float) * nW);
  s->Uw = malloc(sizeof(float) * nU);
  s->bx = malloc(sizeof(float) * 3 * (size_t)U);
  s->bh = malloc(sizeof(float) * 3 * (size_t)U);
  s->h0 = malloc(sizeof(float) * (size_t)U * (size_t)Bt);
  for (size_t i = 0; i < nW; i++) s->W[i] = frand();
  for (size_t i = 0; i < nU; i++) s->Uw[i] = frand();
  for (int i = 0; i < 3 * U; i++) s->bx[i] = frand(), s->bh[i] = s->reset_after ? frand() : 0.0f;
  for (int i = 0; i < U * Bt; i++) s->h0[i] = s->h0_input ? 0.0f : frand();
  if (s->fp16_weights) {
    for (size_t i = 0; i < nW; i++) s->W[i] = aot_f16_to_f32(aot_f32_to_f16(s->W[i]));
    for (size_t i = 0; i < nU; i++) s->Uw[i] = aot_f16_to_f32(aot_f32_to_f16(s->Uw[i]));
    for (int i = 0; i < 3 * U; i++)
      s->bx[i] = aot_f16_to_f32(aot_f32_to_f16(s->bx[i])), s->bh[i] = aot_f16_to_f32(aot_f32_to_f16(s->bh[i]));
  }
  int act = s->act_f16 ? DT_FLOAT16 : DT_FLOAT32;
  litert_model *m = litert_model_new();
  int sg0 = litert_add_subgraph(m, "main");
  int sgc = litert_add_subgraph(m, "cond");
  int sgb = litert_add_subgraph(m, "body");
  bld M = {m, sg0, act}, Cb = {m, sgc, act}, B = {m, sgb, act};
  int32_t xs[3] = {Bt, T, F}, tms[3] = {T, Bt, F}, ls[3] = {T, Bt, U};

  /* ---- body ---- */
  int a_i0 = T_(&B, "i0", DT_INT32, 0, NULL), a_i1 = T_(&B, "i1", DT_INT32, 0, NULL);
  int a_L = T_(&B, "L", act, 3, ls), a_h = T2(&B, "h", Bt, U), a_X = T_(&B, "X", act, 3, tms);
  int one = C_scalar_i32(&B, 1);
  int i0n = T_(&B, "i0n", DT_INT32, 0, NULL), i1n = T_(&B, "i1n", DT_INT32, 0, NULL);
  bin(&B, OP_ADD, a_i0, one, i0n);
  bin(&B, OP_ADD, one, a_i1, i1n); /* operand order varies */
  int xt = T2(&B, "xt", Bt, F);
  if (s->x_read == 0) {
    litert_options o;
    litert_options_default(&o);
    o.type = BO_GatherOptions;
    o.axis = 0;
    int32_t in[2] = {a_X, a_i1};
    OPn(&B, OP_GATHER, 2, in, xt, &o);
  } else {
    int32_t s1[1] = {1}, z2[2] = {0, 0}, s3[1] = {3};
    litert_options co;
    litert_options_default(&co);
    co.type = BO_ConcatenationOptions;
    co.axis = 0;
    int r0 = T_(&B, "ri", DT_INT32, 1, s1), bg = T_(&B, "xbg", DT_INT32, 1, s3);
    bin(&B, OP_RESHAPE, a_i1, C_vec_i32(&B, s1, 1), r0);
    int32_t cin[2] = {r0, C_vec_i32(&B, z2, 2)};
    OPn(&B, OP_CONCATENATION, 2, cin, bg, &co);
    if (s->x_read == 1) {
      int32_t sz[3] = {1, -1, -1}, rs[3] = {1, Bt, F}, xs2[2] = {Bt, F};
      int row = T_(&B, "xrow", act, 3, rs);
      int32_t in[3] = {a_X, bg, C_vec_i32(&B, sz, 3)};
      OPn(&B, OP_SLICE, 3, in, row, NULL);
      bin(&B, OP_RESHAPE, row, C_vec_i32(&B, xs2, 2), xt);
    } else {
      int r1 = T_(&B, "ri1", DT_INT32, 1, s1), en = T_(&B, "xen", DT_INT32, 1, s3);
      bin(&B, OP_RESHAPE, i1n, C_vec_i32(&B, s1, 1), r1);
      int32_t cin2[2] = {r1, C_vec_i32(&B, z2, 2)};
      OPn(&B, OP_CONCATENATION, 2, cin2, en, &co);
      int32_t st[3] = {1, 1, 1};
      litert_options so;
      litert_options_default(&so);
      so.type = BO_StridedSliceOptions;
      so.begin_mask = 6;
      so.end_mask = 6;
      so.shrink_axis_mask = s->x_read == 2 ? 1 : 0;
      int32_t in[4] = {a_X, bg, en, C_vec_i32(&B, st, 3)};
      if (s->x_read == 2) {
        OPn(&B, OP_STRIDED_SLICE, 4, in, xt, &so);
      } else {
        int32_t rs[3] = {1, Bt, F}, xs2[2] = {Bt, F};
        int row = T_(&B, "xrow", act, 3, rs);
        OPn(&B, OP_STRIDED_SLICE, 4, in, row, &so);
        bin(&B, OP_RESHAPE, row, C_vec_i32(&B, xs2, 2), xt);
      }
    }
  }
  int xg[3], hg[3]; /* per gate x and h projections ([B, U]) */
  int32_t ws[2] = {3 * U, F}, us[2] = {3 * U, U}, bs1[1] = {3 * U};
  int hn_rh = -1;
  if (!s->reset_after || s->per_gate) {
    for (int gi = 0; gi < 3; gi++) {
      int32_t w1[2] = {U, F}, u1[2] = {U, U}, b1[1] = {U};
      int w = C_f(&B, 2, w1, s->W + (size_t)gi * U * F, (size_t)U * F, s->fp16_weights);
      int bb = C_f(&B, 1, b1, s->bx + gi * U, (size_t)U, s->fp16_weights);
      xg[gi] = T2(&B, "xg", Bt, U);
      fc(&B, xt, w, bb, xg[gi]);
      if (gi == 2 && !s->reset_after) continue; /* n uses r*h */
      int uu = C_f(&B, 2, u1, s->Uw + (size_t)gi * U * U, (size_t)U * U, s->fp16_weights);
      int bh = s->reset_after ? C_f(&B, 1, b1, s->bh + gi * U, (size_t)U, s->fp16_weights) : -1;
      hg[gi] = T2(&B, "hg", Bt, U);
      fc(&B, a_h, uu, bh, hg[gi]);
    }
    if (!s->reset_after) {
      int32_t u1[2] = {U, U};
      hn_rh = C_f(&B, 2, u1, s->Uw + (size_t)2 * U * U, (size_t)U * U, s->fp16_weights);
    }
  } else {
    int w = C_f(&B, 2, ws, s->W, nW, s->fp16_weights);
    int bb = C_f(&B, 1, bs1, s->bx, (size_t)3 * U, s->fp16_weights);
    int uu = C_f(&B, 2, us, s->Uw, nU, s->fp16_weights);
    int bh = C_f(&B, 1, bs1, s->bh, (size_t)3 * U, s->fp16_weights);
    int xp = T2(&B, "xp", Bt, 3 * U), hp = T2(&B, "hp", Bt, 3 * U);
    if (s->bias_add) {
      int xp0 = T2(&B, "xp0", Bt, 3 * U), hp0 = T2(&B, "hp0", Bt, 3 * U);
      fc(&B, a_h, uu, -1, hp0);
      bin(&B, OP_ADD, bh, hp0, hp);
      fc(&B, xt, w, -1, xp0);
      bin(&B, OP_ADD, xp0, bb, xp);
    } else {
      fc(&B, a_h, uu, bh, hp);
      fc(&B, xt, w, bb, xp);
    }
    for (int gi = 0; gi < 3; gi++) xg[gi] = T2(&B, "xs", Bt, U);
    if (s->slice_style == 1) {
      /* x: SPLIT_V [U, U, -1] along -1; h: SLICE */
      litert_options o;
      litert_options_default(&o);
      o.type = BO_SplitVOptions;
      o.num_splits = 3;
      int32_t sz[3] = {U, U, -1};
      int32_t in[3] = {xp, C_vec_i32(&B, sz, 3), C_scalar_i32(&B, -1)};
      litert_add_op(m, sgb, OP_SPLIT_V, NULL, 3, in, 3, xg, &o);
      for (int gi = 0; gi < 3; gi++) {
        int32_t bg[2] = {0, gi * U}, szz[2] = {-1, U};
        int32_t sin[3] = {hp, C_vec_i32(&B, bg, 2), C_vec_i32(&B, szz, 2)};
        hg[gi] = T2(&B, "hsl", Bt, U);
        OPn(&B, OP_SLICE, 3, sin, hg[gi], NULL);
      }
    }
    /* x: SPLIT along -1 */
    litert_options o;
    litert_options_default(&o);
    o.type = BO_SplitOptions;
    o.num_splits = 3;
    int32_t in[2] = {C_scalar_i32(&B, -1), xp};
    if (s->slice_style == 0) litert_add_op(m, sgb, OP_SPLIT, NULL, 2, in, 3, xg, &o);
    /* h: STRIDED_SLICE [0:U], [U:2U], [2U:] */
    for (int gi = 0; gi < 3 && s->slice_style == 0; gi++) {
      litert_options so;
      litert_options_default(&so);
      so.type = BO_StridedSliceOptions;
      int32_t bg[2] = {0, gi * U}, en[2] = {0, (gi + 1) * U}, st[2] = {1, 1};
      so.begin_mask = 1;
      so.end_mask = gi == 2 ? 3 : 1;
      if (gi == 2) en[1] = 0;
      int32_t sin[4] = {hp, C_vec_i32(&B, bg, 2), C_vec_i32(&B, en, 2), C_vec_i32(&B, st, 2)};
      hg[gi] = T2(&B, "hs", Bt, U);
      OPn(&B, OP_STRIDED_SLICE, 4, sin, hg[gi], &so);
    }
  }
  int pz = T2(&B, "pz", Bt, U), pr = T2(&B, "pr", Bt, U);
  if (s->hostile) {
    int c = T2(&B, "c", Bt, U);
    bin(&B, OP_ADD, xg[0], hg[0], c);
    for (int k = 0; k < 40; k++) {
      int c2 = k == 39 ? pz : T2(&B, "c", Bt, U);
      bin(&B, OP_ADD, c, c, c2);
      c = c2;
    }
  } else {
    bin(&B, OP_ADD, xg[0], hg[0], pz);
  }
  bin(&B, OP_ADD, hg[1], xg[1], pr);
  int z = gate(&B, pz, s->hard, U, Bt), r = gate(&B, pr, s->hard, U, Bt);
  int npre = T2(&B, "npre", Bt, U);
  if (s->reset_after) {
    int rh = T2(&B, "rhn", Bt, U);
    bin(&B, OP_MUL, hg[2], r, rh);
    bin(&B, OP_ADD, xg[2], rh, npre);
  } else {
    int rh = T2(&B, "rh", Bt, U), rhu = T2(&B, "rhu", Bt, U);
    bin(&B, OP_MUL, r, a_h, rh);
    fc(&B, rh, hn_rh, -1, rhu);
    bin(&B, OP_ADD, rhu, xg[2], npre);
  }
  int n = npre;
  if (!s->linear) {
    n = T2(&B, "n", Bt, U);
    OP1(&B, OP_TANH, npre, n, NULL);
  }
  int hnew = T2(&B, "hnew", Bt, U);
  if (s->form == 1) {
    int d = T2(&B, "hmn", Bt, U), zd = T2(&B, "zd", Bt, U);
    bin(&B, OP_SUB, a_h, n, d);
    bin(&B, OP_MUL, z, d, zd);
    bin(&B, OP_ADD, n, zd, hnew);
  } else {
    int zh = T2(&B, "zh", Bt, U), omz = T2(&B, "omz", Bt, U), t2 = T2(&B, "t2", Bt, U);
    if (s->form == 2) {
      int mz = T2(&B, "mz", Bt, U);
      bin(&B, OP_MUL, C_fs(&B, -1.0f), z, mz);
      bin(&B, OP_ADD, C_fs(&B, 1.0f), mz, omz);
      bin(&B, OP_MUL, a_h, z, zh);
      bin(&B, OP_MUL, n, omz, t2);
      bin(&B, OP_ADD, t2, zh, hnew);
    } else {
      bin(&B, OP_MUL, z, a_h, zh);
      bin(&B, OP_SUB, C_fs(&B, 1.0f), z, omz);
      bin(&B, OP_MUL, omz, n, t2);
      bin(&B, OP_ADD, zh, t2, hnew);
    }
  }
  /* list write: L[0:i] ++ [h'] ++ L[i+1:] */
  {
    int32_t s1[1] = {1};
    int32_t m11[2] = {-1, -1}, z2[2] = {0, 0}, z3[3] = {0, 0, 0}, m3[3] = {-1, -1, -1};
    int r1 = T_(&B, "r1", DT_INT32, 1, s1), sz = T_(&B, "sz", DT_INT32, 1, (int32_t[]){3});
    bin(&B, OP_RESHAPE, a_i1, C_vec_i32(&B, s1, 1), r1);
    litert_options co;
    litert_options_default(&co);
    co.type = BO_ConcatenationOptions;
    co.axis = 0;
    int32_t cin[2] = {r1, C_vec_i32(&B, m11, 2)};
    OPn(&B, OP_CONCATENATION, 2, cin, sz, &co);
    int32_t hs3[3] = {1, 1, 1}, hsig[3] = {-1, -1, -1};
    int head = T_(&B, "head", act, 3, hs3);
    set_sig(m, sgb, head, hsig);
    int32_t sl1[3] = {a_L, C_vec_i32(&B, z3, 3), sz};
    OPn(&B, OP_SLICE, 3, sl1, head, NULL);
    int r2 = T_(&B, "r2", DT_INT32, 1, s1), bg = T_(&B, "bg", DT_INT32, 1, (int32_t[]){3});
    bin(&B, OP_RESHAPE, i1n, C_vec_i32(&B, s1, 1), r2);
    int32_t cin2[2] = {r2, C_vec_i32(&B, z2, 2)};
    OPn(&B, OP_CONCATENATION, 2, cin2, bg, &co);
    int32_t ts3[3] = {1, Bt, U}, tsig[3] = {-1, Bt, U};
    int tail = T_(&B, "tail", act, 3, ts3);
    set_sig(m, sgb, tail, tsig);
    int32_t sl2[3] = {a_L, bg, C_vec_i32(&B, m3, 3)};
    OPn(&B, OP_SLICE, 3, sl2, tail, NULL);
    int32_t ms[3] = {1, Bt, U};
    int mid = T_(&B, "mid", act, 3, ms);
    bin(&B, OP_RESHAPE, hnew, C_vec_i32(&B, ms, 3), mid);
    int Ln = T_(&B, "Ln", act, 3, ls);
    int32_t cin3[3] = {head, mid, tail};
    OPn(&B, OP_CONCATENATION, 3, cin3, Ln, &co);
    int32_t bi[5] = {a_i0, a_i1, a_L, a_h, a_X}, bo[5] = {i0n, i1n, Ln, hnew, a_X};
    litert_set_io(m, sgb, 5, bi, 5, bo);
  }

  /* ---- cond ---- */
  {
    int c_i0 = T_(&Cb, "i0", DT_INT32, 0, NULL), c_i1 = T_(&Cb, "i1", DT_INT32, 0, NULL);
    int c_L = T_(&Cb, "L", act, 3, ls), c_h = T2(&Cb, "h", Bt, U), c_X = T_(&Cb, "X", act, 3, tms);
    int tb = C_scalar_i32(&Cb, T);
    int l0 = T_(&Cb, "l0", DT_BOOL, 0, NULL), l1 = T_(&Cb, "l1", DT_BOOL, 0, NULL);
    int la = T_(&Cb, "la", DT_BOOL, 0, NULL);
    bin(&Cb, OP_LESS, c_i0, tb, l0);
    bin(&Cb, OP_GREATER, tb, c_i1, l1);
    bin(&Cb, OP_LOGICAL_AND, l0, l1, la);
    int32_t ci[5] = {c_i0, c_i1, c_L, c_h, c_X}, co[1] = {la};
    litert_set_io(m, sgc, 5, ci, 1, co);
  }

  /* ---- main ---- */
  int x = T_(&M, "x", act, 3, xs);
  int xtm = T_(&M, "x_tm", act, 3, tms);
  int32_t perm[3] = {1, 0, 2};
  bin(&M, OP_TRANSPOSE, x, C_vec_i32(&M, perm, 3), xtm);
  int xin = xtm;
  if (s->backwards) {
    xin = T_(&M, "x_rev", act, 3, tms);
    int32_t ax[1] = {0};
    bin(&M, OP_REVERSE_V2, xtm, C_vec_i32(&M, ax, 1), xin);
  }
  int h0;
  int32_t h0s[2] = {Bt, U};
  if (s->h0_input || s->h0_variable) {
    h0 = T2(&M, "h0", Bt, U);
    if (s->h0_variable) {
      m->subgraphs[sg0].tensors[h0].is_variable = 1;
    }
  } else {
    h0 = C_f(&M, 2, h0s, s->h0, (size_t)U * Bt, s->act_f16 ? 2 : 0);
  }
  float *zl = calloc((size_t)T * Bt * U + 1, sizeof(float));
  int L0 = C_f(&M, 3, ls, zl, (size_t)T * Bt * U, s->act_f16 ? 2 : 0);
  free(zl);
  int cs = C_scalar_i32(&M, s->counter_start);
  int o_i0 = T_(&M, "o_i0", DT_INT32, 0, NULL), o_i1 = T_(&M, "o_i1", DT_INT32, 0, NULL);
  int o_L = T_(&M, "o_L", act, 3, ls), o_h = T2(&M, "o_h", Bt, U), o_X = T_(&M, "o_X", act, 3, tms);
  {
    litert_options o;
    litert_options_default(&o);
    o.type = BO_WhileOptions;
    o.cond_subgraph = sgc;
    o.body_subgraph = sgb;
    int32_t wi[5] = {cs, cs, L0, h0, xin}, wo[5] = {o_i0, o_i1, o_L, o_h, o_X};
    litert_add_op(m, sg0, OP_WHILE, NULL, 5, wi, 5, wo, &o);
  }
  int out0;
  if (s->last_only) {
    out0 = T2(&M, "last", Bt, U);
    litert_options so;
    litert_options_default(&so);
    so.type = BO_StridedSliceOptions;
    so.begin_mask = 6;
    so.end_mask = 6;
    so.shrink_axis_mask = 1;
    int32_t bg[3] = {-1, 0, 0}, en[3] = {0, 0, 0}, st[3] = {1, 1, 1};
    int32_t in[4] = {o_L, C_vec_i32(&M, bg, 3), C_vec_i32(&M, en, 3), C_vec_i32(&M, st, 3)};
    OPn(&M, OP_STRIDED_SLICE, 4, in, out0, &so);
  } else {
    int32_t os[3] = {Bt, T, U};
    out0 = T_(&M, "seq", act, 3, os);
    int32_t perm2[3] = {1, 0, 2};
    bin(&M, OP_TRANSPOSE, o_L, C_vec_i32(&M, perm2, 3), out0);
  }
  int32_t mi[2] = {x, h0}, mo[2] = {out0, o_h};
  litert_set_io(m, sg0, s->h0_input ? 2 : 1, mi, 2, mo);
  return m;
}

static void synth_free(synth *s) {
  free(s->W), free(s->Uw), free(s->bx), free(s->bh), free(s->h0);
}

static double hsig(double v) {
  double r = 0.2 * v + 0.5;
  return r < 0 ? 0 : r > 1 ? 1 : r;
}

/* Double-precision Keras GRU (batch 1): seq [T, U] in processing order, h [U]. */
static void gru_reference(const synth *s, const float *x, const float *h0, double *seq, double *h) {
  int U = s->U, F = s->F, T = s->T;
  double *nh = malloc(sizeof(double) * (size_t)U);
  for (int i = 0; i < U; i++) h[i] = h0[i];
  for (int st = 0; st < T; st++) {
    int t = s->backwards ? T - 1 - st : st;
    const float *xt = x + (size_t)t * F;
    double *gx = calloc(3 * (size_t)U, sizeof(double)), *gh = calloc(3 * (size_t)U, sizeof(double));
    for (int j = 0; j < 3 * U; j++) {
      gx[j] = s->bx[j];
      for (int f = 0; f < F; f++) gx[j] += (double)s->W[(size_t)j * F + f] * xt[f];
      gh[j] = s->bh[j];
    }
    double *r = calloc((size_t)U, sizeof(double));
    for (int j = 0; j < U; j++) {
      double pr = gx[U + j] + s->bh[U + j];
      for (int k = 0; k < U; k++) pr += (double)s->Uw[(size_t)(U + j) * U + k] * h[k];
      r[j] = s->hard ? hsig(pr) : 1.0 / (1.0 + exp(-pr));
    }
    for (int j = 0; j < U; j++) {
      double pz = gx[j] + s->bh[j];
      for (int k = 0; k < U; k++) pz += (double)s->Uw[(size_t)j * U + k] * h[k];
      double z = s->hard ? hsig(pz) : 1.0 / (1.0 + exp(-pz));
      double rec = 0;
      if (s->reset_after) {
        rec = s->bh[2 * U + j];
        for (int k = 0; k < U; k++) rec += (double)s->Uw[(size_t)(2 * U + j) * U + k] * h[k];
        rec *= r[j];
      } else {
        for (int k = 0; k < U; k++) rec += (double)s->Uw[(size_t)(2 * U + j) * U + k] * r[k] * h[k];
      }
      double pn = gx[2 * U + j] + rec;
      double n = s->linear ? pn : tanh(pn);
      nh[j] = z * h[j] + (1 - z) * n;
    }
    memcpy(h, nh, sizeof(double) * (size_t)U);
    memcpy(seq + (size_t)st * U, h, sizeof(double) * (size_t)U);
    free(gx), free(gh), free(r);
  }
  free(nh);
}

/* In the model, output 0 is the sequence in list order (processing order) or
 * the last processed step. */
static void run_synth(synth *s) {
  litert_model *m = synth_build(s);
  aotc_diag d = {0};
  /* the unfused model is valid */
  check_roundtrip(m);
  uint8_t *img = NULL;
  size_t img_len = 0;
  assert_int_equal(litert_write(m, &img, &img_len, &d), 0);
  int n = litert_hook_fuse_rolled_gru(m, 0, NULL, &d);
  if (n != 1)
    fail_msg("U=%d T=%d F=%d ra=%d pg=%d hard=%d lin=%d back=%d last=%d form=%d: fused %d (%s)", s->U,
             s->T, s->F, s->reset_after, s->per_gate, s->hard, s->linear, s->backwards, s->last_only,
             s->form, n, d.msg);
  assert_int_equal(count_builtin(m, 0, OP_WHILE, NULL), 0);
  assert_int_equal(m->nsubgraphs, 1);
  const litert_op *gop = nth_op(m, 0, OP_CUSTOM, 0);
  assert_int_equal(opt_word(gop, 0), s->U);
  assert_int_equal(opt_word(gop, 1), s->reset_after);
  assert_int_equal(opt_word(gop, 2), s->hard ? AOT_GRU_HARD_SIGMOID : AOT_GRU_SIGMOID);
  assert_int_equal(opt_word(gop, 3), s->linear ? AOT_GRU_LINEAR : AOT_GRU_TANH);
  assert_int_equal(opt_word(gop, 4), s->backwards);
  assert_int_equal(opt_word(gop, 5), !s->last_only);
  /* parameters equal the generated weights exactly */
  size_t nn;
  int want = s->fp16_weights ? DT_FLOAT16 : DT_FLOAT32;
  assert_int_equal(m->subgraphs[0].tensors[gop->inputs[2]].type, want);
  float *W = tensor_floats(m, 0, gop->inputs[2], &nn);
  assert_int_equal(nn, (size_t)3 * s->U * s->F);
  assert_memory_equal(W, s->W, nn * sizeof(float));
  free(W);
  float *Uw = tensor_floats(m, 0, gop->inputs[3], &nn);
  assert_int_equal(nn, (size_t)3 * s->U * s->U);
  assert_memory_equal(Uw, s->Uw, nn * sizeof(float));
  free(Uw);
  float *bx = tensor_floats(m, 0, gop->inputs[4], &nn);
  assert_memory_equal(bx, s->bx, nn * sizeof(float));
  free(bx);
  if (s->reset_after) {
    float *bh = tensor_floats(m, 0, gop->inputs[5], &nn);
    assert_memory_equal(bh, s->bh, nn * sizeof(float));
    free(bh);
  } else {
    assert_int_equal(gop->inputs[5], -1);
  }
  check_roundtrip(m);

  /* numerics */
  size_t nx = (size_t)s->T * s->F;
  float *x = malloc(sizeof(float) * nx), *h0 = malloc(sizeof(float) * (size_t)s->U);
  for (size_t i = 0; i < nx; i++) x[i] = 2.0f * frand();
  for (int i = 0; i < s->U; i++) h0[i] = s->h0_input ? frand() : s->h0[i];
  double *seq = malloc(sizeof(double) * (size_t)s->T * s->U), *h = malloc(sizeof(double) * (size_t)s->U);
  gru_reference(s, x, h0, seq, h);
  size_t n0 = s->last_only ? (size_t)s->U : (size_t)s->T * s->U;
  const double *want0 = s->last_only ? seq + (size_t)(s->T - 1) * s->U : seq;
  float *y0 = malloc(sizeof(float) * n0), *y1 = malloc(sizeof(float) * (size_t)s->U);
  const float *ins[2] = {x, h0};
  if (eval_graph(m, ins, 0, y0, n0) && eval_graph(m, ins, 1, y1, (size_t)s->U)) {
    for (size_t i = 0; i < n0; i++)
      if (fabs(y0[i] - want0[i]) > 1e-5) fail_msg("fused seq[%zu] %g vs %g", i, y0[i], want0[i]);
    for (int i = 0; i < s->U; i++)
      if (fabs(y1[i] - h[i]) > 1e-5) fail_msg("fused h[%d] %g vs %g", i, y1[i], h[i]);
  }
  /* the reference interpreter on the unfused model */
  if (ref_run) {
    litert_model *u = litert_read(img, img_len, &d);
    assert_non_null(u);
    npy_array in[2];
    int64_t xsh[3] = {1, s->T, s->F}, hsh[2] = {1, s->U};
    npy_init(&in[0], "x", DT_FLOAT32, 3, xsh, x, &d);
    npy_init(&in[1], "h0", DT_FLOAT32, 2, hsh, h0, &d);
    npy_array *outs = NULL;
    int nout = 0;
    if (ref_run(u, in, s->h0_input ? 2 : 1, NULL, &outs, &nout, &d) != 0) {
      fail_msg("ref_run on the unfused model: %s", d.msg);
    } else {
      assert_int_equal(nout, 2);
      assert_int_equal(outs[0].count, n0);
      for (size_t i = 0; i < n0; i++) {
        double v = npy_get_double(&outs[0], i);
        if (fabs(v - want0[i]) > 1e-5) fail_msg("ref seq[%zu] %g vs %g", i, v, want0[i]);
      }
      npz_free(outs, nout);
      ref_checked++;
    }
    npy_free(&in[0]);
    npy_free(&in[1]);
    litert_model_free(u);
  }
  free(img);
  free(x), free(h0), free(seq), free(h), free(y0), free(y1);
  litert_model_free(m);
}

static void test_synth_random(void **state) {
  (void)state;
  static const int sizes[][3] = {{1, 1, 1}, {3, 5, 2}, {8, 7, 5}, {16, 4, 9}, {5, 12, 3}};
  int k = 0;
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    for (int v = 0; v < 6; v++, k++) {
      synth s = {0};
      s.U = sizes[si][0], s.T = sizes[si][1], s.F = sizes[si][2];
      s.batch = 1;
      s.reset_after = (k % 3) != 2;
      s.per_gate = s.reset_after && (k % 4) == 1;
      s.hard = (k % 5) == 1 || (k % 5) == 3;
      s.linear = (k % 7) == 2;
      s.backwards = (k % 2) == 1;
      s.last_only = (k % 3) == 1;
      s.form = k % 3;
      s.h0_input = (k % 4) == 3;
      s.fp16_weights = (k % 6) == 4;
      s.slice_style = (k % 4) >= 2;
      s.bias_add = (k % 5) >= 3;
      s.x_read = (k / 2) % 4;
      run_synth(&s);
      synth_free(&s);
    }
  }
  fprintf(stderr, "  %d synthesized loops fused; %d cross-checked with ref_run\n", k, ref_checked);
}

/* Float16 models (aotc fp16 of a synthesized loop): the loop fuses into a
 * float16 GRU whose outputs follow the double reference within float16
 * rounding. */
static void test_synth_fp16(void **state) {
  (void)state;
  static const int cfg[][4] = {{4, 6, 3, 0}, {8, 5, 7, 1}, {16, 9, 4, 2}, {3, 3, 2, 3}};
  for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++) {
    synth s = {0};
    s.U = cfg[c][0], s.T = cfg[c][1], s.F = cfg[c][2], s.batch = 1;
    int v = cfg[c][3];
    s.reset_after = v != 1;
    s.hard = v == 2;
    s.linear = v == 3;
    s.backwards = v == 1;
    s.last_only = v == 2;
    s.h0_input = v == 0;
    s.fp16_weights = 1; /* generated weights are binary16 values */
    litert_model *m = synth_build(&s);
    aotc_diag d = {0};
    assert_int_equal(litert_to_fp16(m, 1, &d), 0);
    int n = litert_hook_fuse_rolled_gru(m, 0, NULL, &d);
    if (n != 1) fail_msg("config %zu: fused %d (%s)", c, n, d.msg);
    const litert_op *gop = nth_op(m, 0, OP_CUSTOM, 0);
    for (int k = 0; k < 4; k++) assert_int_equal(m->subgraphs[0].tensors[gop->inputs[k]].type, DT_FLOAT16);
    size_t nn;
    float *W = tensor_floats(m, 0, gop->inputs[2], &nn);
    assert_memory_equal(W, s.W, nn * sizeof(float));
    free(W);
    size_t nx = (size_t)s.T * s.F;
    float *x = malloc(sizeof(float) * nx), *h0 = malloc(sizeof(float) * (size_t)s.U);
    for (size_t i = 0; i < nx; i++) x[i] = aot_f16_to_f32(aot_f32_to_f16(2.0f * frand()));
    for (int i = 0; i < s.U; i++)
      h0[i] = aot_f16_to_f32(aot_f32_to_f16(s.h0_input ? frand() : s.h0[i]));
    double *seq = malloc(sizeof(double) * (size_t)s.T * s.U), *h = malloc(sizeof(double) * (size_t)s.U);
    gru_reference(&s, x, h0, seq, h);
    size_t n0 = s.last_only ? (size_t)s.U : (size_t)s.T * s.U;
    const double *want0 = s.last_only ? seq + (size_t)(s.T - 1) * s.U : seq;
    float *y0 = malloc(sizeof(float) * n0);
    const float *ins[2] = {x, h0};
    if (eval_graph(m, ins, 0, y0, n0)) {
      double worst = 0;
      for (size_t i = 0; i < n0; i++) {
        double e = fabs(y0[i] - want0[i]) / (1.0 + fabs(want0[i]));
        if (e > worst) worst = e;
      }
      fprintf(stderr, "  config %zu: float16 GRU max relative error %.3g\n", c, worst);
      assert_true(worst < 2e-3);
    }
    free(x), free(h0), free(seq), free(h), free(y0);
    litert_model_free(m);
    synth_free(&s);
  }
}

static void test_synth_errors(void **state) {
  (void)state;
  for (int c = 0; c < 3; c++) {
    synth s = {0};
    s.U = 4, s.T = 3, s.F = 2, s.batch = 1, s.reset_after = 1;
    if (c == 0) s.batch = 2;
    if (c == 1) s.h0_variable = 1;
    if (c == 2) s.act_f16 = 1;
    litert_model *m = synth_build(&s);
    aotc_diag d = {0};
    int wi = -1;
    for (int i = 0; i < m->subgraphs[0].nops && wi < 0; i++)
      if (litert_op_builtin(m, &m->subgraphs[0].ops[i]) == OP_WHILE) wi = i;
    /* proven cells no kernel runs: kept as WHILE loops, one note each */
    (void)wi;
    int n = litert_hook_fuse_rolled_gru(m, 0, NULL, &d);
    assert_int_equal(n, 0);
    assert_int_equal(d.code, 0);
    assert_int_equal(d.nwarn, 1);
    assert_int_equal(count_builtin(m, 0, OP_WHILE, NULL), 1);
    litert_model_free(m);
    synth_free(&s);
  }
  /* a hostile body (2^40 paths through shared subexpressions) is given up quickly */
  {
    synth h = {0};
    h.U = 2, h.T = 2, h.F = 2, h.batch = 1, h.reset_after = 1, h.hostile = 1;
    litert_model *m = synth_build(&h);
    aotc_diag d = {0};
    assert_int_equal(litert_hook_fuse_rolled_gru(m, 0, NULL, &d), 0);
    litert_model_free(m);
    synth_free(&h);
  }
  /* counters that do not start at 0 are not a GRU over the time steps */
  synth s = {0};
  s.U = 4, s.T = 3, s.F = 2, s.batch = 1, s.reset_after = 1, s.counter_start = 1;
  litert_model *m = synth_build(&s);
  aotc_diag d = {0};
  assert_int_equal(litert_hook_fuse_rolled_gru(m, 0, NULL, &d), 0);
  assert_int_equal(count_builtin(m, 0, OP_WHILE, NULL), 1);
  assert_int_equal(m->nsubgraphs, 3);
  litert_model_free(m);
  synth_free(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bigru_fp32),
      cmocka_unit_test(test_bigru_fp16w),
      cmocka_unit_test(test_bigru_int8),
      cmocka_unit_test(test_hey_mycroft),
      cmocka_unit_test(test_negative_tanh_swapped),
      cmocka_unit_test(test_negative_z_exchanged),
      cmocka_unit_test(test_negative_reset_gate_misplaced),
      cmocka_unit_test(test_negative_trip_count),
      cmocka_unit_test(test_error_nonconst_weight),
      cmocka_unit_test(test_error_collision),
      cmocka_unit_test(test_synth_random),
      cmocka_unit_test(test_synth_fp16),
      cmocka_unit_test(test_synth_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
