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
 * removed.
 *
 * A proven loop no GRU kernel runs (non-constant parameters, batch > 1, a
 * stateful GRU, dtype mixes, int8 projections that are summed or mixed with
 * float ones) stays a WHILE loop, which the WHILE lowering compiles, with a
 * one-line note (op index, loop, why); only a model that already declares a
 * custom operator code "GRU" is refused. Int8 weights (dynamic-range
 * quantization, each projection a hybrid FULLY_CONNECTED) become int8 W / U
 * with one scale per row, run by the hybrid GRU kernel aot_gru_f32_s8w.
 *
 * The matcher is split over gru_eval.c (constant evaluator), gru_form.c
 * (affine forms), gru_match.c (the proof) and gru_rewrite.c (the rewrite);
 * this file runs them over every WHILE and removes what the rewrite
 * orphaned (ops, then subgraphs). */
#include "gru_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- cleanup ------------------------------------------------------------------------------ */

static int op_has_effects(const litert_model *m, const litert_subgraph *s, const litert_op *op) {
  if (gru_has_side_effects_builtin(builtin_of(m, op))) return 1;
  for (int k = 0; k < op->noutputs; k++)
    if (op->outputs[k] >= 0 && s->tensors[op->outputs[k]].is_variable) return 1;
  for (int k = 0; k < op->ninputs; k++)
    if (op->inputs[k] >= 0 && s->tensors[op->inputs[k]].is_variable) return 1;
  return 0;
}

/* live[i]: op i contributes to an output or has side effects. */
char *gru_liveness(const litert_model *m, int sg) {
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
  for (int o = 0; o < g->nops; o++) litert_op_free(&g->ops[o]);
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
  char *live0 = gru_liveness(m, sgi);
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
    if (!gru_match_loop(&g)) {
      gru_gctx_free(&g);
      continue;
    }
    int pdtype = DT_FLOAT32;
    budget = 50000;
    char why[512] = "";
    int verdict = gru_check_loop(&g, collision, why, sizeof why, &pdtype);
    if (verdict) {
      const litert_subgraph *M = &m->subgraphs[sgi];
      const char *ln = M->tensors[M->ops[i].outputs[g.h_var]].name;
      gru_gctx_free(&g);
      if (verdict == GRU_REFUSE) {
        rc = diag_unsupported(diag, "op %d (WHILE, GRU loop '%s'): %s", i, ln ? ln : "", why);
        break;
      }
      /* the WHILE lowering runs the loop as it is */
      diag_warn(diag, "op %d (WHILE, GRU loop '%s') not fused, kept as a loop: %s", i,
                ln ? ln : "", why);
      continue;
    }
    int before = m->subgraphs[sgi].nops;
    int next = gru_rewrite_loop(&g, pdtype);
    gru_gctx_free(&g);
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
      char *live = gru_liveness(m, sgi);
      int removed = 0;
      for (int i = m->subgraphs[sgi].nops - 1; i >= 0; i--) {
        if (!live[i] && was_live[i]) {
          gru_remove_op(m, sgi, i);
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
