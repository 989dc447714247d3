/* aot_act_q.h - internal templates of the quantized (int8 / int16)
 * activation kernels that differ only in the element type: each macro defines
 * one whole exported kernel (prototypes in aot_elementwise.h), so
 * ActivationFunctions/aot_<op>_s8.c and _s16.c are one line each. The
 * arithmetic is that of the TFLM reference kernels named at every macro.
 * Also the shared input stage of the int16 LOGISTIC / TANH kernels.
 * Invocations take no trailing ';'. */
#ifndef AOT_ACT_Q_H
#define AOT_ACT_Q_H

#include "aot_elementwise.h"

/* ABS (TFLM AbsEvalQuantized): |x - in_zp| rescaled to the output scale, plus
 * the output zero point, clamped to [act_min, act_max]. */
#define AOT_ACTQ_ABS(NAME, T)                                                   \
  int32_t NAME(const aot_relu_q_params *p, const T *in, T *out) {               \
    int32_t i;                                                                  \
    for (i = 0; i < p->size; i++) {                                             \
      const int32_t d = (int32_t)in[i] - p->in_zp;                              \
      const int32_t v = p->out_zp + aot_mbqm(d < 0 ? -d : d, p->mult, p->shift); \
      out[i] = (T)aot_clamp_i32(v, p->act_min, p->act_max);                     \
    }                                                                           \
    return AOT_KERNEL_OK;                                                       \
  }

/* RELU family (TFLite ReluQuantized): requantize to the output scale, then
 * clamp to [act_min, act_max]. */
#define AOT_ACTQ_RELU(NAME, T)                                                  \
  int32_t NAME(const aot_relu_q_params *p, const T *in, T *out) {               \
    int32_t i;                                                                  \
    for (i = 0; i < p->size; i++) {                                             \
      int32_t v = p->out_zp + aot_mbqm((int32_t)in[i] - p->in_zp, p->mult, p->shift); \
      v = v < p->act_min ? p->act_min : v;                                      \
      out[i] = (T)(v > p->act_max ? p->act_max : v);                            \
    }                                                                           \
    return AOT_KERNEL_OK;                                                       \
  }

/* Clamp to [lo, hi] without requantizing (TFLM RELU6 / Relu6Quantized). */
#define AOT_ACTQ_CLAMP(NAME, T)                                                 \
  int32_t NAME(const aot_act_clamp_q_params *p, const T *in, T *out) {          \
    const int32_t lo = p->lo, hi = p->hi;                                       \
    int32_t i;                                                                  \
    for (i = 0; i < p->size; i++) {                                             \
      const int32_t x = in[i];                                                  \
      out[i] = (T)(x > hi ? hi : (x < lo ? lo : x));                            \
    }                                                                           \
    return AOT_KERNEL_OK;                                                       \
  }

/* LEAKY_RELU (reference_ops QuantizeLeakyRelu): identity multiplier for x >=
 * zero point, alpha multiplier below; clamped to [TMIN, TMAX]. */
#define AOT_ACTQ_LEAKY_RELU(NAME, T, TMIN, TMAX)                                \
  int32_t NAME(const aot_leaky_relu_q_params *p, const T *in, T *out) {         \
    int32_t i;                                                                  \
    for (i = 0; i < p->size; i++) {                                             \
      const int32_t x = (int32_t)in[i] - p->in_zp;                              \
      const int32_t v = p->out_zp + (x >= 0 ? aot_mbqm(x, p->mult_identity, p->shift_identity) \
                                            : aot_mbqm(x, p->mult_alpha, p->shift_alpha)); \
      out[i] = (T)aot_clamp_i32(v, TMIN, TMAX);                                 \
    }                                                                           \
    return AOT_KERNEL_OK;                                                       \
  }

/* PRELU with int8 alpha (reference_ops BroadcastPrelu4DSlow): x >= 0 is
 * rescaled with mult1, x < 0 as x * alpha with mult2; clamped to [TMIN,
 * TMAX]; broadcast over p->bc. */
