/* aot_requantize.c - QUANTIZE between integer types (reference_ops
 * Requantize): out = clamp(mbqm(x - in_zp, mult, shift) + out_zp), one entry
 * point per (input, output) type pair aotc accepts, aot_requantize_<in>_<out>
 * (int8 s8, uint8 u8, int16 s16, int32 s32), so a module links only the pairs
 * its layers use (in_type / out_type of the params are the pair's codes).
 *
 * Fast paths (unless AOT_NO_SIMD; bit-identical to the portable loop) for a
 * multiplier >= 0 and a shift in [-31, 31], l = max(shift, 0), e =
 * max(-shift, 0):
 *  - Helium, every pair: four lanes per step; x - in_zp and x << l wrap as in
 *    the portable code (VSUB, VSHL), VQRDMULH is srdhm (it saturates only for
 *    INT32_MIN * INT32_MIN, impossible with mult >= 0), RoundingDivideByPOT
 *    as aot_ew_simd.h's aot_ews_mve_rdb; the sum with out_zp is taken with
 *    saturation (VQADD), which equals the portable int64 sum clamped to the
 *    output range as every output range lies inside int32;
 *  - scalar / Arm DSP: an 8- or 16-bit input x with |x| << l < 2^29 (an input
 *    zero point within int16, l <= 13) takes srdhm as SMMULR(x << (l + 1),
 *    mult) and the rounding as aot_ews_rdb (|y| < 2^29: no overflow), then
 *    out_zp added in int64 and the output clamp, as the portable loop; int32
 *    inputs keep the portable loop. */
#include "aot_elementwise.h"
#include "aot_ew_simd.h"

/* The variant this file builds (aot_ew_simd.h). */
#if defined(AOT_EWS_MVE)
#define AOT_REQUANTIZE_MVE 1
#elif defined(AOT_EWS_DSP)
#define AOT_REQUANTIZE_DSP 1
/* entry points that keep the portable loop in this build (int32 inputs;
 * `aotc verify --profile` reads these) */
#define AOT_REQUANTIZE_S32_S8_NO_DSP 1
#define AOT_REQUANTIZE_S32_S16_NO_DSP 1
#endif

#ifdef AOT_EWS
/* whether the fast path applies; q: the rounding constants */
AOT_INLINE int aot_rqs_setup(const aot_requant_params *p, aot_ews_rq *q) {
  return p->mult >= 0 && p->shift <= 31 && p->shift >= -31 &&
         aot_ews_rq_make(p->mult, p->shift > 0 ? 0 : p->shift, q);
}
#ifdef AOT_EWS_MVE
#define AOT_RQS_STEP(LDX, STX)                                                         \
  {                                                                                    \
    int32x4_t y = vshlq_r_s32(vsubq_n_s32(LDX(in), izp), l);                           \
    y = vqaddq_n_s32(aot_ews_mve_rdb(vqrdmulhq_n_s32(y, q.mult), &q), ozp);            \
    STX(out, vminq_s32(vmaxq_s32(y, vlo), vhi));                                       \
  }
#define AOT_RQS_LD32(P) vldrwq_s32(P)
#define AOT_RQS_LD32P(P) vldrwq_z_s32((P), pr)
#define AOT_RQS_ST32(P, V) vstrwq_s32((P), (V))
#define AOT_RQS_ST32P(P, V) vstrwq_p_s32((P), (V), pr)
#define AOT_RQS_LDU8(P) vreinterpretq_s32_u32(vldrbq_u32(P))
#define AOT_RQS_LDU8P(P) vreinterpretq_s32_u32(vldrbq_z_u32((P), pr))
#define AOT_RQS_STU8(P, V) vstrbq_u32((P), vreinterpretq_u32_s32(V))
#define AOT_RQS_STU8P(P, V) vstrbq_p_u32((P), vreinterpretq_u32_s32(V), pr)
/* LD, LDP / ST, STP: the unpredicated and predicated widening load / narrowing
 * store of the pair's types */
