/* aot_requant_rows_s8.c - CONCATENATION input with a different quantization
 * than the output (TFLite ConcatenationWithScaling arithmetic, float). */
#include <math.h>

#include "aot_movement.h"

int32_t aot_requant_rows_s8(const aot_requant_rows_params *p, const int8_t *input,
                            int8_t *output) {
  int32_t r, i;
  if (p->rows < 0 || p->len < 0) return AOT_KERNEL_BAD_PARAM;
  for (r = 0; r < p->rows; r++) {
    const int8_t *s = input + (long)r * p->len;
    int8_t *d = output + p->out_offset + (long)r * p->out_row_stride;
    for (i = 0; i < p->len; i++) {
      float v = roundf((float)s[i] * p->scale + p->bias);
      int32_t q;
      /* bound in float first so the conversion and the add are defined */
      if (v < -16777216.0f) v = -16777216.0f;
      if (v > 16777216.0f) v = 16777216.0f;
      q = (int32_t)v + p->out_zp;
      d[i] = (int8_t)aot_clamp_i32(q, -128, 127);
    }
  }
  return AOT_KERNEL_OK;
}
