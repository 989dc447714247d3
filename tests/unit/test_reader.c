/* test_reader.c - the bounds-checked .tflite reader.
 *
 * Facts checked on the shared models come from the models' published
 * architectures (MLPerf Tiny DS-CNN keyword spotting: 49x10 MFCC input, a
 * 10x4 stride-2 conv with 64 filters, four depthwise-separable blocks, average
 * pool, reshape, fully connected to 12 classes, softmax; TFLM hello_world:
 * three fully connected layers on a [1,1] input), not from our own output.
 * Corrupted files are made here byte by byte with a small independent
 * flatbuffer navigator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "litert/litert.h"

/* ---- helpers --------------------------------------------------------------- */

static const char *shared_dir(void) {
  const char *s = getenv("AOTC_SHARED");
  return s && *s ? s : "../shared";
}

/* Path under shared/, or NULL (with a skip message) if missing. */
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

typedef struct pathlist {
  char **p;
  int n;
} pathlist;

static void collect(const char *dir, pathlist *l, int skip_fuzz) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    if (skip_fuzz && strcmp(e->d_name, "fuzz-seeds") == 0) continue;
    char *p = xasprintf("%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
      collect(p, l, skip_fuzz);
      free(p);
      continue;
    }
    size_t n = strlen(p);
    if ((n > 7 && strcmp(p + n - 7, ".tflite") == 0) || (n > 4 && strcmp(p + n - 4, ".bin") == 0)) {
      l->p = xrealloc(l->p, sizeof *l->p * (size_t)(l->n + 1));
      l->p[l->n++] = p;
    } else {
      free(p);
    }
  }
  closedir(d);
}

static void free_list(pathlist *l) {
  for (int i = 0; i < l->n; i++) free(l->p[i]);
  free(l->p);
}

static int count_builtin(const litert_model *m, int sg, int builtin) {
  int n = 0;
  for (int i = 0; i < m->subgraphs[sg].nops; i++)
    if (litert_op_builtin(m, &m->subgraphs[sg].ops[i]) == builtin) n++;
  return n;
}

/* Independent little flatbuffer navigator over a raw image. */
static uint32_t rd32(const uint8_t *b, size_t at) {
  return (uint32_t)b[at] | (uint32_t)b[at + 1] << 8 | (uint32_t)b[at + 2] << 16 |
         (uint32_t)b[at + 3] << 24;
}
static void wr32(uint8_t *b, size_t at, uint32_t v) {
  b[at] = (uint8_t)v;
  b[at + 1] = (uint8_t)(v >> 8);
  b[at + 2] = (uint8_t)(v >> 16);
  b[at + 3] = (uint8_t)(v >> 24);
}
/* Absolute position of field id of the table at tpos (0 if absent). */
static size_t fb_field(const uint8_t *b, size_t tpos, int id) {
  size_t vt = tpos - (size_t)(int32_t)rd32(b, tpos);
  unsigned vs = (unsigned)(b[vt] | b[vt + 1] << 8);
  if (4u + 2u * (unsigned)id + 2 > vs) return 0;
  unsigned fo = (unsigned)(b[vt + 4 + 2 * id] | b[vt + 5 + 2 * id] << 8);
  return fo ? tpos + fo : 0;
}
static size_t fb_deref(const uint8_t *b, size_t at) { return at + rd32(b, at); }
static size_t fb_root(const uint8_t *b) { return rd32(b, 0); }
/* Position of element i's table of the vector-of-tables at field id. */
static size_t fb_vec_table(const uint8_t *b, size_t tpos, int id, int i) {
  size_t v = fb_deref(b, fb_field(b, tpos, id));
  return fb_deref(b, v + 4 + 4 * (size_t)i);
}

