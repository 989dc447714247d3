/* aot_leaky_relu_s16.c - LEAKY_RELU int16 (reference_ops QuantizeLeakyRelu):
 * identity multiplier for x >= zero point, alpha multiplier below. */
#include "aot_elementwise.h"

int32_t aot_leaky_relu_s16(const aot_leaky_relu_q_params *p, const int16_t *in, int16_t *out) {
  int32_t i;
  for (i = 0; i < p->size; i++) {
    const int32_t x = (int32_t)in[i] - p->in_zp;
    const int32_t v = p->out_zp + (x >= 0 ? aot_mbqm(x, p->mult_identity, p->shift_identity)
                                          : aot_mbqm(x, p->mult_alpha, p->shift_alpha));
    out[i] = (int16_t)aot_clamp_i32(v, INT16_MIN, INT16_MAX);
  }
  return AOT_KERNEL_OK;
}
