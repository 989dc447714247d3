/* aot_relu_s8.c - RELU family int8_t (TFLite ReluQuantized): requantize to
 * the output scale, then clamp to [act_min, act_max]. */
#include "aot_elementwise.h"

int32_t aot_relu_s8(const aot_relu_q_params *p, const int8_t *in, int8_t *out) {
  int32_t i;
  for (i = 0; i < p->size; i++) {
    int32_t v = p->out_zp + aot_mbqm((int32_t)in[i] - p->in_zp, p->mult, p->shift);
    v = v < p->act_min ? p->act_min : v;
    v = v > p->act_max ? p->act_max : v;
    out[i] = (int8_t)v;
  }
  return AOT_KERNEL_OK;
}
