/* make_quant_model.c - single-operator quantized models for the arithmetic
 * tests (issues 10 and 11), written with aotc's LiteRT writer.
 *
 *   make_quant_model sigmoid OUT.tflite logistic|tanh int8|int16 SCALE ZP
 *     LOGISTIC / TANH with the given input scale and zero point (output
 *     quantization as TFLM requires), input [1, 256] (int8) or [1, 4096].
 *   make_quant_model hostile OUT.tflite INDEX
 *     case INDEX of the hostile-quantization matrix: a valid model of one
 *     quantized op (FC, CONV_2D, DEPTHWISE_CONV_2D, MUL, ADD, DEQUANTIZE,
 *     QUANTIZE, LOGISTIC, TANH int8/int16, AVERAGE_POOL_2D, MEAN, int16x8 FC,
 *     LEAKY_RELU, RELU, SOFTMAX) with ONE quantization parameter replaced by
 *     a hostile value (zero points INT32_MIN / INT32_MAX / 2^40 / just outside
 *     the dtype; scales 0, -1, NaN, inf, denormal, 1e30; scale ratios 2^31 ..
 *     2^60), or a CONV / DEPTHWISE / AVERAGE_POOL with a hostile dilation,
 *     stride or pool size. Prints a one-line description; exit 3 past the end.
 *   make_quant_model choice OUT.tflite dw|conv
 *     two int8 convolutions where aotc's kernel choice by counted cost takes
 *     the other Cortex-M4 DSP path for the second (test_kernel_choice.sh).
 *   make_quant_model dwone OUT.tflite int8|int16|float32 KH KW M STRIDE same|valid
 *     one DEPTHWISE_CONV_2D of one input channel and depth multiplier M
 *     (per-channel filter scales, input [1, 19, 14, 1]) with a fused RELU
 *     (test_dw_as_conv.sh).
 *   make_quant_model column OUT.tflite dw|conv int8|int16|float32 KH C STRIDE DIL same|valid
 *     one layer over a column, input [1, 23, 1, C], filter KH x 1: a
 *     depthwise one (multiplier 1) or a CONV_2D to 2C channels
 *     (test_dw_as_conv.sh: the lowering runs it as a row).
 *   make_quant_model fc16 OUT.tflite B K O per-channel|per-tensor relu|none
 *     one int16x8 FULLY_CONNECTED, input [B, K], O outputs (test_simd_fc16.sh).
 *   make_quant_model dw OUT.tflite int8|int16|float32 IH IW C KH KW M STRIDE DIL same|valid
 *     one DEPTHWISE_CONV_2D, input [1, IH, IW, C], depth multiplier M, fused
 *     RELU (test_simd_fc16.sh).
 *   make_quant_model maxpool OUT H W C K STRIDE same|valid ACT
 *     one int8 MAX_POOL_2D K x K over [1, H, W, C] (ACT 1: fused RELU6)
 *     (test_simd_ew16.sh).
 *   make_quant_model softmax OUT ROWS DEPTH SCALE int8|int16
 *     one int8 SOFTMAX (beta 1) over [ROWS, DEPTH], input scale SCALE and
 *     zero point -3, output int8 (1/256, -128) or int16 (1/65536, -32768)
 *     (test_softmax_table.sh).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litert/litert.h"

static litert_model *M;

static int tensor(const char *name, int dt, int rank, const int32_t *shape, const void *data,
                  size_t bytes, float scale, int64_t zp) {
  int b = data ? litert_add_buffer(M, data, bytes) : 0;
  int t = litert_add_tensor(M, 0, name, dt, rank, shape, b);
  if (scale == scale && scale != -12345.0f) litert_tensor_set_quant(M, 0, t, 1, &scale, &zp, 0);
  return t;
}

static void set_q(int t, float scale, int64_t zp) { litert_tensor_set_quant(M, 0, t, 1, &scale, &zp, 0); }

static int write_out(const char *path) {
  aotc_diag d = {0};
  int rc = litert_write_file(M, path, &d);
  if (rc) fprintf(stderr, "%s\n", d.msg);
  litert_model_free(M);
  return rc ? 1 : 0;
}

static int sigmoid_model(const char *out, const char *opn, const char *dtn, float scale, long zp) {
  const int is_tanh = strcmp(opn, "tanh") == 0;
  const int is16 = strcmp(dtn, "int16") == 0;
  const int dt = is16 ? DT_INT16 : DT_INT8;
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  const int32_t shp[2] = {1, is16 ? 4096 : 256};
  int x = tensor("gate_preact", dt, 2, shp, NULL, 0, scale, zp);
  int y = tensor(is_tanh ? "gate_tanh" : "gate_sigmoid", dt, 2, shp, NULL, 0,
                 is16 ? 1.0f / 32768.0f : (is_tanh ? 1.0f / 128.0f : 1.0f / 256.0f),
                 is16 ? 0 : (is_tanh ? 0 : -128));
  litert_options o;
  litert_options_default(&o);
  o.type = litert_builtin_options_type(is_tanh ? OP_TANH : OP_LOGISTIC);
  litert_add_op(M, 0, is_tanh ? OP_TANH : OP_LOGISTIC, NULL, 1, (int32_t[]){x}, 1, (int32_t[]){y},
                &o);
  litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  return write_out(out);
}

/* ---- hostile matrix ----------------------------------------------------- */

