/* quant_elementwise.h - shared helpers of the elementwise / activation
 * operator implementations (op_elementwise.c, op_activation.c): broadcast
 * planning, printing of runtime params structs, and the TFLite/TFLM
 * quantization helpers those operators need (defined in quant_elementwise.c). */
#ifndef AOTC_QUANT_ELEMENTWISE_H
#define AOTC_QUANT_ELEMENTWISE_H

#include "aot_elementwise.h"
#include "ops.h"

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

/* ---- kernel plans ---------------------------------------------------------- */

/* Params struct kinds (which member of ew_plan.u is used). */
enum {
  EWP_ADDSUB, EWP_POT, EWP_MUL, EWP_ARITH_F32, EWP_ARITH_S32, EWP_BCAST, EWP_COMPARE,
  EWP_SELECT, EWP_UNARY, EWP_ACT_CLAMP_F32, EWP_ACT_CLAMP_Q, EWP_RELU_Q, EWP_LEAKY_Q,
  EWP_LEAKY_F32, EWP_SIG_S8, EWP_SIG_S16, EWP_HSWISH, EWP_PRELU_Q, EWP_LUT_S8, EWP_SOFTMAX,
  EWP_QUANTIZE, EWP_REQUANT, EWP_DEQUANT, EWP_DEQUANT_PC
};

/* Uniform call of a kernel for eval: f(params, in0, in1, in2, out) with the
 * unused inputs ignored. */
typedef int32_t (*ew_fn)(const void *p, const void *a, const void *b, const void *c, void *y);

typedef struct ew_kernel {
  const char *name;      /* C function, e.g. "aot_add_s8" */
  const char *file;      /* runtime file relative to runtime/ */
  int kind;              /* EWP_* */
  int nin;               /* tensor inputs of the call (1..3) */
  ew_fn fn;
} ew_kernel;

/* Looks a kernel up by function name (NULL if unknown). */
const ew_kernel *ew_kernel_find(const char *name);

typedef struct ew_plan {
  const ew_kernel *k;
  int in[3];             /* tensor ids passed as inputs (-1 = NULL) */
  int out;
  union {
    aot_addsub_q_params addsub;
    aot_addsub_pot_params pot;
    aot_mul_q_params mul;
    aot_arith_f32_params af;
    aot_arith_s32_params ai;
    aot_bcast_params bp;
    aot_compare_params cmp;
    aot_select_params sel;
    aot_unary_params un;
    aot_act_clamp_f32_params cf;
    aot_act_clamp_q_params cq;
    aot_relu_q_params relu;
    aot_leaky_relu_q_params lq;
    aot_leaky_relu_f32_params lf;
    aot_sigmoid_s8_params s8;
    aot_sigmoid_s16_params s16;
    aot_hard_swish_s8_params hs;
    aot_prelu_q_params prelu;
    aot_lut_s8_params lut;
    aot_softmax_params sm;
    aot_quantize_params q;
    aot_requant_params rq;
    aot_dequantize_params dq;
    aot_dequantize_pc_params dpc;
  } u;
  /* tables referenced by the params (softmax int16, LUT activations) */
  int nlut16;
  int16_t lut16[2][513];
  int nlut8;
  int8_t lut8[256];
  /* per-channel arrays (heap; released by ew_plan_release) */
  int nchan;
  float *chan_scale;
  int32_t *chan_zp;
} ew_plan;

/* Initializes a plan for kernel `name` (which must exist) with the op's
 * tensors: inputs in0..in2 (-1 for none) and output 0. */
void ew_plan_init(ew_plan *pl, const char *name, int in0, int in1, int in2, int out);
/* Emits the params struct, the kernel call and the kernel file. */
int ew_plan_emit(emit_ctx *e, ew_plan *pl);
/* Runs the kernel on host buffers. */
int ew_plan_eval(ew_plan *pl, void *const *data);
/* Frees heap parts of a plan (safe on a failed or empty plan). */
void ew_plan_release(ew_plan *pl);

/* ---- op_impl glue ---------------------------------------------------------- */

/* Fills a plan for the op, or returns -1 with a reason. */
typedef int (*ew_plan_fn)(const ir_graph *g, const ir_op *op, ew_plan *pl, char *why, size_t n);
/* check / emit / eval of an op through its plan function (the plan is
 * released afterwards). */
int ew_run_check(ew_plan_fn f, const ir_graph *g, const ir_op *op, char *why, size_t n);
int ew_run_emit(ew_plan_fn f, emit_ctx *e, const ir_graph *g, const ir_op *op);
int ew_run_eval(ew_plan_fn f, const ir_graph *g, const ir_op *op, void *const *data);

/* Defines NAME_check, NAME_emit and NAME_eval of plan function PLAN. */
#define EW_GLUE(NAME, PLAN)                                                                 \
  static int NAME##_check(const ir_graph *g, const ir_op *op, char *why, size_t n) {        \
    return ew_run_check(PLAN, g, op, why, n);                                               \
  }                                                                                         \
  static int NAME##_emit(emit_ctx *e, const ir_graph *g, const ir_op *op) {                 \
    return ew_run_emit(PLAN, e, g, op);                                                     \
  }                                                                                         \
  static int NAME##_eval(const ir_graph *g, const ir_op *op, void *const *data,             \
                         void *scratch) {                                                   \
    (void)scratch;                                                                          \
    return ew_run_eval(PLAN, g, op, data);                                                  \
  }

/* Defines the op_impl op_VAR with the functions of EW_GLUE(IMPL, ...). */
#define EW_OPDEF(VAR, CODE, NAME, IMPL, INPLACE, DTYPES, CONSTRAINTS)                       \
  const op_impl op_##VAR = {.builtin = CODE,                                                \
                            .name = NAME,                                                   \
                            .dtypes = DTYPES,                                               \
                            .constraints = CONSTRAINTS,                                     \
                            .check = IMPL##_check,                                          \
                            .inplace = INPLACE,                                             \
                            .emit = IMPL##_emit,                                            \
                            .eval = IMPL##_eval};

/* Common checks: per-tensor quantization present. */
int ew_check_per_tensor(const ir_tensor *t, const char *what, char *why, size_t n);
/* Sets why and returns -1. */
int ew_fail(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
