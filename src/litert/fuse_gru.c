/* fuse_gru.c - the LiteRT hook fuse_rolled_gru: replaces the WHILE loops that
 * run a Keras GRU cell (Keras GRU with unroll=False) by one custom operator
 * "GRU" (runtime/aot_recurrent.h documents its inputs and custom options).
 *
 * Matching proves the equations, never names. For each WHILE of the main
 * subgraph:
 *   - every loop variable is classified from the body: invariant (the body
 *     returns its input), counter (returns input + 1 and starts at 0), state
 *     h (returns the GRU cell's h'), output list (returns the list with row
 *     `counter` replaced by h');
 *   - the cell is walked from h' back to its inputs and decomposed into
 *     affine forms of x_t (a GATHER of an invariant [T, B, F] tensor at the
 *     counter), h and r * h with constant weights; the walk accepts any op
 *     and operand order, SPLIT / SLICE / STRIDED_SLICE of wide projections,
 *     separate FULLY_CONNECTED ops per gate, shape-only reshapes, products
 *     with all-ones masks, and checks
 *       h' = z * h + (1 - z) * n    (or n + z * (h - n))
 *       z, r = g(x.W + b + h.U + c), g = sigmoid or clamp(0.2 v + 0.5, 0, 1)
 *       n = a(x.Wn + bn + r * (h.Un + cn))   (reset_after = 1)
 *       n = a(x.Wn + bn + (r * h).Un + cn)   (reset_after = 0), a = tanh | id;
 *   - the condition must be a conjunction of `counter < bound` with constant
 *     bounds whose minimum equals the time dimension of x (and of the list).
 * The loop is then replaced by CUSTOM GRU (plus shape-only RESHAPEs), its
 * REVERSE_V2 input becomes go_backwards, a TRANSPOSE [1, T, F] -> [T, 1, F]
 * feeding it is bypassed, a selection of the last sequence row reads the
 * final state instead, and ops and subgraphs only the loop used are
 * removed. */
#include "hooks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aot_recurrent.h"

#define MAXD 48                 /* recursion limit of every walk */
#define CEVAL_LIMIT (1u << 22)  /* largest constant the evaluator builds */

/* ---- small helpers ----------------------------------------------------------- */

static int builtin_of(const litert_model *m, const litert_op *op) {
  return litert_op_builtin(m, op);
}

static int64_t numel_of(const litert_tensor *t) {
  int64_t n = 1;
  for (int k = 0; k < t->rank; k++) n *= t->shape[k] < 0 ? 0 : t->shape[k];
  return t->rank < 0 ? 0 : n;
}

/* Width (last dimension) and lead (product of the others) of a tensor. */
static int width_of(const litert_tensor *t) { return t->rank >= 1 ? t->shape[t->rank - 1] : 1; }
static int64_t lead_of(const litert_tensor *t) {
  int64_t n = 1;
  for (int k = 0; k + 1 < t->rank; k++) n *= t->shape[k];
  return n;
}

static int has_side_effects_builtin(int b) {
  switch (b) {
    case OP_WHILE: case OP_IF: case OP_CALL: case OP_CALL_ONCE: case OP_VAR_HANDLE:
    case OP_READ_VARIABLE: case OP_ASSIGN_VARIABLE: case OP_CUSTOM: case OP_DELEGATE:
    case OP_RANDOM_STANDARD_NORMAL: case OP_RANDOM_UNIFORM: case OP_MULTINOMIAL:
    case OP_HASHTABLE: case OP_HASHTABLE_FIND: case OP_HASHTABLE_IMPORT: case OP_HASHTABLE_SIZE:
      return 1;
    default:
      return 0;
  }
}

static int producer_in(const litert_subgraph *s, int t) {
  if (t < 0) return -1;
  for (int i = 0; i < s->nops; i++)
    for (int k = 0; k < s->ops[i].noutputs; k++)
      if (s->ops[i].outputs[k] == t) return i;
  return -1;
}

static int input_pos(const litert_subgraph *s, int t) {
  for (int i = 0; i < s->ninputs; i++)
    if (s->inputs[i] == t) return i;
  return -1;
}

static int is_output_of(const litert_subgraph *s, int t) {
  for (int i = 0; i < s->noutputs; i++)
    if (s->outputs[i] == t) return 1;
  return 0;
}

static int count_consumers(const litert_subgraph *s, int t) {
  int n = 0;
  for (int i = 0; i < s->nops; i++)
    for (int k = 0; k < s->ops[i].ninputs; k++)
      if (s->ops[i].inputs[k] == t) n++;
  return n;
}

/* Static dimension k of tensor t, or -1 when it is dynamic. Model inputs of
 * the main subgraph are instantiated with their stored shape (batch 1). */
static int static_dim(const litert_model *m, int sg, int t, int k) {
  for (int depth = 0; depth < 16; depth++) {
    const litert_subgraph *s = &m->subgraphs[sg];
    const litert_tensor *x = &s->tensors[t];
    if (k < 0 || k >= x->rank) return -1;
    if (!x->shape_signature || x->shape_signature[k] >= 0) return x->shape[k];
    if (sg == 0 && input_pos(s, t) >= 0) return x->shape[k];
    /* a CAST / DEQUANTIZE keeps the shape of its input */
    int p = producer_in(s, t);
    if (p < 0) return -1;
    int b = litert_op_builtin(m, &s->ops[p]);
    if ((b != OP_CAST && b != OP_DEQUANTIZE) || s->ops[p].ninputs < 1 || s->ops[p].inputs[0] < 0 ||
        s->tensors[s->ops[p].inputs[0]].rank != x->rank)
      return -1;
    t = s->ops[p].inputs[0];
  }
  return -1;
}

/* ---- constant evaluation -------------------------------------------------------- */

typedef struct cval {
  int dtype;        /* representation the values came from (DT_FLOAT16 for f16 data) */
  int rank;
  int32_t shape[8];
  size_t n;
  double *v;
  unsigned char *unk;   /* NULL, or per value: 1 if unknown (a dynamic dimension) */
} cval;

static void cval_free(cval *c) {
  free(c->v);
  free(c->unk);
  c->v = NULL;
  c->unk = NULL;
  c->n = 0;
}

static int cval_has_unknown(const cval *c) {
  for (size_t i = 0; c->unk && i < c->n; i++)
    if (c->unk[i]) return 1;
  return 0;
}

static void cval_mark(cval *c, size_t i) {
  if (!c->unk) c->unk = xcalloc(c->n + 1, 1);
  c->unk[i] = 1;
}

enum { V_UNKNOWN = 0, V_INVARIANT, V_COUNTER, V_STATE, V_LIST };

struct gctx;
static int ceval(const struct gctx *g, int sg, int t, cval *out, int depth);
static int ceval_x(const struct gctx *g, int sg, int t, cval *out, int depth, int allow_unknown);

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
  long *budget;                 /* steps left for the walks (hostile graphs) */
  /* results */
  int z_gate, r_gate, gate_act, cand_act, reset_after;
  form fz, fr, fn;
  int64_t trip;
} gctx;

static const litert_subgraph *SG(const gctx *g, int sg) { return &g->m->subgraphs[sg]; }

static void cval_shape_from(cval *c, const litert_tensor *t) {
  c->rank = t->rank < 0 ? 0 : (t->rank > 8 ? 8 : t->rank);
  for (int k = 0; k < c->rank; k++) c->shape[k] = t->shape[k];
}

static int decode_buffer(const litert_model *m, const litert_tensor *t, cval *out) {
  const litert_buffer *b = &m->buffers[t->buffer];
  size_t es = dtype_size(t->type);
  if (!es || t->rank > 8 || b->size % es) return -1;
  size_t n = b->size / es;
  if ((int64_t)n != numel_of(t)) return -1;
  out->v = xcalloc(n ? n : 1, sizeof(double));
  out->n = n;
  out->dtype = t->type;
  cval_shape_from(out, t);
  const uint8_t *p = b->data;
  for (size_t i = 0; i < n; i++) {
    double v;
    switch (t->type) {
      case DT_FLOAT32: { float f; memcpy(&f, p + 4 * i, 4); v = f; break; }
      case DT_FLOAT16: { uint16_t h; memcpy(&h, p + 2 * i, 2); v = aot_f16_to_f32(h); break; }
      case DT_INT32: { int32_t x; memcpy(&x, p + 4 * i, 4); v = x; break; }
      case DT_INT64: { int64_t x; memcpy(&x, p + 8 * i, 8); v = (double)x; break; }
      case DT_INT8: v = (int8_t)p[i]; break;
      case DT_UINT8: case DT_BOOL: v = p[i]; break;
      case DT_INT16: { int16_t x; memcpy(&x, p + 2 * i, 2); v = x; break; }
      default: cval_free(out); return -1;
    }
    out->v[i] = v;
  }
  return 0;
}

static int cval_int_vector(const cval *c, int64_t *v, int max, int *n) {
  if (c->rank > 1 || (int)c->n > max) return -1;
  for (size_t i = 0; i < c->n; i++) v[i] = (int64_t)c->v[i];
  *n = (int)c->n;
  return 0;
}

