/* aot_fc_s16.c - FULLY_CONNECTED int16x8 (int16 activations, int8 weights,
 * int64 bias), as the TFLite reference FullyConnected<int64_t>: int64
 * accumulator and aot_mbqm64. Zero points are 0. Two weight rows are
 * accumulated together. */
#include "aot_conv.h"

int32_t aot_fc_s16(const aot_fc_params *p, const int16_t *input,
                   const int8_t *weights, const int64_t *bias, int16_t *output) {
  const int32_t depth = p->in_depth, out_depth = p->out_depth;
  const int32_t lo = p->act_min, hi = p->act_max;
  const int32_t ms = p->per_channel ? 1 : 0;
  const int32_t *mult = p->out_mult, *shift = p->out_shift;
  int32_t b;

  for (b = 0; b < p->batches; b++) {
    const int16_t *in_row = input + (size_t)b * depth;
    const int16_t *in_end = in_row + depth;
    const int8_t *w = weights;
    int32_t oc = 0;
    for (; oc + 2 <= out_depth; oc += 2) {
      int64_t a0 = 0, a1 = 0;
      const int16_t *q = in_row;
      while (q < in_end) {
        const int32_t x = *q++;
        a0 += w[0] * x;
        a1 += w[depth] * x;
        w++;
      }
      w += depth;
      if (bias) {
        a0 += bias[oc];
        a1 += bias[oc + 1];
      }
      output[0] = (int16_t)aot_clamp_i32(aot_mbqm64(a0, mult[oc * ms], shift[oc * ms]), lo, hi);
      output[1] = (int16_t)aot_clamp_i32(
          aot_mbqm64(a1, mult[(oc + 1) * ms], shift[(oc + 1) * ms]), lo, hi);
      output += 2;
    }
    for (; oc < out_depth; oc++) {
      int64_t acc = 0;
      const int16_t *q = in_row;
      while (q < in_end) acc += (int32_t)*w++ * *q++;
      if (bias) acc += bias[oc];
      *output++ = (int16_t)aot_clamp_i32(aot_mbqm64(acc, mult[oc * ms], shift[oc * ms]), lo, hi);
    }
  }
  return AOT_KERNEL_OK;
}
