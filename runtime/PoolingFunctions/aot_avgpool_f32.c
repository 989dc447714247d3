/* aot_avgpool_f32.c - AVERAGE_POOL_2D float32, as the TFLite reference: the
 * window is clipped to the image, sum / count, then the activation clamp. */
#include "aot_conv.h"

int32_t aot_avgpool_f32(const aot_pool_params *p, const float *input, float *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, ch = p->channels;
  const float act_min = p->act_min_f, act_max = p->act_max_f;
  int32_t b, oy, ox;

  for (b = 0; b < p->batches; b++) {
    const float *in_b = input + (size_t)b * in_h * in_w * ch;
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, 1, in_h, p->filter_h, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, count, c;
        const float *base;
        aot_conv_window(ix0, 1, in_w, p->filter_w, &fx0, &fx1);
        count = (fy1 - fy0) * (fx1 - fx0);
        if (fy1 <= fy0 || fx1 <= fx0) return AOT_KERNEL_BAD_PARAM;
        base = in_b + ((size_t)(iy0 + fy0) * in_w + (ix0 + fx0)) * ch;
        for (c = 0; c < ch; c++) {
          const float *row = base + c;
          float acc = 0.0f;
          int32_t fy;
          for (fy = fy0; fy < fy1; fy++) {
            const float *ip = row;
            int32_t fx;
            for (fx = fx0; fx < fx1; fx++) {
              acc += *ip;
              ip += ch;
            }
            row += (size_t)in_w * ch;
          }
          *output++ = aot_clamp_f32(acc / (float)count, act_min, act_max);
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}
