/* aot_reduce_k.h - the outer walk of the MEAN, SUM, REDUCE_MAX and
 * REDUCE_MIN kernels, one template for every element type: the parameter
 * checks, then one output per kept-dimension index (odometer over the outer
 * counts and strides), computed by the kernel's own function of the input
 * offset. A kernel file (or aot_reduce_q.h) defines AOT_RDK_NAME (the
 * function), AOT_RDK_T (the element type), AOT_RDK_MEAN (1 if MEAN is
 * accepted) and AOT_RDK_ONE (a function (p, input, offset) giving the output
 * of the reduced elements at that offset), then includes this file. */
#include "aot_movement.h"

int32_t AOT_RDK_NAME(const aot_reduce_params *p, const AOT_RDK_T *input, AOT_RDK_T *output) {
  int32_t oidx[AOT_MV_MAX_DIMS];
  const int orank = p->outer_rank, irank = p->inner_rank;
  long base = 0, total = 1;
  int d;
  if (orank < 0 || irank < 0 || orank + irank > AOT_MV_MAX_DIMS) return AOT_KERNEL_BAD_PARAM;
  if (p->op < AOT_REDUCE_SUM || p->op > AOT_REDUCE_MIN) return AOT_KERNEL_BAD_PARAM;
  if (!(AOT_RDK_MEAN) && p->op == AOT_REDUCE_MEAN) return AOT_KERNEL_BAD_PARAM;
  for (d = 0; d < orank + irank; d++) {
    if (p->count[d] < 0) return AOT_KERNEL_BAD_PARAM;
    if (d < orank) total *= p->count[d];
  }
  if (total == 0) return AOT_KERNEL_OK;
  for (d = 0; d < orank; d++) oidx[d] = 0;
  do {
    *output++ = AOT_RDK_ONE(p, input, base);
  } while (aot_mv_next(oidx, p->count, p->stride, orank, &base));
  return AOT_KERNEL_OK;
}

#undef AOT_RDK_NAME
#undef AOT_RDK_T
#undef AOT_RDK_MEAN
#undef AOT_RDK_ONE
