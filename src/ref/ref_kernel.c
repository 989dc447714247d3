/* ref_kernel.c - one operator with a kernel in the reference interpreter.
 *
 * The op runs through op_eval (a lowered operator's kernel calls through
 * the kernel table's host function pointers, else the operator's eval: the
 * same portable kernels the modules use), with the shared scratch buffer
 * filled with 0xA5 (a module's scratch is not zeroed either). Before it runs:
 *  - run-time shapes: an op whose input shapes differ from the declared
 *    ones, or whose outputs have a dynamic shape_signature, gets its output
 *    shapes from the operator's shape rule (ir_shape_rule, the rule of the
 *    static shape pass, here with every parameter read), like TFLite's
 *    Prepare; small int32/int64 parameter inputs computed at run time
 *    (RESHAPE's shape, SLICE's begin/size, ...) are presented to the op as
 *    constants, because at that point they are;
 *  - an op whose check() refuses it may still run: hybrid models (float op,
 *    int8/int16 constant weights) with the weights dequantized once (w =
 *    scale * (q - zero_point)), as aotc's compiler does (a warning says so),
 *    and float16 ops as float32 (ref_f16.c). */
#include "ref_f16.h"
#include "ref_internal.h"

#include <stdlib.h>
#include <string.h>

#include "../ops/ops.h"

static int read_ints(const rsg *r, int t, int64_t *v, int max) {
  if (t < 0) return -1;
  const ir_tensor *x = &r->g->t[t];
  size_t n = ir_numel(x);
  if ((int64_t)n > max) return -1;
  if (x->dtype == DT_INT32) {
    const int32_t *p = r->data[t];
    for (size_t i = 0; i < n; i++) v[i] = p[i];
  } else if (x->dtype == DT_INT64) {
    const int64_t *p = r->data[t];
    for (size_t i = 0; i < n; i++) v[i] = p[i];
  } else {
    return -1;
  }
  return (int)n;
}

/* ir_ints_fn over the run-time values of a subgraph's tensors. */
static int runtime_ints(const void *ctx, int t, int64_t *v, int max) { return read_ints(ctx, t, v, max); }

/* Inputs of op (by position) that are shape/index parameters: when computed at
 * run time they are presented to the op as constants. */
static int is_param_input(int builtin, int pos) {
  switch (builtin) {
    case OP_RESHAPE: case OP_TRANSPOSE: case OP_EXPAND_DIMS: case OP_TILE:
    case OP_BROADCAST_TO: case OP_PAD: case OP_PADV2: case OP_MIRROR_PAD: case OP_MEAN:
    case OP_SUM: case OP_REDUCE_MAX: case OP_REDUCE_MIN: case OP_REDUCE_PROD:
    case OP_REDUCE_ANY: case OP_REDUCE_ALL: case OP_REVERSE_V2: case OP_GATHER:
    case OP_RESIZE_BILINEAR: case OP_RESIZE_NEAREST_NEIGHBOR: case OP_ARG_MAX: case OP_ARG_MIN:
      return pos == 1;
    case OP_SLICE: case OP_STRIDED_SLICE:
      return pos >= 1;
    case OP_FILL:
      return pos == 0;
    case OP_SPLIT:
      return pos == 0;
    case OP_SPLIT_V:
      return pos >= 1;
    default:
      return 0;
  }
}

typedef struct saved_role {
  int t;
  ir_role role;
  const uint8_t *data;
  size_t bytes;
} saved_role;

/* Dequantizes the int8/int16 constant inputs of a float op (hybrid models).
 * Returns the number of tensors converted. */
