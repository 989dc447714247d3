/* aot_tconv2d_s8.c - TRANSPOSE_CONV int8 (per-channel requantization): int32
 * sums of (x + input_offset) * w, plus the bias, requantized per channel plus
 * the output offset, clamped (the template aot_tconv2d_k.h). */
#define AOT_TC_NAME aot_tconv2d_s8
#define AOT_TC_TIN int8_t
#define AOT_TC_TW int8_t
#define AOT_TC_TB int32_t
#define AOT_TC_TOUT int8_t
#define AOT_TC_ACC int32_t
#define AOT_TC_MAC(x, w) ((x) + p->input_offset) * (w)
#define AOT_TC_OUT(acc, oc)                                                          \
  (int8_t)aot_clamp_i32(aot_conv_mbqm(acc, p->out_mult[oc], p->out_shift[oc]) + p->output_offset, \
                        p->act_min, p->act_max)
#include "aot_tconv2d_k.h"
