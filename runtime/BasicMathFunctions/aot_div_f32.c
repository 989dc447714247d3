/* aot_div_f32.c - DIV float32 with the activation clamp
 * (min(max(x, act_min), act_max) as TFLite ActivationFunctionWithMinMax). */
#include "aot_ew_kernels.h"

AOT_EWK_ARITH_F32(aot_div_f32, /)
