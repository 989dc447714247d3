/* op_pool.c - AVERAGE_POOL_2D and MAX_POOL_2D.
 *
 * pool_lower() validates an op and lowers it to one kernel call (lower.h)
 * with every parameter computed; check, emit and eval all go through it. */
#include "quant_conv.h"

#include <stdio.h>
#include <string.h>

#include "lower.h"

static int fail(char *why, size_t n, const char *msg) {
  snprintf(why, n, "%s", msg);
  return -1;
}

static int pool_lower(const ir_graph *g, const ir_op *op, lower_list *L, char *why, size_t n) {
  const int is_max = op->builtin == OP_MAX_POOL_2D;
  const ir_tensor *in = cf_in(g, op, 0), *out = cf_out(g, op, 0);
  if (!in || !out) return fail(why, n, "missing input or output");
  lower_call *c = &L->call[0];
  L->n = 1;
  lower_call_init(c, LK(aot_maxpool_f32), op->in[0], -1, -1, op->out[0]);
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

  aot_pool_params *p = &c->u.pool;
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
      c->k = lower_kernel_get(is_max ? LK(aot_maxpool_f32) : LK(aot_avgpool_f32));
      act_range_float(op->opts.fused_act, &p->act_min_f, &p->act_max_f);
      return 0;
    case DT_INT8:
      c->k = lower_kernel_get(is_max ? LK(aot_maxpool_s8) : LK(aot_avgpool_s8));
      /* the portable loop of the SIMD builds: windows above 256 taps, or
       * channels the DSP build's blocks of 8 leave over */
      if (!is_max && ((int64_t)p->filter_h * p->filter_w > 256 || p->channels % 8 != 0))
        c->features |= LF(POOL_S8_TAIL);
      break;
    case DT_INT16:
      c->k = lower_kernel_get(is_max ? LK(aot_maxpool_s16) : LK(aot_avgpool_s16));
      break;
    default:
      snprintf(why, n, "input %s not supported", dtype_name(in->dtype));
      return -1;
  }
  if (cf_check_per_tensor(in, "input", why, n) || cf_check_per_tensor(out, "output", why, n))
    return -1;
  if (in->scale[0] != out->scale[0] || in->zero_point[0] != out->zero_point[0])
    return fail(why, n, "input and output quantization differ");
  if (in->dtype == DT_INT16 && cf_check_zero_zp(in, "input", why, n)) return -1;
  act_range_quant(out, op->opts.fused_act, &p->act_min, &p->act_max);
  if (p->act_min > p->act_max) return fail(why, n, "empty activation range");
  return 0;
}

LOWER_OPDEF(average_pool_2d, OP_AVERAGE_POOL_2D, "AVERAGE_POOL_2D", pool_lower, 0,
            "int8, int16, float32",
            "rank-4 NHWC; SAME/VALID padding, strides; fused RELU/RELU6/RELU_N1_TO_1; "
            "input and output quantization equal; int16 zero point 0")
LOWER_OPDEF(max_pool_2d, OP_MAX_POOL_2D, "MAX_POOL_2D", pool_lower, 0, "int8, int16, float32",
            "rank-4 NHWC; SAME/VALID padding, strides; fused RELU/RELU6/RELU_N1_TO_1; "
            "input and output quantization equal")
