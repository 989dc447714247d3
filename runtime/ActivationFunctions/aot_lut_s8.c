/* aot_lut_s8.c - int8 -> int8 table lookup (quantized ELU and other LUT
 * activations built by aotc): out = table[(uint8_t)in]. */
#include "aot_elementwise.h"

int32_t aot_lut_s8(const aot_lut_s8_params *p, const int8_t *in, int8_t *out) {
  const int8_t *t = p->table;
  int32_t i;
  if (!t) return AOT_KERNEL_BAD_PARAM;
  for (i = 0; i < p->size; i++) out[i] = t[(uint8_t)in[i]];
  return AOT_KERNEL_OK;
}
