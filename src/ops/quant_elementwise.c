/* quant_elementwise.c - broadcast planning and quantization helpers of the
 * elementwise and activation operators. */
#include "quant_elementwise.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- broadcasting -------------------------------------------------------- */

int ew_bcast_plan(const ir_tensor *out, const ir_tensor *const *in, int nin, aot_bcast *b,
                  char *why, size_t n) {
  int R = out->rank;
  memset(b, 0, sizeof *b);
  if (nin < 1 || nin > 3) {
    snprintf(why, n, "broadcast of %d inputs", nin);
    return -1;
  }
  for (int k = 0; k < nin; k++)
    if (in[k]->rank > R) R = in[k]->rank;
  if (R > IR_MAX_RANK) {
    snprintf(why, n, "rank %d too large", R);
    return -1;
  }
  int64_t oshape[IR_MAX_RANK], ishape[3][IR_MAX_RANK], istr[3][IR_MAX_RANK];
  for (int d = 0; d < R; d++) {
    int od = d - (R - out->rank);
    oshape[d] = od >= 0 ? out->shape[od] : 1;
    for (int k = 0; k < nin; k++) {
      int id = d - (R - in[k]->rank);
      ishape[k][d] = id >= 0 ? in[k]->shape[id] : 1;
    }
  }
  int64_t size = 1;
  for (int d = 0; d < R; d++) {
    if (oshape[d] < 0) {
      snprintf(why, n, "output has a dynamic dimension");
      return -1;
    }
    size *= oshape[d];
    for (int k = 0; k < nin; k++) {
      if (ishape[k][d] != oshape[d] && ishape[k][d] != 1) {
        snprintf(why, n, "input %d dimension %d (%lld) does not broadcast to %lld", k, d,
                 (long long)ishape[k][d], (long long)oshape[d]);
        return -1;
      }
    }
  }
  if (size > INT32_MAX) {
    snprintf(why, n, "output too large");
    return -1;
  }
  b->size = (int32_t)size;
  for (int k = 0; k < nin; k++) {
    int64_t s = 1;
    for (int d = R - 1; d >= 0; d--) {
      istr[k][d] = (ishape[k][d] == 1 && oshape[d] != 1) ? 0 : s;
      s *= ishape[k][d];
    }
  }
  /* collect non-unit output dims, merging neighbours that broadcast alike */
  int nd = 0;
  int64_t mshape[IR_MAX_RANK], mstr[3][IR_MAX_RANK];
  for (int d = 0; d < R; d++) {
    if (oshape[d] == 1) continue;
    int merge = nd > 0;
    for (int k = 0; k < nin && merge; k++) {
      int prev_b = mstr[k][nd - 1] == 0, cur_b = istr[k][d] == 0;
      if (prev_b != cur_b) merge = 0;
      /* contiguity: previous stride must equal current stride * extent */
      if (!cur_b && mstr[k][nd - 1] != istr[k][d] * oshape[d]) merge = 0;
    }
    if (merge) {
      mshape[nd - 1] *= oshape[d];
      for (int k = 0; k < nin; k++) mstr[k][nd - 1] = istr[k][d];
    } else {
      mshape[nd] = oshape[d];
      for (int k = 0; k < nin; k++) mstr[k][nd] = istr[k][d];
      nd++;
    }
  }
  int same = 1;
  for (int k = 0; k < nin; k++)
    for (int d = 0; d < nd; d++)
      if (mstr[k][d] == 0) same = 0;
  if (same && nd <= 1) {
    b->ndims = 0;
    return 0;
  }
  if (nd == 0) { /* all extents 1: a single element */
    b->ndims = 1;
    b->shape[0] = 1;
    return 0;
  }
  if (nd > AOT_EW_MAX_DIMS) {
    snprintf(why, n, "broadcast needs %d dimensions (at most %d)", nd, AOT_EW_MAX_DIMS);
    return -1;
  }
  b->ndims = nd;
  for (int d = 0; d < nd; d++) {
    b->shape[d] = (int32_t)mshape[d];
    for (int k = 0; k < nin; k++) b->stride[k][d] = (int32_t)mstr[k][d];
  }
  return 0;
}

static void ints_text(strbuf *sb, const int32_t *v, int n) {
  sb_puts(sb, "{");
  for (int i = 0; i < n; i++) sb_printf(sb, "%s%ld", i ? ", " : "", (long)v[i]);
  sb_puts(sb, "}");
}

void ew_bcast_text(strbuf *sb, const aot_bcast *b) {
  sb_printf(sb, "{.size = %ld, .ndims = %ld", (long)b->size, (long)b->ndims);
  if (b->ndims > 0) {
    sb_puts(sb, ", .shape = ");
    ints_text(sb, b->shape, b->ndims);
    sb_puts(sb, ", .stride = {");
    for (int k = 0; k < 3; k++) {
      if (k) sb_puts(sb, ", ");
      ints_text(sb, b->stride[k], b->ndims);
    }
    sb_puts(sb, "}");
  }
  sb_puts(sb, "}");
}

void ew_i32_text(strbuf *sb, int32_t v) {
  if (v == INT32_MIN) sb_puts(sb, "INT32_MIN");
  else sb_printf(sb, "%ld", (long)v);
}