/* TFLite strided-slice range of one dimension: start and count (stride s). */
static int ss_dim(int dim, int64_t begin, int64_t end, int64_t stride, int bmask, int emask,
                  int shrink, int64_t *start, int64_t *count) {
  if (stride == 0) return -1;
  if (shrink) {
    int64_t b = begin < 0 ? begin + dim : begin;
    if (b < 0 || b >= dim) return -1;
    *start = b;
    *count = 1;
    return 0;
  }
  int64_t b, e;
  if (stride > 0) {
    b = bmask ? 0 : (begin < 0 ? begin + dim : begin);
    e = emask ? dim : (end < 0 ? end + dim : end);
    if (b < 0) b = 0;
    if (b > dim) b = dim;
    if (e < 0) e = 0;
    if (e > dim) e = dim;
    *start = b;
    *count = e > b ? (e - b + stride - 1) / stride : 0;
  } else {
    b = bmask ? dim - 1 : (begin < 0 ? begin + dim : begin);
    e = emask ? -1 : (end < 0 ? end + dim : end);
    if (b > dim - 1) b = dim - 1;
    if (e < -1) e = -1;
    *start = b;
    *count = b > e ? (b - e + (-stride) - 1) / (-stride) : 0;
  }
  return 0;
}

static int ceval_op(const gctx *g, int sg, const litert_op *op, int t, cval *out, int depth) {
  const litert_model *m = g->m;
  const litert_subgraph *s = &m->subgraphs[sg];
  const litert_tensor *T = &s->tensors[t];
  int b = builtin_of(m, op);
  cval a = {0}, c = {0};
  int rc = -1;
  switch (b) {
    case OP_DEQUANTIZE: {
      if (op->ninputs < 1 || ceval(g, sg, op->inputs[0], &a, depth + 1)) return -1;
      const litert_tensor *in = &s->tensors[op->inputs[0]];
      if (a.dtype == DT_FLOAT16 || a.dtype == DT_FLOAT32) {
        *out = a;
        return 0;
      }
      if (in->q.nscale < 1) break;
      int qd = in->q.nscale > 1 ? in->q.quantized_dimension : -1;
      size_t inner = 1, dimlen = 1;
      if (qd >= 0) {
        if (qd >= a.rank) break;
        for (int k = qd + 1; k < a.rank; k++) inner *= (size_t)a.shape[k];
        dimlen = (size_t)a.shape[qd];
        if ((int)dimlen != in->q.nscale) break;
      }
      for (size_t i = 0; i < a.n; i++) {
        int ch = qd >= 0 ? (int)((i / inner) % dimlen) : 0;
        double zp = ch < in->q.nzero ? (double)in->q.zero_point[ch] : 0.0;
        a.v[i] = (float)((a.v[i] - zp) * (double)in->q.scale[ch]);
      }
      a.dtype = DT_FLOAT32;
      *out = a;
      return 0;
    }
    case OP_RESHAPE: case OP_SQUEEZE: case OP_EXPAND_DIMS: {
      if (op->ninputs < 1 || ceval_x(g, sg, op->inputs[0], &a, depth + 1, 1)) return -1;
      int known = T->rank >= 0 && T->rank <= 8;
      for (int k = 0; known && k < T->rank; k++)
        if (static_dim(m, sg, t, k) < 0) known = 0;
      if (known && (size_t)numel_of(T) == a.n) {
        cval_shape_from(&a, T);
        *out = a;
        return 0;
      }
      if (b == OP_RESHAPE && op->ninputs >= 2 && op->inputs[1] >= 0 &&
          ceval(g, sg, op->inputs[1], &c, depth + 1) == 0) {
        int64_t d[8];
        int nd, neg = -1;
        if (cval_int_vector(&c, d, 8, &nd) == 0) {
          int64_t prod = 1;
          int ok = 1;
          for (int k = 0; k < nd; k++) {
            if (d[k] == -1 && neg < 0) neg = k;
            else if (d[k] < 0) ok = 0;
            else prod *= d[k];
          }
          if (ok && neg >= 0 && prod > 0 && a.n % (size_t)prod == 0) d[neg] = (int64_t)a.n / prod;
          else if (ok && neg >= 0) ok = 0;
          int64_t tot = 1;
          for (int k = 0; k < nd; k++) tot *= d[k];
          if (ok && (size_t)tot == a.n) {
            a.rank = nd;
            for (int k = 0; k < nd; k++) a.shape[k] = (int32_t)d[k];
            *out = a;
            cval_free(&c);
            return 0;
          }
        }
        cval_free(&c);
      }
      break;
    }
    case OP_SHAPE: {
      if (op->ninputs < 1 || op->inputs[0] < 0) return -1;
      const litert_tensor *x = &s->tensors[op->inputs[0]];
      if (x->rank < 0 || x->rank > 8) return -1;
      out->v = xcalloc((size_t)x->rank + 1, sizeof(double));
      out->n = (size_t)x->rank;
      out->dtype = DT_INT32;
      out->rank = 1;
      out->shape[0] = x->rank;
      for (int k = 0; k < x->rank; k++) {
        int d = static_dim(m, sg, op->inputs[0], k);
        if (d < 0) cval_mark(out, (size_t)k);
        else out->v[k] = d;
      }
      return 0;
    }
    case OP_STRIDED_SLICE: {
      cval bg = {0}, en = {0}, st = {0};
      if (op->ninputs < 4 || ceval_x(g, sg, op->inputs[0], &a, depth + 1, 1)) return -1;
      if (a.rank != 1 || op->opts.ellipsis_mask || op->opts.new_axis_mask || op->opts.ss_offset ||
          ceval(g, sg, op->inputs[1], &bg, depth + 1) || ceval(g, sg, op->inputs[2], &en, depth + 1) ||
          ceval(g, sg, op->inputs[3], &st, depth + 1) || bg.n != 1 || en.n != 1 || st.n != 1) {
        cval_free(&bg), cval_free(&en), cval_free(&st);
        break;
      }
      int64_t start, count, stride = (int64_t)st.v[0];
      int ok = ss_dim(a.shape[0], (int64_t)bg.v[0], (int64_t)en.v[0], stride,
                      op->opts.begin_mask & 1, op->opts.end_mask & 1,
                      op->opts.shrink_axis_mask & 1, &start, &count) == 0;
      cval_free(&bg), cval_free(&en), cval_free(&st);
      if (!ok) break;
      out->v = xcalloc((size_t)count + 1, sizeof(double));
      out->n = (size_t)count;
      out->dtype = a.dtype;
      out->rank = (op->opts.shrink_axis_mask & 1) ? 0 : 1;
      out->shape[0] = (int32_t)count;
      for (int64_t i = 0; i < count; i++) {
        out->v[i] = a.v[start + i * stride];
        if (a.unk && a.unk[start + i * stride]) cval_mark(out, (size_t)i);
      }
      rc = 0;
      break;
    }
    case OP_CONCATENATION: case OP_PACK: {
      if (op->opts.axis != 0 || op->opts.fused_act != ACT_NONE) return -1;
      size_t total = 0;
      cval parts[16];
      int np = op->ninputs;
      if (np < 1 || np > 16) return -1;
      int ok = 1;
      for (int i = 0; i < np; i++) {
        memset(&parts[i], 0, sizeof parts[i]);
        if (!ok || ceval_x(g, sg, op->inputs[i], &parts[i], depth + 1, 1) ||
            parts[i].rank > (b == OP_PACK ? 0 : 1))
          ok = 0;
        else
          total += parts[i].n;
      }
      if (ok) {
        out->v = xcalloc(total + 1, sizeof(double));
        out->n = total;
        out->dtype = parts[0].dtype;
        out->rank = 1;
        out->shape[0] = (int32_t)total;
        size_t at = 0;
        for (int i = 0; i < np; i++) {
          memcpy(out->v + at, parts[i].v, parts[i].n * sizeof(double));
          for (size_t e = 0; parts[i].unk && e < parts[i].n; e++)
            if (parts[i].unk[e]) cval_mark(out, at + e);
          at += parts[i].n;
        }
        rc = 0;
      }
      for (int i = 0; i < np; i++) cval_free(&parts[i]);
      break;
    }
    case OP_FILL: {
      if (op->ninputs < 2 || ceval(g, sg, op->inputs[0], &a, depth + 1)) return -1;
      if (ceval(g, sg, op->inputs[1], &c, depth + 1) || c.n != 1) break;
      int64_t d[8];
      int nd;
      if (cval_int_vector(&a, d, 8, &nd)) break;
      uint64_t total = 1;
      int ok = 1;
      for (int k = 0; k < nd; k++) {
        if (d[k] < 0) ok = 0;
        else total *= (uint64_t)d[k];
        if (total > CEVAL_LIMIT) ok = 0;
      }
      if (!ok) break;
      out->v = xcalloc((size_t)total + 1, sizeof(double));
      out->n = (size_t)total;
      out->dtype = c.dtype;
      out->rank = nd;
      for (int k = 0; k < nd; k++) out->shape[k] = (int32_t)d[k];
      for (size_t i = 0; i < out->n; i++) out->v[i] = c.v[0];
      rc = 0;
      break;
    }
    case OP_CAST: {
      if (op->ninputs < 1 || ceval(g, sg, op->inputs[0], &a, depth + 1)) return -1;
      if (dtype_is_int(T->type) || T->type == DT_BOOL) {
        for (size_t i = 0; i < a.n; i++) a.v[i] = T->type == DT_BOOL ? (a.v[i] != 0) : trunc(a.v[i]);
        a.dtype = T->type;
      } else if (T->type == DT_FLOAT32) {
        for (size_t i = 0; i < a.n; i++) a.v[i] = (float)a.v[i];
        if (a.dtype != DT_FLOAT16) a.dtype = DT_FLOAT32;
      } else if (T->type == DT_FLOAT16) {
        for (size_t i = 0; i < a.n; i++) a.v[i] = aot_f16_to_f32(aot_f32_to_f16((float)a.v[i]));
        a.dtype = DT_FLOAT16;
      } else {
        break;
      }
      *out = a;
      return 0;
    }
    default:
      break;
  }
  cval_free(&a);
  cval_free(&c);
  return rc;
}

