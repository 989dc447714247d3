/* aot_conv2d_hybrid.c - CONV_2D with float32 activations and an int8 filter
 * ("hybrid" / dynamic-range), as the LiteRT runtime runs it (XNNPACK
 * delegate, qd8 dynamic quantization): the input is quantized with
 * aot_hybrid_quantize_qd8, one image at a time, or one pixel at a time when
 * the convolution is a 1x1 stride-1 GEMM; acc = sum w * (q - zp) in int32
 * over the taps inside the image; out = ((float)acc * input_scale) *
 * filter_scale[c] + bias[c], clamped. Groups are not supported (filter_in_c
 * must equal in_c). The tap runs are summed by aot_hyb_dot (aot_mvef.h:
 * Helium / DSP / portable, the same int32 sums). */
#include "aot_conv.h"
#include "aot_mvef.h"

size_t aot_conv2d_hybrid_buffer_size(const aot_conv_params *p) {
  if (aot_conv_is_gemm(p)) return (size_t)p->in_c;
  return (size_t)p->in_h * (size_t)p->in_w * (size_t)p->in_c;
}

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