/* ---- quantization helpers ------------------------------------------------ */

void ew_qm(double m, int32_t *q, int32_t *shift) {
  int s = 0;
  quantize_multiplier(m, q, &s);
  *shift = s;
}

int ew_qm_smaller_than_one(double m, int32_t *q, int32_t *shift) {
  if (!(m < 1.0) || !(m > 0.0)) return -1;
  ew_qm(m, q, shift);
  return *shift <= 0 ? 0 : -1;
}

int ew_qm_greater_than_one(double m, int32_t *q, int32_t *shift) {
  if (!(m > 1.0)) return -1;
  ew_qm(m, q, shift);
  return *shift >= 0 ? 0 : -1;
}

int ew_checked_log2(float x, int *log2_result) {
  const float x_log2 = logf(x) * (1.0f / logf(2.0f));
  const float rounded = roundf(x_log2);
  const float frac = x_log2 - rounded;
  *log2_result = (int)rounded;
  return fabsf(frac) < 1e-3f;
}

int32_t ew_input_radius(int input_integer_bits, int input_left_shift) {
  const double max_input_rescaled = 1.0 * ((1 << input_integer_bits) - 1) *
                                    (double)(1LL << (31 - input_integer_bits)) /
                                    (double)(1LL << input_left_shift);
  return (int32_t)floor(max_input_rescaled);
}

int ew_softmax_scaling(double beta, double input_scale, int input_integer_bits, int32_t *q,
                       int32_t *left_shift) {
  const double max_real_multiplier = (double)((1LL << 31) - 1);
  double m = beta * input_scale * (double)(1 << (31 - input_integer_bits));
  if (m > max_real_multiplier) m = max_real_multiplier;
  return ew_qm_greater_than_one(m, q, left_shift);
}

int32_t ew_downscale_multiplier16(int32_t m) {
  const int32_t rounding = 1 << 15;
  if (m >= INT32_MAX - rounding) return INT16_MAX;
  return (m + rounding) >> 16;
}

void ew_gen_lut16(float (*func)(float), float in_min, float in_max, float out_min,
                  float out_max, int16_t lut[513]) {
  const int nb_steps = 512;
  const float step = (in_max - in_min) / (float)nb_steps;
  const float half_step = step / 2.0f;
  const float scaling_inv = 65536.0f / (out_max - out_min);
  const float table_min = -32768.0f, table_max = 32767.0f;
  for (int i = 0; i < nb_steps; i++) {
    volatile float a = in_min + (float)i * step;   /* keep float rounding steps */
    volatile float am = a + half_step;
    volatile float an = in_min + (float)(i + 1) * step;
    const float val = func(a);
    const float val_mid = func(am);
    const float val_next = func(an);
    const float sample_val = roundf(val * scaling_inv);
    volatile float p_next = val_next * scaling_inv;
    volatile float t = p_next + roundf(val * scaling_inv);
    const float midpoint_interp_val = roundf(t / 2.0f);
    const float midpoint_val = roundf(val_mid * scaling_inv);
    const float midpoint_err = midpoint_interp_val - midpoint_val;
    const float bias = roundf(midpoint_err / 2.0f);
    float v = sample_val - bias;
    v = v < table_min ? table_min : v;
    v = v > table_max ? table_max : v;
    lut[i] = (int16_t)v;
  }
  float v = roundf(func(in_max) * scaling_inv);
  v = v < table_min ? table_min : v;
  v = v > table_max ? table_max : v;
  lut[nb_steps] = (int16_t)v;
}

float ew_scale(const ir_tensor *t) { return t && t->nq > 0 ? t->scale[0] : 1.0f; }
int32_t ew_zp(const ir_tensor *t) { return t && t->nq > 0 ? t->zero_point[0] : 0; }

/* ---- kernel table ---------------------------------------------------------- */

#define W1(K, PT, TA, TY)                                                            \
  static int32_t w_##K(const void *p, const void *a, const void *b, const void *c,  \
                       void *y) {                                                    \
    (void)b;                                                                         \
    (void)c;                                                                         \
    return K((const PT *)p, (const TA *)a, (TY *)y);                                 \
  }
#define W2(K, PT, TA, TB, TY)                                                        \
  static int32_t w_##K(const void *p, const void *a, const void *b, const void *c,  \
                       void *y) {                                                    \
    (void)c;                                                                         \
    return K((const PT *)p, (const TA *)a, (const TB *)b, (TY *)y);                  \
  }

