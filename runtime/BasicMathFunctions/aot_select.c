/* aot_select.c - SELECT_V2: out = cond ? x : y with three-way broadcasting;
 * elements are copied as opaque units of elem_size bytes (1, 2, 4 or 8). */
#include <string.h>

#include "aot_elementwise.h"

#define AOT_SELECT_LOOP(SZ)                                                      \
  do {                                                                           \
    if (b->ndims == 0) {                                                         \
      for (i = 0; i < b->size; i++)                                              \
        memcpy(os + (size_t)i * (SZ), (cond[i] ? xs : ys) + (size_t)i * (SZ), (SZ)); \
    } else {                                                                     \
      aot_bcast_it it;                                                           \
      const int32_t n = b->shape[b->ndims - 1];                                  \
      const int32_t sc = b->stride[0][b->ndims - 1];                             \
      const int32_t sx = b->stride[1][b->ndims - 1];                             \
      const int32_t sy = b->stride[2][b->ndims - 1];                             \
      const int32_t rows = aot_bcast_rows(b);                                    \
      int32_t r, o = 0;                                                          \
      aot_bcast_begin(&it);                                                      \
      for (r = 0; r < rows; r++) {                                               \
        int32_t jc = it.off[0], jx = it.off[1], jy = it.off[2];                  \
        for (i = 0; i < n; i++) {                                                \
          const unsigned char *src = cond[jc] ? xs + (size_t)jx * (SZ)           \
                                              : ys + (size_t)jy * (SZ);          \
          memcpy(os + (size_t)(o + i) * (SZ), src, (SZ));                        \
          jc += sc;                                                              \
          jx += sx;                                                              \
          jy += sy;                                                              \
        }                                                                        \
        o += n;                                                                  \
        aot_bcast_next(b, &it);                                                  \
      }                                                                          \
    }                                                                            \
  } while (0)

int32_t aot_select(const aot_select_params *p, const uint8_t *cond, const void *x,
                   const void *y, void *out) {
  const aot_bcast *b = &p->bc;
  const unsigned char *xs = (const unsigned char *)x;
  const unsigned char *ys = (const unsigned char *)y;
  unsigned char *os = (unsigned char *)out;
  int32_t i;
  switch (p->elem_size) {
    case 1: AOT_SELECT_LOOP(1); break;
    case 2: AOT_SELECT_LOOP(2); break;
    case 4: AOT_SELECT_LOOP(4); break;
    case 8: AOT_SELECT_LOOP(8); break;
    default: return AOT_KERNEL_BAD_PARAM;
  }
  return AOT_KERNEL_OK;
}
