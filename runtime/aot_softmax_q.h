/* aot_softmax_q.h - internal helper of the int8 SOFTMAX and LOG_SOFTMAX
 * kernels: the maximum of a row (the reference's max_in_row, from INT8_MIN);
 * and the two-class int8 SOFTMAX kernels (aot_softmax2_s8.c), declared here
 * so that a module's aot_kernels.h names them only when it uses them. */
#ifndef AOT_SOFTMAX_Q_H
#define AOT_SOFTMAX_Q_H

#include "aot_elementwise.h"

AOT_INLINE int32_t aot_row_max_s8(const int8_t *x, int32_t n) {
  int32_t m = INT8_MIN, c;
  for (c = 0; c < n; c++)
    if (x[c] > m) m = x[c];
  return m;
}

/* SOFTMAX of int8 rows of two elements (p->depth 2) by the compiler's table
 * p->exp_lut of p->exp_tab_n entries (layout in aot_softmax2_s8.c): exactly
 * aot_softmax_s8 / aot_softmax_s8_s16 with the same beta and scales. */
int32_t aot_softmax2_s8(const aot_softmax_params *p, const int8_t *in, int8_t *out);
int32_t aot_softmax2_s8_s16(const aot_softmax_params *p, const int8_t *in, int16_t *out);

#endif /* AOT_SOFTMAX_Q_H */
