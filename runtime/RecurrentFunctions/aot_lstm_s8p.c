/* aot_lstm_s8p.c - the int8 UNIDIRECTIONAL_SEQUENCE_LSTM on packed weights
 * (aot_lstm_s8p_tensors, aot_recurrent.h): the arithmetic of aot_lstm_s8
 * (TFLM's 8x8_16 reference kernel), bit for bit, arranged for speed.
 *
 * Per step and batch row: the input row and the hidden state are copied into
 * zero-padded scratch rows; one pass of aot_rec_dot4p_s8 (aot_rec_simd.h:
 * Helium VMLADAVA, Arm DSP SMLAD or portable C) over the 4 * state_size gate
 * rows gives the input and recurrent products, to which the compile-time
 * biases (zero points folded in) are added; then one loop per unit does the
 * gate requantization to Q3.12, the int16 sigmoid/tanh (TFLite's table),
 * the cell update and the hidden state, without intermediate buffers.
 * aot_lstm_s16p is the same for int16 activations (TFLM's 16x8 kernel: int64
 * products and biases, aot_rec_dot4p_s16, requantized per row with
 * aot_mbqm64). AOT_LSTM_S8P_MVE / AOT_LSTM_S8P_DSP name the variant built. */
#include <string.h>

#include "../aot_recurrent.h"
#include "../aot_rec_simd.h"

#if defined(AOT_REC_MVE)
#define AOT_LSTM_S8P_MVE 1
#include <arm_acle.h>

#include "../aot_lstm_mve.h"
#elif defined(AOT_REC_DSP)
#define AOT_LSTM_S8P_DSP 1
#endif

#include "../aot_lstm_lut.h"

/* x >> s (s >= 0) rounding toward minus infinity. */
AOT_INLINE int32_t aot_lstm_s8p_asr(int32_t x, int32_t s) {
  if (x >= 0) return x >> s;
  return -(int32_t)((((uint32_t)-(x + 1)) >> s)) - 1;
}

/* int16 logistic of a Q3.12 value v (an int16, |v| <= 32768) into Q0.15
 * (aot_lstm_q.c's sigmoid16; its saturation at index 255 is unreachable:
 * |3 v| >> 9 <= 192). */
AOT_INLINE int32_t aot_lstm_s8p_sigmoid(int32_t v) {
  const int32_t in = v * 3;
  const uint32_t a = (uint32_t)(in >= 0 ? in : -in), uh = a >> 9;
  const uint32_t ua = aot_lstm_sigmoid_lut[uh], ub = aot_lstm_sigmoid_lut[uh + 1];
  uint32_t r = (ua << 9) + (a & 0x1FFu) * (ub - ua);
  r = in >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1u;
  return (int32_t)(int16_t)(r >> 10);
}

/* int16 tanh into Q0.15 of v * mult (+ round) >> shift (aot_lstm_q.c's tanh16). */
AOT_INLINE int32_t aot_lstm_s8p_tanh(int32_t v, int32_t mult, int32_t shift, int32_t round) {
  const int32_t x = aot_lstm_s8p_asr(v * mult + round, shift);
  const uint32_t a = (uint32_t)(x >= 0 ? x : -x), uh = a >> 8;
  int32_t r;
  if (uh >= 255u) {
    r = (int32_t)(0xFFFFu << 8);
  } else {
    const uint32_t ua = aot_lstm_sigmoid_lut[uh], ub = aot_lstm_sigmoid_lut[uh + 1];
    r = (int32_t)((ua << 8) + (a & 0xFFu) * (ub - ua));
  }
  r = x >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
  return (int32_t)(int16_t)aot_lstm_s8p_asr(r, 8);
}

AOT_INLINE int32_t aot_lstm_s8p_sat16(int32_t v) {
#if defined(AOT_REC_DSP) || defined(AOT_REC_MVE)
  return __ssat(v, 16);
#else
  return v < -32768 ? -32768 : v > 32767 ? 32767 : v;
#endif
}

/* tanh parameters of an input with scale 2^scale_power (TFLite reference). */
static void aot_lstm_s8p_tanh_params(int32_t scale_power, int32_t *mult, int32_t *shift,
                                     int32_t *round) {
  const int32_t left = (15 + scale_power) - 3;
  *shift = 0;
  *round = 0;
  if (left < 0) {
    *mult = 3;
    *shift = -left;
    *round = 1 << (*shift - 1);
  } else {
    *mult = 3 << left;
  }
}