enum { T_FC, T_CONV, T_DW, T_MUL, T_ADD, T_DEQ, T_QUANT, T_LOG8, T_TANH8, T_LOG16, T_TANH16,
       T_AVGPOOL, T_MEAN, T_FC16, T_LEAKY, T_RELU, T_SOFTMAX, T_NTEMPL };
static const char *const templ_name[T_NTEMPL] = {
    "FULLY_CONNECTED", "CONV_2D", "DEPTHWISE_CONV_2D", "MUL", "ADD", "DEQUANTIZE", "QUANTIZE",
    "LOGISTIC int8", "TANH int8", "LOGISTIC int16", "TANH int16", "AVERAGE_POOL_2D", "MEAN",
    "FULLY_CONNECTED int16x8", "LEAKY_RELU", "RELU", "SOFTMAX"};

/* roles: 0 input, 1 second operand / weights, 2 output */
typedef struct { int kind; double v; const char *what; } hval;
enum { H_ZP, H_SCALE, H_RATIO };
static const hval hvals[] = {
    {H_ZP, -2147483648.0, "zero point INT32_MIN"},  {H_ZP, 2147483647.0, "zero point INT32_MAX"},
    {H_ZP, 1099511627776.0, "zero point 2^40"},     {H_ZP, 128.0, "zero point 128 (int8 max + 1)"},
    {H_ZP, -129.0, "zero point -129"},              {H_ZP, 40000.0, "zero point 40000"},
    {H_SCALE, 0.0, "scale 0"},                      {H_SCALE, -1.0, "scale -1"},
    {H_SCALE, NAN, "scale NaN"},                    {H_SCALE, INFINITY, "scale inf"},
    {H_SCALE, 1e-45, "scale 1e-45 (denormal)"},     {H_SCALE, 1e-39, "scale 1e-39 (denormal)"},
    {H_SCALE, 1e30, "scale 1e30"},                  {H_RATIO, 31, "scale ratio 2^31"},
    {H_RATIO, 32, "scale ratio 2^32"},              {H_RATIO, 40, "scale ratio 2^40"},
    {H_RATIO, 60, "scale ratio 2^60"},
};
#define NHV ((int)(sizeof hvals / sizeof hvals[0]))

typedef struct { int field; int64_t v; const char *what; } gval;
static const gval gvals[] = {
    {0, 1 << 30, "dilation_h 2^30"}, {0, 2147483647, "dilation_h INT32_MAX"},
    {1, 1 << 30, "dilation_w 2^30 + SAME"}, {2, 1 << 30, "stride_h 2^30"},
    {2, 2147483647, "stride_h INT32_MAX"}, {3, 65536, "stride_w 65536"},
};
#define NGV ((int)(sizeof gvals / sizeof gvals[0]))

static int opt_type(int b) { return litert_builtin_options_type(b); }

