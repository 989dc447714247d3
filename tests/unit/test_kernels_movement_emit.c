/* test_kernels_movement_emit.c - emit() of the movement and reduction ops
 * agrees with eval(): for each small single-op model (built with the litert
 * model API and written to a temporary .tflite), aotc compiles a module,
 * the module is built with the host C compiler (-std=c99 -Wall -Wextra
 * -Werror -pedantic) and run on deterministic inputs, and its outputs must
 * equal, byte for byte, what the op's eval() computes on the untransformed
 * graph. Skips when no C compiler ("cc") is available. */
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
static int mb_ci32(mb *b, int n, const int32_t *v) {
  int32_t s[1] = {n};
  return mb_c(b, DT_INT32, 1, s, v, (size_t)n * 4);
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

static void test_emit_concat_pad(void **state) {
  (void)state;
  litert_options o;
  mb *b = mb_new();
  int a = mb_in(b, DT_INT8, 2, S(3, 2)), c = mb_in(b, DT_INT8, 2, S(3, 5));
  int y = mb_out(b, DT_INT8, 2, S(3, 7));
  mb_q(b, a, 0.05f, 3);
  mb_q(b, c, 0.02f, -7);
  mb_q(b, y, 0.04f, 1);
  litert_options_default(&o);
  o.axis = 1;
  mb_op(b, OP_CONCATENATION, &o, 2, IO(a, c), 1, IO(y));
  check_model(b, "concat_requant");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 3, S(2, 1, 3));
  c = mb_in(b, DT_FLOAT32, 3, S(2, 2, 3));
  int e = mb_in(b, DT_FLOAT32, 3, S(2, 1, 3));
  y = mb_out(b, DT_FLOAT32, 3, S(2, 4, 3));
  litert_options_default(&o);
  o.axis = -2;
  mb_op(b, OP_CONCATENATION, &o, 3, IO(a, c, e), 1, IO(y));
  check_model(b, "concat_f32");

  b = mb_new();
  a = mb_in(b, DT_INT16, 4, S(1, 3, 4, 2));
  int p = mb_c(b, DT_INT32, 2, S(4, 2), S(0, 0, 1, 2, 0, 3, 0, 0), 32);
  y = mb_out(b, DT_INT16, 4, S(1, 6, 7, 2));
  mb_q(b, a, 0.001f, 0);
  mb_q(b, y, 0.001f, 0);
  litert_options_default(&o);
  mb_op(b, OP_PAD, &o, 2, IO(a, p), 1, IO(y));
  check_model(b, "pad_s16");

  b = mb_new();
  a = mb_in(b, DT_INT8, 2, S(3, 3));
  p = mb_c(b, DT_INT32, 2, S(2, 2), S(1, 1, 2, 0), 16);
  int cv = mb_c(b, DT_INT8, 0, NULL, (const int8_t[]){-9}, 1);
  y = mb_out(b, DT_INT8, 2, S(5, 5));
  mb_q(b, a, 0.1f, 4);
  mb_q(b, y, 0.1f, 4);
  litert_options_default(&o);
  mb_op(b, OP_PADV2, &o, 3, IO(a, p, cv), 1, IO(y));
  check_model(b, "padv2_s8");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 2, S(3, 4));
  p = mb_c(b, DT_INT32, 2, S(2, 2), S(2, 1, 3, 3), 16);
  y = mb_out(b, DT_FLOAT32, 2, S(6, 10));
  litert_options_default(&o);
  o.mirror_mode = 0;
  mb_op(b, OP_MIRROR_PAD, &o, 2, IO(a, p), 1, IO(y));
  check_model(b, "mirror_pad");
}

