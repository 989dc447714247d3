/* op_recurrent.c - SVDF and UNIDIRECTIONAL_SEQUENCE_LSTM (the custom GRU is op_gru.c).
 *
 * Every operator here keeps recurrent state in variable tensors
 * (ROLE_PERSISTENT) that its kernel updates in place. Each lowers to one wide
 * kernel call (kernels.def, src/ops/lower.h; printed and run by lower_rec.c):
 * the *_prepare() helpers compute the params, the lowering picks the kernel
 * per layer (the packed kernels when their requantization suits the
 * multipliers, svdf_packed / lstm_use_s8p, which scratch() follows too) and
 * repacks their weights at compile time as constant arrays of the call. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_recurrent.h"
#include "lower_rec.h"
#include "ops.h"

/* ---- small helpers ------------------------------------------------------ */

static int in_id(const ir_op *op, int i) { return i < op->nin ? op->in[i] : -1; }

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
  if (op->nin < 5 || op->nout < 1) return lower_rec_why(why, n, "SVDF needs 5 inputs and 1 output");
  const ir_tensor *x = ir_in(g, op, 0), *wf = ir_in(g, op, 1), *wt = ir_in(g, op, 2);
  const ir_tensor *bias = ir_in(g, op, 3), *st = ir_in(g, op, 4), *out = ir_out(g, op, 0);
  if (!x || !wf || !wt || !st || !out)
    return lower_rec_why(why, n, "SVDF input, weights_feature, weights_time and state are required");
  if (x->rank != 2 || wf->rank != 2 || wt->rank != 2 || st->rank != 2 || out->rank != 2)
    return lower_rec_why(why, n, "SVDF tensors must be 2-D (input, weights, state, output)");
  int rank = op->opts.rank;
  int nb = x->shape[0], ni = x->shape[1];
  int nf = wf->shape[0], nm = wt->shape[1];
  if (rank < 1) return lower_rec_why(why, n, "SVDF rank %d must be >= 1", rank);
  if ((long)st->shape[1] != (long)nm * nf)
    return lower_rec_why(why, n,
                   "SVDF state tensor has %d values per batch but memory_size x num_filters "
                   "is %d x %d = %ld (weights_time dim 1 x weights_feature dim 0)",
                   st->shape[1], nm, nf, (long)nm * nf);
  if (nf % rank != 0)
    return lower_rec_why(why, n, "SVDF num_filters %d is not a multiple of rank %d", nf, rank);
  int nu = nf / rank;
  if (wf->shape[1] != ni)
    return lower_rec_why(why, n, "SVDF weights_feature has %d columns, input has %d", wf->shape[1], ni);
  if (wt->shape[0] != nf)
    return lower_rec_why(why, n, "SVDF weights_time has %d rows, num_filters is %d", wt->shape[0], nf);
  if (st->shape[0] != nb)
    return lower_rec_why(why, n, "SVDF state batch %d differs from input batch %d", st->shape[0], nb);
  if (out->shape[0] != nb || out->shape[1] != nu)
    return lower_rec_why(why, n, "SVDF output shape [%d, %d] differs from [batch %d, num_units %d]",
                   out->shape[0], out->shape[1], nb, nu);
  if (bias && (bias->rank != 1 || bias->shape[0] != nu))
    return lower_rec_why(why, n, "SVDF bias must be [num_units = %d]", nu);
  if (st->role != ROLE_PERSISTENT)
    return lower_rec_why(why, n, "SVDF state (input 4) is not a variable tensor");
  if (wf->role != ROLE_CONST || wt->role != ROLE_CONST || (bias && bias->role != ROLE_CONST))
    return lower_rec_why(why, n, "SVDF weights and bias must be constant");
  if (x->dtype == DT_FLOAT32) {
    if (check_dtype(wf, DT_FLOAT32, "weights_feature", why, n) ||
        check_dtype(wt, DT_FLOAT32, "weights_time", why, n) ||
        check_dtype(st, DT_FLOAT32, "state", why, n) ||
        check_dtype(out, DT_FLOAT32, "output", why, n) ||
        (bias && check_dtype(bias, DT_FLOAT32, "bias", why, n)))
      return -1;
    if (!act_code_ok(op->opts.fused_act))
      return lower_rec_why(why, n, "SVDF activation %d not supported", op->opts.fused_act);
    return 0;
  }
  if (x->dtype != DT_INT8)
    return lower_rec_why(why, n, "SVDF input %s not supported (int8 or float32)", dtype_name(x->dtype));
  if (check_dtype(wf, DT_INT8, "weights_feature", why, n) ||
      check_dtype(out, DT_INT8, "output", why, n) ||
      (bias && check_dtype(bias, DT_INT32, "bias", why, n)))
    return -1;
  if (!((wt->dtype == DT_INT16 && st->dtype == DT_INT16) ||
        (wt->dtype == DT_INT8 && st->dtype == DT_INT8)))
    return lower_rec_why(why, n, "SVDF weights_time %s with state %s not supported (int16/int16 or int8/int8)",
                   dtype_name(wt->dtype), dtype_name(st->dtype));
  if (!per_tensor_q(x) || !per_tensor_q(wf) || !per_tensor_q(wt) || !per_tensor_q(st) ||
      !per_tensor_q(out))
    return lower_rec_why(why, n, "SVDF int8 needs per-tensor quantization on every tensor");
  if (!has_zero_zp(wf) || !has_zero_zp(wt))
    return lower_rec_why(why, n, "SVDF weights must have zero point 0");
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

