/* aot_leaky_relu_s8.c - LEAKY_RELU int8 (reference_ops QuantizeLeakyRelu):
 * identity multiplier for x >= zero point, alpha multiplier below. */
#include "aot_act_q.h"

AOT_ACTQ_LEAKY_RELU(aot_leaky_relu_s8, int8_t, INT8_MIN, INT8_MAX)
