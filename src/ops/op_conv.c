/* op_conv.c - CONV_2D, DEPTHWISE_CONV_2D and TRANSPOSE_CONV.
 *
 * conv_lower() validates an op and lowers it to one kernel call (lower.h):
 * the kernel of its dtypes, every parameter, the constant arrays the params
 * point to (multipliers, shifts, an int64 bias, hybrid filter scales, the
 * folded int8 bias) and
 * the kernel variant paths the layer reaches (conv_features); check, emit,
 * eval and the scratch size all go through it, so what is emitted is
 * exactly what the reference interpreter runs. */
#include "quant_conv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_conv.h"
#include "aot_conv_first_pack.h"
#include "lower.h"

enum { CK_CONV, CK_DW, CK_TCONV };

/* [CK_*][CF_* (quant_conv.h)]: the kernel (no hybrid TRANSPOSE_CONV). CF_HYB:
 * float32 activations with an int8 filter ("hybrid" / dynamic-range), the
 * input quantized at run time as the LiteRT runtime does (hybrid_prepare). */
static const int conv_kernels[3][4] = {
    {LK(aot_conv2d_f32), LK(aot_conv2d_s8), LK(aot_conv2d_s16), LK(aot_conv2d_hybrid)},
    {LK(aot_dwconv2d_f32), LK(aot_dwconv2d_s8), LK(aot_dwconv2d_s16), LK(aot_dwconv2d_hybrid)},
    {LK(aot_tconv2d_f32), LK(aot_tconv2d_s8), LK(aot_tconv2d_s16), LK(none)}};

/* Hybrid (float32 activations, int8 filter) as the LiteRT runtime runs it:
 * CONV_2D in its XNNPACK delegate (qd8 dynamic quantization: per-tensor or
 * per-channel filter scales, dilation), DEPTHWISE_CONV_2D in LiteRT's own
 * hybrid kernel (one filter scale per output channel). Filter zero points
 * must be 0. Whatever is refused here is dequantized at compile time instead
 * (transform dequantize_hybrid_weights) and runs in float. */
static int hybrid_prepare(lower_call *c, int ck, const ir_tensor *f, int qdim, char *why,
                          size_t n) {
  const aot_conv_params *p = &c->u.conv.p;
  if (cf_check_filter_quant(f, p->out_c, qdim, why, n)) return -1;
  int64_t depth = (int64_t)p->filter_h * p->filter_w * (ck == CK_CONV ? p->filter_in_c : 1);
  /* |w * (q - zp)| <= 128 * 255: the int32 sum cannot overflow */
  if (depth > 65536) return ops_fail(why, n, "hybrid conv accumulation depth over 65536");
  if (ck == CK_CONV) {
    if (p->filter_in_c != p->in_c) return ops_fail(why, n, "hybrid grouped conv not supported");
  } else if (f->nq != p->out_c) {
    return ops_fail(why, n, "hybrid depthwise conv needs one filter scale per output channel");
  }
  c->u.conv.h.per_channel = f->nq > 1;
  cf_lower_scales(c, f, "fscale");
  return 0;
}

/* The kernel variant paths (runtime/aot_features.h) an int8 convolution
 * with parameters p reaches: the one place that decides them. */
