/* aot_fc_s16.c - FULLY_CONNECTED int16x8 (int16 activations, int8 weights,
 * int64 bias), as the TFLite reference FullyConnected<int64_t>: int64
 * accumulator and aot_mbqm64. Zero points are 0. */
#include "aot_conv.h"

int32_t aot_fc_s16(const aot_fc_params *p, const int16_t *input,
                   const int8_t *weights, const int64_t *bias, int16_t *output) {
  const int32_t depth = p->in_depth, out_depth = p->out_depth;
  const int32_t act_min = p->act_min, act_max = p->act_max;
  const int32_t mstep = p->per_channel ? 1 : 0;
  int32_t b;

  for (b = 0; b < p->batches; b++) {
    const int16_t *in_row = input + (size_t)b * depth;
    const int8_t *w = weights;
    const int32_t *mult = p->out_mult, *shift = p->out_shift;
    int32_t oc;
    for (oc = 0; oc < out_depth; oc++) {
      int64_t acc = 0;
      int32_t d, r;
      for (d = 0; d < depth; d++) acc += (int32_t)w[d] * in_row[d];
      w += depth;
      if (bias) acc += bias[oc];
      r = aot_mbqm64(acc, *mult, *shift);
      mult += mstep;
      shift += mstep;
      *output++ = (int16_t)aot_clamp_i32(r, act_min, act_max);
    }
  }
  return AOT_KERNEL_OK;
}
