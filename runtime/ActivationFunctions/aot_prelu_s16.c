/* aot_prelu_s16.c - PRELU int16_t with int8 alpha (reference_ops
 * BroadcastPrelu4DSlow): x >= 0 is rescaled with mult1, x < 0 as x * alpha
 * with mult2; clamped to the type range. */
#include "aot_act_q.h"

AOT_ACTQ_PRELU(aot_prelu_s16, int16_t, INT16_MIN, INT16_MAX)
