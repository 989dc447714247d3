/* aot_lstm_f32.c - float UNIDIRECTIONAL_SEQUENCE_LSTM (TFLite float kernel
 * order of operations, with CIFG, peephole, layer normalization and
 * projection). Uses expf/tanhf. */
#include <math.h>

#include "../aot_recurrent.h"

static float aot_lstm_act(int32_t act, float v) {
  switch (act) {
    case AOT_ACT_RELU: return v < 0.0f ? 0.0f : v;
    case AOT_ACT_RELU_N1_TO_1: return v < -1.0f ? -1.0f : (v > 1.0f ? 1.0f : v);
    case AOT_ACT_RELU6: return v < 0.0f ? 0.0f : (v > 6.0f ? 6.0f : v);
    case AOT_ACT_TANH: return tanhf(v);
    case AOT_ACT_SIGMOID: return 1.0f / (1.0f + expf(-v));
    default: return v;
  }
}

/* gate[b][j] = act(W_in x + W_rec h + peephole .* c (+ layer norm) + bias) */
static void aot_lstm_gate(const aot_lstm_f32_params *p, const aot_lstm_f32_tensors *t, int g,
                          int32_t nbs, const float *x, const float *h, const float *c,
                          int32_t act, float *gate) {
  const int32_t ni = p->input_size, ns = p->state_size, no = p->output_size;
  const float *wi = t->w_in[g], *wr = t->w_rec[g], *wp = t->w_peep[g];
  const float *ln = t->ln[g], *bias = t->bias[g];
  int32_t b, j, k;
  for (b = 0; b < nbs; b++) {
    float *gb = gate + (size_t)b * ns;
    const float *xb = x + (size_t)b * ni, *hb = h + (size_t)b * no, *cb = c + (size_t)b * ns;
    for (j = 0; j < ns; j++) {
      float acc = (ln || !bias) ? 0.0f : bias[j];
      const float *wij = wi + (size_t)j * ni, *wrj = wr + (size_t)j * no;
      for (k = 0; k < ni; k++) acc += wij[k] * xb[k];
      for (k = 0; k < no; k++) acc += wrj[k] * hb[k];
      if (wp) acc += wp[j] * cb[j];
      gb[j] = acc;
    }
    if (ln) {
      float sum = 0.0f, sq = 0.0f, mean, inv;
      for (j = 0; j < ns; j++) sum += gb[j];
      mean = sum / (float)ns;
      for (j = 0; j < ns; j++) {
        float d = gb[j] - mean;
        sq += d * d;
      }
      inv = 1.0f / sqrtf(sq / (float)ns + 1e-8f);
      for (j = 0; j < ns; j++)
        gb[j] = (gb[j] - mean) * inv * ln[j] + (bias ? bias[j] : 0.0f);
    }
    for (j = 0; j < ns; j++) gb[j] = aot_lstm_act(act, gb[j]);
  }
}

int32_t aot_lstm_f32(const aot_lstm_f32_params *p, const aot_lstm_f32_tensors *t,
                     float *scratch) {
  const int32_t nb = p->batch, nt = p->time_steps, ni = p->input_size;
  const int32_t ns = p->state_size, no = p->output_size;
  const int32_t nbs = p->time_major ? nb : 1; /* batches per step */
  const int32_t nouter = p->time_major ? 1 : nb;
  const int cifg = t->w_in[AOT_LSTM_I] == 0;
  float *gi = scratch, *gf = gi + (size_t)nb * ns, *gc = gf + (size_t)nb * ns;
  float *go = gc + (size_t)nb * ns, *hp = go + (size_t)nb * ns;
  int32_t ob, s, i, j, k;
  if (nb <= 0 || nt <= 0 || ni <= 0 || ns <= 0 || no <= 0) return AOT_KERNEL_BAD_PARAM;
  if (!t->w_in[AOT_LSTM_F] || !t->w_in[AOT_LSTM_C] || !t->w_in[AOT_LSTM_O] ||
      !t->w_rec[AOT_LSTM_F] || !t->w_rec[AOT_LSTM_C] || !t->w_rec[AOT_LSTM_O] ||
      (!cifg && !t->w_rec[AOT_LSTM_I]) || (!t->w_proj && no != ns))
    return AOT_KERNEL_BAD_PARAM;
  for (ob = 0; ob < nouter; ob++) {
    float *h = t->hidden + (size_t)ob * no; /* rows of this step's batches */
    float *c = t->cell + (size_t)ob * ns;
    for (s = 0; s < nt; s++) {
      /* offsets: time major [t][b][*], batch major [b][t][*] */
      size_t row = p->time_major ? (size_t)s * nb : (size_t)ob * nt + s;
      const float *x = t->input + row * ni;
      float *out = t->output + row * no;
      int32_t n = nbs * ns;
      if (!cifg) aot_lstm_gate(p, t, AOT_LSTM_I, nbs, x, h, c, AOT_ACT_SIGMOID, gi);
      aot_lstm_gate(p, t, AOT_LSTM_F, nbs, x, h, c, AOT_ACT_SIGMOID, gf);
      aot_lstm_gate(p, t, AOT_LSTM_C, nbs, x, h, c, p->cell_act, gc);
      for (i = 0; i < n; i++) {
        float ig = cifg ? 1.0f - gf[i] : gi[i];
        c[i] = gf[i] * c[i] + ig * gc[i];
        if (p->cell_clip > 0.0f) c[i] = aot_clamp_f32(c[i], -p->cell_clip, p->cell_clip);
      }
      /* the output gate's peephole sees the updated cell state */
      aot_lstm_gate(p, t, AOT_LSTM_O, nbs, x, h, c, AOT_ACT_SIGMOID, go);
      for (i = 0; i < n; i++) hp[i] = go[i] * aot_lstm_act(p->cell_act, c[i]);
      if (t->w_proj) {
        for (i = 0; i < nbs; i++) {
          for (j = 0; j < no; j++) {
            float acc = t->b_proj ? t->b_proj[j] : 0.0f;
            const float *w = t->w_proj + (size_t)j * ns;
            for (k = 0; k < ns; k++) acc += w[k] * hp[(size_t)i * ns + k];
            if (p->proj_clip > 0.0f) acc = aot_clamp_f32(acc, -p->proj_clip, p->proj_clip);
            h[(size_t)i * no + j] = acc;
          }
        }
      } else {
        for (i = 0; i < n; i++) h[i] = hp[i];
      }
      for (i = 0; i < nbs * no; i++) out[i] = h[i];
    }
  }
  return AOT_KERNEL_OK;
}
