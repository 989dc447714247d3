/* aot_avgpool_s16.c - AVERAGE_POOL_2D int16, as the TFLite reference: the
 * window is clipped to the image, the int32 sum is divided by the number of
 * taps rounding half away from zero ((sum +- count/2) / count), then clamped.
 * Input and output share scale and zero point. */
#include "aot_conv.h"

int32_t aot_avgpool_s16(const aot_pool_params *p, const int16_t *input, int16_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, ch = p->channels;
  const int32_t act_min = p->act_min, act_max = p->act_max;
  int32_t b, oy, ox;

  for (b = 0; b < p->batches; b++) {
    const int16_t *in_b = input + (size_t)b * in_h * in_w * ch;
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, 1, in_h, p->filter_h, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, count, c;
        const int16_t *base;
        aot_conv_window(ix0, 1, in_w, p->filter_w, &fx0, &fx1);
        count = (fy1 - fy0) * (fx1 - fx0);
        if (fy1 <= fy0 || fx1 <= fx0) return AOT_KERNEL_BAD_PARAM;
        base = in_b + ((size_t)(iy0 + fy0) * in_w + (ix0 + fx0)) * ch;
        for (c = 0; c < ch; c++) {
          const int16_t *row = base + c;
          int32_t acc = 0, fy;
          for (fy = fy0; fy < fy1; fy++) {
            const int16_t *ip = row;
            int32_t fx;
            for (fx = fx0; fx < fx1; fx++) {
              acc += *ip;
              ip += ch;
            }
            row += (size_t)in_w * ch;
          }
          acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
          *output++ = (int16_t)aot_clamp_i32(acc, act_min, act_max);
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}
