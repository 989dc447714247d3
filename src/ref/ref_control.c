/* ref_control.c - the reference interpreter's subgraph loop and control
 * flow.
 *
 * ref_run_subgraph runs the ops of a subgraph in model order: WHILE, IF and
 * CALL run other subgraphs (nested up to IR_MAX_CALL_DEPTH, no recursion:
 * a subgraph invoked while it runs is refused), CALL_ONCE runs its init
 * subgraph once per instance (on the first run after creation or reset),
 * the variable ops go to ref_var.c and every other op to ref_kernel.c.
 * Values cross between subgraphs as copies (rval: dtype, shape, bytes), so a
 * callee's input may take a run-time shape. Which wirings are valid is
 * decided before by ir_check_program (src/ir/verify_control.c), the check
 * the compiler applies too; what is checked here is what only a run shows:
 * a condition's value, and a WHILE loop whose body changed no loop variable
 * and no state (every op is deterministic: it would never end). */
#include "ref_internal.h"

#include <stdlib.h>
#include <string.h>

#include "../ir/verify_control.h"

enum { MAX_DEPTH = IR_MAX_CALL_DEPTH };
static const long MAX_WHILE_ITERATIONS = 100000000L;

/* A value carried between subgraphs (WHILE loop variables, IF/CALL I/O). */
typedef struct rval {
  int dtype, rank;
  int32_t shape[IR_MAX_RANK];
  size_t bytes;
  void *data;
} rval;

/* v becomes a copy of the given value. */
static void val_set(rval *v, int dtype, int rank, const int32_t *shape, const void *data,
                    size_t bytes) {
  v->dtype = dtype;
  v->rank = rank;
  memcpy(v->shape, shape, sizeof v->shape);
  v->bytes = bytes;
  free(v->data);
  v->data = xmalloc(bytes ? bytes : 1);
  if (bytes) memcpy(v->data, data, bytes);
}

static void val_from_tensor(const rsg *r, int t, rval *v) {
  const ir_tensor *x = &r->g->t[t];
  val_set(v, x->dtype, x->rank, x->shape, r->data[t], ref_tbytes(x));
}

/* The truth value of a condition's first element (*go); -1 for a dtype no
 * condition may have. */
static int cond_value(int dtype, const void *p, int *go) {
  switch (dtype) {
    case DT_BOOL: case DT_INT8: case DT_UINT8: *go = *(const uint8_t *)p != 0; return 0;
    case DT_INT16: *go = *(const int16_t *)p != 0; return 0;
    case DT_INT32: *go = *(const int32_t *)p != 0; return 0;
    case DT_INT64: *go = *(const int64_t *)p != 0; return 0;
    case DT_FLOAT32: *go = *(const float *)p != 0.0f; return 0;
    default: return -1;
  }
}

static int val_to_tensor(rinst *I, rsg *r, int t, const rval *v, const char *what) {
  ir_tensor *x = &r->g->t[t];
  char sl[96];
  if (x->dtype != v->dtype)
    return diag_error(I->d, "%s: %s: tensor %d '%s' is %s but receives %s", ref_sg_label(I, r->g->sg, sl, sizeof sl),
                      what, t, x->name, dtype_name(x->dtype), dtype_name(v->dtype));
  if (x->role == ROLE_CONST) {
    if (v->bytes != ref_tbytes(x) || memcmp(r->data[t], v->data, v->bytes) != 0)
      return diag_error(I->d, "%s: %s: constant tensor %d '%s' would be overwritten",
                        ref_sg_label(I, r->g->sg, sl, sizeof sl), what, t, x->name);
    return 0;
  }
  if (ref_set_shape(I, r, t, v->rank, v->shape)) return -1;
  if (v->bytes) memcpy(r->data[t], v->data, v->bytes);
  return 0;
}

static void vals_free(rval *v, int n) {
  for (int i = 0; i < n; i++) free(v[i].data);
  free(v);
}

/* Runs subgraph s with its inputs taken from vals (n of them); afterwards
 * vals holds its outputs (nout of them, vals sized for max(n, nout)). */
static int call_subgraph(rinst *I, int s, rval *vals, int n, int nout_expected, const char *what) {
  rsg *r = ref_get_sg(I, s);
  if (!r) return -1;
  char sl[96];
  const ir_graph *g = r->g;
  if (g->nin != n && nout_expected < 0)
    return diag_error(I->d, "%s: %s passes %d inputs, the subgraph has %d; the model is malformed, re-export it",
                      ref_sg_label(I, s, sl, sizeof sl), what, n, g->nin);
  if (g->nin != n || (nout_expected >= 0 && g->nout != nout_expected))
    return diag_error(I->d, "%s: %s passes %d inputs and expects %d outputs, the subgraph has %d and %d",
                      ref_sg_label(I, s, sl, sizeof sl), what, n, nout_expected, g->nin, g->nout);
  for (int i = 0; i < n; i++)
    if (val_to_tensor(I, r, g->inputs[i], &vals[i], what)) return -1;
  if (ref_run_subgraph(I, s)) return -1;
  for (int i = 0; i < g->nout; i++) val_from_tensor(r, g->outputs[i], &vals[i]);
  return 0;
}

