/* aot_relu_s8.c - RELU family int8_t (TFLite ReluQuantized): requantize to
 * the output scale, then clamp to [act_min, act_max]. */
#include "aot_act_q.h"

AOT_ACTQ_RELU(aot_relu_s8, int8_t)
