/* gru_form.c - affine forms of the GRU cell (fuse_rolled_gru).
 *
 * gru_strip() follows the ops that leave a row vector's values unchanged
 * (shape-only reshapes, same-type casts, products with all-ones masks).
 * gru_form_of() decomposes a body tensor into an affine function of the cell
 * inputs: x_t (a GATHER / row read of an invariant [T, B, F] tensor at the
 * counter), h, r * h and r-gated h, with constant weights and biases
 * collected from FULLY_CONNECTED, ADD / SUB, SPLIT / SLICE / STRIDED_SLICE
 * of wide projections, and products with constants. The forms record the
 * dtypes of the constants, whether sums or scalings made them inexact, and
 * which parameter was not constant. */
#include "gru_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- body structure ---------------------------------------------------------------- */



/* c is an all-ones factor that leaves `other` unchanged when multiplied. */
static int is_ones_for(const gctx *g, int c, int other) {
  if (!gru_is_value(g, g->body, c, 1.0f)) return 0;
  const litert_op *p = bprod(g, c);
  if (p && bop(g, p) == OP_FILL && p->ninputs >= 2) {
    const litert_op *sh = bprod(g, p->inputs[0]);
    if (sh && bop(g, sh) == OP_SHAPE && sh->ninputs >= 1 && gru_strip(g, sh->inputs[0]) == gru_strip(g, other))
      return 1;
  }
  const litert_tensor *C = BT(g, c), *O = BT(g, other);
  int dyn = 0;
  for (int k = 0; C->shape_signature && k < C->rank; k++)
    if (C->shape_signature[k] < 0) dyn = 1;
  if (dyn) return 0;
  if (numel_of(C) == 1) return 1;
  return lead_of(C) == 1 && width_of(C) == width_of(O);
}

/* Follows ops that do not change the values of a row vector: reshapes that
 * keep [lead, width], casts to the same type, products with ones. */
int gru_strip(const gctx *g, int t) {
  for (int d = 0; d < MAXD && t >= 0; d++) {
    const litert_op *op = bprod(g, t);
    int b = bop(g, op);
    if (!op || op->ninputs < 1 || op->inputs[0] < 0) return t;
    int in0 = op->inputs[0];
    if (b == OP_RESHAPE || b == OP_SQUEEZE || b == OP_EXPAND_DIMS) {
      const litert_tensor *a = BT(g, in0), *o = BT(g, t);
      if (width_of(a) == width_of(o) && lead_of(a) == lead_of(o)) {
        t = in0;
        continue;
      }
      return t;
    }
    if (b == OP_CAST && BT(g, in0)->type == BT(g, t)->type) {
      t = in0;
      continue;
    }
    if (b == OP_MUL && op->ninputs == 2 && fused_none(op) && op->inputs[1] >= 0) {
      if (is_ones_for(g, op->inputs[1], in0)) {
        t = in0;
        continue;
      }
      if (is_ones_for(g, in0, op->inputs[1])) {
        t = op->inputs[1];
        continue;
      }
    }
    return t;
  }
  return t;
}

/* Loop variable whose body input is t (after gru_strip), or -1. */
static int var_of(const gctx *g, int t) {
  int ip = gru_input_pos(SG(g, g->body), gru_strip(g, t));
  return ip >= 0 && ip < g->n ? ip : -1;
}

int gru_is_counter_arg(const gctx *g, int t) {
  int v = var_of(g, t);
  return v >= 0 && g->kind[v] == V_COUNTER;
}

/* t = counter + 1 (an ADD of a counter and the constant 1). */
int gru_is_counter_next(const gctx *g, int t) {
  t = gru_strip(g, t);
  const litert_op *op = bprod(g, t);
  if (bop(g, op) != OP_ADD || op->ninputs != 2 || !fused_none(op)) return 0;
  for (int k = 0; k < 2; k++)
    if (gru_is_counter_arg(g, op->inputs[k]) && gru_is_value(g, g->body, op->inputs[1 - k], 1.0f)) return 1;
  return 0;
}

/* ---- affine forms --------------------------------------------------------------------- */

void gru_form_free(form *f) {
  for (int i = 0; i < C_NMAT; i++) free(f->w[i]), free(f->ws[i]);
  for (int i = 0; i < C_NBIAS; i++) free(f->b[i]);
  memset(f, 0, sizeof *f);
  f->rgate = -1;
}

