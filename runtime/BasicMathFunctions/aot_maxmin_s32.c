/* aot_maxmin_s32.c - MAXIMUM and MINIMUM int32_t on raw values (TFLite
 * MaximumMinimumBroadcastSlow: std::max / std::min, no requantization). */
#include "aot_elementwise.h"

AOT_INLINE int32_t aot_max_s32_elem(const aot_bcast_params *p, int32_t a, int32_t b) {
  (void)p;
  return a < b ? b : a;
}

AOT_INLINE int32_t aot_min_s32_elem(const aot_bcast_params *p, int32_t a, int32_t b) {
  (void)p;
  return b < a ? b : a;
}

int32_t aot_maximum_s32(const aot_bcast_params *p, const int32_t *in1, const int32_t *in2, int32_t *out) {
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_max_s32_elem, p);
  return AOT_KERNEL_OK;
}

int32_t aot_minimum_s32(const aot_bcast_params *p, const int32_t *in1, const int32_t *in2, int32_t *out) {
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_min_s32_elem, p);
  return AOT_KERNEL_OK;
}
