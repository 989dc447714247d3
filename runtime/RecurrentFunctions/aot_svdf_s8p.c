/* aot_svdf_s8p.c - integer SVDF on packed weights (aot_svdf_s8p_s8 /
 * aot_svdf_s8p_s16, aot_recurrent.h): the arithmetic of aot_svdf_s8.c (TFLM's
 * reference kernel), bit for bit, arranged for speed.
 *
 * The state shift is aot_svdf_s8.c's. The feature projection runs over
 * blocks of four filters with aot_rec_dot4p_s8 (Helium VMLADAVA / Arm DSP
 * SMLAD on weights interleaved at compile time) from feat_bias, where the
 * compiler folded the input zero point; the time reduction is a plain dot
 * product per filter (aot_rec_dot0_s8 / aot_rec_dot_s16), the state zero
 * point being folded into bias_eff. Requantization is aot_rec_qmul (the
 * compiler uses this kernel only when both multipliers suit it; on the Arm
 * DSP SMMULR, aot_rec_qmulf, for right shifts and accumulators below 2^30
 * in magnitude).
 * AOT_SVDF_S8P_MVE / AOT_SVDF_S8P_DSP name the variant built. */
#include <string.h>

#include "../aot_recurrent.h"
#include "../aot_rec_simd.h"

#if defined(AOT_REC_MVE)
#define AOT_SVDF_S8P_MVE 1
#include <arm_acle.h>

#include "../aot_lstm_mve.h"
#elif defined(AOT_REC_DSP)
#define AOT_SVDF_S8P_DSP 1
#endif

/* clamp to the signed BITS-bit range [LO, HI] (SSAT where available) */
#if defined(AOT_REC_DSP) || defined(AOT_REC_MVE)
#define AOT_SVDF_S8P_SAT(v, BITS, LO, HI) __ssat((v), BITS)
#else
#define AOT_SVDF_S8P_SAT(v, BITS, LO, HI) aot_clamp_i32((v), LO, HI)
#endif

/* Helium: the newest state column of four filters per vector, stored with a
 * scatter (SCATTER(base, element offsets, values, predicate)), and the
 * outputs of four units per vector. */
#if defined(AOT_REC_MVE)
#define AOT_SVDF_S8P_FEATURE(STATE_T, LO, HI, SCATTER)                                   \
  {                                                                                      \
    const uint32x4_t offs = vmulq_n_u32(vidupq_n_u32(0u, 1), (uint32_t)nm);              \
    for (f = 0; f < nf; f += 4) {                                                        \
      const mve_pred16_t pr = vctp32q((uint32_t)(nf - f));                               \
      int32x4_t v = aot_lstm_mve_mbqm(vldrwq_z_s32(acc + f, pr), q1.m, q1.lsh, q1.rsh);  \
      v = vmaxq_s32(vminq_s32(vaddq_n_s32(v, szp), vdupq_n_s32(HI)), vdupq_n_s32(LO));   \
      SCATTER(st + (size_t)f * nm + nm - 1, offs, v, pr);                                \
    }                                                                                    \
  }
#define AOT_SVDF_S8P_OUTPUT                                                              \
  for (u = 0; u < nu; u += 4) {                                                          \
    const mve_pred16_t pr = vctp32q((uint32_t)(nu - u));                                 \
    const int32x4_t a = vaddq_s32(vldrwq_z_s32(acc + u, pr), vldrwq_z_s32(bias_eff + u, pr)); \
    int32x4_t v = aot_lstm_mve_mbqm(a, q2.m, q2.lsh, q2.rsh);                            \
    v = vmaxq_s32(vminq_s32(vaddq_n_s32(v, ozp), vdupq_n_s32(127)), vdupq_n_s32(-128));  \
    vstrbq_p_s32(out + u, v, pr);                                                        \
  }
/* time reduction: a memory that fits one vector (16 int8 / 8 int16 values)
 * takes one predicated load pair and VMLADAV per filter */