void gru_form_init(form *f, int rows) {
  memset(f, 0, sizeof *f);
  f->rows = rows;
  f->rgate = -1;
}

static void note_dtype(form *f, int dt) {
  if (dt == DT_FLOAT16) f->any_f16 = 1;
  else f->any_f32 = 1;
}

/* dst += sign * src (rows must agree, or src is a broadcast constant). */
int gru_form_add(form *dst, const form *src, float sign) {
  if (src->bcast && !dst->bcast) {
    for (int i = 0; i < C_NMAT; i++)
      if (src->w[i]) return -1;
  } else if (dst->bcast && !src->bcast) {
    for (int i = 0; i < C_NMAT; i++)
      if (dst->w[i]) return -1;
    /* widen dst's biases to src's rows */
    for (int i = 0; i < C_NBIAS; i++) {
      if (!dst->b[i]) continue;
      float v = dst->b[i][0];
      float *nb = xmalloc(sizeof(float) * (size_t)src->rows);
      for (int r = 0; r < src->rows; r++) nb[r] = v;
      free(dst->b[i]);
      dst->b[i] = nb;
    }
    dst->rows = src->rows;
    dst->bcast = 0;
  } else if (src->rows != dst->rows) {
    return -1;
  }
  if (src->rgate >= 0) {
    if (dst->rgate >= 0 && dst->rgate != src->rgate) return -1;
    dst->rgate = src->rgate;
  }
  for (int i = 0; i < C_NMAT; i++) {
    if (!src->w[i]) continue;
    size_t n = (size_t)dst->rows * (size_t)src->cols[i];
    if (!dst->w[i]) {
      dst->w[i] = xcalloc(n ? n : 1, sizeof(float));
      dst->cols[i] = src->cols[i];
      if (src->ws[i]) {
        dst->ws[i] = xmalloc(sizeof(float) * (size_t)dst->rows);
        memcpy(dst->ws[i], src->ws[i], sizeof(float) * (size_t)dst->rows);
        if (sign < 0) dst->q8_mixed = 1;
      }
    } else if (dst->cols[i] != src->cols[i]) {
      return -1;
    } else if (src->ws[i] || dst->ws[i]) {
      dst->q8_mixed = 1;
    }
    for (size_t e = 0; e < n; e++) dst->w[i][e] += sign * src->w[i][e];
    dst->wcnt[i] += src->wcnt[i];
  }
  for (int i = 0; i < C_NBIAS; i++) {
    if (!src->b[i]) continue;
    if (!dst->b[i]) dst->b[i] = xcalloc((size_t)dst->rows, sizeof(float));
    for (int r = 0; r < dst->rows; r++) dst->b[i][r] += sign * src->b[i][src->bcast ? 0 : r];
    dst->bcnt[i] += src->bcnt[i];
  }
  dst->any_f16 |= src->any_f16;
  dst->any_f32 |= src->any_f32;
  dst->inexact |= src->inexact;
  dst->any_s8 |= src->any_s8;
  dst->q8_mixed |= src->q8_mixed;
  return 0;
}

static int form_slice(const form *src, int off, int cnt, form *out) {
  if (src->bcast) {
    gru_form_init(out, cnt);
    out->rgate = src->rgate;
    out->any_f16 = src->any_f16, out->any_f32 = src->any_f32, out->inexact = src->inexact;
    out->any_s8 = src->any_s8, out->q8_mixed = src->q8_mixed;
    return gru_form_add(out, src, 1.0f);
  }
  if (off < 0 || cnt <= 0 || off + cnt > src->rows) return -1;
  gru_form_init(out, cnt);
  out->rgate = src->rgate;
  out->any_f16 = src->any_f16, out->any_f32 = src->any_f32, out->inexact = src->inexact;
  out->any_s8 = src->any_s8, out->q8_mixed = src->q8_mixed;
  for (int i = 0; i < C_NMAT; i++) {
    if (!src->w[i]) continue;
    size_t c = (size_t)src->cols[i];
    if (src->ws[i]) {
      out->ws[i] = xmalloc(sizeof(float) * (size_t)cnt);
      memcpy(out->ws[i], src->ws[i] + off, sizeof(float) * (size_t)cnt);
    }
    out->w[i] = xmalloc(sizeof(float) * (size_t)cnt * (c ? c : 1));
    memcpy(out->w[i], src->w[i] + (size_t)off * c, sizeof(float) * (size_t)cnt * c);
    out->cols[i] = src->cols[i];
    out->wcnt[i] = src->wcnt[i];
  }
  for (int i = 0; i < C_NBIAS; i++) {
    if (!src->b[i]) continue;
    out->b[i] = xmalloc(sizeof(float) * (size_t)cnt);
    memcpy(out->b[i], src->b[i] + off, sizeof(float) * (size_t)cnt);
    out->bcnt[i] = src->bcnt[i];
  }
  return 0;
}