/* Integer SVDFs run the packed kernels (aot_svdf_s8p.c) when both
 * multipliers suit their branch-free requantization (m >= 0, shift in
 * [-31, 31]). */
static int svdf_packed(const ir_graph *g, const ir_op *op, const aot_svdf_params *p) {
  return svdf_kind(g, op) != SVDF_F32 && p->mult1 >= 0 && p->mult2 >= 0 && p->shift1 >= -31 &&
         p->shift1 <= 31 && p->shift2 >= -31 && p->shift2 <= 31;
}

static size_t svdf_scratch(const ir_graph *g, const ir_op *op) {
  aot_svdf_params p;
  svdf_prepare(g, op, &p);
  if (svdf_kind(g, op) == SVDF_F32) return aot_svdf_f32_buffer_size(p.batch, p.num_filters);
  if (svdf_packed(g, op, &p)) return aot_svdf_s8p_buffer_size(p.input_size, p.num_filters);
  return aot_svdf_s8_buffer_size(p.batch, p.num_filters, p.num_units);
}

/* weights_time summed per filter (the packed kernels fold the state zero
 * point with it) */
static int64_t *svdf_wt_sums(const ir_tensor *twt, int nf, int mem, int s16) {
  int64_t *wts = xcalloc((size_t)nf, sizeof(int64_t));
  for (int f = 0; f < nf; f++)
    for (int t = 0; t < mem; t++) {
      size_t k = (size_t)f * mem + t;
      if (s16) {
        int16_t v;
        memcpy(&v, twt->data + 2 * k, 2);
        wts[f] += v;
      } else {
        wts[f] += (int8_t)twt->data[k];
      }
    }
  return wts;
}

/* One wide call (kernels.def, LP_SVDF): x, weights_feature, weights_time,
 * bias, state, output, scratch; the packed kernels read weights_feature
 * interleaved per four filters with the zero points folded (constant arrays
 * wf_packed, feat_bias, bias_folded in place of weights_feature and bias),
 * followed by the portable kernel's arguments (host-only, lower_rec.c). */
static int svdf_lower(const ir_graph *g, const ir_op *op, lower_list *L, char *why, size_t n) {
  if (svdf_check(g, op, why, n)) return -1;
  aot_svdf_params p;
  svdf_prepare(g, op, &p);
  int kind = svdf_kind(g, op);
  lower_call *c = &L->call[L->n++];
  if (!svdf_packed(g, op, &p)) {
    int lk = kind == SVDF_F32 ? LK(aot_svdf_f32) : kind == SVDF_S8_S16 ? LK(aot_svdf_s8_s16)
                                                                       : LK(aot_svdf_s8_s8);
    lower_call_init(c, lk, -1, -1, -1, op->out[0]);
    c->u.svdf = p;
    for (int i = 0; i < 5; i++) lower_rec_arg_t(c, i, in_id(op, i), NULL);
    lower_rec_arg_t(c, 5, op->out[0], NULL);
    lower_rec_arg_t(c, 6, LOWER_SCRATCH, kind == SVDF_F32 ? "(float *)" : "(int32_t *)");
    return 0;
  }
  lower_call_init(c, kind == SVDF_S8_S16 ? LK(aot_svdf_s8p_s16) : LK(aot_svdf_s8p_s8), -1, -1, -1,
                  op->out[0]);
  c->u.svdf = p;
  const ir_tensor *twf = ir_in(g, op, 1), *tb = ir_in(g, op, 3);
  const int nf = p.num_filters, nf4 = (nf + 3) & ~3;
  const size_t nwf = (size_t)nf4 * (size_t)aot_lstm_pad4(p.input_size);
  int8_t *wfp = xcalloc(nwf, 1);
  int32_t *fb = xcalloc((size_t)nf4, sizeof(int32_t));
  int32_t *be = xcalloc((size_t)p.num_units, sizeof(int32_t));
  int32_t *bias = NULL;
  int64_t *wts = svdf_wt_sums(ir_in(g, op, 2), nf, p.memory_size, kind == SVDF_S8_S16);
  if (tb) {
    bias = xcalloc((size_t)p.num_units, sizeof(int32_t));
    memcpy(bias, tb->data, (size_t)p.num_units * sizeof(int32_t));
  }
  aot_svdf_s8p_pack(&p, (const int8_t *)twf->data, wts, bias, wfp, fb, be);
  free(bias), free(wts);
  lower_rec_arg_t(c, 0, in_id(op, 0), NULL);
  lower_rec_arg_a(c, 1, 'b', "wf_packed", wfp, nwf, NULL);
  lower_rec_arg_a(c, 2, 'w', "feat_bias", fb, (size_t)nf4, NULL);
  lower_rec_arg_t(c, 3, in_id(op, 2), NULL);
  lower_rec_arg_a(c, 4, 'w', "bias_folded", be, (size_t)p.num_units, NULL);
  lower_rec_arg_t(c, 5, in_id(op, 4), NULL);
  lower_rec_arg_t(c, 6, op->out[0], NULL);
  lower_rec_arg_t(c, 7, LOWER_SCRATCH, NULL);
  /* host-only: the portable kernel's arguments */
  for (int i = 0; i < 5; i++) lower_rec_arg_t(c, 8 + i, in_id(op, i), NULL);
  lower_rec_arg_t(c, 13, op->out[0], NULL);
  return 0;
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
    .lower = svdf_lower,
};

