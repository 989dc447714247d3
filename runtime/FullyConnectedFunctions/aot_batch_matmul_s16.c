/* aot_batch_matmul_s16.c - BATCH_MATMUL int16, as the TFLite reference
 * BatchMatMul<int16_t, int64_t>: acc(int64) = sum lhs * rhs (zero points 0),
 * requantized with aot_mbqm64, clamped. Batch
 * dimensions broadcast (stride 0). */
#include "aot_conv.h"

int32_t aot_batch_matmul_s16(const aot_bmm_params *p, const int16_t *lhs,
                            const int16_t *rhs, int16_t *output) {
  const int32_t m_n = p->m, k_n = p->k, n_n = p->n;
  /* element strides of lhs[m][k] and rhs[k][n] */
  const size_t lm = p->adj_x ? 1 : (size_t)k_n, lk = p->adj_x ? (size_t)m_n : 1;
  const size_t rk = p->adj_y ? 1 : (size_t)n_n, rn = p->adj_y ? (size_t)k_n : 1;
  int32_t idx[AOT_BMM_MAX_BATCH_DIMS] = {0, 0, 0, 0, 0};
  size_t lbase = 0, rbase = 0;
  int32_t d;

  for (d = 0; d < AOT_BMM_MAX_BATCH_DIMS; d++)
    if (p->batch_dims[d] <= 0) return AOT_KERNEL_OK;
  for (;;) {
    int32_t i, j;
    for (i = 0; i < m_n; i++) {
      for (j = 0; j < n_n; j++) {
        const int16_t *l = lhs + lbase + (size_t)i * lm;
        const int16_t *r = rhs + rbase + (size_t)j * rn;
        int64_t acc = 0;
        int32_t k, r32;
        for (k = 0; k < k_n; k++) {
          acc += (int32_t)*l * *r;
          l += lk;
          r += rk;
        }
        r32 = aot_mbqm64(acc, p->out_mult, p->out_shift);
        *output++ = (int16_t)aot_clamp_i32(r32, p->act_min, p->act_max);
      }
    }
    /* next batch index (odometer over the output batch dims) */
    for (d = AOT_BMM_MAX_BATCH_DIMS - 1; d >= 0; d--) {
      idx[d]++;
      lbase += (size_t)p->lhs_bstride[d];
      rbase += (size_t)p->rhs_bstride[d];
      if (idx[d] < p->batch_dims[d]) break;
      lbase -= (size_t)p->lhs_bstride[d] * (size_t)idx[d];
      rbase -= (size_t)p->rhs_bstride[d] * (size_t)idx[d];
      idx[d] = 0;
    }
    if (d < 0) break;
  }
  return AOT_KERNEL_OK;
}
