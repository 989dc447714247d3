/* op_recurrent.c - SVDF, UNIDIRECTIONAL_SEQUENCE_LSTM and the custom GRU.
 *
 * Every operator here keeps recurrent state in variable tensors
 * (ROLE_PERSISTENT) that its kernel updates in place. Parameters are computed
 * once by a *_prepare() helper shared by emit() and eval(). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_recurrent.h"
#include "ops.h"

/* ---- small helpers ------------------------------------------------------ */

static int in_id(const ir_op *op, int i) { return i < op->nin ? op->in[i] : -1; }

/* Owned copy of emit_ptr (or "NULL" for an absent tensor). */
static char *ptr_dup(emit_ctx *e, int t) { return xstrdup(t >= 0 ? emit_ptr(e, t) : "NULL"); }

__attribute__((unused)) static char *float_dup(emit_ctx *e, float v) { return xstrdup(emit_float(e, v)); }

static int why_set(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int why_set(char *why, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, n, fmt, ap);
  va_end(ap);
  return -1;
}

static int per_tensor_q(const ir_tensor *t) { return t && t->nq == 1; }

static int has_zero_zp(const ir_tensor *t) {
  for (int i = 0; i < t->nq; i++)
    if (t->zero_point[i] != 0) return 0;
  return 1;
}

static int act_code_ok(int act) {
  return act == ACT_NONE || act == ACT_RELU || act == ACT_RELU_N1_TO_1 || act == ACT_RELU6 ||
         act == ACT_TANH;
}

/* ======================================================================== */
/* SVDF                                                                      */
/* ======================================================================== */

enum { SVDF_F32, SVDF_S8_S16, SVDF_S8_S8 };

static int svdf_kind(const ir_graph *g, const ir_op *op) {
  const ir_tensor *x = ir_in(g, op, 0);
  const ir_tensor *wt = ir_in(g, op, 2);
  if (x && x->dtype == DT_FLOAT32) return SVDF_F32;
  if (wt && wt->dtype == DT_INT16) return SVDF_S8_S16;
  return SVDF_S8_S8;
}

