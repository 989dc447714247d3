/* op_elementwise.c - elementwise arithmetic (ADD, SUB, MUL, DIV,
 * SQUARED_DIFFERENCE, MAXIMUM, MINIMUM), comparisons, logical operators,
 * SELECT_V2, unary float math, QUANTIZE and DEQUANTIZE.
 *
 * Each operator has one *_plan() function that checks the op and computes
 * every kernel parameter (TFLite / TFLM Prepare arithmetic); check(), emit()
 * and eval() all go through it, so the generated module and the reference
 * interpreter cannot disagree. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quant_elementwise.h"

#define WHY char *why, size_t n

static const ir_tensor *tin(const ir_graph *g, const ir_op *op, int i) {
  return ir_in(g, op, i);
}

static int io_count(const ir_op *op, int nin, WHY) {
  if (op->nin < nin || op->nout < 1)
    return ew_fail(why, n, "needs %d inputs and 1 output", nin);
  for (int i = 0; i < nin; i++)
    if (op->in[i] < 0) return ew_fail(why, n, "input %d is missing", i);
  return 0;
}

static int32_t numel32(const ir_tensor *t) { return (int32_t)ir_numel(t); }

/* ---- shared plan builders ------------------------------------------------- */

/* Plans the broadcast of inputs 0..nin-1 to output 0. */
static int plan_bcast(const ir_graph *g, const ir_op *op, int nin, aot_bcast *b, WHY) {
  const ir_tensor *in[3] = {NULL, NULL, NULL};
  for (int i = 0; i < nin; i++) in[i] = tin(g, op, i);
  return ew_bcast_plan(ir_out(g, op, 0), in, nin, b, why, n);
}

/* Integer activation range of a fused activation (TFLite
 * CalculateActivationRange<int32_t>). */
static void act_range_i32(int act, int32_t *lo, int32_t *hi) {
  *lo = INT32_MIN;
  *hi = INT32_MAX;
  if (act == ACT_RELU) *lo = 0;
  else if (act == ACT_RELU6) *lo = 0, *hi = 6;
  else if (act == ACT_RELU_N1_TO_1) *lo = -1, *hi = 1;
}

/* ======================================================================== */
/* ADD / SUB                                                                 */
/* ======================================================================== */

/* Per-tensor quantization of both inputs and the output. */
static int per_tensor3(const ir_tensor *a, const ir_tensor *b, const ir_tensor *y, WHY) {
  return ew_check_per_tensor(a, "input 1", why, n) || ew_check_per_tensor(b, "input 2", why, n) ||
                 ew_check_per_tensor(y, "output", why, n)
             ? -1
             : 0;
}

/* The part ADD, SUB and MUL share: checks two inputs of the output's type and a
 * supported fused activation, and plans the float32 kernel kf or int32 kernel ki
 * (int32 clamped to the activation range unless clamp_i32 is 0). Returns 1 when
 * the output is int8 or int16 with per-tensor quantization throughout, so the
 * caller plans its quantized kernel; else 0 (planned) or -1 (refused). */
static int arith_plan_wide(const ir_graph *g, const ir_op *op, lower_call *pl, int kf, int ki,
                           int clamp_i32, WHY) {
  if (io_count(op, 2, why, n)) return -1;
  const ir_tensor *a = tin(g, op, 0), *b = tin(g, op, 1), *y = ir_out(g, op, 0);
  const int act = op->opts.fused_act;
  if (check_fused_act_supported(act, why, n)) return -1;
  if (a->dtype != b->dtype || a->dtype != y->dtype)
    return ew_fail(why, n, "input types %s, %s with output %s not supported",
                   dtype_name(a->dtype), dtype_name(b->dtype), dtype_name(y->dtype));
  switch (y->dtype) {
    case DT_FLOAT32:
      lower_call_init(pl, kf, op->in[0], op->in[1], -1, op->out[0]);
      act_range_float(act, &pl->u.af.act_min, &pl->u.af.act_max);
      return plan_bcast(g, op, 2, &pl->u.af.bc, why, n);
    case DT_INT32:
      lower_call_init(pl, ki, op->in[0], op->in[1], -1, op->out[0]);
      if (clamp_i32) act_range_i32(act, &pl->u.ai.act_min, &pl->u.ai.act_max);
      else pl->u.ai.act_min = INT32_MIN, pl->u.ai.act_max = INT32_MAX;
      return plan_bcast(g, op, 2, &pl->u.ai.bc, why, n);
    case DT_INT8:
    case DT_INT16:
      break;
    default:
      return ew_fail(why, n, "%s not supported", dtype_name(y->dtype));
  }
  return per_tensor3(a, b, y, why, n) ? -1 : 1;
}

