/* quant_elementwise.c - broadcast planning and quantization helpers of the
 * elementwise and activation operators, and their glue to the lowering step
 * (ew_lower_one: one kernel call, refused when a multiplier is out of the
 * kernels' exact range). */
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

static int ew_run_plan(ew_plan_fn f, const ir_graph *g, const ir_op *op, lower_call *pl, char *why,
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

/* ---- op_impl glue ---------------------------------------------------------- */

int ew_lower_one(ew_plan_fn f, const ir_graph *g, const ir_op *op, lower_list *L, char *why,
                 size_t n) {
  L->n = 1;
  return ew_run_plan(f, g, op, &L->call[0], why, n);
}
