/* aot_quant_k.h - internal templates of the QUANTIZE (float32 -> integer)
 * and DEQUANTIZE (integer -> float32) kernels, which differ per integer type
 * only in the element type and its range: each macro defines one exported
 * kernel (prototypes in aot_elementwise.h), invoked without a trailing ';'. */
#ifndef AOT_QUANT_K_H
#define AOT_QUANT_K_H

#include <math.h>

#include "aot_elementwise.h"

/* round(x / scale) half away from zero (reference_ops AffineQuantize) as an
 * int64, out-of-range values saturated to the int32 range, NaN as 0. */
AOT_INLINE int64_t aot_quant_round(float x, float scale) {
  const float r = roundf(x / scale);
  if (r >= 2147483648.0f) return INT32_MAX;
  if (r < -2147483648.0f) return INT32_MIN;
  if (r == r) return (int32_t)r;
  return 0;
}

/* QUANTIZE float32 -> T: the rounded value plus the zero point, clamped to
 * [TMIN, TMAX]. */
#define AOT_QUANTIZE_KERNEL(NAME, T, TMIN, TMAX)                                \
  int32_t NAME(const aot_quantize_params *p, const float *in, T *out) {         \
    int32_t i;                                                                  \
    for (i = 0; i < p->size; i++) {                                             \
      const int64_t q = aot_quant_round(in[i], p->scale) + p->zero_point;       \
      out[i] = (T)(q < (TMIN) ? (TMIN) : (q > (TMAX) ? (TMAX) : q));            \
    }                                                                           \
    return AOT_KERNEL_OK;                                                       \
  }

/* DEQUANTIZE T -> float32: scale * (x - zero point). The product of a float
 * and an integer below 2^24 is rounded once, exactly as the reference's double
 * product rounded to float. A zero point outside [TMIN, TMAX] is refused (x -
 * zero point must not overflow int32). */
#define AOT_DEQUANTIZE_KERNEL(NAME, T, TMIN, TMAX)                              \
  int32_t NAME(const aot_dequantize_params *p, const T *in, float *out) {       \
    const float scale = p->scale;                                               \
    const int32_t zp = p->zero_point;                                           \
    int32_t i;                                                                  \
    if (zp < (TMIN) || zp > (TMAX)) return AOT_KERNEL_BAD_PARAM;                \
    for (i = 0; i < p->size; i++) out[i] = scale * (float)((int32_t)in[i] - zp); \
    return AOT_KERNEL_OK;                                                       \
  }

/* Per-channel DEQUANTIZE T -> float32 (reference_ops PerChannelDequantize):
 * out = scale[c] * (x - zero_point[c]), the tensor viewed as [outer, channels,
 * inner]. */
#define AOT_DEQUANTIZE_PC_KERNEL(NAME, T, TMIN, TMAX)                           \
  int32_t NAME(const aot_dequantize_pc_params *p, const T *in, float *out) {    \
    int32_t o, c, i;                                                            \
    size_t k = 0;                                                               \
    for (o = 0; o < p->outer; o++)                                              \
      for (c = 0; c < p->channels; c++) {                                       \
        const float s = p->scales[c];                                           \
        const int32_t zp = p->zero_points[c];                                   \
        if (zp < (TMIN) || zp > (TMAX)) return AOT_KERNEL_BAD_PARAM;            \
        for (i = 0; i < p->inner; i++, k++) out[k] = s * (float)((int32_t)in[k] - zp); \
      }                                                                         \
    return AOT_KERNEL_OK;                                                       \
  }

#endif /* AOT_QUANT_K_H */
