/* aot_dequantize_pc.c - DEQUANTIZE with per-channel quantization (int8 and
 * int16): out = scale[c] * (x - zero_point[c]) along the quantized dimension
 * (reference_ops PerChannelDequantize); the tensor is viewed as
 * [outer, channels, inner]. */
#include "aot_quant_k.h"

AOT_DEQUANTIZE_PC_KERNEL(aot_dequantize_pc_s8, int8_t, INT8_MIN, INT8_MAX)
AOT_DEQUANTIZE_PC_KERNEL(aot_dequantize_pc_s16, int16_t, INT16_MIN, INT16_MAX)
