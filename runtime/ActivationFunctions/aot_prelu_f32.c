/* aot_prelu_f32.c - PRELU float32: x >= 0 ? x : x * alpha (broadcast). */
#include "aot_elementwise.h"

AOT_INLINE float aot_prelu_f32_elem(const aot_bcast_params *p, float x, float a) {
  (void)p;
  return x >= 0.0f ? x : x * a;
}

int32_t aot_prelu_f32(const aot_bcast_params *p, const float *in, const float *alpha,
                      float *out) {
  AOT_EW_BINARY(&p->bc, in, alpha, out, aot_prelu_f32_elem, p);
  return AOT_KERNEL_OK;
}
