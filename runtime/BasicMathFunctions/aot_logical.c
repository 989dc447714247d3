/* aot_logical.c - LOGICAL_AND, LOGICAL_OR (broadcast) and LOGICAL_NOT on
 * bool tensors stored as uint8; any non-zero byte is true, results are 0/1. */
#include "aot_elementwise.h"

AOT_INLINE uint8_t aot_land_elem(const aot_bcast_params *p, uint8_t a, uint8_t b) {
  (void)p;
  return (uint8_t)(a != 0 && b != 0);
}

AOT_INLINE uint8_t aot_lor_elem(const aot_bcast_params *p, uint8_t a, uint8_t b) {
  (void)p;
  return (uint8_t)(a != 0 || b != 0);
}

int32_t aot_logical_and(const aot_bcast_params *p, const uint8_t *in1, const uint8_t *in2,
                        uint8_t *out) {
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_land_elem, p);
  return AOT_KERNEL_OK;
}

int32_t aot_logical_or(const aot_bcast_params *p, const uint8_t *in1, const uint8_t *in2,
                       uint8_t *out) {
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_lor_elem, p);
  return AOT_KERNEL_OK;
}

int32_t aot_logical_not(const aot_unary_params *p, const uint8_t *in, uint8_t *out) {
  int32_t i;
  for (i = 0; i < p->size; i++) out[i] = (uint8_t)(in[i] == 0);
  return AOT_KERNEL_OK;
}
