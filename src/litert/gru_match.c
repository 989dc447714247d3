/* gru_match.c - proving that a WHILE loop runs a Keras GRU cell
 * (fuse_rolled_gru).
 *
 * gru_match_loop() classifies the loop variables (invariant, counter, state h,
 * output list), proves from h' back to the inputs that the body computes
 *   h' = z * h + (1 - z) * n   (or n + z * (h - n)),
 *   z, r = g(affine in x and h), n = a(affine in x and r-gated h or r * h),
 * with match_cell / gru_match_gate / match_cand over the forms of gru_form.c,
 * that the list variable receives h' at row `counter` (match_write), and that
 * the cond bounds the counter by the time dimension (cond_bound). */
#include "gru_internal.h"

#include <stdlib.h>
#include <string.h>

#include "aot_recurrent.h"

static int only_xh(const form *f) {
  return !f->w[C_WRH] && !f->w[C_WRG] && !f->b[C_BRG] && f->rgate < 0 && !f->bcast;
}

/* Gate: sigmoid(p) or clamp(0.2 p + 0.5, 0, 1), p affine in x and h. */
int gru_match_gate(gctx *g, int t, int depth, gate_memo **out) {
  if (depth > MAXD || out_of_budget(g)) return -1;
  t = gru_strip(g, t);
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
      if (!gru_is_value(g, g->body, op->inputs[1 - k], b == OP_MAXIMUM ? 0.0f : 1.0f)) continue;
      int it = gru_strip(g, op->inputs[k]);
      const litert_op *in = bprod(g, it);
      if (bop(g, in) != inner_b || in->ninputs != 2) continue;
      for (int j = 0; j < 2 && p < 0; j++) {
        if (!gru_is_value(g, g->body, in->inputs[1 - j], inner_b == OP_MAXIMUM ? 0.0f : 1.0f)) continue;
        int lt = gru_strip(g, in->inputs[j]);
        const litert_op *add = bprod(g, lt);
        if (bop(g, add) != OP_ADD || add->ninputs != 2 || !fused_none(add)) continue;
        for (int a = 0; a < 2 && p < 0; a++) {
          if (!gru_is_value(g, g->body, add->inputs[1 - a], 0.5f)) continue;
          const litert_op *mul = bprod(g, gru_strip(g, add->inputs[a]));
          if (bop(g, mul) != OP_MUL || mul->ninputs != 2 || !fused_none(mul)) continue;
          for (int q = 0; q < 2 && p < 0; q++)
            if (gru_is_value(g, g->body, mul->inputs[1 - q], 0.2f)) p = mul->inputs[q];
        }
      }
    }
    act = AOT_GRU_HARD_SIGMOID;
  }
  if (p < 0) return -1;
  if (gru_form_of(g, p, depth + 1, &gm->f)) return -1;
  if (!only_xh(&gm->f) || gm->f.rows != g->units) {
    gru_form_free(&gm->f);
    return -1;
  }
  gm->act = act;
  gm->ok = 1;
  return 0;
}

/* t = 1 - z (SUB(1, z), 1 + (-z), 1 + (-1) * z in any operand order). */
static int is_one_minus(gctx *g, int t, int z) {
  t = gru_strip(g, t);
  const litert_op *op = bprod(g, t);
  int b = bop(g, op);
  if (!op || op->ninputs != 2 || !fused_none(op)) return 0;
  if (b == OP_SUB) return gru_is_value(g, g->body, op->inputs[0], 1.0f) && gru_strip(g, op->inputs[1]) == z;
  if (b != OP_ADD) return 0;
  for (int k = 0; k < 2; k++) {
    if (!gru_is_value(g, g->body, op->inputs[1 - k], 1.0f)) continue;
    int nt = gru_strip(g, op->inputs[k]);
    const litert_op *neg = bprod(g, nt);
    int nb = bop(g, neg);
    if (nb == OP_NEG && neg->ninputs == 1 && gru_strip(g, neg->inputs[0]) == z) return 1;
    if (nb == OP_MUL && neg->ninputs == 2 && fused_none(neg))
      for (int j = 0; j < 2; j++)
        if (gru_strip(g, neg->inputs[j]) == z && gru_is_value(g, g->body, neg->inputs[1 - j], -1.0f))
          return 1;
  }
  return 0;
}

/* Candidate n = tanh(p) or p (linear), p affine in x and r-gated h (or r*h). */
static int match_cand(gctx *g, int t, form *f, int *act) {
  t = gru_strip(g, t);
  const litert_op *op = bprod(g, t);
  int p = t;
  *act = AOT_GRU_LINEAR;
  if (bop(g, op) == OP_TANH && op->ninputs == 1) {
    p = op->inputs[0];
    *act = AOT_GRU_TANH;
  }
  if (gru_form_of(g, p, 0, f)) return -1;
  if (f->bcast || f->rows != g->units || f->w[C_WH] || (f->w[C_WRG] && f->w[C_WRH])) {
    gru_form_free(f);
    return -1;
  }
  return 0;
}

