/* aot_act_clamp_s8.c - clamp int8_t values to [lo, hi] without requantizing
 * (TFLM RELU6 / Relu6Quantized). */
#include "aot_act_q.h"

AOT_ACTQ_CLAMP(aot_act_clamp_s8, int8_t)
