/* aot_lstm_q.c - integer UNIDIRECTIONAL_SEQUENCE_LSTM as TFLite Micro's
 * reference kernel: int8 (aot_lstm_s8) or int16 (aot_lstm_s16) activations,
 * int8 weights, int16 cell state.
 *
 * Per step: each gate = act(sat16(FC_in(x)) +sat sat16(FC_rec(h))) where the
 * FCs produce Q3.12 and act is the int16 LUT sigmoid/tanh (Q0.15 out);
 * cell = sat16(mul(f, cell) + mul(i, g)) (optionally clipped);
 * hidden = mul(tanh(cell), o) requantized to the hidden state's scale.
 * The int8 FC dot products use aot_rec_dot_s8 (Helium / Arm DSP paths) and
 * aot_rec_mbqm (aot_rec_simd.h). */
#include "../aot_recurrent.h"
#include "../aot_rec_simd.h"
#include "../aot_lstm_lut.h"


/* x >> s rounding toward minus infinity (arithmetic shift), without relying
 * on implementation-defined right shifts of negative values. */
static int32_t aot_lstm_asr(int32_t x, int s) {
  if (s <= 0) return x;
  if (x >= 0) return x >> s;
  return -(int32_t)((((uint32_t)-(x + 1)) >> s)) - 1;
}

/* int16 logistic of Q3.12 input (TFLite reference, multiplier 3, no shift). */
static void aot_lstm_sigmoid16(int16_t *v, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++) {
    int32_t in = (int32_t)v[i] * 3;
    uint32_t a = (uint32_t)(in >= 0 ? in : -in);
    uint32_t uh = a >> 9, r;
    if (uh >= 255u) {
      r = 0x7FFFu << 10;
    } else {
      uint32_t ua = aot_lstm_sigmoid_lut[uh], ub = aot_lstm_sigmoid_lut[uh + 1];
      r = (ua << 9) + (a & 0x1FFu) * (ub - ua);
    }
    r = in >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1u;
    v[i] = (int16_t)(r >> 10);
  }
}

/* int16 tanh of an input with scale 2^scale_power, into Q0.15 (TFLite
 * reference: multiplier 3 << shift or 3 with a rounding right shift). */
static void aot_lstm_tanh16(int32_t scale_power, const int16_t *in, int16_t *out, int32_t n) {
  int32_t left = (15 + scale_power) - 3, mult, shift = 0, round = 0, i;
  if (left < 0) {
    mult = 3;
    shift = -left;
    round = 1 << (shift - 1);
  } else {
    mult = 3 << left;
  }
  for (i = 0; i < n; i++) {
    int32_t x = aot_lstm_asr((int32_t)in[i] * mult + round, shift);
    uint32_t a = (uint32_t)(x >= 0 ? x : -x);
    uint32_t uh = a >> 8;
    int32_t r;
    if (uh >= 255u) {
      r = (int32_t)(0xFFFFu << 8);
    } else {
      uint32_t ua = aot_lstm_sigmoid_lut[uh], ub = aot_lstm_sigmoid_lut[uh + 1];
      r = (int32_t)((ua << 8) + (a & 0xFFu) * (ub - ua));
    }
    r = x >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
    out[i] = (int16_t)aot_lstm_asr(r, 8);
  }
}

static int16_t aot_lstm_sat16(int32_t v) { return (int16_t)aot_clamp_i32(v, -32768, 32767); }

/* out = sat16(a + b) */
static void aot_lstm_add16(int16_t *a, const int16_t *b, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++) a[i] = aot_lstm_sat16((int32_t)a[i] + (int32_t)b[i]);
}

/* out = sat16(mbqm(a * b)) */
static void aot_lstm_mul16(const int16_t *a, const int16_t *b, int32_t mult, int32_t shift,
                           int16_t *out, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++)
    out[i] = aot_lstm_sat16(aot_rec_mbqm((int32_t)a[i] * (int32_t)b[i], mult, shift));
}

/* FC int8 x int8 (+ int32 bias) -> int16 Q3.12, rows x cols weights. */
static void aot_lstm_fc_s8(const int8_t *x, int32_t x_zp, int32_t nrows, int32_t ncols,
                           const int8_t *w, const int32_t *bias, int32_t nout, int32_t mult,
                           int32_t shift, int16_t *out) {
  int32_t b, j;
  for (b = 0; b < nrows; b++) {
    const int8_t *xb = x + (size_t)b * ncols;
    for (j = 0; j < nout; j++) {
      const int8_t *wj = w + (size_t)j * ncols;
      int32_t acc = aot_rec_dot_s8(wj, xb, ncols, -x_zp);
      if (bias) acc += bias[j];
      out[(size_t)b * nout + j] = aot_lstm_sat16(aot_rec_mbqm(acc, mult, shift));
    }
  }
}

/* FC int16 x int8 (+ int64 bias) -> int16 Q3.12. */
static void aot_lstm_fc_s16(const int16_t *x, int32_t x_zp, int32_t nrows, int32_t ncols,
                            const int8_t *w, const int64_t *bias, int32_t nout, int32_t mult,
                            int32_t shift, int16_t *out) {
  int32_t b, j, k;
  for (b = 0; b < nrows; b++) {
    const int16_t *xb = x + (size_t)b * ncols;
    for (j = 0; j < nout; j++) {
      const int8_t *wj = w + (size_t)j * ncols;
      int64_t acc = 0;
      for (k = 0; k < ncols; k++) acc += (int64_t)wj[k] * ((int64_t)xb[k] - x_zp);
      if (bias) acc += bias[j];
      out[(size_t)b * nout + j] = aot_lstm_sat16(aot_mbqm64(acc, mult, shift));
    }
  }
}

