/* aot_requant_rows.h - the body of the kernels that copy a CONCATENATION
 * input whose quantization differs from the output's (TFLite
 * ConcatenationWithScaling arithmetic, float), one template for every
 * integer type. A kernel file defines AOT_RR_NAME (the function), AOT_RR_T
 * (the element type) and AOT_RR_MIN / AOT_RR_MAX (its range), then includes
 * this file. */
#include <math.h>

#include "aot_movement.h"

int32_t AOT_RR_NAME(const aot_requant_rows_params *p, const AOT_RR_T *input, AOT_RR_T *output) {
  int32_t r, i;
  if (p->rows < 0 || p->len < 0) return AOT_KERNEL_BAD_PARAM;
  for (r = 0; r < p->rows; r++) {
    const AOT_RR_T *s = input + (long)r * p->len;
    AOT_RR_T *d = output + p->out_offset + (long)r * p->out_row_stride;
    for (i = 0; i < p->len; i++) {
      float v = roundf((float)s[i] * p->scale + p->bias);
      int32_t q;
      /* bound in float first so the conversion and the add are defined */
      if (v < -16777216.0f) v = -16777216.0f;
      if (v > 16777216.0f) v = 16777216.0f;
      q = (int32_t)v + p->out_zp;
      d[i] = (AOT_RR_T)aot_clamp_i32(q, AOT_RR_MIN, AOT_RR_MAX);
    }
  }
  return AOT_KERNEL_OK;
}

#undef AOT_RR_NAME
#undef AOT_RR_T
#undef AOT_RR_MIN
#undef AOT_RR_MAX
