/* make_lstm_int16.c CASE OUT.tflite GOLD.npz INPUTS.npz STATELESS.npz - writes an
 * int16x8 UNIDIRECTIONAL_SEQUENCE_LSTM model (int16 input / hidden / output,
 * int8 symmetric per-tensor weights, int64 biases, int16 cell state with a
 * power-of-two scale, TANH cell activation: the form TFLite's 16x8
 * quantizer writes and TFLM's kernel reads; TFLM derives the gate scales
 * itself (Q3.12 pre-activations, Q0.15 gates), so no intermediates are
 * written) with random weights from a fixed seed, and three sequence
 * goldens of STEPS runs with the state carried between runs:
 *   GOLD.npz       inputs + the outputs of a double-precision float LSTM run
 *                  on the dequantized weights and inputs, quantized to the
 *                  output scale (the independent reference);
 *   INPUTS.npz     the same inputs only (aotc verify then takes the expected
 *                  outputs from its reference interpreter: portable
 *                  aot_lstm_s16);
 *   STATELESS.npz  like GOLD but with the state reset before every run (it
 *                  must FAIL: the check sees the carried state).
 * Prints "tolerance N" = the bound, in output LSBs, on |quantized kernel -
 * float LSTM| propagated from the quantization steps (see tol_* below), and
 * the largest stateless-vs-stateful difference in LSBs.
 * Quantization recipe (TFLite 16x8): activations symmetric, scale
 * max|range| / 32767, zero point 0; weights max|w| / 127; the gate bias
 * scale = input scale * input weight scale; cell scale 2^-11 (range 16).
 * Cases: 0: batch 1, 4 steps, input 5, units 8; 1: batch 2, 3 steps,
 * input 7, units 6; 2: time-major, batch 2, 3 steps, input 4, units 12;
 * 3: batch 1, 2 steps, input 16, units 20, cell_clip 3; 4: batch 2, 2 steps,
 * input 33, units 40 (several vector blocks, odd tails).
 * Used by tests/integration/test_lstm_int16.sh. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/npy.h"
#include "litert/litert.h"

#define RUNS 3
enum { NG = 4 }; /* gates I, F, C(g), O in TFLite's input order */

typedef struct { int batch, time, input, units, time_major; float clip; } lcase;
static const lcase cases[] = {
    {1, 4, 5, 8, 0, 0.0f}, {2, 3, 7, 6, 0, 0.0f}, {2, 3, 4, 12, 1, 0.0f}, {1, 2, 16, 20, 0, 3.0f},
    {2, 2, 33, 40, 0, 0.0f}};

static uint32_t rng = 12345u;
static double urand(void) { /* uniform [-1, 1) */
  rng = rng * 1664525u + 1013904223u;
  return (double)(rng >> 8) / 8388608.0 - 1.0;
}

static litert_model *M;
static int add_t(const char *name, int dt, int rank, const int32_t *shape, const void *data,
                 size_t bytes, float scale) {
  int b = data ? litert_add_buffer(M, data, bytes) : 0;
  int t = litert_add_tensor(M, 0, name, dt, rank, shape, b);
  int64_t zp = 0;
  if (scale > 0) litert_tensor_set_quant(M, 0, t, 1, &scale, &zp, 0);
  return t;
}

static double sigm(double v) { return 1.0 / (1.0 + exp(-v)); }

/* Error terms (absolute, float units) of TFLM's int16 arithmetic:
 * a Q3.12 FC output is rounded once (half an LSB of 2^-12), two per gate;
 * the int16 LUT sigmoid (step 1/24, linear interpolation, Q0.15 output)
 * is within 1e-4, tanh (2 sigmoid(2x) - 1) within 2e-4; each product
 * rounded into the cell (scale 2^-11) or to Q0.15 costs half an LSB. */
static const double tol_pre = 2.0 / 8192.0, tol_sig = 1e-4, tol_tanh = 2e-4;

