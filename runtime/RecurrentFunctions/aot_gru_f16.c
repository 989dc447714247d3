/* aot_gru_f16.c - Keras GRU with binary16 activations, weights and biases.
 * Matrix-vector products use _Float16 multiply-accumulate where the target
 * has FP16 arithmetic (Cortex-M55), float32 elsewhere; the nonlinearities run
 * in float32 (expf/tanhf); the state is rounded to binary16 every step. */
#include <math.h>
#include <string.h>

#include "../aot_recurrent.h"

#if defined(__ARM_FEATURE_FP16_SCALAR_ARITHMETIC) || defined(__ARM_FEATURE_FP16_VECTOR_ARITHMETIC)
#define AOT_GRU_NATIVE_F16 1
__extension__ typedef _Float16 aot_gru_h16;

/* bias + sum_k w[k] * v[k] with binary16 multiply-accumulate; v holds
 * binary16 values (as float, exactly representable). */
static float aot_gru_dot16(const uint16_t *bias, size_t bi, const uint16_t *w, const float *v,
                           int32_t n) {
  aot_gru_h16 acc = 0, a, b;
  int32_t k;
  if (bias) memcpy(&acc, bias + bi, sizeof acc);
  for (k = 0; k < n; k++) {
    memcpy(&a, w + k, sizeof a);
    b = (aot_gru_h16)v[k];
    acc += a * b;
  }
  return (float)acc;
}
#else
#define AOT_GRU_NATIVE_F16 0

static float aot_gru_dot16(const uint16_t *bias, size_t bi, const uint16_t *w, const float *v,
                           int32_t n) {
  float acc = bias ? aot_f16_to_f32(bias[bi]) : 0.0f;
  int32_t k;
  for (k = 0; k < n; k++) acc += aot_f16_to_f32(w[k]) * v[k];
  return acc;
}
#endif

/* round a float to the nearest binary16 value */
static float aot_gru_r16(float v) { return aot_f16_to_f32(aot_f32_to_f16(v)); }

static float aot_gru_gate16(int32_t act, float v) {
  if (act == AOT_GRU_HARD_SIGMOID) return aot_clamp_f32(0.2f * v + 0.5f, 0.0f, 1.0f);
  return 1.0f / (1.0f + expf(-v));
}

int32_t aot_gru_f16(const aot_gru_params *p, const uint16_t *x, const uint16_t *h0,
                    const uint16_t *w, const uint16_t *u, const uint16_t *bias_x,
                    const uint16_t *bias_h, uint16_t *seq_out, uint16_t *h_out,
                    float *scratch) {
  const int32_t nt = p->time_steps, nf = p->features, nu = p->units;
  /* scratch: h[U] (binary16 values held as float), gx[3U], gh[3U], rh[U] */
  float *h = scratch, *gx = h + nu, *gh = gx + 3 * (size_t)nu, *rh = gh + 3 * (size_t)nu;
  int32_t s, j, k;
  if (nt <= 0 || nf <= 0 || nu <= 0) return AOT_KERNEL_BAD_PARAM;
  if ((p->gate_act != AOT_GRU_SIGMOID && p->gate_act != AOT_GRU_HARD_SIGMOID) ||
      (p->cand_act != AOT_GRU_TANH && p->cand_act != AOT_GRU_LINEAR))
    return AOT_KERNEL_BAD_PARAM;
  for (j = 0; j < nu; j++) h[j] = aot_f16_to_f32(h0[j]);
  for (s = 0; s < nt; s++) {
    const int32_t ts = p->go_backwards ? nt - 1 - s : s;
    const uint16_t *xt = x + (size_t)ts * nf;
    /* x.W + bias_x */
    for (j = 0; j < 3 * nu; j++) {
#if AOT_GRU_NATIVE_F16
      aot_gru_h16 acc = 0, a, b;
      if (bias_x) memcpy(&acc, bias_x + j, sizeof acc);
      for (k = 0; k < nf; k++) {
        memcpy(&a, w + (size_t)j * nf + k, sizeof a);
        memcpy(&b, xt + k, sizeof b);
        acc += a * b;
      }
      gx[j] = (float)acc;
#else
      float acc = bias_x ? aot_f16_to_f32(bias_x[j]) : 0.0f;
      for (k = 0; k < nf; k++)
        acc += aot_f16_to_f32(w[(size_t)j * nf + k]) * aot_f16_to_f32(xt[k]);
      gx[j] = acc;
#endif
    }
    for (j = 0; j < (p->reset_after ? 3 : 2) * nu; j++)
      gh[j] = aot_gru_dot16(bias_h, (size_t)j, u + (size_t)j * nu, h, nu);
    for (j = 0; j < 2 * nu; j++) gx[j] = aot_gru_gate16(p->gate_act, gx[j] + gh[j]);
    if (p->reset_after) {
      for (j = 0; j < nu; j++) {
        float a = gx[2 * nu + j] + gx[nu + j] * gh[2 * nu + j];
        gh[2 * nu + j] = p->cand_act == AOT_GRU_LINEAR ? a : tanhf(a);
      }
    } else {
      for (k = 0; k < nu; k++) rh[k] = aot_gru_r16(gx[nu + k] * h[k]);
      for (j = 0; j < nu; j++) {
        float a = gx[2 * nu + j] +
                  aot_gru_dot16(bias_h, 2 * (size_t)nu + j, u + (2 * (size_t)nu + j) * nu, rh, nu);
        gh[2 * nu + j] = p->cand_act == AOT_GRU_LINEAR ? a : tanhf(a);
      }
    }
    for (j = 0; j < nu; j++) {
      float z = gx[j];
      h[j] = aot_gru_r16(z * h[j] + (1.0f - z) * gh[2 * nu + j]);
    }
    if (p->return_sequences)
      for (j = 0; j < nu; j++) seq_out[(size_t)s * nu + j] = aot_f32_to_f16(h[j]);
  }
  if (!p->return_sequences && seq_out)
    for (j = 0; j < nu; j++) seq_out[j] = aot_f32_to_f16(h[j]);
  if (h_out)
    for (j = 0; j < nu; j++) h_out[j] = aot_f32_to_f16(h[j]);
  return AOT_KERNEL_OK;
}
