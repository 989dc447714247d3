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
  int failed;
};

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
