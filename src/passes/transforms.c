/* transforms.c - IR graph transforms, listed by name in ir_transforms[].
 * Each returns the number of changes it made, or -1 with a diagnostic. The
 * verifier runs after every transform (ir_run_transforms). */
#include "../ops/ops.h"
#include "passes.h"

#include <stdlib.h>
#include <string.h>

/* Largest constant that folding may create (bytes). */
#define FOLD_LIMIT (4u << 20)

/* Float ops with int8 constant weights ("hybrid" / dynamic-range models):
 * an op whose implementation accepts that form runs it as LiteRT does (its
 * hybrid kernel quantizes the float input at run time) and keeps its int8
 * weights; for any other, the weights are dequantized at compile time so the
 * float kernels run them. */
static int dequantize_hybrid_weights(ir_graph *g, aotc_diag *d) {
  (void)d;
  int changes = 0;
  for (int i = 0; i < g->nops; i++) {
    ir_op *op = &g->ops[i];
    if (op->dead) continue;
    if (op->builtin != OP_CONV_2D && op->builtin != OP_DEPTHWISE_CONV_2D &&
        op->builtin != OP_FULLY_CONNECTED && op->builtin != OP_TRANSPOSE_CONV)
      continue;
    int wi = op->builtin == OP_TRANSPOSE_CONV ? 1 : 1;
    int xi = op->builtin == OP_TRANSPOSE_CONV ? 2 : 0;
    if (op->nin <= wi || op->nin <= xi || op->in[xi] < 0 || op->in[wi] < 0) continue;
    ir_tensor *x = &g->t[op->in[xi]];
    ir_tensor *w = &g->t[op->in[wi]];
    if (x->dtype != DT_FLOAT32 || w->role != ROLE_CONST || w->nq == 0) continue;
    if (w->dtype != DT_INT8 && w->dtype != DT_UINT8) continue;
    const op_impl *impl = ops_find(g, op);
    char why[256];
    if (impl && impl->check && impl->check(g, op, why, sizeof why) == 0) continue;
    size_t n = ir_numel(w);
    float *out = xmalloc(n * sizeof(float));
    int qdim = w->nq > 1 ? w->qdim : -1;
    size_t inner = 1, dimlen = 1;
    if (qdim >= 0) {
      for (int k = qdim + 1; k < w->rank; k++) inner *= (size_t)w->shape[k];
      dimlen = (size_t)w->shape[qdim];
    }
    for (size_t e = 0; e < n; e++) {
      int c = qdim >= 0 ? (int)((e / inner) % dimlen) : 0;
      int32_t q = w->dtype == DT_INT8 ? (int32_t)(int8_t)w->data[e] : (int32_t)w->data[e];
      out[e] = (float)(((double)q - (double)w->zero_point[c]) * (double)w->scale[c]);  /* no int overflow for hostile zero points */
    }
    ir_set_float_data(w, out, n);
    changes++;
  }
  return changes;
}

/* Ops whose inputs are all constant are evaluated now (with the same kernels
 * the module would run); their outputs become constants. */
static int fold_constants(ir_graph *g, aotc_diag *d) {
  int changes = 0;
  for (int i = 0; i < g->nops; i++) {
    ir_op *op = &g->ops[i];
    if (op->dead) continue;
    int ok = 1;
    for (int k = 0; k < op->nout; k++) {
      const ir_tensor *o = &g->t[op->out[k]];
      if (ir_is_output(g, op->out[k]) || o->role != ROLE_SCRATCH || dtype_size(o->dtype) == 0 ||
          ir_bytes(o) > FOLD_LIMIT)
        ok = 0;
    }
    if (!ok) continue;
    int st, r = pass_fold_op(g, op, &st);
    if (r < 0)
      diag_warn(d, "op %d (%s): constant folding failed with status %d; left in the graph", op->id,
                litert_op_name(op->builtin), st);
    if (r == 1) changes++;
  }
  return changes;
}

