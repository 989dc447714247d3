/* aot_log_softmax_s8.c - LOG_SOFTMAX int8 (reference_ops LogSoftmaxQuantized,
 * TFLM): row differences to the maximum in Q5.26, sum of gemmlowp exps in
 * Q12.19, its logarithm in Q5.26 (TFLite log_x_for_x_greater_than_or_equal_to_1),
 * output scale 16/256 with zero point 127. */
#include "aot_softmax_q.h"

AOT_INLINE int32_t aot_ls_sat_add(int32_t a, int32_t b) {
  const int64_t s = (int64_t)a + b;
  return s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : (int32_t)s);
}

AOT_INLINE int32_t aot_ls_sat_sub(int32_t a, int32_t b) {
  const int64_t s = (int64_t)a - b;
  return s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : (int32_t)s);
}

/* log(x) for x >= 1 given in Q12.19; result in Q5.26. */
static int32_t aot_ls_log(int32_t x) {
  enum { kInBits = 12, kAccBits = 6 };
  const int32_t log_2 = 1488522236, sqrt_sqrt_half = 1805811301, sqrt_half = 1518500250;
  const int32_t one_quarter = 536870912;
  const int32_t alpha_n = 117049297, alpha_d = 127690142, alpha_i = 1057819769,
                alpha_f = 638450708;
  const int32_t shifted_quarter = aot_sat_mul_pot(one_quarter, -kAccBits);
  const int z_a_hr1 = aot_clz32((uint32_t)x);
  const int32_t r_a_tmp = aot_sat_mul_pot(x, z_a_hr1 - 1);
  const int32_t r_a_raw = aot_sat_mul_pot(aot_srdhm(r_a_tmp, sqrt_half), 1);
  const int32_t z_a_pow2 =
      aot_ls_sat_add(aot_sat_mul_pot(kInBits - z_a_hr1, 31 - kAccBits), shifted_quarter);
  const int32_t z_b = aot_srdhm(x, sqrt_half);
  const int z_b_hr = aot_clz32((uint32_t)z_b) - 1;
  const int32_t r_b_raw = aot_sat_mul_pot(x, z_b_hr);
  const int32_t z_b_pow2 =
      aot_ls_sat_sub(aot_sat_mul_pot(kInBits - z_b_hr, 31 - kAccBits), shifted_quarter);
  const int32_t r = r_a_raw < r_b_raw ? r_a_raw : r_b_raw;
  const int32_t z_pow2 = z_a_pow2 > z_b_pow2 ? z_a_pow2 : z_b_pow2;
  const int32_t p = aot_rounding_half_sum(r, sqrt_sqrt_half);
  int32_t q = r - sqrt_sqrt_half;
  int32_t common_sq, num, den, recip, num_scaled;
  q = q + q;
  common_sq = aot_srdhm(q, q);
  num = aot_srdhm(q, r) + aot_srdhm(aot_srdhm(q, common_sq), alpha_n);
  den = aot_srdhm(p, alpha_i + q + aot_srdhm(alpha_d, common_sq)) + aot_srdhm(alpha_f, q);
  recip = aot_fx_one_over_one_plus_x(den);
  num_scaled = aot_sat_mul_pot(num, -kAccBits);
  return aot_sat_mul_pot(aot_srdhm(z_pow2, log_2) + aot_srdhm(num_scaled, recip), 1);
}

int32_t aot_log_softmax_s8(const aot_softmax_params *p, const int8_t *in, int8_t *out) {
  const int32_t depth = p->depth;
  int32_t r, c;
  for (r = 0; r < p->outer; r++) {
    const int8_t *x = in + (size_t)r * (size_t)depth;
    int8_t *y = out + (size_t)r * (size_t)depth;
    int32_t max_in_row = aot_row_max_s8(x, depth), sum = 0, log_sum, adjusted_diff_min, lim;
    for (c = 0; c < depth; c++) {
      const int32_t diff = (int32_t)x[c] - max_in_row;
      if (diff >= p->diff_min) {
        const int32_t q5 = aot_mbqm(diff, p->input_mult, p->input_left_shift);
        sum = aot_wrap_add_i32(sum, aot_sat_mul_pot(aot_fx_exp_neg(q5, 5), -12));
      }
    }
    log_sum = aot_ls_log(sum);
    lim = aot_mbqm(aot_wrap_add_i32(log_sum, INT32_MIN), p->reverse_scaling_divisor,
                   -p->reverse_scaling_right_shift);
    adjusted_diff_min = p->diff_min - 1 > lim ? p->diff_min - 1 : lim;
    for (c = 0; c < depth; c++) {
      const int32_t diff = (int32_t)x[c] - max_in_row;
      if (diff > adjusted_diff_min) {
        const int32_t q5 = aot_mbqm(diff, p->input_mult, p->input_left_shift);
        const int32_t v = aot_rdbpot(q5 - log_sum, 31 - 5 - 4) + 127;
        y[c] = (int8_t)aot_clamp_i32(v, INT8_MIN, INT8_MAX);
      } else {
        y[c] = INT8_MIN;
      }
    }
  }
  return AOT_KERNEL_OK;
}
