/* aot_tanh_s16.c - TANH int16 (reference_integer_ops Tanh): tanh(x) =
 * 2 sigmoid(2x) - 1 from the sigmoid table, interpolated with 8 fractional
 * bits; output Q0.15. */
#include "aot_act_q.h"

int32_t aot_tanh_s16(const aot_sigmoid_s16_params *p, const int16_t *in, int16_t *out) {
  const uint16_t *tab = aot_sigmoid_table_u16();
  aot_sig16_in s;
  int32_t i;
  if (!aot_sig16_setup(p, &s)) return AOT_KERNEL_BAD_PARAM;
  for (i = 0; i < p->size; i++) {
    const int32_t x = aot_sig16_x(&s, in[i]);
    const uint32_t ax = x < 0 ? (uint32_t)0 - (uint32_t)x : (uint32_t)x;
    const uint32_t uh = ax >> 8;
    int32_t r;
    if (uh >= 255) {
      r = 0xFFFF << 8;
    } else {
      const uint32_t ua = tab[uh], ub = tab[uh + 1];
      r = (int32_t)((ua << 8) + (ax & 0xFFu) * (ub - ua));
    }
    r = x >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
    out[i] = (int16_t)aot_asr_i32(r, 8);
  }
  return AOT_KERNEL_OK;
}
