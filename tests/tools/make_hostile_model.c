/* make_hostile_model.c - writes structurally valid .tflite files whose
 * meaning is hostile to the compiler's resources (issue 11, items 10-11):
 *
 *   chain N OUT            N float32 [1,8] ops: a live chain of N/2 RELU ->
 *                          TANH pairs ending at the graph output, and a dead
 *                          chain of the other N/2 ops branching off the input
 *                          (nothing reads its end), built with aotc's writer.
 *   tensors N OUT          one subgraph whose tensors vector has N entries
 *                          that all point at the same Tensor table.
 *   ops N OUT              N operator entries that all point at the same
 *                          Operator table (RELU 0 -> 1).
 *   names N LEN OUT        N tensor entries sharing one Tensor table whose
 *                          name is a LEN-byte string.
 *   quant N K OUT          N tensor entries sharing one Tensor table of shape
 *                          [K] with K per-channel scales and zero points.
 *   bigio ELEMS OUT        float32 [ELEMS] input -> RELU -> output (huge I/O).
 *   bigconv H W C K OUT    int8 [1,H,W,C] -> CONV KxK C->C -> CONV KxK C->C:
 *                          a valid model whose arena is 2*H*W*C bytes.
 *
 * The shared-table files are tiny (4 bytes per extra entry) but decode to
 * N tables: the reader must bound what it decodes, not the file size. The
 * flatbuffer is built by hand here (aotc's writer never shares tables). */
#include "litert/litert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a minimal forward-only flatbuffer builder ---------------------------- */

static unsigned char *B;
static size_t N, CAP;

static void need(size_t k) {
  if (N + k <= CAP) return;
  while (N + k > CAP) CAP = CAP ? CAP * 2 : 1 << 16;
  B = realloc(B, CAP);
  if (!B) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
}
static void put32(size_t at, uint32_t v) {
  for (int i = 0; i < 4; i++) B[at + (size_t)i] = (unsigned char)(v >> (8 * i));
}
static size_t emit32(uint32_t v) {
  need(4);
  size_t at = N;
  put32(at, v);
  N += 4;
  return at;
}
static void emit16(uint16_t v) {
  need(2);
  B[N++] = (unsigned char)v;
  B[N++] = (unsigned char)(v >> 8);
}
static void align4(void) {
  while (N % 4) {
    need(1);
    B[N++] = 0;
  }
}
/* Links the uoffset slot at `slot` to `target` (target > slot). */
static void link(size_t slot, size_t target) { put32(slot, (uint32_t)(target - slot)); }

/* A table of nf 4-byte fields; present[i] says whether field i is stored.
 * Returns the table position; slot[i] receives the position of field i. */
static size_t table(int nf, const int *present, size_t *slot) {
  align4();
  size_t vt = N;
  emit16((uint16_t)(4 + 2 * nf));
  emit16((uint16_t)(4 + 4 * nf));
  for (int i = 0; i < nf; i++) emit16(present[i] ? (uint16_t)(4 + 4 * i) : 0);
  align4();
  size_t t = N;
  emit32((uint32_t)(t - vt));
  for (int i = 0; i < nf; i++) slot[i] = emit32(0);
  return t;
}
static size_t vec32(int n, const int32_t *v) {
  align4();
  size_t at = emit32((uint32_t)n);
  for (int i = 0; i < n; i++) emit32((uint32_t)v[i]);
  return at;
}
/* A vector of n uoffsets all linked to `target` (written later: returns the
 * vector position; the caller links entries with link_all). */
static size_t vec_refs(long n) {
  align4();
  size_t at = emit32((uint32_t)n);
  need((size_t)n * 4);
  memset(B + N, 0, (size_t)n * 4);
  N += (size_t)n * 4;
  return at;
}
static void link_all(size_t vec, long n, size_t target) {
  for (long i = 0; i < n; i++) link(vec + 4 + 4 * (size_t)i, target);
}

static int save(const char *path) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(B, 1, N, f) != N || fclose(f) != 0) {
    fprintf(stderr, "cannot write %s\n", path);
    return 1;
  }
  free(B);
  return 0;
}

