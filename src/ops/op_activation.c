/* op_activation.c - activations (LOGISTIC, TANH, RELU, RELU6, RELU_N1_TO_1,
 * LEAKY_RELU, HARD_SWISH, PRELU, ELU) and SOFTMAX / LOG_SOFTMAX.
 *
 * As in op_elementwise.c, one *_plan() per operator computes every kernel
 * parameter with the TFLM Prepare arithmetic; check, emit and eval share it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "quant_elementwise.h"

#define WHY char *why, size_t n

static int io1(const ir_graph *g, const ir_op *op, const ir_tensor **x, const ir_tensor **y,
               WHY) {
  if (op->nin < 1 || op->nout < 1 || op->in[0] < 0)
    return ew_fail(why, n, "needs 1 input and 1 output");
  *x = ir_in(g, op, 0);
  *y = ir_out(g, op, 0);
  if ((*x)->dtype != (*y)->dtype)
    return ew_fail(why, n, "input %s with output %s not supported", dtype_name((*x)->dtype),
                   dtype_name((*y)->dtype));
  if (ir_numel(*x) != ir_numel(*y)) return ew_fail(why, n, "input and output sizes differ");
  return 0;
}

static int32_t numel32(const ir_tensor *t) { return (int32_t)ir_numel(t); }

static int qtype_range(int dt, int32_t *lo, int32_t *hi) {
  if (dt == DT_INT8) *lo = INT8_MIN, *hi = INT8_MAX;
  else if (dt == DT_INT16) *lo = INT16_MIN, *hi = INT16_MAX;
  else return -1;
  return 0;
}

/* An int8 input and output, each with per-tensor quantization. */
static int int8_per_tensor(const ir_tensor *x, const ir_tensor *y, WHY) {
  if (x->dtype != DT_INT8) return ew_fail(why, n, "%s not supported", dtype_name(x->dtype));
  if (ew_check_per_tensor(x, "input", why, n) || ew_check_per_tensor(y, "output", why, n))
    return -1;
  return 0;
}

static int unary_f32(lower_call *pl, const ir_op *op, const ir_tensor *y, int k) {
  lower_call_init(pl, k, op->in[0], -1, -1, op->out[0]);
  pl->u.un.size = numel32(y);
  return 0;
}

/* One input and output: float32 planned with kernel kf, else int8 per-tensor
 * with kernel k8, whose parameters the caller fills when this returns 1. */
static int f32_or_s8_plan(const ir_graph *g, const ir_op *op, lower_call *pl, int kf, int k8,
                          const ir_tensor **x, const ir_tensor **y, WHY) {
  if (io1(g, op, x, y, why, n)) return -1;
  if ((*x)->dtype == DT_FLOAT32) return unary_f32(pl, op, *y, kf);
  if (int8_per_tensor(*x, *y, why, n)) return -1;
  lower_call_init(pl, k8, op->in[0], -1, -1, op->out[0]);
  return 1;
}

/* ======================================================================== */
/* LOGISTIC / TANH                                                           */
/* ======================================================================== */

/* TFLM logistic_common.cc / tanh.cc Prepare, reproduced bit for bit at every
 * input scale (issue 10):
 *  - int8: Q4.27 input multiplier from frexp(scale * 2^27) without
 *    renormalisation, input_range_radius = floor(15 * 2^27 / 2^left_shift).
 *    From left_shift 31 on (input scale >= 8) the radius is 0 and the
 *    kernel's two comparisons decide every input:
 *    input <= 0 (the zero point included) gives -128, input > 0 gives 127.
 *    That is TFLM's (and MCU runtimes') answer; LiteRT's optimized kernels
 *    give the mathematically correct midpoint for the zero point. aotc follows
 *    TFLM so integer outputs are bit-exact with the runtime MCU users compare
 *    against. TFLM evaluates 1LL << left_shift, undefined from left_shift 63
 *    (scale >= 2^35); aotc uses the value the formula defines there (0).
 *    Scales below 2^-28 give a negative left_shift, for which TFLM's radius is
 *    undefined: refused.
 *  - int16: multiplier trunc(scale * 3 * 4096 * 2^k) with k the smallest
 *    shift making it > 32767/2 (k <= 31), or the power-of-two shortcut. For
 *    scales above 32767 / 12288 (~2.67) k is 0 and the multiplier exceeds 15
 *    bits (TFLM only DCHECKs it); above 65536 / 12288 (~5.33) TFLM's int32
 *    product in * multiplier wraps for large |in| (a 32-bit MUL on every MCU
 *    and host; the kernel reproduces that wrap, so such outputs match TFLM,
 *    not the real function). A multiplier that does not fit
 *    int32 (scale >= 2^31 / 12288 ~ 174763) or truncates to 0 (scale below
 *    ~3.8e-14) makes TFLM's arithmetic undefined: refused. */
