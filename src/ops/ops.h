/* ops.h - the operator table: for each supported operator, which dtypes and
 * constraints it supports, how to emit its kernel call into a module, and how
 * the host reference interpreter evaluates it with the same kernels.
 *
 * One file per operator family in src/ops/ (op_conv.c, op_elementwise.c, ...)
 * defines `const op_impl op_<name>` objects; registry.c lists them all in one
 * table (ops_table) from which `aotc operators` and docs/operators.md are
 * generated.
 *
 * Most operators are lowered (lower.h): their `lower` entry turns an op into
 * a short list of kernel calls described as data (kernels.def descriptors,
 * parameter values, tensor arguments), and op_emit / op_eval print or run
 * that list, so the module, the reference interpreter and the constant
 * folder use one set of parameters and one kernel: every kernel-calling
 * family (elementwise, activations, pooling, reductions, convolution, fully
 * connected, recurrent, the fused GRU) is; the resource variables and CUSTOM
 * (no runtime kernel: copies and user functions) keep their own emit / eval,
 * and the movement ops lower to steps whose parameters the step engine
 * (mv_engine.c) prints. A new unary operator is its kernel (runtime file,
 * prototype, kernels.def row), one row of ops_unary.def and its test. */
#ifndef AOTC_OPS_H
#define AOTC_OPS_H

#include "../ir/ir.h"

typedef struct emit_ctx emit_ctx;
typedef struct lower_list lower_list;

/* Lowers one op to its kernel calls (src/ops/lower.h): 0, or -1 and a short
 * reason in why. */
typedef int (*lower_op_fn)(const ir_graph *g, const ir_op *op, lower_list *L, char *why,
                           size_t n);

typedef struct op_impl {
  int builtin;                /* OP_* code */
  const char *custom;         /* custom code for OP_CUSTOM impls, else NULL */
  const char *name;           /* "CONV_2D" */
  const char *dtypes;         /* catalog text: "int8, int16x8, float32" */
  const char *constraints;    /* catalog text: limits, or "" */
  /* 0 if this op instance is supported; else -1 and a short reason in why
   * (e.g. "input int16 with output int8 not supported"). */
  int (*check)(const ir_graph *g, const ir_op *op, char *why, size_t whylen);
  /* Bytes of per-op scratch the kernel needs (NULL = 0). */
  size_t (*scratch)(const ir_graph *g, const ir_op *op);
  /* 1 if output 0 may share storage with input 0 (elementwise, same size). */
  int inplace;
  /* Emits the kernel call(s) for one op into the module. 0 or -1. */
  int (*emit)(emit_ctx *e, const ir_graph *g, const ir_op *op);
  /* Evaluates the op on host buffers: data[t] is tensor t's storage (already
   * sized ir_bytes), scratch has scratch() bytes. Returns 0 or the kernel's
   * non-zero status. Must compute parameters exactly as emit() does. */
  int (*eval)(const ir_graph *g, const ir_op *op, void *const *data, void *scratch);
  /* Lowers the op to a list of kernel calls described as data (lower.h);
   * set for lowered operators, which then have no emit and eval of their
   * own: op_emit / op_eval print and run the list. */
  lower_op_fn lower;
} op_impl;

/* The table of linked operator implementations, NULL-terminated. */
const op_impl *const *ops_all(void);
const op_impl *ops_find(const ir_graph *g, const ir_op *op);
/* The bytes of constant tensor t as a module's Helium build stores them
 * (heap, as many as t's), when t is the filter of an int8 CONV_2D whose
 * lowering packs it (aot_conv_params.filter_packed); else NULL. */
uint8_t *ops_conv_mve_filter(const ir_graph *g, int t);

/* An int8 CONV_2D / DEPTHWISE_CONV_2D that the Cortex-M4 DSP build can run
 * on two paths (aot_conv_params.dsp_variant): its counted cost on the
 * kernel's rule and on the other path (cost_dsp_conv_s8, instructions of
 * one call) and the kernel variant paths (LF bits) each reaches. */
struct aot_conv_params;
typedef struct ops_dsp_choice {
  int variant;                 /* AOT_DSP_VAR_*: the other path */
  int64_t cost_rule, cost_alt; /* estimated Cortex-M4 instructions */
  uint32_t features, alt_features;
} ops_dsp_choice;
/* Fills *out for op (its kernel_variant ignored); returns 1 when the op has
 * another path, else 0 (out->features still set for an int8 conv). */
int ops_conv_dsp_choice(const ir_graph *g, const ir_op *op, ops_dsp_choice *out);
/* Estimated Cortex-M4 instructions of one call of the int8 CONV_2D
 * (dw = 0) or DEPTHWISE_CONV_2D (dw = 1) DSP kernel on layer p, on the
 * path p->dsp_variant selects (src/ops/cost_dsp.c). */
