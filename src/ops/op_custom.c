/* op_custom.c - CUSTOM operators: the refusals of those no kernel runs, and
 * user-supplied kernels registered with custom_operators in the config.
 *
 * custom_ops_prepare() runs on the model as read, before any hook or
 * analysis, over every subgraph:
 *   1. TensorFlow Flex (Select TF) ops (custom code "Flex...") are refused in
 *      one line naming them (count, first subgraph/op) with how to re-export
 *      the model without them;
 *   2. the registered user kernels are checked (source readable and defining
 *      the function, a code that aotc does not implement itself) and their
 *      output rules applied to the model's tensors;
 *   3. any other CUSTOM op aotc has no kernel for is refused, naming its code
 *      (`ethos-u`: the model was compiled by Vela).
 * The user kernels are then known to ops_find() through custom_ops_find()
 * (the operator table has no per-compilation context, so they are kept in a
 * table here, replaced at each prepare). A user op is compiled to one call of
 * the user's function with an aot_custom_args (runtime/aot_custom.h) holding
 * precomputed pointers, shapes, dtypes, quantization, the custom_options
 * bytes and a scratch buffer; the user's .c file is copied into the module.
 * The host reference interpreter cannot run a user kernel:
 * custom_ops_refuse_ref() says so and asks for test.golden_data. */
#define _GNU_SOURCE
#include "op_custom.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct user_op {
  char *code, *function, *path, *where;
  long scratch_bytes;
} user_op;

static user_op *users;
static int nusers;

static void users_clear(void) {
  for (int i = 0; i < nusers; i++) {
    free(users[i].code);
    free(users[i].function);
    free(users[i].path);
    free(users[i].where);
  }
  free(users);
  users = NULL;
  nusers = 0;
}

static const user_op *user_find(const char *code) {
  for (int i = 0; code && i < nusers; i++)
    if (!strcmp(users[i].code, code)) return &users[i];
  return NULL;
}

/* A custom code one of aotc's own operators implements ("GRU"). */
static int builtin_custom(const char *code) {
  const op_impl *const *all = ops_all();
  for (int i = 0; code && all[i]; i++)
    if (all[i]->builtin == OP_CUSTOM && all[i]->custom && !strcmp(all[i]->custom, code)) return 1;
  return 0;
}

/* ---- 1. Flex ops ---------------------------------------------------------- */

typedef struct code_use {
  const char *code;
  int count, sg, op;
} code_use;

/* Distinct codes kept for a message: a hostile model may have 100,000. */
enum { MAX_CODES = 64 };

static void note_use(code_use **v, int *n, const char *code, int sg, int op) {
  for (int i = 0; i < *n; i++)
    if (!strcmp((*v)[i].code, code)) {
      (*v)[i].count++;
      return;
    }
  if (*n >= MAX_CODES) return;
  *v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
  (*v)[(*n)++] = (code_use){code, 1, sg, op};
}

static void list_uses(strbuf *b, const code_use *v, int n) {
  for (int i = 0; i < n && i < 8; i++)
    sb_printf(b, "%s'%s' (%d op%s, first subgraph %d op %d)", i ? ", " : "", v[i].code, v[i].count,
              v[i].count > 1 ? "s" : "", v[i].sg, v[i].op);
  if (n >= MAX_CODES) sb_puts(b, " and more");
  else if (n > 8) sb_printf(b, " and %d more", n - 8);
}

static int refuse_flex(const litert_model *m, aotc_diag *d) {
  code_use *v = NULL;
  int n = 0;
  for (int s = 0; s < m->nsubgraphs; s++)
    for (int i = 0; i < m->subgraphs[s].nops; i++) {
      const litert_op *op = &m->subgraphs[s].ops[i];
      const char *code = litert_op_custom(m, op);
      if (litert_op_builtin(m, op) == OP_CUSTOM && code && !strncmp(code, "Flex", 4))
        note_use(&v, &n, code, s, i);
    }
  if (n == 0) return 0;
  strbuf b = {0};
  list_uses(&b, v, n);
  diag_unsupported(d, "the model contains TensorFlow Flex (Select TF) operators: %s; no microcontroller runtime (aotc, TFLM) executes them; "
                   "re-export without SELECT_TF_OPS: converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS] (or TFLITE_BUILTINS_INT8), "
                   "and for a Keras RNN (GRU, LSTM, SimpleRNN) set unroll=True or give the model a fixed batch and sequence length so that the converter emits builtin ops",
                   b.s);
  sb_free(&b);
  free(v);
  return -1;
}