/* Evaluates tensor t of subgraph sg to a constant. Inputs of the loop's body
 * and cond that are loop invariants are evaluated in the main subgraph.
 * Integer vectors may carry unknown entries (dynamic dimensions) while
 * allow_unknown is set; a result with unknown entries is not a constant. */
static int ceval_inner(const gctx *g, int sg, int t, cval *out, int depth, int allow);

static int ceval_x(const gctx *g, int sg, int t, cval *out, int depth, int allow) {
  int rc = ceval_inner(g, sg, t, out, depth, allow);
  if (rc == 0 && !allow && cval_has_unknown(out)) {
    cval_free(out);
    rc = -1;
  }
  return rc;
}

static int ceval(const gctx *g, int sg, int t, cval *out, int depth) {
  return ceval_x(g, sg, t, out, depth, 0);
}

static int out_of_budget(const gctx *g) { return g->budget && --*g->budget < 0; }

static int ceval_inner(const gctx *g, int sg, int t, cval *out, int depth, int allow) {
  memset(out, 0, sizeof *out);
  if (depth > MAXD || t < 0 || out_of_budget(g)) return -1;
  const litert_model *m = g->m;
  const litert_subgraph *s = &m->subgraphs[sg];
  if (t >= s->ntensors) return -1;
  const litert_tensor *T = &s->tensors[t];
  if (T->is_variable) return -1;
  if (T->buffer > 0 && (int)T->buffer < m->nbuffers && m->buffers[T->buffer].size > 0)
    return decode_buffer(m, T, out);
  int ip = input_pos(s, t);
  if (ip >= 0) {
    if (g->wop && (sg == g->body || sg == g->cond) && ip < g->n && g->kind &&
        g->kind[ip] == V_INVARIANT)
      return ceval_x(g, g->msg, g->wop->inputs[ip], out, depth + 1, allow);
    return -1;
  }
  int p = producer_in(s, t);
  if (p < 0) return -1;
  return ceval_op(g, sg, &s->ops[p], t, out, depth);
}

/* All elements equal (a FILL with a constant value counts, whatever its
 * shape). */
static int uniform_value(const gctx *g, int sg, int t, double *v) {
  cval c;
  if (ceval(g, sg, t, &c, 0) == 0) {
    int ok = c.n >= 1;
    for (size_t i = 1; ok && i < c.n; i++)
      if (c.v[i] != c.v[0]) ok = 0;
    if (ok) *v = c.v[0];
    cval_free(&c);
    return ok ? 0 : -1;
  }
  const litert_subgraph *s = SG(g, sg);
  int p = producer_in(s, t);
  if (p >= 0 && builtin_of(g->m, &s->ops[p]) == OP_FILL && s->ops[p].ninputs >= 2) {
    cval c2;
    if (ceval(g, sg, s->ops[p].inputs[1], &c2, 0) == 0) {
      int ok = c2.n == 1;
      if (ok) *v = c2.v[0];
      cval_free(&c2);
      return ok ? 0 : -1;
    }
  }
  return -1;
}

/* v equals the float constant `want` in the dtype the constant is stored in. */
static int is_value(const gctx *g, int sg, int t, float want) {
  double v = 0;
  if (uniform_value(g, sg, t, &v)) return 0;
  const litert_tensor *T = &SG(g, sg)->tensors[t];
  if (T->type == DT_FLOAT16) return aot_f32_to_f16((float)v) == aot_f32_to_f16(want);
  if (T->type == DT_FLOAT32) return (float)v == want;
  if (dtype_is_int(T->type)) return v == (double)want;
  return 0;
}

/* ---- body structure ---------------------------------------------------------------- */

static const litert_op *bprod(const gctx *g, int t) {
  const litert_subgraph *s = SG(g, g->body);
  int p = producer_in(s, t);
  return p >= 0 ? &s->ops[p] : NULL;
}

static int bop(const gctx *g, const litert_op *op) { return op ? builtin_of(g->m, op) : -1; }

static const litert_tensor *BT(const gctx *g, int t) { return &SG(g, g->body)->tensors[t]; }

static int fused_none(const litert_op *op) { return op->opts.fused_act == ACT_NONE; }

static int strip(const gctx *g, int t);

