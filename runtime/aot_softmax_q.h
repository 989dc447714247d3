/* aot_softmax_q.h - internal helper of the int8 SOFTMAX and LOG_SOFTMAX
 * kernels: the maximum of a row (the reference's max_in_row, from INT8_MIN). */
#ifndef AOT_SOFTMAX_Q_H
#define AOT_SOFTMAX_Q_H

#include "aot_elementwise.h"

AOT_INLINE int32_t aot_row_max_s8(const int8_t *x, int32_t n) {
  int32_t m = INT8_MIN, c;
  for (c = 0; c < n; c++)
    if (x[c] > m) m = x[c];
  return m;
}

#endif /* AOT_SOFTMAX_Q_H */