/* A small valid model: in[1,4] int8 -> FULLY_CONNECTED(w[3,4], bias[3]) -> out[1,3]. */
static litert_model *make_fc_model(void) {
  litert_model *m = litert_model_new();
  int sg = litert_add_subgraph(m, "main");
  int32_t s_in[] = {1, 4}, s_w[] = {3, 4}, s_b[] = {3}, s_out[] = {1, 3};
  int8_t w[12];
  for (int i = 0; i < 12; i++) w[i] = (int8_t)(i - 6);
  int32_t bias[3] = {10, -20, 30};
  int bw = litert_add_buffer(m, w, sizeof w);
  int bb = litert_add_buffer(m, bias, sizeof bias);
  int t_in = litert_add_tensor(m, sg, "in", DT_INT8, 2, s_in, 0);
  int t_w = litert_add_tensor(m, sg, "w", DT_INT8, 2, s_w, bw);
  int t_b = litert_add_tensor(m, sg, "b", DT_INT32, 1, s_b, bb);
  int t_out = litert_add_tensor(m, sg, "out", DT_INT8, 2, s_out, 0);
  float sc = 0.5f;
  int64_t zp = -3;
  litert_tensor_set_quant(m, sg, t_in, 1, &sc, &zp, 0);
  float wsc[3] = {0.1f, 0.2f, 0.3f};
  litert_tensor_set_quant(m, sg, t_w, 3, wsc, NULL, 0);
  litert_tensor_set_quant(m, sg, t_out, 1, &sc, &zp, 0);
  litert_options o;
  litert_options_default(&o);
  o.type = BO_FullyConnectedOptions;
  o.fused_act = ACT_RELU;
  int32_t in[] = {t_in, t_w, t_b}, out[] = {t_out};
  litert_add_op(m, sg, OP_FULLY_CONNECTED, NULL, 3, in, 1, out, &o);
  litert_set_io(m, sg, 1, &in[0], 1, out);
  return m;
}

static uint8_t *write_model(const litert_model *m, size_t *len) {
  uint8_t *buf;
  aotc_diag d = {0};
  assert_int_equal(litert_write(m, &buf, len, &d), 0);
  return buf;
}

/* Reads buf and expects failure with a message containing each of the
 * NULL-terminated substrings. */
static void expect_error(const uint8_t *buf, size_t len, ...) {
  aotc_diag d = {0};
  litert_model *m = litert_read(buf, len, &d);
  if (m) {
    litert_model_free(m);
    fail_msg("expected a read error");
  }
  assert_true(strncmp(d.msg, "malformed .tflite: ", 19) == 0 ||
              strncmp(d.msg, "unsupported .tflite: ", 21) == 0);
  assert_null(strchr(d.msg, '\n'));
  va_list ap;
  va_start(ap, len);
  const char *s;
  while ((s = va_arg(ap, const char *))) {
    if (!strstr(d.msg, s)) fail_msg("message '%s' lacks '%s'", d.msg, s);
  }
  va_end(ap);
}

/* Writes m and expects reading it back to fail with the given substrings. */
#define EXPECT_MODEL_ERROR(m, ...) \
  do { \
    size_t len_; \
    uint8_t *b_ = write_model(m, &len_); \
    expect_error(b_, len_, __VA_ARGS__, (const char *)NULL); \
    free(b_); \
  } while (0)

/* ---- shared models ------------------------------------------------------------ */

static void test_all_shared_models_load(void **state) {
  (void)state;
  char *dir = shared_path("models");
  if (!dir) skip();
  pathlist l = {0};
  collect(dir, &l, 1);
  assert_true(l.n >= 20);
  for (int i = 0; i < l.n; i++) {
    aotc_diag d = {0};
    litert_model *m = litert_read_file(l.p[i], &d);
    if (!m) fail_msg("%s", d.msg);
    assert_true(m->nsubgraphs >= 1);
    assert_true(m->nbuffers >= 1);
    assert_int_equal(m->buffers[0].size, 0);
    /* every index the reader promises is in range */
    for (int s = 0; s < m->nsubgraphs; s++) {
      const litert_subgraph *g = &m->subgraphs[s];
      for (int t = 0; t < g->ntensors; t++) assert_true(g->tensors[t].buffer < (uint32_t)m->nbuffers);
      for (int o = 0; o < g->nops; o++) {
        assert_true(g->ops[o].opcode_index < (uint32_t)m->nopcodes);
        for (int k = 0; k < g->ops[o].ninputs; k++)
          assert_true(g->ops[o].inputs[k] >= -1 && g->ops[o].inputs[k] < g->ntensors);
      }
    }
    litert_model_free(m);
  }
  fprintf(stderr, "read %d shared models\n", l.n);
  free_list(&l);
  free(dir);
}

