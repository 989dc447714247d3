/* passes.h - the passes over the IR that rely on the operator table
 * (src/ops): static shape inference with constant propagation (shapes.c),
 * the named graph transforms (transforms.c) and the float16 lowering
 * (fp16_lower.c). They run after the IR is built and before planning. */
#ifndef AOTC_PASSES_H
#define AOTC_PASSES_H

#include "../ir/ir.h"

/* Static shape inference (passes/shapes.c): tensors whose declared shape is a
 * placeholder (missing, or -1 in shape_signature) get their real static shape
 * from their producers; SHAPE of a known shape and small integer ops of
 * constants become constants; a TensorList set-item lowered to
 * CONCATENATION of run-time-sized SLICEs becomes DYNAMIC_UPDATE_SLICE.
 * Returns the number of such rewrites, or -1 with a message. */
int ir_infer_shapes(ir_graph *g, aotc_diag *d);
/* The same for subgraph sg called by op of caller (WHILE: cond and body
 * inputs take the shapes of the op's inputs; IF: of its inputs after the
 * condition); a WHILE body that changes the shape of a loop variable is
 * refused. */
int ir_infer_callee_shapes(ir_graph *sg, const ir_graph *caller, const ir_op *op, aotc_diag *d);

/* ---- constant folding (fold.c) ---- */
/* 1 if op has effects beyond its outputs (control flow, variables, custom
 * ops, persistent tensors): never folded or removed. */
int pass_has_side_effects(const ir_graph *g, const ir_op *op);
/* Makes o a constant holding data (malloc'd, ir_bytes(o) bytes; o takes it). */
void pass_make_const(ir_tensor *o, void *data);
/* Evaluates op, whose present inputs must all be constant, with its
 * operator's eval; its outputs become constants and the op dead. Returns 1,
 * 0 when the op cannot be folded (not constant, side effects, no eval, check
 * fails), or -1 when the kernel failed (its status in *status). The caller
 * decides beforehand which outputs it accepts as constants. */
int pass_fold_op(ir_graph *g, ir_op *op, int *status);

/* ---- naming (name_constants.c) ---- */
/* Names every constant a live op reads after its first reader and its role
 * there (op0_conv_2d_filter, ...), in main and its called subgraphs. */
void pass_name_constants(ir_graph *main);

/* ---- kernel choice by counted cost (kernel_choice.c) ---- */
/* Sets op->kernel_variant of the int8 convolutions whose other Cortex-M4
 * DSP path the cost model finds worth its code; returns how many. */
int pass_kernel_choice(ir_graph *g);

/* ---- DEPTHWISE_CONV_2D of one input channel as CONV_2D (dw_as_conv.c) ---- */
/* Runs each such layer (int8, int16x8, float32; constant filter read by it
 * alone) as the CONV_2D it equals; returns how many. */
int pass_depthwise_as_conv(ir_graph *g);

/* ---- CONV_2D of one whole-image window as FULLY_CONNECTED (conv_as_fc.c) ---- */
/* Runs each such layer (int8, int16x8; constant filter read by it alone)
 * as the FULLY_CONNECTED it equals; returns how many. */
int pass_conv_as_fc(ir_graph *g);

/* ---- transforms ---- */
typedef struct ir_transform {
  const char *name;
  const char *doc;
  int (*run)(ir_graph *g, aotc_diag *d);   /* returns #changes or -1 */
} ir_transform;
extern const ir_transform ir_transforms[];
extern const int ir_ntransforms;
/* lower_fp16 (src/passes/fp16_lower.c): ops without a float16 implementation
 * that accept float32 run in float32 between CASTs (float16 constants are
 * converted at compile time). keep_f16_rounding = 1 (ir_lower_fp16, the
 * registered transform) keeps every float16 tensor rounded to binary16 as
 * the model specifies; 0 lets adjacent lowered ops exchange float32 values.
 * Returns the number of ops lowered. */
int ir_lower_fp16(ir_graph *g, aotc_diag *d);
int ir_lower_fp16_mode(ir_graph *g, int keep_f16_rounding, aotc_diag *d);

/* Runs every transform not disabled (disabled[i] != 0), verifying after each. */
int ir_run_transforms(ir_graph *g, const int *disabled, aotc_diag *d);

#endif
