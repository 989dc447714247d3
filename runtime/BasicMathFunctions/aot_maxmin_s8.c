/* aot_maxmin_s8.c - MAXIMUM and MINIMUM int8_t on raw values (TFLite
 * MaximumMinimumBroadcastSlow: std::max / std::min, no requantization). */
#include "aot_ew_kernels.h"

AOT_EWK_MAXMIN(aot_maximum_s8, aot_minimum_s8, int8_t)