int64_t cost_dsp_conv_s8(int dw, const struct aot_conv_params *p);
/* the same estimate for the few-channel CONV_2D path (aot_conv_first.h) */
int64_t cost_dsp_first_s8(const struct aot_conv_params *p);
/* instructions of one inference worth one byte of Cortex-M4 code: the rate
 * at which a kernel path that adds code must pay (kernel_choice.c, the
 * few-channel CONV_2D path of op_conv.c) */
#define OPS_INSNS_PER_BYTE 64

/* The one emit path of the code generator and the one eval path of the
 * reference interpreter / constant folder: lowered ops through their list,
 * the others through their own emit / eval (src/ops/lower.c). */
int op_emit(const op_impl *impl, emit_ctx *e, const ir_graph *g, const ir_op *op);
int op_eval(const op_impl *impl, const ir_graph *g, const ir_op *op, void *const *data,
            void *scratch);
/* 1 if the host can evaluate the op (a lower or an eval entry). */
int op_has_eval(const op_impl *impl);

/* ---- emit API (src/ops/emit.c; the code generator owns the context) ---- */
/* Typed data pointer expression for tensor t, e.g. "((int8_t *)(S + 1024))"
 * or "aot_w_conv1_weights". Marks constants as used. */
const char *emit_ptr(emit_ctx *e, int t);
/* Expression for this op's scratch buffer, "((void *)(S + 4096))". */
const char *emit_scratch_ptr(emit_ctx *e);
/* The bytes of the op's scratch buffer (0: it has none). */
size_t emit_scratch_bytes(const emit_ctx *e);
/* Unique identifier base for the current op, e.g. "op12_conv_2d". */
const char *emit_opname(emit_ctx *e);
/* A statement line in the run function (indentation added). */
void emit_stmt(emit_ctx *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A kernel call returning int32_t status 0 on success: emits
 * "st = <call>; if (st != 0) ...fail". */
void emit_call(emit_ctx *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A file-scope declaration in <prefix>_model.c (e.g. a static const params
 * struct). Text is emitted verbatim followed by a newline. */
void emit_decl(emit_ctx *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A static const array in <prefix>_model.c named "<opname>_<suffix>"; returns
 * the name. */
const char *emit_array_i8(emit_ctx *e, const char *suffix, const int8_t *v, size_t n);
const char *emit_array_i16(emit_ctx *e, const char *suffix, const int16_t *v, size_t n);
const char *emit_array_i32(emit_ctx *e, const char *suffix, const int32_t *v, size_t n);
const char *emit_array_i64(emit_ctx *e, const char *suffix, const int64_t *v, size_t n);
const char *emit_array_f32(emit_ctx *e, const char *suffix, const float *v, size_t n);
/* Requires runtime file (path relative to runtime/, e.g.
 * "ConvolutionFunctions/aot_conv2d_s8.c") to be copied into the module. */
void emit_kernel(emit_ctx *e, const char *relpath);
/* Requires the kernel path AOT_F_<name> of runtime/aot_features.h (e.g.
 * "CONV_S8_BIG"): the module's copy of that header keeps it on. */
void emit_feature(emit_ctx *e, const char *name);
/* Float literal text that round-trips exactly (C99 hex float, or INFINITY/NAN
 * forms). */
const char *emit_float(emit_ctx *e, float v);

/* ---- helpers for op implementations (src/ops/quant.c) ---- */
/* TFLite QuantizeMultiplier: real = q * 2^(shift-31), q in [2^30, 2^31). */
void quantize_multiplier(double real, int32_t *q, int *shift);
/* Activation range of a fused activation on a quantized output tensor. */
void act_range_quant(const ir_tensor *out, int fused_act, int32_t *lo, int32_t *hi);
void act_range_float(int fused_act, float *lo, float *hi);
/* Shape of t padded on the left to 4 dims. */
void shape4(const ir_tensor *t, int32_t d[4]);
/* Sets why (printf format; why may be NULL) and returns -1. */
int ops_fail(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Common check helpers: return 0 if ok else fill why. */
int check_dtype(const ir_tensor *t, int dt, const char *what, char *why, size_t n);
int check_fused_act_supported(int fused_act, char *why, size_t n);
/* Quantization parameters an integer kernel is exact for (issue 11): every
 * scale finite and at least FLT_MIN (allow_zero_scale: 0 accepted too, for
 * filters whose zero scale gives a zero multiplier), every zero point within
 * the tensor's dtype (int32: -INT32_MAX .. INT32_MAX; int64: 0). Returns 0 or
 * -1 with "WHAT scale VALUE ..." / "WHAT zero point VALUE outside [LO, HI]". */
int quant_check_tensor(const ir_tensor *t, const char *what, int allow_zero_scale, char *why,
                       size_t n);
/* A real multiplier (ratio of scales) for a kernel whose left shift may be at
 * most max_shift (31 for aot_mbqm / aot_conv_mbqm, 14 for aot_mbqm64):
 * finite, >= 0, and QuantizeMultiplier's shift <= max_shift. */
int quant_check_multiplier(double real, int max_shift, const char *what, char *why, size_t n);

#endif
