/* aot_fc_f32.c - FULLY_CONNECTED float32, as the TFLite reference: products
 * summed in input order, then bias, then the activation clamp. */
#include "aot_conv.h"

int32_t aot_fc_f32(const aot_fc_params *p, const float *input,
                   const float *weights, const float *bias, float *output) {
  const int32_t depth = p->in_depth, out_depth = p->out_depth;
  const float act_min = p->act_min_f, act_max = p->act_max_f;
  int32_t b;

  for (b = 0; b < p->batches; b++) {
    const float *in_row = input + (size_t)b * depth;
    const float *w = weights;
    int32_t oc;
    for (oc = 0; oc < out_depth; oc++) {
      float acc = 0.0f;
      int32_t d;
      for (d = 0; d < depth; d++) acc += in_row[d] * w[d];
      w += depth;
      if (bias) acc += bias[oc];
      *output++ = aot_clamp_f32(acc, act_min, act_max);
    }
  }
  return AOT_KERNEL_OK;
}
