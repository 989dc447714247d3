/* plan.c - lifetimes, in-place reuse and the greedy best-fit arena planner;
 * tensors and operator scratch that rules place in another memory are planned
 * on their own, in that memory's offset window (PLAN_WINDOW). */
#include "plan.h"

#include "../ops/ops.h"

#include <stdlib.h>
#include <string.h>

typedef struct buf {
  int tensor;          /* root tensor id, or -1 for an op scratch buffer */
  int op;              /* op index for scratch buffers */
  size_t size;
  int first, last;     /* live positions [first, last] in ops[] */
  size_t offset;
  int placed;
  int grp;             /* 0: the scratch arena; k: the k-th other memory (window k) */
  int id;              /* index in the list of all buffers */
} buf;

static size_t align_up(size_t x) { return (x + PLAN_ALIGN - 1) & ~(size_t)(PLAN_ALIGN - 1); }

static int needs_scratch_storage(const ir_tensor *t) {
  return t->used && t->alias < 0 &&
         (t->role == ROLE_SCRATCH || t->role == ROLE_INPUT || t->role == ROLE_OUTPUT);
}

static int cmp_buf(const void *a, const void *b) {
  const buf *x = a, *y = b;
  if (x->size != y->size) return x->size > y->size ? -1 : 1;
  if (x->first != y->first) return x->first < y->first ? -1 : 1;
  if (x->tensor != y->tensor) return x->tensor < y->tensor ? -1 : 1;
  return x->op < y->op ? -1 : (x->op > y->op);
}

typedef struct span {
  size_t lo, hi;
} span;

static int cmp_span(const void *a, const void *b) {
  const span *x = a, *y = b;
  return x->lo < y->lo ? -1 : (x->lo > y->lo);
}

/* longest lifetime first */
static int cmp_len(const void *a, const void *b) {
  const buf *x = a, *y = b;
  int lx = x->last - x->first, ly = y->last - y->first;
  if (lx != ly) return lx > ly ? -1 : 1;
  return cmp_buf(a, b);
}

/* earliest first use first */
static int cmp_first(const void *a, const void *b) {
  const buf *x = a, *y = b;
  if (x->first != y->first) return x->first < y->first ? -1 : 1;
  return cmp_buf(a, b);
}

/* largest size x lifetime first */
static int cmp_area(const void *a, const void *b) {
  const buf *x = a, *y = b;
  size_t ax = x->size * (size_t)(x->last - x->first + 1), ay = y->size * (size_t)(y->last - y->first + 1);
  if (ax != ay) return ax > ay ? -1 : 1;
  return cmp_buf(a, b);
}

/* Places bufs in order: each at the best-fitting (or first) gap among the
 * already placed buffers whose lifetimes overlap it. Returns the arena size. */
static size_t place(buf *bufs, int nb, span *sp, int best_fit) {
  size_t arena = 0;
  for (int i = 0; i < nb; i++) {
    int ns = 0;
    for (int j = 0; j < i; j++)
      if (bufs[j].first <= bufs[i].last && bufs[i].first <= bufs[j].last)
        sp[ns++] = (span){bufs[j].offset, bufs[j].offset + bufs[j].size};
    qsort(sp, (size_t)ns, sizeof(span), cmp_span);
    size_t best = (size_t)-1, best_gap = (size_t)-1, cur = 0;
    for (int k = 0; k < ns; k++) {
      if (sp[k].lo > cur && sp[k].lo - cur >= bufs[i].size && sp[k].lo - cur < best_gap) {
        best_gap = sp[k].lo - cur;
        best = cur;
        if (!best_fit) break;
      }
      if (sp[k].hi > cur) cur = sp[k].hi;
    }
    if (best == (size_t)-1) best = cur;
    bufs[i].offset = best;
    bufs[i].placed = 1;
    if (best + bufs[i].size > arena) arena = best + bufs[i].size;
  }
  return arena;
}

int plan_memory(ir_graph *g, aotc_diag *d) { return plan_memory_placed(g, NULL, NULL, d); }

/* Tries several placement orders and both best- and first-fit on bufs[0..nb)
 * and keeps the smallest arena (ties go to the earlier strategy, so the plan
 * is deterministic); the offsets are left in bufs. Returns the arena size. */