#define AOT_SVDF_S8P_TIME(TDOT)                                                          \
  if (sizeof(*st) == 1 && nm <= 16) {                                                    \
    const mve_pred16_t pt = vctp8q((uint32_t)nm);                                        \
    const int8_t *w8 = (const int8_t *)(const void *)weights_time;                       \
    const int8_t *s8 = (const int8_t *)(const void *)st;                                 \
    for (f = 0; f < nf; f++, w8 += nm, s8 += nm)                                         \
      acc[f] = vmladavq_s8(vldrbq_z_s8(w8, pt), vldrbq_z_s8(s8, pt));                    \
  } else if (sizeof(*st) == 2 && nm <= 8) {                                              \
    const mve_pred16_t pt = vctp16q((uint32_t)nm);                                       \
    const int16_t *w16 = (const int16_t *)(const void *)weights_time;                    \
    const int16_t *s16 = (const int16_t *)(const void *)st;                              \
    for (f = 0; f < nf; f++, w16 += nm, s16 += nm)                                       \
      acc[f] = vmladavq_s16(vldrhq_z_s16(w16, pt), vldrhq_z_s16(s16, pt));               \
  } else {                                                                               \
    for (f = 0; f < nf; f++)                                                             \
      acc[f] = TDOT(weights_time + (size_t)f * nm, st + (size_t)f * nm, nm);             \
  }
#define AOT_SVDF_S8P_SCATTER8(base, offs, v, pr) vstrbq_scatter_offset_p_s32(base, offs, v, pr)
#define AOT_SVDF_S8P_SCATTER16(base, offs, v, pr) \
  vstrhq_scatter_shifted_offset_p_s32(base, offs, v, pr)
#else
/* Arm DSP: SMMULR (aot_rec_qmulf) for accumulators below 2^30 in magnitude
 * when the shift is a right shift; aot_rec_qmul otherwise */
#if defined(AOT_SVDF_S8P_DSP)
#define AOT_SVDF_S8P_QMUL(x, q, qf, qm, qr) \
  (qf && (uint32_t)(x) + (1u << 30) < (1u << 31) ? aot_rec_qmulf((x), qm, qr) \
                                                 : aot_rec_qmul((x), &(q)))
#else
#define AOT_SVDF_S8P_QMUL(x, q, qf, qm, qr) aot_rec_qmul((x), &(q))
#endif
#define AOT_SVDF_S8P_FEATURE(STATE_T, LO, HI, SCATTER)                                   \
  for (f = 0; f < nf; f++) {                                                             \
    const int32_t v = AOT_SVDF_S8P_QMUL(acc[f], q1, f1, m1, r1) + szp;                   \
    st[(size_t)f * nm + nm - 1] = (STATE_T)AOT_SVDF_S8P_SAT(v, (LO == -128 ? 8 : 16), LO, HI); \
  }
#if defined(AOT_SVDF_S8P_DSP)
/* acc[f] = sum over k < 8 * n8 of w[f][k] * s[f][k] for nf >= 1 filters of
 * n8 >= 1 groups of eight int8 (rows contiguous; both operands sign-extended
 * by SXTB16): 18 instructions per eight taps, 5 more per filter */
#define AOT_SVDF_S8P_T4(T, U)                 \
  "sxtb16 %[v], %[" T "]\n\t"                 \
  "sxtb16 %[x], %[" U "]\n\t"                 \
  "smlad %[a], %[v], %[x], %[a]\n\t"          \
  "sxtb16 %[" T "], %[" T "], ror #8\n\t"     \
  "sxtb16 %[" U "], %[" U "], ror #8\n\t"     \
  "smlad %[a], %[" T "], %[" U "], %[a]\n\t"
