/* aot_compare_s8.c - EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER,
 * GREATER_EQUAL on int8_t with the TFLite input rescaling
 * (ComparisonWithScaling); output bool (uint8 0/1). */
#include "aot_ew_kernels.h"

AOT_INLINE int32_t aot_cmp_scale(int32_t x, int32_t offset, int32_t mult, int32_t shift,
                                 int32_t left_shift) {
  return aot_mbqm_lt1(aot_shl_i32(offset + x, left_shift), mult, shift);
}

AOT_EWK_COMPARE(aot_compare_s8, int8_t,
                aot_cmp_scale(a, p->in1_offset, p->in1_mult, p->in1_shift, p->left_shift),
                aot_cmp_scale(b, p->in2_offset, p->in2_mult, p->in2_shift, p->left_shift))