W2(aot_add_s8, aot_addsub_q_params, int8_t, int8_t, int8_t)
W2(aot_add_s16, aot_addsub_q_params, int16_t, int16_t, int16_t)
W2(aot_sub_s8, aot_addsub_q_params, int8_t, int8_t, int8_t)
W2(aot_sub_s16, aot_addsub_q_params, int16_t, int16_t, int16_t)
W2(aot_add_s16_pot, aot_addsub_pot_params, int16_t, int16_t, int16_t)
W2(aot_sub_s16_pot, aot_addsub_pot_params, int16_t, int16_t, int16_t)
W2(aot_mul_s8, aot_mul_q_params, int8_t, int8_t, int8_t)
W2(aot_mul_s16, aot_mul_q_params, int16_t, int16_t, int16_t)
W2(aot_add_f32, aot_arith_f32_params, float, float, float)
W2(aot_sub_f32, aot_arith_f32_params, float, float, float)
W2(aot_mul_f32, aot_arith_f32_params, float, float, float)
W2(aot_div_f32, aot_arith_f32_params, float, float, float)
W2(aot_add_s32, aot_arith_s32_params, int32_t, int32_t, int32_t)
W2(aot_sub_s32, aot_arith_s32_params, int32_t, int32_t, int32_t)
W2(aot_mul_s32, aot_arith_s32_params, int32_t, int32_t, int32_t)
W2(aot_squared_diff_f32, aot_bcast_params, float, float, float)
W2(aot_squared_diff_s8, aot_addsub_q_params, int8_t, int8_t, int8_t)
W2(aot_squared_diff_s16, aot_addsub_q_params, int16_t, int16_t, int16_t)
W2(aot_maximum_s8, aot_bcast_params, int8_t, int8_t, int8_t)
W2(aot_minimum_s8, aot_bcast_params, int8_t, int8_t, int8_t)
W2(aot_maximum_s16, aot_bcast_params, int16_t, int16_t, int16_t)
W2(aot_minimum_s16, aot_bcast_params, int16_t, int16_t, int16_t)
W2(aot_maximum_s32, aot_bcast_params, int32_t, int32_t, int32_t)
W2(aot_minimum_s32, aot_bcast_params, int32_t, int32_t, int32_t)
W2(aot_maximum_f32, aot_bcast_params, float, float, float)
W2(aot_minimum_f32, aot_bcast_params, float, float, float)
W2(aot_compare_f32, aot_compare_params, float, float, uint8_t)
W2(aot_compare_s32, aot_compare_params, int32_t, int32_t, uint8_t)
W2(aot_compare_s8, aot_compare_params, int8_t, int8_t, uint8_t)
W2(aot_compare_u8, aot_compare_params, uint8_t, uint8_t, uint8_t)
W2(aot_logical_and, aot_bcast_params, uint8_t, uint8_t, uint8_t)
W2(aot_logical_or, aot_bcast_params, uint8_t, uint8_t, uint8_t)
W1(aot_logical_not, aot_unary_params, uint8_t, uint8_t)
W1(aot_exp_f32, aot_unary_params, float, float)
W1(aot_log_f32, aot_unary_params, float, float)
W1(aot_sqrt_f32, aot_unary_params, float, float)
W1(aot_rsqrt_f32, aot_unary_params, float, float)
W1(aot_abs_f32, aot_unary_params, float, float)
W1(aot_neg_f32, aot_unary_params, float, float)
W1(aot_floor_f32, aot_unary_params, float, float)
W1(aot_square_f32, aot_unary_params, float, float)
W1(aot_neg_s32, aot_unary_params, int32_t, int32_t)
W1(aot_logistic_f32, aot_unary_params, float, float)
W1(aot_tanh_f32, aot_unary_params, float, float)
W1(aot_hard_swish_f32, aot_unary_params, float, float)
W1(aot_elu_f32, aot_unary_params, float, float)
W1(aot_act_clamp_f32, aot_act_clamp_f32_params, float, float)
W1(aot_act_clamp_s8, aot_act_clamp_q_params, int8_t, int8_t)
W1(aot_act_clamp_s16, aot_act_clamp_q_params, int16_t, int16_t)
W1(aot_relu_s8, aot_relu_q_params, int8_t, int8_t)
W1(aot_relu_s16, aot_relu_q_params, int16_t, int16_t)
W1(aot_abs_s8, aot_relu_q_params, int8_t, int8_t)
W1(aot_abs_s16, aot_relu_q_params, int16_t, int16_t)
W1(aot_leaky_relu_s8, aot_leaky_relu_q_params, int8_t, int8_t)
W1(aot_leaky_relu_s16, aot_leaky_relu_q_params, int16_t, int16_t)
W1(aot_leaky_relu_f32, aot_leaky_relu_f32_params, float, float)
W1(aot_logistic_s8, aot_sigmoid_s8_params, int8_t, int8_t)
W1(aot_tanh_s8, aot_sigmoid_s8_params, int8_t, int8_t)
W1(aot_logistic_s16, aot_sigmoid_s16_params, int16_t, int16_t)
W1(aot_tanh_s16, aot_sigmoid_s16_params, int16_t, int16_t)
W1(aot_hard_swish_s8, aot_hard_swish_s8_params, int8_t, int8_t)
W2(aot_prelu_s8, aot_prelu_q_params, int8_t, int8_t, int8_t)
W2(aot_prelu_s16, aot_prelu_q_params, int16_t, int8_t, int16_t)
W2(aot_prelu_f32, aot_bcast_params, float, float, float)
W1(aot_lut_s8, aot_lut_s8_params, int8_t, int8_t)
W1(aot_softmax_s8, aot_softmax_params, int8_t, int8_t)
W1(aot_softmax_s8_s16, aot_softmax_params, int8_t, int16_t)
W1(aot_softmax_s16, aot_softmax_params, int16_t, int16_t)
W1(aot_softmax_f32, aot_softmax_params, float, float)
W1(aot_log_softmax_f32, aot_softmax_params, float, float)
W1(aot_log_softmax_s8, aot_softmax_params, int8_t, int8_t)
W1(aot_quantize_f32_s8, aot_quantize_params, float, int8_t)
W1(aot_quantize_f32_s16, aot_quantize_params, float, int16_t)
W1(aot_quantize_f32_u8, aot_quantize_params, float, uint8_t)
W1(aot_requantize, aot_requant_params, void, void)
W1(aot_dequantize_s8, aot_dequantize_params, int8_t, float)
W1(aot_dequantize_s16, aot_dequantize_params, int16_t, float)
W1(aot_dequantize_u8, aot_dequantize_params, uint8_t, float)
W1(aot_dequantize_f16, aot_unary_params, uint16_t, float)
W1(aot_dequantize_pc_s8, aot_dequantize_pc_params, int8_t, float)
W1(aot_dequantize_pc_s16, aot_dequantize_pc_params, int16_t, float)

