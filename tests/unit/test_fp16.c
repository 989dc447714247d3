/* test_fp16.c - the float16 model rewrite (litert_to_fp16, `aotc fp16`).
 *
 * Independent references: hand-computed IEEE binary16 bit patterns; the
 * shared bigru64_fp16w model, whose float16 weights were made from the same
 * Keras model by the TensorFlow Lite converter (our conversion of the
 * float32 model must give the same bits); LiteRT goldens for numerics (when
 * every operator of the float16 graph has a float16 implementation). */
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

static int count_builtin(const litert_model *m, int sg, int builtin) {
  int n = 0;
  for (int i = 0; i < m->subgraphs[sg].nops; i++)
    n += litert_op_builtin(m, &m->subgraphs[sg].ops[i]) == builtin;
  return n;
}

static int count_type_all(const litert_model *m, int type) {
  int n = 0;
  for (int s = 0; s < m->nsubgraphs; s++)
    for (int t = 0; t < m->subgraphs[s].ntensors; t++) n += m->subgraphs[s].tensors[t].type == type;
  return n;
}

static uint16_t half_at(const litert_model *m, int sg, int t, size_t i) {
  const litert_tensor *x = &m->subgraphs[sg].tensors[t];
  assert_int_equal(x->type, DT_FLOAT16);
  const litert_buffer *b = &m->buffers[x->buffer];
  assert_true(2 * i + 2 <= b->size);
  uint16_t h;
  memcpy(&h, b->data + 2 * i, 2);
  return h;
}

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

/* Runs subgraph 0 with op evals (float inputs/outputs converted as needed).
 * Returns 0 (skip) when some op or dtype has no implementation. */
static int eval_graph(const litert_model *m, const float *in, float *out, size_t nout) {
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_non_null(g);
  for (int i = 0; i < g->nops; i++) {
    const op_impl *impl = ops_find(g, &g->ops[i]);
    char why[256] = "";
    if (!impl || !op_has_eval(impl) || (impl->check && impl->check(g, &g->ops[i], why, sizeof why))) {
      fprintf(stderr, "  skipping numerics: op %d (%s): %s\n", i, litert_op_name(g->ops[i].builtin),
              impl ? why : "not linked");
      ir_free(g);
      return 0;
    }
  }
  void **data = calloc((size_t)g->nt, sizeof(void *));
  char *own = calloc((size_t)g->nt, 1);
  for (int t = 0; t < g->nt; t++) {
    if (g->t[t].role == ROLE_CONST) data[t] = (void *)g->t[t].data;
    else data[t] = calloc(1, ir_bytes(&g->t[t]) + 16), own[t] = 1;
  }
  ir_tensor *x = &g->t[g->inputs[0]];
  for (size_t e = 0; e < ir_numel(x); e++) {
    if (x->dtype == DT_FLOAT16) ((uint16_t *)data[g->inputs[0]])[e] = aot_f32_to_f16(in[e]);
    else ((float *)data[g->inputs[0]])[e] = in[e];
  }
  for (int i = 0; i < g->nops; i++) {
    const op_impl *impl = ops_find(g, &g->ops[i]);
    size_t sb = impl->scratch ? impl->scratch(g, &g->ops[i]) : 0;
    void *scratch = calloc(1, sb + 16);
    int st = op_eval(impl, g, &g->ops[i], data, scratch);
    free(scratch);
    assert_int_equal(st, 0);
  }
  ir_tensor *o = &g->t[g->outputs[0]];
  assert_int_equal(ir_numel(o), nout);
  for (size_t e = 0; e < nout; e++)
    out[e] = o->dtype == DT_FLOAT16 ? aot_f16_to_f32(((uint16_t *)data[g->outputs[0]])[e])
                                    : ((float *)data[g->outputs[0]])[e];
  for (int t = 0; t < g->nt; t++)
    if (own[t]) free(data[t]);
  free(data), free(own);
  ir_free(g);
  return 1;
}

/* ---- a hand-made model ---------------------------------------------------------- */