static void test_kws_int8_facts(void **state) {
  (void)state;
  char *p = shared_path("models/mlperf-tiny/kws_ref_model.tflite");
  if (!p) skip();
  aotc_diag d = {0};
  litert_model *m = litert_read_file(p, &d);
  free(p);
  assert_non_null(m);
  assert_int_equal(m->version, 3);
  assert_int_equal(m->nsubgraphs, 1);
  const litert_subgraph *g = &m->subgraphs[0];
  assert_int_equal(g->ninputs, 1);
  assert_int_equal(g->noutputs, 1);
  const litert_tensor *in = &g->tensors[g->inputs[0]];
  assert_int_equal(in->type, DT_INT8);
  assert_int_equal(in->rank, 4);
  int32_t want_in[] = {1, 49, 10, 1};
  assert_memory_equal(in->shape, want_in, sizeof want_in);
  assert_int_equal(in->q.nscale, 1);
  const litert_tensor *out = &g->tensors[g->outputs[0]];
  assert_int_equal(out->type, DT_INT8);
  assert_int_equal(out->rank, 2);
  assert_int_equal(out->shape[1], 12);
  /* softmax output quantization is fixed by TFLite: 1/256, zero point -128 */
  assert_true(out->q.scale[0] == 1.0f / 256.0f);
  assert_int_equal(out->q.zero_point[0], -128);

  assert_int_equal(g->nops, 13);
  assert_int_equal(count_builtin(m, 0, OP_CONV_2D), 5);
  assert_int_equal(count_builtin(m, 0, OP_DEPTHWISE_CONV_2D), 4);
  assert_int_equal(count_builtin(m, 0, OP_AVERAGE_POOL_2D), 1);
  assert_int_equal(count_builtin(m, 0, OP_RESHAPE), 1);
  assert_int_equal(count_builtin(m, 0, OP_FULLY_CONNECTED), 1);
  assert_int_equal(count_builtin(m, 0, OP_SOFTMAX), 1);

  /* first op: 10x4 conv, stride 2, 64 filters, per-channel int8 weights */
  const litert_op *c = &g->ops[0];
  assert_int_equal(litert_op_builtin(m, c), OP_CONV_2D);
  assert_string_equal(litert_op_name(litert_op_builtin(m, c)), "CONV_2D");
  assert_int_equal(c->opts.type, BO_Conv2DOptions);
  assert_int_equal(c->opts.stride_w, 2);
  assert_int_equal(c->opts.stride_h, 2);
  assert_int_equal(c->opts.dilation_w, 1);
  assert_int_equal(c->opts.fused_act, ACT_RELU);
  assert_int_equal(c->ninputs, 3);
  assert_int_equal(c->inputs[0], g->inputs[0]);
  const litert_tensor *f = &g->tensors[c->inputs[1]];
  assert_int_equal(f->type, DT_INT8);
  int32_t want_f[] = {64, 10, 4, 1};
  assert_int_equal(f->rank, 4);
  assert_memory_equal(f->shape, want_f, sizeof want_f);
  assert_int_equal(f->q.nscale, 64);
  assert_int_equal(f->q.nzero, 64);
  assert_int_equal(f->q.quantized_dimension, 0);
  assert_int_equal(m->buffers[f->buffer].size, 64 * 10 * 4);
  assert_int_equal(litert_tensor_bytes(f), 64 * 10 * 4);
  const litert_tensor *b = &g->tensors[c->inputs[2]];
  assert_int_equal(b->type, DT_INT32);
  assert_int_equal(m->buffers[b->buffer].size, 64 * 4);
  /* depthwise filters are [1,3,3,64], quantized along dimension 3 */
  const litert_op *dw = &g->ops[1];
  assert_int_equal(litert_op_builtin(m, dw), OP_DEPTHWISE_CONV_2D);
  const litert_tensor *df = &g->tensors[dw->inputs[1]];
  assert_int_equal(df->shape[3], 64);
  assert_int_equal(df->q.nscale, 64);
  assert_int_equal(df->q.quantized_dimension, 3);
  /* softmax beta 1 */
  const litert_op *sm = &g->ops[12];
  assert_int_equal(litert_op_builtin(m, sm), OP_SOFTMAX);
  assert_true(sm->opts.beta == 1.0f);
  litert_model_free(m);
}

static void test_hello_world_facts(void **state) {
  (void)state;
  const char *names[] = {"models/tflm/hello_world_int8.tflite", "models/tflm/hello_world_float.tflite"};
  for (int k = 0; k < 2; k++) {
    char *p = shared_path(names[k]);
    if (!p) skip();
    aotc_diag d = {0};
    litert_model *m = litert_read_file(p, &d);
    free(p);
    assert_non_null(m);
    const litert_subgraph *g = &m->subgraphs[0];
    assert_int_equal(g->nops, 3);
    assert_int_equal(count_builtin(m, 0, OP_FULLY_CONNECTED), 3);
    const litert_tensor *in = &g->tensors[g->inputs[0]];
    assert_int_equal(in->type, k == 0 ? DT_INT8 : DT_FLOAT32);
    assert_int_equal(in->rank, 2);
    assert_int_equal(in->shape[0], 1);
    assert_int_equal(in->shape[1], 1);
    assert_int_equal(g->ops[0].opts.type, BO_FullyConnectedOptions);
    assert_int_equal(g->ops[0].opts.fused_act, ACT_RELU);
    assert_int_equal(g->ops[2].opts.fused_act, ACT_NONE);
    litert_model_free(m);
  }
}

