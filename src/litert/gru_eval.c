/* gru_eval.c - the constant evaluator of the rolled-GRU fusion hook
 * (fuse_rolled_gru) and the graph queries it rests on.
 *
 * gru_ceval() evaluates a tensor of the main, cond or body subgraph of a WHILE to
 * a constant (values as doubles, with the dtype they came from): buffers,
 * DEQUANTIZE, shape-only ops, SHAPE (dynamic dimensions become unknown
 * entries), 1-D STRIDED_SLICE, CONCATENATION / PACK of vectors, FILL and CAST.
 * Inputs of the body and cond that are loop invariants are evaluated in the
 * main subgraph. gru_is_value() / uniform_value() test for uniform constants in
 * the dtype they are stored in; gru_static_dim() gives a static dimension. */
#include "gru_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aot_f16.h"

int gru_has_side_effects_builtin(int b) {
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

int gru_producer_in(const litert_subgraph *s, int t) {
  if (t < 0) return -1;
  for (int i = 0; i < s->nops; i++)
    for (int k = 0; k < s->ops[i].noutputs; k++)
      if (s->ops[i].outputs[k] == t) return i;
  return -1;
}

/* Position of tensor t among the n tensors a, or -1. */
static int tensor_pos(const int32_t *a, int n, int t) {
  for (int i = 0; i < n; i++)
    if (a[i] == t) return i;
  return -1;
}

int gru_input_pos(const litert_subgraph *s, int t) { return tensor_pos(s->inputs, s->ninputs, t); }

int gru_is_output_of(const litert_subgraph *s, int t) { return tensor_pos(s->outputs, s->noutputs, t) >= 0; }

int gru_count_consumers(const litert_subgraph *s, int t) {
  int n = 0;
  for (int i = 0; i < s->nops; i++)
    for (int k = 0; k < s->ops[i].ninputs; k++)
      if (s->ops[i].inputs[k] == t) n++;
  return n;
}

/* Static dimension k of tensor t, or -1 when it is dynamic. Model inputs of
 * the main subgraph are instantiated with their stored shape (batch 1). */
int gru_static_dim(const litert_model *m, int sg, int t, int k) {
  for (int depth = 0; depth < 16; depth++) {
    const litert_subgraph *s = &m->subgraphs[sg];
    const litert_tensor *x = &s->tensors[t];
    if (k < 0 || k >= x->rank) return -1;
    if (!x->shape_signature || x->shape_signature[k] >= 0) return x->shape[k];
    if (sg == 0 && gru_input_pos(s, t) >= 0) return x->shape[k];
    /* a CAST / DEQUANTIZE keeps the shape of its input */
    int p = gru_producer_in(s, t);
    if (p < 0) return -1;
    int b = litert_op_builtin(m, &s->ops[p]);
    if ((b != OP_CAST && b != OP_DEQUANTIZE) || s->ops[p].ninputs < 1 || s->ops[p].inputs[0] < 0 ||
        s->tensors[s->ops[p].inputs[0]].rank != x->rank)
      return -1;
    t = s->ops[p].inputs[0];
  }
  return -1;
}

void gru_cval_free(cval *c) {
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
      default: gru_cval_free(out); return -1;
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
int gru_ss_dim(int dim, int64_t begin, int64_t end, int64_t stride, int bmask, int emask,
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

static int ceval_x(const gctx *g, int sg, int t, cval *out, int depth, int allow_unknown);

static int ceval_op(const gctx *g, int sg, const litert_op *op, int t, cval *out, int depth) {
  const litert_model *m = g->m;
  const litert_subgraph *s = &m->subgraphs[sg];
  const litert_tensor *T = &s->tensors[t];
  int b = builtin_of(m, op);
  cval a = {0}, c = {0};
  int rc = -1;
  switch (b) {
    case OP_DEQUANTIZE: {
      if (op->ninputs < 1 || gru_ceval(g, sg, op->inputs[0], &a, depth + 1)) return -1;
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
        if (gru_static_dim(m, sg, t, k) < 0) known = 0;
      if (known && (size_t)numel_of(T) == a.n) {
        cval_shape_from(&a, T);
        *out = a;
        return 0;
      }
      if (b == OP_RESHAPE && op->ninputs >= 2 && op->inputs[1] >= 0 &&
          gru_ceval(g, sg, op->inputs[1], &c, depth + 1) == 0) {
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
            gru_cval_free(&c);
            return 0;
          }
        }
        gru_cval_free(&c);
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
        int d = gru_static_dim(m, sg, op->inputs[0], k);
        if (d < 0) cval_mark(out, (size_t)k);
        else out->v[k] = d;
      }
      return 0;
    }
    case OP_STRIDED_SLICE: {
      cval bg = {0}, en = {0}, st = {0};
      if (op->ninputs < 4 || ceval_x(g, sg, op->inputs[0], &a, depth + 1, 1)) return -1;
      if (a.rank != 1 || op->opts.ellipsis_mask || op->opts.new_axis_mask || op->opts.ss_offset ||
          gru_ceval(g, sg, op->inputs[1], &bg, depth + 1) || gru_ceval(g, sg, op->inputs[2], &en, depth + 1) ||
          gru_ceval(g, sg, op->inputs[3], &st, depth + 1) || bg.n != 1 || en.n != 1 || st.n != 1) {
        gru_cval_free(&bg), gru_cval_free(&en), gru_cval_free(&st);
        break;
      }
      int64_t start, count, stride = (int64_t)st.v[0];
      int ok = gru_ss_dim(a.shape[0], (int64_t)bg.v[0], (int64_t)en.v[0], stride,
                      op->opts.begin_mask & 1, op->opts.end_mask & 1,
                      op->opts.shrink_axis_mask & 1, &start, &count) == 0;
      gru_cval_free(&bg), gru_cval_free(&en), gru_cval_free(&st);
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
      for (int i = 0; i < np; i++) gru_cval_free(&parts[i]);
      break;
    }
    case OP_FILL: {
      if (op->ninputs < 2 || gru_ceval(g, sg, op->inputs[0], &a, depth + 1)) return -1;
      if (gru_ceval(g, sg, op->inputs[1], &c, depth + 1) || c.n != 1) break;
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
      if (op->ninputs < 1 || gru_ceval(g, sg, op->inputs[0], &a, depth + 1)) return -1;
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
  gru_cval_free(&a);
  gru_cval_free(&c);
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
    gru_cval_free(out);
    rc = -1;
  }
  return rc;
}

int gru_ceval(const gctx *g, int sg, int t, cval *out, int depth) {
  return ceval_x(g, sg, t, out, depth, 0);
}


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
  int ip = gru_input_pos(s, t);
  if (ip >= 0) {
    if (g->wop && (sg == g->body || sg == g->cond) && ip < g->n && g->kind &&
        g->kind[ip] == V_INVARIANT)
      return ceval_x(g, g->msg, g->wop->inputs[ip], out, depth + 1, allow);
    return -1;
  }
  int p = gru_producer_in(s, t);
  if (p < 0) return -1;
  return ceval_op(g, sg, &s->ops[p], t, out, depth);
}

/* All elements equal (a FILL with a constant value counts, whatever its
 * shape). */
static int uniform_value(const gctx *g, int sg, int t, double *v) {
  cval c;
  if (gru_ceval(g, sg, t, &c, 0) == 0) {
    int ok = c.n >= 1;
    for (size_t i = 1; ok && i < c.n; i++)
      if (c.v[i] != c.v[0]) ok = 0;
    if (ok) *v = c.v[0];
    gru_cval_free(&c);
    return ok ? 0 : -1;
  }
  const litert_subgraph *s = SG(g, sg);
  int p = gru_producer_in(s, t);
  if (p >= 0 && builtin_of(g->m, &s->ops[p]) == OP_FILL && s->ops[p].ninputs >= 2) {
    cval c2;
    if (gru_ceval(g, sg, s->ops[p].inputs[1], &c2, 0) == 0) {
      int ok = c2.n == 1;
      if (ok) *v = c2.v[0];
      gru_cval_free(&c2);
      return ok ? 0 : -1;
    }
  }
  return -1;
}

/* v equals the float constant `want` in the dtype the constant is stored in. */
int gru_is_value(const gctx *g, int sg, int t, float want) {
  double v = 0;
  if (uniform_value(g, sg, t, &v)) return 0;
  const litert_tensor *T = &SG(g, sg)->tensors[t];
  if (T->type == DT_FLOAT16) return aot_f32_to_f16((float)v) == aot_f32_to_f16(want);
  if (T->type == DT_FLOAT32) return (float)v == want;
  if (dtype_is_int(T->type)) return v == (double)want;
  return 0;
}
