/* aot_add_s16_pot.c - ADD int16 with power-of-two scales and zero points 0
 * (TFLite pot_scale_int16 path): the input with the finer scale is rounded
 * down to the output scale, then the values are added (saturating) and clamped. */
#include "aot_elementwise.h"

AOT_INLINE int16_t aot_add_pot_elem(const aot_addsub_pot_params *p, int16_t a, int16_t b) {
  const int32_t x1 = aot_rdbpot(a, -p->in1_shift);
  const int32_t x2 = aot_rdbpot(b, -p->in2_shift);
  return (int16_t)aot_clamp_i32(x1 + x2, p->act_min, p->act_max);
}

int32_t aot_add_s16_pot(const aot_addsub_pot_params *p, const int16_t *in1, const int16_t *in2,
                       int16_t *out) {
  if (p->in1_shift > 0 || p->in2_shift > 0) return AOT_KERNEL_BAD_PARAM;
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_add_pot_elem, p);
  return AOT_KERNEL_OK;
}
