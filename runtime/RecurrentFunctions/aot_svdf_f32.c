/* aot_svdf_f32.c - float SVDF (TFLite Micro reference order of operations).
 * Uses tanhf/expf for the TANH/SIGMOID activations. */
#include <math.h>

#include "../aot_recurrent.h"

static float aot_svdf_act(int32_t act, float v) {
  switch (act) {
    case AOT_ACT_RELU: return v < 0.0f ? 0.0f : v;
    case AOT_ACT_RELU_N1_TO_1: return v < -1.0f ? -1.0f : (v > 1.0f ? 1.0f : v);
    case AOT_ACT_RELU6: return v < 0.0f ? 0.0f : (v > 6.0f ? 6.0f : v);
    case AOT_ACT_TANH: return tanhf(v);
    case AOT_ACT_SIGMOID: return 1.0f / (1.0f + expf(-v));
    default: return v;
  }
}

int32_t aot_svdf_f32(const aot_svdf_params *p, const float *input,
                     const float *weights_feature, const float *weights_time,
                     const float *bias, float *state, float *output, float *scratch) {
  const int32_t nb = p->batch, ni = p->input_size, nf = p->num_filters;
  const int32_t nu = p->num_units, nr = p->rank, nm = p->memory_size;
  int32_t b, f, k, u, r;
  size_t n, total;
  if (nb <= 0 || ni <= 0 || nf <= 0 || nu <= 0 || nr <= 0 || nm <= 0 || nu * nr != nf)
    return AOT_KERNEL_BAD_PARAM;
  if (p->activation != AOT_ACT_NONE && p->activation != AOT_ACT_RELU &&
      p->activation != AOT_ACT_RELU_N1_TO_1 && p->activation != AOT_ACT_RELU6 &&
      p->activation != AOT_ACT_TANH && p->activation != AOT_ACT_SIGMOID)
    return AOT_KERNEL_BAD_PARAM;
  total = (size_t)nb * (size_t)nf * (size_t)nm;
  for (n = 0; n + 1 < total; n++) state[n] = state[n + 1];
  for (b = 0; b < nb; b++) {
    const float *x = input + (size_t)b * ni;
    for (f = 0; f < nf; f++) {
      const float *w = weights_feature + (size_t)f * ni;
      float dot = 0.0f;
      for (k = 0; k < ni; k++) dot += w[k] * x[k];
      state[((size_t)b * nf + f) * nm + (nm - 1)] = dot;
    }
  }
  for (b = 0; b < nb; b++) {
    for (f = 0; f < nf; f++) {
      const float *s = state + ((size_t)b * nf + f) * nm;
      const float *w = weights_time + (size_t)f * nm;
      float dot = 0.0f;
      for (k = 0; k < nm; k++) dot += w[k] * s[k];
      scratch[(size_t)b * nf + f] = dot;
    }
  }
  for (b = 0; b < nb; b++) {
    for (u = 0; u < nu; u++) {
      float a = bias ? bias[u] : 0.0f;
      for (r = 0; r < nr; r++) a += scratch[(size_t)b * nf + (size_t)u * nr + r];
      output[(size_t)b * nu + u] = aot_svdf_act(p->activation, a);
    }
  }
  return AOT_KERNEL_OK;
}
