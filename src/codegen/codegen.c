/* codegen.c - the C emitter: model source, constants, API header, copied
 * runtime kernels, CMakeLists.txt and README.md of a module.
 *
 * Everything is generated with the runtime prefix "aot_"/"AOT_" and renamed to
 * the module prefix when written, exactly like the copied kernels. */
#include "codegen.h"

#include "../ops/emit.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

/* Model text (names, paths) is wrapped in CG_TEXT_BEGIN / CG_TEXT_END: the
 * prefix rename (codegen_rename_prefix) leaves it alone and drops the marks. */
#define CG_TEXT_BEGIN '\001'
#define CG_TEXT_END '\002'

/* A model-supplied name made safe for a C comment: printable ASCII, no
 * comment terminator, cut at the first ';' (converters join several names)
 * and at 96 characters. Returns a static buffer. */
static const char *comment_text(const char *name) {
  static char buf[2][128];
  static int which;
  char *b = buf[which ^= 1];
  size_t n = 0;
  b[n++] = CG_TEXT_BEGIN;
  for (const char *p = name ? name : ""; *p && *p != ';' && n < 97; p++) {
    unsigned char ch = (unsigned char)*p;
    if (ch < 32 || ch > 126) continue;
    if (ch == '/' && n > 0 && b[n - 1] == '*') b[n++] = ' ';
    if (ch == '*' && n > 0 && b[n - 1] == '/') b[n++] = ' ';
    b[n++] = (char)ch;
  }
  b[n++] = CG_TEXT_END;
  b[n] = 0;
  return b;
}

/* A model string as the body of a C99 string literal (printable ASCII; '"',
 * '\\' and '?' escaped, so no trigraph forms), at most 1024 characters of the
 * name and then "..." (C99 guarantees 4095 bytes per literal); wrapped for the
 * renamer. */
static void sb_literal_text(strbuf *b, const char *text) {
  size_t n = 0;
  sb_putc(b, CG_TEXT_BEGIN);
  for (const char *p = text ? text : ""; *p; p++) {
    if (n == 1024) {
      sb_puts(b, "...");
      break;
    }
    unsigned char ch = (unsigned char)*p;
    if (ch < 32 || ch > 126) continue;
    if (ch == '"' || ch == '\\' || ch == '?') sb_putc(b, '\\');
    sb_putc(b, (char)ch);
    n++;
  }
  sb_putc(b, CG_TEXT_END);
}

/* A model string as plain text (README, JSON): no control characters. */
static void sb_plain_text(strbuf *b, const char *text, int json) {
  sb_putc(b, CG_TEXT_BEGIN);
  for (const char *p = text ? text : ""; *p; p++) {
    if ((unsigned char)*p < 32) continue;
    if (json && (*p == '"' || *p == '\\')) sb_putc(b, '\\');
    sb_putc(b, *p);
  }
  sb_putc(b, CG_TEXT_END);
}

/* ---------------------------------------------------------------------- */

char *codegen_rename_prefix(const char *text, const char *prefix) {
  strbuf b = {0};
  size_t pl = strlen(prefix);
  char *up = xstrdup(prefix);
  for (size_t i = 0; i < pl; i++) up[i] = (char)toupper((unsigned char)up[i]);
  const char *p = text;
  while (*p) {
    if (*p == CG_TEXT_BEGIN) {
      /* model text: copied as is, marks dropped */
      for (p++; *p && *p != CG_TEXT_END; p++) sb_putc(&b, *p);
      if (*p) p++;
      continue;
    }
    int at_start = (p == text) || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
    if (at_start && strncmp(p, "aot_", 4) == 0) {
      sb_puts(&b, prefix);
      sb_putc(&b, '_');
      p += 4;
    } else if (at_start && strncmp(p, "AOT_", 4) == 0) {
      sb_puts(&b, up);
      sb_putc(&b, '_');
      p += 4;
    } else {
      sb_putc(&b, *p++);
    }
  }
  free(up);
  if (!b.s) return xstrdup("");
  return b.s;
}

static const char *g_module_name = "aot_model";

/* Replaces every @MODULE_NAME@ (the library name must not be renamed). */
static char *subst_name(char *text) {
  const char *key = "@MODULE_NAME@";
  if (!strstr(text, key)) return text;
  strbuf b = {0};
  for (const char *p = text; *p;) {
    if (strncmp(p, key, strlen(key)) == 0) {
      sb_puts(&b, g_module_name);
      p += strlen(key);
    } else {
      sb_putc(&b, *p++);
    }
  }
  free(text);
  return b.s;
}

static int write_text(const char *dir, const char *rel, const char *text, const char *prefix,
                      aotc_diag *d) {
  char *rrel = codegen_rename_prefix(rel, prefix);
  char *path = xasprintf("%s/%s", dir, rrel);
  free(rrel);
  char *out = subst_name(codegen_rename_prefix(text, prefix));
  int rc = write_file_all(path, out, strlen(out), d);
  free(out);
  free(path);
  return rc;
}

/* A short formatted string valid until the next call. */
static const char *xasprintf_tmp(const char *fmt, int v) {
  static char buf[64];
  snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

static const char *op_dtypes(const ir_graph *g, const ir_op *op, char *buf, size_t n) {
  size_t k = 0;
  buf[0] = 0;
  for (int i = 0; i < op->nin && k < n; i++) {
    if (op->in[i] < 0) continue;
    k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? "," : "", dtype_name(g->t[op->in[i]].dtype));
  }
  if (k < n) k += (size_t)snprintf(buf + k, n - k, " -> ");
  for (int i = 0; i < op->nout && k < n; i++) {
    if (op->out[i] < 0) continue;
    k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? "," : "", dtype_name(g->t[op->out[i]].dtype));
  }
  return buf;
}

static int is_control_op(int b);

static int check_graph(const ir_graph *g, strbuf *b, int bad) {
  for (int i = 0; i < g->nops; i++) {
    const ir_op *op = &g->ops[i];
    if (op->dead || is_control_op(op->builtin)) continue;
    const op_impl *impl = ops_find(g, op);
    char why[256] = "no implementation", dts[256];
    if (op->builtin == OP_CUSTOM && !impl)
      snprintf(why, sizeof why, "no kernel; register one under custom_operators in the config");
    if (impl && (!impl->check || impl->check(g, op, why, sizeof why) == 0)) continue;
    const char *name = op->builtin == OP_CUSTOM ? (op->custom ? op->custom : "CUSTOM")
                                                : litert_op_name(op->builtin);
    sb_printf(b, "%sop %d%s (%s%s, %s): %s", bad ? "; " : "", op->id,
              g->sg ? xasprintf_tmp(" of subgraph %d", g->sg) : "",
              op->builtin == OP_CUSTOM ? "CUSTOM " : "", name, op_dtypes(g, op, dts, sizeof dts), why);
    bad++;
  }
  return bad;
}

