/* aot_sub_s32.c - SUB int32 (unquantized; wraps on overflow), then the
 * activation clamp. */
#include "aot_ew_kernels.h"

AOT_EWK_ARITH_S32(aot_sub_s32, -)
