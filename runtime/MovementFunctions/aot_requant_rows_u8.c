/* aot_requant_rows_u8.c - CONCATENATION input of type uint8_t with a different
 * quantization than the output (the template aot_requant_rows.h). */
#define AOT_RR_NAME aot_requant_rows_u8
#define AOT_RR_T uint8_t
#define AOT_RR_MIN (0)
#define AOT_RR_MAX 255
#include "aot_requant_rows.h"