/* Proves that body tensor t computes h' of a GRU cell with state g->h_arg. */
static int match_cell(gctx *g, int t) {
  t = gru_strip(g, t);
  const litert_op *op = bprod(g, t);
  if (bop(g, op) != OP_ADD || op->ninputs != 2 || !fused_none(op)) return -1;
  for (int k = 0; k < 2; k++) {
    int pt = gru_strip(g, op->inputs[k]), qt = gru_strip(g, op->inputs[1 - k]);
    const litert_op *P = bprod(g, pt), *Q = bprod(g, qt);
    if (bop(g, P) != OP_MUL || P->ninputs != 2 || !fused_none(P)) continue;
    for (int j = 0; j < 2; j++) {
      gate_memo *z;
      int other = gru_strip(g, P->inputs[1 - j]);
      if (gru_match_gate(g, P->inputs[j], 0, &z)) continue;
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
            gru_strip(g, D->inputs[0]) == g->h_arg && gru_strip(g, D->inputs[1]) == qt)
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
          gru_form_free(&nf);
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
int gru_index_vector(gctx *g, int idx, int want_next, int rank, int kind_rest) {
  idx = gru_strip(g, idx);
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
      if (gru_ceval(g, g->body, op->inputs[k], &c, 0)) return 0;
      for (size_t i = 0; i < c.n && nrest < 8; i++) rest[nrest++] = c.v[i];
      gru_cval_free(&c);
    }
  } else if (b == OP_PACK && op->opts.axis == 0 && op->ninputs >= 1) {
    lead = op->inputs[0];
    for (int k = 1; k < op->ninputs; k++) {
      cval c;
      if (gru_ceval(g, g->body, op->inputs[k], &c, 0) || c.n != 1) {
        gru_cval_free(&c);
        return 0;
      }
      rest[nrest++] = c.v[0];
      gru_cval_free(&c);
    }
  }
  if (lead < 0 || nrest != rank - 1) return 0;
  if (want_next ? !gru_is_counter_next(g, lead) : !gru_is_counter_arg(g, lead)) return 0;
  for (int i = 0; i < nrest; i++) {
    if (kind_rest == 0 && rest[i] != 0) return 0;      /* begin: zeros */
    if (kind_rest == 1 && rest[i] != -1) return 0;     /* size: everything */
    /* kind_rest 2: any (masked by the caller) */
  }
  return 1;
}

/* res = the list arg with row `counter` replaced by h'. */
static int match_write(gctx *g, int res, int list_arg, int hnew) {
  res = gru_strip(g, res);
  const litert_op *op = bprod(g, res);
  int b = bop(g, op);
  const litert_tensor *L = BT(g, list_arg);
  if (L->rank != 3) return 0;
  if (b == OP_DYNAMIC_UPDATE_SLICE && op->ninputs == 3) {
    return gru_strip(g, op->inputs[0]) == list_arg && gru_strip(g, op->inputs[1]) == gru_strip(g, hnew) &&
           gru_index_vector(g, op->inputs[2], 0, 3, 0);
  }
  if (b != OP_CONCATENATION || op->ninputs != 3 || !fused_none(op)) return 0;
  int axis = op->opts.axis < 0 ? op->opts.axis + 3 : op->opts.axis;
  if (axis != 0) return 0;
  /* head = L[0:i] */
  const litert_op *h = bprod(g, op->inputs[0]);
  if (bop(g, h) != OP_SLICE || h->ninputs != 3 || gru_strip(g, h->inputs[0]) != list_arg) return 0;
  cval c;
  if (gru_ceval(g, g->body, h->inputs[1], &c, 0)) return 0;
  int zeros = c.n == 3 && c.v[0] == 0 && c.v[1] == 0 && c.v[2] == 0;
  gru_cval_free(&c);
  if (!zeros || !gru_index_vector(g, h->inputs[2], 0, 3, 1)) return 0;
  /* mid = h' as [1, 1, U] */
  int mid = op->inputs[1];
  if (gru_strip(g, mid) != gru_strip(g, hnew) || numel_of(BT(g, mid)) != g->batch * g->units) return 0;
  /* tail = L[i+1:] */
  const litert_op *tl = bprod(g, op->inputs[2]);
  if (bop(g, tl) != OP_SLICE || tl->ninputs != 3 || gru_strip(g, tl->inputs[0]) != list_arg) return 0;
  if (gru_ceval(g, g->body, tl->inputs[2], &c, 0)) return 0;
  int all = c.n == 3 && c.v[0] == -1 && c.v[1] == -1 && c.v[2] == -1;
  gru_cval_free(&c);
  return all && gru_index_vector(g, tl->inputs[1], 1, 3, 0);
}

