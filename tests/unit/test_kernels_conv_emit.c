/* test_kernels_conv_emit.c - emit() of the convolution-family ops agrees with
 * eval(): each small single-op model (built with the litert model API and
 * written to a temporary .tflite) is compiled by aotc into a module, the
 * module is built with the host C compiler (-std=c99 -Wall -Wextra -Werror
 * -pedantic) and run on deterministic inputs, and its outputs must equal,
 * byte for byte, what the op's eval() computes on the untransformed graph.
 * Skips when no C compiler ("cc") is available. */
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

static char workdir[128];
static int cc_ok;
static uint32_t seed = 99;

static uint32_t rnd(void) {
  seed = seed * 1664525u + 1013904223u;
  return seed >> 8;
}
static int rr(int lo, int hi) { return lo + (int)(rnd() % (uint32_t)(hi - lo + 1)); }

/* ---- a single-op model ---- */
typedef struct gm {
  litert_model *m;
  int ins[4], nin, out;
} gm;

static gm *gm_new(void) {
  gm *g = calloc(1, sizeof *g);
  g->m = litert_model_new();
  litert_add_subgraph(g->m, "main");
  return g;
}

/* activation input (is_in), constant with random data (cnst), or plain */
static int gm_t(gm *g, int dt, int rank, const int32_t *shape, int cnst, int is_in, float scale,
                int zp) {
  size_t n = 1;
  for (int i = 0; i < rank; i++) n *= (size_t)shape[i];
  int buf = 0;
  if (cnst) {
    size_t es = dtype_size(dt);
    uint8_t *d = malloc(n * es);
    for (size_t i = 0; i < n; i++) {
      if (dt == DT_FLOAT32) {
        float v = (float)rr(-1000, 1000) / 500.0f;
        memcpy(d + 4 * i, &v, 4);
      } else if (dt == DT_INT8) {
        d[i] = (uint8_t)(int8_t)rr(-127, 127);
      } else if (dt == DT_INT16) {
        int16_t v = (int16_t)rr(-20000, 20000);
        memcpy(d + 2 * i, &v, 2);
      } else if (dt == DT_INT32) {
        int32_t v = rr(-3000, 3000);
        memcpy(d + 4 * i, &v, 4);
      } else if (dt == DT_INT64) {
        int64_t v = rr(-300000, 300000);
        memcpy(d + 8 * i, &v, 8);
      }
    }
    buf = litert_add_buffer(g->m, d, n * es);
    free(d);
  }
  int t = litert_add_tensor(g->m, 0, "t", dt, rank, shape, buf);
  if (scale > 0) {
    int64_t z = zp;
    litert_tensor_set_quant(g->m, 0, t, 1, &scale, &z, 0);
  }
  if (is_in) g->ins[g->nin++] = t;
  return t;
}

static litert_options opt(int builtin) {
  litert_options o;
  litert_options_default(&o);
  o.type = litert_builtin_options_type(builtin);
  return o;
}

static void fill_input(void *p, int dtype, size_t n) {
  for (size_t i = 0; i < n; i++) {
    switch (dtype) {
      case DT_FLOAT32: ((float *)p)[i] = (float)rr(-1000, 1000) / 300.0f; break;
      case DT_INT8: ((int8_t *)p)[i] = (int8_t)rr(-128, 127); break;
      case DT_INT16: ((int16_t *)p)[i] = (int16_t)rr(-32768, 32767); break;
      default: ((uint8_t *)p)[i] = (uint8_t)rnd(); break;
    }
  }
}

static const char *driver_src =
    "#include <stdio.h>\n#include <string.h>\n#include \"aot_model.h\"\n"
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

/* Adds the op, writes the model, evaluates it with eval(), compiles and runs
 * the module, compares. */
