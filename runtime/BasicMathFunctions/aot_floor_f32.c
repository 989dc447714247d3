/* aot_floor_f32.c - FLOOR float32: floorf(x). */
#include <math.h>

#include "aot_ew_kernels.h"

AOT_EWK_UNARY(aot_floor_f32, float, floorf(x))
