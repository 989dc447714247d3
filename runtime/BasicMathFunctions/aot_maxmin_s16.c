/* aot_maxmin_s16.c - MAXIMUM and MINIMUM int16_t on raw values (TFLite
 * MaximumMinimumBroadcastSlow: std::max / std::min, no requantization). */
#include "aot_ew_kernels.h"

AOT_EWK_MAXMIN(s16, int16_t)
