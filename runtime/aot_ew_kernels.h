/* aot_ew_kernels.h - internal templates of the simple elementwise kernels:
 * each macro below defines one or more whole exported kernel functions (the
 * prototypes stay in aot_elementwise.h), so a per-type kernel file is its
 * description comment plus one line per kernel. Used for the float unary math
 * functions, float / int32 arithmetic with the activation clamp, MAXIMUM /
 * MINIMUM and the comparisons; the loops are those of aot_elementwise.h
 * (AOT_EW_BINARY walks the broadcast). Invocations take no trailing ';'. */
#ifndef AOT_EW_KERNELS_H
#define AOT_EW_KERNELS_H

#include "aot_elementwise.h"

/* TFLite ActivationFunctionWithMinMax: min(max(x, lo), hi). */
AOT_INLINE float aot_ewk_act_f32(float x, float lo, float hi) {
  x = x < lo ? lo : x;
  return hi < x ? hi : x;
}

/* Two's complement narrowing of a uint32 to int32 (wrapping int32 result). */
AOT_INLINE int32_t aot_ewk_wrap_u32(uint32_t u) {
  return u <= (uint32_t)INT32_MAX ? (int32_t)u : (int32_t)(u - 2147483648u) + INT32_MIN;
}

/* int32_t NAME(const aot_unary_params *p, const T *in, T *out): out[i] = EXPR,
 * EXPR written in terms of the element x. */
#define AOT_EWK_UNARY(NAME, T, EXPR)                                            \
  int32_t NAME(const aot_unary_params *p, const T *in, T *out) {                \
    int32_t i;                                                                  \
    for (i = 0; i < p->size; i++) {                                             \
      const T x = in[i];                                                        \
      out[i] = EXPR;                                                            \
    }                                                                           \
    return AOT_KERNEL_OK;                                                       \
  }

/* int32_t NAME(const PT *p, const TI *in1, const TI *in2, TO *out): out =
 * ELEM(p, a, b) over the broadcast p->bc. */
#define AOT_EWK_BINARY(NAME, PT, TI, TO, ELEM)                                  \
  int32_t NAME(const PT *p, const TI *in1, const TI *in2, TO *out) {            \
    AOT_EW_BINARY(&p->bc, in1, in2, out, ELEM, p);                              \
    return AOT_KERNEL_OK;                                                       \
  }

/* float NAME: a OPR b, then the activation clamp. */
#define AOT_EWK_ARITH_F32(NAME, OPR)                                            \
  AOT_INLINE float NAME##_elem(const aot_arith_f32_params *p, float a, float b) { \
    return aot_ewk_act_f32(a OPR b, p->act_min, p->act_max);                    \
  }                                                                             \
  AOT_EWK_BINARY(NAME, aot_arith_f32_params, float, float, NAME##_elem)

/* int32 NAME: a OPR b computed in uint32 (wraps on overflow), then the
 * activation clamp. */
#define AOT_EWK_ARITH_S32(NAME, OPR)                                            \
  AOT_INLINE int32_t NAME##_elem(const aot_arith_s32_params *p, int32_t a, int32_t b) { \
    const int32_t x = aot_ewk_wrap_u32((uint32_t)a OPR (uint32_t)b);            \
    return aot_clamp_i32(x, p->act_min, p->act_max);                            \
  }                                                                             \
  AOT_EWK_BINARY(NAME, aot_arith_s32_params, int32_t, int32_t, NAME##_elem)

/* MAXNAME and MINNAME on raw T values (TFLite MaximumMinimumBroadcastSlow:
 * std::max / std::min). */
#define AOT_EWK_MAXMIN(MAXNAME, MINNAME, T)                                     \
  AOT_INLINE T MAXNAME##_elem(const aot_bcast_params *p, T a, T b) {            \
    (void)p;                                                                    \
    return a < b ? b : a;                                                       \
  }                                                                             \
  AOT_INLINE T MINNAME##_elem(const aot_bcast_params *p, T a, T b) {            \
    (void)p;                                                                    \
    return b < a ? b : a;                                                       \
  }                                                                             \
  AOT_EWK_BINARY(MAXNAME, aot_bcast_params, T, T, MAXNAME##_elem)               \
  AOT_EWK_BINARY(MINNAME, aot_bcast_params, T, T, MINNAME##_elem)

/* One comparison element function: (uint8_t)(KA OPR KB). */
#define AOT_EWK_CMP_ELEM(NAME, T, KA, KB, OPR)                                  \
  AOT_INLINE uint8_t NAME(const aot_compare_params *p, T a, T b) {              \
    (void)p;                                                                    \
    return (uint8_t)(KA OPR KB);                                                \
  }

/* int32_t NAME(const aot_compare_params *p, const T *in1, const T *in2,
 * uint8_t *out): EQUAL .. GREATER_EQUAL (p->op) of the keys KA and KB
 * (expressions in a, b and p: the raw values, or the rescaled ones). */
#define AOT_EWK_COMPARE(NAME, T, KA, KB)                                        \
  AOT_EWK_CMP_ELEM(NAME##_eq, T, KA, KB, ==)                                    \
  AOT_EWK_CMP_ELEM(NAME##_ne, T, KA, KB, !=)                                    \
  AOT_EWK_CMP_ELEM(NAME##_lt, T, KA, KB, <)                                     \
  AOT_EWK_CMP_ELEM(NAME##_le, T, KA, KB, <=)                                    \
  AOT_EWK_CMP_ELEM(NAME##_gt, T, KA, KB, >)                                     \
  AOT_EWK_CMP_ELEM(NAME##_ge, T, KA, KB, >=)                                    \
  int32_t NAME(const aot_compare_params *p, const T *in1, const T *in2, uint8_t *out) { \
    switch (p->op) {                                                            \
      case AOT_CMP_EQUAL: AOT_EW_BINARY(&p->bc, in1, in2, out, NAME##_eq, p); break; \
      case AOT_CMP_NOT_EQUAL: AOT_EW_BINARY(&p->bc, in1, in2, out, NAME##_ne, p); break; \
      case AOT_CMP_LESS: AOT_EW_BINARY(&p->bc, in1, in2, out, NAME##_lt, p); break; \
      case AOT_CMP_LESS_EQUAL: AOT_EW_BINARY(&p->bc, in1, in2, out, NAME##_le, p); break; \
      case AOT_CMP_GREATER: AOT_EW_BINARY(&p->bc, in1, in2, out, NAME##_gt, p); break; \
      case AOT_CMP_GREATER_EQUAL: AOT_EW_BINARY(&p->bc, in1, in2, out, NAME##_ge, p); break; \
      default: return AOT_KERNEL_BAD_PARAM;                                     \
    }                                                                           \
    return AOT_KERNEL_OK;                                                       \
  }

#endif /* AOT_EW_KERNELS_H */
