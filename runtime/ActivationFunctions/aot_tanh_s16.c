/* aot_tanh_s16.c - TANH int16 (reference_integer_ops Tanh): tanh(x) =
 * 2 sigmoid(2x) - 1 from the sigmoid table, interpolated with 8 fractional
 * bits; output Q0.15 (the template in aot_act_q.h). */
#include "aot_act_q.h"

/* the output from the scaled input x and the table value u (Q.8) */
AOT_INLINE int16_t aot_tanh_s16_out(int32_t x, uint32_t u) {
  const int32_t r = (int32_t)u;
  return (int16_t)aot_asr_i32(x >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1, 8);
}

AOT_ACTQ_SIGMOID_S16(aot_tanh_s16, 8, 0xFFFFu << 8, aot_tanh_s16_out)