static int is_reshape_like(int b) {
  return b == OP_RESHAPE || b == OP_SQUEEZE || b == OP_EXPAND_DIMS;
}

/* RESHAPE / SQUEEZE / EXPAND_DIMS share their input's storage: no copy. */
static int alias_reshapes(ir_graph *g, aotc_diag *d) {
  (void)d;
  int changes = 0;
  for (int i = 0; i < g->nops; i++) {
    ir_op *op = &g->ops[i];
    if (op->dead || !is_reshape_like(op->builtin) || op->nin < 1 || op->nout < 1) continue;
    int ti = op->in[0], to = op->out[0];
    if (ti < 0 || to < 0) continue;
    ir_tensor *in = &g->t[ti], *out = &g->t[to];
    if (ir_bytes(in) != ir_bytes(out) || in->dtype != out->dtype) continue;
    if (in->role == ROLE_PERSISTENT || out->role == ROLE_PERSISTENT) continue;
    if (ir_is_output(g, to) && (in->role == ROLE_CONST || in->role == ROLE_INPUT ||
                                ir_is_output(g, ti)))
      continue;
    if (in->role == ROLE_CONST) {
      out->role = ROLE_CONST;
      out->data = in->data;
      out->data_bytes = in->data_bytes;
    } else {
      out->alias = ti;
    }
    op->dead = 1;
    changes++;
  }
  return changes;
}

static int accepts_fused_act(int b) {
  switch (b) {
    case OP_CONV_2D: case OP_DEPTHWISE_CONV_2D: case OP_FULLY_CONNECTED: case OP_ADD:
    case OP_SUB: case OP_MUL: case OP_AVERAGE_POOL_2D: case OP_MAX_POOL_2D:
    case OP_TRANSPOSE_CONV: case OP_DIV:
      return 1;
    default:
      return 0;
  }
}

static int same_quant(const ir_tensor *a, const ir_tensor *b) {
  if (a->dtype != b->dtype || a->nq != b->nq) return 0;
  for (int k = 0; k < a->nq; k++)
    if (a->scale[k] != b->scale[k] || a->zero_point[k] != b->zero_point[k]) return 0;
  return 1;
}

static int *alias_roots(const ir_graph *g);

/* A RELU / RELU6 / RELU_N1_TO_1 after an op that can clamp its own output is
 * folded into that op's fused activation. Readers are counted per storage
 * root (a reader of an alias of the tensor counts), producers looked up in a
 * table built once: linear in the graph size. */
static int fuse_activation(ir_graph *g, aotc_diag *d) {
  (void)d;
  int changes = 0;
  size_t nt = (size_t)(g->nt > 0 ? g->nt : 1);
  int *root = alias_roots(g);
  int *readers = xcalloc(nt, sizeof(int));
  int *producer = xmalloc(sizeof(int) * nt);
  char *is_out = xcalloc(nt, 1);
  for (int i = 0; i < g->nt; i++) producer[i] = -1;
  for (int i = 0; i < g->nout; i++)
    if (g->outputs[i] >= 0) is_out[g->outputs[i]] = 1;
  for (int i = 0; i < g->nops; i++) {
    const ir_op *op = &g->ops[i];
    if (op->dead) continue;
    for (int k = 0; k < op->nin; k++)
      if (op->in[k] >= 0) readers[root[op->in[k]]]++;
    for (int k = 0; k < op->nout; k++)
      if (op->out[k] >= 0 && producer[op->out[k]] < 0) producer[op->out[k]] = i;
  }
  for (int i = 0; i < g->nops; i++) {
    ir_op *act = &g->ops[i];
    if (act->dead || act->nin < 1 || act->nout < 1) continue;
    int fa;
    if (act->builtin == OP_RELU) fa = ACT_RELU;
    else if (act->builtin == OP_RELU6) fa = ACT_RELU6;
    else if (act->builtin == OP_RELU_N1_TO_1) fa = ACT_RELU_N1_TO_1;
    else continue;
    int t = act->in[0];
    if (t < 0 || act->out[0] < 0 || is_out[t] || root[t] != t || readers[t] != 1) continue;
    int pi = producer[t];
    if (pi < 0) continue;
    ir_op *prod = &g->ops[pi];
    if (!accepts_fused_act(prod->builtin) || prod->opts.fused_act != ACT_NONE) continue;
    if (prod->nout != 1 || !same_quant(&g->t[t], &g->t[act->out[0]])) continue;
    if (g->t[act->out[0]].role == ROLE_PERSISTENT) continue;
    if (dtype_is_int(g->t[t].dtype) && g->t[t].nq != 1) continue;
    prod->out[0] = act->out[0];
    prod->opts.fused_act = fa;
    act->dead = 1;
    readers[t]--;
    producer[t] = -1;
    producer[act->out[0]] = pi;
    changes++;
  }
  free(root);
  free(readers);
  free(producer);
  free(is_out);
  return changes;
}

