/* ref.c - the host reference interpreter.
 *
 * Runs the ORIGINAL LiteRT model: every subgraph is converted with
 * ir_from_litert() and nothing else (no hooks, no transforms, no memory plan),
 * every tensor gets its own calloc'd buffer, constants point at the model's
 * buffers, and the operators run in model order through op_eval (a lowered
 * operator's kernel calls through the kernel table's host function pointers,
 * else the operator's eval: the same portable kernels the modules use).
 *
 * The interpreter implements itself what has no kernel:
 *  - control flow: WHILE, IF, CALL (nested up to IR_MAX_CALL_DEPTH
 *    subgraphs, no recursion) and CALL_ONCE (the init subgraph runs once per
 *    instance, on the first run after creation or reset); which wirings are
 *    valid is decided by ir_check_program (src/ir/verify_control.c), the
 *    check the compiler applies too;
 *  - resource variables: VAR_HANDLE gives one slot per (container,
 *    shared_name) pair, shared by every subgraph of the instance; a resource
 *    tensor holds slot+1 as an int32 (0: no handle); READ_VARIABLE before any
 *    ASSIGN_VARIABLE reads zeros in the read op's output shape and dtype;
 *  - variable tensors (is_variable, ROLE_PERSISTENT) keep their contents
 *    across runs and start at zero, int8 ones at their zero point (as
 *    TFLite's and TFLM's ResetVariableTensors do), or at their buffer's data
 *    when they have one;
 *  - run-time shapes: an op whose input shapes differ from the declared ones,
 *    or whose outputs have a dynamic shape_signature (-1), gets its output
 *    shapes computed before it runs (like TFLite's Prepare) by the
 *    operator's shape rule (ir_shape_rule, the same rule the static shape
 *    pass uses, here with every parameter read); small int32/int64 parameter
 *    inputs computed at run time (RESHAPE's shape, SLICE's begin/size, ...)
 *    are presented to the op as constants, because at that point they are.
 *    Anything else dynamic is a clear error.
 *
 * Hybrid models (float op, int8 constant weights) are run with the weights
 * dequantized once (w = scale * (q - zero_point)), as aotc's compiler does;
 * a warning says so.
 */
#include "ref_f16.h"
#include "ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/ir.h"
#include "../ir/verify_control.h"
#include "../ops/ops.h"

/* ---- instance ------------------------------------------------------------ */

typedef struct rsg {
  ir_graph *g;
  void **data;                  /* storage of each tensor (consts: model data) */
  size_t *cap;                  /* allocated bytes (0 for consts) */
  int *decl_rank;               /* declared shapes, to see run-time changes */
  int32_t (*decl_shape)[IR_MAX_RANK];
  uint8_t *dynsig;              /* shape_signature holds -1 (or rank unknown) */
  int active;                   /* running (recursion guard) */
} rsg;

typedef struct rvar {
  char *container, *name;
  int assigned;
  int dtype, rank;
  int32_t shape[IR_MAX_RANK];
  void *data;
  size_t bytes;
} rvar;

typedef struct rinst {
  const litert_model *m;
  rsg *sg;                      /* built on first use */
  int nsg;
  rvar *vars;
  int nvars;
  uint8_t *once_done;           /* per init subgraph */
  void *scratch;
  size_t scratch_cap;
  int depth;
  int warned_hybrid;
  unsigned long mutations;      /* writes to state (variables, variable tensors) */
  aotc_diag *d;
} rinst;

enum { MAX_DEPTH = IR_MAX_CALL_DEPTH };
static const long MAX_WHILE_ITERATIONS = 100000000L;

static size_t tbytes(const ir_tensor *t) {
  if (t->dtype == DT_RESOURCE) return sizeof(int32_t);
  return ir_bytes(t);
}

static const char *sg_label(const rinst *I, int s, char *buf, size_t n) {
  const char *nm = I->m->subgraphs[s].name;
  if (nm && *nm) snprintf(buf, n, "subgraph %d '%s'", s, nm);
  else snprintf(buf, n, "subgraph %d", s);
  return buf;
}

/* "op 3 (CONV_2D, int8 x int8 x int32 -> int8)" */
static const char *op_label(const ir_graph *g, const ir_op *op, char *buf, size_t n) {
  strbuf b = {0};
  sb_printf(&b, "op %d (%s", op->id,
            op->builtin == OP_CUSTOM && op->custom ? op->custom : litert_op_name(op->builtin));
  int first = 1;
  for (int i = 0; i < op->nin; i++) {
    if (op->in[i] < 0) continue;
    sb_printf(&b, "%s%s", first ? ", " : " x ", dtype_name(g->t[op->in[i]].dtype));
    first = 0;
  }
  sb_puts(&b, " ->");
  for (int i = 0; i < op->nout; i++)
    if (op->out[i] >= 0) sb_printf(&b, "%s%s", i ? ", " : " ", dtype_name(g->t[op->out[i]].dtype));
  if (op->nout == 0) sb_puts(&b, " none");
  sb_puts(&b, ")");
  snprintf(buf, n, "%s", b.s ? b.s : "op");
  sb_free(&b);
  return buf;
}

