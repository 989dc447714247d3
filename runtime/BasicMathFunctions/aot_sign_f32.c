/* aot_sign_f32.c - SIGN float32: 1 for x > 0, -1 for x < 0, 0 otherwise (so
 * 0 for +-0 and NaN), as TFLite's (0 < x) - (x < 0). */
#include "aot_ew_kernels.h"

AOT_EWK_UNARY(aot_sign_f32, float, (float)((x > 0.0f) - (x < 0.0f)))
