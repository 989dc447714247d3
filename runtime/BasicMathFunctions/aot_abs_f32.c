/* aot_abs_f32.c - ABS float32: fabsf(x). */
#include <math.h>

#include "aot_ew_kernels.h"

AOT_EWK_UNARY(aot_abs_f32, float, fabsf(x))
