/* shape_rules.c - the one shape rule of every operator (ir_shape_rule).
 *
 * Given an op whose input tensors hold their shapes, a rule computes the
 * shapes of its outputs. Both users go through it: the static shape pass
 * (src/passes/shapes.c), where parameter inputs are readable only when they are
 * constant, and the host reference interpreter (src/ref), where every input
 * holds its run-time values. The difference is the value reader passed in
 * (ir_ints_fn) and the mode:
 *   - static mode: a parameter that cannot be read is "not known yet" and the
 *     rule answers 1 (no shape); an inconsistent op also answers 1 in effect
 *     (the pass keeps the declared shapes and the op checks report);
 *   - run-time mode: every parameter must be readable, and an unreadable or
 *     inconsistent one is an error (-1, the reason in why).
 * Values outside the int32 range are treated as unreadable: no shape can use
 * them, and the rules' int64 arithmetic stays far from overflow. */
#include "ir.h"

#include <stdio.h>
#include <string.h>

typedef struct rctx {
  const ir_graph *g;
  ir_ints_fn ints;
  const void *ctx;
  int runtime;
  char *why;
  size_t n;
} rctx;

int ir_const_ints(const void *graph, int t, int64_t *v, int max) {
  const ir_graph *g = graph;
  if (t < 0 || t >= g->nt || g->t[t].role != ROLE_CONST || !g->t[t].data) return -1;
  const ir_tensor *x = &g->t[t];
  size_t n = ir_numel(x), es = dtype_size(x->dtype);
  if ((x->dtype != DT_INT32 && x->dtype != DT_INT64) || n > (size_t)max || x->data_bytes < n * es)
    return -1;
  for (size_t i = 0; i < n; i++) {
    if (es == 4) {
      int32_t w;
      memcpy(&w, x->data + 4 * i, 4);
      v[i] = w;
    } else {
      int64_t w;
      memcpy(&w, x->data + 8 * i, 8);
      v[i] = w;
    }
  }
  return (int)n;
}

/* Values of input tensor t (at most max), in the int32 range; count or -1. */
static int rd(const rctx *c, int t, int64_t *v, int max) {
  if (t < 0 || t >= c->g->nt) return -1;
  int k = c->ints(c->ctx, t, v, max);
  for (int i = 0; i < k; i++)
    if (v[i] > INT32_MAX || v[i] < INT32_MIN) return -1;
  return k;
}

static int fail(const rctx *c, const char *fmt, long long a, long long b, long long d) {
  if (c->why && c->n) snprintf(c->why, c->n, fmt, a, b, d);
  return -1;
}

/* A parameter that could not be read: unknown (static) or an error (run time). */
static int unreadable(const rctx *c, const char *what) {
  if (!c->runtime) return 1;
  if (c->why && c->n) snprintf(c->why, c->n, "%s", what);
  return -1;
}

static ir_shape shape_of(const ir_tensor *t) {
  ir_shape s;
  s.rank = t->rank;
  memcpy(s.d, t->shape, sizeof s.d);
  return s;
}

