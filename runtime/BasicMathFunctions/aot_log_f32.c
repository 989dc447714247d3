/* aot_log_f32.c - LOG float32: logf(x). */
#include <math.h>

#include "aot_ew_kernels.h"

AOT_EWK_UNARY(aot_log_f32, float, logf(x))
