/* aot_abs_s8.c - ABS int8_t (TFLM AbsEvalQuantized): |x - in_zp| rescaled to
 * the output scale, plus the output zero point, clamped to [act_min, act_max]
 * (the type range). Same-scale tensors use the exact multiplier 1. */
#include "aot_act_q.h"

AOT_ACTQ_ABS(aot_abs_s8, int8_t)
