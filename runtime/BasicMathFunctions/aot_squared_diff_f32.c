/* aot_squared_diff_f32.c - SQUARED_DIFFERENCE float32: (a - b) * (a - b). */
#include "aot_elementwise.h"

AOT_INLINE float aot_sqdiff_elem(const aot_bcast_params *p, float a, float b) {
  const float d = a - b;
  (void)p;
  return d * d;
}

int32_t aot_squared_diff_f32(const aot_bcast_params *p, const float *in1, const float *in2,
                             float *out) {
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_sqdiff_elem, p);
  return AOT_KERNEL_OK;
}