static uint32_t conv_features(int ck, const aot_conv_params *p) {
  uint32_t f = 0;
  if (ck == CK_CONV) {
    if ((int64_t)p->filter_h * p->filter_w * p->filter_in_c > 1024) f |= LF(CONV_S8_BIG);
    /* grouped or dilated: the DSP build's four-position path, its padded
     last filter when the taps are not a multiple of four; every other layer
     of up to 1024 taps runs on the pointwise kernel (aot_conv2d_s8_dsp_gw) */
    if ((int64_t)p->filter_h * p->filter_w * p->filter_in_c <= 1024 &&
        !aot_conv2d_s8_is_pw(p) && !aot_conv2d_s8_dsp_gw(p)) {
      f |= LF(CONV_S8_G4);
      if (((int64_t)p->filter_h * p->filter_w * p->filter_in_c) % 4 != 0) f |= LF(CONV_S8_FPAD);
    }
    if (aot_conv_clips(p) || p->dilation_w != 1 || p->filter_in_c != p->in_c)
      f |= LF(CONV_S8_CLIP);
    /* the Helium build's few-channel path (aot_conv_first_mve.h; decided
       before the filter is packed, so a superset of the layers it takes) */
    if (aot_conv2d_s8_fmve_fits(p)) f |= LF(CONV_S8_FMVE);
    /* the DSP build's few-channel path (aot_conv_first.h), its column
       filling (FSLOW: conv_first_consts) */
    if (aot_conv2d_s8_dsp_first(p)) {
      aot_conv2d_s8_first_lay L;
      aot_conv2d_s8_first_layout(p, &L);
      f |= LF(CONV_S8_FIRST) | (L.spread ? LF(CONV_S8_FSPREAD) : LF(CONV_S8_FEVEN));
    } else if (aot_conv2d_s8_dsp_gw(p)) {
      /* the DSP pointwise kernel's gathered windows, for the layers it
         takes that are not pointwise and not on the few-channel path */
      f |= LF(CONV_S8_GW);
    }
  } else if (ck == CK_DW) {
    if (aot_conv_clips(p)) f |= LF(DW_S8_CLIP);
    if (p->depth_multiplier == 1) {
      f |= LF(DW_S8_DM1);
      if (p->in_c % 4 != 0) f |= LF(DW_S8_TAIL);
      if (p->in_c < 8) f |= LF(DW_S8_FEW);
      /* the DSP build's 3x3 path takes the layer where it counts fewer
       * instructions (aot_dwconv2d_s8_dsp_is3), its tap-pair loop the rest */
      if (!aot_dwconv2d_s8_dsp_is3(p))
        f |= LF(DW_S8_GEN);
      else /* the stride of the rows it runs (aot_dw3_row) */
        f |= (aot_dwconv2d_s8_dsp_tr(p) ? p->stride_h : p->stride_w) == 1 ? LF(DW_S8_3S1)
                                                                            : LF(DW_S8_3S2);
    } else {
      f |= LF(DW_S8_DM);
    }
    if ((int64_t)p->filter_h * p->filter_w > 49) f |= LF(DW_S8_BIG);
  }
  return f;
}

/* The DSP path variant v (op->kernel_variant, chosen by counted cost in
 * passes/kernel_choice.c) if layer p can take it, else 0 (the kernel's
 * rule): the four-position path for a CONV_2D the rule gathers, the
 * tap-pair loop for a depthwise layer the 3x3 path takes. */
/* Cortex-M4 code of the few-channel path (aot_conv_first.h and its call in
 * aot_conv2d_s8.c, arm-none-eabi-gcc -O2): VWW's module 11,440 -> 12,344
 * bytes (four-value columns), ResNet-8's 8,240 -> 9,208 (spread columns);
 * the per-position requantization (AOT_F_CONV_S8_FSLOW) about 250 more */
#define CONV_FIRST_CODE_BYTES 970
#define CONV_FIRST_SLOW_BYTES 250

/* 1 when the DSP build's few-channel path (aot_conv_first.h) takes CONV_2D
 * p: it fits, the cost model counts at least 3% fewer instructions on it
 * than on the gathered windows (the rule's path; kernel_choice's margin),
 * and the instructions it saves pay for its code (and extra bytes more) at
 * OPS_INSNS_PER_BYTE (charged to each such layer: a model has one first
 * layer, as a rule) */
