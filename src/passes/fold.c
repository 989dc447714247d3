/* fold.c - the one constant folder: an op whose inputs are all constant is
 * evaluated now, with the same kernels the module would run (op_eval: a
 * lowered operator's kernel calls through their descriptors' host function
 * pointers, else the operator's eval), and its outputs become constants. The shape pass (shapes.c) folds
 * small integer "shape arithmetic" this way, the fold_constants transform
 * (transforms.c) everything up to its size limit; each decides which outputs
 * it wants folded, this file does the evaluation. */
#include "passes.h"

#include "../ops/ops.h"

#include <stdlib.h>
#include <string.h>

int pass_has_side_effects(const ir_graph *g, const ir_op *op) {
  switch (op->builtin) {
    case OP_ASSIGN_VARIABLE: case OP_CALL_ONCE: case OP_WHILE: case OP_IF:
    case OP_VAR_HANDLE: case OP_READ_VARIABLE: case OP_CALL: case OP_CUSTOM:
      return 1;
    default:
      break;
  }
  for (int k = 0; k < op->nin; k++)
    if (op->in[k] >= 0 && g->t[op->in[k]].role == ROLE_PERSISTENT) return 1;
  for (int k = 0; k < op->nout; k++)
    if (op->out[k] >= 0 && g->t[op->out[k]].role == ROLE_PERSISTENT) return 1;
  return 0;
}

void pass_make_const(ir_tensor *o, void *data) {
  free(o->owned_data);
  o->owned_data = data;
  o->data = o->owned_data;
  o->data_bytes = ir_bytes(o);
  o->role = ROLE_CONST;
}

int pass_fold_op(ir_graph *g, ir_op *op, int *status) {
  if (status) *status = 0;
  if (op->dead || op->nout < 1 || pass_has_side_effects(g, op)) return 0;
  int any = 0;
  for (int k = 0; k < op->nin; k++) {
    int t = op->in[k];
    if (t < 0) continue;
    if (g->t[t].role != ROLE_CONST || !g->t[t].data) return 0;
    any = 1;
  }
  if (!any) return 0;
  const op_impl *impl = ops_find(g, op);
  char why[256];
  if (!impl || !op_has_eval(impl) || (impl->check && impl->check(g, op, why, sizeof why) != 0)) return 0;
  void **data = xcalloc((size_t)g->nt, sizeof(void *));
  for (int k = 0; k < op->nin; k++)
    if (op->in[k] >= 0) data[op->in[k]] = (void *)g->t[op->in[k]].data;
  for (int k = 0; k < op->nout; k++)
    data[op->out[k]] = xcalloc(1, ir_bytes(&g->t[op->out[k]]) + 16);
  size_t sb = impl->scratch ? impl->scratch(g, op) : 0;
  void *scratch = xcalloc(1, sb + 16);
  int st = op_eval(impl, g, op, data, scratch);
  free(scratch);
  if (st != 0) {
    for (int k = 0; k < op->nout; k++) free(data[op->out[k]]);
    free(data);
    if (status) *status = st;
    return -1;
  }
  for (int k = 0; k < op->nout; k++) pass_make_const(&g->t[op->out[k]], data[op->out[k]]);
  free(data);
  op->dead = 1;
  return 1;
}