static int run_while(rinst *I, rsg *r, const ir_op *op) {
  int n = op->nin;
  char lbl[256], sl[96];
  const ir_graph *g = r->g;
  int cs = op->opts.cond_subgraph, bs = op->opts.body_subgraph;
  if (op->nout != n)
    return diag_error(I->d, "%s %s: %d inputs but %d outputs", ref_sg_label(I, g->sg, sl, sizeof sl),
                      ref_op_label(g, op, lbl, sizeof lbl), n, op->nout);
  rsg *rc = ref_get_sg(I, cs), *rb = ref_get_sg(I, bs);
  if (!rc || !rb) return -1;
  r = &I->sg[g->sg];  /* I->sg is stable (allocated once) */
  if (rc->g->nout != 1 || rc->g->nin != n || rb->g->nin != n || rb->g->nout != n)
    return diag_error(I->d, "%s %s: cond subgraph %d (%d in, %d out) / body subgraph %d (%d in, %d out) do not match %d loop variables",
                      ref_sg_label(I, g->sg, sl, sizeof sl), ref_op_label(g, op, lbl, sizeof lbl), cs,
                      rc->g->nin, rc->g->nout, bs, rb->g->nin, rb->g->nout, n);
  rval *vals = xcalloc((size_t)(n + 1), sizeof(rval));
  rval *cv = xcalloc((size_t)(n + 1), sizeof(rval));
  for (int i = 0; i < n; i++) {
    if (op->in[i] < 0) {
      vals_free(vals, n);
      vals_free(cv, n);
      return diag_error(I->d, "%s %s: loop variable %d absent", ref_sg_label(I, g->sg, sl, sizeof sl),
                        ref_op_label(g, op, lbl, sizeof lbl), i);
    }
    val_from_tensor(r, op->in[i], &vals[i]);
  }
  int ret = 0;
  for (long it = 0;; it++) {
    if (it >= MAX_WHILE_ITERATIONS) {
      ret = diag_error(I->d, "%s %s: more than %ld iterations", ref_sg_label(I, g->sg, sl, sizeof sl),
                       ref_op_label(g, op, lbl, sizeof lbl), MAX_WHILE_ITERATIONS);
      break;
    }
    /* cond gets copies (its outputs replace cv[0]) */
    for (int i = 0; i < n; i++)
      val_set(&cv[i], vals[i].dtype, vals[i].rank, vals[i].shape, vals[i].data, vals[i].bytes);
    if (call_subgraph(I, cs, cv, n, 1, "WHILE condition")) {
      ret = -1;
      break;
    }
    int go = 0;
    const rval *c = &cv[0];
    if (c->bytes == 0) {
      ret = diag_error(I->d, "%s %s: condition output is empty", ref_sg_label(I, g->sg, sl, sizeof sl),
                       ref_op_label(g, op, lbl, sizeof lbl));
      break;
    }
    if (cond_value(c->dtype, c->data, &go))
      ret = diag_error(I->d, "%s %s: condition is %s", ref_sg_label(I, g->sg, sl, sizeof sl),
                         ref_op_label(g, op, lbl, sizeof lbl), dtype_name(c->dtype));
    if (ret || !go) break;
    unsigned long mut0 = I->mutations;
    if (call_subgraph(I, bs, vals, n, n, "WHILE body")) {
      ret = -1;
      break;
    }
    /* every op is deterministic: if the body changed no loop variable and
     * no state, the loop never ends (LiteRT would hang) */
    rb = &I->sg[bs];
    int same = I->mutations == mut0;
    for (int i = 0; i < n && same; i++) {
      int t = rb->g->inputs[i];
      const ir_tensor *x = &rb->g->t[t];
      if (!ref_same_shape(x->rank, x->shape, vals[i].rank, vals[i].shape) ||
          ref_tbytes(x) != vals[i].bytes || memcmp(rb->data[t], vals[i].data, vals[i].bytes) != 0)
        same = 0;
    }
    if (same) {
      ret = diag_error(I->d, "%s %s: the loop never ends (iteration %ld changed no loop variable)",
                       ref_sg_label(I, g->sg, sl, sizeof sl), ref_op_label(g, op, lbl, sizeof lbl), it + 1);
      break;
    }
  }
  for (int i = 0; i < n && ret == 0; i++)
    if (op->out[i] >= 0) ret = val_to_tensor(I, r, op->out[i], &vals[i], "WHILE output");
  vals_free(vals, n);
  vals_free(cv, n + 1);  /* cv[0] holds the condition even with no loop variables */
  return ret;
}

