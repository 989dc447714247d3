/* aot_logistic_s8.c - LOGISTIC int8 (reference_integer_ops Logistic): the
 * input is rescaled to Q4.27, gemmlowp fixed-point logistic gives Q0.31, which
 * is rounded to the output scale 1/256 with zero point -128 (the template in
 * aot_act_q.h). */
#include "aot_act_q.h"

AOT_ACTQ_SIGMOID_S8(aot_logistic_s8, aot_fx_logistic, 8, -128)