static int dequantize_hybrid(rinst *I, rsg *r, const ir_op *op) {
  ir_graph *g = r->g;
  int have_float = 0;
  for (int i = 0; i < op->nin; i++)
    if (op->in[i] >= 0 && g->t[op->in[i]].dtype == DT_FLOAT32 && g->t[op->in[i]].role != ROLE_CONST)
      have_float = 1;
  for (int i = 0; i < op->nout; i++)
    if (op->out[i] >= 0 && g->t[op->out[i]].dtype != DT_FLOAT32) have_float = 0;
  if (!have_float) return 0;
  int nconv = 0;
  for (int i = 0; i < op->nin; i++) {
    int t = op->in[i];
    if (t < 0) continue;
    ir_tensor *x = &g->t[t];
    if (x->role != ROLE_CONST || x->nq == 0 || (x->dtype != DT_INT8 && x->dtype != DT_INT16))
      continue;
    size_t n = ir_numel(x);
    if (x->data_bytes < n * dtype_size(x->dtype)) continue;
    float *f = xcalloc(n ? n : 1, sizeof(float));
    /* channel index along qdim for per-channel scales */
    size_t inner = 1;
    for (int k = x->qdim + 1; k < x->rank; k++) inner *= (size_t)x->shape[k];
    int nch = x->nq;
    for (size_t e = 0; e < n; e++) {
      int c = nch > 1 ? (int)((e / inner) % (size_t)nch) : 0;
      int32_t q = x->dtype == DT_INT8 ? ((const int8_t *)x->data)[e] : ((const int16_t *)x->data)[e];
      f[e] = x->scale[c] * (float)(q - x->zero_point[c]);
    }
    ir_set_float_data(x, f, n);
    r->data[t] = f;
    nconv++;
  }
  if (nconv && !I->warned_hybrid) {
    I->warned_hybrid = 1;
    diag_warn(I->d, "hybrid model: int8 weights of float operators are dequantized (as aotc "
                    "compiles them); LiteRT's hybrid kernels quantize activations instead, so "
                    "results differ slightly");
  }
  return nconv;
}