/* ======================================================================== */
/* UNIDIRECTIONAL_SEQUENCE_LSTM                                              */
/* ======================================================================== */

/* Input indices of the 24-input LSTM operator. */
enum {
  LSTM_IN = 0,
  LSTM_W_IN = 1,     /* + gate (I, F, C, O) */
  LSTM_W_REC = 5,    /* + gate */
  LSTM_W_PEEP = 9,   /* + gate for I, F; 11 for O */
  LSTM_BIAS = 12,    /* + gate */
  LSTM_W_PROJ = 16,
  LSTM_B_PROJ = 17,
  LSTM_HIDDEN = 18,
  LSTM_CELL = 19,
  LSTM_LN = 20       /* + gate */
};

static int lstm_peep_index(int g) { return g == AOT_LSTM_I ? 9 : g == AOT_LSTM_F ? 10 : 11; }

typedef struct lstm_shape {
  int batch, time, input, state, output;
} lstm_shape;

static int lstm_shapes(const ir_graph *g, const ir_op *op, lstm_shape *s, char *why, size_t n) {
  const ir_tensor *x = ir_in(g, op, LSTM_IN), *wf = ir_in(g, op, LSTM_W_IN + AOT_LSTM_F);
  const ir_tensor *wp = ir_in(g, op, LSTM_W_PROJ), *out = ir_out(g, op, 0);
  if (!x || !wf || !out) return lower_rec_why(why, n, "LSTM input, forget weights and output required");
  if (x->rank != 3) return lower_rec_why(why, n, "LSTM input must be 3-D, got rank %d", x->rank);
  if (wf->rank != 2) return lower_rec_why(why, n, "LSTM weights must be 2-D");
  s->time = op->opts.time_major ? x->shape[0] : x->shape[1];
  s->batch = op->opts.time_major ? x->shape[1] : x->shape[0];
  s->input = x->shape[2];
  s->state = wf->shape[0];
  s->output = wp ? (wp->rank == 2 ? wp->shape[0] : -1) : s->state;
  if (s->time <= 0 || s->batch <= 0 || s->input <= 0 || s->state <= 0 || s->output <= 0)
    return lower_rec_why(why, n, "LSTM has empty or dynamic dimensions");
  if (out->rank == 0)
    return lower_rec_why(why, n, "LSTM output tensor has no shape (expected [%d, %d, %d])",
                   x->shape[0], x->shape[1], s->output);
  if (out->rank != 3 || out->shape[0] != x->shape[0] || out->shape[1] != x->shape[1] ||
      out->shape[2] != s->output)
    return lower_rec_why(why, n, "LSTM output shape does not match [%d, %d, %d]", x->shape[0],
                   x->shape[1], s->output);
  return 0;
}

