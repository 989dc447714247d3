/* op_reduce.c - reductions (MEAN, SUM, REDUCE_MAX, REDUCE_MIN) and
 * ARG_MAX / ARG_MIN.
 *
 * The reduced axes are constant: prepare() resolves them (negative axes,
 * duplicates), splits the input dimensions into kept ("outer") and reduced
 * ("inner") groups, merges neighbours that are contiguous in the input, and
 * for quantized MEAN/SUM computes the TFLM multiplier (input_scale /
 * output_scale, with MEAN's 1/N folded in exactly as reference
 * QuantizedMeanOrSum does). Each op lowers to one kernel call (lower.h)
 * through prepare(); the counts and strides are the call's int32 arrays. */
#include "lower.h"
#include "mv_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rd_plan {
  aot_reduce_params p;
  int32_t count[AOT_MV_MAX_DIMS], stride[AOT_MV_MAX_DIMS];
  int dtype;
} rd_plan;

static int dynamic(const ir_tensor *t) {
  for (int d = 0; d < t->rank; d++)
    if (t->shape[d] < 0) return 1;
  return 0;
}

static int64_t numel64(const ir_tensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->rank; i++) n *= t->shape[i] > 0 ? t->shape[i] : 0;
  return n;
}

/* Appends dims (count, stride) of one group, dropping size-1 dims and merging
 * neighbours contiguous in the input. Returns the new number of dims. */
static int add_group(int32_t *cnt, int64_t *str, int n, const int32_t *gc, const int64_t *gs, int gn) {
  int start = n;
  for (int i = 0; i < gn; i++) {
    if (gc[i] == 1) continue;
    if (n > start && str[n - 1] == gs[i] * gc[i]) {
      cnt[n - 1] *= gc[i];
      str[n - 1] = gs[i];
    } else {
      cnt[n] = gc[i];
      str[n] = gs[i];
      n++;
    }
  }
  return n;
}

