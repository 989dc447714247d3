/* aot_dwconv2d_hybrid.c - DEPTHWISE_CONV_2D with float32 activations and an
 * int8 filter ("hybrid" / dynamic-range), as LiteRT's hybrid kernel
 * (depthwise_conv.cc EvalHybridPerChannel, DepthwiseConvHybridPerChannel):
 * each input image is quantized with AsymmetricQuantizeFloats
 * (aot_hybrid_quantize_asym), acc = sum w * (q - zp) in int32 over the taps
 * inside the image, out = ((float)acc * input_scale) * filter_scale[c] +
 * bias[c], clamped. On Helium, depth multiplier 1 runs four channels per
 * vector (dw_mve4). */
#include "aot_conv.h"
#include "aot_mvef.h"

#ifdef AOT_HYB_MVE
/* Helium, depth multiplier 1: four channels per vector (int32 lanes, the
 * same products and sums as the portable loop); returns the channels done. */
static int32_t dw_mve4(const aot_conv_params *p, const aot_hybrid_params *h, const int8_t *q,
                       const int8_t *filter, const float *bias, int32_t iy0, int32_t ix0,
                       int32_t fy0, int32_t fy1, int32_t fx0, int32_t fx1, int32_t zp,
                       float in_scale, float *output) {
  const int32_t in_c = p->in_c, fw = p->filter_w, dh = p->dilation_h, dw = p->dilation_w;
  const size_t in_row = (size_t)p->in_w * in_c;
  int32_t ic, fy, fx, j;
  for (ic = 0; ic + 4 <= in_c; ic += 4) {
    int32x4_t acc = vdupq_n_s32(0);
    int32_t a[4];
    for (fy = fy0; fy < fy1; fy++) {
      const int8_t *ip = q + (size_t)(iy0 + fy * dh) * in_row + ic;
      const int8_t *fp = filter + (size_t)fy * fw * in_c + ic;
      for (fx = fx0; fx < fx1; fx++) {
        const int32x4_t x = vsubq_n_s32(vldrbq_s32(ip + (size_t)(ix0 + fx * dw) * in_c), zp);
        acc = vaddq_s32(acc, vmulq_s32(vldrbq_s32(fp + (size_t)fx * in_c), x));
      }
    }
    vst1q_s32(a, acc);
    for (j = 0; j < 4; j++) {
      const int32_t oc = ic + j;
      float o = (float)a[j] * in_scale;
      o *= h->filter_scale[h->per_channel ? oc : 0];
      if (bias) o += bias[oc];
      output[oc] = aot_clamp_f32(o, p->act_min_f, p->act_max_f);
    }
  }
  return ic;
}
#endif

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
        ic = 0;
#ifdef AOT_HYB_MVE
        if (dm == 1) {
          ic = dw_mve4(p, h, q, filter, bias, iy0, ix0, fy0, fy1, fx0, fx1, zp, in_scale, output);
          output += ic;
        }
#endif
        for (; ic < in_c; ic++) {
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