/* Checks shapes of every present tensor and the variant features. */
static int lstm_check_common(const ir_graph *g, const ir_op *op, const lstm_shape *s, char *why,
                             size_t n) {
  const ir_tensor *h = ir_in(g, op, LSTM_HIDDEN), *c = ir_in(g, op, LSTM_CELL);
  if (!h || !c) return lower_rec_why(why, n, "LSTM hidden (input 18) and cell (input 19) states required");
  if (h->role != ROLE_PERSISTENT || c->role != ROLE_PERSISTENT)
    return lower_rec_why(why, n, "LSTM state tensors (inputs 18, 19) must be variable tensors");
  if ((long)ir_numel(h) != (long)s->batch * s->output)
    return lower_rec_why(why, n, "LSTM hidden state has %ld values, expected batch x output = %d x %d",
                   (long)ir_numel(h), s->batch, s->output);
  if ((long)ir_numel(c) != (long)s->batch * s->state)
    return lower_rec_why(why, n, "LSTM cell state has %ld values, expected batch x units = %d x %d",
                   (long)ir_numel(c), s->batch, s->state);
  int cifg = in_id(op, LSTM_W_IN + AOT_LSTM_I) < 0;
  for (int gi = 0; gi < 4; gi++) {
    const ir_tensor *wi = ir_in(g, op, LSTM_W_IN + gi), *wr = ir_in(g, op, LSTM_W_REC + gi);
    const ir_tensor *b = ir_in(g, op, LSTM_BIAS + gi);
    if (gi == AOT_LSTM_I && cifg) {
      if (wr || b) return lower_rec_why(why, n, "LSTM CIFG with input-gate recurrent weights or bias");
      continue;
    }
    if (!wi || !wr) return lower_rec_why(why, n, "LSTM gate %d weights missing", gi);
    if (wi->rank != 2 || wi->shape[0] != s->state || wi->shape[1] != s->input)
      return lower_rec_why(why, n, "LSTM input weights of gate %d must be [%d, %d]", gi, s->state,
                     s->input);
    if (wr->rank != 2 || wr->shape[0] != s->state || wr->shape[1] != s->output)
      return lower_rec_why(why, n, "LSTM recurrent weights of gate %d must be [%d, %d]", gi, s->state,
                     s->output);
    if (b && (b->rank != 1 || b->shape[0] != s->state))
      return lower_rec_why(why, n, "LSTM bias of gate %d must be [%d]", gi, s->state);
    if (wi->role != ROLE_CONST || wr->role != ROLE_CONST || (b && b->role != ROLE_CONST))
      return lower_rec_why(why, n, "LSTM weights and biases must be constant");
  }
  for (int k = 9; k < 24; k++) {
    if (k == LSTM_HIDDEN || k == LSTM_CELL) continue;
    const ir_tensor *t = ir_in(g, op, k);
    if (t && t->role != ROLE_CONST)
      return lower_rec_why(why, n, "LSTM input %d must be constant", k);
  }
  if (op->opts.diagonal_recurrent_tensors)
    return lower_rec_why(why, n, "LSTM diagonal recurrent tensors not supported");
  if (op->opts.cell_clip < 0 || op->opts.proj_clip < 0)
    return lower_rec_why(why, n, "LSTM negative cell_clip / proj_clip");
  return 0;
}