/* Root (storage owner) of every tensor, following alias chains once for the
 * whole graph: an alias chain of any length costs O(number of tensors). */
static int *alias_roots(const ir_graph *g) {
  int *root = xmalloc(sizeof(int) * (size_t)(g->nt > 0 ? g->nt : 1));
  for (int i = 0; i < g->nt; i++) root[i] = -2; /* not known yet */
  int *path = xmalloc(sizeof(int) * (size_t)(g->nt > 0 ? g->nt : 1));
  for (int i = 0; i < g->nt; i++) {
    int n = 0, t = i;
    /* walk until a tensor with a known root or without an alias; a cycle
     * (rejected by the verifier) stops after nt steps */
    while (root[t] == -2 && g->t[t].alias >= 0 && n < g->nt) {
      path[n++] = t;
      root[t] = -3; /* on the current path */
      t = g->t[t].alias;
    }
    int r = root[t] >= 0 ? root[t] : t;
    if (root[t] == -2) root[t] = t;
    for (int k = 0; k < n; k++) root[path[k]] = r;
  }
  free(path);
  return root;
}

/* Ops whose outputs nobody reads (and that have no side effects) are removed,
 * then tensors nobody references are dropped from planning. Linear in the
 * graph size: every storage root counts its readers (live ops reading it or
 * any alias of it, plus one per graph output); an op is dead when none of its
 * outputs has a reader; removing it decrements its inputs' counts, and an
 * input whose count reaches zero puts its producers on a work list. */
static int remove_dead(ir_graph *g, aotc_diag *d) {
  (void)d;
  int before = 0;
  for (int i = 0; i < g->nt; i++) before += g->t[i].used;
  int *root = alias_roots(g);
  size_t nt = (size_t)(g->nt > 0 ? g->nt : 1), no = (size_t)(g->nops > 0 ? g->nops : 1);
  int *readers = xcalloc(nt, sizeof(int));
  /* producers of each root as a linked list over (op, output) slots */
  int *first = xmalloc(sizeof(int) * nt), nslots = 0;
  for (int i = 0; i < g->nt; i++) first[i] = -1;
  for (int i = 0; i < g->nops; i++) nslots += g->ops[i].nout;
  int *next = xmalloc(sizeof(int) * (size_t)(nslots > 0 ? nslots : 1));
  int *slot_op = xmalloc(sizeof(int) * (size_t)(nslots > 0 ? nslots : 1));
  int s = 0;
  for (int i = 0; i < g->nops; i++) {
    const ir_op *op = &g->ops[i];
    for (int k = 0; k < op->nout; k++, s++) {
      slot_op[s] = i;
      next[s] = -1;
      if (op->dead || op->out[k] < 0) continue;
      int r = root[op->out[k]];
      next[s] = first[r];
      first[r] = s;
    }
    if (op->dead) continue;
    for (int k = 0; k < op->nin; k++)
      if (op->in[k] >= 0) readers[root[op->in[k]]]++;
  }
  for (int i = 0; i < g->nout; i++)
    if (g->outputs[i] >= 0) readers[root[g->outputs[i]]]++;
  /* every op is examined once up front (last first), then again only when
   * one of its outputs loses its last reader */
  int *work = xmalloc(sizeof(int) * no), nwork = 0;
  char *queued = xcalloc(no, 1);
  for (int i = 0; i < g->nops; i++) {
    work[nwork++] = i;
    queued[i] = 1;
  }
  int changes = 0;
  while (nwork > 0) {
    int i = work[--nwork];
    queued[i] = 0;
    ir_op *op = &g->ops[i];
    if (op->dead || pass_has_side_effects(g, op)) continue;
    int needed = 0;
    for (int k = 0; k < op->nout && !needed; k++)
      if (op->out[k] >= 0 && readers[root[op->out[k]]] > 0) needed = 1;
    if (needed) continue;
    op->dead = 1;
    changes++;
    for (int k = 0; k < op->nin; k++) {
      if (op->in[k] < 0) continue;
      int r = root[op->in[k]];
      if (--readers[r] != 0) continue;
      for (int p = first[r]; p >= 0; p = next[p]) {
        int pi = slot_op[p];
        if (!queued[pi] && !g->ops[pi].dead) {
          work[nwork++] = pi;
          queued[pi] = 1;
        }
      }
    }
  }
  free(work);
  free(queued);
  free(next);
  free(slot_op);
  free(first);
  free(readers);
  free(root);
  int after = ir_mark_used(g);
  return changes + (before - after > 0 ? before - after : 0);
}

