/* quant_elementwise.c - broadcast planning and quantization helpers of the
 * elementwise and activation operators. */
#include "quant_elementwise.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
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

/* A multiplier no kernel can apply exactly (non-finite, or a left shift of
 * 32 or more: a scale ratio of 2^31 and above) seen by ew_qm since the plan
 * function started; ew_run_* refuse the op with it. aotc is single-threaded. */
static int ew_qm_bad;
static double ew_qm_bad_m;

void ew_qm(double m, int32_t *q, int32_t *shift) {
  int s = 0;
  quantize_multiplier(m, q, &s);
  *shift = s;
  if ((!isfinite(m) || s > 31) && !ew_qm_bad) {
    ew_qm_bad = 1;
    ew_qm_bad_m = m;
  }
}

static int ew_run_plan(ew_plan_fn f, const ir_graph *g, const ir_op *op, ew_plan *pl, char *why,
                       size_t n) {
  ew_qm_bad = 0;
  int rc = f(g, op, pl, why, n);
  if (rc == 0 && ew_qm_bad)
    rc = ew_fail(why, n,
                 "scale ratio %g is outside what the integer kernel computes exactly (it must "
                 "be finite and below 2^31)",
                 ew_qm_bad_m);
  ew_qm_bad = 0;
  return rc;
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

#define BM "BasicMathFunctions/"
#define AF "ActivationFunctions/"
#define SM "SoftmaxFunctions/"
#define QF "QuantizationFunctions/"

/* Every kernel once: X(C function, runtime file, EWP_* params kind, tensor
 * inputs). The list makes both the eval wrappers and the table below. */
#define EW_KERNELS(X)                                                                             \
  X(aot_add_s8, BM "aot_add_s8.c", EWP_ADDSUB, 2)                                                 \
  X(aot_add_s16, BM "aot_add_s16.c", EWP_ADDSUB, 2)                                               \
  X(aot_sub_s8, BM "aot_sub_s8.c", EWP_ADDSUB, 2)                                                 \
  X(aot_sub_s16, BM "aot_sub_s16.c", EWP_ADDSUB, 2)                                               \
  X(aot_add_s16_pot, BM "aot_add_s16_pot.c", EWP_POT, 2)                                          \
  X(aot_sub_s16_pot, BM "aot_sub_s16_pot.c", EWP_POT, 2)                                          \
  X(aot_mul_s8, BM "aot_mul_s8.c", EWP_MUL, 2)                                                    \
  X(aot_mul_s16, BM "aot_mul_s16.c", EWP_MUL, 2)                                                  \
  X(aot_add_f32, BM "aot_add_f32.c", EWP_ARITH_F32, 2)                                            \
  X(aot_sub_f32, BM "aot_sub_f32.c", EWP_ARITH_F32, 2)                                            \
  X(aot_mul_f32, BM "aot_mul_f32.c", EWP_ARITH_F32, 2)                                            \
  X(aot_div_f32, BM "aot_div_f32.c", EWP_ARITH_F32, 2)                                            \
  X(aot_add_s32, BM "aot_add_s32.c", EWP_ARITH_S32, 2)                                            \
  X(aot_sub_s32, BM "aot_sub_s32.c", EWP_ARITH_S32, 2)                                            \
  X(aot_mul_s32, BM "aot_mul_s32.c", EWP_ARITH_S32, 2)                                            \
  X(aot_squared_diff_f32, BM "aot_squared_diff_f32.c", EWP_BCAST, 2)                              \
  X(aot_squared_diff_s8, BM "aot_squared_diff_s8.c", EWP_ADDSUB, 2)                               \
  X(aot_squared_diff_s16, BM "aot_squared_diff_s16.c", EWP_ADDSUB, 2)                             \
  X(aot_maximum_s8, BM "aot_maxmin_s8.c", EWP_BCAST, 2)                                           \
  X(aot_minimum_s8, BM "aot_maxmin_s8.c", EWP_BCAST, 2)                                           \
  X(aot_maximum_s16, BM "aot_maxmin_s16.c", EWP_BCAST, 2)                                         \
  X(aot_minimum_s16, BM "aot_maxmin_s16.c", EWP_BCAST, 2)                                         \
  X(aot_maximum_s32, BM "aot_maxmin_s32.c", EWP_BCAST, 2)                                         \
  X(aot_minimum_s32, BM "aot_maxmin_s32.c", EWP_BCAST, 2)                                         \
  X(aot_maximum_f32, BM "aot_maxmin_f32.c", EWP_BCAST, 2)                                         \
  X(aot_minimum_f32, BM "aot_maxmin_f32.c", EWP_BCAST, 2)                                         \
  X(aot_compare_f32, BM "aot_compare_f32.c", EWP_COMPARE, 2)                                      \
  X(aot_compare_s32, BM "aot_compare_s32.c", EWP_COMPARE, 2)                                      \
  X(aot_compare_s8, BM "aot_compare_s8.c", EWP_COMPARE, 2)                                        \
  X(aot_compare_u8, BM "aot_compare_u8.c", EWP_COMPARE, 2)                                        \
  X(aot_logical_and, BM "aot_logical.c", EWP_BCAST, 2)                                            \
  X(aot_logical_or, BM "aot_logical.c", EWP_BCAST, 2)                                             \
  X(aot_logical_not, BM "aot_logical.c", EWP_UNARY, 1)                                            \
  X(aot_select, BM "aot_select.c", EWP_SELECT, 3)                                                 \
  X(aot_exp_f32, BM "aot_exp_f32.c", EWP_UNARY, 1)                                                \
  X(aot_log_f32, BM "aot_log_f32.c", EWP_UNARY, 1)                                                \
  X(aot_sqrt_f32, BM "aot_sqrt_f32.c", EWP_UNARY, 1)                                              \
  X(aot_rsqrt_f32, BM "aot_rsqrt_f32.c", EWP_UNARY, 1)                                            \
  X(aot_abs_f32, BM "aot_abs_f32.c", EWP_UNARY, 1)                                                \
  X(aot_neg_f32, BM "aot_neg_f32.c", EWP_UNARY, 1)                                                \
  X(aot_floor_f32, BM "aot_floor_f32.c", EWP_UNARY, 1)                                            \
  X(aot_square_f32, BM "aot_square_f32.c", EWP_UNARY, 1)                                          \
  X(aot_neg_s32, BM "aot_neg_s32.c", EWP_UNARY, 1)                                                \
  X(aot_logistic_f32, AF "aot_logistic_f32.c", EWP_UNARY, 1)                                      \
  X(aot_tanh_f32, AF "aot_tanh_f32.c", EWP_UNARY, 1)                                              \
  X(aot_hard_swish_f32, AF "aot_hard_swish_f32.c", EWP_UNARY, 1)                                  \
  X(aot_elu_f32, AF "aot_elu_f32.c", EWP_UNARY, 1)                                                \
  X(aot_act_clamp_f32, AF "aot_act_clamp_f32.c", EWP_ACT_CLAMP_F32, 1)                            \
  X(aot_act_clamp_s8, AF "aot_act_clamp_s8.c", EWP_ACT_CLAMP_Q, 1)                                \
  X(aot_act_clamp_s16, AF "aot_act_clamp_s16.c", EWP_ACT_CLAMP_Q, 1)                              \
  X(aot_relu_s8, AF "aot_relu_s8.c", EWP_RELU_Q, 1)                                               \
  X(aot_relu_s16, AF "aot_relu_s16.c", EWP_RELU_Q, 1)                                             \
  X(aot_abs_s8, AF "aot_abs_s8.c", EWP_RELU_Q, 1)                                                 \
  X(aot_abs_s16, AF "aot_abs_s16.c", EWP_RELU_Q, 1)                                               \
  X(aot_leaky_relu_s8, AF "aot_leaky_relu_s8.c", EWP_LEAKY_Q, 1)                                  \
  X(aot_leaky_relu_s16, AF "aot_leaky_relu_s16.c", EWP_LEAKY_Q, 1)                                \
  X(aot_leaky_relu_f32, AF "aot_leaky_relu_f32.c", EWP_LEAKY_F32, 1)                              \
  X(aot_logistic_s8, AF "aot_logistic_s8.c", EWP_SIG_S8, 1)                                       \
  X(aot_tanh_s8, AF "aot_tanh_s8.c", EWP_SIG_S8, 1)                                               \
  X(aot_logistic_s16, AF "aot_logistic_s16.c", EWP_SIG_S16, 1)                                    \
  X(aot_tanh_s16, AF "aot_tanh_s16.c", EWP_SIG_S16, 1)                                            \
  X(aot_hard_swish_s8, AF "aot_hard_swish_s8.c", EWP_HSWISH, 1)                                   \
  X(aot_prelu_s8, AF "aot_prelu_s8.c", EWP_PRELU_Q, 2)                                            \
  X(aot_prelu_s16, AF "aot_prelu_s16.c", EWP_PRELU_Q, 2)                                          \
  X(aot_prelu_f32, AF "aot_prelu_f32.c", EWP_BCAST, 2)                                            \
  X(aot_lut_s8, AF "aot_lut_s8.c", EWP_LUT_S8, 1)                                                 \
  X(aot_softmax_s8, SM "aot_softmax_s8.c", EWP_SOFTMAX, 1)                                        \
  X(aot_softmax_s8_s16, SM "aot_softmax_s8.c", EWP_SOFTMAX, 1)                                    \
  X(aot_softmax_s16, SM "aot_softmax_s16.c", EWP_SOFTMAX, 1)                                      \
  X(aot_softmax_f32, SM "aot_softmax_f32.c", EWP_SOFTMAX, 1)                                      \
  X(aot_log_softmax_f32, SM "aot_log_softmax_f32.c", EWP_SOFTMAX, 1)                              \
  X(aot_log_softmax_s8, SM "aot_log_softmax_s8.c", EWP_SOFTMAX, 1)                                \
  X(aot_quantize_f32_s8, QF "aot_quantize_f32_s8.c", EWP_QUANTIZE, 1)                             \
  X(aot_quantize_f32_s16, QF "aot_quantize_f32_s16.c", EWP_QUANTIZE, 1)                           \
  X(aot_quantize_f32_u8, QF "aot_quantize_f32_u8.c", EWP_QUANTIZE, 1)                             \
  X(aot_requantize, QF "aot_requantize.c", EWP_REQUANT, 1)                                        \
  X(aot_dequantize_s8, QF "aot_dequantize_s8.c", EWP_DEQUANT, 1)                                  \
  X(aot_dequantize_s16, QF "aot_dequantize_s16.c", EWP_DEQUANT, 1)                                \
  X(aot_dequantize_u8, QF "aot_dequantize_u8.c", EWP_DEQUANT, 1)                                  \
  X(aot_dequantize_f16, QF "aot_dequantize_f16.c", EWP_UNARY, 1)                                  \
  X(aot_dequantize_pc_s8, QF "aot_dequantize_pc.c", EWP_DEQUANT_PC, 1)                            \
  X(aot_dequantize_pc_s16, QF "aot_dequantize_pc.c", EWP_DEQUANT_PC, 1)

/* Uniform eval wrappers w_<kernel> (an ew_fn): the void pointers convert to
 * the kernel's own parameter types; inputs past the kernel's count are unused. */
#define EW_WRAP_1(K)                                                                              \
  static int32_t w_##K(const void *p, const void *a, const void *b, const void *c, void *y) {     \
    (void)b;                                                                                      \
    (void)c;                                                                                      \
    return K(p, a, y);                                                                            \
  }
