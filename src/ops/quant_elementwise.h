/* quant_elementwise.h - shared helpers of the elementwise / activation
 * operator implementations (op_elementwise.c, op_activation.c): broadcast
 * planning, the TFLite/TFLM quantization helpers those operators need and
 * their glue to the lowering step (lower.h); defined in quant_elementwise.c. */
#ifndef AOTC_QUANT_ELEMENTWISE_H
#define AOTC_QUANT_ELEMENTWISE_H

#include "aot_elementwise.h"
#include "lower.h"

/* ---- broadcasting -------------------------------------------------------- */

/* Plans the broadcast of nin (1..3) input tensors to the output tensor: numpy
 * rules (shapes right-aligned, extent 1 broadcasts), unit dimensions dropped
 * and adjacent dimensions that broadcast alike merged. Returns 0, or -1 with a
 * reason (incompatible shapes, more than AOT_EW_MAX_DIMS dimensions left). */
int ew_bcast_plan(const ir_tensor *out, const ir_tensor *const *in, int nin, aot_bcast *b,
                  char *why, size_t n);

/* Appends a C initializer of an aot_bcast ("{ .size = ..., ... }"). */
void ew_bcast_text(strbuf *sb, const aot_bcast *b);

/* Appends an int32 literal that is valid C for every value (INT32_MIN). */
void ew_i32_text(strbuf *sb, int32_t v);

/* ---- TFLite quantization helpers ----------------------------------------- */

/* QuantizeMultiplierSmallerThanOneExp: 0 < m < 1 required (else -1). */
int ew_qm_smaller_than_one(double m, int32_t *q, int32_t *shift);
/* QuantizeMultiplierGreaterThanOne: m > 1 required (else -1). */
int ew_qm_greater_than_one(double m, int32_t *q, int32_t *shift);
/* QuantizeMultiplier (any m), shift as int32. */
void ew_qm(double m, int32_t *q, int32_t *shift);
/* CheckedLog2(float): 1 if x is a power of two (within 1e-3 in log2). */
int ew_checked_log2(float x, int *log2_result);
/* CalculateInputRadius(input_integer_bits, input_left_shift, 31). */
int32_t ew_input_radius(int input_integer_bits, int input_left_shift);
/* PreprocessSoftmaxScaling (double rounding build). -1 if the multiplier
 * is not > 1. */
int ew_softmax_scaling(double beta, double input_scale, int input_integer_bits, int32_t *q,
                       int32_t *left_shift);
/* DownScaleInt32ToInt16Multiplier. */
int32_t ew_downscale_multiplier16(int32_t m);
/* TFLM gen_lut<float, int16_t, int16_t>: 513-entry table of func on
 * [in_min, in_max] mapped to [out_min, out_max]. */
void ew_gen_lut16(float (*func)(float), float in_min, float in_max, float out_min,
                  float out_max, int16_t lut[513]);
/* Tensor quantization accessors (per-tensor). */
float ew_scale(const ir_tensor *t);
int32_t ew_zp(const ir_tensor *t);

/* ---- op_impl glue ---------------------------------------------------------- */

/* Fills one kernel call for the op, or returns -1 with a reason. */
typedef int (*ew_plan_fn)(const ir_graph *g, const ir_op *op, lower_call *pl, char *why,
                          size_t n);
/* Lowers the op to the single call PLAN fills; -1 also when PLAN used a
 * multiplier (ew_qm) no kernel applies exactly. */
int ew_lower_one(ew_plan_fn f, const ir_graph *g, const ir_op *op, lower_list *L, char *why,
                 size_t n);

/* Defines NAME_lower of plan function PLAN. */
#define EW_GLUE(NAME, PLAN)                                                                 \
  static int NAME##_lower(const ir_graph *g, const ir_op *op, lower_list *L, char *why,     \
                          size_t n) {                                                       \
    return ew_lower_one(PLAN, g, op, L, why, n);                                            \
  }

/* Defines the op_impl op_VAR lowered by EW_GLUE(IMPL, ...). */
#define EW_OPDEF(VAR, CODE, NAME, IMPL, INPLACE, DTYPES, CONSTRAINTS)                       \
  LOWER_OPDEF(VAR, CODE, NAME, IMPL##_lower, INPLACE, DTYPES, CONSTRAINTS)

/* Common checks: per-tensor quantization present. */
int ew_check_per_tensor(const ir_tensor *t, const char *what, char *why, size_t n);
/* Sets why and returns -1. */
#define ew_fail ops_fail

#endif
