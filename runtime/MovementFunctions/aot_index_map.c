/* aot_index_map.c - gather through per-dimension index tables (MIRROR_PAD,
 * RESIZE_NEAREST_NEIGHBOR). */
#include <string.h>

#include "aot_movement.h"

#define AOT_MAP_ROW(T)                                                  \
  do {                                                                  \
    const T *s_ = (const T *)input + base;                              \
    T *d_ = (T *)output + out;                                          \
    for (k = 0; k < n; k++) d_[k] = s_[last[k]];                        \
  } while (0)

int32_t aot_index_map(const aot_index_map_params *p, const void *input, void *output) {
  int32_t idx[AOT_MV_MAX_DIMS];
  const int32_t *tab[AOT_MV_MAX_DIMS];
  const int32_t *last;
  int rank = p->rank, d;
  int32_t k, n;
  long total = 1, out = 0, base;
  size_t es = (size_t)p->elem_size;

  if (rank < 1 || rank > AOT_MV_MAX_DIMS) return AOT_KERNEL_BAD_PARAM;
  if (es != 1 && es != 2 && es != 4 && es != 8) return AOT_KERNEL_BAD_PARAM;
  tab[0] = p->map;
  for (d = 0; d < rank; d++) {
    if (p->count[d] < 0) return AOT_KERNEL_BAD_PARAM;
    if (d > 0) tab[d] = tab[d - 1] + p->count[d - 1];
    total *= p->count[d];
    idx[d] = 0;
  }
  if (total == 0) return AOT_KERNEL_OK;
  n = p->count[rank - 1];
  last = tab[rank - 1];
  for (;;) {
    base = 0;
    for (d = 0; d < rank - 1; d++) base += tab[d][idx[d]];
    if (p->inner_contiguous) {
      memcpy((unsigned char *)output + (size_t)out * es,
             (const unsigned char *)input + (size_t)base * es, (size_t)n * es);
    } else if (es == 1) {
      AOT_MAP_ROW(uint8_t);
    } else if (es == 2) {
      AOT_MAP_ROW(uint16_t);
    } else if (es == 4) {
      AOT_MAP_ROW(uint32_t);
    } else {
      AOT_MAP_ROW(uint64_t);
    }
    out += n;
    for (d = rank - 2; d >= 0; d--) {
      if (++idx[d] < p->count[d]) break;
      idx[d] = 0;
    }
    if (d < 0) break;
  }
  return AOT_KERNEL_OK;
}
