/* aot_softmax2_s8.c - SOFTMAX of int8 rows of exactly two elements, int8 or
 * int16 output, by tables the compiler made (op_activation.c,
 * softmax2_tables). In a row of two, each output depends only on
 * d = max - other (0..255) and on whether the element is the row's maximum:
 * the general kernel (aot_softmax_s8.c) sees the differences 0 and -d to the
 * maximum, whatever the row's values. The compiler ran that kernel on the
 * rows (127, 127 - d) for every d and stored the outputs T_max[d] (the
 * maximum's) and T_other[d] for d < n, cut where both stop changing
 * (T[d] = T[n - 1] for every d >= n - 1, so a larger difference reads entry
 * n - 1). A tie (d = 0) gives T_max[0] = T_other[0] to both, as the general
 * kernel does (it finds both at the maximum), so which element takes which
 * entry does not matter there. So each output is the general kernel's, bit for bit; that
 * kernel never fails on a row of two (its sum of exponentials lies in
 * [1, 2]; the compiler keeps the general kernel if it ever did).
 *
 * p->exp_lut holds p->exp_tab_n int16 entries: for int8 output, n entries
 * T_other[d] * 256 + (T_max[d] + 128) (the two int8 tables in one array,
 * -32768..32767);
 * for int16 output, T_max[0..n) then T_other[0..n), n = exp_tab_n / 2. */
#include "aot_softmax_q.h"

/* the table index of a row whose elements differ by diff: |diff|, at most last */
AOT_INLINE int32_t aot_softmax2_index(int32_t diff, int32_t last) {
  const int32_t d = diff >= 0 ? diff : -diff;
  return d < last ? d : last;
}

int32_t aot_softmax2_s8(const aot_softmax_params *p, const int8_t *in, int8_t *out) {
  const int16_t *const tab = p->exp_lut;
  const int32_t last = p->exp_tab_n - 1;
  int32_t r;
  if (last < 0) return AOT_KERNEL_BAD_PARAM;
  for (r = 0; r < p->outer; r++) {
    const int32_t diff = (int32_t)in[2 * r] - (int32_t)in[2 * r + 1];
    const int32_t v = tab[aot_softmax2_index(diff, last)];
    /* v + 32768 = (T_other + 128) * 256 + (T_max + 128), both bytes in
     * 0..255, so the low byte and the (non-negative) shift give them back */
    const int32_t sw = diff < 0; /* the second element is the maximum */
    out[2 * r + sw] = (int8_t)((v & 0xff) - 128);
    out[2 * r + 1 - sw] = (int8_t)(((v + 32768) >> 8) - 128);
  }
  return AOT_KERNEL_OK;
}

int32_t aot_softmax2_s8_s16(const aot_softmax_params *p, const int8_t *in, int16_t *out) {
  const int32_t n = p->exp_tab_n / 2;
  const int16_t *const tmax = p->exp_lut, *const toth = p->exp_lut + n;
  int32_t r;
  if (n < 1) return AOT_KERNEL_BAD_PARAM;
  for (r = 0; r < p->outer; r++) {
    const int32_t diff = (int32_t)in[2 * r] - (int32_t)in[2 * r + 1];
    const int32_t d = aot_softmax2_index(diff, n - 1), sw = diff < 0;
    out[2 * r + sw] = tmax[d];
    out[2 * r + 1 - sw] = toth[d];
  }
  return AOT_KERNEL_OK;
}