/* acc_in[r] = b_in[r] + sum_k w_in(r, k) x[k] and acc_rec[r] = b_rec[r] +
 * sum_k w_rec(r, k) h[k] over the 4 * ns gate rows (matrices packed as
 * aot_lstm_s8p_index), modular int32, four rows of both per block. */
static void aot_lstm_s8p_fc(const aot_lstm_s8p_tensors *t, int32_t ni, int32_t ns,
                            const int8_t *x, const int8_t *h, int32_t *acc_in,
                            int32_t *acc_rec) {
  const size_t bi = 4u * (size_t)aot_lstm_pad4(ni), br = 4u * (size_t)aot_lstm_pad4(ns);
  const int8_t *wi = t->w_in, *wr = t->w_rec;
  int32_t r;
  for (r = 0; r < 4 * ns; r += 4, wi += bi, wr += br) {
    aot_rec_dot4p_s8(wi, x, ni, t->b_in + r, acc_in + r);
    aot_rec_dot4p_s8(wr, h, ns, t->b_rec + r, acc_rec + r);
  }
}

#if defined(AOT_LSTM_S8P_DSP)
/* Arm DSP form of aot_lstm_s8p_fc for word-aligned packed weights and rows
 * of at most AOT_LSTM_S8P_XW columns: the input row and the hidden state
 * are widened once per step into 16-bit pairs (per four columns (x0, x2),
 * (x1, x3)), then per block of four rows every 16-column chunk takes four
 * LDRD of input pairs and, per row, two LDRD of its sixteen weights, eight
 * SXTB16 and eight SMLAD (aot_rec_dot4w_s8, aot_rec_simd.h). Exact int32
 * products: the same sums as aot_rec_dot4p_s8. */
#define AOT_LSTM_S8P_XW 256
/* 1 when it ran (the weights allow it), else 0 */
static int aot_lstm_s8p_fc_dsp(const aot_lstm_s8p_tensors *t, int32_t ni, int32_t ns,
                               const int8_t *x, const int8_t *h, int32_t *acc_in,
                               int32_t *acc_rec) {
  const int32_t ni4 = aot_lstm_pad4(ni), ns4 = aot_lstm_pad4(ns);
  const size_t bi = 4u * (size_t)ni4, br = 4u * (size_t)ns4;
  const int8_t *wi = t->w_in, *wr = t->w_rec;
  uint32_t xw[AOT_LSTM_S8P_XW / 2], hw[AOT_LSTM_S8P_XW / 2];
  int32_t r, pass;
  if (ni4 > AOT_LSTM_S8P_XW || ns4 > AOT_LSTM_S8P_XW || (((uintptr_t)wi | (uintptr_t)wr) & 3))
    return 0;
  aot_rec_widen_s8(x, ni4 >> 2, xw);
  aot_rec_widen_s8(h, ns4 >> 2, hw);
  /* the input products, then the recurrent ones (one copy of the loop) */
  for (pass = 0; pass < 2; pass++) {
    const int8_t *w = pass ? wr : wi;
    const uint32_t *v = pass ? hw : xw;
    const int32_t n = pass ? ns : ni, *b = pass ? t->b_rec : t->b_in;
    int32_t *a = pass ? acc_rec : acc_in;
    const size_t step = pass ? br : bi;
    for (r = 0; r < 4 * ns; r += 4, w += step) aot_rec_dot4w_s8(w, v, n, b + r, a + r);
  }
  return 1;
}
#endif

/* One gate of n units: acc_in[j] = act(sat16(sat16(mbqm(acc_in[j])) +
 * sat16(mbqm(acc_rec[j])))) in Q0.15, act the sigmoid or (tanh_gate) the
 * tanh of a Q3.12 value. */
