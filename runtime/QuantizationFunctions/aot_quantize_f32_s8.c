/* aot_quantize_f32_s8.c - QUANTIZE float32 -> int8_t (reference_ops
 * AffineQuantize): round(x / scale) half away from zero, plus the zero point,
 * clamped. Out-of-range conversions saturate (NaN gives the zero point). */
#include "aot_quant_k.h"

AOT_QUANTIZE_KERNEL(aot_quantize_f32_s8, int8_t, INT8_MIN, INT8_MAX)
