/* aot_gru_s8w.c - Keras GRU over a sequence with float32 activations and
 * int8 weights (dynamic-range quantization), computed as the LiteRT runtime
 * computes the cell's hybrid FULLY_CONNECTED ops: per time step the input row
 * x_t and the state h (and, for reset_after = 0, r * h) are each quantized to
 * int8 with aot_hybrid_quantize_qd8 (the conversion aot_fc_hybrid uses), the
 * int8 x int8 products of a row are summed in int32 as sum w * (q - zp), and
 * the sum is scaled back as ((float)acc * input_scale) * row_scale + bias.
 * The gates and the state update are those of aot_gru_f32 (aot_gru.h).
 *
 * Weights: w [3 Up][F], u [3 Up][U] int8 row-major (row R = g * Up + j, rows
 * j >= units zero), one float scale per row; float32 biases [3 Up] or NULL.
 * Scratch (aot_gru_buffer_size, AOT_GRU_KIND_F32_S8W): gx [3 Up], gh [3 Up],
 * h [Up], rh [Up] floats, the row sums of w and u [3 Up] int32 each
 * (computed once per call: sum w (q - zp) = sum w q - zp sum w), then
 * max(F, U) int8 values.
 *
 * The row products: portable C; with the Arm DSP extension (Cortex-M4) two
 * products per SMLAD, with Helium (Cortex-M55) sixteen per VMLADAVA. All sum
 * the same integers exactly, so every variant gives the same bits. */
#include "../aot_conv.h"
#include "../aot_gru.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(AOT_NO_SIMD)
#include <arm_mve.h>
#define AOT_GRU_S8_MVE 1
#elif defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32) && !defined(AOT_NO_SIMD)
#include <arm_acle.h>
#include <string.h>
#define AOT_GRU_S8_DSP 1
/* bytes 1 and 3 of v sign-extended into two halfwords */
AOT_INLINE int16x2_t aot_gru_sxtb16_hi(uint32_t v) {
  int16x2_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}
#endif

/* sum_k w[k] * q[k] over n values (int8 x int8 -> int32, exact) */
static int32_t aot_gru_dot_s8(const int8_t *w, const int8_t *q, int32_t n) {
  int32_t acc = 0, k = 0;
#if defined(AOT_GRU_S8_MVE)
  for (; k + 16 <= n; k += 16) acc = vmladavaq_s8(acc, vld1q_s8(w + k), vld1q_s8(q + k));
  if (k < n) {
    const mve_pred16_t pr = vctp8q((uint32_t)(n - k));
    acc = vmladavaq_p_s8(acc, vld1q_z_s8(w + k, pr), vld1q_z_s8(q + k, pr), pr);
    k = n;
  }
#elif defined(AOT_GRU_S8_DSP)
  for (; k + 4 <= n; k += 4) {
    uint32_t a, b;
    memcpy(&a, w + k, 4);
    memcpy(&b, q + k, 4);
    /* bytes 0, 2 and 1, 3 as halfword pairs, two products per SMLAD */
    acc = __smlad(__sxtb16((int8x4_t)a), __sxtb16((int8x4_t)b), acc);
    acc = __smlad(aot_gru_sxtb16_hi(a), aot_gru_sxtb16_hi(b), acc);
  }
#endif
  for (; k < n; k++) acc += (int32_t)w[k] * (int32_t)q[k];
  return acc;
}

/* sum[R] = sum_k m[R][k] for the rows of an n-column matrix */
static void aot_gru_rowsums_s8(const int8_t *m, int32_t rows, int32_t n, int32_t *sum) {
  int32_t r, k;
  for (r = 0; r < rows; r++) {
    int32_t acc = 0;
    for (k = 0; k < n; k++) acc += m[(size_t)r * (size_t)n + k];
    sum[r] = acc;
  }
}

/* out[R] = ((float)(sum_k m[R][k] (q[k] - zp)) * s) * scale[R] + bias[R] for
 * R in [r0, r0 + rows); sum w * (q - zp) = sum w q - zp * sum w (wsum). */
