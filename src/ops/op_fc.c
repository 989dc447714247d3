/* op_fc.c - FULLY_CONNECTED and BATCH_MATMUL.
 *
 * fc_prepare() validates an op and computes every kernel parameter; check,
 * emit and eval all go through it. */
#include "quant_conv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_conv.h"

enum { K_F32, K_S8, K_S16 };

static int fail(char *why, size_t n, const char *msg) {
  snprintf(why, n, "%s", msg);
  return -1;
}

/* ======================= FULLY_CONNECTED ======================= */

typedef struct fc_plan {
  int kind;
  int in, w, bias, out;
  aot_fc_params p;
  int32_t *mult, *shift;   /* 1 or out_depth entries, owned */
  int nmult;
} fc_plan;

static void fc_plan_free(fc_plan *fp) {
  free(fp->mult);
  free(fp->shift);
  fp->mult = fp->shift = NULL;
}

static int fc_prepare(const ir_graph *g, const ir_op *op, fc_plan *fp, char *why, size_t n) {
  memset(fp, 0, sizeof *fp);
  fp->bias = -1;
  const ir_tensor *in = cf_in(g, op, 0), *w = cf_in(g, op, 1), *b = cf_in(g, op, 2);
  const ir_tensor *out = cf_out(g, op, 0);
  if (!in || !w || !out) return fail(why, n, "missing input, weights or output");
  fp->in = op->in[0];
  fp->w = op->in[1];
  fp->out = op->out[0];
  if (b) fp->bias = op->in[2];
  if (op->opts.weights_format != 0) return fail(why, n, "shuffled weights format not supported");
  if (w->rank != 2) return fail(why, n, "weights must have rank 2");
  int32_t odepth = w->shape[0], idepth = w->shape[1];
  if (odepth <= 0 || idepth <= 0) return fail(why, n, "dynamic or empty weights shape");
  size_t nin, nout;
  if (cf_numel(in, &nin) || cf_numel(out, &nout) || out->rank < 1)
    return fail(why, n, "dynamic shapes not supported");
  if (out->shape[out->rank - 1] != odepth)
    return fail(why, n, "output last dim differs from weights dim 0");
  if (nin % (size_t)idepth != 0) return fail(why, n, "input size not a multiple of weights dim 1");
  size_t batches = nin / (size_t)idepth;
  if (batches * (size_t)odepth != nout)
    return fail(why, n, "output size differs from batches x output depth");
  if (batches > INT32_MAX) return fail(why, n, "too many rows");
  if (b) {
    size_t nb;
    if (cf_numel(b, &nb) || nb != (size_t)odepth)
      return fail(why, n, "bias size differs from output depth");
  }
  if (check_fused_act_supported(op->opts.fused_act, why, n)) return -1;

  aot_fc_params *p = &fp->p;
  p->batches = (int32_t)batches;
  p->in_depth = idepth;
  p->out_depth = odepth;

  if (in->dtype != out->dtype) {
    snprintf(why, n, "input %s with output %s not supported", dtype_name(in->dtype),
             dtype_name(out->dtype));
    return -1;
  }
  if (in->dtype == DT_FLOAT32) {
    if (w->dtype != DT_FLOAT32) {
      snprintf(why, n, "float32 input with %s weights not supported", dtype_name(w->dtype));
      return -1;
    }
    if (b && b->dtype != DT_FLOAT32) return fail(why, n, "float32 FC needs a float32 bias");
    fp->kind = K_F32;
    act_range_float(op->opts.fused_act, &p->act_min_f, &p->act_max_f);
    return 0;
  }
  if (in->dtype != DT_INT8 && in->dtype != DT_INT16) {
    snprintf(why, n, "input %s not supported", dtype_name(in->dtype));
    return -1;
  }
  if (w->dtype != DT_INT8) {
    snprintf(why, n, "input %s with weights %s not supported", dtype_name(in->dtype),
             dtype_name(w->dtype));
    return -1;
  }
  fp->kind = in->dtype == DT_INT8 ? K_S8 : K_S16;
  if (fp->kind == K_S8 && b && b->dtype != DT_INT32) {
    snprintf(why, n, "int8 FC with %s bias not supported (int32 expected)", dtype_name(b->dtype));
    return -1;
  }
  if (fp->kind == K_S16 && b && b->dtype != DT_INT64) {
    snprintf(why, n, "int16x8 FC with %s bias not supported (int64 expected)",
             dtype_name(b->dtype));
    return -1;
  }
  if (cf_check_per_tensor(in, "input", why, n) || cf_check_per_tensor(out, "output", why, n) ||
      cf_check_filter_quant(w, odepth, 0, why, n))
    return -1;
  if (fp->kind == K_S16 &&
      (cf_check_zero_zp(in, "input", why, n) || cf_check_zero_zp(out, "output", why, n)))
    return -1;
  act_range_quant(out, op->opts.fused_act, &p->act_min, &p->act_max);
  if (p->act_min > p->act_max) return fail(why, n, "empty activation range");
  p->input_offset = fp->kind == K_S8 ? -in->zero_point[0] : 0;
  p->output_offset = fp->kind == K_S8 ? out->zero_point[0] : 0;
  if (w->nq > 1) {
    /* FullyConnectedPerChannel: multipliers as for convolutions */
    fp->nmult = odepth;
    p->per_channel = 1;
    fp->mult = xcalloc((size_t)odepth, sizeof(int32_t));
    fp->shift = xcalloc((size_t)odepth, sizeof(int32_t));
    conv_channel_multipliers(in, w, out, odepth, fp->mult, fp->shift);
  } else {
    /* TFLite GetQuantizedConvolutionMultipler: the scale product is rounded
     * to float before the division in double. */
    float prod = (float)(in->scale[0] * w->scale[0]);
    double real = (double)prod / (double)out->scale[0];
    int s;
    fp->nmult = 1;
    fp->mult = xcalloc(1, sizeof(int32_t));
    fp->shift = xcalloc(1, sizeof(int32_t));
    quantize_multiplier(real, &fp->mult[0], &s);
    fp->shift[0] = s;
  }
  p->out_mult = fp->mult;
  p->out_shift = fp->shift;
  return 0;
}

