/* op_fc.c - FULLY_CONNECTED and BATCH_MATMUL.
 *
 * fc_lower() / bmm_lower() validate an op and lower it to one kernel call
 * (lower.h) with every parameter, constant array (multipliers, shifts, the
 * folded int8 bias, hybrid weight scales) and kernel variant path computed;
 * check, emit, eval and the scratch size all go through them. */
#include "quant_conv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_conv.h"
#include "lower.h"

/* ======================= FULLY_CONNECTED ======================= */

/* int8 with constant weights (and bias): the folded bias
 * kbias[c] = bias[c] + input_offset * (sum of weight row c), int32
 * wrap-around as in the kernels, an array of the call beside the weights
 * (the SIMD kernels start from it; see aot_fc_params); none otherwise. */
static void fc_kbias(lower_call *c, const ir_tensor *w, const ir_tensor *b) {
  const aot_fc_params *p = &c->u.fc.p;
  const int32_t od = p->out_depth, id = p->in_depth;
  if (w->dtype != DT_INT8 || !w->data || w->data_bytes < (size_t)od * (size_t)id) return;
  if (b && (b->dtype != DT_INT32 || !b->data || b->data_bytes < 4 * (size_t)od)) return;
  int32_t *k = xmalloc((size_t)od * sizeof *k);
  for (int32_t r = 0; r < od; r++) {
    const int8_t *row = (const int8_t *)w->data + (size_t)r * (size_t)id;
    uint32_t s = 0, br = 0;
    for (int32_t i = 0; i < id; i++) s += (uint32_t)(int32_t)row[i];
    if (b) memcpy(&br, b->data + 4 * (size_t)r, sizeof br);
    k[r] = (int32_t)(br + s * (uint32_t)p->input_offset);
  }
  lower_conv_array(c, LOWER_CA_KBIAS, 'w', "kbias", k, (size_t)od);
}

