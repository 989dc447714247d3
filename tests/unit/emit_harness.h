/* emit_harness.h - shared harness of the emit-vs-eval unit tests
 * (test_kernels_*_emit.c). A small model is built with the litert model API
 * (`mb` builder), written to a temporary .tflite and
 *   - evaluated with the ops' eval() on the untransformed graph (expected),
 *   - converted by compile_model + codegen_module into a module, which is
 *     built with the host C compiler (-std=c99 -Wall -Wextra -Werror
 *     -pedantic) together with a small driver and run on the same inputs;
 * the module's outputs must equal the expected ones byte for byte.
 *
 * A header of static functions because every tests/unit/test_*.c is its own
 * executable (CMake glob). Include it after <cmocka.h>; run the tests with
 * cmocka_run_group_tests(tests, eh_setup, eh_teardown); a test that builds
 * no model itself may skip early when eh_have_cc is 0 (no "cc"). */
#ifndef AOTC_TESTS_EMIT_HARNESS_H
#define AOTC_TESTS_EMIT_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/codegen.h"
#include "compile.h"
#include "ir/ir.h"
#include "passes/passes.h"
#include "litert/litert.h"
#include "ops/ops.h"

static char eh_tmpdir[128];
static int eh_have_cc;

/* ---- model building ---- */
typedef struct mb {
  litert_model *m;
  int in[8], nin, out[8], nout;
} mb;

static inline mb *mb_new(void) {
  mb *b = calloc(1, sizeof *b);
  b->m = litert_model_new();
  litert_add_subgraph(b->m, "main");
  return b;
}
static inline int mb_t(mb *b, int type, int rank, const int32_t *shape) {
  return litert_add_tensor(b->m, 0, "t", type, rank, shape, 0);
}
static inline int mb_in(mb *b, int type, int rank, const int32_t *shape) {
  int t = mb_t(b, type, rank, shape);
  b->in[b->nin++] = t;
  return t;
}
static inline int mb_out(mb *b, int type, int rank, const int32_t *shape) {
  int t = mb_t(b, type, rank, shape);
  b->out[b->nout++] = t;
  return t;
}
static inline int mb_c(mb *b, int type, int rank, const int32_t *shape, const void *data,
                       size_t bytes) {
  int buf = litert_add_buffer(b->m, data, bytes);
  return litert_add_tensor(b->m, 0, "c", type, rank, shape, buf);
}
/* a 1-D int32 constant of n values */
static inline int mb_ci32(mb *b, int n, const int32_t *v) {
  int32_t s[1] = {n};
  return mb_c(b, DT_INT32, 1, s, v, (size_t)n * 4);
}
static inline void mb_q(mb *b, int t, float scale, int64_t zp) {
  litert_tensor_set_quant(b->m, 0, t, 1, &scale, &zp, 0);
}
/* adds an operator; an options type of 0 means the builtin's own */
static inline void mb_op(mb *b, int builtin, const litert_options *o, int nin, const int32_t *in,
                         int nout, const int32_t *out) {
  litert_options oo = *o;
  if (!oo.type) oo.type = litert_builtin_options_type(builtin);
  litert_add_op(b->m, 0, builtin, NULL, nin, in, nout, out, &oo);
}

#define S(...) ((const int32_t[]){__VA_ARGS__})
#define IO(...) ((const int32_t[]){__VA_ARGS__})

/* Fills input number `index` (0-based) of dtype with n deterministic values. */
typedef void (*eh_fill_fn)(void *p, int dtype, size_t n, uint32_t index);

