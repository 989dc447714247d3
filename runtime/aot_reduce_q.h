/* aot_reduce_q.h - the body of the quantized MEAN, SUM, REDUCE_MAX and
 * REDUCE_MIN kernels (TFLM reference QuantizedMeanOrSum: wrapping int32 sum,
 * one MultiplyByQuantizedMultiplier with the 1/N factor folded into
 * mult/shift; MAX/MIN without rescale), one template for every integer type.
 * A kernel file defines AOT_RQ_NAME (the function), AOT_RQ_T (the element
 * type) and AOT_RQ_MIN / AOT_RQ_MAX (its range), then includes this file. */
#include "aot_movement.h"

int32_t AOT_RQ_NAME(const aot_reduce_params *p, const AOT_RQ_T *input, AOT_RQ_T *output) {
  int32_t oidx[AOT_MV_MAX_DIMS], iidx[AOT_MV_MAX_DIMS];
  const int orank = p->outer_rank, irank = p->inner_rank;
  const int32_t *icount = p->count + orank, *istride = p->stride + orank;
  const int is_minmax = p->op == AOT_REDUCE_MAX || p->op == AOT_REDUCE_MIN;
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
    long off = base;
    if (is_minmax) {
      int32_t acc = p->op == AOT_REDUCE_MAX ? AOT_RQ_MIN : AOT_RQ_MAX;
      if (p->num_reduced > 0) {
        for (d = 0; d < irank; d++) iidx[d] = 0;
        do {
          const int32_t v = input[off];
          if (p->op == AOT_REDUCE_MAX ? (v > acc) : (v < acc)) acc = v;
        } while (aot_mv_next(iidx, icount, istride, irank, &off));
      }
      *output++ = (AOT_RQ_T)acc;
    } else if (p->num_reduced <= 0) {
      *output++ = 0; /* the reference returns early with zeroed outputs */
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
      *output++ = (AOT_RQ_T)aot_clamp_i32(q, AOT_RQ_MIN, AOT_RQ_MAX);
    }
  } while (aot_mv_next(oidx, p->count, p->stride, orank, &base));
  return AOT_KERNEL_OK;
}

#undef AOT_RQ_NAME
#undef AOT_RQ_T
#undef AOT_RQ_MIN
#undef AOT_RQ_MAX