static void aot_lstm_s8p_gate(int32_t *acc_in, const int32_t *acc_rec, int32_t n,
                              const aot_rec_q *qi, const aot_rec_q *qr,
                              int tanh_gate, int fast) {
  const aot_rec_q a = *qi, b = *qr;
  int32_t j = 0;
#if defined(AOT_LSTM_S8P_DSP)
  /* both products below 2^30 in magnitude, right shifts only: SMMULR */
  if (fast) {
    const int32_t am = a.m, ar = a.rsh - 1, bm = b.m, br = b.rsh - 1;
#define AOT_LSTM_S8P_GATE_FAST(ACT)                                                   \
  for (; j < n; j++) {                                                                \
    const int32_t v = __ssat(__ssat(aot_rec_qmulf(acc_in[j], am, ar), 16) +           \
                                 __ssat(aot_rec_qmulf(acc_rec[j], bm, br), 16),       \
                             16);                                                     \
    acc_in[j] = ACT;                                                                  \
  }
    if (tanh_gate) {
      AOT_LSTM_S8P_GATE_FAST(aot_lstm_s8p_tanh(v, 3, 0, 0))
    } else {
      AOT_LSTM_S8P_GATE_FAST(aot_lstm_s8p_sigmoid(v))
    }
#undef AOT_LSTM_S8P_GATE_FAST
    return;
  }
#else
  (void)fast;
#endif
#if defined(AOT_REC_MVE)
  for (; j < n; j += 4) {
    const mve_pred16_t pr = vctp32q((uint32_t)(n - j));
    const int32x4_t vi = aot_lstm_mve_sat16(
        aot_lstm_mve_mbqm(vldrwq_z_s32(acc_in + j, pr), a.m, a.lsh, a.rsh));
    const int32x4_t vr = aot_lstm_mve_sat16(
        aot_lstm_mve_mbqm(vldrwq_z_s32(acc_rec + j, pr), b.m, b.lsh, b.rsh));
    const int32x4_t v = aot_lstm_mve_sat16(vaddq_s32(vi, vr));
    vstrwq_p_s32(acc_in + j, tanh_gate ? aot_lstm_mve_tanh(v, 3, 0, 0, aot_lstm_sigmoid_lut)
                                       : aot_lstm_mve_sigmoid(v, aot_lstm_sigmoid_lut), pr);
  }
#endif
#define AOT_LSTM_S8P_GATE_LOOP(ACT)                                                         \
  for (; j < n; j++) {                                                                      \
    const int32_t v = aot_lstm_s8p_sat16(aot_lstm_s8p_sat16(aot_rec_qmul(acc_in[j], &a)) + \
                                         aot_lstm_s8p_sat16(aot_rec_qmul(acc_rec[j], &b))); \
    acc_in[j] = ACT;                                                                        \
  }
  if (tanh_gate) {
    AOT_LSTM_S8P_GATE_LOOP(aot_lstm_s8p_tanh(v, 3, 0, 0))
  } else {
    AOT_LSTM_S8P_GATE_LOOP(aot_lstm_s8p_sigmoid(v))
  }
#undef AOT_LSTM_S8P_GATE_LOOP
}

/* Cell and hidden state of n units from the gate values g[gate * n + j]:
 * c = clip(sat16(sat16(mbqm(f c)) + sat16(mbqm(i g)))),
 * h = out = clamp(mbqm(tanh(c) o) + hidden_zp) to the hidden type (int8:
 * aot_lstm_s8p_cell, int16: aot_lstm_s16p_cell). HVSTORE: the Helium
 * narrowing store of the hidden type. */
#if defined(AOT_REC_DSP) || defined(AOT_REC_MVE)
#define AOT_LSTM_S8P_HSAT(v, BITS, LO, HI) __ssat((v), BITS)
#else
#define AOT_LSTM_S8P_HSAT(v, BITS, LO, HI) aot_clamp_i32((v), LO, HI)
#endif
#if defined(AOT_REC_MVE)
#define AOT_LSTM_S8P_CELL_MVE(HLO, HHI, HVSTORE)                                             \
  for (; j < n; j += 4) {                                                                    \
    const mve_pred16_t pr = vctp32q((uint32_t)(n - j));                                      \
    const int32x4_t cf = vmulq_s32(vldrwq_z_s32(gf + j, pr), vldrhq_z_s32(c + j, pr));       \
    const int32x4_t ic = vmulq_s32(vldrwq_z_s32(gi + j, pr), vldrwq_z_s32(gc + j, pr));      \
    int32x4_t cv = aot_lstm_mve_sat16(aot_lstm_mve_mbqm(cf, fc.m, fc.lsh, fc.rsh)), hv;      \
    cv = aot_lstm_mve_sat16(                                                                 \
        vaddq_s32(cv, aot_lstm_mve_sat16(aot_lstm_mve_mbqm(ic, ig.m, ig.lsh, ig.rsh))));     \
    if (clip > 0) cv = vmaxq_s32(vminq_s32(cv, vdupq_n_s32(clip)), vdupq_n_s32(-clip));      \
    vstrhq_p_s32(c + j, cv, pr);                                                             \
    hv = vmulq_s32(aot_lstm_mve_tanh(cv, cmult, cshift, cround, aot_lstm_sigmoid_lut),           \
                   vldrwq_z_s32(go + j, pr));                                                \
    hv = vaddq_n_s32(aot_lstm_mve_mbqm(hv, hid.m, hid.lsh, hid.rsh), hzp);                   \
    hv = vmaxq_s32(vminq_s32(hv, vdupq_n_s32(HHI)), vdupq_n_s32(HLO));                       \
    HVSTORE(h + j, hv, pr);                                                                  \
    HVSTORE(out + j, hv, pr);                                                                \
  }