static void test_control_flow_and_variables(void **state) {
  (void)state;
  char *p = shared_path("models/litert-testdata/multi_subgraphs_while.bin");
  if (!p) skip();
  aotc_diag d = {0};
  litert_model *m = litert_read_file(p, &d);
  free(p);
  assert_non_null(m);
  assert_int_equal(m->nsubgraphs, 3);
  int found = 0;
  for (int o = 0; o < m->subgraphs[0].nops; o++) {
    const litert_op *op = &m->subgraphs[0].ops[o];
    if (litert_op_builtin(m, op) != OP_WHILE) continue;
    found++;
    assert_int_equal(op->opts.type, BO_WhileOptions);
    assert_true(op->opts.cond_subgraph >= 1 && op->opts.cond_subgraph < 3);
    assert_true(op->opts.body_subgraph >= 1 && op->opts.body_subgraph < 3);
    assert_true(op->opts.cond_subgraph != op->opts.body_subgraph);
  }
  assert_int_equal(found, 1);
  litert_model_free(m);

  p = shared_path("models/streaming/okay_nabu_v2.tflite");
  if (!p) skip();
  m = litert_read_file(p, &d);
  free(p);
  assert_non_null(m);
  assert_int_equal(count_builtin(m, 0, OP_CALL_ONCE), 1);
  int var = 0;
  for (int s = 0; s < m->nsubgraphs; s++)
    for (int o = 0; o < m->subgraphs[s].nops; o++) {
      const litert_op *op = &m->subgraphs[s].ops[o];
      if (litert_op_builtin(m, op) == OP_VAR_HANDLE) {
        var++;
        assert_int_equal(op->opts.type, BO_VarHandleOptions);
        assert_non_null(op->opts.shared_name);
      }
      if (litert_op_builtin(m, op) == OP_CALL_ONCE)
        assert_true(op->opts.init_subgraph > 0 && op->opts.init_subgraph < m->nsubgraphs);
    }
  assert_true(var > 0);
  assert_true(m->nsignatures >= 1);
  litert_model_free(m);
}

static void test_lstm_and_svdf_options(void **state) {
  (void)state;
  char *p = shared_path("models/tflm/trained_lstm_int8.tflite");
  if (!p) skip();
  aotc_diag d = {0};
  litert_model *m = litert_read_file(p, &d);
  free(p);
  assert_non_null(m);
  int n = 0;
  for (int o = 0; o < m->subgraphs[0].nops; o++) {
    const litert_op *op = &m->subgraphs[0].ops[o];
    if (litert_op_builtin(m, op) != OP_UNIDIRECTIONAL_SEQUENCE_LSTM) continue;
    n++;
    assert_int_equal(op->opts.type, BO_UnidirectionalSequenceLSTMOptions);
    assert_int_equal(op->ninputs, 24); /* the unidirectional LSTM has 24 inputs */
    assert_int_equal(op->opts.fused_act, ACT_TANH);
  }
  assert_int_equal(n, 1);
  litert_model_free(m);

  p = shared_path("models/tflm/keyword_scrambled_8bit.tflite");
  if (!p) skip();
  m = litert_read_file(p, &d);
  free(p);
  assert_non_null(m);
  n = 0;
  for (int o = 0; o < m->subgraphs[0].nops; o++) {
    const litert_op *op = &m->subgraphs[0].ops[o];
    if (litert_op_builtin(m, op) != OP_SVDF) continue;
    n++;
    assert_int_equal(op->opts.type, BO_SVDFOptions);
    assert_true(op->opts.rank >= 1);
    /* input 4 is the variable state tensor */
    assert_true(m->subgraphs[0].tensors[op->inputs[4]].is_variable);
  }
  assert_true(n >= 1);
  litert_model_free(m);
}

static void test_person_detect_stale_quantized_dimension(void **state) {
  (void)state;
  char *p = shared_path("models/tflm/person_detect.tflite");
  if (!p) skip();
  aotc_diag d = {0};
  litert_model *m = litert_read_file(p, &d);
  free(p);
  if (!m) fail_msg("%s", d.msg);
  /* every per-channel or per-tensor quantization ends up consistent */
  const litert_subgraph *g = &m->subgraphs[0];
  for (int t = 0; t < g->ntensors; t++) {
    const litert_quant *q = &g->tensors[t].q;
    if (q->nscale > 1) {
      assert_true(q->quantized_dimension >= 0 && q->quantized_dimension < g->tensors[t].rank);
      assert_int_equal(g->tensors[t].shape[q->quantized_dimension], q->nscale);
    }
  }
  litert_model_free(m);
}