int codegen_check_supported(const ir_graph *g, aotc_diag *d) {
  if (g->nin == 0 || g->nout == 0) {
    diag_unsupported(d, "the model has %d inputs and %d outputs; a module needs at least one of each (add an input, or an output that returns a result)",
                     g->nin, g->nout);
    return 1;
  }
  strbuf b = {0};
  int bad = check_graph(g, &b, 0);
  for (int i = 1; i < g->nsubgraphs; i++)
    if (g->subgraphs[i]) bad = check_graph(g->subgraphs[i], &b, bad);
  if (bad)
    diag_unsupported(d, "unsupported operator%s: %s; `aotc operators` (docs/operators.md) lists the dtypes and limits each operator supports",
                     bad > 1 ? "s" : "", b.s);
  sb_free(&b);
  return bad;
}

size_t codegen_const_bytes(const ir_graph *g) {
  size_t n = 0;
  for (int gi = 0; gi < (g->nsubgraphs > 0 ? g->nsubgraphs : 1); gi++) {
    const ir_graph *cg = gi == 0 ? g : g->subgraphs[gi];
    if (!cg) continue;
    for (int i = 0; i < cg->nt; i++)
      if (cg->t[i].role == ROLE_CONST && cg->t[i].used && emit_const_owner(cg, i) == i)
        n += cg->t[i].data_bytes;
  }
  return n;
}

static void lower(char *s) {
  for (; *s; s++) *s = (char)tolower((unsigned char)*s);
}

static const char *status_enum =
    "/* Status codes returned by every function of the module. */\n"
    "typedef enum {\n"
    "  AOT_STATUS_OK = 0,\n"
    "  AOT_STATUS_NULL_CONTEXT = 1,      /* ctx is NULL */\n"
    "  AOT_STATUS_NOT_INITIALIZED = 2,   /* run before a successful init */\n"
    "  AOT_STATUS_KERNEL_FAILURE = 3,    /* a kernel reported an error (see callback) */\n"
    "  AOT_STATUS_NULL_BUFFER = 4,       /* bind_arenas: a required buffer is NULL */\n"
    "  AOT_STATUS_BUFFER_TOO_SMALL = 5,  /* bind_arenas: a buffer is smaller than needed */\n"
    "  AOT_STATUS_MISALIGNED_BUFFER = 6  /* bind_arenas: a buffer is not 16-byte aligned */\n"
    "} aot_status_t;\n\n";

static void gen_header(const ir_graph *g, const cg_options *o, strbuf *h) {
  int maxrank = 1;
  for (int i = 0; i < g->nin; i++) if (g->t[g->inputs[i]].rank > maxrank) maxrank = g->t[g->inputs[i]].rank;
  for (int i = 0; i < g->nout; i++) if (g->t[g->outputs[i]].rank > maxrank) maxrank = g->t[g->outputs[i]].rank;
  sb_printf(h,
            "/* aot_model.h - generated by aotc from %s. Do not edit.\n"
            " *\n"
            " * Usage: aot_model_context_t ctx = {0}; aot_model_init(&ctx);\n"
            " * then for each inference write ctx.inputs[i].data, call aot_model_run(&ctx)\n"
            " * and read ctx.outputs[i].data. Inputs live in the scratch arena and are\n"
            " * overwritten during a run: write them before every run. */\n"
            "#ifndef AOT_MODEL_H\n#define AOT_MODEL_H\n\n"
            "#include <stddef.h>\n#include <stdint.h>\n\n"
            "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n",
            comment_text(o->model_path ? o->model_path : "a model"));
  sb_printf(h, "#define AOT_NUM_INPUTS %d\n#define AOT_NUM_OUTPUTS %d\n#define AOT_MAX_RANK %d\n",
            g->nin, g->nout, maxrank);
  sb_printf(h, "/* Bytes of the scratch arena (activations, reused between ops). */\n"
               "#define AOT_SCRATCH_ARENA_BYTES %zu\n"
               "/* Bytes of the persistent arena (state kept across runs). */\n"
               "#define AOT_PERSISTENT_ARENA_BYTES %zu\n"
               "/* Required alignment of both arenas. */\n#define AOT_ARENA_ALIGN 16\n\n",
            g->scratch_arena_bytes, g->persistent_arena_bytes);
  sb_puts(h, status_enum);
  sb_puts(h, "/* Element types (values of the .tflite TensorType enum). */\n"
             "typedef enum {\n  AOT_DTYPE_FLOAT32 = 0,\n  AOT_DTYPE_FLOAT16 = 1,\n"
             "  AOT_DTYPE_INT32 = 2,\n  AOT_DTYPE_UINT8 = 3,\n  AOT_DTYPE_INT64 = 4,\n"
             "  AOT_DTYPE_BOOL = 6,\n  AOT_DTYPE_INT16 = 7,\n  AOT_DTYPE_INT8 = 9\n} aot_dtype_t;\n\n");
  sb_puts(h, "/* A model input or output. */\ntypedef struct {\n"
             "  void *data;             /* element storage */\n"
             "  size_t bytes;           /* size of data in bytes */\n"
             "  size_t count;           /* number of elements */\n"
             "  aot_dtype_t dtype;\n  int32_t rank;\n  int32_t shape[AOT_MAX_RANK];\n"
             "  float scale;            /* quantization scale (0 if not quantized) */\n"
             "  int32_t zero_point;\n  const char *name;       /* tensor name in the model */\n"
             "} aot_tensor_t;\n\n");
  sb_puts(h, "typedef enum { AOT_OP_STARTED = 0, AOT_OP_FINISHED = 1 } aot_op_event_t;\n\n"
             "/* Optional per-operator callback (e.g. for profiling); op_id is the\n"
             " * operator index in the .tflite model, as Netron shows it. */\n"
             "typedef void (*aot_op_callback_t)(int32_t op_id, aot_op_event_t event, int32_t status,\n"
             "                                  void *user_data);\n\n");
  sb_puts(h, "/* One instance of the model. Zero it before use. Each context owns (points\n"
             " * to) its own scratch and persistent arenas: bind them with\n"
             " * aot_model_bind_arenas() for independent instances, or let\n"
             " * aot_model_init() use the module's static arenas. */\n"
             "typedef struct {\n"
             "  aot_tensor_t inputs[AOT_NUM_INPUTS];\n"
             "  aot_tensor_t outputs[AOT_NUM_OUTPUTS];\n"
             "  aot_op_callback_t callback;  /* may be NULL */\n"
             "  void *user_data;             /* passed to callback */\n"
             "  /* private */\n"
             "  uint8_t *scratch;\n  uint8_t *persistent;\n  uint32_t bound;\n  uint32_t initialized;\n"
             "  uint32_t once_done;\n"
             "} aot_model_context_t;\n\n");
  sb_puts(h, "/* Supplies the arenas of ctx (each AOT_ARENA_ALIGN aligned, at least\n"
             " * AOT_SCRATCH_ARENA_BYTES / AOT_PERSISTENT_ARENA_BYTES long; persistent may\n"
             " * be NULL when AOT_PERSISTENT_ARENA_BYTES is 0). Call before aot_model_init. */\n"
             "int32_t aot_model_bind_arenas(aot_model_context_t *ctx, void *scratch, size_t scratch_bytes,\n"
             "                              void *persistent, size_t persistent_bytes);\n"
             "/* Prepares ctx: fills inputs/outputs, zeroes the persistent state (resets the\n"
             " * model). Uses the module's static arenas unless arenas were bound. */\n"
             "int32_t aot_model_init(aot_model_context_t *ctx);\n"
             "/* Runs one inference. */\n"
             "int32_t aot_model_run(aot_model_context_t *ctx);\n\n");
  sb_puts(h, "#ifdef __cplusplus\n}\n#endif\n\n#endif\n");
}