static int addsub_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  const int is_sub = op->builtin == OP_SUB;
  /* TFLM ADD ignores the activation of int32 */
  const int r = arith_plan_wide(g, op, pl, is_sub ? LK(aot_sub_f32) : LK(aot_add_f32),
                                is_sub ? LK(aot_sub_s32) : LK(aot_add_s32), is_sub, why, n);
  if (r <= 0) return r;
  const ir_tensor *a = tin(g, op, 0), *b = tin(g, op, 1), *y = ir_out(g, op, 0);
  const int act = op->opts.fused_act;
  const float s1 = a->scale[0], s2 = b->scale[0], so = y->scale[0];
  const int32_t z1 = a->zero_point[0], z2 = b->zero_point[0], zo = y->zero_point[0];
  const int is16 = y->dtype == DT_INT16;
  const int32_t qmin = is16 ? INT16_MIN : INT8_MIN, qmax = is16 ? INT16_MAX : INT8_MAX;
  if (z1 < qmin || z1 > qmax || z2 < qmin || z2 > qmax || zo < qmin || zo > qmax)
    return ew_fail(why, n, "zero point outside the %s range", dtype_name(y->dtype));

  if (is16 && op->opts.pot_scale_int16 && z1 == 0 && z2 == 0 && zo == 0) {
    int l1, l2, lo;
    if (ew_checked_log2(s1, &l1) && ew_checked_log2(s2, &l2) && ew_checked_log2(so, &lo)) {
      /* TFLite's power-of-two int16 path */
      lower_call_init(pl, is_sub ? LK(aot_sub_s16_pot) : LK(aot_add_s16_pot), op->in[0], op->in[1], -1, op->out[0]);
      aot_addsub_pot_params *p = &pl->u.pot;
      p->in1_shift = l1 - lo;
      p->in2_shift = l2 - lo;
      if (!(p->in1_shift == 0 || p->in2_shift == 0) || p->in1_shift > 0 || p->in2_shift > 0)
        return ew_fail(why, n,
                       "int16 power-of-two scales need one input at the output scale and the "
                       "other finer");
      act_range_quant(y, act, &p->act_min, &p->act_max);
      return plan_bcast(g, op, 2, &p->bc, why, n);
    }
  }

  lower_call_init(pl,
                  is16 ? (is_sub ? LK(aot_sub_s16) : LK(aot_add_s16))
                       : (is_sub ? LK(aot_sub_s8) : LK(aot_add_s8)), op->in[0], op->in[1], -1, op->out[0]);
  aot_addsub_q_params *p = &pl->u.addsub;
  p->left_shift = is16 ? 15 : 20;
  p->in1_offset = -z1;
  p->in2_offset = -z2;
  p->out_offset = zo;
  double r1, r2, ro;
  if (!is_sub) {
    /* TFLM add_common.cc: double arithmetic */
    const double twice_max = 2.0 * (double)(s1 > s2 ? s1 : s2);
    r1 = (double)s1 / twice_max;
    r2 = (double)s2 / twice_max;
    ro = twice_max / ((double)(1 << p->left_shift) * (double)so);
  } else {
    /* TFLM sub_common.cc: float arithmetic, widened to double */
    const float twice_max = 2.0f * (s1 > s2 ? s1 : s2);
    r1 = (double)(s1 / twice_max);
    r2 = (double)(s2 / twice_max);
    ro = (double)(twice_max / ((float)(1 << p->left_shift) * so));
  }
  if (ew_qm_smaller_than_one(r1, &p->in1_mult, &p->in1_shift) ||
      ew_qm_smaller_than_one(r2, &p->in2_mult, &p->in2_shift) ||
      ew_qm_smaller_than_one(ro, &p->out_mult, &p->out_shift))
    return ew_fail(why, n, "scales give a rescale multiplier outside (0, 1)");
  act_range_quant(y, act, &p->act_min, &p->act_max);
  if (plan_bcast(g, op, 2, &p->bc, why, n)) return -1;
  if (p->bc.ndims == 0) { /* equal shapes: the kernel without a broadcast walk */
    if (!is16 && aot_addsub_s8_scratch_size(p) > 0) {
      /* int8 that the rescale table takes: in1, in2, out and the table in
       * the op's scratch (addsub_scratch) */
      pl->k = lower_kernel_get(is_sub ? LK(aot_sub_s8_tab) : LK(aot_add_s8_tab));
      pl->arg[0].t = op->in[0];
      pl->arg[1].t = op->in[1];
      pl->arg[2].t = op->out[0];
      pl->arg[3].t = LOWER_SCRATCH;
      return 0;
    }
    pl->k = lower_kernel_get(is16 ? (is_sub ? LK(aot_sub_s16_flat) : LK(aot_add_s16_flat))
                                  : (is_sub ? LK(aot_sub_s8_flat) : LK(aot_add_s8_flat)));
    /* int8: the portable loop, for a layer the rescale table does not take */
    if (!is16) pl->features |= LF(EW_S8_FLATP);
  }
  return 0;
}