static int fc_lower(const ir_graph *g, const ir_op *op, lower_list *L, char *why, size_t n) {
  const ir_tensor *in = cf_in(g, op, 0), *w = cf_in(g, op, 1), *b = cf_in(g, op, 2);
  const ir_tensor *out = cf_out(g, op, 0);
  if (!in || !w || !out) return ops_fail(why, n, "missing input, weights or output");
  lower_call *c = &L->call[0];
  L->n = 1;
  lower_call_init(c, LK(none), op->in[0], op->in[1], b ? op->in[2] : -1, op->out[0]);
  if (op->opts.weights_format != 0) return ops_fail(why, n, "shuffled weights format not supported");
  if (w->rank != 2) return ops_fail(why, n, "weights must have rank 2");
  int32_t odepth = w->shape[0], idepth = w->shape[1];
  if (odepth <= 0 || idepth <= 0) return ops_fail(why, n, "dynamic or empty weights shape");
  size_t nin, nout;
  if (cf_numel(in, &nin) || cf_numel(out, &nout) || out->rank < 1)
    return ops_fail(why, n, "dynamic shapes not supported");
  if (out->shape[out->rank - 1] != odepth)
    return ops_fail(why, n, "output last dim differs from weights dim 0");
  if (nin % (size_t)idepth != 0) return ops_fail(why, n, "input size not a multiple of weights dim 1");
  size_t batches = nin / (size_t)idepth;
  if (batches * (size_t)odepth != nout)
    return ops_fail(why, n, "output size differs from batches x output depth");
  if (batches > INT32_MAX) return ops_fail(why, n, "too many rows");
  if (b) {
    size_t nb;
    if (cf_numel(b, &nb) || nb != (size_t)odepth)
      return ops_fail(why, n, "bias size differs from output depth");
  }
  if (check_fused_act_supported(op->opts.fused_act, why, n)) return -1;

  aot_fc_params *p = &c->u.fc.p;
  p->batches = (int32_t)batches;
  p->in_depth = idepth;
  p->out_depth = odepth;

  const int kind = cf_kind(in, w, b, out, odepth, 0, 1, 0, "FC", "weights", why, n);
  if (kind < 0) return -1;
  if (kind == CF_HYB) {
    /* As the LiteRT runtime runs it (XNNPACK delegate, qd8 dynamically
     * quantized fully connected: each input row quantized asymmetrically,
     * whatever asymmetric_quantize_inputs says); weight zero points 0,
     * per-tensor or per-channel scales. Refused forms are dequantized at
     * compile time instead (transform dequantize_hybrid_weights). */
    if (cf_check_filter_quant(w, odepth, 0, why, n)) return -1;
    /* |w * (q - zp)| <= 128 * 255: the int32 sum cannot overflow */
    if (idepth > 65536) return ops_fail(why, n, "hybrid FC accumulation depth over 65536");
    c->k = lower_kernel_get(LK(aot_fc_hybrid));
    c->u.fc.h.per_channel = w->nq > 1;
    cf_lower_scales(c, w, "wscale");
  }
  if (kind == CF_HYB || kind == CF_F32) {
    if (kind == CF_F32) c->k = lower_kernel_get(LK(aot_fc_f32));
    act_range_float(op->opts.fused_act, &p->act_min_f, &p->act_max_f);
    return 0;
  }
  const int s8 = kind == CF_S8;
  c->k = lower_kernel_get(s8 ? LK(aot_fc_s8) : LK(aot_fc_s16));
  act_range_quant(out, op->opts.fused_act, &p->act_min, &p->act_max);
  if (p->act_min > p->act_max) return ops_fail(why, n, "empty activation range");
  p->input_offset = s8 ? -in->zero_point[0] : 0;
  p->output_offset = s8 ? out->zero_point[0] : 0;
  if (w->nq > 1) {
    /* FullyConnectedPerChannel: multipliers as for convolutions */
    p->per_channel = 1;
    if (cf_check_multipliers(in, w, out, odepth, s8 ? 31 : 14, why, n)) return -1;
    cf_lower_multipliers(c, in, w, out, odepth);
  } else {
    /* TFLite GetQuantizedConvolutionMultipler: the scale product is rounded
     * to float before the division in double. */
    float prod = (float)(in->scale[0] * w->scale[0]);
    double real = (double)prod / (double)out->scale[0];
    int s;
    if (quant_check_multiplier(real, s8 ? 31 : 14, "input x weights / output scale", why, n))
      return -1;
    int32_t *mult = xcalloc(1, sizeof *mult), *shift = xcalloc(1, sizeof *shift);
    quantize_multiplier(real, &mult[0], &s);
    shift[0] = s;
    lower_conv_array(c, LOWER_CA_MULT, 'w', "mult", mult, 1);
    lower_conv_array(c, LOWER_CA_SHIFT, 'w', "shift", shift, 1);
  }
  if (s8) {
    fc_kbias(c, &g->t[ir_root(g, op->in[1])], b ? &g->t[ir_root(g, op->in[2])] : NULL);
    /* rows longer than the DSP build's widened chunk (AOT_FC_S8_XW) */
    if (p->in_depth > 1024) c->features |= LF(FC_S8_LONG);
    /* the DSP three-row loop (aot_fc_dsp.h), where its code pays off */
    if (idepth % 4 == 0 && idepth >= 8 && idepth <= 1024 && odepth >= 4 && odepth * idepth >= 4096)
      c->features |= LF(FC_S8_ROWS3);
    /* the four-row loop: layers of at least 1024 weights the three-row loop
     * does not take (a smaller layer's one-row loop costs fewer bytes than
     * the four-row loop saves instructions) */
    else if (odepth >= 4 && odepth * idepth >= 1024)
      c->features |= LF(FC_S8_ROWS4);
  }
  return 0;
}

CONV_OPDEF(fully_connected, OP_FULLY_CONNECTED, "FULLY_CONNECTED", fc_lower,
           "int8 (per-tensor or per-channel int8 weights, int32 bias), int16x8 (int64 "
           "bias), float32, hybrid (float32 activations, int8 weights)",
           "weights [O,I] (default format); input flattened to [-1,I]; keep_num_dims; "
           "optional bias; fused RELU/RELU6/RELU_N1_TO_1; weight zero point 0")