/* Records that a parameter of the cell is not a constant. */
static void note_nonconst(gctx *g, const char *what, int t) {
  if (g->nonconst[0]) return;
  const litert_tensor *T = BT(g, t);
  snprintf(g->nonconst, sizeof g->nonconst, "%s '%s' (tensor %d of subgraph %d) is not constant",
           what, T->name ? T->name : "", t, g->body);
}

/* A constant (or a parameter that should have been one) as a form. */
static int const_form(gctx *g, int t, form *f) {
  cval c;
  if (t < 0 || t >= SG(g, g->body)->ntensors) return -1;   /* an absent optional input */
  const litert_tensor *T = BT(g, t);
  if (T->type != DT_FLOAT32 && T->type != DT_FLOAT16) return -1;
  if (gru_ceval(g, g->body, t, &c, 0) != 0) {
    /* a leaf that is neither a loop input we understand nor constant */
    int v = gru_input_pos(SG(g, g->body), t);
    if (bprod(g, t) || (v >= 0 && g->kind[v] != V_INVARIANT)) return -1;
    note_nonconst(g, "bias", t);
    int64_t n = numel_of(T);
    if (n < 1 || n > (1 << 20)) return -1;
    gru_form_init(f, (int)n);
    f->b[C_BX] = xcalloc((size_t)n, sizeof(float));
    f->bcnt[C_BX] = 1;
    f->bcast = n == 1;
    return 0;
  }
  if (c.n < 1 || c.n > (1u << 20) || (c.n > 1 && (lead_of(T) != 1 || (size_t)width_of(T) != c.n))) {
    gru_cval_free(&c);
    return -1;
  }
  gru_form_init(f, (int)c.n);
  f->bcast = c.n == 1;
  f->b[C_BX] = xmalloc(sizeof(float) * c.n);
  for (size_t i = 0; i < c.n; i++) f->b[C_BX][i] = (float)c.v[i];
  f->bcnt[C_BX] = 1;
  note_dtype(f, c.dtype);
  gru_cval_free(&c);
  return 0;
}

enum { SRC_NONE = -1, SRC_X = 0, SRC_H = 1, SRC_RH = 2 };


/* x_t read as SLICE(X, [i, 0, 0], [1, B, F]) or STRIDED_SLICE(X, [i, 0, 0], ...)
 * taking row i of the time axis whole. */
static int is_row_read(gctx *g, const litert_op *op, int b, int *xv_out) {
  if (op->ninputs < 3) return 0;
  int xv = var_of(g, op->inputs[0]);
  const litert_tensor *X = BT(g, op->inputs[0]);
  if (xv < 0 || g->kind[xv] != V_INVARIANT || X->rank != 3) return 0;
  if (!gru_index_vector(g, op->inputs[1], 0, 3, 0)) return 0;
  cval c;
  int ok = 0;
  if (b == OP_SLICE) {
    if (gru_ceval(g, g->body, op->inputs[2], &c, 0) == 0 && c.n == 3)
      ok = c.v[0] == 1 && (c.v[1] == -1 || c.v[1] == X->shape[1]) &&
           (c.v[2] == -1 || c.v[2] == X->shape[2]);
    gru_cval_free(&c);
  } else {
    if (op->ninputs < 4 || op->opts.ellipsis_mask || op->opts.new_axis_mask || op->opts.ss_offset)
      return 0;
    if ((op->opts.shrink_axis_mask & 6) || (op->opts.end_mask & 6) != 6) return 0;
    if (gru_ceval(g, g->body, op->inputs[3], &c, 0) == 0 && c.n == 3)
      ok = c.v[0] == 1 && c.v[1] == 1 && c.v[2] == 1;
    gru_cval_free(&c);
    /* one row: shrunk, or ending at i + 1 */
    if (ok && !(op->opts.shrink_axis_mask & 1) && (op->opts.end_mask & 1 ||
                                                   !gru_index_vector(g, op->inputs[2], 1, 3, 2)))
      ok = 0;
  }
  if (ok) *xv_out = xv;
  return ok;
}

