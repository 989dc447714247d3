/* aot_reduce_s16.c - MEAN, SUM, REDUCE_MAX, REDUCE_MIN on int16_t (the template
 * aot_reduce_q.h). */
#define AOT_RQ_NAME aot_reduce_s16
#define AOT_RQ_T int16_t
#define AOT_RQ_MIN (-32768)
#define AOT_RQ_MAX 32767
#include "aot_reduce_q.h"