/* ======================================================================== */
/* MUL / DIV / SQUARED_DIFFERENCE                                            */
/* ======================================================================== */

static int mul_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  const int r = arith_plan_wide(g, op, pl, LK(aot_mul_f32), LK(aot_mul_s32), 1, why, n);
  if (r <= 0) return r;
  const ir_tensor *a = tin(g, op, 0), *b = tin(g, op, 1), *y = ir_out(g, op, 0);
  const int act = op->opts.fused_act;
  const int is16 = y->dtype == DT_INT16;
  if (is16 && (a->zero_point[0] || b->zero_point[0] || y->zero_point[0]))
    return ew_fail(why, n, "int16 MUL needs zero points 0");
  lower_call_init(pl, is16 ? LK(aot_mul_s16) : LK(aot_mul_s8), op->in[0], op->in[1], -1, op->out[0]);
  aot_mul_q_params *p = &pl->u.mul;
  const double real = (double)a->scale[0] * (double)b->scale[0] / (double)y->scale[0];
  ew_qm(real, &p->out_mult, &p->out_shift);
  p->in1_offset = -a->zero_point[0];
  p->in2_offset = -b->zero_point[0];
  p->out_offset = y->zero_point[0];
  act_range_quant(y, act, &p->act_min, &p->act_max);
  return plan_bcast(g, op, 2, &p->bc, why, n);
}

static int float_binary_plan(const ir_graph *g, const ir_op *op, lower_call *pl, int k,
                             int with_act, WHY) {
  if (io_count(op, 2, why, n)) return -1;
  const ir_tensor *a = tin(g, op, 0), *b = tin(g, op, 1), *y = ir_out(g, op, 0);
  if (check_dtype(a, DT_FLOAT32, "input 1", why, n) ||
      check_dtype(b, DT_FLOAT32, "input 2", why, n) || check_dtype(y, DT_FLOAT32, "output", why, n))
    return -1;
  lower_call_init(pl, k, op->in[0], op->in[1], -1, op->out[0]);
  if (with_act) {
    if (check_fused_act_supported(op->opts.fused_act, why, n)) return -1;
    act_range_float(op->opts.fused_act, &pl->u.af.act_min, &pl->u.af.act_max);
    return plan_bcast(g, op, 2, &pl->u.af.bc, why, n);
  }
  return plan_bcast(g, op, 2, &pl->u.bp.bc, why, n);
}

static int div_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  return float_binary_plan(g, op, pl, LK(aot_div_f32), 1, why, n);
}

