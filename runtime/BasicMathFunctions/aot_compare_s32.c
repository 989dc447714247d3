/* aot_compare_s32.c - EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER,
 * GREATER_EQUAL on int32_t; output bool (uint8 0/1). */
#include "aot_elementwise.h"

#define AOT_CMP_A a
#define AOT_CMP_B b
#define AOT_CMP_DEF(NAME, OPR)                                                \
  AOT_INLINE uint8_t NAME(const aot_compare_params *p, int32_t a, int32_t b) {          \
    (void)p;                                                                        \
    return (uint8_t)(AOT_CMP_A OPR AOT_CMP_B);                                 \
  }

AOT_CMP_DEF(aot_cmp_s32_eq, ==)
AOT_CMP_DEF(aot_cmp_s32_ne, !=)
AOT_CMP_DEF(aot_cmp_s32_lt, <)
AOT_CMP_DEF(aot_cmp_s32_le, <=)
AOT_CMP_DEF(aot_cmp_s32_gt, >)
AOT_CMP_DEF(aot_cmp_s32_ge, >=)

int32_t aot_compare_s32(const aot_compare_params *p, const int32_t *in1, const int32_t *in2,
                       uint8_t *out) {
  switch (p->op) {
    case AOT_CMP_EQUAL: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_s32_eq, p); break;
    case AOT_CMP_NOT_EQUAL: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_s32_ne, p); break;
    case AOT_CMP_LESS: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_s32_lt, p); break;
    case AOT_CMP_LESS_EQUAL: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_s32_le, p); break;
    case AOT_CMP_GREATER: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_s32_gt, p); break;
    case AOT_CMP_GREATER_EQUAL: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_s32_ge, p); break;
    default: return AOT_KERNEL_BAD_PARAM;
  }
  return AOT_KERNEL_OK;
}