#define EW_WRAP_2(K)                                                                              \
  static int32_t w_##K(const void *p, const void *a, const void *b, const void *c, void *y) {     \
    (void)c;                                                                                      \
    return K(p, a, b, y);                                                                         \
  }
#define EW_WRAP_3(K)                                                                              \
  static int32_t w_##K(const void *p, const void *a, const void *b, const void *c, void *y) {     \
    return K(p, a, b, c, y);                                                                      \
  }
#define EW_WRAP(NAME, FILE, KIND, NIN) EW_WRAP_##NIN(NAME)
EW_KERNELS(EW_WRAP)

#define EW_ROW(NAME, FILE, KIND, NIN) {#NAME, FILE, KIND, NIN, w_##NAME},
static const ew_kernel ew_kernels[] = {EW_KERNELS(EW_ROW)};

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

/* A params struct member as printed: its name, its place in an ew_plan and
 * how it prints: 'i' int32, 'f' float, 'b' aot_bcast, 'c' AOT_CMP_* op,
 * 'r' AOT_RQ_* type. */
typedef struct ew_field {
  const char *name;
  size_t off;
  char type;
} ew_field;

#define FLD(M, X, T) {#X, offsetof(ew_plan, u.M.X), T}
#define FI(M, X) FLD(M, X, 'i')
#define FF(M, X) FLD(M, X, 'f')
#define FB(M) FLD(M, bc, 'b')