/* ---- 2. user kernels ---------------------------------------------------------- */

/* 1 if text defines (or declares) identifier fn followed by '(' */
static int defines_function(const char *text, const char *fn) {
  size_t n = strlen(fn);
  for (const char *p = strstr(text, fn); p; p = strstr(p + 1, fn)) {
    int start = p == text || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
                               (p[-1] >= 'A' && p[-1] <= 'Z') || (p[-1] >= '0' && p[-1] <= '9'));
    const char *q = p + n;
    while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r') q++;
    if (start && *q == '(') return 1;
  }
  return 0;
}

static int static_litert_shape(const litert_tensor *t) {
  if (t->rank < 0) return 0;
  for (int i = 0; i < t->rank; i++)
    if (t->shape[i] < 0 || (t->shape_signature && t->shape_signature[i] < 0)) return 0;
  return 1;
}

/* Applies r's output rule to every op of code r->code. */
static int apply_outputs(const aotc_custom_op *r, litert_model *m, aotc_diag *d) {
  for (int s = 0; s < m->nsubgraphs; s++)
    for (int i = 0; i < m->subgraphs[s].nops; i++) {
      litert_op *op = &m->subgraphs[s].ops[i];
      const char *code = litert_op_custom(m, op);
      if (litert_op_builtin(m, op) != OP_CUSTOM || !code || strcmp(code, r->code)) continue;
      if (op->noutputs != r->noutputs)
        return diag_error(d, "subgraph %d op %d (CUSTOM '%s') has %d outputs but custom_operators (%s) describes %d; give one outputs entry per op output",
                          s, i, code, op->noutputs, r->where, r->noutputs);
      for (int k = 0; k < op->noutputs; k++) {
        int ti = op->outputs[k];
        if (ti < 0 || ti >= m->subgraphs[s].ntensors) continue;
        litert_tensor *t = &m->subgraphs[s].tensors[ti];
        const aotc_custom_output *o = &r->outputs[k];
        int same = t->type == o->dtype && t->rank == o->rank;
        for (int j = 0; same && j < o->rank; j++) same = t->shape[j] == o->shape[j];
        if (same) continue;
        if (static_litert_shape(t) && t->type == o->dtype) {
          char a[160] = "", b2[160] = "";
          size_t ka = 0, kb = 0;
          for (int j = 0; j < t->rank && ka < sizeof a - 16; j++) ka += (size_t)snprintf(a + ka, sizeof a - ka, "%s%d", j ? "," : "", t->shape[j]);
          for (int j = 0; j < o->rank && kb < sizeof b2 - 16; j++) kb += (size_t)snprintf(b2 + kb, sizeof b2 - kb, "%s%d", j ? "," : "", o->shape[j]);
          return diag_error(d, "subgraph %d op %d (CUSTOM '%s') output %d, tensor %d '%s', has the static shape [%s] but custom_operators (%s) gives [%s]; fix the output rule or drop it",
                            s, i, code, k, ti, t->name ? t->name : "", a, r->where, b2);
        }
        if (static_litert_shape(t) && t->type != o->dtype)
          return diag_error(d, "subgraph %d op %d (CUSTOM '%s') output %d, tensor %d '%s', is %s but custom_operators (%s) gives %s; fix the output rule",
                            s, i, code, k, ti, t->name ? t->name : "", dtype_name(t->type), r->where, dtype_name(o->dtype));
        t->type = o->dtype;
        t->rank = o->rank;
        t->shape = xrealloc(t->shape, sizeof(int32_t) * (size_t)(o->rank > 0 ? o->rank : 1));
        for (int j = 0; j < o->rank; j++) t->shape[j] = o->shape[j];
        free(t->shape_signature);
        t->shape_signature = NULL;
        t->has_rank = 1;
      }
    }
  return 0;
}

static int count_uses(const litert_model *m, const char *code) {
  int n = 0;
  for (int s = 0; s < m->nsubgraphs; s++)
    for (int i = 0; i < m->subgraphs[s].nops; i++) {
      const litert_op *op = &m->subgraphs[s].ops[i];
      const char *c = litert_op_custom(m, op);
      n += litert_op_builtin(m, op) == OP_CUSTOM && c && !strcmp(c, code);
    }
  return n;
}

