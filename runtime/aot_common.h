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
 * takes the portable C kernels, as AOT_NO_SIMD asks for at any level: the
 * DSP and Helium kernels' inline assembly needs more registers than are then
 * free (r7 is the frame pointer). The outputs are the same, bit for bit.
 * GCC's -Og, -O1, -O2, -O3 and -Os, and Clang's (Arm Compiler 6 armclang,
 * Arm Toolchain for Embedded) -O1, -O2, -O3, -Os and -Oz keep the SIMD
 * kernels. (A module's <prefix>_constants.h repeats this condition for the
 * filters it packs for Helium.) */
#if !defined(__OPTIMIZE__) && !defined(AOT_NO_SIMD)
#define AOT_NO_SIMD 1
#endif

/* Clang keeps r7 as the frame pointer at every level (-mframe-pointer=all
 * unless told -fomit-frame-pointer), so an asm statement gets 13 registers
 * where optimising GCC gives 14. The few asm loops that need 14 write one
 * scratch register as AOT_ASM_R7(name): under GCC the operand [name], as
 * before; under Clang r7 itself, saved on the stack around the statement
 * (AOT_ASM_R7_SAVE first, AOT_ASM_R7_RESTORE last in its text; all
 * operands are registers, so moving sp moves none of them) and the operand
 * left out with AOT_ASM_R7_OP(operand,). GCC's assembly text and operands
 * stay exactly what they were. */
#if defined(__clang__)
#define AOT_ASM_R7(name) "r7"
#define AOT_ASM_R7_SAVE "push {r7}\n\t"
#define AOT_ASM_R7_RESTORE "\n\tpop {r7}\n"
#define AOT_ASM_R7_OP(...)
#else
#define AOT_ASM_R7(name) "%[" #name "]"
#define AOT_ASM_R7_SAVE ""
#define AOT_ASM_R7_RESTORE ""
#define AOT_ASM_R7_OP(...) __VA_ARGS__
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