static int lstm_check(const ir_graph *g, const ir_op *op, char *why, size_t n) {
  if (op->nin < 24 || op->nout < 1)
    return lower_rec_why(why, n, "LSTM needs 24 inputs (got %d) and 1 output", op->nin);
  lstm_shape s;
  if (lstm_shapes(g, op, &s, why, n) || lstm_check_common(g, op, &s, why, n)) return -1;
  const ir_tensor *x = ir_in(g, op, LSTM_IN), *h = ir_in(g, op, LSTM_HIDDEN);
  const ir_tensor *c = ir_in(g, op, LSTM_CELL), *out = ir_out(g, op, 0);
  if (x->dtype == DT_FLOAT32) {
    for (int k = 0; k < 24; k++) {
      const ir_tensor *t = ir_in(g, op, k);
      if (t && t->dtype != DT_FLOAT32)
        return lower_rec_why(why, n, "float LSTM input %d is %s (hybrid LSTM not supported)", k,
                       dtype_name(t->dtype));
    }
    if (out->dtype != DT_FLOAT32) return lower_rec_why(why, n, "float LSTM output must be float32");
    int cifg = in_id(op, LSTM_W_IN + AOT_LSTM_I) < 0;
    int peep = in_id(op, 10) >= 0 || in_id(op, 11) >= 0 || in_id(op, 9) >= 0;
    if (peep && (in_id(op, 10) < 0 || in_id(op, 11) < 0 || (!cifg && in_id(op, 9) < 0)))
      return lower_rec_why(why, n, "LSTM peephole weights must be all present");
    int ln = 0;
    for (int k = LSTM_LN; k < 24; k++) ln |= in_id(op, k) >= 0;
    if (ln)
      for (int gi = 0; gi < 4; gi++)
        if (!(gi == AOT_LSTM_I && cifg) && in_id(op, LSTM_LN + gi) < 0)
          return lower_rec_why(why, n, "LSTM layer norm coefficients must be all present");
    if (in_id(op, LSTM_B_PROJ) >= 0 && in_id(op, LSTM_W_PROJ) < 0)
      return lower_rec_why(why, n, "LSTM projection bias without projection weights");
    int act = op->opts.fused_act;
    if (!act_code_ok(act)) return lower_rec_why(why, n, "LSTM activation %d not supported", act);
    return 0;
  }
  /* integer: TFLM's standard LSTM only */
  if (x->dtype != DT_INT8 && x->dtype != DT_INT16)
    return lower_rec_why(why, n, "LSTM input %s not supported (float32, int8, int16)",
                   dtype_name(x->dtype));
  if (in_id(op, LSTM_W_IN + AOT_LSTM_I) < 0)
    return lower_rec_why(why, n, "integer LSTM with CIFG (no input gate) not supported");
  for (int k = 9; k < 12; k++)
    if (in_id(op, k) >= 0) return lower_rec_why(why, n, "integer LSTM with peephole not supported");
  if (in_id(op, LSTM_W_PROJ) >= 0 || in_id(op, LSTM_B_PROJ) >= 0)
    return lower_rec_why(why, n, "integer LSTM with projection not supported");
  for (int k = LSTM_LN; k < 24; k++)
    if (in_id(op, k) >= 0) return lower_rec_why(why, n, "integer LSTM with layer norm not supported");
  int bias_dt = x->dtype == DT_INT8 ? DT_INT32 : DT_INT64;
  if (h->dtype != x->dtype || out->dtype != x->dtype)
    return lower_rec_why(why, n, "integer LSTM input, hidden state and output must share a dtype");
  if (c->dtype != DT_INT16) return lower_rec_why(why, n, "integer LSTM cell state must be int16");
  if (!per_tensor_q(x) || !per_tensor_q(h) || !per_tensor_q(c))
    return lower_rec_why(why, n, "integer LSTM needs per-tensor quantized input and states");
  for (int gi = 0; gi < 4; gi++) {
    const ir_tensor *wi = ir_in(g, op, LSTM_W_IN + gi), *wr = ir_in(g, op, LSTM_W_REC + gi);
    const ir_tensor *b = ir_in(g, op, LSTM_BIAS + gi);
    if (wi->dtype != DT_INT8 || wr->dtype != DT_INT8)
      return lower_rec_why(why, n, "integer LSTM weights must be int8");
    if (!per_tensor_q(wi) || !per_tensor_q(wr))
      return lower_rec_why(why, n, "integer LSTM weights must be per-tensor quantized");
    if (!has_zero_zp(wi) || !has_zero_zp(wr))
      return lower_rec_why(why, n, "integer LSTM weights must have zero point 0");
    if (!b) return lower_rec_why(why, n, "integer LSTM gate biases are required");
    if (b->dtype != bias_dt)
      return lower_rec_why(why, n, "integer LSTM bias must be %s", dtype_name(bias_dt));
  }
  if (x->dtype == DT_INT16 && (x->zero_point[0] != 0 || h->zero_point[0] != 0))
    return lower_rec_why(why, n, "int16 LSTM needs zero points 0");
  int p2;
  /* a hostile scale (0, negative, inf, NaN, huge) is refused before the cast */
  if (!(c->scale[0] > 0.0f) || !(c->scale[0] < 1e30f))
    return lower_rec_why(why, n, "integer LSTM cell state scale %g is not a power of two",
                         (double)c->scale[0]);
  float l2 = logf(c->scale[0]) * (1.0f / logf(2.0f));
  p2 = (int)roundf(l2);
  if (fabsf(l2 - (float)p2) >= 1e-3f)
    return lower_rec_why(why, n, "integer LSTM cell state scale %g is not a power of two",
                   (double)c->scale[0]);
  if (op->opts.fused_act != ACT_TANH)
    return lower_rec_why(why, n, "integer LSTM cell activation %d not supported (TANH only)",
                   op->opts.fused_act);
  return 0;
}

static void lstm_prepare_f32(const ir_graph *g, const ir_op *op, aot_lstm_f32_params *p) {
  lstm_shape s;
  char why[8];
  memset(p, 0, sizeof *p);
  lstm_shapes(g, op, &s, why, sizeof why);
  p->batch = s.batch;
  p->time_steps = s.time;
  p->input_size = s.input;
  p->state_size = s.state;
  p->output_size = s.output;
  p->time_major = op->opts.time_major ? 1 : 0;
  p->cell_act = op->opts.fused_act;
  p->cell_clip = op->opts.cell_clip;
  p->proj_clip = op->opts.proj_clip;
}