static void test_emit_slices(void **state) {
  (void)state;
  litert_options o;
  mb *b = mb_new();
  int a = mb_in(b, DT_INT16, 3, S(4, 5, 6));
  int bb = mb_ci32(b, 3, S(-1, 1, 5)), e = mb_ci32(b, 3, S(0, 5, 0)), s = mb_ci32(b, 3, S(-2, 2, -2));
  int y = mb_out(b, DT_INT16, 3, S(2, 2, 3));
  litert_options_default(&o);
  mb_op(b, OP_STRIDED_SLICE, &o, 4, IO(a, bb, e, s), 1, IO(y));
  check_model(b, "strided_slice");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 3, S(4, 5, 6));
  bb = mb_ci32(b, 3, S(2, 0, 1));
  e = mb_ci32(b, 3, S(3, 5, 4));
  s = mb_ci32(b, 3, S(1, 1, 1));
  y = mb_out(b, DT_FLOAT32, 2, S(5, 3));
  litert_options_default(&o);
  o.shrink_axis_mask = 1;
  o.end_mask = 2;
  mb_op(b, OP_STRIDED_SLICE, &o, 4, IO(a, bb, e, s), 1, IO(y));
  check_model(b, "strided_slice_shrink");

  b = mb_new();
  a = mb_in(b, DT_INT32, 3, S(3, 4, 5));
  bb = mb_ci32(b, 3, S(1, 0, 2));
  s = mb_ci32(b, 3, S(2, -1, 2));
  y = mb_out(b, DT_INT32, 3, S(2, 4, 2));
  litert_options_default(&o);
  mb_op(b, OP_SLICE, &o, 3, IO(a, bb, s), 1, IO(y));
  check_model(b, "slice");

  b = mb_new();
  a = mb_in(b, DT_INT8, 4, S(2, 3, 4, 5));
  int p = mb_ci32(b, 4, S(0, 3, 1, 2));
  y = mb_out(b, DT_INT8, 4, S(2, 5, 3, 4));
  litert_options_default(&o);
  mb_op(b, OP_TRANSPOSE, &o, 2, IO(a, p), 1, IO(y));
  check_model(b, "transpose");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 3, S(2, 3, 4));
  p = mb_ci32(b, 2, S(0, 2));
  y = mb_out(b, DT_FLOAT32, 3, S(2, 3, 4));
  litert_options_default(&o);
  mb_op(b, OP_REVERSE_V2, &o, 2, IO(a, p), 1, IO(y));
  check_model(b, "reverse");
}

static void test_emit_split_pack(void **state) {
  (void)state;
  litert_options o;
  mb *b = mb_new();
  int ax = mb_ci32(b, 1, S(1));
  int a = mb_in(b, DT_INT8, 3, S(2, 6, 3));
  int y0 = mb_out(b, DT_INT8, 3, S(2, 2, 3)), y1 = mb_out(b, DT_INT8, 3, S(2, 2, 3)),
      y2 = mb_out(b, DT_INT8, 3, S(2, 2, 3));
  litert_options_default(&o);
  o.num_splits = 3;
  mb_op(b, OP_SPLIT, &o, 2, IO(ax, a), 3, IO(y0, y1, y2));
  check_model(b, "split");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 2, S(3, 7));
  int sz = mb_ci32(b, 2, S(5, -1));
  ax = mb_ci32(b, 1, S(-1));
  y0 = mb_out(b, DT_FLOAT32, 2, S(3, 5));
  y1 = mb_out(b, DT_FLOAT32, 2, S(3, 2));
  litert_options_default(&o);
  o.num_splits = 2;
  mb_op(b, OP_SPLIT_V, &o, 3, IO(a, sz, ax), 2, IO(y0, y1));
  check_model(b, "split_v");

  b = mb_new();
  a = mb_in(b, DT_INT16, 2, S(2, 3));
  int c = mb_in(b, DT_INT16, 2, S(2, 3));
  int y = mb_out(b, DT_INT16, 3, S(2, 2, 3));
  litert_options_default(&o);
  o.axis = 1;
  o.num = 2;
  mb_op(b, OP_PACK, &o, 2, IO(a, c), 1, IO(y));
  check_model(b, "pack");

  b = mb_new();
  a = mb_in(b, DT_INT32, 3, S(2, 3, 2));
  y0 = mb_out(b, DT_INT32, 2, S(2, 2));
  y1 = mb_out(b, DT_INT32, 2, S(2, 2));
  y2 = mb_out(b, DT_INT32, 2, S(2, 2));
  litert_options_default(&o);
  o.axis = 1;
  o.num = 3;
  mb_op(b, OP_UNPACK, &o, 1, IO(a), 3, IO(y0, y1, y2));
  check_model(b, "unpack");
}