static int sigmoid_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  const ir_tensor *x = NULL, *y = NULL;
  const int is_tanh = op->builtin == OP_TANH;
  if (io1(g, op, &x, &y, why, n)) return -1;
  if (x->dtype == DT_FLOAT32)
    return unary_f32(pl, op, y, is_tanh ? LK(aot_tanh_f32) : LK(aot_logistic_f32));
  if (x->dtype != DT_INT8 && x->dtype != DT_INT16)
    return ew_fail(why, n, "%s not supported", dtype_name(x->dtype));
  if (ew_check_per_tensor(x, "input", why, n) || ew_check_per_tensor(y, "output", why, n))
    return -1;
  if (x->dtype == DT_INT8) {
    if (!is_tanh && y->zero_point[0] != -128)
      return ew_fail(why, n, "int8 LOGISTIC needs output zero point -128 (has %d)",
                     (int)y->zero_point[0]);
    if (x->zero_point[0] < INT8_MIN || x->zero_point[0] > INT8_MAX)
      return ew_fail(why, n, "input zero point %d outside int8 [-128, 127]",
                     (int)x->zero_point[0]);
    lower_call_init(pl, is_tanh ? LK(aot_tanh_s8) : LK(aot_logistic_s8), op->in[0], -1, -1,
                 op->out[0]);
    aot_sigmoid_s8_params *p = &pl->u.s8;
    /* TFLM: Q4.27 input; frexp-based multiplier without renormalization */
    const double m = (double)x->scale[0] * (double)(1 << (31 - 4));
    int shift;
    const double q = frexp(m, &shift);
    const double qm = round(q * (double)(1LL << 31));
    if (shift < 0)
      return ew_fail(why, n,
                     "input scale %g below 2^-28 (TFLM's int8 input radius is undefined there); "
                     "requantize the input to a larger scale",
                     (double)x->scale[0]);
    p->size = numel32(y);
    p->in_zp = x->zero_point[0];
    /* q * 2^31 rounds to 2^31 just below a power of two: Arm's conversion
     * saturates to INT32_MAX (x86's would give INT32_MIN). */
    p->mult = qm >= 2147483647.0 ? INT32_MAX : (int32_t)qm;
    p->left_shift = shift;
    p->range_radius = shift >= 31 ? 0 : ew_input_radius(4, shift);
    return 0;
  }
  /* int16: TFLM logistic_common.cc / tanh.cc */
  if (x->zero_point[0] != 0 || y->zero_point[0] != 0)
    return ew_fail(why, n, "int16 needs zero points 0 (input %d, output %d)",
                   (int)x->zero_point[0], (int)y->zero_point[0]);
  int l2in, l2out;
  int pot = ew_checked_log2(x->scale[0], &l2in);
  int32_t left_shift = (15 - 3) + l2in, mult;
  pot = pot && (left_shift == 0 || (is_tanh && left_shift == 1));
  if (pot) {
    mult = 0;
  } else {
    double m = (double)x->scale[0] * 4096.0 * 3.0;
    left_shift = 0;
    while (m <= 32767.0 / 2.0 && left_shift <= 30) {
      left_shift++;
      m = m * 2.0;
    }
    if (!(m < 2147483648.0))
      return ew_fail(why, n,
                     "int16 input scale %g: TFLM's multiplier scale*12288 = %g does not fit "
                     "int32 (allowed scale < %.6g)",
                     (double)x->scale[0], (double)x->scale[0] * 12288.0, 2147483648.0 / 12288.0);
    mult = (int32_t)m;
    if (mult < 1)
      return ew_fail(why, n,
                     "int16 input scale %g too small: TFLM's multiplier truncates to 0 "
                     "(allowed scale >= %.3g)",
                     (double)x->scale[0], 1.0 / (12288.0 * 2147483648.0));
  }
  if (!ew_checked_log2(y->scale[0], &l2out) || l2out != -15)
    return ew_fail(why, n, "int16 output scale must be 2^-15 (has %g)", (double)y->scale[0]);
  lower_call_init(pl, is_tanh ? LK(aot_tanh_s16) : LK(aot_logistic_s16), op->in[0], -1, -1,
               op->out[0]);
  pl->u.s16.size = numel32(y);
  pl->u.s16.mult = mult;
  pl->u.s16.left_shift = left_shift;
  return 0;
}

