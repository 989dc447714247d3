/* verify_control.c - the validity rules of control flow and wiring that the
 * compiler and the reference interpreter share (see verify_control.h).
 *
 * Everything here reads the LiteRT model as read (tensor indices are already
 * bounds-checked by the reader), reports the first problem as one line that
 * names the subgraph, the op (index and type), the tensor and the fix, and
 * never follows a subgraph index it has not checked. The call graph walk is a
 * depth-first search bounded by IR_MAX_CALL_DEPTH, so it needs no more stack
 * than the deepest accepted program. */
#include "verify_control.h"

#include <stdlib.h>
#include <string.h>

/* ---- labels --------------------------------------------------------------- */

static const char *sg_text(const litert_model *m, int s, char *buf, size_t n) {
  const char *nm = (s >= 0 && s < m->nsubgraphs) ? m->subgraphs[s].name : NULL;
  if (nm && *nm) snprintf(buf, n, "subgraph %d '%.48s'", s, nm);
  else snprintf(buf, n, "subgraph %d", s);
  return buf;
}

static const char *tname(const litert_model *m, int s, int t) {
  const char *nm = m->subgraphs[s].tensors[t].name;
  return nm ? nm : "";
}

static int is_const_tensor(const litert_model *m, int s, int t) {
  const litert_tensor *lt = &m->subgraphs[s].tensors[t];
  return lt->buffer > 0 && (int)lt->buffer < m->nbuffers && m->buffers[lt->buffer].size > 0 &&
         !lt->is_variable;
}

static int tdtype(const litert_model *m, int s, int t) { return m->subgraphs[s].tensors[t].type; }

/* Subgraphs an op calls; returns how many (at most 2). */
static int callees(const litert_model *m, const litert_op *op, int sg[2], const char *role[2]) {
  switch (litert_op_builtin(m, op)) {
    case OP_WHILE:
      sg[0] = op->opts.cond_subgraph, role[0] = "cond";
      sg[1] = op->opts.body_subgraph, role[1] = "body";
      return 2;
    case OP_IF:
      sg[0] = op->opts.then_subgraph, role[0] = "then";
      sg[1] = op->opts.else_subgraph, role[1] = "else";
      return 2;
    case OP_CALL_ONCE: sg[0] = op->opts.init_subgraph, role[0] = "init"; return 1;
    case OP_CALL: sg[0] = op->opts.subgraph, role[0] = "callee"; return 1;
    default: return 0;
  }
}

/* ---- call graph ------------------------------------------------------------- */

typedef struct walk {
  const litert_model *m;
  aotc_diag *d;
  uint8_t *state;          /* 0 new, 1 on the path, 2 done */
  int path_sg[IR_MAX_CALL_DEPTH + 2], path_op[IR_MAX_CALL_DEPTH + 2];
} walk;

/* "0 -> 1 (op 0 WHILE) -> ..." for the current path up to depth n, then s. */
static void path_text(const walk *w, int n, int s, strbuf *b) {
  for (int i = 0; i < n; i++) {
    if (n > 12 && i == 5) {
      sb_printf(b, "... -> ");
      i = n - 5;
    }
    const litert_subgraph *g = &w->m->subgraphs[w->path_sg[i]];
    const litert_op *op = &g->ops[w->path_op[i]];
    sb_printf(b, "%d (op %d %s) -> ", w->path_sg[i], w->path_op[i],
              litert_op_name(litert_op_builtin(w->m, op)));
  }
  sb_printf(b, "%d", s);
}

