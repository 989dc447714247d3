/* shapes.c - static shape inference on the IR (ir_infer_shapes).
 *
 * A .tflite tensor's declared shape may be a placeholder: missing (rank -1,
 * or rank 0 written by old converters for "unknown"), or with -1 entries in
 * shape_signature (the stored shape then holds 1s). With static model inputs
 * (batch 1) every such tensor has one real shape, computed here from its
 * producer, op by op in execution order:
 *   - each op with a shape rule gets output shapes from its input shapes and
 *     the values of its constant parameter inputs; an output whose declared
 *     shape is a placeholder, or any of whose inputs changed shape, takes the
 *     inferred shape (a fully declared shape of an unchanged op is trusted);
 *   - small int32/int64 "shape arithmetic" is constant-propagated: SHAPE of a
 *     tensor with a known shape, and ops whose inputs are all constant and
 *     whose outputs are small integer tensors, are evaluated now (with the
 *     kernels the module would run) and their outputs become constants, so
 *     parameters computed from shapes (FILL dims, RESHAPE shapes, slice
 *     bounds) are constants for the ops that read them;
 *   - WHILE outputs keep the shapes of the loop variables (its inputs); a
 *     called subgraph's inputs take the shapes of the caller op's inputs
 *     (ir_infer_callee_shapes), and a WHILE body must give its loop variables
 *     back with the same shapes;
 *   - the TensorList "set item" that converters lower to
 *       CONCATENATION(SLICE(L, 0, [i..]), x, SLICE(L, [i+k..], -1))
 *     (the two slices have run-time sizes) becomes
 *       DYNAMIC_UPDATE_SLICE(L, x, [.. i ..])
 *     when i and i+k are provably the same run-time value plus the extent k
 *     of x (traced through RESHAPE / CONCATENATION / PACK / ADD / SUB of
 *     constants); its output has L's static shape.
 * Tensors of ops without a rule keep their declared shapes (the operator
 * checks report what cannot be compiled). */
#include "../ops/ops.h"
#include "ir.h"

#include <stdlib.h>
#include <string.h>

/* Largest integer tensor (elements) that is constant-propagated. */
#define SHAPE_FOLD_MAX 64

typedef struct shp {
  int rank;
  int32_t d[IR_MAX_RANK];
} shp;

typedef struct sctx {
  ir_graph *g;
  int cap;
  char *dyn;      /* declared shape is a placeholder */
  char *known;    /* the current shape is the real one */
  char *changed;  /* the current shape differs from the declared one */
  shp *decl;      /* declared shapes */
  int next_id;    /* id for inserted ops */
  int rewrites;
} sctx;

static void ctx_reserve(sctx *c) {
  if (c->g->nt <= c->cap) return;
  int n = c->g->nt * 2 + 8;
  c->dyn = xrealloc(c->dyn, (size_t)n);
  c->known = xrealloc(c->known, (size_t)n);
  c->changed = xrealloc(c->changed, (size_t)n);
  c->decl = xrealloc(c->decl, (size_t)n * sizeof(shp));
  for (int i = c->cap; i < n; i++) {
    c->dyn[i] = c->known[i] = c->changed[i] = 0;
    memset(&c->decl[i], 0, sizeof(shp));
  }
  c->cap = n;
}

static void ctx_free(sctx *c) {
  free(c->dyn);
  free(c->known);
  free(c->changed);
  free(c->decl);
}

static int same_shp(const ir_tensor *t, const shp *s) {
  if (t->rank != s->rank) return 0;
  for (int i = 0; i < s->rank; i++)
    if (t->shape[i] != s->d[i]) return 0;
  return 1;
}

static void set_shp(ir_tensor *t, const shp *s) {
  t->rank = s->rank;
  for (int i = 0; i < IR_MAX_RANK; i++) t->shape[i] = i < s->rank ? s->d[i] : 0;
}

static shp shp_of(const ir_tensor *t) {
  shp s;
  memset(&s, 0, sizeof s);
  s.rank = t->rank;
  for (int i = 0; i < t->rank; i++) s.d[i] = t->shape[i];
  return s;
}

static int is_input(const ir_graph *g, int t) {
  for (int i = 0; i < g->nin; i++)
    if (g->inputs[i] == t) return 1;
  return 0;
}

/* Declared-shape state of every tensor of g. */
static void ctx_init(sctx *c, ir_graph *g) {
  memset(c, 0, sizeof *c);
  c->g = g;
  ctx_reserve(c);
  const litert_subgraph *sg =
      g->src && g->sg >= 0 && g->sg < g->src->nsubgraphs ? &g->src->subgraphs[g->sg] : NULL;
  for (int t = 0; t < g->nt; t++) {
    ir_tensor *x = &g->t[t];
    c->decl[t] = shp_of(x);
    if (x->role == ROLE_CONST || is_input(g, t)) {
      /* a main-graph input declared with -1 dims runs with 1 (batch 1) */
      for (int k = 0; g->sg == 0 && x->role != ROLE_CONST && k < x->rank; k++)
        if (x->shape[k] < 0) {
          x->shape[k] = 1;
          c->changed[t] = 1;
        }
      c->known[t] = 1;
      continue;
    }
    const litert_tensor *lt =
        sg && x->src_index >= 0 && x->src_index < sg->ntensors ? &sg->tensors[x->src_index] : NULL;
    int dyn = 0;
    if (lt) {
      /* rank unknown; or rank 0, which old converters also write for
       * "unknown" (a real scalar gets rank 0 from the rules again) */
      if (lt->rank <= 0 && x->role != ROLE_PERSISTENT) dyn = 1;
      if (lt->shape_signature)
        for (int k = 0; k < lt->rank; k++)
          if (lt->shape_signature[k] < 0) dyn = 1;
    }
    for (int k = 0; k < x->rank; k++)
      if (x->shape[k] < 0) dyn = 1;
    c->dyn[t] = (char)dyn;
    c->known[t] = (char)!dyn;
  }
  int maxid = -1;
  for (int i = 0; i < g->nops; i++)
    if (g->ops[i].id > maxid) maxid = g->ops[i].id;
  c->next_id = maxid + 1;
}