static int conv_first_pays(int ck, const aot_conv_params *p, int64_t extra) {
  aot_conv_params r = *p;
  r.dsp_variant = 0;
  if (ck != CK_CONV || !aot_conv2d_s8_first_fits(&r) || !aot_conv2d_s8_dsp_gw(&r)) return 0;
  const int64_t first = cost_dsp_first_s8(&r), rule = cost_dsp_conv_s8(0, &r);
  return first * 100 <= rule * 97 &&
         rule - first >= (int64_t)OPS_INSNS_PER_BYTE * (CONV_FIRST_CODE_BYTES + extra);
}

/* The few-channel path's constants of call c (aot_conv2d_s8_first_pack:
 * channel constants, widened filter copies) from its constant filter f,
 * folded bias and multipliers (one for all channels or one each), as the
 * array p->first; -1 when the call has no folded bias or filter data. */
static int conv_first_consts(lower_call *c, const ir_tensor *f) {
  const aot_conv_params *p = &c->u.conv.p;
  const lower_arg *kb = &c->arg[LOWER_CA_KBIAS], *m = &c->arg[LOWER_CA_MULT];
  const lower_arg *s = &c->arg[LOWER_CA_SHIFT];
  const size_t oc = (size_t)p->out_c;
  if (!kb->adt || !m->adt || !s->adt || m->n == 0 || s->n == 0 || f->dtype != DT_INT8 ||
      !f->data || f->data_bytes < oc * (size_t)(p->filter_h * p->filter_w * p->in_c))
    return -1;
  aot_conv2d_s8_first_lay L;
  aot_conv2d_s8_first_layout(p, &L);
  int32_t *mult = xmalloc(oc * sizeof *mult), *shift = xmalloc(oc * sizeof *shift);
  for (size_t i = 0; i < oc; i++) {
    mult[i] = ((const int32_t *)m->data)[m->n == 1 ? 0 : i];
    shift[i] = ((const int32_t *)s->data)[s->n == 1 ? 0 : i];
  }
  aot_conv_params q = *p;
  q.out_mult = mult;
  q.out_shift = shift;
  q.kbias = kb->data;
  int32_t *d = xcalloc(L.cwords, sizeof *d);
  aot_conv2d_s8_first_pack(&q, (const int8_t *)f->data, d);
  free(mult);
  free(shift);
  lower_conv_array(c, LOWER_CA_FIRST, 'w', "first", d, L.cwords);
  return 0;
}

static int32_t conv_variant(int ck, const aot_conv_params *p, int v) {
  aot_conv_params r = *p;
  r.dsp_variant = 0;
  if (conv_first_pays(ck, &r, 0)) return AOT_DSP_VAR_FIRST;   /* no other choice for it */
  if (ck == CK_CONV && v == AOT_DSP_VAR_G4 && aot_conv2d_s8_dsp_gw(&r)) return v;
  if (ck == CK_DW && v == AOT_DSP_VAR_GEN && aot_dwconv2d_s8_dsp_is3(&r)) return v;
  return 0;
}

/* int8 CONV_2D / DEPTHWISE_CONV_2D with a constant filter (and bias): the
 * folded bias kbias[c] = bias[c] + input_offset * (sum of output channel c's
 * filter taps), int32 wrap-around as in the kernels, an array of the call
 * (the SIMD kernels start their sums from it; see aot_conv_params); none
 * for a filter computed at run time. */
static void conv_kbias(lower_call *c, int ck, const ir_tensor *f, const ir_tensor *b) {
  const aot_conv_params *p = &c->u.conv.p;
  const size_t oc = (size_t)p->out_c;
  const size_t taps = (size_t)p->filter_h * (size_t)p->filter_w;
  const size_t per = ck == CK_CONV ? taps * (size_t)p->filter_in_c : taps;
  if (f->dtype != DT_INT8 || !f->data || f->data_bytes < oc * per) return;
  if (b && (b->dtype != DT_INT32 || !b->data || b->data_bytes < 4 * oc)) return;
  int32_t *k = xmalloc(oc * sizeof *k);
  const int8_t *w = (const int8_t *)f->data;
  for (size_t o = 0; o < oc; o++) {
    uint32_t s = 0, br = 0;
    for (size_t i = 0; i < per; i++)   /* CONV_2D [O,H,W,I]; depthwise [1,H,W,O] */
      s += (uint32_t)(int32_t)(ck == CK_CONV ? w[o * per + i] : w[i * oc + o]);
    if (b) memcpy(&br, b->data + 4 * o, sizeof br);
    k[o] = (int32_t)(br + s * (uint32_t)p->input_offset);
  }
  lower_conv_array(c, LOWER_CA_KBIAS, 'w', "kbias", k, oc);
}

