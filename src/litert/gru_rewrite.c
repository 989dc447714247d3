/* gru_rewrite.c - replacing a proven GRU loop by the custom GRU operator
 * (fuse_rolled_gru).
 *
 * gru_check_loop() turns the cases no GRU kernel runs into errors (non-constant
 * parameters, dtype mixes, batch > 1, stateful GRUs, a colliding "GRU"
 * opcode) and picks the parameter dtype. gru_rewrite_loop() builds the packed
 * W [3U, F], U [3U, U] and the x / h biases from the gate forms, bypasses a
 * REVERSE_V2 (go_backwards) and a [1, T, F] -> [T, 1, F] TRANSPOSE feeding
 * x, turns a selection of the last sequence row into a RESHAPE of the final
 * state, rewires counters and invariants, and writes CUSTOM GRU (plus
 * shape-only RESHAPEs) in place of the WHILE. Also the op-array editing
 * helpers it uses. */
#include "gru_internal.h"

#include <stdlib.h>
#include <string.h>

#include "aot_recurrent.h"

/* ---- rewriting the main subgraph -------------------------------------------------------- */


static int insert_op(litert_model *m, int sg, int pos, int builtin, const char *custom, int nin,
                     const int32_t *in, int nout, const int32_t *out, const litert_options *o) {
  int at = litert_add_op(m, sg, builtin, custom, nin, in, nout, out, o);
  litert_subgraph *s = &m->subgraphs[sg];
  litert_op tmp = s->ops[at];
  memmove(&s->ops[pos + 1], &s->ops[pos], sizeof *s->ops * (size_t)(at - pos));
  s->ops[pos] = tmp;
  return pos;
}

void gru_remove_op(litert_model *m, int sg, int pos) {
  litert_subgraph *s = &m->subgraphs[sg];
  litert_op_free(&s->ops[pos]);
  memmove(&s->ops[pos], &s->ops[pos + 1], sizeof *s->ops * (size_t)(s->nops - pos - 1));
  s->nops--;
}

static void replace_uses(litert_model *m, int sg, int from, int to) {
  litert_subgraph *s = &m->subgraphs[sg];
  for (int i = 0; i < s->nops; i++)
    for (int k = 0; k < s->ops[i].ninputs; k++)
      if (s->ops[i].inputs[k] == from) s->ops[i].inputs[k] = to;
}

static void set_shape(litert_model *m, int sg, int t, int rank, const int32_t *shape) {
  litert_tensor *x = &m->subgraphs[sg].tensors[t];
  free(x->shape);
  free(x->shape_signature);
  x->shape_signature = NULL;
  x->rank = rank;
  x->shape = xmalloc(sizeof(int32_t) * (size_t)(rank > 0 ? rank : 1));
  memcpy(x->shape, shape, sizeof(int32_t) * (size_t)rank);
}

static int add_const(litert_model *m, int sg, const char *name, int type, int rank,
                     const int32_t *shape, const void *data, size_t bytes) {
  int b = litert_add_buffer(m, data, bytes);
  return litert_add_tensor(m, sg, name, type, rank, shape, b);
}

static int add_shape_const(litert_model *m, int sg, const char *base, int rank, const int32_t *shape) {
  char *nm = xasprintf("%s/shape", base);
  int32_t r = rank;
  int t = add_const(m, sg, nm, DT_INT32, 1, &r, shape, sizeof(int32_t) * (size_t)rank);
  free(nm);
  return t;
}

/* RESHAPE src -> dst (dst's shape given) inserted at pos. */
static void insert_reshape(litert_model *m, int sg, int pos, int src, int dst, const char *base) {
  const litert_tensor *D = &m->subgraphs[sg].tensors[dst];
  int32_t shp[8];
  int rank = D->rank;
  memcpy(shp, D->shape, sizeof(int32_t) * (size_t)rank);
  int st = add_shape_const(m, sg, base, rank, shp);
  litert_options o;
  litert_options_default(&o);
  o.type = BO_ReshapeOptions;
  o.new_shape_n = rank;
  for (int k = 0; k < rank; k++) o.new_shape[k] = shp[k];
  int32_t in[2] = {src, st}, out[1] = {dst};
  insert_op(m, sg, pos, OP_RESHAPE, NULL, 2, in, 1, out, &o);
  litert_options_free(&o);
}