static int depthwise_as_conv(ir_graph *g, aotc_diag *d) {
  (void)d;
  return pass_depthwise_as_conv(g);
}

static int conv_as_fc(ir_graph *g, aotc_diag *d) {
  (void)d;
  return pass_conv_as_fc(g);
}

/* the last: on the final graph (passes/kernel_choice.c) */
static int kernel_choice(ir_graph *g, aotc_diag *d) {
  (void)d;
  return pass_kernel_choice(g);
}

const ir_transform ir_transforms[] = {
    {"dequantize_hybrid_weights", "dequantize int8 weights of float ops at compile time",
     dequantize_hybrid_weights},
    {"lower_fp16", "run ops without float16 kernels in float32 between float16<->float32 CASTs",
     ir_lower_fp16},
    {"fold_constants", "evaluate ops whose inputs are all constant", fold_constants},
    {"alias_reshapes", "RESHAPE/SQUEEZE/EXPAND_DIMS share storage with their input (no copy)",
     alias_reshapes},
    {"fuse_activation", "fuse a following RELU/RELU6/RELU_N1_TO_1 into the producing op",
     fuse_activation},
    {"remove_dead", "remove ops whose outputs are unused, and unused tensors", remove_dead},
    {"depthwise_as_conv",
     "run a DEPTHWISE_CONV_2D of one input channel as the CONV_2D it equals",
     depthwise_as_conv},
    {"conv_as_fc",
     "run a CONV_2D whose one window is the whole input as the FULLY_CONNECTED it equals",
     conv_as_fc},
    {"kernel_choice",
     "pick each int8 convolution's Cortex-M4 DSP path by counted cost (off: the kernels' rules)",
     kernel_choice},
};
const int ir_ntransforms = (int)(sizeof ir_transforms / sizeof ir_transforms[0]);

int ir_run_transforms(ir_graph *g, const int *disabled, aotc_diag *d) {
  int total = 0;
  if (ir_verify(g, d) != 0) return -1;
  for (int i = 0; i < ir_ntransforms; i++) {
    if (disabled && disabled[i]) continue;
    int n = ir_transforms[i].run(g, d);
    if (n < 0) return -1;
    ir_mark_used(g);
    if (ir_verify(g, d) != 0) {
      char msg[sizeof d->msg];
      snprintf(msg, sizeof msg, "%s", d->msg);
      snprintf(d->msg, sizeof d->msg, "after transform %s: %.900s", ir_transforms[i].name, msg);
      return -1;
    }
    total += n;
  }
  return total;
}