static int register_user(const aotc_custom_op *r, litert_model *m, aotc_diag *d) {
  if (builtin_custom(r->code))
    return diag_error(d, "custom_operators '%s' (%s): aotc implements CUSTOM '%s' itself; remove the entry (or rename the op in the model)",
                      r->code, r->where, r->code);
  if (!r->source || !*r->source)
    return diag_error(d, "custom_operators '%s' (%s): no source; give source: path/to/kernel.c (relative to the config file)", r->code, r->where);
  if (!r->function)
    return diag_error(d, "custom_operators '%s' (%s): no function; give function: NAME, the kernel's int32_t NAME(const aot_custom_args *a)", r->code, r->where);
  const char *base = strrchr(r->source, '/');
  base = base ? base + 1 : r->source;
  size_t bl = strlen(base);
  if (bl < 3 || strcmp(base + bl - 2, ".c") || !strncmp(base, "aot_", 4))
    return diag_error(d, "custom_operators '%s' (%s): source '%s' must be a .c file whose name does not start with aot_ (the module keeps it as src/%s)",
                      r->code, r->where, r->source, base);
  for (int i = 0; i < nusers; i++) {
    const char *ob = strrchr(users[i].path, '/');
    if (!strcmp(ob ? ob + 1 : users[i].path, base) && strcmp(users[i].path, r->source))
      return diag_error(d, "custom_operators '%s' (%s): source '%s' has the same file name as the source of '%s'; the module keeps both in src/, rename one",
                        r->code, r->where, r->source, users[i].code);
  }
  char *abs = realpath(r->source, NULL);
  uint8_t *data = NULL;
  size_t len = 0;
  aotc_diag rd = {0};
  if (!abs || read_file_all(abs, &data, &len, &rd) != 0) {
    int e = errno;
    free(abs);
    return diag_error(d, "custom_operators '%s' (%s): cannot read source '%s': %s; the path is relative to the config file (or to the working directory for a flag)",
                      r->code, r->where, r->source, rd.msg[0] ? rd.msg : strerror(e));
  }
  char *text = xstrndup((const char *)data, len);
  free(data);
  int has = defines_function(text, r->function);
  free(text);
  if (!has) {
    free(abs);
    return diag_error(d, "custom_operators '%s' (%s): source '%s' does not define function '%s'; define int32_t %s(const aot_custom_args *a) there or correct the function entry",
                      r->code, r->where, r->source, r->function, r->function);
  }
  if (count_uses(m, r->code) == 0)
    diag_warn(d, "custom_operators '%s' (%s) is not used: the model has no CUSTOM '%s' op", r->code, r->where, r->code);
  if (r->noutputs >= 0 && apply_outputs(r, m, d) != 0) {
    free(abs);
    return -1;
  }
  for (int s = 0; r->noutputs < 0 && s < m->nsubgraphs; s++)
    for (int i = 0; i < m->subgraphs[s].nops; i++) {
      const litert_op *op = &m->subgraphs[s].ops[i];
      const char *code = litert_op_custom(m, op);
      if (litert_op_builtin(m, op) != OP_CUSTOM || !code || strcmp(code, r->code)) continue;
      for (int k = 0; k < op->noutputs; k++) {
        int ti = op->outputs[k];
        const litert_tensor *t = ti >= 0 && ti < m->subgraphs[s].ntensors ? &m->subgraphs[s].tensors[ti] : NULL;
        if (t && !static_litert_shape(t)) {
          free(abs);
          return diag_error(d, "subgraph %d op %d (CUSTOM '%s') output %d, tensor %d '%s', has no static shape in the model; give custom_operators '%s' (%s) an output rule, outputs: [{dtype: %s, shape: [...]}]",
                            s, i, code, k, ti, t->name ? t->name : "", r->code, r->where, dtype_name(t->type));
        }
      }
    }
  users = xrealloc(users, (size_t)(nusers + 1) * sizeof *users);
  users[nusers++] = (user_op){xstrdup(r->code), xstrdup(r->function), abs, xstrdup(r->where), r->scratch_bytes};
  return 0;
}

/* ---- 3. unknown custom ops ------------------------------------------------ */

