/* aot_reduce_i32.c - SUM, REDUCE_MAX, REDUCE_MIN on int32 (SUM wraps like
 * the reference). */
#include "aot_movement.h"

int32_t aot_reduce_i32(const aot_reduce_params *p, const int32_t *input, int32_t *output) {
  int32_t oidx[AOT_MV_MAX_DIMS], iidx[AOT_MV_MAX_DIMS];
  const int orank = p->outer_rank, irank = p->inner_rank;
  const int32_t *icount = p->count + orank, *istride = p->stride + orank;
  long base = 0, total = 1;
  int d;
  if (orank < 0 || irank < 0 || orank + irank > AOT_MV_MAX_DIMS) return AOT_KERNEL_BAD_PARAM;
  if (p->op != AOT_REDUCE_SUM && p->op != AOT_REDUCE_MAX && p->op != AOT_REDUCE_MIN)
    return AOT_KERNEL_BAD_PARAM;
  for (d = 0; d < orank + irank; d++) {
    if (p->count[d] < 0) return AOT_KERNEL_BAD_PARAM;
    if (d < orank) total *= p->count[d];
  }
  if (total == 0) return AOT_KERNEL_OK;
  for (d = 0; d < orank; d++) oidx[d] = 0;
  do {
    long off = base;
    uint32_t sum = 0;
    int32_t acc = p->op == AOT_REDUCE_MAX ? INT32_MIN : INT32_MAX;
    if (p->num_reduced > 0) {
      for (d = 0; d < irank; d++) iidx[d] = 0;
      do {
        const int32_t v = input[off];
        if (p->op == AOT_REDUCE_SUM)
          sum += (uint32_t)v;
        else if (p->op == AOT_REDUCE_MAX ? (v > acc) : (v < acc))
          acc = v;
      } while (aot_mv_next(iidx, icount, istride, irank, &off));
    }
    if (p->op == AOT_REDUCE_SUM)
      *output++ = (int32_t)((int64_t)(sum ^ 0x80000000u) - 0x80000000LL);
    else
      *output++ = acc;
  } while (aot_mv_next(oidx, p->count, p->stride, orank, &base));
  return AOT_KERNEL_OK;
}
