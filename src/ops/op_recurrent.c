/* op_recurrent.c - SVDF and UNIDIRECTIONAL_SEQUENCE_LSTM (the custom GRU is op_gru.c).
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

static char *float_dup(emit_ctx *e, float v) { return xstrdup(emit_float(e, v)); }

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
  int kind = svdf_kind(g, op), packed = svdf_packed(g, op, &p);
  /* the packed kernels read neither the original weights_feature nor bias */
  char *x = ptr_dup(e, in_id(op, 0)), *wf = ptr_dup(e, packed ? -1 : in_id(op, 1));
  char *wt = ptr_dup(e, in_id(op, 2)), *b = ptr_dup(e, packed ? -1 : in_id(op, 3));
  char *st = ptr_dup(e, in_id(op, 4)), *o = ptr_dup(e, op->out[0]);
  char *sc = xstrdup(emit_scratch_ptr(e));
  if (packed) {
    /* weights_feature interleaved per four filters, zero points folded */
    const ir_tensor *twf = ir_in(g, op, 1), *twt = ir_in(g, op, 2), *tb = ir_in(g, op, 3);
    const int nf = p.num_filters, mem = p.memory_size, nf4 = (nf + 3) & ~3;
    const size_t nwf = (size_t)nf4 * (size_t)aot_lstm_pad4(p.input_size);
    int8_t *wfp = xcalloc(nwf, 1);
    int32_t *fb = xcalloc((size_t)nf4, sizeof(int32_t));
    int32_t *be = xcalloc((size_t)p.num_units, sizeof(int32_t));
    int32_t *bias = NULL;
    int64_t *wts = xcalloc((size_t)nf, sizeof(int64_t));
    for (int f = 0; f < nf; f++)
      for (int t = 0; t < mem; t++) {
        size_t k = (size_t)f * mem + t;
        if (kind == SVDF_S8_S16) {
          int16_t v;
          memcpy(&v, twt->data + 2 * k, 2);
          wts[f] += v;
        } else {
          wts[f] += (int8_t)twt->data[k];
        }
      }
    if (tb) {
      bias = xcalloc((size_t)p.num_units, sizeof(int32_t));
      memcpy(bias, tb->data, (size_t)p.num_units * sizeof(int32_t));
    }
    aot_svdf_s8p_pack(&p, (const int8_t *)twf->data, wts, bias, wfp, fb, be);
    char *swf = xstrdup(emit_array_i8(e, "wf_packed", wfp, nwf));
    char *sfb = xstrdup(emit_array_i32(e, "feat_bias", fb, (size_t)nf4));
    char *sbe = xstrdup(emit_array_i32(e, "bias_folded", be, (size_t)p.num_units));
    emit_call(e, "%s(&%s_p, %s, %s, %s, %s, %s, %s, %s, %s)",
              kind == SVDF_S8_S16 ? "aot_svdf_s8p_s16" : "aot_svdf_s8p_s8", nm, x, swf,
              sfb, wt, sbe, st, o, sc);
    emit_kernel(e, "RecurrentFunctions/aot_svdf_s8p.c");
    free(wfp), free(fb), free(be), free(bias), free(wts), free(swf), free(sfb), free(sbe);
    free(x), free(wf), free(wt), free(b), free(st), free(o), free(sc);
    return 0;
  }
  const char *fn = kind == SVDF_F32 ? "aot_svdf_f32" : kind == SVDF_S8_S16 ? "aot_svdf_s8_s16"
                                                                         : "aot_svdf_s8_s8";
  emit_call(e, "%s(&%s_p, %s, %s, %s, %s, %s, %s, (%s *)%s)", fn, nm, x, wf, wt, b, st, o,
            kind == SVDF_F32 ? "float" : "int32_t", sc);
  emit_kernel(e, kind == SVDF_F32 ? "RecurrentFunctions/aot_svdf_f32.c"
                                  : "RecurrentFunctions/aot_svdf_s8.c");
  free(x), free(wf), free(wt), free(b), free(st), free(o), free(sc);
  return 0;
}

