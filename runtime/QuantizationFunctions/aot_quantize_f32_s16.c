/* aot_quantize_f32_s16.c - QUANTIZE float32 -> int16_t (reference_ops
 * AffineQuantize): round(x / scale) half away from zero, plus the zero point,
 * clamped. Out-of-range conversions saturate (NaN gives the zero point). */
#include <math.h>

#include "aot_elementwise.h"

int32_t aot_quantize_f32_s16(const aot_quantize_params *p, const float *in, int16_t *out) {
  const float scale = p->scale;
  int32_t i;
  for (i = 0; i < p->size; i++) {
    const float r = roundf(in[i] / scale);
    int64_t q;
    if (r >= 2147483648.0f) q = INT32_MAX;
    else if (r < -2147483648.0f) q = INT32_MIN;
    else if (r == r) q = (int32_t)r;
    else q = 0;
    q += p->zero_point;
    out[i] = (int16_t)(q < INT16_MIN ? INT16_MIN : (q > INT16_MAX ? INT16_MAX : q));
  }
  return AOT_KERNEL_OK;
}