typedef struct {
  double *w[2][NG]; /* dequantized weights [units][in] (0) and [units][units] (1) */
  double *b[NG];
  double xs, hs, cs;
} fmodel;

/* One float LSTM run over all time steps of x (dequantized), updating h, c
 * and the error bounds eh, ec (per batch x unit) in place; y [time][batch][units]
 * (batch major order is applied by the caller). */
static void run_float(const lcase *k, const fmodel *f, const double *x, double *h, double *c,
                      double *eh, double *ec, double *y, double *maxpre) {
  const int B = k->batch, T = k->time, I = k->input, U = k->units;
  double *nh = calloc((size_t)U, sizeof(double)), *neh = calloc((size_t)U, sizeof(double));
  for (int t = 0; t < T; t++)
    for (int bi = 0; bi < B; bi++) {
      const double *xt = x + ((size_t)t * B + bi) * I;
      double *hb = h + (size_t)bi * U, *cb = c + (size_t)bi * U;
      double *ehb = eh + (size_t)bi * U, *ecb = ec + (size_t)bi * U;
      for (int u = 0; u < U; u++) {
        double a[NG], e[NG];
        for (int gi = 0; gi < NG; gi++) {
          double s = f->b[gi][u], er = tol_pre;
          for (int j = 0; j < I; j++) s += f->w[0][gi][(size_t)u * I + j] * xt[j];
          for (int j = 0; j < U; j++) {
            s += f->w[1][gi][(size_t)u * U + j] * hb[j];
            er += fabs(f->w[1][gi][(size_t)u * U + j]) * ehb[j];
          }
          if (fabs(s) > *maxpre) *maxpre = fabs(s);
          if (gi == 2) a[gi] = tanh(s), e[gi] = er + tol_tanh;
          else a[gi] = sigm(s), e[gi] = er / 4 + tol_sig;
        }
        double cn = a[1] * cb[u] + a[0] * a[2];
        double ecn = a[1] * ecb[u] + e[1] * fabs(cb[u]) + e[0] * fabs(a[2]) + a[0] * e[2] +
                     e[0] * e[2] + e[1] * ecb[u] + f->cs;
        if (k->clip > 0) cn = cn > k->clip ? k->clip : (cn < -k->clip ? -k->clip : cn);
        double tc = tanh(cn), etc = ecn + tol_tanh + f->cs / 2;
        nh[u] = a[3] * tc;
        neh[u] = e[3] * fabs(tc) + a[3] * etc + e[3] * etc + f->hs + 1.0 / 65536.0;
        cb[u] = cn, ecb[u] = ecn;
      }
      memcpy(hb, nh, (size_t)U * sizeof(double));
      memcpy(ehb, neh, (size_t)U * sizeof(double));
      memcpy(y + ((size_t)t * B + bi) * U, nh, (size_t)U * sizeof(double));
    }
  free(nh), free(neh);
}

static int16_t q16(double v, double s) {
  double r = round(v / s);
  return (int16_t)(r > 32767 ? 32767 : (r < -32768 ? -32768 : r));
}

