/* aot_common.h - shared definitions of the aotc runtime kernels (C99).
 *
 * Every runtime symbol starts with aot_ / AOT_; when aotc copies kernels into
 * a module it renames that prefix (and the file names) to the module prefix,
 * so two modules link into one firmware. Kernels return int32_t: AOT_KERNEL_OK
 * (0) or a non-zero failure code. No malloc, no stdio, no libm beyond
 * float arithmetic that the compiler inlines (expf/tanhf are allowed only
 * where the kernel file says so). */
#ifndef AOT_COMMON_H
#define AOT_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define AOT_KERNEL_OK 0
#define AOT_KERNEL_BAD_PARAM 1

/* An unoptimized build (-O0: the compiler does not define __OPTIMIZE__)
 * and a Clang build (Arm Compiler 6, armclang, too) take the portable C
 * kernels, as AOT_NO_SIMD asks for at any level: the DSP and Helium kernels'
 * inline assembly needs more registers than are then free (both keep r7 as
 * the frame pointer; Clang at every level unless told -fomit-frame-pointer),
 * and Clang's inline assembly knows no name for the MVE predicate register.
 * The outputs are the same, bit for bit; GCC's -Og, -O1, -O2, -O3 and -Os
 * keep the SIMD kernels. (A module's <prefix>_constants.h repeats this
 * condition for the filters it packs for Helium.) */
#if (!defined(__OPTIMIZE__) || defined(__clang__)) && !defined(AOT_NO_SIMD)
#define AOT_NO_SIMD 1
#endif

#if defined(__GNUC__) || defined(__clang__)
#define AOT_INLINE static __inline__ __attribute__((always_inline))
#else
#define AOT_INLINE static
#endif

AOT_INLINE int32_t aot_min_i32(int32_t a, int32_t b) { return a < b ? a : b; }
AOT_INLINE int32_t aot_max_i32(int32_t a, int32_t b) { return a > b ? a : b; }
AOT_INLINE int32_t aot_clamp_i32(int32_t x, int32_t lo, int32_t hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}
AOT_INLINE float aot_clamp_f32(float x, float lo, float hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

/* gemmlowp SaturatingRoundingDoublingHighMul. Its sign-dependent nudge
 * (2^30, or 1 - 2^30 for a negative product) followed by a division that
 * truncates toward zero gives floor((a * b + 2^30) / 2^31) for every sign:
 * one 64-bit product, add and arithmetic shift. */
AOT_INLINE int32_t aot_srdhm(int32_t a, int32_t b) {
  if (a == b && a == INT32_MIN) return INT32_MAX;
  return (int32_t)(((int64_t)a * (int64_t)b + ((int64_t)1 << 30)) >> 31);
}

/* gemmlowp RoundingDivideByPOT (round half away from zero). */
AOT_INLINE int32_t aot_rdbpot(int32_t x, int exponent) {
  int32_t mask, remainder, threshold;
  if (exponent <= 0) return x;
  /* |x| / 2^exponent <= 1/2: 0, or -1 for the tie INT32_MIN / 2^32 (rounded
   * away from zero as gemmlowp's 64-bit arithmetic does) */
  if (exponent > 31) return (x == INT32_MIN && exponent == 32) ? -1 : 0;
  mask = (int32_t)((1u << exponent) - 1u);
  remainder = x & mask;
  threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/* x << s with wrap-around semantics (no signed-overflow UB); s >= 32 gives
 * 0 (all bits shifted out). The conversion back to int32 is done without
 * implementation-defined behaviour. */
AOT_INLINE int32_t aot_shl_i32(int32_t x, int s) {
  const uint32_t u = s > 31 ? 0u : (uint32_t)x << s;
  return u <= (uint32_t)INT32_MAX ? (int32_t)u : (int32_t)(u - 2147483648u) + INT32_MIN;
}

/* TFLite MultiplyByQuantizedMultiplier (int32 accumulator, double rounding as
 * in the reference kernels). shift > 0 is a left shift. */
AOT_INLINE int32_t aot_mbqm(int32_t x, int32_t qm, int32_t shift) {
  int left = shift > 0 ? shift : 0;
  int right = shift > 0 ? 0 : -shift;
  return aot_rdbpot(aot_srdhm(aot_shl_i32(x, left), qm), right);
}

/* TFLite MultiplyByQuantizedMultiplier for int64 accumulators (int16x8). */
AOT_INLINE int32_t aot_mbqm64(int64_t x, int32_t qm, int32_t shift) {
  int32_t reduced = (qm < 0x7FFF0000) ? ((qm + (1 << 15)) >> 16) : 0x7FFF;
  /* aotc emits shifts in [-48, 14]; anything else is clamped so the shift
   * stays defined (TFLite's own expression is undefined there) */
  int total_shift = 15 - (shift > 14 ? 14 : (shift < -47 ? -47 : shift));
  int64_t round = (int64_t)1 << (total_shift - 1);
  /* wrapping product: an accumulator near 2^63 cannot overflow */
  uint64_t u = (uint64_t)x * (uint64_t)(int64_t)reduced + (uint64_t)round;
  int64_t r = u <= (uint64_t)INT64_MAX ? (int64_t)u : (int64_t)(u - 9223372036854775808u) + INT64_MIN;
  r = r >> total_shift;
  return (int32_t)r;
}

/* MultiplyByQuantizedMultiplierSmallerThanOneExp. */
AOT_INLINE int32_t aot_mbqm_lt1(int32_t x, int32_t qm, int32_t shift) {
  return aot_rdbpot(aot_srdhm(x, qm), -shift);
}

/* MultiplyByQuantizedMultiplierGreaterThanOne. */
AOT_INLINE int32_t aot_mbqm_gt1(int32_t x, int32_t qm, int32_t shift) {
  return aot_srdhm(aot_shl_i32(x, shift), qm);
}

#endif