static int refuse_unknown(const litert_model *m, int only_vela, aotc_diag *d) {
  code_use *v = NULL;
  int n = 0, first = -1;
  for (int s = 0; s < m->nsubgraphs; s++)
    for (int i = 0; i < m->subgraphs[s].nops; i++) {
      const litert_op *op = &m->subgraphs[s].ops[i];
      if (litert_op_builtin(m, op) != OP_CUSTOM) continue;
      const char *code = litert_op_custom(m, op);
      if (!code) code = "";
      if (builtin_custom(code) || user_find(code)) continue;
      if (only_vela && strcmp(code, "ethos-u")) continue;
      if (!strcmp(code, "ethos-u") && first < 0) first = n;
      note_use(&v, &n, code, s, i);
    }
  if (n == 0) return 0;
  if (first >= 0) {
    diag_unsupported(d, "subgraph %d op %d is CUSTOM 'ethos-u': the model was compiled by Arm's Vela for the Ethos-U NPU (the op holds Vela's command stream, which only the NPU executes); give aotc the model from before Vela (the .tflite that was passed to vela)",
                     v[first].sg, v[first].op);
    free(v);
    return -1;
  }
  strbuf b = {0}, r = {0};
  if (n > 1) {
    sb_puts(&b, "; all unknown custom codes: ");
    list_uses(&b, v, n);
  }
  if (nusers > 0) {
    sb_puts(&r, "; custom_operators registers ");
    for (int i = 0; i < nusers; i++) sb_printf(&r, "%s'%s'", i ? ", " : "", users[i].code);
    sb_puts(&r, " (codes are case-sensitive)");
  }
  diag_unsupported(d, "subgraph %d op %d is CUSTOM '%s' (%d op%s with this code%s), a custom operator aotc has no kernel for%s; "
                   "register a C kernel for it under custom_operators in the config (code: %s, source: FILE.c, function: NAME; see README 'Custom operators') or re-export the model with builtin operators",
                   v[0].sg, v[0].op, v[0].code, v[0].count, v[0].count > 1 ? "s" : "", b.s ? b.s : "",
                   r.s ? r.s : "", v[0].code);
  sb_free(&b);
  sb_free(&r);
  free(v);
  return -1;
}

int custom_ops_prepare(const aotc_config *c, litert_model *m, int check_unknown, aotc_diag *d) {
  users_clear();
  if (refuse_flex(m, d) != 0) return -1;
  for (int i = 0; c && i < c->n_custom_ops; i++)
    if (register_user(&c->custom_ops[i], m, d) != 0) return -1;
  return refuse_unknown(m, !check_unknown, d);
}

const op_impl *custom_ops_find(const char *code) {
  return user_find(code) ? &op_user_custom : NULL;
}

int custom_ops_refuse_ref(const litert_model *m, aotc_diag *d) {
  for (int s = 0; s < m->nsubgraphs; s++)
    for (int i = 0; i < m->subgraphs[s].nops; i++) {
      const litert_op *op = &m->subgraphs[s].ops[i];
      const char *code = litert_op_custom(m, op);
      const user_op *u = litert_op_builtin(m, op) == OP_CUSTOM ? user_find(code) : NULL;
      if (u)
        return diag_error(d, "subgraph %d op %d is the user custom operator '%s' (%s), which the host reference interpreter cannot run, so aotc cannot compute expected outputs; "
                          "give test.golden_data FILE.npz with input_<i> and output_<i> arrays from your own implementation",
                          s, i, code, u->where);
    }
  return 0;
}

/* ---- the operator ------------------------------------------------------------ */

static int custom_check(const ir_graph *g, const ir_op *op, char *why, size_t n) {
  const user_op *u = user_find(op->custom);
  if (!u) {
    snprintf(why, n, "custom code not registered in custom_operators");
    return -1;
  }
  for (int k = 0; k < op->nout; k++) {
    const ir_tensor *t = ir_out(g, op, k);
    if (!t) {
      snprintf(why, n, "output %d is absent; a user kernel needs every output", k);
      return -1;
    }
    if (!dtype_size(t->dtype)) {
      snprintf(why, n, "output %d '%s' is %s; a user kernel takes plain numeric tensors", k, t->name, dtype_name(t->dtype));
      return -1;
    }
    for (int j = 0; j < t->rank; j++)
      if (t->shape[j] < 0) {
        snprintf(why, n, "output %d '%s' has no static shape; give one with outputs: [{dtype: T, shape: [...]}] in custom_operators (%s)",
                 k, t->name, u->where);
        return -1;
      }
    if (ir_bytes(t) > UINT32_MAX) {
      snprintf(why, n, "output %d '%s' is larger than 4 GB", k, t->name);
      return -1;
    }
  }
  for (int k = 0; k < op->nin; k++) {
    const ir_tensor *t = ir_in(g, op, k);
    if (t && !dtype_size(t->dtype)) {
      snprintf(why, n, "input %d '%s' is %s; a user kernel takes plain numeric tensors", k, t->name, dtype_name(t->dtype));
      return -1;
    }
  }
  return 0;
}