static int32_t w_aot_select(const void *p, const void *a, const void *b, const void *c,
                            void *y) {
  return aot_select((const aot_select_params *)p, (const uint8_t *)a, b, c, y);
}

#define BM "BasicMathFunctions/"
#define AF "ActivationFunctions/"
#define SM "SoftmaxFunctions/"
#define QF "QuantizationFunctions/"
#define K(NAME, FILE, KIND, NIN) {#NAME, FILE, KIND, NIN, w_##NAME}

static const ew_kernel ew_kernels[] = {
    K(aot_add_s8, BM "aot_add_s8.c", EWP_ADDSUB, 2),
    K(aot_add_s16, BM "aot_add_s16.c", EWP_ADDSUB, 2),
    K(aot_sub_s8, BM "aot_sub_s8.c", EWP_ADDSUB, 2),
    K(aot_sub_s16, BM "aot_sub_s16.c", EWP_ADDSUB, 2),
    K(aot_add_s16_pot, BM "aot_add_s16_pot.c", EWP_POT, 2),
    K(aot_sub_s16_pot, BM "aot_sub_s16_pot.c", EWP_POT, 2),
    K(aot_mul_s8, BM "aot_mul_s8.c", EWP_MUL, 2),
    K(aot_mul_s16, BM "aot_mul_s16.c", EWP_MUL, 2),
    K(aot_add_f32, BM "aot_add_f32.c", EWP_ARITH_F32, 2),
    K(aot_sub_f32, BM "aot_sub_f32.c", EWP_ARITH_F32, 2),
    K(aot_mul_f32, BM "aot_mul_f32.c", EWP_ARITH_F32, 2),
    K(aot_div_f32, BM "aot_div_f32.c", EWP_ARITH_F32, 2),
    K(aot_add_s32, BM "aot_add_s32.c", EWP_ARITH_S32, 2),
    K(aot_sub_s32, BM "aot_sub_s32.c", EWP_ARITH_S32, 2),
    K(aot_mul_s32, BM "aot_mul_s32.c", EWP_ARITH_S32, 2),
    K(aot_squared_diff_f32, BM "aot_squared_diff_f32.c", EWP_BCAST, 2),
    K(aot_squared_diff_s8, BM "aot_squared_diff_s8.c", EWP_ADDSUB, 2),
    K(aot_squared_diff_s16, BM "aot_squared_diff_s16.c", EWP_ADDSUB, 2),
    K(aot_maximum_s8, BM "aot_maxmin_s8.c", EWP_BCAST, 2),
    K(aot_minimum_s8, BM "aot_maxmin_s8.c", EWP_BCAST, 2),
    K(aot_maximum_s16, BM "aot_maxmin_s16.c", EWP_BCAST, 2),
    K(aot_minimum_s16, BM "aot_maxmin_s16.c", EWP_BCAST, 2),
    K(aot_maximum_s32, BM "aot_maxmin_s32.c", EWP_BCAST, 2),
    K(aot_minimum_s32, BM "aot_maxmin_s32.c", EWP_BCAST, 2),
    K(aot_maximum_f32, BM "aot_maxmin_f32.c", EWP_BCAST, 2),
    K(aot_minimum_f32, BM "aot_maxmin_f32.c", EWP_BCAST, 2),
    K(aot_compare_f32, BM "aot_compare_f32.c", EWP_COMPARE, 2),
    K(aot_compare_s32, BM "aot_compare_s32.c", EWP_COMPARE, 2),
    K(aot_compare_s8, BM "aot_compare_s8.c", EWP_COMPARE, 2),
    K(aot_compare_u8, BM "aot_compare_u8.c", EWP_COMPARE, 2),
    K(aot_logical_and, BM "aot_logical.c", EWP_BCAST, 2),
    K(aot_logical_or, BM "aot_logical.c", EWP_BCAST, 2),
    K(aot_logical_not, BM "aot_logical.c", EWP_UNARY, 1),
    K(aot_select, BM "aot_select.c", EWP_SELECT, 3),
    K(aot_exp_f32, BM "aot_exp_f32.c", EWP_UNARY, 1),
    K(aot_log_f32, BM "aot_log_f32.c", EWP_UNARY, 1),
    K(aot_sqrt_f32, BM "aot_sqrt_f32.c", EWP_UNARY, 1),
    K(aot_rsqrt_f32, BM "aot_rsqrt_f32.c", EWP_UNARY, 1),
    K(aot_abs_f32, BM "aot_abs_f32.c", EWP_UNARY, 1),
    K(aot_neg_f32, BM "aot_neg_f32.c", EWP_UNARY, 1),
    K(aot_floor_f32, BM "aot_floor_f32.c", EWP_UNARY, 1),
    K(aot_square_f32, BM "aot_square_f32.c", EWP_UNARY, 1),
    K(aot_neg_s32, BM "aot_neg_s32.c", EWP_UNARY, 1),
    K(aot_logistic_f32, AF "aot_logistic_f32.c", EWP_UNARY, 1),
    K(aot_tanh_f32, AF "aot_tanh_f32.c", EWP_UNARY, 1),
    K(aot_hard_swish_f32, AF "aot_hard_swish_f32.c", EWP_UNARY, 1),
    K(aot_elu_f32, AF "aot_elu_f32.c", EWP_UNARY, 1),
    K(aot_act_clamp_f32, AF "aot_act_clamp_f32.c", EWP_ACT_CLAMP_F32, 1),
    K(aot_act_clamp_s8, AF "aot_act_clamp_s8.c", EWP_ACT_CLAMP_Q, 1),
    K(aot_act_clamp_s16, AF "aot_act_clamp_s16.c", EWP_ACT_CLAMP_Q, 1),
    K(aot_relu_s8, AF "aot_relu_s8.c", EWP_RELU_Q, 1),
    K(aot_relu_s16, AF "aot_relu_s16.c", EWP_RELU_Q, 1),
    K(aot_abs_s8, AF "aot_abs_s8.c", EWP_RELU_Q, 1),
    K(aot_abs_s16, AF "aot_abs_s16.c", EWP_RELU_Q, 1),
    K(aot_leaky_relu_s8, AF "aot_leaky_relu_s8.c", EWP_LEAKY_Q, 1),
    K(aot_leaky_relu_s16, AF "aot_leaky_relu_s16.c", EWP_LEAKY_Q, 1),
    K(aot_leaky_relu_f32, AF "aot_leaky_relu_f32.c", EWP_LEAKY_F32, 1),
    K(aot_logistic_s8, AF "aot_logistic_s8.c", EWP_SIG_S8, 1),
    K(aot_tanh_s8, AF "aot_tanh_s8.c", EWP_SIG_S8, 1),
    K(aot_logistic_s16, AF "aot_logistic_s16.c", EWP_SIG_S16, 1),
    K(aot_tanh_s16, AF "aot_tanh_s16.c", EWP_SIG_S16, 1),
    K(aot_hard_swish_s8, AF "aot_hard_swish_s8.c", EWP_HSWISH, 1),
    K(aot_prelu_s8, AF "aot_prelu_s8.c", EWP_PRELU_Q, 2),
    K(aot_prelu_s16, AF "aot_prelu_s16.c", EWP_PRELU_Q, 2),
    K(aot_prelu_f32, AF "aot_prelu_f32.c", EWP_BCAST, 2),
    K(aot_lut_s8, AF "aot_lut_s8.c", EWP_LUT_S8, 1),
    K(aot_softmax_s8, SM "aot_softmax_s8.c", EWP_SOFTMAX, 1),
    K(aot_softmax_s8_s16, SM "aot_softmax_s8.c", EWP_SOFTMAX, 1),
    K(aot_softmax_s16, SM "aot_softmax_s16.c", EWP_SOFTMAX, 1),
    K(aot_softmax_f32, SM "aot_softmax_f32.c", EWP_SOFTMAX, 1),
    K(aot_log_softmax_f32, SM "aot_log_softmax_f32.c", EWP_SOFTMAX, 1),
    K(aot_log_softmax_s8, SM "aot_log_softmax_s8.c", EWP_SOFTMAX, 1),
    K(aot_quantize_f32_s8, QF "aot_quantize_f32_s8.c", EWP_QUANTIZE, 1),
    K(aot_quantize_f32_s16, QF "aot_quantize_f32_s16.c", EWP_QUANTIZE, 1),
    K(aot_quantize_f32_u8, QF "aot_quantize_f32_u8.c", EWP_QUANTIZE, 1),
    K(aot_requantize, QF "aot_requantize.c", EWP_REQUANT, 1),
    K(aot_dequantize_s8, QF "aot_dequantize_s8.c", EWP_DEQUANT, 1),
    K(aot_dequantize_s16, QF "aot_dequantize_s16.c", EWP_DEQUANT, 1),
    K(aot_dequantize_u8, QF "aot_dequantize_u8.c", EWP_DEQUANT, 1),
    K(aot_dequantize_f16, QF "aot_dequantize_f16.c", EWP_UNARY, 1),
    K(aot_dequantize_pc_s8, QF "aot_dequantize_pc.c", EWP_DEQUANT_PC, 1),
    K(aot_dequantize_pc_s16, QF "aot_dequantize_pc.c", EWP_DEQUANT_PC, 1),
};

