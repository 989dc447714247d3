/* aot_fc_s8.c - FULLY_CONNECTED int8, as the TFLite reference
 * FullyConnected / FullyConnectedPerChannel: acc(int32) = sum w * (x +
 * input_offset) + bias, requantized with one multiplier (per-tensor) or one
 * per output channel. Weight zero points are 0. */
#include "aot_conv.h"

int32_t aot_fc_s8(const aot_fc_params *p, const int8_t *input,
                  const int8_t *weights, const int32_t *bias, int8_t *output) {
  const int32_t depth = p->in_depth, out_depth = p->out_depth;
  const int32_t in_off = p->input_offset, out_off = p->output_offset;
  const int32_t act_min = p->act_min, act_max = p->act_max;
  const int32_t mstep = p->per_channel ? 1 : 0;
  int32_t b;

  for (b = 0; b < p->batches; b++) {
    const int8_t *in_row = input + (size_t)b * depth;
    const int8_t *w = weights;
    const int32_t *mult = p->out_mult, *shift = p->out_shift;
    int32_t oc;
    for (oc = 0; oc < out_depth; oc++) {
      int32_t acc = 0, d;
      for (d = 0; d < depth; d++) acc += w[d] * (in_row[d] + in_off);
      w += depth;
      if (bias) acc += bias[oc];
      acc = aot_mbqm(acc, *mult, *shift) + out_off;
      mult += mstep;
      shift += mstep;
      *output++ = (int8_t)aot_clamp_i32(acc, act_min, act_max);
    }
  }
  return AOT_KERNEL_OK;
}
