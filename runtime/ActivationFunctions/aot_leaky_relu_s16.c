/* aot_leaky_relu_s16.c - LEAKY_RELU int16 (reference_ops QuantizeLeakyRelu):
 * identity multiplier for x >= zero point, alpha multiplier below. */
#include "aot_act_q.h"

AOT_ACTQ_LEAKY_RELU(aot_leaky_relu_s16, int16_t, INT16_MIN, INT16_MAX)