static const char *const ew_ptype[] = {
    [EWP_ADDSUB] = "aot_addsub_q_params",     [EWP_POT] = "aot_addsub_pot_params",
    [EWP_MUL] = "aot_mul_q_params",           [EWP_ARITH_F32] = "aot_arith_f32_params",
    [EWP_ARITH_S32] = "aot_arith_s32_params", [EWP_BCAST] = "aot_bcast_params",
    [EWP_COMPARE] = "aot_compare_params",     [EWP_SELECT] = "aot_select_params",
    [EWP_UNARY] = "aot_unary_params",         [EWP_ACT_CLAMP_F32] = "aot_act_clamp_f32_params",
    [EWP_ACT_CLAMP_Q] = "aot_act_clamp_q_params", [EWP_RELU_Q] = "aot_relu_q_params",
    [EWP_LEAKY_Q] = "aot_leaky_relu_q_params", [EWP_LEAKY_F32] = "aot_leaky_relu_f32_params",
    [EWP_SIG_S8] = "aot_sigmoid_s8_params",   [EWP_SIG_S16] = "aot_sigmoid_s16_params",
    [EWP_HSWISH] = "aot_hard_swish_s8_params", [EWP_PRELU_Q] = "aot_prelu_q_params",
    [EWP_LUT_S8] = "aot_lut_s8_params",       [EWP_SOFTMAX] = "aot_softmax_params",
    [EWP_QUANTIZE] = "aot_quantize_params",   [EWP_REQUANT] = "aot_requant_params",
    [EWP_DEQUANT] = "aot_dequantize_params", [EWP_DEQUANT_PC] = "aot_dequantize_pc_params",
};