/* Builds template k with the hostile value applied to role (or geometry gv). */
static int build(int k, int role, const hval *hv, const gval *gv, const char *out) {
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  litert_options o;
  litert_options_default(&o);
  int in[3] = {-1, -1, -1}, nin = 1, y, builtin = 0;
  float si = 0.05f, s2 = 0.02f, so = 0.1f;
  int64_t zi = 3, z2 = 0, zo = -2;
  int dt = DT_INT8, rt[3] = {-1, -1, -1}; /* tensors per role */
  static int8_t w8[3 * 3 * 3 * 2];
  static int32_t b32[8];
  static int64_t b64[8];
  for (size_t i = 0; i < sizeof w8; i++) w8[i] = (int8_t)((int)(i * 37 % 255) - 127);
  for (int i = 0; i < 8; i++) b32[i] = 100 * i - 300, b64[i] = 1000 * i - 3000;
  switch (k) {
    case T_FC: case T_FC16: {
      const int is16 = k == T_FC16;
      dt = is16 ? DT_INT16 : DT_INT8;
      if (is16) zi = 0, zo = 0;
      const int32_t sx[2] = {1, 8}, sw[2] = {4, 8}, sb[1] = {4}, sy[2] = {1, 4};
      in[0] = tensor("x", dt, 2, sx, NULL, 0, si, zi);
      in[1] = tensor("w", DT_INT8, 2, sw, w8, 32, s2, 0);
      in[2] = is16 ? tensor("b", DT_INT64, 1, sb, b64, 32, si * s2, 0)
                   : tensor("b", DT_INT32, 1, sb, b32, 16, si * s2, 0);
      y = tensor("y", dt, 2, sy, NULL, 0, so, zo);
      nin = 3;
      builtin = OP_FULLY_CONNECTED;
      break;
    }
    case T_CONV: case T_DW: {
      const int dw = k == T_DW;
      const int32_t sx[4] = {1, 5, 5, 2}, sf[4] = {dw ? 1 : 3, 3, 3, dw ? 2 : 2},
                    sb[1] = {dw ? 2 : 3}, sy[4] = {1, 5, 5, dw ? 2 : 3};
      in[0] = tensor("x", DT_INT8, 4, sx, NULL, 0, si, zi);
      in[1] = tensor("filter", DT_INT8, 4, sf, w8, (size_t)sf[0] * 18, s2, 0);
      in[2] = tensor("b", DT_INT32, 1, sb, b32, (size_t)sb[0] * 4, si * s2, 0);
      y = tensor("y", DT_INT8, 4, sy, NULL, 0, so, zo);
      nin = 3;
      builtin = dw ? OP_DEPTHWISE_CONV_2D : OP_CONV_2D;
      o.padding = PAD_SAME;
      o.stride_h = o.stride_w = 1;
      o.dilation_h = o.dilation_w = 1;
      if (dw) o.depth_multiplier = 1;
      break;
    }
    case T_MUL: case T_ADD: {
      const int32_t s[2] = {1, 8};
      in[0] = tensor("a", DT_INT8, 2, s, NULL, 0, si, zi);
      in[1] = tensor("b", DT_INT8, 2, s, NULL, 0, s2, 5);
      z2 = 5;
      y = tensor("y", DT_INT8, 2, s, NULL, 0, so, zo);
      nin = 2;
      builtin = k == T_MUL ? OP_MUL : OP_ADD;
      break;
    }
    case T_DEQ: {
      const int32_t s[2] = {1, 8};
      in[0] = tensor("q", DT_INT8, 2, s, NULL, 0, si, zi);
      y = tensor("f", DT_FLOAT32, 2, s, NULL, 0, -12345.0f, 0);
      builtin = OP_DEQUANTIZE;
      break;
    }
    case T_QUANT: case T_LEAKY: case T_RELU: {
      const int32_t s[2] = {1, 8};
      in[0] = tensor("x", DT_INT8, 2, s, NULL, 0, si, zi);
      y = tensor("y", DT_INT8, 2, s, NULL, 0, so, zo);
      builtin = k == T_QUANT ? OP_QUANTIZE : (k == T_LEAKY ? OP_LEAKY_RELU : OP_RELU);
      o.alpha = 0.2f;
      break;
    }
    case T_LOG8: case T_TANH8: case T_LOG16: case T_TANH16: {
      const int is16 = k >= T_LOG16, is_tanh = k == T_TANH8 || k == T_TANH16;
      dt = is16 ? DT_INT16 : DT_INT8;
      const int32_t s[2] = {1, 8};
      si = is16 ? 0.001f : 0.05f;
      zi = is16 ? 0 : zi;
      so = is16 ? 1.0f / 32768.0f : (is_tanh ? 1.0f / 128.0f : 1.0f / 256.0f);
      zo = is16 ? 0 : (is_tanh ? 0 : -128);
      in[0] = tensor("x", dt, 2, s, NULL, 0, si, zi);
      y = tensor("y", dt, 2, s, NULL, 0, so, zo);
      builtin = is_tanh ? OP_TANH : OP_LOGISTIC;
      break;
    }
    case T_AVGPOOL: {
      const int32_t sx[4] = {1, 4, 4, 2}, sy[4] = {1, 4, 4, 2};
      in[0] = tensor("x", DT_INT8, 4, sx, NULL, 0, si, zi);
      y = tensor("y", DT_INT8, 4, sy, NULL, 0, si, zi);
      so = si, zo = zi;
      builtin = OP_AVERAGE_POOL_2D;
      o.padding = PAD_SAME;
      o.stride_h = o.stride_w = 1;
      o.filter_h = o.filter_w = 2;
      break;
    }
    case T_MEAN: {
      const int32_t sx[4] = {1, 4, 4, 2}, sy[4] = {1, 1, 1, 2}, sa[1] = {2};
      const int32_t axes[2] = {1, 2};
      in[0] = tensor("x", DT_INT8, 4, sx, NULL, 0, si, zi);
      in[1] = tensor("axes", DT_INT32, 1, sa, axes, 8, -12345.0f, 0);
      y = tensor("y", DT_INT8, 4, sy, NULL, 0, so, zo);
      nin = 2;
      builtin = OP_MEAN;
      o.keep_dims = 1;
      break;
    }
    case T_SOFTMAX: {
      const int32_t s[2] = {1, 8};
      in[0] = tensor("x", DT_INT8, 2, s, NULL, 0, si, zi);
      y = tensor("y", DT_INT8, 2, s, NULL, 0, 1.0f / 256.0f, -128);
      so = 1.0f / 256.0f, zo = -128;
      builtin = OP_SOFTMAX;
      o.beta = 1.0f;
      break;
    }
    default: return 3;
  }
  o.type = opt_type(builtin);
  rt[0] = in[0];
  rt[1] = (k == T_MEAN) ? -1 : in[1];
  rt[2] = y;
  if (hv) {
    const int t = rt[role];
    float sc = role == 0 ? si : (role == 1 ? s2 : so);
    int64_t zp = role == 0 ? zi : (role == 1 ? z2 : zo);
    if (hv->kind == H_ZP) zp = (int64_t)hv->v;
    else if (hv->kind == H_SCALE) sc = (float)hv->v;
    /* ratio: the role's scale made 2^k larger (input, weights) or smaller (output) */
    else sc = role == 2 ? (float)ldexp((double)sc, -(int)hv->v) : (float)ldexp((double)sc, (int)hv->v);
    set_q(t, sc, zp);
  }
  if (gv) {
    if (gv->field == 0) o.dilation_h = (int)gv->v;
    if (gv->field == 1) o.dilation_w = (int)gv->v;
    if (gv->field == 2) o.stride_h = (int)gv->v;
    if (gv->field == 3) o.stride_w = (int)gv->v;
    if (k == T_AVGPOOL && gv->field <= 1) { /* pool: the window itself */
      if (gv->field == 0) o.filter_h = (int)gv->v;
      else o.filter_w = (int)gv->v;
    }
  }
  litert_add_op(M, 0, builtin, NULL, nin, in, 1, (int32_t[]){y}, &o);
  litert_set_io(M, 0, 1, (int32_t[]){in[0]}, 1, (int32_t[]){y});
  if (k == T_MUL || k == T_ADD) litert_set_io(M, 0, 2, (int32_t[]){in[0], in[1]}, 1, (int32_t[]){y});
  return write_out(out);
}

