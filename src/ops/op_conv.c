/* op_conv.c - CONV_2D, DEPTHWISE_CONV_2D and TRANSPOSE_CONV.
 *
 * conv_prepare() validates an op and computes every kernel parameter; check,
 * emit and eval all go through it, so what is emitted is exactly what the
 * reference interpreter runs. */
#include "quant_conv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_conv.h"

/* K_HYB: float32 activations with an int8 filter ("hybrid" / dynamic-range),
 * the input quantized at run time as the LiteRT runtime does (hybrid_prepare). */
enum { K_F32, K_S8, K_S16, K_HYB };
enum { CK_CONV, CK_DW, CK_TCONV };

typedef struct conv_plan {
  int ck;                 /* CK_* */
  int kind;               /* K_* */
  int in, filter, bias, out;   /* tensor ids (bias -1 if absent) */
  aot_conv_params p;
  aot_hybrid_params h;    /* K_HYB: filter_scale points at the filter's scales */
  int nscale;             /* K_HYB: entries of h.filter_scale */
  int32_t *mult, *shift;  /* out_c entries (quantized), owned */
  int64_t *bias64;        /* int16 TRANSPOSE_CONV bias widened to int64, owned */
} conv_plan;

static void conv_plan_free(conv_plan *cp) {
  free(cp->mult);
  free(cp->shift);
  free(cp->bias64);
  cp->mult = cp->shift = NULL;
  cp->bias64 = NULL;
}

static const char *kernel_name(int ck, int kind) {
  static const char *const names[3][4] = {
      {"conv2d_f32", "conv2d_s8", "conv2d_s16", "conv2d_hybrid"},
      {"dwconv2d_f32", "dwconv2d_s8", "dwconv2d_s16", "dwconv2d_hybrid"},
      {"tconv2d_f32", "tconv2d_s8", "tconv2d_s16", NULL}};   /* no hybrid TRANSPOSE_CONV */
  return names[ck][kind];
}

static int fail(char *why, size_t n, const char *msg) {
  snprintf(why, n, "%s", msg);
  return -1;
}

/* Dtype combination -> kernel kind; checks bias dtype and quantization. */
static int conv_types(const ir_tensor *in, const ir_tensor *f, const ir_tensor *b,
                      const ir_tensor *out, int nch, int qdim, int tconv, int *kind,
                      char *why, size_t n) {
  if (in->dtype != out->dtype) {
    snprintf(why, n, "input %s with output %s not supported", dtype_name(in->dtype),
             dtype_name(out->dtype));
    return -1;
  }
  if (in->dtype == DT_FLOAT32) {
    if (f->dtype == DT_INT8 && !tconv) {
      if (b && b->dtype != DT_FLOAT32)
        return fail(why, n, "hybrid conv (float32 input, int8 filter) needs a float32 bias");
      *kind = K_HYB;
      return 0;
    }
    if (f->dtype != DT_FLOAT32) {
      snprintf(why, n, "float32 input with %s filter not supported", dtype_name(f->dtype));
      return -1;
    }
    if (b && b->dtype != DT_FLOAT32)
      return fail(why, n, "float32 conv needs a float32 bias");
    *kind = K_F32;
    return 0;
  }
  if (in->dtype != DT_INT8 && in->dtype != DT_INT16) {
    snprintf(why, n, "input %s not supported", dtype_name(in->dtype));
    return -1;
  }
  if (f->dtype != DT_INT8) {
    snprintf(why, n, "input %s with filter %s not supported", dtype_name(in->dtype),
             dtype_name(f->dtype));
    return -1;
  }
  if (in->dtype == DT_INT8) {
    if (b && b->dtype != DT_INT32) {
      snprintf(why, n, "int8 conv with %s bias not supported (int32 expected)",
               dtype_name(b->dtype));
      return -1;
    }
    *kind = K_S8;
  } else {
    /* TFLM widens a constant int16 TRANSPOSE_CONV bias to int64 */
    int b16 = tconv && b && b->dtype == DT_INT16 && b->data;
    if (b && b->dtype != DT_INT64 && !b16) {
      snprintf(why, n, "int16x8 conv with %s bias not supported (int64 expected)",
               dtype_name(b->dtype));
      return -1;
    }
    *kind = K_S16;
  }
  if (cf_check_per_tensor(in, "input", why, n) || cf_check_per_tensor(out, "output", why, n) ||
      cf_check_filter_quant(f, nch, qdim, why, n))
    return -1;
  if (*kind == K_S16 &&
      (cf_check_zero_zp(in, "input", why, n) || cf_check_zero_zp(out, "output", why, n)))
    return -1;
  return 0;
}