static int visit(walk *w, int s, int depth) {
  const litert_model *m = w->m;
  char l[96];
  w->path_sg[depth - 1] = s;
  if (depth > IR_MAX_CALL_DEPTH) {
    strbuf b = {0};
    path_text(w, depth - 1, s, &b);
    int r = diag_unsupported(w->d, "subgraph calls nested deeper than %d subgraphs (%s); flatten the nesting",
                             IR_MAX_CALL_DEPTH, b.s);
    sb_free(&b);
    return r;
  }
  w->state[s] = 1;
  const litert_subgraph *g = &m->subgraphs[s];
  for (int i = 0; i < g->nops; i++) {
    int cs[2];
    const char *role[2];
    int nc = callees(m, &g->ops[i], cs, role);
    w->path_op[depth - 1] = i;
    for (int k = 0; k < nc; k++) {
      int c = cs[k];
      const char *opn = litert_op_name(litert_op_builtin(m, &g->ops[i]));
      if (c < 0 || c >= m->nsubgraphs)
        return diag_error(w->d, "%s op %d (%s): %s subgraph %d does not exist (the model has %d); fix the op's subgraph index",
                          sg_text(m, s, l, sizeof l), i, opn, role[k], c, m->nsubgraphs);
      if (w->state[c] == 1 || c == 0) {
        strbuf b = {0};
        path_text(w, depth, c, &b);
        int r = diag_unsupported(w->d, "%s op %d (%s): %s subgraph %d calls back into a running subgraph (recursion %s); LiteRT and aotc need a call tree: break the cycle",
                                 sg_text(m, s, l, sizeof l), i, opn, role[k], c, b.s);
        sb_free(&b);
        return r;
      }
      if (w->state[c] == 0 && visit(w, c, depth + 1) != 0) return -1;
    }
  }
  w->state[s] = 2;
  return 0;
}

/* ---- wiring of one op ---------------------------------------------------------- */

static int cond_dtype_ok(int dt) {
  return dt == DT_BOOL || dt == DT_INT8 || dt == DT_UINT8 || dt == DT_INT16 || dt == DT_INT32 ||
         dt == DT_INT64 || dt == DT_FLOAT32;
}

/* Declared element count of a tensor, or -1 if its shape is not static. */
static long static_numel(const litert_tensor *t) {
  if (t->rank < 0) return -1;
  long n = 1;
  for (int i = 0; i < t->rank; i++) {
    if (t->shape[i] < 0 || (t->shape_signature && t->shape_signature[i] < 0)) return -1;
    n = t->shape[i] == 0 ? 0 : (n > (1L << 40) ? n : n * t->shape[i]);
  }
  return n;
}

/* Every input from first_in on and every output of op (a `what`, op i of
 * the subgraph labelled l) is wired to a tensor; else one error naming the
 * first absent one, with the hint for an input or an output. */
static int check_wired(const litert_op *op, int first_in, const char *what, const char *l, int i,
                       const char *in_hint, const char *out_hint, aotc_diag *d) {
  for (int k = first_in; k < op->ninputs; k++)
    if (op->inputs[k] < 0)
      return diag_error(d, "%s op %d (%s): input %d is absent (-1); %s", l, i, what, k, in_hint);
  for (int k = 0; k < op->noutputs; k++)
    if (op->outputs[k] < 0)
      return diag_error(d, "%s op %d (%s): output %d is absent (-1); %s", l, i, what, k, out_hint);
  return 0;
}