static int hostile(const char *out, int idx) {
  int i = 0;
  for (int k = 0; k < T_NTEMPL; k++)
    for (int role = 0; role < 3; role++) {
      if (role == 1 && (k == T_DEQ || k == T_QUANT || k == T_LOG8 || k == T_TANH8 ||
                        k == T_LOG16 || k == T_TANH16 || k == T_AVGPOOL || k == T_MEAN ||
                        k == T_LEAKY || k == T_RELU || k == T_SOFTMAX))
        continue;
      if (role == 2 && k == T_DEQ) continue; /* float output */
      for (int h = 0; h < NHV; h++, i++)
        if (i == idx) {
          printf("%s, %s: %s\n", templ_name[k], role == 0 ? "input" : (role == 1 ? "operand 2" : "output"),
                 hvals[h].what);
          return build(k, role, &hvals[h], NULL, out);
        }
    }
  const int gk[3] = {T_CONV, T_DW, T_AVGPOOL};
  for (int j = 0; j < 3; j++)
    for (int g = 0; g < NGV; g++, i++)
      if (i == idx) {
        printf("%s: %s\n", templ_name[gk[j]], gvals[g].what);
        return build(gk[j], 0, NULL, &gvals[g], out);
      }
  return 3;
}

/* ---- kernel choice (test_kernel_choice.sh) ------------------------------ */
/* A quantized convolution layer of the chain: filter [fo, fh, fw, fi]
 * (depthwise: [1, fh, fw, c]), per-tensor scales, weights from a fixed
 * sequence, SAME padding; returns the output tensor. */
