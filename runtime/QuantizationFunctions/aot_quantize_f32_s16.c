/* aot_quantize_f32_s16.c - QUANTIZE float32 -> int16_t (reference_ops
 * AffineQuantize): round(x / scale) half away from zero, plus the zero point,
 * clamped. Out-of-range conversions saturate (NaN gives the zero point). */
#include "aot_quant_k.h"

AOT_QUANTIZE_KERNEL(aot_quantize_f32_s16, int16_t, INT16_MIN, INT16_MAX)