#define AOT_RQS_TRY_W(TI, TO, LO, HI, LD, LDP, ST, STP) AOT_RQS_TRY_N(TI, TO, LO, HI, LD, LDP, ST, STP)
#define AOT_RQS_TRY_N(TI, TO, LO, HI, LD, LDP, ST, STP)                                    \
  {                                                                                    \
    aot_ews_rq q;                                                                      \
    if (aot_rqs_setup(p, &q)) {                                                        \
      const int32_t izp = p->in_zp, ozp = p->out_zp, l = p->shift > 0 ? p->shift : 0;  \
      const int32x4_t vlo = vdupq_n_s32(LO), vhi = vdupq_n_s32(HI);                    \
      int32_t n = p->size;                                                             \
      for (; n >= 4; n -= 4, in += 4, out += 4) AOT_RQS_STEP(LD, ST)                   \
      if (n > 0) {                                                                     \
        const mve_pred16_t pr = vctp32q((uint32_t)n);                                  \
        AOT_RQS_STEP(LDP, STP)                                                         \
      }                                                                                \
      return AOT_KERNEL_OK;                                                            \
    }                                                                                  \
  }
#else
/* int32 inputs (W): the portable loop */
#define AOT_RQS_TRY_W(TI, TO, LO, HI, LD, LDP, ST, STP)
#define AOT_RQS_TRY_N(TI, TO, LO, HI, LD, LDP, ST, STP)                                \
  {                                                                                    \
    aot_ews_rq q;                                                                      \
    const int32_t izp = p->in_zp, ozp = p->out_zp, l = p->shift > 0 ? p->shift : 0;    \
    /* |x| <= 65535: |x| << l < 2^29 for l <= 13, |y| < 2^29 */                        \
    if (sizeof(TI) <= 2 && izp >= -32768 && izp <= 32767 && l <= 13 &&                 \
        aot_rqs_setup(p, &q)) {                                                        \
      const int32_t k = (int32_t)2 << l;                                               \
      int32_t i;                                                                       \
      for (i = 0; i < p->size; i++) {                                                  \
        const int32_t x = (int32_t)in[i] - izp;                                        \
        const int64_t o = (int64_t)aot_ews_rdb(aot_ews_smmulr(x * k, q.mult), &q) + ozp; \
        out[i] = (TO)(o < (LO) ? (LO) : (o > (HI) ? (HI) : o));                        \
      }                                                                                \
      return AOT_KERNEL_OK;                                                            \
    }                                                                                  \
  }
#endif
#else
#define AOT_RQS_TRY_W(TI, TO, LO, HI, LD, LDP, ST, STP)
#define AOT_RQS_TRY_N(TI, TO, LO, HI, LD, LDP, ST, STP)
#endif

#define AOT_RQ_KERNEL(NAME, TI, TO, LO, HI, K, LD, LDP, ST, STP)                      \
  AOT_INLINE int32_t NAME(const aot_requant_params *p, const TI *in, TO *out) {      \
    int32_t i;                                                                       \
    if (p->in_zp == INT32_MIN) return AOT_KERNEL_BAD_PARAM;                          \
    AOT_RQS_TRY_##K(TI, TO, LO, HI, LD, LDP, ST, STP)                                \
    for (i = 0; i < p->size; i++) {                                                  \
      const int32_t v = aot_wrap_add_i32((int32_t)in[i], -p->in_zp);                 \
      const int64_t o = (int64_t)aot_mbqm(v, p->mult, p->shift) + p->out_zp;         \
      out[i] = (TO)(o < (LO) ? (LO) : (o > (HI) ? (HI) : o));                        \
    }                                                                                \
    return AOT_KERNEL_OK;                                                            \
  }

/* per input type: N (8 / 16 bits) or W (int32) and the Helium loads; per
 * output type: the Helium stores (widened to / narrowed from int32) */
#define AOT_RQL_S8 N, AOT_EWS_LDU_vldrbq_z_s32, AOT_EWS_LDP_vldrbq_z_s32
#define AOT_RQL_S8O AOT_EWS_STU_vstrbq_p_s32, AOT_EWS_STP_vstrbq_p_s32
#define AOT_RQL_S16 N, AOT_EWS_LDU_vldrhq_z_s32, AOT_EWS_LDP_vldrhq_z_s32
#define AOT_RQL_S16O AOT_EWS_STU_vstrhq_p_s32, AOT_EWS_STP_vstrhq_p_s32
#define AOT_RQL_S32 W, AOT_RQS_LD32, AOT_RQS_LD32P
#define AOT_RQL_S32O AOT_RQS_ST32, AOT_RQS_ST32P
#define AOT_RQL_U8 N, AOT_RQS_LDU8, AOT_RQS_LDU8P
#define AOT_RQL_U8O AOT_RQS_STU8, AOT_RQS_STU8P
/* aot_rqk_<in>_<out>: the body of aot_requantize_<in>_<out>; expands the type
 * lists above before AOT_RQ_KERNEL takes its arguments */
