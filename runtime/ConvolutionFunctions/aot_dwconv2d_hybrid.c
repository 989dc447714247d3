/* aot_dwconv2d_hybrid.c - DEPTHWISE_CONV_2D with float32 activations and an
 * int8 filter ("hybrid" / dynamic-range), as LiteRT's hybrid kernel
 * (depthwise_conv.cc EvalHybridPerChannel, DepthwiseConvHybridPerChannel):
 * each input image is quantized with AsymmetricQuantizeFloats
 * (aot_hybrid_quantize_asym), acc = sum w * (q - zp) in int32 over the taps
 * inside the image, out = ((float)acc * input_scale) * filter_scale[c] +
 * bias[c], clamped. */
#include "aot_conv.h"

size_t aot_dwconv2d_hybrid_buffer_size(const aot_conv_params *p) {
  return (size_t)p->in_h * (size_t)p->in_w * (size_t)p->in_c;
}

int32_t aot_dwconv2d_hybrid(const aot_conv_params *p, const aot_hybrid_params *h,
                            const float *input, const int8_t *filter,
                            const float *bias, float *output, void *scratch) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c;
  const int32_t out_c = p->out_c, fh = p->filter_h, fw = p->filter_w;
  const int32_t dh = p->dilation_h, dw = p->dilation_w, dm = p->depth_multiplier;
  const float act_min = p->act_min_f, act_max = p->act_max_f;
  const size_t in_row = (size_t)in_w * in_c;
  const size_t in_size = (size_t)in_h * in_row;
  int8_t *q = (int8_t *)scratch;
  int32_t b, oy, ox, ic, m;

  if (!q || !h || !h->filter_scale || dm <= 0 || in_c * dm != out_c || in_size > INT32_MAX)
    return AOT_KERNEL_BAD_PARAM;

  for (b = 0; b < p->batches; b++) {
    float in_scale;
    int32_t zp;
    aot_hybrid_quantize_asym(input + (size_t)b * in_size, (int32_t)in_size, q, &in_scale, &zp);
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        for (ic = 0; ic < in_c; ic++) {
          for (m = 0; m < dm; m++) {
            const int32_t oc = ic * dm + m;
            int32_t acc = 0, fy, fx;
            float o;
            for (fy = fy0; fy < fy1; fy++) {
              const int8_t *ip = q + (size_t)(iy0 + fy * dh) * in_row + ic;
              const int8_t *fp = filter + (size_t)fy * fw * out_c + oc;
              for (fx = fx0; fx < fx1; fx++)
                acc += (int32_t)fp[(size_t)fx * out_c] *
                       ((int32_t)ip[(size_t)(ix0 + fx * dw) * in_c] - zp);
            }
            o = (float)acc * in_scale;
            o *= h->filter_scale[h->per_channel ? oc : 0];
            if (bias) o += bias[oc];
            *output++ = aot_clamp_f32(o, act_min, act_max);
          }
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}