static int sqdiff_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  if (io_count(op, 2, why, n)) return -1;
  const ir_tensor *a = tin(g, op, 0), *b = tin(g, op, 1), *y = ir_out(g, op, 0);
  if (y->dtype == DT_FLOAT32) return float_binary_plan(g, op, pl, LK(aot_squared_diff_f32), 0, why, n);
  if ((y->dtype != DT_INT8 && y->dtype != DT_INT16) || a->dtype != y->dtype ||
      b->dtype != y->dtype)
    return ew_fail(why, n, "input types %s, %s with output %s not supported",
                   dtype_name(a->dtype), dtype_name(b->dtype), dtype_name(y->dtype));
  if (per_tensor3(a, b, y, why, n)) return -1;
  const int is16 = y->dtype == DT_INT16;
  const int32_t z1 = a->zero_point[0], z2 = b->zero_point[0], zo = y->zero_point[0];
  if (is16 ? (z1 || z2 || zo)
           : (z1 < -128 || z1 > 127 || z2 < -128 || z2 > 127 || zo < -128 || zo > 127))
    return ew_fail(why, n, is16 ? "int16 needs zero points 0" : "zero point outside int8");
  lower_call_init(pl, is16 ? LK(aot_squared_diff_s16) : LK(aot_squared_diff_s8), op->in[0], op->in[1],
               -1, op->out[0]);
  aot_addsub_q_params *p = &pl->u.addsub;
  /* TFLM squared_difference.cc PrepareQuantized */
  p->left_shift = is16 ? 0 : 7;
  p->in1_offset = -z1;
  p->in2_offset = -z2;
  p->out_offset = zo;
  const float s1 = a->scale[0], s2 = b->scale[0];
  const double twice_max = 2.0 * (double)(s1 > s2 ? s1 : s2);
  const double ro = (twice_max * twice_max) /
                    (double)((float)(1 << (p->left_shift * 2)) * y->scale[0]);
  if (ew_qm_smaller_than_one((double)s1 / twice_max, &p->in1_mult, &p->in1_shift) ||
      ew_qm_smaller_than_one((double)s2 / twice_max, &p->in2_mult, &p->in2_shift))
    return ew_fail(why, n, "scales give a rescale multiplier outside (0, 1)");
  ew_qm(ro, &p->out_mult, &p->out_shift);
  p->act_min = is16 ? INT16_MIN : INT8_MIN;
  p->act_max = is16 ? INT16_MAX : INT8_MAX;
  return plan_bcast(g, op, 2, &p->bc, why, n);
}

/* ======================================================================== */
/* MAXIMUM / MINIMUM                                                         */
/* ======================================================================== */

static int maxmin_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  if (io_count(op, 2, why, n)) return -1;
  const ir_tensor *a = tin(g, op, 0), *b = tin(g, op, 1), *y = ir_out(g, op, 0);
  if (a->dtype != b->dtype || a->dtype != y->dtype)
    return ew_fail(why, n, "input types %s, %s with output %s not supported",
                   dtype_name(a->dtype), dtype_name(b->dtype), dtype_name(y->dtype));
  const int is_max = op->builtin == OP_MAXIMUM;
  int k;
  switch (y->dtype) {
    case DT_FLOAT32: k = is_max ? LK(aot_maximum_f32) : LK(aot_minimum_f32); break;
    case DT_INT8: k = is_max ? LK(aot_maximum_s8) : LK(aot_minimum_s8); break;
    case DT_INT16: k = is_max ? LK(aot_maximum_s16) : LK(aot_minimum_s16); break;
    case DT_INT32: k = is_max ? LK(aot_maximum_s32) : LK(aot_minimum_s32); break;
    default: return ew_fail(why, n, "%s not supported", dtype_name(y->dtype));
  }
  lower_call_init(pl, k, op->in[0], op->in[1], -1, op->out[0]);
  return plan_bcast(g, op, 2, &pl->u.bp.bc, why, n);
}

/* ======================================================================== */
/* Comparisons                                                               */
/* ======================================================================== */

static int cmp_code(int builtin) {
  switch (builtin) {
    case OP_EQUAL: return AOT_CMP_EQUAL;
    case OP_NOT_EQUAL: return AOT_CMP_NOT_EQUAL;
    case OP_LESS: return AOT_CMP_LESS;
    case OP_LESS_EQUAL: return AOT_CMP_LESS_EQUAL;
    case OP_GREATER: return AOT_CMP_GREATER;
    default: return AOT_CMP_GREATER_EQUAL;
  }
}