static int chain_conv(int x, int dw, const int32_t *oshape, int32_t fo, int32_t fh, int32_t fi,
                      int stride, const char *name) {
  static int8_t w[64 * 5 * 5 * 128];
  static int32_t b[128];
  const int32_t sf[4] = {fo, fh, fh, fi}, sb[1] = {dw ? fi : fo};
  const size_t nw = (size_t)fo * fh * fh * fi;
  uint32_t r = 12345u + (uint32_t)fh * 77u + (uint32_t)fi;
  char nm[64];
  for (size_t i = 0; i < nw; i++) {
    r = r * 1103515245u + 12345u;
    w[i] = (int8_t)((int)(r >> 16) % 255 - 127);
  }
  for (int i = 0; i < sb[0]; i++) b[i] = (i * 97) % 2001 - 1000;
  snprintf(nm, sizeof nm, "%s_filter", name);
  const int f = tensor(nm, DT_INT8, 4, sf, w, nw, 0.004f, 0);
  snprintf(nm, sizeof nm, "%s_bias", name);
  const int bt = tensor(nm, DT_INT32, 1, sb, b, (size_t)sb[0] * 4, 0.05f * 0.004f, 0);
  /* outputs spread over int8: about sqrt(taps) * 127 * 0.004 * 0.05 * 64 */
  const float so = 0.05f * 0.004f * 127.0f * 2.0f * sqrtf((float)(fh * fh * (dw ? 1 : fi)));
  const int y = tensor(name, DT_INT8, 4, oshape, NULL, 0, so > 0.05f ? so : 0.05f, -3);
  litert_options o;
  litert_options_default(&o);
  const int op = dw ? OP_DEPTHWISE_CONV_2D : OP_CONV_2D;
  o.type = litert_builtin_options_type(op);
  o.padding = PAD_SAME;
  o.stride_h = o.stride_w = stride;
  o.dilation_h = o.dilation_w = 1;
  if (dw) o.depth_multiplier = 1;
  litert_add_op(M, 0, op, NULL, 3, (int32_t[]){x, f, bt}, 1, (int32_t[]){y}, &o);
  return y;
}

/* "dw": a 5x5 depthwise layer (the tap-pair loop's) then a 3x3 stride-2
 * one on 128 channels to 3x3 outputs, where that loop counts fewer
 * instructions than the 3x3 path. "conv": a grouped 3x3 CONV_2D (the
 * four-position path's) then a 3x3 one of 64 channels on 8x8, where the
 * four-position path counts fewer than gathered windows. */
static int choice_model(const char *out, const char *which) {
  const int dw = strcmp(which, "dw") == 0;
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  if (dw) {
    const int32_t s0[4] = {1, 6, 6, 128}, s2[4] = {1, 3, 3, 128};
    const int x = tensor("x", DT_INT8, 4, s0, NULL, 0, 0.05f, 2);
    const int t1 = chain_conv(x, 1, s0, 1, 5, 128, 1, "dw5x5");
    const int y = chain_conv(t1, 1, s2, 1, 3, 128, 2, "dw3x3_s2");
    litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  } else {
    const int32_t s0[4] = {1, 8, 8, 64};
    const int x = tensor("x", DT_INT8, 4, s0, NULL, 0, 0.05f, 2);
    const int t1 = chain_conv(x, 0, s0, 64, 3, 32, 1, "conv_grouped");
    const int y = chain_conv(t1, 0, s0, 64, 3, 64, 1, "conv3x3");
    litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  }
  return write_out(out);
}

/* ---- one convolution layer (test_dw_as_conv.sh) -------------------------- */
/* A CONV_2D (conv) or DEPTHWISE_CONV_2D of input [1, ih, iw, ic], filter
 * kh x kw, oc output channels (depthwise: depth multiplier oc / ic),
 * per-channel filter scales (one scale for the filter if per_tensor), fused
 * RELU, in int8, int16x8 or float32. */
