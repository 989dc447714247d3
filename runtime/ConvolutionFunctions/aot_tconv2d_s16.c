/* aot_tconv2d_s16.c - TRANSPOSE_CONV int16x8 (int16 activations, int8
 * weights, int64 bias): an int64 accumulator requantized with the int64
 * MultiplyByQuantizedMultiplier per channel (the template aot_tconv2d_k.h). */
#define AOT_TC_NAME aot_tconv2d_s16
#define AOT_TC_TIN int16_t
#define AOT_TC_TW int8_t
#define AOT_TC_TB int64_t
#define AOT_TC_TOUT int16_t
#define AOT_TC_ACC int64_t
#define AOT_TC_MAC(x, w) (int32_t)(x) * (w)
#define AOT_TC_OUT(acc, oc) \
  (int16_t)aot_clamp_i32(aot_mbqm64(acc, p->out_mult[oc], p->out_shift[oc]), p->act_min, p->act_max)
#include "aot_tconv2d_k.h"
