/* aot_maxmin_s16.c - MAXIMUM and MINIMUM int16_t on raw values (TFLite
 * MaximumMinimumBroadcastSlow: std::max / std::min, no requantization). */
#include "aot_ew_kernels.h"

AOT_EWK_MAXMIN(aot_maximum_s16, aot_minimum_s16, int16_t)
