/* aot_hard_swish_f32.c - HARD_SWISH float32: x * min(6, max(0, x + 3)) / 6. */
#include "aot_elementwise.h"

int32_t aot_hard_swish_f32(const aot_unary_params *p, const float *in, float *out) {
  int32_t i;
  for (i = 0; i < p->size; i++) {
    const float x = in[i];
    float r = x + 3.0f;
    r = r < 0.0f ? 0.0f : r;       /* std::max(0, x + 3) */
    r = 6.0f < r ? 6.0f : r;       /* std::min(6, .) */
    out[i] = x * r / 6.0f;
  }
  return AOT_KERNEL_OK;
}
