/* aot_add_s16.c - ADD int16_t, TFLite general quantized path: both inputs are
 * rescaled to a common scale with left_shift headroom, then summed and
 * rescaled to the output (reference_ops AddElementwise / SubElementwise); the
 * template in aot_ew_q.h, with the fast rows of aot_ew_simd.h. */
#include "aot_ew_q.h"

/* The variant this file builds (aot_ew_simd.h): Helium, Arm DSP (flat rows:
 * SMMULR / SMMLAR, aot_ews_s16_flat, and aot_ews_s16_bcast for broadcasts
 * with contiguous rows), or portable. */
#if defined(AOT_EWS_MVE)
#define AOT_ADD_S16_MVE 1
#elif defined(AOT_EWS_DSP)
#define AOT_ADD_S16_DSP 1
#endif

AOT_EWQ_ADDSUB(aot_add_s16, aot_add_s16_flat,
               int16_t, +, vaddq_s32, vldrhq_z_s32, vstrhq_p_s32, 0, 65535, 15, 1, 0)

int32_t aot_add_s16(const aot_addsub_q_params *p, const int16_t *in1,
                    const int16_t *in2, int16_t *out) {
  return aot_add_s16_run(p, in1, in2, out);
}

int32_t aot_add_s16_flat(const aot_addsub_q_params *p, const int16_t *in1,
                         const int16_t *in2, int16_t *out) {
  return aot_add_s16_flat_run(p, in1, in2, out);
}