static void shape_str(int rank, const int32_t *shape, char *buf, size_t n) {
  size_t k = 0;
  k += (size_t)snprintf(buf + k, n - k, "[");
  for (int i = 0; i < rank && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, "%s%d", i ? ", " : "", shape[i]);
  if (k < n) snprintf(buf + k, n - k, "]");
}

static void init_persistent(rinst *I, rsg *r) {
  const litert_subgraph *sg = &I->m->subgraphs[r->g->sg];
  for (int t = 0; t < r->g->nt; t++) {
    ir_tensor *x = &r->g->t[t];
    if (x->role != ROLE_PERSISTENT) continue;
    /* back to the declared shape */
    x->rank = r->decl_rank[t];
    memcpy(x->shape, r->decl_shape[t], sizeof x->shape);
    size_t need = tbytes(x);
    if (need > r->cap[t]) {
      r->data[t] = xrealloc(r->data[t], need);
      r->cap[t] = need;
    }
    /* as TFLite and TFLM reset variable tensors: int8 ones to their zero
     * point, others to zero; a buffer, if present, gives the initial data */
    memset(r->data[t], (x->dtype == DT_INT8 && x->nq > 0) ? x->zero_point[0] : 0, r->cap[t]);
    const litert_tensor *lt = &sg->tensors[x->src_index];
    if (lt->buffer > 0 && (int)lt->buffer < I->m->nbuffers) {
      const litert_buffer *b = &I->m->buffers[lt->buffer];
      if (b->data && b->size > 0) memcpy(r->data[t], b->data, b->size < need ? b->size : need);
    }
  }
}

static rsg *get_sg(rinst *I, int s) {
  if (s < 0 || s >= I->nsg) {
    diag_error(I->d, "subgraph %d does not exist (model has %d)", s, I->nsg);
    return NULL;
  }
  rsg *r = &I->sg[s];
  if (r->g) return r;
  ir_graph *g = ir_from_litert(I->m, s, I->d);
  if (!g) return NULL;
  const litert_subgraph *sg = &I->m->subgraphs[s];
  int n = g->nt > 0 ? g->nt : 1;
  r->g = g;
  r->data = xcalloc((size_t)n, sizeof(void *));
  r->cap = xcalloc((size_t)n, sizeof(size_t));
  r->decl_rank = xcalloc((size_t)n, sizeof(int));
  r->decl_shape = xcalloc((size_t)n, sizeof *r->decl_shape);
  r->dynsig = xcalloc((size_t)n, 1);
  for (int t = 0; t < g->nt; t++) {
    ir_tensor *x = &g->t[t];
    const litert_tensor *lt = &sg->tensors[x->src_index];
    r->decl_rank[t] = x->rank;
    memcpy(r->decl_shape[t], x->shape, sizeof x->shape);
    /* rank unknown; or rank 0, which old converters also write for "unknown"
     * (a real scalar gets rank 0 from the shape rules again) */
    if (lt->rank <= 0 && x->role != ROLE_CONST) r->dynsig[t] = 1;
    if (lt->shape_signature)
      for (int k = 0; k < lt->rank; k++)
        if (lt->shape_signature[k] < 0) r->dynsig[t] = 1;
    if (x->role == ROLE_CONST) {
      r->data[t] = (void *)x->data;
    } else {
      size_t need = tbytes(x);
      r->data[t] = xcalloc(need ? need : 1, 1);
      r->cap[t] = need ? need : 1;
    }
  }
  init_persistent(I, r);
  return r;
}

static void free_vars(rinst *I) {
  for (int i = 0; i < I->nvars; i++) {
    free(I->vars[i].container);
    free(I->vars[i].name);
    free(I->vars[i].data);
  }
  free(I->vars);
  I->vars = NULL;
  I->nvars = 0;
}

/* Resets the state of the instance: variable tensors, resource variables,
 * CALL_ONCE. */
static void inst_reset(rinst *I) {
  for (int s = 0; s < I->nsg; s++)
    if (I->sg[s].g) init_persistent(I, &I->sg[s]);
  free_vars(I);
  memset(I->once_done, 0, (size_t)(I->nsg > 0 ? I->nsg : 1));
}

static rinst *inst_new(const litert_model *m, aotc_diag *d) {
  rinst *I = xcalloc(1, sizeof *I);
  I->m = m;
  I->d = d;
  I->nsg = m->nsubgraphs;
  I->sg = xcalloc((size_t)(I->nsg > 0 ? I->nsg : 1), sizeof(rsg));
  I->once_done = xcalloc((size_t)(I->nsg > 0 ? I->nsg : 1), 1);
  return I;
}

static void inst_free(rinst *I) {
  if (!I) return;
  for (int s = 0; s < I->nsg; s++) {
    rsg *r = &I->sg[s];
    if (!r->g) continue;
    for (int t = 0; t < r->g->nt; t++)
      if (r->cap[t]) free(r->data[t]);
    free(r->data);
    free(r->cap);
    free(r->decl_rank);
    free(r->decl_shape);
    free(r->dynsig);
    ir_free(r->g);
  }
  free(I->sg);
  free_vars(I);
  free(I->once_done);
  free(I->scratch);
  free(I);
}

/* ---- tensor shapes at run time ------------------------------------------- */

static int same_shape(int ra, const int32_t *a, int rb, const int32_t *b) {
  if (ra != rb) return 0;
  for (int i = 0; i < ra; i++)
    if (a[i] != b[i]) return 0;
  return 1;
}