/* Shared-table models. kind: 't' tensors, 'o' ops, 'n' names, 'q' quant. */
static int shared(char kind, long n, long k, const char *path) {
  emit32(0); /* root */
  /* Model: version, operator_codes, subgraphs, description, buffers */
  size_t ms[5];
  size_t model = table(5, (int[]){1, 1, 1, 0, 1}, ms);
  put32(0, (uint32_t)model);
  put32(ms[0], 3);
  /* buffers: [Buffer{}] */
  size_t bufs = vec_refs(1);
  link(ms[4], bufs);
  size_t bs[1];
  size_t buf = table(1, (int[]){0}, bs);
  link_all(bufs, 1, buf);
  /* operator_codes: [OperatorCode{builtin_code RELU}] (fields 0..3) */
  size_t ocs = vec_refs(1);
  link(ms[1], ocs);
  size_t cs[4];
  size_t oc = table(4, (int[]){0, 0, 1, 1}, cs);
  put32(cs[2], 1);
  put32(cs[3], OP_RELU);
  link_all(ocs, 1, oc);
  /* subgraphs: [SubGraph{tensors, inputs, outputs, operators}] */
  size_t sgs = vec_refs(1);
  link(ms[2], sgs);
  size_t ss[4];
  size_t sg = table(4, (int[]){1, 1, 1, kind == 'o'}, ss);
  link_all(sgs, 1, sg);
  long nt = kind == 'o' ? 2 : n;
  size_t tv = vec_refs(nt);
  link(ss[0], tv);
  link(ss[1], vec32(1, (int32_t[]){0}));
  link(ss[2], vec32(1, (int32_t[]){nt > 1 ? 1 : 0}));
  /* the one Tensor table: shape, type, buffer, name, quantization */
  size_t ts[5];
  size_t tt = table(5, (int[]){1, 1, 1, 1, kind == 'q'}, ts);
  put32(ts[1], kind == 'q' ? DT_INT8 : DT_FLOAT32);
  put32(ts[2], 0);
  link_all(tv, nt, tt);
  if (kind == 'q') link(ts[0], vec32(1, (int32_t[]){(int32_t)k}));
  else link(ts[0], vec32(2, (int32_t[]){1, 4}));
  align4();
  size_t name = emit32(kind == 'n' ? (uint32_t)k : 1);
  link(ts[3], name);
  long len = kind == 'n' ? k : 1;
  need((size_t)len + 1);
  memset(B + N, 'x', (size_t)len);
  N += (size_t)len;
  B[N++] = 0;
  if (kind == 'q') {
    /* QuantizationParameters: min, max, scale, zero_point (fields 0..3) */
    size_t qs[4];
    size_t q = table(4, (int[]){0, 0, 1, 1}, qs);
    link(ts[4], q);
    align4();
    size_t sc = emit32((uint32_t)k);
    for (long i = 0; i < k; i++) emit32(0x3c000000u); /* 2^-7 */
    link(qs[2], sc);
    align4();
    if (N % 8 == 0) emit32(0); /* 8-byte elements: data at a multiple of 8 */
    size_t zp = emit32((uint32_t)k);
    for (long i = 0; i < 2 * k; i++) emit32(0);
    link(qs[3], zp);
  }
  if (kind == 'o') {
    size_t ov = vec_refs(n);
    link(ss[3], ov);
    /* Operator: opcode_index, inputs, outputs */
    size_t os[3];
    size_t op = table(3, (int[]){1, 1, 1}, os);
    put32(os[0], 0);
    link_all(ov, n, op);
    link(os[1], vec32(1, (int32_t[]){0}));
    link(os[2], vec32(1, (int32_t[]){1}));
  }
  return save(path);
}

/* ---- models built with aotc's writer -------------------------------------- */

static litert_model *M;

static void op1(int b, int in, int out) {
  litert_options o;
  litert_options_default(&o);
  o.type = litert_builtin_options_type(b);
  litert_add_op(M, 0, b, NULL, 1, (int32_t[]){in}, 1, (int32_t[]){out}, &o);
}

static int finish(const char *path) {
  aotc_diag d = {0};
  int rc = litert_write_file(M, path, &d);
  if (rc) fprintf(stderr, "%s\n", d.msg);
  litert_model_free(M);
  return rc ? 1 : 0;
}

/* The chain's tables are filled directly, each array allocated once (adding
 * entries one by one reallocates per entry, slow under ASan). */
static void set_tensor(litert_tensor *t, const char *name) {
  memset(t, 0, sizeof *t);
  t->name = xstrdup(name);
  t->type = DT_FLOAT32;
  t->rank = 2;
  t->shape = xmalloc(2 * sizeof *t->shape);
  t->shape[0] = 1;
  t->shape[1] = 8;
  t->has_rank = 1;
}

static int chain(long n, const char *path) {
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  int32_t s[2] = {1, 8};
  /* two template ops register the opcodes and their options */
  int a = litert_add_tensor(M, 0, "a", DT_FLOAT32, 2, s, 0);
  int b = litert_add_tensor(M, 0, "b", DT_FLOAT32, 2, s, 0);
  op1(OP_RELU, a, b);
  op1(OP_TANH, b, a);
  litert_subgraph *g = &M->subgraphs[0];
  litert_op tmpl[2] = {g->ops[0], g->ops[1]};
  for (int i = 0; i < 2; i++) {
    free(g->tensors[i].name);
    free(g->tensors[i].shape);
    free(g->ops[i].inputs);
    free(g->ops[i].outputs);
  }
  free(g->tensors);
  free(g->ops);
  g->tensors = xcalloc((size_t)n + 1, sizeof *g->tensors);
  g->ops = xcalloc((size_t)n > 0 ? (size_t)n : 1, sizeof *g->ops);
  set_tensor(&g->tensors[0], "x");
  int cur = 0, dead = 0;
  char nm[64];
  for (long i = 0; i < n; i++) {
    int live = i % 2 == 0;
    snprintf(nm, sizeof nm, "%s_%ld", live ? "live" : "dead", i);
    int t = (int)i + 1;
    set_tensor(&g->tensors[t], nm);
    litert_op *op = &g->ops[i];
    *op = tmpl[(i / 2) % 2];
    op->ninputs = op->noutputs = 1;
    op->inputs = xmalloc(sizeof(int32_t));
    op->outputs = xmalloc(sizeof(int32_t));
    op->inputs[0] = live ? cur : dead;
    op->outputs[0] = t;
    if (live) cur = t;
    else dead = t;
  }
  g->ntensors = (int)n + 1;
  g->nops = (int)n;
  litert_set_io(M, 0, 1, (int32_t[]){0}, 1, (int32_t[]){cur});
  return finish(path);
}

