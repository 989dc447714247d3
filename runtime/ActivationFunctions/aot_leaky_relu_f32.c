/* aot_leaky_relu_f32.c - LEAKY_RELU float32: x > 0 ? x : x * alpha. */
#include "aot_elementwise.h"

int32_t aot_leaky_relu_f32(const aot_leaky_relu_f32_params *p, const float *in, float *out) {
  const float alpha = p->alpha;
  int32_t i;
  for (i = 0; i < p->size; i++) {
    const float x = in[i];
    out[i] = x > 0.0f ? x : x * alpha;
  }
  return AOT_KERNEL_OK;
}
