/* aot_dwconv2d_s16.c - DEPTHWISE_CONV_2D int16x8 (int16 activations, int8
 * weights, int64 bias), as the TFLite reference DepthwiseConvPerChannel:
 * int64 accumulator and aot_mbqm64. Zero points are 0. */
#include "aot_conv.h"

int32_t aot_dwconv2d_s16(const aot_conv_params *p, const int16_t *input,
                         const int8_t *filter, const int64_t *bias, int16_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c;
  const int32_t out_h = p->out_h, out_w = p->out_w, out_c = p->out_c;
  const int32_t fh = p->filter_h, fw = p->filter_w, dm = p->depth_multiplier;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const int32_t act_min = p->act_min, act_max = p->act_max;
  const int32_t x_step = dw * in_c, fx_step = out_c;
  int32_t b, oy, ox;

  if (dm <= 0 || out_c != in_c * dm) return AOT_KERNEL_BAD_PARAM;

  for (b = 0; b < p->batches; b++) {
    const int16_t *in_b = input + (size_t)b * in_h * in_w * in_c;
    for (oy = 0; oy < out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
      for (ox = 0; ox < out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, ic, oc = 0;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        for (ic = 0; ic < in_c; ic++) {
          const int16_t *in_c0 = in_b + ic;
          int32_t m;
          for (m = 0; m < dm; m++, oc++) {
            int64_t acc = 0;
            int32_t fy, r;
            for (fy = fy0; fy < fy1; fy++) {
              const int16_t *ip = in_c0 + ((size_t)(iy0 + fy * dh) * in_w +
                                           (ix0 + fx0 * dw)) * in_c;
              const int8_t *fp = filter + (size_t)(fy * fw + fx0) * out_c + oc;
              int32_t fx;
              for (fx = fx0; fx < fx1; fx++) {
                acc += (int32_t)*fp * *ip;
                ip += x_step;
                fp += fx_step;
              }
            }
            if (bias) acc += bias[oc];
            r = aot_mbqm64(acc, p->out_mult[oc], p->out_shift[oc]);
            *output++ = (int16_t)aot_clamp_i32(r, act_min, act_max);
          }
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}