const ew_kernel *ew_kernel_find(const char *name) {
  for (size_t i = 0; i < sizeof ew_kernels / sizeof ew_kernels[0]; i++)
    if (strcmp(ew_kernels[i].name, name) == 0) return &ew_kernels[i];
  return NULL;
}

void ew_plan_init(ew_plan *pl, const char *name, int in0, int in1, int in2, int out) {
  memset(pl, 0, sizeof *pl);
  pl->k = ew_kernel_find(name);
  pl->in[0] = in0;
  pl->in[1] = in1;
  pl->in[2] = in2;
  pl->out = out;
}

/* ---- params printing ------------------------------------------------------- */

static void fi(strbuf *sb, const char *name, int32_t v) {
  sb_printf(sb, "  .%s = ", name);
  ew_i32_text(sb, v);
  sb_puts(sb, ",\n");
}

static void ff(strbuf *sb, emit_ctx *e, const char *name, float v) {
  sb_printf(sb, "  .%s = %s,\n", name, emit_float(e, v));
}

static void fb(strbuf *sb, const aot_bcast *b) {
  sb_puts(sb, "  .bc = ");
  ew_bcast_text(sb, b);
  sb_puts(sb, ",\n");
}

static void print_params(strbuf *sb, emit_ctx *e, const ew_plan *pl, const char *lut_a,
                         const char *lut_b) {
  switch (pl->k->kind) {
    case EWP_ADDSUB: {
      const aot_addsub_q_params *p = &pl->u.addsub;
      fb(sb, &p->bc);
      fi(sb, "left_shift", p->left_shift);
      fi(sb, "in1_offset", p->in1_offset);
      fi(sb, "in2_offset", p->in2_offset);
      fi(sb, "in1_mult", p->in1_mult);
      fi(sb, "in1_shift", p->in1_shift);
      fi(sb, "in2_mult", p->in2_mult);
      fi(sb, "in2_shift", p->in2_shift);
      fi(sb, "out_mult", p->out_mult);
      fi(sb, "out_shift", p->out_shift);
      fi(sb, "out_offset", p->out_offset);
      fi(sb, "act_min", p->act_min);
      fi(sb, "act_max", p->act_max);
      break;
    }
    case EWP_POT: {
      const aot_addsub_pot_params *p = &pl->u.pot;
      fb(sb, &p->bc);
      fi(sb, "in1_shift", p->in1_shift);
      fi(sb, "in2_shift", p->in2_shift);
      fi(sb, "act_min", p->act_min);
      fi(sb, "act_max", p->act_max);
      break;
    }
    case EWP_MUL: {
      const aot_mul_q_params *p = &pl->u.mul;
      fb(sb, &p->bc);
      fi(sb, "in1_offset", p->in1_offset);
      fi(sb, "in2_offset", p->in2_offset);
      fi(sb, "out_offset", p->out_offset);
      fi(sb, "out_mult", p->out_mult);
      fi(sb, "out_shift", p->out_shift);
      fi(sb, "act_min", p->act_min);
      fi(sb, "act_max", p->act_max);
      break;
    }
    case EWP_ARITH_F32:
      fb(sb, &pl->u.af.bc);
      ff(sb, e, "act_min", pl->u.af.act_min);
      ff(sb, e, "act_max", pl->u.af.act_max);
      break;
    case EWP_ARITH_S32:
      fb(sb, &pl->u.ai.bc);
      fi(sb, "act_min", pl->u.ai.act_min);
      fi(sb, "act_max", pl->u.ai.act_max);
      break;
    case EWP_BCAST:
      fb(sb, &pl->u.bp.bc);
      break;
    case EWP_COMPARE: {
      const aot_compare_params *p = &pl->u.cmp;
      static const char *const ops[] = {"AOT_CMP_EQUAL", "AOT_CMP_NOT_EQUAL", "AOT_CMP_LESS",
                                        "AOT_CMP_LESS_EQUAL", "AOT_CMP_GREATER",
                                        "AOT_CMP_GREATER_EQUAL"};
      fb(sb, &p->bc);
      sb_printf(sb, "  .op = %s,\n", ops[p->op]);
      if (strcmp(pl->k->name, "aot_compare_s8") == 0) {
        fi(sb, "left_shift", p->left_shift);
        fi(sb, "in1_offset", p->in1_offset);
        fi(sb, "in1_mult", p->in1_mult);
        fi(sb, "in1_shift", p->in1_shift);
        fi(sb, "in2_offset", p->in2_offset);
        fi(sb, "in2_mult", p->in2_mult);
        fi(sb, "in2_shift", p->in2_shift);
      }
      break;
    }
    case EWP_SELECT:
      fb(sb, &pl->u.sel.bc);
      fi(sb, "elem_size", pl->u.sel.elem_size);
      break;
    case EWP_UNARY:
      fi(sb, "size", pl->u.un.size);
      break;
    case EWP_ACT_CLAMP_F32:
      fi(sb, "size", pl->u.cf.size);
      ff(sb, e, "lo", pl->u.cf.lo);
      ff(sb, e, "hi", pl->u.cf.hi);
      break;
    case EWP_ACT_CLAMP_Q:
      fi(sb, "size", pl->u.cq.size);
      fi(sb, "lo", pl->u.cq.lo);
      fi(sb, "hi", pl->u.cq.hi);
      break;
    case EWP_RELU_Q: {
      const aot_relu_q_params *p = &pl->u.relu;
      fi(sb, "size", p->size);
      fi(sb, "in_zp", p->in_zp);
      fi(sb, "out_zp", p->out_zp);
      fi(sb, "mult", p->mult);
      fi(sb, "shift", p->shift);
      fi(sb, "act_min", p->act_min);
      fi(sb, "act_max", p->act_max);
      break;
    }
    case EWP_LEAKY_Q: {
      const aot_leaky_relu_q_params *p = &pl->u.lq;
      fi(sb, "size", p->size);
      fi(sb, "in_zp", p->in_zp);
      fi(sb, "out_zp", p->out_zp);
      fi(sb, "mult_identity", p->mult_identity);
      fi(sb, "shift_identity", p->shift_identity);
      fi(sb, "mult_alpha", p->mult_alpha);
      fi(sb, "shift_alpha", p->shift_alpha);
      break;
    }
    case EWP_LEAKY_F32:
      fi(sb, "size", pl->u.lf.size);
      ff(sb, e, "alpha", pl->u.lf.alpha);
      break;
    case EWP_SIG_S8: {
      const aot_sigmoid_s8_params *p = &pl->u.s8;
      fi(sb, "size", p->size);
      fi(sb, "in_zp", p->in_zp);
      fi(sb, "range_radius", p->range_radius);
      fi(sb, "mult", p->mult);
      fi(sb, "left_shift", p->left_shift);
      break;
    }
    case EWP_SIG_S16:
      fi(sb, "size", pl->u.s16.size);
      fi(sb, "mult", pl->u.s16.mult);
      fi(sb, "left_shift", pl->u.s16.left_shift);
      break;
    case EWP_HSWISH: {
      const aot_hard_swish_s8_params *p = &pl->u.hs;
      fi(sb, "size", p->size);
      fi(sb, "in_zp", p->in_zp);
      fi(sb, "out_zp", p->out_zp);
      fi(sb, "out_mult16", p->out_mult16);
      fi(sb, "out_exp", p->out_exp);
      fi(sb, "reluish_mult16", p->reluish_mult16);
      fi(sb, "reluish_exp", p->reluish_exp);
      break;
    }
    case EWP_PRELU_Q: {
      const aot_prelu_q_params *p = &pl->u.prelu;
      fb(sb, &p->bc);
      fi(sb, "in_offset", p->in_offset);
      fi(sb, "alpha_offset", p->alpha_offset);
      fi(sb, "out_offset", p->out_offset);
      fi(sb, "mult1", p->mult1);
      fi(sb, "shift1", p->shift1);
      fi(sb, "mult2", p->mult2);
      fi(sb, "shift2", p->shift2);
      break;
    }
    case EWP_LUT_S8:
      fi(sb, "size", pl->u.lut.size);
      sb_printf(sb, "  .table = %s,\n", lut_a ? lut_a : "NULL");
      break;
    case EWP_SOFTMAX: {
      const aot_softmax_params *p = &pl->u.sm;
      fi(sb, "outer", p->outer);
      fi(sb, "depth", p->depth);
      if (p->input_mult || p->input_left_shift) {
        fi(sb, "input_mult", p->input_mult);
        fi(sb, "input_left_shift", p->input_left_shift);
      }
      if (p->diff_min) fi(sb, "diff_min", p->diff_min);
      if (p->reverse_scaling_divisor) {
        fi(sb, "reverse_scaling_divisor", p->reverse_scaling_divisor);
        fi(sb, "reverse_scaling_right_shift", p->reverse_scaling_right_shift);
      }
      if (p->beta != 0.0f) ff(sb, e, "beta", p->beta);
      if (lut_a) sb_printf(sb, "  .exp_lut = %s,\n", lut_a);
      if (lut_b) sb_printf(sb, "  .one_over_one_plus_x_lut = %s,\n", lut_b);
      break;
    }
    case EWP_QUANTIZE:
      fi(sb, "size", pl->u.q.size);
      ff(sb, e, "scale", pl->u.q.scale);
      fi(sb, "zero_point", pl->u.q.zero_point);
      break;
    case EWP_REQUANT: {
      static const char *const ty[] = {"AOT_RQ_S8", "AOT_RQ_U8", "AOT_RQ_S16", "AOT_RQ_S32"};
      const aot_requant_params *p = &pl->u.rq;
      fi(sb, "size", p->size);
      sb_printf(sb, "  .in_type = %s,\n", ty[p->in_type & 3]);
      sb_printf(sb, "  .out_type = %s,\n", ty[p->out_type & 3]);
      fi(sb, "in_zp", p->in_zp);
      fi(sb, "out_zp", p->out_zp);
      fi(sb, "mult", p->mult);
      fi(sb, "shift", p->shift);
      break;
    }
    case EWP_DEQUANT_PC:
      fi(sb, "outer", pl->u.dpc.outer);
      fi(sb, "channels", pl->u.dpc.channels);
      fi(sb, "inner", pl->u.dpc.inner);
      sb_printf(sb, "  .scales = %s,\n", lut_a);
      sb_printf(sb, "  .zero_points = %s,\n", lut_b);
      break;
    case EWP_DEQUANT:
      fi(sb, "size", pl->u.dq.size);
      ff(sb, e, "scale", pl->u.dq.scale);
      fi(sb, "zero_point", pl->u.dq.zero_point);
      break;
  }
}