static int svdf_check(const ir_graph *g, const ir_op *op, char *why, size_t n) {
  if (op->nin < 5 || op->nout < 1) return why_set(why, n, "SVDF needs 5 inputs and 1 output");
  const ir_tensor *x = ir_in(g, op, 0), *wf = ir_in(g, op, 1), *wt = ir_in(g, op, 2);
  const ir_tensor *bias = ir_in(g, op, 3), *st = ir_in(g, op, 4), *out = ir_out(g, op, 0);
  if (!x || !wf || !wt || !st || !out)
    return why_set(why, n, "SVDF input, weights_feature, weights_time and state are required");
  if (x->rank != 2 || wf->rank != 2 || wt->rank != 2 || st->rank != 2 || out->rank != 2)
    return why_set(why, n, "SVDF tensors must be 2-D (input, weights, state, output)");
  int rank = op->opts.rank;
  int nb = x->shape[0], ni = x->shape[1];
  int nf = wf->shape[0], nm = wt->shape[1];
  if (rank < 1) return why_set(why, n, "SVDF rank %d must be >= 1", rank);
  if ((long)st->shape[1] != (long)nm * nf)
    return why_set(why, n,
                   "SVDF state tensor has %d values per batch but memory_size x num_filters "
                   "is %d x %d = %ld (weights_time dim 1 x weights_feature dim 0)",
                   st->shape[1], nm, nf, (long)nm * nf);
  if (nf % rank != 0)
    return why_set(why, n, "SVDF num_filters %d is not a multiple of rank %d", nf, rank);
  int nu = nf / rank;
  if (wf->shape[1] != ni)
    return why_set(why, n, "SVDF weights_feature has %d columns, input has %d", wf->shape[1], ni);
  if (wt->shape[0] != nf)
    return why_set(why, n, "SVDF weights_time has %d rows, num_filters is %d", wt->shape[0], nf);
  if (st->shape[0] != nb)
    return why_set(why, n, "SVDF state batch %d differs from input batch %d", st->shape[0], nb);
  if (out->shape[0] != nb || out->shape[1] != nu)
    return why_set(why, n, "SVDF output shape [%d, %d] differs from [batch %d, num_units %d]",
                   out->shape[0], out->shape[1], nb, nu);
  if (bias && (bias->rank != 1 || bias->shape[0] != nu))
    return why_set(why, n, "SVDF bias must be [num_units = %d]", nu);
  if (st->role != ROLE_PERSISTENT)
    return why_set(why, n, "SVDF state (input 4) is not a variable tensor");
  if (wf->role != ROLE_CONST || wt->role != ROLE_CONST || (bias && bias->role != ROLE_CONST))
    return why_set(why, n, "SVDF weights and bias must be constant");
  if (x->dtype == DT_FLOAT32) {
    if (check_dtype(wf, DT_FLOAT32, "weights_feature", why, n) ||
        check_dtype(wt, DT_FLOAT32, "weights_time", why, n) ||
        check_dtype(st, DT_FLOAT32, "state", why, n) ||
        check_dtype(out, DT_FLOAT32, "output", why, n) ||
        (bias && check_dtype(bias, DT_FLOAT32, "bias", why, n)))
      return -1;
    if (!act_code_ok(op->opts.fused_act))
      return why_set(why, n, "SVDF activation %d not supported", op->opts.fused_act);
    return 0;
  }
  if (x->dtype != DT_INT8)
    return why_set(why, n, "SVDF input %s not supported (int8 or float32)", dtype_name(x->dtype));
  if (check_dtype(wf, DT_INT8, "weights_feature", why, n) ||
      check_dtype(out, DT_INT8, "output", why, n) ||
      (bias && check_dtype(bias, DT_INT32, "bias", why, n)))
    return -1;
  if (!((wt->dtype == DT_INT16 && st->dtype == DT_INT16) ||
        (wt->dtype == DT_INT8 && st->dtype == DT_INT8)))
    return why_set(why, n, "SVDF weights_time %s with state %s not supported (int16/int16 or int8/int8)",
                   dtype_name(wt->dtype), dtype_name(st->dtype));
  if (!per_tensor_q(x) || !per_tensor_q(wf) || !per_tensor_q(wt) || !per_tensor_q(st) ||
      !per_tensor_q(out))
    return why_set(why, n, "SVDF int8 needs per-tensor quantization on every tensor");
  if (!has_zero_zp(wf) || !has_zero_zp(wt))
    return why_set(why, n, "SVDF weights must have zero point 0");
  return 0;
}

static void svdf_prepare(const ir_graph *g, const ir_op *op, aot_svdf_params *p) {
  const ir_tensor *x = ir_in(g, op, 0), *wf = ir_in(g, op, 1), *wt = ir_in(g, op, 2);
  const ir_tensor *st = ir_in(g, op, 4), *out = ir_out(g, op, 0);
  memset(p, 0, sizeof *p);
  p->batch = x->shape[0];
  p->input_size = x->shape[1];
  p->num_filters = wf->shape[0];
  p->rank = op->opts.rank;
  p->num_units = p->num_filters / p->rank;
  p->memory_size = wt->shape[1];
  p->activation = op->opts.fused_act;
  if (x->dtype != DT_FLOAT32) {
    int s;
    /* TFLM computes both effective scales in float, then widens to double. */
    float e1 = x->scale[0] * wf->scale[0] / st->scale[0];
    float e2 = st->scale[0] * wt->scale[0] / out->scale[0];
    quantize_multiplier((double)e1, &p->mult1, &s);
    p->shift1 = s;
    quantize_multiplier((double)e2, &p->mult2, &s);
    p->shift2 = s;
    p->input_zp = x->zero_point[0];
    p->state_zp = st->zero_point[0];
    p->output_zp = out->zero_point[0];
    p->activation = AOT_ACT_NONE;
  }
}

