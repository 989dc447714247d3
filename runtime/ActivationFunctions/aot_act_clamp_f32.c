/* aot_act_clamp_f32.c - RELU / RELU6 / RELU_N1_TO_1 float32: clamp to
 * [lo, hi] (val < lo ? lo : val, then val > hi ? hi : val). */
#include "aot_elementwise.h"

int32_t aot_act_clamp_f32(const aot_act_clamp_f32_params *p, const float *in, float *out) {
  const float lo = p->lo, hi = p->hi;
  int32_t i;
  for (i = 0; i < p->size; i++) {
    const float x = in[i];
    out[i] = x > hi ? hi : (x < lo ? lo : x);
  }
  return AOT_KERNEL_OK;
}
