/* aot_floor_f32.c - FLOOR float32: floorf(x). */
#include <math.h>

#include "aot_elementwise.h"

int32_t aot_floor_f32(const aot_unary_params *p, const float *in, float *out) {
  int32_t i;
  for (i = 0; i < p->size; i++) {
    const float x = in[i];
    out[i] = floorf(x);
  }
  return AOT_KERNEL_OK;
}