/* ======================================================================== */
/* RELU / RELU6 / RELU_N1_TO_1                                               */
/* ======================================================================== */

static int relu_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  const ir_tensor *x, *y;
  if (io1(g, op, &x, &y, why, n)) return -1;
  float lo_f = 0.0f, hi_f = INFINITY;
  if (op->builtin == OP_RELU6) hi_f = 6.0f;
  if (op->builtin == OP_RELU_N1_TO_1) lo_f = -1.0f, hi_f = 1.0f;
  if (x->dtype == DT_FLOAT32) {
    lower_call_init(pl, LK(aot_act_clamp_f32), op->in[0], -1, -1, op->out[0]);
    pl->u.cf.size = numel32(y);
    pl->u.cf.lo = lo_f;
    pl->u.cf.hi = hi_f;
    return 0;
  }
  int32_t qmin, qmax;
  if (qtype_range(x->dtype, &qmin, &qmax))
    return ew_fail(why, n, "%s not supported", dtype_name(x->dtype));
  if (ew_check_per_tensor(x, "input", why, n) || ew_check_per_tensor(y, "output", why, n))
    return -1;
  const int is16 = x->dtype == DT_INT16;
  if (is16 && (x->zero_point[0] || y->zero_point[0]))
    return ew_fail(why, n, "int16 needs zero points 0");
  const int same_q = x->scale[0] == y->scale[0] && x->zero_point[0] == y->zero_point[0];
  if (op->builtin == OP_RELU6 && same_q) {
    /* TFLM Relu6: clamp to [zero, six] on the input scale */
    lower_call_init(pl, is16 ? LK(aot_act_clamp_s16) : LK(aot_act_clamp_s8), op->in[0], -1, -1,
                 op->out[0]);
    long six = lroundf(6.0f / x->scale[0]) + x->zero_point[0];
    pl->u.cq.size = numel32(y);
    pl->u.cq.lo = x->zero_point[0];
    pl->u.cq.hi = (int32_t)(six < qmin ? qmin : (six > qmax ? qmax : six));
    return 0;
  }
  /* TFLite ReluQuantized (CalculateReluOpData with act range [lo_f, hi_f]) */
  lower_call_init(pl, is16 ? LK(aot_relu_s16) : LK(aot_relu_s8), op->in[0], -1, -1, op->out[0]);
  aot_relu_q_params *p = &pl->u.relu;
  const float so = y->scale[0];
  const int32_t zo = y->zero_point[0];
  p->size = numel32(y);
  p->in_zp = x->zero_point[0];
  p->out_zp = zo;
  ew_qm((double)x->scale[0] / (double)so, &p->mult, &p->shift);
  long lo = zo + lroundf(lo_f / so);
  p->act_min = (int32_t)(lo > qmin ? lo : qmin);
  if (isinf(hi_f)) {
    p->act_max = qmax;
  } else {
    long hi = zo + lroundf(hi_f / so);
    p->act_max = (int32_t)(hi < qmax ? hi : qmax);
  }
  return 0;
}

