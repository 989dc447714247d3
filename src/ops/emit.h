/* emit.h - the emit context behind the operators' emit API (ops.h), shared
 * by the operators (src/ops) and the code generator that owns the module
 * text (src/codegen). */
#ifndef AOTC_EMIT_H
#define AOTC_EMIT_H

#include "ops.h"

struct emit_ctx {
  const ir_graph *g;
  const ir_op *op;
  int opindex;
  char opname[64];
  strbuf decls;    /* file scope of model.c */
  strbuf body;     /* run function body */
  char **pool;     /* strings handed out to ops */
  int npool, cappool;
  char **const_used;       /* [subgraph][tensor]: constant referenced */
  const ir_graph *main;
  const char **kernels;    /* runtime files needed */
  int nkernels, capkernels;
  const char **features;   /* AOT_F_ kernel paths needed (emit_feature) */
  int nfeatures, capfeatures;
  int failed;
  /* the C function being emitted (the run function or a called subgraph's):
   * the named pointers it declares ("int8_t *const t12_conv = (int8_t *)(S +
   * 8000);") and whether it uses S, P and st */
  char **fn_names, **fn_decls;
  int fn_n, fn_cap;
  int uses_S, uses_P, uses_st;
  int uses_fail;   /* a kernel call jumps to the function's failure exit */
  size_t param_bytes;      /* bytes of the operators' constant parameter arrays */
};

/* Starts a new C function (forgets the named pointers of the previous one). */
void emit_fn_begin(emit_ctx *e);
/* The declarations of the named pointers the function uses, one per line with
 * the given indentation (malloc'd; "" if none). */
char *emit_fn_decls(emit_ctx *e, const char *indent);
/* Address expression of tensor t in the current graph ("((int8_t *)(S +
 * 8000))", the constant's name), without declaring a named pointer: for
 * comparing whether two tensors share storage. */
const char *emit_addr(emit_ctx *e, int t);

/* Operator id seen by the callback: the op index in the model for the main
 * subgraph, (subgraph << 16) | index for ops of called subgraphs. */
long emit_op_uid(const ir_graph *g, const ir_op *op);
/* The tensor whose flash array holds constant t (constants that share data,
 * e.g. an aliased reshape of a constant, share one array). */
int emit_const_owner(const ir_graph *g, int t);
/* Float literal text that round-trips exactly (C99 hex float). */
void emit_fmt_float(strbuf *b, float v);
/* Appends the elements of a typed array as C initializer text. */
void emit_fmt_values(strbuf *b, int dtype, const void *data, size_t n);

#endif