/* x [1,4] -> FC(W [3,4], b [3]) -> TANH -> y [1,3]; W holds values with known
 * binary16 encodings. */
static const float w_vals[12] = {1.0f,   -2.0f,  0.1f,     65504.0f, 1e5f,  0.5f,
                                 1e-9f, 6e-8f, 1.0f / 3, -0.0f,    -1e-5f, 0.25f};
static const uint16_t w_bits[12] = {0x3C00, 0xC000, 0x2E66, 0x7BFF, 0x7C00, 0x3800,
                                    0x0000, 0x0001, 0x3555, 0x8000, 0x80A8, 0x3400};

static litert_model *hand_model(void) {
  litert_model *m = litert_model_new();
  int sg = litert_add_subgraph(m, "main");
  int32_t xs[2] = {1, 4}, ws[2] = {3, 4}, bs[1] = {3}, ys[2] = {1, 3};
  float b[3] = {0.125f, -0.75f, 3.0f};
  int x = litert_add_tensor(m, sg, "x", DT_FLOAT32, 2, xs, 0);
  int w = litert_add_tensor(m, sg, "W", DT_FLOAT32, 2, ws, litert_add_buffer(m, w_vals, sizeof w_vals));
  int bt = litert_add_tensor(m, sg, "b", DT_FLOAT32, 1, bs, litert_add_buffer(m, b, sizeof b));
  int h = litert_add_tensor(m, sg, "fc", DT_FLOAT32, 2, ys, 0);
  int y = litert_add_tensor(m, sg, "y", DT_FLOAT32, 2, ys, 0);
  int32_t in[3] = {x, w, bt}, o1[1] = {h}, i2[1] = {h}, o2[1] = {y};
  litert_add_op(m, sg, OP_FULLY_CONNECTED, NULL, 3, in, 1, o1, NULL);
  litert_add_op(m, sg, OP_TANH, NULL, 1, i2, 1, o2, NULL);
  int32_t mi[1] = {x}, mo[1] = {y};
  litert_set_io(m, sg, 1, mi, 1, mo);
  return m;
}

static void test_hand_model_casts(void **state) {
  (void)state;
  litert_model *m = hand_model();
  aotc_diag d = {0};
  d.quiet = 1;
  litert_fp16_stats st;
  assert_int_equal(litert_to_fp16_ex(m, 0, &st, &d), 0);
  const litert_subgraph *s = &m->subgraphs[0];
  /* weights: hand-computed binary16 encodings (round to nearest even) */
  int wt = s->ops[1].inputs[1];
  assert_string_equal(s->tensors[wt].name, "W");
  for (int i = 0; i < 12; i++)
    if (half_at(m, 0, wt, (size_t)i) != w_bits[i])
      fail_msg("W[%d] = %g: got 0x%04x, want 0x%04x", i, w_vals[i], half_at(m, 0, wt, (size_t)i), w_bits[i]);
  assert_int_equal(half_at(m, 0, s->ops[1].inputs[2], 0), 0x3000); /* 0.125 */
  assert_int_equal(half_at(m, 0, s->ops[1].inputs[2], 1), 0xBA00); /* -0.75 */
  assert_int_equal(half_at(m, 0, s->ops[1].inputs[2], 2), 0x4200); /* 3.0 */
  assert_int_equal(st.overflow, 1);   /* 1e5 */
  assert_int_equal(st.underflow, 1);  /* 1e-9 */
  /* float32 I/O behind casts, external names kept */
  assert_int_equal(s->nops, 4);
  assert_int_equal(litert_op_builtin(m, &s->ops[0]), OP_CAST);
  assert_int_equal(litert_op_builtin(m, &s->ops[3]), OP_CAST);
  const litert_tensor *xin = &s->tensors[s->inputs[0]], *yout = &s->tensors[s->outputs[0]];
  assert_int_equal(xin->type, DT_FLOAT32);
  assert_int_equal(yout->type, DT_FLOAT32);
  assert_string_equal(xin->name, "x");
  assert_string_equal(yout->name, "y");
  assert_int_equal(s->ops[0].inputs[0], s->inputs[0]);
  assert_int_equal(s->ops[0].opts.in_data_type, DT_FLOAT32);
  assert_int_equal(s->ops[0].opts.out_data_type, DT_FLOAT16);
  assert_int_equal(s->tensors[s->ops[0].outputs[0]].type, DT_FLOAT16);
  assert_int_equal(s->ops[1].inputs[0], s->ops[0].outputs[0]);
  assert_int_equal(s->ops[3].outputs[0], s->outputs[0]);
  assert_int_equal(s->ops[3].opts.in_data_type, DT_FLOAT16);
  assert_int_equal(s->ops[3].opts.out_data_type, DT_FLOAT32);
  assert_int_equal(count_type_all(m, DT_FLOAT32), 2);
  assert_int_equal(st.casts, 2);
  check_roundtrip(m);
  litert_model_free(m);
}

