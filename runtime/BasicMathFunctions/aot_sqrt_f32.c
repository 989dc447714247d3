/* aot_sqrt_f32.c - SQRT float32: sqrtf(x). */
#include <math.h>

#include "aot_ew_kernels.h"

AOT_EWK_UNARY(aot_sqrt_f32, float, sqrtf(x))