/* A layer whose windows run down one column (input, output and filter one
 * wide: the temporal convolutions of streaming audio models, [1, T, 1, C])
 * is the same layer seen as one row: NHWC stores [h, 1, c] as [1, h, c] and
 * a filter [., kh, 1, .] as [., 1, kh, .], so height and width swap in the
 * params (strides, dilations and padding with them) and the kernels' row
 * loops, which block positions along a row, take the whole column. The
 * outputs are the same sums in the same order. */
static void conv_column_as_row(aot_conv_params *p, int dw) {
  if (p->in_w != 1 || p->out_w != 1 || p->filter_w != 1 || p->pad_w != 0 || p->in_h < 2) return;
  /* a CONV_2D of one output position is a matrix product either way (its
     gathered window is longer as a row: counted slower on Cortex-M55); a
     depthwise one still walks one row instead of in_h */
  if (!dw && p->out_h < 2) return;
#define CONV_SWAP(a, b) do { const int32_t t_ = p->a; p->a = p->b; p->b = t_; } while (0)
  CONV_SWAP(in_h, in_w);
  CONV_SWAP(out_h, out_w);
  CONV_SWAP(filter_h, filter_w);
  CONV_SWAP(stride_h, stride_w);
  CONV_SWAP(dilation_h, dilation_w);
  CONV_SWAP(pad_h, pad_w);
#undef CONV_SWAP
}

static int conv_lower(const ir_graph *g, const ir_op *op, lower_list *L, char *why, size_t n);

/* 1 when the Helium build reads the filter of int8 CONV_2D op (params p,
 * folded bias present) packed at compile time (aot_conv_params.filter_packed):
 * one group, out_c a multiple of 4, taps a multiple of 16 and at most
 * 1024 (the packed path; the packed bytes are then as many as the filter's),
 * and a constant filter that no other op reads. */
static int conv_mve_packs(const ir_graph *g, const ir_op *op, const aot_conv_params *p) {
  const int32_t fsize = p->filter_h * p->filter_w * p->filter_in_c;
  const int rt = ir_root(g, op->in[1]);
  const ir_tensor *f = &g->t[rt];
  if (p->filter_in_c != p->in_c || p->out_c % 4 != 0 || fsize % 16 != 0 || fsize > 1024 ||
      f->dtype != DT_INT8 || !f->data || f->data_bytes != (size_t)p->out_c * (size_t)fsize)
    return 0;
  for (int i = 0; i < g->nops; i++)
    for (int k = 0; k < g->ops[i].nin; k++)
      if (g->ops[i].in[k] >= 0 && ir_root(g, g->ops[i].in[k]) == rt && &g->ops[i] != op) return 0;
  return 1;
}

