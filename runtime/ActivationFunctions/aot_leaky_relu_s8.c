/* aot_leaky_relu_s8.c - LEAKY_RELU int8 (reference_ops QuantizeLeakyRelu):
 * identity multiplier for x >= zero point, alpha multiplier below. The fast
 * paths of aot_leaky_simd.h (Helium: four lanes per step; Arm DSP: SMMULR and
 * SSAT per element) where the parameters allow, else the portable loop of
 * aot_act_q.h; the results are the same bytes. */
#include "aot_act_q.h"
#include "aot_leaky_simd.h"

/* The variant this file builds (aot_leaky_simd.h / aot_ew_simd.h). */
#if defined(AOT_EWS_MVE)
#define AOT_LEAKY_RELU_S8_MVE 1
#elif defined(AOT_EWS_DSP)
#define AOT_LEAKY_RELU_S8_DSP 1
#endif

static AOT_ACTQ_LEAKY_RELU(aot_leaky_relu_s8_port, int8_t, INT8_MIN, INT8_MAX)

int32_t aot_leaky_relu_s8(const aot_leaky_relu_q_params *p, const int8_t *in, int8_t *out) {
  AOT_LRS_TRY(p, int8_t, INT8_MIN, INT8_MAX, vldrbq_z_s32, vstrbq_p_s32, in, out)
  return aot_leaky_relu_s8_port(p, in, out);
}