static size_t svdf_scratch(const ir_graph *g, const ir_op *op) {
  aot_svdf_params p;
  svdf_prepare(g, op, &p);
  if (svdf_kind(g, op) == SVDF_F32) return aot_svdf_f32_buffer_size(p.batch, p.num_filters);
  return aot_svdf_s8_buffer_size(p.batch, p.num_filters, p.num_units);
}

static int svdf_emit(emit_ctx *e, const ir_graph *g, const ir_op *op) {
  aot_svdf_params p;
  svdf_prepare(g, op, &p);
  const char *nm = emit_opname(e);
  emit_decl(e,
            "static const aot_svdf_params %s_p = {\n"
            "  .batch = %d,\n  .input_size = %d,\n  .num_filters = %d,\n  .num_units = %d,\n"
            "  .rank = %d,\n  .memory_size = %d,\n  .input_zp = %d,\n  .state_zp = %d,\n"
            "  .output_zp = %d,\n  .mult1 = %d,\n  .shift1 = %d,\n  .mult2 = %d,\n"
            "  .shift2 = %d,\n  .activation = %d\n};",
            nm, p.batch, p.input_size, p.num_filters, p.num_units, p.rank, p.memory_size,
            p.input_zp, p.state_zp, p.output_zp, p.mult1, p.shift1, p.mult2, p.shift2,
            p.activation);
  char *x = ptr_dup(e, in_id(op, 0)), *wf = ptr_dup(e, in_id(op, 1));
  char *wt = ptr_dup(e, in_id(op, 2)), *b = ptr_dup(e, in_id(op, 3));
  char *st = ptr_dup(e, in_id(op, 4)), *o = ptr_dup(e, op->out[0]);
  char *sc = xstrdup(emit_scratch_ptr(e));
  int kind = svdf_kind(g, op);
  const char *fn = kind == SVDF_F32 ? "aot_svdf_f32" : kind == SVDF_S8_S16 ? "aot_svdf_s8_s16"
                                                                         : "aot_svdf_s8_s8";
  emit_call(e, "%s(&%s_p, %s, %s, %s, %s, %s, %s, (%s *)%s)", fn, nm, x, wf, wt, b, st, o,
            kind == SVDF_F32 ? "float" : "int32_t", sc);
  emit_kernel(e, kind == SVDF_F32 ? "RecurrentFunctions/aot_svdf_f32.c"
                                  : "RecurrentFunctions/aot_svdf_s8.c");
  free(x), free(wf), free(wt), free(b), free(st), free(o), free(sc);
  return 0;
}

static int svdf_eval(const ir_graph *g, const ir_op *op, void *const *data, void *scratch) {
  aot_svdf_params p;
  svdf_prepare(g, op, &p);
  int b = in_id(op, 3);
  const void *bias = b >= 0 ? data[b] : NULL;
  switch (svdf_kind(g, op)) {
    case SVDF_F32:
      return aot_svdf_f32(&p, data[op->in[0]], data[op->in[1]], data[op->in[2]], bias,
                          data[op->in[4]], data[op->out[0]], scratch);
    case SVDF_S8_S16:
      return aot_svdf_s8_s16(&p, data[op->in[0]], data[op->in[1]], data[op->in[2]], bias,
                             data[op->in[4]], data[op->out[0]], scratch);
    default:
      return aot_svdf_s8_s8(&p, data[op->in[0]], data[op->in[1]], data[op->in[2]], bias,
                            data[op->in[4]], data[op->out[0]], scratch);
  }
}

const op_impl op_svdf = {
    .builtin = OP_SVDF,
    .name = "SVDF",
    .dtypes = "int8 (int16 or int8 weights_time and state), float32",
    .constraints =
        "rank >= 1; 2-D tensors; state (input 4) must be a variable tensor of shape "
        "[batch, memory_size x num_filters]; constant weights; the int8 kernel follows "
        "TFLM's reference arithmetic (no fused activation on the integer path)",
    .check = svdf_check,
    .scratch = svdf_scratch,
    .inplace = 0,
    .emit = svdf_emit,
    .eval = svdf_eval,
};