static int is_declared(const rsg *r, int t) {
  const ir_tensor *x = &r->g->t[t];
  return same_shape(x->rank, x->shape, r->decl_rank[t], r->decl_shape[t]);
}

/* Gives tensor t a new shape (growing its buffer; new bytes zero). */
static int set_shape(rinst *I, rsg *r, int t, int rank, const int32_t *shape) {
  ir_tensor *x = &r->g->t[t];
  if (same_shape(x->rank, x->shape, rank, shape)) return 0;
  char a[96], b[96], l[64];
  if (rank > IR_MAX_RANK) return diag_unsupported(I->d, "%s: tensor %d '%s' would get rank %d", sg_label(I, r->g->sg, l, sizeof l), t, x->name, rank);
  for (int i = 0; i < rank; i++)
    if (shape[i] < 0) {
      shape_str(rank, shape, a, sizeof a);
      return diag_error(I->d, "%s: tensor %d '%s' would get the invalid shape %s",
                        sg_label(I, r->g->sg, l, sizeof l), t, x->name, a);
    }
  if (x->role == ROLE_CONST) {
    shape_str(x->rank, x->shape, a, sizeof a);
    shape_str(rank, shape, b, sizeof b);
    return diag_error(I->d, "%s: constant tensor %d '%s' %s cannot take the shape %s",
                      sg_label(I, r->g->sg, l, sizeof l), t, x->name, a, b);
  }
  x->rank = rank;
  for (int i = 0; i < IR_MAX_RANK; i++) x->shape[i] = i < rank ? shape[i] : 0;
  size_t need = tbytes(x);
  if (need > r->cap[t]) {
    r->data[t] = xrealloc(r->data[t], need);
    memset((uint8_t *)r->data[t] + r->cap[t], 0, need - r->cap[t]);
    r->cap[t] = need;
  }
  return 0;
}

/* Reads up to max int32/int64 values of tensor t. Returns the count or -1. */
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

/* ---- operator execution ---------------------------------------------------- */

static int run_subgraph(rinst *I, int s);

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
    free(x->owned_data);
    x->owned_data = (uint8_t *)f;
    x->data = x->owned_data;
    x->data_bytes = n * sizeof(float);
    x->dtype = DT_FLOAT32;
    x->nq = 0;
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