static void run_case(gm *g, int builtin, litert_options *o, int nin, const int32_t *in,
                     const char *name) {
  litert_add_op(g->m, 0, builtin, NULL, nin, in, 1, &g->out, o);
  litert_set_io(g->m, 0, g->nin, g->ins, 1, &g->out);
  if (!cc_ok) {
    litert_model_free(g->m);
    free(g);
    return;
  }
  char path[1024], dir[256], cmd[3072];
  aotc_diag d;
  memset(&d, 0, sizeof d);
  snprintf(path, sizeof path, "%s/%s.tflite", workdir, name);
  assert_int_equal(litert_write_file(g->m, path, &d), 0);

  litert_model *m2 = litert_read_file(path, &d);
  assert_non_null(m2);
  ir_graph *ig = ir_from_litert(m2, 0, &d);
  assert_non_null(ig);
  void **data = calloc((size_t)ig->nt, sizeof(void *));
  for (int i = 0; i < ig->nt; i++) {
    size_t nb = ir_bytes(&ig->t[i]);
    data[i] = calloc(1, nb ? nb : 1);
    if (ig->t[i].role == ROLE_CONST && ig->t[i].data) memcpy(data[i], ig->t[i].data, nb);
  }
  size_t inbytes = 0, outbytes = ir_bytes(&ig->t[ig->outputs[0]]);
  for (int i = 0; i < ig->nin; i++) {
    const ir_tensor *t = &ig->t[ig->inputs[i]];
    fill_input(data[ig->inputs[i]], t->dtype, ir_numel(t));
    inbytes += ir_bytes(t);
  }
  assert_int_equal(ig->nops, 1);
  const op_impl *impl = ops_find(ig, &ig->ops[0]);
  assert_non_null(impl);
  char why[256] = "";
  int rc = impl->check(ig, &ig->ops[0], why, sizeof why);
  if (rc) print_error("%s: %s\n", name, why);
  assert_int_equal(rc, 0);
  assert_int_equal(impl->eval(ig, &ig->ops[0], data, NULL), 0);

  compiled cm;
  rc = compile_model(NULL, path, 1, &cm, &d);
  if (rc) print_error("%s: %s\n", name, d.msg);
  assert_int_equal(rc, 0);
  snprintf(dir, sizeof dir, "%s/%s_mod", workdir, name);
  remove_tree(dir);
  snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
  assert_int_equal(system(cmd), 0);
  cg_options co;
  memset(&co, 0, sizeof co);
  co.prefix = "aot";
  co.name = "aot_model";
  co.model_path = path;
  co.runtime_dir = compile_runtime_dir();
  rc = codegen_module(cm.graph, &co, dir, &d);
  if (rc) print_error("%s: %s\n", name, d.msg);
  assert_int_equal(rc, 0);
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
  rc = system(cmd);
  if (rc) print_error("%s: module does not compile\n", name);
  assert_int_equal(rc, 0);

  snprintf(path, sizeof path, "%s/in.bin", dir);
  f = fopen(path, "wb");
  assert_non_null(f);
  for (int i = 0; i < ig->nin; i++)
    fwrite(data[ig->inputs[i]], 1, ir_bytes(&ig->t[ig->inputs[i]]), f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "%s/run %s/in.bin %s/out.bin", dir, dir, dir);
  assert_int_equal(system(cmd), 0);
  uint8_t *got = malloc(outbytes + 1);
  snprintf(path, sizeof path, "%s/out.bin", dir);
  f = fopen(path, "rb");
  assert_non_null(f);
  size_t nr = fread(got, 1, outbytes + 1, f);
  fclose(f);
  assert_int_equal(nr, outbytes);
  if (memcmp(got, data[ig->outputs[0]], outbytes) != 0)
    print_error("%s: module output differs from eval\n", name);
  assert_memory_equal(got, data[ig->outputs[0]], outbytes);
  (void)inbytes;
  remove_tree(dir);
  free(got);
  for (int i = 0; i < ig->nt; i++) free(data[i]);
  free(data);
  ir_free(ig);
  litert_model_free(m2);
  litert_model_free(g->m);
  free(g);
}