static int compare_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  if (io_count(op, 2, why, n)) return -1;
  const ir_tensor *a = tin(g, op, 0), *b = tin(g, op, 1), *y = ir_out(g, op, 0);
  if (check_dtype(y, DT_BOOL, "output", why, n)) return -1;
  if (a->dtype != b->dtype)
    return ew_fail(why, n, "inputs %s and %s differ", dtype_name(a->dtype), dtype_name(b->dtype));
  const int code = cmp_code(op->builtin);
  int k;
  switch (a->dtype) {
    case DT_FLOAT32: k = LK(aot_compare_f32); break;
    case DT_INT32: k = LK(aot_compare_s32); break;
    case DT_INT8: k = LK(aot_compare_s8); break;
    case DT_BOOL:
      if (code != AOT_CMP_EQUAL && code != AOT_CMP_NOT_EQUAL)
        return ew_fail(why, n, "bool inputs only for EQUAL / NOT_EQUAL");
      k = LK(aot_compare_u8);
      break;
    case DT_UINT8:
      if (a->nq || b->nq) return ew_fail(why, n, "quantized uint8 not supported");
      k = LK(aot_compare_u8);
      break;
    default:
      return ew_fail(why, n, "%s not supported", dtype_name(a->dtype));
  }
  lower_call_init(pl, k, op->in[0], op->in[1], -1, op->out[0]);
  aot_compare_params *p = &pl->u.cmp;
  p->op = code;
  if (a->dtype == DT_INT8) {
    /* TFLM comparisons_common.cc */
    if (ew_check_per_tensor(a, "input 1", why, n) || ew_check_per_tensor(b, "input 2", why, n))
      return -1;
    p->left_shift = 8;
    p->in1_offset = -a->zero_point[0];
    p->in2_offset = -b->zero_point[0];
    if (ew_qm_smaller_than_one((double)a->scale[0], &p->in1_mult, &p->in1_shift) ||
        ew_qm_smaller_than_one((double)b->scale[0], &p->in2_mult, &p->in2_shift))
      return ew_fail(why, n, "int8 comparison needs input scales below 1");
  }
  return plan_bcast(g, op, 2, &p->bc, why, n);
}

/* ======================================================================== */
/* Logical operators, SELECT_V2                                              */
/* ======================================================================== */

static int logical_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  const int unary = op->builtin == OP_LOGICAL_NOT;
  if (io_count(op, unary ? 1 : 2, why, n)) return -1;
  if (check_dtype(tin(g, op, 0), DT_BOOL, "input 1", why, n) ||
      (!unary && check_dtype(tin(g, op, 1), DT_BOOL, "input 2", why, n)) ||
      check_dtype(ir_out(g, op, 0), DT_BOOL, "output", why, n))
    return -1;
  if (unary) {
    lower_call_init(pl, LK(aot_logical_not), op->in[0], -1, -1, op->out[0]);
    pl->u.un.size = numel32(ir_out(g, op, 0));
    return 0;
  }
  lower_call_init(pl, op->builtin == OP_LOGICAL_AND ? LK(aot_logical_and) : LK(aot_logical_or),
               op->in[0], op->in[1], -1, op->out[0]);
  return plan_bcast(g, op, 2, &pl->u.bp.bc, why, n);
}

static int select_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  if (io_count(op, 3, why, n)) return -1;
  const ir_tensor *c = tin(g, op, 0), *x = tin(g, op, 1), *yv = tin(g, op, 2);
  const ir_tensor *y = ir_out(g, op, 0);
  if (check_dtype(c, DT_BOOL, "condition", why, n)) return -1;
  if (x->dtype != y->dtype || yv->dtype != y->dtype)
    return ew_fail(why, n, "value types %s, %s with output %s not supported",
                   dtype_name(x->dtype), dtype_name(yv->dtype), dtype_name(y->dtype));
  const size_t es = dtype_size(y->dtype);
  if (es != 1 && es != 2 && es != 4 && es != 8)
    return ew_fail(why, n, "%s not supported", dtype_name(y->dtype));
  if (x->nq && y->nq && (x->scale[0] != y->scale[0] || x->zero_point[0] != y->zero_point[0] ||
                         yv->scale[0] != y->scale[0] || yv->zero_point[0] != y->zero_point[0]))
    return ew_fail(why, n, "quantized values need the output's quantization");
  lower_call_init(pl, LK(aot_select), op->in[0], op->in[1], op->in[2], op->out[0]);
  pl->u.sel.elem_size = (int32_t)es;
  return plan_bcast(g, op, 3, &pl->u.sel.bc, why, n);
}

/* ======================================================================== */
/* Unary float math                                                          */
/* ======================================================================== */