/* Which cell input v is: x_t, h, or r * h (with *rgate set). */
static int source_of(gctx *g, int v, int depth, int *rgate) {
  v = gru_strip(g, v);
  if (v == g->h_arg) return SRC_H;
  const litert_op *op = bprod(g, v);
  int b = bop(g, op);
  if (b == OP_GATHER && op->ninputs == 2 && op->opts.batch_dims == 0) {
    int xv = var_of(g, op->inputs[0]);
    const litert_tensor *X = BT(g, op->inputs[0]);
    int axis = op->opts.axis < 0 ? op->opts.axis + X->rank : op->opts.axis;
    if (xv < 0 || g->kind[xv] != V_INVARIANT || axis != 0 || X->rank != 3) return SRC_NONE;
    if (!gru_is_counter_arg(g, op->inputs[1]) || BT(g, op->inputs[1])->rank > 1 ||
        numel_of(BT(g, op->inputs[1])) != 1)
      return SRC_NONE;
    if (g->x_var >= 0 && g->x_var != xv) return SRC_NONE;
    g->x_var = xv;
    return SRC_X;
  }
  int xv;
  if ((b == OP_SLICE || b == OP_STRIDED_SLICE) && is_row_read(g, op, b, &xv)) {
    if (g->x_var >= 0 && g->x_var != xv) return SRC_NONE;
    g->x_var = xv;
    return SRC_X;
  }
  if (b == OP_MUL && op->ninputs == 2 && fused_none(op)) {
    for (int k = 0; k < 2; k++) {
      if (gru_strip(g, op->inputs[k]) != g->h_arg) continue;
      gate_memo *gm;
      if (gru_match_gate(g, op->inputs[1 - k], depth + 1, &gm) == 0) {
        *rgate = gm->t;
        return SRC_RH;
      }
    }
  }
  return SRC_NONE;
}

/* FULLY_CONNECTED(v, W, b) with a constant W [N, K] (K = width of v). */
static int fc_form(gctx *g, const litert_op *op, int out_t, int depth, form *f) {
  if (op->ninputs < 2 || !fused_none(op) || op->opts.weights_format != 0) return -1;
  int rgate = -1;
  int src = source_of(g, op->inputs[0], depth + 1, &rgate);
  if (src == SRC_NONE) return -1;
  int wt = op->inputs[1], bt = op->ninputs > 2 ? op->inputs[2] : -1;
  if (wt < 0) return -1;
  const litert_tensor *W = BT(g, wt), *V = BT(g, op->inputs[0]);
  if (W->rank != 2) return -1;
  int N = W->shape[0], K = W->shape[1];
  if (N <= 0 || K <= 0 || K != width_of(V) || width_of(BT(g, out_t)) != N) return -1;
  int q8 = W->type == DT_INT8;
  if (q8) {
    /* hybrid FC: zero points 0, one scale or one per output row */
    const litert_quant *q = &W->q;
    int ok = q->nscale == 1 || (q->nscale == N && q->quantized_dimension == 0);
    for (int i = 0; ok && i < q->nzero; i++)
      if (q->zero_point[i] != 0) ok = 0;
    for (int i = 0; ok && i < q->nscale; i++)
      if (!(q->scale[i] > 0.0f) || !isfinite(q->scale[i])) ok = 0;
    if (!ok && !g->badq8[0])
      snprintf(g->badq8, sizeof g->badq8,
               "int8 weights '%s' are not symmetric per-tensor or per-row quantized",
               W->name ? W->name : "");
  } else if (W->type != DT_FLOAT32 && W->type != DT_FLOAT16) {
    if (!g->baddtype[0])
      snprintf(g->baddtype, sizeof g->baddtype,
               "weights '%s' are %s (GRU kernels take float32, float16 or int8 weights)",
               W->name ? W->name : "", dtype_name(W->type));
  }
  gru_form_init(f, N);
  int mi = src == SRC_X ? C_WX : src == SRC_H ? C_WH : C_WRH;
  f->rgate = rgate;
  f->cols[mi] = K;
  f->wcnt[mi] = 1;
  cval c;
  if (gru_ceval(g, g->body, wt, &c, 0) == 0 && c.n == (size_t)N * (size_t)K) {
    f->w[mi] = xmalloc(sizeof(float) * c.n);
    for (size_t e = 0; e < c.n; e++) f->w[mi][e] = (float)c.v[e];
    if (q8 && c.dtype == DT_INT8) {
      /* the integers, with the rows' scales */
      f->ws[mi] = xmalloc(sizeof(float) * (size_t)N);
      for (int r = 0; r < N; r++) f->ws[mi][r] = W->q.nscale > 0 ? W->q.scale[W->q.nscale > 1 ? r : 0] : 1.0f;
      f->any_s8 = 1;
    } else {
      note_dtype(f, c.dtype);
    }
    gru_cval_free(&c);
  } else {
    gru_cval_free(&c);
    f->w[mi] = xcalloc((size_t)N * (size_t)K, sizeof(float));
    note_nonconst(g, "weights", wt);
  }
  if (bt >= 0) {
    int bi = src == SRC_X ? C_BX : C_BH;
    f->bcnt[bi] = 1;
    if (gru_ceval(g, g->body, bt, &c, 0) == 0 && c.n == (size_t)N) {
      f->b[bi] = xmalloc(sizeof(float) * (size_t)N);
      for (int r = 0; r < N; r++) f->b[bi][r] = (float)c.v[r];
      note_dtype(f, c.dtype);
      gru_cval_free(&c);
    } else {
      gru_cval_free(&c);
      if (numel_of(BT(g, bt)) != N) {
        gru_form_free(f);
        return -1;
      }
      f->b[bi] = xcalloc((size_t)N, sizeof(float));
      note_nonconst(g, "bias", bt);
    }
  }
  return 0;
}

