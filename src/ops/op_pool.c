/* op_pool.c - AVERAGE_POOL_2D and MAX_POOL_2D.
 *
 * pool_prepare() validates an op and computes every kernel parameter; check,
 * emit and eval all go through it. */
#include "quant_conv.h"

#include <stdio.h>
#include <string.h>

#include "aot_conv.h"

enum { K_F32, K_S8, K_S16 };

typedef struct pool_plan {
  int is_max;
  int kind;
  int in, out;
  aot_pool_params p;
} pool_plan;

static int fail(char *why, size_t n, const char *msg) {
  snprintf(why, n, "%s", msg);
  return -1;
}

static int pool_prepare(const ir_graph *g, const ir_op *op, pool_plan *pp, char *why, size_t n) {
  memset(pp, 0, sizeof *pp);
  pp->is_max = op->builtin == OP_MAX_POOL_2D;
  const ir_tensor *in = cf_in(g, op, 0), *out = cf_out(g, op, 0);
  if (!in || !out) return fail(why, n, "missing input or output");
  pp->in = op->in[0];
  pp->out = op->out[0];
  if (in->rank != 4 || out->rank != 4) return fail(why, n, "input and output must have rank 4");
  for (int i = 0; i < 4; i++)
    if (in->shape[i] <= 0 || out->shape[i] <= 0)
      return fail(why, n, "dynamic or empty shapes not supported");
  if (in->shape[0] != out->shape[0] || in->shape[3] != out->shape[3])
    return fail(why, n, "input and output batch/channels differ");
  if (in->dtype != out->dtype) {
    snprintf(why, n, "input %s with output %s not supported", dtype_name(in->dtype),
             dtype_name(out->dtype));
    return -1;
  }
  if (check_fused_act_supported(op->opts.fused_act, why, n)) return -1;

  aot_pool_params *p = &pp->p;
  p->batches = in->shape[0];
  p->in_h = in->shape[1];
  p->in_w = in->shape[2];
  p->channels = in->shape[3];
  p->out_h = out->shape[1];
  p->out_w = out->shape[2];
  p->filter_h = op->opts.filter_h;
  p->filter_w = op->opts.filter_w;
  p->stride_h = op->opts.stride_h;
  p->stride_w = op->opts.stride_w;
  if (p->filter_h <= 0 || p->filter_w <= 0) return fail(why, n, "filter size must be positive");
  int oh, ow;
  if (conv_out_and_pad(op->opts.padding, p->stride_h, 1, p->in_h, p->filter_h, &oh, &p->pad_h) ||
      conv_out_and_pad(op->opts.padding, p->stride_w, 1, p->in_w, p->filter_w, &ow, &p->pad_w))
    return fail(why, n, "unsupported padding or stride");
  if (oh != p->out_h || ow != p->out_w) {
    snprintf(why, n, "output %dx%d differs from the computed %dx%d", (int)p->out_h,
             (int)p->out_w, oh, ow);
    return -1;
  }
  /* every window must hold at least one tap (the reference fails otherwise) */
  if ((p->out_h - 1) * p->stride_h - p->pad_h >= p->in_h ||
      (p->out_w - 1) * p->stride_w - p->pad_w >= p->in_w || p->filter_h <= p->pad_h ||
      p->filter_w <= p->pad_w)
    return fail(why, n, "pooling window outside the input");

  switch (in->dtype) {
    case DT_FLOAT32:
      pp->kind = K_F32;
      act_range_float(op->opts.fused_act, &p->act_min_f, &p->act_max_f);
      return 0;
    case DT_INT8: pp->kind = K_S8; break;
    case DT_INT16: pp->kind = K_S16; break;
    default:
      snprintf(why, n, "input %s not supported", dtype_name(in->dtype));
      return -1;
  }
  if (cf_check_per_tensor(in, "input", why, n) || cf_check_per_tensor(out, "output", why, n))
    return -1;
  if (in->scale[0] != out->scale[0] || in->zero_point[0] != out->zero_point[0])
    return fail(why, n, "input and output quantization differ");
  if (pp->kind == K_S16 && cf_check_zero_zp(in, "input", why, n)) return -1;
  act_range_quant(out, op->opts.fused_act, &p->act_min, &p->act_max);
  if (p->act_min > p->act_max) return fail(why, n, "empty activation range");
  return 0;
}