static void test_hand_model_io_fp16(void **state) {
  (void)state;
  litert_model *m = hand_model();
  aotc_diag d = {0};
  d.quiet = 1;
  assert_int_equal(litert_to_fp16(m, 1, &d), 0);
  const litert_subgraph *s = &m->subgraphs[0];
  assert_int_equal(s->nops, 2);
  assert_int_equal(count_builtin(m, 0, OP_CAST), 0);
  assert_int_equal(s->tensors[s->inputs[0]].type, DT_FLOAT16);
  assert_int_equal(s->tensors[s->outputs[0]].type, DT_FLOAT16);
  assert_int_equal(count_type_all(m, DT_FLOAT32), 0);
  /* numerics (if float16 FC / TANH exist): y = tanh(W x + b), binary16 weights */
  float x[4] = {0.5f, -0.25f, 1.0f, 0.0001f}, y[3];
  if (eval_graph(m, x, y, 3)) {
    for (int j = 0; j < 3; j++) {
      double acc = (double)(float[]){0.125f, -0.75f, 3.0f}[j];
      for (int k = 0; k < 4; k++) acc += (double)aot_f16_to_f32(w_bits[j * 4 + k]) * x[k];
      double want = tanh(acc);
      if (fabs(y[j] - want) > 2e-3) fail_msg("y[%d] = %g, want %g", j, y[j], want);
    }
  }
  litert_model_free(m);
}

