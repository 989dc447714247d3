/* aot_batch_matmul_s16.c - BATCH_MATMUL int16, as the TFLite reference
 * BatchMatMul<int16_t, int64_t>: acc(int64) = sum lhs * rhs (zero points 0),
 * requantized with aot_mbqm64, clamped. Batch dimensions broadcast (stride
 * 0); the template aot_bmm_k.h. */
#define AOT_BMM_NAME aot_batch_matmul_s16
#define AOT_BMM_T int16_t
#define AOT_BMM_ACC int64_t
#define AOT_BMM_MAC(l, r) (int32_t)(l) * (r)
#define AOT_BMM_OUT(acc) \
  (int16_t)aot_clamp_i32(aot_mbqm64(acc, p->out_mult, p->out_shift), p->act_min, p->act_max)
#include "aot_bmm_k.h"
