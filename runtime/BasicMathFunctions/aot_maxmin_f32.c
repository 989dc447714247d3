/* aot_maxmin_f32.c - MAXIMUM and MINIMUM float on raw values (TFLite
 * MaximumMinimumBroadcastSlow: std::max / std::min, no requantization). */
#include "aot_ew_kernels.h"

AOT_EWK_MAXMIN(aot_maximum_f32, aot_minimum_f32, float)