/* DEQUANTIZE of int8 (per-channel) and float16 constants is folded. */
static void test_dequantize_folding(void **state) {
  (void)state;
  litert_model *m = litert_model_new();
  int sg = litert_add_subgraph(m, "main");
  int32_t ws[2] = {2, 2}, xs[2] = {1, 2}, bs[1] = {2};
  int8_t q[4] = {-128, 0, 127, 2};
  int wq = litert_add_tensor(m, sg, "Wq", DT_INT8, 2, ws, litert_add_buffer(m, q, 4));
  float sc[2] = {0.5f, 0.25f};
  int64_t zp[2] = {0, 0};
  litert_tensor_set_quant(m, sg, wq, 2, sc, zp, 0);
  uint16_t bh[2] = {0x3C00, 0xC400}; /* 1, -4 */
  int b16 = litert_add_tensor(m, sg, "b16", DT_FLOAT16, 1, bs, litert_add_buffer(m, bh, 4));
  int w = litert_add_tensor(m, sg, "W", DT_FLOAT32, 2, ws, 0);
  int b = litert_add_tensor(m, sg, "b", DT_FLOAT32, 1, bs, 0);
  int x = litert_add_tensor(m, sg, "x", DT_FLOAT32, 2, xs, 0);
  int y = litert_add_tensor(m, sg, "y", DT_FLOAT32, 2, xs, 0);
  /* a float16 activation read through DEQUANTIZE becomes an identity */
  int xh = litert_add_tensor(m, sg, "xh", DT_FLOAT16, 2, xs, 0);
  int xf = litert_add_tensor(m, sg, "xf", DT_FLOAT32, 2, xs, 0);
  int z = litert_add_tensor(m, sg, "z", DT_FLOAT32, 2, xs, 0);
  int32_t i1[1] = {wq}, o1[1] = {w}, i2[1] = {b16}, o2[1] = {b};
  litert_add_op(m, sg, OP_DEQUANTIZE, NULL, 1, i1, 1, o1, NULL);
  litert_add_op(m, sg, OP_DEQUANTIZE, NULL, 1, i2, 1, o2, NULL);
  int32_t i3[3] = {x, w, b}, o3[1] = {y};
  litert_add_op(m, sg, OP_FULLY_CONNECTED, NULL, 3, i3, 1, o3, NULL);
  int32_t i4[1] = {xh}, o4[1] = {xf};
  litert_add_op(m, sg, OP_DEQUANTIZE, NULL, 1, i4, 1, o4, NULL);
  int32_t i5[2] = {y, xf}, o5[1] = {z};
  litert_add_op(m, sg, OP_ADD, NULL, 2, i5, 1, o5, NULL);
  int32_t mi[2] = {x, xh}, mo[1] = {z};
  litert_set_io(m, sg, 2, mi, 1, mo);
  aotc_diag d = {0};
  litert_fp16_stats st;
  assert_int_equal(litert_to_fp16_ex(m, 1, &st, &d), 0);
  const litert_subgraph *s = &m->subgraphs[0];
  assert_int_equal(count_builtin(m, 0, OP_DEQUANTIZE), 0);
  assert_int_equal(s->nops, 2);
  assert_int_equal(st.folded, 2);
  assert_int_equal(st.removed, 1);
  const litert_op *fc = &s->ops[0];
  assert_int_equal(litert_op_builtin(m, fc), OP_FULLY_CONNECTED);
  /* (q - 0) * scale per output channel: -64, 0 | 31.75, 0.5 */
  assert_int_equal(half_at(m, 0, fc->inputs[1], 0), 0xD400);
  assert_int_equal(half_at(m, 0, fc->inputs[1], 1), 0x0000);
  assert_int_equal(half_at(m, 0, fc->inputs[1], 2), 0x4FF0);
  assert_int_equal(half_at(m, 0, fc->inputs[1], 3), 0x3800);
  assert_int_equal(half_at(m, 0, fc->inputs[2], 0), 0x3C00);
  assert_int_equal(half_at(m, 0, fc->inputs[2], 1), 0xC400);
  /* the ADD reads the float16 input directly */
  assert_int_equal(s->ops[1].inputs[1], xh);
  /* the int8 constant nothing reads any more is dropped with its buffer */
  assert_int_equal(s->tensors[wq].buffer, 0);
  for (int i = 1; i < m->nbuffers; i++)
    if (m->buffers[i].size == 4 && memcmp(m->buffers[i].data, q, 4) == 0) fail_msg("int8 data kept");
  check_roundtrip(m);
  litert_model_free(m);
}

/* Hybrid: int8 weights read directly by a float op are dequantized; CAST
 * options follow the new types. */