static void put_le32(uint8_t *p, int32_t v) {
  uint32_t u = (uint32_t)v;
  p[0] = (uint8_t)u, p[1] = (uint8_t)(u >> 8), p[2] = (uint8_t)(u >> 16), p[3] = (uint8_t)(u >> 24);
}

/* Is op (in main) a selection of the last row of the [T, B, U] list L
 * (directly, or through RESHAPE(L, SHAPE(L)) / a same-shape reshape)? Writes
 * the selected tensor. */
static int is_last_step(gctx *g, int op_i, int L, int64_t T) {
  const litert_subgraph *M = SG(g, g->msg);
  const litert_op *op = &M->ops[op_i];
  int b = builtin_of(g->m, op);
  if (b != OP_STRIDED_SLICE || op->ninputs < 4 || op->opts.ellipsis_mask ||
      op->opts.new_axis_mask || op->opts.ss_offset)
    return 0;
  int src = op->inputs[0];
  if (src != L) {
    int p = gru_producer_in(M, src);
    if (p < 0) return 0;
    const litert_op *r = &M->ops[p];
    if (builtin_of(g->m, r) != OP_RESHAPE || r->inputs[0] != L) return 0;
    int ok = 0;
    if (r->ninputs >= 2) {
      int sp = gru_producer_in(M, r->inputs[1]);
      if (sp >= 0 && builtin_of(g->m, &M->ops[sp]) == OP_SHAPE && M->ops[sp].inputs[0] == L) ok = 1;
    }
    if (!ok) return 0;
  }
  cval bg, en, st;
  int ok = 0;
  if (gru_ceval(g, g->msg, op->inputs[1], &bg, 0) == 0) {
    if (gru_ceval(g, g->msg, op->inputs[2], &en, 0) == 0) {
      if (gru_ceval(g, g->msg, op->inputs[3], &st, 0) == 0) {
        if (bg.n == 3 && en.n == 3 && st.n == 3) {
          int32_t dims[3] = {(int32_t)T, (int32_t)g->batch, g->units};
          ok = 1;
          for (int k = 0; k < 3 && ok; k++) {
            int64_t s0, c0;
            int shrink = (op->opts.shrink_axis_mask >> k) & 1;
            if (gru_ss_dim(dims[k], (int64_t)bg.v[k], (int64_t)en.v[k], (int64_t)st.v[k],
                       (op->opts.begin_mask >> k) & 1, (op->opts.end_mask >> k) & 1, shrink, &s0,
                       &c0) != 0 || st.v[k] != 1)
              ok = 0;
            else if (k == 0 && (s0 != T - 1 || c0 != 1))
              ok = 0;
            else if (k > 0 && (shrink || s0 != 0 || c0 != dims[k]))
              ok = 0;
          }
        }
        gru_cval_free(&st);
      }
      gru_cval_free(&en);
    }
    gru_cval_free(&bg);
  }
  return ok;
}

typedef struct gru_params {
  int pdtype;                   /* DT_FLOAT32, DT_FLOAT16 or DT_INT8 (hybrid) */
  float *W, *U, *bx, *bh;       /* bx / bh NULL when absent */
  float *Ws, *Us;               /* int8 W / U: one scale per row, else NULL */
} gru_params;

static void copy_rows(float *dst, const float *src, size_t n) {
  if (src) memcpy(dst, src, n * sizeof(float));
}