static size_t custom_scratch(const ir_graph *g, const ir_op *op) {
  (void)g;
  const user_op *u = user_find(op->custom);
  return u ? (size_t)u->scratch_bytes : 0;
}

static const char *dtype_macro(int dt) {
  switch (dt) {
    case DT_FLOAT32: return "AOT_CUSTOM_FLOAT32";
    case DT_FLOAT16: return "AOT_CUSTOM_FLOAT16";
    case DT_INT32: return "AOT_CUSTOM_INT32";
    case DT_UINT8: return "AOT_CUSTOM_UINT8";
    case DT_INT64: return "AOT_CUSTOM_INT64";
    case DT_BOOL: return "AOT_CUSTOM_BOOL";
    case DT_INT16: return "AOT_CUSTOM_INT16";
    case DT_INT8: return "AOT_CUSTOM_INT8";
    default: return NULL;
  }
}

/* One initializer {data, shape, rank, dtype, bytes, scale, zero_point}. */
static void tensor_init(emit_ctx *e, strbuf *b, const ir_graph *g, int t, const char *suffix) {
  if (t < 0) {
    sb_puts(b, "{NULL, NULL, 0, 0, 0u, 0.0f, 0}");
    return;
  }
  const ir_tensor *x = &g->t[t];
  const char *shape = "NULL";
  if (x->rank > 0) {
    int32_t s[IR_MAX_RANK];
    for (int i = 0; i < x->rank; i++) s[i] = x->shape[i];
    shape = emit_array_i32(e, suffix, s, (size_t)x->rank);
  }
  char dt[16];
  snprintf(dt, sizeof dt, "%d", x->dtype);
  sb_printf(b, "{(void *)%s, %s, %d, %s, %zuu, %s, %d}", emit_ptr(e, t), shape, x->rank,
            dtype_macro(x->dtype) ? dtype_macro(x->dtype) : dt, ir_bytes(x), emit_float(e, x->nq ? x->scale[0] : 0.0f), x->nq ? x->zero_point[0] : 0);
}

/* The array "<nm>_<what>" of the n tensors ids (nothing when n is 0). */
static void tensor_list(emit_ctx *e, const ir_graph *g, const char *nm, const char *what,
                        const int *ids, int n) {
  if (n <= 0) return;
  char suffix[32];
  strbuf b = {0};
  for (int k = 0; k < n; k++) {
    snprintf(suffix, sizeof suffix, "%s%d_shape", what, k);
    sb_puts(&b, k ? ",\n      " : "");
    tensor_init(e, &b, g, ids[k], suffix);
  }
  emit_stmt(e, "  const aot_custom_tensor %s_%s[%d] = {\n      %s};", nm, what, n, b.s);
  sb_free(&b);
}

static int custom_emit(emit_ctx *e, const ir_graph *g, const ir_op *op) {
  const user_op *u = user_find(op->custom);
  if (!u) return -1;
  const char *nm = emit_opname(e);
  emit_kernel(e, u->path);
  emit_decl(e, "/* %s: user kernel for CUSTOM '%s' */\nint32_t %s(const aot_custom_args *a);", nm,
            u->code, u->function);
  const char *opts = "NULL";
  if (op->custom_options_len > 0)
    opts = emit_array_i8(e, "options", (const int8_t *)op->custom_options, op->custom_options_len);
  emit_stmt(e, "{");
  tensor_list(e, g, nm, "in", op->in, op->nin);
  tensor_list(e, g, nm, "out", op->out, op->nout);
  emit_stmt(e, "  const aot_custom_args %s_args = {%s%s, %d, %s%s, %d, (const uint8_t *)%s, %zuu, %s, %ldu};",
            nm, op->nin > 0 ? nm : "NULL", op->nin > 0 ? "_in" : "", op->nin,
            op->nout > 0 ? nm : "NULL", op->nout > 0 ? "_out" : "", op->nout, opts,
            op->custom_options_len, u->scratch_bytes > 0 ? emit_scratch_ptr(e) : "NULL",
            u->scratch_bytes);
  emit_call(e, "%s(&%s_args)", u->function, nm);
  emit_stmt(e, "}");
  return 0;
}

const op_impl op_user_custom = {
    .builtin = OP_CUSTOM,
    .custom = NULL,
    .name = "user custom operator",
    .dtypes = "any plain numeric",
    .constraints = "registered with custom_operators in the config",
    .check = custom_check,
    .scratch = custom_scratch,
    .emit = custom_emit,
    .eval = NULL,
};
