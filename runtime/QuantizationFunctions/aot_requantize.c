/* aot_requantize.c - QUANTIZE between integer types (reference_ops
 * Requantize): out = clamp(mbqm(x - in_zp, mult, shift) + out_zp), one entry
 * point per (input, output) type pair aotc accepts, aot_requantize_<in>_<out>
 * (int8 s8, uint8 u8, int16 s16, int32 s32), so a module links only the pairs
 * its layers use (in_type / out_type of the params are the pair's codes). */
#include "aot_elementwise.h"

#define AOT_RQ_KERNEL(NAME, TI, TO, LO, HI)                                          \
  int32_t NAME(const aot_requant_params *p, const TI *in, TO *out) {                 \
    int32_t i;                                                                       \
    if (p->in_zp == INT32_MIN) return AOT_KERNEL_BAD_PARAM;                          \
    for (i = 0; i < p->size; i++) {                                                  \
      const int32_t v = aot_wrap_add_i32((int32_t)in[i], -p->in_zp);                 \
      const int64_t o = (int64_t)aot_mbqm(v, p->mult, p->shift) + p->out_zp;         \
      out[i] = (TO)(o < (LO) ? (LO) : (o > (HI) ? (HI) : o));                        \
    }                                                                                \
    return AOT_KERNEL_OK;                                                            \
  }

AOT_RQ_KERNEL(aot_requantize_s8_s8, int8_t, int8_t, INT8_MIN, INT8_MAX)
AOT_RQ_KERNEL(aot_requantize_s8_u8, int8_t, uint8_t, 0, UINT8_MAX)
AOT_RQ_KERNEL(aot_requantize_s8_s16, int8_t, int16_t, INT16_MIN, INT16_MAX)
AOT_RQ_KERNEL(aot_requantize_s8_s32, int8_t, int32_t, INT32_MIN, INT32_MAX)
AOT_RQ_KERNEL(aot_requantize_u8_s8, uint8_t, int8_t, INT8_MIN, INT8_MAX)
AOT_RQ_KERNEL(aot_requantize_s16_s8, int16_t, int8_t, INT8_MIN, INT8_MAX)
AOT_RQ_KERNEL(aot_requantize_s16_s16, int16_t, int16_t, INT16_MIN, INT16_MAX)
AOT_RQ_KERNEL(aot_requantize_s16_s32, int16_t, int32_t, INT32_MIN, INT32_MAX)
AOT_RQ_KERNEL(aot_requantize_s32_s8, int32_t, int8_t, INT8_MIN, INT8_MAX)
AOT_RQ_KERNEL(aot_requantize_s32_s16, int32_t, int16_t, INT16_MIN, INT16_MAX)
