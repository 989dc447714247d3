/* aot_mul_s8.c - MUL int8_t (reference_integer_ops MulElementwise): the product
 * of the offset inputs is rescaled with one multiplier; the template in
 * aot_ew_q.h, with the fast rows of aot_ew_simd.h (contiguous rows:
 * aot_ews_mul8_contig, SMMULR on Arm DSP, VQRDMLAH on Helium). */
#include "aot_ew_q.h"

/* The variant this file builds (aot_ew_simd.h): Helium, Arm DSP or portable. */
#if defined(AOT_EWS_MVE)
#define AOT_MUL_S8_MVE 1
#elif defined(AOT_EWS_DSP)
#define AOT_MUL_S8_DSP 1
#endif

AOT_EWQ_MUL_BODY(aot_mul_s8, int8_t, vldrbq_z_s32, vstrbq_p_s32)

int32_t aot_mul_s8(const aot_mul_q_params *p, const int8_t *in1, const int8_t *in2,
                   int8_t *out) {
  return aot_mul_s8_run(p, in1, in2, out);
}
