/* mv_plan.h - the step engine shared by the data movement operators
 * (internal to src/ops).
 *
 * A movement operator is resolved at compile time into an mv_plan: a short
 * list of steps (strided N-d copies, fills, index-table gathers, requantizing
 * row copies, GATHER, CAST and RESIZE_BILINEAR kernel calls). One plan
 * function per operator (op_movement.c, op_layout.c) builds the list from the
 * IR; mv_engine.c checks, emits (as kernel calls with static const
 * parameters) and evaluates (on host buffers) the very same steps. */
#ifndef AOTC_MV_PLAN_H
#define AOTC_MV_PLAN_H

#include <string.h>

#include "ops.h"

#include "aot_movement.h"

#define MV_MAXD 16

typedef struct mv_copy {
  int rank;
  int32_t count[MV_MAXD];
  int64_t istr[MV_MAXD], ostr[MV_MAXD];
  int64_t in_off, out_off;
} mv_copy;

enum { ST_COPY, ST_FILL, ST_REQUANT, ST_INDEX_MAP, ST_GATHER, ST_CAST, ST_RESIZE_BL, ST_DYN_COPY };

typedef struct mv_step {
  int kind;
  int in_t, out_t, aux_t;   /* tensor ids (-1: none) */
  int esize;
  mv_copy c;                /* COPY; INDEX_MAP uses rank/count */
  /* COPY from constant bytes (in_t == -1): cdata with cdtype elements */
  int cdtype;
  int ncdata;
  int64_t cdata[IR_MAX_RANK];
  /* FILL: aux_t is the value tensor, or -1 for value[] */
  int32_t fill_count;
  uint8_t value[8];
  /* REQUANT */
  aot_requant_rows_params rq;
  int dtype;                /* REQUANT / RESIZE_BL element dtype */
  /* INDEX_MAP */
  int32_t *map;
  int nmap;
  int inner_contiguous;
  /* GATHER / CAST */
  aot_gather_params gp;
  aot_cast_params cp;
  /* RESIZE_BILINEAR */
  aot_resize_bilinear_params rb;
  int32_t *rb_i;            /* y0 y1 wy (out_h each) then x0 x1 wx (out_w each) */
  float *rb_f;              /* fy (out_h) then fx (out_w) */
  /* DYN_COPY: COPY (c) moved by run-time begin values read from aux_t */
  int nbeg, begin_is_64, on_output, clamp;
  int32_t dwrap[MV_MAXD], dlo[MV_MAXD], dhi[MV_MAXD], dstride[MV_MAXD];
} mv_step;

typedef struct mv_plan {
  int n, cap;
  mv_step *s;
} mv_plan;

typedef int (*mv_plan_fn)(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl);

/* shared helpers (mv_fail, mv_const_ints and mv_strides also serve op_reduce.c) */
#define mv_fail ops_fail
int mv_const_ints(const ir_graph *g, int tid, const char *what, int64_t *out, int max, int *n,
                  char *why, size_t wl);
void mv_strides(const int32_t *shape, int rank, int64_t *strides);
/* Row-major strides of a and b (each over its own rank) into astr / bstr, and
 * copy c emptied for crank dims: how the strided-copy plans start. */
static inline void mv_copy_start(const ir_tensor *a, const ir_tensor *b, int64_t *astr,
                                 int64_t *bstr, mv_copy *c, int crank) {
  mv_strides(a->shape, a->rank, astr);
  mv_strides(b->shape, b->rank, bstr);
  memset(c, 0, sizeof *c);
  c->rank = crank;
}
/* Reads the constant axis tensor tid (at most max values, negative ones
 * counted from the end) into mask[d] = 1 for each axis d of a rank-`rank`
 * tensor; -1 with a reason if one is out of range. */
int mv_const_axes(const ir_graph *g, int tid, int rank, int max, int mask[IR_MAX_RANK], char *why,
                  size_t wl);
int mv_same_quant(const ir_tensor *a, const ir_tensor *b);
int mv_check_plain(const ir_tensor *t, const char *what, char *why, size_t wl);
int mv_check_same_dtype(const ir_tensor *a, const ir_tensor *b, char *why, size_t wl);
int64_t mv_numel64(const ir_tensor *t);
/* input 0 and output 0 plain, of one dtype */
int mv_io_common(const ir_graph *g, const ir_op *op, char *why, size_t wl);
/* plan building (a step is appended and returned zeroed but for its kind) */
mv_step *mv_step_add(mv_plan *p, int kind);
/* Simplifies copy c (merges contiguous dimensions); fails on empty/negative counts. */
int mv_copy_finish(mv_copy *c, char *why, size_t wl);
/* Adds a COPY step; c is simplified in place. */
int mv_add_copy(mv_plan *p, int in_t, int out_t, int esize, mv_copy *c, char *why, size_t wl);
/* Adds a contiguous copy of n elements. */
int mv_add_flat_copy(mv_plan *p, int in_t, int out_t, int esize, int64_t n, char *why,
                     size_t wl);
/* Adds a copy moved at run time by the nbeg begin values in tensor begin_t
 * (the caller fills the step's lo/hi/wrap/stride; see aot_copy_nd_dyn). */
mv_step *mv_add_dyn_copy(mv_plan *p, int in_t, int out_t, int esize, mv_copy *c, int begin_t,
                         int nbeg, char *why, size_t wl);
/* Adds a FILL of count elements of out_t. */
mv_step *mv_add_fill(mv_plan *p, int out_t, int esize, int64_t count);
/* A run-time begin tensor: int32/int64 with n values. */
int mv_check_dyn_begin(const ir_graph *g, int tid, int n, const char *what, char *why,
                       size_t wl);
/* 1 if tensor tid is computed at run time (not a constant). */
int mv_is_runtime(const ir_graph *g, int tid);

/* op_impl glue: check/emit/eval of a plan function */
int mv_run_check(mv_plan_fn fn, const ir_graph *g, const ir_op *op, char *why, size_t wl);
int mv_run_emit(mv_plan_fn fn, emit_ctx *e, const ir_graph *g, const ir_op *op);
int mv_run_eval(mv_plan_fn fn, const ir_graph *g, const ir_op *op, void *const *data);

#define MV_OP(name, code, NAME, DT, CONS, fn, inpl)                                            \
  static int name##_check(const ir_graph *g, const ir_op *op, char *why, size_t wl) {         \
    return mv_run_check(fn, g, op, why, wl);                                                      \
  }                                                                                            \
  static int name##_emit(emit_ctx *e, const ir_graph *g, const ir_op *op) {                    \
    return mv_run_emit(fn, e, g, op);                                                             \
  }                                                                                            \
  static int name##_eval(const ir_graph *g, const ir_op *op, void *const *data, void *scr) {   \
    (void)scr;                                                                                 \
    return mv_run_eval(fn, g, op, data);                                                          \
  }                                                                                            \
  const op_impl op_##name = {code, NULL, NAME, DT, CONS, name##_check, NULL, inpl,             \
                             name##_emit, name##_eval, NULL};

#define ANY_DT "any fixed-size dtype"

#define IN(i) ir_in(g, op, (i))
#define OUT(i) ir_out(g, op, (i))

#endif
