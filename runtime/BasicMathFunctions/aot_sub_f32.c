/* aot_sub_f32.c - SUB float32 with the activation clamp
 * (min(max(x, act_min), act_max) as TFLite ActivationFunctionWithMinMax). */
#include "aot_elementwise.h"

AOT_INLINE float aot_sub_f32_elem(const aot_arith_f32_params *p, float a, float b) {
  float x = a - b;
  x = x < p->act_min ? p->act_min : x;
  return p->act_max < x ? p->act_max : x;
}

int32_t aot_sub_f32(const aot_arith_f32_params *p, const float *in1, const float *in2,
                   float *out) {
  AOT_EW_BINARY(&p->bc, in1, in2, out, aot_sub_f32_elem, p);
  return AOT_KERNEL_OK;
}
