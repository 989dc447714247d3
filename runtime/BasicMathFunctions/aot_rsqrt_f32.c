/* aot_rsqrt_f32.c - RSQRT float32: 1 / sqrtf(x) (as TFLite). */
#include <math.h>

#include "aot_ew_kernels.h"

AOT_EWK_UNARY(aot_rsqrt_f32, float, 1.0f / sqrtf(x))
