/* aot_dequantize_s16.c - DEQUANTIZE int16_t -> float32: scale * (x - zero
 * point), the template in aot_quant_k.h. */
#include "aot_quant_k.h"

AOT_DEQUANTIZE_KERNEL(aot_dequantize_s16, int16_t, INT16_MIN, INT16_MAX)
