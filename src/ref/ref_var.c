/* ref_var.c - resource variables in the reference interpreter.
 *
 * VAR_HANDLE gives one slot per (container, shared_name) pair, shared by
 * every subgraph of the instance; a resource tensor holds slot+1 as an
 * int32 (0: no handle). ASSIGN_VARIABLE copies its value (dtype, shape and
 * bytes) into the slot and counts as a change of state (WHILE's endless-loop
 * check); READ_VARIABLE before any ASSIGN_VARIABLE reads zeros in the read
 * op's output shape and dtype. A reset of the instance drops every slot. */
#include "ref_internal.h"

#include <stdlib.h>
#include <string.h>

static int var_slot(rinst *I, const char *container, const char *name) {
  const char *c = container ? container : "", *nm = name ? name : "";
  for (int i = 0; i < I->nvars; i++)
    if (strcmp(I->vars[i].container, c) == 0 && strcmp(I->vars[i].name, nm) == 0) return i;
  I->vars = xrealloc(I->vars, (size_t)(I->nvars + 1) * sizeof(rvar));
  rvar *v = &I->vars[I->nvars];
  memset(v, 0, sizeof *v);
  v->container = xstrdup(c);
  v->name = xstrdup(nm);
  return I->nvars++;
}

static rvar *handle_var(rinst *I, rsg *r, const ir_op *op, int t) {
  char lbl[256], sl[96];
  const ir_graph *g = r->g;
  if (t < 0 || g->t[t].dtype != DT_RESOURCE) {
    diag_error(I->d, "%s %s: input 0 is not a resource tensor", ref_sg_label(I, g->sg, sl, sizeof sl),
               ref_op_label(g, op, lbl, sizeof lbl));
    return NULL;
  }
  int32_t h = *(const int32_t *)r->data[t];
  if (h <= 0 || h > I->nvars) {
    diag_error(I->d, "%s %s: resource tensor %d '%s' holds no variable handle (no VAR_HANDLE ran for it)",
               ref_sg_label(I, g->sg, sl, sizeof sl), ref_op_label(g, op, lbl, sizeof lbl), t, g->t[t].name);
    return NULL;
  }
  return &I->vars[h - 1];
}

int ref_run_var_op(rinst *I, rsg *r, const ir_op *op) {
  char lbl[256], sl[96];
  const ir_graph *g = r->g;
  if (op->builtin == OP_VAR_HANDLE) {
    if (op->nout < 1 || op->out[0] < 0 || g->t[op->out[0]].dtype != DT_RESOURCE)
      return diag_error(I->d, "%s %s: output is not a resource tensor", ref_sg_label(I, g->sg, sl, sizeof sl),
                        ref_op_label(g, op, lbl, sizeof lbl));
    int slot = var_slot(I, op->opts.container, op->opts.shared_name);
    *(int32_t *)r->data[op->out[0]] = slot + 1;
    return 0;
  }
  if (op->nin < 1) return diag_error(I->d, "%s %s: no resource input", ref_sg_label(I, g->sg, sl, sizeof sl), ref_op_label(g, op, lbl, sizeof lbl));
  rvar *v = handle_var(I, r, op, op->in[0]);
  if (!v) return -1;
  if (op->builtin == OP_READ_VARIABLE) {
    if (op->nout < 1 || op->out[0] < 0)
      return diag_error(I->d, "%s %s: no output", ref_sg_label(I, g->sg, sl, sizeof sl), ref_op_label(g, op, lbl, sizeof lbl));
    int t = op->out[0];
    const ir_tensor *x = &g->t[t];
    if (!v->assigned) {
      /* never assigned: zeros of the read op's shape and dtype */
      if (ref_set_shape(I, r, t, r->ts[t].decl_rank, r->ts[t].decl_shape)) return -1;
      memset(r->data[t], 0, ref_tbytes(x));
      return 0;
    }
    if (v->dtype != x->dtype)
      return diag_error(I->d, "%s %s: variable '%s' holds %s, the read expects %s",
                        ref_sg_label(I, g->sg, sl, sizeof sl), ref_op_label(g, op, lbl, sizeof lbl), v->name,
                        dtype_name(v->dtype), dtype_name(x->dtype));
    if (ref_set_shape(I, r, t, v->rank, v->shape)) return -1;
    memcpy(r->data[t], v->data, v->bytes);
    return 0;
  }
  /* ASSIGN_VARIABLE */
  if (op->nin < 2 || op->in[1] < 0)
    return diag_error(I->d, "%s %s: no value input", ref_sg_label(I, g->sg, sl, sizeof sl), ref_op_label(g, op, lbl, sizeof lbl));
  int t = op->in[1];
  const ir_tensor *x = &g->t[t];
  if (dtype_size(x->dtype) == 0)
    return diag_unsupported(I->d, "%s %s: variables of type %s not supported", ref_sg_label(I, g->sg, sl, sizeof sl),
                            ref_op_label(g, op, lbl, sizeof lbl), dtype_name(x->dtype));
  size_t b = ref_tbytes(x);
  if (b > v->bytes || !v->data) {
    free(v->data);
    v->data = xmalloc(b ? b : 1);
  }
  v->bytes = b;
  v->dtype = x->dtype;
  v->rank = x->rank;
  memcpy(v->shape, x->shape, sizeof v->shape);
  memcpy(v->data, r->data[t], b);
  v->assigned = 1;
  I->mutations++;
  return 0;
}