/* ======================================================================== */
/* LEAKY_RELU                                                                */
/* ======================================================================== */

static int leaky_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  const ir_tensor *x, *y;
  if (io1(g, op, &x, &y, why, n)) return -1;
  const float alpha = op->opts.alpha;
  if (x->dtype == DT_FLOAT32) {
    lower_call_init(pl, LK(aot_leaky_relu_f32), op->in[0], -1, -1, op->out[0]);
    pl->u.lf.size = numel32(y);
    pl->u.lf.alpha = alpha;
    return 0;
  }
  if (x->dtype != DT_INT8 && x->dtype != DT_INT16)
    return ew_fail(why, n, "%s not supported", dtype_name(x->dtype));
  if (ew_check_per_tensor(x, "input", why, n) || ew_check_per_tensor(y, "output", why, n))
    return -1;
  lower_call_init(pl, x->dtype == DT_INT16 ? LK(aot_leaky_relu_s16) : LK(aot_leaky_relu_s8), op->in[0],
               -1, -1, op->out[0]);
  aot_leaky_relu_q_params *p = &pl->u.lq;
  p->size = numel32(y);
  p->in_zp = x->zero_point[0];
  p->out_zp = y->zero_point[0];
  /* TFLM leaky_relu_common.cc: float products, widened to double */
  const float alpha_m = x->scale[0] * alpha / y->scale[0];
  const float ident_m = x->scale[0] / y->scale[0];
  ew_qm((double)alpha_m, &p->mult_alpha, &p->shift_alpha);
  ew_qm((double)ident_m, &p->mult_identity, &p->shift_identity);
  return 0;
}

/* ======================================================================== */
/* HARD_SWISH                                                                */
/* ======================================================================== */

static int hswish_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  const ir_tensor *x, *y;
  const int r = f32_or_s8_plan(g, op, pl, LK(aot_hard_swish_f32), LK(aot_hard_swish_s8), &x, &y, why, n);
  if (r <= 0) return r;
  aot_hard_swish_s8_params *p = &pl->u.hs;
  /* TFLM hard_swish_common.cc */
  const float hires_input_scale = (1.0f / 128.0f) * x->scale[0];
  const float reluish_scale = 3.0f / 32768.0f;
  const float out_m = hires_input_scale / y->scale[0];
  const float reluish_m = hires_input_scale / reluish_scale;
  int32_t q;
  p->size = numel32(y);
  p->in_zp = x->zero_point[0];
  p->out_zp = y->zero_point[0];
  ew_qm((double)out_m, &q, &p->out_exp);
  p->out_mult16 = ew_downscale_multiplier16(q);
  if (p->out_exp > 0) return ew_fail(why, n, "output scale too small for the input scale");
  ew_qm((double)reluish_m, &q, &p->reluish_exp);
  p->reluish_mult16 = ew_downscale_multiplier16(q);
  return 0;
}

/* ======================================================================== */
/* PRELU                                                                     */
/* ======================================================================== */

