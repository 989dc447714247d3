/* aot_fill.c - fill a tensor with one value (FILL, ZEROS_LIKE, PAD border). */
#include <string.h>

#include "aot_movement.h"

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
    case 2: {
      uint16_t v, *o = (uint16_t *)output;
      memcpy(&v, value, 2);
      for (i = 0; i < n; i++) o[i] = v;
      break;
    }
    case 4: {
      uint32_t v, *o = (uint32_t *)output;
      memcpy(&v, value, 4);
      for (i = 0; i < n; i++) o[i] = v;
      break;
    }
    case 8: {
      uint64_t v, *o = (uint64_t *)output;
      memcpy(&v, value, 8);
      for (i = 0; i < n; i++) o[i] = v;
      break;
    }
    default:
      return AOT_KERNEL_BAD_PARAM;
  }
  return AOT_KERNEL_OK;
}
