/* aot_gather.c - GATHER along one axis with batch_dims (TFLite reference
 * semantics; out-of-range indices fail). */
#include <string.h>

#include "aot_movement.h"

int32_t aot_gather(const aot_gather_params *p, const void *input, const void *indices,
                   void *output) {
  int32_t b, o, c;
  size_t es = (size_t)p->elem_size;
  size_t row = (size_t)p->inner * es;
  const unsigned char *in = (const unsigned char *)input;
  unsigned char *out = (unsigned char *)output;
  if (p->batch < 0 || p->outer < 0 || p->axis_size < 0 || p->inner < 0 || p->coords < 0)
    return AOT_KERNEL_BAD_PARAM;
  for (b = 0; b < p->batch; b++) {
    for (o = 0; o < p->outer; o++) {
      const unsigned char *src = in + ((size_t)b * p->outer + o) * p->axis_size * row;
      unsigned char *dst = out + ((size_t)b * p->outer + o) * p->coords * row;
      for (c = 0; c < p->coords; c++) {
        int64_t ix;
        size_t pos = (size_t)b * p->coords + c;
        if (p->index_is_64) {
          ix = ((const int64_t *)indices)[pos];
        } else {
          ix = ((const int32_t *)indices)[pos];
        }
        if (ix < 0 || ix >= p->axis_size) return AOT_KERNEL_INDEX_RANGE;
        memcpy(dst + (size_t)c * row, src + (size_t)ix * row, row);
      }
    }
  }
  return AOT_KERNEL_OK;
}