/* IF (input 0 is the condition) and CALL: the other inputs go to the chosen
 * subgraph, its outputs are the op's outputs. */
static int run_call(rinst *I, rsg *r, const ir_op *op, int s, int first_in, const char *what) {
  const ir_graph *g = r->g;
  int n = op->nin - first_in;
  int cap = n > op->nout ? n : op->nout;
  rval *vals = xcalloc((size_t)(cap + 1), sizeof(rval));
  char lbl[256], sl[96];
  int ret = 0;
  for (int i = 0; i < n && ret == 0; i++) {
    int t = op->in[first_in + i];
    if (t < 0)
      ret = diag_error(I->d, "%s %s: input %d absent", ref_sg_label(I, g->sg, sl, sizeof sl),
                       ref_op_label(g, op, lbl, sizeof lbl), first_in + i);
    else val_from_tensor(r, t, &vals[i]);
  }
  if (ret == 0 && call_subgraph(I, s, vals, n, op->nout, what)) ret = -1;
  r = &I->sg[g->sg];
  for (int i = 0; i < op->nout && ret == 0; i++)
    if (op->out[i] >= 0) ret = val_to_tensor(I, r, op->out[i], &vals[i], what);
  vals_free(vals, cap);
  return ret;
}

static int run_if(rinst *I, rsg *r, const ir_op *op) {
  char lbl[256], sl[96];
  const ir_graph *g = r->g;
  if (op->nin < 1 || op->in[0] < 0)
    return diag_error(I->d, "%s %s: no condition", ref_sg_label(I, g->sg, sl, sizeof sl), ref_op_label(g, op, lbl, sizeof lbl));
  const ir_tensor *c = &g->t[op->in[0]];
  const void *p = r->data[op->in[0]];
  int go;
  if (ir_numel(c) == 0)
    return diag_error(I->d, "%s %s: empty condition", ref_sg_label(I, g->sg, sl, sizeof sl), ref_op_label(g, op, lbl, sizeof lbl));
  if (cond_value(c->dtype, p, &go))
    return diag_error(I->d, "%s %s: condition is %s", ref_sg_label(I, g->sg, sl, sizeof sl),
                        ref_op_label(g, op, lbl, sizeof lbl), dtype_name(c->dtype));
  return run_call(I, r, op, go ? op->opts.then_subgraph : op->opts.else_subgraph, 1,
                  go ? "IF then-branch" : "IF else-branch");
}

int ref_run_subgraph(rinst *I, int s) {
  rsg *r = ref_get_sg(I, s);
  if (!r) return -1;
  char sl[96], lbl[256];
  if (r->active)
    return diag_unsupported(I->d, "%s is invoked recursively (it runs while already running); a microcontroller module needs a call tree, re-export the model without recursion",
                            ref_sg_label(I, s, sl, sizeof sl));
  if (I->depth >= MAX_DEPTH)
    return diag_unsupported(I->d, "%s: subgraph calls nested deeper than %d", ref_sg_label(I, s, sl, sizeof sl), MAX_DEPTH);
  r->active = 1;
  I->depth++;
  int rc = 0;
  for (int i = 0; i < r->g->nops && rc == 0; i++) {
    ir_op *op = &r->g->ops[i];
    switch (op->builtin) {
      case OP_WHILE:
        rc = run_while(I, r, op);
        break;
      case OP_IF:
        rc = run_if(I, r, op);
        break;
      case OP_CALL:
        rc = run_call(I, r, op, op->opts.subgraph, 0, "CALL");
        break;
      case OP_CALL_ONCE: {
        int is = op->opts.init_subgraph;
        if (is < 0 || is >= I->nsg) {
          rc = diag_error(I->d, "%s %s: init subgraph %d does not exist", ref_sg_label(I, s, sl, sizeof sl),
                          ref_op_label(r->g, op, lbl, sizeof lbl), is);
          break;
        }
        if (!I->once_done[is]) {
          rval dummy = {0};
          rc = call_subgraph(I, is, &dummy, 0, -1, "CALL_ONCE");
          free(dummy.data);
          if (rc == 0) I->once_done[is] = 1;
        }
        break;
      }
      case OP_VAR_HANDLE: case OP_READ_VARIABLE: case OP_ASSIGN_VARIABLE:
        rc = ref_run_var_op(I, r, op);
        break;
      default:
        rc = ref_run_kernel_op(I, r, op);
    }
    r = &I->sg[s];
  }
  I->depth--;
  r->active = 0;
  return rc;
}
