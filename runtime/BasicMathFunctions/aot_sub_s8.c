/* aot_sub_s8.c - SUB int8_t, TFLite general quantized path: both inputs are
 * rescaled to a common scale with left_shift headroom, then subtracted and
 * rescaled to the output (reference_ops AddElementwise / SubElementwise); the
 * template in aot_ew_q.h, with the fast rows of aot_ew_simd.h (flat int8
 * rows: a 256-entry rescale table of the input with the smaller scale). */
#include "aot_ew_q.h"

/* The variant this file builds (aot_ew_simd.h): Helium, Arm DSP (the
 * rescale table with SMMLAR for flat rows), or portable. */
#if defined(AOT_EWS_MVE)
#define AOT_SUB_S8_MVE 1
#elif defined(AOT_EWS_DSP)
#define AOT_SUB_S8_DSP 1
#endif

AOT_EWQ_ADDSUB(aot_sub_s8, aot_sub_s8_flat,
               int8_t, -, vsubq_s32, vldrbq_z_s32, vstrbq_p_s32, 1, 255, 20, 0, 1)

int32_t aot_sub_s8(const aot_addsub_q_params *p, const int8_t *in1,
                   const int8_t *in2, int8_t *out) {
  return aot_sub_s8_run(p, in1, in2, out);
}

int32_t aot_sub_s8_flat(const aot_addsub_q_params *p, const int8_t *in1,
                        const int8_t *in2, int8_t *out) {
  return aot_sub_s8_flat_run(p, in1, in2, out);
}

AOT_EWQ_ADDSUB_TAB(aot_sub_s8, aot_sub_s8_tab, 0)

int32_t aot_sub_s8_tab(const aot_addsub_q_params *p, const int8_t *in1,
                       const int8_t *in2, int8_t *out, void *scratch) {
  return aot_sub_s8_tab_run(p, in1, in2, out, scratch);
}