/* Hybrid (float32 activations, int8 filter) as the LiteRT runtime runs it:
 * CONV_2D in its XNNPACK delegate (qd8 dynamic quantization: per-tensor or
 * per-channel filter scales, dilation), DEPTHWISE_CONV_2D in LiteRT's own
 * hybrid kernel (one filter scale per output channel). Filter zero points
 * must be 0. Whatever is refused here is dequantized at compile time instead
 * (transform dequantize_hybrid_weights) and runs in float. */
static int hybrid_prepare(conv_plan *cp, const ir_tensor *f, int qdim, char *why, size_t n) {
  const aot_conv_params *p = &cp->p;
  if (cf_check_filter_quant(f, p->out_c, qdim, why, n)) return -1;
  int64_t depth = (int64_t)p->filter_h * p->filter_w * (cp->ck == CK_CONV ? p->filter_in_c : 1);
  /* |w * (q - zp)| <= 128 * 255: the int32 sum cannot overflow */
  if (depth > 65536) return fail(why, n, "hybrid conv accumulation depth over 65536");
  if (cp->ck == CK_CONV) {
    if (p->filter_in_c != p->in_c) return fail(why, n, "hybrid grouped conv not supported");
  } else if (f->nq != p->out_c) {
    return fail(why, n, "hybrid depthwise conv needs one filter scale per output channel");
  }
  cp->h.per_channel = f->nq > 1;
  cp->h.filter_scale = f->scale;
  cp->nscale = f->nq;
  return 0;
}

