/* aot_dequantize_f16.c - DEQUANTIZE float16 -> float32: exact conversion
 * of IEEE binary16 bit patterns, including subnormals, infinities and NaN
 * payloads. */
#include <string.h>

#include "aot_elementwise.h"

int32_t aot_dequantize_f16(const aot_unary_params *p, const uint16_t *in, float *out) {
  int32_t i;
  for (i = 0; i < p->size; i++) {
    const uint32_t h = in[i];
    const uint32_t sign = (h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t mant = h & 0x3FFu;
    uint32_t bits;
    if (exp == 0) {
      if (mant == 0) {
        bits = sign; /* signed zero */
      } else {       /* subnormal: normalize */
        uint32_t e = 113; /* 127 - 14 */
        while (!(mant & 0x400u)) {
          mant <<= 1;
          e--;
        }
        bits = sign | (e << 23) | ((mant & 0x3FFu) << 13);
      }
    } else if (exp == 31) {
      bits = sign | 0x7F800000u | (mant << 13); /* inf / NaN */
    } else {
      bits = sign | ((exp + 112u) << 23) | (mant << 13);
    }
    memcpy(&out[i], &bits, sizeof bits);
  }
  return AOT_KERNEL_OK;
}
