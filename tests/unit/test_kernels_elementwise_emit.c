/* test_kernels_elementwise_emit.c - emit() of the elementwise, activation,
 * softmax and (de)quantize ops agrees with eval(): small models (built with
 * the litert model API, written to a temporary .tflite) are compiled by aotc
 * into a module, the module is built with the host C compiler (-std=c99 -Wall
 * -Wextra -Werror -pedantic) and run on deterministic inputs, and its outputs
 * must equal byte for byte what the ops' eval() computes on the
 * untransformed graph. Covers broadcast plans, LUT arrays (int16 SOFTMAX,
 * int8 ELU) and per-channel arrays. Skips when no C compiler ("cc") exists.
 * (The harness follows test_kernels_movement_emit.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "codegen/codegen.h"
#include "compile.h"
#include "ir/ir.h"
#include "litert/litert.h"
#include "ops/ops.h"

static char tmpdir[128];
static int have_cc;

/* ---- model building ---- */
typedef struct mb {
  litert_model *m;
  int in[8], nin, out[8], nout;
} mb;

static mb *mb_new(void) {
  mb *b = calloc(1, sizeof *b);
  b->m = litert_model_new();
  litert_add_subgraph(b->m, "main");
  return b;
}
static int mb_t(mb *b, int type, int rank, const int32_t *shape) {
  return litert_add_tensor(b->m, 0, "t", type, rank, shape, 0);
}
static int mb_in(mb *b, int type, int rank, const int32_t *shape) {
  int t = mb_t(b, type, rank, shape);
  b->in[b->nin++] = t;
  return t;
}
static int mb_out(mb *b, int type, int rank, const int32_t *shape) {
  int t = mb_t(b, type, rank, shape);
  b->out[b->nout++] = t;
  return t;
}
static int mb_c(mb *b, int type, int rank, const int32_t *shape, const void *data, size_t bytes) {
  int buf = litert_add_buffer(b->m, data, bytes);
  return litert_add_tensor(b->m, 0, "c", type, rank, shape, buf);
}
static void mb_q(mb *b, int t, float scale, int64_t zp) { litert_tensor_set_quant(b->m, 0, t, 1, &scale, &zp, 0); }
static void mb_op(mb *b, int builtin, const litert_options *o, int nin, const int32_t *in, int nout,
                  const int32_t *out) {
  litert_options oo = *o;
  if (!oo.type) oo.type = litert_builtin_options_type(builtin);
  litert_add_op(b->m, 0, builtin, NULL, nin, in, nout, out, &oo);
}

/* deterministic input bytes for a dtype */
static void fill_input(void *p, int dtype, size_t n, uint32_t seed) {
  uint32_t s = seed * 2654435761u + 12345u;
  for (size_t i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    int32_t r = (int32_t)(s >> 9) - (1 << 22);
    switch (dtype) {
      case DT_FLOAT32: ((float *)p)[i] = (float)r / 65536.0f; break;
      case DT_INT8: ((int8_t *)p)[i] = (int8_t)(r % 128); break;
      case DT_UINT8: ((uint8_t *)p)[i] = (uint8_t)(s >> 24); break;
      case DT_BOOL: ((uint8_t *)p)[i] = (uint8_t)(s >> 31); break;
      case DT_INT16: ((int16_t *)p)[i] = (int16_t)(r % 32768); break;
      case DT_INT32: ((int32_t *)p)[i] = r; break;
      case DT_INT64: ((int64_t *)p)[i] = (int64_t)r * 1000; break;
      default: ((uint8_t *)p)[i] = (uint8_t)s; break;
    }
  }
}

static const char *driver_src =
    "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include \"aot_model.h\"\n"
    "int main(int argc, char **argv) {\n"
    "  aot_model_context_t ctx;\n  int i;\n  FILE *f;\n  (void)argc;\n"
    "  memset(&ctx, 0, sizeof ctx);\n"
    "  if (aot_model_init(&ctx) != 0) return 2;\n"
    "  f = fopen(argv[1], \"rb\");\n  if (!f) return 3;\n"
    "  for (i = 0; i < AOT_NUM_INPUTS; i++)\n"
    "    if (fread(ctx.inputs[i].data, 1, ctx.inputs[i].bytes, f) != ctx.inputs[i].bytes) return 4;\n"
    "  fclose(f);\n"
    "  if (aot_model_run(&ctx) != 0) return 5;\n"
    "  f = fopen(argv[2], \"wb\");\n  if (!f) return 6;\n"
    "  for (i = 0; i < AOT_NUM_OUTPUTS; i++)\n"
    "    fwrite(ctx.outputs[i].data, 1, ctx.outputs[i].bytes, f);\n"
    "  fclose(f);\n  return 0;\n}\n";