/* The host evaluation runs the portable kernels (the reference the packed
 * ones are tested against), whose scratch may exceed what scratch() planned
 * for the packed kernel of the module: a larger host buffer then (NULL when
 * the planned one suffices; the caller frees it). */
static void *eval_scratch(size_t planned, size_t need, void **scratch) {
  if (need <= planned) return NULL;
  void *tmp = xcalloc(1, need);
  *scratch = tmp;
  return tmp;
}

static int svdf_eval(const ir_graph *g, const ir_op *op, void *const *data, void *scratch) {
  aot_svdf_params p;
  svdf_prepare(g, op, &p);
  int b = in_id(op, 3), rc;
  const void *bias = b >= 0 ? data[b] : NULL;
  void *tmp = NULL;
  switch (svdf_kind(g, op)) {
    case SVDF_F32:
      return aot_svdf_f32(&p, data[op->in[0]], data[op->in[1]], data[op->in[2]], bias,
                          data[op->in[4]], data[op->out[0]], scratch);
    case SVDF_S8_S16:
      tmp = eval_scratch(svdf_scratch(g, op),
                         aot_svdf_s8_buffer_size(p.batch, p.num_filters, p.num_units), &scratch);
      rc = aot_svdf_s8_s16(&p, data[op->in[0]], data[op->in[1]], data[op->in[2]], bias,
                           data[op->in[4]], data[op->out[0]], scratch);
      break;
    default:
      tmp = eval_scratch(svdf_scratch(g, op),
                         aot_svdf_s8_buffer_size(p.batch, p.num_filters, p.num_units), &scratch);
      rc = aot_svdf_s8_s8(&p, data[op->in[0]], data[op->in[1]], data[op->in[2]], bias,
                          data[op->in[4]], data[op->out[0]], scratch);
      break;
  }
  free(tmp);
  return rc;
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
  if (!x || !wf || !out) return why_set(why, n, "LSTM input, forget weights and output required");
  if (x->rank != 3) return why_set(why, n, "LSTM input must be 3-D, got rank %d", x->rank);
  if (wf->rank != 2) return why_set(why, n, "LSTM weights must be 2-D");
  s->time = op->opts.time_major ? x->shape[0] : x->shape[1];
  s->batch = op->opts.time_major ? x->shape[1] : x->shape[0];
  s->input = x->shape[2];
  s->state = wf->shape[0];
  s->output = wp ? (wp->rank == 2 ? wp->shape[0] : -1) : s->state;
  if (s->time <= 0 || s->batch <= 0 || s->input <= 0 || s->state <= 0 || s->output <= 0)
    return why_set(why, n, "LSTM has empty or dynamic dimensions");
  if (out->rank == 0)
    return why_set(why, n, "LSTM output tensor has no shape (expected [%d, %d, %d])",
                   x->shape[0], x->shape[1], s->output);
  if (out->rank != 3 || out->shape[0] != x->shape[0] || out->shape[1] != x->shape[1] ||
      out->shape[2] != s->output)
    return why_set(why, n, "LSTM output shape does not match [%d, %d, %d]", x->shape[0],
                   x->shape[1], s->output);
  return 0;
}

