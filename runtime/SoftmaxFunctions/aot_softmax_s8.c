/* aot_softmax_s8.c - SOFTMAX int8 input with int8 or int16 output
 * (reference_ops Softmax, TFLM): per row, differences to the row maximum are
 * rescaled to Q5.26, exponentiated with gemmlowp exp_on_negative_values,
 * summed in Q12.19, and multiplied by the fixed-point reciprocal of the sum.
 * Output zero point is the type minimum (-128 / -32768).
 *
 * With p->exp_tab (made by the compiler for large rows: the exponential of
 * each of the at most 256 differences an int8 row can have, by the same
 * expression as aot_softmax_s8_exp), both passes read the exponential from
 * the table: the same values, so the same outputs. A difference the table
 * does not hold is below diff_min: exponential 0 there, which adds nothing to
 * the sum and gives the type minimum, as the reference's branch does (an
 * exponential of 0 gives the type minimum through the reference's formula
 * too: srdhm(scale, 0) = 0, so both passes skip the arithmetic for it). */
#include "aot_features.h"   /* AOT_F_SOFTMAX_S8_TAB: a layer of the module has a table */
#include "aot_softmax_q.h"

/* exp of one difference to the row maximum (Q0.31), out of line: both
 * passes of the row call it, so the fixed-point exponential is compiled once
 * (it is most of the kernel's code). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int32_t aot_softmax_s8_exp(const aot_softmax_params *p, int32_t diff) {
  return aot_fx_exp_neg(aot_mbqm_gt1(diff, p->input_mult, p->input_left_shift), 5);
}

/* the exponential of diff = x - max (<= 0), 0 below diff_min: from the
 * table tab of tn entries, or computed when tab is NULL (modules none of
 * whose layers has a table leave the table path out, aot_features.h) */
#define AOT_SOFTMAX_S8_E(diff)                                  \
  (AOT_F_SOFTMAX_S8_TAB && tab ? (-(diff) < tn ? tab[-(diff)] : 0) \
                               : ((diff) >= dmin ? aot_softmax_s8_exp(p, (diff)) : 0))

static int32_t aot_softmax_s8_core(const aot_softmax_params *p, const int8_t *in, int8_t *out8,
                                   int16_t *out16) {
  const int32_t depth = p->depth;
  const int out_bits = out8 ? 8 : 16;
  const int32_t out_min = out8 ? INT8_MIN : INT16_MIN;
  const int32_t out_max = out8 ? INT8_MAX : INT16_MAX;
  const int32_t *const tab = p->exp_tab;
  const int32_t tn = p->exp_tab_n, dmin = p->diff_min;
  int32_t r, c;
  for (r = 0; r < p->outer; r++) {
    const int8_t *x = in + (size_t)r * (size_t)depth;
    const size_t base = (size_t)r * (size_t)depth;
    int32_t max_in_row = aot_row_max_s8(x, depth), sum = 0, shifted_scale;
    int nbits, exponent;
    for (c = 0; c < depth; c++) {
      const int32_t diff = (int32_t)x[c] - max_in_row;
      const int32_t e = AOT_SOFTMAX_S8_E(diff);
      if (e) sum = aot_wrap_add_i32(sum, aot_sat_mul_pot(e, -12));
    }
    shifted_scale = aot_fx_reciprocal(sum, 12, &nbits);
    exponent = nbits + 31 - out_bits;
    if (exponent < 0) return AOT_KERNEL_BAD_PARAM;   /* (the sum is at least 1) */
    if (exponent > 31) {
      /* int8 output, exponentials summing to 512 or more (a long row near
         its maximum everywhere): every output is below half an output step
         and rounds to 0, the type minimum; a zero scale gives exactly that
         (TFLite's reference shifts an int32 by 32 there, undefined in C) */
      shifted_scale = 0;
      exponent = 31;
    }
    for (c = 0; c < depth; c++) {
      const int32_t diff = (int32_t)x[c] - max_in_row;
      const int32_t e = AOT_SOFTMAX_S8_E(diff);
      const int32_t v =
          e ? aot_clamp_i32(aot_rdbpot(aot_srdhm(shifted_scale, e), exponent) + out_min, out_min, out_max)
            : out_min;
      if (out8) out8[base + (size_t)c] = (int8_t)v;
      else out16[base + (size_t)c] = (int16_t)v;
    }
  }
  return AOT_KERNEL_OK;
}

int32_t aot_softmax_s8(const aot_softmax_params *p, const int8_t *in, int8_t *out) {
  return aot_softmax_s8_core(p, in, out, NULL);
}

int32_t aot_softmax_s8_s16(const aot_softmax_params *p, const int8_t *in, int16_t *out) {
  return aot_softmax_s8_core(p, in, NULL, out);
}