static int unary_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  if (io_count(op, 1, why, n)) return -1;
  const ir_tensor *x = tin(g, op, 0), *y = ir_out(g, op, 0);
  int k = -1;
  if (op->builtin == OP_ABS && (x->dtype == DT_INT8 || x->dtype == DT_INT16)) {
    /* TFLM AbsEvalQuantized; unquantized int16 is a plain |x| */
    const int is16 = x->dtype == DT_INT16;
    if (y->dtype != x->dtype)
      return ew_fail(why, n, "input %s with output %s not supported", dtype_name(x->dtype),
                     dtype_name(y->dtype));
    if (ir_numel(x) != ir_numel(y)) return ew_fail(why, n, "input and output sizes differ");
    lower_call_init(pl, is16 ? LK(aot_abs_s16) : LK(aot_abs_s8), op->in[0], -1, -1, op->out[0]);
    aot_relu_q_params *p = &pl->u.relu;
    p->size = numel32(y);
    p->act_min = is16 ? INT16_MIN : INT8_MIN;
    p->act_max = is16 ? INT16_MAX : INT8_MAX;
    if (is16 && x->nq == 0 && y->nq == 0) {
      ew_qm(1.0, &p->mult, &p->shift);
      return 0;
    }
    if (ew_check_per_tensor(x, "input", why, n) || ew_check_per_tensor(y, "output", why, n))
      return -1;
    if (is16 && (x->zero_point[0] || y->zero_point[0]))
      return ew_fail(why, n, "int16 needs zero points 0");
    p->in_zp = x->zero_point[0];
    p->out_zp = y->zero_point[0];
    ew_qm((double)x->scale[0] / (double)y->scale[0], &p->mult, &p->shift);
    return 0;
  }
  static const struct {
    int code, k_f32, k_s32;
  } rows[] = {
#define EW_UNARY(VAR, CODE, NAME, KF32, KS32, DTYPES, CONSTRAINTS) {CODE, LK(KF32), LK(KS32)},
#include "ops_unary.def"
#undef EW_UNARY
  };
  int r = -1;
  for (int i = 0; i < (int)(sizeof rows / sizeof rows[0]); i++)
    if (rows[i].code == op->builtin) r = i;
  if (r < 0) return ew_fail(why, n, "unknown unary operator");
  if (rows[r].k_s32 >= 0 && x->dtype == DT_INT32 && y->dtype == DT_INT32) {
    k = rows[r].k_s32;
  } else {
    if (check_dtype(x, DT_FLOAT32, "input", why, n) || check_dtype(y, DT_FLOAT32, "output", why, n))
      return -1;
    k = rows[r].k_f32;
  }
  if (ir_numel(x) != ir_numel(y)) return ew_fail(why, n, "input and output sizes differ");
  lower_call_init(pl, k, op->in[0], -1, -1, op->out[0]);
  pl->u.un.size = numel32(y);
  return 0;
}

/* ======================================================================== */
/* QUANTIZE / DEQUANTIZE                                                     */
/* ======================================================================== */

static int rq_type(int dt) {
  switch (dt) {
    case DT_INT8: return AOT_RQ_S8;
    case DT_UINT8: return AOT_RQ_U8;
    case DT_INT16: return AOT_RQ_S16;
    case DT_INT32: return AOT_RQ_S32;
    default: return -1;
  }
}

static int quantize_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  if (io_count(op, 1, why, n)) return -1;
  const ir_tensor *x = tin(g, op, 0), *y = ir_out(g, op, 0);
  if (ir_numel(x) != ir_numel(y)) return ew_fail(why, n, "input and output sizes differ");
  if (ew_check_per_tensor(y, "output", why, n)) return -1;
  if (x->dtype == DT_FLOAT32) {
    int k = y->dtype == DT_INT8    ? LK(aot_quantize_f32_s8)
                    : y->dtype == DT_INT16 ? LK(aot_quantize_f32_s16)
                    : y->dtype == DT_UINT8 ? LK(aot_quantize_f32_u8)
                                           : -1;
    if (k < 0) return ew_fail(why, n, "float32 to %s not supported", dtype_name(y->dtype));
    lower_call_init(pl, k, op->in[0], -1, -1, op->out[0]);
    pl->u.q.size = numel32(y);
    pl->u.q.scale = y->scale[0];
    pl->u.q.zero_point = y->zero_point[0];
    return 0;
  }
  /* the accepted (input, output) pairs and their kernels */
  static const int pairs[][3] = {
      {DT_INT16, DT_INT8, LK(aot_requantize_s16_s8)},
      {DT_INT8, DT_INT8, LK(aot_requantize_s8_s8)},
      {DT_INT8, DT_UINT8, LK(aot_requantize_s8_u8)},
      {DT_UINT8, DT_INT8, LK(aot_requantize_u8_s8)},
      {DT_INT8, DT_INT16, LK(aot_requantize_s8_s16)},
      {DT_INT8, DT_INT32, LK(aot_requantize_s8_s32)},
      {DT_INT16, DT_INT16, LK(aot_requantize_s16_s16)},
      {DT_INT16, DT_INT32, LK(aot_requantize_s16_s32)},
      {DT_INT32, DT_INT8, LK(aot_requantize_s32_s8)},
      {DT_INT32, DT_INT16, LK(aot_requantize_s32_s16)},
  };
  int k = -1;
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
    if (pairs[i][0] == x->dtype && pairs[i][1] == y->dtype) k = pairs[i][2];
  if (k < 0)
    return ew_fail(why, n, "%s to %s not supported", dtype_name(x->dtype), dtype_name(y->dtype));
  if (ew_check_per_tensor(x, "input", why, n)) return -1;
  lower_call_init(pl, k, op->in[0], -1, -1, op->out[0]);
  aot_requant_params *p = &pl->u.rq;
  p->size = numel32(y);
  p->in_type = rq_type(x->dtype);
  p->out_type = rq_type(y->dtype);
  p->in_zp = x->zero_point[0];
  p->out_zp = y->zero_point[0];
  ew_qm((double)x->scale[0] / (double)y->scale[0], &p->mult, &p->shift);
  return 0;
}