static void build_params(gctx *g, gru_params *p) {
  int U = g->units, F = g->feat;
  size_t uf = (size_t)U * (size_t)F, uu = (size_t)U * (size_t)U;
  p->W = xcalloc(3 * uf, sizeof(float));
  p->U = xcalloc(3 * uu, sizeof(float));
  copy_rows(p->W, g->fz.w[C_WX], uf);
  copy_rows(p->W + uf, g->fr.w[C_WX], uf);
  copy_rows(p->W + 2 * uf, g->fn.w[C_WX], uf);
  copy_rows(p->U, g->fz.w[C_WH], uu);
  copy_rows(p->U + uu, g->fr.w[C_WH], uu);
  copy_rows(p->U + 2 * uu, g->reset_after ? g->fn.w[C_WRG] : g->fn.w[C_WRH], uu);
  /* int8 weights: the rows' scales */
  p->Ws = p->Us = NULL;
  if (g->fz.w[C_WX] && g->fz.ws[C_WX]) {
    const float *ws[3] = {g->fz.ws[C_WX], g->fr.ws[C_WX], g->fn.ws[C_WX]};
    const float *us[3] = {g->fz.ws[C_WH], g->fr.ws[C_WH],
                          g->reset_after ? g->fn.ws[C_WRG] : g->fn.ws[C_WRH]};
    p->Ws = xcalloc((size_t)3 * (size_t)U, sizeof(float));
    p->Us = xcalloc((size_t)3 * (size_t)U, sizeof(float));
    for (int gi = 0; gi < 3; gi++) {
      copy_rows(p->Ws + (size_t)gi * (size_t)U, ws[gi], (size_t)U);
      copy_rows(p->Us + (size_t)gi * (size_t)U, us[gi], (size_t)U);
    }
  }
  /* biases: x side, h side */
  const float *xs[3] = {g->fz.b[C_BX], g->fr.b[C_BX], g->fn.b[C_BX]};
  const float *hs[3] = {g->fz.b[C_BH], g->fr.b[C_BH], g->reset_after ? g->fn.b[C_BRG] : g->fn.b[C_BH]};
  const float *extra_x = g->reset_after ? g->fn.b[C_BH] : NULL; /* outside r: part of bn */
  p->bx = p->bh = NULL;
  if (xs[0] || xs[1] || xs[2] || extra_x) {
    p->bx = xcalloc((size_t)3 * (size_t)U, sizeof(float));
    for (int gi = 0; gi < 3; gi++) copy_rows(p->bx + (size_t)gi * (size_t)U, xs[gi], (size_t)U);
    if (extra_x)
      for (int r = 0; r < U; r++) p->bx[2 * (size_t)U + (size_t)r] += extra_x[r];
  }
  if (hs[0] || hs[1] || hs[2]) {
    p->bh = xcalloc((size_t)3 * (size_t)U, sizeof(float));
    for (int gi = 0; gi < 3; gi++) copy_rows(p->bh + (size_t)gi * (size_t)U, hs[gi], (size_t)U);
  }
}

static void free_params(gru_params *p) {
  free(p->W), free(p->U), free(p->bx), free(p->bh), free(p->Ws), free(p->Us);
}

static int add_param(litert_model *m, int sg, const char *base, const char *what, int dtype,
                     const float *v, int rank, const int32_t *shape) {
  size_t n = 1;
  for (int k = 0; k < rank; k++) n *= (size_t)shape[k];
  char *nm = xasprintf("%s/%s", base, what);
  int t;
  if (dtype == DT_INT8) {
    /* v holds the integers; the scales are attached by the caller */
    int8_t *q = xmalloc(n + 1);
    for (size_t i = 0; i < n; i++) q[i] = (int8_t)v[i];
    t = add_const(m, sg, nm, DT_INT8, rank, shape, q, n);
    free(q);
  } else if (dtype == DT_FLOAT16) {
    uint16_t *h = xmalloc(n * 2 + 2);
    for (size_t i = 0; i < n; i++) h[i] = aot_f32_to_f16(v[i]);
    t = add_const(m, sg, nm, DT_FLOAT16, rank, shape, h, n * 2);
    free(h);
  } else {
    t = add_const(m, sg, nm, DT_FLOAT32, rank, shape, v, n * 4);
  }
  free(nm);
  return t;
}