static int check_op(const litert_model *m, int s, int i, aotc_diag *d) {
  const litert_subgraph *g = &m->subgraphs[s];
  const litert_op *op = &g->ops[i];
  int b = litert_op_builtin(m, op);
  const char *opn = litert_op_name(b);
  char l[96], cl[96];
  sg_text(m, s, l, sizeof l);
  int cs[2];
  const char *role[2];
  int nc = callees(m, op, cs, role);
  switch (b) {
    case OP_WHILE: {
      int n = op->ninputs;
      int c = cs[0], bo = cs[1];
      if (c == bo)
        return diag_error(d, "%s op %d (WHILE): cond and body are both subgraph %d; a WHILE needs a condition subgraph and a separate body",
                          l, i, c);
      if (op->noutputs != n)
        return diag_error(d, "%s op %d (WHILE): %d loop variables in but %d out; a WHILE has one output per input",
                          l, i, n, op->noutputs);
      const litert_subgraph *cg = &m->subgraphs[c], *bg = &m->subgraphs[bo];
      if (cg->ninputs != n || cg->noutputs != 1)
        return diag_error(d, "%s op %d (WHILE): cond %s has %d inputs and %d outputs; it needs %d inputs (the loop variables) and 1 output",
                          l, i, sg_text(m, c, cl, sizeof cl), cg->ninputs, cg->noutputs, n);
      if (bg->ninputs != n || bg->noutputs != n)
        return diag_error(d, "%s op %d (WHILE): body %s has %d inputs and %d outputs; it needs %d of each (the loop variables)",
                          l, i, sg_text(m, bo, cl, sizeof cl), bg->ninputs, bg->noutputs, n);
      for (int k = 0; k < n; k++) {
        if (op->inputs[k] < 0 || op->outputs[k] < 0)
          return diag_error(d, "%s op %d (WHILE): loop variable %d is absent (%s -1); wire a tensor to every WHILE input and output",
                            l, i, k, op->inputs[k] < 0 ? "input" : "output");
        int dt = tdtype(m, s, op->inputs[k]);
        int dts[4] = {tdtype(m, s, op->outputs[k]), tdtype(m, c, cg->inputs[k]),
                      tdtype(m, bo, bg->inputs[k]), tdtype(m, bo, bg->outputs[k])};
        const char *what[4] = {"the op's output", "the cond input", "the body input", "the body output"};
        for (int q = 0; q < 4; q++)
          if (dts[q] != dt)
            return diag_error(d, "%s op %d (WHILE): loop variable %d '%s' is %s but %s %d is %s; every loop variable keeps one dtype",
                              l, i, k, tname(m, s, op->inputs[k]), dtype_name(dt), what[q], k, dtype_name(dts[q]));
      }
      const litert_tensor *ct = &cg->tensors[cg->outputs[0]];
      if (!cond_dtype_ok(ct->type))
        return diag_error(d, "%s op %d (WHILE): the cond output '%s' of %s is %s; it must be bool (or an integer or float32)",
                          l, i, ct->name ? ct->name : "", sg_text(m, c, cl, sizeof cl), dtype_name(ct->type));
      if (static_numel(ct) == 0)
        return diag_error(d, "%s op %d (WHILE): the cond output '%s' of %s has no elements; it must hold one value",
                          l, i, ct->name ? ct->name : "", sg_text(m, c, cl, sizeof cl));
      return 0;
    }
    case OP_IF: {
      if (op->ninputs < 1 || op->inputs[0] < 0)
        return diag_error(d, "%s op %d (IF): the condition (input 0) is absent; wire a bool tensor to it", l, i);
      const litert_tensor *ct = &g->tensors[op->inputs[0]];
      if (!cond_dtype_ok(ct->type))
        return diag_error(d, "%s op %d (IF): the condition '%s' is %s; it must be bool (or an integer or float32)",
                          l, i, ct->name ? ct->name : "", dtype_name(ct->type));
      if (static_numel(ct) == 0)
        return diag_error(d, "%s op %d (IF): the condition '%s' has no elements; it must hold one value", l, i,
                          ct->name ? ct->name : "");
      if (check_wired(op, 1, "IF", l, i, "wire a tensor to every branch input",
                      "wire a tensor to every IF output", d))
        return -1;
      for (int br = 0; br < 2; br++) {
        const litert_subgraph *bg = &m->subgraphs[cs[br]];
        if (bg->ninputs != op->ninputs - 1 || bg->noutputs != op->noutputs)
          return diag_error(d, "%s op %d (IF): %s branch %s has %d inputs and %d outputs; the op passes %d and expects %d",
                            l, i, role[br], sg_text(m, cs[br], cl, sizeof cl), bg->ninputs, bg->noutputs,
                            op->ninputs - 1, op->noutputs);
        for (int k = 0; k < bg->ninputs; k++)
          if (tdtype(m, cs[br], bg->inputs[k]) != tdtype(m, s, op->inputs[k + 1]))
            return diag_error(d, "%s op %d (IF): input %d '%s' is %s but %s branch %s takes %s; the dtypes must match",
                              l, i, k + 1, tname(m, s, op->inputs[k + 1]), dtype_name(tdtype(m, s, op->inputs[k + 1])),
                              role[br], sg_text(m, cs[br], cl, sizeof cl), dtype_name(tdtype(m, cs[br], bg->inputs[k])));
        for (int k = 0; k < bg->noutputs; k++)
          if (tdtype(m, cs[br], bg->outputs[k]) != tdtype(m, s, op->outputs[k]))
            return diag_error(d, "%s op %d (IF): output %d '%s' is %s but %s branch %s returns %s; the dtypes must match",
                              l, i, k, tname(m, s, op->outputs[k]), dtype_name(tdtype(m, s, op->outputs[k])),
                              role[br], sg_text(m, cs[br], cl, sizeof cl), dtype_name(tdtype(m, cs[br], bg->outputs[k])));
      }
      return 0;
    }
    case OP_CALL_ONCE: {
      const litert_subgraph *ig = &m->subgraphs[cs[0]];
      if (op->ninputs || op->noutputs || ig->ninputs || ig->noutputs)
        return diag_error(d, "%s op %d (CALL_ONCE): the op has %d inputs and %d outputs, init %s %d and %d; CALL_ONCE and its init subgraph take and return nothing",
                          l, i, op->ninputs, op->noutputs, sg_text(m, cs[0], cl, sizeof cl), ig->ninputs, ig->noutputs);
      return 0;
    }
    case OP_CALL: {
      const litert_subgraph *cg = &m->subgraphs[cs[0]];
      if (check_wired(op, 0, "CALL", l, i, "wire a tensor to it", "wire a tensor to it", d))
        return -1;
      if (cg->ninputs != op->ninputs || cg->noutputs != op->noutputs)
        return diag_error(d, "%s op %d (CALL): %s has %d inputs and %d outputs; the op passes %d and expects %d",
                          l, i, sg_text(m, cs[0], cl, sizeof cl), cg->ninputs, cg->noutputs, op->ninputs, op->noutputs);
      return 0;
    }
    case OP_VAR_HANDLE:
    case OP_READ_VARIABLE:
      if (op->noutputs < 1 || op->outputs[0] < 0)
        return diag_error(d, "%s op %d (%s): output 0 is absent; it must write a tensor", l, i, opn);
      if (b == OP_READ_VARIABLE && (op->ninputs < 1 || op->inputs[0] < 0))
        return diag_error(d, "%s op %d (READ_VARIABLE): the resource input 0 is absent; wire the VAR_HANDLE output to it", l, i);
      return 0;
    case OP_ASSIGN_VARIABLE:
      if (op->ninputs < 2 || op->inputs[0] < 0 || op->inputs[1] < 0)
        return diag_error(d, "%s op %d (ASSIGN_VARIABLE): needs the resource (input 0) and the value (input 1), has %d inputs%s",
                          l, i, op->ninputs, op->ninputs >= 2 ? " with one absent" : "");
      return 0;
    default:
      (void)nc;
      if (op->noutputs == 0)
        return diag_error(d, "%s op %d (%s) has no outputs; every operator except WHILE, IF, CALL_ONCE and ASSIGN_VARIABLE writes a tensor",
                          l, i, b == OP_CUSTOM ? "CUSTOM" : opn);
      return 0;
  }
}

