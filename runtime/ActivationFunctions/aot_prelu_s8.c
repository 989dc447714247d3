/* aot_prelu_s8.c - PRELU int8_t with int8 alpha (reference_ops
 * BroadcastPrelu4DSlow): x >= 0 is rescaled with mult1, x < 0 as x * alpha
 * with mult2; clamped to the type range. */
#include "aot_elementwise.h"

AOT_INLINE int8_t aot_prelu_s8_elem(const aot_prelu_q_params *p, int8_t x, int8_t a) {
  const int32_t v = p->in_offset + x;
  int32_t o;
  if (v >= 0) o = aot_mbqm(v, p->mult1, p->shift1);
  else o = aot_mbqm(v * (p->alpha_offset + a), p->mult2, p->shift2);
  return (int8_t)aot_clamp_i32(o + p->out_offset, INT8_MIN, INT8_MAX);
}

int32_t aot_prelu_s8(const aot_prelu_q_params *p, const int8_t *in, const int8_t *alpha,
                     int8_t *out) {
  AOT_EW_BINARY(&p->bc, in, alpha, out, aot_prelu_s8_elem, p);
  return AOT_KERNEL_OK;
}