/* Per-row (axis 0) symmetric quantization of an int8 parameter. */
static void set_row_scales(litert_tensor *t, const float *scale, int n) {
  litert_quant *q = &t->q;
  free(q->scale), free(q->zero_point);
  q->nscale = q->nzero = n;
  q->scale = xmalloc(sizeof(float) * (size_t)n);
  memcpy(q->scale, scale, sizeof(float) * (size_t)n);
  q->zero_point = xcalloc((size_t)n, sizeof(int64_t));
  q->quantized_dimension = 0;
}

/* Post-match checks. Returns 0 (fuse, *pdtype set), GRU_KEEP (why says why
 * no GRU kernel runs this loop; it stays a WHILE) or GRU_REFUSE (a colliding
 * "GRU" operator code: the model cannot take the fused operator). */
int gru_check_loop(gctx *g, int collision, char *why, size_t nwhy, int *pdtype) {
  const litert_model *m = g->m;
  const litert_subgraph *M = SG(g, g->msg);
  const litert_op *w = g->wop;
#define LOOPERR(...)                     \
  do {                                   \
    snprintf(why, nwhy, __VA_ARGS__);    \
    return GRU_KEEP;                     \
  } while (0)
  if (g->nonconst[0]) LOOPERR("GRU projection parameter %s; the GRU operator needs constant weights and biases", g->nonconst);
  if (g->baddtype[0]) LOOPERR("%s; no GRU kernel supports this dtype mix", g->baddtype);
  if (g->badq8[0]) LOOPERR("%s; the hybrid GRU kernel needs them", g->badq8);
  if (g->batch != 1) LOOPERR("batch %lld; the GRU operator supports batch 1 only", (long long)g->batch);
  /* activation dtypes */
  const litert_subgraph *B = SG(g, g->body);
  int adt = B->tensors[g->h_arg].type;
  int xdt = M->tensors[w->inputs[g->x_var]].type;
  int h0dt = M->tensors[w->inputs[g->h_var]].type;
  if ((adt != DT_FLOAT32 && adt != DT_FLOAT16) || xdt != adt || h0dt != adt ||
      M->tensors[w->outputs[g->h_var]].type != adt ||
      (g->list_var >= 0 && M->tensors[w->outputs[g->list_var]].type != adt))
    LOOPERR("input %s, state %s; no GRU kernel supports this dtype mix (float32 or float16 "
            "activations)", dtype_name(xdt), dtype_name(adt));
  g->act_dtype = adt;
  int any_f32 = g->fz.any_f32 || g->fr.any_f32 || g->fn.any_f32;
  int any_f16 = g->fz.any_f16 || g->fr.any_f16 || g->fn.any_f16;
  int inexact = g->fz.inexact || g->fr.inexact || g->fn.inexact;
  for (int i = 0; i < C_NMAT; i++)
    if (g->fz.wcnt[i] > 1 || g->fr.wcnt[i] > 1 || g->fn.wcnt[i] > 1) inexact = 1;
  for (int i = 0; i < C_NBIAS; i++)
    if (g->fz.bcnt[i] > 1 || g->fr.bcnt[i] > 1 || g->fn.bcnt[i] > 1) inexact = 1;
  if (g->reset_after && g->fn.b[C_BH] && g->fn.b[C_BX]) inexact = 1;
  int any_s8 = g->fz.any_s8 || g->fr.any_s8 || g->fn.any_s8;
  if (any_s8) {
    /* hybrid: every projection an int8 FULLY_CONNECTED of its own */
    const float *m6[6] = {g->fz.w[C_WX], g->fr.w[C_WX], g->fn.w[C_WX], g->fz.w[C_WH],
                          g->fr.w[C_WH], g->reset_after ? g->fn.w[C_WRG] : g->fn.w[C_WRH]};
    const float *s6[6] = {g->fz.ws[C_WX], g->fr.ws[C_WX], g->fn.ws[C_WX], g->fz.ws[C_WH],
                          g->fr.ws[C_WH], g->reset_after ? g->fn.ws[C_WRG] : g->fn.ws[C_WRH]};
    for (int i = 0; i < 6; i++)
      if (!m6[i] || !s6[i])
        LOOPERR("the cell mixes int8 and float (or absent) projections; the hybrid GRU kernel "
                "needs every projection of x and h as int8 weights");
    if (g->fz.q8_mixed || g->fr.q8_mixed || g->fn.q8_mixed)
      LOOPERR("int8 projections are summed, negated or scaled in the cell; the hybrid GRU "
              "kernel computes each as one hybrid FULLY_CONNECTED");
    if (adt != DT_FLOAT32)
      LOOPERR("%s activations with int8 weights; the hybrid GRU kernel takes float32",
              dtype_name(adt));
    if (any_f16) LOOPERR("int8 weights with float16 biases; no GRU kernel supports this mix");
    *pdtype = DT_INT8;
  } else if (adt == DT_FLOAT16) {
    if (any_f32) LOOPERR("float16 activations with float32 weights; no GRU kernel supports this dtype mix");
    *pdtype = DT_FLOAT16;
  } else {
    *pdtype = (any_f16 && !any_f32 && !inexact) ? DT_FLOAT16 : DT_FLOAT32;
  }
  /* state in resource variables / variable tensors */
  int h0 = w->inputs[g->h_var];
  int hp = gru_producer_in(M, h0);
  if (M->tensors[h0].is_variable || (hp >= 0 && builtin_of(m, &M->ops[hp]) == OP_READ_VARIABLE))
    LOOPERR("the GRU state is held in a persistent variable (stateful GRU); not supported");
  int hout = w->outputs[g->h_var];
  for (int i = 0; i < M->nops; i++) {
    if (builtin_of(m, &M->ops[i]) != OP_ASSIGN_VARIABLE) continue;
    for (int k = 0; k < M->ops[i].ninputs; k++)
      if (M->ops[i].inputs[k] == hout)
        LOOPERR("the GRU state is stored into a persistent variable (stateful GRU); not supported");
  }
  if (collision) {
    snprintf(why, nwhy, "the model already declares a custom operator code \"GRU\"; cannot add "
             "the fused GRU operator (or disable the hook: --litert-hooks.fuse_rolled_gru false)");
    return GRU_REFUSE;
  }
#undef LOOPERR
  return 0;
}