#define AOT_RQL_DEF(...) AOT_RQ_KERNEL(__VA_ARGS__)

AOT_RQL_DEF(aot_rqk_s8_s8, int8_t, int8_t, INT8_MIN, INT8_MAX, AOT_RQL_S8, AOT_RQL_S8O)
AOT_RQL_DEF(aot_rqk_s8_u8, int8_t, uint8_t, 0, UINT8_MAX, AOT_RQL_S8, AOT_RQL_U8O)
AOT_RQL_DEF(aot_rqk_s8_s16, int8_t, int16_t, INT16_MIN, INT16_MAX, AOT_RQL_S8, AOT_RQL_S16O)
AOT_RQL_DEF(aot_rqk_s8_s32, int8_t, int32_t, INT32_MIN, INT32_MAX, AOT_RQL_S8, AOT_RQL_S32O)
AOT_RQL_DEF(aot_rqk_u8_s8, uint8_t, int8_t, INT8_MIN, INT8_MAX, AOT_RQL_U8, AOT_RQL_S8O)
AOT_RQL_DEF(aot_rqk_s16_s8, int16_t, int8_t, INT8_MIN, INT8_MAX, AOT_RQL_S16, AOT_RQL_S8O)
AOT_RQL_DEF(aot_rqk_s16_s16, int16_t, int16_t, INT16_MIN, INT16_MAX, AOT_RQL_S16,
           AOT_RQL_S16O)
AOT_RQL_DEF(aot_rqk_s16_s32, int16_t, int32_t, INT32_MIN, INT32_MAX, AOT_RQL_S16,
           AOT_RQL_S32O)
AOT_RQL_DEF(aot_rqk_s32_s8, int32_t, int8_t, INT8_MIN, INT8_MAX, AOT_RQL_S32, AOT_RQL_S8O)
AOT_RQL_DEF(aot_rqk_s32_s16, int32_t, int16_t, INT16_MIN, INT16_MAX, AOT_RQL_S32,
           AOT_RQL_S16O)

/* the kernels (each named here, so that tools find its definition) */
int32_t aot_requantize_s8_s8(const aot_requant_params *p, const int8_t *in, int8_t *out) {
  return aot_rqk_s8_s8(p, in, out);
}

int32_t aot_requantize_s8_u8(const aot_requant_params *p, const int8_t *in, uint8_t *out) {
  return aot_rqk_s8_u8(p, in, out);
}

int32_t aot_requantize_s8_s16(const aot_requant_params *p, const int8_t *in, int16_t *out) {
  return aot_rqk_s8_s16(p, in, out);
}

int32_t aot_requantize_s8_s32(const aot_requant_params *p, const int8_t *in, int32_t *out) {
  return aot_rqk_s8_s32(p, in, out);
}

int32_t aot_requantize_u8_s8(const aot_requant_params *p, const uint8_t *in, int8_t *out) {
  return aot_rqk_u8_s8(p, in, out);
}

int32_t aot_requantize_s16_s8(const aot_requant_params *p, const int16_t *in, int8_t *out) {
  return aot_rqk_s16_s8(p, in, out);
}

int32_t aot_requantize_s16_s16(const aot_requant_params *p, const int16_t *in, int16_t *out) {
  return aot_rqk_s16_s16(p, in, out);
}

int32_t aot_requantize_s16_s32(const aot_requant_params *p, const int16_t *in, int32_t *out) {
  return aot_rqk_s16_s32(p, in, out);
}

int32_t aot_requantize_s32_s8(const aot_requant_params *p, const int32_t *in, int8_t *out) {
  return aot_rqk_s32_s8(p, in, out);
}

int32_t aot_requantize_s32_s16(const aot_requant_params *p, const int32_t *in, int16_t *out) {
  return aot_rqk_s32_s16(p, in, out);
}