/* Builds, converts, compiles and runs one model; compares with eval. */
static void check_model(mb *b, const char *name) {
  if (!have_cc) {
    litert_model_free(b->m);
    free(b);
    skip();
    return;
  }
  litert_set_io(b->m, 0, b->nin, b->in, b->nout, b->out);
  char path[1024], dir[256], cmd[4096];
  aotc_diag d;
  memset(&d, 0, sizeof d);
  snprintf(path, sizeof path, "%s/%s.tflite", tmpdir, name);
  assert_int_equal(litert_write_file(b->m, path, &d), 0);

  /* expected: eval() over the untransformed graph */
  litert_model *m2 = litert_read_file(path, &d);
  if (!m2) print_error("%s: %s\n", name, d.msg);
  assert_non_null(m2);
  ir_graph *g = ir_from_litert(m2, 0, &d);
  assert_non_null(g);
  void **data = calloc((size_t)g->nt, sizeof(void *));
  size_t inbytes = 0, outbytes = 0;
  for (int i = 0; i < g->nt; i++) {
    size_t nb = ir_bytes(&g->t[i]);
    data[i] = calloc(1, nb ? nb : 1);
    if (g->t[i].role == ROLE_CONST && g->t[i].data) memcpy(data[i], g->t[i].data, nb);
  }
  for (int i = 0; i < g->nin; i++) {
    const ir_tensor *t = &g->t[g->inputs[i]];
    fill_input(data[g->inputs[i]], t->dtype, ir_numel(t), (uint32_t)i + 1);
    inbytes += ir_bytes(t);
  }
  for (int k = 0; k < g->nops; k++) {
    const op_impl *impl = ops_find(g, &g->ops[k]);
    assert_non_null(impl);
    char why[256] = "";
    if (impl->check(g, &g->ops[k], why, sizeof why)) print_error("%s: %s\n", name, why);
    assert_int_equal(impl->check(g, &g->ops[k], why, sizeof why), 0);
    assert_int_equal(impl->eval(g, &g->ops[k], data, NULL), 0);
  }
  for (int i = 0; i < g->nout; i++) outbytes += ir_bytes(&g->t[g->outputs[i]]);
  uint8_t *inbuf = malloc(inbytes + 1), *expect = malloc(outbytes + 1), *got = malloc(outbytes + 1);
  size_t o = 0;
  for (int i = 0; i < g->nin; i++) {
    size_t nb = ir_bytes(&g->t[g->inputs[i]]);
    memcpy(inbuf + o, data[g->inputs[i]], nb);
    o += nb;
  }
  o = 0;
  for (int i = 0; i < g->nout; i++) {
    size_t nb = ir_bytes(&g->t[g->outputs[i]]);
    memcpy(expect + o, data[g->outputs[i]], nb);
    o += nb;
  }

  /* the module */
  compiled cm;
  assert_int_equal(compile_model(NULL, path, 1, &cm, &d), 0);
  snprintf(dir, sizeof dir, "%s/%s_mod", tmpdir, name);
  remove_tree(dir);
  snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
  assert_int_equal(system(cmd), 0);
  cg_options co;
  memset(&co, 0, sizeof co);
  co.prefix = "aot";
  co.name = "aot_model";
  co.model_path = path;
  co.runtime_dir = compile_runtime_dir();
  if (codegen_module(cm.graph, &co, dir, &d) != 0) print_error("%s: %s\n", name, d.msg);
  compiled_free(&cm);
  snprintf(path, sizeof path, "%s/driver.c", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(driver_src, f);
  fclose(f);
  snprintf(cmd, sizeof cmd,
           "cc -std=c99 -O1 -Wall -Wextra -Werror -pedantic -I%s/include -I%s/src %s/src/*.c "
           "%s/driver.c -o %s/run -lm",
           dir, dir, dir, dir, dir);
  if (system(cmd) != 0) print_error("%s: module does not compile: %s\n", name, cmd);
  assert_int_equal(system(cmd), 0);
  snprintf(path, sizeof path, "%s/in.bin", dir);
  f = fopen(path, "wb");
  assert_non_null(f);
  fwrite(inbuf, 1, inbytes, f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "%s/run %s/in.bin %s/out.bin", dir, dir, dir);
  assert_int_equal(system(cmd), 0);
  snprintf(path, sizeof path, "%s/out.bin", dir);
  f = fopen(path, "rb");
  assert_non_null(f);
  size_t rd = fread(got, 1, outbytes + 1, f);
  fclose(f);
  assert_int_equal(rd, outbytes);
  if (memcmp(got, expect, outbytes) != 0) print_error("%s: module output differs from eval\n", name);
  assert_memory_equal(got, expect, outbytes);
  remove_tree(dir);

  free(inbuf);
  free(expect);
  free(got);
  for (int i = 0; i < g->nt; i++) free(data[i]);
  free(data);
  ir_free(g);
  litert_model_free(m2);
  litert_model_free(b->m);
  free(b);
}

#define S(...) ((const int32_t[]){__VA_ARGS__})
#define IO(...) ((const int32_t[]){__VA_ARGS__})

static litert_options opts(void) {
  litert_options o;
  litert_options_default(&o);
  return o;
}

static void test_emit_arith(void **state) {
  (void)state;
  /* int8 ADD with broadcast and RELU, then int8 MUL with a constant */
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_INT8, 3, S(2, 3, 4));
    int c = mb_in(b, DT_INT8, 1, S(4));
    int a = mb_t(b, DT_INT8, 3, S(2, 3, 4));
    const int8_t kv[] = {3, -7, 100, -128};
    int k = mb_c(b, DT_INT8, 1, S(4), kv, 4);
    int y = mb_out(b, DT_INT8, 3, S(2, 3, 4));
    mb_q(b, x, 0.05f, -3);
    mb_q(b, c, 0.02f, 7);
    mb_q(b, a, 0.06f, -20);
    mb_q(b, k, 0.01f, 0);
    mb_q(b, y, 0.004f, 5);
    litert_options o = opts();
    o.fused_act = ACT_RELU;
    mb_op(b, OP_ADD, &o, 2, IO(x, c), 1, IO(a));
    o = opts();
    mb_op(b, OP_MUL, &o, 2, IO(a, k), 1, IO(y));
    check_model(b, "add_mul_s8");
  }
  /* int16 SUB (general path) with a two-sided broadcast, then MAXIMUM */
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_INT16, 3, S(1, 3, 1));
    int c = mb_in(b, DT_INT16, 3, S(2, 1, 4));
    int a = mb_t(b, DT_INT16, 3, S(2, 3, 4));
    int y = mb_out(b, DT_INT16, 3, S(2, 3, 4));
    mb_q(b, x, 0.001f, 0);
    mb_q(b, c, 0.0007f, 0);
    mb_q(b, a, 0.0015f, 0);
    mb_q(b, y, 0.0015f, 0);
    litert_options o = opts();
    o.pot_scale_int16 = 0;
    mb_op(b, OP_SUB, &o, 2, IO(x, c), 1, IO(a));
    o = opts();
    mb_op(b, OP_MAXIMUM, &o, 2, IO(a, x), 1, IO(y));
    check_model(b, "sub_max_s16");
  }
  /* float chain: ADD (RELU6), MUL by scalar, DIV, SQUARED_DIFFERENCE */
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_FLOAT32, 2, S(3, 5));
    int c = mb_in(b, DT_FLOAT32, 2, S(3, 1));
    const float two = 2.0f;
    int k = mb_c(b, DT_FLOAT32, 0, S(1), &two, 4);
    int a = mb_t(b, DT_FLOAT32, 2, S(3, 5));
    int m = mb_t(b, DT_FLOAT32, 2, S(3, 5));
    int d = mb_t(b, DT_FLOAT32, 2, S(3, 5));
    int y = mb_out(b, DT_FLOAT32, 2, S(3, 5));
    litert_options o = opts();
    o.fused_act = ACT_RELU6;
    mb_op(b, OP_ADD, &o, 2, IO(x, c), 1, IO(a));
    o = opts();
    mb_op(b, OP_MUL, &o, 2, IO(a, k), 1, IO(m));
    mb_op(b, OP_DIV, &o, 2, IO(x, m), 1, IO(d));
    mb_op(b, OP_SQUARED_DIFFERENCE, &o, 2, IO(d, c), 1, IO(y));
    check_model(b, "arith_f32");
  }
}