static void test_hybrid_and_cast(void **state) {
  (void)state;
  litert_model *m = litert_model_new();
  int sg = litert_add_subgraph(m, "main");
  int32_t ws[2] = {1, 2}, xs[2] = {1, 2}, ys[2] = {1, 1};
  int8_t q[2] = {10, -20};
  int w = litert_add_tensor(m, sg, "W", DT_INT8, 2, ws, litert_add_buffer(m, q, 2));
  float sc = 0.125f;
  int64_t zp = 0;
  litert_tensor_set_quant(m, sg, w, 1, &sc, &zp, 0);
  int xi = litert_add_tensor(m, sg, "xi", DT_INT32, 2, xs, 0);
  int x = litert_add_tensor(m, sg, "x", DT_FLOAT32, 2, xs, 0);
  int y = litert_add_tensor(m, sg, "y", DT_FLOAT32, 2, ys, 0);
  litert_options co;
  litert_options_default(&co);
  co.type = BO_CastOptions;
  co.in_data_type = DT_INT32;
  co.out_data_type = DT_FLOAT32;
  int32_t i1[1] = {xi}, o1[1] = {x};
  litert_add_op(m, sg, OP_CAST, NULL, 1, i1, 1, o1, &co);
  int32_t i2[3] = {x, w, -1}, o2[1] = {y};
  litert_add_op(m, sg, OP_FULLY_CONNECTED, NULL, 3, i2, 1, o2, NULL);
  int32_t mi[1] = {xi}, mo[1] = {y};
  litert_set_io(m, sg, 1, mi, 1, mo);
  aotc_diag d = {0};
  assert_int_equal(litert_to_fp16(m, 0, &d), 0);
  const litert_subgraph *s = &m->subgraphs[0];
  assert_int_equal(s->tensors[w].type, DT_FLOAT16);
  assert_int_equal(s->tensors[w].q.nscale, 0);
  assert_int_equal(half_at(m, 0, w, 0), 0x3D00); /* 1.25 */
  assert_int_equal(half_at(m, 0, w, 1), 0xC100); /* -2.5 */
  const litert_op *cast = &s->ops[0];
  assert_int_equal(litert_op_builtin(m, cast), OP_CAST);
  assert_int_equal(cast->opts.in_data_type, DT_INT32);
  assert_int_equal(cast->opts.out_data_type, DT_FLOAT16);
  assert_int_equal(s->tensors[s->inputs[0]].type, DT_INT32); /* not a float input: no cast */
  assert_int_equal(s->tensors[s->outputs[0]].type, DT_FLOAT32);
  assert_int_equal(s->nops, 3);
  check_roundtrip(m);
  litert_model_free(m);
}

static void test_quantized_refused(void **state) {
  (void)state;
  litert_model *m = load_shared("models/tflm/hello_world_int8.tflite");
  if (!m) skip();
  aotc_diag d = {0};
  assert_int_equal(litert_to_fp16(m, 0, &d), -1);
  assert_int_equal(d.code, 2);
  fprintf(stderr, "  message: %s\n", d.msg);
  assert_non_null(strstr(d.msg, "float models"));
  litert_model_free(m);
}

/* ---- the shared GRU models ---------------------------------------------------------- */

/* Our conversion of the float32 model equals the converter's float16 weights. */
static void test_bigru_matches_converter(void **state) {
  (void)state;
  litert_model *a = load_shared("models/gru/bigru64_fp32.tflite");
  if (!a) skip();
  litert_model *b = load_shared("models/gru/bigru64_fp16w.tflite");
  aotc_diag d = {0};
  d.quiet = 1;
  litert_fp16_stats sa, sb;
  assert_int_equal(litert_to_fp16_ex(a, 0, &sa, &d), 0);
  assert_int_equal(litert_to_fp16_ex(b, 0, &sb, &d), 0);
  assert_int_equal(sb.folded, 20);
  assert_int_equal(a->nsubgraphs, 5);
  assert_int_equal(b->nsubgraphs, 5);
  int compared = 0;
  for (int s = 0; s < a->nsubgraphs; s++) {
    const litert_subgraph *A = &a->subgraphs[s], *B = &b->subgraphs[s];
    assert_int_equal(count_builtin(b, s, OP_DEQUANTIZE), 0);
    assert_int_equal(A->nops, B->nops);
    for (int i = 0; i < A->nops; i++) {
      assert_int_equal(litert_op_builtin(a, &A->ops[i]), litert_op_builtin(b, &B->ops[i]));
      assert_int_equal(A->ops[i].ninputs, B->ops[i].ninputs);
      for (int k = 0; k < A->ops[i].ninputs; k++) {
        int ta = A->ops[i].inputs[k], tb = B->ops[i].inputs[k];
        if (ta < 0) continue;
        const litert_tensor *x = &A->tensors[ta], *y = &B->tensors[tb];
        assert_int_equal(x->type, y->type);
        if (x->type != DT_FLOAT16 || !x->buffer || !a->buffers[x->buffer].size) continue;
        const litert_buffer *p = &a->buffers[x->buffer], *q = &b->buffers[y->buffer];
        assert_int_equal(p->size, q->size);
        assert_memory_equal(p->data, q->data, p->size);
        compared++;
      }
    }
    for (int t = 0; t < A->ntensors; t++)
      if (A->tensors[t].type == DT_FLOAT32) {
        /* only the float32 model input and output remain */
        assert_true(s == 0);
        int io = A->tensors[t].type == DT_FLOAT32 &&
                 (t == A->inputs[0] || t == A->outputs[0]);
        assert_true(io);
      }
  }
  assert_int_equal(compared, 22);
  fprintf(stderr, "  %d float16 constants identical to the converter's\n", compared);
  check_roundtrip(a);
  check_roundtrip(b);
  litert_model_free(a);
  litert_model_free(b);
}

