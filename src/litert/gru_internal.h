/* gru_internal.h - internal interface of the rolled-GRU fusion hook
 * (fuse_gru.c, gru_eval.c, gru_form.c, gru_match.c, gru_rewrite.c): the
 * constant values, affine forms and loop context the files share, small
 * inline graph helpers, and the functions one file calls in another. */
#ifndef AOTC_GRU_INTERNAL_H
#define AOTC_GRU_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hooks.h"

#define MAXD 48                 /* recursion limit of every walk */
#define CEVAL_LIMIT (1u << 22)  /* largest constant the evaluator builds */

typedef struct cval {
  int dtype;        /* representation the values came from (DT_FLOAT16 for f16 data) */
  int rank;
  int32_t shape[8];
  size_t n;
  double *v;
  unsigned char *unk;   /* NULL, or per value: 1 if unknown (a dynamic dimension) */
} cval;

enum { V_UNKNOWN = 0, V_INVARIANT, V_COUNTER, V_STATE, V_LIST };

/* One loop under analysis. */
typedef struct form form;

enum { C_WX, C_WH, C_WRH, C_WRG, C_NMAT };
enum { C_BX, C_BH, C_BRG, C_NBIAS };

/* An affine function of the cell inputs, one row per output element:
 * row i = wx[i].x + wh[i].h + wrh[i].(r*h) + r_i * (wrg[i].h + brg[i]) + bx[i] + bh[i]. */
struct form {
  int rows;
  int bcast;                    /* a constant with one value for every row */
  float *w[C_NMAT];
  int cols[C_NMAT];
  int wcnt[C_NMAT];             /* contributions (more than one: summed values) */
  float *b[C_NBIAS];
  int bcnt[C_NBIAS];
  int any_f32, any_f16, inexact;
  int rgate;                    /* r gate tensor (body) used by C_WRH / C_WRG, or -1 */
  /* int8 weights (hybrid FULLY_CONNECTED): w[i] holds the integers and ws[i]
   * one scale per row; any_s8 set. q8_mixed: int8 weights were summed,
   * negated or scaled with other terms (no hybrid kernel computes that). */
  float *ws[C_NMAT];
  int any_s8, q8_mixed;
};

typedef struct gate_memo {
  int t;
  int ok;
  int act;
  form f;
} gate_memo;

typedef struct gctx {
  litert_model *m;
  int msg;                      /* main subgraph */
  int wi;                       /* WHILE op index in msg */
  const litert_op *wop;
  int cond, body;
  int n;                        /* loop variables */
  int *kind;
  int h_var, list_var, x_var;
  int h_arg;                    /* body tensor of h */
  int units, feat;
  int64_t batch;
  int act_dtype;
  gate_memo gm[8];
  int ngm;
  char nonconst[256];
  char baddtype[256];
  char badq8[256];              /* why int8 weights cannot run in the hybrid GRU */
  long *budget;                 /* steps left for the walks (hostile graphs) */
  /* results */
  int z_gate, r_gate, gate_act, cand_act, reset_after;
  form fz, fr, fn;
  int64_t trip;
} gctx;


int gru_producer_in(const litert_subgraph *s, int t);

/* ---- small helpers ---- */

static inline int builtin_of(const litert_model *m, const litert_op *op) {
  return litert_op_builtin(m, op);
}

static inline int64_t numel_of(const litert_tensor *t) {
  int64_t n = 1;
  for (int k = 0; k < t->rank; k++) n *= t->shape[k] < 0 ? 0 : t->shape[k];
  return t->rank < 0 ? 0 : n;
}

/* Width (last dimension) and lead (product of the others) of a tensor. */
static inline int width_of(const litert_tensor *t) { return t->rank >= 1 ? t->shape[t->rank - 1] : 1; }
static inline int64_t lead_of(const litert_tensor *t) {
  int64_t n = 1;
  for (int k = 0; k + 1 < t->rank; k++) n *= t->shape[k];
  return n;
}

static inline const litert_subgraph *SG(const gctx *g, int sg) { return &g->m->subgraphs[sg]; }

static inline int out_of_budget(const gctx *g) { return g->budget && --*g->budget < 0; }

static inline const litert_op *bprod(const gctx *g, int t) {
  const litert_subgraph *s = SG(g, g->body);
  int p = gru_producer_in(s, t);
  return p >= 0 ? &s->ops[p] : NULL;
}

static inline int bop(const gctx *g, const litert_op *op) { return op ? builtin_of(g->m, op) : -1; }

static inline const litert_tensor *BT(const gctx *g, int t) { return &SG(g, g->body)->tensors[t]; }

static inline int fused_none(const litert_op *op) { return op->opts.fused_act == ACT_NONE; }

/* gru_eval.c */
int gru_has_side_effects_builtin(int b);
int gru_input_pos(const litert_subgraph *s, int t);
int gru_is_output_of(const litert_subgraph *s, int t);
int gru_count_consumers(const litert_subgraph *s, int t);
int gru_static_dim(const litert_model *m, int sg, int t, int k);
void gru_cval_free(cval *c);
int gru_ss_dim(int dim, int64_t begin, int64_t end, int64_t stride, int bmask, int emask,
               int shrink, int64_t *start, int64_t *count);
int gru_ceval(const gctx *g, int sg, int t, cval *out, int depth);
int gru_is_value(const gctx *g, int sg, int t, float want);

/* gru_form.c */
int gru_strip(const gctx *g, int t);
int gru_is_counter_arg(const gctx *g, int t);
int gru_is_counter_next(const gctx *g, int t);
void gru_form_free(form *f);
void gru_form_init(form *f, int rows);
int gru_form_add(form *dst, const form *src, float sign);
int gru_form_of(gctx *g, int t, int depth, form *f);

/* gru_match.c */
int gru_match_gate(gctx *g, int t, int depth, gate_memo **out);
int gru_index_vector(gctx *g, int idx, int want_next, int rank, int kind_rest);
void gru_gctx_free(gctx *g);
int gru_match_loop(gctx *g);

/* gru_rewrite.c */
void gru_remove_op(litert_model *m, int sg, int pos);
enum { GRU_KEEP = 1, GRU_REFUSE = 2 };
int gru_check_loop(gctx *g, int collision, char *why, size_t nwhy, int *pdtype);
int gru_rewrite_loop(gctx *g, int pdtype);

/* fuse_gru.c */
char *gru_liveness(const litert_model *m, int sg);

#endif
