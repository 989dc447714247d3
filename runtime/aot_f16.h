/* aot_f16.h - IEEE binary16 <-> binary32 conversions shared by the float16
 * kernels (CAST, the GRU) and by the compiler (constant conversion).
 *
 * aot_f16_to_f32 decodes exactly (subnormals, signed zeros, infinities, NaN
 * with its payload); aot_f32_to_f16 rounds to nearest, ties to even,
 * including into the subnormal range, overflows to infinity and keeps a NaN a
 * (quiet) NaN. Pure integer bit manipulation: no FP16 hardware needed. */
#ifndef AOT_F16_H
#define AOT_F16_H

#include "aot_common.h"

typedef union aot_f32_bits {
  float f;
  uint32_t u;
} aot_f32_bits;

AOT_INLINE float aot_f16_to_f32(uint16_t h) {
  aot_f32_bits r;
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1Fu;
  uint32_t man = h & 0x3FFu;
  if (exp == 0x1Fu) {
    r.u = sign | 0x7F800000u | (man << 13);
  } else if (exp != 0u) {
    r.u = sign | ((exp + 112u) << 23) | (man << 13);
  } else if (man == 0u) {
    r.u = sign;
  } else {
    /* subnormal: normalize the mantissa */
    uint32_t e = 113u;
    while ((man & 0x400u) == 0u) {
      man <<= 1;
      e--;
    }
    r.u = sign | (e << 23) | ((man & 0x3FFu) << 13);
  }
  return r.f;
}

AOT_INLINE uint16_t aot_f32_to_f16(float f) {
  aot_f32_bits in;
  uint32_t sign, exp, man;
  in.f = f;
  sign = (in.u >> 16) & 0x8000u;
  exp = (in.u >> 23) & 0xFFu;
  man = in.u & 0x7FFFFFu;
  if (exp == 0xFFu) {
    if (man == 0u) return (uint16_t)(sign | 0x7C00u);
    return (uint16_t)(sign | 0x7E00u | (man >> 13));
  }
  if (exp > 142u) return (uint16_t)(sign | 0x7C00u); /* >= 2^16: overflow */
  if (exp >= 113u) {
    /* normal half: round 13 dropped bits to nearest even */
    uint32_t v = ((exp - 112u) << 10) | (man >> 13);
    uint32_t rem = man & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (v & 1u))) v++; /* may carry to inf */
    return (uint16_t)(sign | v);
  }
  if (exp >= 102u) {
    /* subnormal half (or rounds up to the smallest normal) */
    uint32_t m = man | 0x800000u;
    uint32_t shift = 126u - exp; /* 14..24 */
    uint32_t v = m >> shift;
    uint32_t rem = m & ((1u << shift) - 1u);
    uint32_t half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (v & 1u))) v++;
    return (uint16_t)(sign | v);
  }
  return (uint16_t)sign; /* underflow to signed zero */
}

#endif