static void gen_tensor_info(const ir_graph *g, strbuf *b, const char *arr, int i, int t) {
  const ir_tensor *x = &g->t[t];
  const char *base = x->arena == 1 ? "P" : "S";
  if (x->role == ROLE_CONST) {
    sb_printf(b, "  ctx->%s[%d].data = (void *)aot_c_%s;\n", arr, i, g->t[emit_const_owner(g, t)].cname);
  } else {
    sb_printf(b, "  ctx->%s[%d].data = (void *)(%s + %zu);\n", arr, i, base, x->offset);
  }
  sb_printf(b, "  ctx->%s[%d].bytes = %zu;\n  ctx->%s[%d].count = %zu;\n", arr, i, ir_bytes(x), arr,
            i, ir_numel(x));
  sb_printf(b, "  ctx->%s[%d].dtype = (aot_dtype_t)%d;\n  ctx->%s[%d].rank = %d;\n", arr, i,
            x->dtype, arr, i, x->rank);
  for (int k = 0; k < x->rank; k++) sb_printf(b, "  ctx->%s[%d].shape[%d] = %d;\n", arr, i, k, x->shape[k]);
  sb_printf(b, "  ctx->%s[%d].scale = ", arr, i);
  emit_fmt_float(b, x->nq ? x->scale[0] : 0.0f);
  sb_printf(b, ";\n  ctx->%s[%d].zero_point = %d;\n", arr, i, x->nq ? x->zero_point[0] : 0);
  sb_printf(b, "  ctx->%s[%d].name = \"", arr, i);
  sb_literal_text(b, x->name);
  sb_puts(b, "\";\n");
}

static int copy_runtime_file(const cg_options *o, const char *rel, const char *dir, aotc_diag *d) {
  /* an absolute path is a user kernel (custom_operators) */
  char *src = rel[0] == '/' ? xstrdup(rel) : xasprintf("%s/%s", o->runtime_dir, rel);
  uint8_t *data;
  size_t len;
  if (read_file_all(src, &data, &len, d) != 0) {
    free(src);
    return -1;
  }
  free(src);
  char *text = xstrndup((const char *)data, len);
  free(data);
  /* flatten includes: the module keeps every runtime file in src/ */
  strbuf b = {0};
  for (char *p = text; *p;) {
    if (strncmp(p, "#include \"", 10) == 0) {
      sb_puts(&b, "#include \"");
      p += 10;
      char *q = strchr(p, '"');
      if (!q) break;
      char *slash = NULL;
      for (char *s = p; s < q; s++)
        if (*s == '/') slash = s;
      char *start = slash ? slash + 1 : p;
      while (start < q) sb_putc(&b, *start++);
      p = q;
    }
    sb_putc(&b, *p++);
  }
  const char *base = strrchr(rel, '/');
  base = base ? base + 1 : rel;
  char *outname = xasprintf("src/%s", base);
  int rc = write_text(dir, outname, b.s ? b.s : "", o->prefix, d);
  free(outname);
  sb_free(&b);
  free(text);
  return rc;
}

static int cmp_str(const void *a, const void *b);

/* Every runtime header (runtime/NAME.h) goes into the module: they are small and
 * kernels include each other's headers. Sorted for deterministic output. */
