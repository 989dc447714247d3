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
#include "passes.h"

#include <stdlib.h>
#include <string.h>

/* Largest integer tensor (elements) that is constant-propagated. */
#define SHAPE_FOLD_MAX 64

typedef ir_shape shp;

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
 * outside the int32 range count as unreadable. */
static int const_ints(const ir_graph *g, int t, int64_t *v, int max) {
  int n = ir_const_ints(g, t, v, max);
  for (int i = 0; i < n; i++)
    if (v[i] > INT32_MAX || v[i] < INT32_MIN) return -1;
  return n;
}

static int norm_axis(int64_t axis, int rank, int *out) {
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return -1;
  *out = (int)axis;
  return 0;
}

/* Output shapes of op from its input shapes and constant parameters (the
 * operator's shape rule, shape_rules.c); 0, or nonzero when there is none. */
static int rule(const ir_graph *g, const ir_op *op, shp *os) {
  return ir_shape_rule(g, op, ir_const_ints, g, 0, os, NULL, 0) != 0;
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
    pass_make_const(o, buf);
    op->dead = 1;
    return 1;
  }
  return pass_fold_op(g, op, NULL) == 1;
}

/* ---- IR surgery ------------------------------------------------------------ */

static int new_tensor(sctx *c, const char *name, int dtype, int rank, const int32_t *shape) {
  int id = ir_add_tensor(c->g, xstrdup(name), dtype, rank, shape);
  ctx_reserve(c);
  c->decl[id] = shp_of(&c->g->t[id]);
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
  pass_make_const(t, buf);
  return id;
}

/* Inserts an op at position pos of g->ops (later ops move up by one). */
static ir_op *insert_op(sctx *c, int pos, int builtin, int nin, const int *in, int out) {
  return ir_insert_op(c->g, pos, c->next_id++, builtin, nin, in, 1, &out);
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
                                "the end of an iteration ('%s') cannot be inferred statically; "
                                "give the model static shapes (a fixed batch and sequence length) or unroll the loop",
                             sg->sg, i, in->name, out->name);
      } else if (!same) {
        char a[96], b[96];
        shape_text(in, a, sizeof a);
        shape_text(out, b, sizeof b);
        r = diag_unsupported(d, "WHILE body (subgraph %d): loop variable %d '%s' enters as %s "
                                "and leaves as %s ('%s'); aotc needs loop variables of a fixed "
                                "shape: re-export with a fixed batch and sequence length, or unroll the loop",
                             sg->sg, i, in->name, a, b, out->name);
      }
    }
  }
  ctx_free(&c);
  return r;
}
