/* aot_batch_matmul_s8.c - BATCH_MATMUL int8, as the TFLite reference
 * BatchMatMul<int8_t, int32_t>: acc(int32) = sum (lhs - lhs_zp) * (rhs -
 * rhs_zp), one per-tensor multiplier, + output zero point, clamped. Batch
 * dimensions broadcast (stride 0); the template aot_bmm_k.h. */
#define AOT_BMM_NAME aot_batch_matmul_s8
#define AOT_BMM_T int8_t
#define AOT_BMM_ACC int32_t
#define AOT_BMM_MAC(l, r) ((l) + p->lhs_offset) * ((r) + p->rhs_offset)
#define AOT_BMM_OUT(acc)                                                              \
  (int8_t)aot_clamp_i32(aot_conv_mbqm(acc, p->out_mult, p->out_shift) + p->output_offset, \
                        p->act_min, p->act_max)
#include "aot_bmm_k.h"