static int prelu_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  if (op->nin < 2 || op->nout < 1 || op->in[0] < 0 || op->in[1] < 0)
    return ew_fail(why, n, "needs input, alpha and 1 output");
  const ir_tensor *x = ir_in(g, op, 0), *a = ir_in(g, op, 1), *y = ir_out(g, op, 0);
  const ir_tensor *ins[2] = {x, a};
  if (x->dtype != y->dtype)
    return ew_fail(why, n, "input %s with output %s not supported", dtype_name(x->dtype),
                   dtype_name(y->dtype));
  if (x->dtype == DT_FLOAT32) {
    if (check_dtype(a, DT_FLOAT32, "alpha", why, n)) return -1;
    lower_call_init(pl, LK(aot_prelu_f32), op->in[0], op->in[1], -1, op->out[0]);
    return ew_bcast_plan(y, ins, 2, &pl->u.bp.bc, why, n);
  }
  if (x->dtype != DT_INT8 && x->dtype != DT_INT16)
    return ew_fail(why, n, "%s not supported", dtype_name(x->dtype));
  if (check_dtype(a, DT_INT8, "alpha", why, n)) return -1;
  if (ew_check_per_tensor(x, "input", why, n) || ew_check_per_tensor(a, "alpha", why, n) ||
      ew_check_per_tensor(y, "output", why, n))
    return -1;
  lower_call_init(pl, x->dtype == DT_INT16 ? LK(aot_prelu_s16) : LK(aot_prelu_s8), op->in[0],
               op->in[1], -1, op->out[0]);
  aot_prelu_q_params *p = &pl->u.prelu;
  ew_qm((double)x->scale[0] / (double)y->scale[0], &p->mult1, &p->shift1);
  ew_qm((double)x->scale[0] * (double)a->scale[0] / (double)y->scale[0], &p->mult2, &p->shift2);
  p->in_offset = -x->zero_point[0];
  p->alpha_offset = -a->zero_point[0];
  p->out_offset = y->zero_point[0];
  return ew_bcast_plan(y, ins, 2, &p->bc, why, n);
}

/* ======================================================================== */
/* ELU                                                                       */
/* ======================================================================== */

static float elu_transform(float v) { return v < 0.0f ? expf(v) - 1.0f : v; }

static int elu_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  const ir_tensor *x, *y;
  const int r = f32_or_s8_plan(g, op, pl, LK(aot_elu_f32), LK(aot_lut_s8), &x, &y, why, n);
  if (r <= 0) return r;
  pl->u.lut.size = numel32(y);
  pl->nlut8 = 1;
  /* TFLM elu.cc PopulateLookupTable (float arithmetic) */
  const float inverse_scale = 1.0f / y->scale[0];
  for (int32_t v = -128; v <= 127; v++) {
    const float deq = x->scale[0] * (float)(v - x->zero_point[0]);
    const float t = elu_transform(deq);
    const float rescaled = roundf(t * inverse_scale);
    const float qf = rescaled + (float)y->zero_point[0];
    int32_t q = qf >= 2147483647.0f ? INT32_MAX : (qf <= -2147483648.0f ? INT32_MIN : (int32_t)qf);
    q = q < -128 ? -128 : (q > 127 ? 127 : q);
    pl->lut8[(uint8_t)(int8_t)v] = (int8_t)q;
  }
  return 0;
}

/* ======================================================================== */
/* SOFTMAX / LOG_SOFTMAX                                                     */
/* ======================================================================== */

static float lut_exp(float v) { return expf(v); }
static float lut_one_over_one_plus_x(float v) { return 1.0f / (1.0f + v); }

/* int8 SOFTMAX: an int8 row's differences to its maximum are the at most 256
 * integers 0, -1, ..., -255, so the exponential of each (gemmlowp
 * exp_on_negative_values of the rescaled difference: the kernel's own
 * expression, aot_softmax_s8.c) can be made here, once, as a table of
 * n = min(256, 1 - diff_min) int32 (below diff_min the kernel takes 0, which
 * gives the same outputs). Each element then reads its exponential twice
 * instead of computing it twice: 331 -> 71 instructions per element on
 * Cortex-M4 (test_softmax_table.sh prints the figures). The table costs 4 n
 * constant bytes, so it is made only when the op saves at least 64
 * instructions per table byte per inference, the rule kernel_choice charges
 * for code: counting 250 saved per element, elements >= 64 * 4 n / 250,
 * about n (256 elements for a full table: a 1000-class head or an attention
 * block, not a 12-class one). */
