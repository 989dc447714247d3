/* aot_reduce_q.h - the quantized MEAN, SUM, REDUCE_MAX and REDUCE_MIN
 * kernels (TFLM reference QuantizedMeanOrSum: wrapping int32 sum, one
 * MultiplyByQuantizedMultiplier with the 1/N factor folded into mult/shift;
 * MAX/MIN without rescale), one template for every integer type: the output
 * of one kept index here, the outer walk in aot_reduce_k.h.
 * A kernel file defines AOT_RQ_NAME (the function), AOT_RQ_T (the element
 * type) and AOT_RQ_MIN / AOT_RQ_MAX (its range), then includes this file. */
#include "aot_movement.h"

/* The output of the reduced elements starting at input[off]. */
AOT_INLINE AOT_RQ_T aot_reduce_q_one(const aot_reduce_params *p, const AOT_RQ_T *input, long off) {
  const int irank = p->inner_rank;
  const int32_t *icount = p->count + p->outer_rank, *istride = p->stride + p->outer_rank;
  int32_t iidx[AOT_MV_MAX_DIMS];
  int d;
  if (p->op == AOT_REDUCE_MAX || p->op == AOT_REDUCE_MIN) {
    int32_t acc = p->op == AOT_REDUCE_MAX ? AOT_RQ_MIN : AOT_RQ_MAX;
    if (p->num_reduced > 0) {
      for (d = 0; d < irank; d++) iidx[d] = 0;
      do {
        const int32_t v = input[off];
        if (p->op == AOT_REDUCE_MAX ? (v > acc) : (v < acc)) acc = v;
      } while (aot_mv_next(iidx, icount, istride, irank, &off));
    }
    return (AOT_RQ_T)acc;
  } else if (p->num_reduced <= 0) {
    return 0; /* the reference returns early with zeroed outputs */
  } else {
    uint32_t sum = 0; /* int32 sum with wrap-around, as the reference */
    int32_t shifted, q;
    for (d = 0; d < irank; d++) iidx[d] = 0;
    do {
      sum += (uint32_t)(int32_t)input[off];
    } while (aot_mv_next(iidx, icount, istride, irank, &off));
    {
      /* sum - zp * N computed in 64 bits, then narrowed to int32 */
      int64_t s64 = (int64_t)(sum >= 0x80000000u ? (int64_t)sum - 0x100000000LL : (int64_t)sum);
      uint64_t w = (uint64_t)(s64 - (int64_t)p->input_zp * p->num_reduced) & 0xFFFFFFFFu;
      shifted = (int32_t)((int64_t)(w ^ 0x80000000u) - 0x80000000LL);
    }
    q = aot_mbqm(shifted, p->mult, p->shift) + p->output_zp;
    return (AOT_RQ_T)aot_clamp_i32(q, AOT_RQ_MIN, AOT_RQ_MAX);
  }
}

#define AOT_RDK_NAME AOT_RQ_NAME
#define AOT_RDK_T AOT_RQ_T
#define AOT_RDK_MEAN 1
#define AOT_RDK_ONE aot_reduce_q_one
#include "aot_reduce_k.h"

#undef AOT_RQ_NAME
#undef AOT_RQ_T
#undef AOT_RQ_MIN
#undef AOT_RQ_MAX
