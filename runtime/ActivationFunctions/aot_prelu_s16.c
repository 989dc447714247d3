/* aot_prelu_s16.c - PRELU int16_t with int8 alpha (reference_ops
 * BroadcastPrelu4DSlow): x >= 0 is rescaled with mult1, x < 0 as x * alpha
 * with mult2; clamped to the type range. */
#include "aot_elementwise.h"

AOT_INLINE int16_t aot_prelu_s16_elem(const aot_prelu_q_params *p, int16_t x, int8_t a) {
  const int32_t v = p->in_offset + x;
  int32_t o;
  if (v >= 0) o = aot_mbqm(v, p->mult1, p->shift1);
  else o = aot_mbqm(v * (p->alpha_offset + a), p->mult2, p->shift2);
  return (int16_t)aot_clamp_i32(o + p->out_offset, INT16_MIN, INT16_MAX);
}

int32_t aot_prelu_s16(const aot_prelu_q_params *p, const int16_t *in, const int8_t *alpha,
                     int16_t *out) {
  AOT_EW_BINARY(&p->bc, in, alpha, out, aot_prelu_s16_elem, p);
  return AOT_KERNEL_OK;
}
