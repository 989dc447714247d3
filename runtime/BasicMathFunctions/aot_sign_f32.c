/* aot_sign_f32.c - SIGN float32: 1 for x > 0, -1 for x < 0, 0 otherwise (so
 * 0 for +-0 and NaN), as TFLite's (0 < x) - (x < 0). */
#include "aot_elementwise.h"

int32_t aot_sign_f32(const aot_unary_params *p, const float *in, float *out) {
  int32_t i;
  for (i = 0; i < p->size; i++) {
    const float x = in[i];
    out[i] = (float)((x > 0.0f) - (x < 0.0f));
  }
  return AOT_KERNEL_OK;
}
