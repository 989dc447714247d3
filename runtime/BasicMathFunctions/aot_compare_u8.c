/* aot_compare_u8.c - EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER,
 * GREATER_EQUAL on uint8_t (raw values); output bool (uint8 0/1). */
#include "aot_elementwise.h"

#define AOT_CMP_A a
#define AOT_CMP_B b
#define AOT_CMP_DEF(NAME, OPR)                                                \
  AOT_INLINE uint8_t NAME(const aot_compare_params *p, uint8_t a, uint8_t b) {          \
    (void)p;                                                                        \
    return (uint8_t)(AOT_CMP_A OPR AOT_CMP_B);                                 \
  }

AOT_CMP_DEF(aot_cmp_u8_eq, ==)
AOT_CMP_DEF(aot_cmp_u8_ne, !=)
AOT_CMP_DEF(aot_cmp_u8_lt, <)
AOT_CMP_DEF(aot_cmp_u8_le, <=)
AOT_CMP_DEF(aot_cmp_u8_gt, >)
AOT_CMP_DEF(aot_cmp_u8_ge, >=)

int32_t aot_compare_u8(const aot_compare_params *p, const uint8_t *in1, const uint8_t *in2,
                       uint8_t *out) {
  switch (p->op) {
    case AOT_CMP_EQUAL: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_u8_eq, p); break;
    case AOT_CMP_NOT_EQUAL: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_u8_ne, p); break;
    case AOT_CMP_LESS: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_u8_lt, p); break;
    case AOT_CMP_LESS_EQUAL: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_u8_le, p); break;
    case AOT_CMP_GREATER: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_u8_gt, p); break;
    case AOT_CMP_GREATER_EQUAL: AOT_EW_BINARY(&p->bc, in1, in2, out, aot_cmp_u8_ge, p); break;
    default: return AOT_KERNEL_BAD_PARAM;
  }
  return AOT_KERNEL_OK;
}
