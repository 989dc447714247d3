/* aot_dequantize_s8.c - DEQUANTIZE int8_t -> float32: scale * (x - zero
 * point). The product of a float and an integer below 2^24 is rounded once,
 * exactly as the reference's double product rounded to float. */
#include "aot_elementwise.h"

int32_t aot_dequantize_s8(const aot_dequantize_params *p, const int8_t *in, float *out) {
  const float scale = p->scale;
  const int32_t zp = p->zero_point;
  int32_t i;
  /* x - zero point must not overflow int32 */
  if (zp < INT8_MIN || zp > INT8_MAX) return AOT_KERNEL_BAD_PARAM;
  for (i = 0; i < p->size; i++) out[i] = scale * (float)((int32_t)in[i] - zp);
  return AOT_KERNEL_OK;
}
