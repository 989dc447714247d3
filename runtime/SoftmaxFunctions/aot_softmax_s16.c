/* aot_softmax_s16.c - SOFTMAX int16 (reference_ops SoftmaxInt16, TFLM):
 * exp of the rescaled row differences and the reciprocal of their sum come
 * from two 513-entry interpolated tables; output Q0.15 (zero point 0). The
 * exp values are staged in the output row. */
#include "aot_elementwise.h"

int32_t aot_softmax_s16(const aot_softmax_params *p, const int16_t *in, int16_t *out) {
  const int32_t depth = p->depth;
  int32_t r, c;
  if (!p->exp_lut || !p->one_over_one_plus_x_lut) return AOT_KERNEL_BAD_PARAM;
  for (r = 0; r < p->outer; r++) {
    const int16_t *x = in + (size_t)r * (size_t)depth;
    int16_t *y = out + (size_t)r * (size_t)depth;
    int32_t max_in_row = INT16_MIN, sum = 0, shifted_sum, recip;
    int headroom_plus_one, right_shift;
    int64_t round;
    for (c = 0; c < depth; c++)
      if (x[c] > max_in_row) max_in_row = x[c];
    for (c = 0; c < depth; c++) {
      const int32_t diff = (int32_t)x[c] - max_in_row;
      const int32_t scaled = aot_mbqm(diff, p->input_mult, p->input_left_shift);
      const int32_t sym = aot_clamp_i32(scaled + 32767, INT16_MIN, INT16_MAX);
      const int16_t e = aot_lut16_lookup((int16_t)sym, p->exp_lut);
      y[c] = e;
      sum += e;
    }
    if (sum <= 0) { /* cannot happen with a valid exp table */
      for (c = 0; c < depth; c++) y[c] = 0;
      continue;
    }
    headroom_plus_one = aot_clz32((uint32_t)sum);
    shifted_sum =
        (int32_t)((((int64_t)sum << (headroom_plus_one - 1)) + (1 << 13)) >> 14);
    recip = aot_lut16_lookup(
        (int16_t)aot_clamp_i32(shifted_sum - ((1 << 15) + (1 << 16)), INT16_MIN, INT16_MAX),
        p->one_over_one_plus_x_lut);
    right_shift = 31 - headroom_plus_one;
    round = (int64_t)1 << (right_shift - 1);
    for (c = 0; c < depth; c++) {
      const int64_t v = aot_asr_i64((int64_t)y[c] * recip + round, right_shift);
      y[c] = (int16_t)(v < 0 ? 0 : (v > 32767 ? 32767 : v));
    }
  }
  return AOT_KERNEL_OK;
}
