/* aot_dequantize_pc.c - DEQUANTIZE with per-channel quantization (int8 and
 * int16): out = scale[c] * (x - zero_point[c]) along the quantized dimension
 * (reference_ops PerChannelDequantize); the tensor is viewed as
 * [outer, channels, inner]. */
#include "aot_elementwise.h"

int32_t aot_dequantize_pc_s8(const aot_dequantize_pc_params *p, const int8_t *in, float *out) {
  int32_t o, c, i;
  size_t k = 0;
  for (o = 0; o < p->outer; o++)
    for (c = 0; c < p->channels; c++) {
      const float s = p->scales[c];
      const int32_t zp = p->zero_points[c];
      if (zp < INT8_MIN || zp > INT8_MAX) return AOT_KERNEL_BAD_PARAM;
      for (i = 0; i < p->inner; i++, k++) out[k] = s * (float)((int32_t)in[k] - zp);
    }
  return AOT_KERNEL_OK;
}

int32_t aot_dequantize_pc_s16(const aot_dequantize_pc_params *p, const int16_t *in,
                              float *out) {
  int32_t o, c, i;
  size_t k = 0;
  for (o = 0; o < p->outer; o++)
    for (c = 0; c < p->channels; c++) {
      const float s = p->scales[c];
      const int32_t zp = p->zero_points[c];
      if (zp < INT16_MIN || zp > INT16_MAX) return AOT_KERNEL_BAD_PARAM;
      for (i = 0; i < p->inner; i++, k++) out[k] = s * (float)((int32_t)in[k] - zp);
    }
  return AOT_KERNEL_OK;
}
