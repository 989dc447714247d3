/* aot_gru_f16.c - Keras GRU with binary16 activations and packed binary16
 * weights and biases.
 *
 * With Helium floating point (Cortex-M55) the products multiply and
 * accumulate in binary16 vectors (8 rows per vector; the input projection of
 * 4 time steps per weight column); elsewhere they run in float32 through the
 * binary16-weight products of aot_gru.h (inputs decoded two rows at a time).
 * The nonlinearities run in float32; the state is rounded to binary16 every
 * step. */
#include "../aot_gru.h"

#if defined(AOT_GRU_MVE)
#define AOT_GRU_NATIVE_F16 1

AOT_INLINE float16_t aot_gru_ldh(const uint16_t *p) {
  float16_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

AOT_INLINE float16x8_t aot_gru_init16(const uint16_t *bias, int32_t r) {
  return bias ? vreinterpretq_f16_u16(vld1q_u16(bias + r)) : vreinterpretq_f16_u16(vdupq_n_u16(0));
}

/* 8 binary16 accumulators (stored lane order) -> 8 floats in row order */
AOT_INLINE void aot_gru_st8(float *o, float16x8_t a) {
  uint32_t t[4];
  vst1q_u32(t, vreinterpretq_u32_f16(a));
  aot_gru_unpack8(t, o);
}

/* proj[i][R] = bias_x[R] + sum_k W(R, k) x_t[k] in binary16 */
static void aot_gru_proj16(const aot_gru_params *p, const uint16_t *x, int32_t s0, int32_t n,
                           const uint32_t *w, const uint16_t *bias, float *proj) {
  const int32_t nt = p->time_steps, nf = p->features;
  const int32_t rows = 3 * aot_gru_padded_units(p->units);
  const int32_t step = p->go_backwards ? -nf : nf;
  int32_t r, i, k;
  for (r = 0; r < rows; r += 8, w += 4 * (size_t)nf) {
    const float16x8_t init = aot_gru_init16(bias, r);
    for (i = 0; i < n;) {
      const int32_t s = s0 + i, t0 = p->go_backwards ? nt - 1 - s : s;
      const uint16_t *x0 = x + (size_t)t0 * (size_t)nf;
      float *o = proj + (size_t)i * (size_t)rows + r;
      if (i + 4 <= n) {
        const uint16_t *x1 = x0 + step, *x2 = x1 + step, *x3 = x2 + step;
        float16x8_t a0 = init, a1 = init, a2 = init, a3 = init;
        const uint32_t *c = w;
        for (k = 0; k < nf; k++, c += 4) {
          const float16x8_t wc = aot_gru_ld16(c);
          a0 = vfmaq_n_f16(a0, wc, aot_gru_ldh(x0 + k));
          a1 = vfmaq_n_f16(a1, wc, aot_gru_ldh(x1 + k));
          a2 = vfmaq_n_f16(a2, wc, aot_gru_ldh(x2 + k));
          a3 = vfmaq_n_f16(a3, wc, aot_gru_ldh(x3 + k));
        }
        aot_gru_st8(o, a0);
        aot_gru_st8(o + rows, a1);
        aot_gru_st8(o + 2 * (size_t)rows, a2);
        aot_gru_st8(o + 3 * (size_t)rows, a3);
        i += 4;
      } else {
        float16x8_t a0 = init;
        const uint32_t *c = w;
        for (k = 0; k < nf; k++, c += 4) a0 = vfmaq_n_f16(a0, aot_gru_ld16(c), aot_gru_ldh(x0 + k));
        aot_gru_st8(o, a0);
        i++;
      }
    }
  }
}

/* out[R] = bias_h[R] + sum_k U(R, k) v[k] for packed rows [r0, r0 + rows) in
 * binary16 (v: nu binary16 values) */
static void aot_gru_rec16(const uint32_t *u, const uint16_t *bias, int32_t nu, int32_t r0,
                          int32_t rows, const uint16_t *v, float *out) {
  int32_t r, k;
  const uint32_t *m = u + (size_t)r0 * (size_t)nu / 2;
  for (r = r0; r + 16 <= r0 + rows; r += 16) {
    const uint32_t *c0 = m, *c1 = m + 4 * (size_t)nu;
    float16x8_t a0 = aot_gru_init16(bias, r), a1 = aot_gru_init16(bias, r + 8);
    for (k = 0; k < nu; k++, c0 += 4, c1 += 4) {
      const float16_t hk = aot_gru_ldh(v + k);
      a0 = vfmaq_n_f16(a0, aot_gru_ld16(c0), hk);
      a1 = vfmaq_n_f16(a1, aot_gru_ld16(c1), hk);
    }
    aot_gru_st8(out + r, a0);
    aot_gru_st8(out + r + 8, a1);
    m += 8 * (size_t)nu;
  }
  if (r < r0 + rows) {
    const uint32_t *c0 = m;
    float16x8_t a0 = aot_gru_init16(bias, r);
    for (k = 0; k < nu; k++, c0 += 4) a0 = vfmaq_n_f16(a0, aot_gru_ld16(c0), aot_gru_ldh(v + k));
    aot_gru_st8(out + r, a0);
  }
}
#else
#define AOT_GRU_NATIVE_F16 0

/* proj[i][R] = bx[R] + sum_k W(R, k) x_t[k] in float32, the inputs decoded
 * two rows at a time into xb [2 * nf] */
static void aot_gru_proj16(const aot_gru_params *p, const uint16_t *x, int32_t s0, int32_t n,
                           const uint32_t *w, const float *bx, float *proj, float *xb) {
  const int32_t nt = p->time_steps, nf = p->features;
  const int32_t rows = 3 * aot_gru_padded_units(p->units);
  int32_t r, i, k, q;
  for (i = 0; i < n; i += 2) {
    const int32_t cnt = i + 1 < n ? 2 : 1;
    float *o = proj + (size_t)i * (size_t)rows;
    const uint32_t *c = w;
    for (q = 0; q < cnt; q++) {
      const int32_t s = s0 + i + q, t = p->go_backwards ? nt - 1 - s : s;
      const uint16_t *xt = x + (size_t)t * (size_t)nf;
      for (k = 0; k < nf; k++) xb[(size_t)q * (size_t)nf + k] = aot_gru_h2f(xt[k]);
    }
    for (r = 0; r < rows; r += 8, c += 4 * (size_t)nf) {
      const float *init = bx ? bx + r : aot_gru_zeros8;
      if (cnt == 2)
        aot_gru_b2_f16(c, xb, xb + nf, nf, init, o + r, o + rows + r);
      else
        aot_gru_b1_f16(c, xb, nf, init, o + r);
    }
  }
}
#endif

int32_t aot_gru_f16(const aot_gru_params *p, const uint16_t *x, const uint16_t *h0,
                    const uint32_t *w, const uint32_t *u, const uint16_t *bias_x,
                    const uint16_t *bias_h, uint16_t *seq_out, uint16_t *h_out,
                    float *scratch) {
  const int32_t nt = p->time_steps, nf = p->features, nu = p->units;
  const int32_t up = aot_gru_padded_units(nu), rows = 3 * up, nb = aot_gru_proj_block(p);
  /* scratch: proj [nb][rows], gh [rows], h [up] (binary16 values held as
   * float), rh [up], bx [rows], bh [rows], xb [2 nf], h16 [up], rh16 [up] */
  float *proj = scratch, *gh = proj + (size_t)nb * (size_t)rows, *h = gh + rows, *rh = h + up;
  float *bx = rh + up, *bh = bx + rows, *xb = bh + rows;
  uint16_t *h16 = (uint16_t *)(void *)(xb + 2 * (size_t)nf), *rh16 = h16 + up;
  int32_t s0, i, j;
  if (nt <= 0 || nf <= 0 || nu <= 0) return AOT_KERNEL_BAD_PARAM;
  if ((p->gate_act != AOT_GRU_SIGMOID && p->gate_act != AOT_GRU_HARD_SIGMOID) ||
      (p->cand_act != AOT_GRU_TANH && p->cand_act != AOT_GRU_LINEAR))
    return AOT_KERNEL_BAD_PARAM;
  for (j = 0; j < up; j++) {
    h16[j] = j < nu ? h0[j] : 0;
    h[j] = j < nu ? aot_gru_h2f(h0[j]) : 0.0f;
  }
#if AOT_GRU_NATIVE_F16
  (void)bx, (void)bh, (void)xb;
#else
  (void)h16, (void)rh16;
  aot_gru_unpack16(bias_x, rows, bx);
  aot_gru_unpack16(bias_h, rows, bh);
#endif
  for (s0 = 0; s0 < nt; s0 += nb) {
    const int32_t n = nt - s0 < nb ? nt - s0 : nb;
#if AOT_GRU_NATIVE_F16
    aot_gru_proj16(p, x, s0, n, w, bias_x, proj);
#else
    aot_gru_proj16(p, x, s0, n, w, bias_x ? bx : NULL, proj, xb);
#endif
    for (i = 0; i < n; i++) {
      const float *gx = proj + (size_t)i * (size_t)rows;
      const int32_t nrec = p->reset_after ? rows : 2 * up;
#if AOT_GRU_NATIVE_F16
      aot_gru_rec16(u, bias_h, nu, 0, nrec, h16, gh);
#else
      aot_gru_mv_f16(u, nrec, nu, h, bias_h ? bh : NULL, gh);
#endif
      aot_gru_gates(p->gate_act, gx, gh, 2 * up);
      if (p->reset_after) {
        aot_gru_update(p->cand_act, gh, gh + up, gx + 2 * up, gh + 2 * up, h, nu, up);
      } else {
        for (j = 0; j < nu; j++) rh[j] = aot_gru_r16(gh[up + j] * h[j]);
#if AOT_GRU_NATIVE_F16
        for (j = 0; j < nu; j++) rh16[j] = aot_gru_f2h(rh[j]);
        aot_gru_rec16(u, bias_h, nu, 2 * up, up, rh16, gh);
#else
        aot_gru_mv_f16(u + (size_t)up * (size_t)nu, up, nu, rh, /* packed rows 2up.. */
                       bias_h ? bh + 2 * up : NULL, gh + 2 * up);
#endif
        aot_gru_update(p->cand_act, gh, NULL, gx + 2 * up, gh + 2 * up, h, nu, up);
      }
      for (j = 0; j < nu; j++) h[j] = aot_gru_r16(h[j]);
      for (j = 0; j < nu; j++) h16[j] = aot_gru_f2h(h[j]);
      if (p->return_sequences)
        for (j = 0; j < nu; j++) seq_out[(size_t)(s0 + i) * (size_t)nu + j] = h16[j];
    }
  }
  if (!p->return_sequences && seq_out)
    for (j = 0; j < nu; j++) seq_out[j] = h16[j];
  if (h_out)
    for (j = 0; j < nu; j++) h_out[j] = h16[j];
  return AOT_KERNEL_OK;
}