static void softmax_s8_table(lower_call *pl, int64_t elements) {
  const aot_softmax_params *p = &pl->u.sm;
  const int32_t n = p->diff_min <= -255 ? 256 : 1 - p->diff_min;
  if (elements * 250 < (int64_t)64 * 4 * n) return;
  for (int32_t d = 0; d < n; d++)
    pl->lut32[d] = aot_fx_exp_neg(aot_mbqm_gt1(-d, p->input_mult, p->input_left_shift), 5);
  pl->nlut32 = n;
  pl->features |= LF(SOFTMAX_S8_TAB);
}

/* int8 SOFTMAX of two classes (rows of 2, VWW's person / no person): each
 * output depends only on d = max - other (0..255) and on whether the element
 * is the row's maximum (ties: both are), so the portable kernel itself,
 * run here on the rows (127, 127 - d) with the op's parameters, gives every
 * output the op can have: T_max[d] = out[0], T_other[d] = out[1]. The tables
 * are cut at the first n past which neither changes (the outputs saturate:
 * 127 / -128 or the int16 ends), and aot_softmax2_s8.c reads a row's two
 * outputs from them instead of linking the general kernel (1,078 code bytes
 * on Cortex-M4, against 110). Constant bytes: 2 n for int8 output, 4 n for
 * int16. The general kernel never fails on a row of two (the maximum's
 * exponential is 1, the other's at most 1: the sum is in [1, 2], its
 * reciprocal's exponent in range); if it did, the op keeps it (returns -1). */
static int softmax2_tables(lower_call *pl, int out16) {
  aot_softmax_params q = pl->u.sm;
  int16_t tmax[256], toth[256];
  int32_t n = 256;
  q.outer = 1;
  q.depth = 2;
  q.exp_tab = NULL;
  q.exp_tab_n = 0;
  for (int32_t d = 0; d < 256; d++) {
    const int8_t row[2] = {127, (int8_t)(127 - d)};
    int8_t o8[2];
    int16_t o16[2];
    const int32_t st = out16 ? aot_softmax_s8_s16(&q, row, o16) : aot_softmax_s8(&q, row, o8);
    if (st != AOT_KERNEL_OK) return -1;
    tmax[d] = out16 ? o16[0] : o8[0];
    toth[d] = out16 ? o16[1] : o8[1];
  }
  while (n > 1 && tmax[n - 2] == tmax[n - 1] && toth[n - 2] == toth[n - 1]) n--;
  /* the layout aot_softmax2_s8.c reads: int16 output T_max then T_other;
   * int8 output one entry T_other * 256 + T_max + 128 for both */
  for (int32_t d = 0; d < n; d++) {
    if (out16) {
      pl->lut16[0][d] = tmax[d];
      pl->lut16[0][n + d] = toth[d];
    } else {
      pl->lut16[0][d] = (int16_t)(toth[d] * 256 + tmax[d] + 128);
    }
  }
  pl->nlut16 = 1;
  pl->k = lower_kernel_get(out16 ? LK(aot_softmax2_s8_s16) : LK(aot_softmax2_s8));
  pl->u.sm.input_mult = pl->u.sm.input_left_shift = pl->u.sm.diff_min = 0;
  pl->u.sm.exp_tab_n = out16 ? 2 * n : n;
  return 0;
}

