/* aot_quantize_f32_u8.c - QUANTIZE float32 -> uint8_t (reference_ops
 * AffineQuantize): round(x / scale) half away from zero, plus the zero point,
 * clamped. Out-of-range conversions saturate (NaN gives the zero point). */
#include "aot_quant_k.h"

AOT_QUANTIZE_KERNEL(aot_quantize_f32_u8, uint8_t, 0, UINT8_MAX)
