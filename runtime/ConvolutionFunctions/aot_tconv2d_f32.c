/* aot_tconv2d_f32.c - TRANSPOSE_CONV float32: products summed in the
 * reference's scatter order, plus the bias, then the activation clamp (the
 * template aot_tconv2d_k.h). */
#define AOT_TC_NAME aot_tconv2d_f32
#define AOT_TC_TIN float
#define AOT_TC_TW float
#define AOT_TC_TB float
#define AOT_TC_TOUT float
#define AOT_TC_ACC float
#define AOT_TC_MAC(x, w) (x) * (w)
#define AOT_TC_OUT(acc, oc) aot_clamp_f32(acc, p->act_min_f, p->act_max_f)
#include "aot_tconv2d_k.h"