static int softmax_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  if (op->nin < 1 || op->nout < 1 || op->in[0] < 0)
    return ew_fail(why, n, "needs 1 input and 1 output");
  const ir_tensor *x = ir_in(g, op, 0), *y = ir_out(g, op, 0);
  const int is_log = op->builtin == OP_LOG_SOFTMAX;
  if (x->rank < 1) return ew_fail(why, n, "input rank must be at least 1");
  if (ir_numel(x) != ir_numel(y)) return ew_fail(why, n, "input and output sizes differ");
  const int32_t depth = x->shape[x->rank - 1];
  const int32_t outer = depth > 0 ? numel32(x) / depth : 0;
  const float beta = is_log ? 1.0f : op->opts.beta;
  int k = -1;
  if (x->dtype == DT_FLOAT32) {
    if (check_dtype(y, DT_FLOAT32, "output", why, n)) return -1;
    k = is_log ? LK(aot_log_softmax_f32) : LK(aot_softmax_f32);
  } else if (is_log) {
    if (x->dtype != DT_INT8 || y->dtype != DT_INT8)
      return ew_fail(why, n, "LOG_SOFTMAX %s to %s not supported", dtype_name(x->dtype),
                     dtype_name(y->dtype));
    if (ew_check_per_tensor(x, "input", why, n) || ew_check_per_tensor(y, "output", why, n))
      return -1;
    if (y->zero_point[0] != 127 || y->scale[0] != 16.0f / 256.0f)
      return ew_fail(why, n, "int8 LOG_SOFTMAX output needs scale 16/256 and zero point 127");
    k = LK(aot_log_softmax_s8);
  } else if (x->dtype == DT_INT8) {
    if (ew_check_per_tensor(x, "input", why, n) || ew_check_per_tensor(y, "output", why, n))
      return -1;
    if (y->dtype == DT_INT8) {
      if (y->zero_point[0] != -128 || y->scale[0] != 1.0f / 256.0f)
        return ew_fail(why, n, "int8 output needs scale 1/256 and zero point -128");
      k = LK(aot_softmax_s8);
    } else if (y->dtype == DT_INT16) {
      if (y->zero_point[0] != -32768 ||
          fabsf(y->scale[0] - 1.0f / 65536.0f) > 0.001f * (1.0f / 65536.0f))
        return ew_fail(why, n, "int16 output needs scale 1/65536 and zero point -32768");
      k = LK(aot_softmax_s8_s16);
    } else {
      return ew_fail(why, n, "int8 input with %s output not supported", dtype_name(y->dtype));
    }
  } else if (x->dtype == DT_INT16) {
    if (check_dtype(y, DT_INT16, "output", why, n)) return -1;
    if (ew_check_per_tensor(x, "input", why, n) || ew_check_per_tensor(y, "output", why, n))
      return -1;
    if (y->zero_point[0] != 0 ||
        fabsf(y->scale[0] - 1.0f / 32768.0f) > 0.001f * (1.0f / 32768.0f))
      return ew_fail(why, n, "int16 output needs scale 1/32768 and zero point 0");
    k = LK(aot_softmax_s16);
  } else {
    return ew_fail(why, n, "%s not supported", dtype_name(x->dtype));
  }
  lower_call_init(pl, k, op->in[0], -1, -1, op->out[0]);
  aot_softmax_params *p = &pl->u.sm;
  p->outer = outer;
  p->depth = depth;
  if (x->dtype == DT_FLOAT32) {
    p->beta = beta;
  } else if (x->dtype == DT_INT8 && is_log) {
    /* TFLM PreprocessLogSoftmaxScalingExp, beta 1 */
    int32_t rs_shift;
    if (ew_softmax_scaling(1.0, (double)x->scale[0], 5, &p->input_mult, &p->input_left_shift) ||
        p->input_left_shift < 1)
      return ew_fail(why, n, "input scale out of range");
    const double divisor =
        (double)(1LL << (31 - p->input_left_shift)) / (double)p->input_mult;
    if (ew_qm_smaller_than_one(divisor, &p->reverse_scaling_divisor, &rs_shift))
      return ew_fail(why, n, "input scale out of range");
    p->reverse_scaling_right_shift = -rs_shift;
    p->diff_min = -ew_input_radius(5, p->input_left_shift);
  } else if (x->dtype == DT_INT8) {
    if (ew_softmax_scaling((double)beta, (double)x->scale[0], 5, &p->input_mult,
                           &p->input_left_shift))
      return ew_fail(why, n, "beta x input scale too small");
    p->diff_min = -ew_input_radius(5, p->input_left_shift);
    if (depth != 2 || softmax2_tables(pl, y->dtype == DT_INT16))
      softmax_s8_table(pl, (int64_t)outer * depth);
  } else {
    const double rescale = (double)x->scale[0] * (double)beta / (10.0 / 65535.0);
    ew_qm(rescale, &p->input_mult, &p->input_left_shift);
    pl->nlut16 = 2;
    ew_gen_lut16(lut_exp, -10.0f, 0.0f, -1.0f, 1.0f, pl->lut16[0]);
    ew_gen_lut16(lut_one_over_one_plus_x, 0.0f, 1.0f, -1.0f, 1.0f, pl->lut16[1]);
  }
  return 0;
}