AOT_INLINE void aot_svdf_s8p_time8(const int8_t *w, const int8_t *s, int32_t nf, int32_t n8,
                                   int32_t *acc) {
  int32_t a, k, t0, t1, u0, u1, v, x;
  __asm__ volatile(
      "1:\n\t"
      "mov %[a], #0\n\t"
      "mov %[k], %[n8]\n"
      "2:\n\t"
      "ldr %[t0], [%[w]], #4\n\t"
      "ldr %[u0], [%[s]], #4\n\t"
      "ldr %[t1], [%[w]], #4\n\t"
      "ldr %[u1], [%[s]], #4\n\t"
      AOT_SVDF_S8P_T4("t0", "u0")
      AOT_SVDF_S8P_T4("t1", "u1")
      "subs %[k], %[k], #1\n\t"
      "bne 2b\n\t"
      "str %[a], [%[o]], #4\n\t"
      "subs %[nf], %[nf], #1\n\t"
      "bne 1b\n"
      : [a] "=&r"(a), [k] "=&r"(k), [t0] "=&r"(t0), [t1] "=&r"(t1), [u0] "=&r"(u0),
        [u1] "=&r"(u1), [v] "=&r"(v), [x] "=&r"(x), [w] "+r"(w), [s] "+r"(s), [nf] "+r"(nf),
        [o] "+r"(acc)
      : [n8] "r"(n8)
      : "cc", "memory");
}
#define AOT_SVDF_S8P_TIME(TDOT)                                                          \
  if (sizeof(*st) == 1 && nm % 8 == 0)                                                   \
    aot_svdf_s8p_time8((const int8_t *)(const void *)weights_time,                       \
                       (const int8_t *)(const void *)st, nf, nm / 8, acc);               \
  else                                                                                   \
    for (f = 0; f < nf; f++)                                                             \
      acc[f] = TDOT(weights_time + (size_t)f * nm, st + (size_t)f * nm, nm);
#else
#define AOT_SVDF_S8P_TIME(TDOT)                                                          \
  for (f = 0; f < nf; f++) acc[f] = TDOT(weights_time + (size_t)f * nm, st + (size_t)f * nm, nm);
#endif
#define AOT_SVDF_S8P_OUTPUT                                                              \
  for (u = 0; u < nu; u++) {                                                             \
    const uint32_t a = (uint32_t)acc[u] + (uint32_t)bias_eff[u];                         \
    const int32_t av = a <= (uint32_t)INT32_MAX ? (int32_t)a                             \
                                                : (int32_t)(a - 2147483648u) + INT32_MIN; \
    const int32_t v = AOT_SVDF_S8P_QMUL(av, q2, f2, m2, r2) + ozp;                       \
    out[u] = (int8_t)AOT_SVDF_S8P_SAT(v, 8, -128, 127);                                  \
  }
#endif

/* the feature projection of one batch row: Arm DSP on word-aligned weights
 * and rows of at most AOT_SVDF_S8P_XW columns: the input widened once
 * (aot_rec_dot4w_s8); else aot_rec_dot4p_s8 */
#define AOT_SVDF_S8P_PORTABLE_PROJECT                                                    \
  for (f = 0; f < nf4; f += 4)                                                           \
    aot_rec_dot4p_s8(wf_packed + (size_t)(f / 4) * block, xp, ni, feat_bias + f, acc + f);
#if defined(AOT_SVDF_S8P_DSP)
#define AOT_SVDF_S8P_XW 256
#define AOT_SVDF_S8P_PROJECT                                                             \
  if (((ni + 3) & ~3) <= AOT_SVDF_S8P_XW && !((uintptr_t)wf_packed & 3)) {               \
    uint32_t xw[AOT_SVDF_S8P_XW / 2];                                                    \
    aot_rec_widen_s8(xp, (ni + 3) >> 2, xw);                                             \
    for (f = 0; f < nf4; f += 4)                                                         \
      aot_rec_dot4w_s8(wf_packed + (size_t)(f / 4) * block, xw, ni, feat_bias + f, acc + f); \
  } else {                                                                               \
    AOT_SVDF_S8P_PORTABLE_PROJECT                                                        \
  }
#else
#define AOT_SVDF_S8P_PROJECT AOT_SVDF_S8P_PORTABLE_PROJECT
#endif

