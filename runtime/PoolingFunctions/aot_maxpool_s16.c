/* aot_maxpool_s16.c - MAX_POOL_2D int16, as the TFLite reference: maximum over
 * the window clipped to the image, then the activation clamp. */
#include "aot_conv.h"

int32_t aot_maxpool_s16(const aot_pool_params *p, const int16_t *input, int16_t *output) {
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
        int32_t fx0, fx1, c;
        const int16_t *base;
        aot_conv_window(ix0, 1, in_w, p->filter_w, &fx0, &fx1);
        if (fy1 <= fy0 || fx1 <= fx0) {
          /* empty window: the reference yields the type's lowest value */
          for (c = 0; c < ch; c++)
            *output++ = (int16_t)aot_clamp_i32(INT16_MIN, act_min, act_max);
          continue;
        }
        base = in_b + ((size_t)(iy0 + fy0) * in_w + (ix0 + fx0)) * ch;
        for (c = 0; c < ch; c++) {
          const int16_t *row = base + c;
          int32_t mx = INT16_MIN, fy;
          for (fy = fy0; fy < fy1; fy++) {
            const int16_t *ip = row;
            int32_t fx;
            for (fx = fx0; fx < fx1; fx++) {
              if (*ip > mx) mx = *ip;
              ip += ch;
            }
            row += (size_t)in_w * ch;
          }
          *output++ = (int16_t)aot_clamp_i32(mx, act_min, act_max);
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}
