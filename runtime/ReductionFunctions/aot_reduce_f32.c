/* aot_reduce_f32.c - MEAN, SUM, REDUCE_MAX, REDUCE_MIN on float32 (TFLM
 * reference order of accumulation: increasing input index per output). */
#include <float.h>

#include "aot_movement.h"

int32_t aot_reduce_f32(const aot_reduce_params *p, const float *input, float *output) {
  int32_t oidx[AOT_MV_MAX_DIMS], iidx[AOT_MV_MAX_DIMS];
  const int orank = p->outer_rank, irank = p->inner_rank;
  const int32_t *icount = p->count + orank, *istride = p->stride + orank;
  long base = 0, total = 1;
  int d;
  if (orank < 0 || irank < 0 || orank + irank > AOT_MV_MAX_DIMS) return AOT_KERNEL_BAD_PARAM;
  if (p->op < AOT_REDUCE_SUM || p->op > AOT_REDUCE_MIN) return AOT_KERNEL_BAD_PARAM;
  for (d = 0; d < orank + irank; d++) {
    if (p->count[d] < 0) return AOT_KERNEL_BAD_PARAM;
    if (d < orank) total *= p->count[d];
  }
  if (total == 0) return AOT_KERNEL_OK;
  for (d = 0; d < orank; d++) oidx[d] = 0;
  do {
    float acc = p->op == AOT_REDUCE_MAX ? -FLT_MAX : (p->op == AOT_REDUCE_MIN ? FLT_MAX : 0.0f);
    if (p->num_reduced > 0) {
      long off = base;
      for (d = 0; d < irank; d++) iidx[d] = 0;
      do {
        const float v = input[off];
        switch (p->op) {
          case AOT_REDUCE_MAX: acc = (v > acc) ? v : acc; break;
          case AOT_REDUCE_MIN: acc = (v < acc) ? v : acc; break;
          default: acc = v + acc; break;
        }
      } while (aot_mv_next(iidx, icount, istride, irank, &off));
      if (p->op == AOT_REDUCE_MEAN) acc = acc / (float)p->num_reduced;
    }
    *output++ = acc;
  } while (aot_mv_next(oidx, p->count, p->stride, orank, &base));
  return AOT_KERNEL_OK;
}
