/* aot_logistic_s16.c - LOGISTIC int16 (reference_integer_ops Logistic): the
 * input is scaled so that 2^17 represents 10.7, then the sigmoid table is
 * interpolated on the absolute value (9 fractional bits) and mirrored for
 * negative inputs; output Q0.15. */
#include "aot_act_q.h"

int32_t aot_logistic_s16(const aot_sigmoid_s16_params *p, const int16_t *in, int16_t *out) {
  const uint16_t *tab = aot_sigmoid_table_u16();
  aot_sig16_in s;
  int32_t i;
  if (!aot_sig16_setup(p, &s)) return AOT_KERNEL_BAD_PARAM;
  for (i = 0; i < p->size; i++) {
    const int32_t x = aot_sig16_x(&s, in[i]);
    const uint32_t ax = x < 0 ? (uint32_t)0 - (uint32_t)x : (uint32_t)x;
    const uint32_t uh = ax >> 9;
    uint32_t r;
    if (uh >= 255) {
      r = 0x7FFFu << 10;
    } else {
      const uint32_t ua = tab[uh], ub = tab[uh + 1];
      r = (ua << 9) + (ax & 0x1FFu) * (ub - ua);
    }
    r = x >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1u;
    out[i] = (int16_t)(r >> 10);
  }
  return AOT_KERNEL_OK;
}
