/* aot_tanh_s16.c - TANH int16 (reference_integer_ops Tanh): tanh(x) =
 * 2 sigmoid(2x) - 1 from the sigmoid table, interpolated with 8 fractional
 * bits; output Q0.15. */
#include "aot_elementwise.h"

int32_t aot_tanh_s16(const aot_sigmoid_s16_params *p, const int16_t *in, int16_t *out) {
  const uint16_t *tab = aot_sigmoid_table_u16();
  int32_t mult = p->mult, shift = p->left_shift;
  int64_t round;
  int32_t i;
  if (shift < 0 || shift > 31 || mult < 0) return AOT_KERNEL_BAD_PARAM;
  if (mult == 0) { /* power-of-two input scale */
    if (shift > 1) return AOT_KERNEL_BAD_PARAM;
    mult = 3 << shift;
    shift = 0;
  }
  round = shift > 0 ? (int64_t)1 << (shift - 1) : 0;
  for (i = 0; i < p->size; i++) {
    /* TFLM computes in * mult + round in int32: for multipliers above 2^16
     * (input scale > ~5.33) that wraps, and the wrap is reproduced. */
    const int32_t x = aot_asr_i32(aot_wrap_i64_i32((int64_t)in[i] * mult + round), shift);
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
