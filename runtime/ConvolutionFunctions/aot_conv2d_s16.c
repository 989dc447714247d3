/* aot_conv2d_s16.c - CONV_2D int16x8 (int16 activations, int8 weights, int64
 * bias), as the TFLite reference ConvPerChannel: int64 accumulator and
 * aot_mbqm64, zero padding by skipping taps outside the image, grouped
 * convolution when filter_in_c < in_c. Zero points are 0. */
#include "aot_conv.h"

int32_t aot_conv2d_s16(const aot_conv_params *p, const int16_t *input,
                       const int8_t *filter, const int64_t *bias, int16_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c;
  const int32_t out_h = p->out_h, out_w = p->out_w, out_c = p->out_c;
  const int32_t fh = p->filter_h, fw = p->filter_w, fic = p->filter_in_c;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const int32_t act_min = p->act_min, act_max = p->act_max;
  const int32_t filter_size = fh * fw * fic;
  const int32_t x_step = dw * in_c;
  int32_t groups, per_group, b, oy, ox;

  if (fic <= 0 || in_c % fic != 0) return AOT_KERNEL_BAD_PARAM;
  groups = in_c / fic;
  if (out_c % groups != 0) return AOT_KERNEL_BAD_PARAM;
  per_group = out_c / groups;

  for (b = 0; b < p->batches; b++) {
    const int16_t *in_b = input + (size_t)b * in_h * in_w * in_c;
    for (oy = 0; oy < out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
      for (ox = 0; ox < out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, g, oc = 0;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        for (g = 0; g < groups; g++) {
          const int16_t *in_g = in_b + g * fic;
          int32_t j;
          for (j = 0; j < per_group; j++, oc++) {
            const int8_t *f_oc = filter + (size_t)oc * filter_size;
            int64_t acc = 0;
            int32_t fy, r;
            for (fy = fy0; fy < fy1; fy++) {
              const int16_t *ip = in_g + ((size_t)(iy0 + fy * dh) * in_w +
                                         (ix0 + fx0 * dw)) * in_c;
              const int8_t *fp = f_oc + (fy * fw + fx0) * fic;
              int32_t fx;
              for (fx = fx0; fx < fx1; fx++) {
                int32_t c;
                for (c = 0; c < fic; c++) acc += (int32_t)fp[c] * ip[c];
                ip += x_step;
                fp += fic;
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
