/* aot_requant_rows_s8.c - CONCATENATION input of type int8_t with a different
 * quantization than the output (the template aot_requant_rows.h). */
#define AOT_RR_NAME aot_requant_rows_s8
#define AOT_RR_T int8_t
#define AOT_RR_MIN (-128)
#define AOT_RR_MAX 127
#include "aot_requant_rows.h"