static void aot_gru_rows_s8(const int8_t *m, const int32_t *wsum, const float *scale,
                            const float *bias, int32_t r0, int32_t rows, int32_t n,
                            const int8_t *q, float s, int32_t zp, float *out) {
  int32_t r;
  for (r = r0; r < r0 + rows; r++) {
    const int32_t acc = aot_gru_dot_s8(m + (size_t)r * (size_t)n, q, n) - zp * wsum[r];
    float v = (float)acc * s;
    v *= scale[r];
    if (bias) v += bias[r];
    out[r] = v;
  }
}

int32_t aot_gru_f32_s8w(const aot_gru_params *p, const float *x, const float *h0,
                        const int8_t *w, const float *w_scale, const int8_t *u,
                        const float *u_scale, const float *bias_x, const float *bias_h,
                        float *seq_out, float *h_out, float *scratch) {
  const int32_t nt = p->time_steps, nf = p->features, nu = p->units;
  int32_t up, rows, s, j;
  float *gx, *gh, *h, *rh;
  int32_t *wsum, *usum;
  int8_t *q;
  if (nt <= 0 || nf <= 0 || nu <= 0 || !w || !u || !w_scale || !u_scale || !scratch)
    return AOT_KERNEL_BAD_PARAM;
  if ((p->gate_act != AOT_GRU_SIGMOID && p->gate_act != AOT_GRU_HARD_SIGMOID) ||
      (p->cand_act != AOT_GRU_TANH && p->cand_act != AOT_GRU_LINEAR))
    return AOT_KERNEL_BAD_PARAM;
  up = aot_gru_padded_units(nu);
  rows = 3 * up;
  gx = scratch;
  gh = gx + rows;
  h = gh + rows;
  rh = h + up;
  wsum = (int32_t *)(rh + up);
  usum = wsum + rows;
  q = (int8_t *)(usum + rows);
  aot_gru_rowsums_s8(w, rows, nf, wsum);
  aot_gru_rowsums_s8(u, rows, nu, usum);
  for (j = 0; j < up; j++) h[j] = j < nu ? h0[j] : 0.0f, rh[j] = 0.0f;
  for (s = 0; s < nt; s++) {
    const int32_t t = p->go_backwards ? nt - 1 - s : s;
    float sc;
    int32_t zp;
    /* x.W + bias_x */
    aot_hybrid_quantize_qd8(x + (size_t)t * (size_t)nf, nf, q, &sc, &zp);
    aot_gru_rows_s8(w, wsum, w_scale, bias_x, 0, rows, nf, q, sc, zp, gx);
    /* h.U + bias_h (z, r; and n when reset_after) */
    aot_hybrid_quantize_qd8(h, nu, q, &sc, &zp);
    aot_gru_rows_s8(u, usum, u_scale, bias_h, 0, p->reset_after ? rows : 2 * up, nu, q, sc, zp, gh);
    aot_gru_gates(p->gate_act, gx, gh, 2 * up);
    if (p->reset_after) {
      aot_gru_update(p->cand_act, gh, gh + up, gx + 2 * up, gh + 2 * up, h, nu, up);
    } else {
      for (j = 0; j < nu; j++) rh[j] = gh[up + j] * h[j];
      aot_hybrid_quantize_qd8(rh, nu, q, &sc, &zp);
      aot_gru_rows_s8(u, usum, u_scale, bias_h, 2 * up, up, nu, q, sc, zp, gh);
      aot_gru_update(p->cand_act, gh, NULL, gx + 2 * up, gh + 2 * up, h, nu, up);
    }
    if (p->return_sequences)
      for (j = 0; j < nu; j++) seq_out[(size_t)s * (size_t)nu + j] = h[j];
  }
  if (!p->return_sequences && seq_out)
    for (j = 0; j < nu; j++) seq_out[j] = h[j];
  if (h_out)
    for (j = 0; j < nu; j++) h_out[j] = h[j];
  return AOT_KERNEL_OK;
}