int ops_conv_dsp_choice(const ir_graph *g, const ir_op *op, ops_dsp_choice *out) {
  memset(out, 0, sizeof *out);
  if ((op->builtin != OP_CONV_2D && op->builtin != OP_DEPTHWISE_CONV_2D) || op->dead) return 0;
  const int ck = op->builtin == OP_CONV_2D ? CK_CONV : CK_DW;
  ir_op base = *op;
  base.kernel_variant = 0;
  lower_list *L = xcalloc(1, sizeof *L);
  char why[256];
  int r = 0;
  if (conv_lower(g, &base, L, why, sizeof why) == 0 && L->n == 1 &&
      L->call[0].k == lower_kernel_get(conv_kernels[ck][CF_S8])) {
    aot_conv_params p = L->call[0].u.conv.p;
    out->features = L->call[0].features;
    out->cost_rule = cost_dsp_conv_s8(ck == CK_DW, &p);
    p.dsp_variant = ck == CK_CONV ? AOT_DSP_VAR_G4 : AOT_DSP_VAR_GEN;
    if (conv_variant(ck, &p, p.dsp_variant) == p.dsp_variant) {
      out->variant = p.dsp_variant;
      out->cost_alt = cost_dsp_conv_s8(ck == CK_DW, &p);
      out->alt_features = conv_features(ck, &p);
      r = 1;
    }
  }
  lower_release(L);
  free(L);
  return r;
}

uint8_t *ops_conv_mve_filter(const ir_graph *g, int t) {
  const int rt = ir_root(g, t);
  for (int i = 0; i < g->nops; i++) {
    const ir_op *op = &g->ops[i];
    if (op->builtin != OP_CONV_2D || op->nin < 2 || op->in[1] < 0 || ir_root(g, op->in[1]) != rt)
      continue;
    lower_list *L = xcalloc(1, sizeof *L);
    char why[256];
    uint8_t *r = NULL;
    if (conv_lower(g, op, L, why, sizeof why) == 0 && L->n == 1 && L->call[0].mve_pack) {
      const aot_conv_params *p = &L->call[0].u.conv.p;
      const size_t fsize = (size_t)p->filter_h * p->filter_w * p->filter_in_c;
      const uint8_t *w = g->t[rt].data;
      r = xmalloc((size_t)p->out_c * fsize);
      /* per four channels, per 16 taps: the four filters' 16 bytes in turn
         (aot_mve_pack4_s8) */
      for (size_t c = 0; c < (size_t)p->out_c; c += 4)
        for (size_t q = 0; q < fsize; q += 16)
          for (size_t i4 = 0; i4 < 4; i4++)
            memcpy(r + c * fsize + q * 4 + i4 * 16, w + (c + i4) * fsize + q, 16);
    }
    lower_release(L);
    free(L);
    return r;
  }
  return NULL;
}