static void test_fuzz_seeds(void **state) {
  (void)state;
  char *dir = shared_path("models/fuzz-seeds");
  if (!dir) skip();
  pathlist l = {0};
  collect(dir, &l, 0);
  assert_true(l.n > 0);
  int errors = 0;
  for (int i = 0; i < l.n; i++) {
    aotc_diag d = {0};
    litert_model *m = litert_read_file(l.p[i], &d);
    if (m) {
      litert_model_free(m);
      continue;
    }
    errors++;
    assert_non_null(strstr(d.msg, "malformed .tflite: "));
    if (strstr(l.p[i], "overflow") || strstr(l.p[i], "malicious.tflite") ||
        strstr(l.p[i], "int32_max_dim"))
      assert_true(strstr(d.msg, "more than 2^31-1 elements") || strstr(d.msg, "needs "));
  }
  assert_true(errors >= 6);
  free_list(&l);
  free(dir);
}

/* ---- synthesized, then corrupted ------------------------------------------------ */

static void test_synth_model_reads(void **state) {
  (void)state;
  litert_model *m = make_fc_model();
  size_t len;
  uint8_t *buf = write_model(m, &len);
  aotc_diag d = {0};
  litert_model *r = litert_read(buf, len, &d);
  if (!r) fail_msg("%s", d.msg);
  assert_int_equal(r->subgraphs[0].ntensors, 4);
  assert_int_equal(r->subgraphs[0].tensors[1].q.nscale, 3);
  litert_model_free(r);
  free(buf);
  litert_model_free(m);
}

static void test_structural_corruptions(void **state) {
  (void)state;
  litert_model *m = make_fc_model();
  size_t len;
  uint8_t *orig = write_model(m, &len);
  uint8_t *b = malloc(len);

  /* too small */
  expect_error(orig, 5, "file too small", (const char *)NULL);
  expect_error(NULL, 0, "file too small", (const char *)NULL);

  /* root offset past the end */
  memcpy(b, orig, len);
  wr32(b, 0, (uint32_t)len + 100);
  expect_error(b, len, "Model table at offset", "runs past end of file", (const char *)NULL);

  /* root table's vtable outside the file */
  memcpy(b, orig, len);
  wr32(b, fb_root(b), 0x80000000u);
  expect_error(b, len, "model: Model table", "vtable", "outside the file", (const char *)NULL);

  /* subgraphs vector length huge */
  memcpy(b, orig, len);
  size_t sgv = fb_deref(b, fb_field(b, fb_root(b), 2));
  wr32(b, sgv, 0x7fffffffu);
  char want[96];
  snprintf(want, sizeof want, "subgraphs vector at offset %zu", sgv);
  expect_error(b, len, "model: ", want, "runs past end of file", (const char *)NULL);

  /* tensor 1's shape vector length runs past the end */
  memcpy(b, orig, len);
  size_t sg0 = fb_vec_table(b, fb_root(b), 2, 0);
  size_t t1 = fb_vec_table(b, sg0, 0, 1);
  size_t shp = fb_deref(b, fb_field(b, t1, 0));
  wr32(b, shp, 1000000);
  snprintf(want, sizeof want, "shape vector at offset %zu", shp);
  expect_error(b, len, "tensor 1 ", "of subgraph 0", want, "runs past end of file", (const char *)NULL);

  /* string (tensor name) length too long */
  memcpy(b, orig, len);
  size_t nm = fb_deref(b, fb_field(b, t1, 3));
  wr32(b, nm, 0xfffffff0u);
  expect_error(b, len, "tensor 1 of subgraph 0", "name string", "runs past end of file",
               (const char *)NULL);

  /* a field offset that leaves its table (vtable entry larger than table size) */
  memcpy(b, orig, len);
  size_t vt = t1 - (size_t)(int32_t)rd32(b, t1);
  b[vt + 4 + 2 * 2] = 0xf0; /* field 2 (buffer) */
  b[vt + 4 + 2 * 2 + 1] = 0x00;
  expect_error(b, len, "field 'buffer'", "lies outside the table", (const char *)NULL);

  /* every truncation fails cleanly (the buffers are at the end, so any cut
   * removes something the model refers to) */
  for (size_t cut = 0; cut < len; cut += 3) {
    aotc_diag d = {0};
    litert_model *r = litert_read(orig, cut, &d);
    if (r) {
      litert_model_free(r);
      continue;
    }
    assert_non_null(strstr(d.msg, "malformed .tflite"));
  }
  free(b);
  free(orig);
  litert_model_free(m);
}

