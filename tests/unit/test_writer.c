/* test_writer.c - the .tflite writer: read -> write -> read roundtrips on every
 * shared model, a synthesized model checked field by field, the raw layout
 * (identifier, alignment, both builtin code fields) checked with a small
 * independent flatbuffer navigator, and schema defaults of absent fields. */
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
#include <unistd.h>

#include "litert/litert.h"

static const char *shared_dir(void) {
  const char *s = getenv("AOTC_SHARED");
  return s && *s ? s : "../shared";
}

typedef struct pathlist {
  char **p;
  int n;
} pathlist;

static void collect(const char *dir, pathlist *l) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.' || strcmp(e->d_name, "fuzz-seeds") == 0) continue;
    char *p = xasprintf("%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
      collect(p, l);
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

/* ---- independent flatbuffer navigation ---------------------------------------- */

static uint32_t rd32(const uint8_t *b, size_t at) {
  return (uint32_t)b[at] | (uint32_t)b[at + 1] << 8 | (uint32_t)b[at + 2] << 16 |
         (uint32_t)b[at + 3] << 24;
}
static size_t fb_vt(const uint8_t *b, size_t tpos) { return tpos - (size_t)(int32_t)rd32(b, tpos); }
static size_t fb_field(const uint8_t *b, size_t tpos, int id) {
  size_t vt = fb_vt(b, tpos);
  unsigned vs = (unsigned)(b[vt] | b[vt + 1] << 8);
  if (4u + 2u * (unsigned)id + 2 > vs) return 0;
  unsigned fo = (unsigned)(b[vt + 4 + 2 * id] | b[vt + 5 + 2 * id] << 8);
  return fo ? tpos + fo : 0;
}
static void fb_drop_field(uint8_t *b, size_t tpos, int id) {
  size_t vt = fb_vt(b, tpos);
  unsigned vs = (unsigned)(b[vt] | b[vt + 1] << 8);
  if (4u + 2u * (unsigned)id + 2 <= vs) b[vt + 4 + 2 * id] = b[vt + 5 + 2 * id] = 0;
}
static size_t fb_deref(const uint8_t *b, size_t at) { return at + rd32(b, at); }
static size_t fb_vec_table(const uint8_t *b, size_t tpos, int id, int i) {
  size_t v = fb_deref(b, fb_field(b, tpos, id));
  return fb_deref(b, v + 4 + 4 * (size_t)i);
}

static uint8_t *write_model(const litert_model *m, size_t *len) {
  uint8_t *buf;
  aotc_diag d = {0};
  if (litert_write(m, &buf, len, &d)) fail_msg("%s", d.msg);
  return buf;
}

static litert_model *read_back(const uint8_t *b, size_t len) {
  aotc_diag d = {0};
  litert_model *m = litert_read(b, len, &d);
  if (!m) fail_msg("%s", d.msg);
  return m;
}

/* ---- tests ------------------------------------------------------------------ */

static void test_roundtrip_shared_models(void **state) {
  (void)state;
  char *dir = xasprintf("%s/models", shared_dir());
  struct stat st;
  if (stat(dir, &st) != 0) {
    fprintf(stderr, "skipping: %s not found (set AOTC_SHARED)\n", dir);
    free(dir);
    skip();
  }
  pathlist l = {0};
  collect(dir, &l);
  assert_true(l.n >= 20);
  for (int i = 0; i < l.n; i++) {
    aotc_diag d = {0};
    litert_model *m = litert_read_file(l.p[i], &d);
    if (!m) fail_msg("%s", d.msg);
    size_t len, len2;
    uint8_t *b = write_model(m, &len);
    assert_memory_equal(b + 4, "TFL3", 4);
    litert_model *m2 = read_back(b, len);
    char why[256];
    if (!litert_model_equal(m, m2, why, sizeof why)) fail_msg("%s: %s", l.p[i], why);
    uint8_t *b2 = write_model(m2, &len2);
    assert_int_equal(len, len2);
    assert_memory_equal(b, b2, len);
    /* every non-empty buffer's data is 16-byte aligned */
    size_t root = rd32(b, 0);
    size_t bv = fb_deref(b, fb_field(b, root, 4));
    uint32_t nb = rd32(b, bv);
    assert_int_equal(nb, (uint32_t)m->nbuffers);
    for (uint32_t k = 0; k < nb; k++) {
      size_t bt = fb_deref(b, bv + 4 + 4 * (size_t)k);
      assert_int_equal(bt % 4, 0);
      size_t f = fb_field(b, bt, 0);
      if (!f) continue;
      size_t v = fb_deref(b, f);
      assert_int_equal((v + 4) % 16, 0);
      assert_int_equal(rd32(b, v), m->buffers[k].size);
      assert_memory_equal(b + v + 4, m->buffers[k].data, m->buffers[k].size);
    }
    free(b);
    free(b2);
    litert_model_free(m2);
    litert_model_free(m);
    free(l.p[i]);
  }
  fprintf(stderr, "roundtripped %d shared models\n", l.n);
  free(l.p);
  free(dir);
}

static litert_model *make_model(void) {
  litert_model *m = litert_model_new();
  m->description = xstrdup("aotc test");
  int sg = litert_add_subgraph(m, "main");
  int32_t s_in[] = {1, 8, 8, 3}, s_w[] = {4, 3, 3, 3}, s_b[] = {4}, s_out[] = {1, 4, 4, 4};
  int8_t w[4 * 3 * 3 * 3];
  for (size_t i = 0; i < sizeof w; i++) w[i] = (int8_t)(i * 7 - 50);
  int32_t bias[4] = {1, -2, 300, -40000};
  int bw = litert_add_buffer(m, w, sizeof w);
  int bb = litert_add_buffer(m, bias, sizeof bias);
  int t_in = litert_add_tensor(m, sg, "input", DT_INT8, 4, s_in, 0);
  int t_w = litert_add_tensor(m, sg, "filter", DT_INT8, 4, s_w, bw);
  int t_b = litert_add_tensor(m, sg, "bias", DT_INT32, 1, s_b, bb);
  int t_out = litert_add_tensor(m, sg, "output", DT_INT8, 4, s_out, 0);
  float si = 0.25f, so = 0.125f;
  int64_t zi = -128, zo = 5;
  litert_tensor_set_quant(m, sg, t_in, 1, &si, &zi, 0);
  float ws[4] = {0.01f, 0.02f, 0.03f, 0.04f};
  int64_t wz[4] = {0, 0, 0, 0};
  litert_tensor_set_quant(m, sg, t_w, 4, ws, wz, 0);
  float bs[4] = {0.0025f, 0.005f, 0.0075f, 0.01f};
  litert_tensor_set_quant(m, sg, t_b, 4, bs, NULL, 0);
  litert_tensor_set_quant(m, sg, t_out, 1, &so, &zo, 0);
  litert_options o;
  litert_options_default(&o);
  o.type = BO_Conv2DOptions;
  o.padding = PAD_SAME;
  o.stride_w = o.stride_h = 2;
  o.dilation_w = 1;
  o.dilation_h = 1;
  o.fused_act = ACT_RELU6;
  int32_t in[] = {t_in, t_w, t_b}, out[] = {t_out};
  litert_add_op(m, sg, OP_CONV_2D, NULL, 3, in, 1, out, &o);
  litert_set_io(m, sg, 1, in, 1, out);
  return m;
}

static void test_synthesized_one_op_model(void **state) {
  (void)state;
  litert_model *m = make_model();
  size_t len;
  uint8_t *b = write_model(m, &len);
  litert_model *r = read_back(b, len);
  assert_int_equal(r->version, 3);
  assert_string_equal(r->description, "aotc test");
  assert_int_equal(r->nbuffers, 3);
  assert_int_equal(r->buffers[0].size, 0);
  assert_int_equal(r->buffers[1].size, 108);
  assert_int_equal((int8_t)r->buffers[1].data[1], -43);
  assert_int_equal(r->buffers[2].size, 16);
  int32_t bias3;
  memcpy(&bias3, r->buffers[2].data + 12, 4);
  assert_int_equal(bias3, -40000);
  assert_int_equal(r->nopcodes, 1);
  assert_int_equal(r->opcodes[0].builtin, OP_CONV_2D);
  assert_int_equal(r->opcodes[0].version, 1);
  assert_null(r->opcodes[0].custom_code);
  const litert_subgraph *g = &r->subgraphs[0];
  assert_string_equal(g->name, "main");
  assert_int_equal(g->ntensors, 4);
  assert_int_equal(g->ninputs, 1);
  assert_int_equal(g->inputs[0], 0);
  assert_int_equal(g->noutputs, 1);
  assert_int_equal(g->outputs[0], 3);
  const litert_tensor *t = &g->tensors[1];
  assert_string_equal(t->name, "filter");
  assert_int_equal(t->type, DT_INT8);
  assert_int_equal(t->rank, 4);
  assert_int_equal(t->shape[0], 4);
  assert_int_equal(t->shape[3], 3);
  assert_int_equal(t->buffer, 1);
  assert_int_equal(t->q.nscale, 4);
  assert_true(t->q.scale[2] == 0.03f);
  assert_int_equal(t->q.nzero, 4);
  assert_int_equal(t->q.quantized_dimension, 0);
  assert_int_equal(g->tensors[0].q.zero_point[0], -128);
  assert_true(g->tensors[3].q.scale[0] == 0.125f);
  assert_int_equal(g->nops, 1);
  const litert_op *op = &g->ops[0];
  assert_int_equal(op->ninputs, 3);
  assert_int_equal(op->inputs[2], 2);
  assert_int_equal(op->opts.type, BO_Conv2DOptions);
  assert_int_equal(op->opts.stride_w, 2);
  assert_int_equal(op->opts.stride_h, 2);
  assert_int_equal(op->opts.padding, PAD_SAME);
  assert_int_equal(op->opts.fused_act, ACT_RELU6);
  assert_int_equal(op->opts.dilation_w, 1);
  char why[200];
  assert_true(litert_model_equal(m, r, why, sizeof why));
  litert_model_free(r);
  free(b);
  litert_model_free(m);
}

static void test_raw_layout(void **state) {
  (void)state;
  litert_model *m = make_model();
  /* an extended builtin code (GELU = 150) needs both code fields */
  int32_t io0[] = {3}, io1[] = {3};
  litert_add_op(m, 0, OP_GELU, NULL, 1, io0, 1, io1, NULL);
  size_t len;
  uint8_t *b = write_model(m, &len);
  assert_memory_equal(b + 4, "TFL3", 4);
  size_t root = rd32(b, 0);
  assert_int_equal(root % 4, 0);
  assert_int_equal(rd32(b, fb_field(b, root, 0)), 3); /* version */
  for (int i = 0; i < 2; i++) {
    size_t oc = fb_vec_table(b, root, 1, i);
    assert_int_equal(oc % 4, 0);
    size_t dep = fb_field(b, oc, 0), bc = fb_field(b, oc, 3), ver = fb_field(b, oc, 2);
    assert_true(dep && bc && ver);
    assert_int_equal((int8_t)b[dep], i == 0 ? 3 : 127);
    assert_int_equal(rd32(b, bc), i == 0 ? 3 : 150);
    assert_int_equal(rd32(b, ver), 1);
  }
  /* GELU op without explicit options gets its options table (GeluOptions) */
  litert_model *r = read_back(b, len);
  assert_int_equal(litert_op_builtin(r, &r->subgraphs[0].ops[1]), OP_GELU);
  assert_int_equal(r->subgraphs[0].ops[1].opts.type, BO_GeluOptions);
  /* vectors and tables are 4-aligned: tensor shape vectors */
  size_t sg = fb_vec_table(b, root, 2, 0);
  for (int i = 0; i < 4; i++) {
    size_t t = fb_vec_table(b, sg, 0, i);
    assert_int_equal(t % 4, 0);
    size_t sv = fb_deref(b, fb_field(b, t, 0));
    assert_int_equal(sv % 4, 0);
    /* has_rank (field 8) is written for ranked tensors: the LiteRT runtime
     * ignores shape_signature without it */
    assert_true(fb_field(b, t, 8) != 0);
    assert_int_equal(b[fb_field(b, t, 8)], 1);
    /* zero points (int64) are 8-aligned */
    size_t q = fb_deref(b, fb_field(b, t, 4));
    size_t zv = fb_deref(b, fb_field(b, q, 3));
    assert_int_equal((zv + 4) % 8, 0);
  }
  litert_model_free(r);
  free(b);
  litert_model_free(m);
}

static void test_everything_else_roundtrips(void **state) {
  (void)state;
  litert_model *m = make_model();
  /* custom op with options bytes, intermediates, variable tensor with signature */
  int32_t s[] = {1, 4};
  int tv = litert_add_tensor(m, 0, "state", DT_INT16, 2, s, 0);
  m->subgraphs[0].tensors[tv].is_variable = 1;
  int32_t sig[] = {-1, 4};
  m->subgraphs[0].tensors[tv].shape_signature = malloc(sizeof sig);
  memcpy(m->subgraphs[0].tensors[tv].shape_signature, sig, sizeof sig);
  int32_t in[] = {3, -1, tv}, out[] = {tv};
  int o = litert_add_op(m, 0, OP_CUSTOM, "MyCustomOp", 3, in, 1, out, NULL);
  litert_op *op = &m->subgraphs[0].ops[o];
  static const uint8_t copts[] = {1, 2, 3, 0, 255, 7};
  op->custom_options = malloc(sizeof copts);
  memcpy(op->custom_options, copts, sizeof copts);
  op->custom_options_len = sizeof copts;
  op->intermediates = malloc(sizeof(int32_t));
  op->intermediates[0] = 0;
  op->nintermediates = 1;
  /* a scalar */
  int ts = litert_add_tensor(m, 0, "scalar", DT_FLOAT32, 0, NULL, 0);
  (void)ts;
  /* metadata */
  int mb = litert_add_buffer(m, "1.14.0", 7);
  m->metadata = xcalloc(1, sizeof *m->metadata);
  m->nmetadata = 1;
  m->metadata[0].name = xstrdup("min_runtime_version");
  m->metadata[0].buffer = (uint32_t)mb;
  /* signature */
  m->signatures = xcalloc(1, sizeof *m->signatures);
  m->nsignatures = 1;
  litert_signature *sd = &m->signatures[0];
  sd->key = xstrdup("serving_default");
  sd->inputs = xcalloc(1, sizeof *sd->inputs);
  sd->ninputs = 1;
  sd->inputs[0].name = xstrdup("x");
  sd->inputs[0].tensor_index = 0;
  sd->outputs = xcalloc(2, sizeof *sd->outputs);
  sd->noutputs = 2;
  sd->outputs[0].name = xstrdup("y");
  sd->outputs[0].tensor_index = 3;
  sd->outputs[1].name = xstrdup("s");
  sd->outputs[1].tensor_index = (uint32_t)tv;
  /* a second subgraph */
  int sg2 = litert_add_subgraph(m, "body");
  int32_t s1[] = {1};
  int a = litert_add_tensor(m, sg2, "a", DT_INT32, 1, s1, 0);
  litert_set_io(m, sg2, 1, &a, 1, &a);

  size_t len;
  uint8_t *b = write_model(m, &len);
  litert_model *r = read_back(b, len);
  char why[256];
  if (!litert_model_equal(m, r, why, sizeof why)) fail_msg("%s", why);
  /* and a few fields checked directly */
  const litert_op *rop = &r->subgraphs[0].ops[o];
  assert_string_equal(litert_op_custom(r, rop), "MyCustomOp");
  assert_int_equal(litert_op_builtin(r, rop), OP_CUSTOM);
  assert_int_equal(rop->custom_options_len, sizeof copts);
  assert_memory_equal(rop->custom_options, copts, sizeof copts);
  assert_int_equal(rop->inputs[1], -1);
  assert_int_equal(rop->nintermediates, 1);
  assert_true(r->subgraphs[0].tensors[tv].is_variable);
  assert_int_equal(r->subgraphs[0].tensors[tv].shape_signature[0], -1);
  assert_int_equal(r->subgraphs[0].tensors[tv + 1].rank, 0);
  assert_string_equal(r->metadata[0].name, "min_runtime_version");
  assert_string_equal((const char *)r->buffers[r->metadata[0].buffer].data, "1.14.0");
  assert_string_equal(r->signatures[0].key, "serving_default");
  assert_string_equal(r->signatures[0].outputs[1].name, "s");
  assert_int_equal(r->signatures[0].outputs[1].tensor_index, tv);
  assert_int_equal(r->nsubgraphs, 2);
  assert_string_equal(r->subgraphs[1].name, "body");
  litert_model_free(r);
  free(b);
  litert_model_free(m);
}

/* Every option table aotc keeps: set each field to a distinct non-default
 * value, write, read back, compare field by field. */
static void test_all_option_tables_roundtrip(void **state) {
  (void)state;
  int tables = 0;
  for (int type = 1; type < BO_COUNT_; type++) {
    int n;
    const litert_optfield *f = litert_options_fields(type, &n);
    if (!f) continue;
    tables++;
    litert_model *m = litert_model_new();
    int sg = litert_add_subgraph(m, "g");
    /* subgraph indices in options must be valid: add enough subgraphs */
    for (int i = 0; i < 4; i++) litert_add_subgraph(m, "x");
    int32_t s[] = {2};
    int t = litert_add_tensor(m, sg, "t", DT_FLOAT32, 1, s, 0);
    litert_options o;
    litert_options_default(&o);
    o.type = type;
    char *base = (char *)&o;
    for (int i = 0; i < n; i++) {
      int v = 1 + (i % 3); /* 1..3: valid strides, subgraph indices, activations... */
      switch (f[i].kind) {
        case LOF_BOOL: {
          int one = 1;
          memcpy(base + f[i].off, &one, sizeof one);
          break;
        }
        case LOF_BYTE: case LOF_INT: case LOF_UINT:
          memcpy(base + f[i].off, &v, sizeof v);
          break;
        case LOF_FLOAT: {
          float x = 0.5f + (float)i;
          memcpy(base + f[i].off, &x, sizeof x);
          break;
        }
        case LOF_LONG: {
          int64_t x = -((int64_t)1 << 40) - i;
          memcpy(base + f[i].off, &x, sizeof x);
          break;
        }
        case LOF_STRING: {
          char *x = xasprintf("str%d", i);
          memcpy(base + f[i].off, &x, sizeof x);
          break;
        }
        case LOF_INTVEC: {
          int cnt = 3, vals[3] = {4, -1, 2};
          memcpy(base + f[i].off, vals, sizeof vals);
          memcpy(base + f[i].off_n, &cnt, sizeof cnt);
          break;
        }
      }
    }
    int32_t io[] = {t};
    int builtin = -1;
    for (int b = 0; b <= OP_RIGHT_SHIFT; b++)
      if (litert_builtin_options_type(b) == type) {
        builtin = b;
        break;
      }
    assert_true(builtin >= 0);
    litert_add_op(m, sg, builtin, NULL, 1, io, 1, io, &o);
    litert_options_free(&o);
    size_t len;
    uint8_t *b = write_model(m, &len);
    litert_model *r = read_back(b, len);
    char why[256];
    if (!litert_model_equal(m, r, why, sizeof why)) fail_msg("%s: %s", litert_options_name(type), why);
    litert_model_free(r);
    free(b);
    litert_model_free(m);
  }
  assert_true(tables >= 50);
}

/* Fields absent from an options table take the schema's defaults. */
static void test_absent_option_fields_defaults(void **state) {
  (void)state;
  struct {
    int builtin, type;
    int drop[4];
  } cases[] = {
      {OP_CONV_2D, BO_Conv2DOptions, {4, 5, -1}},          /* dilation_w/h = 1 */
      {OP_ADD, BO_AddOptions, {1, -1}},                    /* pot_scale_int16 = true */
      {OP_BIDIRECTIONAL_SEQUENCE_LSTM, BO_BidirectionalSequenceLSTMOptions, {4, -1}}, /* time_major = true */
      {OP_UNIQUE, BO_UniqueOptions, {0, -1}},              /* idx_out_type = INT32 */
      {OP_RESHAPE, BO_ReshapeOptions, {0, -1}},            /* new_shape absent */
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    litert_model *m = litert_model_new();
    int sg = litert_add_subgraph(m, "g");
    int32_t s[] = {2};
    int t = litert_add_tensor(m, sg, "t", DT_FLOAT32, 1, s, 0);
    litert_options o;
    litert_options_default(&o);
    o.type = cases[c].type;
    o.stride_w = o.stride_h = 1;
    o.dilation_w = o.dilation_h = 3;
    o.pot_scale_int16 = 0;
    o.time_major = 0;
    o.out_type = DT_INT64;
    o.new_shape_n = 1;
    o.new_shape[0] = 2;
    int32_t io[] = {t};
    litert_add_op(m, sg, cases[c].builtin, NULL, 1, io, 1, io, &o);
    size_t len;
    uint8_t *b = write_model(m, &len);
    size_t root = rd32(b, 0);
    size_t sgt = fb_vec_table(b, root, 2, 0);
    size_t opt = fb_vec_table(b, sgt, 3, 0);
    assert_int_equal(b[fb_field(b, opt, 3)], cases[c].type);
    size_t ot = fb_deref(b, fb_field(b, opt, 4));
    for (int k = 0; k < 4 && cases[c].drop[k] >= 0; k++) fb_drop_field(b, ot, cases[c].drop[k]);
    litert_model *r = read_back(b, len);
    const litert_options *ro = &r->subgraphs[0].ops[0].opts;
    switch (cases[c].type) {
      case BO_Conv2DOptions:
        assert_int_equal(ro->dilation_w, 1);
        assert_int_equal(ro->dilation_h, 1);
        assert_int_equal(ro->stride_w, 1);
        break;
      case BO_AddOptions: assert_int_equal(ro->pot_scale_int16, 1); break;
      case BO_BidirectionalSequenceLSTMOptions: assert_int_equal(ro->time_major, 1); break;
      case BO_UniqueOptions: assert_int_equal(ro->out_type, DT_INT32); break;
      case BO_ReshapeOptions: assert_int_equal(ro->new_shape_n, -1); break;
    }
    litert_model_free(r);
    free(b);
    litert_model_free(m);
  }
}

static void test_write_file(void **state) {
  (void)state;
  litert_model *m = make_model();
  const char *tmp = getenv("TMPDIR");
  char *path = xasprintf("%s/aotc_test_writer_%d.tflite", tmp && *tmp ? tmp : "/tmp", (int)getpid());
  aotc_diag d = {0};
  assert_int_equal(litert_write_file(m, path, &d), 0);
  litert_model *r = litert_read_file(path, &d);
  if (!r) fail_msg("%s", d.msg);
  assert_true(litert_model_equal(m, r, NULL, 0));
  remove(path);
  free(path);
  litert_model_free(r);
  litert_model_free(m);
  /* unwritable path */
  m = make_model();
  assert_int_not_equal(litert_write_file(m, "/nonexistent-dir/x.tflite", &d), 0);
  assert_non_null(strstr(d.msg, "/nonexistent-dir/x.tflite"));
  litert_model_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_synthesized_one_op_model),
      cmocka_unit_test(test_raw_layout),
      cmocka_unit_test(test_everything_else_roundtrips),
      cmocka_unit_test(test_all_option_tables_roundtrip),
      cmocka_unit_test(test_absent_option_fields_defaults),
      cmocka_unit_test(test_write_file),
      cmocka_unit_test(test_roundtrip_shared_models),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