/* The float16 model's GRU loops fuse into float16 GRU ops, and the whole
 * model stays close to the float32 golden (when float16 kernels exist). */
static void test_gru_models_fp16_fuse(void **state) {
  (void)state;
  static const char *names[3] = {"bigru64_fp32", "bigru64_fp16w", "precise_hey_mycroft"};
  static const int loops[3] = {2, 2, 1};
  for (int k = 0; k < 3; k++) {
    char rel[128];
    snprintf(rel, sizeof rel, "models/gru/%s.tflite", names[k]);
    litert_model *m = load_shared(rel);
    if (!m) skip();
    aotc_diag d = {0};
    d.quiet = 1;
    assert_int_equal(litert_to_fp16(m, 0, &d), 0);
    check_roundtrip(m);
    int n = litert_hook_fuse_rolled_gru(m, 0, NULL, &d);
    if (n != loops[k]) fail_msg("%s: fused %d (%s)", names[k], n, d.msg);
    assert_int_equal(m->nsubgraphs, 1);
    const litert_subgraph *s = &m->subgraphs[0];
    int grus = 0;
    for (int i = 0; i < s->nops; i++) {
      const char *c = litert_op_custom(m, &s->ops[i]);
      if (!c || strcmp(c, "GRU") != 0) continue;
      grus++;
      for (int j = 0; j < 4; j++) assert_int_equal(s->tensors[s->ops[i].inputs[j]].type, DT_FLOAT16);
      assert_int_equal(s->tensors[s->ops[i].outputs[0]].type, DT_FLOAT16);
    }
    assert_int_equal(grus, loops[k]);
    /* the initial state folded to a constant: nothing but the GRU computes it */
    assert_int_equal(count_builtin(m, 0, OP_FILL), 0);
    check_roundtrip(m);
    char grel[128];
    snprintf(grel, sizeof grel, "goldens/gru/%s.npz", names[k]);
    char *gp = shared_path(grel);
    if (gp) {
      npy_array *a = NULL;
      int na = 0;
      if (npz_read(gp, &a, &na, &d) != 0) fail_msg("%s", d.msg);
      const npy_array *in = npz_find(a, na, "input_0"), *out = npz_find(a, na, "output_0");
      float *x = malloc(sizeof(float) * in->count), *y = malloc(sizeof(float) * out->count);
      for (size_t i = 0; i < in->count; i++) x[i] = (float)npy_get_double(in, i);
      if (eval_graph(m, x, y, out->count)) {
        double worst = 0;
        for (size_t i = 0; i < out->count; i++) {
          double e = fabs(y[i] - npy_get_double(out, i));
          if (e > worst) worst = e;
        }
        fprintf(stderr, "  %s float16: max |y - golden| = %.3g\n", names[k], worst);
        assert_true(worst < 2e-2);
      }
      free(x), free(y);
      npz_free(a, na);
      free(gp);
    }
    litert_model_free(m);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hand_model_casts),
      cmocka_unit_test(test_hand_model_io_fp16),
      cmocka_unit_test(test_dequantize_folding),
      cmocka_unit_test(test_hybrid_and_cast),
      cmocka_unit_test(test_quantized_refused),
      cmocka_unit_test(test_bigru_matches_converter),
      cmocka_unit_test(test_gru_models_fp16_fuse),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
