/* aot_tanh_s8.c - TANH int8 (reference_integer_ops Tanh): the input is
 * rescaled to Q4.27, gemmlowp fixed-point tanh gives Q0.31, which is rounded to
 * the output scale 1/128 with zero point 0 (the template in aot_act_q.h). */
#include "aot_act_q.h"

AOT_ACTQ_SIGMOID_S8(aot_tanh_s8, aot_fx_tanh, 7, 0)
