/* aot_compare_s32.c - EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER,
 * GREATER_EQUAL on int32_t; output bool (uint8 0/1). */
#include "aot_ew_kernels.h"

AOT_EWK_COMPARE(aot_compare_s32, int32_t, a, b)
