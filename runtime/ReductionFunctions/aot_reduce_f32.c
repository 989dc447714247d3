/* aot_reduce_f32.c - MEAN, SUM, REDUCE_MAX, REDUCE_MIN on float32 (TFLM
 * reference order of accumulation: increasing input index per output); the
 * outer walk is the template aot_reduce_k.h. */
#include <float.h>

#include "aot_movement.h"

/* The output of the reduced elements starting at input[off]. */
AOT_INLINE float aot_reduce_f32_one(const aot_reduce_params *p, const float *input, long off) {
  const int irank = p->inner_rank;
  const int32_t *icount = p->count + p->outer_rank, *istride = p->stride + p->outer_rank;
  int32_t iidx[AOT_MV_MAX_DIMS];
  float acc = p->op == AOT_REDUCE_MAX ? -FLT_MAX : (p->op == AOT_REDUCE_MIN ? FLT_MAX : 0.0f);
  int d;
  if (p->num_reduced <= 0) return acc;
  for (d = 0; d < irank; d++) iidx[d] = 0;
  do {
    const float v = input[off];
    switch (p->op) {
      case AOT_REDUCE_MAX: acc = (v > acc) ? v : acc; break;
      case AOT_REDUCE_MIN: acc = (v < acc) ? v : acc; break;
      default: acc = v + acc; break;
    }
  } while (aot_mv_next(iidx, icount, istride, irank, &off));
  return p->op == AOT_REDUCE_MEAN ? acc / (float)p->num_reduced : acc;
}

#define AOT_RDK_NAME aot_reduce_f32
#define AOT_RDK_T float
#define AOT_RDK_MEAN 1
#define AOT_RDK_ONE aot_reduce_f32_one
#include "aot_reduce_k.h"
