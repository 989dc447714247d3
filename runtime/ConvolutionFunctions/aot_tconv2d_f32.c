/* aot_tconv2d_f32.c - TRANSPOSE_CONV float32.
 *
 * The TFLite reference scatters x * w into the zeroed output in input order
 * (row, column, channel), then adds the bias and clamps. Here each output
 * element gathers its products in that same order, so the float sums match,
 * without touching the output more than once. */
#include "aot_conv.h"

int32_t aot_tconv2d_f32(const aot_conv_params *p, const float *input,
                        const float *filter, const float *bias, float *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c;
  const int32_t out_h = p->out_h, out_w = p->out_w, out_c = p->out_c;
  const int32_t fh = p->filter_h, fw = p->filter_w;
  const int32_t sh = p->stride_h, sw = p->stride_w;
  const float act_min = p->act_min_f, act_max = p->act_max_f;
  const int32_t filter_size = fh * fw * in_c;
  int32_t b, oy, ox, oc;

  if (sh <= 0 || sw <= 0 || p->pad_h < 0 || p->pad_w < 0 || p->filter_in_c != in_c)
    return AOT_KERNEL_BAD_PARAM;

  for (b = 0; b < p->batches; b++) {
    const float *in_b = input + (size_t)b * in_h * in_w * in_c;
    for (oy = 0; oy < out_h; oy++) {
      const int32_t ty = oy + p->pad_h;
      const int32_t iy0 = ty - fh + 1 <= 0 ? 0 : (ty - fh + sh) / sh;
      const int32_t iy1 = aot_min_i32(ty / sh, in_h - 1);
      for (ox = 0; ox < out_w; ox++) {
        const int32_t tx = ox + p->pad_w;
        const int32_t ix0 = tx - fw + 1 <= 0 ? 0 : (tx - fw + sw) / sw;
        const int32_t ix1 = aot_min_i32(tx / sw, in_w - 1);
        for (oc = 0; oc < out_c; oc++) {
          const float *f_oc = filter + (size_t)oc * filter_size;
          float acc = 0.0f;
          int32_t iy;
          for (iy = iy0; iy <= iy1; iy++) {
            const int32_t fy = ty - iy * sh;
            int32_t ix;
            for (ix = ix0; ix <= ix1; ix++) {
              const int32_t fx = tx - ix * sw;
              const float *ip = in_b + ((size_t)iy * in_w + ix) * in_c;
              const float *fp = f_oc + (fy * fw + fx) * in_c;
              int32_t c;
              for (c = 0; c < in_c; c++) acc += ip[c] * fp[c];
            }
          }
          if (bias) acc += bias[oc];
          *output++ = aot_clamp_f32(acc, act_min, act_max);
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}