/* Per params kind: the C type and the members printed for every kernel, in
 * order (at most 13; unnamed entries end the list). print_params adds the
 * members that depend on the kernel or on their values. */
static const struct {
  const char *ctype;
  ew_field f[14];
} ew_params[] = {
    [EWP_ADDSUB] = {"aot_addsub_q_params",
                    {FB(addsub), FI(addsub, left_shift), FI(addsub, in1_offset),
                     FI(addsub, in2_offset), FI(addsub, in1_mult), FI(addsub, in1_shift),
                     FI(addsub, in2_mult), FI(addsub, in2_shift), FI(addsub, out_mult),
                     FI(addsub, out_shift), FI(addsub, out_offset), FI(addsub, act_min),
                     FI(addsub, act_max)}},
    [EWP_POT] = {"aot_addsub_pot_params",
                 {FB(pot), FI(pot, in1_shift), FI(pot, in2_shift), FI(pot, act_min),
                  FI(pot, act_max)}},
    [EWP_MUL] = {"aot_mul_q_params",
                 {FB(mul), FI(mul, in1_offset), FI(mul, in2_offset), FI(mul, out_offset),
                  FI(mul, out_mult), FI(mul, out_shift), FI(mul, act_min), FI(mul, act_max)}},
    [EWP_ARITH_F32] = {"aot_arith_f32_params", {FB(af), FF(af, act_min), FF(af, act_max)}},
    [EWP_ARITH_S32] = {"aot_arith_s32_params", {FB(ai), FI(ai, act_min), FI(ai, act_max)}},
    [EWP_BCAST] = {"aot_bcast_params", {FB(bp)}},
    [EWP_COMPARE] = {"aot_compare_params", {FB(cmp), FLD(cmp, op, 'c')}},
    [EWP_SELECT] = {"aot_select_params", {FB(sel), FI(sel, elem_size)}},
    [EWP_UNARY] = {"aot_unary_params", {FI(un, size)}},
    [EWP_ACT_CLAMP_F32] = {"aot_act_clamp_f32_params", {FI(cf, size), FF(cf, lo), FF(cf, hi)}},
    [EWP_ACT_CLAMP_Q] = {"aot_act_clamp_q_params", {FI(cq, size), FI(cq, lo), FI(cq, hi)}},
    [EWP_RELU_Q] = {"aot_relu_q_params",
                    {FI(relu, size), FI(relu, in_zp), FI(relu, out_zp), FI(relu, mult),
                     FI(relu, shift), FI(relu, act_min), FI(relu, act_max)}},
    [EWP_LEAKY_Q] = {"aot_leaky_relu_q_params",
                     {FI(lq, size), FI(lq, in_zp), FI(lq, out_zp), FI(lq, mult_identity),
                      FI(lq, shift_identity), FI(lq, mult_alpha), FI(lq, shift_alpha)}},
    [EWP_LEAKY_F32] = {"aot_leaky_relu_f32_params", {FI(lf, size), FF(lf, alpha)}},
    [EWP_SIG_S8] = {"aot_sigmoid_s8_params",
                    {FI(s8, size), FI(s8, in_zp), FI(s8, range_radius), FI(s8, mult),
                     FI(s8, left_shift)}},
    [EWP_SIG_S16] = {"aot_sigmoid_s16_params",
                     {FI(s16, size), FI(s16, mult), FI(s16, left_shift)}},
    [EWP_HSWISH] = {"aot_hard_swish_s8_params",
                    {FI(hs, size), FI(hs, in_zp), FI(hs, out_zp), FI(hs, out_mult16),
                     FI(hs, out_exp), FI(hs, reluish_mult16), FI(hs, reluish_exp)}},
    [EWP_PRELU_Q] = {"aot_prelu_q_params",
                     {FB(prelu), FI(prelu, in_offset), FI(prelu, alpha_offset),
                      FI(prelu, out_offset), FI(prelu, mult1), FI(prelu, shift1),
                      FI(prelu, mult2), FI(prelu, shift2)}},
    [EWP_LUT_S8] = {"aot_lut_s8_params", {FI(lut, size)}},
    [EWP_SOFTMAX] = {"aot_softmax_params", {FI(sm, outer), FI(sm, depth)}},
    [EWP_QUANTIZE] = {"aot_quantize_params",
                      {FI(q, size), FF(q, scale), FI(q, zero_point)}},
    [EWP_REQUANT] = {"aot_requant_params",
                     {FI(rq, size), FLD(rq, in_type, 'r'), FLD(rq, out_type, 'r'),
                      FI(rq, in_zp), FI(rq, out_zp), FI(rq, mult), FI(rq, shift)}},
    [EWP_DEQUANT] = {"aot_dequantize_params",
                     {FI(dq, size), FF(dq, scale), FI(dq, zero_point)}},
    [EWP_DEQUANT_PC] = {"aot_dequantize_pc_params",
                        {FI(dpc, outer), FI(dpc, channels), FI(dpc, inner)}},
};

