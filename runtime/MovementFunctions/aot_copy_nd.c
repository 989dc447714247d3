/* aot_copy_nd.c - N-d strided element copy (RESHAPE, CONCATENATION, PAD,
 * STRIDED_SLICE, SLICE, TRANSPOSE, SPLIT, PACK, UNPACK, REVERSE_V2, TILE,
 * BROADCAST_TO, DEPTH_TO_SPACE, SPACE_TO_DEPTH, SHAPE); the walk is
 * aot_copy_k.h. */
#include "aot_copy_k.h"

int32_t aot_copy_nd(const aot_copy_params *p, const void *input, void *output) {
  const size_t es = (size_t)p->elem_size;
  if (p->rank < 1 || p->rank > AOT_MV_MAX_DIMS) return AOT_KERNEL_BAD_PARAM;
  if (es != 1 && es != 2 && es != 4 && es != 8) return AOT_KERNEL_BAD_PARAM;
  return aot_copy_walk(p, input, output, p->in_offset, p->out_offset);
}