/* Checks shapes of every present tensor and the variant features. */
static int lstm_check_common(const ir_graph *g, const ir_op *op, const lstm_shape *s, char *why,
                             size_t n) {
  const ir_tensor *h = ir_in(g, op, LSTM_HIDDEN), *c = ir_in(g, op, LSTM_CELL);
  if (!h || !c) return why_set(why, n, "LSTM hidden (input 18) and cell (input 19) states required");
  if (h->role != ROLE_PERSISTENT || c->role != ROLE_PERSISTENT)
    return why_set(why, n, "LSTM state tensors (inputs 18, 19) must be variable tensors");
  if ((long)ir_numel(h) != (long)s->batch * s->output)
    return why_set(why, n, "LSTM hidden state has %ld values, expected batch x output = %d x %d",
                   (long)ir_numel(h), s->batch, s->output);
  if ((long)ir_numel(c) != (long)s->batch * s->state)
    return why_set(why, n, "LSTM cell state has %ld values, expected batch x units = %d x %d",
                   (long)ir_numel(c), s->batch, s->state);
  int cifg = in_id(op, LSTM_W_IN + AOT_LSTM_I) < 0;
  for (int gi = 0; gi < 4; gi++) {
    const ir_tensor *wi = ir_in(g, op, LSTM_W_IN + gi), *wr = ir_in(g, op, LSTM_W_REC + gi);
    const ir_tensor *b = ir_in(g, op, LSTM_BIAS + gi);
    if (gi == AOT_LSTM_I && cifg) {
      if (wr || b) return why_set(why, n, "LSTM CIFG with input-gate recurrent weights or bias");
      continue;
    }
    if (!wi || !wr) return why_set(why, n, "LSTM gate %d weights missing", gi);
    if (wi->rank != 2 || wi->shape[0] != s->state || wi->shape[1] != s->input)
      return why_set(why, n, "LSTM input weights of gate %d must be [%d, %d]", gi, s->state,
                     s->input);
    if (wr->rank != 2 || wr->shape[0] != s->state || wr->shape[1] != s->output)
      return why_set(why, n, "LSTM recurrent weights of gate %d must be [%d, %d]", gi, s->state,
                     s->output);
    if (b && (b->rank != 1 || b->shape[0] != s->state))
      return why_set(why, n, "LSTM bias of gate %d must be [%d]", gi, s->state);
    if (wi->role != ROLE_CONST || wr->role != ROLE_CONST || (b && b->role != ROLE_CONST))
      return why_set(why, n, "LSTM weights and biases must be constant");
  }
  for (int k = 9; k < 24; k++) {
    if (k == LSTM_HIDDEN || k == LSTM_CELL) continue;
    const ir_tensor *t = ir_in(g, op, k);
    if (t && t->role != ROLE_CONST)
      return why_set(why, n, "LSTM input %d must be constant", k);
  }
  if (op->opts.diagonal_recurrent_tensors)
    return why_set(why, n, "LSTM diagonal recurrent tensors not supported");
  if (op->opts.cell_clip < 0 || op->opts.proj_clip < 0)
    return why_set(why, n, "LSTM negative cell_clip / proj_clip");
  return 0;
}