#else
#define AOT_LSTM_S8P_CELL_MVE(HLO, HHI, HVSTORE)
#endif
#if defined(AOT_LSTM_S8P_DSP)
/* Arm DSP: the three products (Q0.15 x int16) are below 2^30 in magnitude,
 * so right-shift requantizations take SMMULR (aot_rec_qmulf) */
#define AOT_LSTM_S8P_CELL_DSP(HBITS, ACT_T)                                                  \
  if (fc.lsh == 0 && fc.rsh >= 1 && ig.lsh == 0 && ig.rsh >= 1 && hid.lsh == 0 &&           \
      hid.rsh >= 1) {                                                                        \
    const int32_t fm = fc.m, fr = fc.rsh - 1, im = ig.m, ir = ig.rsh - 1;                   \
    const int32_t hm = hid.m, hr = hid.rsh - 1;                                              \
    for (; j < n; j++) {                                                                     \
      int32_t cv = __ssat(aot_rec_qmulf(gf[j] * c[j], fm, fr), 16), hv;                      \
      cv = __ssat(cv + __ssat(aot_rec_qmulf(gi[j] * gc[j], im, ir), 16), 16);               \
      if (clip > 0) cv = aot_clamp_i32(cv, -clip, clip);                                     \
      c[j] = (int16_t)cv;                                                                    \
      hv = aot_rec_qmulf(aot_lstm_s8p_tanh(cv, cmult, cshift, cround) * go[j], hm, hr) + hzp; \
      hv = __ssat(hv, HBITS);                                                                \
      h[j] = (ACT_T)hv;                                                                      \
      out[j] = (ACT_T)hv;                                                                    \
    }                                                                                        \
  }
#else
#define AOT_LSTM_S8P_CELL_DSP(HBITS, ACT_T)
#endif
#define AOT_LSTM_S8P_CELL(NAME, ACT_T, HBITS, HLO, HHI, HVSTORE)                               \
  static void NAME(const int32_t *g, int32_t n, int16_t *c, ACT_T *h, ACT_T *out,            \
                   const aot_rec_q *qfc, const aot_rec_q *qig, const aot_rec_q *qhid,         \
                   int32_t cmult, int32_t cshift, int32_t cround, int32_t clip, int32_t hzp) { \
    const int32_t *gi = g + AOT_LSTM_I * n, *gf = g + AOT_LSTM_F * n;                        \
    const int32_t *gc = g + AOT_LSTM_C * n, *go = g + AOT_LSTM_O * n;                        \
    const aot_rec_q fc = *qfc, ig = *qig, hid = *qhid;                                       \
    int32_t j = 0;                                                                           \
    AOT_LSTM_S8P_CELL_MVE(HLO, HHI, HVSTORE)                                                 \
    AOT_LSTM_S8P_CELL_DSP(HBITS, ACT_T)                                                      \
    for (; j < n; j++) {                                                                     \
      int32_t cv = aot_lstm_s8p_sat16(aot_rec_qmul(gf[j] * c[j], &fc)), hv;                  \
      cv = aot_lstm_s8p_sat16(cv + aot_lstm_s8p_sat16(aot_rec_qmul(gi[j] * gc[j], &ig)));    \
      if (clip > 0) cv = aot_clamp_i32(cv, -clip, clip);                                     \
      c[j] = (int16_t)cv;                                                                    \
      hv = aot_rec_qmul(aot_lstm_s8p_tanh(cv, cmult, cshift, cround) * go[j], &hid) + hzp;   \
      hv = AOT_LSTM_S8P_HSAT(hv, HBITS, HLO, HHI);                                           \
      h[j] = (ACT_T)hv;                                                                      \
      out[j] = (ACT_T)hv;                                                                    \
    }                                                                                        \
  }
