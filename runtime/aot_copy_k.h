/* aot_copy_k.h - the walk shared by the N-d strided copy kernels
 * (aot_copy_nd, aot_copy_nd_dyn): checks the counts, then copies the
 * innermost rows (memmove when both strides are 1, else element by element
 * in the element size 1, 2, 4 or 8), advancing both offsets with an odometer
 * over the outer dimensions. The caller has checked rank and elem_size. */
#ifndef AOT_COPY_K_H
#define AOT_COPY_K_H

#include <string.h>

#include "aot_movement.h"

#define AOT_COPY_K_ROW(T)                                                       \
  do {                                                                          \
    const T *s_ = (const T *)input + in_off;                                    \
    T *d_ = (T *)output + out_off;                                              \
    for (k = 0; k < n; k++) d_[(long)k * os] = s_[(long)k * is];                \
  } while (0)

/* Copies c's rows from input + in_off to output + out_off (element offsets). */
AOT_INLINE int32_t aot_copy_walk(const aot_copy_params *c, const void *input, void *output,
                                 long in_off, long out_off) {
  int32_t idx[AOT_MV_MAX_DIMS];
  const int rank = c->rank;
  const size_t es = (size_t)c->elem_size;
  int32_t k, n, is, os;
  long total = 1;
  int d;
  for (d = 0; d < rank; d++) {
    if (c->count[d] < 0) return AOT_KERNEL_BAD_PARAM;
    total *= c->count[d];
    idx[d] = 0;
  }
  if (total == 0) return AOT_KERNEL_OK;
  n = c->count[rank - 1];
  is = c->in_stride[rank - 1];
  os = c->out_stride[rank - 1];
  do {
    if (is == 1 && os == 1) {
      const unsigned char *s = (const unsigned char *)input + (size_t)in_off * es;
      unsigned char *t = (unsigned char *)output + (size_t)out_off * es;
      if (s != t) memmove(t, s, (size_t)n * es);
    } else {
      switch (es) {
        case 1: AOT_COPY_K_ROW(uint8_t); break;
        case 2: AOT_COPY_K_ROW(uint16_t); break;
        case 4: AOT_COPY_K_ROW(uint32_t); break;
        default: AOT_COPY_K_ROW(uint64_t); break;
      }
    }
  } while (aot_mv_next2(idx, c->count, c->in_stride, c->out_stride, rank - 1, &in_off, &out_off));
  return AOT_KERNEL_OK;
}

#endif /* AOT_COPY_K_H */