/* Replaces the verified loop. Returns the index after the last op written. */
int gru_rewrite_loop(gctx *g, int pdtype) {
  litert_model *m = g->m;
  int sg = g->msg;
  int wi = g->wi;
  /* copy what we need from the WHILE before the op array moves */
  int n = g->n;
  int32_t *win = xmalloc(sizeof(int32_t) * (size_t)n), *wout = xmalloc(sizeof(int32_t) * (size_t)n);
  memcpy(win, m->subgraphs[sg].ops[wi].inputs, sizeof(int32_t) * (size_t)n);
  memcpy(wout, m->subgraphs[sg].ops[wi].outputs, sizeof(int32_t) * (size_t)n);
  int U = g->units, F = g->feat;
  int32_t T = (int32_t)g->trip;
  const char *hn = m->subgraphs[sg].tensors[wout[g->h_var]].name;
  char *base = xasprintf("%s/gru", hn && *hn ? hn : "while");
  int adt = g->act_dtype;

  /* x: bypass REVERSE_V2 (go_backwards) and a [1,T,F] -> [T,1,F] TRANSPOSE */
  int x = win[g->x_var];
  int go_back = 0;
  {
    const litert_subgraph *M = &m->subgraphs[sg];
    int p = gru_producer_in(M, x);
    if (p >= 0 && builtin_of(m, &M->ops[p]) == OP_REVERSE_V2 && M->ops[p].ninputs == 2) {
      cval ax;
      if (gru_ceval(g, sg, M->ops[p].inputs[1], &ax, 0) == 0 && ax.n == 1 &&
          (ax.v[0] == 0 || ax.v[0] == -3)) {
        x = M->ops[p].inputs[0];
        go_back = 1;
      }
      gru_cval_free(&ax);
    }
    p = gru_producer_in(M, x);
    if (p >= 0 && builtin_of(m, &M->ops[p]) == OP_TRANSPOSE && M->ops[p].ninputs == 2) {
      cval pm;
      const litert_tensor *S = &M->tensors[M->ops[p].inputs[0]];
      if (gru_ceval(g, sg, M->ops[p].inputs[1], &pm, 0) == 0 && pm.n == 3 && pm.v[0] == 1 &&
          pm.v[1] == 0 && pm.v[2] == 2 && S->rank == 3 && S->shape[0] == 1 && S->shape[1] == T &&
          S->shape[2] == F && S->type == adt)
        x = M->ops[p].inputs[0];
      gru_cval_free(&pm);
    }
  }
  int pos = wi;
  const litert_tensor *XT = &m->subgraphs[sg].tensors[x];
  if (!(XT->rank == 3 && XT->shape[0] == 1 && XT->shape[1] == T && XT->shape[2] == F)) {
    int32_t shp[3] = {1, T, F};
    char *nm = xasprintf("%s/x", base);
    int nx = litert_add_tensor(m, sg, nm, adt, 3, shp, 0);
    free(nm);
    insert_reshape(m, sg, pos, x, nx, base);
    pos++;
    x = nx;
  }

  /* h0: a constant when it evaluates to one */
  int h0 = win[g->h_var];
  {
    cval c;
    int32_t shp[2] = {1, U};
    if (gru_ceval(g, sg, h0, &c, 0) == 0 && c.n == (size_t)U) {
      float *v = xmalloc(sizeof(float) * (size_t)U);
      for (int i = 0; i < U; i++) v[i] = (float)c.v[i];
      h0 = add_param(m, sg, base, "h0", adt, v, 2, shp);
      free(v);
    } else if (numel_of(&m->subgraphs[sg].tensors[h0]) != U) {
      set_shape(m, sg, h0, 2, shp);
    }
    gru_cval_free(&c);
  }

  /* parameters */
  gru_params p;
  build_params(g, &p);
  int32_t wsh[2] = {3 * U, F}, ush[2] = {3 * U, U}, bsh[1] = {3 * U};
  int tw = add_param(m, sg, base, "W", pdtype, p.W, 2, wsh);
  int tu = add_param(m, sg, base, "U", pdtype, p.U, 2, ush);
  int bdt = pdtype == DT_INT8 ? DT_FLOAT32 : pdtype;
  int tbx = p.bx ? add_param(m, sg, base, "bias_x", bdt, p.bx, 1, bsh) : -1;
  int tbh = p.bh ? add_param(m, sg, base, "bias_h", bdt, p.bh, 1, bsh) : -1;
  if (pdtype == DT_INT8) {
    set_row_scales(&m->subgraphs[sg].tensors[tw], p.Ws, 3 * U);
    set_row_scales(&m->subgraphs[sg].tensors[tu], p.Us, 3 * U);
  }
  free_params(&p);

  /* outputs */
  int hs = wout[g->h_var];
  {
    int32_t shp[2] = {1, U};
    set_shape(m, sg, hs, 2, shp);
  }
  int need_seq = 0;
  int L = g->list_var >= 0 ? wout[g->list_var] : -1;
  if (L >= 0) {
    litert_subgraph *M = &m->subgraphs[sg];
    for (int i = wi + 1; i < M->nops; i++) {
      int uses = 0;
      for (int k = 0; k < M->ops[i].ninputs; k++) uses |= M->ops[i].inputs[k] == L;
      int reads_via = 0;
      if (!uses && builtin_of(m, &M->ops[i]) == OP_STRIDED_SLICE && M->ops[i].ninputs >= 1) {
        int pp = gru_producer_in(M, M->ops[i].inputs[0]);
        reads_via = pp >= 0 && builtin_of(m, &M->ops[pp]) == OP_RESHAPE && M->ops[pp].inputs[0] == L;
      }
      if (!uses && !reads_via) continue;
      if (is_last_step(g, i, L, T)) {
        /* becomes RESHAPE(final state) */
        litert_op *op = &M->ops[i];
        int out_t = op->outputs[0];
        const litert_tensor *O = &M->tensors[out_t];
        int32_t shp[3];
        int rank = O->rank == 3 ? 3 : 2;
        if (rank == 3) shp[0] = 1, shp[1] = 1, shp[2] = U;
        else shp[0] = 1, shp[1] = U;
        set_shape(m, sg, out_t, rank, shp);
        int st = add_shape_const(m, sg, base, rank, shp);
        int oci = -1;
        for (int oc = 0; oc < m->nopcodes && oci < 0; oc++)
          if (m->opcodes[oc].builtin == OP_RESHAPE && !m->opcodes[oc].custom_code) oci = oc;
        if (oci < 0) oci = litert_add_opcode(m, OP_RESHAPE, NULL, 1);
        M = &m->subgraphs[sg];
        op = &M->ops[i];
        litert_op_free(op);
        int32_t in[2] = {hs, st};
        op->opcode_index = (uint32_t)oci;
        op = &M->ops[i];
        op->ninputs = 2;
        op->inputs = xmalloc(sizeof in);
        memcpy(op->inputs, in, sizeof in);
        op->noutputs = 1;
        op->outputs = xmalloc(sizeof(int32_t));
        op->outputs[0] = out_t;
        litert_options_default(&op->opts);
        op->opts.type = BO_ReshapeOptions;
        op->opts.new_shape_n = rank;
        for (int k = 0; k < rank; k++) op->opts.new_shape[k] = shp[k];
      }
    }
    /* whatever still reads the list needs the whole sequence */
    char *live = gru_liveness(m, sg);
    M = &m->subgraphs[sg];
    for (int i = wi + 1; i < M->nops; i++)
      for (int k = 0; live[i] && k < M->ops[i].ninputs; k++)
        if (M->ops[i].inputs[k] == L) need_seq = 1;
    free(live);
    if (gru_is_output_of(M, L)) need_seq = 1;
  }
  int32_t sq_shape[3] = {1, need_seq ? T : 1, U};
  char *nm = xasprintf("%s/sequence", base);
  int sq = litert_add_tensor(m, sg, nm, adt, 3, sq_shape, 0);
  free(nm);

  /* counters and invariants: rewire their readers */
  for (int k = 0; k < n; k++) {
    if (k == g->h_var || k == g->list_var) continue;
    if (gru_count_consumers(&m->subgraphs[sg], wout[k]) == 0) continue;
    if (g->kind[k] == V_INVARIANT) {
      replace_uses(m, sg, wout[k], win[k]);
    } else if (g->kind[k] == V_COUNTER) {
      char *cn = xasprintf("%s/steps", base);
      int32_t v = T;
      int ct = add_const(m, sg, cn, DT_INT32, 0, NULL, &v, 4);
      free(cn);
      replace_uses(m, sg, wout[k], ct);
    }
  }

  /* the GRU op replaces the WHILE */
  uint8_t opts[AOT_GRU_OPTIONS_SIZE];
  put_le32(opts, U);
  put_le32(opts + 4, g->reset_after);
  put_le32(opts + 8, g->gate_act);
  put_le32(opts + 12, g->cand_act);
  put_le32(opts + 16, go_back);
  put_le32(opts + 20, need_seq);
  int32_t in[6] = {x, h0, tw, tu, tbx, tbh};
  int32_t out[2] = {sq, hs};
  int wpos = pos;
  /* the WHILE is now at pos (after the inserted x reshape) */
  gru_remove_op(m, sg, wpos);
  insert_op(m, sg, wpos, OP_CUSTOM, "GRU", 6, in, 2, out, NULL);
  litert_op *gop = &m->subgraphs[sg].ops[wpos];
  gop->custom_options = xmalloc(sizeof opts);
  memcpy(gop->custom_options, opts, sizeof opts);
  gop->custom_options_len = sizeof opts;
  pos = wpos + 1;
  if (need_seq) {
    int32_t shp[3] = {T, 1, U};
    set_shape(m, sg, L, 3, shp);
    insert_reshape(m, sg, pos, sq, L, base);
    pos++;
  }
  free(base);
  free(win);
  free(wout);
  return pos;
}
