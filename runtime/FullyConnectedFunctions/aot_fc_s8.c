/* aot_fc_s8.c - FULLY_CONNECTED int8, as the TFLite reference
 * FullyConnected / FullyConnectedPerChannel: acc(int32) = sum w * (x +
 * input_offset) + bias, requantized with one multiplier (per-tensor) or one
 * per output channel. Weight zero points are 0. Four weight rows are
 * accumulated together so each input value is loaded once per four MACs. */
#include "aot_conv.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(AOT_NO_SIMD)
/* Arm Helium (MVE, Cortex-M55): see aot_fc_s8_mve below. */
#include "aot_mve.h"
#define AOT_FC_S8_MVE 1
#elif defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32) && !defined(AOT_NO_SIMD)
/* Arm DSP extension: four int8 inputs per step with SXTB16 + SADD16 (input
 * offset) + SMLAD; the same products and sums as the portable loop. */
#include <arm_acle.h>
#include <string.h>
#include "aot_dsp.h"
#define AOT_FC_S8_DSP 1
/* input taps widened on the stack (two bytes each) */
#define AOT_FC_S8_XW 1024
AOT_INLINE int16x2_t aot_fc_s8_lo(uint32_t v) { return __sxtb16((int8x4_t)v); }
AOT_INLINE int16x2_t aot_fc_s8_hi(uint32_t v) {
  int16x2_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}
