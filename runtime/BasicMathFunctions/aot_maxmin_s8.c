/* aot_maxmin_s8.c - MAXIMUM and MINIMUM int8_t on raw values (TFLite
 * MaximumMinimumBroadcastSlow: std::max / std::min, no requantization). */
#include "aot_elementwise.h"

AOT_INLINE int8_t aot_max_s8_elem(const aot_bcast_params *p, int8_t a, int8_t b) {
  (void)p;
  return a < b ? b : a;
}

AOT_INLINE int8_t aot_min_s8_elem(const aot_bcast_params *p, int8_t a, int8_t b) {
  (void)p;
  return b < a ? b : a;
}

int32_t aot_maximum_s8(const aot_bcast_params *p, const int8_t *in1, const int8_t *in2, int8_t *out) {
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_max_s8_elem, p);
  return AOT_KERNEL_OK;
}

int32_t aot_minimum_s8(const aot_bcast_params *p, const int8_t *in1, const int8_t *in2, int8_t *out) {
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_min_s8_elem, p);
  return AOT_KERNEL_OK;
}
