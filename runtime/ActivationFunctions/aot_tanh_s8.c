/* aot_tanh_s8.c - TANH int8 (reference_integer_ops Tanh): the input is
 * rescaled to Q4.27, gemmlowp fixed-point tanh gives Q0.31, which is rounded to
 * the output scale 1/128 with zero point 0. */
#include "aot_elementwise.h"

int32_t aot_tanh_s8(const aot_sigmoid_s8_params *p, const int8_t *in, int8_t *out) {
  int32_t i;
  for (i = 0; i < p->size; i++) {
    const int32_t x = (int32_t)in[i] - p->in_zp;
    if (x <= -p->range_radius) {
      out[i] = INT8_MIN;
    } else if (x >= p->range_radius) {
      out[i] = INT8_MAX;
    } else {
      const int32_t q4 = aot_mbqm(x, p->mult, p->left_shift);
      const int32_t q0 = aot_fx_tanh(q4, 4);
      const int32_t v = aot_rdbpot(q0, 31 - 7);
      out[i] = (int8_t)aot_clamp_i32(v, INT8_MIN, INT8_MAX);
    }
  }
  return AOT_KERNEL_OK;
}
