/* aot_requantize.c - QUANTIZE between integer types (reference_ops
 * Requantize): out = clamp(mbqm(x - in_zp, mult, shift) + out_zp) for int8,
 * uint8, int16 and int32 inputs and outputs. */
#include "aot_elementwise.h"

#define AOT_RQ_LOOP(TI, TO, LO, HI)                                              \
  do {                                                                           \
    const TI *x = (const TI *)in;                                                \
    TO *y = (TO *)out;                                                           \
    for (i = 0; i < p->size; i++) {                                              \
      const int32_t v = aot_wrap_add_i32((int32_t)x[i], -p->in_zp);              \
      const int64_t o = (int64_t)aot_mbqm(v, p->mult, p->shift) + p->out_zp;     \
      y[i] = (TO)(o < (LO) ? (LO) : (o > (HI) ? (HI) : o));                      \
    }                                                                            \
  } while (0)

#define AOT_RQ_OUT(TI)                                                           \
  switch (p->out_type) {                                                         \
    case AOT_RQ_S8: AOT_RQ_LOOP(TI, int8_t, INT8_MIN, INT8_MAX); break;          \
    case AOT_RQ_U8: AOT_RQ_LOOP(TI, uint8_t, 0, UINT8_MAX); break;               \
    case AOT_RQ_S16: AOT_RQ_LOOP(TI, int16_t, INT16_MIN, INT16_MAX); break;      \
    case AOT_RQ_S32: AOT_RQ_LOOP(TI, int32_t, INT32_MIN, INT32_MAX); break;      \
    default: return AOT_KERNEL_BAD_PARAM;                                        \
  }

int32_t aot_requantize(const aot_requant_params *p, const void *in, void *out) {
  int32_t i;
  if (p->in_zp == INT32_MIN) return AOT_KERNEL_BAD_PARAM;
  switch (p->in_type) {
    case AOT_RQ_S8: AOT_RQ_OUT(int8_t); break;
    case AOT_RQ_U8: AOT_RQ_OUT(uint8_t); break;
    case AOT_RQ_S16: AOT_RQ_OUT(int16_t); break;
    case AOT_RQ_S32: AOT_RQ_OUT(int32_t); break;
    default: return AOT_KERNEL_BAD_PARAM;
  }
  return AOT_KERNEL_OK;
}
