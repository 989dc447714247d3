/* aot_maxmin_s32.c - MAXIMUM and MINIMUM int32_t on raw values (TFLite
 * MaximumMinimumBroadcastSlow: std::max / std::min, no requantization). */
#include "aot_ew_kernels.h"

AOT_EWK_MAXMIN(aot_maximum_s32, aot_minimum_s32, int32_t)