int ew_plan_emit(emit_ctx *e, ew_plan *pl) {
  const char *name = emit_opname(e);
  const char *lut_a = NULL, *lut_b = NULL;
  if (!pl->k) return -1;
  if (pl->nlut16 >= 1) lut_a = emit_array_i16(e, "exp_lut", pl->lut16[0], 513);
  if (pl->nlut16 >= 2) lut_b = emit_array_i16(e, "recip_lut", pl->lut16[1], 513);
  if (pl->nlut8) lut_a = emit_array_i8(e, "lut", pl->lut8, 256);
  if (pl->nchan) {
    lut_a = emit_array_f32(e, "scales", pl->chan_scale, (size_t)pl->nchan);
    lut_b = emit_array_i32(e, "zero_points", pl->chan_zp, (size_t)pl->nchan);
  }
  strbuf sb = {0};
  sb_printf(&sb, "static const %s %s_p = {\n", ew_ptype[pl->k->kind], name);
  print_params(&sb, e, pl, lut_a, lut_b);
  sb_puts(&sb, "};");
  emit_decl(e, "%s", sb.s);
  sb_free(&sb);
  const char *a = pl->in[0] >= 0 ? emit_ptr(e, pl->in[0]) : "NULL";
  const char *b = pl->in[1] >= 0 ? emit_ptr(e, pl->in[1]) : "NULL";
  const char *c = pl->in[2] >= 0 ? emit_ptr(e, pl->in[2]) : "NULL";
  const char *y = emit_ptr(e, pl->out);
  switch (pl->k->nin) {
    case 1: emit_call(e, "%s(&%s_p, %s, %s)", pl->k->name, name, a, y); break;
    case 2: emit_call(e, "%s(&%s_p, %s, %s, %s)", pl->k->name, name, a, b, y); break;
    default: emit_call(e, "%s(&%s_p, %s, %s, %s, %s)", pl->k->name, name, a, b, c, y); break;
  }
  emit_kernel(e, pl->k->file);
  return 0;
}