static int dequantize_plan(const ir_graph *g, const ir_op *op, lower_call *pl, WHY) {
  if (io_count(op, 1, why, n)) return -1;
  const ir_tensor *x = tin(g, op, 0), *y = ir_out(g, op, 0);
  if (check_dtype(y, DT_FLOAT32, "output", why, n)) return -1;
  if (ir_numel(x) != ir_numel(y)) return ew_fail(why, n, "input and output sizes differ");
  if (x->dtype == DT_FLOAT16) {
    lower_call_init(pl, LK(aot_dequantize_f16), op->in[0], -1, -1, op->out[0]);
    pl->u.un.size = numel32(y);
    return 0;
  }
  int k = x->dtype == DT_INT8    ? LK(aot_dequantize_s8)
                  : x->dtype == DT_INT16 ? LK(aot_dequantize_s16)
                  : x->dtype == DT_UINT8 ? LK(aot_dequantize_u8)
                                         : -1;
  if (k < 0) return ew_fail(why, n, "%s input not supported", dtype_name(x->dtype));
  if (x->nq > 1) {
    /* per-channel (constant weights): [outer, channels, inner] around qdim */
    if ((x->dtype != DT_INT8 && x->dtype != DT_INT16) || x->qdim < 0 || x->qdim >= x->rank ||
        x->shape[x->qdim] != x->nq)
      return ew_fail(why, n, "per-channel quantization does not match the tensor shape");
    if (quant_check_tensor(x, "input", 1, why, n)) return -1;
    lower_call_init(pl, x->dtype == DT_INT8 ? LK(aot_dequantize_pc_s8) : LK(aot_dequantize_pc_s16),
                 op->in[0], -1, -1, op->out[0]);
    int32_t outer = 1, inner = 1;
    for (int d = 0; d < x->qdim; d++) outer *= x->shape[d];
    for (int d = x->qdim + 1; d < x->rank; d++) inner *= x->shape[d];
    pl->u.dpc.outer = outer;
    pl->u.dpc.channels = x->nq;
    pl->u.dpc.inner = inner;
    pl->nchan = x->nq;
    pl->chan_scale = xmalloc(sizeof(float) * (size_t)x->nq);
    pl->chan_zp = xmalloc(sizeof(int32_t) * (size_t)x->nq);
    memcpy(pl->chan_scale, x->scale, sizeof(float) * (size_t)x->nq);
    memcpy(pl->chan_zp, x->zero_point, sizeof(int32_t) * (size_t)x->nq);
    return 0;
  }
  if (ew_check_per_tensor(x, "input", why, n)) return -1;
  lower_call_init(pl, k, op->in[0], -1, -1, op->out[0]);
  pl->u.dq.size = numel32(y);
  pl->u.dq.scale = x->scale[0];
  pl->u.dq.zero_point = x->zero_point[0];
  return 0;
}

/* ======================================================================== */
/* op_impl glue                                                              */
/* ======================================================================== */

EW_GLUE(addsub, addsub_plan)
/* the scratch of an int8 ADD / SUB that the rescale table takes (its
 * kernel's size function, lower_scratch), else none */
static size_t addsub_scratch(const ir_graph *g, const ir_op *op) {
  return lower_scratch(addsub_lower, g, op);
}
EW_GLUE(mul, mul_plan)
EW_GLUE(div, div_plan)
EW_GLUE(sqdiff, sqdiff_plan)
EW_GLUE(maxmin, maxmin_plan)
EW_GLUE(compare, compare_plan)
EW_GLUE(logical, logical_plan)
EW_GLUE(select, select_plan)
EW_GLUE(unary, unary_plan)
EW_GLUE(quantize, quantize_plan)
EW_GLUE(dequantize, dequantize_plan)