/* kind 0 conv, 1 depthwise, 2 transpose conv; groups > 1 for grouped conv */
static void conv_case(const char *name, int dt, int kind, int n, int h, int w, int c, int oc,
                      int fh, int fw, int sh, int sw, int dh, int dw, int pad, int act, int bias,
                      int groups) {
  gm *g = gm_new();
  int q = dt != DT_FLOAT32, s16 = dt == DT_INT16;
  int in = gm_t(g, dt, 4, (int32_t[]){n, h, w, c}, 0, 1, q ? 0.05f : 0, s16 ? 0 : 3);
  int32_t fs[4] = {kind == 1 ? 1 : oc, fh, fw, kind == 1 ? oc : c / groups};
  int f = gm_t(g, q ? DT_INT8 : DT_FLOAT32, 4, fs, 1, 0, q ? 0.02f : 0, 0);
  int b = bias ? gm_t(g, q ? (s16 ? DT_INT64 : DT_INT32) : DT_FLOAT32, 1, (int32_t[]){oc}, 1, 0,
                      q ? 0.001f : 0, 0)
               : -1;
  int builtin = kind == 0 ? OP_CONV_2D : kind == 1 ? OP_DEPTHWISE_CONV_2D : OP_TRANSPOSE_CONV;
  litert_options o = opt(builtin);
  o.stride_h = sh;
  o.stride_w = sw;
  o.dilation_h = dh;
  o.dilation_w = dw;
  o.padding = pad;
  o.fused_act = act;
  o.depth_multiplier = kind == 1 ? oc / c : 0;
  int oh, ow;
  if (kind == 2) {
    oh = pad == PAD_SAME ? h * sh : (h - 1) * sh + fh;
    ow = pad == PAD_SAME ? w * sw : (w - 1) * sw + fw;
  } else {
    int efh = (fh - 1) * dh + 1, efw = (fw - 1) * dw + 1;
    oh = pad == PAD_SAME ? (h + sh - 1) / sh : (h + sh - efh) / sh;
    ow = pad == PAD_SAME ? (w + sw - 1) / sw : (w + sw - efw) / sw;
  }
  int32_t os[4] = {n, oh, ow, oc};
  g->out = gm_t(g, dt, 4, os, 0, 0, q ? 0.1f : 0, s16 ? 0 : -2);
  if (kind == 2) {
    int buf = litert_add_buffer(g->m, os, sizeof os);
    int ost = litert_add_tensor(g->m, 0, "oshape", DT_INT32, 1, (int32_t[]){4}, buf);
    run_case(g, builtin, &o, bias ? 4 : 3, (int32_t[]){ost, f, in, b}, name);
  } else {
    run_case(g, builtin, &o, 3, (int32_t[]){in, f, b}, name);
  }
}

static void test_emit_conv(void **state) {
  (void)state;
  if (!cc_ok) skip();
  conv_case("conv_s8_same_s2", DT_INT8, 0, 1, 9, 8, 3, 6, 3, 3, 2, 2, 1, 1, PAD_SAME, ACT_RELU6,
            1, 1);
  conv_case("conv_s8_grp_dil", DT_INT8, 0, 1, 10, 9, 4, 6, 3, 2, 1, 1, 2, 2, PAD_VALID, ACT_NONE,
            0, 2);
  conv_case("conv_s16_same", DT_INT16, 0, 1, 7, 6, 5, 7, 3, 3, 1, 2, 1, 1, PAD_SAME, ACT_RELU, 1,
            1);
  conv_case("conv_f32_same", DT_FLOAT32, 0, 2, 6, 5, 3, 5, 3, 3, 1, 1, 1, 1, PAD_SAME,
            ACT_RELU_N1_TO_1, 1, 1);
}