static void test_emit_compare_select(void **state) {
  (void)state;
  mb *b = mb_new();
  int x = mb_in(b, DT_INT8, 2, S(4, 6));
  int c = mb_in(b, DT_INT8, 2, S(4, 1));
  int fx = mb_in(b, DT_FLOAT32, 2, S(4, 6));
  int fy = mb_in(b, DT_FLOAT32, 1, S(6));
  int cond = mb_t(b, DT_BOOL, 2, S(4, 6));
  int cond2 = mb_t(b, DT_BOOL, 2, S(4, 6));
  int y = mb_out(b, DT_FLOAT32, 2, S(4, 6));
  mb_q(b, x, 0.1f, 3);
  mb_q(b, c, 0.07f, -9);
  litert_options o = opts();
  mb_op(b, OP_LESS, &o, 2, IO(x, c), 1, IO(cond));
  mb_op(b, OP_LOGICAL_NOT, &o, 1, IO(cond), 1, IO(cond2));
  mb_op(b, OP_SELECT_V2, &o, 3, IO(cond2, fx, fy), 1, IO(y));
  check_model(b, "compare_select");
}

static void test_emit_activations(void **state) {
  (void)state;
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_INT8, 2, S(4, 16));
    int t1 = mb_t(b, DT_INT8, 2, S(4, 16));
    int t2 = mb_t(b, DT_INT8, 2, S(4, 16));
    int t3 = mb_t(b, DT_INT8, 2, S(4, 16));
    int t4 = mb_t(b, DT_INT8, 2, S(4, 16));
    const int8_t al[] = {64, 32, -64, 10, 0, 127, -128, 5, 1, 2, 3, 4, 5, 6, 7, 8};
    int alpha = mb_c(b, DT_INT8, 1, S(16), al, 16);
    int t5 = mb_t(b, DT_INT8, 2, S(4, 16));
    int y = mb_out(b, DT_INT8, 2, S(4, 16));
    mb_q(b, x, 0.05f, 2);
    mb_q(b, t1, 0.03f, -100);
    mb_q(b, t2, 0.02f, -60);
    mb_q(b, t3, 0.04f, 0);
    mb_q(b, alpha, 1.0f / 128.0f, 0);
    mb_q(b, t4, 0.05f, 10);
    mb_q(b, t5, 1.0f / 128.0f, 0);
    mb_q(b, y, 1.0f / 256.0f, -128);
    litert_options o = opts();
    mb_op(b, OP_HARD_SWISH, &o, 1, IO(x), 1, IO(t1));
    mb_op(b, OP_ELU, &o, 1, IO(t1), 1, IO(t2));
    o.alpha = 0.2f;
    mb_op(b, OP_LEAKY_RELU, &o, 1, IO(t2), 1, IO(t3));
    o = opts();
    mb_op(b, OP_PRELU, &o, 2, IO(t3, alpha), 1, IO(t4));
    mb_op(b, OP_TANH, &o, 1, IO(t4), 1, IO(t5));
    mb_op(b, OP_LOGISTIC, &o, 1, IO(t5), 1, IO(y));
    check_model(b, "act_s8");
  }
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_INT16, 2, S(3, 8));
    int t1 = mb_t(b, DT_INT16, 2, S(3, 8));
    int t2 = mb_t(b, DT_INT16, 2, S(3, 8));
    int y = mb_out(b, DT_INT16, 2, S(3, 8));
    mb_q(b, x, 1.0f / 4096.0f, 0);
    mb_q(b, t1, 1.0f / 32768.0f, 0);
    mb_q(b, t2, 0.0003f, 0);
    mb_q(b, y, 1.0f / 32768.0f, 0);
    litert_options o = opts();
    mb_op(b, OP_LOGISTIC, &o, 1, IO(x), 1, IO(t1));
    mb_op(b, OP_RELU, &o, 1, IO(t1), 1, IO(t2));
    mb_op(b, OP_TANH, &o, 1, IO(t2), 1, IO(y));
    check_model(b, "act_s16");
  }
}

