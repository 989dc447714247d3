/* aot_fc_s8.c - FULLY_CONNECTED int8, as the TFLite reference
 * FullyConnected / FullyConnectedPerChannel: acc(int32) = sum w * (x +
 * input_offset) + bias, requantized with one multiplier (per-tensor) or one
 * per output channel. Weight zero points are 0. Four weight rows are
 * accumulated together so each input value is loaded once per four MACs. */
#include "aot_conv.h"

AOT_INLINE int8_t aot_fc_s8_out(int32_t acc, const int32_t *bias, int32_t oc, int32_t mult,
                                int32_t shift, int32_t out_off, int32_t lo, int32_t hi) {
  if (bias) acc += bias[oc];
  return (int8_t)aot_clamp_i32(aot_conv_mbqm(acc, mult, shift) + out_off, lo, hi);
}

int32_t aot_fc_s8(const aot_fc_params *p, const int8_t *input,
                  const int8_t *weights, const int32_t *bias, int8_t *output) {
  const int32_t depth = p->in_depth, out_depth = p->out_depth;
  const int32_t in_off = p->input_offset, out_off = p->output_offset;
  const int32_t lo = p->act_min, hi = p->act_max;
  const int32_t ms = p->per_channel ? 1 : 0;
  const int32_t *mult = p->out_mult, *shift = p->out_shift;
  int32_t b;

  for (b = 0; b < p->batches; b++) {
    const int8_t *in_row = input + (size_t)b * depth;
    const int8_t *in_end = in_row + depth;
    const int8_t *w = weights;
    int32_t oc = 0;
    for (; oc + 4 <= out_depth; oc += 4) {
      int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
      const int8_t *q = in_row;
      while (q < in_end) {
        const int32_t x = *q++ + in_off;
        a0 += w[0] * x;
        a1 += w[depth] * x;
        a2 += w[2 * depth] * x;
        a3 += w[3 * depth] * x;
        w++;
      }
      w += 3 * depth;
      output[0] = aot_fc_s8_out(a0, bias, oc, mult[oc * ms], shift[oc * ms], out_off, lo, hi);
      output[1] = aot_fc_s8_out(a1, bias, oc + 1, mult[(oc + 1) * ms], shift[(oc + 1) * ms],
                                out_off, lo, hi);
      output[2] = aot_fc_s8_out(a2, bias, oc + 2, mult[(oc + 2) * ms], shift[(oc + 2) * ms],
                                out_off, lo, hi);
      output[3] = aot_fc_s8_out(a3, bias, oc + 3, mult[(oc + 3) * ms], shift[(oc + 3) * ms],
                                out_off, lo, hi);
      output += 4;
    }
    for (; oc < out_depth; oc++) {
      int32_t acc = 0;
      const int8_t *q = in_row;
      while (q < in_end) acc += *w++ * (*q++ + in_off);
      *output++ = aot_fc_s8_out(acc, bias, oc, mult[oc * ms], shift[oc * ms], out_off, lo, hi);
    }
  }
  return AOT_KERNEL_OK;
}
