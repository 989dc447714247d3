/* aot_abs_s8.c - ABS int8_t (TFLM AbsEvalQuantized): |x - in_zp| rescaled to
 * the output scale, plus the output zero point, clamped to [act_min, act_max]
 * (the type range). Same-scale tensors use the exact multiplier 1. */
#include "aot_elementwise.h"

int32_t aot_abs_s8(const aot_relu_q_params *p, const int8_t *in, int8_t *out) {
  int32_t i;
  for (i = 0; i < p->size; i++) {
    const int32_t d = (int32_t)in[i] - p->in_zp;
    const int32_t v = p->out_zp + aot_mbqm(d < 0 ? -d : d, p->mult, p->shift);
    out[i] = (int8_t)aot_clamp_i32(v, p->act_min, p->act_max);
  }
  return AOT_KERNEL_OK;
}
