/* aot_fill.c - fill a tensor with one value (FILL, ZEROS_LIKE, PAD border). */
#include <string.h>

#include "aot_movement.h"

/* the n elements of type T set to the value's bytes */
#define AOT_FILL_N(T)                                           \
  do {                                                          \
    T v_, *o_ = (T *)output;                                    \
    memcpy(&v_, value, sizeof v_);                              \
    for (i = 0; i < n; i++) o_[i] = v_;                         \
  } while (0)

int32_t aot_fill(const aot_fill_params *p, const void *value, void *output) {
  int32_t i, n = p->count;
  if (n < 0) return AOT_KERNEL_BAD_PARAM;
  switch (p->elem_size) {
    case 1: {
      unsigned char v;
      memcpy(&v, value, 1);
      memset(output, v, (size_t)n);
      break;
    }
    case 2: AOT_FILL_N(uint16_t); break;
    case 4: AOT_FILL_N(uint32_t); break;
    case 8: AOT_FILL_N(uint64_t); break;
    default:
      return AOT_KERNEL_BAD_PARAM;
  }
  return AOT_KERNEL_OK;
}
