/* aot_bmm_k.h - the body of the BATCH_MATMUL kernels, one template for
 * float32, int16 and int8 (as the TFLite reference BatchMatMul: products
 * summed over k in order; batch dimensions broadcast with stride 0, walked as
 * an odometer over the output batch dims). A kernel file defines AOT_BMM_NAME
 * (the function), AOT_BMM_T (the element type), AOT_BMM_ACC (the accumulator
 * type), AOT_BMM_MAC(l, r) (one product of the lhs and rhs elements, may use
 * p) and AOT_BMM_OUT(acc) (the output value), then includes this file. */
#include "aot_conv.h"

int32_t AOT_BMM_NAME(const aot_bmm_params *p, const AOT_BMM_T *lhs, const AOT_BMM_T *rhs,
                     AOT_BMM_T *output) {
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
        const AOT_BMM_T *l = lhs + lbase + (size_t)i * lm;
        const AOT_BMM_T *r = rhs + rbase + (size_t)j * rn;
        AOT_BMM_ACC acc = 0;
        int32_t k;
        for (k = 0; k < k_n; k++) {
          acc += AOT_BMM_MAC(*l, *r);
          l += lk;
          r += rk;
        }
        *output++ = AOT_BMM_OUT(acc);
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

#undef AOT_BMM_NAME
#undef AOT_BMM_T
#undef AOT_BMM_ACC
#undef AOT_BMM_MAC
#undef AOT_BMM_OUT