AOT_LSTM_S8P_CELL(aot_lstm_s8p_cell, int8_t, 8, -128, 127, vstrbq_p_s32)
AOT_LSTM_S8P_CELL(aot_lstm_s16p_cell, int16_t, 16, -32768, 32767, vstrhq_p_s32)

int32_t aot_lstm_s8p(const aot_lstm_q_params *p, const aot_lstm_s8p_tensors *t,
                     void *scratch) {
  const int32_t nb = p->batch, nt = p->time_steps, ni = p->input_size, ns = p->state_size;
  const int32_t ni4 = aot_lstm_pad4(ni), ns4 = aot_lstm_pad4(ns);
  const int32_t nbs = p->time_major ? nb : 1, nouter = p->time_major ? 1 : nb;
  int32_t *acc_in = (int32_t *)scratch, *acc_rec = acc_in + 4 * (size_t)ns;
  int8_t *xp = (int8_t *)(acc_rec + 4 * (size_t)ns), *hp = xp + ni4;
  int32_t cmult, cshift, cround, ob, s, b, j;
  const int gate_tanh = p->cell_act == AOT_ACT_TANH;
  aot_rec_q qin[4], qrec[4], qfc, qig, qhid;
  int gfast[4];
  if (nb <= 0 || nt <= 0 || ni <= 0 || ns <= 0) return AOT_KERNEL_BAD_PARAM;
  for (j = 0; j < 4; j++)
    if (!aot_rec_q_init(&qin[j], p->gate[j].in_mult, p->gate[j].in_shift) ||
        !aot_rec_q_init(&qrec[j], p->gate[j].rec_mult, p->gate[j].rec_shift))
      return AOT_KERNEL_BAD_PARAM;
  if (!aot_rec_q_init(&qfc, p->fc_mult, p->fc_shift) ||
      !aot_rec_q_init(&qig, p->ig_mult, p->ig_shift) ||
      !aot_rec_q_init(&qhid, p->hid_mult, p->hid_shift))
    return AOT_KERNEL_BAD_PARAM;
  if (!t->w_in || !t->w_rec || !t->b_in || !t->b_rec) return AOT_KERNEL_BAD_PARAM;
  aot_lstm_s8p_tanh_params(p->cell_scale_power, &cmult, &cshift, &cround);
  /* a gate's requantizations may take SMMULR (aot_rec_qmulf) when both its
   * shifts are right shifts and its products stay below 2^30 in magnitude:
   * |bias| + 128 * 128 * columns < 2^30 on every row (the same for all steps) */
  for (j = 0; j < 4; j++) {
    int32_t r;
#if defined(AOT_LSTM_S8P_DSP)
    gfast[j] = qin[j].lsh == 0 && qin[j].rsh >= 1 && qrec[j].lsh == 0 && qrec[j].rsh >= 1 &&
               ni <= 32768 && ns <= 32768;
#else
    gfast[j] = 0; /* only the Arm DSP build has the SMMULR loops */
#endif
    for (r = j * ns; gfast[j] && r < (j + 1) * ns; r++) {
      const int64_t bi = t->b_in[r], brr = t->b_rec[r];
      if ((bi < 0 ? -bi : bi) + 16384 * (int64_t)ni >= ((int64_t)1 << 30) ||
          (brr < 0 ? -brr : brr) + 16384 * (int64_t)ns >= ((int64_t)1 << 30))
        gfast[j] = 0;
    }
  }
  memset(xp, 0, (size_t)(ni4 + ns4));
  for (ob = 0; ob < nouter; ob++) {
    for (s = 0; s < nt; s++) {
      for (b = 0; b < nbs; b++) {
        const int32_t bi = p->time_major ? b : ob;
        const size_t row = p->time_major ? (size_t)s * nb + b : (size_t)ob * nt + s;
        int8_t *h = t->hidden + (size_t)bi * ns, *out = t->output + row * ns;
        int16_t *c = t->cell + (size_t)bi * ns;
        memcpy(xp, t->input + row * ni, (size_t)ni);
        memcpy(hp, h, (size_t)ns);
#if defined(AOT_LSTM_S8P_DSP)
        if (!aot_lstm_s8p_fc_dsp(t, ni, ns, xp, hp, acc_in, acc_rec))
#endif
          aot_lstm_s8p_fc(t, ni, ns, xp, hp, acc_in, acc_rec);
        for (j = 0; j < 4; j++)
          aot_lstm_s8p_gate(acc_in + (size_t)j * ns, acc_rec + (size_t)j * ns, ns, &qin[j],
                            &qrec[j], j == AOT_LSTM_C && gate_tanh, gfast[j]);
        aot_lstm_s8p_cell(acc_in, ns, c, h, out, &qfc, &qig, &qhid, cmult, cshift, cround,
                          p->cell_clip, p->hidden_zp);
      }
    }
  }
  return AOT_KERNEL_OK;
}

