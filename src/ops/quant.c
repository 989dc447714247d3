/* quant.c - quantization arithmetic shared by operator implementations:
 * TFLite's QuantizeMultiplier, fused-activation ranges, and the checks that
 * keep every quantization parameter inside the range the integer kernels are
 * exact for (hostile models, issue 11). */
#include "ops.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

void quantize_multiplier(double real, int32_t *q, int *shift) {
  /* NaN and inf give 0 (callers refuse them through quant_check_multiplier
   * or ew_qm); frexp/llround are undefined for them. Negative values (a
   * negative LEAKY_RELU alpha) give a negative multiplier, as in TFLite. */
  if (real == 0.0 || !isfinite(real)) {
    *q = 0;
    *shift = 0;
    return;
  }
  int s;
  double frac = frexp(real, &s);
  int64_t qf = (int64_t)llround(frac * (double)(1LL << 31));
  if (qf == (1LL << 31)) {
    qf /= 2;
    s++;
  }
  if (s < -31) {
    s = 0;
    qf = 0;
  }
  *q = (int32_t)qf;
  *shift = s;
}

static int32_t qv_clamped(int32_t zp, float x, float scale) {
  const float r = roundf(x / scale);
  double v = (double)zp + (r == r ? (double)r : 0.0);
  if (v < (double)INT32_MIN) v = (double)INT32_MIN;
  if (v > (double)INT32_MAX) v = (double)INT32_MAX;
  return (int32_t)v;
}

void act_range_quant(const ir_tensor *out, int fused_act, int32_t *lo, int32_t *hi) {
  int32_t qmin, qmax;
  switch (out->dtype) {
    case DT_INT8: qmin = -128; qmax = 127; break;
    case DT_UINT8: qmin = 0; qmax = 255; break;
    case DT_INT16: qmin = -32768; qmax = 32767; break;
    default: qmin = INT32_MIN; qmax = INT32_MAX; break;
  }
  float scale = out->nq ? out->scale[0] : 1.0f;
  int32_t zp = out->nq ? out->zero_point[0] : 0;
  int32_t a = qmin, b = qmax;
  /* TFLite: zp + (int32_t)round(x / scale); evaluated in double and clamped
   * to int32 so that a hostile scale or zero point cannot overflow (the
   * checks refuse such tensors; the value matters only for valid ones). */
#define QV(x) qv_clamped(zp, (x), scale)
  if (fused_act == ACT_RELU) {
    a = QV(0.0f) > qmin ? QV(0.0f) : qmin;
  } else if (fused_act == ACT_RELU6) {
    a = QV(0.0f) > qmin ? QV(0.0f) : qmin;
    b = QV(6.0f) < qmax ? QV(6.0f) : qmax;
  } else if (fused_act == ACT_RELU_N1_TO_1) {
    a = QV(-1.0f) > qmin ? QV(-1.0f) : qmin;
    b = QV(1.0f) < qmax ? QV(1.0f) : qmax;
  }
#undef QV
  *lo = a;
  *hi = b;
}

void act_range_float(int fused_act, float *lo, float *hi) {
  *lo = -INFINITY;
  *hi = INFINITY;
  if (fused_act == ACT_RELU) {
    *lo = 0.0f;
  } else if (fused_act == ACT_RELU6) {
    *lo = 0.0f;
    *hi = 6.0f;
  } else if (fused_act == ACT_RELU_N1_TO_1) {
    *lo = -1.0f;
    *hi = 1.0f;
  }
}

void shape4(const ir_tensor *t, int32_t d[4]) {
  int r = t->rank;
  for (int i = 0; i < 4; i++) {
    int k = i - (4 - r);
    d[i] = (k >= 0 && k < r) ? t->shape[k] : 1;
  }
}

int ops_fail(char *why, size_t n, const char *fmt, ...) {
  if (why && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

int check_dtype(const ir_tensor *t, int dt, const char *what, char *why, size_t n) {
  if (!t) {
    snprintf(why, n, "%s is missing", what);
    return -1;
  }
  if (t->dtype != dt) {
    snprintf(why, n, "%s is %s, expected %s", what, dtype_name(t->dtype), dtype_name(dt));
    return -1;
  }
  return 0;
}

int check_fused_act_supported(int fused_act, char *why, size_t n) {
  if (fused_act == ACT_NONE || fused_act == ACT_RELU || fused_act == ACT_RELU6 ||
      fused_act == ACT_RELU_N1_TO_1)
    return 0;
  snprintf(why, n, "fused activation %d not supported", fused_act);
  return -1;
}

static int zp_range(int dtype, int64_t *lo, int64_t *hi) {
  switch (dtype) {
    case DT_INT8: *lo = INT8_MIN; *hi = INT8_MAX; return 0;
    case DT_UINT8: *lo = 0; *hi = UINT8_MAX; return 0;
    case DT_INT16: *lo = INT16_MIN; *hi = INT16_MAX; return 0;
    case DT_INT32: *lo = -INT32_MAX; *hi = INT32_MAX; return 0;
    case DT_INT64: *lo = 0; *hi = 0; return 0;
    default: return -1;
  }
}

int quant_check_tensor(const ir_tensor *t, const char *what, int allow_zero_scale, char *why,
                       size_t n) {
  if (!t || t->nq < 1 || !t->scale || !t->zero_point) {
    snprintf(why, n, "%s is not quantized", what);
    return -1;
  }
  int64_t lo = INT32_MIN, hi = INT32_MAX;
  const int has_range = zp_range(t->dtype, &lo, &hi) == 0;
  for (int i = 0; i < t->nq; i++) {
    const float s = t->scale[i];
    const int ok = isfinite(s) && (s >= FLT_MIN || (allow_zero_scale && s == 0.0f));
    if (!ok) {
      snprintf(why, n, "%s scale%s %g is not a finite number >= %g%s", what,
               t->nq > 1 ? " of a channel" : "", (double)s, (double)FLT_MIN,
               allow_zero_scale ? " (or 0)" : "");
      return -1;
    }
    const int64_t z = t->zero_point[i];
    if (has_range && (z < lo || z > hi)) {
      snprintf(why, n, "%s zero point %lld outside the %s range [%lld, %lld]", what, (long long)z,
               dtype_name(t->dtype), (long long)lo, (long long)hi);
      return -1;
    }
  }
  return 0;
}

int quant_check_multiplier(double real, int max_shift, const char *what, char *why, size_t n) {
  if (!(real >= 0.0) || !isfinite(real)) {
    snprintf(why, n, "%s %g is not a finite non-negative number", what, real);
    return -1;
  }
  int32_t q;
  int s;
  quantize_multiplier(real, &q, &s);
  if (s > max_shift) {
    snprintf(why, n, "%s %g is too large for the integer kernel (must be below 2^%d)", what,
             real, max_shift);
    return -1;
  }
  return 0;
}