static int copy_runtime_headers(const cg_options *o, const char *dir, aotc_diag *d) {
  DIR *dp = opendir(o->runtime_dir);
  if (!dp) return diag_error(d, "cannot read the runtime directory '%s'", o->runtime_dir);
  char **names = NULL;
  int n = 0;
  struct dirent *de;
  while ((de = readdir(dp)) != NULL) {
    size_t l = strlen(de->d_name);
    if (l > 2 && strcmp(de->d_name + l - 2, ".h") == 0) {
      names = xrealloc(names, (size_t)(n + 1) * sizeof(char *));
      names[n++] = xstrdup(de->d_name);
    }
  }
  closedir(dp);
  qsort(names, (size_t)n, sizeof(char *), cmp_str);
  int rc = 0;
  for (int i = 0; i < n; i++) {
    if (rc == 0 && copy_runtime_file(o, names[i], dir, d) != 0) rc = -1;
    free(names[i]);
  }
  free(names);
  return rc;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void gen_test_case(const ir_graph *g, const cg_options *o, strbuf *c, strbuf *h) {
  const cg_test *t = &o->test;
  sb_puts(h, "/* aot_test_case.h - generated by aotc. */\n#ifndef AOT_TEST_CASE_H\n"
             "#define AOT_TEST_CASE_H\n\n#include <stdint.h>\n\n"
             "/* Runs the model on the stored stimulus and checks the outputs; prints one\n"
             " * PASS/FAIL line. Returns 0 on pass. */\nint32_t aot_test_case_run(void);\n\n#endif\n");
  sb_printf(c, "/* aot_test_case.c - generated by aotc: stimulus and expected outputs. */\n"
               "#include \"aot_test_case.h\"\n\n#include <math.h>\n#include <stdio.h>\n"
               "#include <string.h>\n\n#include \"aot_model.h\"\n\n");
  int steps = t->sequence && g->nin > 0 ? t->inputs[0].steps : 1;
  if (steps < 1) steps = 1;
  for (int i = 0; i < g->nin; i++) {
    const cg_array *a = &t->inputs[i];
    size_t n = a->nbytes / (dtype_size(a->dtype) ? dtype_size(a->dtype) : 1);
    sb_printf(c, "static const %s aot_test_input_%d[%zu] = {\n", dtype_ctype(a->dtype), i, n ? n : 1);
    emit_fmt_values(c, a->dtype, a->data, n);
    sb_puts(c, "};\n");
  }
  for (int i = 0; i < g->nout; i++) {
    const cg_array *a = &t->outputs[i];
    size_t n = a->nbytes / (dtype_size(a->dtype) ? dtype_size(a->dtype) : 1);
    sb_printf(c, "static const %s aot_test_expected_%d[%zu] = {\n", dtype_ctype(a->dtype), i, n ? n : 1);
    emit_fmt_values(c, a->dtype, a->data, n);
    sb_puts(c, "};\n");
  }
  int *fed = xcalloc((size_t)(g->nin + 1), sizeof(int));
  for (int k = 0; k < t->nfeedback; k++) fed[t->feedback[k][1]] = 1;
  sb_printf(c, "\nstatic aot_model_context_t aot_test_ctx;\n\n"
               "static double aot_test_value(int dtype, const void *p, size_t i) {\n"
               "  switch (dtype) {\n"
               "    case AOT_DTYPE_FLOAT32: return (double)((const float *)p)[i];\n"
               "    case AOT_DTYPE_INT8: return (double)((const int8_t *)p)[i];\n"
               "    case AOT_DTYPE_UINT8: case AOT_DTYPE_BOOL: return (double)((const uint8_t *)p)[i];\n"
               "    case AOT_DTYPE_INT16: return (double)((const int16_t *)p)[i];\n"
               "    case AOT_DTYPE_INT32: return (double)((const int32_t *)p)[i];\n"
               "    case AOT_DTYPE_INT64: return (double)((const int64_t *)p)[i];\n"
               "    default: return 0.0;\n  }\n}\n\n");
  sb_puts(c, "/* FNV-1a over the output bytes: equal hashes mean bit-identical outputs. */\n"
             "static uint32_t aot_test_hash(uint32_t h, const void *p, size_t n) {\n"
             "  const unsigned char *b = (const unsigned char *)p;\n  size_t i;\n"
             "  for (i = 0; i < n; i++) { h ^= b[i]; h *= 16777619u; }\n  return h;\n}\n\n");
  sb_printf(c,
            "/* Compares one output; updates the worst error. Returns 1 if within tolerance. */\n"
            "static int aot_test_check(int o, const aot_tensor_t *got, const void *exp, size_t step,\n"
            "                          double *max_err, size_t *exact, size_t *total) {\n"
            "  int is_float = got->dtype == AOT_DTYPE_FLOAT32;\n"
            "  const double tol = is_float ? %.17g : %.17g;\n"
            "  size_t i, worst = 0;\n  double worst_excess = -1.0;\n"
            "  int ok = 1;\n"
            "  for (i = 0; i < got->count; i++) {\n"
            "    double e = aot_test_value(got->dtype, exp, step * got->count + i);\n"
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
            "  *total += got->count;\n"
            "  if (!ok)\n"
            "    printf(\"mismatch: step %%lu output %%d index %%lu expected %%.9g got %%.9g\\n\",\n"
            "           (unsigned long)step, o, (unsigned long)worst,\n"
            "           aot_test_value(got->dtype, exp, step * got->count + worst),\n"
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
             "  if (st != AOT_STATUS_OK) { printf(\"FAIL init status %ld\\n\", (long)st); return 1; }\n");
  sb_puts(c, "  for (step = 0; step < steps; step++) {\n    int fresh = step == 0;  /* state inputs are seeded */\n    (void)fresh;\n");
  for (int k = 0; k < t->nresets; k++)
    sb_printf(c, "    if (step == %d) {\n      st = aot_model_init(ctx);\n      if (st != AOT_STATUS_OK) return 1;\n      fresh = 1;\n    }\n",
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
             "      if (st != AOT_STATUS_OK) { printf(\"FAIL run status %ld\\n\", (long)st); return 1; }\n");
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
  sb_printf(c, "  printf(\"%%s model=%s outputs=%%lu max_abs_err=%%.6g exact=%%.2f%%%% hash=%%08lx\\n\",\n"
               "         ok ? \"PASS\" : \"FAIL\", (unsigned long)total, max_err,\n"
               "         total ? 100.0 * (double)exact / (double)total : 100.0, (unsigned long)hash);\n"
               "  return ok ? 0 : 1;\n}\n",
            "@MODULE_NAME@");
  free(fed);
}

static void gen_readme(const ir_graph *g, const cg_options *o, strbuf *r, size_t const_bytes) {
  sb_printf(r, "# %s\n\nGenerated by aotc from `%s`. Do not edit; regenerate instead.\n\n", "@MODULE_NAME@",
            o->model_path ? o->model_path : "?");
  int nops = 0;
  for (int i = 0; i < g->nops; i++) nops += !g->ops[i].dead;
  sb_printf(r, "## Summary\n\n| item | value |\n|---|---|\n| operators (after transforms) | %d |\n"
               "| scratch arena | %zu bytes |\n| scratch lower bound | %zu bytes |\n"
               "| persistent arena | %zu bytes |\n| constants (flash) | %zu bytes |\n"
               "| symbol prefix | `%s_` |\n",
            nops, g->scratch_arena_bytes, g->scratch_lower_bound, g->persistent_arena_bytes,
            const_bytes, o->prefix);
  if (o->fused_gru_loops) sb_printf(r, "| fused GRU loops | %d |\n", o->fused_gru_loops);
  sb_puts(r, "\n## Inputs and outputs\n\n| kind | index | name | dtype | shape | scale | zero point |\n"
             "|---|---|---|---|---|---|---|\n");
  for (int pass = 0; pass < 2; pass++) {
    int n = pass ? g->nout : g->nin;
    for (int i = 0; i < n; i++) {
      const ir_tensor *t = &g->t[pass ? g->outputs[i] : g->inputs[i]];
      sb_printf(r, "| %s | %d | `", pass ? "output" : "input", i);
      sb_plain_text(r, t->name, 0);
      sb_printf(r, "` | %s | [", dtype_name(t->dtype));
      for (int k = 0; k < t->rank; k++) sb_printf(r, "%s%d", k ? ", " : "", t->shape[k]);
      sb_printf(r, "] | %.9g | %d |\n", t->nq ? (double)t->scale[0] : 0.0, t->nq ? t->zero_point[0] : 0);
    }
  }
  sb_puts(r, "\n## Arenas\n\n| arena | bytes | note |\n|---|---|---|\n");
  sb_printf(r, "| scratch | %zu | activations, inputs and outputs; lower bound %zu |\n",
            g->scratch_arena_bytes, g->scratch_lower_bound);
  sb_printf(r, "| persistent | %zu | state kept across runs, zeroed by init |\n",
            g->persistent_arena_bytes);
  sb_printf(r, "| constants | %zu | flash, `const` arrays |\n", const_bytes);
  sb_puts(r, "\n## Operators\n\n| id | operator | fused act | inputs | outputs | scratch |\n"
             "|---|---|---|---|---|---|\n");
  for (int i = 0; i < g->nops; i++) {
    const ir_op *op = &g->ops[i];
    if (op->dead) continue;
    char dts[256];
    sb_printf(r, "| %d | %s | %d | ", op->id,
              op->builtin == OP_CUSTOM ? (op->custom ? op->custom : "CUSTOM") : litert_op_name(op->builtin),
              op->opts.fused_act);
    op_dtypes(g, op, dts, sizeof dts);
    char *arrow = strstr(dts, " -> ");
    if (arrow) {
      *arrow = 0;
      sb_printf(r, "%s | %s | %zu |\n", dts, arrow + 4, op->scratch_bytes);
    } else {
      sb_printf(r, "%s | | %zu |\n", dts, op->scratch_bytes);
    }
  }
  sb_printf(r, "\n## Use\n\n```c\n#include \"%s_model.h\"\n\nstatic %s_model_context_t ctx;\n\n"
               "int infer(void) {\n  if (%s_model_init(&ctx) != 0) return -1;\n"
               "  /* write ctx.inputs[i].data (ctx.inputs[i].bytes bytes) */\n"
               "  if (%s_model_run(&ctx) != 0) return -1;\n  /* read ctx.outputs[i].data */\n"
               "  return 0;\n}\n```\n",
            o->prefix, o->prefix, o->prefix, o->prefix);
}

static void gen_residency(const ir_graph *g, strbuf *j, size_t const_bytes) {
  sb_printf(j, "{\n  \"arenas\": [\n    {\"name\": \"scratch\", \"role\": \"scratch\", \"bytes\": %zu},\n"
               "    {\"name\": \"persistent\", \"role\": \"persistent\", \"bytes\": %zu},\n"
               "    {\"name\": \"constants\", \"role\": \"constant\", \"bytes\": %zu}\n  ],\n  \"tensors\": [",
            g->scratch_arena_bytes, g->persistent_arena_bytes, const_bytes);
  int first = 1;
  size_t coff = 0;
  for (int i = 0; i < g->nt; i++) {
    const ir_tensor *t = &g->t[i];
    if (!t->used) continue;
    const char *arena = t->role == ROLE_CONST ? "constants" : t->arena == 1 ? "persistent" : "scratch";
    size_t off = t->offset;
    if (t->role == ROLE_CONST) {
      if (emit_const_owner(g, i) != i) continue;
      off = coff;
      coff += t->data_bytes;
    }
    sb_printf(j, "%s\n    {\"id\": %d, \"name\": \"", first ? "" : ",", t->src_index);
    sb_plain_text(j, t->name, 1);
    sb_printf(j, "\", \"role\": \"%s\", \"arena\": \"%s\", \"offset\": %zu, \"size\": %zu}",
              ir_role_name(t->role), arena, off, t->role == ROLE_CONST ? t->data_bytes : ir_bytes(t));
    first = 0;
  }
  sb_puts(j, "\n  ]\n}\n");
}

/* ---- control flow and resource variables (emitted by codegen itself) ---- */

static int is_control_op(int b) {
  return b == OP_WHILE || b == OP_IF || b == OP_CALL_ONCE || b == OP_VAR_HANDLE ||
         b == OP_READ_VARIABLE || b == OP_ASSIGN_VARIABLE;
}

static const ir_graph *callee(const emit_ctx *e, int sg) {
  return (sg > 0 && sg < e->main->nsubgraphs) ? e->main->subgraphs[sg] : NULL;
}

/* memcpy/memmove of tensor a of graph ga into tensor b of graph gb. */
static void emit_copy(emit_ctx *e, const ir_graph *gb, int b, const ir_graph *ga, int a,
                      const char *fn) {
  if (a < 0 || b < 0) {  /* refused by ir_check_program; never a tensor[-1] */
    e->failed = 1;
    return;
  }
  const ir_graph *save = e->g;
  e->g = ga;
  const char *src = emit_ptr(e, a);
  e->g = gb;
  const char *dst = emit_ptr(e, b);
  e->g = save;
  size_t n = ir_bytes(&gb->t[b]);
  if (ir_bytes(&ga->t[a]) < n) n = ir_bytes(&ga->t[a]);
  if (strcmp(src, dst) != 0) sb_printf(&e->body, "  %s(%s, %s, %zu);\n", fn, dst, src, n);
}

static void emit_subgraph_call(emit_ctx *e, int sg) {
  sb_printf(&e->body, "  st = aot_subgraph_%d(ctx);\n  if (st != 0) return st;\n", sg);
}

static int emit_control(emit_ctx *e, const ir_graph *g, const ir_op *op, aotc_diag *d) {
  switch (op->builtin) {
    case OP_VAR_HANDLE:
      sb_puts(&e->body, "  /* resource handle: resolved at compile time */\n");
      return 0;
    case OP_READ_VARIABLE:
    case OP_ASSIGN_VARIABLE: {
      int v = ir_var_slot(e->main, g, op);
      if (v < 0) return diag_error(d, "subgraph %d op %d (%s): its resource variable has no VAR_HANDLE in the same subgraph; re-export the model", g->sg, op->id, litert_op_name(op->builtin));
      const struct ir_var *var = &e->main->vars[v];
      int t = op->builtin == OP_READ_VARIABLE ? op->out[0] : op->in[1];
      size_t n = ir_bytes(&g->t[t]);
      const char *p = emit_ptr(e, t);
      if (op->builtin == OP_READ_VARIABLE)
        sb_printf(&e->body, "  memcpy(%s, P + %zu, %zu);  /* read variable %s */\n", p, var->offset, n, comment_text(var->key));
      else
        sb_printf(&e->body, "  memcpy(P + %zu, %s, %zu);  /* assign variable %s */\n", var->offset, p, n, comment_text(var->key));
      return 0;
    }
    case OP_CALL_ONCE: {
      int sg = op->opts.init_subgraph;
      if (!callee(e, sg)) return diag_error(d, "subgraph %d op %d (CALL_ONCE): init subgraph %d was not built; the model is malformed, re-export it", g->sg, op->id, sg);
      sb_printf(&e->body, "  if (ctx->once_done == 0) {\n    ctx->once_done = 1;\n");
      sb_printf(&e->body, "    st = aot_subgraph_%d(ctx);\n    if (st != 0) return st;\n  }\n", sg);
      return 0;
    }
    case OP_WHILE: {
      const ir_graph *cg = callee(e, op->opts.cond_subgraph), *bg = callee(e, op->opts.body_subgraph);
      if (!cg || !bg) return diag_error(d, "subgraph %d op %d (WHILE): cond subgraph %d or body subgraph %d was not built; the model is malformed, re-export it", g->sg, op->id, op->opts.cond_subgraph, op->opts.body_subgraph);
      if (bg->nin != op->nin || cg->nin != op->nin || bg->nout != op->nin || cg->nout < 1 ||
          op->nout != op->nin)
        return diag_unsupported(d, "subgraph %d op %d (WHILE) has %d inputs and %d outputs, cond subgraph %d takes %d inputs and gives %d outputs, body subgraph %d takes %d and gives %d; they must all match the loop variables, re-export the model",
                                g->sg, op->id, op->nin, op->nout, op->opts.cond_subgraph, cg->nin, cg->nout, op->opts.body_subgraph, bg->nin, bg->nout);
      for (int i = 0; i < op->nin; i++) emit_copy(e, bg, bg->inputs[i], g, op->in[i], "memcpy");
      sb_puts(&e->body, "  for (;;) {\n");
      for (int i = 0; i < op->nin; i++) emit_copy(e, cg, cg->inputs[i], bg, bg->inputs[i], "memcpy");
      emit_subgraph_call(e, op->opts.cond_subgraph);
      const ir_graph *save = e->g;
      e->g = cg;
      const char *c = emit_ptr(e, cg->outputs[0]);
      e->g = save;
      sb_printf(&e->body, "  if (!(%s)[0]) break;\n", c);
      emit_subgraph_call(e, op->opts.body_subgraph);
      for (int i = 0; i < op->nin; i++) emit_copy(e, bg, bg->inputs[i], bg, bg->outputs[i], "memmove");
      sb_puts(&e->body, "  }\n");
      for (int i = 0; i < op->nout; i++) emit_copy(e, g, op->out[i], bg, bg->inputs[i], "memcpy");
      return 0;
    }
    case OP_IF: {
      const ir_graph *tg = callee(e, op->opts.then_subgraph), *eg = callee(e, op->opts.else_subgraph);
      if (!tg || !eg || op->nin < 1) return diag_error(d, "subgraph %d op %d (IF): %s; the model is malformed, re-export it", g->sg, op->id, op->nin < 1 ? "it has no condition input" : "a branch subgraph was not built");
      sb_printf(&e->body, "  if ((%s)[0]) {\n", emit_ptr(e, op->in[0]));
      for (int br = 0; br < 2; br++) {
        const ir_graph *bg = br ? eg : tg;
        if (bg->nin != op->nin - 1 || bg->nout != op->nout)
          return diag_unsupported(d, "subgraph %d op %d (IF): branch subgraph %d takes %d inputs and gives %d outputs, the op passes %d and expects %d; re-export the model",
                                  g->sg, op->id, br ? op->opts.else_subgraph : op->opts.then_subgraph, bg->nin, bg->nout, op->nin - 1, op->nout);
        for (int i = 0; i < bg->nin; i++) emit_copy(e, bg, bg->inputs[i], g, op->in[i + 1], "memcpy");
        emit_subgraph_call(e, br ? op->opts.else_subgraph : op->opts.then_subgraph);
        for (int i = 0; i < bg->nout; i++) emit_copy(e, g, op->out[i], bg, bg->outputs[i], "memcpy");
        sb_puts(&e->body, br ? "  }\n" : "  } else {\n");
      }
      return 0;
    }
  }
  return -1;
}

/* Emits the operators of one graph into e->body. */
static int emit_graph_ops(emit_ctx *e, const ir_graph *g, aotc_diag *d) {
  e->g = g;
  for (int i = 0; i < g->nops; i++) {
    const ir_op *op = &g->ops[i];
    if (op->dead) continue;
    e->op = op;
    e->opindex = i;
    char lname[40];
    snprintf(lname, sizeof lname, "%s",
             op->builtin == OP_CUSTOM ? (op->custom ? op->custom : "custom") : litert_op_name(op->builtin));
    lower(lname);
    c_identifier(lname, lname, 32);
    if (g->sg > 0) snprintf(e->opname, sizeof e->opname, "sg%d_op%d_%s", g->sg, op->id, lname);
    else snprintf(e->opname, sizeof e->opname, "op%d_%s", op->id, lname);
    const ir_tensor *o0 = op->nout > 0 && op->out[0] >= 0 ? &g->t[op->out[0]] : NULL;
    char dts[256];
    sb_printf(&e->body, "\n  /* op %d: %s (%s)%s%s */\n", op->id,
              op->builtin == OP_CUSTOM ? comment_text(op->custom ? op->custom : "CUSTOM") : litert_op_name(op->builtin),
              op_dtypes(g, op, dts, sizeof dts), o0 && o0->name[0] ? " -> " : "",
              o0 ? comment_text(o0->name) : "");
    long uid = emit_op_uid(g, op);
    sb_printf(&e->body, "  AOT_OP_START(%ld);\n", uid);
    int r;
    if (is_control_op(op->builtin)) {
      r = emit_control(e, g, op, d);
      e->g = g;
    } else {
      const op_impl *impl = ops_find(g, op);
      r = impl->emit(e, g, op);
      if (r != 0) diag_error(d, "subgraph %d op %d (%s%s%s): code generation failed (internal error; disable the transforms with --transforms.<name> false to work around it and report it)",
                             g->sg, op->id, litert_op_name(op->builtin), op->custom ? " " : "",
                             op->custom ? op->custom : "");
    }
    if (r != 0 || e->failed) {
      if (e->failed) diag_error(d, "subgraph %d op %d (%s): a tensor it uses has no storage in the arenas (internal error of the memory plan; report it)",
                                g->sg, op->id, litert_op_name(op->builtin));
      return -1;
    }
    sb_printf(&e->body, "  AOT_OP_DONE(%ld);\n", uid);
  }
  return 0;
}

int codegen_module(const ir_graph *g, const cg_options *o, const char *dir, aotc_diag *d) {
  if (codegen_check_supported(g, d) != 0) return -1;
  g_module_name = o->name;
  emit_ctx e = {0};
  e.g = g;
  e.main = g;
  int nsg = g->nsubgraphs > 0 ? g->nsubgraphs : 1;
  e.const_used = xcalloc((size_t)nsg, sizeof(char *));
  e.const_used[0] = xcalloc((size_t)(g->nt + 1), 1);
  for (int i = 1; i < g->nsubgraphs; i++)
    if (g->subgraphs[i]) e.const_used[i] = xcalloc((size_t)(g->subgraphs[i]->nt + 1), 1);
  int rc = -1;
  strbuf model = {0}, consts = {0}, consts_h = {0}, hdr = {0}, cm = {0}, rd = {0}, funcs = {0};
  /* called subgraphs become static functions */
  for (int i = 1; i < g->nsubgraphs; i++) {
    const ir_graph *sg = g->subgraphs[i];
    if (!sg) continue;
    strbuf saved = e.body;
    memset(&e.body, 0, sizeof e.body);
    if (emit_graph_ops(&e, sg, d) != 0) {
      sb_free(&e.body);
      e.body = saved;
      goto out;
    }
    sb_printf(&funcs, "/* subgraph %d '%s' */\nstatic int32_t aot_subgraph_%d(aot_model_context_t *ctx) {\n"
                      "  uint8_t *S = ctx->scratch;\n  uint8_t *P = ctx->persistent;\n  int32_t st = 0;\n"
                      "  (void)S;\n  (void)P;\n  (void)st;\n%s\n  return AOT_STATUS_OK;\n}\n\n",
              i, comment_text(g->src->subgraphs[i].name), i, e.body.s ? e.body.s : "");
    sb_free(&e.body);
    e.body = saved;
  }
  /* operators of the main graph */
  if (emit_graph_ops(&e, g, d) != 0) goto out;
  e.g = g;
  /* inputs/outputs must have storage */
  for (int pass = 0; pass < 2; pass++) {
    int n = pass ? g->nout : g->nin;
    for (int i = 0; i < n; i++) {
      int t = pass ? g->outputs[i] : g->inputs[i];
      if (g->t[t].role == ROLE_CONST) e.const_used[0][emit_const_owner(g, t)] = 1;
      else if (g->t[t].arena < 0) {
        diag_error(d, "subgraph 0: graph %s %d, tensor %d '%s', has no storage in the arenas (internal error of the memory plan; report it)",
                   pass ? "output" : "input", i, t, g->t[t].name);
        goto out;
      }
    }
  }
  /* constants */
  size_t const_bytes = 0;
  sb_printf(&consts, "/* aot_constants.c - generated by aotc: constant tensors of %s (flash). */\n"
                     "#include <math.h>\n#include <stdint.h>\n\n#include \"aot_constants.h\"\n",
            comment_text(o->model_path ? o->model_path : "the model"));
  sb_puts(&consts_h, "/* aot_constants.h - generated by aotc. */\n#ifndef AOT_CONSTANTS_H\n"
                     "#define AOT_CONSTANTS_H\n\n#include <stdint.h>\n\n");
  for (int gi = 0; gi < nsg; gi++) {
    const ir_graph *cg = gi == 0 ? g : g->subgraphs[gi];
    if (!cg) continue;
    for (int t = 0; t < cg->nt; t++) {
      if (!e.const_used[gi][t]) continue;
      const ir_tensor *x = &cg->t[t];
      const char *ct = dtype_ctype(x->dtype);
      size_t es = dtype_size(x->dtype);
      if (!ct || !es) {
        diag_unsupported(d, "subgraph %d: constant tensor %d '%s' has dtype %s, which aotc cannot store in a C array; convert the model with plain numeric constants",
                         gi, t, x->name, dtype_name(x->dtype));
        goto out;
      }
      size_t n = x->data_bytes / es;
      const_bytes += x->data_bytes;
      sb_printf(&consts, "\n/* %s: %s [", comment_text(x->name), dtype_name(x->dtype));
      for (int k = 0; k < x->rank; k++) sb_printf(&consts, "%s%d", k ? ", " : "", x->shape[k]);
      sb_printf(&consts, "] */\nconst %s aot_c_%s[%zu] = {\n", ct, x->cname, n ? n : 1);
      emit_fmt_values(&consts, x->dtype, x->data, n);
      sb_puts(&consts, "};\n");
      sb_printf(&consts_h, "extern const %s aot_c_%s[%zu];\n", ct, x->cname, n ? n : 1);
    }
  }
  sb_puts(&consts_h, "\n#endif\n");
  /* model.c */
  sb_printf(&model, "/* aot_model.c - generated by aotc from %s. Do not edit. */\n"
                    "#include \"aot_model.h\"\n\n#include <math.h>\n#include <string.h>\n\n"
                    "#include \"aot_constants.h\"\n#include \"aot_kernels.h\"\n\n",
            comment_text(o->model_path ? o->model_path : "a model"));
  sb_puts(&model, "#define AOT_INIT_MAGIC 0x414f5449u\n#define AOT_BOUND_MAGIC 0x414f5442u\n\n"
                  "#if defined(__GNUC__) || defined(__clang__)\n#define AOT_ALIGNED __attribute__((aligned(16)))\n"
                  "#else\n#define AOT_ALIGNED\n#endif\n\n");
  sb_printf(&model, "static uint8_t aot_scratch_arena[%zu] AOT_ALIGNED;\n"
                    "static uint8_t aot_persistent_arena[%zu] AOT_ALIGNED;\n\n",
            g->scratch_arena_bytes ? g->scratch_arena_bytes : 16,
            g->persistent_arena_bytes ? g->persistent_arena_bytes : 16);
  sb_puts(&model,
          "#define AOT_OP_START(id) \\\n"
          "  if (ctx->callback != NULL) ctx->callback((id), AOT_OP_STARTED, 0, ctx->user_data)\n"
          "#define AOT_OP_DONE(id) \\\n"
          "  if (ctx->callback != NULL) ctx->callback((id), AOT_OP_FINISHED, 0, ctx->user_data)\n\n"
          "");
  /* only with a kernel call (an unused static function breaks -Werror) */
  if ((e.body.s && strstr(e.body.s, "aot_fail(")) || (funcs.s && strstr(funcs.s, "aot_fail(")))
    sb_puts(&model,
            "static int32_t aot_fail(aot_model_context_t *ctx, int32_t op_id, int32_t st) {\n"
            "  if (ctx->callback != NULL) ctx->callback(op_id, AOT_OP_FINISHED, st, ctx->user_data);\n"
            "  return AOT_STATUS_KERNEL_FAILURE;\n}\n\n");
  if (e.decls.s) {
    sb_puts(&model, "/* ---- precomputed operator parameters ---- */\n\n");
    sb_puts(&model, e.decls.s);
    sb_putc(&model, '\n');
  }
  if (funcs.s) {
    sb_puts(&model, "/* ---- called subgraphs (WHILE / IF / CALL_ONCE) ---- */\n\n");
    for (int i = 1; i < g->nsubgraphs; i++)
      if (g->subgraphs[i]) sb_printf(&model, "static int32_t aot_subgraph_%d(aot_model_context_t *ctx);\n", i);
    sb_puts(&model, "\n");
    sb_puts(&model, funcs.s);
  }
  {
    int has_p = g->persistent_arena_bytes > 0;
    sb_puts(&model,
            "int32_t aot_model_bind_arenas(aot_model_context_t *ctx, void *scratch, size_t scratch_bytes,\n"
            "                              void *persistent, size_t persistent_bytes) {\n"
            "  if (ctx == NULL) return AOT_STATUS_NULL_CONTEXT;\n");
    sb_puts(&model, has_p ? "  if (scratch == NULL || persistent == NULL) return AOT_STATUS_NULL_BUFFER;\n"
                            "  if (scratch_bytes < AOT_SCRATCH_ARENA_BYTES || persistent_bytes < AOT_PERSISTENT_ARENA_BYTES)\n"
                            "    return AOT_STATUS_BUFFER_TOO_SMALL;\n"
                            "  if (((uintptr_t)scratch % AOT_ARENA_ALIGN) != 0 ||\n"
                            "      ((uintptr_t)persistent % AOT_ARENA_ALIGN) != 0)\n"
                            "    return AOT_STATUS_MISALIGNED_BUFFER;\n"
                          : "  (void)persistent_bytes;  /* this model keeps no state */\n"
                            "  if (scratch == NULL) return AOT_STATUS_NULL_BUFFER;\n"
                            "  if (scratch_bytes < AOT_SCRATCH_ARENA_BYTES) return AOT_STATUS_BUFFER_TOO_SMALL;\n"
                            "  if (((uintptr_t)scratch % AOT_ARENA_ALIGN) != 0 ||\n"
                            "      ((uintptr_t)persistent % AOT_ARENA_ALIGN) != 0)\n"
                            "    return AOT_STATUS_MISALIGNED_BUFFER;\n");
    sb_puts(&model, "  ctx->scratch = (uint8_t *)scratch;\n"
                    "  ctx->persistent = (uint8_t *)persistent;\n"
                    "  ctx->bound = AOT_BOUND_MAGIC;\n"
                    "  ctx->initialized = 0;\n"
                    "  return AOT_STATUS_OK;\n}\n\n");
  }
  sb_puts(&model, "int32_t aot_model_init(aot_model_context_t *ctx) {\n  uint8_t *S;\n  uint8_t *P;\n"
                  "  if (ctx == NULL) return AOT_STATUS_NULL_CONTEXT;\n"
                  "  if (ctx->bound != AOT_BOUND_MAGIC) {\n"
                  "    ctx->scratch = aot_scratch_arena;\n    ctx->persistent = aot_persistent_arena;\n"
                  "  }\n  S = ctx->scratch;\n  P = ctx->persistent;\n  (void)S;\n  (void)P;\n");
  for (int i = 0; i < g->nin; i++) gen_tensor_info(g, &model, "inputs", i, g->inputs[i]);
  for (int i = 0; i < g->nout; i++) gen_tensor_info(g, &model, "outputs", i, g->outputs[i]);
  sb_puts(&model, "  if (P != NULL && AOT_PERSISTENT_ARENA_BYTES > 0) memset(P, 0, AOT_PERSISTENT_ARENA_BYTES);\n");
  /* int8 variable tensors start at their zero point (as LiteRT/TFLM reset them) */
  for (int gi = 0; gi < nsg; gi++) {
    const ir_graph *vg = gi == 0 ? g : g->subgraphs[gi];
    if (!vg) continue;
    for (int t = 0; t < vg->nt; t++) {
      const ir_tensor *x = &vg->t[t];
      if (x->used && x->arena == 1 && x->alias < 0 && x->dtype == DT_INT8 && x->nq > 0 && x->zero_point[0] != 0)
        sb_printf(&model, "  memset(P + %zu, %d, %zu);  /* %s starts at its zero point */\n",
                  vg->persistent_base + x->offset, x->zero_point[0], ir_bytes(x), comment_text(x->name));
    }
  }
  sb_puts(&model, ""
                  "  ctx->once_done = 0;\n  ctx->initialized = AOT_INIT_MAGIC;\n  return AOT_STATUS_OK;\n}\n\n");
  sb_puts(&model, "int32_t aot_model_run(aot_model_context_t *ctx) {\n  uint8_t *S;\n  uint8_t *P;\n"
                  "  int32_t st;\n"
                  "  if (ctx == NULL) return AOT_STATUS_NULL_CONTEXT;\n"
                  "  if (ctx->initialized != AOT_INIT_MAGIC) return AOT_STATUS_NOT_INITIALIZED;\n"
                  "  S = ctx->scratch;\n  P = ctx->persistent;\n  (void)S;\n  (void)P;\n  st = 0;\n  (void)st;\n");
  if (e.body.s) sb_puts(&model, e.body.s);
  sb_puts(&model, "\n  return AOT_STATUS_OK;\n}\n");
  gen_header(g, o, &hdr);
  /* files */
  char *inc = xasprintf("%s/include", dir), *srcd = xasprintf("%s/src", dir);
  int mk = mkdir(inc, 0755) | mkdir(srcd, 0755);
  free(inc);
  free(srcd);
  if (mk != 0) {
    diag_error(d, "cannot create directories in '%s'", dir);
    goto out;
  }
  if (write_text(dir, "include/aot_model.h", hdr.s, o->prefix, d) ||
      write_text(dir, "src/aot_model.c", model.s, o->prefix, d) ||
      write_text(dir, "src/aot_constants.c", consts.s, o->prefix, d) ||
      write_text(dir, "src/aot_constants.h", consts_h.s, o->prefix, d) ||
      copy_runtime_headers(o, dir, d) != 0)
    goto out;
  if (e.nkernels > 0) qsort(e.kernels, (size_t)e.nkernels, sizeof(char *), cmp_str);
  for (int i = 0; i < e.nkernels; i++)
    if (copy_runtime_file(o, e.kernels[i], dir, d) != 0) goto out;
  /* CMakeLists.txt */
  sb_printf(&cm, "# Generated by aotc. Static library %s from %s.\n"
                 "cmake_minimum_required(VERSION 3.13)\nproject(%s C)\n\n"
                 "add_library(%s STATIC\n  src/aot_model.c\n  src/aot_constants.c\n",
            "@MODULE_NAME@", comment_text(o->model_path ? o->model_path : "a model"), "@MODULE_NAME@", "@MODULE_NAME@");
  for (int i = 0; i < e.nkernels; i++) {
    const char *b = strrchr(e.kernels[i], '/');
    sb_printf(&cm, "  src/%s\n", b ? b + 1 : e.kernels[i]);
  }
  sb_printf(&cm, ")\ntarget_include_directories(%s PUBLIC include PRIVATE src)\n"
                 "set_target_properties(%s PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)\n"
                 "if(CMAKE_C_COMPILER_ID MATCHES \"GNU|Clang\")\n"
                 "  target_compile_options(%s PRIVATE -Wall -Wextra -Werror -pedantic)\nendif()\n"
                 "find_library(AOT_LIBM m)\nif(AOT_LIBM)\n  target_link_libraries(%s PUBLIC ${AOT_LIBM})\nendif()\n",
            "@MODULE_NAME@", "@MODULE_NAME@", "@MODULE_NAME@", "@MODULE_NAME@");
  if (o->test.enabled) {
    strbuf tc = {0}, th = {0};
    gen_test_case(g, o, &tc, &th);
    const char *main_c = "/* aot_test_main.c - generated by aotc: host test program. */\n"
                         "#include \"aot_test_case.h\"\n\nint main(void) { return aot_test_case_run() == 0 ? 0 : 1; }\n";
    int w = write_text(dir, "src/aot_test_case.c", tc.s, o->prefix, d) ||
            write_text(dir, "src/aot_test_case.h", th.s, o->prefix, d) ||
            write_text(dir, "src/aot_test_main.c", main_c, o->prefix, d);
    sb_free(&tc);
    sb_free(&th);
    if (w) goto out;
    sb_printf(&cm, "\nadd_executable(aot_test src/aot_test_main.c src/aot_test_case.c)\n"
                   "target_link_libraries(aot_test PRIVATE %s)\n"
                   "set_target_properties(aot_test PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)\n"
                   "if(CMAKE_C_COMPILER_ID MATCHES \"GNU|Clang\")\n"
                   "  target_compile_options(aot_test PRIVATE -Wall -Wextra -Werror -pedantic)\nendif()\n",
              "@MODULE_NAME@");
  }
  if (write_text(dir, "CMakeLists.txt", cm.s, o->prefix, d)) goto out;
  gen_readme(g, o, &rd, const_bytes);
  if (write_text(dir, "README.md", rd.s, o->prefix, d)) goto out;
  if (o->dump_residency_json) {
    strbuf j = {0};
    gen_residency(g, &j, const_bytes);
    int w = write_text(dir, "aot_residency.json", j.s, o->prefix, d);
    sb_free(&j);
    if (w) goto out;
  }
  rc = 0;
out:
  for (int i = 0; i < e.npool; i++) free(e.pool[i]);
  free(e.pool);
  free(e.kernels);
  for (int i = 0; i < nsg; i++) free(e.const_used[i]);
  free(e.const_used);
  sb_free(&funcs);
  sb_free(&e.decls);
  sb_free(&e.body);
  sb_free(&model);
  sb_free(&consts);
  sb_free(&consts_h);
  sb_free(&hdr);
  sb_free(&cm);
  sb_free(&rd);
  return rc;
}
