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
 * compiler uses this kernel only when both multipliers suit it).
 * AOT_SVDF_S8P_MVE / AOT_SVDF_S8P_DSP name the variant built. */
#include <string.h>

#include "../aot_recurrent.h"
#include "../aot_rec_simd.h"

#if defined(AOT_REC_MVE)
#define AOT_SVDF_S8P_MVE 1
#elif defined(AOT_REC_DSP)
#define AOT_SVDF_S8P_DSP 1
#endif

#define AOT_SVDF_S8P_BODY(STATE_T, STATE_MIN, STATE_MAX, TDOT)                              \
  const int32_t nb = p->batch, ni = p->input_size, nf = p->num_filters;                    \
  const int32_t nu = p->num_units, nr = p->rank, nm = p->memory_size;                      \
  const int32_t nf4 = (nf + 3) & ~3;                                                       \
  const size_t block = 4u * (size_t)((ni + 3) & ~3);                                       \
  int32_t *acc = (int32_t *)scratch;                                                       \
  int8_t *xp = (int8_t *)(acc + nf4);                                                      \
  aot_rec_q q1, q2;                                                                        \
  int32_t b, f, u, r;                                                                      \
  if (nb <= 0 || ni <= 0 || nf <= 0 || nu <= 0 || nr <= 0 || nm <= 0 || nu * nr != nf)     \
    return AOT_KERNEL_BAD_PARAM;                                                           \
  if (!aot_rec_q_init(&q1, p->mult1, p->shift1) || !aot_rec_q_init(&q2, p->mult2, p->shift2)) \
    return AOT_KERNEL_BAD_PARAM;                                                           \
  aot_rec_shift_bytes((uint8_t *)state, (size_t)nb * nf * nm * sizeof(STATE_T),            \
                      sizeof(STATE_T));                                                    \
  memset(xp, 0, (size_t)((ni + 3) & ~3));                                                  \
  for (b = 0; b < nb; b++) {                                                               \
    STATE_T *st = state + (size_t)b * nf * nm;                                             \
    int8_t *out = output + (size_t)b * nu;                                                 \
    memcpy(xp, input + (size_t)b * ni, (size_t)ni);                                        \
    for (f = 0; f < nf4; f += 4)                                                           \
      aot_rec_dot4p_s8(wf_packed + (size_t)(f / 4) * block, xp, ni, feat_bias + f, acc + f); \
    for (f = 0; f < nf; f++) {                                                             \
      const int32_t v = aot_rec_qmul(acc[f], &q1) + p->state_zp;                           \
      st[(size_t)f * nm + nm - 1] = (STATE_T)aot_clamp_i32(v, STATE_MIN, STATE_MAX);       \
    }                                                                                      \
    for (u = 0; u < nu; u++) {                                                             \
      uint32_t a = (uint32_t)bias_eff[u];                                                  \
      int32_t v;                                                                           \
      for (r = 0; r < nr; r++) {                                                           \
        const size_t fo = ((size_t)u * nr + r) * nm;                                       \
        a += (uint32_t)TDOT(weights_time + fo, st + fo, nm);                               \
      }                                                                                    \
      v = aot_rec_qmul(a <= (uint32_t)INT32_MAX ? (int32_t)a                               \
                                                : (int32_t)(a - 2147483648u) + INT32_MIN,  \
                       &q2) +                                                              \
          p->output_zp;                                                                    \
      out[u] = (int8_t)aot_clamp_i32(v, -128, 127);                                        \
    }                                                                                      \
  }                                                                                        \
  return AOT_KERNEL_OK

int32_t aot_svdf_s8p_s8(const aot_svdf_params *p, const int8_t *input, const int8_t *wf_packed,
                        const int32_t *feat_bias, const int8_t *weights_time,
                        const int32_t *bias_eff, int8_t *state, int8_t *output, void *scratch) {
  AOT_SVDF_S8P_BODY(int8_t, -128, 127, aot_rec_dot0_s8);
}

int32_t aot_svdf_s8p_s16(const aot_svdf_params *p, const int8_t *input, const int8_t *wf_packed,
                         const int32_t *feat_bias, const int16_t *weights_time,
                         const int32_t *bias_eff, int16_t *state, int8_t *output,
                         void *scratch) {
  AOT_SVDF_S8P_BODY(int16_t, -32768, 32767, aot_rec_dot_s16);
}
