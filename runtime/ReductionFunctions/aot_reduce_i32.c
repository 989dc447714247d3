/* aot_reduce_i32.c - SUM, REDUCE_MAX, REDUCE_MIN on int32 (SUM wraps like
 * the reference); the outer walk is the template aot_reduce_k.h. */
#include "aot_movement.h"

/* The output of the reduced elements starting at input[off]. */
AOT_INLINE int32_t aot_reduce_i32_one(const aot_reduce_params *p, const int32_t *input, long off) {
  const int irank = p->inner_rank;
  const int32_t *icount = p->count + p->outer_rank, *istride = p->stride + p->outer_rank;
  int32_t iidx[AOT_MV_MAX_DIMS];
  uint32_t sum = 0;
  int32_t acc = p->op == AOT_REDUCE_MAX ? INT32_MIN : INT32_MAX;
  int d;
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
  if (p->op == AOT_REDUCE_SUM) return (int32_t)((int64_t)(sum ^ 0x80000000u) - 0x80000000LL);
  return acc;
}

#define AOT_RDK_NAME aot_reduce_i32
#define AOT_RDK_T int32_t
#define AOT_RDK_MEAN 0
#define AOT_RDK_ONE aot_reduce_i32_one
#include "aot_reduce_k.h"