/* c is an all-ones factor that leaves `other` unchanged when multiplied. */
static int is_ones_for(const gctx *g, int c, int other) {
  if (!is_value(g, g->body, c, 1.0f)) return 0;
  const litert_op *p = bprod(g, c);
  if (p && bop(g, p) == OP_FILL && p->ninputs >= 2) {
    const litert_op *sh = bprod(g, p->inputs[0]);
    if (sh && bop(g, sh) == OP_SHAPE && sh->ninputs >= 1 && strip(g, sh->inputs[0]) == strip(g, other))
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
static int strip(const gctx *g, int t) {
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

/* Loop variable whose body input is t (after strip), or -1. */
static int var_of(const gctx *g, int t) {
  int ip = input_pos(SG(g, g->body), strip(g, t));
  return ip >= 0 && ip < g->n ? ip : -1;
}

static int is_counter_arg(const gctx *g, int t) {
  int v = var_of(g, t);
  return v >= 0 && g->kind[v] == V_COUNTER;
}

/* t = counter + 1 (an ADD of a counter and the constant 1). */
static int is_counter_next(const gctx *g, int t) {
  t = strip(g, t);
  const litert_op *op = bprod(g, t);
  if (bop(g, op) != OP_ADD || op->ninputs != 2 || !fused_none(op)) return 0;
  for (int k = 0; k < 2; k++)
    if (is_counter_arg(g, op->inputs[k]) && is_value(g, g->body, op->inputs[1 - k], 1.0f)) return 1;
  return 0;
}

/* ---- affine forms --------------------------------------------------------------------- */

static void form_free(form *f) {
  for (int i = 0; i < C_NMAT; i++) free(f->w[i]);
  for (int i = 0; i < C_NBIAS; i++) free(f->b[i]);
  memset(f, 0, sizeof *f);
  f->rgate = -1;
}

static void form_init(form *f, int rows) {
  memset(f, 0, sizeof *f);
  f->rows = rows;
  f->rgate = -1;
}

static void note_dtype(form *f, int dt) {
  if (dt == DT_FLOAT16) f->any_f16 = 1;
  else f->any_f32 = 1;
}

/* dst += sign * src (rows must agree, or src is a broadcast constant). */
static int form_add(form *dst, const form *src, float sign) {
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
    } else if (dst->cols[i] != src->cols[i]) {
      return -1;
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
  return 0;
}

static int form_slice(const form *src, int off, int cnt, form *out) {
  if (src->bcast) {
    form_init(out, cnt);
    out->rgate = src->rgate;
    out->any_f16 = src->any_f16, out->any_f32 = src->any_f32, out->inexact = src->inexact;
    return form_add(out, src, 1.0f);
  }
  if (off < 0 || cnt <= 0 || off + cnt > src->rows) return -1;
  form_init(out, cnt);
  out->rgate = src->rgate;
  out->any_f16 = src->any_f16, out->any_f32 = src->any_f32, out->inexact = src->inexact;
  for (int i = 0; i < C_NMAT; i++) {
    if (!src->w[i]) continue;
    size_t c = (size_t)src->cols[i];
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


static int form_of(gctx *g, int t, int depth, form *f);
static int match_gate(gctx *g, int t, int depth, gate_memo **out);

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
  const litert_tensor *T = BT(g, t);
  if (T->type != DT_FLOAT32 && T->type != DT_FLOAT16) return -1;
  if (ceval(g, g->body, t, &c, 0) != 0) {
    /* a leaf that is neither a loop input we understand nor constant */
    int v = input_pos(SG(g, g->body), t);
    if (bprod(g, t) || (v >= 0 && g->kind[v] != V_INVARIANT)) return -1;
    note_nonconst(g, "bias", t);
    int64_t n = numel_of(T);
    if (n < 1 || n > (1 << 20)) return -1;
    form_init(f, (int)n);
    f->b[C_BX] = xcalloc((size_t)n, sizeof(float));
    f->bcnt[C_BX] = 1;
    f->bcast = n == 1;
    return 0;
  }
  if (c.n < 1 || c.n > (1u << 20) || (c.n > 1 && (lead_of(T) != 1 || (size_t)width_of(T) != c.n))) {
    cval_free(&c);
    return -1;
  }
  form_init(f, (int)c.n);
  f->bcast = c.n == 1;
  f->b[C_BX] = xmalloc(sizeof(float) * c.n);
  for (size_t i = 0; i < c.n; i++) f->b[C_BX][i] = (float)c.v[i];
  f->bcnt[C_BX] = 1;
  note_dtype(f, c.dtype);
  cval_free(&c);
  return 0;
}

enum { SRC_NONE = -1, SRC_X = 0, SRC_H = 1, SRC_RH = 2 };

static int index_vector(gctx *g, int idx, int want_next, int rank, int kind_rest);

/* x_t read as SLICE(X, [i, 0, 0], [1, B, F]) or STRIDED_SLICE(X, [i, 0, 0], ...)
 * taking row i of the time axis whole. */
static int is_row_read(gctx *g, const litert_op *op, int b, int *xv_out) {
  if (op->ninputs < 3) return 0;
  int xv = var_of(g, op->inputs[0]);
  const litert_tensor *X = BT(g, op->inputs[0]);
  if (xv < 0 || g->kind[xv] != V_INVARIANT || X->rank != 3) return 0;
  if (!index_vector(g, op->inputs[1], 0, 3, 0)) return 0;
  cval c;
  int ok = 0;
  if (b == OP_SLICE) {
    if (ceval(g, g->body, op->inputs[2], &c, 0) == 0 && c.n == 3)
      ok = c.v[0] == 1 && (c.v[1] == -1 || c.v[1] == X->shape[1]) &&
           (c.v[2] == -1 || c.v[2] == X->shape[2]);
    cval_free(&c);
  } else {
    if (op->ninputs < 4 || op->opts.ellipsis_mask || op->opts.new_axis_mask || op->opts.ss_offset)
      return 0;
    if ((op->opts.shrink_axis_mask & 6) || (op->opts.end_mask & 6) != 6) return 0;
    if (ceval(g, g->body, op->inputs[3], &c, 0) == 0 && c.n == 3)
      ok = c.v[0] == 1 && c.v[1] == 1 && c.v[2] == 1;
    cval_free(&c);
    /* one row: shrunk, or ending at i + 1 */
    if (ok && !(op->opts.shrink_axis_mask & 1) && (op->opts.end_mask & 1 ||
                                                   !index_vector(g, op->inputs[2], 1, 3, 2)))
      ok = 0;
  }
  if (ok) *xv_out = xv;
  return ok;
}

/* Which cell input v is: x_t, h, or r * h (with *rgate set). */
static int source_of(gctx *g, int v, int depth, int *rgate) {
  v = strip(g, v);
  if (v == g->h_arg) return SRC_H;
  const litert_op *op = bprod(g, v);
  int b = bop(g, op);
  if (b == OP_GATHER && op->ninputs == 2 && op->opts.batch_dims == 0) {
    int xv = var_of(g, op->inputs[0]);
    const litert_tensor *X = BT(g, op->inputs[0]);
    int axis = op->opts.axis < 0 ? op->opts.axis + X->rank : op->opts.axis;
    if (xv < 0 || g->kind[xv] != V_INVARIANT || axis != 0 || X->rank != 3) return SRC_NONE;
    if (!is_counter_arg(g, op->inputs[1]) || BT(g, op->inputs[1])->rank > 1 ||
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
      if (strip(g, op->inputs[k]) != g->h_arg) continue;
      gate_memo *gm;
      if (match_gate(g, op->inputs[1 - k], depth + 1, &gm) == 0) {
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
  if (W->type != DT_FLOAT32 && W->type != DT_FLOAT16) {
    if (!g->baddtype[0])
      snprintf(g->baddtype, sizeof g->baddtype,
               "weights '%s' are %s (GRU kernels take float32 or float16 weights)",
               W->name ? W->name : "", dtype_name(W->type));
  }
  form_init(f, N);
  int mi = src == SRC_X ? C_WX : src == SRC_H ? C_WH : C_WRH;
  f->rgate = rgate;
  f->cols[mi] = K;
  f->wcnt[mi] = 1;
  cval c;
  if (ceval(g, g->body, wt, &c, 0) == 0 && c.n == (size_t)N * (size_t)K) {
    f->w[mi] = xmalloc(sizeof(float) * c.n);
    for (size_t e = 0; e < c.n; e++) f->w[mi][e] = (float)c.v[e];
    note_dtype(f, c.dtype);
    cval_free(&c);
  } else {
    cval_free(&c);
    f->w[mi] = xcalloc((size_t)N * (size_t)K, sizeof(float));
    note_nonconst(g, "weights", wt);
  }
  if (bt >= 0) {
    int bi = src == SRC_X ? C_BX : C_BH;
    f->bcnt[bi] = 1;
    if (ceval(g, g->body, bt, &c, 0) == 0 && c.n == (size_t)N) {
      f->b[bi] = xmalloc(sizeof(float) * (size_t)N);
      for (int r = 0; r < N; r++) f->b[bi][r] = (float)c.v[r];
      note_dtype(f, c.dtype);
      cval_free(&c);
    } else {
      cval_free(&c);
      if (numel_of(BT(g, bt)) != N) {
        form_free(f);
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
    if (ceval(g, g->body, op->inputs[ai], &c1, 0) || c1.n != 1) goto done;
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
      if (ceval(g, g->body, op->inputs[1], &c2, 0) || (int)c2.n != op->noutputs) goto done;
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
    if (ceval(g, g->body, op->inputs[1], &c1, 0) || ceval(g, g->body, op->inputs[2], &c2, 0) ||
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
    if (ceval(g, g->body, op->inputs[1], &c1, 0) || ceval(g, g->body, op->inputs[2], &c2, 0) ||
        ceval(g, g->body, op->inputs[3], &c3, 0) || (int)c1.n != X->rank ||
        (int)c2.n != X->rank || (int)c3.n != X->rank || X->rank < 1)
      goto done;
    int L = X->rank - 1;
    for (int k = 0; k <= L; k++) {
      int64_t st, ct;
      int shrink = (op->opts.shrink_axis_mask >> k) & 1;
      if (ss_dim(X->shape[k], (int64_t)c1.v[k], (int64_t)c2.v[k], (int64_t)c3.v[k],
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
  cval_free(&c1), cval_free(&c2), cval_free(&c3);
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
static int form_of(gctx *g, int t, int depth, form *f) {
  if (depth > MAXD || out_of_budget(g)) return -1;
  t = strip(g, t);
  const litert_op *op = bprod(g, t);
  if (!op) return const_form(g, t, f);
  int b = bop(g, op);
  const litert_tensor *T = BT(g, t);
  if (T->type != DT_FLOAT32 && T->type != DT_FLOAT16) return -1;
  {
    /* a constant computed by ops (e.g. DEQUANTIZE) */
    cval c;
    if (ceval(g, g->body, t, &c, 0) == 0) {
      cval_free(&c);
      return const_form(g, t, f);
    }
  }
  int rc = -1;
  switch (b) {
    case OP_ADD: case OP_SUB: {
      if (op->ninputs != 2 || !fused_none(op)) return -1;
      form a, c;
      if (form_of(g, op->inputs[0], depth + 1, &a)) return -1;
      if (form_of(g, op->inputs[1], depth + 1, &c)) {
        form_free(&a);
        return -1;
      }
      /* a constant added to a recurrent projection is a recurrent bias */
      pure_bias_to_h(&c, &a);
      pure_bias_to_h(&a, &c);
      rc = form_add(&a, &c, b == OP_SUB ? -1.0f : 1.0f);
      form_free(&c);
      if (rc) form_free(&a);
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
      if (form_of(g, in_t, depth + 1, &wide)) return -1;
      rc = form_slice(&wide, off, cnt, f);
      form_free(&wide);
      break;
    }
    case OP_MUL: {
      if (op->ninputs != 2 || !fused_none(op)) return -1;
      for (int k = 0; k < 2 && rc; k++) {
        int a = op->inputs[k], o = op->inputs[1 - k];
        /* constant scale */
        cval c;
        if (ceval(g, g->body, o, &c, 0) == 0) {
          form x;
          if (form_of(g, a, depth + 1, &x) == 0) {
            if (x.bcast || !(c.n == 1 || c.n == (size_t)x.rows)) {
              form_free(&x);
            } else {
              for (int i = 0; i < C_NMAT; i++)
                for (int r = 0; x.w[i] && r < x.rows; r++)
                  for (int e = 0; e < x.cols[i]; e++)
                    x.w[i][(size_t)r * (size_t)x.cols[i] + (size_t)e] *= (float)c.v[c.n == 1 ? 0 : r];
              for (int i = 0; i < C_NBIAS; i++)
                for (int r = 0; x.b[i] && r < x.rows; r++) x.b[i][r] *= (float)c.v[c.n == 1 ? 0 : r];
              x.inexact = 1;
              note_dtype(&x, c.dtype);
              *f = x;
              rc = 0;
            }
          }
          cval_free(&c);
          continue;
        }
        /* r (.) (h.U + c) */
        gate_memo *gm;
        if (match_gate(g, a, depth + 1, &gm) == 0) {
          form x;
          if (form_of(g, o, depth + 1, &x) == 0) {
            if (x.w[C_WX] || x.w[C_WRH] || x.w[C_WRG] || x.b[C_BRG] || x.bcast ||
                x.rows != gm->f.rows) {
              form_free(&x);
              continue;
            }
            form_init(f, x.rows);
            f->rgate = gm->t;
            f->w[C_WRG] = x.w[C_WH];
            f->cols[C_WRG] = x.cols[C_WH];
            f->wcnt[C_WRG] = x.wcnt[C_WH];
            x.w[C_WH] = NULL;
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
            form_free(&x);
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
    form_free(f);
    rc = -1;
  }
  return rc;
}

static int only_xh(const form *f) {
  return !f->w[C_WRH] && !f->w[C_WRG] && !f->b[C_BRG] && f->rgate < 0 && !f->bcast;
}

/* Gate: sigmoid(p) or clamp(0.2 p + 0.5, 0, 1), p affine in x and h. */
static int match_gate(gctx *g, int t, int depth, gate_memo **out) {
  if (depth > MAXD || out_of_budget(g)) return -1;
  t = strip(g, t);
  for (int i = 0; i < g->ngm; i++)
    if (g->gm[i].t == t) {
      *out = &g->gm[i];
      return g->gm[i].ok ? 0 : -1;
    }
  if (g->ngm == (int)(sizeof g->gm / sizeof g->gm[0])) return -1;
  gate_memo *gm = &g->gm[g->ngm++];
  memset(gm, 0, sizeof *gm);
  gm->t = t;
  gm->f.rgate = -1;
  *out = gm;
  const litert_op *op = bprod(g, t);
  int b = bop(g, op);
  int p = -1, act = -1;
  if (b == OP_LOGISTIC && op->ninputs == 1) {
    p = op->inputs[0];
    act = AOT_GRU_SIGMOID;
  } else if ((b == OP_MAXIMUM || b == OP_MINIMUM) && op->ninputs == 2) {
    /* clamp(lin, 0, 1) in either nesting */
    int inner_b = b == OP_MAXIMUM ? OP_MINIMUM : OP_MAXIMUM;
    for (int k = 0; k < 2 && p < 0; k++) {
      if (!is_value(g, g->body, op->inputs[1 - k], b == OP_MAXIMUM ? 0.0f : 1.0f)) continue;
      int it = strip(g, op->inputs[k]);
      const litert_op *in = bprod(g, it);
      if (bop(g, in) != inner_b || in->ninputs != 2) continue;
      for (int j = 0; j < 2 && p < 0; j++) {
        if (!is_value(g, g->body, in->inputs[1 - j], inner_b == OP_MAXIMUM ? 0.0f : 1.0f)) continue;
        int lt = strip(g, in->inputs[j]);
        const litert_op *add = bprod(g, lt);
        if (bop(g, add) != OP_ADD || add->ninputs != 2 || !fused_none(add)) continue;
        for (int a = 0; a < 2 && p < 0; a++) {
          if (!is_value(g, g->body, add->inputs[1 - a], 0.5f)) continue;
          const litert_op *mul = bprod(g, strip(g, add->inputs[a]));
          if (bop(g, mul) != OP_MUL || mul->ninputs != 2 || !fused_none(mul)) continue;
          for (int q = 0; q < 2 && p < 0; q++)
            if (is_value(g, g->body, mul->inputs[1 - q], 0.2f)) p = mul->inputs[q];
        }
      }
    }
    act = AOT_GRU_HARD_SIGMOID;
  }
  if (p < 0) return -1;
  if (form_of(g, p, depth + 1, &gm->f)) return -1;
  if (!only_xh(&gm->f) || gm->f.rows != g->units) {
    form_free(&gm->f);
    return -1;
  }
  gm->act = act;
  gm->ok = 1;
  return 0;
}

/* t = 1 - z (SUB(1, z), 1 + (-z), 1 + (-1) * z in any operand order). */
static int is_one_minus(gctx *g, int t, int z) {
  t = strip(g, t);
  const litert_op *op = bprod(g, t);
  int b = bop(g, op);
  if (!op || op->ninputs != 2 || !fused_none(op)) return 0;
  if (b == OP_SUB) return is_value(g, g->body, op->inputs[0], 1.0f) && strip(g, op->inputs[1]) == z;
  if (b != OP_ADD) return 0;
  for (int k = 0; k < 2; k++) {
    if (!is_value(g, g->body, op->inputs[1 - k], 1.0f)) continue;
    int nt = strip(g, op->inputs[k]);
    const litert_op *neg = bprod(g, nt);
    int nb = bop(g, neg);
    if (nb == OP_NEG && neg->ninputs == 1 && strip(g, neg->inputs[0]) == z) return 1;
    if (nb == OP_MUL && neg->ninputs == 2 && fused_none(neg))
      for (int j = 0; j < 2; j++)
        if (strip(g, neg->inputs[j]) == z && is_value(g, g->body, neg->inputs[1 - j], -1.0f))
          return 1;
  }
  return 0;
}

/* Candidate n = tanh(p) or p (linear), p affine in x and r-gated h (or r*h). */
static int match_cand(gctx *g, int t, form *f, int *act) {
  t = strip(g, t);
  const litert_op *op = bprod(g, t);
  int p = t;
  *act = AOT_GRU_LINEAR;
  if (bop(g, op) == OP_TANH && op->ninputs == 1) {
    p = op->inputs[0];
    *act = AOT_GRU_TANH;
  }
  if (form_of(g, p, 0, f)) return -1;
  if (f->bcast || f->rows != g->units || f->w[C_WH] || (f->w[C_WRG] && f->w[C_WRH])) {
    form_free(f);
    return -1;
  }
  return 0;
}

/* Proves that body tensor t computes h' of a GRU cell with state g->h_arg. */
static int match_cell(gctx *g, int t) {
  t = strip(g, t);
  const litert_op *op = bprod(g, t);
  if (bop(g, op) != OP_ADD || op->ninputs != 2 || !fused_none(op)) return -1;
  for (int k = 0; k < 2; k++) {
    int pt = strip(g, op->inputs[k]), qt = strip(g, op->inputs[1 - k]);
    const litert_op *P = bprod(g, pt), *Q = bprod(g, qt);
    if (bop(g, P) != OP_MUL || P->ninputs != 2 || !fused_none(P)) continue;
    for (int j = 0; j < 2; j++) {
      gate_memo *z;
      int other = strip(g, P->inputs[1 - j]);
      if (match_gate(g, P->inputs[j], 0, &z)) continue;
      int n_t = -1;
      if (other == g->h_arg) {
        /* z*h + (1-z)*n */
        if (bop(g, Q) != OP_MUL || Q->ninputs != 2 || !fused_none(Q)) continue;
        for (int i = 0; i < 2 && n_t < 0; i++)
          if (is_one_minus(g, Q->inputs[i], z->t)) n_t = Q->inputs[1 - i];
      } else {
        /* n + z*(h - n) */
        const litert_op *D = bprod(g, other);
        if (bop(g, D) == OP_SUB && D->ninputs == 2 && fused_none(D) &&
            strip(g, D->inputs[0]) == g->h_arg && strip(g, D->inputs[1]) == qt)
          n_t = qt;
      }
      if (n_t < 0) continue;
      form nf;
      int cact;
      if (match_cand(g, n_t, &nf, &cact)) continue;
      int rg = nf.rgate;
      gate_memo *r = NULL;
      if (rg >= 0) {
        for (int i = 0; i < g->ngm; i++)
          if (g->gm[i].t == rg && g->gm[i].ok) r = &g->gm[i];
        if (!r || r->act != z->act) {
          form_free(&nf);
          continue;
        }
      }
      g->z_gate = z->t;
      g->r_gate = rg;
      g->gate_act = z->act;
      g->cand_act = cact;
      g->reset_after = nf.w[C_WRH] ? 0 : 1;
      g->fn = nf;
      return 0;
    }
  }
  return -1;
}

/* idx is a 1-D int vector [s, c1, c2, ...] with s = counter (want_next: counter + 1)
 * and the constants checked by ok_rest(value, position). */
static int index_vector(gctx *g, int idx, int want_next, int rank, int kind_rest) {
  idx = strip(g, idx);
  const litert_op *op = bprod(g, idx);
  int b = bop(g, op);
  int lead = -1;
  double rest[8];
  int nrest = 0;
  if (b == OP_CONCATENATION && op->opts.axis == 0 && op->ninputs >= 1 && fused_none(op)) {
    const litert_op *r = bprod(g, op->inputs[0]);
    int rb = bop(g, r);
    if ((rb == OP_RESHAPE || rb == OP_EXPAND_DIMS) && numel_of(BT(g, op->inputs[0])) == 1)
      lead = r->inputs[0];
    for (int k = 1; k < op->ninputs; k++) {
      cval c;
      if (ceval(g, g->body, op->inputs[k], &c, 0)) return 0;
      for (size_t i = 0; i < c.n && nrest < 8; i++) rest[nrest++] = c.v[i];
      cval_free(&c);
    }
  } else if (b == OP_PACK && op->opts.axis == 0 && op->ninputs >= 1) {
    lead = op->inputs[0];
    for (int k = 1; k < op->ninputs; k++) {
      cval c;
      if (ceval(g, g->body, op->inputs[k], &c, 0) || c.n != 1) {
        cval_free(&c);
        return 0;
      }
      rest[nrest++] = c.v[0];
      cval_free(&c);
    }
  }
  if (lead < 0 || nrest != rank - 1) return 0;
  if (want_next ? !is_counter_next(g, lead) : !is_counter_arg(g, lead)) return 0;
  for (int i = 0; i < nrest; i++) {
    if (kind_rest == 0 && rest[i] != 0) return 0;      /* begin: zeros */
    if (kind_rest == 1 && rest[i] != -1) return 0;     /* size: everything */
    /* kind_rest 2: any (masked by the caller) */
  }
  return 1;
}

/* res = the list arg with row `counter` replaced by h'. */
static int match_write(gctx *g, int res, int list_arg, int hnew) {
  res = strip(g, res);
  const litert_op *op = bprod(g, res);
  int b = bop(g, op);
  const litert_tensor *L = BT(g, list_arg);
  if (L->rank != 3) return 0;
  if (b == OP_DYNAMIC_UPDATE_SLICE && op->ninputs == 3) {
    return strip(g, op->inputs[0]) == list_arg && strip(g, op->inputs[1]) == strip(g, hnew) &&
           index_vector(g, op->inputs[2], 0, 3, 0);
  }
  if (b != OP_CONCATENATION || op->ninputs != 3 || !fused_none(op)) return 0;
  int axis = op->opts.axis < 0 ? op->opts.axis + 3 : op->opts.axis;
  if (axis != 0) return 0;
  /* head = L[0:i] */
  const litert_op *h = bprod(g, op->inputs[0]);
  if (bop(g, h) != OP_SLICE || h->ninputs != 3 || strip(g, h->inputs[0]) != list_arg) return 0;
  cval c;
  if (ceval(g, g->body, h->inputs[1], &c, 0)) return 0;
  int zeros = c.n == 3 && c.v[0] == 0 && c.v[1] == 0 && c.v[2] == 0;
  cval_free(&c);
  if (!zeros || !index_vector(g, h->inputs[2], 0, 3, 1)) return 0;
  /* mid = h' as [1, 1, U] */
  int mid = op->inputs[1];
  if (strip(g, mid) != strip(g, hnew) || numel_of(BT(g, mid)) != g->batch * g->units) return 0;
  /* tail = L[i+1:] */
  const litert_op *tl = bprod(g, op->inputs[2]);
  if (bop(g, tl) != OP_SLICE || tl->ninputs != 3 || strip(g, tl->inputs[0]) != list_arg) return 0;
  if (ceval(g, g->body, tl->inputs[2], &c, 0)) return 0;
  int all = c.n == 3 && c.v[0] == -1 && c.v[1] == -1 && c.v[2] == -1;
  cval_free(&c);
  return all && index_vector(g, tl->inputs[1], 1, 3, 0);
}

/* Trip count bound of the cond subgraph (a conjunction of counter < bound). */
static int64_t cond_bound(gctx *g, int t, int depth) {
  const litert_subgraph *C = SG(g, g->cond);
  if (depth > MAXD) return -1;
  int p = producer_in(C, t);
  if (p < 0) return -1;
  const litert_op *op = &C->ops[p];
  int b = builtin_of(g->m, op);
  if (op->ninputs != 2) return -1;
  if (b == OP_LOGICAL_AND) {
    int64_t a = cond_bound(g, op->inputs[0], depth + 1), c = cond_bound(g, op->inputs[1], depth + 1);
    if (a < 0 || c < 0) return -1;
    return a < c ? a : c;
  }
  int ci, bi, incl = 0;
  if (b == OP_LESS) ci = 0, bi = 1;
  else if (b == OP_GREATER) ci = 1, bi = 0;
  else if (b == OP_LESS_EQUAL) ci = 0, bi = 1, incl = 1;
  else if (b == OP_GREATER_EQUAL) ci = 1, bi = 0, incl = 1;
  else return -1;
  int v = input_pos(C, op->inputs[ci]);
  if (v < 0 || v >= g->n || g->kind[v] != V_COUNTER) return -1;
  cval c;
  if (ceval(g, g->cond, op->inputs[bi], &c, 0) || c.n != 1) {
    cval_free(&c);
    return -1;
  }
  int64_t bound = (int64_t)c.v[0] + incl;
  cval_free(&c);
  return bound < 0 ? 0 : bound;
}

/* Length (dim 0) of a main-graph tensor: static, or from the constant shape
 * of the FILL producing it. */
static int64_t main_len(gctx *g, int t) {
  int d = static_dim(g->m, g->msg, t, 0);
  if (d >= 0) return d;
  const litert_subgraph *M = SG(g, g->msg);
  int p = producer_in(M, t);
  if (p >= 0 && builtin_of(g->m, &M->ops[p]) == OP_FILL) {
    cval c;
    if (ceval(g, g->msg, M->ops[p].inputs[0], &c, 0) == 0 && c.n >= 1) {
      int64_t n = (int64_t)c.v[0];
      cval_free(&c);
      return n;
    }
    cval_free(&c);
  }
  return -1;
}

static void gctx_free(gctx *g) {
  for (int i = 0; i < g->ngm; i++) form_free(&g->gm[i].f);
  g->ngm = 0;
  form_free(&g->fz);
  form_free(&g->fr);
  form_free(&g->fn);
  free(g->kind);
  g->kind = NULL;
}

/* Analyzes the WHILE at g->wi. Returns 1 for a GRU loop, 0 otherwise. */
static int match_loop(gctx *g) {
  litert_model *m = g->m;
  const litert_subgraph *M = SG(g, g->msg);
  const litert_op *w = g->wop = &M->ops[g->wi];
  g->cond = w->opts.cond_subgraph;
  g->body = w->opts.body_subgraph;
  g->h_var = g->list_var = g->x_var = -1;
  g->z_gate = g->r_gate = -1;
  form_init(&g->fz, 0), form_init(&g->fr, 0), form_init(&g->fn, 0);
  if (g->cond <= 0 || g->body <= 0 || g->cond >= m->nsubgraphs || g->body >= m->nsubgraphs ||
      g->cond == g->body || g->cond == g->msg || g->body == g->msg)
    return 0;
  const litert_subgraph *B = SG(g, g->body), *C = SG(g, g->cond);
  int n = w->ninputs;
  if (n < 3 || w->noutputs != n || B->ninputs != n || B->noutputs != n || C->ninputs != n ||
      C->noutputs != 1)
    return 0;
  for (int k = 0; k < n; k++)
    if (w->inputs[k] < 0 || w->outputs[k] < 0) return 0;
  for (int i = 0; i < B->nops; i++)
    if (has_side_effects_builtin(builtin_of(m, &B->ops[i]))) return 0;
  for (int i = 0; i < C->nops; i++)
    if (has_side_effects_builtin(builtin_of(m, &C->ops[i]))) return 0;
  g->n = n;
  g->kind = xcalloc((size_t)n, sizeof(int));
  /* invariants first (counters' initial values may depend on them) */
  for (int k = 0; k < n; k++)
    if (B->outputs[k] == B->inputs[k]) g->kind[k] = V_INVARIANT;
  for (int k = 0; k < n; k++) {
    if (g->kind[k]) continue;
    int p = producer_in(B, B->outputs[k]);
    if (p < 0) continue;
    const litert_op *op = &B->ops[p];
    if (builtin_of(m, op) != OP_ADD || op->ninputs != 2 || !fused_none(op)) continue;
    if (B->tensors[B->outputs[k]].type != DT_INT32) continue;
    for (int j = 0; j < 2; j++) {
      if (op->inputs[j] != B->inputs[k] || !is_value(g, g->body, op->inputs[1 - j], 1.0f)) continue;
      cval c;
      if (ceval(g, g->msg, w->inputs[k], &c, 0) == 0 && c.n == 1 && c.v[0] == 0)
        g->kind[k] = V_COUNTER;
      cval_free(&c);
    }
  }
  /* the state */
  for (int k = 0; k < n && g->h_var < 0; k++) {
    if (g->kind[k]) continue;
    const litert_tensor *H = &B->tensors[B->inputs[k]];
    if (H->rank < 1 || width_of(H) <= 0) continue;
    g->h_arg = B->inputs[k];
    g->units = width_of(H);
    g->batch = lead_of(H);
    if (match_cell(g, B->outputs[k]) == 0) {
      g->h_var = k;
      g->kind[k] = V_STATE;
    } else {
      for (int i = 0; i < g->ngm; i++) form_free(&g->gm[i].f);
      g->ngm = 0;
      g->x_var = -1;
      g->nonconst[0] = g->baddtype[0] = 0;
    }
  }
  if (g->h_var < 0) return 0;
  /* gate forms */
  form_init(&g->fz, g->units);
  form_init(&g->fr, g->units);
  for (int i = 0; i < g->ngm; i++) {
    if (!g->gm[i].ok) continue;
    if (g->gm[i].t == g->z_gate && form_add(&g->fz, &g->gm[i].f, 1.0f)) return 0;
    if (g->r_gate >= 0 && g->gm[i].t == g->r_gate && form_add(&g->fr, &g->gm[i].f, 1.0f)) return 0;
  }
  /* the output list */
  for (int k = 0; k < n; k++) {
    if (g->kind[k]) continue;
    if (g->list_var < 0 && match_write(g, B->outputs[k], B->inputs[k], B->outputs[g->h_var])) {
      g->list_var = k;
      g->kind[k] = V_LIST;
      continue;
    }
    return 0; /* a loop variable the pattern does not explain */
  }
  if (g->x_var < 0) return 0;
  /* trip count = time steps = list length */
  int64_t trip = cond_bound(g, C->outputs[0], 0);
  if (trip <= 0) return 0;
  int64_t T = static_dim(m, g->msg, w->inputs[g->x_var], 0);
  const litert_tensor *X = &M->tensors[w->inputs[g->x_var]];
  if (T != trip || X->rank != 3) return 0;
  if (g->list_var >= 0 && main_len(g, w->inputs[g->list_var]) != trip) return 0;
  g->trip = trip;
  g->feat = X->shape[2];
  return 1;
}

/* ---- rewriting the main subgraph -------------------------------------------------------- */

static char *liveness(const litert_model *m, int sg);

static int insert_op(litert_model *m, int sg, int pos, int builtin, const char *custom, int nin,
                     const int32_t *in, int nout, const int32_t *out, const litert_options *o) {
  int at = litert_add_op(m, sg, builtin, custom, nin, in, nout, out, o);
  litert_subgraph *s = &m->subgraphs[sg];
  litert_op tmp = s->ops[at];
  memmove(&s->ops[pos + 1], &s->ops[pos], sizeof *s->ops * (size_t)(at - pos));
  s->ops[pos] = tmp;
  return pos;
}

static void free_op(litert_op *op) {
  free(op->inputs);
  free(op->outputs);
  free(op->intermediates);
  free(op->custom_options);
  litert_options_free(&op->opts);
  memset(op, 0, sizeof *op);
}

static void remove_op(litert_model *m, int sg, int pos) {
  litert_subgraph *s = &m->subgraphs[sg];
  free_op(&s->ops[pos]);
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
    int p = producer_in(M, src);
    if (p < 0) return 0;
    const litert_op *r = &M->ops[p];
    if (builtin_of(g->m, r) != OP_RESHAPE || r->inputs[0] != L) return 0;
    int ok = 0;
    if (r->ninputs >= 2) {
      int sp = producer_in(M, r->inputs[1]);
      if (sp >= 0 && builtin_of(g->m, &M->ops[sp]) == OP_SHAPE && M->ops[sp].inputs[0] == L) ok = 1;
    }
    if (!ok) return 0;
  }
  cval bg, en, st;
  int ok = 0;
  if (ceval(g, g->msg, op->inputs[1], &bg, 0) == 0) {
    if (ceval(g, g->msg, op->inputs[2], &en, 0) == 0) {
      if (ceval(g, g->msg, op->inputs[3], &st, 0) == 0) {
        if (bg.n == 3 && en.n == 3 && st.n == 3) {
          int32_t dims[3] = {(int32_t)T, (int32_t)g->batch, g->units};
          ok = 1;
          for (int k = 0; k < 3 && ok; k++) {
            int64_t s0, c0;
            int shrink = (op->opts.shrink_axis_mask >> k) & 1;
            if (ss_dim(dims[k], (int64_t)bg.v[k], (int64_t)en.v[k], (int64_t)st.v[k],
                       (op->opts.begin_mask >> k) & 1, (op->opts.end_mask >> k) & 1, shrink, &s0,
                       &c0) != 0 || st.v[k] != 1)
              ok = 0;
            else if (k == 0 && (s0 != T - 1 || c0 != 1))
              ok = 0;
            else if (k > 0 && (shrink || s0 != 0 || c0 != dims[k]))
              ok = 0;
          }
        }
        cval_free(&st);
      }
      cval_free(&en);
    }
    cval_free(&bg);
  }
  return ok;
}

typedef struct gru_params {
  int pdtype;                   /* DT_FLOAT32 or DT_FLOAT16 */
  float *W, *U, *bx, *bh;       /* bx / bh NULL when absent */
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
  free(p->W), free(p->U), free(p->bx), free(p->bh);
}

static int add_param(litert_model *m, int sg, const char *base, const char *what, int dtype,
                     const float *v, int rank, const int32_t *shape) {
  size_t n = 1;
  for (int k = 0; k < rank; k++) n *= (size_t)shape[k];
  char *nm = xasprintf("%s/%s", base, what);
  int t;
  if (dtype == DT_FLOAT16) {
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

/* Post-match checks that turn a verified GRU loop into an error. */
static int check_loop(gctx *g, int collision, aotc_diag *d, int *pdtype) {
  const litert_model *m = g->m;
  const litert_subgraph *M = SG(g, g->msg);
  const litert_op *w = g->wop;
  const char *lname = M->tensors[w->outputs[g->h_var]].name;
#define LOOPERR(...)                                                                          \
  do {                                                                                         \
    char why_[512];                                                                            \
    snprintf(why_, sizeof why_, __VA_ARGS__);                                                  \
    return diag_unsupported(d, "op %d (WHILE, GRU loop '%s'): %s", g->wi, lname ? lname : "", \
                            why_);                                                             \
  } while (0)
  if (g->nonconst[0]) LOOPERR("GRU projection parameter %s; the GRU operator needs constant weights and biases", g->nonconst);
  if (g->baddtype[0]) LOOPERR("%s; no GRU kernel supports this dtype mix", g->baddtype);
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
  if (adt == DT_FLOAT16) {
    if (any_f32) LOOPERR("float16 activations with float32 weights; no GRU kernel supports this dtype mix");
    *pdtype = DT_FLOAT16;
  } else {
    *pdtype = (any_f16 && !any_f32 && !inexact) ? DT_FLOAT16 : DT_FLOAT32;
  }
  /* state in resource variables / variable tensors */
  int h0 = w->inputs[g->h_var];
  int hp = producer_in(M, h0);
  if (M->tensors[h0].is_variable || (hp >= 0 && builtin_of(m, &M->ops[hp]) == OP_READ_VARIABLE))
    LOOPERR("the GRU state is held in a persistent variable (stateful GRU); not supported");
  int hout = w->outputs[g->h_var];
  for (int i = 0; i < M->nops; i++) {
    if (builtin_of(m, &M->ops[i]) != OP_ASSIGN_VARIABLE) continue;
    for (int k = 0; k < M->ops[i].ninputs; k++)
      if (M->ops[i].inputs[k] == hout)
        LOOPERR("the GRU state is stored into a persistent variable (stateful GRU); not supported");
  }
  if (collision)
    LOOPERR("the model already declares a custom operator code \"GRU\"; cannot add the fused "
            "GRU operator");
#undef LOOPERR
  return 0;
}

/* Replaces the verified loop. Returns the index after the last op written. */
static int rewrite_loop(gctx *g, int pdtype) {
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
    int p = producer_in(M, x);
    if (p >= 0 && builtin_of(m, &M->ops[p]) == OP_REVERSE_V2 && M->ops[p].ninputs == 2) {
      cval ax;
      if (ceval(g, sg, M->ops[p].inputs[1], &ax, 0) == 0 && ax.n == 1 &&
          (ax.v[0] == 0 || ax.v[0] == -3)) {
        x = M->ops[p].inputs[0];
        go_back = 1;
      }
      cval_free(&ax);
    }
    p = producer_in(M, x);
    if (p >= 0 && builtin_of(m, &M->ops[p]) == OP_TRANSPOSE && M->ops[p].ninputs == 2) {
      cval pm;
      const litert_tensor *S = &M->tensors[M->ops[p].inputs[0]];
      if (ceval(g, sg, M->ops[p].inputs[1], &pm, 0) == 0 && pm.n == 3 && pm.v[0] == 1 &&
          pm.v[1] == 0 && pm.v[2] == 2 && S->rank == 3 && S->shape[0] == 1 && S->shape[1] == T &&
          S->shape[2] == F && S->type == adt)
        x = M->ops[p].inputs[0];
      cval_free(&pm);
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
    if (ceval(g, sg, h0, &c, 0) == 0 && c.n == (size_t)U) {
      float *v = xmalloc(sizeof(float) * (size_t)U);
      for (int i = 0; i < U; i++) v[i] = (float)c.v[i];
      h0 = add_param(m, sg, base, "h0", adt, v, 2, shp);
      free(v);
    } else if (numel_of(&m->subgraphs[sg].tensors[h0]) != U) {
      set_shape(m, sg, h0, 2, shp);
    }
    cval_free(&c);
  }

  /* parameters */
  gru_params p;
  build_params(g, &p);
  int32_t wsh[2] = {3 * U, F}, ush[2] = {3 * U, U}, bsh[1] = {3 * U};
  int tw = add_param(m, sg, base, "W", pdtype, p.W, 2, wsh);
  int tu = add_param(m, sg, base, "U", pdtype, p.U, 2, ush);
  int tbx = p.bx ? add_param(m, sg, base, "bias_x", pdtype, p.bx, 1, bsh) : -1;
  int tbh = p.bh ? add_param(m, sg, base, "bias_h", pdtype, p.bh, 1, bsh) : -1;
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
        int pp = producer_in(M, M->ops[i].inputs[0]);
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
        free_op(op);
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
    char *live = liveness(m, sg);
    M = &m->subgraphs[sg];
    for (int i = wi + 1; i < M->nops; i++)
      for (int k = 0; live[i] && k < M->ops[i].ninputs; k++)
        if (M->ops[i].inputs[k] == L) need_seq = 1;
    free(live);
    if (is_output_of(M, L)) need_seq = 1;
  }
  int32_t sq_shape[3] = {1, need_seq ? T : 1, U};
  char *nm = xasprintf("%s/sequence", base);
  int sq = litert_add_tensor(m, sg, nm, adt, 3, sq_shape, 0);
  free(nm);

  /* counters and invariants: rewire their readers */
  for (int k = 0; k < n; k++) {
    if (k == g->h_var || k == g->list_var) continue;
    if (count_consumers(&m->subgraphs[sg], wout[k]) == 0) continue;
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
  remove_op(m, sg, wpos);
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

/* ---- cleanup ------------------------------------------------------------------------------ */

static int op_has_effects(const litert_model *m, const litert_subgraph *s, const litert_op *op) {
  if (has_side_effects_builtin(builtin_of(m, op))) return 1;
  for (int k = 0; k < op->noutputs; k++)
    if (op->outputs[k] >= 0 && s->tensors[op->outputs[k]].is_variable) return 1;
  for (int k = 0; k < op->ninputs; k++)
    if (op->inputs[k] >= 0 && s->tensors[op->inputs[k]].is_variable) return 1;
  return 0;
}

/* live[i]: op i contributes to an output or has side effects. */
static char *liveness(const litert_model *m, int sg) {
  const litert_subgraph *s = &m->subgraphs[sg];
  char *live = xcalloc((size_t)s->nops + 1, 1);
  char *need = xcalloc((size_t)s->ntensors + 1, 1);
  for (int i = 0; i < s->noutputs; i++)
    if (s->outputs[i] >= 0) need[s->outputs[i]] = 1;
  for (int i = s->nops - 1; i >= 0; i--) {
    const litert_op *op = &s->ops[i];
    int l = op_has_effects(m, s, op);
    for (int k = 0; k < op->noutputs && !l; k++)
      if (op->outputs[k] >= 0 && need[op->outputs[k]]) l = 1;
    if (!l) continue;
    live[i] = 1;
    for (int k = 0; k < op->ninputs; k++)
      if (op->inputs[k] >= 0) need[op->inputs[k]] = 1;
  }
  free(need);
  return live;
}

/* Subgraphs reachable from `from` through control-flow ops and signatures. */
static char *reachable(const litert_model *m) {
  char *r = xcalloc((size_t)m->nsubgraphs + 1, 1);
  int *stack = xmalloc(sizeof(int) * ((size_t)m->nsubgraphs * 4 + 4));
  int sp = 0;
  if (m->nsubgraphs > 0) r[0] = 1, stack[sp++] = 0;
  for (int i = 0; i < m->nsignatures; i++) {
    uint32_t s = m->signatures[i].subgraph_index;
    if (s < (uint32_t)m->nsubgraphs && !r[s]) r[s] = 1, stack[sp++] = (int)s;
  }
  while (sp > 0) {
    const litert_subgraph *s = &m->subgraphs[stack[--sp]];
    for (int i = 0; i < s->nops; i++) {
      const litert_op *op = &s->ops[i];
      int b = builtin_of(m, op), refs[2], nr = 0;
      if (b == OP_WHILE) refs[nr++] = op->opts.cond_subgraph, refs[nr++] = op->opts.body_subgraph;
      else if (b == OP_IF) refs[nr++] = op->opts.then_subgraph, refs[nr++] = op->opts.else_subgraph;
      else if (b == OP_CALL_ONCE) refs[nr++] = op->opts.init_subgraph;
      else if (b == OP_CALL) refs[nr++] = op->opts.subgraph;
      for (int k = 0; k < nr; k++)
        if (refs[k] >= 0 && refs[k] < m->nsubgraphs && !r[refs[k]]) {
          r[refs[k]] = 1;
          stack[sp++] = refs[k];
        }
    }
  }
  free(stack);
  return r;
}

static void free_subgraph(litert_subgraph *g) {
  free(g->name);
  for (int t = 0; t < g->ntensors; t++) {
    litert_tensor *x = &g->tensors[t];
    free(x->name), free(x->shape), free(x->shape_signature), free(x->q.scale), free(x->q.zero_point);
  }
  free(g->tensors), free(g->inputs), free(g->outputs);
  for (int o = 0; o < g->nops; o++) free_op(&g->ops[o]);
  free(g->ops);
}

/* Removes the subgraphs that were reachable before and are not anymore. */
static void prune_subgraphs(litert_model *m, const char *before) {
  char *now = reachable(m);
  int old_n = m->nsubgraphs;
  int *map = xmalloc(sizeof(int) * ((size_t)m->nsubgraphs + 1));
  int n = 0;
  for (int s = 0; s < m->nsubgraphs; s++) {
    if (before[s] && !now[s] && s > 0) {
      map[s] = -1;
      free_subgraph(&m->subgraphs[s]);
    } else {
      map[s] = n;
      if (n != s) m->subgraphs[n] = m->subgraphs[s];
      n++;
    }
  }
  if (n != m->nsubgraphs) {
    m->nsubgraphs = n;
    for (int s = 0; s < n; s++) {
      litert_subgraph *g = &m->subgraphs[s];
      for (int i = 0; i < g->nops; i++) {
        litert_op *op = &g->ops[i];
        int b = builtin_of(m, op);
        int *f[2] = {NULL, NULL};
        if (b == OP_WHILE) f[0] = &op->opts.cond_subgraph, f[1] = &op->opts.body_subgraph;
        else if (b == OP_IF) f[0] = &op->opts.then_subgraph, f[1] = &op->opts.else_subgraph;
        else if (b == OP_CALL_ONCE) f[0] = &op->opts.init_subgraph;
        else if (b == OP_CALL) f[0] = &op->opts.subgraph;
        for (int k = 0; k < 2; k++)
          if (f[k] && *f[k] >= 0 && *f[k] < old_n && map[*f[k]] >= 0) *f[k] = map[*f[k]];
      }
    }
    for (int i = 0; i < m->nsignatures; i++) {
      uint32_t s = m->signatures[i].subgraph_index;
      if (s < (uint32_t)old_n && map[s] >= 0) m->signatures[i].subgraph_index = (uint32_t)map[s];
    }
  }
  free(map);
  free(now);
}

/* ---- the hook --------------------------------------------------------------------------- */

int litert_hook_fuse_rolled_gru(litert_model *m, int sgi, const char *model_path, aotc_diag *diag) {
  (void)model_path;
  if (!m || sgi < 0 || sgi >= m->nsubgraphs) return 0;
  int collision = 0;
  for (int i = 0; i < m->nopcodes; i++)
    if (m->opcodes[i].builtin == OP_CUSTOM && m->opcodes[i].custom_code &&
        strcmp(m->opcodes[i].custom_code, "GRU") == 0)
      collision = 1;
  char *reach_before = reachable(m);
  /* ops live before the rewrite (so only what the rewrite orphans is removed) */
  char *live0 = liveness(m, sgi);
  int nlive = m->subgraphs[sgi].nops;
  char *was_live = xmalloc((size_t)nlive + 1);
  memcpy(was_live, live0, (size_t)nlive + 1);
  free(live0);
  int fused = 0, rc = 0;
  for (int i = 0; i < m->subgraphs[sgi].nops; i++) {
    if (builtin_of(m, &m->subgraphs[sgi].ops[i]) != OP_WHILE) continue;
    gctx g;
    memset(&g, 0, sizeof g);
    long budget = 50000; /* a real cell needs about a hundred steps */
    g.budget = &budget;
    g.m = m;
    g.msg = sgi;
    g.wi = i;
    if (!match_loop(&g)) {
      gctx_free(&g);
      continue;
    }
    int pdtype = DT_FLOAT32;
    budget = 50000;
    if (check_loop(&g, collision, diag, &pdtype)) {
      gctx_free(&g);
      rc = -1;
      break;
    }
    int before = m->subgraphs[sgi].nops;
    int next = rewrite_loop(&g, pdtype);
    gctx_free(&g);
    /* keep was_live aligned with the ops array: new ops count as live */
    int added = m->subgraphs[sgi].nops - before;
    if (added > 0) {
      was_live = xrealloc(was_live, (size_t)m->subgraphs[sgi].nops + 1);
      memmove(was_live + i + 1 + added, was_live + i + 1, (size_t)(before - i - 1));
      for (int k = i; k <= i + added; k++) was_live[k] = 1;
    }
    fused++;
    collision = 0; /* the GRU opcode is ours now */
    i = next - 1;
  }
  if (fused > 0) {
    /* remove ops the rewrite orphaned */
    for (;;) {
      char *live = liveness(m, sgi);
      int removed = 0;
      for (int i = m->subgraphs[sgi].nops - 1; i >= 0; i--) {
        if (!live[i] && was_live[i]) {
          remove_op(m, sgi, i);
          memmove(was_live + i, was_live + i + 1, (size_t)(m->subgraphs[sgi].nops - i));
          removed++;
        }
      }
      free(live);
      if (!removed) break;
    }
    prune_subgraphs(m, reach_before);
  }
  free(was_live);
  free(reach_before);
  return rc < 0 ? -1 : fused;
}