int ref_run_kernel_op(rinst *I, rsg *r, ir_op *op) {
  ir_graph *g = r->g;
  char lbl[256], sl[96], why[256] = "";
  int s = g->sg;
  const op_impl *impl = ops_find(g, op);
  if (!impl || !op_has_eval(impl))
    return diag_unsupported(I->d, "%s %s: no %s for this operator in aotc's reference interpreter; to test a module of it give test.golden_data with expected outputs",
                            ref_sg_label(I, s, sl, sizeof sl), ref_op_label(g, op, lbl, sizeof lbl),
                            impl ? "evaluation" : "implementation");

  /* run-time shapes */
  int changed = 0, dyn_out = 0;
  for (int i = 0; i < op->nin; i++)
    if (op->in[i] >= 0 && !ref_is_declared(r, op->in[i])) changed = 1;
  for (int i = 0; i < op->nout; i++)
    if (op->out[i] >= 0 && r->ts[op->out[i]].dynsig) dyn_out = 1;
  if (changed || dyn_out) {
    ir_shape os[64];
    if (op->nout > 64)
      return diag_unsupported(I->d, "%s %s: too many outputs", ref_sg_label(I, s, sl, sizeof sl),
                              ref_op_label(g, op, lbl, sizeof lbl));
    memset(os, 0, sizeof(ir_shape) * (size_t)(op->nout > 0 ? op->nout : 1));
    int rc = ir_shape_rule(g, op, runtime_ints, r, 1, os, why, sizeof why);
    if (rc < 0)
      return diag_error(I->d, "%s %s: %s", ref_sg_label(I, s, sl, sizeof sl), ref_op_label(g, op, lbl, sizeof lbl), why);
    if (rc == 1 && changed) {
      char a[96] = "";
      for (int i = 0; i < op->nin; i++)
        if (op->in[i] >= 0 && !ref_is_declared(r, op->in[i])) {
          const ir_tensor *x = &g->t[op->in[i]];
          ref_shape_str(x->rank, x->shape, a, sizeof a);
          break;
        }
      return diag_unsupported(I->d,
                              "%s %s: an input has the run-time shape %s, different from the "
                              "model's; the reference interpreter has no shape rule for this "
                              "operator (dynamic shapes)",
                              ref_sg_label(I, s, sl, sizeof sl), ref_op_label(g, op, lbl, sizeof lbl), a);
    }
    if (rc == 0)
      for (int i = 0; i < op->nout; i++)
        if (op->out[i] >= 0 && ref_set_shape(I, r, op->out[i], os[i].rank, os[i].d)) return -1;
  } else {
    /* a previous run may have changed them */
    for (int i = 0; i < op->nout; i++) {
      int t = op->out[i];
      if (t >= 0 && !ref_is_declared(r, t) && ref_set_shape(I, r, t, r->ts[t].decl_rank, r->ts[t].decl_shape))
        return -1;
    }
  }

  /* run-time parameters seen as constants */
  saved_role sv[16];
  int nsv = 0;
  for (int i = 0; i < op->nin && nsv < 16; i++) {
    int t = op->in[i];
    if (t < 0 || !is_param_input(op->builtin, i)) continue;
    ir_tensor *x = &g->t[t];
    if (x->role == ROLE_CONST || (x->dtype != DT_INT32 && x->dtype != DT_INT64)) continue;
    sv[nsv++] = (saved_role){t, x->role, x->data, x->data_bytes};
    x->role = ROLE_CONST;
    x->data = r->data[t];
    x->data_bytes = ref_tbytes(x);
  }

  int rc = 0, ran_f16 = 0;
  if (impl->check && impl->check(g, op, why, sizeof why) != 0) {
    char why2[256];
    snprintf(why2, sizeof why2, "%s", why);
    int st = 0;
    if (dequantize_hybrid(I, r, op) > 0 && impl->check(g, op, why, sizeof why) == 0) {
      /* runs with dequantized weights */
    } else if (ref_f16_run(g, op, impl, r->data, &I->scratch, &I->scratch_cap, &st) == 0) {
      /* float16 op run as float32, results rounded to binary16 (ref_f16.c) */
      ran_f16 = 1;
      if (st != 0)
        rc = diag_error(I->d, "%s %s: kernel failed with status %d", ref_sg_label(I, s, sl, sizeof sl),
                        ref_op_label(g, op, lbl, sizeof lbl), st);
    } else {
      rc = diag_unsupported(I->d, "%s %s: %s", ref_sg_label(I, s, sl, sizeof sl),
                            ref_op_label(g, op, lbl, sizeof lbl), why2);
    }
  }
  if (rc == 0 && !ran_f16) {
    int all_empty = op->nout > 0;
    for (int i = 0; i < op->nout; i++)
      if (op->out[i] < 0 || ir_numel(&g->t[op->out[i]]) != 0) all_empty = 0;
    if (!all_empty) {
      size_t sb = impl->scratch ? impl->scratch(g, op) : 0;
      if (sb > I->scratch_cap) {
        free(I->scratch);
        I->scratch = xmalloc(sb);
        I->scratch_cap = sb;
      }
      /* scratch is not zeroed in a module either: make reliance on it visible */
      if (sb) memset(I->scratch, 0xA5, sb);
      for (int i = 0; i < op->nin; i++)
        if (op->in[i] >= 0 && g->t[op->in[i]].role == ROLE_PERSISTENT) I->mutations++;
      int st = op_eval(impl, g, op, r->data, sb ? I->scratch : NULL);
      if (st != 0)
        rc = diag_error(I->d, "%s %s: kernel failed with status %d", ref_sg_label(I, s, sl, sizeof sl),
                        ref_op_label(g, op, lbl, sizeof lbl), st);
    }
  }
  for (int i = nsv - 1; i >= 0; i--) {
    ir_tensor *x = &g->t[sv[i].t];
    x->role = sv[i].role;
    x->data = sv[i].data;
    x->data_bytes = sv[i].bytes;
  }
  return rc;
}
