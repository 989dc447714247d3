/* aot_dequantize_u8.c - DEQUANTIZE uint8_t -> float32: scale * (x - zero
 * point), the template in aot_quant_k.h. */
#include "aot_quant_k.h"

AOT_DEQUANTIZE_KERNEL(aot_dequantize_u8, uint8_t, 0, UINT8_MAX)
