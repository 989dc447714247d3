/* aot_conv2d_hybrid.c - CONV_2D with float32 activations and an int8 filter
 * ("hybrid" / dynamic-range), as the LiteRT runtime runs it (XNNPACK
 * delegate, qd8 dynamic quantization): the input is quantized with
 * aot_hybrid_quantize_qd8, one image at a time, or one pixel at a time when
 * the convolution is a 1x1 stride-1 GEMM; acc = sum w * (q - zp) in int32
 * over the taps inside the image; out = ((float)acc * input_scale) *
 * filter_scale[c] + bias[c], clamped. Groups are not supported (filter_in_c
 * must equal in_c). Portable: the tap runs are summed by aot_hyb_dot
 * (aot_mvef.h). Cortex-M4 (DSP) and Cortex-M55 (Helium): the GEMM case and,
 * after an im2col of two output positions at a time, every other filter
 * run through the loops of aot_hybrid_simd.h (two channels x two positions
 * per SMLAD pass, four channels per VMLADAVA pass), with the same int32 sums
 * and float epilogue. */
#include "aot_conv.h"
#include "aot_mvef.h"
#include "../aot_hybrid_simd.h"

#if defined(AOT_HYBS_MVE)
#define AOT_CONV2D_HYBRID_MVE 1
#elif defined(AOT_HYBS_DSP)
#define AOT_CONV2D_HYBRID_DSP 1
#endif

size_t aot_conv2d_hybrid_buffer_size(const aot_conv_params *p) {
  const size_t k = (size_t)p->filter_h * (size_t)p->filter_w * (size_t)p->in_c;
  size_t n = aot_conv_is_gemm(p) ? (size_t)p->in_c
                                 : (size_t)p->in_h * (size_t)p->in_w * (size_t)p->in_c;
  return ((n + 7u) & ~(size_t)7u) + aot_hybs_scratch(k, (size_t)p->out_c);
}

#ifdef AOT_HYBS
/* the im2col column of the output position (oy, ox) from the quantized
 * image q */
static void conv_col(const aot_conv_params *p, const int8_t *q, int32_t oy, int32_t ox,
                     int32_t zp, aot_hybs_col *c) {
  const int32_t in_c = p->in_c, k = p->filter_h * p->filter_w * in_c;
  const aot_hybs_col pad = aot_hybs_pad(zp);
  int32_t fy, fx, i, t = 0;
  for (fy = 0; fy < p->filter_h; fy++) {
    const int32_t iy = oy * p->stride_h - p->pad_h + fy * p->dilation_h;
    for (fx = 0; fx < p->filter_w; fx++) {
      const int32_t ix = ox * p->stride_w - p->pad_w + fx * p->dilation_w;
      if (iy < 0 || iy >= p->in_h || ix < 0 || ix >= p->in_w) {
        for (i = 0; i < in_c; i++, t++) c[aot_hybs_pos(t, k)] = pad;
      } else {
        const int8_t *s = q + ((size_t)iy * (size_t)p->in_w + (size_t)ix) * (size_t)in_c;
        for (i = 0; i < in_c; i++, t++) c[aot_hybs_pos(t, k)] = aot_hybs_val(s[i], zp);
      }
    }
  }
}

static int32_t conv_simd(const aot_conv_params *p, const aot_hybrid_params *h,
                         const float *input, const int8_t *filter, const float *bias,
                         float *output, void *scratch) {
  const int32_t in_c = p->in_c, out_c = p->out_c;
  const size_t in_size = (size_t)p->in_h * (size_t)p->in_w * (size_t)in_c;
  const size_t qn = aot_conv_is_gemm(p) ? (size_t)in_c : in_size;
  int8_t *q = (int8_t *)scratch;
  aot_hybs_col *ca, *cb;
  int32_t *wsum;
  aot_hybs_ctx x;
  int32_t b;
  aot_hybs_split(q + ((qn + 7u) & ~(size_t)7u), p->filter_h * p->filter_w * in_c, &ca, &cb,
                 &wsum);
  x.w = filter;
  x.k = p->filter_h * p->filter_w * in_c;
  x.n_out = out_c;
  x.wsum = wsum;
  x.fscale = h->filter_scale;
  x.per_channel = h->per_channel;
  x.bias = bias;
  x.lo = p->act_min_f;
  x.hi = p->act_max_f;
  aot_hybs_wsum(filter, x.k, out_c, wsum);
  if (aot_conv_is_gemm(p)) {
    if (p->out_h != p->in_h || p->out_w != p->in_w) return AOT_KERNEL_BAD_PARAM;
    aot_hybs_gemm(&x, input, (size_t)p->batches * (size_t)p->in_h * (size_t)p->in_w, q, ca, cb,
                  output);
    return AOT_KERNEL_OK;
  }
  for (b = 0; b < p->batches; b++) {
    const int32_t npix = p->out_h * p->out_w;
    float sc;
    int32_t zp, i;
    aot_hybrid_quantize_qd8(input + (size_t)b * in_size, (int32_t)in_size, q, &sc, &zp);
    for (i = 0; i < npix; i += 2) {
      const int two = i + 1 < npix;
      conv_col(p, q, i / p->out_w, i % p->out_w, zp, ca);
      if (two) conv_col(p, q, (i + 1) / p->out_w, (i + 1) % p->out_w, zp, cb);
      aot_hybs_run(&x, ca, zp, sc, output + (size_t)i * out_c, cb, zp, sc,
                   two ? output + (size_t)(i + 1) * out_c : NULL);
    }
    output += (size_t)npix * out_c;
  }
  return AOT_KERNEL_OK;
}
#endif