static size_t place_best(buf *bufs, int nb) {
  static int (*const orders[])(const void *, const void *) = {cmp_buf, cmp_len, cmp_first,
                                                              cmp_area};
  span *sp = xmalloc((size_t)(nb + 1) * sizeof(span));
  buf *trial = xmalloc((size_t)(nb + 1) * sizeof(buf));
  size_t arena = (size_t)-1;
  for (size_t oi = 0; oi < sizeof orders / sizeof orders[0]; oi++) {
    for (int best_fit = 1; best_fit >= 0; best_fit--) {
      memcpy(trial, bufs, (size_t)nb * sizeof(buf));
      qsort(trial, (size_t)nb, sizeof(buf), orders[oi]);
      size_t a = place(trial, nb, sp, best_fit);
      if (a < arena) {
        arena = a;
        memcpy(bufs, trial, (size_t)nb * sizeof(buf));
      }
    }
  }
  free(trial);
  free(sp);
  return nb ? arena : 0;
}

int plan_memory_placed(ir_graph *g, const unsigned char *op_grp, const unsigned char *t_grp, aotc_diag *d) {
  int nt = g->nt, nops = g->nops;
  ir_mark_used(g);
  int *first = xmalloc((size_t)(nt ? nt : 1) * sizeof(int));
  int *last = xmalloc((size_t)(nt ? nt : 1) * sizeof(int));
  int *group = xmalloc((size_t)(nt ? nt : 1) * sizeof(int)); /* in-place merge target */
  for (int i = 0; i < nt; i++) {
    first[i] = nops;
    last[i] = -1;
    group[i] = i;
    g->t[i].arena = -1;
    g->t[i].offset = 0;
  }
  /* lifetimes of storage roots */
  for (int i = 0; i < g->nin; i++) first[ir_root(g, g->inputs[i])] = -1;
  for (int p = 0; p < nops; p++) {
    const ir_op *op = &g->ops[p];
    if (op->dead) continue;
    for (int k = 0; k < op->nout; k++) {
      if (op->out[k] < 0) continue;
      int r = ir_root(g, op->out[k]);
      if (p < first[r]) first[r] = p;
      if (p > last[r]) last[r] = p;
    }
    for (int k = 0; k < op->nin; k++) {
      if (op->in[k] < 0) continue;
      int r = ir_root(g, op->in[k]);
      if (p > last[r]) last[r] = p;
      if (p < first[r]) first[r] = p;
    }
  }
  for (int i = 0; i < g->nout; i++) last[ir_root(g, g->outputs[i])] = nops;
  for (int i = 0; i < g->nin; i++)
    if (g->t[g->inputs[i]].pinned) last[ir_root(g, g->inputs[i])] = nops;
  for (int i = 0; i < g->nin; i++) {
    int r = ir_root(g, g->inputs[i]);
    if (last[r] < 0) last[r] = 0;
  }
  /* in-place: output 0 takes input 0's storage when input 0 dies at this op */
  for (int p = 0; p < nops; p++) {
    const ir_op *op = &g->ops[p];
    if (op->dead || op->nin < 1 || op->nout < 1 || op->in[0] < 0 || op->out[0] < 0) continue;
    const op_impl *impl = ops_find(g, op);
    if (!impl || !impl->inplace) continue;
    int ri = ir_root(g, op->in[0]), ro = ir_root(g, op->out[0]);
    while (group[ri] != ri) ri = group[ri];
    if (ri == ro || !needs_scratch_storage(&g->t[ri]) || !needs_scratch_storage(&g->t[ro])) continue;
    if (t_grp && t_grp[ri] != t_grp[ro]) continue; /* placed in different memories */
    if (last[ri] != p || first[ro] != p || ir_bytes(&g->t[ri]) != ir_bytes(&g->t[ro])) continue;
    if (g->t[ri].role == ROLE_INPUT) continue; /* keep the caller's input intact */
    int used_elsewhere = 0;
    for (int k = 1; k < op->nin; k++)
      if (op->in[k] >= 0 && ir_root(g, op->in[k]) == ir_root(g, op->in[0])) used_elsewhere = 1;
    if (used_elsewhere) continue;
    group[ro] = ri;
    if (last[ro] > last[ri]) last[ri] = last[ro];
  }
  /* collect buffers */
  buf *bufs = xcalloc((size_t)(nt + nops + 1), sizeof(buf));
  int nb = 0;
  for (int i = 0; i < nt; i++) {
    if (!needs_scratch_storage(&g->t[i]) || group[i] != i) continue;
    size_t sz = ir_bytes(&g->t[i]);
    bufs[nb++] = (buf){i, -1, align_up(sz ? sz : 1), first[i] < 0 ? 0 : first[i],
                       last[i] < 0 ? 0 : last[i], 0, 0, t_grp ? t_grp[i] : 0, 0};
  }
  for (int p = 0; p < nops; p++) {
    ir_op *op = &g->ops[p];
    op->scratch_bytes = 0;
    if (op->dead) continue;
    const op_impl *impl = ops_find(g, op);
    /* an op's scratch size is only asked of ops its check accepts (the
     * unsupported ones are reported afterwards, all at once) */
    char why[256];
    size_t sz = (impl && impl->scratch && (!impl->check || impl->check(g, op, why, sizeof why) == 0))
                    ? impl->scratch(g, op)
                    : 0;
    op->scratch_bytes = sz;
    if (sz) bufs[nb++] = (buf){-1, p, align_up(sz), p, p, 0, 0, op_grp ? op_grp[p] : 0, 0};
  }
  /* each memory's buffers are planned on their own: the scratch arena's
   * first, then those placed in other memories, each in its window */
  int ngrp = 0;
  for (int i = 0; i < nb; i++)
    if (bufs[i].grp > ngrp) ngrp = bufs[i].grp;
  size_t arena = 0, lb = 0;
  buf *part = xmalloc((size_t)(nb + 1) * sizeof(buf));
  for (int k = 0; k <= ngrp; k++) {
    int np = 0;
    for (int i = 0; i < nb; i++)
      if (bufs[i].grp == k) bufs[i].id = i, part[np++] = bufs[i];
    size_t a = place_best(part, np);
    if (ngrp && a >= PLAN_WINDOW(1)) {
      free(part), free(bufs), free(first), free(last), free(group);
      return diag_error(d, "with tensors placed in other memories each memory's scratch may hold at most %zu bytes; this one needs %zu: remove the rules by id and scratch_placement",
                        (size_t)PLAN_WINDOW(1), a);
    }
    for (int j = 0; j < np; j++) bufs[part[j].id].offset = part[j].offset + (k ? PLAN_WINDOW(k) : 0);
    if (k) continue;
    arena = a;
    /* lower bound: the largest sum of live bytes at any op */
    for (int p = 0; p <= nops; p++) {
      size_t live = 0;
      for (int j = 0; j < np; j++)
        if (part[j].first <= p && p <= part[j].last) live += part[j].size;
      if (live > lb) lb = live;
    }
  }
  free(part);
  for (int i = 0; i < nb; i++) {
    if (bufs[i].tensor >= 0) {
      g->t[bufs[i].tensor].arena = 0;
      g->t[bufs[i].tensor].offset = bufs[i].offset;
    } else {
      g->ops[bufs[i].op].scratch_offset = bufs[i].offset;
    }
  }
  for (int i = 0; i < nt; i++) {
    if (group[i] != i && needs_scratch_storage(&g->t[i])) {
      int r = group[i];
      while (group[r] != r) r = group[r];
      g->t[i].arena = 0;
      g->t[i].offset = g->t[r].offset;
    }
  }
  /* persistent arena: variables packed in tensor order */
  size_t pers = 0;
  for (int i = 0; i < nt; i++) {
    ir_tensor *t = &g->t[i];
    if (!t->used || t->role != ROLE_PERSISTENT || t->alias >= 0) continue;
    t->arena = 1;
    t->offset = pers;
    pers += align_up(ir_bytes(t));
  }
  /* aliases take their root's placement */
  for (int i = 0; i < nt; i++) {
    if (g->t[i].alias >= 0) {
      int r = ir_root(g, i);
      g->t[i].arena = g->t[r].arena;
      g->t[i].offset = g->t[r].offset;
    }
  }
  g->scratch_arena_bytes = arena;
  g->scratch_lower_bound = lb;
  g->persistent_arena_bytes = pers;
  free(bufs);
  free(first);
  free(last);
  free(group);
  return 0;
}