/* ======================= BATCH_MATMUL ======================= */

static int bmm_lower(const ir_graph *g, const ir_op *op, lower_list *L, char *why, size_t n) {
  const ir_tensor *l = cf_in(g, op, 0), *r = cf_in(g, op, 1), *out = cf_out(g, op, 0);
  if (!l || !r || !out) return ops_fail(why, n, "missing input or output");
  lower_call *c = &L->call[0];
  L->n = 1;
  lower_call_init(c, LK(none), op->in[0], op->in[1], -1, op->out[0]);
  if (l->rank < 2 || l->rank > 5 || r->rank < 2 || r->rank > 5)
    return ops_fail(why, n, "operand ranks must be 2..5");
  int orank = l->rank > r->rank ? l->rank : r->rank;
  if (out->rank != orank) return ops_fail(why, n, "output rank differs from the operands'");
  for (int i = 0; i < l->rank; i++)
    if (l->shape[i] <= 0) return ops_fail(why, n, "dynamic or empty shapes not supported");
  for (int i = 0; i < r->rank; i++)
    if (r->shape[i] <= 0) return ops_fail(why, n, "dynamic or empty shapes not supported");
  aot_bmm_params *p = &c->u.bmm;
  p->adj_x = op->opts.adj_x ? 1 : 0;
  p->adj_y = op->opts.adj_y ? 1 : 0;
  int32_t lr = l->shape[l->rank - 2], lc = l->shape[l->rank - 1];
  int32_t rr = r->shape[r->rank - 2], rc = r->shape[r->rank - 1];
  p->m = p->adj_x ? lc : lr;
  p->k = p->adj_x ? lr : lc;
  int32_t rk = p->adj_y ? rc : rr;
  p->n = p->adj_y ? rr : rc;
  if (rk != p->k) return ops_fail(why, n, "inner dimensions differ");
  if (out->shape[orank - 2] != p->m || out->shape[orank - 1] != p->n)
    return ops_fail(why, n, "output matrix shape differs from the computed one");
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
    if (ld != rd && ld != 1 && rd != 1) return ops_fail(why, n, "batch dimensions do not broadcast");
    if (out->shape[orank - 3 - k] != od) return ops_fail(why, n, "output batch shape differs");
    p->batch_dims[d] = od;
    if (lstride > INT32_MAX || rstride > INT32_MAX) return ops_fail(why, n, "operands too large");
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
  const int s8 = l->dtype == DT_INT8;
  switch (l->dtype) {
    case DT_FLOAT32: c->k = lower_kernel_get(LK(aot_batch_matmul_f32)); return 0;
    case DT_INT8: c->k = lower_kernel_get(LK(aot_batch_matmul_s8)); break;
    case DT_INT16: c->k = lower_kernel_get(LK(aot_batch_matmul_s16)); break;
    default:
      snprintf(why, n, "%s operands not supported", dtype_name(l->dtype));
      return -1;
  }
  if (cf_check_per_tensor(l, "lhs", why, n) || cf_check_per_tensor(r, "rhs", why, n) ||
      cf_check_per_tensor(out, "output", why, n))
    return -1;
  if (!s8 && (cf_check_zero_zp(l, "lhs", why, n) ||
                            cf_check_zero_zp(r, "rhs", why, n) ||
                            cf_check_zero_zp(out, "output", why, n)))
    return -1;
  /* TFLite GetQuantizedConvolutionMultipler (float product, double division) */
  float prod = (float)(l->scale[0] * r->scale[0]);
  int s;
  if (quant_check_multiplier((double)prod / (double)out->scale[0], s8 ? 31 : 14,
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

LOWER_OPDEF(batch_matmul, OP_BATCH_MATMUL, "BATCH_MATMUL", bmm_lower, 0,
            "int8, int16 (zero points 0), float32",
            "ranks 2..5 with broadcast batch dims; adj_x / adj_y; per-tensor "
            "quantization; both operands may be activations")
