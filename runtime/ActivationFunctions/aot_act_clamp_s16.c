/* aot_act_clamp_s16.c - clamp int16_t values to [lo, hi] without requantizing
 * (TFLM RELU6 / Relu6Quantized). */
#include "aot_elementwise.h"

int32_t aot_act_clamp_s16(const aot_act_clamp_q_params *p, const int16_t *in, int16_t *out) {
  const int32_t lo = p->lo, hi = p->hi;
  int32_t i;
  for (i = 0; i < p->size; i++) {
    const int32_t x = in[i];
    out[i] = (int16_t)(x > hi ? hi : (x < lo ? lo : x));
  }
  return AOT_KERNEL_OK;
}
