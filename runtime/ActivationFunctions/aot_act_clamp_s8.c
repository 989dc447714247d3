/* aot_act_clamp_s8.c - clamp int8_t values to [lo, hi] without requantizing
 * (TFLM RELU6 / Relu6Quantized). */
#include "aot_elementwise.h"

int32_t aot_act_clamp_s8(const aot_act_clamp_q_params *p, const int8_t *in, int8_t *out) {
  const int32_t lo = p->lo, hi = p->hi;
  int32_t i;
  for (i = 0; i < p->size; i++) {
    const int32_t x = in[i];
    out[i] = (int8_t)(x > hi ? hi : (x < lo ? lo : x));
  }
  return AOT_KERNEL_OK;
}
