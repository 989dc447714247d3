/* ir.h - the graph IR: one subgraph, independent of the flatbuffer.
 *
 * Built from a litert_model subgraph by ir_from_litert(); transforms rewrite
 * it; the planner assigns storage; codegen and the reference interpreter
 * read it. Operator ids are the original operator indices of the subgraph. */
#ifndef AOTC_IR_H
#define AOTC_IR_H

#include "../aotc.h"
#include "../litert/litert.h"

#define IR_MAX_RANK 8

typedef enum ir_role {
  ROLE_SCRATCH = 0,   /* activation in the scratch arena */
  ROLE_INPUT,         /* model input (lives in the scratch arena) */
  ROLE_OUTPUT,        /* model output (lives in the scratch arena) */
  ROLE_CONST,         /* constant data, emitted to flash */
  ROLE_PERSISTENT     /* variable / state tensor, persistent arena */
} ir_role;
const char *ir_role_name(ir_role r);

typedef struct ir_tensor {
  char *name;               /* model tensor name ("" if none) */
  char cname[128];          /* unique C identifier derived from name (or role) */
  int dtype;                /* aotc_dtype */
  int rank;
  int32_t shape[IR_MAX_RANK];
  /* quantization: nq == 0 means none; nq == 1 per-tensor; else per-channel
   * along qdim. */
  int nq;
  float *scale;             /* nq entries (owned) */
  int32_t *zero_point;      /* nq entries (owned) */
  int qdim;
  ir_role role;
  const uint8_t *data;      /* constant bytes (ROLE_CONST), else NULL */
  size_t data_bytes;
  uint8_t *owned_data;      /* set when data was produced by aotc (folding) */
  int alias;                /* -1, or tensor whose storage this one shares
                               (RESHAPE/SQUEEZE/EXPAND_DIMS aliases) */
  int io_index;             /* position in graph inputs/outputs, or -1 */
  int src_index;            /* tensor index in the litert subgraph */
  int is_variable;
  int pinned;               /* graph input kept live for the whole run (its
                               bytes are never reused, e.g. a state-feedback
                               target) */
  int used;                 /* referenced by a live op or a graph output
                               (recomputed by ir_mark_used) */
  /* set by the planner */
  int arena;                /* 0 scratch, 1 persistent, -1 none */
  size_t offset;
  int first_use, last_use;  /* op positions (indices into ops[]) */
} ir_tensor;

typedef struct ir_op {
  int id;                   /* original operator index */
  int builtin;              /* OP_* */
  int model_builtin;        /* the operator as the model has it (names in the
                               generated code and the reports); differs from
                               builtin where a transform runs the op as an
                               equivalent one (passes/dw_as_conv.c) */
  char *custom;             /* custom code for OP_CUSTOM, else NULL */
  int nin, nout;
  int *in;                  /* tensor ids; -1 = optional input absent */
  int *out;
  litert_options opts;      /* typed options (shared with the reader) */
  const uint8_t *custom_options;
  size_t custom_options_len;
  int dead;                 /* removed by a transform */
  int kernel_variant;       /* a kernel path chosen by counted cost
                               (passes/kernel_choice.c): 0 = the kernel's
                               rule, else AOT_DSP_VAR_* (aot_conv.h) */
  /* set by the planner */
  size_t scratch_bytes;     /* per-op scratch buffer */
  size_t scratch_offset;
} ir_op;

typedef struct ir_graph {
  ir_tensor *t;
  int nt;
  ir_op *ops;               /* execution order */
  int nops;
  int *inputs;              /* tensor ids in model input order */
  int nin;
  int *outputs;
  int nout;
  const litert_model *src;
  int sg;                   /* source subgraph index */
  /* planner results */
  size_t scratch_arena_bytes;     /* main graph: the whole module's arena */
  size_t scratch_lower_bound;
  size_t persistent_arena_bytes;  /* main graph: the whole module's arena */
  /* control flow (main graph only): every subgraph called through WHILE / IF /
   * CALL_ONCE, indexed by litert subgraph index (NULL when not called);
   * owned by the main graph */
  struct ir_graph **subgraphs;
  int nsubgraphs;
  size_t scratch_base;            /* offset of this graph's scratch region */
  size_t persistent_base;         /* offset of this graph's persistent tensors */
  size_t own_scratch_bytes;       /* this graph's own plan */
  size_t own_persistent_bytes;
  /* resource variables (main graph only): one persistent slot per
   * (container, shared_name) */
  int nvars;
  struct ir_var {
    char *key;                    /* "container/shared_name" */
    int dtype;
    size_t bytes;
    size_t offset;                /* in the persistent arena */
  } *vars;
} ir_graph;