static int layer_model(const char *out, const char *dtn, int conv, int ih, int iw, int ic, int kh,
                       int kw, int oc, int stride, int dil, int same, int per_tensor) {
  const int dt = strcmp(dtn, "int16") == 0 ? DT_INT16 : strcmp(dtn, "float32") == 0 ? DT_FLOAT32 : DT_INT8;
  if (kh < 1 || kw < 1 || oc < 1 || oc > 64 || ic < 1 || ic > 64 || stride < 1 || dil < 1 ||
      kh > 12 || kw > 12 || (!conv && oc % ic != 0) || (conv && (size_t)kh * kw * ic > 12 * 12 * 4))
    return 2;
  const int ekh = (kh - 1) * dil + 1, ekw = (kw - 1) * dil + 1;
  const int oh = same ? (ih + stride - 1) / stride : (ih - ekh) / stride + 1;
  const int ow = same ? (iw + stride - 1) / stride : (iw - ekw) / stride + 1;
  if (oh < 1 || ow < 1) return 2;
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  static int8_t w8[12 * 12 * 64 * 4];
  static float wf[12 * 12 * 64 * 4];
  static int32_t b32[64];
  static int64_t b64[64];
  static float bf[64];
  float ws[64], bs[64];
  int64_t zp0[64] = {0};
  const int32_t sx[4] = {1, ih, iw, ic}, sy[4] = {1, oh, ow, oc}, sb[1] = {oc};
  const int32_t sf[4] = {conv ? oc : 1, kh, kw, conv ? ic : oc};
  const size_t taps = (size_t)kh * kw * (conv ? ic : 1), nw = (size_t)sf[0] * kh * kw * sf[3];
  uint32_t r = 777u + (uint32_t)(kh * 131 + kw * 17 + oc);
  for (size_t i = 0; i < nw; i++) {
    r = r * 1103515245u + 12345u;
    w8[i] = (int8_t)((int)(r >> 16) % 255 - 127);
    wf[i] = (float)w8[i] / 127.0f;
  }
  const float xs = dt == DT_INT16 ? 1.0f / 4096.0f : 0.05f;
  for (int c = 0; c < oc; c++) {
    ws[c] = 0.002f + (per_tensor ? 0.0013f : 0.0005f * (float)(c % 7));   /* per output channel */
    bs[c] = xs * ws[c];
    b32[c] = (c * 97) % 2001 - 1000;
    b64[c] = (int64_t)((c * 7919) % 40001 - 20000);
    bf[c] = (float)b32[c] / 4000.0f;
  }
  int x, f, b, y;
  const float ys = xs * 0.004f * 127.0f * sqrtf((float)taps) * 2.0f;
  if (dt == DT_FLOAT32) {
    x = tensor("spectrogram", dt, 4, sx, NULL, 0, -12345.0f, 0);
    f = tensor("filter", dt, 4, sf, wf, nw * 4, -12345.0f, 0);
    b = tensor("bias", dt, 1, sb, bf, (size_t)oc * 4, -12345.0f, 0);
    y = tensor("features", dt, 4, sy, NULL, 0, -12345.0f, 0);
  } else {
    const int is16 = dt == DT_INT16;
    x = tensor("spectrogram", dt, 4, sx, NULL, 0, xs, is16 ? 0 : -7);
    f = tensor("filter", DT_INT8, 4, sf, w8, nw, -12345.0f, 0);
    litert_tensor_set_quant(M, 0, f, per_tensor ? 1 : oc, ws, zp0, conv ? 0 : 3);
    b = tensor("bias", is16 ? DT_INT64 : DT_INT32, 1, sb, is16 ? (const void *)b64 : b32,
               (size_t)oc * (is16 ? 8 : 4), -12345.0f, 0);
    litert_tensor_set_quant(M, 0, b, oc, bs, zp0, 0);
    y = tensor("features", dt, 4, sy, NULL, 0, is16 ? ys / 64.0f : ys, is16 ? 0 : -128);
  }
  const int opc = conv ? OP_CONV_2D : OP_DEPTHWISE_CONV_2D;
  litert_options o;
  litert_options_default(&o);
  o.type = litert_builtin_options_type(opc);
  o.padding = same ? PAD_SAME : PAD_VALID;
  o.stride_h = o.stride_w = stride;
  o.dilation_h = o.dilation_w = dil;
  if (!conv) o.depth_multiplier = oc / ic;
  o.fused_act = ACT_RELU;
  litert_add_op(M, 0, opc, NULL, 3, (int32_t[]){x, f, b}, 1, (int32_t[]){y}, &o);
  litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  return write_out(out);
}

