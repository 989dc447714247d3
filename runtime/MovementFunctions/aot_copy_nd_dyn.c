/* aot_copy_nd_dyn.c - N-d strided element copy at an offset read at run time
 * (SLICE / STRIDED_SLICE with a run-time begin, DYNAMIC_UPDATE_SLICE). */
#include <string.h>

#include "aot_movement.h"

#define AOT_COPY_DYN_ROW(T)                                               \
  do {                                                                    \
    const T *s_ = (const T *)input + in_off;                              \
    T *d_ = (T *)output + out_off;                                        \
    for (k = 0; k < n; k++) d_[(long)k * os] = s_[(long)k * is];          \
  } while (0)

int32_t aot_copy_nd_dyn(const aot_copy_dyn_params *p, const void *begin, const void *input,
                        void *output) {
  const aot_copy_params *c = &p->copy;
  int32_t idx[AOT_MV_MAX_DIMS];
  int32_t k, n, is, os;
  int rank = c->rank, outer_rank, d;
  int64_t shift = 0;
  long in_off, out_off;
  long total = 1;
  size_t es = (size_t)c->elem_size;

  if (rank < 1 || rank > AOT_MV_MAX_DIMS) return AOT_KERNEL_BAD_PARAM;
  if (es != 1 && es != 2 && es != 4 && es != 8) return AOT_KERNEL_BAD_PARAM;
  if (p->nbegin < 0 || p->nbegin > AOT_MV_MAX_DIMS) return AOT_KERNEL_BAD_PARAM;
  for (d = 0; d < p->nbegin; d++) {
    int64_t v = p->begin_is_64 ? ((const int64_t *)begin)[d] : ((const int32_t *)begin)[d];
    if (v < 0) v += p->wrap[d];
    if (v < p->lo[d] || v > p->hi[d]) {
      if (!p->clamp) return AOT_KERNEL_INDEX_RANGE;
      v = v < p->lo[d] ? p->lo[d] : p->hi[d];
    }
    shift += v * p->stride[d];
  }
  in_off = c->in_offset;
  out_off = c->out_offset;
  if (p->on_output) out_off += (long)shift;
  else in_off += (long)shift;
  for (d = 0; d < rank; d++) {
    if (c->count[d] < 0) return AOT_KERNEL_BAD_PARAM;
    total *= c->count[d];
    idx[d] = 0;
  }
  if (total == 0) return AOT_KERNEL_OK;

  n = c->count[rank - 1];
  is = c->in_stride[rank - 1];
  os = c->out_stride[rank - 1];
  outer_rank = rank - 1;
  for (;;) {
    if (is == 1 && os == 1) {
      const unsigned char *s = (const unsigned char *)input + (size_t)in_off * es;
      unsigned char *t = (unsigned char *)output + (size_t)out_off * es;
      if (s != t) memmove(t, s, (size_t)n * es);
    } else if (es == 1) {
      AOT_COPY_DYN_ROW(uint8_t);
    } else if (es == 2) {
      AOT_COPY_DYN_ROW(uint16_t);
    } else if (es == 4) {
      AOT_COPY_DYN_ROW(uint32_t);
    } else {
      AOT_COPY_DYN_ROW(uint64_t);
    }
    if (!aot_mv_next2(idx, c->count, c->in_stride, c->out_stride, outer_rank, &in_off,
                      &out_off))
      break;
  }
  return AOT_KERNEL_OK;
}
