/* aot_fc_f32.c - FULLY_CONNECTED float32, as the TFLite reference: products
 * summed in input order, then the bias, then the activation clamp. Four
 * weight rows are accumulated together so each input value is loaded once
 * per four multiply-adds. Helium (aot_f32_simd.h): eight / four output
 * channels in vector lanes, the weights by gather loads (aot_f32_mve_oc);
 * each channel sums in input order (fused multiply-adds). */
#include "aot_conv.h"
#include "aot_f32_simd.h"

#ifdef AOT_F32_MVE
#define AOT_FC_F32_MVE 1
#endif

int32_t aot_fc_f32(const aot_fc_params *p, const float *input,
                   const float *weights, const float *bias, float *output) {
  const int32_t depth = p->in_depth, out_depth = p->out_depth;
  const float lo = p->act_min_f, hi = p->act_max_f;
  int32_t b;

  for (b = 0; b < p->batches; b++) {
    const float *in_row = input + (size_t)b * depth;
    const float *in_end = in_row + depth;
    const float *w = weights;
    int32_t oc = 0;
#ifdef AOT_F32_MVE
    aot_f32_win wn;
    wn.in = in_row;
    wn.rows = wn.nseg = 1;
    wn.seg = wn.frow = depth;
    wn.seg_step = 0;
    wn.row_step = 0;
    oc = aot_f32_mve_oc(&wn, weights, depth, out_depth, bias, lo, hi, output);
    w += (size_t)oc * depth;
    output += oc;
#endif
    for (; oc + 4 <= out_depth; oc += 4) {
      float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
      const float *q = in_row;
      while (q < in_end) {
        const float x = *q++;
        AOT_F32_MLA(a0, x, w[0]);
        AOT_F32_MLA(a1, x, w[depth]);
        AOT_F32_MLA(a2, x, w[2 * depth]);
        AOT_F32_MLA(a3, x, w[3 * depth]);
        w++;
      }
      w += 3 * depth;
      aot_f32_out4(output, bias ? bias + oc : bias, a0, a1, a2, a3, lo, hi);
      output += 4;
    }
    for (; oc < out_depth; oc++) {
      float acc = 0.0f;
      const float *q = in_row;
      for (; q < in_end; q++, w++) AOT_F32_MLA(acc, *q, *w);
      if (bias) acc += bias[oc];
      *output++ = aot_clamp_f32(acc, lo, hi);
    }
  }
  return AOT_KERNEL_OK;
}