static void test_semantic_corruptions(void **state) {
  (void)state;
  litert_model *m;

  m = make_fc_model();
  m->subgraphs[0].tensors[1].buffer = 99;
  EXPECT_MODEL_ERROR(m, "tensor 1 ('w') of subgraph 0: buffer index 99 out of range (3 buffers)");
  litert_model_free(m);

  m = make_fc_model();
  m->subgraphs[0].ops[0].inputs[0] = 7;
  EXPECT_MODEL_ERROR(m, "operator 0 (FULLY_CONNECTED) of subgraph 0: input 0 is tensor 7, out of range (4 tensors)");
  litert_model_free(m);

  m = make_fc_model();
  m->subgraphs[0].ops[0].inputs[2] = -1; /* optional bias absent: fine */
  {
    size_t len;
    uint8_t *b = write_model(m, &len);
    aotc_diag d = {0};
    litert_model *r = litert_read(b, len, &d);
    if (!r) fail_msg("%s", d.msg);
    assert_int_equal(r->subgraphs[0].ops[0].inputs[2], -1);
    litert_model_free(r);
    free(b);
  }
  m->subgraphs[0].ops[0].inputs[2] = -2;
  EXPECT_MODEL_ERROR(m, "input 2 is tensor -2, out of range");
  litert_model_free(m);

  m = make_fc_model();
  m->subgraphs[0].ops[0].outputs[0] = -1;
  EXPECT_MODEL_ERROR(m, "output 0 is tensor -1, out of range");
  litert_model_free(m);

  m = make_fc_model();
  m->subgraphs[0].ops[0].opcode_index = 5;
  EXPECT_MODEL_ERROR(m, "operator 0 of subgraph 0: opcode_index 5 out of range (1 operator codes)");
  litert_model_free(m);

  m = make_fc_model();
  m->subgraphs[0].outputs[0] = 4;
  EXPECT_MODEL_ERROR(m, "subgraph 0: output 0 is tensor 4, out of range (4 tensors)");
  litert_model_free(m);

  m = make_fc_model();
  m->subgraphs[0].tensors[0].shape[1] = -4;
  EXPECT_MODEL_ERROR(m, "tensor 0 ('in') of subgraph 0: shape [1,-4]: dimension 1 is negative");
  litert_model_free(m);

  m = make_fc_model();
  m->subgraphs[0].tensors[0].shape[0] = 2147483647;
  m->subgraphs[0].tensors[0].shape[1] = 2;
  EXPECT_MODEL_ERROR(m, "shape [2147483647,2] has more than 2^31-1 elements");
  litert_model_free(m);

  m = make_fc_model();
  m->subgraphs[0].tensors[1].shape[0] = 4; /* [4,4] int8 needs 16 bytes, buffer has 12 */
  m->subgraphs[0].tensors[1].q.nscale = m->subgraphs[0].tensors[1].q.nzero = 1;
  EXPECT_MODEL_ERROR(m, "tensor 1 ('w') of subgraph 0: buffer 1 holds 12 bytes but shape [4,4] of int8 needs 16");
  litert_model_free(m);

  m = make_fc_model();
  m->subgraphs[0].tensors[1].q.nzero = 2;
  EXPECT_MODEL_ERROR(m, "quantization has 3 scales but 2 zero points");
  litert_model_free(m);

  m = make_fc_model();
  m->subgraphs[0].tensors[1].q.quantized_dimension = 1; /* dimension 1 has 4 entries */
  EXPECT_MODEL_ERROR(m, "per-channel quantization has 3 scales but dimension 1 has size 4");
  litert_model_free(m);

  m = make_fc_model();
  m->subgraphs[0].tensors[1].q.quantized_dimension = 5;
  EXPECT_MODEL_ERROR(m, "quantized_dimension 5 out of range for rank 2");
  litert_model_free(m);

  m = make_fc_model();
  m->subgraphs[0].tensors[2].type = 42;
  EXPECT_MODEL_ERROR(m, "tensor 2 ('b') of subgraph 0: unknown tensor type 42");
  litert_model_free(m);

  m = make_fc_model();
  m->subgraphs[0].ops[0].opts.type = BO_Conv2DOptions;
  EXPECT_MODEL_ERROR(m, "builtin options are Conv2DOptions, expected FullyConnectedOptions");
  litert_model_free(m);

  m = make_fc_model();
  m->subgraphs[0].ops[0].opts.fused_act = 9;
  EXPECT_MODEL_ERROR(m, "unknown fused activation 9");
  litert_model_free(m);

  m = make_fc_model();
  m->nsubgraphs = 0;
  EXPECT_MODEL_ERROR(m, "model has no subgraphs");
  m->nsubgraphs = 1;
  litert_model_free(m);

  /* conv with stride 0, and one without options */
  m = make_fc_model();
  {
    litert_options o;
    litert_options_default(&o);
    o.type = BO_Conv2DOptions;
    o.stride_w = 0;
    o.stride_h = 1;
    int32_t in[] = {0, 1}, out[] = {3};
    litert_add_op(m, 0, OP_CONV_2D, NULL, 2, in, 1, out, &o);
    EXPECT_MODEL_ERROR(m, "operator 1 (CONV_2D) of subgraph 0: stride 1x0 must be >= 1");
    m->subgraphs[0].ops[1].opts.type = 0;
    EXPECT_MODEL_ERROR(m, "operator 1 (CONV_2D) of subgraph 0: missing builtin options (Conv2DOptions)");
  }
  litert_model_free(m);

  /* WHILE referring to a subgraph that does not exist */
  m = make_fc_model();
  {
    litert_options o;
    litert_options_default(&o);
    o.type = BO_WhileOptions;
    o.cond_subgraph = 1;
    o.body_subgraph = 2;
    int32_t io[] = {0};
    litert_add_op(m, 0, OP_WHILE, NULL, 1, io, 1, io, &o);
    EXPECT_MODEL_ERROR(m, "operator 1 (WHILE) of subgraph 0: cond/body subgraph 1/2 out of range (1 subgraphs)");
  }
  litert_model_free(m);

  /* metadata and signatures out of range */
  m = make_fc_model();
  m->metadata = xcalloc(1, sizeof *m->metadata);
  m->nmetadata = 1;
  m->metadata[0].name = xstrdup("min_runtime_version");
  m->metadata[0].buffer = 17;
  EXPECT_MODEL_ERROR(m, "metadata 0: buffer index 17 out of range (3 buffers)");
  litert_model_free(m);

  m = make_fc_model();
  m->signatures = xcalloc(1, sizeof *m->signatures);
  m->nsignatures = 1;
  m->signatures[0].key = xstrdup("serving_default");
  m->signatures[0].inputs = xcalloc(1, sizeof(litert_sigtensor));
  m->signatures[0].ninputs = 1;
  m->signatures[0].inputs[0].name = xstrdup("x");
  m->signatures[0].inputs[0].tensor_index = 9;
  EXPECT_MODEL_ERROR(m, "signature 0: input 'x' maps to tensor 9, out of range (4 tensors)");
  m->signatures[0].inputs[0].tensor_index = 0;
  m->signatures[0].subgraph_index = 3;
  EXPECT_MODEL_ERROR(m, "signature 0: subgraph_index 3 out of range (1 subgraphs)");
  litert_model_free(m);
}

