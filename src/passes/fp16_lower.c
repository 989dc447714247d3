/* fp16_lower.c - the lower_fp16 transform: float16 storage with float32
 * compute for operators whose implementation has no float16 kernel.
 *
 * A fully float16 model (aotc fp16) has float16 activations and weights
 * everywhere. A few operator implementations accept float16 directly (the
 * fused GRU, and the dtype-agnostic data movement ops such as RESHAPE,
 * TRANSPOSE, CONCATENATION, whose kernels move bytes); the others only have
 * float32 kernels. For each live op that reads or writes a float16 tensor,
 * and whose op_impl check() refuses it as is, this transform tries the same
 * op with every float16 tensor replaced by a float32 one:
 *   - float16 constant inputs become float32 constants, converted now
 *     (exactly: every binary16 value is a binary32 value);
 *   - a float16 activation input x is read through a new tensor x_f32
 *     written by CAST x -> x_f32 (float16 -> float32) inserted before the op;
 *   - a float16 output y is written as a new tensor y_f32, and CAST
 *     y_f32 -> y (float32 -> float16, round to nearest even) is inserted
 *     right after the op, so y keeps its identity (graph output, readers).
 * If check() accepts the float32 version the rewrite is kept, otherwise it is
 * undone and the op stays as it was (codegen then reports it unsupported).
 * A converted constant or a cast input is shared by every lowered reader.
 *
 * Rounding at op boundaries. By default (ir_lower_fp16, the registered
 * transform) every float16 tensor of the model still holds float16 values:
 * a lowered op's result is rounded to binary16 before any reader sees it, as
 * a float16-storage kernel computing in float32 would do. So two adjacent
 * lowered ops keep the pair CAST y_f32 -> y, CAST y -> y'_f32 between them:
 * the numerics are exactly those of the float16 model run with float32
 * arithmetic inside each op (faithful). With keep_f16_rounding = 0
 * (ir_lower_fp16_mode) a lowered reader of y reads y_f32 directly; the
 * CAST y_f32 -> y then only serves float16 readers and graph outputs, and
 * remove_dead drops it when there are none. That removes one rounding per
 * boundary (results move toward the float32 model) and the cast work.
 *
 * Ops left alone: CAST, DEQUANTIZE, QUANTIZE (they define the dtypes),
 * control flow and resource variables, ops touching persistent (variable)
 * float16 tensors (their kernels update state in place), quantized float16
 * tensors (none exist in valid models). */
#include "../ops/ops.h"
#include "aot_f16.h"
#include "passes.h"

#include <stdlib.h>
#include <string.h>

typedef struct lower_ctx {
  ir_graph *g;
  int keep_rounding;
  int *twin;      /* float16 tensor -> its float32 twin, or -1 (size cap) */
  int cap;
  int next_id;    /* id of the next inserted op */
} lower_ctx;

static void twin_reserve(lower_ctx *c) {
  if (c->g->nt <= c->cap) return;
  int ncap = c->g->nt * 2 + 8;
  c->twin = xrealloc(c->twin, (size_t)ncap * sizeof(int));
  for (int i = c->cap; i < ncap; i++) c->twin[i] = -1;
  c->cap = ncap;
}

/* Appends a float32 tensor shaped like tensor `like` (scratch, no data). */
static int add_f32_tensor(lower_ctx *c, int like) {
  ir_graph *g = c->g;
  const ir_tensor *src = &g->t[like];
  int id = ir_add_tensor(g, xasprintf("%s/f32", src->name ? src->name : ""), DT_FLOAT32,
                         src->rank, src->shape);
  twin_reserve(c);
  return id;
}

/* Drops the tensors appended since nt0 (an undone trial). */
static void drop_tensors(lower_ctx *c, int nt0) {
  ir_graph *g = c->g;
  for (int i = nt0; i < g->nt; i++) {
    free(g->t[i].name);
    free(g->t[i].owned_data);
    free(g->t[i].scale);
    free(g->t[i].zero_point);
  }
  g->nt = nt0;
}

/* A float32 constant holding the exact values of float16 constant t. */
static int add_f32_const(lower_ctx *c, int t) {
  int id = add_f32_tensor(c, t);
  ir_tensor *n = &c->g->t[id];
  const ir_tensor *h = &c->g->t[t];
  size_t count = ir_numel(h);
  float *v = xcalloc(count ? count : 1, sizeof(float));
  for (size_t i = 0; i < count && 2 * i + 1 < h->data_bytes; i++) {
    uint16_t bits;
    memcpy(&bits, h->data + 2 * i, sizeof bits);
    v[i] = aot_f16_to_f32(bits);
  }
  n->owned_data = (uint8_t *)v;
  n->data = n->owned_data;
  n->data_bytes = count * sizeof(float);
  n->role = ROLE_CONST;
  return id;
}

/* Inserts a CAST op (in -> out) at position pos of g->ops. */
static void insert_cast(lower_ctx *c, int pos, int in, int out) {
  ir_graph *g = c->g;
  ir_op *op = ir_insert_op(g, pos, c->next_id++, OP_CAST, 1, &in, 1, &out);
  op->opts.type = litert_builtin_options_type(OP_CAST);
  op->opts.in_data_type = g->t[in].dtype;
  op->opts.out_data_type = g->t[out].dtype;
}