static int run_kernel_op(rinst *I, rsg *r, ir_op *op) {
  ir_graph *g = r->g;
  char lbl[256], sl[96], why[256] = "";
  int s = g->sg;
  const op_impl *impl = ops_find(g, op);
  if (!impl || !op_has_eval(impl))
    return diag_unsupported(I->d, "%s %s: no %s for this operator in aotc's reference interpreter; to test a module of it give test.golden_data with expected outputs",
                            sg_label(I, s, sl, sizeof sl), op_label(g, op, lbl, sizeof lbl),
                            impl ? "evaluation" : "implementation");

  /* run-time shapes */
  int changed = 0, dyn_out = 0;
  for (int i = 0; i < op->nin; i++)
    if (op->in[i] >= 0 && !is_declared(r, op->in[i])) changed = 1;
  for (int i = 0; i < op->nout; i++)
    if (op->out[i] >= 0 && r->dynsig[op->out[i]]) dyn_out = 1;
  if (changed || dyn_out) {
    ir_shape os[64];
    if (op->nout > 64)
      return diag_unsupported(I->d, "%s %s: too many outputs", sg_label(I, s, sl, sizeof sl),
                              op_label(g, op, lbl, sizeof lbl));
    memset(os, 0, sizeof(ir_shape) * (size_t)(op->nout > 0 ? op->nout : 1));
    int rc = ir_shape_rule(g, op, runtime_ints, r, 1, os, why, sizeof why);
    if (rc < 0)
      return diag_error(I->d, "%s %s: %s", sg_label(I, s, sl, sizeof sl), op_label(g, op, lbl, sizeof lbl), why);
    if (rc == 1 && changed) {
      char a[96] = "";
      for (int i = 0; i < op->nin; i++)
        if (op->in[i] >= 0 && !is_declared(r, op->in[i])) {
          const ir_tensor *x = &g->t[op->in[i]];
          shape_str(x->rank, x->shape, a, sizeof a);
          break;
        }
      return diag_unsupported(I->d,
                              "%s %s: an input has the run-time shape %s, different from the "
                              "model's; the reference interpreter has no shape rule for this "
                              "operator (dynamic shapes)",
                              sg_label(I, s, sl, sizeof sl), op_label(g, op, lbl, sizeof lbl), a);
    }
    if (rc == 0)
      for (int i = 0; i < op->nout; i++)
        if (op->out[i] >= 0 && set_shape(I, r, op->out[i], os[i].rank, os[i].d)) return -1;
  } else {
    /* a previous run may have changed them */
    for (int i = 0; i < op->nout; i++) {
      int t = op->out[i];
      if (t >= 0 && !is_declared(r, t) && set_shape(I, r, t, r->decl_rank[t], r->decl_shape[t]))
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
    x->data_bytes = tbytes(x);
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
        rc = diag_error(I->d, "%s %s: kernel failed with status %d", sg_label(I, s, sl, sizeof sl),
                        op_label(g, op, lbl, sizeof lbl), st);
    } else {
      rc = diag_unsupported(I->d, "%s %s: %s", sg_label(I, s, sl, sizeof sl),
                            op_label(g, op, lbl, sizeof lbl), why2);
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
        rc = diag_error(I->d, "%s %s: kernel failed with status %d", sg_label(I, s, sl, sizeof sl),
                        op_label(g, op, lbl, sizeof lbl), st);
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

/* A value carried between subgraphs (WHILE loop variables, IF/CALL I/O). */
typedef struct rval {
  int dtype, rank;
  int32_t shape[IR_MAX_RANK];
  size_t bytes;
  void *data;
} rval;

static void val_from_tensor(const rsg *r, int t, rval *v) {
  const ir_tensor *x = &r->g->t[t];
  v->dtype = x->dtype;
  v->rank = x->rank;
  memcpy(v->shape, x->shape, sizeof v->shape);
  v->bytes = tbytes(x);
  free(v->data);
  v->data = xmalloc(v->bytes ? v->bytes : 1);
  if (v->bytes) memcpy(v->data, r->data[t], v->bytes);
}

static int val_to_tensor(rinst *I, rsg *r, int t, const rval *v, const char *what) {
  ir_tensor *x = &r->g->t[t];
  char sl[96];
  if (x->dtype != v->dtype)
    return diag_error(I->d, "%s: %s: tensor %d '%s' is %s but receives %s", sg_label(I, r->g->sg, sl, sizeof sl),
                      what, t, x->name, dtype_name(x->dtype), dtype_name(v->dtype));
  if (x->role == ROLE_CONST) {
    if (v->bytes != tbytes(x) || memcmp(r->data[t], v->data, v->bytes) != 0)
      return diag_error(I->d, "%s: %s: constant tensor %d '%s' would be overwritten",
                        sg_label(I, r->g->sg, sl, sizeof sl), what, t, x->name);
    return 0;
  }
  if (set_shape(I, r, t, v->rank, v->shape)) return -1;
  if (v->bytes) memcpy(r->data[t], v->data, v->bytes);
  return 0;
}

static void vals_free(rval *v, int n) {
  for (int i = 0; i < n; i++) free(v[i].data);
  free(v);
}

/* Runs subgraph s with its inputs taken from vals (n of them); afterwards
 * vals holds its outputs (nout of them, vals sized for max(n, nout)). */
static int call_subgraph(rinst *I, int s, rval *vals, int n, int nout_expected, const char *what) {
  rsg *r = get_sg(I, s);
  if (!r) return -1;
  char sl[96];
  const ir_graph *g = r->g;
  if (g->nin != n && nout_expected < 0)
    return diag_error(I->d, "%s: %s passes %d inputs, the subgraph has %d; the model is malformed, re-export it",
                      sg_label(I, s, sl, sizeof sl), what, n, g->nin);
  if (g->nin != n || (nout_expected >= 0 && g->nout != nout_expected))
    return diag_error(I->d, "%s: %s passes %d inputs and expects %d outputs, the subgraph has %d and %d",
                      sg_label(I, s, sl, sizeof sl), what, n, nout_expected, g->nin, g->nout);
  for (int i = 0; i < n; i++)
    if (val_to_tensor(I, r, g->inputs[i], &vals[i], what)) return -1;
  if (run_subgraph(I, s)) return -1;
  for (int i = 0; i < g->nout; i++) val_from_tensor(r, g->outputs[i], &vals[i]);
  return 0;
}

static int run_while(rinst *I, rsg *r, const ir_op *op) {
  int n = op->nin;
  char lbl[256], sl[96];
  const ir_graph *g = r->g;
  int cs = op->opts.cond_subgraph, bs = op->opts.body_subgraph;
  if (op->nout != n)
    return diag_error(I->d, "%s %s: %d inputs but %d outputs", sg_label(I, g->sg, sl, sizeof sl),
                      op_label(g, op, lbl, sizeof lbl), n, op->nout);
  rsg *rc = get_sg(I, cs), *rb = get_sg(I, bs);
  if (!rc || !rb) return -1;
  r = &I->sg[g->sg];  /* I->sg is stable (allocated once) */
  if (rc->g->nout != 1 || rc->g->nin != n || rb->g->nin != n || rb->g->nout != n)
    return diag_error(I->d, "%s %s: cond subgraph %d (%d in, %d out) / body subgraph %d (%d in, %d out) do not match %d loop variables",
                      sg_label(I, g->sg, sl, sizeof sl), op_label(g, op, lbl, sizeof lbl), cs,
                      rc->g->nin, rc->g->nout, bs, rb->g->nin, rb->g->nout, n);
  rval *vals = xcalloc((size_t)(n + 1), sizeof(rval));
  rval *cv = xcalloc((size_t)(n + 1), sizeof(rval));
  for (int i = 0; i < n; i++) {
    if (op->in[i] < 0) {
      vals_free(vals, n);
      vals_free(cv, n);
      return diag_error(I->d, "%s %s: loop variable %d absent", sg_label(I, g->sg, sl, sizeof sl),
                        op_label(g, op, lbl, sizeof lbl), i);
    }
    val_from_tensor(r, op->in[i], &vals[i]);
  }
  int ret = 0;
  for (long it = 0;; it++) {
    if (it >= MAX_WHILE_ITERATIONS) {
      ret = diag_error(I->d, "%s %s: more than %ld iterations", sg_label(I, g->sg, sl, sizeof sl),
                       op_label(g, op, lbl, sizeof lbl), MAX_WHILE_ITERATIONS);
      break;
    }
    /* cond gets copies (its outputs replace cv[0]) */
    for (int i = 0; i < n; i++) {
      cv[i].dtype = vals[i].dtype;
      cv[i].rank = vals[i].rank;
      memcpy(cv[i].shape, vals[i].shape, sizeof cv[i].shape);
      cv[i].bytes = vals[i].bytes;
      free(cv[i].data);
      cv[i].data = xmalloc(vals[i].bytes ? vals[i].bytes : 1);
      if (vals[i].bytes) memcpy(cv[i].data, vals[i].data, vals[i].bytes);
    }
    if (call_subgraph(I, cs, cv, n, 1, "WHILE condition")) {
      ret = -1;
      break;
    }
    int go = 0;
    const rval *c = &cv[0];
    if (c->bytes == 0) {
      ret = diag_error(I->d, "%s %s: condition output is empty", sg_label(I, g->sg, sl, sizeof sl),
                       op_label(g, op, lbl, sizeof lbl));
      break;
    }
    switch (c->dtype) {
      case DT_BOOL: case DT_INT8: case DT_UINT8: go = *(const uint8_t *)c->data != 0; break;
      case DT_INT16: go = *(const int16_t *)c->data != 0; break;
      case DT_INT32: go = *(const int32_t *)c->data != 0; break;
      case DT_INT64: go = *(const int64_t *)c->data != 0; break;
      case DT_FLOAT32: go = *(const float *)c->data != 0.0f; break;
      default:
        ret = diag_error(I->d, "%s %s: condition is %s", sg_label(I, g->sg, sl, sizeof sl),
                         op_label(g, op, lbl, sizeof lbl), dtype_name(c->dtype));
    }
    if (ret || !go) break;
    unsigned long mut0 = I->mutations;
    if (call_subgraph(I, bs, vals, n, n, "WHILE body")) {
      ret = -1;
      break;
    }
    /* every op is deterministic: if the body changed no loop variable and
     * no state, the loop never ends (LiteRT would hang) */
    rb = &I->sg[bs];
    int same = I->mutations == mut0;
    for (int i = 0; i < n && same; i++) {
      int t = rb->g->inputs[i];
      const ir_tensor *x = &rb->g->t[t];
      if (!same_shape(x->rank, x->shape, vals[i].rank, vals[i].shape) ||
          tbytes(x) != vals[i].bytes || memcmp(rb->data[t], vals[i].data, vals[i].bytes) != 0)
        same = 0;
    }
    if (same) {
      ret = diag_error(I->d, "%s %s: the loop never ends (iteration %ld changed no loop variable)",
                       sg_label(I, g->sg, sl, sizeof sl), op_label(g, op, lbl, sizeof lbl), it + 1);
      break;
    }
  }
  for (int i = 0; i < n && ret == 0; i++)
    if (op->out[i] >= 0) ret = val_to_tensor(I, r, op->out[i], &vals[i], "WHILE output");
  vals_free(vals, n);
  vals_free(cv, n + 1);  /* cv[0] holds the condition even with no loop variables */
  return ret;
}

/* IF (input 0 is the condition) and CALL: the other inputs go to the chosen
 * subgraph, its outputs are the op's outputs. */
static int run_call(rinst *I, rsg *r, const ir_op *op, int s, int first_in, const char *what) {
  const ir_graph *g = r->g;
  int n = op->nin - first_in;
  int cap = n > op->nout ? n : op->nout;
  rval *vals = xcalloc((size_t)(cap + 1), sizeof(rval));
  char lbl[256], sl[96];
  int ret = 0;
  for (int i = 0; i < n && ret == 0; i++) {
    int t = op->in[first_in + i];
    if (t < 0)
      ret = diag_error(I->d, "%s %s: input %d absent", sg_label(I, g->sg, sl, sizeof sl),
                       op_label(g, op, lbl, sizeof lbl), first_in + i);
    else val_from_tensor(r, t, &vals[i]);
  }
  if (ret == 0 && call_subgraph(I, s, vals, n, op->nout, what)) ret = -1;
  r = &I->sg[g->sg];
  for (int i = 0; i < op->nout && ret == 0; i++)
    if (op->out[i] >= 0) ret = val_to_tensor(I, r, op->out[i], &vals[i], what);
  vals_free(vals, cap);
  return ret;
}

static int run_if(rinst *I, rsg *r, const ir_op *op) {
  char lbl[256], sl[96];
  const ir_graph *g = r->g;
  if (op->nin < 1 || op->in[0] < 0)
    return diag_error(I->d, "%s %s: no condition", sg_label(I, g->sg, sl, sizeof sl), op_label(g, op, lbl, sizeof lbl));
  const ir_tensor *c = &g->t[op->in[0]];
  const void *p = r->data[op->in[0]];
  int go;
  if (ir_numel(c) == 0)
    return diag_error(I->d, "%s %s: empty condition", sg_label(I, g->sg, sl, sizeof sl), op_label(g, op, lbl, sizeof lbl));
  switch (c->dtype) {
    case DT_BOOL: case DT_INT8: case DT_UINT8: go = *(const uint8_t *)p != 0; break;
    case DT_INT16: go = *(const int16_t *)p != 0; break;
    case DT_INT32: go = *(const int32_t *)p != 0; break;
    case DT_INT64: go = *(const int64_t *)p != 0; break;
    case DT_FLOAT32: go = *(const float *)p != 0.0f; break;
    default:
      return diag_error(I->d, "%s %s: condition is %s", sg_label(I, g->sg, sl, sizeof sl),
                        op_label(g, op, lbl, sizeof lbl), dtype_name(c->dtype));
  }
  return run_call(I, r, op, go ? op->opts.then_subgraph : op->opts.else_subgraph, 1,
                  go ? "IF then-branch" : "IF else-branch");
}

/* ---- resource variables ---------------------------------------------------- */

static int var_slot(rinst *I, const char *container, const char *name) {
  const char *c = container ? container : "", *nm = name ? name : "";
  for (int i = 0; i < I->nvars; i++)
    if (strcmp(I->vars[i].container, c) == 0 && strcmp(I->vars[i].name, nm) == 0) return i;
  I->vars = xrealloc(I->vars, (size_t)(I->nvars + 1) * sizeof(rvar));
  rvar *v = &I->vars[I->nvars];
  memset(v, 0, sizeof *v);
  v->container = xstrdup(c);
  v->name = xstrdup(nm);
  return I->nvars++;
}

static rvar *handle_var(rinst *I, rsg *r, const ir_op *op, int t) {
  char lbl[256], sl[96];
  const ir_graph *g = r->g;
  if (t < 0 || g->t[t].dtype != DT_RESOURCE) {
    diag_error(I->d, "%s %s: input 0 is not a resource tensor", sg_label(I, g->sg, sl, sizeof sl),
               op_label(g, op, lbl, sizeof lbl));
    return NULL;
  }
  int32_t h = *(const int32_t *)r->data[t];
  if (h <= 0 || h > I->nvars) {
    diag_error(I->d, "%s %s: resource tensor %d '%s' holds no variable handle (no VAR_HANDLE ran for it)",
               sg_label(I, g->sg, sl, sizeof sl), op_label(g, op, lbl, sizeof lbl), t, g->t[t].name);
    return NULL;
  }
  return &I->vars[h - 1];
}

static int run_var_op(rinst *I, rsg *r, const ir_op *op) {
  char lbl[256], sl[96];
  const ir_graph *g = r->g;
  if (op->builtin == OP_VAR_HANDLE) {
    if (op->nout < 1 || op->out[0] < 0 || g->t[op->out[0]].dtype != DT_RESOURCE)
      return diag_error(I->d, "%s %s: output is not a resource tensor", sg_label(I, g->sg, sl, sizeof sl),
                        op_label(g, op, lbl, sizeof lbl));
    int slot = var_slot(I, op->opts.container, op->opts.shared_name);
    *(int32_t *)r->data[op->out[0]] = slot + 1;
    return 0;
  }
  if (op->nin < 1) return diag_error(I->d, "%s %s: no resource input", sg_label(I, g->sg, sl, sizeof sl), op_label(g, op, lbl, sizeof lbl));
  rvar *v = handle_var(I, r, op, op->in[0]);
  if (!v) return -1;
  if (op->builtin == OP_READ_VARIABLE) {
    if (op->nout < 1 || op->out[0] < 0)
      return diag_error(I->d, "%s %s: no output", sg_label(I, g->sg, sl, sizeof sl), op_label(g, op, lbl, sizeof lbl));
    int t = op->out[0];
    const ir_tensor *x = &g->t[t];
    if (!v->assigned) {
      /* never assigned: zeros of the read op's shape and dtype */
      if (set_shape(I, r, t, r->decl_rank[t], r->decl_shape[t])) return -1;
      memset(r->data[t], 0, tbytes(x));
      return 0;
    }
    if (v->dtype != x->dtype)
      return diag_error(I->d, "%s %s: variable '%s' holds %s, the read expects %s",
                        sg_label(I, g->sg, sl, sizeof sl), op_label(g, op, lbl, sizeof lbl), v->name,
                        dtype_name(v->dtype), dtype_name(x->dtype));
    if (set_shape(I, r, t, v->rank, v->shape)) return -1;
    memcpy(r->data[t], v->data, v->bytes);
    return 0;
  }
  /* ASSIGN_VARIABLE */
  if (op->nin < 2 || op->in[1] < 0)
    return diag_error(I->d, "%s %s: no value input", sg_label(I, g->sg, sl, sizeof sl), op_label(g, op, lbl, sizeof lbl));
  int t = op->in[1];
  const ir_tensor *x = &g->t[t];
  if (dtype_size(x->dtype) == 0)
    return diag_unsupported(I->d, "%s %s: variables of type %s not supported", sg_label(I, g->sg, sl, sizeof sl),
                            op_label(g, op, lbl, sizeof lbl), dtype_name(x->dtype));
  size_t b = tbytes(x);
  if (b > v->bytes || !v->data) {
    free(v->data);
    v->data = xmalloc(b ? b : 1);
  }
  v->bytes = b;
  v->dtype = x->dtype;
  v->rank = x->rank;
  memcpy(v->shape, x->shape, sizeof v->shape);
  memcpy(v->data, r->data[t], b);
  v->assigned = 1;
  I->mutations++;
  return 0;
}

/* ---- subgraphs -------------------------------------------------------------- */

static int run_subgraph(rinst *I, int s) {
  rsg *r = get_sg(I, s);
  if (!r) return -1;
  char sl[96], lbl[256];
  if (r->active)
    return diag_unsupported(I->d, "%s is invoked recursively (it runs while already running); a microcontroller module needs a call tree, re-export the model without recursion",
                            sg_label(I, s, sl, sizeof sl));
  if (I->depth >= MAX_DEPTH)
    return diag_unsupported(I->d, "%s: subgraph calls nested deeper than %d", sg_label(I, s, sl, sizeof sl), MAX_DEPTH);
  r->active = 1;
  I->depth++;
  int rc = 0;
  for (int i = 0; i < r->g->nops && rc == 0; i++) {
    ir_op *op = &r->g->ops[i];
    switch (op->builtin) {
      case OP_WHILE:
        rc = run_while(I, r, op);
        break;
      case OP_IF:
        rc = run_if(I, r, op);
        break;
      case OP_CALL:
        rc = run_call(I, r, op, op->opts.subgraph, 0, "CALL");
        break;
      case OP_CALL_ONCE: {
        int is = op->opts.init_subgraph;
        if (is < 0 || is >= I->nsg) {
          rc = diag_error(I->d, "%s %s: init subgraph %d does not exist", sg_label(I, s, sl, sizeof sl),
                          op_label(r->g, op, lbl, sizeof lbl), is);
          break;
        }
        if (!I->once_done[is]) {
          rval dummy = {0};
          rc = call_subgraph(I, is, &dummy, 0, -1, "CALL_ONCE");
          free(dummy.data);
          if (rc == 0) I->once_done[is] = 1;
        }
        break;
      }
      case OP_VAR_HANDLE: case OP_READ_VARIABLE: case OP_ASSIGN_VARIABLE:
        rc = run_var_op(I, r, op);
        break;
      default:
        rc = run_kernel_op(I, r, op);
    }
    r = &I->sg[s];
  }
  I->depth--;
  r->active = 0;
  return rc;
}

/* ---- ref_run ------------------------------------------------------------------ */

static int in_list(const int *v, int n, int x) {
  for (int i = 0; i < n; i++)
    if (v[i] == x) return 1;
  return 0;
}

/* Copies step `step` of input i into the model's input tensor. */
static void load_input(rsg *r, int i, const npy_array *a, int step) {
  int t = r->g->inputs[i];
  size_t per = tbytes(&r->g->t[t]);
  memcpy(r->data[t], (const uint8_t *)a->data + (size_t)step * per, per);
}

int ref_run(const litert_model *m, const npy_array *inputs, int nin, const ref_options *o,
            npy_array **outputs, int *nout, aotc_diag *d) {
  *outputs = NULL;
  *nout = 0;
  ref_options defo = {1, 0, NULL, 0, 0, NULL};
  if (!o) o = &defo;
  if (!m || m->nsubgraphs < 1) return diag_error(d, "model has no subgraphs");
  /* the validity rules the compiler applies (src/ir/verify_control.c) */
  if (ir_check_program(m, d) != 0) return -1;
  int iters = o->iterations > 0 ? o->iterations : 1;
  rinst *I = inst_new(m, d);
  rsg *r = get_sg(I, 0);
  npy_array *outs = NULL;
  int rc = 0, steps = 1;
  uint8_t *fed = NULL;
  if (!r) {
    inst_free(I);
    return -1;
  }
  ir_graph *g = r->g;
  if (nin != g->nin) {
    rc = diag_error(d, "model has %d inputs, %d given", g->nin, nin);
    goto done;
  }
  /* inputs: dtype, steps, shape */
  for (int i = 0; i < nin && rc == 0; i++) {
    const npy_array *a = &inputs[i];
    int t = g->inputs[i];
    ir_tensor *x = &g->t[t];
    char want[96], got[96];
    if (a->dtype != x->dtype) {
      rc = diag_error(d, "input %d '%s': got %s data, the model expects %s", i, x->name,
                      dtype_name(a->dtype), dtype_name(x->dtype));
      break;
    }
    int lead = 0, st = 1;
    if (o->sequence) {
      if (a->rank < 1) {
        rc = diag_error(d, "input %d '%s': sequence mode needs a leading steps axis", i, x->name);
        break;
      }
      lead = 1;
      st = (int)a->shape[0];
      if (i == 0) steps = st;
      else if (st != steps) {
        rc = diag_error(d, "input %d '%s' has %d steps, input 0 has %d", i, x->name, st, steps);
        break;
      }
    }
    int32_t ash[NPY_MAX_RANK];
    int arank = a->rank - lead;
    for (int k = 0; k < arank; k++) ash[k] = (int32_t)a->shape[k + lead];
    size_t per = st > 0 ? a->nbytes / (size_t)st : 0;
    if (per != tbytes(x)) {
      /* a run-time shape where the signature allows it */
      int ok = r->dynsig[t] && arank == x->rank;
      const litert_tensor *lt = &m->subgraphs[0].tensors[x->src_index];
      for (int k = 0; ok && k < arank; k++)
        if (ash[k] != x->shape[k] && !(lt->shape_signature && lt->shape_signature[k] < 0)) ok = 0;
      if (ok) {
        rc = set_shape(I, r, t, arank, ash);  /* ops reading it infer their shapes */
      } else {
        shape_str(x->rank, x->shape, want, sizeof want);
        shape_str(arank, ash, got, sizeof got);
        rc = diag_error(d, "input %d '%s': got shape %s (%zu bytes%s), the model expects %s (%zu bytes)",
                        i, x->name, got, per, o->sequence ? " per step" : "", want, tbytes(x));
      }
    }
  }
  if (rc) goto done;
  if (steps < 1) {
    rc = diag_error(d, "sequence mode: inputs have 0 steps");
    goto done;
  }
  fed = xcalloc((size_t)(g->nin + 1), 1);
  for (int k = 0; k < o->nfeedback; k++) {
    int oo = o->feedback[k][0], ii = o->feedback[k][1];
    if (oo < 0 || oo >= g->nout || ii < 0 || ii >= g->nin) {
      rc = diag_error(d, "state feedback %d:%d: the model has %d outputs and %d inputs", oo, ii,
                      g->nout, g->nin);
      goto done;
    }
    const ir_tensor *to = &g->t[g->outputs[oo]], *ti = &g->t[g->inputs[ii]];
    if (to->dtype != ti->dtype) {
      rc = diag_error(d, "state feedback %d:%d: output '%s' is %s, input '%s' is %s", oo, ii,
                      to->name, dtype_name(to->dtype), ti->name, dtype_name(ti->dtype));
      goto done;
    }
    if (fed[ii]) {
      rc = diag_error(d, "state feedback: input %d receives two outputs", ii);
      goto done;
    }
    fed[ii] = 1;
  }
  outs = xcalloc((size_t)(g->nout + 1), sizeof(npy_array));
  uint8_t **snap = xcalloc((size_t)(o->nfeedback + 1), sizeof(uint8_t *));
  for (int step = 0; step < steps && rc == 0; step++) {
    int reset_step = o->sequence && step > 0 && in_list(o->resets, o->nresets, step);
    if (reset_step) inst_reset(I);
    for (int it = 0; it < iters && rc == 0; it++) {
      r = &I->sg[0];
      for (int i = 0; i < g->nin; i++) {
        /* fed inputs take the given value first and after a reset */
        if (fed[i] && !(step == 0 && it == 0) && !reset_step) continue;
        load_input(r, i, &inputs[i], o->sequence ? step : 0);
      }
      reset_step = 0;
      if (run_subgraph(I, 0)) {
        rc = -1;
        break;
      }
      r = &I->sg[0];
      /* state feedback: snapshot every fed output first, then copy */
      for (int k = 0; k < o->nfeedback && rc == 0; k++) {
        int ot = g->outputs[o->feedback[k][0]], itn = g->inputs[o->feedback[k][1]];
        size_t ob = tbytes(&g->t[ot]), ib = tbytes(&g->t[itn]);
        if (ob != ib) {
          rc = diag_error(d, "state feedback %d:%d: output '%s' has %zu bytes, input '%s' %zu",
                          o->feedback[k][0], o->feedback[k][1], g->t[ot].name, ob, g->t[itn].name, ib);
          break;
        }
        free(snap[k]);
        snap[k] = xmalloc(ob ? ob : 1);
        memcpy(snap[k], r->data[ot], ob);
      }
      for (int k = 0; k < o->nfeedback && rc == 0; k++) {
        int itn = g->inputs[o->feedback[k][1]];
        memcpy(r->data[itn], snap[k], tbytes(&g->t[itn]));
      }
    }
    if (rc) break;
    /* collect the outputs of this step */
    for (int i = 0; i < g->nout && rc == 0; i++) {
      int t = g->outputs[i];
      const ir_tensor *x = &g->t[t];
      size_t b = tbytes(x);
      if (dtype_size(x->dtype) == 0) {
        rc = diag_unsupported(d, "output %d '%s' is %s", i, x->name, dtype_name(x->dtype));
        break;
      }
      if (step == 0) {
        int64_t sh[NPY_MAX_RANK + 1];
        int k = 0;
        if (o->sequence) sh[k++] = steps;
        for (int j = 0; j < x->rank && k < NPY_MAX_RANK; j++) sh[k++] = x->shape[j];
        char name[32];
        snprintf(name, sizeof name, "output_%d", i);
        if (npy_init(&outs[i], name, x->dtype, k, sh, NULL, d)) {
          rc = -1;
          break;
        }
      }
      if (outs[i].nbytes != b * (size_t)(o->sequence ? steps : 1)) {
        rc = diag_error(d, "output %d '%s' changed size between steps", i, x->name);
        break;
      }
      memcpy((uint8_t *)outs[i].data + (size_t)(o->sequence ? step : 0) * b, r->data[t], b);
    }
  }
  for (int k = 0; k < o->nfeedback; k++) free(snap[k]);
  free(snap);
done:
  free(fed);
  if (rc == 0) {
    *outputs = outs;
    *nout = g->nout;
  } else if (outs) {
    npz_free(outs, g->nout);
  }
  inst_free(I);
  return rc ? -1 : 0;
}
