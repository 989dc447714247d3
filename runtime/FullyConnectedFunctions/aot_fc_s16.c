/* aot_fc_s16.c - FULLY_CONNECTED int16x8 (int16 activations, int8 weights,
 * int64 bias), as the TFLite reference FullyConnected<int64_t>: int64
 * accumulator and aot_mbqm64. Zero points are 0. Two weight rows are
 * accumulated together.
 *
 * Helium and Arm DSP builds take aot_fc_s16_simd instead: four weight rows
 * per pass over the input row (aot_fc16_dot4, aot_fc16_simd.h: exact int32
 * partial sums added into int64), then one row at a time, and the exact
 * two-step form of aot_mbqm64 with the bias folded in (aot_s16_out,
 * aot_s16_rq.h); rows shorter than 8 inputs take a plain int32 loop. */
#include "aot_conv.h"
#include "aot_fc16_simd.h"

#if defined(AOT_FC16_MVE)
#define AOT_FC_S16_MVE 1
#elif defined(AOT_FC16_DSP)
#define AOT_FC_S16_DSP 1
#endif

#if defined(AOT_FC_S16_MVE) || defined(AOT_FC_S16_DSP)
static int32_t aot_fc_s16_simd(const aot_fc_params *p, const int16_t *input,
                               const int8_t *weights, const int64_t *bias, int16_t *output) {
  const int32_t depth = p->in_depth, out_depth = p->out_depth;
  const int32_t lo = p->act_min, hi = p->act_max;
  const int32_t ms = p->per_channel ? 1 : 0;
  aot_s16_rq q;
  int32_t b;

  for (b = 0; b < p->batches; b++) {
    const int16_t *in_row = input + (size_t)b * depth;
    const int8_t *w = weights;
    int32_t oc = 0, r;
    for (; depth < 8 && oc < out_depth; oc++) {   /* short rows: no call per row */
      int32_t sum = 0, k;
      for (k = 0; k < depth; k++) sum += *w++ * in_row[k];   /* exact: depth < 511 */
      q = aot_s16_rq_of(p->out_mult[oc * ms], p->out_shift[oc * ms], bias ? bias[oc] : 0);
      *output++ = aot_s16_out32(sum, &q, lo, hi);
    }
    for (; oc + 4 <= out_depth; oc += 4, w += 4 * (size_t)depth) {
      int64_t acc[4];
      aot_fc16_dot4(in_row, w, depth, depth, acc);
      for (r = 0; r < 4; r++) {
        const int32_t c = oc + r;
        q = aot_s16_rq_of(p->out_mult[c * ms], p->out_shift[c * ms], bias ? bias[c] : 0);
        *output++ = aot_s16_out(acc[r], &q, 0, NULL, NULL, NULL, lo, hi);
      }
    }
    for (; oc < out_depth; oc++, w += depth) {
      q = aot_s16_rq_of(p->out_mult[oc * ms], p->out_shift[oc * ms], bias ? bias[oc] : 0);
      *output++ = aot_s16_out(aot_fc16_dot1(in_row, w, depth), &q, 0, NULL, NULL, NULL, lo, hi);
    }
  }
  return AOT_KERNEL_OK;
}
#else
static int32_t aot_fc_s16_port(const aot_fc_params *p, const int16_t *input,
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
#endif

int32_t aot_fc_s16(const aot_fc_params *p, const int16_t *input,
                   const int8_t *weights, const int64_t *bias, int16_t *output) {
#if defined(AOT_FC_S16_MVE) || defined(AOT_FC_S16_DSP)
  return aot_fc_s16_simd(p, input, weights, bias, output);
#else
  return aot_fc_s16_port(p, input, weights, bias, output);
#endif
}
