/* aot_gru_f32.c - Keras GRU over a sequence, float32 activations with
 * float32 (aot_gru_f32) or binary16 (aot_gru_f32_f16w) weights and biases.
 * Uses expf/tanhf. */
#include <math.h>

#include "../aot_recurrent.h"

static float aot_gru_gate(int32_t act, float v) {
  if (act == AOT_GRU_HARD_SIGMOID) return aot_clamp_f32(0.2f * v + 0.5f, 0.0f, 1.0f);
  return 1.0f / (1.0f + expf(-v));
}

static float aot_gru_cand(int32_t act, float v) { return act == AOT_GRU_LINEAR ? v : tanhf(v); }

static int32_t aot_gru_check(const aot_gru_params *p) {
  if (p->time_steps <= 0 || p->features <= 0 || p->units <= 0) return AOT_KERNEL_BAD_PARAM;
  if ((p->gate_act != AOT_GRU_SIGMOID && p->gate_act != AOT_GRU_HARD_SIGMOID) ||
      (p->cand_act != AOT_GRU_TANH && p->cand_act != AOT_GRU_LINEAR))
    return AOT_KERNEL_BAD_PARAM;
  return AOT_KERNEL_OK;
}

/* LD(ptr, index) loads one weight/bias element as float. Scratch layout:
 * h[U], gx[3U], gh[3U], rh[U]. */
#define AOT_GRU_BODY(LD)                                                                   \
  const int32_t nt = p->time_steps, nf = p->features, nu = p->units;                      \
  float *h = scratch, *gx = h + nu, *gh = gx + 3 * (size_t)nu, *rh = gh + 3 * (size_t)nu; \
  int32_t s, j, k;                                                                        \
  int32_t st = aot_gru_check(p);                                                          \
  if (st != AOT_KERNEL_OK) return st;                                                     \
  for (j = 0; j < nu; j++) h[j] = h0[j];                                                  \
  for (s = 0; s < nt; s++) {                                                              \
    const int32_t ts = p->go_backwards ? nt - 1 - s : s;                                  \
    const float *xt = x + (size_t)ts * nf;                                                \
    for (j = 0; j < 3 * nu; j++) {                                                        \
      float a = bias_x ? LD(bias_x, j) : 0.0f;                                            \
      for (k = 0; k < nf; k++) a += LD(w, (size_t)j * nf + k) * xt[k];                    \
      gx[j] = a;                                                                          \
    }                                                                                     \
    /* z and r recurrent parts (and n's for reset_after) */                               \
    for (j = 0; j < (p->reset_after ? 3 : 2) * nu; j++) {                                 \
      float a = bias_h ? LD(bias_h, j) : 0.0f;                                            \
      for (k = 0; k < nu; k++) a += LD(u, (size_t)j * nu + k) * h[k];                     \
      gh[j] = a;                                                                          \
    }                                                                                     \
    for (j = 0; j < 2 * nu; j++) gx[j] = aot_gru_gate(p->gate_act, gx[j] + gh[j]);        \
    if (p->reset_after) {                                                                 \
      for (j = 0; j < nu; j++)                                                            \
        gh[2 * nu + j] = aot_gru_cand(p->cand_act, gx[2 * nu + j] + gx[nu + j] * gh[2 * nu + j]); \
    } else {                                                                              \
      for (k = 0; k < nu; k++) rh[k] = gx[nu + k] * h[k];                                 \
      for (j = 0; j < nu; j++) {                                                          \
        float a = bias_h ? LD(bias_h, 2 * (size_t)nu + j) : 0.0f;                         \
        for (k = 0; k < nu; k++) a += LD(u, (2 * (size_t)nu + j) * nu + k) * rh[k];      \
        gh[2 * nu + j] = aot_gru_cand(p->cand_act, gx[2 * nu + j] + a);                   \
      }                                                                                   \
    }                                                                                     \
    for (j = 0; j < nu; j++) {                                                            \
      float z = gx[j];                                                                    \
      h[j] = z * h[j] + (1.0f - z) * gh[2 * nu + j];                                      \
    }                                                                                     \
    if (p->return_sequences)                                                              \
      for (j = 0; j < nu; j++) seq_out[(size_t)s * nu + j] = h[j];                        \
  }                                                                                       \
  if (!p->return_sequences && seq_out)                                                    \
    for (j = 0; j < nu; j++) seq_out[j] = h[j];                                           \
  if (h_out)                                                                              \
    for (j = 0; j < nu; j++) h_out[j] = h[j];                                             \
  return AOT_KERNEL_OK

#define AOT_GRU_LD_F32(ptr, i) ((ptr)[i])
#define AOT_GRU_LD_F16(ptr, i) aot_f16_to_f32((ptr)[i])

int32_t aot_gru_f32(const aot_gru_params *p, const float *x, const float *h0,
                    const float *w, const float *u, const float *bias_x,
                    const float *bias_h, float *seq_out, float *h_out,
                    float *scratch) {
  AOT_GRU_BODY(AOT_GRU_LD_F32);
}

int32_t aot_gru_f32_f16w(const aot_gru_params *p, const float *x, const float *h0,
                         const uint16_t *w, const uint16_t *u, const uint16_t *bias_x,
                         const uint16_t *bias_h, float *seq_out, float *h_out,
                         float *scratch) {
  AOT_GRU_BODY(AOT_GRU_LD_F16);
}