static int conv_lower(const ir_graph *g, const ir_op *op, lower_list *L, char *why, size_t n) {
  const int ck = op->builtin == OP_CONV_2D             ? CK_CONV
                 : op->builtin == OP_DEPTHWISE_CONV_2D ? CK_DW
                                                       : CK_TCONV;
  int iin = ck == CK_TCONV ? 2 : 0, ifl = 1, ib = ck == CK_TCONV ? 3 : 2;
  const ir_tensor *in = cf_in(g, op, iin), *f = cf_in(g, op, ifl), *b = cf_in(g, op, ib);
  const ir_tensor *out = cf_out(g, op, 0);
  if (!in || !f || !out) return ops_fail(why, n, "missing input, filter or output");
  lower_call *c = &L->call[0];
  L->n = 1;
  lower_call_init(c, LK(none), op->in[iin], op->in[ifl], b ? op->in[ib] : -1, op->out[0]);
  if (in->rank != 4 || f->rank != 4 || out->rank != 4)
    return ops_fail(why, n, "input, filter and output must have rank 4");
  for (int i = 0; i < 4; i++)
    if (in->shape[i] <= 0 || f->shape[i] <= 0 || out->shape[i] <= 0)
      return ops_fail(why, n, "dynamic or empty shapes not supported");

  aot_conv_params *p = &c->u.conv.p;
  *p = (aot_conv_params){.batches = in->shape[0],
                         .in_h = in->shape[1],
                         .in_w = in->shape[2],
                         .in_c = in->shape[3],
                         .out_h = out->shape[1],
                         .out_w = out->shape[2],
                         .out_c = out->shape[3],
                         .filter_h = f->shape[1],
                         .filter_w = f->shape[2],
                         .stride_h = op->opts.stride_h,
                         .stride_w = op->opts.stride_w,
                         .dilation_h = ck == CK_TCONV ? 1 : op->opts.dilation_h,
                         .dilation_w = ck == CK_TCONV ? 1 : op->opts.dilation_w};
  if (out->shape[0] != p->batches) return ops_fail(why, n, "batch mismatch between input and output");
  if (p->stride_h <= 0 || p->stride_w <= 0) return ops_fail(why, n, "stride must be positive");
  if (p->dilation_h <= 0 || p->dilation_w <= 0) return ops_fail(why, n, "dilation must be positive");

  int qdim;
  if (ck == CK_CONV) {
    p->filter_in_c = f->shape[3];
    if (f->shape[0] != p->out_c) return ops_fail(why, n, "filter dim 0 differs from output channels");
    if (p->in_c % p->filter_in_c != 0)
      return ops_fail(why, n, "input channels not a multiple of filter channels");
    int groups = p->in_c / p->filter_in_c;
    if (p->out_c % groups != 0) return ops_fail(why, n, "output channels not a multiple of groups");
    qdim = 0;
  } else if (ck == CK_DW) {
    if (f->shape[0] != 1) return ops_fail(why, n, "depthwise filter dim 0 must be 1");
    if (f->shape[3] != p->out_c) return ops_fail(why, n, "filter dim 3 differs from output channels");
    if (p->out_c % p->in_c != 0)
      return ops_fail(why, n, "output channels not a multiple of input channels");
    p->depth_multiplier = p->out_c / p->in_c;
    p->filter_in_c = 1;
    qdim = 3;
  } else {
    p->filter_in_c = f->shape[3];
    if (f->shape[0] != p->out_c) return ops_fail(why, n, "filter dim 0 differs from output channels");
    if (f->shape[3] != p->in_c) return ops_fail(why, n, "filter dim 3 differs from input channels");
    qdim = 0;
  }
  if (ck == CK_TCONV) {
    const ir_tensor *os = cf_in(g, op, 0);
    if (os && os->data) {
      size_t no;
      if (os->dtype != DT_INT32 || cf_numel(os, &no) || no != 4 ||
          os->data_bytes < 4 * sizeof(int32_t))
        return ops_fail(why, n, "output_shape must be 4 int32 values");
      for (int i = 0; i < 4; i++) {
        int32_t v;
        memcpy(&v, os->data + 4 * i, sizeof v);
        if (v != out->shape[i]) return ops_fail(why, n, "output_shape differs from the output tensor");
      }
    }
  }
  if (b) {
    size_t nb;
    if (cf_numel(b, &nb) || nb != (size_t)p->out_c)
      return ops_fail(why, n, "bias size differs from output channels");
  }
  const int kind = cf_kind(in, f, b, out, p->out_c, qdim, ck != CK_TCONV, ck == CK_TCONV, "conv",
                           "filter", why, n);
  if (kind < 0) return -1;
  c->k = lower_kernel_get(conv_kernels[ck][kind]);
  if (!c->k) return ops_fail(why, n, "no kernel for this convolution");
  if (kind == CF_HYB && hybrid_prepare(c, ck, f, qdim, why, n)) return -1;
  if (ck == CK_TCONV && kind != CF_F32 && op->opts.fused_act != ACT_NONE)
    return ops_fail(why, n, "fused activation on a quantized TRANSPOSE_CONV not supported "
                        "(TFLM ignores it)");
  if (check_fused_act_supported(op->opts.fused_act, why, n)) return -1;

  /* padding and output size, as TFLM computes them */
  int oh, ow;
  if (ck == CK_TCONV) {
    int ih, iw;   /* TFLM: padding from the output size seen as an input */
    if (conv_out_and_pad(op->opts.padding, p->stride_h, 1, p->out_h, p->filter_h, &ih, &p->pad_h) ||
        conv_out_and_pad(op->opts.padding, p->stride_w, 1, p->out_w, p->filter_w, &iw, &p->pad_w))
      return ops_fail(why, n, "unsupported padding");
    if (cf_check_window("height", p->in_h, p->out_h, p->filter_h, p->stride_h, 1, p->pad_h, why,
                        n) ||
        cf_check_window("width", p->in_w, p->out_w, p->filter_w, p->stride_w, 1, p->pad_w, why, n))
      return -1;
  } else {
    if (conv_out_and_pad(op->opts.padding, p->stride_h, p->dilation_h, p->in_h, p->filter_h, &oh,
                         &p->pad_h) ||
        conv_out_and_pad(op->opts.padding, p->stride_w, p->dilation_w, p->in_w, p->filter_w, &ow,
                         &p->pad_w))
      return ops_fail(why, n, "unsupported padding");
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

  if (ck != CK_TCONV) conv_column_as_row(p, ck == CK_DW);
  if (kind == CF_F32 || kind == CF_HYB) {
    act_range_float(op->opts.fused_act, &p->act_min_f, &p->act_max_f);
    return 0;
  }
  act_range_quant(out, op->opts.fused_act, &p->act_min, &p->act_max);
  if (p->act_min > p->act_max) return ops_fail(why, n, "empty activation range");
  if (cf_check_multipliers(in, f, out, p->out_c, kind == CF_S8 ? 31 : 14, why, n)) return -1;
  p->input_offset = kind == CF_S8 ? -in->zero_point[0] : 0;
  p->output_offset = kind == CF_S8 ? out->zero_point[0] : 0;
  cf_lower_multipliers(c, in, f, out, p->out_c);
  if (b && b->dtype == DT_INT16) {
    int64_t *b64 = xcalloc((size_t)p->out_c, sizeof(int64_t));
    for (int i = 0; i < p->out_c; i++) {
      int16_t v;
      memcpy(&v, b->data + 2 * (size_t)i, sizeof v);
      b64[i] = v;
    }
    lower_conv_array(c, LOWER_CA_BIAS64, 'l', "bias64", b64, (size_t)p->out_c);
  }
  if (kind == CF_S8 && ck != CK_TCONV)
    conv_kbias(c, ck, &g->t[ir_root(g, op->in[ifl])],
               b ? &g->t[ir_root(g, op->in[ib])] : NULL);
  if (kind == CF_S8 && ck != CK_TCONV) p->dsp_variant = conv_variant(ck, p, op->kernel_variant);
  if (p->dsp_variant == AOT_DSP_VAR_FIRST &&
      conv_first_consts(c, &g->t[ir_root(g, op->in[ifl])]))
    p->dsp_variant = 0;   /* no constants (a filter computed at run time) */
  /* a layer without the fast requantization: its per-position loop's code */
  if (c->arg[LOWER_CA_FIRST].adt && !((const int32_t *)c->arg[LOWER_CA_FIRST].data)[AOT_CF_FAST] &&
      !conv_first_pays(ck, p, CONV_FIRST_SLOW_BYTES)) {
    free(c->arg[LOWER_CA_FIRST].data);
    c->arg[LOWER_CA_FIRST] = (lower_arg){.t = -1};
    p->dsp_variant = 0;
  }
  if (kind == CF_S8) c->features = conv_features(ck, p);
  if (c->arg[LOWER_CA_FIRST].adt && !((const int32_t *)c->arg[LOWER_CA_FIRST].data)[AOT_CF_FAST])
    c->features |= LF(CONV_S8_FSLOW);
  if (kind == CF_S8 && ck == CK_CONV && c->arg[LOWER_CA_KBIAS].adt)
    c->mve_pack = conv_mve_packs(g, op, p);
  /* no folded bias (a filter computed at run time): the kernels' own sums */
  if (kind == CF_S8 && ck != CK_TCONV && !c->arg[LOWER_CA_KBIAS].adt)
    c->features |= LF(CONV_S8_NOKB);
  /* the DSP pointwise kernel's constant channels (aot_conv2d_s8_pw_const;
     its windows of K taps: pointwise, or gathered) */
  if (kind == CF_S8 && ck == CK_CONV && aot_conv2d_s8_dsp_pwt(p)) {
    const lower_arg *kb = &c->arg[LOWER_CA_KBIAS], *m = &c->arg[LOWER_CA_MULT];
    const lower_arg *s = &c->arg[LOWER_CA_SHIFT];
    int any = !kb->adt || !m->adt || !s->adt || m->n == 0 || s->n == 0;
    for (int32_t i = 0; !any && i < p->out_c; i++) {
      const size_t im = m->n == 1 ? 0 : (size_t)i, is = s->n == 1 ? 0 : (size_t)i;
      int32_t v;
      any = aot_conv2d_s8_pw_const(((const int32_t *)kb->data)[i], ((const int32_t *)m->data)[im],
                                   ((const int32_t *)s->data)[is], aot_conv2d_s8_dsp_pwk(p),
                                   p->output_offset,
                                   p->act_min, p->act_max, &v);
    }
    if (any) c->features |= LF(CONV_S8_PWK);
  }
  /* an activation range narrower than int8: the DSP kernels' clamps */
  if (kind == CF_S8 && ck != CK_TCONV && (p->act_min != -128 || p->act_max != 127))
    c->features |= LF(CONV_S8_NARROW);
  /* the DSP 3x3 path's exact-sum rows: a channel whose requantization does
   * not fold (from the folded bias; every layer without one) */
  if (kind == CF_S8 && ck == CK_DW && aot_dwconv2d_s8_dsp_is3(p)) {
    const lower_arg *kb = &c->arg[LOWER_CA_KBIAS], *m = &c->arg[LOWER_CA_MULT];
    const lower_arg *s = &c->arg[LOWER_CA_SHIFT];
    int slow = !kb->adt || !m->adt || !s->adt || m->n == 0 || s->n == 0;
    for (int32_t i = 0; !slow && i < p->out_c; i++) {
      const size_t im = m->n == 1 ? 0 : (size_t)i, is = s->n == 1 ? 0 : (size_t)i;
      slow = aot_dwconv2d_s8_dsp_slow(((const int32_t *)kb->data)[i], ((const int32_t *)m->data)[im],
                                      ((const int32_t *)s->data)[is], p->output_offset);
    }
    if (slow) c->features |= LF(DW_S8_3SLOW);
  }
  return 0;
}

CONV_OPDEF(conv_2d, OP_CONV_2D, "CONV_2D", conv_lower,
           "int8 (per-channel or per-tensor int8 filter, int32 bias), int16x8 (int64 bias), "
           "float32, hybrid (float32 activations, int8 weights; XNNPACK dynamic quantization)",
           "rank-4 NHWC; SAME/VALID padding, strides, dilations, groups; fused "
           "RELU/RELU6/RELU_N1_TO_1; filter zero point 0; int16 zero points 0")
CONV_OPDEF(depthwise_conv_2d, OP_DEPTHWISE_CONV_2D, "DEPTHWISE_CONV_2D", conv_lower,
           "int8 (per-channel or per-tensor int8 filter, int32 bias), int16x8 (int64 bias), "
           "float32, hybrid (float32 activations, per-channel int8 weights)",
           "rank-4 NHWC; any depth multiplier; SAME/VALID padding, strides, dilations; "
           "fused RELU/RELU6/RELU_N1_TO_1; filter zero point 0; int16 zero points 0")
CONV_OPDEF(transpose_conv, OP_TRANSPOSE_CONV, "TRANSPOSE_CONV", conv_lower,
           "int8 (per-channel or per-tensor int8 filter, int32 bias), int16x8 (int64 bias), "
           "float32",
           "rank-4 NHWC; static output shape; SAME/VALID padding, strides; optional "
           "bias (int16x8: int64, or constant int16 widened); fused activation on "
           "float32 only; filter zero point 0")
