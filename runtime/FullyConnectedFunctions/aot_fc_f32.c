/* aot_fc_f32.c - FULLY_CONNECTED float32, as the TFLite reference: products
 * summed in input order, then the bias, then the activation clamp. A batch
 * row is a convolution window of one run (aot_f32_oc of aot_f32_simd.h):
 * four weight rows accumulated together so each input value is loaded once
 * per four multiply-adds; on Helium eight / four output channels in vector
 * lanes, the weights by gather loads, each channel summed in input order
 * (fused multiply-adds). */
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

  aot_f32_win wn; /* one batch row: a window of one run of depth values */
  wn.rows = wn.nseg = 1;
  wn.seg = wn.frow = depth;
  wn.seg_step = 0;
  wn.row_step = 0;
  for (b = 0; b < p->batches; b++) {
    wn.in = input + (size_t)b * depth;
    aot_f32_oc(&wn, weights, depth, out_depth, bias, lo, hi, output + (size_t)b * out_depth);
  }
  return AOT_KERNEL_OK;
}