static int lstm_check(const ir_graph *g, const ir_op *op, char *why, size_t n) {
  if (op->nin < 24 || op->nout < 1)
    return why_set(why, n, "LSTM needs 24 inputs (got %d) and 1 output", op->nin);
  lstm_shape s;
  if (lstm_shapes(g, op, &s, why, n) || lstm_check_common(g, op, &s, why, n)) return -1;
  const ir_tensor *x = ir_in(g, op, LSTM_IN), *h = ir_in(g, op, LSTM_HIDDEN);
  const ir_tensor *c = ir_in(g, op, LSTM_CELL), *out = ir_out(g, op, 0);
  if (x->dtype == DT_FLOAT32) {
    for (int k = 0; k < 24; k++) {
      const ir_tensor *t = ir_in(g, op, k);
      if (t && t->dtype != DT_FLOAT32)
        return why_set(why, n, "float LSTM input %d is %s (hybrid LSTM not supported)", k,
                       dtype_name(t->dtype));
    }
    if (out->dtype != DT_FLOAT32) return why_set(why, n, "float LSTM output must be float32");
    int cifg = in_id(op, LSTM_W_IN + AOT_LSTM_I) < 0;
    int peep = in_id(op, 10) >= 0 || in_id(op, 11) >= 0 || in_id(op, 9) >= 0;
    if (peep && (in_id(op, 10) < 0 || in_id(op, 11) < 0 || (!cifg && in_id(op, 9) < 0)))
      return why_set(why, n, "LSTM peephole weights must be all present");
    int ln = 0;
    for (int k = LSTM_LN; k < 24; k++) ln |= in_id(op, k) >= 0;
    if (ln)
      for (int gi = 0; gi < 4; gi++)
        if (!(gi == AOT_LSTM_I && cifg) && in_id(op, LSTM_LN + gi) < 0)
          return why_set(why, n, "LSTM layer norm coefficients must be all present");
    if (in_id(op, LSTM_B_PROJ) >= 0 && in_id(op, LSTM_W_PROJ) < 0)
      return why_set(why, n, "LSTM projection bias without projection weights");
    int act = op->opts.fused_act;
    if (!act_code_ok(act)) return why_set(why, n, "LSTM activation %d not supported", act);
    return 0;
  }
  /* integer: TFLM's standard LSTM only */
  if (x->dtype != DT_INT8 && x->dtype != DT_INT16)
    return why_set(why, n, "LSTM input %s not supported (float32, int8, int16)",
                   dtype_name(x->dtype));
  if (in_id(op, LSTM_W_IN + AOT_LSTM_I) < 0)
    return why_set(why, n, "integer LSTM with CIFG (no input gate) not supported");
  for (int k = 9; k < 12; k++)
    if (in_id(op, k) >= 0) return why_set(why, n, "integer LSTM with peephole not supported");
  if (in_id(op, LSTM_W_PROJ) >= 0 || in_id(op, LSTM_B_PROJ) >= 0)
    return why_set(why, n, "integer LSTM with projection not supported");
  for (int k = LSTM_LN; k < 24; k++)
    if (in_id(op, k) >= 0) return why_set(why, n, "integer LSTM with layer norm not supported");
  int bias_dt = x->dtype == DT_INT8 ? DT_INT32 : DT_INT64;
  if (h->dtype != x->dtype || out->dtype != x->dtype)
    return why_set(why, n, "integer LSTM input, hidden state and output must share a dtype");
  if (c->dtype != DT_INT16) return why_set(why, n, "integer LSTM cell state must be int16");
  if (!per_tensor_q(x) || !per_tensor_q(h) || !per_tensor_q(c))
    return why_set(why, n, "integer LSTM needs per-tensor quantized input and states");
  for (int gi = 0; gi < 4; gi++) {
    const ir_tensor *wi = ir_in(g, op, LSTM_W_IN + gi), *wr = ir_in(g, op, LSTM_W_REC + gi);
    const ir_tensor *b = ir_in(g, op, LSTM_BIAS + gi);
    if (wi->dtype != DT_INT8 || wr->dtype != DT_INT8)
      return why_set(why, n, "integer LSTM weights must be int8");
    if (!per_tensor_q(wi) || !per_tensor_q(wr))
      return why_set(why, n, "integer LSTM weights must be per-tensor quantized");
    if (!has_zero_zp(wi) || !has_zero_zp(wr))
      return why_set(why, n, "integer LSTM weights must have zero point 0");
    if (!b) return why_set(why, n, "integer LSTM gate biases are required");
    if (b->dtype != bias_dt)
      return why_set(why, n, "integer LSTM bias must be %s", dtype_name(bias_dt));
  }
  if (x->dtype == DT_INT16 && (x->zero_point[0] != 0 || h->zero_point[0] != 0))
    return why_set(why, n, "int16 LSTM needs zero points 0");
  int p2;
  float l2 = logf(c->scale[0]) * (1.0f / logf(2.0f));
  p2 = (int)roundf(l2);
  if (fabsf(l2 - (float)p2) >= 1e-3f)
    return why_set(why, n, "integer LSTM cell state scale %g is not a power of two",
                   (double)c->scale[0]);
  if (op->opts.fused_act != ACT_TANH)
    return why_set(why, n, "integer LSTM cell activation %d not supported (TANH only)",
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

static void emit_ptr_array(emit_ctx *e, const ir_op *op, const char *field, int base, int last) {
  char *v[4];
  for (int gi = 0; gi < 4; gi++) v[gi] = ptr_dup(e, in_id(op, base + gi));
  emit_stmt(e, "  .%s = {%s, %s, %s, %s}%s", field, v[0], v[1], v[2], v[3], last ? "" : ",");
  for (int gi = 0; gi < 4; gi++) free(v[gi]);
}

/* int8 / int16: the gates' weights packed gate-major with zero-padded rows and the
 * zero points folded into the biases (aot_lstm_s8p_pack_gate), emitted as
 * the op's own arrays, for aot_lstm_s8p (after lstm_emit declared params). */
static void lstm_emit_s8p(emit_ctx *e, const ir_graph *g, const ir_op *op, const char *nm,
                          const char *x, const char *h, const char *c, const char *o,
                          const char *sc) {
  aot_lstm_q_params p;
  lstm_prepare_q(g, op, &p);
  const int ni = p.input_size, ns = p.state_size;
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
    aot_lstm_s8p_pack_gate(gi, ns, ni, p.input_zp, (const int8_t *)ti->data, bias, wi, bi);
    aot_lstm_s8p_pack_gate(gi, ns, ns, p.hidden_zp, (const int8_t *)tr->data, NULL, wr, br);
    free(bias);
  }
  char *swi = xstrdup(emit_array_i8(e, "w_in_packed", wi, nwi));
  char *swr = xstrdup(emit_array_i8(e, "w_rec_packed", wr, nwr));
  /* int16: zero points are 0, so no folding and int64 biases; int8: the
   * input and recurrent biases with the zero points folded in */
  char *sb = NULL, *sbi = NULL, *sbr = NULL;
  if (is16) {
    sb = xstrdup(emit_array_i64(e, "bias_packed", b64, (size_t)4 * ns));
  } else {
    sbi = xstrdup(emit_array_i32(e, "b_in_folded", bi, (size_t)4 * ns));
    sbr = xstrdup(emit_array_i32(e, "b_rec_folded", br, (size_t)4 * ns));
  }
  const char *kern = is16 ? "aot_lstm_s16p" : "aot_lstm_s8p";
  emit_stmt(e, "{");
  emit_stmt(e, "  const %s_tensors %s_t = {", kern, nm);
  emit_stmt(e, "  .input = %s,", x);
  emit_stmt(e, "  .w_in = %s,", swi);
  emit_stmt(e, "  .w_rec = %s,", swr);
  if (is16) {
    emit_stmt(e, "  .bias = %s,", sb);
  } else {
    emit_stmt(e, "  .b_in = %s,", sbi);
    emit_stmt(e, "  .b_rec = %s,", sbr);
  }
  emit_stmt(e, "  .hidden = %s,", h);
  emit_stmt(e, "  .cell = %s,", c);
  emit_stmt(e, "  .output = %s};", o);
  emit_call(e, "%s(&%s_p, &%s_t, %s)", kern, nm, nm, sc);
  emit_stmt(e, "}");
  emit_kernel(e, "RecurrentFunctions/aot_lstm_s8p.c");
  free(sb), free(b64), free(wi), free(wr), free(bi), free(br), free(swi), free(swr), free(sbi),
      free(sbr);
}

static int lstm_emit(emit_ctx *e, const ir_graph *g, const ir_op *op) {
  const char *nm = emit_opname(e);
  int dt = ir_in(g, op, LSTM_IN)->dtype;
  char *x = ptr_dup(e, op->in[LSTM_IN]), *h = ptr_dup(e, op->in[LSTM_HIDDEN]);
  char *c = ptr_dup(e, op->in[LSTM_CELL]), *o = ptr_dup(e, op->out[0]);
  char *sc = xstrdup(emit_scratch_ptr(e));
  if (dt == DT_FLOAT32) {
    aot_lstm_f32_params p;
    lstm_prepare_f32(g, op, &p);
    char *cc = float_dup(e, p.cell_clip), *pc = float_dup(e, p.proj_clip);
    emit_decl(e,
              "static const aot_lstm_f32_params %s_p = {\n"
              "  .batch = %d,\n  .time_steps = %d,\n  .input_size = %d,\n  .state_size = %d,\n"
              "  .output_size = %d,\n  .time_major = %d,\n  .cell_act = %d,\n"
              "  .cell_clip = %s,\n  .proj_clip = %s\n};",
              nm, p.batch, p.time_steps, p.input_size, p.state_size, p.output_size,
              p.time_major, p.cell_act, cc, pc);
    free(cc), free(pc);
    int peep[4] = {9, 10, -1, 11};
    char *pv[4];
    for (int gi = 0; gi < 4; gi++) pv[gi] = ptr_dup(e, peep[gi] < 0 ? -1 : in_id(op, peep[gi]));
    char *wp = ptr_dup(e, in_id(op, LSTM_W_PROJ)), *bp = ptr_dup(e, in_id(op, LSTM_B_PROJ));
    emit_stmt(e, "{");
    emit_stmt(e, "  const aot_lstm_f32_tensors %s_t = {", nm);
    emit_stmt(e, "  .input = %s,", x);
    emit_ptr_array(e, op, "w_in", LSTM_W_IN, 0);
    emit_ptr_array(e, op, "w_rec", LSTM_W_REC, 0);
    emit_stmt(e, "  .w_peep = {%s, %s, %s, %s},", pv[0], pv[1], pv[2], pv[3]);
    emit_ptr_array(e, op, "bias", LSTM_BIAS, 0);
    emit_ptr_array(e, op, "ln", LSTM_LN, 0);
    emit_stmt(e, "  .w_proj = %s,", wp);
    emit_stmt(e, "  .b_proj = %s,", bp);
    emit_stmt(e, "  .hidden = %s,", h);
    emit_stmt(e, "  .cell = %s,", c);
    emit_stmt(e, "  .output = %s};", o);
    emit_call(e, "aot_lstm_f32(&%s_p, &%s_t, (float *)%s)", nm, nm, sc);
    emit_stmt(e, "}");
    for (int gi = 0; gi < 4; gi++) free(pv[gi]);
    free(wp), free(bp);
    emit_kernel(e, "RecurrentFunctions/aot_lstm_f32.c");
  } else {
    aot_lstm_q_params p;
    lstm_prepare_q(g, op, &p);
    strbuf gates = {0};
    for (int gi = 0; gi < 4; gi++)
      sb_printf(&gates, "    {%d, %d, %d, %d}%s\n", p.gate[gi].in_mult, p.gate[gi].in_shift,
                p.gate[gi].rec_mult, p.gate[gi].rec_shift, gi < 3 ? "," : "");
    emit_decl(e,
              "static const aot_lstm_q_params %s_p = {\n"
              "  .batch = %d,\n  .time_steps = %d,\n  .input_size = %d,\n  .state_size = %d,\n"
              "  .time_major = %d,\n  .input_zp = %d,\n  .hidden_zp = %d,\n  .cell_act = %d,\n"
              "  .gate = { /* in_mult, in_shift, rec_mult, rec_shift: I, F, C, O */\n%s  },\n"
              "  .fc_mult = %d,\n  .fc_shift = %d,\n  .ig_mult = %d,\n  .ig_shift = %d,\n"
              "  .hid_mult = %d,\n  .hid_shift = %d,\n  .cell_scale_power = %d,\n"
              "  .cell_clip = %d\n};",
              nm, p.batch, p.time_steps, p.input_size, p.state_size, p.time_major, p.input_zp,
              p.hidden_zp, p.cell_act, gates.s, p.fc_mult, p.fc_shift, p.ig_mult, p.ig_shift,
              p.hid_mult, p.hid_shift, p.cell_scale_power, p.cell_clip);
    sb_free(&gates);
    if (lstm_use_s8p(g, op)) {
      lstm_emit_s8p(e, g, op, nm, x, h, c, o, sc);
      free(x), free(h), free(c), free(o), free(sc);
      return 0;
    }
    const char *sfx = dt == DT_INT8 ? "s8" : "s16";
    emit_stmt(e, "{");
    emit_stmt(e, "  const aot_lstm_%s_tensors %s_t = {", sfx, nm);
    emit_stmt(e, "  .input = %s,", x);
    emit_ptr_array(e, op, "w_in", LSTM_W_IN, 0);
    emit_ptr_array(e, op, "w_rec", LSTM_W_REC, 0);
    emit_ptr_array(e, op, "bias", LSTM_BIAS, 0);
    emit_stmt(e, "  .hidden = %s,", h);
    emit_stmt(e, "  .cell = %s,", c);
    emit_stmt(e, "  .output = %s};", o);
    emit_call(e, "aot_lstm_%s(&%s_p, &%s_t, (int16_t *)%s)", sfx, nm, nm, sc);
    emit_stmt(e, "}");
    emit_kernel(e, "RecurrentFunctions/aot_lstm_q.c");
  }
  free(x), free(h), free(c), free(o), free(sc);
  return 0;
}

static const void *opt_data(void *const *data, const ir_op *op, int i) {
  int t = in_id(op, i);
  return t >= 0 ? data[t] : NULL;
}

static int lstm_eval(const ir_graph *g, const ir_op *op, void *const *data, void *scratch) {
  int dt = ir_in(g, op, LSTM_IN)->dtype;
  if (dt == DT_FLOAT32) {
    aot_lstm_f32_params p;
    aot_lstm_f32_tensors t;
    lstm_prepare_f32(g, op, &p);
    memset(&t, 0, sizeof t);
    t.input = data[op->in[LSTM_IN]];
    for (int gi = 0; gi < 4; gi++) {
      t.w_in[gi] = opt_data(data, op, LSTM_W_IN + gi);
      t.w_rec[gi] = opt_data(data, op, LSTM_W_REC + gi);
      t.w_peep[gi] = gi == AOT_LSTM_C ? NULL : opt_data(data, op, lstm_peep_index(gi));
      t.bias[gi] = opt_data(data, op, LSTM_BIAS + gi);
      t.ln[gi] = opt_data(data, op, LSTM_LN + gi);
    }
    t.w_proj = opt_data(data, op, LSTM_W_PROJ);
    t.b_proj = opt_data(data, op, LSTM_B_PROJ);
    t.hidden = data[op->in[LSTM_HIDDEN]];
    t.cell = data[op->in[LSTM_CELL]];
    t.output = data[op->out[0]];
    return aot_lstm_f32(&p, &t, scratch);
  }
  aot_lstm_q_params p;
  lstm_prepare_q(g, op, &p);
  lstm_shape s = {0};
  char why[8];
  if (lstm_shapes(g, op, &s, why, sizeof why)) return -1;
  void *tmp = eval_scratch(lstm_scratch(g, op), aot_lstm_q_buffer_size(s.batch, s.state), &scratch);
  int rc;
  if (dt == DT_INT8) {
    aot_lstm_s8_tensors t;
    memset(&t, 0, sizeof t);
    t.input = data[op->in[LSTM_IN]];
    for (int gi = 0; gi < 4; gi++) {
      t.w_in[gi] = opt_data(data, op, LSTM_W_IN + gi);
      t.w_rec[gi] = opt_data(data, op, LSTM_W_REC + gi);
      t.bias[gi] = opt_data(data, op, LSTM_BIAS + gi);
    }
    t.hidden = data[op->in[LSTM_HIDDEN]];
    t.cell = data[op->in[LSTM_CELL]];
    t.output = data[op->out[0]];
    rc = aot_lstm_s8(&p, &t, scratch);
    free(tmp);
    return rc;
  }
  aot_lstm_s16_tensors t;
  memset(&t, 0, sizeof t);
  t.input = data[op->in[LSTM_IN]];
  for (int gi = 0; gi < 4; gi++) {
    t.w_in[gi] = opt_data(data, op, LSTM_W_IN + gi);
    t.w_rec[gi] = opt_data(data, op, LSTM_W_REC + gi);
    t.bias[gi] = opt_data(data, op, LSTM_BIAS + gi);
  }
  t.hidden = data[op->in[LSTM_HIDDEN]];
  t.cell = data[op->in[LSTM_CELL]];
  t.output = data[op->out[0]];
  rc = aot_lstm_s16(&p, &t, scratch);
  free(tmp);
  return rc;
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
    .emit = lstm_emit,
    .eval = lstm_eval,
};