/* ---- reading constants -------------------------------------------------- */

static int is_const(const ir_graph *g, int t) {
  return t >= 0 && t < g->nt && g->t[t].role == ROLE_CONST && g->t[t].data;
}

/* Values of a constant int32/int64 tensor (at most max); count or -1. Values
 * outside the int32 range count as unreadable (no shape can use them, and
 * the rules' int64 arithmetic stays far from overflow). */
static int const_ints(const ir_graph *g, int t, int64_t *v, int max) {
  if (!is_const(g, t)) return -1;
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
      if (w > INT32_MAX || w < -INT32_MAX) return -1;
      v[i] = w;
    }
  }
  return (int)n;
}

/* ---- shape rules -------------------------------------------------------- */

static int norm_axis(int64_t axis, int rank, int *out) {
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return -1;
  *out = (int)axis;
  return 0;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static int bcast(const shp *a, const shp *b, shp *o) {
  int r = a->rank > b->rank ? a->rank : b->rank;
  o->rank = r;
  for (int i = 0; i < r; i++) {
    int ia = i - (r - a->rank), ib = i - (r - b->rank);
    int32_t da = ia >= 0 ? a->d[ia] : 1, db = ib >= 0 ? b->d[ib] : 1;
    if (da == db || db == 1) o->d[i] = da;
    else if (da == 1) o->d[i] = db;
    else return -1;
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

/* STRIDED_SLICE without ellipsis / new_axis masks. begin or end may be
 * computed at run time where the length does not depend on them: shrunk
 * dimensions, begin_mask / end_mask, offset (length = end). */
static int rule_strided_slice(const ir_graph *g, const ir_op *op, const shp *x, shp *o) {
  int64_t b[IR_MAX_RANK], e[IR_MAX_RANK], s[IR_MAX_RANK];
  int nb = const_ints(g, op->nin > 1 ? op->in[1] : -1, b, IR_MAX_RANK);
  int ne = const_ints(g, op->nin > 2 ? op->in[2] : -1, e, IR_MAX_RANK);
  int ns = const_ints(g, op->nin > 3 ? op->in[3] : -1, s, IR_MAX_RANK);
  const litert_options *p = &op->opts;
  if (ns < 0 || ns > x->rank || p->ellipsis_mask || p->new_axis_mask) return 1;
  if ((nb >= 0 && nb != ns) || (ne >= 0 && ne != ns)) return 1;
  o->rank = 0;
  for (int i = 0; i < x->rank; i++) {
    int64_t dim = x->d[i];
    if (i >= ns) {
      o->d[o->rank++] = (int32_t)dim;
      continue;
    }
    int64_t st = s[i];
    if (st == 0) return 1;
    if ((p->shrink_axis_mask >> i) & 1) continue; /* one element, dimension dropped */
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

static int rule_reshape(const ir_graph *g, const ir_op *op, const shp *x, shp *o) {
  int64_t v[IR_MAX_RANK];
  int k = -1;
  if (op->nin > 1 && op->in[1] >= 0) {
    const ir_tensor *st = &g->t[op->in[1]];
    if (st->rank == 1 && st->shape[0] == 0) k = 0;
    else k = const_ints(g, op->in[1], v, IR_MAX_RANK);
    if (k < 0) return 1;
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
    else if (v[i] < 0) return 1;
    else known *= v[i];
    if (known > INT32_MAX) return 1;
  }
  if (minus >= 0) {
    if (known == 0 || total % known) return 1;
    v[minus] = total / known;
    known *= v[minus];
  }
  if (known != total || total > INT32_MAX) return 1;
  o->rank = k;
  for (int i = 0; i < k; i++) o->d[i] = (int32_t)v[i];
  return 0;
}

/* Output shapes of op from its input shapes; 0, or 1 when there is no rule
 * (or a parameter is not constant, or the inputs are inconsistent). */
static int rule(const ir_graph *g, const ir_op *op, shp *os) {
  if (op->nin < 1 || op->in[0] < 0 || op->nout < 1) return 1;
  shp x = shp_of(&g->t[op->in[0]]);
  shp *o = &os[0];
  int64_t v[2 * IR_MAX_RANK];
  int k, a;
  const shp in1 = op->nin > 1 && op->in[1] >= 0 ? shp_of(&g->t[op->in[1]]) : x;
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
      return bcast(&x, &in1, o) ? 1 : 0;
    case OP_SELECT: case OP_SELECT_V2: {
      if (op->nin < 3 || op->in[1] < 0 || op->in[2] < 0) return 1;
      shp t, c = shp_of(&g->t[op->in[2]]);
      if (bcast(&x, &in1, &t) || bcast(&t, &c, o)) return 1;
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
      return rule_reshape(g, op, &x, o);
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
      if (x.rank >= IR_MAX_RANK || const_ints(g, op->nin > 1 ? op->in[1] : -1, v, 1) != 1 ||
          norm_axis(v[0], x.rank + 1, &a))
        return 1;
      o->rank = x.rank + 1;
      for (int i = 0, j = 0; i < o->rank; i++) o->d[i] = i == a ? 1 : x.d[j++];
      return 0;
    case OP_TRANSPOSE:
      k = const_ints(g, op->nin > 1 ? op->in[1] : -1, v, IR_MAX_RANK);
      if (k != x.rank) return 1;
      o->rank = k;
      for (int i = 0; i < k; i++) {
        if (v[i] < 0 || v[i] >= k) return 1;
        o->d[i] = x.d[v[i]];
      }
      return 0;
    case OP_CONCATENATION:
      if (norm_axis(op->opts.axis, x.rank, &a)) return 1;
      *o = x;
      {
        int64_t sum = 0;
        for (int i = 0; i < op->nin; i++) {
          if (op->in[i] < 0) return 1;
          const ir_tensor *y = &g->t[op->in[i]];
          if (y->rank != x.rank) return 1;
          for (int j = 0; j < x.rank; j++)
            if (j != a && y->shape[j] != x.d[j]) return 1;
          sum += y->shape[a];
        }
        if (sum > INT32_MAX) return 1;
        o->d[a] = (int32_t)sum;
      }
      return 0;
    case OP_PACK:
      if (x.rank >= IR_MAX_RANK || norm_axis(op->opts.axis, x.rank + 1, &a)) return 1;
      o->rank = x.rank + 1;
      for (int i = 0, j = 0; i < o->rank; i++) o->d[i] = i == a ? op->nin : x.d[j++];
      return 0;
    case OP_UNPACK:
      if (norm_axis(op->opts.axis, x.rank, &a)) return 1;
      for (int n = 0; n < op->nout; n++) {
        os[n].rank = x.rank - 1;
        for (int i = 0, j = 0; i < x.rank; i++)
          if (i != a) os[n].d[j++] = x.d[i];
      }
      return 0;
    case OP_FILL:
      k = const_ints(g, op->in[0], v, IR_MAX_RANK);
      if (k < 0) return 1;
      o->rank = k;
      for (int i = 0; i < k; i++) {
        if (v[i] < 0 || v[i] > INT32_MAX) return 1;
        o->d[i] = (int32_t)v[i];
      }
      return 0;
    case OP_BROADCAST_TO:
      k = const_ints(g, op->nin > 1 ? op->in[1] : -1, v, IR_MAX_RANK);
      if (k < 0) return 1;
      o->rank = k;
      for (int i = 0; i < k; i++) {
        if (v[i] < 0 || v[i] > INT32_MAX) return 1;
        o->d[i] = (int32_t)v[i];
      }
      return 0;
    case OP_GATHER: {
      if (op->nin < 2 || op->in[1] < 0) return 1;
      int bd = op->opts.batch_dims < 0 ? op->opts.batch_dims + in1.rank : op->opts.batch_dims;
      if (norm_axis(op->opts.axis, x.rank, &a) || bd < 0 || bd > in1.rank ||
          x.rank - 1 + in1.rank - bd > IR_MAX_RANK)
        return 1;
      o->rank = 0;
      for (int i = 0; i < a; i++) o->d[o->rank++] = x.d[i];
      for (int i = bd; i < in1.rank; i++) o->d[o->rank++] = in1.d[i];
      for (int i = a + 1; i < x.rank; i++) o->d[o->rank++] = x.d[i];
      return 0;
    }
    case OP_SLICE: {
      int64_t b[IR_MAX_RANK], sz[IR_MAX_RANK];
      int nb = const_ints(g, op->nin > 1 ? op->in[1] : -1, b, IR_MAX_RANK);
      int nsz = const_ints(g, op->nin > 2 ? op->in[2] : -1, sz, IR_MAX_RANK);
      if (nsz != x.rank || (nb >= 0 && nb != x.rank)) return 1;
      o->rank = x.rank;
      for (int i = 0; i < x.rank; i++) {
        if (nb < 0) {
          /* run-time begin: static only with an explicit size */
          if (sz[i] < 0 || sz[i] > x.d[i]) return 1;
          o->d[i] = (int32_t)sz[i];
          continue;
        }
        int64_t len = sz[i] == -1 ? x.d[i] - b[i] : sz[i];
        if (b[i] < 0 || len < 0 || b[i] + len > x.d[i]) return 1;
        o->d[i] = (int32_t)len;
      }
      return 0;
    }
    case OP_STRIDED_SLICE:
      return rule_strided_slice(g, op, &x, o);
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
        if (tot % n_in) return 1;
        o->rank = 2;
        o->d[0] = (int32_t)(tot / n_in);
        o->d[1] = units;
      }
      return 0;
    }
    case OP_BATCH_MATMUL: {
      if (op->nin < 2 || op->in[1] < 0 || x.rank < 2 || in1.rank < 2) return 1;
      shp ba = x, bb = in1, bo;
      ba.rank -= 2;
      bb.rank -= 2;
      if (bcast(&ba, &bb, &bo) || bo.rank + 2 > IR_MAX_RANK) return 1;
      int32_t m = op->opts.adj_x ? x.d[x.rank - 1] : x.d[x.rank - 2];
      int32_t n = op->opts.adj_y ? in1.d[in1.rank - 2] : in1.d[in1.rank - 1];
      *o = bo;
      o->d[o->rank++] = m;
      o->d[o->rank++] = n;
      return 0;
    }
    case OP_SPLIT: case OP_SPLIT_V: {
      int split = op->builtin == OP_SPLIT;
      if (op->nin < (split ? 2 : 3) || op->nout > 64) return 1;
      int vin = split ? 1 : 0, ain = split ? 0 : 2;
      if (op->in[vin] < 0) return 1;
      x = shp_of(&g->t[op->in[vin]]);
      if (const_ints(g, op->in[ain], v, 1) != 1 || norm_axis(v[0], x.rank, &a)) return 1;
      int64_t sizes[64];
      if (split) {
        if (op->nout <= 0 || x.d[a] % op->nout) return 1;
        for (int n = 0; n < op->nout; n++) sizes[n] = x.d[a] / op->nout;
      } else {
        if (const_ints(g, op->in[1], sizes, 64) != op->nout) return 1;
        int64_t sum = 0;
        int minus = -1;
        for (int n = 0; n < op->nout; n++) {
          if (sizes[n] == -1) minus = n;
          else if (sizes[n] < 0) return 1;
          else sum += sizes[n];
        }
        if (minus >= 0) sizes[minus] = x.d[a] - sum;
      }
      for (int n = 0; n < op->nout; n++) {
        os[n] = x;
        os[n].d[a] = (int32_t)sizes[n];
      }
      return 0;
    }
    case OP_MEAN: case OP_SUM: case OP_REDUCE_MAX: case OP_REDUCE_MIN: case OP_REDUCE_PROD:
    case OP_REDUCE_ANY: case OP_REDUCE_ALL: {
      k = const_ints(g, op->nin > 1 ? op->in[1] : -1, v, 2 * IR_MAX_RANK);
      if (k < 0) return 1;
      int red[IR_MAX_RANK] = {0};
      for (int i = 0; i < k; i++) {
        if (norm_axis(v[i], x.rank, &a)) return 1;
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
      if (const_ints(g, op->nin > 1 ? op->in[1] : -1, v, 1) != 1 || norm_axis(v[0], x.rank, &a))
        return 1;
      o->rank = 0;
      for (int i = 0; i < x.rank; i++)
        if (i != a) o->d[o->rank++] = x.d[i];
      return 0;
    case OP_TILE:
      k = const_ints(g, op->nin > 1 ? op->in[1] : -1, v, IR_MAX_RANK);
      if (k != x.rank) return 1;
      *o = x;
      for (int i = 0; i < k; i++) {
        if (v[i] < 0 || (int64_t)x.d[i] * v[i] > INT32_MAX) return 1;
        o->d[i] = (int32_t)(x.d[i] * v[i]);
      }
      return 0;
    case OP_PAD: case OP_PADV2: case OP_MIRROR_PAD:
      k = const_ints(g, op->nin > 1 ? op->in[1] : -1, v, 2 * IR_MAX_RANK);
      if (k != 2 * x.rank) return 1;
      *o = x;
      for (int i = 0; i < x.rank; i++) {
        int64_t n = x.d[i] + v[2 * i] + v[2 * i + 1];
        if (v[2 * i] < 0 || v[2 * i + 1] < 0 || n > INT32_MAX) return 1;
        o->d[i] = (int32_t)n;
      }
      return 0;
    case OP_CONV_2D: case OP_DEPTHWISE_CONV_2D: {
      if (op->nin < 2 || op->in[1] < 0 || x.rank != 4 || in1.rank != 4) return 1;
      o->rank = 4;
      o->d[0] = x.d[0];
      o->d[3] = op->builtin == OP_CONV_2D ? in1.d[0] : in1.d[3];
      if (conv_len(x.d[1], in1.d[1], op->opts.stride_h, op->opts.dilation_h, op->opts.padding,
                   &o->d[1]) ||
          conv_len(x.d[2], in1.d[2], op->opts.stride_w, op->opts.dilation_w, op->opts.padding,
                   &o->d[2]))
        return 1;
      return 0;
    }
    case OP_AVERAGE_POOL_2D: case OP_MAX_POOL_2D: case OP_L2_POOL_2D:
      if (x.rank != 4) return 1;
      *o = x;
      if (conv_len(x.d[1], op->opts.filter_h, op->opts.stride_h, 1, op->opts.padding, &o->d[1]) ||
          conv_len(x.d[2], op->opts.filter_w, op->opts.stride_w, 1, op->opts.padding, &o->d[2]))
        return 1;
      return 0;
    case OP_TRANSPOSE_CONV:
      k = const_ints(g, op->in[0], v, IR_MAX_RANK);
      if (k != 4) return 1;
      o->rank = 4;
      for (int i = 0; i < 4; i++) {
        if (v[i] < 0 || v[i] > INT32_MAX) return 1;
        o->d[i] = (int32_t)v[i];
      }
      return 0;
    case OP_RESIZE_BILINEAR: case OP_RESIZE_NEAREST_NEIGHBOR:
      if (x.rank != 4 || const_ints(g, op->nin > 1 ? op->in[1] : -1, v, 2) != 2 || v[0] < 0 ||
          v[1] < 0 || v[0] > INT32_MAX || v[1] > INT32_MAX)
        return 1;
      *o = x;
      o->d[1] = (int32_t)v[0];
      o->d[2] = (int32_t)v[1];
      return 0;
    case OP_DEPTH_TO_SPACE: case OP_SPACE_TO_DEPTH: {
      int bs = op->opts.block_size;
      if (x.rank != 4 || bs < 1) return 1;
      *o = x;
      if (bs > 4096) return 1;
      if (op->builtin == OP_DEPTH_TO_SPACE) {
        if ((int64_t)x.d[1] * bs > INT32_MAX || (int64_t)x.d[2] * bs > INT32_MAX ||
            x.d[3] % (bs * bs))
          return 1;
        o->d[1] = x.d[1] * bs;
        o->d[2] = x.d[2] * bs;
        o->d[3] = x.d[3] / (bs * bs);
      } else {
        if (x.d[1] % bs || x.d[2] % bs || (int64_t)x.d[3] * bs * bs > INT32_MAX) return 1;
        o->d[1] = x.d[1] / bs;
        o->d[2] = x.d[2] / bs;
        o->d[3] = x.d[3] * bs * bs;
      }
      return 0;
    }
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

/* ---- constant propagation ------------------------------------------------ */

static int foldable_out(const ir_graph *g, int t) {
  if (t < 0) return 0;
  const ir_tensor *o = &g->t[t];
  if (o->role != ROLE_SCRATCH || ir_is_output(g, t) || o->is_variable) return 0;
  if (o->dtype != DT_INT32 && o->dtype != DT_INT64) return 0;
  for (int k = 0; k < o->rank; k++)
    if (o->shape[k] < 0) return 0;
  return ir_numel(o) <= SHAPE_FOLD_MAX;
}

static void make_const(ir_tensor *o, void *data) {
  free(o->owned_data);
  o->owned_data = data;
  o->data = o->owned_data;
  o->data_bytes = ir_bytes(o);
  o->role = ROLE_CONST;
}

/* SHAPE of a tensor with a known shape; small integer ops of constants. */
static int try_fold(sctx *c, ir_op *op) {
  ir_graph *g = c->g;
  if (op->nout < 1) return 0;
  for (int k = 0; k < op->nout; k++)
    if (!foldable_out(g, op->out[k]) || !c->known[op->out[k]]) return 0;
  if (op->builtin == OP_SHAPE) {
    if (op->nin < 1 || op->in[0] < 0 || !c->known[op->in[0]] || op->nout != 1) return 0;
    const ir_tensor *x = &g->t[op->in[0]];
    ir_tensor *o = &g->t[op->out[0]];
    if ((int)ir_numel(o) != x->rank) return 0;
    uint8_t *buf = xcalloc(1, (size_t)x->rank * 8 + 8);
    for (int k = 0; k < x->rank; k++) {
      if (o->dtype == DT_INT32) {
        int32_t v = x->shape[k];
        memcpy(buf + 4 * k, &v, 4);
      } else {
        int64_t v = x->shape[k];
        memcpy(buf + 8 * k, &v, 8);
      }
    }
    make_const(o, buf);
    op->dead = 1;
    return 1;
  }
  switch (op->builtin) {
    case OP_WHILE: case OP_IF: case OP_CALL_ONCE: case OP_CALL: case OP_VAR_HANDLE:
    case OP_READ_VARIABLE: case OP_ASSIGN_VARIABLE: case OP_CUSTOM:
      return 0;
    default:
      break;
  }
  int any = 0;
  for (int k = 0; k < op->nin; k++) {
    if (op->in[k] < 0) continue;
    if (!is_const(g, op->in[k])) return 0;
    any = 1;
  }
  if (!any) return 0;
  const op_impl *impl = ops_find(g, op);
  char why[256];
  if (!impl || !impl->eval || (impl->check && impl->check(g, op, why, sizeof why) != 0)) return 0;
  void **data = xcalloc((size_t)g->nt, sizeof(void *));
  for (int k = 0; k < op->nin; k++)
    if (op->in[k] >= 0) data[op->in[k]] = (void *)g->t[op->in[k]].data;
  for (int k = 0; k < op->nout; k++) data[op->out[k]] = xcalloc(1, ir_bytes(&g->t[op->out[k]]) + 16);
  size_t sb = impl->scratch ? impl->scratch(g, op) : 0;
  void *scratch = xcalloc(1, sb + 16);
  int st = impl->eval(g, op, data, scratch);
  free(scratch);
  if (st != 0) {
    for (int k = 0; k < op->nout; k++) free(data[op->out[k]]);
    free(data);
    return 0;
  }
  for (int k = 0; k < op->nout; k++) make_const(&g->t[op->out[k]], data[op->out[k]]);
  free(data);
  op->dead = 1;
  return 1;
}

/* ---- IR surgery ------------------------------------------------------------ */

static int new_tensor(sctx *c, const char *name, int dtype, int rank, const int32_t *shape) {
  ir_graph *g = c->g;
  int id = g->nt;
  g->t = xrealloc(g->t, (size_t)(g->nt + 1) * sizeof(ir_tensor));
  g->nt++;
  ir_tensor *t = &g->t[id];
  memset(t, 0, sizeof *t);
  t->name = xstrdup(name);
  t->dtype = dtype;
  t->rank = rank;
  for (int k = 0; k < rank; k++) t->shape[k] = shape[k];
  t->role = ROLE_SCRATCH;
  t->alias = -1;
  t->io_index = -1;
  t->src_index = -1;
  t->arena = -1;
  t->used = 1;
  char base[33];
  c_identifier(t->name, base, 32);
  if (g->sg > 0) snprintf(t->cname, sizeof t->cname, "s%d_t%d_%.32s", g->sg, id, base);
  else snprintf(t->cname, sizeof t->cname, "t%d_%.32s", id, base);
  ctx_reserve(c);
  c->decl[id] = shp_of(t);
  c->known[id] = 1;
  return id;
}

/* A constant integer tensor (int32 or int64) holding v[0..n). */
static int new_int_const(sctx *c, const char *name, int dtype, int rank, const int32_t *shape,
                         const int64_t *v, int n) {
  int id = new_tensor(c, name, dtype, rank, shape);
  ir_tensor *t = &c->g->t[id];
  size_t es = dtype_size(dtype);
  uint8_t *buf = xcalloc((size_t)n + 1, es);
  for (int i = 0; i < n; i++) {
    if (es == 4) {
      int32_t w = (int32_t)v[i];
      memcpy(buf + 4 * i, &w, 4);
    } else {
      memcpy(buf + 8 * i, &v[i], 8);
    }
  }
  make_const(t, buf);
  return id;
}

/* Inserts an op at position pos of g->ops (later ops move up by one). */
static ir_op *insert_op(sctx *c, int pos, int builtin, int nin, const int *in, int out) {
  ir_graph *g = c->g;
  g->ops = xrealloc(g->ops, (size_t)(g->nops + 1) * sizeof(ir_op));
  memmove(&g->ops[pos + 1], &g->ops[pos], (size_t)(g->nops - pos) * sizeof(ir_op));
  g->nops++;
  ir_op *op = &g->ops[pos];
  memset(op, 0, sizeof *op);
  op->id = c->next_id++;
  op->builtin = builtin;
  op->nin = nin;
  op->in = xcalloc((size_t)nin, sizeof(int));
  for (int i = 0; i < nin; i++) op->in[i] = in[i];
  op->nout = 1;
  op->out = xcalloc(1, sizeof(int));
  op->out[0] = out;
  litert_options_default(&op->opts);
  return op;
}

/* ---- TensorList set-item ----------------------------------------------------- */

/* Element e of an integer tensor as leaf + off (leaf: a one-element tensor
 * holding a run-time value, or -1 for the constant off). */
typedef struct symv {
  int leaf;
  int64_t off;
} symv;

static int sym_elem(const ir_graph *g, int t, int64_t e, symv *out, int depth) {
  if (t < 0 || t >= g->nt || depth > 32) return -1;
  const ir_tensor *x = &g->t[t];
  if (x->dtype != DT_INT32 && x->dtype != DT_INT64) return -1;
  int64_t n = (int64_t)ir_numel(x);
  if (e < 0 || e >= n) return -1;
  if (is_const(g, t)) {
    int64_t v[SHAPE_FOLD_MAX];
    if (n > SHAPE_FOLD_MAX || const_ints(g, t, v, SHAPE_FOLD_MAX) != n) return -1;
    *out = (symv){-1, v[e]};
    return 0;
  }
  int p = ir_producer(g, t);
  if (p >= 0) {
    const ir_op *op = &g->ops[p];
    switch (op->builtin) {
      case OP_RESHAPE: case OP_SQUEEZE: case OP_EXPAND_DIMS:
        if (op->nin >= 1 && op->in[0] >= 0 && (int64_t)ir_numel(&g->t[op->in[0]]) == n)
          return sym_elem(g, op->in[0], e, out, depth + 1);
        break;
      case OP_CONCATENATION:
        if (x->rank == 1) {
          int64_t base = 0;
          for (int i = 0; i < op->nin; i++) {
            if (op->in[i] < 0) return -1;
            int64_t len = (int64_t)ir_numel(&g->t[op->in[i]]);
            if (g->t[op->in[i]].rank != 1) return -1;
            if (e < base + len) return sym_elem(g, op->in[i], e - base, out, depth + 1);
            base += len;
          }
        }
        break;
      case OP_PACK:
        if (x->rank == 1 && e < op->nin && op->in[e] >= 0 && ir_numel(&g->t[op->in[e]]) == 1)
          return sym_elem(g, op->in[e], 0, out, depth + 1);
        break;
      case OP_ADD: case OP_SUB: {
        if (op->nin < 2 || op->in[0] < 0 || op->in[1] < 0 || op->opts.fused_act != ACT_NONE) break;
        for (int ci = 0; ci < 2; ci++) {
          int ct = op->in[ci], vt = op->in[1 - ci];
          if (op->builtin == OP_SUB && ci == 0) continue;  /* c - x: not affine in x */
          if (!is_const(g, ct) || ir_numel(&g->t[ct]) != 1) continue;
          int64_t cv[1];
          if (const_ints(g, ct, cv, 1) != 1) continue;  /* int32 range */
          int64_t vn = (int64_t)ir_numel(&g->t[vt]);
          symv s;
          if (sym_elem(g, vt, vn == n ? e : 0, &s, depth + 1) != 0) return -1;
          if (vn != n && vn != 1) return -1;
          s.off += op->builtin == OP_ADD ? cv[0] : -cv[0];
          *out = s;
          return 0;
        }
        break;
      }
      default:
        break;
    }
  }
  if (n == 1) {
    *out = (symv){t, 0};
    return 0;
  }
  return -1;
}

/* Element e of an integer tensor if it is a constant. */
static int const_elem(const ir_graph *g, int t, int e, int64_t *v) {
  symv s;
  if (sym_elem(g, t, e, &s, 0) != 0 || s.leaf >= 0) return -1;
  *v = s.off;
  return 0;
}

/* The SLICE producing t (live, of list), or NULL. */
static const ir_op *slice_of(const ir_graph *g, int t, int list) {
  int p = t >= 0 ? ir_producer(g, t) : -1;
  if (p < 0) return NULL;
  const ir_op *op = &g->ops[p];
  if (op->builtin != OP_SLICE || op->nin < 3 || op->in[0] != list || op->in[1] < 0 || op->in[2] < 0)
    return NULL;
  return op;
}

/* Rewrites the set-item CONCATENATION at ops[ci] (see the file comment);
 * returns 1 if it did. */
static int rewrite_set_item(sctx *c, int ci) {
  ir_graph *g = c->g;
  const ir_op *cat = &g->ops[ci];
  if (cat->nin != 3 || cat->nout != 1 || cat->opts.fused_act != ACT_NONE) return 0;
  for (int i = 0; i < 3; i++)
    if (cat->in[i] < 0) return 0;
  int p1t = cat->in[0], xt = cat->in[1], p2t = cat->in[2];
  int p1i = ir_producer(g, p1t);
  if (p1i < 0 || g->ops[p1i].builtin != OP_SLICE || g->ops[p1i].nin < 3) return 0;
  int list = g->ops[p1i].in[0];
  const ir_op *s1 = slice_of(g, p1t, list), *s2 = slice_of(g, p2t, list);
  if (!s1 || !s2 || list < 0 || !c->known[list] || !c->known[xt]) return 0;
  const ir_tensor *L = &g->t[list], *X = &g->t[xt];
  int r = L->rank, a;
  if (r < 1 || X->rank != r || X->dtype != L->dtype || g->t[cat->out[0]].dtype != L->dtype) return 0;
  if (norm_axis(cat->opts.axis, r, &a)) return 0;
  for (int d = 0; d < r; d++)
    if (d != a && X->shape[d] != L->shape[d]) return 0;
  int64_t k = X->shape[a];
  if (k < 1 || k > L->shape[a]) return 0;
  /* the slices: L[0 : i] and L[i + k : end] along a, whole elsewhere */
  symv i1, i2;
  int64_t v;
  for (int d = 0; d < r; d++) {
    if (const_elem(g, s1->in[1], d, &v) || v != 0) return 0;
    if (d == a) continue;
    if (const_elem(g, s1->in[2], d, &v) || (v != -1 && v != L->shape[d])) return 0;
    if (const_elem(g, s2->in[1], d, &v) || v != 0) return 0;
    if (const_elem(g, s2->in[2], d, &v) || (v != -1 && v != L->shape[d])) return 0;
  }
  if (ir_numel(&g->t[s1->in[2]]) != (size_t)r || ir_numel(&g->t[s2->in[1]]) != (size_t)r) return 0;
  if (const_elem(g, s2->in[2], a, &v) || v != -1) return 0;
  if (sym_elem(g, s1->in[2], a, &i1, 0) || sym_elem(g, s2->in[1], a, &i2, 0)) return 0;
  if (i1.leaf != i2.leaf || i2.off - i1.off != k) return 0;
  /* start indices [0.., i, ..0] */
  int start;
  int32_t rs[1] = {r};
  char name[96];
  snprintf(name, sizeof name, "%.60s/start", g->t[cat->out[0]].name);
  if (i1.leaf < 0) {
    if (i1.off < 0 || i1.off > L->shape[a] - k) return 0;
    int64_t sv[IR_MAX_RANK] = {0};
    sv[a] = i1.off;
    start = new_int_const(c, name, DT_INT32, 1, rs, sv, r);
  } else {
    const ir_tensor *lf = &g->t[i1.leaf];
    int dt = lf->dtype, lrank = lf->rank;
    if (i1.off != 0 || (dt != DT_INT32 && dt != DT_INT64) || ir_numel(lf) != 1 || lrank > 1)
      return 0;
    if (r == 1) {
      start = i1.leaf;
    } else {
      int64_t zero = 0;
      int32_t one[1] = {1};
      char zn[96];
      snprintf(zn, sizeof zn, "%.60s/zero", g->t[cat->out[0]].name);
      /* g->t and g->ops move from here on */
      int z = new_int_const(c, zn, dt, lrank, one, &zero, 1);
      start = new_tensor(c, name, dt, 1, rs);
      int ins[IR_MAX_RANK];
      for (int d = 0; d < r; d++) ins[d] = d == a ? i1.leaf : z;
      ir_op *pk = insert_op(c, ci, lrank == 0 ? OP_PACK : OP_CONCATENATION, r, ins, start);
      pk->opts.axis = 0;
      pk->opts.num = r;
      ci++;
    }
  }
  ir_op *op = &g->ops[ci];
  int out = op->out[0];
  free(op->in);
  op->in = xcalloc(3, sizeof(int));
  op->in[0] = list;
  op->in[1] = xt;
  op->in[2] = start;
  op->nin = 3;
  op->builtin = OP_DYNAMIC_UPDATE_SLICE;
  litert_options_default(&op->opts);
  (void)out;
  c->rewrites++;
  return 1;
}

/* ---- the pass ------------------------------------------------------------------- */

/* Inferred shapes aotc can hold: ranks in range, dims >= 0, fewer than 2^31
 * elements. */
static int shapes_sane(const shp *os, int n) {
  for (int k = 0; k < n; k++) {
    if (os[k].rank < 0 || os[k].rank > IR_MAX_RANK) return 0;
    int64_t e = 1;
    for (int i = 0; i < os[k].rank; i++) {
      if (os[k].d[i] < 0) return 0;
      e *= os[k].d[i];
      if (e > INT32_MAX) return 0;
    }
  }
  return 1;
}

static void apply(sctx *c, const ir_op *op, const shp *os) {
  ir_graph *g = c->g;
  int in_changed = 0;
  for (int k = 0; k < op->nin; k++)
    if (op->in[k] >= 0 && c->changed[op->in[k]]) in_changed = 1;
  for (int k = 0; k < op->nout; k++) {
    int t = op->out[k];
    if (t < 0) continue;
    ir_tensor *x = &g->t[t];
    if (x->role == ROLE_CONST) continue;
    if (c->dyn[t] || in_changed) {
      if (!same_shp(x, &os[k])) set_shp(x, &os[k]);
      c->known[t] = 1;
    }
    c->changed[t] = (char)!same_shp(x, &c->decl[t]);
  }
}

static int infer(sctx *c, aotc_diag *d) {
  ir_graph *g = c->g;
  (void)d;
  for (int i = 0; i < g->nops; i++) {
    ir_op *op = &g->ops[i];
    if (op->dead) continue;
    if (op->builtin == OP_WHILE) {
      /* loop variables keep their shapes */
      for (int k = 0; k < op->nout && k < op->nin; k++) {
        int ti = op->in[k], to = op->out[k];
        if (ti < 0 || to < 0 || !c->known[ti] || g->t[to].role == ROLE_CONST) continue;
        shp s = shp_of(&g->t[ti]);
        if (c->dyn[to] || c->changed[ti]) {
          set_shp(&g->t[to], &s);
          c->known[to] = 1;
        }
        c->changed[to] = (char)!same_shp(&g->t[to], &c->decl[to]);
      }
      continue;
    }
    int all_known = 1;
    for (int k = 0; k < op->nin; k++)
      if (op->in[k] >= 0 && !c->known[op->in[k]]) all_known = 0;
    if (!all_known && op->builtin == OP_CONCATENATION && rewrite_set_item(c, i)) {
      i--; /* the inserted start-index op (if any), then the update */
      continue;
    }
    if (!all_known) continue;
    shp *os = xcalloc((size_t)(op->nout > 0 ? op->nout : 1), sizeof(shp));
    if (rule(g, op, os) == 0 && shapes_sane(os, op->nout)) apply(c, op, os);
    free(os);
    try_fold(c, op);
  }
  ir_mark_used(g);
  return c->rewrites;
}

int ir_infer_shapes(ir_graph *g, aotc_diag *d) {
  sctx c;
  ctx_init(&c, g);
  int r = infer(&c, d);
  ctx_free(&c);
  return r;
}

static void shape_text(const ir_tensor *t, char *buf, size_t n) {
  size_t k = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < t->rank && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, "%s%d", i ? ", " : "", t->shape[i]);
  if (k < n) snprintf(buf + k, n - k, "]");
}

int ir_infer_callee_shapes(ir_graph *sg, const ir_graph *caller, const ir_op *op, aotc_diag *d) {
  int first = op->builtin == OP_IF ? 1 : 0;
  if (op->builtin != OP_WHILE && op->builtin != OP_IF) return ir_infer_shapes(sg, d);
  sctx c;
  ctx_init(&c, sg);
  for (int i = 0; i < sg->nin && first + i < op->nin; i++) {
    int ti = op->in[first + i], t = sg->inputs[i];
    if (ti < 0 || t < 0) continue;
    const ir_tensor *src = &caller->t[ti];
    ir_tensor *x = &sg->t[t];
    if (x->role == ROLE_CONST) continue;
    shp s = shp_of(src);
    set_shp(x, &s);
    c.known[t] = 1;
    c.changed[t] = (char)!same_shp(x, &c.decl[t]);
  }
  int r = infer(&c, d);
  if (op->builtin == OP_WHILE && sg->sg == op->opts.body_subgraph) {
    for (int i = 0; i < sg->nout && i < sg->nin && r >= 0; i++) {
      const ir_tensor *in = &sg->t[sg->inputs[i]], *out = &sg->t[sg->outputs[i]];
      int same = in->rank == out->rank;
      for (int k = 0; same && k < in->rank; k++) same = in->shape[k] == out->shape[k];
      if (!c.known[sg->outputs[i]]) {
        r = diag_unsupported(d, "WHILE body (subgraph %d): the shape of loop variable %d '%s' at "
                                "the end of an iteration ('%s') cannot be inferred statically",
                             sg->sg, i, in->name, out->name);
      } else if (!same) {
        char a[96], b[96];
        shape_text(in, a, sizeof a);
        shape_text(out, b, sizeof b);
        r = diag_unsupported(d, "WHILE body (subgraph %d): loop variable %d '%s' enters as %s "
                                "and leaves as %s ('%s'); aotc needs loop variables of a fixed "
                                "shape",
                             sg->sg, i, in->name, a, b, out->name);
      }
    }
  }
  ctx_free(&c);
  return r;
}