static void test_emit_misc(void **state) {
  (void)state;
  litert_options o;
  mb *b = mb_new();
  int a = mb_in(b, DT_FLOAT32, 3, S(2, 5, 3));
  int ix = mb_c(b, DT_INT64, 1, S(4), (const int64_t[]){4, 0, 2, 2}, 32);
  int y = mb_out(b, DT_FLOAT32, 3, S(2, 4, 3));
  litert_options_default(&o);
  o.axis = 1;
  mb_op(b, OP_GATHER, &o, 2, IO(a, ix), 1, IO(y));
  check_model(b, "gather");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 1, S(16));
  y = mb_out(b, DT_INT8, 1, S(16));
  litert_options_default(&o);
  mb_op(b, OP_CAST, &o, 1, IO(a), 1, IO(y));
  check_model(b, "cast_f32_s8");

  b = mb_new();
  a = mb_in(b, DT_INT32, 2, S(3, 3));
  y = mb_out(b, DT_FLOAT32, 2, S(3, 3));
  litert_options_default(&o);
  mb_op(b, OP_CAST, &o, 1, IO(a), 1, IO(y));
  check_model(b, "cast_i32_f32");

  b = mb_new();
  int dims = mb_ci32(b, 2, S(3, 4));
  int v = mb_in(b, DT_INT16, 0, NULL);
  y = mb_out(b, DT_INT16, 2, S(3, 4));
  litert_options_default(&o);
  mb_op(b, OP_FILL, &o, 2, IO(dims, v), 1, IO(y));
  check_model(b, "fill");

  b = mb_new();
  a = mb_in(b, DT_INT8, 3, S(2, 1, 3));
  int m = mb_ci32(b, 3, S(2, 3, 1));
  y = mb_out(b, DT_INT8, 3, S(4, 3, 3));
  litert_options_default(&o);
  mb_op(b, OP_TILE, &o, 2, IO(a, m), 1, IO(y));
  check_model(b, "tile");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 2, S(3, 1));
  int sh = mb_ci32(b, 3, S(2, 3, 4));
  y = mb_out(b, DT_FLOAT32, 3, S(2, 3, 4));
  litert_options_default(&o);
  mb_op(b, OP_BROADCAST_TO, &o, 2, IO(a, sh), 1, IO(y));
  check_model(b, "broadcast_to");

  b = mb_new();
  a = mb_in(b, DT_INT8, 4, S(1, 3, 4, 2));
  sh = mb_ci32(b, 2, S(5, 7));
  y = mb_out(b, DT_INT8, 4, S(1, 5, 7, 2));
  mb_q(b, a, 0.1f, 2);
  mb_q(b, y, 0.1f, 2);
  litert_options_default(&o);
  o.half_pixel_centers = 1;
  mb_op(b, OP_RESIZE_NEAREST_NEIGHBOR, &o, 2, IO(a, sh), 1, IO(y));
  check_model(b, "resize_nn");

  b = mb_new();
  a = mb_in(b, DT_INT8, 4, S(2, 3, 4, 2));
  sh = mb_ci32(b, 2, S(5, 7));
  y = mb_out(b, DT_INT8, 4, S(2, 5, 7, 2));
  mb_q(b, a, 0.1f, 2);
  mb_q(b, y, 0.1f, 2);
  litert_options_default(&o);
  o.half_pixel_centers = 1;
  mb_op(b, OP_RESIZE_BILINEAR, &o, 2, IO(a, sh), 1, IO(y));
  check_model(b, "resize_bl_s8");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 4, S(1, 3, 4, 2));
  sh = mb_ci32(b, 2, S(6, 8));
  y = mb_out(b, DT_FLOAT32, 4, S(1, 6, 8, 2));
  litert_options_default(&o);
  o.align_corners = 1;
  mb_op(b, OP_RESIZE_BILINEAR, &o, 2, IO(a, sh), 1, IO(y));
  check_model(b, "resize_bl_f32");

  b = mb_new();
  a = mb_in(b, DT_INT16, 4, S(1, 2, 3, 8));
  y = mb_out(b, DT_INT16, 4, S(1, 4, 6, 2));
  litert_options_default(&o);
  o.block_size = 2;
  mb_op(b, OP_DEPTH_TO_SPACE, &o, 1, IO(a), 1, IO(y));
  check_model(b, "depth_to_space");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 4, S(1, 4, 6, 2));
  y = mb_out(b, DT_FLOAT32, 4, S(1, 2, 3, 8));
  litert_options_default(&o);
  o.block_size = 2;
  mb_op(b, OP_SPACE_TO_DEPTH, &o, 1, IO(a), 1, IO(y));
  check_model(b, "space_to_depth");
}