static int fc_check(const ir_graph *g, const ir_op *op, char *why, size_t whylen) {
  fc_plan fp;
  int r = fc_prepare(g, op, &fp, why, whylen);
  fc_plan_free(&fp);
  return r;
}

static const char *const fc_kernels[3] = {"fc_f32", "fc_s8", "fc_s16"};

static int fc_emit(emit_ctx *e, const ir_graph *g, const ir_op *op) {
  fc_plan fp;
  char why[256];
  if (fc_prepare(g, op, &fp, why, sizeof why)) return -1;
  const aot_fc_params *p = &fp.p;
  char mult[128] = "NULL", shift[128] = "NULL", lo[64], hi[64];
  char pin[160], pw[160], pb[160] = "NULL", pout[160];
  const char *kn = fc_kernels[fp.kind];
  if (fp.kind != K_F32) {
    cf_copy(mult, sizeof mult, emit_array_i32(e, "mult", fp.mult, (size_t)fp.nmult));
    cf_copy(shift, sizeof shift, emit_array_i32(e, "shift", fp.shift, (size_t)fp.nmult));
  }
  cf_copy(lo, sizeof lo, emit_float(e, p->act_min_f));
  cf_copy(hi, sizeof hi, emit_float(e, p->act_max_f));
  emit_decl(e,
            "static const aot_fc_params %s_p = {\n"
            "  .batches = %d, .in_depth = %d, .out_depth = %d,\n"
            "  .input_offset = %d, .output_offset = %d,\n"
            "  .act_min = %d, .act_max = %d, .act_min_f = %s, .act_max_f = %s,\n"
            "  .per_channel = %d, .out_mult = %s, .out_shift = %s,\n"
            "};",
            emit_opname(e), (int)p->batches, (int)p->in_depth, (int)p->out_depth,
            (int)p->input_offset, (int)p->output_offset, (int)p->act_min, (int)p->act_max, lo,
            hi, (int)p->per_channel, mult, shift);
  cf_copy(pin, sizeof pin, emit_ptr(e, fp.in));
  cf_copy(pw, sizeof pw, emit_ptr(e, fp.w));
  if (fp.bias >= 0) cf_copy(pb, sizeof pb, emit_ptr(e, fp.bias));
  cf_copy(pout, sizeof pout, emit_ptr(e, fp.out));
  emit_call(e, "aot_%s(&%s_p, %s, %s, %s, %s)", kn, emit_opname(e), pin, pw, pb, pout);
  char path[96];
  snprintf(path, sizeof path, "FullyConnectedFunctions/aot_%s.c", kn);
  emit_kernel(e, path);
  fc_plan_free(&fp);
  return 0;
}

static int fc_eval(const ir_graph *g, const ir_op *op, void *const *data, void *scratch) {
  (void)scratch;
  fc_plan fp;
  char why[256];
  if (fc_prepare(g, op, &fp, why, sizeof why)) return -1;
  const void *in = data[fp.in], *w = data[fp.w];
  const void *b = fp.bias >= 0 ? data[fp.bias] : NULL;
  void *out = data[fp.out];
  int32_t st = AOT_KERNEL_BAD_PARAM;
  switch (fp.kind) {
    case K_F32: st = aot_fc_f32(&fp.p, in, w, b, out); break;
    case K_S8: st = aot_fc_s8(&fp.p, in, w, b, out); break;
    case K_S16: st = aot_fc_s16(&fp.p, in, w, b, out); break;
  }
  fc_plan_free(&fp);
  return (int)st;
}

const op_impl op_fully_connected = {
    .builtin = OP_FULLY_CONNECTED,
    .name = "FULLY_CONNECTED",
    .dtypes = "int8 (per-tensor or per-channel int8 weights, int32 bias), int16x8 (int64 "
              "bias), float32",
    .constraints = "weights [O,I] (default format); input flattened to [-1,I]; keep_num_dims; "
                   "optional bias; fused RELU/RELU6/RELU_N1_TO_1; weight zero point 0",
    .check = fc_check,
    .emit = fc_emit,
    .eval = fc_eval,
};
