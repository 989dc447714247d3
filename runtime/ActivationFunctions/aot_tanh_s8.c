/* aot_tanh_s8.c - TANH int8 (reference_integer_ops Tanh): the input is
 * rescaled to Q4.27, gemmlowp fixed-point tanh gives Q0.31, which is rounded to
 * the output scale 1/128 with zero point 0. */
#include "aot_elementwise.h"

/* With a range radius of 0 (input scale >= 8, where TFLM's
 * floor(15 * 2^27 / 2^left_shift) is 0) the comparisons below send an input
 * equal to the zero point to -128, as TFLM's reference kernel does (LiteRT's
 * optimized kernel gives the midpoint there); aotc follows TFLM. */

int32_t aot_tanh_s8(const aot_sigmoid_s8_params *p, const int8_t *in, int8_t *out) {
  int32_t i;
  /* in - in_zp must not overflow; a radius >= 1 implies left_shift <= 30 */
  if (p->in_zp < INT8_MIN || p->in_zp > INT8_MAX) return AOT_KERNEL_BAD_PARAM;
  if (p->range_radius > 0 && (p->left_shift < 0 || p->left_shift > 30))
    return AOT_KERNEL_BAD_PARAM;
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