/* Row range [off, off + cnt) that a slicing op selects from the last axis of
 * its input (all other axes taken whole), or -1. */
static int slice_rows(gctx *g, const litert_op *op, int out_t, int *in_t, int *off, int *cnt) {
  int b = bop(g, op);
  const litert_tensor *O = BT(g, out_t);
  cval c1 = {0}, c2 = {0}, c3 = {0};
  int rc = -1;
  if (b == OP_SPLIT || b == OP_SPLIT_V) {
    int xi = b == OP_SPLIT ? 1 : 0, ai = 2 - (b == OP_SPLIT ? 2 : 0);
    if (op->ninputs < (b == OP_SPLIT ? 2 : 3)) return -1;
    if (b == OP_SPLIT) ai = 0;
    const litert_tensor *X = BT(g, op->inputs[xi]);
    if (gru_ceval(g, g->body, op->inputs[ai], &c1, 0) || c1.n != 1) goto done;
    int axis = (int)c1.v[0];
    if (axis < 0) axis += X->rank;
    if (axis != X->rank - 1) goto done;
    int which = -1;
    for (int k = 0; k < op->noutputs; k++)
      if (op->outputs[k] == out_t) which = k;
    if (which < 0) goto done;
    int W = width_of(X);
    if (b == OP_SPLIT) {
      int ns = op->noutputs;
      if (ns <= 0 || W % ns) goto done;
      *off = which * (W / ns);
      *cnt = W / ns;
    } else {
      if (gru_ceval(g, g->body, op->inputs[1], &c2, 0) || (int)c2.n != op->noutputs) goto done;
      int at = 0, neg = -1, sum = 0;
      for (int k = 0; k < op->noutputs; k++) {
        if (c2.v[k] < 0) neg = k;
        else sum += (int)c2.v[k];
      }
      for (int k = 0; k < which; k++) at += c2.v[k] < 0 ? W - sum : (int)c2.v[k];
      *off = at;
      *cnt = c2.v[which] < 0 ? W - sum : (int)c2.v[which];
      (void)neg;
    }
    *in_t = op->inputs[xi];
    rc = 0;
    goto done;
  }
  if (b == OP_SLICE) {
    if (op->ninputs < 3) return -1;
    const litert_tensor *X = BT(g, op->inputs[0]);
    if (gru_ceval(g, g->body, op->inputs[1], &c1, 0) || gru_ceval(g, g->body, op->inputs[2], &c2, 0) ||
        (int)c1.n != X->rank || (int)c2.n != X->rank || X->rank < 1)
      goto done;
    for (int k = 0; k + 1 < X->rank; k++)
      if (c1.v[k] != 0 || (c2.v[k] != -1 && c2.v[k] != X->shape[k])) goto done;
    int L = X->rank - 1, W = X->shape[L];
    int o = (int)c1.v[L];
    int n = c2.v[L] < 0 ? W - o : (int)c2.v[L];
    if (o < 0 || n <= 0 || o + n > W) goto done;
    *in_t = op->inputs[0], *off = o, *cnt = n;
    rc = 0;
    goto done;
  }
  if (b == OP_STRIDED_SLICE) {
    if (op->ninputs < 4 || op->opts.ellipsis_mask || op->opts.new_axis_mask || op->opts.ss_offset)
      return -1;
    const litert_tensor *X = BT(g, op->inputs[0]);
    if (gru_ceval(g, g->body, op->inputs[1], &c1, 0) || gru_ceval(g, g->body, op->inputs[2], &c2, 0) ||
        gru_ceval(g, g->body, op->inputs[3], &c3, 0) || (int)c1.n != X->rank ||
        (int)c2.n != X->rank || (int)c3.n != X->rank || X->rank < 1)
      goto done;
    int L = X->rank - 1;
    for (int k = 0; k <= L; k++) {
      int64_t st, ct;
      int shrink = (op->opts.shrink_axis_mask >> k) & 1;
      if (gru_ss_dim(X->shape[k], (int64_t)c1.v[k], (int64_t)c2.v[k], (int64_t)c3.v[k],
                 (op->opts.begin_mask >> k) & 1, (op->opts.end_mask >> k) & 1, shrink, &st, &ct))
        goto done;
      if (k < L) {
        if (shrink || st != 0 || ct != X->shape[k] || c3.v[k] != 1) goto done;
      } else {
        if (shrink || c3.v[k] != 1 || ct <= 0) goto done;
        *off = (int)st;
        *cnt = (int)ct;
      }
    }
    *in_t = op->inputs[0];
    rc = 0;
    goto done;
  }
done:
  gru_cval_free(&c1), gru_cval_free(&c2), gru_cval_free(&c3);
  if (rc == 0 && width_of(O) != *cnt) rc = -1;
  return rc;
}

