/* aot_svdf_s8.c - integer SVDF (TFLite Micro reference arithmetic).
 *
 * Stage 1: shift the state left by one time step and write
 *   clamp(state_zp + mbqm(sum_k wf[f][k] * (x[k] - input_zp), mult1, shift1))
 * into the newest column of every filter.
 * Stage 2: per filter, sum_t wt[f][t] * (state[f][t] - state_zp) (int32),
 * sum each unit's `rank` filters onto its bias, rescale with mult2/shift2,
 * add the output zero point and saturate to int8. No activation is applied
 * (the TFLM integer kernel applies none).
 *
 * The int8 dot products use aot_rec_dot_s8 (Helium / Arm DSP paths, see
 * aot_rec_simd.h); the state shift moves 16 (Helium) or 4 (Arm DSP) bytes per step. */
#include "../aot_recurrent.h"
#include "../aot_rec_simd.h"

#define AOT_SVDF_BODY(STATE_T, STATE_MIN, STATE_MAX, TDOT)                              \
  const int32_t nb = p->batch, ni = p->input_size, nf = p->num_filters;             \
  const int32_t nu = p->num_units, nr = p->rank, nm = p->memory_size;               \
  int32_t *acc_f = scratch;                  /* [batch, num_filters] */             \
  int32_t *acc_u = scratch + (size_t)nb * nf; /* [batch, num_units] */              \
  int32_t b, f, u, r;                                                               \
  size_t total;                                                                     \
  if (nb <= 0 || ni <= 0 || nf <= 0 || nu <= 0 || nr <= 0 || nm <= 0 ||             \
      nu * nr != nf)                                                                \
    return AOT_KERNEL_BAD_PARAM;                                                    \
  /* shift the whole state left by one element (TFLM shifts the flat buffer) */     \
  total = (size_t)nb * (size_t)nf * (size_t)nm;                                     \
  aot_rec_shift_bytes((uint8_t *)state, total * sizeof(STATE_T), sizeof(STATE_T));  \
  /* feature projection into the newest column */                                   \
  for (b = 0; b < nb; b++) {                                                        \
    const int8_t *x = input + (size_t)b * ni;                                       \
    for (f = 0; f < nf; f++) {                                                      \
      const int8_t *w = weights_feature + (size_t)f * ni;                           \
      int32_t v = aot_rec_mbqm(aot_rec_dot_s8(w, x, ni, -p->input_zp), p->mult1, p->shift1) + \
                  p->state_zp;                                                      \
      v = aot_clamp_i32(v, STATE_MIN, STATE_MAX);                                   \
      state[((size_t)b * nf + f) * nm + (nm - 1)] = (STATE_T)v;                     \
    }                                                                               \
  }                                                                                 \
  /* time reduction */                                                              \
  for (b = 0; b < nb; b++) {                                                        \
    for (f = 0; f < nf; f++) {                                                      \
      const STATE_T *s = state + ((size_t)b * nf + f) * nm;                         \
      const STATE_T *w = weights_time + (size_t)f * nm;                             \
      acc_f[(size_t)b * nf + f] = TDOT(w, s, nm, -p->state_zp);                     \
    }                                                                               \
  }                                                                                 \
  /* bias, rank reduction, rescale */                                               \
  for (b = 0; b < nb; b++) {                                                        \
    for (u = 0; u < nu; u++) {                                                      \
      /* int32 wrap-around (as the Arm kernels add), without C overflow */          \
      uint32_t w32 = bias ? (uint32_t)bias[u] : 0u;                                 \
      int32_t a, v;                                                                 \
      for (r = 0; r < nr; r++) w32 += (uint32_t)acc_f[(size_t)b * nf + (size_t)u * nr + r]; \
      a = (int32_t)w32;                                                             \
      acc_u[(size_t)b * nu + u] = a;                                                \
      v = aot_rec_mbqm(a, p->mult2, p->shift2) + p->output_zp;                          \
      output[(size_t)b * nu + u] = (int8_t)aot_clamp_i32(v, -128, 127);             \
    }                                                                               \
  }                                                                                 \
  return AOT_KERNEL_OK

AOT_INLINE int32_t aot_svdf_dot_s16(const int16_t *w, const int16_t *s, int32_t n,
                                    int32_t off) {
  int32_t k, dot = 0;
  for (k = 0; k < n; k++) dot += (int32_t)w[k] * ((int32_t)s[k] + off);
  return dot;
}

int32_t aot_svdf_s8_s16(const aot_svdf_params *p, const int8_t *input,
                        const int8_t *weights_feature, const int16_t *weights_time,
                        const int32_t *bias, int16_t *state, int8_t *output,
                        int32_t *scratch) {
  AOT_SVDF_BODY(int16_t, -32768, 32767, aot_svdf_dot_s16);
}

int32_t aot_svdf_s8_s8(const aot_svdf_params *p, const int8_t *input,
                       const int8_t *weights_feature, const int8_t *weights_time,
                       const int32_t *bias, int8_t *state, int8_t *output,
                       int32_t *scratch) {
  AOT_SVDF_BODY(int8_t, -128, 127, aot_rec_dot_s8);
}