static void test_emit_reduce(void **state) {
  (void)state;
  litert_options o;
  mb *b = mb_new();
  int a = mb_in(b, DT_INT8, 4, S(1, 5, 6, 3));
  int ax = mb_ci32(b, 2, S(1, 2));
  int y = mb_out(b, DT_INT8, 4, S(1, 1, 1, 3));
  mb_q(b, a, 0.07f, -3);
  mb_q(b, y, 0.02f, 5);
  litert_options_default(&o);
  o.keep_dims = 1;
  mb_op(b, OP_MEAN, &o, 2, IO(a, ax), 1, IO(y));
  check_model(b, "mean_s8");

  b = mb_new();
  a = mb_in(b, DT_INT16, 3, S(4, 3, 5));
  ax = mb_ci32(b, 2, S(0, -1));
  y = mb_out(b, DT_INT16, 1, S(3));
  mb_q(b, a, 0.0003f, 0);
  mb_q(b, y, 0.004f, 0);
  litert_options_default(&o);
  mb_op(b, OP_SUM, &o, 2, IO(a, ax), 1, IO(y));
  check_model(b, "sum_s16");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 3, S(4, 3, 5));
  ax = mb_ci32(b, 1, S(1));
  y = mb_out(b, DT_FLOAT32, 2, S(4, 5));
  litert_options_default(&o);
  mb_op(b, OP_REDUCE_MAX, &o, 2, IO(a, ax), 1, IO(y));
  check_model(b, "reduce_max_f32");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 3, S(4, 3, 5));
  ax = mb_ci32(b, 2, S(0, 2));
  y = mb_out(b, DT_FLOAT32, 1, S(3));
  litert_options_default(&o);
  mb_op(b, OP_MEAN, &o, 2, IO(a, ax), 1, IO(y));
  check_model(b, "mean_f32");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 2, S(4, 9));
  ax = mb_ci32(b, 1, S(1));
  y = mb_out(b, DT_INT32, 1, S(4));
  litert_options_default(&o);
  o.out_type = DT_INT32;
  mb_op(b, OP_ARG_MAX, &o, 2, IO(a, ax), 1, IO(y));
  check_model(b, "arg_max");

  b = mb_new();
  a = mb_in(b, DT_INT8, 2, S(4, 9));
  ax = mb_ci32(b, 1, S(0));
  y = mb_out(b, DT_INT64, 1, S(9));
  litert_options_default(&o);
  o.out_type = DT_INT64;
  mb_op(b, OP_ARG_MIN, &o, 2, IO(a, ax), 1, IO(y));
  check_model(b, "arg_min");
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
      cmocka_unit_test(test_emit_concat_pad), cmocka_unit_test(test_emit_slices),
      cmocka_unit_test(test_emit_split_pack), cmocka_unit_test(test_emit_misc),
      cmocka_unit_test(test_emit_reduce),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
