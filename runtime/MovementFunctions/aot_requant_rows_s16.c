/* aot_requant_rows_s16.c - CONCATENATION input of type int16_t with a different
 * quantization than the output (the template aot_requant_rows.h). */
#define AOT_RR_NAME aot_requant_rows_s16
#define AOT_RR_T int16_t
#define AOT_RR_MIN (-32768)
#define AOT_RR_MAX 32767
#include "aot_requant_rows.h"
