/* quant.c - quantization arithmetic shared by operator implementations. */
#include "ops.h"

#include <math.h>
#include <stdio.h>

void quantize_multiplier(double real, int32_t *q, int *shift) {
  if (real == 0.0) {
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
#define QV(x) (zp + (int32_t)lroundf((x) / scale))
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
