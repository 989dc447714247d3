/* aot_arg_minmax.c - ARG_MAX / ARG_MIN along one axis (first index wins on
 * ties, as in the reference kernel). */
#include "aot_movement.h"

#define AOT_ARG_LOOP(T)                                                       \
  do {                                                                        \
    const T *in = (const T *)input;                                           \
    for (o = 0; o < p->outer; o++) {                                          \
      for (k = 0; k < p->inner; k++) {                                        \
        const T *s = in + (long)o * p->axis_size * p->inner + k;              \
        T best = s[0];                                                        \
        int32_t bi = 0;                                                       \
        for (a = 1; a < p->axis_size; a++) {                                  \
          T v = s[(long)a * p->inner];                                        \
          if (p->is_min ? (v < best) : (v > best)) {                          \
            best = v;                                                         \
            bi = a;                                                           \
          }                                                                   \
        }                                                                     \
        if (p->out_is_64)                                                     \
          ((int64_t *)output)[(long)o * p->inner + k] = bi;                   \
        else                                                                  \
          ((int32_t *)output)[(long)o * p->inner + k] = bi;                   \
      }                                                                       \
    }                                                                         \
  } while (0)

int32_t aot_arg_minmax(const aot_arg_minmax_params *p, const void *input, void *output) {
  int32_t o, k, a;
  if (p->axis_size < 1 || p->outer < 0 || p->inner < 0) return AOT_KERNEL_BAD_PARAM;
  switch (p->in_type) {
    case AOT_MV_FLOAT32: AOT_ARG_LOOP(float); break;
    case AOT_MV_INT8: AOT_ARG_LOOP(int8_t); break;
    case AOT_MV_UINT8: AOT_ARG_LOOP(uint8_t); break;
    case AOT_MV_INT16: AOT_ARG_LOOP(int16_t); break;
    case AOT_MV_INT32: AOT_ARG_LOOP(int32_t); break;
    case AOT_MV_INT64: AOT_ARG_LOOP(int64_t); break;
    default: return AOT_KERNEL_BAD_PARAM;
  }
  return AOT_KERNEL_OK;
}
