/* emit.c - the emit API of the operators (declared in ops.h): an op's
 * emit() adds file-scope declarations, constant arrays and statements of the
 * run function to an emit_ctx, and names the runtime files it needs. The
 * code generator (src/codegen) creates the context, runs each op's emit()
 * and writes what was collected into the module; the formatting helpers here
 * (float literals, constant arrays) serve both. */
#include "emit.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Operator id seen by the callback: the op index in the model for the main
 * subgraph, (subgraph << 16) | index for ops of called subgraphs. */
long emit_op_uid(const ir_graph *g, const ir_op *op) {
  return g->sg > 0 ? ((long)g->sg << 16) | op->id : (long)op->id;
}

static const char *pool_add(emit_ctx *e, char *s) {
  if (e->npool == e->cappool) {
    e->cappool = e->cappool ? 2 * e->cappool : 64;
    e->pool = xrealloc(e->pool, (size_t)e->cappool * sizeof(char *));
  }
  e->pool[e->npool++] = s;
  return s;
}

/* name of the flash array of a constant tensor; constants that share data
 * (an aliased reshape of a constant) share one array. */
int emit_const_owner(const ir_graph *g, int t) {
  for (int i = 0; i < t; i++)
    if (g->t[i].role == ROLE_CONST && g->t[i].data == g->t[t].data && g->t[i].dtype == g->t[t].dtype &&
        g->t[i].data_bytes == g->t[t].data_bytes)
      return i;
  return t;
}

/* C element type of a tensor's pointer (bytes for types without one). */
static const char *tensor_ctype(const ir_tensor *x) {
  const char *ct = dtype_ctype(x->dtype);
  return ct ? ct : "uint8_t";
}

/* Where tensor t lives: 'C' a constant, 'S' / 'P' the scratch / persistent
 * arena at *off (with pointer type *ct), 0 nowhere (t < 0 or unplaced). */
static char tensor_place(const emit_ctx *e, int t, const char **ct, size_t *off) {
  const ir_graph *g = e->g;
  if (t < 0) return 0;
  const ir_tensor *x = &g->t[t];
  *ct = tensor_ctype(x);
  if (x->role == ROLE_CONST) return 'C';
  if (x->arena == 0) return *off = g->scratch_base + x->offset, 'S';
  if (x->arena == 1) return *off = g->persistent_base + x->offset, 'P';
  return 0;
}

const char *emit_addr(emit_ctx *e, int t) {
  const char *ct = NULL;
  size_t off = 0;
  const char place = tensor_place(e, t, &ct, &off);
  if (place == 'C')
    return pool_add(e, xasprintf("aot_constants.c_%s", e->g->t[emit_const_owner(e->g, t)].cname));
  if (place) return pool_add(e, xasprintf("((%s *)(%c + %zu))", ct, place, off));
  return "NULL";
}

/* Declares (once per function) the named pointer name = (ctype *)(base + off). */
static const char *named_ptr(emit_ctx *e, const char *name, const char *ctype, char base,
                             size_t off) {
  if (base == 'S') e->uses_S = 1;
  else e->uses_P = 1;
  for (int i = 0; i < e->fn_n; i++)
    if (strcmp(e->fn_names[i], name) == 0) return e->fn_names[i];
  if (e->fn_n == e->fn_cap) {
    e->fn_cap = e->fn_cap ? 2 * e->fn_cap : 32;
    e->fn_names = xrealloc(e->fn_names, (size_t)e->fn_cap * sizeof(char *));
    e->fn_decls = xrealloc(e->fn_decls, (size_t)e->fn_cap * sizeof(char *));
  }
  char *nm = xstrdup(name);
  char *dc = xasprintf("%s *const %s = (%s *)(%c + %zu);", ctype, name, ctype, base, off);
  pool_add(e, nm);
  pool_add(e, dc);
  e->fn_names[e->fn_n] = nm;
  e->fn_decls[e->fn_n] = dc;
  return e->fn_names[e->fn_n++];
}

const char *emit_ptr(emit_ctx *e, int t) {
  const char *ct = NULL;
  size_t off = 0;
  const char place = tensor_place(e, t, &ct, &off);
  if (t < 0) return "NULL";
  if (place == 'C') {
    e->const_used[e->g->sg][emit_const_owner(e->g, t)] = 1;
    return emit_addr(e, t);
  }
  if (place) return named_ptr(e, e->g->t[t].cname, ct, place, off);
  e->failed = 1;
  return "NULL";
}

const char *emit_scratch_ptr(emit_ctx *e) {
  char name[96];
  snprintf(name, sizeof name, "%s_scratch", e->opname);
  return named_ptr(e, name, "void", 'S', e->g->scratch_base + e->op->scratch_offset);
}

size_t emit_scratch_bytes(const emit_ctx *e) { return e->op->scratch_bytes; }

void emit_fn_begin(emit_ctx *e) {
  e->fn_n = 0;
  e->uses_S = e->uses_P = e->uses_st = e->uses_fail = 0;
}

char *emit_fn_decls(emit_ctx *e, const char *indent) {
  strbuf b = {0};
  for (int i = 0; i < e->fn_n; i++) sb_printf(&b, "%s%s\n", indent, e->fn_decls[i]);
  return b.s ? b.s : xstrdup("");
}

const char *emit_opname(emit_ctx *e) { return e->opname; }

void emit_stmt(emit_ctx *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sb_puts(&e->body, "  ");
  sb_vprintf(&e->body, fmt, ap);
  sb_putc(&e->body, '\n');
  va_end(ap);
}