static void test_emit_depthwise(void **state) {
  (void)state;
  if (!cc_ok) skip();
  conv_case("dw_s8_dm2", DT_INT8, 1, 1, 8, 7, 3, 6, 3, 3, 2, 1, 1, 1, PAD_SAME, ACT_RELU, 1, 1);
  conv_case("dw_s8_dm1", DT_INT8, 1, 1, 6, 7, 6, 6, 3, 3, 1, 2, 1, 1, PAD_SAME, ACT_RELU6, 1, 1);
  conv_case("dw_s16_dm1", DT_INT16, 1, 1, 8, 7, 6, 6, 3, 3, 1, 1, 1, 2, PAD_SAME, ACT_NONE, 1, 1);
  conv_case("dw_f32_dm1", DT_FLOAT32, 1, 1, 8, 7, 5, 5, 3, 3, 1, 1, 1, 1, PAD_VALID, ACT_RELU6,
            0, 1);
}

static void test_emit_transpose_conv(void **state) {
  (void)state;
  if (!cc_ok) skip();
  conv_case("tconv_s8", DT_INT8, 2, 1, 4, 5, 3, 4, 3, 3, 2, 2, 1, 1, PAD_SAME, ACT_NONE, 1, 1);
  conv_case("tconv_f32", DT_FLOAT32, 2, 1, 3, 4, 2, 3, 4, 2, 2, 1, 1, 1, PAD_VALID, ACT_RELU, 1,
            1);
  conv_case("tconv_s16", DT_INT16, 2, 1, 1, 6, 4, 3, 1, 4, 1, 2, 1, 1, PAD_SAME, ACT_NONE, 1, 1);
}

static void fc_case(const char *name, int dt, int b, int i, int oc, int keep, int act, int bias) {
  gm *g = gm_new();
  int q = dt != DT_FLOAT32, s16 = dt == DT_INT16;
  int in = gm_t(g, dt, 3, (int32_t[]){b, 2, i}, 0, 1, q ? 0.05f : 0, s16 ? 0 : -7);
  int w = gm_t(g, q ? DT_INT8 : DT_FLOAT32, 2, (int32_t[]){oc, i}, 1, 0, q ? 0.01f : 0, 0);
  int bb = bias ? gm_t(g, q ? (s16 ? DT_INT64 : DT_INT32) : DT_FLOAT32, 1, (int32_t[]){oc}, 1, 0,
                       q ? 0.0005f : 0, 0)
                : -1;
  if (keep)
    g->out = gm_t(g, dt, 3, (int32_t[]){b, 2, oc}, 0, 0, q ? 0.2f : 0, s16 ? 0 : 4);
  else
    g->out = gm_t(g, dt, 2, (int32_t[]){b * 2, oc}, 0, 0, q ? 0.2f : 0, s16 ? 0 : 4);
  litert_options o = opt(OP_FULLY_CONNECTED);
  o.keep_num_dims = keep;
  o.fused_act = act;
  run_case(g, OP_FULLY_CONNECTED, &o, 3, (int32_t[]){in, w, bb}, name);
}

static void test_emit_fc(void **state) {
  (void)state;
  if (!cc_ok) skip();
  fc_case("fc_s8_keep", DT_INT8, 3, 20, 7, 1, ACT_RELU, 1);
  fc_case("fc_s16", DT_INT16, 2, 33, 5, 0, ACT_NONE, 1);
  fc_case("fc_f32_nobias", DT_FLOAT32, 2, 17, 9, 0, ACT_NONE, 0);
}

