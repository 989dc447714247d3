/* aot_maxmin_f32.c - MAXIMUM and MINIMUM float on raw values (TFLite
 * MaximumMinimumBroadcastSlow: std::max / std::min, no requantization). */
#include "aot_elementwise.h"

AOT_INLINE float aot_max_f32_elem(const aot_bcast_params *p, float a, float b) {
  (void)p;
  return a < b ? b : a;
}

AOT_INLINE float aot_min_f32_elem(const aot_bcast_params *p, float a, float b) {
  (void)p;
  return b < a ? b : a;
}

int32_t aot_maximum_f32(const aot_bcast_params *p, const float *in1, const float *in2, float *out) {
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_max_f32_elem, p);
  return AOT_KERNEL_OK;
}

int32_t aot_minimum_f32(const aot_bcast_params *p, const float *in1, const float *in2, float *out) {
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_min_f32_elem, p);
  return AOT_KERNEL_OK;
}