static int conv_prepare(const ir_graph *g, const ir_op *op, conv_plan *cp, char *why,
                        size_t n) {
  memset(cp, 0, sizeof *cp);
  cp->bias = -1;
  if (op->builtin == OP_CONV_2D)
    cp->ck = CK_CONV;
  else if (op->builtin == OP_DEPTHWISE_CONV_2D)
    cp->ck = CK_DW;
  else
    cp->ck = CK_TCONV;

  int iin = cp->ck == CK_TCONV ? 2 : 0, ifl = 1, ib = cp->ck == CK_TCONV ? 3 : 2;
  const ir_tensor *in = cf_in(g, op, iin), *f = cf_in(g, op, ifl), *b = cf_in(g, op, ib);
  const ir_tensor *out = cf_out(g, op, 0);
  if (!in || !f || !out) return fail(why, n, "missing input, filter or output");
  cp->in = op->in[iin];
  cp->filter = op->in[ifl];
  cp->out = op->out[0];
  if (b) cp->bias = op->in[ib];
  if (in->rank != 4 || f->rank != 4 || out->rank != 4)
    return fail(why, n, "input, filter and output must have rank 4");
  for (int i = 0; i < 4; i++)
    if (in->shape[i] <= 0 || f->shape[i] <= 0 || out->shape[i] <= 0)
      return fail(why, n, "dynamic or empty shapes not supported");

  aot_conv_params *p = &cp->p;
  p->batches = in->shape[0];
  p->in_h = in->shape[1];
  p->in_w = in->shape[2];
  p->in_c = in->shape[3];
  p->out_h = out->shape[1];
  p->out_w = out->shape[2];
  p->out_c = out->shape[3];
  p->filter_h = f->shape[1];
  p->filter_w = f->shape[2];
  p->stride_h = op->opts.stride_h;
  p->stride_w = op->opts.stride_w;
  p->dilation_h = cp->ck == CK_TCONV ? 1 : op->opts.dilation_h;
  p->dilation_w = cp->ck == CK_TCONV ? 1 : op->opts.dilation_w;
  if (out->shape[0] != p->batches) return fail(why, n, "batch mismatch between input and output");
  if (p->stride_h <= 0 || p->stride_w <= 0) return fail(why, n, "stride must be positive");
  if (p->dilation_h <= 0 || p->dilation_w <= 0) return fail(why, n, "dilation must be positive");

  int qdim;
  if (cp->ck == CK_CONV) {
    p->filter_in_c = f->shape[3];
    if (f->shape[0] != p->out_c) return fail(why, n, "filter dim 0 differs from output channels");
    if (p->in_c % p->filter_in_c != 0)
      return fail(why, n, "input channels not a multiple of filter channels");
    int groups = p->in_c / p->filter_in_c;
    if (p->out_c % groups != 0) return fail(why, n, "output channels not a multiple of groups");
    qdim = 0;
  } else if (cp->ck == CK_DW) {
    if (f->shape[0] != 1) return fail(why, n, "depthwise filter dim 0 must be 1");
    if (f->shape[3] != p->out_c) return fail(why, n, "filter dim 3 differs from output channels");
    if (p->out_c % p->in_c != 0)
      return fail(why, n, "output channels not a multiple of input channels");
    p->depth_multiplier = p->out_c / p->in_c;
    p->filter_in_c = 1;
    qdim = 3;
  } else {
    p->filter_in_c = f->shape[3];
    if (f->shape[0] != p->out_c) return fail(why, n, "filter dim 0 differs from output channels");
    if (f->shape[3] != p->in_c) return fail(why, n, "filter dim 3 differs from input channels");
    qdim = 0;
  }
  if (cp->ck == CK_TCONV) {
    const ir_tensor *os = cf_in(g, op, 0);
    if (os && os->data) {
      size_t no;
      if (os->dtype != DT_INT32 || cf_numel(os, &no) || no != 4 ||
          os->data_bytes < 4 * sizeof(int32_t))
        return fail(why, n, "output_shape must be 4 int32 values");
      for (int i = 0; i < 4; i++) {
        int32_t v;
        memcpy(&v, os->data + 4 * i, sizeof v);
        if (v != out->shape[i]) return fail(why, n, "output_shape differs from the output tensor");
      }
    }
  }
  if (b) {
    size_t nb;
    if (cf_numel(b, &nb) || nb != (size_t)p->out_c)
      return fail(why, n, "bias size differs from output channels");
  }
  if (conv_types(in, f, b, out, p->out_c, qdim, cp->ck == CK_TCONV, &cp->kind, why, n))
    return -1;
  if (cp->kind == K_HYB && hybrid_prepare(cp, f, qdim, why, n)) return -1;
  if (cp->ck == CK_TCONV && cp->kind != K_F32 && op->opts.fused_act != ACT_NONE)
    return fail(why, n, "fused activation on a quantized TRANSPOSE_CONV not supported "
                        "(TFLM ignores it)");
  if (check_fused_act_supported(op->opts.fused_act, why, n)) return -1;

  /* padding and output size, as TFLM computes them */
  int oh, ow;
  if (cp->ck == CK_TCONV) {
    int ih, iw;   /* TFLM: padding from the output size seen as an input */
    if (conv_out_and_pad(op->opts.padding, p->stride_h, 1, p->out_h, p->filter_h, &ih, &p->pad_h) ||
        conv_out_and_pad(op->opts.padding, p->stride_w, 1, p->out_w, p->filter_w, &iw, &p->pad_w))
      return fail(why, n, "unsupported padding");
    if (cf_check_window("height", p->in_h, p->out_h, p->filter_h, p->stride_h, 1, p->pad_h, why,
                        n) ||
        cf_check_window("width", p->in_w, p->out_w, p->filter_w, p->stride_w, 1, p->pad_w, why, n))
      return -1;
  } else {
    if (conv_out_and_pad(op->opts.padding, p->stride_h, p->dilation_h, p->in_h, p->filter_h, &oh,
                         &p->pad_h) ||
        conv_out_and_pad(op->opts.padding, p->stride_w, p->dilation_w, p->in_w, p->filter_w, &ow,
                         &p->pad_w))
      return fail(why, n, "unsupported padding");
    if (oh != p->out_h || ow != p->out_w) {
      snprintf(why, n, "output %dx%d differs from the computed %dx%d", (int)p->out_h,
               (int)p->out_w, oh, ow);
      return -1;
    }
    if (cf_check_window("height", p->in_h, p->out_h, p->filter_h, p->stride_h, p->dilation_h,
                        p->pad_h, why, n) ||
        cf_check_window("width", p->in_w, p->out_w, p->filter_w, p->stride_w, p->dilation_w,
                        p->pad_w, why, n))
      return -1;
  }

  if (cp->kind == K_F32 || cp->kind == K_HYB) {
    act_range_float(op->opts.fused_act, &p->act_min_f, &p->act_max_f);
  } else {
    act_range_quant(out, op->opts.fused_act, &p->act_min, &p->act_max);
    if (p->act_min > p->act_max) return fail(why, n, "empty activation range");
    if (cf_check_multipliers(in, f, out, p->out_c, cp->kind == K_S8 ? 31 : 14, why, n))
      return -1;
    p->input_offset = cp->kind == K_S8 ? -in->zero_point[0] : 0;
    p->output_offset = cp->kind == K_S8 ? out->zero_point[0] : 0;
    cp->mult = xcalloc((size_t)p->out_c, sizeof(int32_t));
    cp->shift = xcalloc((size_t)p->out_c, sizeof(int32_t));
    conv_channel_multipliers(in, f, out, p->out_c, cp->mult, cp->shift);
    p->out_mult = cp->mult;
    p->out_shift = cp->shift;
    if (b && b->dtype == DT_INT16) {
      cp->bias64 = xcalloc((size_t)p->out_c, sizeof(int64_t));
      for (int i = 0; i < p->out_c; i++) {
        int16_t v;
        memcpy(&v, b->data + 2 * (size_t)i, sizeof v);
        cp->bias64[i] = v;
      }
    }
  }
  return 0;
}