static void pool_case(const char *name, int dt, int mx, int h, int w, int c, int fh, int fw,
                      int sh, int sw, int pad, int act) {
  gm *g = gm_new();
  int q = dt != DT_FLOAT32, zp = dt == DT_INT8 ? 5 : 0;
  int in = gm_t(g, dt, 4, (int32_t[]){1, h, w, c}, 0, 1, q ? 0.05f : 0, zp);
  int oh = pad == PAD_SAME ? (h + sh - 1) / sh : (h + sh - fh) / sh;
  int ow = pad == PAD_SAME ? (w + sw - 1) / sw : (w + sw - fw) / sw;
  g->out = gm_t(g, dt, 4, (int32_t[]){1, oh, ow, c}, 0, 0, q ? 0.05f : 0, zp);
  int builtin = mx ? OP_MAX_POOL_2D : OP_AVERAGE_POOL_2D;
  litert_options o = opt(builtin);
  o.filter_h = fh;
  o.filter_w = fw;
  o.stride_h = sh;
  o.stride_w = sw;
  o.padding = pad;
  o.fused_act = act;
  run_case(g, builtin, &o, 1, (int32_t[]){in}, name);
}

static void test_emit_pool(void **state) {
  (void)state;
  if (!cc_ok) skip();
  pool_case("avg_s8", DT_INT8, 0, 7, 6, 5, 3, 2, 2, 2, PAD_SAME, ACT_NONE);
  pool_case("avg_s16", DT_INT16, 0, 7, 6, 5, 3, 3, 1, 1, PAD_SAME, ACT_RELU);
  pool_case("avg_f32", DT_FLOAT32, 0, 7, 6, 5, 2, 2, 2, 2, PAD_VALID, ACT_NONE);
  pool_case("max_s8", DT_INT8, 1, 7, 6, 5, 3, 3, 2, 2, PAD_SAME, ACT_RELU);
  pool_case("max_s16", DT_INT16, 1, 7, 6, 5, 2, 3, 1, 2, PAD_VALID, ACT_NONE);
  pool_case("max_f32", DT_FLOAT32, 1, 7, 6, 5, 3, 3, 2, 2, PAD_SAME, ACT_RELU6);
}

static void bmm_case(const char *name, int dt, int adjx, int adjy, int rhs_const) {
  gm *g = gm_new();
  int q = dt != DT_FLOAT32, s16 = dt == DT_INT16;
  int32_t ls[4] = {2, 1, adjx ? 5 : 3, adjx ? 3 : 5};
  int32_t rs[3] = {3, adjy ? 4 : 5, adjy ? 5 : 4};
  int l = gm_t(g, dt, 4, ls, 0, 1, q ? 0.05f : 0, s16 ? 0 : 2);
  int r = gm_t(g, dt, 3, rs, rhs_const, !rhs_const, q ? 0.03f : 0, s16 ? 0 : -1);
  g->out = gm_t(g, dt, 4, (int32_t[]){2, 3, 3, 4}, 0, 0, q ? 0.3f : 0, s16 ? 0 : 1);
  litert_options o = opt(OP_BATCH_MATMUL);
  o.adj_x = adjx;
  o.adj_y = adjy;
  run_case(g, OP_BATCH_MATMUL, &o, 2, (int32_t[]){l, r}, name);
}

static void test_emit_batch_matmul(void **state) {
  (void)state;
  if (!cc_ok) skip();
  bmm_case("bmm_f32", DT_FLOAT32, 0, 0, 0);
  bmm_case("bmm_s8_adj", DT_INT8, 1, 1, 1);
  bmm_case("bmm_s16_adjy", DT_INT16, 0, 1, 0);
}

static int setup(void **state) {
  (void)state;
  snprintf(workdir, sizeof workdir, "/tmp/aotc_convemit_XXXXXX");
  if (!mkdtemp(workdir)) return -1;
  cc_ok = system("cc --version > /dev/null 2>&1") == 0;
  if (!cc_ok) print_message("skipped: no C compiler 'cc'\n");
  return 0;
}

static int teardown(void **state) {
  (void)state;
  remove_tree(workdir);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_emit_conv),      cmocka_unit_test(test_emit_depthwise),
      cmocka_unit_test(test_emit_transpose_conv), cmocka_unit_test(test_emit_fc),
      cmocka_unit_test(test_emit_pool),      cmocka_unit_test(test_emit_batch_matmul),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