/* If c is only a constant (an x-side bias) and other projects h but not x,
 * the constant becomes an h-side bias (keeps Keras' bias split exact). */
static void pure_bias_to_h(form *c, const form *other) {
  for (int i = 0; i < C_NMAT; i++)
    if (c->w[i]) return;
  if (!c->b[C_BX] || c->b[C_BH] || c->b[C_BRG] || other->w[C_WX]) return;
  if (!other->w[C_WH] && !other->w[C_WRH]) return;
  c->b[C_BH] = c->b[C_BX];
  c->bcnt[C_BH] = c->bcnt[C_BX];
  c->b[C_BX] = NULL;
  c->bcnt[C_BX] = 0;
}

/* Decomposes body tensor t into an affine form of x, h, r*h and r-gated h. */
int gru_form_of(gctx *g, int t, int depth, form *f) {
  if (depth > MAXD || out_of_budget(g) || t < 0) return -1;
  t = gru_strip(g, t);
  if (t < 0 || t >= SG(g, g->body)->ntensors) return -1;
  const litert_op *op = bprod(g, t);
  if (!op) return const_form(g, t, f);
  int b = bop(g, op);
  const litert_tensor *T = BT(g, t);
  if (T->type != DT_FLOAT32 && T->type != DT_FLOAT16) return -1;
  {
    /* a constant computed by ops (e.g. DEQUANTIZE) */
    cval c;
    if (gru_ceval(g, g->body, t, &c, 0) == 0) {
      gru_cval_free(&c);
      return const_form(g, t, f);
    }
  }
  int rc = -1;
  switch (b) {
    case OP_ADD: case OP_SUB: {
      if (op->ninputs != 2 || !fused_none(op)) return -1;
      form a, c;
      if (gru_form_of(g, op->inputs[0], depth + 1, &a)) return -1;
      if (gru_form_of(g, op->inputs[1], depth + 1, &c)) {
        gru_form_free(&a);
        return -1;
      }
      /* a constant added to a recurrent projection is a recurrent bias */
      pure_bias_to_h(&c, &a);
      pure_bias_to_h(&a, &c);
      rc = gru_form_add(&a, &c, b == OP_SUB ? -1.0f : 1.0f);
      gru_form_free(&c);
      if (rc) gru_form_free(&a);
      else *f = a;
      break;
    }
    case OP_FULLY_CONNECTED:
      rc = fc_form(g, op, t, depth, f);
      break;
    case OP_SPLIT: case OP_SPLIT_V: case OP_SLICE: case OP_STRIDED_SLICE: {
      int in_t = -1, off = 0, cnt = 0;
      if (slice_rows(g, op, t, &in_t, &off, &cnt)) return -1;
      if (lead_of(BT(g, in_t)) != lead_of(T)) return -1;
      form wide;
      if (gru_form_of(g, in_t, depth + 1, &wide)) return -1;
      rc = form_slice(&wide, off, cnt, f);
      gru_form_free(&wide);
      break;
    }
    case OP_MUL: {
      if (op->ninputs != 2 || !fused_none(op)) return -1;
      for (int k = 0; k < 2 && rc; k++) {
        int a = op->inputs[k], o = op->inputs[1 - k];
        /* constant scale */
        cval c;
        if (gru_ceval(g, g->body, o, &c, 0) == 0) {
          form x;
          if (gru_form_of(g, a, depth + 1, &x) == 0) {
            if (x.bcast || !(c.n == 1 || c.n == (size_t)x.rows)) {
              gru_form_free(&x);
            } else {
              for (int i = 0; i < C_NMAT; i++)
                for (int r = 0; x.w[i] && r < x.rows; r++)
                  for (int e = 0; e < x.cols[i]; e++)
                    x.w[i][(size_t)r * (size_t)x.cols[i] + (size_t)e] *= (float)c.v[c.n == 1 ? 0 : r];
              for (int i = 0; i < C_NBIAS; i++)
                for (int r = 0; x.b[i] && r < x.rows; r++) x.b[i][r] *= (float)c.v[c.n == 1 ? 0 : r];
              x.inexact = 1;
              for (int i = 0; i < C_NMAT; i++)
                if (x.ws[i]) x.q8_mixed = 1;
              note_dtype(&x, c.dtype);
              *f = x;
              rc = 0;
            }
          }
          gru_cval_free(&c);
          continue;
        }
        /* r (.) (h.U + c) */
        gate_memo *gm;
        if (gru_match_gate(g, a, depth + 1, &gm) == 0) {
          form x;
          if (gru_form_of(g, o, depth + 1, &x) == 0) {
            if (x.w[C_WX] || x.w[C_WRH] || x.w[C_WRG] || x.b[C_BRG] || x.bcast ||
                x.rows != gm->f.rows) {
              gru_form_free(&x);
              continue;
            }
            gru_form_init(f, x.rows);
            f->rgate = gm->t;
            f->w[C_WRG] = x.w[C_WH];
            f->cols[C_WRG] = x.cols[C_WH];
            f->wcnt[C_WRG] = x.wcnt[C_WH];
            f->ws[C_WRG] = x.ws[C_WH];
            x.w[C_WH] = NULL;
            x.ws[C_WH] = NULL;
            f->b[C_BRG] = xcalloc((size_t)x.rows, sizeof(float));
            for (int i = C_BX; i <= C_BH; i++) {
              if (!x.b[i]) continue;
              for (int r = 0; r < x.rows; r++) f->b[C_BRG][r] += x.b[i][r];
              f->bcnt[C_BRG] += x.bcnt[i];
            }
            if (!f->bcnt[C_BRG]) {
              free(f->b[C_BRG]);
              f->b[C_BRG] = NULL;
            }
            f->any_f16 = x.any_f16, f->any_f32 = x.any_f32, f->inexact = x.inexact;
            f->any_s8 = x.any_s8, f->q8_mixed = x.q8_mixed;
            gru_form_free(&x);
            rc = 0;
          }
        }
      }
      break;
    }
    default:
      return -1;
  }
  if (rc == 0 && !f->bcast && (width_of(T) != f->rows || lead_of(T) != g->batch)) {
    gru_form_free(f);
    rc = -1;
  }
  return rc;
}