static int norm_axis(int64_t axis, int rank, int *out) {
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return -1;
  *out = (int)axis;
  return 0;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static int bcast(const rctx *c, const ir_shape *a, const ir_shape *b, ir_shape *o) {
  int r = a->rank > b->rank ? a->rank : b->rank;
  o->rank = r;
  for (int i = 0; i < r; i++) {
    int ia = i - (r - a->rank), ib = i - (r - b->rank);
    int32_t da = ia >= 0 ? a->d[ia] : 1, db = ib >= 0 ? b->d[ib] : 1;
    if (da == db || db == 1) o->d[i] = da;
    else if (da == 1) o->d[i] = db;
    else return fail(c, "shapes do not broadcast (dimension %lld: %lld vs %lld)", i, da, db);
  }
  return 0;
}

/* Output length of a convolution / pooling window along one axis. */
static int conv_len(int32_t in, int32_t k, int stride, int dil, int padding, int32_t *out) {
  if (stride < 1) return -1;
  if (dil < 1) dil = 1;
  int64_t eff = ((int64_t)k - 1) * dil + 1;
  int64_t n = padding == PAD_SAME ? ((int64_t)in + stride - 1) / stride
                                  : ((int64_t)in - eff + stride) / stride;
  if (n < 0 || n > INT32_MAX) return -1;
  *out = (int32_t)n;
  return 0;
}

/* A shape from parameter values (FILL dims, BROADCAST_TO shape, TRANSPOSE_CONV
 * output shape). */
static int shape_from(const rctx *c, const int64_t *v, int k, ir_shape *o) {
  o->rank = k;
  for (int i = 0; i < k; i++) {
    if (v[i] < 0) return fail(c, "negative dimension %lld", v[i], 0, 0);
    o->d[i] = (int32_t)v[i];
  }
  return 0;
}

/* STRIDED_SLICE without ellipsis / new_axis masks. begin or end may be
 * computed at run time where the length does not depend on them: shrunk
 * dimensions, begin_mask / end_mask, offset (length = end). */
static int rule_strided_slice(const rctx *c, const ir_op *op, const ir_shape *x, ir_shape *o) {
  int64_t b[IR_MAX_RANK], e[IR_MAX_RANK], s[IR_MAX_RANK];
  int nb = rd(c, op->nin > 1 ? op->in[1] : -1, b, IR_MAX_RANK);
  int ne = rd(c, op->nin > 2 ? op->in[2] : -1, e, IR_MAX_RANK);
  int ns = rd(c, op->nin > 3 ? op->in[3] : -1, s, IR_MAX_RANK);
  const litert_options *p = &op->opts;
  if (ns < 0 || (c->runtime && (nb < 0 || ne < 0)))
    return unreadable(c, "begin/end/strides must be int32 vectors of one length");
  if (p->ellipsis_mask || p->new_axis_mask) {
    if (!c->runtime) return 1;
    return fail(c, "ellipsis_mask / new_axis_mask with run-time shapes not supported", 0, 0, 0);
  }
  if ((nb >= 0 && nb != ns) || (ne >= 0 && ne != ns))
    return fail(c, "begin/end/strides must be int32 vectors of one length", 0, 0, 0);
  if (ns > x->rank) return fail(c, "%lld slice dimensions for a rank-%lld input", ns, x->rank, 0);
  o->rank = 0;
  for (int i = 0; i < x->rank; i++) {
    int64_t dim = x->d[i];
    if (i >= ns) {
      o->d[o->rank++] = (int32_t)dim;
      continue;
    }
    int64_t st = s[i];
    if (st == 0) return fail(c, "stride 0 in dimension %lld", i, 0, 0);
    if ((p->shrink_axis_mask >> i) & 1) { /* one element, dimension dropped */
      int64_t bb = nb >= 0 ? (b[i] < 0 ? b[i] + dim : b[i]) : 0;
      if (nb >= 0 && (bb < 0 || bb >= dim))
        return fail(c, "shrink index %lld out of range for dimension %lld of size %lld", b[i], i,
                    dim);
      continue;
    }
    int bmask = (p->begin_mask >> i) & 1, emask = (p->end_mask >> i) & 1;
    int64_t lo = st > 0 ? 0 : -1, hi = st > 0 ? dim : dim - 1, beg, end;
    if (bmask) {
      beg = st > 0 ? 0 : dim - 1;
    } else if (nb >= 0) {
      beg = clamp64(b[i] < 0 ? b[i] + dim : b[i], lo, hi);
    } else if (p->ss_offset && !emask && ne >= 0 && st > 0) {
      /* run-time begin, constant length (the kernel checks the range) */
      if (e[i] < 0 || e[i] > dim) return 1;
      o->d[o->rank++] = (int32_t)((e[i] + st - 1) / st);
      continue;
    } else {
      return 1;
    }
    if (emask) {
      end = st > 0 ? dim : -1;
    } else if (p->ss_offset) {
      if (ne < 0) return 1;
      end = clamp64(beg + e[i], lo, hi);
    } else if (ne >= 0) {
      end = clamp64(e[i] < 0 ? e[i] + dim : e[i], lo, hi);
    } else {
      return 1;
    }
    int64_t cnt = st > 0 ? (end - beg + st - 1) / st : (beg - end + (-st) - 1) / (-st);
    o->d[o->rank++] = (int32_t)(cnt < 0 ? 0 : cnt);
  }
  return 0;
}

static int rule_reshape(const rctx *c, const ir_op *op, const ir_shape *x, ir_shape *o) {
  const ir_graph *g = c->g;
  int64_t v[IR_MAX_RANK];
  int k = -1;
  if (op->nin > 1 && op->in[1] >= 0) {
    const ir_tensor *st = &g->t[op->in[1]];
    if (st->rank == 1 && st->shape[0] == 0) k = 0;
    else k = rd(c, op->in[1], v, IR_MAX_RANK);
    if (k < 0)
      return unreadable(c, "shape input must be an int32 vector of at most 8 values");
  } else if (op->opts.new_shape_n >= 0 && op->opts.new_shape_n <= IR_MAX_RANK) {
    k = op->opts.new_shape_n;
    for (int i = 0; i < k; i++) v[i] = op->opts.new_shape[i];
  } else {
    return 1;
  }
  int64_t total = 1, known = 1;
  for (int i = 0; i < x->rank; i++) {
    total *= x->d[i];
    if (total > INT32_MAX) return 1;
  }
  int minus = -1;
  for (int i = 0; i < k; i++) {
    if (v[i] == -1 && minus < 0) minus = i;
    else if (v[i] < 0) return fail(c, "bad new shape value %lld", v[i], 0, 0);
    else known *= v[i];
    if (known > INT32_MAX) return 1;
  }
  if (minus >= 0) {
    if (known == 0 || total % known)
      return fail(c, "cannot infer the -1 dimension (%lld elements over %lld)", total, known, 0);
    v[minus] = total / known;
    known *= v[minus];
  }
  if (known != total)
    return fail(c, "new shape has %lld elements, input has %lld", known, total, 0);
  o->rank = k;
  for (int i = 0; i < k; i++) o->d[i] = (int32_t)v[i];
  return 0;
}

static int rule_split(const rctx *c, const ir_op *op, ir_shape *os) {
  const ir_graph *g = c->g;
  int split = op->builtin == OP_SPLIT, a;
  int64_t v[1];
  if (op->nin < (split ? 2 : 3) || op->nout > 64) return 1;
  int vin = split ? 1 : 0, ain = split ? 0 : 2;
  if (op->in[vin] < 0) return 1;
  ir_shape x = shape_of(&g->t[op->in[vin]]);
  if (rd(c, op->in[ain], v, 1) != 1) return unreadable(c, "axis must be one int32 value");
  if (norm_axis(v[0], x.rank, &a)) return fail(c, "axis %lld out of range", v[0], 0, 0);
  int64_t sizes[64];
  if (split) {
    if (op->nout <= 0 || x.d[a] % op->nout)
      return fail(c, "dimension %lld of size %lld does not split in %lld", a, x.d[a], op->nout);
    for (int n = 0; n < op->nout; n++) sizes[n] = x.d[a] / op->nout;
  } else {
    int k = rd(c, op->in[1], sizes, 64);
    if (k < 0) return unreadable(c, "size_splits must be int32 values");
    if (k != op->nout) return fail(c, "size_splits has %lld entries for %lld outputs", k, op->nout, 0);
    int64_t sum = 0;
    int minus = -1;
    for (int n = 0; n < op->nout; n++) {
      if (sizes[n] == -1 && minus < 0) minus = n;
      else if (sizes[n] < 0) return fail(c, "bad split size %lld", sizes[n], 0, 0);
      else sum += sizes[n];
    }
    if (minus >= 0) sizes[minus] = x.d[a] - sum;
    if ((minus >= 0 && sizes[minus] < 0) || (minus < 0 && sum != x.d[a]))
      return fail(c, "split sizes add up to %lld, dimension %lld has %lld", sum, a, x.d[a]);
  }
  for (int n = 0; n < op->nout; n++) {
    os[n] = x;
    os[n].d[a] = (int32_t)sizes[n];
  }
  return 0;
}

static int rule_conv_pool(const rctx *c, const ir_op *op, const ir_shape *x, const ir_shape *w,
                          ir_shape *o) {
  const litert_options *p = &op->opts;
  int pool = op->builtin != OP_CONV_2D && op->builtin != OP_DEPTHWISE_CONV_2D;
  if (x->rank != 4 || (!pool && w->rank != 4)) return 1;
  *o = *x;
  int32_t kh = pool ? p->filter_h : w->d[1], kw = pool ? p->filter_w : w->d[2];
  if (!pool) o->d[3] = op->builtin == OP_CONV_2D ? w->d[0] : w->d[3];
  if (conv_len(x->d[1], kh, p->stride_h, pool ? 1 : p->dilation_h, p->padding, &o->d[1]) ||
      conv_len(x->d[2], kw, p->stride_w, pool ? 1 : p->dilation_w, p->padding, &o->d[2]))
    return fail(c, "window %lldx%lld does not fit the input (or bad stride)", kh, kw, 0);
  return 0;
}

static int rule_d2s_s2d(const rctx *c, const ir_op *op, const ir_shape *x, ir_shape *o) {
  int bs = op->opts.block_size;
  if (x->rank != 4 || bs < 1 || bs > 4096) return fail(c, "bad block size %lld", bs, 0, 0);
  *o = *x;
  if (op->builtin == OP_DEPTH_TO_SPACE) {
    if ((int64_t)x->d[1] * bs > INT32_MAX || (int64_t)x->d[2] * bs > INT32_MAX ||
        x->d[3] % (bs * bs))
      return fail(c, "depth %lld is not a multiple of block size %lld squared", x->d[3], bs, 0);
    o->d[1] = x->d[1] * bs;
    o->d[2] = x->d[2] * bs;
    o->d[3] = x->d[3] / (bs * bs);
  } else {
    if (x->d[1] % bs || x->d[2] % bs || (int64_t)x->d[3] * bs * bs > INT32_MAX)
      return fail(c, "height/width are not multiples of block size %lld", bs, 0, 0);
    o->d[1] = x->d[1] / bs;
    o->d[2] = x->d[2] / bs;
    o->d[3] = x->d[3] * bs * bs;
  }
  return 0;
}

static int rule(const rctx *c, const ir_op *op, ir_shape *os);

int ir_shape_rule(const ir_graph *g, const ir_op *op, ir_ints_fn ints, const void *ctx,
                  int runtime, ir_shape *os, char *why, size_t n) {
  rctx c = {g, ints, ctx, runtime, why, n};
  if (why && n) why[0] = 0;
  if (op->nin < 1 || op->in[0] < 0 || op->in[0] >= g->nt || op->nout < 1) return 1;
  for (int i = 0; i < op->nin; i++)
    if (op->in[i] >= g->nt) return 1;
  return rule(&c, op, os);
}

/* Output shapes of op from its input shapes; 0, 1 when there is no rule (or
 * a parameter is not known), -1 when the op is inconsistent. */
static int rule(const rctx *c, const ir_op *op, ir_shape *os) {
  const ir_graph *g = c->g;
  ir_shape x = shape_of(&g->t[op->in[0]]);
  ir_shape *o = &os[0];
  int64_t v[2 * IR_MAX_RANK];
  int k, a;
  const ir_shape in1 = op->nin > 1 && op->in[1] >= 0 ? shape_of(&g->t[op->in[1]]) : x;
  switch (op->builtin) {
    case OP_LOGISTIC: case OP_TANH: case OP_RELU: case OP_RELU6: case OP_RELU_N1_TO_1:
    case OP_RELU_0_TO_1: case OP_CAST: case OP_QUANTIZE: case OP_DEQUANTIZE: case OP_NEG:
    case OP_ABS: case OP_EXP: case OP_LOG: case OP_SQRT: case OP_RSQRT: case OP_SQUARE:
    case OP_FLOOR: case OP_CEIL: case OP_ROUND: case OP_SIN: case OP_COS: case OP_SIGN:
    case OP_LOGICAL_NOT: case OP_HARD_SWISH: case OP_LEAKY_RELU: case OP_ELU: case OP_GELU:
    case OP_SOFTMAX: case OP_LOG_SOFTMAX: case OP_REVERSE_V2: case OP_ZEROS_LIKE:
    case OP_L2_NORMALIZATION: case OP_LOCAL_RESPONSE_NORMALIZATION: case OP_CUMSUM:
    case OP_DYNAMIC_UPDATE_SLICE:
      *o = x;
      return 0;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MINIMUM: case OP_MAXIMUM:
    case OP_SQUARED_DIFFERENCE: case OP_LESS: case OP_LESS_EQUAL: case OP_GREATER:
    case OP_GREATER_EQUAL: case OP_EQUAL: case OP_NOT_EQUAL: case OP_LOGICAL_AND:
    case OP_LOGICAL_OR: case OP_POW: case OP_FLOOR_DIV: case OP_FLOOR_MOD: case OP_PRELU:
    case OP_ATAN2:
      if (op->nin < 2 || op->in[1] < 0) return 1;
      return bcast(c, &x, &in1, o);
    case OP_SELECT: case OP_SELECT_V2: {
      if (op->nin < 3 || op->in[1] < 0 || op->in[2] < 0) return 1;
      ir_shape t, s2 = shape_of(&g->t[op->in[2]]);
      if (bcast(c, &x, &in1, &t) || bcast(c, &t, &s2, o)) return -1;
      return 0;
    }
    case OP_SHAPE:
      o->rank = 1;
      o->d[0] = x.rank;
      return 0;
    case OP_RANK:
      o->rank = 0;
      return 0;
    case OP_RESHAPE:
      return rule_reshape(c, op, &x, o);
    case OP_SQUEEZE:
      o->rank = 0;
      for (int i = 0; i < x.rank; i++) {
        int drop = op->opts.squeeze_n <= 0 && x.d[i] == 1;
        for (int j = 0; j < op->opts.squeeze_n && j < 8; j++) {
          int s = op->opts.squeeze_dims[j] < 0 ? op->opts.squeeze_dims[j] + x.rank
                                               : op->opts.squeeze_dims[j];
          if (s == i) drop = 1;
        }
        if (!drop) o->d[o->rank++] = x.d[i];
      }
      return 0;
    case OP_EXPAND_DIMS:
      if (x.rank >= IR_MAX_RANK) return fail(c, "rank %lld input cannot grow", x.rank, 0, 0);
      if (rd(c, op->nin > 1 ? op->in[1] : -1, v, 1) != 1)
        return unreadable(c, "axis must be one int32 value");
      if (norm_axis(v[0], x.rank + 1, &a)) return fail(c, "axis %lld out of range", v[0], 0, 0);
      o->rank = x.rank + 1;
      for (int i = 0, j = 0; i < o->rank; i++) o->d[i] = i == a ? 1 : x.d[j++];
      return 0;
    case OP_TRANSPOSE:
      k = rd(c, op->nin > 1 ? op->in[1] : -1, v, IR_MAX_RANK);
      if (k < 0) return unreadable(c, "permutation must be int32 values");
      if (k != x.rank)
        return fail(c, "permutation has %lld entries for a rank-%lld input", k, x.rank, 0);
      o->rank = k;
      for (int i = 0; i < k; i++) {
        if (v[i] < 0 || v[i] >= k) return fail(c, "bad permutation entry %lld", v[i], 0, 0);
        o->d[i] = x.d[v[i]];
      }
      return 0;
    case OP_CONCATENATION: {
      if (norm_axis(op->opts.axis, x.rank, &a))
        return fail(c, "axis %lld out of range", op->opts.axis, 0, 0);
      *o = x;
      int64_t sum = 0;
      for (int i = 0; i < op->nin; i++) {
        if (op->in[i] < 0) return 1;
        const ir_tensor *y = &g->t[op->in[i]];
        if (y->rank != x.rank)
          return fail(c, "inputs of different ranks (%lld and %lld)", x.rank, y->rank, 0);
        for (int j = 0; j < x.rank; j++)
          if (j != a && y->shape[j] != x.d[j])
            return fail(c, "input %lld differs in dimension %lld (%lld)", i, j, y->shape[j]);
        sum += y->shape[a];
      }
      if (sum > INT32_MAX) return 1;
      o->d[a] = (int32_t)sum;
      return 0;
    }
    case OP_PACK:
      if (x.rank >= IR_MAX_RANK || norm_axis(op->opts.axis, x.rank + 1, &a))
        return fail(c, "axis %lld out of range", op->opts.axis, 0, 0);
      o->rank = x.rank + 1;
      for (int i = 0, j = 0; i < o->rank; i++) o->d[i] = i == a ? op->nin : x.d[j++];
      return 0;
    case OP_UNPACK:
      if (norm_axis(op->opts.axis, x.rank, &a))
        return fail(c, "axis %lld out of range", op->opts.axis, 0, 0);
      for (int n = 0; n < op->nout; n++) {
        os[n].rank = x.rank - 1;
        for (int i = 0, j = 0; i < x.rank; i++)
          if (i != a) os[n].d[j++] = x.d[i];
      }
      return 0;
    case OP_FILL:
      k = rd(c, op->in[0], v, IR_MAX_RANK);
      if (k < 0) return unreadable(c, "dims must be an int32/int64 vector of at most 8 values");
      return shape_from(c, v, k, o);
    case OP_BROADCAST_TO:
      k = rd(c, op->nin > 1 ? op->in[1] : -1, v, IR_MAX_RANK);
      if (k < 0) return unreadable(c, "shape must be int32 values");
      return shape_from(c, v, k, o);
    case OP_TRANSPOSE_CONV:
      k = rd(c, op->in[0], v, IR_MAX_RANK);
      if (k < 0) return unreadable(c, "output shape must be int32 values");
      if (k != 4) return fail(c, "output shape has %lld values, expected 4", k, 0, 0);
      return shape_from(c, v, k, o);
    case OP_GATHER: {
      if (op->nin < 2 || op->in[1] < 0) return 1;
      int bd = op->opts.batch_dims < 0 ? op->opts.batch_dims + in1.rank : op->opts.batch_dims;
      if (norm_axis(op->opts.axis, x.rank, &a))
        return fail(c, "axis %lld out of range", op->opts.axis, 0, 0);
      if (bd < 0 || bd > in1.rank || x.rank - 1 + in1.rank - bd > IR_MAX_RANK)
        return fail(c, "batch_dims %lld or output rank out of range", op->opts.batch_dims, 0, 0);
      o->rank = 0;
      for (int i = 0; i < a; i++) o->d[o->rank++] = x.d[i];
      for (int i = bd; i < in1.rank; i++) o->d[o->rank++] = in1.d[i];
      for (int i = a + 1; i < x.rank; i++) o->d[o->rank++] = x.d[i];
      return 0;
    }
    case OP_SLICE: {
      int64_t b[IR_MAX_RANK], sz[IR_MAX_RANK];
      int nb = rd(c, op->nin > 1 ? op->in[1] : -1, b, IR_MAX_RANK);
      int nsz = rd(c, op->nin > 2 ? op->in[2] : -1, sz, IR_MAX_RANK);
      if (nsz < 0 || (c->runtime && nb < 0))
        return unreadable(c, "begin/size must be int32 values");
      if (nsz != x.rank || (nb >= 0 && nb != x.rank))
        return fail(c, "begin/size must have one entry per input dimension", 0, 0, 0);
      o->rank = x.rank;
      for (int i = 0; i < x.rank; i++) {
        if (nb < 0) {
          /* run-time begin: static only with an explicit size */
          if (sz[i] < 0 || sz[i] > x.d[i]) return 1;
          o->d[i] = (int32_t)sz[i];
          continue;
        }
        int64_t len = sz[i] == -1 ? x.d[i] - b[i] : sz[i];
        if (b[i] < 0 || len < 0 || b[i] + len > x.d[i])
          return fail(c, "slice [%lld, +%lld) out of range in dimension of size %lld", b[i],
                      sz[i], x.d[i]);
        o->d[i] = (int32_t)len;
      }
      return 0;
    }
    case OP_STRIDED_SLICE:
      return rule_strided_slice(c, op, &x, o);
    case OP_FULLY_CONNECTED: {
      if (op->nin < 2 || op->in[1] < 0 || in1.rank != 2) return 1;
      int32_t units = in1.d[0], n_in = in1.d[1];
      if (n_in <= 0) return 1;
      if (op->opts.keep_num_dims) {
        if (x.rank < 1) return 1;
        *o = x;
        o->d[x.rank - 1] = units;
      } else {
        int64_t tot = 1;
        for (int i = 0; i < x.rank; i++) {
          tot *= x.d[i];
          if (tot > INT32_MAX) return 1;
        }
        if (tot % n_in)
          return fail(c, "input of %lld elements is not a multiple of %lld", tot, n_in, 0);
        o->rank = 2;
        o->d[0] = (int32_t)(tot / n_in);
        o->d[1] = units;
      }
      return 0;
    }
    case OP_BATCH_MATMUL: {
      if (op->nin < 2 || op->in[1] < 0 || x.rank < 2 || in1.rank < 2) return 1;
      ir_shape ba = x, bb = in1, bo;
      ba.rank -= 2;
      bb.rank -= 2;
      if (bcast(c, &ba, &bb, &bo) || bo.rank + 2 > IR_MAX_RANK) return -1;
      int32_t m = op->opts.adj_x ? x.d[x.rank - 1] : x.d[x.rank - 2];
      int32_t n = op->opts.adj_y ? in1.d[in1.rank - 2] : in1.d[in1.rank - 1];
      *o = bo;
      o->d[o->rank++] = m;
      o->d[o->rank++] = n;
      return 0;
    }
    case OP_SPLIT: case OP_SPLIT_V:
      return rule_split(c, op, os);
    case OP_MEAN: case OP_SUM: case OP_REDUCE_MAX: case OP_REDUCE_MIN: case OP_REDUCE_PROD:
    case OP_REDUCE_ANY: case OP_REDUCE_ALL: {
      k = rd(c, op->nin > 1 ? op->in[1] : -1, v, 2 * IR_MAX_RANK);
      if (k < 0) return unreadable(c, "axes must be int32 values");
      int red[IR_MAX_RANK] = {0};
      for (int i = 0; i < k; i++) {
        if (norm_axis(v[i], x.rank, &a)) return fail(c, "axis %lld out of range", v[i], 0, 0);
        red[a] = 1;
      }
      o->rank = 0;
      for (int i = 0; i < x.rank; i++) {
        if (!red[i]) o->d[o->rank++] = x.d[i];
        else if (op->opts.keep_dims) o->d[o->rank++] = 1;
      }
      return 0;
    }
    case OP_ARG_MAX: case OP_ARG_MIN:
      if (rd(c, op->nin > 1 ? op->in[1] : -1, v, 1) != 1)
        return unreadable(c, "axis must be one int32 value");
      if (norm_axis(v[0], x.rank, &a)) return fail(c, "axis %lld out of range", v[0], 0, 0);
      o->rank = 0;
      for (int i = 0; i < x.rank; i++)
        if (i != a) o->d[o->rank++] = x.d[i];
      return 0;
    case OP_TILE:
      k = rd(c, op->nin > 1 ? op->in[1] : -1, v, IR_MAX_RANK);
      if (k < 0) return unreadable(c, "multiples must be int32 values");
      if (k != x.rank) return fail(c, "multiples must have one entry per input dimension", 0, 0, 0);
      *o = x;
      for (int i = 0; i < k; i++) {
        if (v[i] < 0 || (int64_t)x.d[i] * v[i] > INT32_MAX)
          return fail(c, "bad multiple %lld in dimension %lld", v[i], i, 0);
        o->d[i] = (int32_t)(x.d[i] * v[i]);
      }
      return 0;
    case OP_PAD: case OP_PADV2: case OP_MIRROR_PAD:
      k = rd(c, op->nin > 1 ? op->in[1] : -1, v, 2 * IR_MAX_RANK);
      if (k < 0) return unreadable(c, "paddings must be int32 values");
      if (k != 2 * x.rank) return fail(c, "paddings have %lld values for rank %lld", k, x.rank, 0);
      *o = x;
      for (int i = 0; i < x.rank; i++) {
        int64_t n = x.d[i] + v[2 * i] + v[2 * i + 1];
        if (v[2 * i] < 0 || v[2 * i + 1] < 0 || n > INT32_MAX)
          return fail(c, "bad paddings in dimension %lld", i, 0, 0);
        o->d[i] = (int32_t)n;
      }
      return 0;
    case OP_CONV_2D: case OP_DEPTHWISE_CONV_2D:
      if (op->nin < 2 || op->in[1] < 0) return 1;
      return rule_conv_pool(c, op, &x, &in1, o);
    case OP_AVERAGE_POOL_2D: case OP_MAX_POOL_2D: case OP_L2_POOL_2D:
      return rule_conv_pool(c, op, &x, &x, o);
    case OP_RESIZE_BILINEAR: case OP_RESIZE_NEAREST_NEIGHBOR:
      if (x.rank != 4) return 1;
      if (rd(c, op->nin > 1 ? op->in[1] : -1, v, 2) != 2)
        return unreadable(c, "size must be two int32 values");
      if (v[0] < 0 || v[1] < 0) return fail(c, "bad size %lldx%lld", v[0], v[1], 0);
      *o = x;
      o->d[1] = (int32_t)v[0];
      o->d[2] = (int32_t)v[1];
      return 0;
    case OP_DEPTH_TO_SPACE: case OP_SPACE_TO_DEPTH:
      return rule_d2s_s2d(c, op, &x, o);
    case OP_UNIDIRECTIONAL_SEQUENCE_LSTM: {
      /* [.., n_output]: projection weights [n_output, n_cell] if present,
       * else recurrent_to_output weights [n_cell, n_output] */
      int pw = op->nin > 16 ? op->in[16] : -1, rw = op->nin > 8 ? op->in[8] : -1;
      int32_t no;
      if (pw >= 0 && g->t[pw].rank == 2) no = g->t[pw].shape[0];
      else if (rw >= 0 && g->t[rw].rank == 2) no = g->t[rw].shape[1];
      else return 1;
      if (x.rank < 2) return 1;
      *o = x;
      o->d[x.rank - 1] = no;
      return 0;
    }
    default:
      return 1;
  }
}