/* ---- int16x8 FULLY_CONNECTED (test_simd_fc16.sh) ------------------------- */
/* A FULLY_CONNECTED of input [B, K] to [B, O] in int16x8 (int8 weights with
 * one scale per output row, or one for all, int64 bias), fused RELU or none. */
static int fc16_model(const char *out, int batch, int k, int o, int per_tensor, int relu) {
  if (batch < 1 || batch > 64 || k < 1 || k > 8192 || o < 1 || o > 1024) return 2;
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  int8_t *w8 = malloc((size_t)o * k);
  int64_t *b64 = malloc((size_t)o * 8), *zp0 = calloc((size_t)o, 8);
  float *ws = malloc((size_t)o * 4), *bs = malloc((size_t)o * 4);
  const int32_t sx[2] = {batch, k}, sw[2] = {o, k}, sb[1] = {o}, sy[2] = {batch, o};
  const float xs = 1.0f / 4096.0f;
  uint32_t r = 4242u + (uint32_t)(k * 31 + o);
  if (!w8 || !b64 || !zp0 || !ws || !bs) return 1;
  for (size_t i = 0; i < (size_t)o * k; i++) {
    r = r * 1103515245u + 12345u;
    w8[i] = (int8_t)((int)(r >> 16) % 256 - 128);
  }
  for (int c = 0; c < o; c++) {
    ws[c] = 0.002f + (per_tensor ? 0.0013f : 0.0005f * (float)(c % 7));
    bs[c] = xs * ws[c];
    b64[c] = (int64_t)((c * 7919) % 400001 - 200000);
  }
  const int x = tensor("x", DT_INT16, 2, sx, NULL, 0, xs, 0);
  const int f = tensor("weights", DT_INT8, 2, sw, w8, (size_t)o * k, -12345.0f, 0);
  litert_tensor_set_quant(M, 0, f, per_tensor ? 1 : o, ws, zp0, 0);
  const int b = tensor("bias", DT_INT64, 1, sb, b64, (size_t)o * 8, -12345.0f, 0);
  litert_tensor_set_quant(M, 0, b, o, bs, zp0, 0);
  const int y = tensor("y", DT_INT16, 2, sy, NULL, 0,
                       xs * 0.004f * 127.0f * sqrtf((float)k) * 2.0f / 64.0f, 0);
  litert_options op;
  litert_options_default(&op);
  op.type = litert_builtin_options_type(OP_FULLY_CONNECTED);
  op.fused_act = relu ? ACT_RELU : ACT_NONE;
  litert_add_op(M, 0, OP_FULLY_CONNECTED, NULL, 3, (int32_t[]){x, f, b}, 1, (int32_t[]){y}, &op);
  litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  free(w8), free(b64), free(zp0), free(ws), free(bs);
  return write_out(out);
}

/* ---- int8 MAX_POOL_2D (test_simd_ew16.sh) -------------------------------- */
/* input [1, H, W, C], a K x K pool of stride S, SAME or VALID padding, a
 * fused RELU6-like clamp when act is nonzero (the output keeps the input's
 * quantization, as TFLite requires) */
static int maxpool_model(const char *out, int h, int w, int c, int k, int stride, int same,
                         int act) {
  const int oh = same ? (h + stride - 1) / stride : (h - k) / stride + 1;
  const int ow = same ? (w + stride - 1) / stride : (w - k) / stride + 1;
  const int32_t sx[4] = {1, h, w, c}, sy[4] = {1, oh, ow, c};
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  int x = tensor("x", DT_INT8, 4, sx, NULL, 0, 0.05f, -3);
  int y = tensor("y", DT_INT8, 4, sy, NULL, 0, 0.05f, -3);
  litert_options o;
  litert_options_default(&o);
  o.type = litert_builtin_options_type(OP_MAX_POOL_2D);
  o.padding = same ? PAD_SAME : PAD_VALID;
  o.stride_h = o.stride_w = stride;
  o.filter_h = o.filter_w = k;
  if (act) o.fused_act = ACT_RELU6;
  litert_add_op(M, 0, OP_MAX_POOL_2D, NULL, 1, (int32_t[]){x}, 1, (int32_t[]){y}, &o);
  litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  return write_out(out);
}