#define BCAST_NOTE "numpy broadcasting up to " "6" " merged dimensions"

LOWER_OPDEF_SCRATCH(add, OP_ADD, "ADD", addsub_lower, 1, addsub_scratch, "int8, int16, float32, int32",
      "per-tensor quantization; " BCAST_NOTE "; fused RELU/RELU6/RELU_N1_TO_1; int16 uses the "
      "power-of-two path when pot_scale_int16 is set and all scales are powers of two")
LOWER_OPDEF_SCRATCH(sub, OP_SUB, "SUB", addsub_lower, 1, addsub_scratch, "int8, int16, float32, int32",
      "per-tensor quantization; " BCAST_NOTE "; fused RELU/RELU6/RELU_N1_TO_1")
EW_OPDEF(mul, OP_MUL, "MUL", mul, 1, "int8, int16, float32, int32",
      "per-tensor quantization; int16 zero points 0; " BCAST_NOTE)
EW_OPDEF(div, OP_DIV, "DIV", div, 1, "float32", BCAST_NOTE "; fused activation")
EW_OPDEF(squared_difference, OP_SQUARED_DIFFERENCE, "SQUARED_DIFFERENCE", sqdiff, 1,
      "int8, int16, float32", "per-tensor quantization; int16 zero points 0; " BCAST_NOTE)
EW_OPDEF(maximum, OP_MAXIMUM, "MAXIMUM", maxmin, 1, "int8, int16, int32, float32",
      "raw values (no requantization); " BCAST_NOTE)
EW_OPDEF(minimum, OP_MINIMUM, "MINIMUM", maxmin, 1, "int8, int16, int32, float32",
      "raw values (no requantization); " BCAST_NOTE)
#define CMP_DT "float32, int32, int8 (rescaled), bool (EQUAL/NOT_EQUAL)"
EW_OPDEF(equal, OP_EQUAL, "EQUAL", compare, 0, CMP_DT, "bool output; " BCAST_NOTE)
EW_OPDEF(not_equal, OP_NOT_EQUAL, "NOT_EQUAL", compare, 0, CMP_DT, "bool output; " BCAST_NOTE)
EW_OPDEF(less, OP_LESS, "LESS", compare, 0, CMP_DT, "bool output; " BCAST_NOTE)
EW_OPDEF(less_equal, OP_LESS_EQUAL, "LESS_EQUAL", compare, 0, CMP_DT, "bool output; " BCAST_NOTE)
EW_OPDEF(greater, OP_GREATER, "GREATER", compare, 0, CMP_DT, "bool output; " BCAST_NOTE)
EW_OPDEF(greater_equal, OP_GREATER_EQUAL, "GREATER_EQUAL", compare, 0, CMP_DT,
      "bool output; " BCAST_NOTE)
EW_OPDEF(logical_and, OP_LOGICAL_AND, "LOGICAL_AND", logical, 1, "bool", BCAST_NOTE)
EW_OPDEF(logical_or, OP_LOGICAL_OR, "LOGICAL_OR", logical, 1, "bool", BCAST_NOTE)
EW_OPDEF(logical_not, OP_LOGICAL_NOT, "LOGICAL_NOT", logical, 1, "bool", "")
EW_OPDEF(select_v2, OP_SELECT_V2, "SELECT_V2", select, 0, "any 1/2/4/8-byte type, bool condition",
      "three-way " BCAST_NOTE "; quantized values must share the output quantization")
/* the unary operators of ops_unary.def */
#define EW_UNARY(VAR, CODE, NAME, KF32, KS32, DTYPES, CONSTRAINTS) \
  EW_OPDEF(VAR, CODE, NAME, unary, 1, DTYPES, CONSTRAINTS)
#include "ops_unary.def"
#undef EW_UNARY
EW_OPDEF(quantize, OP_QUANTIZE, "QUANTIZE", quantize, 0,
      "float32->int8/int16/uint8; int8<->int8/uint8/int16/int32, int16->int8/int16/int32, "
      "uint8->int8, int32->int8/int16",
      "per-tensor output quantization")
EW_OPDEF(dequantize, OP_DEQUANTIZE, "DEQUANTIZE", dequantize, 0,
      "int8/int16/uint8->float32, float16->float32",
      "per-tensor quantization; int8/int16 per-channel (constant weights)")
