/* quant_conv.h - shared helpers of the convolution-family operator
 * implementations (op_conv.c, op_fc.c, op_pool.c); defined in quant_conv.c,
 * and the operator entry of a lowered convolution-family op (CONV_OPDEF). */
#ifndef AOTC_QUANT_CONV_H
#define AOTC_QUANT_CONV_H

#include "ops.h"

/* TFLite ComputeOutSize + ComputePaddingWithOffset for one spatial dim:
 * *out = output size for padding PAD_SAME / PAD_VALID, *pad = leading
 * padding. Returns -1 for an unknown padding or non-positive stride/dilation. */
int conv_out_and_pad(int padding, int stride, int dilation, int in_size,
                     int filter_size, int *out, int *pad);

/* TFLite PopulateConvolutionQuantizationParams: for each of nch output
 * channels, QuantizeMultiplier(double(in_scale) * double(filter_scale[c]) /
 * double(out_scale)); a per-tensor filter scale is broadcast. */
void conv_channel_multipliers(const ir_tensor *in, const ir_tensor *filter,
                              const ir_tensor *out, int nch, int32_t *mult,
                              int32_t *shift);

/* conv_channel_multipliers into heap arrays put at the LOWER_CA_MULT /
 * LOWER_CA_SHIFT places of a lowered call (lower.h), emitted as
 * "<opname>_mult" / "<opname>_shift". */
struct lower_call;
void cf_lower_multipliers(struct lower_call *c, const ir_tensor *in, const ir_tensor *filter,
                          const ir_tensor *out, int nch);

/* Heap copy of filter f's scales put at the LOWER_CA_SCALE place of call c
 * (a hybrid kernel's filter_scale), emitted as "<opname>_<name>". */
void cf_lower_scales(struct lower_call *c, const ir_tensor *f, const char *name);

/* The dtype form of a convolution-family op (input in, filter / weights f,
 * bias b or NULL, output out; what: "conv" / "FC", fname: "filter" /
 * "weights" in the reasons): CF_F32; CF_HYB (float32 activations, int8
 * filter; if hybrid_ok); CF_S8 (int32 bias) or CF_S16 (int64 bias, or a
 * constant int16 one if bias16_ok; zero points 0), both with per-tensor
 * activations and 1 or nch filter scales along qdim. -1 with why. */
enum { CF_F32, CF_S8, CF_S16, CF_HYB };
int cf_kind(const ir_tensor *in, const ir_tensor *f, const ir_tensor *b, const ir_tensor *out,
            int nch, int qdim, int hybrid_ok, int bias16_ok, const char *what, const char *fname,
            char *why, size_t n);

/* Checks that every channel's in_scale * filter_scale / out_scale (computed
 * as conv_channel_multipliers does) is finite and its QuantizeMultiplier
 * shift at most max_shift (31: int8 kernels, 14: int16x8 kernels). */
int cf_check_multipliers(const ir_tensor *in, const ir_tensor *filter, const ir_tensor *out,
                         int nch, int max_shift, char *why, size_t n);
/* Window geometry of one spatial dimension (dim: "height" / "width"): the
 * int positions the kernels compute must stay below 2^31 (64-bit check). */
int cf_check_window(const char *dim, int64_t in, int64_t out, int64_t filter, int64_t stride,
                    int64_t dilation, int64_t pad, char *why, size_t n);

/* Tensor i of an op's inputs / outputs, or NULL if absent. */
const ir_tensor *cf_in(const ir_graph *g, const ir_op *op, int i);
const ir_tensor *cf_out(const ir_graph *g, const ir_op *op, int i);
int cf_numel(const ir_tensor *t, size_t *n);   /* 0, or -1 if a dim < 0 */

/* Quantization checks; return 0 or -1 with the reason in why. */
int cf_check_per_tensor(const ir_tensor *t, const char *what, char *why, size_t n);
/* Filter: per-tensor, or nch scales along qdim; all zero points 0. */
int cf_check_filter_quant(const ir_tensor *f, int nch, int qdim, char *why, size_t n);
/* For int16 tensors: zero point must be 0. */
int cf_check_zero_zp(const ir_tensor *t, const char *what, char *why, size_t n);

/* Copies s (truncated) into dst. */
void cf_copy(char *dst, size_t n, const char *s);

/* Defines op_VAR as LOWER_OPDEF (lower.h) does, with the scratch bytes of
 * its lowered call (lower_scratch). */
#define CONV_OPDEF(VAR, CODE, NAME, LOWER, DTYPES, CONSTRAINTS)                          \
  static size_t VAR##_scratch(const ir_graph *g, const ir_op *op) {                       \
    return lower_scratch(LOWER, g, op);                                              \
  }                                                                                       \
  LOWER_OPDEF_SCRATCH(VAR, CODE, NAME, LOWER, 0, VAR##_scratch, DTYPES, CONSTRAINTS)

#endif
