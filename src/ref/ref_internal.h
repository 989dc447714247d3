/* ref_internal.h - internal interface of the host reference interpreter
 * (ref.c, ref_inst.c, ref_kernel.c, ref_control.c, ref_var.c).
 *
 * An instance (rinst) holds, per subgraph (rsg, built on first use), the IR
 * graph of the original model subgraph, one buffer per tensor and the
 * declared shapes (to see run-time changes), plus the resource variables
 * (rvar), the CALL_ONCE flags, the shared scratch buffer and the call depth.
 * The functions below are the ones one file of the interpreter calls in
 * another: the instance and its run-time shapes (ref_inst.c), one kernel
 * operator (ref_kernel.c), the subgraph loop with control flow
 * (ref_control.c) and the resource-variable operators (ref_var.c). */
#ifndef AOTC_REF_INTERNAL_H
#define AOTC_REF_INTERNAL_H

#include "ref.h"

#include "../ir/ir.h"

/* What the instance keeps about one tensor besides its storage. */
typedef struct rtensor {
  size_t cap;                   /* allocated bytes (0 for consts) */
  int decl_rank;                /* declared shape, to see run-time changes */
  int32_t decl_shape[IR_MAX_RANK];
  uint8_t dynsig;               /* shape_signature holds -1 (or rank unknown) */
} rtensor;

typedef struct rsg {
  ir_graph *g;
  void **data;                  /* storage of each tensor (consts: model data) */
  rtensor *ts;                  /* per tensor: capacity, declared shape */
  int active;                   /* running (recursion guard) */
} rsg;

typedef struct rvar {
  char *container, *name;
  int assigned;
  int dtype, rank;
  int32_t shape[IR_MAX_RANK];
  void *data;
  size_t bytes;
} rvar;

typedef struct rinst {
  const litert_model *m;
  rsg *sg;                      /* built on first use */
  int nsg;
  rvar *vars;
  int nvars;
  uint8_t *once_done;           /* per init subgraph */
  void *scratch;
  size_t scratch_cap;
  int depth;
  int warned_hybrid;
  unsigned long mutations;      /* writes to state (variables, variable tensors) */
  aotc_diag *d;
} rinst;

/* ---- ref_inst.c: the instance ---------------------------------------------- */

rinst *ref_inst_new(const litert_model *m, aotc_diag *d);
void ref_inst_free(rinst *I);
/* Resets the state of the instance: variable tensors, resource variables,
 * CALL_ONCE. */
void ref_inst_reset(rinst *I);
/* Subgraph s of the instance, built on first use; NULL after an error. */
rsg *ref_get_sg(rinst *I, int s);
/* Bytes of a tensor's storage (a resource tensor holds an int32 handle). */
size_t ref_tbytes(const ir_tensor *t);
/* "subgraph 2 'body'" */
const char *ref_sg_label(const rinst *I, int s, char *buf, size_t n);
/* "op 3 (CONV_2D, int8 x int8 x int32 -> int8)" */
const char *ref_op_label(const ir_graph *g, const ir_op *op, char *buf, size_t n);
/* "[1, 2, 3]" */
void ref_shape_str(int rank, const int32_t *shape, char *buf, size_t n);

/* ---- ref_inst.c: tensor shapes at run time ----------------------------------- */

int ref_same_shape(int ra, const int32_t *a, int rb, const int32_t *b);
/* Tensor t has its declared shape. */
int ref_is_declared(const rsg *r, int t);
/* Gives tensor t a new shape (growing its buffer; new bytes zero). */
int ref_set_shape(rinst *I, rsg *r, int t, int rank, const int32_t *shape);

/* ---- running ------------------------------------------------------------------ */

/* Runs every op of subgraph s in order (ref_control.c). */
int ref_run_subgraph(rinst *I, int s);
/* Runs an op that has a kernel or an eval (ref_kernel.c). */
int ref_run_kernel_op(rinst *I, rsg *r, ir_op *op);
/* VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE (ref_var.c). */
int ref_run_var_op(rinst *I, rsg *r, const ir_op *op);

#endif