int ir_check_program(const litert_model *m, aotc_diag *d) {
  if (!m || m->nsubgraphs < 1) return diag_error(d, "model has no subgraphs");
  walk w = {0};
  w.m = m;
  w.d = d;
  w.state = xcalloc((size_t)m->nsubgraphs, 1);
  int rc = visit(&w, 0, 1);
  char l[96];
  /* every subgraph the program reaches (state 2) */
  for (int s = 0; s < m->nsubgraphs && rc == 0; s++) {
    if (w.state[s] != 2) continue;
    const litert_subgraph *g = &m->subgraphs[s];
    for (int k = 0; k < g->ninputs && rc == 0; k++) {
      int t = g->inputs[k];
      if (t < 0 || t >= g->ntensors)
        rc = diag_error(d, "%s: input %d has bad tensor index %d", sg_text(m, s, l, sizeof l), k, t);
      else if (is_const_tensor(m, s, t))
        rc = diag_error(d, "%s: input %d (tensor %d '%s') is a constant (buffer %u holds data); %s remove its buffer or drop it from the inputs",
                        sg_text(m, s, l, sizeof l), k, t, tname(m, s, t), g->tensors[t].buffer,
                        s == 0 ? "model inputs are written at run time:" : "the caller writes subgraph inputs:");
    }
    for (int k = 0; k < g->noutputs && rc == 0; k++)
      if (g->outputs[k] < 0 || g->outputs[k] >= g->ntensors)
        rc = diag_error(d, "%s: output %d has bad tensor index %d", sg_text(m, s, l, sizeof l), k, g->outputs[k]);
    for (int i = 0; i < g->nops && rc == 0; i++) rc = check_op(m, s, i, d);
  }
  free(w.state);
  return rc;
}

