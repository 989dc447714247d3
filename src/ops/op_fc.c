/* op_fc.c - FULLY_CONNECTED and BATCH_MATMUL.
 *
 * fc_prepare() / bmm_prepare() validate an op and compute every kernel
 * parameter; check, emit and eval all go through them. */
#include "quant_conv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_conv.h"

/* K_HYB: float32 activations with int8 weights ("hybrid" / dynamic-range),
 * each input row quantized at run time as the LiteRT runtime does. */
enum { K_F32, K_S8, K_S16, K_HYB };

static int fail(char *why, size_t n, const char *msg) {
  snprintf(why, n, "%s", msg);
  return -1;
}

/* ======================= FULLY_CONNECTED ======================= */

typedef struct fc_plan {
  int kind;
  int in, w, bias, out;
  aot_fc_params p;
  aot_hybrid_params h;     /* K_HYB: filter_scale points at the weights' scales */
  int nscale;
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
  if (in->dtype == DT_FLOAT32 && w->dtype == DT_INT8) {
    /* As the LiteRT runtime runs it (XNNPACK delegate, qd8 dynamically
     * quantized fully connected: each input row quantized asymmetrically,
     * whatever asymmetric_quantize_inputs says); weight zero points 0,
     * per-tensor or per-channel scales. Refused forms are dequantized at
     * compile time instead (transform dequantize_hybrid_weights). */
    if (b && b->dtype != DT_FLOAT32)
      return fail(why, n, "hybrid FC (float32 input, int8 weights) needs a float32 bias");
    if (cf_check_filter_quant(w, odepth, 0, why, n)) return -1;
    /* |w * (q - zp)| <= 128 * 255: the int32 sum cannot overflow */
    if (idepth > 65536) return fail(why, n, "hybrid FC accumulation depth over 65536");
    fp->kind = K_HYB;
    fp->h.per_channel = w->nq > 1;
    fp->h.filter_scale = w->scale;
    fp->nscale = w->nq;
    act_range_float(op->opts.fused_act, &p->act_min_f, &p->act_max_f);
    return 0;
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
    if (cf_check_multipliers(in, w, out, odepth, fp->kind == K_S8 ? 31 : 14, why, n)) return -1;
    conv_channel_multipliers(in, w, out, odepth, fp->mult, fp->shift);
  } else {
    /* TFLite GetQuantizedConvolutionMultipler: the scale product is rounded
     * to float before the division in double. */
    float prod = (float)(in->scale[0] * w->scale[0]);
    double real = (double)prod / (double)out->scale[0];
    int s;
    if (quant_check_multiplier(real, fp->kind == K_S8 ? 31 : 14, "input x weights / output scale",
                               why, n))
      return -1;
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

static const char *const fc_kernels[4] = {"fc_f32", "fc_s8", "fc_s16", "fc_hybrid"};

static size_t fc_scratch(const ir_graph *g, const ir_op *op) {
  fc_plan fp;
  char why[256];
  size_t r = 0;
  if (fc_prepare(g, op, &fp, why, sizeof why) == 0 && fp.kind == K_HYB)
    r = aot_fc_hybrid_buffer_size(&fp.p);
  fc_plan_free(&fp);
  return r;
}

/* int8 with constant weights (and bias): the folded bias
 * kbias[c] = bias[c] + input_offset * (sum of weight row c), int32
 * wrap-around as in the kernels, emitted beside the weights (the SIMD
 * kernels start from it; see aot_fc_params). name stays "NULL" otherwise. */
static void fc_kbias(const ir_graph *g, const fc_plan *fp, emit_ctx *e, char *name, size_t n) {
  const ir_tensor *w = &g->t[ir_root(g, fp->w)];
  const ir_tensor *b = fp->bias >= 0 ? &g->t[ir_root(g, fp->bias)] : NULL;
  const int32_t od = fp->p.out_depth, id = fp->p.in_depth;
  if (w->dtype != DT_INT8 || !w->data || w->data_bytes < (size_t)od * (size_t)id) return;
  if (b && (b->dtype != DT_INT32 || !b->data || b->data_bytes < 4 * (size_t)od)) return;
  int32_t *k = xmalloc((size_t)od * sizeof *k);
  for (int32_t c = 0; c < od; c++) {
    const int8_t *row = (const int8_t *)w->data + (size_t)c * (size_t)id;
    uint32_t s = 0, bc = 0;
    for (int32_t i = 0; i < id; i++) s += (uint32_t)(int32_t)row[i];
    if (b) memcpy(&bc, b->data + 4 * (size_t)c, sizeof bc);
    k[c] = (int32_t)(bc + s * (uint32_t)fp->p.input_offset);
  }
  cf_copy(name, n, emit_array_i32(e, "kbias", k, (size_t)od));
  free(k);
}

static int fc_emit(emit_ctx *e, const ir_graph *g, const ir_op *op) {
  fc_plan fp;
  char why[256];
  if (fc_prepare(g, op, &fp, why, sizeof why)) return -1;
  const aot_fc_params *p = &fp.p;
  char mult[128] = "NULL", shift[128] = "NULL", lo[64], hi[64];
  char pin[160], pw[160], pb[160] = "NULL", pout[160];
  const char *kn = fc_kernels[fp.kind];
  if (fp.kind != K_F32 && fp.kind != K_HYB) {
    cf_copy(mult, sizeof mult, emit_array_i32(e, "mult", fp.mult, (size_t)fp.nmult));
    cf_copy(shift, sizeof shift, emit_array_i32(e, "shift", fp.shift, (size_t)fp.nmult));
  }
  char kbias[128] = "NULL";
  if (fp.kind == K_S8) fc_kbias(g, &fp, e, kbias, sizeof kbias);
  /* rows longer than the DSP build's widened chunk (AOT_FC_S8_XW) */
  if (fp.kind == K_S8 && p->in_depth > 1024) emit_feature(e, "FC_S8_LONG");
  if (fp.kind == K_S8 && p->out_depth >= 4) emit_feature(e, "FC_S8_ROWS4");   /* four-row loop */
  cf_copy(lo, sizeof lo, emit_float(e, p->act_min_f));
  cf_copy(hi, sizeof hi, emit_float(e, p->act_max_f));
  emit_decl(e,
            "static const aot_fc_params %s_p = {\n"
            "  .batches = %d, .in_depth = %d, .out_depth = %d,\n"
            "  .input_offset = %d, .output_offset = %d,\n"
            "  .act_min = %d, .act_max = %d, .act_min_f = %s, .act_max_f = %s,\n"
            "  .per_channel = %d, .out_mult = %s, .out_shift = %s,%s%s\n"
            "};",
            emit_opname(e), (int)p->batches, (int)p->in_depth, (int)p->out_depth,
            (int)p->input_offset, (int)p->output_offset, (int)p->act_min, (int)p->act_max, lo,
            hi, (int)p->per_channel, mult, shift, fp.kind == K_S8 ? "\n  .kbias = " : "",
            fp.kind == K_S8 ? kbias : "");
  cf_copy(pin, sizeof pin, emit_ptr(e, fp.in));
  cf_copy(pw, sizeof pw, emit_ptr(e, fp.w));
  if (fp.bias >= 0) cf_copy(pb, sizeof pb, emit_ptr(e, fp.bias));
  cf_copy(pout, sizeof pout, emit_ptr(e, fp.out));
  if (fp.kind == K_HYB) {
    char fs[128], sc[160];
    cf_copy(fs, sizeof fs, emit_array_f32(e, "wscale", fp.h.filter_scale, (size_t)fp.nscale));
    emit_decl(e, "static const aot_hybrid_params %s_h = {.per_channel = %d, .filter_scale = %s};",
              emit_opname(e), (int)fp.h.per_channel, fs);
    cf_copy(sc, sizeof sc, emit_scratch_ptr(e));
    emit_call(e, "aot_%s(&%s_p, &%s_h, %s, %s, %s, %s, %s)", kn, emit_opname(e), emit_opname(e),
              pin, pw, pb, pout, sc);
  } else {
    emit_call(e, "aot_%s(&%s_p, %s, %s, %s, %s)", kn, emit_opname(e), pin, pw, pb, pout);
  }
  char path[96];
  snprintf(path, sizeof path, "FullyConnectedFunctions/aot_%s.c", kn);
  emit_kernel(e, path);
  fc_plan_free(&fp);
  return 0;
}

static int fc_eval(const ir_graph *g, const ir_op *op, void *const *data, void *scratch) {
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
    case K_HYB: st = aot_fc_hybrid(&fp.p, &fp.h, in, w, b, out, scratch); break;
  }
  fc_plan_free(&fp);
  return (int)st;
}

const op_impl op_fully_connected = {
    .builtin = OP_FULLY_CONNECTED,
    .name = "FULLY_CONNECTED",
    .dtypes = "int8 (per-tensor or per-channel int8 weights, int32 bias), int16x8 (int64 "
              "bias), float32, hybrid (float32 activations, int8 weights)",
    .constraints = "weights [O,I] (default format); input flattened to [-1,I]; keep_num_dims; "
                   "optional bias; fused RELU/RELU6/RELU_N1_TO_1; weight zero point 0",
    .check = fc_check,
    .scratch = fc_scratch,
    .emit = fc_emit,
    .eval = fc_eval,
};

/* ======================= BATCH_MATMUL ======================= */

typedef struct bmm_plan {
  int kind;
  int lhs, rhs, out;
  aot_bmm_params p;
} bmm_plan;

static int bmm_prepare(const ir_graph *g, const ir_op *op, bmm_plan *bp, char *why, size_t n) {
  memset(bp, 0, sizeof *bp);
  const ir_tensor *l = cf_in(g, op, 0), *r = cf_in(g, op, 1), *out = cf_out(g, op, 0);
  if (!l || !r || !out) return fail(why, n, "missing input or output");
  bp->lhs = op->in[0];
  bp->rhs = op->in[1];
  bp->out = op->out[0];
  if (l->rank < 2 || l->rank > 5 || r->rank < 2 || r->rank > 5)
    return fail(why, n, "operand ranks must be 2..5");
  int orank = l->rank > r->rank ? l->rank : r->rank;
  if (out->rank != orank) return fail(why, n, "output rank differs from the operands'");
  for (int i = 0; i < l->rank; i++)
    if (l->shape[i] <= 0) return fail(why, n, "dynamic or empty shapes not supported");
  for (int i = 0; i < r->rank; i++)
    if (r->shape[i] <= 0) return fail(why, n, "dynamic or empty shapes not supported");
  aot_bmm_params *p = &bp->p;
  p->adj_x = op->opts.adj_x ? 1 : 0;
  p->adj_y = op->opts.adj_y ? 1 : 0;
  int32_t lr = l->shape[l->rank - 2], lc = l->shape[l->rank - 1];
  int32_t rr = r->shape[r->rank - 2], rc = r->shape[r->rank - 1];
  p->m = p->adj_x ? lc : lr;
  p->k = p->adj_x ? lr : lc;
  int32_t rk = p->adj_y ? rc : rr;
  p->n = p->adj_y ? rr : rc;
  if (rk != p->k) return fail(why, n, "inner dimensions differ");
  if (out->shape[orank - 2] != p->m || out->shape[orank - 1] != p->n)
    return fail(why, n, "output matrix shape differs from the computed one");
  /* batch dims, right-aligned into AOT_BMM_MAX_BATCH_DIMS slots */
  int nb = orank - 2;
  size_t lstride = (size_t)lr * lc, rstride = (size_t)rr * rc;
  for (int d = AOT_BMM_MAX_BATCH_DIMS - 1, k = 0; d >= 0; d--, k++) {
    if (k >= nb) {
      p->batch_dims[d] = 1;
      continue;
    }
    int li = l->rank - 3 - k, ri = r->rank - 3 - k;
    int32_t ld = li >= 0 ? l->shape[li] : 1, rd = ri >= 0 ? r->shape[ri] : 1;
    int32_t od = ld == 1 ? rd : ld;
    if (ld != rd && ld != 1 && rd != 1) return fail(why, n, "batch dimensions do not broadcast");
    if (out->shape[orank - 3 - k] != od) return fail(why, n, "output batch shape differs");
    p->batch_dims[d] = od;
    if (lstride > INT32_MAX || rstride > INT32_MAX) return fail(why, n, "operands too large");
    p->lhs_bstride[d] = ld == 1 ? 0 : (int32_t)lstride;
    p->rhs_bstride[d] = rd == 1 ? 0 : (int32_t)rstride;
    lstride *= (size_t)ld;
    rstride *= (size_t)rd;
  }
  if (l->dtype != r->dtype || l->dtype != out->dtype) {
    snprintf(why, n, "operands %s x %s -> %s not supported", dtype_name(l->dtype),
             dtype_name(r->dtype), dtype_name(out->dtype));
    return -1;
  }
  switch (l->dtype) {
    case DT_FLOAT32: bp->kind = K_F32; return 0;
    case DT_INT8: bp->kind = K_S8; break;
    case DT_INT16: bp->kind = K_S16; break;
    default:
      snprintf(why, n, "%s operands not supported", dtype_name(l->dtype));
      return -1;
  }
  if (cf_check_per_tensor(l, "lhs", why, n) || cf_check_per_tensor(r, "rhs", why, n) ||
      cf_check_per_tensor(out, "output", why, n))
    return -1;
  if (bp->kind == K_S16 && (cf_check_zero_zp(l, "lhs", why, n) ||
                            cf_check_zero_zp(r, "rhs", why, n) ||
                            cf_check_zero_zp(out, "output", why, n)))
    return -1;
  /* TFLite GetQuantizedConvolutionMultipler (float product, double division) */
  float prod = (float)(l->scale[0] * r->scale[0]);
  int s;
  if (quant_check_multiplier((double)prod / (double)out->scale[0], bp->kind == K_S8 ? 31 : 14,
                             "lhs x rhs / output scale", why, n))
    return -1;
  quantize_multiplier((double)prod / (double)out->scale[0], &p->out_mult, &s);
  p->out_shift = s;
  p->lhs_offset = -l->zero_point[0];
  p->rhs_offset = -r->zero_point[0];
  p->output_offset = out->zero_point[0];
  act_range_quant(out, ACT_NONE, &p->act_min, &p->act_max);
  return 0;
}

static int bmm_check(const ir_graph *g, const ir_op *op, char *why, size_t whylen) {
  bmm_plan bp;
  return bmm_prepare(g, op, &bp, why, whylen);
}

static const char *const bmm_kernels[3] = {"batch_matmul_f32", "batch_matmul_s8",
                                           "batch_matmul_s16"};

static int bmm_emit(emit_ctx *e, const ir_graph *g, const ir_op *op) {
  bmm_plan bp;
  char why[256];
  if (bmm_prepare(g, op, &bp, why, sizeof why)) return -1;
  const aot_bmm_params *p = &bp.p;
  strbuf dims = {0}, ls = {0}, rs = {0};
  for (int d = 0; d < AOT_BMM_MAX_BATCH_DIMS; d++) {
    sb_printf(&dims, "%s%d", d ? ", " : "", (int)p->batch_dims[d]);
    sb_printf(&ls, "%s%d", d ? ", " : "", (int)p->lhs_bstride[d]);
    sb_printf(&rs, "%s%d", d ? ", " : "", (int)p->rhs_bstride[d]);
  }
  emit_decl(e,
            "static const aot_bmm_params %s_p = {\n"
            "  .batch_dims = {%s},\n"
            "  .lhs_bstride = {%s},\n"
            "  .rhs_bstride = {%s},\n"
            "  .m = %d, .k = %d, .n = %d, .adj_x = %d, .adj_y = %d,\n"
            "  .lhs_offset = %d, .rhs_offset = %d, .output_offset = %d,\n"
            "  .out_mult = %d, .out_shift = %d, .act_min = %d, .act_max = %d,\n"
            "};",
            emit_opname(e), dims.s, ls.s, rs.s, (int)p->m, (int)p->k, (int)p->n, (int)p->adj_x,
            (int)p->adj_y, (int)p->lhs_offset, (int)p->rhs_offset, (int)p->output_offset,
            (int)p->out_mult, (int)p->out_shift, (int)p->act_min, (int)p->act_max);
  sb_free(&dims);
  sb_free(&ls);
  sb_free(&rs);
  char pl[160], pr[160], po[160], path[96];
  cf_copy(pl, sizeof pl, emit_ptr(e, bp.lhs));
  cf_copy(pr, sizeof pr, emit_ptr(e, bp.rhs));
  cf_copy(po, sizeof po, emit_ptr(e, bp.out));
  emit_call(e, "aot_%s(&%s_p, %s, %s, %s)", bmm_kernels[bp.kind], emit_opname(e), pl, pr, po);
  snprintf(path, sizeof path, "FullyConnectedFunctions/aot_%s.c", bmm_kernels[bp.kind]);
  emit_kernel(e, path);
  return 0;
}

static int bmm_eval(const ir_graph *g, const ir_op *op, void *const *data, void *scratch) {
  (void)scratch;
  bmm_plan bp;
  char why[256];
  if (bmm_prepare(g, op, &bp, why, sizeof why)) return -1;
  const void *l = data[bp.lhs], *r = data[bp.rhs];
  void *o = data[bp.out];
  switch (bp.kind) {
    case K_F32: return (int)aot_batch_matmul_f32(&bp.p, l, r, o);
    case K_S8: return (int)aot_batch_matmul_s8(&bp.p, l, r, o);
    default: return (int)aot_batch_matmul_s16(&bp.p, l, r, o);
  }
}

const op_impl op_batch_matmul = {
    .builtin = OP_BATCH_MATMUL,
    .name = "BATCH_MATMUL",
    .dtypes = "int8, int16 (zero points 0), float32",
    .constraints = "ranks 2..5 with broadcast batch dims; adj_x / adj_y; per-tensor "
                   "quantization; both operands may be activations",
    .check = bmm_check,
    .emit = bmm_emit,
    .eval = bmm_eval,
};