/* ---- int8 SOFTMAX (test_softmax_table.sh) ------------------------------- */
static int softmax_model(const char *out, int rows, int depth, float scale, int out16) {
  const int32_t sh[2] = {rows, depth};
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  int x = tensor("x", DT_INT8, 2, sh, NULL, 0, scale, -3);
  int y = out16 ? tensor("y", DT_INT16, 2, sh, NULL, 0, 1.0f / 65536.0f, -32768)
                : tensor("y", DT_INT8, 2, sh, NULL, 0, 1.0f / 256.0f, -128);
  litert_options o;
  litert_options_default(&o);
  o.type = litert_builtin_options_type(OP_SOFTMAX);
  o.beta = 1.0f;
  litert_add_op(M, 0, OP_SOFTMAX, NULL, 1, (int32_t[]){x}, 1, (int32_t[]){y}, &o);
  litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  return write_out(out);
}

int main(int argc, char **argv) {
  if (argc == 8 && strcmp(argv[1], "fc16") == 0)
    return fc16_model(argv[2], atoi(argv[3]), atoi(argv[4]), atoi(argv[5]),
                      strcmp(argv[6], "per-tensor") == 0, strcmp(argv[7], "relu") == 0);
  if (argc == 13 && strcmp(argv[1], "dw") == 0)
    return layer_model(argv[2], argv[3], 0, atoi(argv[4]), atoi(argv[5]), atoi(argv[6]),
                       atoi(argv[7]), atoi(argv[8]), atoi(argv[6]) * atoi(argv[9]), atoi(argv[10]),
                       atoi(argv[11]), strcmp(argv[12], "same") == 0, 0);
  if (argc == 10 && strcmp(argv[1], "maxpool") == 0)
    return maxpool_model(argv[2], atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), atoi(argv[6]),
                         atoi(argv[7]), strcmp(argv[8], "same") == 0, atoi(argv[9]));
  if (argc == 9 && strcmp(argv[1], "dwone") == 0)
    return layer_model(argv[2], argv[3], 0, 19, 14, 1, atoi(argv[4]), atoi(argv[5]), atoi(argv[6]),
                       atoi(argv[7]), 1, strcmp(argv[8], "same") == 0, 0);
  if (argc == 10 && strcmp(argv[1], "column") == 0)
    return layer_model(argv[2], argv[4], strcmp(argv[3], "conv") == 0, 23, 1, atoi(argv[6]),
                       atoi(argv[5]), 1, atoi(argv[6]) * (strcmp(argv[3], "conv") == 0 ? 2 : 1),
                       atoi(argv[7]), atoi(argv[8]), strcmp(argv[9], "same") == 0, 0);
  /* a CONV_2D whose one window is the whole input [1, IH, IW, C] (VALID) */
  if (argc == 9 && strcmp(argv[1], "window") == 0)
    return layer_model(argv[2], argv[3], 1, atoi(argv[4]), atoi(argv[5]), atoi(argv[6]),
                       atoi(argv[4]), atoi(argv[5]), atoi(argv[7]), 1, 1, 0,
                       strcmp(argv[8], "per-tensor") == 0);
  if (argc == 7 && strcmp(argv[1], "softmax") == 0)
    return softmax_model(argv[2], atoi(argv[3]), atoi(argv[4]), strtof(argv[5], NULL),
                         strcmp(argv[6], "int16") == 0);
  if (argc == 4 && strcmp(argv[1], "choice") == 0) return choice_model(argv[2], argv[3]);
  if (argc == 7 && strcmp(argv[1], "sigmoid") == 0)
    return sigmoid_model(argv[2], argv[3], argv[4], strtof(argv[5], NULL), strtol(argv[6], NULL, 10));
  if (argc == 4 && strcmp(argv[1], "hostile") == 0) return hostile(argv[2], atoi(argv[3]));
  fprintf(stderr, "usage: make_quant_model sigmoid OUT logistic|tanh int8|int16 SCALE ZP\n"
                  "       make_quant_model hostile OUT INDEX\n"
                  "       make_quant_model choice OUT dw|conv\n"
                  "       make_quant_model dwone OUT int8|int16|float32 KH KW M STRIDE same|valid\n"
                  "       make_quant_model column OUT dw|conv int8|int16|float32 KH C STRIDE DIL same|valid\n"
                  "       make_quant_model window OUT int8|int16|float32 IH IW C OC per-channel|per-tensor\n"
                  "       make_quant_model fc16 OUT B K O per-channel|per-tensor relu|none\n"
                  "       make_quant_model dw OUT int8|int16|float32 IH IW C KH KW M STRIDE DIL same|valid\n"
                  "       make_quant_model maxpool OUT H W C K STRIDE same|valid ACT\n"
                  "       make_quant_model softmax OUT ROWS DEPTH SCALE int8|int16\n");
  return 2;
}