/* ---- sizes across one call (after shape inference) -------------------------------- */

static int same_dims(const ir_tensor *a, const ir_tensor *b) {
  if (a->rank != b->rank) return 0;
  for (int i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i]) return 0;
  return 1;
}

static void dims_text(const ir_tensor *t, char *buf, size_t n) {
  size_t k = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < t->rank && k < n; i++) k += (size_t)snprintf(buf + k, n - k, "%s%d", i ? "," : "", t->shape[i]);
  if (k < n) snprintf(buf + k, n - k, "]");
}

int ir_check_call_io(const ir_graph *caller, const ir_op *op, const ir_graph *callee, int s,
                     aotc_diag *d) {
  const char *opn = litert_op_name(op->builtin);
  char a[64], b[64];
  int first_in = op->builtin == OP_IF ? 1 : 0;
  int is_cond = op->builtin == OP_WHILE && s == op->opts.cond_subgraph;
  /* inputs: the callee was compiled for these shapes */
  for (int k = 0; k < callee->nin && k + first_in < op->nin; k++) {
    const ir_tensor *x = &caller->t[op->in[k + first_in]], *y = &callee->t[callee->inputs[k]];
    if (x->dtype != y->dtype || !same_dims(x, y)) {
      dims_text(x, a, sizeof a);
      dims_text(y, b, sizeof b);
      return diag_unsupported(d, "op %d (%s) of subgraph %d passes %s %s as input %d of subgraph %d, which is compiled for %s %s (another call, or its declared shape); call it with one shape or give each caller its own subgraph",
                              op->id, opn, caller->sg, dtype_name(x->dtype), a, k, s, dtype_name(y->dtype), b);
    }
  }
  if (op->builtin == OP_CALL_ONCE) return 0;
  if (is_cond) {
    const ir_tensor *c = &callee->t[callee->outputs[0]];
    if (ir_numel(c) == 0)
      return diag_error(d, "op %d (WHILE) of subgraph %d: the cond output '%s' of subgraph %d has no elements; it must hold one value",
                        op->id, caller->sg, c->name, s);
    return 0;
  }
  /* outputs: body outputs go back into the loop variables, branch outputs
   * into the op's outputs; the bytes must match exactly */
  for (int k = 0; k < callee->nout && k < op->nout; k++) {
    const ir_tensor *y = &callee->t[callee->outputs[k]];
    const ir_tensor *to[2] = {op->out[k] >= 0 ? &caller->t[op->out[k]] : NULL,
                              op->builtin == OP_WHILE && k < callee->nin ? &callee->t[callee->inputs[k]] : NULL};
    for (int q = 0; q < 2; q++) {
      const ir_tensor *x = to[q];
      if (!x || (x->dtype == y->dtype && ir_bytes(x) == ir_bytes(y))) continue;
      dims_text(y, a, sizeof a);
      dims_text(x, b, sizeof b);
      return diag_error(d, "op %d (%s) of subgraph %d: output %d '%s' of subgraph %d is %s %s but the %s %d '%s' is %s %s; the sizes must match",
                        op->id, opn, caller->sg, k, y->name, s, dtype_name(y->dtype), a,
                        q ? "body input (loop variable)" : "op's output", k, x->name, dtype_name(x->dtype), b);
    }
  }
  return 0;
}