/* Many tensor entries pointing at one table with a long shape: the decoded
 * size would be quadratic in the file size; the reader must refuse. */
static void test_shared_reference_blowup(void **state) {
  (void)state;
  litert_model *m = litert_model_new();
  int sg = litert_add_subgraph(m, "g");
  enum { NT = 20000, RANK = 4000 };
  int32_t *shape = malloc(sizeof *shape * RANK);
  for (int i = 0; i < RANK; i++) shape[i] = 1;
  for (int i = 0; i < NT - 1; i++) litert_add_tensor(m, sg, NULL, DT_INT8, 0, NULL, 0);
  litert_add_tensor(m, sg, NULL, DT_INT8, RANK, shape, 0);
  free(shape);
  size_t len;
  uint8_t *b = write_model(m, &len);
  size_t sg0 = fb_vec_table(b, fb_root(b), 2, 0);
  size_t tv = fb_deref(b, fb_field(b, sg0, 0));
  size_t last = fb_deref(b, tv + 4 + 4 * (size_t)(NT - 1));
  for (int i = 0; i < NT - 1; i++) {
    size_t at = tv + 4 + 4 * (size_t)i;
    wr32(b, at, (uint32_t)(last - at));
  }
  expect_error(b, len, "decoded data exceeds", (const char *)NULL);
  free(b);
  litert_model_free(m);
}

