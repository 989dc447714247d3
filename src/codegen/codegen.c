/* codegen.c - the C emitter: model source, constants, API header, copied
 * runtime kernels, CMakeLists.txt and README.md of a module.
 *
 * Everything is generated with the runtime prefix "aot_"/"AOT_" and renamed to
 * the module prefix when written, exactly like the copied kernels. */
#include "codegen_internal.h"

#include "../ops/emit.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A model-supplied name made safe for a C comment: printable ASCII, no
 * comment terminator, cut at the first ';' (converters join several names)
 * and at 96 characters. Returns a static buffer. */
const char *comment_text(const char *name) {
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


void sb_plain_text(strbuf *b, const char *text, int json) {
  sb_putc(b, CG_TEXT_BEGIN);
  for (const char *p = text ? text : ""; *p; p++) {
    if ((unsigned char)*p < 32) continue;
    if (json && (*p == '"' || *p == '\\')) sb_putc(b, '\\');
    sb_putc(b, *p);
  }
  sb_putc(b, CG_TEXT_END);
}

/* ---------------------------------------------------------------------- */

char *codegen_rename_split(const char *text, const char *prefix, const char *rt_prefix,
                           int (*is_rt)(const char *text, const char *p, size_t n)) {
  strbuf b = {0};
  char *up = xstrdup(prefix), *rup = xstrdup(rt_prefix ? rt_prefix : prefix);
  for (char *q = up; *q; q++) *q = (char)toupper((unsigned char)*q);
  for (char *q = rup; *q; q++) *q = (char)toupper((unsigned char)*q);
  const char *p = text;
  while (*p) {
    if (*p == CG_TEXT_BEGIN) {
      /* model text: copied as is, marks dropped */
      for (p++; *p && *p != CG_TEXT_END; p++) sb_putc(&b, *p);
      if (*p) p++;
      continue;
    }
    int at_start = (p == text) || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
    int lo = strncmp(p, "aot_", 4) == 0, hi = strncmp(p, "AOT_", 4) == 0;
    if (at_start && (lo || hi)) {
      size_t n = 0;
      while (isalnum((unsigned char)p[n]) || p[n] == '_') n++;
      int rt = rt_prefix && is_rt && is_rt(text, p, n);
      sb_puts(&b, rt ? (lo ? rt_prefix : rup) : (lo ? prefix : up));
      sb_putc(&b, '_');
      p += 4;
    } else {
      sb_putc(&b, *p++);
    }
  }
  free(up);
  free(rup);
  return b.s ? b.s : xstrdup("");
}

char *codegen_rename_prefix(const char *text, const char *prefix) {
  return codegen_rename_split(text, prefix, NULL, NULL);
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

int write_text(const char *dir, const char *rel, const char *text, const char *prefix,
                      aotc_diag *d) {
  char *rrel = codegen_rename_prefix(rel, prefix);
  char *path = xasprintf("%s/%s", dir, rrel);
  free(rrel);
  char *out = subst_name(cg_shared_active() ? cg_shared_rename(text, prefix) : codegen_rename_prefix(text, prefix));
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

const char *op_dtypes(const ir_graph *g, const ir_op *op, char *buf, size_t n) {
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
    const char *name = ir_op_name(op);
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
  const char *src_at = emit_addr(e, a);
  e->g = gb;
  const char *dst_at = emit_addr(e, b);
  size_t n = ir_bytes(&gb->t[b]);
  if (ir_bytes(&ga->t[a]) < n) n = ir_bytes(&ga->t[a]);
  if (strcmp(src_at, dst_at) != 0) {  /* tensors sharing storage need no copy */
    e->g = ga;
    const char *src = emit_ptr(e, a);
    e->g = gb;
    const char *dst = emit_ptr(e, b);
    sb_printf(&e->body, "  %s(%s, %s, %zu);\n", fn, dst, src, n);
  }
  e->g = save;
}

/* The failure exit of a C function whose kernel calls (emit_call) jump to it
 * with the failing op's id: one callback call per function, not per op. */
#define FAIL_EXIT "fail:\n  return aot_fail(ctx, failed_op, st);\n"

static void emit_subgraph_call(emit_ctx *e, int sg) {
  e->uses_st = 1;
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
      e->uses_P = 1;
      if (op->builtin == OP_READ_VARIABLE)
        sb_printf(&e->body, "  memcpy(%s, P + %zu, %zu);  /* read variable %s */\n", p, var->offset, n, comment_text(var->key));
      else
        sb_printf(&e->body, "  memcpy(P + %zu, %s, %zu);  /* assign variable %s */\n", var->offset, p, n, comment_text(var->key));
      return 0;
    }
    case OP_CALL_ONCE: {
      int sg = op->opts.init_subgraph;
      if (!callee(e, sg)) return diag_error(d, "subgraph %d op %d (CALL_ONCE): init subgraph %d was not built; the model is malformed, re-export it", g->sg, op->id, sg);
      e->uses_st = 1;
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
  /* the last AOT_OP_DONE: where it starts and ends in the body, its op; the
     next op's start merges with it into one AOT_OP_NEXT call when nothing
     came between (one call of code less per op boundary) */
  size_t done_at = 0, done_end = 0;
  long done_uid = -1;
  e->g = g;
  for (int i = 0; i < g->nops; i++) {
    const ir_op *op = &g->ops[i];
    if (op->dead) continue;
    e->op = op;
    e->opindex = i;
    char lname[40];
    snprintf(lname, sizeof lname, "%s", ir_op_name(op));
    lower(lname);
    c_identifier(lname, lname, 32);
    if (g->sg > 0) snprintf(e->opname, sizeof e->opname, "sg%d_op%d_%s", g->sg, op->id, lname);
    else snprintf(e->opname, sizeof e->opname, "op%d_%s", op->id, lname);
    const ir_tensor *o0 = op->nout > 0 && op->out[0] >= 0 ? &g->t[op->out[0]] : NULL;
    char dts[256];
    const int merge = done_uid >= 0 && e->body.len == done_end;
    if (merge) e->body.s[e->body.len = done_at] = '\0';
    sb_printf(&e->body, "\n  /* op %d: %s%s%s (%s)%s%s */\n", op->id,
              op->model_builtin == OP_CUSTOM ? comment_text(ir_op_name(op)) : ir_op_name(op),
              op->builtin != op->model_builtin ? ", run as " : "",
              op->builtin != op->model_builtin ? litert_op_name(op->builtin) : "",
              op_dtypes(g, op, dts, sizeof dts), o0 && o0->name[0] ? " -> " : "",
              o0 ? comment_text(o0->name) : "");
    long uid = emit_op_uid(g, op);
    if (merge)   /* op done_uid finished, op uid started */
      sb_printf(&e->body, "  AOT_OP_NEXT(%ld, %ld);\n", done_uid, uid);
    else
      sb_printf(&e->body, "  AOT_OP_START(%ld);\n", uid);
    int r;
    if (is_control_op(op->builtin)) {
      r = emit_control(e, g, op, d);
      e->g = g;
    } else {
      const op_impl *impl = ops_find(g, op);
      r = op_emit(impl, e, g, op);
      if (r != 0) diag_error(d, "subgraph %d op %d (%s%s%s): code generation failed (internal error; disable the transforms with --transforms.<name> false to work around it and report it)",
                             g->sg, op->id, litert_op_name(op->builtin), op->custom ? " " : "",
                             op->custom ? op->custom : "");
    }
    if (r != 0 || e->failed) {
      if (e->failed) diag_error(d, "subgraph %d op %d (%s): a tensor it uses has no storage in the arenas (internal error of the memory plan; report it)",
                                g->sg, op->id, litert_op_name(op->builtin));
      return -1;
    }
    done_at = e->body.len;
    sb_printf(&e->body, "  AOT_OP_DONE(%ld);\n", uid);
    done_end = e->body.len;
    done_uid = uid;
  }
  return 0;
}

int codegen_module(const ir_graph *g, const cg_options *opts, const char *dir, aotc_diag *d) {
  if (codegen_check_supported(g, d) != 0) return -1;
  cg_options oo = *opts;  /* defaults for callers that leave the platform out */
  if (!oo.scratch_mem) oo.scratch_mem = "sram";
  if (!oo.persistent_mem) oo.persistent_mem = oo.scratch_mem;
  if (!oo.const_mem) oo.const_mem = "mram";
  if (!oo.const_src_mem || !oo.const_staged) oo.const_src_mem = oo.const_mem;
  if (!oo.name) oo.name = "helia_aot_nn";
  if (oo.min_alignment < 16) oo.min_alignment = 16;
  const cg_options *o = &oo;
  g_module_name = o->name;
  if (o->shared_runtime && cg_shared_begin(o, d) != 0) return -1;
  emit_ctx e = {0};
  e.g = g;
  e.main = g;
  int nsg = g->nsubgraphs > 0 ? g->nsubgraphs : 1;
  e.const_used = xcalloc((size_t)nsg, sizeof(char *));
  e.const_used[0] = xcalloc((size_t)(g->nt + 1), 1);
  for (int i = 1; i < g->nsubgraphs; i++)
    if (g->subgraphs[i]) e.const_used[i] = xcalloc((size_t)(g->subgraphs[i]->nt + 1), 1);
  int rc = -1;
  strbuf model = {0}, consts = {0}, consts_h = {0}, rd = {0}, funcs = {0};
  /* called subgraphs become static functions */
  for (int i = 1; i < g->nsubgraphs; i++) {
    const ir_graph *sg = g->subgraphs[i];
    if (!sg) continue;
    strbuf saved = e.body;
    memset(&e.body, 0, sizeof e.body);
    emit_fn_begin(&e);
    if (emit_graph_ops(&e, sg, d) != 0) {
      sb_free(&e.body);
      e.body = saved;
      goto out;
    }
    char *decls = emit_fn_decls(&e, "  ");
    sb_printf(&funcs, "/* subgraph %d '%s' */\nstatic int32_t aot_subgraph_%d(aot_model_context_t *ctx) {\n",
              i, comment_text(g->src->subgraphs[i].name), i);
    if (e.uses_S) sb_puts(&funcs, "  uint8_t *const S = AOT_SCRATCH(ctx);\n");
    if (e.uses_P) sb_puts(&funcs, "  uint8_t *const P = AOT_PERSISTENT(ctx);\n");
    if (e.uses_st) sb_puts(&funcs, e.uses_fail ? "  int32_t st, failed_op;\n" : "  int32_t st;\n");
    sb_printf(&funcs, "%s%s%s\n  return aot_status_ok;\n%s}\n\n", decls, e.body.s ? "" : "  (void)ctx;\n",
              e.body.s ? e.body.s : "", e.uses_fail ? FAIL_EXIT : "");
    free(decls);
    sb_free(&e.body);
    e.body = saved;
  }
  /* operators of the main graph */
  emit_fn_begin(&e);
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
  /* constants: one struct per group, a member per tensor (codegen_consts.c) */
  size_t const_bytes = 0;
  if (gen_constants(g, o, e.const_used, &consts, &consts_h, &const_bytes, d) != 0) goto out;
  cg_relocate_const_refs(g, o, &e.body);
  cg_relocate_const_refs(g, o, &e.decls);
  cg_layout L;
  cg_layout_build(g, o, e.const_used, &L);
  /* each memory holds its regions (memory.constraints cap them) */
  for (int m = 0; m < o->nmems; m++) {
    if (o->mem_sizes[m] < 0) continue;
    size_t need = 0;
    strbuf parts = {0};
    for (int r = 0; r < L.nregions; r++) {
      if (!strcmp(L.regions[r].mem, o->mem_names[m])) {
        need += L.regions[r].size;
        sb_printf(&parts, "%s%s %zu", parts.len ? " + " : "",
                  L.regions[r].role == 0 ? "scratch" : L.regions[r].role == 1 ? "persistent" : L.regions[r].staged ? "staged constants" : "constants",
                  L.regions[r].size);
      }
      if (L.regions[r].staged && !strcmp(L.regions[r].src, o->mem_names[m])) { /* the blob they are copied from */
        need += L.regions[r].size;
        sb_printf(&parts, "%sconstant blob %zu", parts.len ? " + " : "", L.regions[r].size);
      }
    }
    if (need > (size_t)o->mem_sizes[m]) {
      diag_error(d, "memory %s: the plan needs %zu bytes (%s) but %lld are available (%s); put a role elsewhere with memory.tensors or raise the constraint",
                 o->mem_names[m], need, parts.s, o->mem_sizes[m], o->mem_source ? o->mem_source : "platform");
      sb_free(&parts);
      goto out_layout;
    }
    sb_free(&parts);
  }
  const char *SR = L.regions[L.r_scratch].name;
  const char *PR = L.r_persistent >= 0 ? L.regions[L.r_persistent].name : NULL;
  /* model.c */
  cg_banner(&model, o, "aot_model.c");
  sb_puts(&model, "#include \"aot_model.h\"\n\n#include <math.h>\n#include <string.h>\n\n"
                  "#include \"aot_constants.h\"\n#include \"aot_kernels.h\"\n\n");
  sb_printf(&model, "#define AOT_SCRATCH(ctx) ((uint8_t *)(ctx)->arena_buffers[%s])\n", SR);
  if (PR) sb_printf(&model, "#define AOT_PERSISTENT(ctx) ((uint8_t *)(ctx)->arena_buffers[%s])\n\n", PR);
  else sb_puts(&model, "/* no persistent arena: the model keeps no state */\n\n");
  /* one out-of-line call per operator event (the callback test inlined at
   * every op boundary cost ~20 bytes of code per op); init's loop uses it
   * too, so it is always there */
  sb_puts(&model,
          "/* Reports an operator event to the context's callback, if any. */\n"
          "#if defined(__GNUC__)\n__attribute__((noinline))\n#endif\n"
          "static void aot_op_event(const aot_model_context_t *ctx, int32_t op_id, aot_operator_state_t state) {\n"
          "  if (ctx->callback != NULL) ctx->callback(op_id, state, 0, ctx->user_data);\n}\n"
          "#define AOT_OP_START(id) aot_op_event(ctx, (id), aot_op_state_run_started)\n"
          "#define AOT_OP_DONE(id) aot_op_event(ctx, (id), aot_op_state_run_finished)\n\n");
  /* only when an op boundary merged the two events (emit_graph_ops) */
  if ((e.body.s && strstr(e.body.s, "AOT_OP_NEXT(")) || (funcs.s && strstr(funcs.s, "AOT_OP_NEXT(")))
    sb_puts(&model,
            "/* Reports that op done finished and op next started. */\n"
            "#if defined(__GNUC__)\n__attribute__((noinline))\n#endif\n"
            "static void aot_op_next(const aot_model_context_t *ctx, int32_t done, int32_t next) {\n"
            "  if (ctx->callback == NULL) return;\n"
            "  ctx->callback(done, aot_op_state_run_finished, 0, ctx->user_data);\n"
            "  ctx->callback(next, aot_op_state_run_started, 0, ctx->user_data);\n}\n"
            "#define AOT_OP_NEXT(done, id) aot_op_next(ctx, (done), (id))\n\n");
  /* only with a kernel call (an unused static function breaks -Werror) */
  if ((e.body.s && strstr(e.body.s, "goto fail;")) || (funcs.s && strstr(funcs.s, "goto fail;")))
    sb_puts(&model,
            "static int32_t aot_fail(aot_model_context_t *ctx, int32_t op_id, int32_t st) {\n"
            "  if (ctx->callback != NULL) ctx->callback(op_id, aot_op_state_run_finished, st, ctx->user_data);\n"
            "  return aot_status_kernel_failure;\n}\n\n");
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
  /* operator ids, for the init events */
  sb_puts(&model, "/* Operators in execution order (ids as in the .tflite model). */\nstatic const int32_t aot_op_ids[] = {");
  int nops_live = 0;
  for (int i = 0; i < g->nops; i++)
    if (!g->ops[i].dead) sb_printf(&model, "%s%ld", nops_live++ ? ", " : "", emit_op_uid(g, &g->ops[i]));
  if (!nops_live) sb_puts(&model, "0");
  sb_printf(&model, "};\n#define AOT_NUM_OPS %d\n\n", nops_live);
  sb_printf(&model, "int32_t aot_model_init(aot_model_context_t *ctx) {\n%s  int32_t st;\n  int i;\n", PR ? "  uint8_t *P;\n" : "");
  sb_puts(&model, ""
                  "  if (ctx == NULL) return aot_status_null_context;\n"
                  "  st = aot_context_init(ctx);\n  if (st != aot_status_ok) return st;\n");
  if (L.any_staged && o->auto_hydrate)
    sb_puts(&model, "  /* staged constants (memory.auto_hydrate_constants) */\n"
                    "  st = aot_model_hydrate(ctx);\n  if (st != aot_status_ok) return st;\n");
  else if (!L.any_staged)
    sb_puts(&model, "  ctx->_hydration_state = 1;  /* nothing staged */\n");
  else
    sb_puts(&model, "  /* staged constants: call aot_model_hydrate() before aot_model_run() */\n");
  sb_puts(&model, ""
                  "  /* operators keep no init state: their parameters are precomputed */\n"
                  "  for (i = 0; i < AOT_NUM_OPS; i++) {\n"
                  "    aot_op_event(ctx, aot_op_ids[i], aot_op_state_init_started);\n"
                  "    aot_op_event(ctx, aot_op_ids[i], aot_op_state_init_finished);\n"
                  "  }\n");
  if (PR) sb_printf(&model, "  P = AOT_PERSISTENT(ctx);\n  memset(P, 0, %s_size);  /* state starts at zero */\n", PR);
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
  sb_puts(&model, "  ctx->once_done = 0;\n  ctx->_lifecycle_state = 1;\n  return aot_status_ok;\n}\n\n");
  sb_puts(&model, "int32_t aot_model_run(aot_model_context_t *ctx) {\n");
  if (e.uses_st) sb_puts(&model, e.uses_fail ? "  int32_t st, failed_op;\n" : "  int32_t st;\n");
  sb_puts(&model, "  if (ctx == NULL) return aot_status_null_context;\n"
                  "  if (ctx->_lifecycle_state != 1) return aot_status_not_initialized;\n");
  if (L.any_staged) sb_puts(&model, "  if (ctx->_hydration_state != 1) return aot_status_hydration_required;\n");
  {
    /* activations by name: each tensor the run uses is a named pointer */
    char *decls = emit_fn_decls(&e, "  ");
    int nwin = 1 + (o->scratch_place ? o->scratch_place->ngroups : 0);
    int moved = o->scratch_place ? cg_relocate_scratch_refs(&L, nwin, &decls) : 0;
    int moved_body = !o->scratch_place ? 0 : moved < 0 ? -1 : cg_relocate_scratch_refs(&L, nwin, &e.body.s);
    if (moved < 0 || moved_body < 0) {
      free(decls);
      diag_error(d, "memory placement: an address outside the planned memories (internal error; remove the rules by id and scratch_placement and report it)");
      goto out_layout;
    }
    e.body.len = e.body.s ? strlen(e.body.s) : 0;
    e.body.cap = e.body.s ? e.body.len + 1 : 0;
    moved += moved_body;
    if (e.uses_S) sb_puts(&model, moved ? "  uint8_t *const S = AOT_SCRATCH(ctx);\n  (void)S;\n" : "  uint8_t *const S = AOT_SCRATCH(ctx);\n");
    if (e.uses_P) sb_puts(&model, "  uint8_t *const P = AOT_PERSISTENT(ctx);\n");
    sb_puts(&model, decls);
    free(decls);
  }
  if (e.body.s) sb_puts(&model, e.body.s);
  sb_printf(&model, "\n  return aot_status_ok;\n%s}\n", e.uses_fail ? FAIL_EXIT : "");
  /* files */
  {
    strbuf hm = {0}, ht = {0}, hc = {0}, hp = {0}, hco = {0}, tcs = {0};
    gen_model_h(o, &hm);
    gen_tensors_h(g, o, &L, &ht);
    gen_context_h(g, o, &hc);
    gen_platform_h(o, &hp);
    gen_common_h(o, &hco);
    gen_tensors_c(g, o, &L, &tcs);
    char *inc = xasprintf("%s/includes-api", dir), *srcd = xasprintf("%s/src", dir);
    int mk = mkdir(inc, 0755) | mkdir(srcd, 0755);
    free(inc);
    free(srcd);
    int w = mk != 0 ? diag_error(d, "cannot create directories in '%s'", dir) : 0;
    w = w || write_text(dir, "includes-api/aot_model.h", hm.s, o->prefix, d) ||
        write_text(dir, "includes-api/aot_tensors.h", ht.s, o->prefix, d) ||
        write_text(dir, "includes-api/aot_context.h", hc.s, o->prefix, d) ||
        write_text(dir, "includes-api/aot_platform.h", hp.s, o->prefix, d) ||
        write_text(dir, "includes-api/aot_common.h", hco.s, o->prefix, d) ||
        write_text(dir, "src/aot_tensors.c", tcs.s, o->prefix, d) ||
        write_text(dir, "src/aot_model.c", model.s, o->prefix, d) ||
        write_text(dir, "src/aot_constants.c", consts.s, o->prefix, d) ||
        write_text(dir, "src/aot_constants.h", consts_h.s, o->prefix, d) ||
        (o->shared_runtime ? cg_shared_check_kernels(o, (const char *const *)e.kernels, e.nkernels, d) != 0
                           : copy_runtime_headers(o, dir, (const char *const *)e.kernels, e.nkernels, d) != 0) ||
        cg_write_features(o, dir, (const char *const *)e.features, e.nfeatures, d) != 0;
    sb_free(&hm);
    sb_free(&ht);
    sb_free(&hc);
    sb_free(&hp);
    sb_free(&hco);
    sb_free(&tcs);
    if (w) goto out_layout;
  }
  if (e.nkernels > 0) qsort(e.kernels, (size_t)e.nkernels, sizeof(char *), cmp_str);
  for (int i = 0; i < e.nkernels; i++) cg_collect_kernel(e.kernels[i]);
  for (int i = 0; i < e.nkernels; i++)
    if ((!o->shared_runtime || e.kernels[i][0] == '/') && copy_runtime_file(o, e.kernels[i], dir, d) != 0) goto out_layout;
  if (o->test.enabled) {
    strbuf tc = {0}, th = {0}, tm = {0};
    gen_test_case(g, o, &tc, &th);
    cg_banner(&tm, o, "aot_test_main.c");
    sb_puts(&tm, "#include \"aot_test_case.h\"\n\nint main(void) { return aot_test_case_run() == 0 ? 0 : 1; }\n");
    int w = write_text(dir, "src/aot_test_case.c", tc.s, o->prefix, d) ||
            write_text(dir, "includes-api/aot_test_case.h", th.s, o->prefix, d) ||
            write_text(dir, "src/aot_test_main.c", tm.s, o->prefix, d);
    sb_free(&tc);
    sb_free(&th);
    sb_free(&tm);
    if (w) goto out_layout;
  }
  if (gen_build_glue(g, o, (const char *const *)e.kernels, e.nkernels, dir, d) != 0) goto out_layout;
  {
    strbuf svg = {0};
    gen_memory_svg(g, &svg);
    int w = write_text(dir, "memory.svg", svg.s, o->prefix, d);
    sb_free(&svg);
    if (w) goto out_layout;
  }
  gen_readme(g, o, &L, &rd, const_bytes, e.param_bytes);
  if (write_text(dir, "README.md", rd.s, o->prefix, d)) goto out_layout;
  if (o->dump_residency_json) {
    strbuf j = {0};
    gen_residency(g, o, &L, &j);
    int w = write_text(dir, "aot_residency.json", j.s, o->prefix, d);
    sb_free(&j);
    if (w) goto out_layout;
  }
  rc = 0;
out_layout:
  cg_layout_free(&L);
out:
  if (o->shared_runtime) cg_shared_end();
  for (int i = 0; i < e.npool; i++) free(e.pool[i]);
  free(e.pool);
  free(e.fn_names);
  free(e.fn_decls);
  free(e.kernels);
  free(e.features);
  for (int i = 0; i < nsg; i++) free(e.const_used[i]);
  free(e.const_used);
  sb_free(&funcs);
  sb_free(&e.decls);
  sb_free(&e.body);
  sb_free(&model);
  sb_free(&consts);
  sb_free(&consts_h);
  sb_free(&rd);
  return rc;
}