int ew_plan_eval(ew_plan *pl, void *const *data) {
  if (!pl->k) return -1;
  if (pl->nlut8) pl->u.lut.table = pl->lut8;
  if (pl->nchan) {
    pl->u.dpc.scales = pl->chan_scale;
    pl->u.dpc.zero_points = pl->chan_zp;
  }
  if (pl->k->kind == EWP_SOFTMAX && pl->nlut16 >= 2) {
    pl->u.sm.exp_lut = pl->lut16[0];
    pl->u.sm.one_over_one_plus_x_lut = pl->lut16[1];
  }
  const void *a = pl->in[0] >= 0 ? data[pl->in[0]] : NULL;
  const void *b = pl->in[1] >= 0 ? data[pl->in[1]] : NULL;
  const void *c = pl->in[2] >= 0 ? data[pl->in[2]] : NULL;
  return (int)pl->k->fn(&pl->u, a, b, c, data[pl->out]);
}

void ew_plan_release(ew_plan *pl) {
  free(pl->chan_scale);
  free(pl->chan_zp);
  pl->chan_scale = NULL;
  pl->chan_zp = NULL;
  pl->nchan = 0;
}

int ew_check_per_tensor(const ir_tensor *t, const char *what, char *why, size_t n) {
  if (!t || t->nq != 1) {
    snprintf(why, n, "%s needs per-tensor quantization", what);
    return -1;
  }
  if (!(t->scale[0] > 0.0f) || !isfinite(t->scale[0])) {
    snprintf(why, n, "%s has scale %g", what, (double)t->scale[0]);
    return -1;
  }
  return 0;
}

int ew_fail(char *why, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, n, fmt, ap);
  va_end(ap);
  return -1;
}