/* ======================================================================== */
/* op_impl glue                                                              */
/* ======================================================================== */

EW_GLUE(sigmoid, sigmoid_plan)
EW_GLUE(relu, relu_plan)
EW_GLUE(leaky, leaky_plan)
EW_GLUE(hswish, hswish_plan)
EW_GLUE(prelu, prelu_plan)
EW_GLUE(elu, elu_plan)
EW_GLUE(softmax, softmax_plan)

EW_OPDEF(logistic, OP_LOGISTIC, "LOGISTIC", sigmoid, 1, "int8, int16, float32",
      "int8: output zero point -128 (scale 1/256), gemmlowp fixed point, any input scale >= "
      "2^-28; from input scale 8 on TFLM's input radius is 0 and, as in TFLM (LiteRT's optimized "
      "kernel differs), an input at the zero point gives -128; int16: zero points 0, output "
      "scale 2^-15, table interpolation, input scale 3.8e-14 .. 174762 with TFLM's int32 "
      "wrap-around above 5.33")
EW_OPDEF(tanh, OP_TANH, "TANH", sigmoid, 1, "int8, int16, float32",
      "int8: output scale 1/128 zero point 0, gemmlowp fixed point, any input scale >= 2^-28; "
      "from input scale 8 on TFLM's input radius is 0 and, as in TFLM (LiteRT's optimized kernel "
      "differs), an input at the zero point gives -128; int16: zero points 0, output scale "
      "2^-15, table interpolation, input scale 3.8e-14 .. 174762 with TFLM's int32 wrap-around "
      "above 5.33")
EW_OPDEF(relu, OP_RELU, "RELU", relu, 1, "int8, int16, float32",
      "quantized input is requantized to the output; int16 zero points 0")
EW_OPDEF(relu6, OP_RELU6, "RELU6", relu, 1, "int8, int16, float32",
      "same input/output quantization: clamp only (TFLM); otherwise requantized")
EW_OPDEF(relu_n1_to_1, OP_RELU_N1_TO_1, "RELU_N1_TO_1", relu, 1, "int8, int16, float32",
      "quantized input is requantized to the output")
EW_OPDEF(leaky_relu, OP_LEAKY_RELU, "LEAKY_RELU", leaky, 1, "int8, int16, float32", "")
EW_OPDEF(hard_swish, OP_HARD_SWISH, "HARD_SWISH", hswish, 1, "int8, float32",
      "int8: TFLite reference fixed-point algorithm")
EW_OPDEF(prelu, OP_PRELU, "PRELU", prelu, 1, "int8, int16 (int8 alpha), float32",
      "alpha broadcast to the input (numpy rules)")
EW_OPDEF(elu, OP_ELU, "ELU", elu, 1, "int8, float32", "int8: 256-entry table built at compile time")
EW_OPDEF(softmax, OP_SOFTMAX, "SOFTMAX", softmax, 0, "int8, int8->int16, int16, float32",
      "over the last dimension; int8 output scale 1/256 zp -128; int16 output (from int8) "
      "scale 1/65536 zp -32768; int16 input: output scale 1/32768 zp 0")
EW_OPDEF(log_softmax, OP_LOG_SOFTMAX, "LOG_SOFTMAX", softmax, 0, "int8, float32",
      "over the last dimension; int8 output scale 16/256 zero point 127")