static void test_external_buffer_form(void **state) {
  (void)state;
  /* Buffer with offset/size (data after the flatbuffer): build by hand. */
  litert_model *m = make_fc_model();
  size_t len;
  uint8_t *b = write_model(m, &len);
  aotc_diag d = {0};
  /* Relocate buffer 1's 12 bytes: append them at the end and point the
   * Buffer table's data field at nothing, using offset/size instead. The
   * Buffer table has only field 0, so rebuild it: write a new table at the end. */
  size_t bv = fb_deref(b, fb_field(b, fb_root(b), 4));
  size_t b1 = fb_deref(b, bv + 4 + 4);
  size_t data = fb_deref(b, fb_field(b, b1, 0)) + 4;
  uint8_t w[12];
  memcpy(w, b + data, 12);
  size_t nlen = (len + 7) / 8 * 8 + 64;
  uint8_t *n = calloc(1, nlen + 16);
  memcpy(n, b, len);
  size_t vt = (len + 7) / 8 * 8;   /* vtable: 3 fields (data, offset, size) */
  size_t tab = vt + 16;            /* table: soffset, pad, u64 offset, u64 size */
  n[vt] = 10; n[vt + 2] = 24;       /* vtable size 10, table size 24 */
  n[vt + 4] = 0; n[vt + 6] = 8; n[vt + 8] = 16;
  wr32(n, tab, (uint32_t)(tab - vt));
  size_t ext = tab + 24;           /* the data itself */
  memcpy(n + ext, w, 12);
  wr32(n, tab + 8, (uint32_t)ext);
  wr32(n, tab + 16, 12);
  wr32(n, bv + 4 + 4, (uint32_t)(tab - (bv + 8)));
  size_t total = ext + 12;
  litert_model *r = litert_read(n, total, &d);
  if (!r) fail_msg("%s", d.msg);
  assert_int_equal(r->buffers[1].size, 12);
  assert_memory_equal(r->buffers[1].data, w, 12);
  litert_model_free(r);
  /* size running past the end */
  wr32(n, tab + 16, 13);
  expect_error(n, total, "buffer 1: external data at offset", "runs past end of file", (const char *)NULL);
  free(n);
  free(b);
  litert_model_free(m);
}

static void test_names_and_sizes(void **state) {
  (void)state;
  assert_string_equal(litert_op_name(OP_CONV_2D), "CONV_2D");
  assert_string_equal(litert_op_name(OP_UNIDIRECTIONAL_SEQUENCE_LSTM), "UNIDIRECTIONAL_SEQUENCE_LSTM");
  assert_string_equal(litert_op_name(OP_RIGHT_SHIFT), "RIGHT_SHIFT");
  assert_string_equal(litert_op_name(999), "BUILTIN_999");
  assert_string_equal(litert_op_name(-3), "BUILTIN_-3");
  assert_string_equal(litert_options_name(BO_WhileOptions), "WhileOptions");
  assert_int_equal(litert_builtin_options_type(OP_MEAN), BO_ReducerOptions);
  assert_int_equal(litert_builtin_options_type(OP_RELU), BO_NONE);
  litert_options o;
  litert_options_default(&o);
  assert_int_equal(o.type, 0);
  assert_int_equal(o.dilation_w, 1);
  assert_int_equal(o.dilation_h, 1);
  assert_int_equal(o.new_shape_n, -1);
  assert_int_equal(o.pot_scale_int16, 1);
  litert_tensor t = {0};
  int32_t s[] = {2, 3, 5};
  t.rank = 3;
  t.shape = s;
  t.type = DT_INT16;
  assert_int_equal(litert_tensor_bytes(&t), 60);
  t.type = DT_STRING;
  assert_int_equal(litert_tensor_bytes(&t), 0);
  t.type = DT_FLOAT32;
  s[1] = -1;
  assert_int_equal(litert_tensor_bytes(&t), 0);
  t.rank = 0;
  assert_int_equal(litert_tensor_bytes(&t), 4);
  t.rank = -1;
  assert_int_equal(litert_tensor_bytes(&t), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_names_and_sizes),
      cmocka_unit_test(test_all_shared_models_load),
      cmocka_unit_test(test_kws_int8_facts),
      cmocka_unit_test(test_hello_world_facts),
      cmocka_unit_test(test_control_flow_and_variables),
      cmocka_unit_test(test_lstm_and_svdf_options),
      cmocka_unit_test(test_person_detect_stale_quantized_dimension),
      cmocka_unit_test(test_fuzz_seeds),
      cmocka_unit_test(test_synth_model_reads),
      cmocka_unit_test(test_structural_corruptions),
      cmocka_unit_test(test_semantic_corruptions),
      cmocka_unit_test(test_shared_reference_blowup),
      cmocka_unit_test(test_external_buffer_form),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