/* Builds the IR of one subgraph (no transforms). */
ir_graph *ir_from_litert(const litert_model *m, int sg, aotc_diag *d);
void ir_free(ir_graph *g);

/* ---- editing helpers (for passes that add tensors and ops) ---- */
/* Appends a scratch tensor (no data, not an alias) named name (the graph takes
 * the malloc'd string) of dtype and shape (which may point into g->t); returns
 * its index. Pointers into g->t are invalidated. */
int ir_add_tensor(ir_graph *g, char *name, int dtype, int rank, const int32_t *shape);
/* Inserts an op at position pos of g->ops (later ops move up by one) with the
 * given id, inputs and outputs (copied) and default options; returns it.
 * Pointers into g->ops are invalidated. */
ir_op *ir_insert_op(ir_graph *g, int pos, int id, int builtin, int nin, const int *in, int nout,
                    const int *out);
/* (Re)computes the C identifier of tensor t from its name and index. */
void ir_set_cname(ir_graph *g, int t);

/* The op's name as the model has it: "CONV_2D", or the custom code
 * ("CUSTOM" when it has none). */
const char *ir_op_name(const ir_op *op);

/* Number of elements / bytes of a tensor. */
size_t ir_numel(const ir_tensor *t);
size_t ir_bytes(const ir_tensor *t);
/* Makes the n floats f (malloc'ed; the tensor takes them) the data of dequantized tensor t:
 * frees its own data, sets dtype float32 and drops its quantization. */
void ir_set_float_data(ir_tensor *t, float *f, size_t n);
/* Input/output tensor of an op, or NULL if absent. */
const ir_tensor *ir_in(const ir_graph *g, const ir_op *op, int i);
const ir_tensor *ir_out(const ir_graph *g, const ir_op *op, int i);
/* Storage root of a tensor (follows alias chains). */
int ir_root(const ir_graph *g, int t);
/* Recomputes ir_tensor.used; returns the number of used tensors. */
int ir_mark_used(ir_graph *g);
/* Number of live ops reading tensor t (t itself, not its aliases). */
int ir_consumers(const ir_graph *g, int t);
/* Index in ops[] of the live op producing t, or -1. */
int ir_producer(const ir_graph *g, int t);
/* 1 if t is a graph output. */
int ir_is_output(const ir_graph *g, int t);

/* "container/shared_name" of a VAR_HANDLE op (malloc'd). */
char *ir_var_key(const ir_op *op);
/* Index in main->vars of the resource variable that a READ_VARIABLE /
 * ASSIGN_VARIABLE op of graph g uses, or -1. */
int ir_var_slot(const ir_graph *main, const ir_graph *g, const ir_op *op);

/* ---- shape rules (shape_rules.c): the one shape rule of every operator ---- */
typedef struct ir_shape {
  int rank;
  int32_t d[IR_MAX_RANK];
} ir_shape;
/* Reads up to max int32/int64 values of tensor t; the count, or -1 when the
 * values are not available (not constant, wrong dtype, too many). */
typedef int (*ir_ints_fn)(const void *ctx, int t, int64_t *v, int max);
/* An ir_ints_fn over the constant tensors of a graph (ctx is the ir_graph). */
int ir_const_ints(const void *graph, int t, int64_t *v, int max);
/* Output shapes of op (os[0..nout)) from the current shapes of its inputs and
 * the values of its parameter inputs read with ints(ctx, ...). runtime = 0:
 * static mode, an unreadable parameter means "not known" (1); runtime = 1:
 * every parameter must be readable. Returns 0 (os filled), 1 (no rule, or a
 * parameter not known), -1 (inconsistent op; the reason in why). */
int ir_shape_rule(const ir_graph *g, const ir_op *op, ir_ints_fn ints, const void *ctx,
                  int runtime, ir_shape *os, char *why, size_t n);

/* Checks structural invariants; returns 0 or -1 with a message. */
int ir_verify(const ir_graph *g, aotc_diag *d);

#endif
