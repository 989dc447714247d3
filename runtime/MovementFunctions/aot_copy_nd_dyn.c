/* aot_copy_nd_dyn.c - N-d strided element copy at an offset read at run time
 * (SLICE / STRIDED_SLICE with a run-time begin, DYNAMIC_UPDATE_SLICE): the
 * offset is checked and added, the walk is aot_copy_k.h. */
#include "aot_copy_k.h"

int32_t aot_copy_nd_dyn(const aot_copy_dyn_params *p, const void *begin, const void *input,
                        void *output) {
  const aot_copy_params *c = &p->copy;
  int rank = c->rank, d;
  int64_t shift = 0;
  long in_off, out_off;
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
  return aot_copy_walk(c, input, output, in_off, out_off);
}