static int never_lowered(int builtin) {
  switch (builtin) {
    case OP_CAST: case OP_DEQUANTIZE: case OP_QUANTIZE:
    case OP_WHILE: case OP_IF: case OP_CALL_ONCE: case OP_CALL:
    case OP_VAR_HANDLE: case OP_READ_VARIABLE: case OP_ASSIGN_VARIABLE:
      return 1;
    default:
      return 0;
  }
}

static int is_f16(const ir_graph *g, int t) { return t >= 0 && g->t[t].dtype == DT_FLOAT16; }

/* 1 if op i is a candidate: it touches float16 tensors, none of them
 * persistent or quantized. */
static int candidate(const ir_graph *g, const ir_op *op) {
  if (op->dead || never_lowered(op->builtin)) return 0;
  int any = 0;
  for (int k = 0; k < op->nin + op->nout; k++) {
    int t = k < op->nin ? op->in[k] : op->out[k - op->nin];
    if (!is_f16(g, t)) continue;
    if (g->t[t].role == ROLE_PERSISTENT || g->t[t].nq > 0) return 0;
    if (g->t[t].role == ROLE_CONST && g->t[t].data_bytes < ir_bytes(&g->t[t])) return 0;
    any = 1;
  }
  return any;
}

static int op_ok(const ir_graph *g, const ir_op *op) {
  const op_impl *impl = ops_find(g, op);
  char why[256];
  return impl && (!impl->check || impl->check(g, op, why, sizeof why) == 0);
}

/* Tries to lower the op at position *pos; on success inserts its casts and
 * moves *pos to the op's new position. Returns 1 if lowered, else 0. */
static int lower_one(lower_ctx *c, int *pos) {
  ir_graph *g = c->g;
  ir_op *op = &g->ops[*pos];
  const int nt0 = g->nt;
  int *old_in = op->in, *old_out = op->out;
  int *in = xcalloc((size_t)(op->nin > 0 ? op->nin : 1), sizeof(int));
  int *out = xcalloc((size_t)(op->nout > 0 ? op->nout : 1), sizeof(int));
  /* inputs needing a CAST in front: pairs (float16 tensor, float32 twin) */
  int *pre = xcalloc((size_t)(2 * op->nin + 2), sizeof(int));
  int npre = 0;
  int *undo = xcalloc((size_t)(op->nin + 1), sizeof(int));   /* twin entries set by this trial */
  int nundo = 0;
  for (int k = 0; k < op->nin; k++) {
    int t = old_in[k];
    in[k] = t;
    if (!is_f16(g, t)) continue;
    if (c->twin[t] < 0) {
      int n = g->t[t].role == ROLE_CONST ? add_f32_const(c, t) : add_f32_tensor(c, t);
      c->twin[t] = n;
      undo[nundo++] = t;
      if (g->t[t].role != ROLE_CONST) {
        pre[2 * npre] = t;
        pre[2 * npre + 1] = n;
        npre++;
      }
    }
    in[k] = c->twin[t];
  }
  for (int k = 0; k < op->nout; k++) {
    int t = old_out[k];
    out[k] = is_f16(g, t) ? add_f32_tensor(c, t) : t;
  }
  op = &g->ops[*pos];
  op->in = in;
  op->out = out;
  int ok = op_ok(g, op);
  if (!ok) {
    op->in = old_in;
    op->out = old_out;
    free(in);
    free(out);
    for (int u = 0; u < nundo; u++) c->twin[undo[u]] = -1;
    drop_tensors(c, nt0);
  } else {
    free(old_in);
    int nout = op->nout;
    for (int p = 0; p < npre; p++) insert_cast(c, (*pos)++, pre[2 * p], pre[2 * p + 1]);
    for (int k = 0, at = *pos + 1; k < nout; k++) {
      int t16 = old_out[k];
      int t32 = g->ops[*pos].out[k];
      if (t16 == t32) continue;
      insert_cast(c, at++, t32, t16);
      if (!c->keep_rounding) c->twin[t16] = t32;
    }
    free(old_out);
  }
  free(pre);
  free(undo);
  return ok;
}

int ir_lower_fp16_mode(ir_graph *g, int keep_f16_rounding, aotc_diag *d) {
  (void)d;
  lower_ctx c;
  memset(&c, 0, sizeof c);
  c.g = g;
  c.keep_rounding = keep_f16_rounding != 0;
  twin_reserve(&c);
  for (int i = 0; i < g->nops; i++)
    if (g->ops[i].id >= c.next_id) c.next_id = g->ops[i].id + 1;
  int changes = 0;
  for (int i = 0; i < g->nops; i++) {
    if (!candidate(g, &g->ops[i]) || op_ok(g, &g->ops[i])) continue;
    int pos = i;
    if (lower_one(&c, &pos)) {
      changes++;
      i = pos;   /* the output casts after it are skipped by candidate() */
    }
  }
  free(c.twin);
  if (changes) ir_mark_used(g);
  return changes;
}

int ir_lower_fp16(ir_graph *g, aotc_diag *d) { return ir_lower_fp16_mode(g, 1, d); }