AOT_INLINE uint32_t aot_fc_s8_ld4(const int8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
#endif

AOT_INLINE int8_t aot_fc_s8_out(int32_t acc, const int32_t *bias, int32_t oc, int32_t mult,
                                int32_t shift, int32_t out_off, int32_t lo, int32_t hi) {
  if (bias) acc += bias[oc];
  return (int8_t)aot_clamp_i32(aot_conv_mbqm(acc, mult, shift) + out_off, lo, hi);
}

#ifdef AOT_FC_S8_MVE
/* Helium: sum w * (x + input_offset) + bias = sum w * x + ksum with ksum =
 * bias + input_offset * sum w per output channel (int32 arithmetic is
 * modular: the same integer as the portable sum), computed for up to
 * AOT_FC_S8_OCB channels at a time and reused for every batch row (one
 * batch row: the weight sums come from the dot product loop instead).
 * aot_mve_gemv_s8 (aot_mve.h) sums w * x four rows at a time with VMLADAVA
 * (exact) and requantizes with aot_mve_out_s8, bit-identical to
 * aot_conv_mbqm. */
#define AOT_FC_S8_OCB 64
static int32_t aot_fc_s8_mve(const aot_fc_params *p, const int8_t *input,
                             const int8_t *weights, const int32_t *bias, int8_t *output) {
  const int32_t depth = p->in_depth, out_depth = p->out_depth;
  const uint32_t in_off = (uint32_t)p->input_offset;
  int32_t ksum[AOT_FC_S8_OCB];
  aot_mve_gemv gv;
  int32_t c0;

  gv.ksum = p->batches > 1 ? ksum : NULL;
  gv.in_off = p->input_offset;
  gv.per_channel = p->per_channel;
  gv.out_off = p->output_offset;
  gv.lo = p->act_min;
  gv.hi = p->act_max;
  for (c0 = 0; c0 < out_depth; c0 += AOT_FC_S8_OCB) {
    const int32_t nc = out_depth - c0 < AOT_FC_S8_OCB ? out_depth - c0 : AOT_FC_S8_OCB;
    const int8_t *w = weights + (size_t)c0 * depth;
    int32_t j, b;
    gv.bias = bias ? bias + c0 : NULL;
    for (j = 0; gv.ksum && j < nc; j++) {
      const uint32_t t = (uint32_t)aot_mve_sum_s8(w + (size_t)j * depth, depth);
      ksum[j] = (int32_t)((bias ? (uint32_t)bias[c0 + j] : 0u) + t * in_off);
    }
    gv.mult = p->per_channel ? p->out_mult + c0 : p->out_mult;
    gv.shift = p->per_channel ? p->out_shift + c0 : p->out_shift;
    for (b = 0; b < p->batches; b++)
      aot_mve_gemv_s8(input + (size_t)b * depth, w, depth, nc, &gv,
                      output + (size_t)b * out_depth + c0);
  }
  return AOT_KERNEL_OK;
}
#endif

#ifdef AOT_FC_S8_DSP
/* Arm DSP, in_depth <= AOT_FC_S8_XW: each input row is widened once to
 * 16-bit pairs with the input offset added (aot_dsp_widen_off, zero-padded
 * to a multiple of four taps), then four weight rows at a time are summed
 * with SMLAD (aot_dsp_dot4w: the same exact products as the portable
 * loop). The padded last group reads up to three bytes into the next weight
 * row, so the last block of rows sums its last taps in C instead. */
static void aot_fc_s8_dsp(const aot_fc_params *p, const int8_t *input, const int8_t *weights,
                          const int32_t *bias, int8_t *output) {
  const int32_t depth = p->in_depth, out_depth = p->out_depth;
  const int32_t n4 = depth >> 2, k4 = depth & ~3;
  const int32_t out_off = p->output_offset, lo = p->act_min, hi = p->act_max;
  const int32_t in_off = p->input_offset;
  const int32_t ms = p->per_channel ? 1 : 0;
  uint32_t xw[AOT_FC_S8_XW / 2 + 2];
  int32_t b;
  for (b = 0; b < p->batches; b++) {
    const int8_t *x = input + (size_t)b * depth;
    const int8_t *w = weights;
    const int32_t *mult = p->out_mult, *shift = p->out_shift;
    int32_t oc = 0, k;
    aot_dsp_widen_off(x, depth, in_off, xw);
    for (; oc + 4 <= out_depth; oc += 4, w += 4 * depth) {
      int32_t s[4], i;
      for (i = 0; i < 4; i++) s[i] = bias ? bias[oc + i] : 0;
      if (k4 < depth && oc + 4 < out_depth) {
        aot_dsp_dot4w(xw, w, w + depth, w + 2 * depth, w + 3 * depth, n4 + 1, s);
      } else {
        aot_dsp_dot4w(xw, w, w + depth, w + 2 * depth, w + 3 * depth, n4, s);
        for (k = k4; k < depth; k++) {
          const int32_t xv = x[k] + in_off;
          s[0] += w[k] * xv;
          s[1] += w[depth + k] * xv;
          s[2] += w[2 * depth + k] * xv;
          s[3] += w[3 * depth + k] * xv;
        }
      }
      for (i = 0; i < 4; i++) {
        output[oc + i] = aot_dsp_out(s[i], mult[0], shift[0], out_off, lo, hi);
        mult += ms;
        shift += ms;
      }
    }
    for (; oc < out_depth; oc++, w += depth) {
      int32_t acc = bias ? bias[oc] : 0;
      for (k = 0; k < depth; k++) acc += w[k] * (x[k] + in_off);
      output[oc] = aot_dsp_out(acc, mult[0], shift[0], out_off, lo, hi);
      mult += ms;
      shift += ms;
    }
    output += out_depth;
  }
}
#endif

int32_t aot_fc_s8(const aot_fc_params *p, const int8_t *input,
                  const int8_t *weights, const int32_t *bias, int8_t *output) {
#ifdef AOT_FC_S8_MVE
  return aot_fc_s8_mve(p, input, weights, bias, output);
#else
  const int32_t depth = p->in_depth, out_depth = p->out_depth;
  const int32_t in_off = p->input_offset, out_off = p->output_offset;
  const int32_t lo = p->act_min, hi = p->act_max;
  const int32_t ms = p->per_channel ? 1 : 0;
  const int32_t *mult = p->out_mult, *shift = p->out_shift;
  int32_t b;
#ifdef AOT_FC_S8_DSP
  if (depth <= AOT_FC_S8_XW) {
    aot_fc_s8_dsp(p, input, weights, bias, output);
    return AOT_KERNEL_OK;
  }
#endif
#ifdef AOT_FC_S8_DSP
  const int16x2_t off2 =
      (int16x2_t)(((uint32_t)(uint16_t)in_off << 16) | (uint32_t)(uint16_t)in_off);
#endif

  for (b = 0; b < p->batches; b++) {
    const int8_t *in_row = input + (size_t)b * depth;
    const int8_t *in_end = in_row + depth;
    const int8_t *w = weights;
    int32_t oc = 0;
    for (; oc + 4 <= out_depth; oc += 4) {
      int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
      const int8_t *q = in_row;
#ifdef AOT_FC_S8_DSP
      int32_t r4;
      for (r4 = depth >> 2; r4 > 0; r4--) {
        const uint32_t xv = aot_fc_s8_ld4(q);
        const int16x2_t x02 = __sadd16(aot_fc_s8_lo(xv), off2);
        const int16x2_t x13 = __sadd16(aot_fc_s8_hi(xv), off2);
        uint32_t wv = aot_fc_s8_ld4(w);
        a0 = __smlad(aot_fc_s8_lo(wv), x02, a0);
        a0 = __smlad(aot_fc_s8_hi(wv), x13, a0);
        wv = aot_fc_s8_ld4(w + depth);
        a1 = __smlad(aot_fc_s8_lo(wv), x02, a1);
        a1 = __smlad(aot_fc_s8_hi(wv), x13, a1);
        wv = aot_fc_s8_ld4(w + 2 * depth);
        a2 = __smlad(aot_fc_s8_lo(wv), x02, a2);
        a2 = __smlad(aot_fc_s8_hi(wv), x13, a2);
        wv = aot_fc_s8_ld4(w + 3 * depth);
        a3 = __smlad(aot_fc_s8_lo(wv), x02, a3);
        a3 = __smlad(aot_fc_s8_hi(wv), x13, a3);
        q += 4;
        w += 4;
      }
#endif
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
#endif
}