static int bigconv(int h, int w, int c, int k, const char *path) {
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  int32_t s[4] = {1, h, w, c}, ws[4] = {c, k, k, c}, bs[1] = {c};
  size_t wn = (size_t)c * (size_t)(k * k) * (size_t)c;
  int8_t *wd = malloc(wn);
  int32_t *bd = malloc(sizeof(int32_t) * (size_t)c);
  uint32_t seed = 12345;
  for (size_t i = 0; i < wn; i++) {
    seed = seed * 1103515245u + 12345u;
    wd[i] = (int8_t)((seed >> 16) % 61 - 30);
  }
  for (int i = 0; i < c; i++) bd[i] = (int32_t)(i * 37 % 200) - 100;
  int x = litert_add_tensor(M, 0, "x", DT_INT8, 4, s, 0);
  litert_tensor_set_quant(M, 0, x, 1, (float[]){0.05f}, (int64_t[]){-3}, 0);
  int prev = x;
  for (int l = 0; l < 2; l++) {
    char nm[32];
    snprintf(nm, sizeof nm, "conv%d_w", l);
    int wt = litert_add_tensor(M, 0, nm, DT_INT8, 4, ws, litert_add_buffer(M, wd, wn));
    litert_tensor_set_quant(M, 0, wt, 1, (float[]){0.01f}, (int64_t[]){0}, 0);
    snprintf(nm, sizeof nm, "conv%d_b", l);
    int bt = litert_add_tensor(M, 0, nm, DT_INT32, 1, bs,
                               litert_add_buffer(M, bd, sizeof(int32_t) * (size_t)c));
    litert_tensor_set_quant(M, 0, bt, 1, (float[]){0.0005f}, (int64_t[]){0}, 0);
    snprintf(nm, sizeof nm, "conv%d_out", l);
    int ot = litert_add_tensor(M, 0, nm, DT_INT8, 4, s, 0);
    litert_tensor_set_quant(M, 0, ot, 1, (float[]){0.1f + 0.05f * (float)l}, (int64_t[]){2}, 0);
    litert_options o;
    litert_options_default(&o);
    o.type = litert_builtin_options_type(OP_CONV_2D);
    o.padding = PAD_SAME;
    o.stride_w = o.stride_h = 1;
    o.fused_act = ACT_RELU;
    litert_add_op(M, 0, OP_CONV_2D, NULL, 3, (int32_t[]){prev, wt, bt}, 1, (int32_t[]){ot}, &o);
    prev = ot;
  }
  litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){prev});
  free(wd);
  free(bd);
  return finish(path);
}

static int bigio(long n, const char *path) {
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  int32_t s[1] = {(int32_t)n};
  int x = litert_add_tensor(M, 0, "x", DT_FLOAT32, 1, s, 0);
  int y = litert_add_tensor(M, 0, "y", DT_FLOAT32, 1, s, 0);
  op1(OP_RELU, x, y);
  litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  return finish(path);
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "chain") == 0) return chain(atol(argv[2]), argv[3]);
  if (argc == 4 && strcmp(argv[1], "tensors") == 0) return shared('t', atol(argv[2]), 0, argv[3]);
  if (argc == 4 && strcmp(argv[1], "ops") == 0) return shared('o', atol(argv[2]), 0, argv[3]);
  if (argc == 5 && strcmp(argv[1], "names") == 0)
    return shared('n', atol(argv[2]), atol(argv[3]), argv[4]);
  if (argc == 5 && strcmp(argv[1], "quant") == 0)
    return shared('q', atol(argv[2]), atol(argv[3]), argv[4]);
  if (argc == 4 && strcmp(argv[1], "bigio") == 0) return bigio(atol(argv[2]), argv[3]);
  if (argc == 7 && strcmp(argv[1], "bigconv") == 0)
    return bigconv(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), argv[6]);
  fprintf(stderr, "usage: make_hostile_model chain N | tensors N | ops N | names N LEN | "
                  "quant N K | bigio ELEMS | bigconv H W C K  OUT.tflite\n");
  return 2;
}