/* The default filler: a per-input LCG seeded by the input's index. */
static inline void eh_fill_input(void *p, int dtype, size_t n, uint32_t index) {
  uint32_t s = (index + 1u) * 2654435761u + 12345u;
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

/* The module's main: reads all inputs (concatenated) from argv[1], runs,
 * writes all outputs (concatenated) to argv[2]. */
static const char *const eh_driver_src =
    "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include \"aot_model.h\"\n"
    "int main(int argc, char **argv) {\n"
    "  aot_model_context_t ctx;\n  int i;\n  FILE *f;\n  (void)argc;\n"
    "  memset(&ctx, 0, sizeof ctx);\n"
    "  if (aot_model_init(&ctx) != 0) return 2;\n"
    "  f = fopen(argv[1], \"rb\");\n  if (!f) return 3;\n"
    "  for (i = 0; i < aot_num_inputs; i++)\n"
    "    if (fread(ctx.inputs[i].data, 1, ctx.inputs[i].bytes, f) != ctx.inputs[i].bytes) return 4;\n"
    "  fclose(f);\n"
    "  if (aot_model_run(&ctx) != 0) return 5;\n"
    "  f = fopen(argv[2], \"wb\");\n  if (!f) return 6;\n"
    "  for (i = 0; i < aot_num_outputs; i++)\n"
    "    fwrite(ctx.outputs[i].data, 1, ctx.outputs[i].bytes, f);\n"
    "  fclose(f);\n  return 0;\n}\n";

/* Concatenates the tensors ids[0..n) of data into a new buffer (*bytes set). */
static inline uint8_t *eh_concat(const ir_graph *g, void *const *data, const int *ids, int n,
                                 size_t *bytes) {
  size_t total = 0, o = 0;
  for (int i = 0; i < n; i++) total += ir_bytes(&g->t[ids[i]]);
  uint8_t *buf = malloc(total + 1);
  for (int i = 0; i < n; i++) {
    size_t nb = ir_bytes(&g->t[ids[i]]);
    memcpy(buf + o, data[ids[i]], nb);
    o += nb;
  }
  *bytes = total;
  return buf;
}

/* Optional extra assertions of a test on the graph eh_check_ex evaluates
 * (compiled == 0: the untransformed graph, after every op's eval()) and on
 * the compiled, transformed graph the module is generated from
 * (compiled == 1). */
typedef void (*eh_inspect_fn)(const ir_graph *g, int compiled);

/* Builds, converts, compiles and runs the model of b (inputs b->in, outputs
 * b->out), compares its outputs with eval(); frees b. Inputs are filled by
 * `fill` in input order; nops > 0 also requires the graph to have exactly
 * that many operators; eval() gets a scratch buffer of the op's scratch()
 * bytes (NULL when it needs none); `inspect` (may be NULL) sees both graphs.
 * Skips the test when there is no C compiler. */
static inline void eh_check_ex(mb *b, const char *name, eh_fill_fn fill, int nops,
                               eh_inspect_fn inspect) {
  if (!eh_have_cc) {
    litert_model_free(b->m);
    free(b);
    skip();
    return;
  }
  litert_set_io(b->m, 0, b->nin, b->in, b->nout, b->out);
  char path[1024], dir[256], cmd[4096];
  aotc_diag d;
  memset(&d, 0, sizeof d);
  snprintf(path, sizeof path, "%s/%s.tflite", eh_tmpdir, name);
  assert_int_equal(litert_write_file(b->m, path, &d), 0);

  /* expected: eval() over the untransformed graph */
  litert_model *m2 = litert_read_file(path, &d);
  if (!m2) print_error("%s: %s\n", name, d.msg);
  assert_non_null(m2);
  ir_graph *g = ir_from_litert(m2, 0, &d);
  assert_non_null(g);
  void **data = calloc((size_t)g->nt, sizeof(void *));
  for (int i = 0; i < g->nt; i++) {
    size_t nb = ir_bytes(&g->t[i]);
    data[i] = calloc(1, nb ? nb : 1);
    if (g->t[i].role == ROLE_CONST && g->t[i].data) memcpy(data[i], g->t[i].data, nb);
  }
  for (int i = 0; i < g->nin; i++) {
    const ir_tensor *t = &g->t[g->inputs[i]];
    fill(data[g->inputs[i]], t->dtype, ir_numel(t), (uint32_t)i);
  }
  if (nops > 0) assert_int_equal(g->nops, nops);
  for (int k = 0; k < g->nops; k++) {
    const op_impl *impl = ops_find(g, &g->ops[k]);
    assert_non_null(impl);
    char why[256] = "";
    int rc = impl->check(g, &g->ops[k], why, sizeof why);
    if (rc) print_error("%s: %s\n", name, why);
    assert_int_equal(rc, 0);
    size_t sb = impl->scratch ? impl->scratch(g, &g->ops[k]) : 0;
    void *scratch = sb ? malloc(sb) : NULL;
    assert_int_equal(op_eval(impl, g, &g->ops[k], data, scratch), 0);
    free(scratch);
  }
  if (inspect) inspect(g, 0);
  size_t inbytes, outbytes;
  uint8_t *inbuf = eh_concat(g, data, g->inputs, g->nin, &inbytes);
  uint8_t *expect = eh_concat(g, data, g->outputs, g->nout, &outbytes);
  uint8_t *got = malloc(outbytes + 1);

  /* the module */
  compiled cm;
  int rc = compile_model(NULL, path, 1, &cm, &d);
  if (rc) print_error("%s: %s\n", name, d.msg);
  assert_int_equal(rc, 0);
  if (inspect) inspect(cm.graph, 1);
  snprintf(dir, sizeof dir, "%s/%s_mod", eh_tmpdir, name);
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
  fputs(eh_driver_src, f);
  fclose(f);
  snprintf(cmd, sizeof cmd,
           "cc -std=c99 -O1 -Wall -Wextra -Werror -pedantic -I%s/includes-api -I%s/src %s/src/*.c "
           "%s/driver.c -o %s/run -lm",
           dir, dir, dir, dir, dir);
  rc = system(cmd);
  if (rc) print_error("%s: module does not compile: %s\n", name, cmd);
  assert_int_equal(rc, 0);
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
  if (memcmp(got, expect, outbytes) != 0)
    print_error("%s: module output differs from eval\n", name);
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

/* eh_check_ex without extra assertions. */
static inline void eh_check(mb *b, const char *name, eh_fill_fn fill, int nops) {
  eh_check_ex(b, name, fill, nops, NULL);
}

/* eh_check with the default filler and any number of operators. */
static inline void check_model(mb *b, const char *name) { eh_check(b, name, eh_fill_input, 0); }

/* Group setup / teardown (cmocka): a fresh temporary directory for the
 * models and modules, and whether "cc" exists (a skip notice if not). */
static inline int eh_setup(void **state) {
  (void)state;
  snprintf(eh_tmpdir, sizeof eh_tmpdir, "/tmp/aotc_emit_XXXXXX");
  if (!mkdtemp(eh_tmpdir)) return -1;
  eh_have_cc = system("cc --version > /dev/null 2>&1") == 0;
  if (!eh_have_cc) print_message("skipped: no C compiler 'cc'\n");
  return 0;
}

static inline int eh_teardown(void **state) {
  (void)state;
  remove_tree(eh_tmpdir);
  return 0;
}

#endif