static int reduce_prepare(const ir_graph *g, const ir_op *op, int rop, rd_plan *rp, char *why,
                          size_t wl) {
  const ir_tensor *in = ir_in(g, op, 0), *out = ir_out(g, op, 0);
  memset(rp, 0, sizeof *rp);
  if (!in || !out) return mv_fail(why, wl, "input or output missing");
  if (dynamic(in) || dynamic(out)) return mv_fail(why, wl, "dynamic shapes not supported");
  if (in->dtype != out->dtype)
    return mv_fail(why, wl, "input %s with output %s not supported", dtype_name(in->dtype),
                   dtype_name(out->dtype));
  int dt = in->dtype;
  if (dt != DT_FLOAT32 && dt != DT_INT8 && dt != DT_INT16 && dt != DT_INT32)
    return mv_fail(why, wl, "dtype %s not supported", dtype_name(dt));
  if (dt == DT_INT32 && rop == AOT_REDUCE_MEAN) return mv_fail(why, wl, "int32 MEAN not supported");
  int rank = in->rank;
  int red[IR_MAX_RANK];
  if (mv_const_axes(g, op->nin > 1 ? op->in[1] : -1, rank, IR_MAX_RANK * 4, red, why, wl))
    return -1;
  int64_t istr[IR_MAX_RANK];
  mv_strides(in->shape, rank, istr);
  int32_t oc[IR_MAX_RANK], ic[IR_MAX_RANK];
  int64_t os[IR_MAX_RANK], is[IR_MAX_RANK];
  int no = 0, ni = 0;
  int64_t nout = 1, nred = 1;
  for (int d = 0; d < rank; d++) {
    if (red[d]) {
      ic[ni] = in->shape[d];
      is[ni++] = istr[d];
      nred *= in->shape[d];
    } else {
      oc[no] = in->shape[d];
      os[no++] = istr[d];
      nout *= in->shape[d];
    }
  }
  if (nout != numel64(out))
    return mv_fail(why, wl, "output has %lld elements, expected %lld", (long long)numel64(out),
                   (long long)nout);
  if (numel64(in) > INT32_MAX) return mv_fail(why, wl, "tensor too large");
  int32_t cnt[2 * IR_MAX_RANK];
  int64_t str[2 * IR_MAX_RANK];
  int n = add_group(cnt, str, 0, oc, os, no);
  int orank = n;
  n = add_group(cnt, str, n, ic, is, ni);
  for (int d = 0; d < n; d++) {
    rp->count[d] = cnt[d];
    rp->stride[d] = (int32_t)str[d];
  }
  rp->dtype = dt;
  rp->p.op = rop;
  rp->p.outer_rank = orank;
  rp->p.inner_rank = n - orank;
  rp->p.count = rp->count;
  rp->p.stride = rp->stride;
  rp->p.num_reduced = (int32_t)nred;
  if (dt == DT_INT8 || dt == DT_INT16) {
    if (in->nq != 1 || out->nq != 1)
      return mv_fail(why, wl, "quantized %s needs per-tensor quantization", dtype_name(dt));
    if (quant_check_tensor(in, "input", 0, why, wl) || quant_check_tensor(out, "output", 0, why, wl))
      return -1;
    if (rop == AOT_REDUCE_MAX || rop == AOT_REDUCE_MIN) {
      if (in->scale[0] != out->scale[0] || in->zero_point[0] != out->zero_point[0])
        return mv_fail(why, wl, "input and output quantization differ");
    } else {
      int32_t mult;
      int shift;
      if (quant_check_multiplier((double)in->scale[0] / (double)out->scale[0], 31,
                                 "input / output scale", why, wl))
        return -1;
      quantize_multiplier((double)in->scale[0] / (double)out->scale[0], &mult, &shift);
      if (rop == AOT_REDUCE_MEAN && nred > 0) {
        int s = 0;
        while (s < 62 && ((uint64_t)nred >> (s + 1)) != 0) s++; /* floor(log2(nred)) */
        if (s > 32) s = 32;
        if (s > 31 + shift) s = 31 + shift;
        if (s < 0) s = 0;
        mult = (int32_t)(((int64_t)mult * ((int64_t)1 << s)) / nred);
        shift -= s;
      }
      rp->p.mult = mult;
      rp->p.shift = shift;
      rp->p.input_zp = in->zero_point[0];
      rp->p.output_zp = out->zero_point[0];
    }
  }
  return 0;
}

static int reduce_lower(const ir_graph *g, const ir_op *op, int rop, lower_list *L, char *why,
                        size_t wl) {
  rd_plan rp;
  if (reduce_prepare(g, op, rop, &rp, why, wl)) return -1;
  int k;
  switch (rp.dtype) {
    case DT_FLOAT32: k = LK(aot_reduce_f32); break;
    case DT_INT8: k = LK(aot_reduce_s8); break;
    case DT_INT16: k = LK(aot_reduce_s16); break;
    default: k = LK(aot_reduce_i32); break;
  }
  lower_call *c = &L->call[0];
  L->n = 1;
  lower_call_init(c, k, op->in[0], -1, -1, op->out[0]);
  c->u.rd = rp.p;
  const int nd = rp.p.outer_rank + rp.p.inner_rank;
  c->nia[0] = c->nia[1] = nd;
  memcpy(c->ia[0], rp.count, sizeof(int32_t) * (size_t)nd);
  memcpy(c->ia[1], rp.stride, sizeof(int32_t) * (size_t)nd);
  return 0;
}

