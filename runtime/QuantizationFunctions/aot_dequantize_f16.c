/* aot_dequantize_f16.c - DEQUANTIZE float16 -> float32: exact conversion
 * of IEEE binary16 bit patterns, including subnormals, infinities and NaN
 * payloads (aot_f16_to_f32, aot_f16.h). */
#include "aot_elementwise.h"
#include "aot_f16.h"

int32_t aot_dequantize_f16(const aot_unary_params *p, const uint16_t *in, float *out) {
  int32_t i;
  for (i = 0; i < p->size; i++) out[i] = aot_f16_to_f32(in[i]);
  return AOT_KERNEL_OK;
}