void emit_call(emit_ctx *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  e->uses_st = e->uses_fail = 1;
  sb_puts(&e->body, "  st = ");
  sb_vprintf(&e->body, fmt, ap);
  /* one failure exit per C function (codegen.c puts it after the last op):
     each op's landing is two instructions, not an inlined callback call */
  sb_printf(&e->body, ";\n  if (st != 0) { failed_op = %ld; goto fail; }\n", emit_op_uid(e->g, e->op));
  va_end(ap);
}

void emit_decl(emit_ctx *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&e->decls, fmt, ap);
  sb_putc(&e->decls, '\n');
  va_end(ap);
}

/* Float literal text that round-trips exactly (C99 hex float). */
void emit_fmt_float(strbuf *b, float v) {
  if (isinf(v)) sb_puts(b, v > 0 ? "HUGE_VALF" : "(-HUGE_VALF)");
  else if (isnan(v)) sb_puts(b, "NAN");
  else if (v == 0.0f) sb_puts(b, signbit(v) ? "-0.0f" : "0.0f");
  else sb_printf(b, "%af", (double)v);
}

const char *emit_float(emit_ctx *e, float v) {
  strbuf b = {0};
  emit_fmt_float(&b, v);
  return pool_add(e, b.s);
}

/* Appends the elements of a typed array as C initializer text. */
void emit_fmt_values(strbuf *b, int dtype, const void *data, size_t n) {
  const int per_line = dtype == DT_FLOAT32 ? 6 : 16;
  for (size_t i = 0; i < n; i++) {
    if (i % (size_t)per_line == 0) sb_puts(b, i ? ",\n  " : "  ");
    else sb_puts(b, ", ");
    switch (dtype) {
      case DT_FLOAT32: { float v; memcpy(&v, (const char *)data + 4 * i, 4); emit_fmt_float(b, v); break; }
      case DT_INT8: sb_printf(b, "%d", ((const int8_t *)data)[i]); break;
      case DT_UINT8: case DT_BOOL: sb_printf(b, "%u", ((const uint8_t *)data)[i]); break;
      case DT_INT16: { int16_t v; memcpy(&v, (const char *)data + 2 * i, 2); sb_printf(b, "%d", v); break; }
      case DT_UINT16: case DT_FLOAT16: { uint16_t v; memcpy(&v, (const char *)data + 2 * i, 2); sb_printf(b, "%u", v); break; }
      case DT_INT32: {
        int32_t v; memcpy(&v, (const char *)data + 4 * i, 4);
        if (v == INT32_MIN) sb_puts(b, "INT32_MIN"); else sb_printf(b, "%ld", (long)v);
        break;
      }
      case DT_UINT32: { uint32_t v; memcpy(&v, (const char *)data + 4 * i, 4); sb_printf(b, "%luu", (unsigned long)v); break; }
      case DT_INT64: {
        int64_t v; memcpy(&v, (const char *)data + 8 * i, 8);
        if (v == INT64_MIN) sb_puts(b, "INT64_MIN"); else sb_printf(b, "INT64_C(%lld)", (long long)v);
        break;
      }
      case DT_UINT64: { uint64_t v; memcpy(&v, (const char *)data + 8 * i, 8); sb_printf(b, "UINT64_C(%llu)", (unsigned long long)v); break; }
      default: sb_puts(b, "0"); break;
    }
  }
  if (n == 0) sb_puts(b, "  0");
  sb_putc(b, '\n');
}

static const char *emit_array(emit_ctx *e, const char *suffix, int dt, const void *v, size_t n) {
  char *name = xasprintf("%s_%s", e->opname, suffix);
  e->param_bytes += (n ? n : 1) * dtype_size(dt);
  sb_printf(&e->decls, "static const %s %s[%zu] = {\n", dtype_ctype(dt), name, n ? n : 1);
  emit_fmt_values(&e->decls, dt, v, n);
  sb_puts(&e->decls, "};\n");
  return pool_add(e, name);
}

const char *emit_array_i8(emit_ctx *e, const char *s, const int8_t *v, size_t n) { return emit_array(e, s, DT_INT8, v, n); }
const char *emit_array_i16(emit_ctx *e, const char *s, const int16_t *v, size_t n) { return emit_array(e, s, DT_INT16, v, n); }
const char *emit_array_i32(emit_ctx *e, const char *s, const int32_t *v, size_t n) { return emit_array(e, s, DT_INT32, v, n); }
const char *emit_array_i64(emit_ctx *e, const char *s, const int64_t *v, size_t n) { return emit_array(e, s, DT_INT64, v, n); }
const char *emit_array_f32(emit_ctx *e, const char *s, const float *v, size_t n) { return emit_array(e, s, DT_FLOAT32, v, n); }

/* Adds s to the list (*list, *n entries, *cap allocated) unless it is there. */
static void add_unique(emit_ctx *e, const char ***list, int *n, int *cap, int first_cap, const char *s) {
  for (int i = 0; i < *n; i++)
    if (strcmp((*list)[i], s) == 0) return;
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : first_cap;
    *list = xrealloc(*list, (size_t)*cap * sizeof(char *));
  }
  (*list)[(*n)++] = pool_add(e, xstrdup(s));
}

void emit_kernel(emit_ctx *e, const char *relpath) {
  add_unique(e, &e->kernels, &e->nkernels, &e->capkernels, 16, relpath);
}

void emit_feature(emit_ctx *e, const char *name) {
  add_unique(e, &e->features, &e->nfeatures, &e->capfeatures, 8, name);
}