/* ---- op_impl callbacks ---- */

static size_t conv_scratch(const ir_graph *g, const ir_op *op) {
  conv_plan cp;
  char why[256];
  size_t r = 0;
  if (conv_prepare(g, op, &cp, why, sizeof why) == 0 && cp.kind == K_HYB)
    r = cp.ck == CK_CONV ? aot_conv2d_hybrid_buffer_size(&cp.p)
                         : aot_dwconv2d_hybrid_buffer_size(&cp.p);
  conv_plan_free(&cp);
  return r;
}

static int conv_check(const ir_graph *g, const ir_op *op, char *why, size_t whylen) {
  conv_plan cp;
  int r = conv_prepare(g, op, &cp, why, whylen);
  conv_plan_free(&cp);
  return r;
}

/* Whether an output position's window reaches outside the image (as
 * aot_dsp_clips in runtime/aot_dsp.h): the layer needs the clipped paths. */
static int conv_clips(const aot_conv_params *p) {
  return p->pad_h > 0 || p->pad_w > 0 ||
         (p->out_h - 1) * p->stride_h - p->pad_h + (p->filter_h - 1) * p->dilation_h >= p->in_h ||
         (p->out_w - 1) * p->stride_w - p->pad_w + (p->filter_w - 1) * p->dilation_w >= p->in_w;
}

