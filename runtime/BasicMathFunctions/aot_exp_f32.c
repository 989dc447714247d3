/* aot_exp_f32.c - EXP float32: expf(x). */
#include <math.h>

#include "aot_ew_kernels.h"

AOT_EWK_UNARY(aot_exp_f32, float, expf(x))
