/* aot_compare_u8.c - EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER,
 * GREATER_EQUAL on uint8_t (raw values); output bool (uint8 0/1). */
#include "aot_ew_kernels.h"

AOT_EWK_COMPARE(aot_compare_u8, uint8_t, a, b)