static int pool_check(const ir_graph *g, const ir_op *op, char *why, size_t whylen) {
  pool_plan pp;
  return pool_prepare(g, op, &pp, why, whylen);
}

static const char *pool_kernel(const pool_plan *pp) {
  static const char *const names[2][3] = {{"avgpool_f32", "avgpool_s8", "avgpool_s16"},
                                          {"maxpool_f32", "maxpool_s8", "maxpool_s16"}};
  return names[pp->is_max][pp->kind];
}

static int pool_emit(emit_ctx *e, const ir_graph *g, const ir_op *op) {
  pool_plan pp;
  char why[256];
  if (pool_prepare(g, op, &pp, why, sizeof why)) return -1;
  const aot_pool_params *p = &pp.p;
  char lo[64], hi[64], pin[160], pout[160];
  const char *kn = pool_kernel(&pp);
  cf_copy(lo, sizeof lo, emit_float(e, p->act_min_f));
  cf_copy(hi, sizeof hi, emit_float(e, p->act_max_f));
  emit_decl(e,
            "static const aot_pool_params %s_p = {\n"
            "  .batches = %d, .in_h = %d, .in_w = %d, .channels = %d,\n"
            "  .out_h = %d, .out_w = %d, .filter_h = %d, .filter_w = %d,\n"
            "  .stride_h = %d, .stride_w = %d, .pad_h = %d, .pad_w = %d,\n"
            "  .act_min = %d, .act_max = %d, .act_min_f = %s, .act_max_f = %s,\n"
            "};",
            emit_opname(e), (int)p->batches, (int)p->in_h, (int)p->in_w, (int)p->channels,
            (int)p->out_h, (int)p->out_w, (int)p->filter_h, (int)p->filter_w, (int)p->stride_h,
            (int)p->stride_w, (int)p->pad_h, (int)p->pad_w, (int)p->act_min, (int)p->act_max,
            lo, hi);
  cf_copy(pin, sizeof pin, emit_ptr(e, pp.in));
  cf_copy(pout, sizeof pout, emit_ptr(e, pp.out));
  emit_call(e, "aot_%s(&%s_p, %s, %s)", kn, emit_opname(e), pin, pout);
  char path[96];
  snprintf(path, sizeof path, "PoolingFunctions/aot_%s.c", kn);
  emit_kernel(e, path);
  return 0;
}

static int pool_eval(const ir_graph *g, const ir_op *op, void *const *data, void *scratch) {
  (void)scratch;
  pool_plan pp;
  char why[256];
  if (pool_prepare(g, op, &pp, why, sizeof why)) return -1;
  const void *in = data[pp.in];
  void *out = data[pp.out];
  int32_t st = AOT_KERNEL_BAD_PARAM;
  switch (pp.is_max * 3 + pp.kind) {
    case K_F32: st = aot_avgpool_f32(&pp.p, in, out); break;
    case K_S8: st = aot_avgpool_s8(&pp.p, in, out); break;
    case K_S16: st = aot_avgpool_s16(&pp.p, in, out); break;
    case 3 + K_F32: st = aot_maxpool_f32(&pp.p, in, out); break;
    case 3 + K_S8: st = aot_maxpool_s8(&pp.p, in, out); break;
    case 3 + K_S16: st = aot_maxpool_s16(&pp.p, in, out); break;
  }
  return (int)st;
}

const op_impl op_average_pool_2d = {
    .builtin = OP_AVERAGE_POOL_2D,
    .name = "AVERAGE_POOL_2D",
    .dtypes = "int8, int16, float32",
    .constraints = "rank-4 NHWC; SAME/VALID padding, strides; fused RELU/RELU6/RELU_N1_TO_1; "
                   "input and output quantization equal; int16 zero point 0",
    .check = pool_check,
    .emit = pool_emit,
    .eval = pool_eval,
};

const op_impl op_max_pool_2d = {
    .builtin = OP_MAX_POOL_2D,
    .name = "MAX_POOL_2D",
    .dtypes = "int8, int16, float32",
    .constraints = "rank-4 NHWC; SAME/VALID padding, strides; fused RELU/RELU6/RELU_N1_TO_1; "
                   "input and output quantization equal",
    .check = pool_check,
    .emit = pool_emit,
    .eval = pool_eval,
};
