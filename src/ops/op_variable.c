/* op_variable.c - resource variables (VAR_HANDLE, READ_VARIABLE,
 * ASSIGN_VARIABLE) and CALL_ONCE.
 *
 * Storage convention for eval(): the storage of a resource tensor (the output
 * of VAR_HANDLE, input 0 of READ_VARIABLE / ASSIGN_VARIABLE) IS the
 * variable's storage, i.e. data[resource] points at the variable's bytes
 * (the caller binds it, as the code generator binds it to the persistent
 * arena). With that, VAR_HANDLE has nothing to do, READ_VARIABLE copies the
 * variable into its output and ASSIGN_VARIABLE copies its value into the
 * variable. CALL_ONCE's eval does nothing: running the init subgraph once per
 * model instance is the caller's job (the reference interpreter in
 * src/ref/ref.c does it, with its own variable table).
 *
 * emit() is written by the code generator's owner; until then it refuses. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ops.h"

#define why_set ops_fail

static int plain_dtype(int dt) {
  return dt == DT_FLOAT32 || dt == DT_INT8 || dt == DT_UINT8 || dt == DT_INT16 ||
         dt == DT_INT32 || dt == DT_INT64 || dt == DT_BOOL;
}

static int static_shape(const ir_tensor *t) {
  for (int i = 0; i < t->rank; i++)
    if (t->shape[i] < 0) return 0;
  return 1;
}

static int var_emit_pending(emit_ctx *e, const ir_graph *g, const ir_op *op) {
  (void)e;
  (void)g;
  (void)op;
  return -1;
}

/* ---- VAR_HANDLE ---------------------------------------------------------- */

static int var_handle_check(const ir_graph *g, const ir_op *op, char *why, size_t n) {
  if (op->nout != 1 || op->out[0] < 0) return why_set(why, n, "expects one output");
  const ir_tensor *o = ir_out(g, op, 0);
  if (o->dtype != DT_RESOURCE)
    return why_set(why, n, "output is %s, expected resource", dtype_name(o->dtype));
  if (!op->opts.shared_name || !op->opts.shared_name[0])
    return why_set(why, n, "variable without shared_name");
  return 0;
}

/* VAR_HANDLE and CALL_ONCE compute nothing in the reference interpreter. */
static int var_eval_nothing(const ir_graph *g, const ir_op *op, void *const *data,
                            void *scratch) {
  (void)g;
  (void)op;
  (void)data;
  (void)scratch;
  return 0;
}

const op_impl op_var_handle = {
    .builtin = OP_VAR_HANDLE,
    .name = "VAR_HANDLE",
    .dtypes = "resource",
    .constraints = "one variable per (container, shared_name) pair, shared by every subgraph; "
                   "kept in the persistent arena",
    .check = var_handle_check,
    .emit = var_emit_pending,
    .eval = var_eval_nothing,
};

/* ---- READ_VARIABLE ------------------------------------------------------- */

/* A resource input r and the variable's value v: a plain type, a static
 * shape. */
static int var_check(const ir_tensor *r, const ir_tensor *v, char *why, size_t n) {
  if (r->dtype != DT_RESOURCE)
    return why_set(why, n, "input 0 is %s, expected resource", dtype_name(r->dtype));
  if (!plain_dtype(v->dtype))
    return why_set(why, n, "variable of type %s not supported", dtype_name(v->dtype));
  if (!static_shape(v)) return why_set(why, n, "variable with a dynamic shape not supported");
  return 0;
}

/* READ_VARIABLE copies the variable (input 0) to output 0, ASSIGN_VARIABLE
 * copies input 1 to the variable; one check and one copy serve both. */
static int var_access_check(const ir_graph *g, const ir_op *op, char *why, size_t n) {
  if (op->builtin == OP_READ_VARIABLE) {
    if (op->nin < 1 || op->in[0] < 0 || op->nout != 1 || op->out[0] < 0)
      return why_set(why, n, "expects one resource input and one output");
  } else if (op->nin < 2 || op->in[0] < 0 || op->in[1] < 0) {
    return why_set(why, n, "expects a resource input and a value input");
  }
  const ir_tensor *v = op->builtin == OP_READ_VARIABLE ? ir_out(g, op, 0) : ir_in(g, op, 1);
  return var_check(ir_in(g, op, 0), v, why, n);
}

static int var_access_eval(const ir_graph *g, const ir_op *op, void *const *data,
                           void *scratch) {
  (void)scratch;
  const int rd = op->builtin == OP_READ_VARIABLE;
  const int value = rd ? op->out[0] : op->in[1]; /* the tensor beside the variable */
  const int to = rd ? value : op->in[0], from = rd ? op->in[0] : value;
  memmove(data[to], data[from], ir_bytes(&g->t[value]));
  return 0;
}

const op_impl op_read_variable = {
    .builtin = OP_READ_VARIABLE,
    .name = "READ_VARIABLE",
    .dtypes = "float32, int8, uint8, int16, int32, int64, bool",
    .constraints = "static shape; reads zeros before the first ASSIGN_VARIABLE",
    .check = var_access_check,
    .emit = var_emit_pending,
    .eval = var_access_eval,
};

/* ---- ASSIGN_VARIABLE ----------------------------------------------------- */

const op_impl op_assign_variable = {
    .builtin = OP_ASSIGN_VARIABLE,
    .name = "ASSIGN_VARIABLE",
    .dtypes = "float32, int8, uint8, int16, int32, int64, bool",
    .constraints = "static shape; every assignment of one variable has the same type and size",
    .check = var_access_check,
    .emit = var_emit_pending,
    .eval = var_access_eval,
};

/* ---- CALL_ONCE ----------------------------------------------------------- */

static int call_once_check(const ir_graph *g, const ir_op *op, char *why, size_t n) {
  int s = op->opts.init_subgraph;
  const litert_model *m = g->src;
  if (!m) return why_set(why, n, "no model to find the init subgraph in");
  if (s < 0 || s >= m->nsubgraphs)
    return why_set(why, n, "init subgraph %d does not exist (model has %d)", s, m->nsubgraphs);
  if (s == g->sg) return why_set(why, n, "init subgraph %d is the calling subgraph", s);
  const litert_subgraph *sg = &m->subgraphs[s];
  if (sg->ninputs != 0 || sg->noutputs != 0)
    return why_set(why, n, "init subgraph %d has %d inputs and %d outputs (expected none)", s,
                   sg->ninputs, sg->noutputs);
  if (op->nin != 0 || op->nout != 0)
    return why_set(why, n, "CALL_ONCE with inputs or outputs not supported");
  return 0;
}

const op_impl op_call_once = {
    .builtin = OP_CALL_ONCE,
    .name = "CALL_ONCE",
    .dtypes = "-",
    .constraints = "runs its init subgraph (no inputs or outputs) on the first run after "
                   "<prefix>_model_init",
    .check = call_once_check,
    .emit = var_emit_pending,
    .eval = var_eval_nothing,
};
