/* aot_copy_nd.c - N-d strided element copy (RESHAPE, CONCATENATION, PAD,
 * STRIDED_SLICE, SLICE, TRANSPOSE, SPLIT, PACK, UNPACK, REVERSE_V2, TILE,
 * BROADCAST_TO, DEPTH_TO_SPACE, SPACE_TO_DEPTH, SHAPE). */
#include <string.h>

#include "aot_movement.h"

#define AOT_COPY_ROW(T)                                                   \
  do {                                                                    \
    const T *s_ = (const T *)input + in_off;                              \
    T *d_ = (T *)output + out_off;                                        \
    for (k = 0; k < n; k++) d_[(long)k * os] = s_[(long)k * is];          \
  } while (0)

int32_t aot_copy_nd(const aot_copy_params *p, const void *input, void *output) {
  int32_t idx[AOT_MV_MAX_DIMS];
  int32_t k, n, is, os;
  int rank = p->rank, outer_rank, d;
  long in_off = p->in_offset, out_off = p->out_offset;
  long total = 1;
  size_t es = (size_t)p->elem_size;

  if (rank < 1 || rank > AOT_MV_MAX_DIMS) return AOT_KERNEL_BAD_PARAM;
  if (es != 1 && es != 2 && es != 4 && es != 8) return AOT_KERNEL_BAD_PARAM;
  for (d = 0; d < rank; d++) {
    if (p->count[d] < 0) return AOT_KERNEL_BAD_PARAM;
    total *= p->count[d];
    idx[d] = 0;
  }
  if (total == 0) return AOT_KERNEL_OK;

  n = p->count[rank - 1];
  is = p->in_stride[rank - 1];
  os = p->out_stride[rank - 1];
  outer_rank = rank - 1;
  for (;;) {
    if (is == 1 && os == 1) {
      const unsigned char *s = (const unsigned char *)input + (size_t)in_off * es;
      unsigned char *t = (unsigned char *)output + (size_t)out_off * es;
      if (s != t) memmove(t, s, (size_t)n * es);
    } else if (es == 1) {
      AOT_COPY_ROW(uint8_t);
    } else if (es == 2) {
      AOT_COPY_ROW(uint16_t);
    } else if (es == 4) {
      AOT_COPY_ROW(uint32_t);
    } else {
      AOT_COPY_ROW(uint64_t);
    }
    if (!aot_mv_next2(idx, p->count, p->in_stride, p->out_stride, outer_rank, &in_off,
                      &out_off))
      break;
  }
  return AOT_KERNEL_OK;
}