/* the int8 comparison's requantization */
static const ew_field cmp_s8_fields[] = {
    FI(cmp, left_shift), FI(cmp, in1_offset), FI(cmp, in1_mult), FI(cmp, in1_shift),
    FI(cmp, in2_offset), FI(cmp, in2_mult), FI(cmp, in2_shift), {0}};

static void fi(strbuf *sb, const char *name, int32_t v) {
  sb_printf(sb, "  .%s = ", name);
  ew_i32_text(sb, v);
  sb_puts(sb, ",\n");
}

static void ff(strbuf *sb, emit_ctx *e, const char *name, float v) {
  sb_printf(sb, "  .%s = %s,\n", name, emit_float(e, v));
}

static void print_fields(strbuf *sb, emit_ctx *e, const ew_plan *pl, const ew_field *f) {
  static const char *const cmp_ops[] = {"AOT_CMP_EQUAL",        "AOT_CMP_NOT_EQUAL",
                                        "AOT_CMP_LESS",         "AOT_CMP_LESS_EQUAL",
                                        "AOT_CMP_GREATER",      "AOT_CMP_GREATER_EQUAL"};
  static const char *const rq_types[] = {"AOT_RQ_S8", "AOT_RQ_U8", "AOT_RQ_S16", "AOT_RQ_S32"};
  for (; f->name; f++) {
    const char *at = (const char *)pl + f->off;
    switch (f->type) {
      case 'i': fi(sb, f->name, *(const int32_t *)at); break;
      case 'f': ff(sb, e, f->name, *(const float *)at); break;
      case 'b':
        sb_puts(sb, "  .bc = ");
        ew_bcast_text(sb, (const aot_bcast *)at);
        sb_puts(sb, ",\n");
        break;
      case 'c': sb_printf(sb, "  .%s = %s,\n", f->name, cmp_ops[*(const int32_t *)at]); break;
      case 'r': sb_printf(sb, "  .%s = %s,\n", f->name, rq_types[*(const int32_t *)at & 3]); break;
    }
  }
}