int32_t aot_lstm_s16p(const aot_lstm_q_params *p, const aot_lstm_s16p_tensors *t,
                      void *scratch) {
  const int32_t nb = p->batch, nt = p->time_steps, ni = p->input_size, ns = p->state_size;
  const int32_t ni4 = aot_lstm_pad4(ni), ns4 = aot_lstm_pad4(ns);
  const int32_t nbs = p->time_major ? nb : 1, nouter = p->time_major ? 1 : nb;
  const size_t bi = 4u * (size_t)ni4, br = 4u * (size_t)ns4;
  int32_t *acc_in = (int32_t *)scratch, *acc_rec = acc_in + 4 * (size_t)ns;
  int16_t *xp = (int16_t *)(acc_rec + 4 * (size_t)ns), *hp = xp + ni4;
  /* the FCs requantize in int64 below; the gate pass then only adds (qmul by
     2^30 after a left shift of 1 is the identity on int16 values) */
  const aot_rec_q ident = {1 << 30, 1, 0, 0};
  const int gate_tanh = p->cell_act == AOT_ACT_TANH;
  aot_rec_q qfc, qig, qhid;
  int32_t cmult, cshift, cround, ob, s, b, j, r, q;
  if (nb <= 0 || nt <= 0 || ni <= 0 || ns <= 0) return AOT_KERNEL_BAD_PARAM;
  if (!t->w_in || !t->w_rec || !t->bias) return AOT_KERNEL_BAD_PARAM;
  if (!aot_rec_q_init(&qfc, p->fc_mult, p->fc_shift) ||
      !aot_rec_q_init(&qig, p->ig_mult, p->ig_shift) ||
      !aot_rec_q_init(&qhid, p->hid_mult, p->hid_shift))
    return AOT_KERNEL_BAD_PARAM;
  aot_lstm_s8p_tanh_params(p->cell_scale_power, &cmult, &cshift, &cround);
  for (ob = 0; ob < nouter; ob++) {
    for (s = 0; s < nt; s++) {
      for (b = 0; b < nbs; b++) {
        const int32_t bix = p->time_major ? b : ob;
        const size_t row = p->time_major ? (size_t)s * nb + b : (size_t)ob * nt + s;
        int16_t *h = t->hidden + (size_t)bix * ns, *out = t->output + row * ns;
        int16_t *c = t->cell + (size_t)bix * ns;
        const int8_t *wi = t->w_in, *wr = t->w_rec;
        aot_rec_x16_load(xp, t->input + row * ni, ni);
        aot_rec_x16_load(hp, h, ns);
        for (r = 0; r < 4 * ns; r += 4, wi += bi, wr += br) {
          int64_t di[4], dr[4];
          aot_rec_dot4p_s16(wi, xp, ni, di);
          aot_rec_dot4p_s16(wr, hp, ns, dr);
          for (q = 0; q < 4; q++) {
            const aot_lstm_gate_q *gq = &p->gate[(r + q) / ns];
            acc_in[r + q] = aot_lstm_s8p_sat16(
                aot_mbqm64(di[q] + t->bias[r + q], gq->in_mult, gq->in_shift));
            acc_rec[r + q] = aot_lstm_s8p_sat16(aot_mbqm64(dr[q], gq->rec_mult, gq->rec_shift));
          }
        }
        for (j = 0; j < 4; j++)
          aot_lstm_s8p_gate(acc_in + (size_t)j * ns, acc_rec + (size_t)j * ns, ns, &ident,
                            &ident, j == AOT_LSTM_C && gate_tanh, 0);
        aot_lstm_s16p_cell(acc_in, ns, c, h, out, &qfc, &qig, &qhid, cmult, cshift, cround,
                           p->cell_clip, p->hidden_zp);
      }
    }
  }
  return AOT_KERNEL_OK;
}
