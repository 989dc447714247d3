/* aot_squared_diff_s16.c - SQUARED_DIFFERENCE int16_t (TFLM): both inputs are
 * rescaled to a common scale (left_shift headroom), the difference is squared
 * and rescaled to the output with a general multiplier; clamped to
 * [act_min, act_max] (the type range). The template in aot_ew_q.h. */
#include "aot_ew_q.h"

AOT_EWQ_SQUARED_DIFF(aot_squared_diff_s16, int16_t)