static void test_emit_softmax(void **state) {
  (void)state;
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_INT8, 2, S(3, 10));
    int y = mb_out(b, DT_INT8, 2, S(3, 10));
    int y2 = mb_out(b, DT_INT8, 2, S(3, 10));
    mb_q(b, x, 0.08f, -5);
    mb_q(b, y, 1.0f / 256.0f, -128);
    mb_q(b, y2, 16.0f / 256.0f, 127);
    litert_options o = opts();
    o.beta = 1.0f;
    mb_op(b, OP_SOFTMAX, &o, 1, IO(x), 1, IO(y));
    o = opts();
    mb_op(b, OP_LOG_SOFTMAX, &o, 1, IO(x), 1, IO(y2));
    check_model(b, "softmax_s8");
  }
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_INT16, 2, S(2, 12));
    int y = mb_out(b, DT_INT16, 2, S(2, 12));
    mb_q(b, x, 0.0005f, 0);
    mb_q(b, y, 1.0f / 32768.0f, 0);
    litert_options o = opts();
    o.beta = 1.0f;
    mb_op(b, OP_SOFTMAX, &o, 1, IO(x), 1, IO(y));
    check_model(b, "softmax_s16");
  }
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_FLOAT32, 2, S(2, 7));
    int y = mb_out(b, DT_FLOAT32, 2, S(2, 7));
    litert_options o = opts();
    o.beta = 0.5f;
    mb_op(b, OP_SOFTMAX, &o, 1, IO(x), 1, IO(y));
    check_model(b, "softmax_f32");
  }
}