/* Trip count bound of the cond subgraph (a conjunction of counter < bound). */
static int64_t cond_bound(gctx *g, int t, int depth) {
  const litert_subgraph *C = SG(g, g->cond);
  if (depth > MAXD) return -1;
  int p = gru_producer_in(C, t);
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
  int v = gru_input_pos(C, op->inputs[ci]);
  if (v < 0 || v >= g->n || g->kind[v] != V_COUNTER) return -1;
  cval c;
  if (gru_ceval(g, g->cond, op->inputs[bi], &c, 0) || c.n != 1) {
    gru_cval_free(&c);
    return -1;
  }
  int64_t bound = (int64_t)c.v[0] + incl;
  gru_cval_free(&c);
  return bound < 0 ? 0 : bound;
}

/* Length (dim 0) of a main-graph tensor: static, or from the constant shape
 * of the FILL producing it. */
static int64_t main_len(gctx *g, int t) {
  int d = gru_static_dim(g->m, g->msg, t, 0);
  if (d >= 0) return d;
  const litert_subgraph *M = SG(g, g->msg);
  int p = gru_producer_in(M, t);
  if (p >= 0 && builtin_of(g->m, &M->ops[p]) == OP_FILL) {
    cval c;
    if (gru_ceval(g, g->msg, M->ops[p].inputs[0], &c, 0) == 0 && c.n >= 1) {
      int64_t n = (int64_t)c.v[0];
      gru_cval_free(&c);
      return n;
    }
    gru_cval_free(&c);
  }
  return -1;
}

void gru_gctx_free(gctx *g) {
  for (int i = 0; i < g->ngm; i++) gru_form_free(&g->gm[i].f);
  g->ngm = 0;
  gru_form_free(&g->fz);
  gru_form_free(&g->fr);
  gru_form_free(&g->fn);
  free(g->kind);
  g->kind = NULL;
}

/* Analyzes the WHILE at g->wi. Returns 1 for a GRU loop, 0 otherwise. */
int gru_match_loop(gctx *g) {
  litert_model *m = g->m;
  const litert_subgraph *M = SG(g, g->msg);
  const litert_op *w = g->wop = &M->ops[g->wi];
  g->cond = w->opts.cond_subgraph;
  g->body = w->opts.body_subgraph;
  g->h_var = g->list_var = g->x_var = -1;
  g->z_gate = g->r_gate = -1;
  gru_form_init(&g->fz, 0), gru_form_init(&g->fr, 0), gru_form_init(&g->fn, 0);
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
    if (gru_has_side_effects_builtin(builtin_of(m, &B->ops[i]))) return 0;
  for (int i = 0; i < C->nops; i++)
    if (gru_has_side_effects_builtin(builtin_of(m, &C->ops[i]))) return 0;
  g->n = n;
  g->kind = xcalloc((size_t)n, sizeof(int));
  /* invariants first (counters' initial values may depend on them) */
  for (int k = 0; k < n; k++)
    if (B->outputs[k] == B->inputs[k]) g->kind[k] = V_INVARIANT;
  for (int k = 0; k < n; k++) {
    if (g->kind[k]) continue;
    int p = gru_producer_in(B, B->outputs[k]);
    if (p < 0) continue;
    const litert_op *op = &B->ops[p];
    if (builtin_of(m, op) != OP_ADD || op->ninputs != 2 || !fused_none(op)) continue;
    if (B->tensors[B->outputs[k]].type != DT_INT32) continue;
    for (int j = 0; j < 2; j++) {
      if (op->inputs[j] != B->inputs[k] || !gru_is_value(g, g->body, op->inputs[1 - j], 1.0f)) continue;
      cval c;
      if (gru_ceval(g, g->msg, w->inputs[k], &c, 0) == 0 && c.n == 1 && c.v[0] == 0)
        g->kind[k] = V_COUNTER;
      gru_cval_free(&c);
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
      for (int i = 0; i < g->ngm; i++) gru_form_free(&g->gm[i].f);
      g->ngm = 0;
      g->x_var = -1;
      g->nonconst[0] = g->baddtype[0] = g->badq8[0] = 0;
    }
  }
  if (g->h_var < 0) return 0;
  /* gate forms */
  gru_form_init(&g->fz, g->units);
  gru_form_init(&g->fr, g->units);
  for (int i = 0; i < g->ngm; i++) {
    if (!g->gm[i].ok) continue;
    if (g->gm[i].t == g->z_gate && gru_form_add(&g->fz, &g->gm[i].f, 1.0f)) return 0;
    if (g->r_gate >= 0 && g->gm[i].t == g->r_gate && gru_form_add(&g->fr, &g->gm[i].f, 1.0f)) return 0;
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
  int64_t T = gru_static_dim(m, g->msg, w->inputs[g->x_var], 0);
  const litert_tensor *X = &M->tensors[w->inputs[g->x_var]];
  if (T != trip || X->rank != 3) return 0;
  if (g->list_var >= 0 && main_len(g, w->inputs[g->list_var]) != trip) return 0;
  g->trip = trip;
  g->feat = X->shape[2];
  return 1;
}
