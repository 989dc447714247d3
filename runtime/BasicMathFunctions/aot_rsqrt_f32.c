/* aot_rsqrt_f32.c - RSQRT float32: 1 / sqrtf(x) (as TFLite). */
#include <math.h>

#include "aot_elementwise.h"

int32_t aot_rsqrt_f32(const aot_unary_params *p, const float *in, float *out) {
  int32_t i;
  for (i = 0; i < p->size; i++) {
    const float x = in[i];
    out[i] = 1.0f / sqrtf(x);
  }
  return AOT_KERNEL_OK;
}
