/* aot_maxmin_s16.c - MAXIMUM and MINIMUM int16_t on raw values (TFLite
 * MaximumMinimumBroadcastSlow: std::max / std::min, no requantization). */
#include "aot_elementwise.h"

AOT_INLINE int16_t aot_max_s16_elem(const aot_bcast_params *p, int16_t a, int16_t b) {
  (void)p;
  return a < b ? b : a;
}

AOT_INLINE int16_t aot_min_s16_elem(const aot_bcast_params *p, int16_t a, int16_t b) {
  (void)p;
  return b < a ? b : a;
}

int32_t aot_maximum_s16(const aot_bcast_params *p, const int16_t *in1, const int16_t *in2, int16_t *out) {
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_max_s16_elem, p);
  return AOT_KERNEL_OK;
}

int32_t aot_minimum_s16(const aot_bcast_params *p, const int16_t *in1, const int16_t *in2, int16_t *out) {
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_min_s16_elem, p);
  return AOT_KERNEL_OK;
}
