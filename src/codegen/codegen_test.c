/* codegen_test.c - the test case of a module: stored stimulus and expected
 * outputs, the comparison within tolerance and the PASS/FAIL line. */
#include "codegen_internal.h"

#include <stdlib.h>
#include <string.h>

/* "static const <type> aot_test_<what>_<i>[n] = {...};" for a stored array. */
static void test_array(strbuf *c, const cg_array *a, const char *what, int i) {
  size_t n = a->nbytes / (dtype_size(a->dtype) ? dtype_size(a->dtype) : 1);
  sb_printf(c, "static const %s aot_test_%s_%d[%zu] = {\n", dtype_ctype(a->dtype), what, i, n ? n : 1);
  emit_fmt_values(c, a->dtype, a->data, n);
  sb_puts(c, "};\n");
}

void gen_test_case(const ir_graph *g, const cg_options *o, strbuf *c, strbuf *h) {
  const cg_test *t = &o->test;
  cg_banner(h, o, "aot_test_case.h");
  sb_puts(h, "#ifndef AOT_TEST_CASE_H\n#define AOT_TEST_CASE_H\n\n#include <stdint.h>\n\n"
             "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
             "/* Initializes the test's own context (aot_model_init). Returns its status. */\n"
             "int32_t aot_test_case_init(void);\n"
             "/* Runs the model on the stored stimulus and checks the outputs; prints one\n"
             " * PASS/FAIL line with AOT_PRINTF. Returns 0 on pass. */\nint32_t aot_test_case_run(void);\n\n"
             "#ifdef __cplusplus\n}\n#endif\n\n#endif\n");
  cg_banner(c, o, "aot_test_case.c");
  sb_printf(c, "#include \"aot_test_case.h\"\n\n#include <math.h>\n"
               "#include <string.h>\n\n#include \"aot_model.h\"\n\n");
  int steps = t->sequence && g->nin > 0 ? t->inputs[0].steps : 1;
  if (steps < 1) steps = 1;
  for (int i = 0; i < g->nin; i++) test_array(c, &t->inputs[i], "input", i);
  for (int i = 0; i < g->nout; i++) test_array(c, &t->outputs[i], "expected", i);
  int *fed = xcalloc((size_t)(g->nin + 1), sizeof(int));
  for (int k = 0; k < t->nfeedback; k++) fed[t->feedback[k][1]] = 1;
  sb_printf(c, "\nstatic aot_model_context_t aot_test_ctx;\n\n"
               "int32_t aot_test_case_init(void) { return aot_model_init(&aot_test_ctx); }\n\n"
               "static double aot_test_value(int dtype, const void *p, size_t i) {\n"
               "  switch (dtype) {\n"
               "    case aot_dtype_float32: return (double)((const float *)p)[i];\n"
               "    case aot_dtype_int8: return (double)((const int8_t *)p)[i];\n"
               "    case aot_dtype_uint8: case aot_dtype_bool: return (double)((const uint8_t *)p)[i];\n"
               "    case aot_dtype_int16: return (double)((const int16_t *)p)[i];\n"
               "    case aot_dtype_int32: return (double)((const int32_t *)p)[i];\n"
               "    case aot_dtype_int64: return (double)((const int64_t *)p)[i];\n"
               "    default: return 0.0;\n  }\n}\n\n");
  sb_puts(c, "/* FNV-1a over the output bytes: equal hashes mean bit-identical outputs. */\n"
             "static uint32_t aot_test_hash(uint32_t h, const void *p, size_t n) {\n"
             "  const unsigned char *b = (const unsigned char *)p;\n  size_t i;\n"
             "  for (i = 0; i < n; i++) { h ^= b[i]; h *= 16777619u; }\n  return h;\n}\n\n");
  sb_printf(c,
            "/* Compares one output; updates the worst error. Returns 1 if within tolerance. */\n"
            "static int aot_test_check(int o, const aot_tensor_io_t *got, const void *exp, size_t step,\n"
            "                          double *max_err, size_t *exact, size_t *total) {\n"
            "  int is_float = got->dtype == aot_dtype_float32;\n"
            "  const double tol = is_float ? %.17g : %.17g;\n"
            "  size_t i, worst = 0;\n  double worst_excess = -1.0;\n"
            "  int ok = 1;\n"
            "  for (i = 0; i < got->size; i++) {\n"
            "    double e = aot_test_value(got->dtype, exp, step * got->size + i);\n"
            "    double v = aot_test_value(got->dtype, got->data, i);\n"
            "    /* equal values (infinities too) and NaN where NaN is expected match */\n"
            "    double err = (e == v || (e != e && v != v)) ? 0.0 : fabs(e - v);\n"
            "    double limit = is_float ? tol + 1e-4 * fabs(e) : tol;\n"
            "    if (err == 0.0) (*exact)++;\n"
            "    if (err > *max_err || err != err) *max_err = err;\n"
            "    if (err != 0.0 && !(err <= limit)) {\n"
            "      ok = 0;\n"
            "      if (err != err || err - limit > worst_excess) { worst_excess = err - limit; worst = i; }\n"
            "    }\n"
            "  }\n"
            "  *total += got->size;\n"
            "  if (!ok)\n"
            "    AOT_PRINTF(\"mismatch: step %%lu output %%d index %%lu expected %%.9g got %%.9g\\n\",\n"
            "           (unsigned long)step, o, (unsigned long)worst,\n"
            "           aot_test_value(got->dtype, exp, step * got->size + worst),\n"
            "           aot_test_value(got->dtype, got->data, worst));\n"
            "  return ok;\n}\n\n",
            t->float_tolerance, t->tolerance);
  sb_printf(c, "int32_t aot_test_case_run(void) {\n"
               "  aot_model_context_t *ctx = &aot_test_ctx;\n"
               "  int32_t st;\n  int ok = 1;\n  long it, step;\n"
               "  double max_err = 0.0;\n  size_t exact = 0, total = 0;\n"
               "  uint32_t hash = 2166136261u;\n"
               "  const long iterations = %d, steps = %d;\n",
            t->num_iterations > 0 ? t->num_iterations : 1, steps);
  sb_puts(c, "  st = aot_model_init(ctx);\n"
             "  if (st != aot_status_ok) { AOT_PRINTF(\"FAIL init status %ld\\n\", (long)st); return 1; }\n");
  sb_puts(c, "  for (step = 0; step < steps; step++) {\n    int fresh = step == 0;  /* state inputs are seeded */\n    (void)fresh;\n");
  for (int k = 0; k < t->nresets; k++)
    sb_printf(c, "    if (step == %d) {\n      st = aot_model_init(ctx);\n      if (st != aot_status_ok) return 1;\n      fresh = 1;\n    }\n",
              t->resets[k]);
  sb_puts(c, "    for (it = 0; it < iterations; it++) {\n");
  for (int i = 0; i < g->nin; i++) {
    size_t bytes = ir_bytes(&g->t[g->inputs[i]]);
    if (fed[i])
      sb_printf(c, "      if (it == 0 && fresh)\n        memcpy(ctx->inputs[%d].data, (const uint8_t *)aot_test_input_%d + (size_t)step * %zu, %zu);\n",
                i, i, bytes, bytes);
    else
      sb_printf(c, "      memcpy(ctx->inputs[%d].data, (const uint8_t *)aot_test_input_%d + (size_t)step * %zu, %zu);\n",
                i, i, bytes, bytes);
  }
  sb_puts(c, "      st = aot_model_run(ctx);\n"
             "      if (st != aot_status_ok) { AOT_PRINTF(\"FAIL run status %ld\\n\", (long)st); return 1; }\n");
  for (int k = 0; k < t->nfeedback; k++) {
    int oo = t->feedback[k][0], ii = t->feedback[k][1];
    sb_printf(c, "      memmove(ctx->inputs[%d].data, ctx->outputs[%d].data, ctx->inputs[%d].bytes);\n",
              ii, oo, ii);
  }
  sb_puts(c, "    }\n");
  if (t->sequence || 1) {
    for (int i = 0; i < g->nout; i++)
      sb_printf(c, "    ok &= aot_test_check(%d, &ctx->outputs[%d], aot_test_expected_%d, (size_t)step, &max_err, &exact, &total);\n",
                i, i, i);
  }
  for (int i = 0; i < g->nout; i++)
    sb_printf(c, "    hash = aot_test_hash(hash, ctx->outputs[%d].data, ctx->outputs[%d].bytes);\n", i, i);
  sb_puts(c, "  }\n");
  sb_printf(c, "  AOT_PRINTF(\"%%s model=%s outputs=%%lu max_abs_err=%%.6g exact=%%.2f%%%% hash=%%08lx\\n\",\n"
               "         ok ? \"PASS\" : \"FAIL\", (unsigned long)total, max_err,\n"
               "         total ? 100.0 * (double)exact / (double)total : 100.0, (unsigned long)hash);\n"
               "  return ok ? 0 : 1;\n}\n",
            "@MODULE_NAME@");
  free(fed);
}