static int conv_emit(emit_ctx *e, const ir_graph *g, const ir_op *op) {
  conv_plan cp;
  char why[256];
  if (conv_prepare(g, op, &cp, why, sizeof why)) return -1;
  const aot_conv_params *p = &cp.p;
  char mult[128] = "NULL", shift[128] = "NULL", lo[64], hi[64];
  char pin[160], pf[160], pb[160] = "NULL", pout[160];
  const char *kn = kernel_name(cp.ck, cp.kind);

  if (cp.kind != K_F32 && cp.kind != K_HYB) {
    cf_copy(mult, sizeof mult, emit_array_i32(e, "mult", cp.mult, (size_t)p->out_c));
    cf_copy(shift, sizeof shift, emit_array_i32(e, "shift", cp.shift, (size_t)p->out_c));
  }
  cf_copy(lo, sizeof lo, emit_float(e, p->act_min_f));
  cf_copy(hi, sizeof hi, emit_float(e, p->act_max_f));
  emit_decl(e,
            "static const aot_conv_params %s_p = {\n"
            "  .batches = %d, .in_h = %d, .in_w = %d, .in_c = %d,\n"
            "  .out_h = %d, .out_w = %d, .out_c = %d,\n"
            "  .filter_h = %d, .filter_w = %d, .filter_in_c = %d,\n"
            "  .stride_h = %d, .stride_w = %d, .dilation_h = %d, .dilation_w = %d,\n"
            "  .pad_h = %d, .pad_w = %d, .depth_multiplier = %d,\n"
            "  .input_offset = %d, .output_offset = %d,\n"
            "  .act_min = %d, .act_max = %d, .act_min_f = %s, .act_max_f = %s,\n"
            "  .out_mult = %s, .out_shift = %s,\n"
            "};",
            emit_opname(e), (int)p->batches, (int)p->in_h, (int)p->in_w, (int)p->in_c,
            (int)p->out_h, (int)p->out_w, (int)p->out_c, (int)p->filter_h, (int)p->filter_w,
            (int)p->filter_in_c, (int)p->stride_h, (int)p->stride_w, (int)p->dilation_h,
            (int)p->dilation_w, (int)p->pad_h, (int)p->pad_w, (int)p->depth_multiplier,
            (int)p->input_offset, (int)p->output_offset, (int)p->act_min, (int)p->act_max, lo,
            hi, mult, shift);
  cf_copy(pin, sizeof pin, emit_ptr(e, cp.in));
  cf_copy(pf, sizeof pf, emit_ptr(e, cp.filter));
  if (cp.bias64)
    cf_copy(pb, sizeof pb, emit_array_i64(e, "bias64", cp.bias64, (size_t)p->out_c));
  else if (cp.bias >= 0)
    cf_copy(pb, sizeof pb, emit_ptr(e, cp.bias));
  cf_copy(pout, sizeof pout, emit_ptr(e, cp.out));
  if (cp.kind == K_HYB) {
    char fs[128], sc[160];
    cf_copy(fs, sizeof fs, emit_array_f32(e, "fscale", cp.h.filter_scale, (size_t)cp.nscale));
    emit_decl(e, "static const aot_hybrid_params %s_h = {.per_channel = %d, .filter_scale = %s};",
              emit_opname(e), (int)cp.h.per_channel, fs);
    cf_copy(sc, sizeof sc, emit_scratch_ptr(e));
    emit_call(e, "aot_%s(&%s_p, &%s_h, %s, %s, %s, %s, %s)", kn, emit_opname(e), emit_opname(e),
              pin, pf, pb, pout, sc);
  } else {
    emit_call(e, "aot_%s(&%s_p, %s, %s, %s, %s)", kn, emit_opname(e), pin, pf, pb, pout);
  }
  char path[96];
  snprintf(path, sizeof path, "ConvolutionFunctions/aot_%s.c", kn);
  emit_kernel(e, path);
  /* the kernel paths of runtime/aot_features.h this layer can reach */
  if (cp.kind == K_S8 && cp.ck == CK_CONV && p->filter_h * p->filter_w * p->filter_in_c > 1024)
    emit_feature(e, "CONV_S8_BIG");
  if (cp.kind == K_S8 && cp.ck == CK_CONV &&
      (conv_clips(p) || p->dilation_w != 1 || p->filter_in_c != p->in_c))
    emit_feature(e, "CONV_S8_CLIP");
  if (cp.kind == K_S8 && cp.ck == CK_DW && conv_clips(p)) emit_feature(e, "DW_S8_CLIP");
  if (cp.kind == K_S8 && cp.ck == CK_DW && p->depth_multiplier == 1 && p->in_c % 4 != 0)
    emit_feature(e, "DW_S8_TAIL");
  if (cp.kind == K_S8 && cp.ck == CK_DW && p->depth_multiplier == 1) emit_feature(e, "DW_S8_DM1");
  if (cp.kind == K_S8 && cp.ck == CK_DW && p->depth_multiplier == 1 && p->in_c < 8)
    emit_feature(e, "DW_S8_FEW");
  if (cp.kind == K_S8 && cp.ck == CK_DW && p->depth_multiplier != 1) emit_feature(e, "DW_S8_DM");
  if (cp.kind == K_S8 && cp.ck == CK_DW && p->filter_h * p->filter_w > 49)
    emit_feature(e, "DW_S8_BIG");
  conv_plan_free(&cp);
  return 0;
}

