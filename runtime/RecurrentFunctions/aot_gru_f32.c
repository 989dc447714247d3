/* aot_gru_f32.c - Keras GRU over a sequence, float32 activations with
 * float32 (aot_gru_f32) or binary16 (aot_gru_f32_f16w) packed weights.
 *
 * Per block of proj_steps time steps the input projection x.W + bias_x of
 * every step is one matrix product (8 rows x 2 time steps per inner loop, so
 * each weight column is loaded once for two steps); each step then computes
 * only the recurrent product h.U + bias_h (8 rows per inner loop) and the
 * gates. Products: aot_gru.h (Helium, VFP assembly or portable C). */
#include "../aot_gru.h"

static int32_t aot_gru_check(const aot_gru_params *p) {
  if (p->time_steps <= 0 || p->features <= 0 || p->units <= 0) return AOT_KERNEL_BAD_PARAM;
  if ((p->gate_act != AOT_GRU_SIGMOID && p->gate_act != AOT_GRU_HARD_SIGMOID) ||
      (p->cand_act != AOT_GRU_TANH && p->cand_act != AOT_GRU_LINEAR))
    return AOT_KERNEL_BAD_PARAM;
  return AOT_KERNEL_OK;
}

/* the weights: float32 (wf, uf) or binary16 words (wh, uh) */
typedef struct aot_gru_w {
  const float *wf, *uf;
  const uint32_t *wh, *uh;
  const float *bx, *bh; /* float32 biases in packed row order, or NULL */
} aot_gru_w;

/* proj[i][R] = bx[R] + sum_k W(R, k) x_t[k] for the n steps from s0
 * (t = the time index of step s0 + i). */
static void aot_gru_proj(const aot_gru_params *p, const aot_gru_w *m, const float *x, int32_t s0,
                         int32_t n, float *proj) {
  const int32_t nt = p->time_steps, nf = p->features;
  const int32_t rows = 3 * aot_gru_padded_units(p->units);
  int32_t r, i;
  for (r = 0; r < rows; r += 8) {
    const float *init = m->bx ? m->bx + r : aot_gru_zeros8;
    const size_t off = (size_t)r * (size_t)nf;
    float *o = proj + r;
    for (i = 0; i < n; i += 2, o += 2 * (size_t)rows) {
      const int32_t s = s0 + i, t0 = p->go_backwards ? nt - 1 - s : s;
      const float *x0 = x + (size_t)t0 * (size_t)nf;
      if (i + 1 < n) {
        const float *x1 = p->go_backwards ? x0 - nf : x0 + nf;
        if (m->wf)
          aot_gru_b2_f32(m->wf + off, x0, x1, nf, init, o, o + rows);
        else
          aot_gru_b2_f16(m->wh + off / 2, x0, x1, nf, init, o, o + rows);
      } else if (m->wf) {
        aot_gru_b1_f32(m->wf + off, x0, nf, init, o);
      } else {
        aot_gru_b1_f16(m->wh + off / 2, x0, nf, init, o);
      }
    }
  }
}

/* out[R] = init[R] + sum_k U(R, k) v[k] for packed rows [r0, r0 + rows) */
static void aot_gru_rec(const aot_gru_w *m, int32_t nu, int32_t r0, int32_t rows, const float *v,
                        float *out) {
  const float *init = m->bh ? m->bh + r0 : NULL;
  const size_t off = (size_t)r0 * (size_t)nu;
  if (m->uf)
    aot_gru_mv_f32(m->uf + off, rows, nu, v, init, out + r0);
  else
    aot_gru_mv_f16(m->uh + off / 2, rows, nu, v, init, out + r0);
}

/* Scratch: proj [proj_steps][3Up], gh [3Up], h [Up], rh [Up]. */
static int32_t aot_gru_run(const aot_gru_params *p, const aot_gru_w *m, const float *x,
                           const float *h0, float *seq_out, float *h_out, float *scratch) {
  const int32_t nt = p->time_steps, nu = p->units, up = aot_gru_padded_units(nu);
  const int32_t rows = 3 * up, nb = aot_gru_proj_block(p);
  float *proj = scratch, *gh = proj + (size_t)nb * (size_t)rows, *h = gh + rows, *rh = h + up;
  int32_t s0, i, j;
  for (j = 0; j < up; j++) h[j] = j < nu ? h0[j] : 0.0f;
  for (s0 = 0; s0 < nt; s0 += nb) {
    const int32_t n = nt - s0 < nb ? nt - s0 : nb;
    aot_gru_proj(p, m, x, s0, n, proj);
    for (i = 0; i < n; i++) {
      const float *gx = proj + (size_t)i * (size_t)rows;
      /* z, r = gate(x.W + h.U + biases), gates [0, 2Up) of gh */
      aot_gru_rec(m, nu, 0, p->reset_after ? rows : 2 * up, h, gh);
      aot_gru_gates(p->gate_act, gx, gh, 2 * up);
      if (p->reset_after) {
        aot_gru_update(p->cand_act, gh, gh + up, gx + 2 * up, gh + 2 * up, h, nu, up);
      } else {
        for (j = 0; j < nu; j++) rh[j] = gh[up + j] * h[j];
        aot_gru_rec(m, nu, 2 * up, up, rh, gh);
        aot_gru_update(p->cand_act, gh, NULL, gx + 2 * up, gh + 2 * up, h, nu, up);
      }
      if (p->return_sequences)
        for (j = 0; j < nu; j++) seq_out[(size_t)(s0 + i) * (size_t)nu + j] = h[j];
    }
  }
  if (!p->return_sequences && seq_out)
    for (j = 0; j < nu; j++) seq_out[j] = h[j];
  if (h_out)
    for (j = 0; j < nu; j++) h_out[j] = h[j];
  return AOT_KERNEL_OK;
}

int32_t aot_gru_f32(const aot_gru_params *p, const float *x, const float *h0,
                    const float *w, const float *u, const float *bias_x,
                    const float *bias_h, float *seq_out, float *h_out,
                    float *scratch) {
  aot_gru_w m;
  int32_t st = aot_gru_check(p);
  if (st != AOT_KERNEL_OK) return st;
  m.wf = w, m.uf = u, m.wh = NULL, m.uh = NULL, m.bx = bias_x, m.bh = bias_h;
  return aot_gru_run(p, &m, x, h0, seq_out, h_out, scratch);
}

/* Scratch: as aot_gru_f32, then the decoded biases bx [3Up], bh [3Up]. */
int32_t aot_gru_f32_f16w(const aot_gru_params *p, const float *x, const float *h0,
                         const uint32_t *w, const uint32_t *u, const uint16_t *bias_x,
                         const uint16_t *bias_h, float *seq_out, float *h_out,
                         float *scratch) {
  aot_gru_w m;
  int32_t rows;
  float *bx, *bh;
  int32_t st = aot_gru_check(p);
  if (st != AOT_KERNEL_OK) return st;
  rows = 3 * aot_gru_padded_units(p->units);
  bx = scratch + aot_gru_buffer_size(p, AOT_GRU_KIND_F32) / sizeof(float);
  bh = bx + rows;
  aot_gru_unpack16(bias_x, rows, bx);
  aot_gru_unpack16(bias_h, rows, bh);
  m.wf = NULL, m.uf = NULL, m.wh = w, m.uh = u;
  m.bx = bias_x ? bx : NULL, m.bh = bias_h ? bh : NULL;
  return aot_gru_run(p, &m, x, h0, seq_out, h_out, scratch);
}
