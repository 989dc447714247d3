/* aot_compare_f32.c - EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER,
 * GREATER_EQUAL on float; output bool (uint8 0/1). */
#include "aot_ew_kernels.h"

AOT_EWK_COMPARE(aot_compare_f32, float, a, b)