static void mult_of(double real, int32_t *m, int32_t *sh) {
  int s;
  quantize_multiplier(real, m, &s);
  *sh = s;
}

static void lstm_prepare_q(const ir_graph *g, const ir_op *op, aot_lstm_q_params *p) {
  lstm_shape s;
  char why[8];
  memset(p, 0, sizeof *p);
  lstm_shapes(g, op, &s, why, sizeof why);
  const ir_tensor *x = ir_in(g, op, LSTM_IN), *h = ir_in(g, op, LSTM_HIDDEN);
  const ir_tensor *c = ir_in(g, op, LSTM_CELL);
  p->batch = s.batch;
  p->time_steps = s.time;
  p->input_size = s.input;
  p->state_size = s.state;
  p->time_major = op->opts.time_major ? 1 : 0;
  p->input_zp = x->zero_point[0];
  p->hidden_zp = h->zero_point[0];
  p->cell_act = op->opts.fused_act == ACT_TANH ? AOT_ACT_TANH : AOT_ACT_SIGMOID;
  /* TFLM: gate FC outputs are Q3.12 (scale 2^-12), gate outputs Q0.15. */
  const double q12 = 1.0 / 4096.0, q15 = 1.0 / 32768.0;
  /* TFLM's GetQuantizedConvolutionMultipler multiplies the two scales in
   * float, then divides in double. */
  for (int gi = 0; gi < 4; gi++) {
    const ir_tensor *wi = ir_in(g, op, LSTM_W_IN + gi), *wr = ir_in(g, op, LSTM_W_REC + gi);
    float pin = x->scale[0] * wi->scale[0], prec = h->scale[0] * wr->scale[0];
    mult_of((double)pin / q12, &p->gate[gi].in_mult, &p->gate[gi].in_shift);
    mult_of((double)prec / q12, &p->gate[gi].rec_mult, &p->gate[gi].rec_shift);
  }
  double cs = (double)c->scale[0];
  mult_of(q15 * cs / cs, &p->fc_mult, &p->fc_shift);
  mult_of(q15 * q15 / cs, &p->ig_mult, &p->ig_shift);
  mult_of(q15 * q15 / (double)h->scale[0], &p->hid_mult, &p->hid_shift);
  /* TFLM CheckedLog2: round(log(x) / log(2)) in float */
  p->cell_scale_power = (int32_t)roundf(logf(c->scale[0]) * (1.0f / logf(2.0f)));
  double clip = (double)op->opts.cell_clip / cs;
  if (clip < -32768.0) clip = -32768.0;
  if (clip > 32767.0) clip = 32767.0;
  p->cell_clip = op->opts.cell_clip > 0 ? (int32_t)(int16_t)clip : 0;
}

/* Integer LSTMs run the packed kernels (aot_lstm_s8p / aot_lstm_s16p) when
 * every multiplier they requantize with aot_rec_qmul suits it (m >= 0, shift
 * in [-31, 31]; quantize_multiplier gives that for all but extreme scales),
 * else aot_lstm_s8 / aot_lstm_s16. Test hook, not a user option: the
 * environment variable AOTC_LSTM_PORTABLE=1 forces the portable kernels (the
 * tests compare both paths bit for bit). */
static int lstm_use_s8p(const ir_graph *g, const ir_op *op) {
  int dt = ir_in(g, op, LSTM_IN)->dtype;
  if (dt != DT_INT8 && dt != DT_INT16) return 0;
  const char *force = getenv("AOTC_LSTM_PORTABLE");
  if (force && strcmp(force, "1") == 0) return 0;
  aot_lstm_q_params p;
  lstm_prepare_q(g, op, &p);
  int32_t m[11], sh[11];
  for (int gi = 0; gi < 4; gi++) {
    m[2 * gi] = p.gate[gi].in_mult, sh[2 * gi] = p.gate[gi].in_shift;
    m[2 * gi + 1] = p.gate[gi].rec_mult, sh[2 * gi + 1] = p.gate[gi].rec_shift;
  }
  m[8] = p.fc_mult, sh[8] = p.fc_shift, m[9] = p.ig_mult, sh[9] = p.ig_shift;
  m[10] = p.hid_mult, sh[10] = p.hid_shift;
  /* int16: the gate multipliers go through aot_mbqm64 */
  for (int k = dt == DT_INT16 ? 8 : 0; k < 11; k++)
    if (m[k] < 0 || sh[k] < -31 || sh[k] > 31) return 0;
  return 1;
}