#define RD_OP(name, code, NAME, rop, DT, CONS)                                                  \
  static int name##_lower(const ir_graph *g, const ir_op *op, lower_list *L, char *why,        \
                          size_t wl) {                                                          \
    return reduce_lower(g, op, rop, L, why, wl);                                               \
  }                                                                                             \
  LOWER_OPDEF(name, code, NAME, name##_lower, 0, DT, CONS)

RD_OP(mean, OP_MEAN, "MEAN", AOT_REDUCE_MEAN, "float32, int8, int16",
      "constant axes (any set), keep_dims; int8/int16 requantize as TFLM (QuantizedMeanOrSum)")
RD_OP(sum, OP_SUM, "SUM", AOT_REDUCE_SUM, "float32, int8, int16, int32",
      "constant axes (any set), keep_dims; int8/int16 requantize as TFLM")
RD_OP(reduce_max, OP_REDUCE_MAX, "REDUCE_MAX", AOT_REDUCE_MAX, "float32, int8, int16, int32",
      "constant axes (any set), keep_dims; int8/int16 need equal input/output quantization")
RD_OP(reduce_min, OP_REDUCE_MIN, "REDUCE_MIN", AOT_REDUCE_MIN, "float32, int8, int16, int32",
      "constant axes (any set), keep_dims; int8/int16 need equal input/output quantization")

/* ---- ARG_MAX / ARG_MIN ---- */

static int arg_prepare(const ir_graph *g, const ir_op *op, int is_min, aot_arg_minmax_params *ap,
                       char *why, size_t wl) {
  const ir_tensor *in = ir_in(g, op, 0), *out = ir_out(g, op, 0);
  memset(ap, 0, sizeof *ap);
  if (!in || !out) return mv_fail(why, wl, "input or output missing");
  if (dynamic(in) || dynamic(out)) return mv_fail(why, wl, "dynamic shapes not supported");
  switch (in->dtype) {
    case DT_FLOAT32: ap->in_type = AOT_MV_FLOAT32; break;
    case DT_INT8: ap->in_type = AOT_MV_INT8; break;
    case DT_UINT8: ap->in_type = AOT_MV_UINT8; break;
    case DT_INT16: ap->in_type = AOT_MV_INT16; break;
    case DT_INT32: ap->in_type = AOT_MV_INT32; break;
    case DT_INT64: ap->in_type = AOT_MV_INT64; break;
    default: return mv_fail(why, wl, "input %s not supported", dtype_name(in->dtype));
  }
  if (out->dtype != DT_INT32 && out->dtype != DT_INT64)
    return mv_fail(why, wl, "output %s not supported", dtype_name(out->dtype));
  int64_t av[1];
  int na;
  if (mv_const_ints(g, op->nin > 1 ? op->in[1] : -1, "axis", av, 1, &na, why, wl)) return -1;
  if (na != 1) return mv_fail(why, wl, "axis must have one value");
  int rank = in->rank;
  int axis = (int)(av[0] < 0 ? av[0] + rank : av[0]);
  if (axis < 0 || axis >= rank) return mv_fail(why, wl, "axis %lld out of range", (long long)av[0]);
  if (in->shape[axis] < 1) return mv_fail(why, wl, "empty axis");
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++) outer *= in->shape[d];
  for (int d = axis + 1; d < rank; d++) inner *= in->shape[d];
  if (numel64(out) != outer * inner) return mv_fail(why, wl, "output size does not match");
  if (numel64(in) > INT32_MAX) return mv_fail(why, wl, "tensor too large");
  ap->outer = (int32_t)outer;
  ap->axis_size = in->shape[axis];
  ap->inner = (int32_t)inner;
  ap->is_min = is_min;
  ap->out_is_64 = out->dtype == DT_INT64;
  return 0;
}

static int arg_lower(const ir_graph *g, const ir_op *op, int is_min, lower_list *L, char *why,
                     size_t wl) {
  lower_call *c = &L->call[0];
  L->n = 1;
  lower_call_init(c, LK(aot_arg_minmax), op->in[0], -1, -1, op->out[0]);
  return arg_prepare(g, op, is_min, &c->u.arg, why, wl);
}

#define ARG_OP(name, code, NAME, is_min)                                                        \
  static int name##_lower(const ir_graph *g, const ir_op *op, lower_list *L, char *why,        \
                          size_t wl) {                                                          \
    return arg_lower(g, op, is_min, L, why, wl);                                               \
  }                                                                                             \
  LOWER_OPDEF(name, code, NAME, name##_lower, 0,                                                \
              "input float32, int8, uint8, int16, int32, int64; output int32, int64",           \
              "constant axis; first index wins on ties")

ARG_OP(arg_max, OP_ARG_MAX, "ARG_MAX", 0)
ARG_OP(arg_min, OP_ARG_MIN, "ARG_MIN", 1)