static int write_npz(const char *path, const lcase *k, const int16_t *xin, const int16_t *yout) {
  const int64_t sx[4] = {RUNS, k->time_major ? k->time : k->batch,
                         k->time_major ? k->batch : k->time, k->input};
  const int64_t sy[4] = {RUNS, sx[1], sx[2], k->units};
  npy_array a[2];
  aotc_diag d = {0};
  memset(a, 0, sizeof a);
  if (npy_init(&a[0], "input_0", DT_INT16, 4, sx, xin, &d) ||
      (yout && npy_init(&a[1], "output_0", DT_INT16, 4, sy, yout, &d)) ||
      npz_write(path, a, yout ? 2 : 1, 0, &d)) {
    fprintf(stderr, "%s: %s\n", path, d.msg);
    return 1;
  }
  npy_free(&a[0]), npy_free(&a[1]);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: %s CASE OUT.tflite GOLD.npz INPUTS.npz STATELESS.npz\n", argv[0]);
    return 2;
  }
  const int ci = atoi(argv[1]);
  if (ci < 0 || ci >= (int)(sizeof cases / sizeof cases[0])) return 3;
  const lcase *k = &cases[ci];
  const int B = k->batch, T = k->time, I = k->input, U = k->units;
  rng += (uint32_t)ci * 7919u;
  fmodel f;
  f.xs = 1.5 / 32767.0;
  f.hs = 1.0 / 32767.0;
  f.cs = 1.0 / 2048.0;
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  int32_t in[24];
  for (int i = 0; i < 24; i++) in[i] = -1;
  const int32_t sx[3] = {k->time_major ? T : B, k->time_major ? B : T, I};
  const int32_t sy[3] = {sx[0], sx[1], U}, ss[2] = {B, U};
  in[0] = add_t("input", DT_INT16, 3, sx, NULL, 0, (float)f.xs);
  static const char *gn[NG] = {"input_gate", "forget_gate", "cell_gate", "output_gate"};
  float win_scale[NG];
  for (int side = 0; side < 2; side++)
    for (int gi = 0; gi < NG; gi++) {
      const int n = side ? U : I;
      const double range = side ? 0.5 / sqrt((double)U) : 1.2 / sqrt((double)I);
      double *w = malloc(sizeof(double) * (size_t)U * n), mx = 0;
      int8_t *q = malloc((size_t)U * n);
      for (int j = 0; j < U * n; j++) {
        w[j] = urand() * range;
        if (fabs(w[j]) > mx) mx = fabs(w[j]);
      }
      const float s = (float)(mx / 127.0);
      for (int j = 0; j < U * n; j++) {
        q[j] = (int8_t)lround(w[j] / s);
        w[j] = q[j] * (double)s;
      }
      if (!side) win_scale[gi] = s;
      char name[48];
      snprintf(name, sizeof name, "%s_%s_weights", gn[gi], side ? "recurrent" : "input");
      const int32_t sw[2] = {U, n};
      in[1 + side * 4 + gi] = add_t(name, DT_INT8, 2, sw, q, (size_t)U * n, s);
      f.w[side][gi] = w;
      free(q);
    }
  for (int gi = 0; gi < NG; gi++) {
    const double bs = (double)((float)f.xs * win_scale[gi]);
    int64_t *qb = malloc(sizeof(int64_t) * (size_t)U);
    f.b[gi] = malloc(sizeof(double) * (size_t)U);
    for (int u = 0; u < U; u++) {
      double v = urand() * 0.5 + (gi == 1 ? 1.0 : 0.0);
      qb[u] = llround(v / bs);
      f.b[gi][u] = (double)qb[u] * bs;
    }
    char name[48];
    snprintf(name, sizeof name, "%s_bias", gn[gi]);
    const int32_t sb[1] = {U};
    in[12 + gi] = add_t(name, DT_INT64, 1, sb, qb, sizeof(int64_t) * (size_t)U,
                        (float)f.xs * win_scale[gi]);
    free(qb);
  }
  in[18] = add_t("hidden_state", DT_INT16, 2, ss, NULL, 0, (float)f.hs);
  in[19] = add_t("cell_state", DT_INT16, 2, ss, NULL, 0, (float)f.cs);
  M->subgraphs[0].tensors[in[18]].is_variable = 1;
  M->subgraphs[0].tensors[in[19]].is_variable = 1;
  int y = add_t("output", DT_INT16, 3, sy, NULL, 0, (float)f.hs);
  litert_options o;
  litert_options_default(&o);
  o.type = litert_builtin_options_type(OP_UNIDIRECTIONAL_SEQUENCE_LSTM);
  o.fused_act = ACT_TANH;
  o.cell_clip = k->clip;
  o.time_major = k->time_major;
  litert_add_op(M, 0, OP_UNIDIRECTIONAL_SEQUENCE_LSTM, NULL, 24, in, 1, (int32_t[]){y}, &o);
  litert_set_io(M, 0, 1, (int32_t[]){in[0]}, 1, (int32_t[]){y});
  aotc_diag d = {0};
  if (litert_write_file(M, argv[2], &d)) {
    fprintf(stderr, "%s\n", d.msg);
    return 1;
  }
  litert_model_free(M);

  /* inputs: RUNS x the model's input, uniform in [-1.5, 1.5] */
  const size_t nx = (size_t)B * T * I, ny = (size_t)B * T * U, ns = (size_t)B * U;
  int16_t *xq = malloc(sizeof(int16_t) * nx * RUNS);
  int16_t *yq = malloc(sizeof(int16_t) * ny * RUNS), *yl = malloc(sizeof(int16_t) * ny * RUNS);
  for (size_t j = 0; j < nx * RUNS; j++) xq[j] = (int16_t)lround(urand() * 32767.0);
  double *h = calloc(ns, sizeof(double)), *c = calloc(ns, sizeof(double));
  double *eh = calloc(ns, sizeof(double)), *ec = calloc(ns, sizeof(double));
  double *xf = malloc(sizeof(double) * nx), *yf = malloc(sizeof(double) * ny);
  double maxpre = 0, maxeh = 0;
  int maxdiff = 0;
  for (int pass = 0; pass < 2; pass++) { /* 0: stateful, 1: state reset per run */
    memset(h, 0, ns * sizeof(double)), memset(c, 0, ns * sizeof(double));
    memset(eh, 0, ns * sizeof(double)), memset(ec, 0, ns * sizeof(double));
    for (int r = 0; r < RUNS; r++) {
      if (pass) {
        memset(h, 0, ns * sizeof(double)), memset(c, 0, ns * sizeof(double));
        memset(eh, 0, ns * sizeof(double)), memset(ec, 0, ns * sizeof(double));
      }
      /* to time-major [T][B][I] */
      for (int t = 0; t < T; t++)
        for (int bi = 0; bi < B; bi++)
          for (int j = 0; j < I; j++) {
            size_t src = k->time_major ? ((size_t)t * B + bi) * I : ((size_t)bi * T + t) * I;
            xf[((size_t)t * B + bi) * I + j] = xq[nx * r + src + j] * f.xs;
          }
      run_float(k, &f, xf, h, c, eh, ec, yf, &maxpre);
      for (size_t j = 0; j < ns && !pass; j++)
        if (eh[j] > maxeh) maxeh = eh[j];
      int16_t *dst = (pass ? yl : yq) + ny * r;
      for (int t = 0; t < T; t++)
        for (int bi = 0; bi < B; bi++)
          for (int u = 0; u < U; u++) {
            size_t di = k->time_major ? ((size_t)t * B + bi) * U : ((size_t)bi * T + t) * U;
            dst[di + u] = q16(yf[((size_t)t * B + bi) * U + u], f.hs);
          }
    }
  }
  for (size_t j = 0; j < ny * RUNS; j++) {
    int dd = abs((int)yq[j] - (int)yl[j]);
    if (dd > maxdiff) maxdiff = dd;
  }
  if (maxpre >= 7.9) {
    fprintf(stderr, "case %d: a gate pre-activation reaches %.2f (Q3.12 saturates)\n", ci, maxpre);
    return 1;
  }
  int rc = write_npz(argv[3], k, xq, yq) || write_npz(argv[4], k, xq, NULL) ||
           write_npz(argv[5], k, xq, yl);
  printf("tolerance %d stateless_diff %d max_preact %.2f\n", (int)ceil(maxeh / f.hs) + 1, maxdiff,
         maxpre);
  for (int side = 0; side < 2; side++)
    for (int gi = 0; gi < NG; gi++) free(f.w[side][gi]);
  for (int gi = 0; gi < NG; gi++) free(f.b[gi]);
  free(xq), free(yq), free(yl), free(h), free(c), free(eh), free(ec), free(xf), free(yf);
  return rc;
}