#define AOT_SVDF_S8P_BODY(STATE_T, STATE_MIN, STATE_MAX, TDOT, SCATTER)                     \
  const int32_t nb = p->batch, ni = p->input_size, nf = p->num_filters;                    \
  const int32_t nu = p->num_units, nr = p->rank, nm = p->memory_size;                      \
  const int32_t nf4 = (nf + 3) & ~3, szp = p->state_zp, ozp = p->output_zp;                \
  const size_t block = 4u * (size_t)((ni + 3) & ~3);                                       \
  int32_t *acc = (int32_t *)scratch;                                                       \
  int8_t *xp = (int8_t *)(acc + nf4);                                                      \
  aot_rec_q q1, q2;                                                                        \
  int32_t b, f, u, r;                                                                      \
  if (nb <= 0 || ni <= 0 || nf <= 0 || nu <= 0 || nr <= 0 || nm <= 0 || nu * nr != nf)     \
    return AOT_KERNEL_BAD_PARAM;                                                           \
  if (!aot_rec_q_init(&q1, p->mult1, p->shift1) || !aot_rec_q_init(&q2, p->mult2, p->shift2)) \
    return AOT_KERNEL_BAD_PARAM;                                                           \
  {                                                                                        \
  const int f1 = q1.lsh == 0 && q1.rsh >= 1, f2 = q2.lsh == 0 && q2.rsh >= 1;              \
  const int32_t m1 = q1.m, r1 = q1.rsh - 1, m2 = q2.m, r2 = q2.rsh - 1;                    \
  (void)f1, (void)f2, (void)m1, (void)r1, (void)m2, (void)r2;                              \
  aot_rec_shift_bytes((uint8_t *)state, (size_t)nb * nf * nm * sizeof(STATE_T),            \
                      sizeof(STATE_T));                                                    \
  memset(xp, 0, (size_t)((ni + 3) & ~3));                                                  \
  for (b = 0; b < nb; b++) {                                                               \
    STATE_T *st = state + (size_t)b * nf * nm;                                             \
    int8_t *out = output + (size_t)b * nu;                                                 \
    memcpy(xp, input + (size_t)b * ni, (size_t)ni);                                        \
    /* feature projection into the newest column */                                       \
    AOT_SVDF_S8P_PROJECT                                                                   \
    AOT_SVDF_S8P_FEATURE(STATE_T, STATE_MIN, STATE_MAX, SCATTER)                           \
    /* time reduction per filter, then the rank sum in place (unit u reads filters        \
       u * rank.. >= u); the output pass adds the folded bias */                           \
    AOT_SVDF_S8P_TIME(TDOT)                                                                \
    if (nr > 1)                                                                            \
      for (u = 0; u < nu; u++) {                                                           \
        uint32_t a = 0;                                                                    \
        for (r = 0; r < nr; r++) a += (uint32_t)acc[u * nr + r];                           \
        acc[u] = a <= (uint32_t)INT32_MAX ? (int32_t)a : (int32_t)(a - 2147483648u) + INT32_MIN; \
      }                                                                                    \
    AOT_SVDF_S8P_OUTPUT                                                                    \
  }                                                                                        \
  }                                                                                        \
  return AOT_KERNEL_OK

int32_t aot_svdf_s8p_s8(const aot_svdf_params *p, const int8_t *input, const int8_t *wf_packed,
                        const int32_t *feat_bias, const int8_t *weights_time,
                        const int32_t *bias_eff, int8_t *state, int8_t *output, void *scratch) {
  AOT_SVDF_S8P_BODY(int8_t, -128, 127, aot_rec_dot0_s8, AOT_SVDF_S8P_SCATTER8);
}

int32_t aot_svdf_s8p_s16(const aot_svdf_params *p, const int8_t *input, const int8_t *wf_packed,
                         const int32_t *feat_bias, const int16_t *weights_time,
                         const int32_t *bias_eff, int16_t *state, int8_t *output,
                         void *scratch) {
  AOT_SVDF_S8P_BODY(int16_t, -32768, 32767, aot_rec_dot_s16, AOT_SVDF_S8P_SCATTER16);
}