static int conv_eval(const ir_graph *g, const ir_op *op, void *const *data, void *scratch) {
  conv_plan cp;
  char why[256];
  if (conv_prepare(g, op, &cp, why, sizeof why)) return -1;
  const void *in = data[cp.in], *f = data[cp.filter];
  const void *b = cp.bias64 ? (const void *)cp.bias64 : cp.bias >= 0 ? data[cp.bias] : NULL;
  void *out = data[cp.out];
  int32_t st = AOT_KERNEL_BAD_PARAM;
  if (cp.kind == K_HYB) {
    if (cp.ck == CK_CONV) st = aot_conv2d_hybrid(&cp.p, &cp.h, in, f, b, out, scratch);
    else if (cp.ck == CK_DW) st = aot_dwconv2d_hybrid(&cp.p, &cp.h, in, f, b, out, scratch);
  } else switch (cp.ck * 3 + cp.kind) {
    case CK_CONV * 3 + K_F32: st = aot_conv2d_f32(&cp.p, in, f, b, out); break;
    case CK_CONV * 3 + K_S8: st = aot_conv2d_s8(&cp.p, in, f, b, out); break;
    case CK_CONV * 3 + K_S16: st = aot_conv2d_s16(&cp.p, in, f, b, out); break;
    case CK_DW * 3 + K_F32: st = aot_dwconv2d_f32(&cp.p, in, f, b, out); break;
    case CK_DW * 3 + K_S8: st = aot_dwconv2d_s8(&cp.p, in, f, b, out); break;
    case CK_DW * 3 + K_S16: st = aot_dwconv2d_s16(&cp.p, in, f, b, out); break;
    case CK_TCONV * 3 + K_F32: st = aot_tconv2d_f32(&cp.p, in, f, b, out); break;
    case CK_TCONV * 3 + K_S8: st = aot_tconv2d_s8(&cp.p, in, f, b, out); break;
    case CK_TCONV * 3 + K_S16: st = aot_tconv2d_s16(&cp.p, in, f, b, out); break;
  }
  conv_plan_free(&cp);
  return (int)st;
}

const op_impl op_conv_2d = {
    .builtin = OP_CONV_2D,
    .name = "CONV_2D",
    .dtypes = "int8 (per-channel or per-tensor int8 filter, int32 bias), int16x8 (int64 bias), "
              "float32, hybrid (float32 activations, int8 weights; XNNPACK dynamic quantization)",
    .constraints = "rank-4 NHWC; SAME/VALID padding, strides, dilations, groups; fused "
                   "RELU/RELU6/RELU_N1_TO_1; filter zero point 0; int16 zero points 0",
    .check = conv_check,
    .scratch = conv_scratch,
    .emit = conv_emit,
    .eval = conv_eval,
};

const op_impl op_depthwise_conv_2d = {
    .builtin = OP_DEPTHWISE_CONV_2D,
    .name = "DEPTHWISE_CONV_2D",
    .dtypes = "int8 (per-channel or per-tensor int8 filter, int32 bias), int16x8 (int64 bias), "
              "float32, hybrid (float32 activations, per-channel int8 weights)",
    .constraints = "rank-4 NHWC; any depth multiplier; SAME/VALID padding, strides, dilations; "
                   "fused RELU/RELU6/RELU_N1_TO_1; filter zero point 0; int16 zero points 0",
    .check = conv_check,
    .scratch = conv_scratch,
    .emit = conv_emit,
    .eval = conv_eval,
};

const op_impl op_transpose_conv = {
    .builtin = OP_TRANSPOSE_CONV,
    .name = "TRANSPOSE_CONV",
    .dtypes = "int8 (per-channel or per-tensor int8 filter, int32 bias), int16x8 (int64 bias), "
              "float32",
    .constraints = "rank-4 NHWC; static output shape; SAME/VALID padding, strides; optional "
                   "bias (int16x8: int64, or constant int16 widened); fused activation on "
                   "float32 only; filter zero point 0",
    .check = conv_check,
    .emit = conv_emit,
    .eval = conv_eval,
};