/* The step, shared by both activation types through a macro (C99 has no
 * templates). ACT_T: activation type, FC: FC function, HMIN/HMAX: hidden
 * range. */
#define AOT_LSTM_Q_BODY(ACT_T, FC, HMIN, HMAX)                                              \
  const int32_t nb = p->batch, nt = p->time_steps, ni = p->input_size, ns = p->state_size; \
  const int32_t nbs = p->time_major ? nb : 1;                                             \
  const int32_t nouter = p->time_major ? 1 : nb;                                          \
  int16_t *b0 = scratch, *b1 = b0 + (size_t)nb * ns, *b2 = b1 + (size_t)nb * ns;          \
  int16_t *b3 = b2 + (size_t)nb * ns;                                                     \
  int32_t ob, s, i, g;                                                                    \
  if (nb <= 0 || nt <= 0 || ni <= 0 || ns <= 0) return AOT_KERNEL_BAD_PARAM;              \
  for (g = 0; g < 4; g++)                                                                 \
    if (!t->w_in[g] || !t->w_rec[g]) return AOT_KERNEL_BAD_PARAM;                         \
  for (ob = 0; ob < nouter; ob++) {                                                       \
    ACT_T *h = t->hidden + (size_t)ob * ns;                                               \
    int16_t *c = t->cell + (size_t)ob * ns;                                               \
    for (s = 0; s < nt; s++) {                                                            \
      size_t row = p->time_major ? (size_t)s * nb : (size_t)ob * nt + s;                  \
      const ACT_T *x = t->input + row * ni;                                               \
      ACT_T *out = t->output + row * ns;                                                  \
      const int32_t n = nbs * ns;                                                         \
      int16_t *gate_out[3];                                                               \
      static const int order[3] = {AOT_LSTM_F, AOT_LSTM_I, AOT_LSTM_C};                   \
      gate_out[0] = b0;                                                                   \
      gate_out[1] = b1;                                                                   \
      gate_out[2] = b2;                                                                   \
      /* forget, input and cell gates */                                                  \
      for (g = 0; g < 3; g++) {                                                           \
        const aot_lstm_gate_q *q = &p->gate[order[g]];                                    \
        FC(x, p->input_zp, nbs, ni, t->w_in[order[g]], t->bias[order[g]], ns, q->in_mult,  \
           q->in_shift, gate_out[g]);                                                     \
        FC(h, p->hidden_zp, nbs, ns, t->w_rec[order[g]], 0, ns, q->rec_mult, q->rec_shift, \
           b3);                                                                           \
        aot_lstm_add16(gate_out[g], b3, n);                                               \
        if (order[g] == AOT_LSTM_C && p->cell_act == AOT_ACT_TANH)                        \
          aot_lstm_tanh16(-12, gate_out[g], gate_out[g], n);                              \
        else                                                                              \
          aot_lstm_sigmoid16(gate_out[g], n);                                             \
      }                                                                                   \
      /* cell = f * cell + i * g */                                                       \
      aot_lstm_mul16(b0, c, p->fc_mult, p->fc_shift, c, n);                               \
      aot_lstm_mul16(b1, b2, p->ig_mult, p->ig_shift, b1, n);                             \
      aot_lstm_add16(c, b1, n);                                                           \
      if (p->cell_clip > 0)                                                               \
        for (i = 0; i < n; i++)                                                           \
          c[i] = (int16_t)aot_clamp_i32(c[i], -p->cell_clip, p->cell_clip);               \
      /* output gate */                                                                   \
      {                                                                                   \
        const aot_lstm_gate_q *q = &p->gate[AOT_LSTM_O];                                  \
        FC(x, p->input_zp, nbs, ni, t->w_in[AOT_LSTM_O], t->bias[AOT_LSTM_O], ns,          \
           q->in_mult, q->in_shift, b1);                                                  \
        FC(h, p->hidden_zp, nbs, ns, t->w_rec[AOT_LSTM_O], 0, ns, q->rec_mult,             \
           q->rec_shift, b3);                                                             \
        aot_lstm_add16(b1, b3, n);                                                        \
        aot_lstm_sigmoid16(b1, n);                                                        \
      }                                                                                   \
      /* hidden = tanh(cell) * o */                                                       \
      aot_lstm_tanh16(p->cell_scale_power, c, b0, n);                                     \
      for (i = 0; i < n; i++) {                                                           \
        int32_t v = aot_rec_mbqm((int32_t)b0[i] * (int32_t)b1[i], p->hid_mult, p->hid_shift) + \
                    p->hidden_zp;                                                         \
        h[i] = (ACT_T)aot_clamp_i32(v, HMIN, HMAX);                                       \
      }                                                                                   \
      for (i = 0; i < n; i++) out[i] = h[i];                                              \
    }                                                                                     \
  }                                                                                       \
  return AOT_KERNEL_OK

int32_t aot_lstm_s8(const aot_lstm_q_params *p, const aot_lstm_s8_tensors *t,
                    int16_t *scratch) {
  AOT_LSTM_Q_BODY(int8_t, aot_lstm_fc_s8, -128, 127);
}

int32_t aot_lstm_s16(const aot_lstm_q_params *p, const aot_lstm_s16_tensors *t,
                     int16_t *scratch) {
  AOT_LSTM_Q_BODY(int16_t, aot_lstm_fc_s16, -32768, 32767);
}
