/* aot_compare_s8.c - EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER,
 * GREATER_EQUAL on int8_t with the TFLite input rescaling
 * (ComparisonWithScaling); output bool (uint8 0/1). */
#include "aot_elementwise.h"

#define AOT_CMP_A aot_cmp_scale(a, p->in1_offset, p->in1_mult, p->in1_shift, p->left_shift)
#define AOT_CMP_B aot_cmp_scale(b, p->in2_offset, p->in2_mult, p->in2_shift, p->left_shift)

AOT_INLINE int32_t aot_cmp_scale(int32_t x, int32_t offset, int32_t mult, int32_t shift,
                                 int32_t left_shift) {
  return aot_mbqm_lt1(aot_shl_i32(offset + x, left_shift), mult, shift);
}
#define AOT_CMP_DEF(NAME, OPR)                                                \
  AOT_INLINE uint8_t NAME(const aot_compare_params *p, int8_t a, int8_t b) {          \
    return (uint8_t)(AOT_CMP_A OPR AOT_CMP_B);                                 \
  }

AOT_CMP_DEF(aot_cmp_s8_eq, ==)
AOT_CMP_DEF(aot_cmp_s8_ne, !=)
AOT_CMP_DEF(aot_cmp_s8_lt, <)
AOT_CMP_DEF(aot_cmp_s8_le, <=)
AOT_CMP_DEF(aot_cmp_s8_gt, >)
AOT_CMP_DEF(aot_cmp_s8_ge, >=)

int32_t aot_compare_s8(const aot_compare_params *p, const int8_t *in1, const int8_t *in2,
                       uint8_t *out) {
  switch (p->op) {
    case AOT_CMP_EQUAL: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_s8_eq, p); break;
    case AOT_CMP_NOT_EQUAL: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_s8_ne, p); break;
    case AOT_CMP_LESS: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_s8_lt, p); break;
    case AOT_CMP_LESS_EQUAL: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_s8_le, p); break;
    case AOT_CMP_GREATER: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_s8_gt, p); break;
    case AOT_CMP_GREATER_EQUAL: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_s8_ge, p); break;
    default: return AOT_KERNEL_BAD_PARAM;
  }
  return AOT_KERNEL_OK;
}
