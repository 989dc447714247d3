/* aot_tconv2d_s8.c - TRANSPOSE_CONV int8 (per-channel requantization).
 *
 * The TFLite reference scatters (x + input_offset) * w into an int32 buffer
 * of the output's size, then adds the bias and requantizes. Here each output
 * element gathers the same products directly (input rows/cols that reach it,
 * ascending), so the sums are identical and no scratch buffer is needed. */
#include "aot_conv.h"

int32_t aot_tconv2d_s8(const aot_conv_params *p, const int8_t *input,
                       const int8_t *filter, const int32_t *bias, int8_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c;
  const int32_t out_h = p->out_h, out_w = p->out_w, out_c = p->out_c;
  const int32_t fh = p->filter_h, fw = p->filter_w;
  const int32_t sh = p->stride_h, sw = p->stride_w;
  const int32_t in_off = p->input_offset, out_off = p->output_offset;
  const int32_t act_min = p->act_min, act_max = p->act_max;
  const int32_t filter_size = fh * fw * in_c;
  int32_t b, oy, ox, oc;

  if (sh <= 0 || sw <= 0 || p->pad_h < 0 || p->pad_w < 0 || p->filter_in_c != in_c)
    return AOT_KERNEL_BAD_PARAM;

  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + (size_t)b * in_h * in_w * in_c;
    for (oy = 0; oy < out_h; oy++) {
      const int32_t ty = oy + p->pad_h;
      const int32_t iy0 = ty - fh + 1 <= 0 ? 0 : (ty - fh + sh) / sh;
      const int32_t iy1 = aot_min_i32(ty / sh, in_h - 1);
      for (ox = 0; ox < out_w; ox++) {
        const int32_t tx = ox + p->pad_w;
        const int32_t ix0 = tx - fw + 1 <= 0 ? 0 : (tx - fw + sw) / sw;
        const int32_t ix1 = aot_min_i32(tx / sw, in_w - 1);
        for (oc = 0; oc < out_c; oc++) {
          const int8_t *f_oc = filter + (size_t)oc * filter_size;
          int32_t acc = 0, iy;
          for (iy = iy0; iy <= iy1; iy++) {
            const int32_t fy = ty - iy * sh;
            int32_t ix;
            for (ix = ix0; ix <= ix1; ix++) {
              const int32_t fx = tx - ix * sw;
              const int8_t *ip = in_b + ((size_t)iy * in_w + ix) * in_c;
              const int8_t *fp = f_oc + (fy * fw + fx) * in_c;
              int32_t c;
              for (c = 0; c < in_c; c++) acc += (ip[c] + in_off) * fp[c];
            }
          }
          if (bias) acc += bias[oc];
          acc = aot_conv_mbqm(acc, p->out_mult[oc], p->out_shift[oc]) + out_off;
          *output++ = (int8_t)aot_clamp_i32(acc, act_min, act_max);
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}
