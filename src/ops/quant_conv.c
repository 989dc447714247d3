/* quant_conv.c - helpers shared by the convolution-family operators. */
#include "quant_conv.h"

#include <stdio.h>
#include <string.h>

int conv_out_and_pad(int padding, int stride, int dilation, int in_size,
                     int filter_size, int *out, int *pad) {
  if (stride <= 0 || dilation <= 0 || filter_size <= 0 || in_size < 0) return -1;
  /* 64-bit: hostile models carry strides and dilations near INT32_MAX */
  int64_t eff = (int64_t)(filter_size - 1) * dilation + 1;
  int64_t o;
  if (padding == PAD_SAME)
    o = ((int64_t)in_size + stride - 1) / stride;
  else if (padding == PAD_VALID)
    o = ((int64_t)in_size + stride - eff) / stride;
  else
    return -1;
  if (o < 0 || o > INT32_MAX) return -1;
  int64_t total = (o - 1) * stride + eff - in_size;
  if (total < 0) total = 0;
  if (total / 2 > INT32_MAX) return -1;
  *out = (int)o;
  *pad = (int)(total / 2);
  return 0;
}

void conv_channel_multipliers(const ir_tensor *in, const ir_tensor *filter,
                              const ir_tensor *out, int nch, int32_t *mult,
                              int32_t *shift) {
  double in_scale = (double)in->scale[0];
  double out_scale = (double)out->scale[0];
  for (int c = 0; c < nch; c++) {
    float fs = filter->nq > 1 ? filter->scale[c] : filter->scale[0];
    double eff = in_scale * (double)fs / out_scale;
    int s;
    quantize_multiplier(eff, &mult[c], &s);
    shift[c] = s;
  }
}

const ir_tensor *cf_in(const ir_graph *g, const ir_op *op, int i) {
  if (i < 0 || i >= op->nin || op->in[i] < 0 || op->in[i] >= g->nt) return NULL;
  return &g->t[op->in[i]];
}

const ir_tensor *cf_out(const ir_graph *g, const ir_op *op, int i) {
  if (i < 0 || i >= op->nout || op->out[i] < 0 || op->out[i] >= g->nt) return NULL;
  return &g->t[op->out[i]];
}

int cf_numel(const ir_tensor *t, size_t *n) {
  size_t k = 1;
  for (int i = 0; i < t->rank; i++) {
    if (t->shape[i] < 0) return -1;
    k *= (size_t)t->shape[i];
  }
  *n = k;
  return 0;
}

int cf_check_per_tensor(const ir_tensor *t, const char *what, char *why, size_t n) {
  if (t->nq < 1 || !t->scale || !t->zero_point) {
    snprintf(why, n, "%s is not quantized", what);
    return -1;
  }
  if (t->nq > 1) {
    snprintf(why, n, "%s has per-channel quantization", what);
    return -1;
  }
  if (!(t->scale[0] > 0.0f)) {
    snprintf(why, n, "%s scale is not positive", what);
    return -1;
  }
  return 0;
}

int cf_check_filter_quant(const ir_tensor *f, int nch, int qdim, char *why, size_t n) {
  if (f->nq < 1 || !f->scale || !f->zero_point) {
    snprintf(why, n, "filter is not quantized");
    return -1;
  }
  if (f->nq > 1 && (f->nq != nch || f->qdim != qdim)) {
    snprintf(why, n, "filter has %d scales along dim %d, expected 1 or %d along dim %d",
             f->nq, f->qdim, nch, qdim);
    return -1;
  }
  for (int i = 0; i < f->nq; i++) {
    if (f->zero_point[i] != 0) {
      snprintf(why, n, "filter zero point %d not supported (must be 0)", (int)f->zero_point[i]);
      return -1;
    }
    if (f->scale[i] < 0.0f) {
      snprintf(why, n, "filter scale is negative");
      return -1;
    }
  }
  return 0;
}

int cf_check_zero_zp(const ir_tensor *t, const char *what, char *why, size_t n) {
  if (t->nq >= 1 && t->zero_point && t->zero_point[0] != 0) {
    snprintf(why, n, "%s int16 zero point %d not supported (must be 0)", what,
             (int)t->zero_point[0]);
    return -1;
  }
  return 0;
}

void cf_copy(char *dst, size_t n, const char *s) {
  if (!n) return;
  if (!s) s = "";
  size_t l = strlen(s);
  if (l >= n) l = n - 1;
  memcpy(dst, s, l);
  dst[l] = 0;
}