static size_t lstm_scratch(const ir_graph *g, const ir_op *op) {
  lstm_shape s = {0};   /* set by lstm_shapes() when it returns 0 */
  char why[8];
  if (lstm_shapes(g, op, &s, why, sizeof why)) return 0;
  if (ir_in(g, op, LSTM_IN)->dtype == DT_FLOAT32)
    return aot_lstm_f32_buffer_size(s.batch, s.state, s.output);
  if (lstm_use_s8p(g, op))
    return ir_in(g, op, LSTM_IN)->dtype == DT_INT8 ? aot_lstm_s8p_buffer_size(s.input, s.state)
                                                  : aot_lstm_s16p_buffer_size(s.input, s.state);
  return aot_lstm_q_buffer_size(s.batch, s.state);
}

/* The portable integer kernels' arguments: input, w_in, w_rec and bias of
 * each gate, hidden, cell, output from argument `at` on. */
static void lstm_q_args(lower_call *c, const ir_op *op, int at) {
  for (int gi = 0; gi < 4; gi++) {
    lower_rec_arg_t(c, at + 1 + gi, in_id(op, LSTM_W_IN + gi), NULL);
    lower_rec_arg_t(c, at + 5 + gi, in_id(op, LSTM_W_REC + gi), NULL);
    lower_rec_arg_t(c, at + 9 + gi, in_id(op, LSTM_BIAS + gi), NULL);
  }
  lower_rec_arg_t(c, at, in_id(op, LSTM_IN), NULL);
  lower_rec_arg_t(c, at + 13, in_id(op, LSTM_HIDDEN), NULL);
  lower_rec_arg_t(c, at + 14, in_id(op, LSTM_CELL), NULL);
  lower_rec_arg_t(c, at + 15, op->out[0], NULL);
}

/* int8 / int16: the gates' weights packed gate-major with zero-padded rows
 * and the zero points folded into the biases (aot_lstm_s8p_pack_gate), as
 * constant arrays of the call: input, w_in_packed, w_rec_packed, then
 * b_in_folded and b_rec_folded (int8) or bias_packed (int16, int64 biases),
 * hidden, cell, output, scratch; then, host-only (lower_rec.c), the
 * portable kernel's arguments (lstm_q_args). */
static void lstm_lower_packed(const ir_graph *g, const ir_op *op, lower_call *c) {
  const aot_lstm_q_params *p = &c->u.lstm_q;
  const int ni = p->input_size, ns = p->state_size;
  const int is16 = ir_in(g, op, LSTM_IN)->dtype == DT_INT16;
  size_t nwi = (size_t)4 * ns * aot_lstm_pad4(ni), nwr = (size_t)4 * ns * aot_lstm_pad4(ns);
  int64_t *b64 = xcalloc((size_t)4 * ns, sizeof(int64_t));
  int8_t *wi = xcalloc(nwi, 1), *wr = xcalloc(nwr, 1);
  int32_t *bi = xcalloc((size_t)4 * ns, sizeof(int32_t));
  int32_t *br = xcalloc((size_t)4 * ns, sizeof(int32_t));
  for (int gi = 0; gi < 4; gi++) {
    const ir_tensor *ti = ir_in(g, op, LSTM_W_IN + gi), *tr = ir_in(g, op, LSTM_W_REC + gi);
    const ir_tensor *tb = ir_in(g, op, LSTM_BIAS + gi);
    int32_t *bias = NULL;
    if (tb && is16) { /* int64 biases, gate-major (copied: need not be aligned) */
      memcpy(b64 + (size_t)gi * ns, tb->data, (size_t)ns * sizeof(int64_t));
    } else if (tb) {  /* copied: the tensor's bytes need not be int32-aligned */
      bias = xcalloc((size_t)ns, sizeof(int32_t));
      memcpy(bias, tb->data, (size_t)ns * sizeof(int32_t));
    }
    aot_lstm_s8p_pack_gate(gi, ns, ni, p->input_zp, (const int8_t *)ti->data, bias, wi, bi);
    aot_lstm_s8p_pack_gate(gi, ns, ns, p->hidden_zp, (const int8_t *)tr->data, NULL, wr, br);
    free(bias);
  }
  int a = 0;
  lower_rec_arg_t(c, a++, in_id(op, LSTM_IN), NULL);
  lower_rec_arg_a(c, a++, 'b', "w_in_packed", wi, nwi, NULL);
  lower_rec_arg_a(c, a++, 'b', "w_rec_packed", wr, nwr, NULL);
  /* int16: zero points are 0, so no folding and int64 biases */
  if (is16) {
    lower_rec_arg_a(c, a++, 'l', "bias_packed", b64, (size_t)4 * ns, NULL);
    free(bi), free(br);
  } else {
    lower_rec_arg_a(c, a++, 'w', "b_in_folded", bi, (size_t)4 * ns, NULL);
    lower_rec_arg_a(c, a++, 'w', "b_rec_folded", br, (size_t)4 * ns, NULL);
    free(b64);
  }
  lower_rec_arg_t(c, a++, in_id(op, LSTM_HIDDEN), NULL);
  lower_rec_arg_t(c, a++, in_id(op, LSTM_CELL), NULL);
  lower_rec_arg_t(c, a++, op->out[0], NULL);
  lower_rec_arg_t(c, a, LOWER_SCRATCH, NULL);
  lstm_q_args(c, op, a + 1);
}