static void test_emit_quantize(void **state) {
  (void)state;
  mb *b = mb_new();
  int x = mb_in(b, DT_FLOAT32, 2, S(2, 3));
  int q = mb_t(b, DT_INT8, 2, S(2, 3));
  int q16 = mb_t(b, DT_INT16, 2, S(2, 3));
  int dq = mb_t(b, DT_FLOAT32, 2, S(2, 3));
  const int8_t wv[] = {1, -2, 3, 100, -100, 7};
  int w = mb_c(b, DT_INT8, 2, S(2, 3), wv, 6);
  const float sc[] = {0.5f, 0.25f, 2.0f};
  const int64_t zp[] = {0, 1, -1};
  litert_tensor_set_quant(b->m, 0, w, 3, sc, zp, 1);
  int wf = mb_t(b, DT_FLOAT32, 2, S(2, 3));
  int y = mb_out(b, DT_FLOAT32, 2, S(2, 3));
  mb_q(b, q, 0.7f, -4);
  mb_q(b, q16, 0.01f, 0);
  litert_options o = opts();
  mb_op(b, OP_QUANTIZE, &o, 1, IO(x), 1, IO(q));
  mb_op(b, OP_QUANTIZE, &o, 1, IO(q), 1, IO(q16));
  mb_op(b, OP_DEQUANTIZE, &o, 1, IO(q16), 1, IO(dq));
  mb_op(b, OP_DEQUANTIZE, &o, 1, IO(w), 1, IO(wf));
  mb_op(b, OP_ADD, &o, 2, IO(dq, wf), 1, IO(y));
  check_model(b, "quantize");
}

static int setup(void **state) {
  (void)state;
  snprintf(tmpdir, sizeof tmpdir, "/tmp/aotc_mvemit_XXXXXX");
  if (!mkdtemp(tmpdir)) return -1;
  have_cc = system("cc --version > /dev/null 2>&1") == 0;
  if (!have_cc) print_message("skipped: no C compiler 'cc'\n");
  return 0;
}
static int teardown(void **state) {
  (void)state;
  remove_tree(tmpdir);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_emit_arith),       cmocka_unit_test(test_emit_compare_select),
      cmocka_unit_test(test_emit_activations), cmocka_unit_test(test_emit_softmax),
      cmocka_unit_test(test_emit_quantize),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