#define AOT_ACTQ_PRELU(NAME, T, TMIN, TMAX)                                     \
  AOT_INLINE T NAME##_elem(const aot_prelu_q_params *p, T x, int8_t a) {        \
    const int32_t v = p->in_offset + x;                                         \
    const int32_t o = v >= 0 ? aot_mbqm(v, p->mult1, p->shift1)                 \
                             : aot_mbqm(v * (p->alpha_offset + a), p->mult2, p->shift2); \
    return (T)aot_clamp_i32(o + p->out_offset, TMIN, TMAX);                     \
  }                                                                             \
  int32_t NAME(const aot_prelu_q_params *p, const T *in, const int8_t *alpha, T *out) { \
    AOT_EW_BINARY(&p->bc, in, alpha, out, NAME##_elem, p);                      \
    return AOT_KERNEL_OK;                                                       \
  }

/* int8 LOGISTIC / TANH (reference_integer_ops): the input is rescaled to
 * Q4.27, FX (gemmlowp fixed-point logistic or tanh) gives Q0.31, rounded to
 * the output scale 2^-OBITS plus the zero point OZP. With a range radius of 0
 * (input scale >= 8, where TFLM's floor(15 * 2^27 / 2^left_shift) is 0) an
 * input equal to the zero point goes to -128, as TFLM's reference kernel does
 * (LiteRT's optimized kernel gives the midpoint there); aotc follows TFLM. */
#define AOT_ACTQ_SIGMOID_S8(NAME, FX, OBITS, OZP)                               \
  int32_t NAME(const aot_sigmoid_s8_params *p, const int8_t *in, int8_t *out) { \
    int32_t i;                                                                  \
    /* in - in_zp must not overflow; a radius >= 1 implies left_shift <= 30 */  \
    if (p->in_zp < INT8_MIN || p->in_zp > INT8_MAX) return AOT_KERNEL_BAD_PARAM; \
    if (p->range_radius > 0 && (p->left_shift < 0 || p->left_shift > 30))      \
      return AOT_KERNEL_BAD_PARAM;                                              \
    for (i = 0; i < p->size; i++) {                                             \
      const int32_t x = (int32_t)in[i] - p->in_zp;                              \
      if (x <= -p->range_radius) {                                              \
        out[i] = INT8_MIN;                                                      \
      } else if (x >= p->range_radius) {                                        \
        out[i] = INT8_MAX;                                                      \
      } else {                                                                  \
        const int32_t q0 = FX(aot_mbqm(x, p->mult, p->left_shift), 4);          \
        const int32_t v = aot_rdbpot(q0, 31 - (OBITS)) + (OZP);                 \
        out[i] = (int8_t)aot_clamp_i32(v, INT8_MIN, INT8_MAX);                  \
      }                                                                         \
    }                                                                           \
    return AOT_KERNEL_OK;                                                       \
  }

/* The input stage of the int16 LOGISTIC / TANH kernels: the table, the
 * multiplier and shift of p (a zero multiplier is a power-of-two input scale, multiplier 3 <<
 * shift) and the rounding term. Returns 0 for parameters the kernels reject. */
typedef struct aot_sig16_in {
  const uint16_t *tab; /* aot_sigmoid_table_u16() */
  int32_t mult, shift;
  int64_t round;
} aot_sig16_in;

AOT_INLINE int aot_sig16_setup(const aot_sigmoid_s16_params *p, aot_sig16_in *s) {
  s->tab = aot_sigmoid_table_u16();
  s->mult = p->mult;
  s->shift = p->left_shift;
  if (s->shift < 0 || s->shift > 31 || s->mult < 0) return 0;
  if (s->mult == 0) {
    if (s->shift > 1) return 0;
    s->mult = 3 << s->shift;
    s->shift = 0;
  }
  s->round = s->shift > 0 ? (int64_t)1 << (s->shift - 1) : 0;
  return 1;
}

/* The scaled input: TFLM computes in * mult + round in int32; for multipliers
 * above 2^16 (input scale > ~5.33) that wraps, and the wrap is reproduced. */
AOT_INLINE int32_t aot_sig16_x(const aot_sig16_in *s, int16_t in) {
  return aot_asr_i32(aot_wrap_i64_i32((int64_t)in * s->mult + s->round), s->shift);
}

/* The sigmoid table interpolated at |x| with FRAC fractional bits (the
 * table's step is 2^FRAC), SAT at and beyond its last entry. */
AOT_INLINE uint32_t aot_sig16_interp(const aot_sig16_in *s, int32_t x, int frac, uint32_t sat) {
  const uint32_t ax = x < 0 ? (uint32_t)0 - (uint32_t)x : (uint32_t)x;
  const uint32_t uh = ax >> frac;
  uint32_t ua, ub;
  if (uh >= 255) return sat;
  ua = s->tab[uh];
  ub = s->tab[uh + 1];
  return (ua << frac) + (ax & ((1u << frac) - 1u)) * (ub - ua);
}

/* int16 LOGISTIC / TANH (reference_integer_ops): per element the scaled input
 * x, the table value r = aot_sig16_interp(x, FRAC, SAT), the output OUT(x, r). */
#define AOT_ACTQ_SIGMOID_S16(NAME, FRAC, SAT, OUT)                              \
  int32_t NAME(const aot_sigmoid_s16_params *p, const int16_t *in, int16_t *out) { \
    aot_sig16_in s;                                                             \
    int32_t i;                                                                  \
    if (!aot_sig16_setup(p, &s)) return AOT_KERNEL_BAD_PARAM;                   \
    for (i = 0; i < p->size; i++) {                                             \
      const int32_t x = aot_sig16_x(&s, in[i]);                                 \
      out[i] = OUT(x, aot_sig16_interp(&s, x, FRAC, SAT));                      \
    }                                                                           \
    return AOT_KERNEL_OK;                                                       \
  }

#endif /* AOT_ACT_Q_H */