/* One wide call (kernels.def, LP_LSTM_F32 / LP_LSTM_Q) whose tensors struct
 * lower_rec.c prints: float32 aot_lstm_f32; integer the packed kernel when
 * lstm_use_s8p says so, else aot_lstm_s8 / aot_lstm_s16. */
static int lstm_lower(const ir_graph *g, const ir_op *op, lower_list *L, char *why, size_t n) {
  if (lstm_check(g, op, why, n)) return -1;
  int dt = ir_in(g, op, LSTM_IN)->dtype;
  lower_call *c = &L->call[L->n++];
  if (dt == DT_FLOAT32) {
    lower_call_init(c, LK(aot_lstm_f32), -1, -1, -1, op->out[0]);
    lstm_prepare_f32(g, op, &c->u.lstm_f);
    lower_rec_arg_t(c, 0, in_id(op, LSTM_IN), NULL);
    for (int gi = 0; gi < 4; gi++) {
      lower_rec_arg_t(c, 1 + gi, in_id(op, LSTM_W_IN + gi), NULL);
      lower_rec_arg_t(c, 5 + gi, in_id(op, LSTM_W_REC + gi), NULL);
      lower_rec_arg_t(c, 9 + gi, gi == AOT_LSTM_C ? -1 : in_id(op, lstm_peep_index(gi)), NULL);
      lower_rec_arg_t(c, 13 + gi, in_id(op, LSTM_BIAS + gi), NULL);
      lower_rec_arg_t(c, 17 + gi, in_id(op, LSTM_LN + gi), NULL);
    }
    lower_rec_arg_t(c, 21, in_id(op, LSTM_W_PROJ), NULL);
    lower_rec_arg_t(c, 22, in_id(op, LSTM_B_PROJ), NULL);
    lower_rec_arg_t(c, 23, in_id(op, LSTM_HIDDEN), NULL);
    lower_rec_arg_t(c, 24, in_id(op, LSTM_CELL), NULL);
    lower_rec_arg_t(c, 25, op->out[0], NULL);
    lower_rec_arg_t(c, 26, LOWER_SCRATCH, "(float *)");
    return 0;
  }
  int packed = lstm_use_s8p(g, op);
  int lk = dt == DT_INT8 ? (packed ? LK(aot_lstm_s8p) : LK(aot_lstm_s8))
                         : (packed ? LK(aot_lstm_s16p) : LK(aot_lstm_s16));
  lower_call_init(c, lk, -1, -1, -1, op->out[0]);
  lstm_prepare_q(g, op, &c->u.lstm_q);
  if (packed) {
    lstm_lower_packed(g, op, c);
    return 0;
  }
  lstm_q_args(c, op, 0);
  lower_rec_arg_t(c, 16, LOWER_SCRATCH, "(int16_t *)");
  return 0;
}

const op_impl op_unidirectional_sequence_lstm = {
    .builtin = OP_UNIDIRECTIONAL_SEQUENCE_LSTM,
    .name = "UNIDIRECTIONAL_SEQUENCE_LSTM",
    .dtypes = "float32; int8 (int8 weights, int32 bias, int16 cell state); int16x8 "
              "(int16 activations, int8 weights, int64 bias, int16 cell state)",
    .constraints =
        "3-D input (time_major or batch major); hidden (input 18) and cell (input 19) states "
        "must be variable tensors; constant weights; float32 supports CIFG, peephole, layer "
        "norm, projection, cell_clip and proj_clip; integer follows TFLM's kernel: no CIFG, "
        "peephole, projection or layer norm, TANH cell activation, power-of-two cell scale, "
        "gate pre-activations in Q3.12 (intermediate tensors are not used)",
    .check = lstm_check,
    .scratch = lstm_scratch,
    .inplace = 0,
    .lower = lstm_lower,
};
