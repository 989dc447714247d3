/* aot_dequantize_s8.c - DEQUANTIZE int8_t -> float32: scale * (x - zero
 * point), the template in aot_quant_k.h. */
#include "aot_quant_k.h"

AOT_DEQUANTIZE_KERNEL(aot_dequantize_s8, int8_t, INT8_MIN, INT8_MAX)
