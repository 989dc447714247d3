/* aot_squared_diff_s8.c - SQUARED_DIFFERENCE int8_t (TFLM): both inputs are
 * rescaled to a common scale (left_shift headroom), the difference is squared
 * and rescaled to the output with a general multiplier; clamped to
 * [act_min, act_max] (the type range). */
#include "aot_elementwise.h"

AOT_INLINE int8_t aot_sqd_s8_elem(const aot_addsub_q_params *p, int8_t a, int8_t b) {
  const int32_t x1 = aot_shl_i32(p->in1_offset + a, p->left_shift);
  const int32_t x2 = aot_shl_i32(p->in2_offset + b, p->left_shift);
  const int32_t d = aot_mbqm_lt1(x1, p->in1_mult, p->in1_shift) -
                    aot_mbqm_lt1(x2, p->in2_mult, p->in2_shift);
  const uint32_t sq = (uint32_t)d * (uint32_t)d;
  const int32_t sq32 = sq <= (uint32_t)INT32_MAX ? (int32_t)sq : INT32_MAX;
  const int32_t raw = aot_mbqm(sq32, p->out_mult, p->out_shift) + p->out_offset;
  return (int8_t)aot_clamp_i32(raw, p->act_min, p->act_max);
}

int32_t aot_squared_diff_s8(const aot_addsub_q_params *p, const int8_t *in1, const int8_t *in2,
                            int8_t *out) {
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_sqd_s8_elem, p);
  return AOT_KERNEL_OK;
}
