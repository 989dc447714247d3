/* aot_act_clamp_s16.c - clamp int16_t values to [lo, hi] without requantizing
 * (TFLM RELU6 / Relu6Quantized). */
#include "aot_act_q.h"

AOT_ACTQ_CLAMP(aot_act_clamp_s16, int16_t)