static void print_params(strbuf *sb, emit_ctx *e, const ew_plan *pl, const char *lut_a,
                         const char *lut_b) {
  print_fields(sb, e, pl, ew_params[pl->k->kind].f);
  switch (pl->k->kind) {
    case EWP_COMPARE:
      if (strcmp(pl->k->name, "aot_compare_s8") == 0) print_fields(sb, e, pl, cmp_s8_fields);
      break;
    case EWP_LUT_S8: sb_printf(sb, "  .table = %s,\n", lut_a ? lut_a : "NULL"); break;
    case EWP_SOFTMAX: {
      const aot_softmax_params *p = &pl->u.sm;
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
    case EWP_DEQUANT_PC:
      sb_printf(sb, "  .scales = %s,\n", lut_a);
      sb_printf(sb, "  .zero_points = %s,\n", lut_b);
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
  sb_printf(&sb, "static const %s %s_p = {\n", ew_params[pl->k->kind].ctype, name);
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
  return quant_check_tensor(t, what, 0, why, n);
}

int ew_fail(char *why, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, n, fmt, ap);
  va_end(ap);
  return -1;
}

/* ---- op_impl glue ---------------------------------------------------------- */

int ew_run_check(ew_plan_fn f, const ir_graph *g, const ir_op *op, char *why, size_t n) {
  ew_plan pl;
  memset(&pl, 0, sizeof pl);
  int rc = ew_run_plan(f, g, op, &pl, why, n);
  ew_plan_release(&pl);
  return rc;
}

int ew_run_emit(ew_plan_fn f, emit_ctx *e, const ir_graph *g, const ir_op *op) {
  ew_plan pl;
  char why[256];
  memset(&pl, 0, sizeof pl);
  int rc = ew_run_plan(f, g, op, &pl, why, sizeof why) ? -1 : ew_plan_emit(e, &pl);
  ew_plan_release(&pl);
  return rc;
}

int ew_run_eval(ew_plan_fn f, const ir_graph *g, const ir_op *op, void *const *data) {
  ew_plan pl;
  char why[256];
  memset(&pl, 0, sizeof pl);
  int rc = ew_run_plan(f, g, op, &pl, why, sizeof why) ? -1 : ew_plan_eval(&pl, data);
  ew_plan_release(&pl);
  return rc;
}
