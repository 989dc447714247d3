/* gru_ref_kernels.c - the GRU kernels compiled a second time with
 * AOT_NO_SIMD (the portable C loops) and renamed ref_*, so that
 * gru_kernels.c can compare them with the DSP (Cortex-M4) or Helium
 * (Cortex-M55) build of the same files in one firmware. */
#define AOT_NO_SIMD 1
#define aot_gru_f32 ref_gru_f32
#define aot_gru_f32_s8w ref_gru_f32_s8w
#define aot_gru_f32_f16w ref_gru_f32_f16w

#include "RecurrentFunctions/aot_gru_f32.c"
#include "RecurrentFunctions/aot_gru_s8w.c"

int32_t ref_gru_dot_s8(const int8_t *w, const int8_t *q, int32_t n);
int32_t ref_gru_dot_s8(const int8_t *w, const int8_t *q, int32_t n) {
  return aot_gru_dot_s8(w, q, n);
}
