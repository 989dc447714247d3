/* aot_fc_hybrid.c - FULLY_CONNECTED with float32 activations and int8
 * weights ("hybrid" / dynamic-range), as the LiteRT runtime runs it (XNNPACK
 * delegate, qd8 dynamically quantized fully connected): each input row is
 * quantized with aot_hybrid_quantize_qd8, acc = sum w * (q - zp) in int32,
 * out = ((float)acc * input_scale) * weight_scale[o] + bias[o], clamped. The dot
 * products are aot_hyb_dot (aot_mvef.h) in the portable build; on Cortex-M4
 * (DSP) and Cortex-M55 (Helium) the rows are a GEMM through the loops of
 * aot_hybrid_simd.h (same int32 sums, same float epilogue). */
#include "aot_conv.h"
#include "aot_mvef.h"
#include "../aot_hybrid_simd.h"

#if defined(AOT_HYBS_MVE)
#define AOT_FC_HYBRID_MVE 1
#elif defined(AOT_HYBS_DSP)
#define AOT_FC_HYBRID_DSP 1
#endif

size_t aot_fc_hybrid_buffer_size(const aot_fc_params *p) {
  return (((size_t)p->in_depth + 7u) & ~(size_t)7u) +
         aot_hybs_scratch((size_t)p->in_depth, (size_t)p->out_depth);
}

int32_t aot_fc_hybrid(const aot_fc_params *p, const aot_hybrid_params *h,
                      const float *input, const int8_t *weights,
                      const float *bias, float *output, void *scratch) {
  const int32_t depth = p->in_depth, out_depth = p->out_depth;
  const float lo = p->act_min_f, hi = p->act_max_f;
  int8_t *q = (int8_t *)scratch;
  int32_t b, o;

  if (!q || !h || !h->filter_scale || depth <= 0) return AOT_KERNEL_BAD_PARAM;
#ifdef AOT_HYBS
  {
    aot_hybs_col *ca, *cb;
    int32_t *wsum;
    aot_hybs_ctx x;
    aot_hybs_split(q + (((size_t)depth + 7u) & ~(size_t)7u), depth, &ca, &cb, &wsum);
    x.w = weights;
    x.k = depth;
    x.n_out = out_depth;
    x.wsum = wsum;
    x.fscale = h->filter_scale;
    x.per_channel = h->per_channel;
    x.bias = bias;
    x.lo = lo;
    x.hi = hi;
    aot_hybs_wsum(weights, depth, out_depth, wsum);
    aot_hybs_gemm(&x, input, (size_t)(p->batches > 0 ? p->batches : 0), q, ca, cb, output);
    return AOT_KERNEL_OK;
  }
#endif

  for (b = 0; b < p->batches; b++) {
    const int8_t *w = weights;
    float in_scale;
    int32_t zp;
    aot_hybrid_quantize_qd8(input + (size_t)b * depth, depth, q, &in_scale, &zp);
    for (o = 0; o < out_depth; o++) {
      const int32_t acc = aot_hyb_dot(w, q, depth, zp);
      float r;
      w += depth;
      r = (float)acc * in_scale;
      r *= h->filter_scale[h->per_channel ? o : 0];
      if (bias) r += bias[o];
      *output++ = aot_clamp_f32(r, lo, hi);
    }
  }
  return AOT_KERNEL_OK;
}
