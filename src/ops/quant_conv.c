/* quant_conv.c - helpers shared by the convolution-family operators:
 * output size and padding, per-channel multipliers, and the checks that keep
 * quantization parameters and window geometry inside what the int32 kernel
 * arithmetic is exact for. */
#include "quant_conv.h"

#include "lower.h"

#include <math.h>
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

void cf_lower_multipliers(lower_call *c, const ir_tensor *in, const ir_tensor *filter,
                          const ir_tensor *out, int nch) {
  int32_t *mult = xcalloc((size_t)nch, sizeof *mult), *shift = xcalloc((size_t)nch, sizeof *shift);
  conv_channel_multipliers(in, filter, out, nch, mult, shift);
  lower_conv_array(c, LOWER_CA_MULT, 'w', "mult", mult, (size_t)nch);
  lower_conv_array(c, LOWER_CA_SHIFT, 'w', "shift", shift, (size_t)nch);
}

void cf_lower_scales(lower_call *c, const ir_tensor *f, const char *name) {
  float *scale = xmalloc((size_t)f->nq * sizeof *scale);
  memcpy(scale, f->scale, (size_t)f->nq * sizeof *scale);
  lower_conv_array(c, LOWER_CA_SCALE, 'f', name, scale, (size_t)f->nq);
}

int cf_kind(const ir_tensor *in, const ir_tensor *f, const ir_tensor *b, const ir_tensor *out,
            int nch, int qdim, int hybrid_ok, int bias16_ok, const char *what, const char *fname,
            char *why, size_t n) {
  if (in->dtype != out->dtype) {
    snprintf(why, n, "input %s with output %s not supported", dtype_name(in->dtype),
             dtype_name(out->dtype));
    return -1;
  }
  if (in->dtype == DT_FLOAT32) {
    if (f->dtype == DT_INT8 && hybrid_ok) {
      if (b && b->dtype != DT_FLOAT32) {
        snprintf(why, n, "hybrid %s (float32 input, int8 %s) needs a float32 bias", what, fname);
        return -1;
      }
      return CF_HYB;
    }
    if (f->dtype != DT_FLOAT32) {
      snprintf(why, n, "float32 input with %s %s not supported", dtype_name(f->dtype), fname);
      return -1;
    }
    if (b && b->dtype != DT_FLOAT32) {
      snprintf(why, n, "float32 %s needs a float32 bias", what);
      return -1;
    }
    return CF_F32;
  }
  if (in->dtype != DT_INT8 && in->dtype != DT_INT16) {
    snprintf(why, n, "input %s not supported", dtype_name(in->dtype));
    return -1;
  }
  if (f->dtype != DT_INT8) {
    snprintf(why, n, "input %s with %s %s not supported", dtype_name(in->dtype), fname,
             dtype_name(f->dtype));
    return -1;
  }
  const int s8 = in->dtype == DT_INT8;
  /* TFLM widens a constant int16 TRANSPOSE_CONV bias to int64 */
  const int b16 = bias16_ok && b && b->dtype == DT_INT16 && b->data;
  if (b && b->dtype != (s8 ? DT_INT32 : DT_INT64) && (s8 || !b16)) {
    snprintf(why, n, "%s %s with %s bias not supported (%s expected)", s8 ? "int8" : "int16x8",
             what, dtype_name(b->dtype), s8 ? "int32" : "int64");
    return -1;
  }
  if (cf_check_per_tensor(in, "input", why, n) || cf_check_per_tensor(out, "output", why, n) ||
      cf_check_filter_quant(f, nch, qdim, why, n))
    return -1;
  if (!s8 && (cf_check_zero_zp(in, "input", why, n) || cf_check_zero_zp(out, "output", why, n)))
    return -1;
  return s8 ? CF_S8 : CF_S16;
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

int cf_check_multipliers(const ir_tensor *in, const ir_tensor *filter, const ir_tensor *out,
                         int nch, int max_shift, char *why, size_t n) {
  for (int c = 0; c < nch; c++) {
    const float fs = filter->nq > 1 ? filter->scale[c] : filter->scale[0];
    const double eff = (double)in->scale[0] * (double)fs / (double)out->scale[0];
    char what[96];
    snprintf(what, sizeof what, "input x filter / output scale%s", nch > 1 ? " of a channel" : "");
    if (quant_check_multiplier(eff, max_shift, what, why, n)) return -1;
  }
  return 0;
}

int cf_check_window(const char *dim, int64_t in, int64_t out, int64_t filter, int64_t stride,
                    int64_t dilation, int64_t pad, char *why, size_t n) {
  /* the kernels form out * stride - pad + f * dilation (and the transposed
   * in * stride - pad + f) in int: every such term must fit */
  const int64_t lim = INT32_MAX;
  if (stride > lim || dilation > lim || filter > lim || pad > lim || in > lim || out > lim ||
      (out > 0 ? (out - 1) : 0) * stride + (filter > 0 ? filter - 1 : 0) * dilation + pad + in >
          lim) {
    snprintf(why, n,
             "%s window out of range: input %lld, output %lld, filter %lld, stride %lld, "
             "dilation %lld, padding %lld (the positions it spans must stay below 2^31)",
             dim, (long long)in, (long long)out, (long long)filter, (long long)stride,
             (long long)dilation, (long long)pad);
    return -1;
  }
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
  return quant_check_tensor(t, what, 0, why, n);
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
    if (!(f->scale[i] >= 0.0f) || !isfinite(f->scale[i])) {
      snprintf(why, n, "filter scale %g is not a finite non-negative number",
               (double)f->scale[i]);
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