/* One output pixel: out_c values from the window of quantized input q_win
 * (taps fy0..fy1, fx0..fx1 inside the image). */
static void conv_pixel(const aot_conv_params *p, const aot_hybrid_params *h,
                       const int8_t *in_win, size_t in_row, int32_t fy0, int32_t fy1,
                       int32_t fx0, int32_t fx1, int32_t zp, float in_scale,
                       const int8_t *filter, const float *bias, float *output) {
  const int32_t in_c = p->in_c, fw = p->filter_w, dh = p->dilation_h, dw = p->dilation_w;
  const int32_t fsize = p->filter_h * fw * in_c, run = (fx1 - fx0) * in_c;
  int32_t oc;
  for (oc = 0; oc < p->out_c; oc++) {
    const int8_t *f0 = filter + (size_t)oc * fsize + (fy0 * fw + fx0) * in_c;
    int32_t acc = 0, fy, fx;
    float o;
    for (fy = fy0; fy < fy1; fy++) {
      const int8_t *ip = in_win + (size_t)(fy - fy0) * dh * in_row;
      const int8_t *fp = f0 + (fy - fy0) * fw * in_c;
      if (dw == 1) {  /* a filter row is one contiguous run */
        acc += aot_hyb_dot(fp, ip, run, zp);
      } else {
        for (fx = fx0; fx < fx1; fx++) {
          acc += aot_hyb_dot(fp, ip, in_c, zp);
          ip += (size_t)dw * in_c;
          fp += in_c;
        }
      }
    }
    o = (float)acc * in_scale;
    o *= h->filter_scale[h->per_channel ? oc : 0];
    if (bias) o += bias[oc];
    output[oc] = aot_clamp_f32(o, p->act_min_f, p->act_max_f);
  }
}

int32_t aot_conv2d_hybrid(const aot_conv_params *p, const aot_hybrid_params *h,
                          const float *input, const int8_t *filter,
                          const float *bias, float *output, void *scratch) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c, out_c = p->out_c;
  const size_t in_row = (size_t)in_w * in_c;
  const size_t in_size = (size_t)in_h * in_row;
  int8_t *q = (int8_t *)scratch;
  float in_scale;
  int32_t zp, b, oy, ox;

  if (!q || !h || !h->filter_scale || p->filter_in_c != in_c || in_size > INT32_MAX)
    return AOT_KERNEL_BAD_PARAM;
#ifdef AOT_HYBS
  return conv_simd(p, h, input, filter, bias, output, scratch);
#endif

  if (aot_conv_is_gemm(p)) {
    /* XNNPACK GEMM path: one quantization per pixel */
    const size_t npix = (size_t)p->batches * in_h * in_w;
    size_t i;
    if (p->out_h != in_h || p->out_w != in_w) return AOT_KERNEL_BAD_PARAM;
    for (i = 0; i < npix; i++) {
      aot_hybrid_quantize_qd8(input + i * in_c, in_c, q, &in_scale, &zp);
      conv_pixel(p, h, q, in_row, 0, 1, 0, 1, zp, in_scale, filter, bias, output);
      output += out_c;
    }
    return AOT_KERNEL_OK;
  }

  for (b = 0; b < p->batches; b++) {
    aot_hybrid_quantize_qd8(input + (size_t)b * in_size, (int32_t)in_size, q, &in_scale, &zp);
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, p->dilation_h, in_h, p->filter_h, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, y1 = fy1;
        const int8_t *in_win = q;
        aot_conv_window(ix0, p->dilation_w, in_w, p->filter_w, &fx0, &fx1);
        if (y1 <= fy0 || fx1 <= fx0) y1 = fy0; /* no tap inside the image */
        else
          in_win = q + (size_t)(iy0 + fy0 * p->dilation_h) * in_row +
                   (size_t)(ix0 + fx0 * p->dilation_w) * in_c;
        conv_pixel(p, h, in_win, in_row, fy0, y1, fx0, fx1, zp, in_scale, filter, bias, output);
        output += out_c;
      }
    }
  }
  return AOT_KERNEL_OK;
}
