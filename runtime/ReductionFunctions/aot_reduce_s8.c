/* aot_reduce_s8.c - MEAN, SUM, REDUCE_MAX, REDUCE_MIN on int8_t (the template
 * aot_reduce_q.h). */
#define AOT_RQ_NAME aot_reduce_s8
#define AOT_RQ_T int8_t
#define AOT_RQ_MIN (-128)
#define AOT_RQ_MAX 127
#include "aot_reduce_q.h"
