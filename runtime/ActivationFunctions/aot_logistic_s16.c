/* aot_logistic_s16.c - LOGISTIC int16 (reference_integer_ops Logistic): the
 * input is scaled so that 2^17 represents 10.7, then the sigmoid table is
 * interpolated on the absolute value (9 fractional bits) and mirrored for
 * negative inputs; output Q0.15 (the template in aot_act_q.h). */
#include "aot_act_q.h"

/* the output from the scaled input x and the table value r (Q.10) */
AOT_INLINE int16_t aot_logistic_s16_out(int32_t x, uint32_t r) {
  r = x >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1u;
  return (int16_t)(r >> 10);
}

AOT_ACTQ_SIGMOID_S16(aot_logistic_s16, 9, 0x7FFFu << 10, aot_logistic_s16_out)
