/* test_kernels_recurrent_lstm.c - UNIDIRECTIONAL_SEQUENCE_LSTM kernels and op.
 *
 * Integer expectations come from a per-element reference written here from
 * the TFLM kernel's documented arithmetic (Q3.12 gate inputs, the int16 LUT
 * sigmoid/tanh, MultiplyByQuantizedMultiplier via int64 rounding rules);
 * float expectations from a double-precision LSTM. Model tests compare with
 * the shared goldens (LiteRT / TFLM runtimes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aot_recurrent.h"
#include "io/npy.h"
#include "litert/litert.h"
#include "ops/ops.h"
#include "test_kernels_recurrent_util.h"

extern const op_impl op_unidirectional_sequence_lstm;

/* ---- int16 activation references ----------------------------------------- */

/* sigmoid(i/24) * 65536, TFLite's table (rounded, last entry saturated). */
static const uint16_t LUT[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794,
    41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443,
    48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169, 53581, 53983, 54374,
    54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544,
    58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279,
    61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990,
    63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030,
    64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652,
    64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019,
    65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234,
    65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360,
    65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
    65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476,
    65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498, 65500, 65501,
    65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513, 65514, 65515, 65516,
    65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
    65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529,
    65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532,
    65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65534, 65534,
    65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535};

/* floor(x / 2^s) for any sign */
static int64_t fdiv(int64_t x, int s) {
  int64_t d = 1LL << s;
  return x >= 0 ? x / d : -((-x + d - 1) / d);
}

/* Q3.12 -> Q0.15 logistic: input scaled by 3 (x * 3/4 in 2^-10 units), LUT
 * index = |in| / 512 (steps of 1/24), linear interpolation, rounding. */
static int ref_sigmoid(int q) {
  int64_t in = (int64_t)q * 3, a = in < 0 ? -in : in, r;
  if (a / 512 >= 255)
    r = 32767LL * 1024;
  else
    r = (int64_t)LUT[a / 512] * 512 + (a % 512) * (LUT[a / 512 + 1] - LUT[a / 512]);
  r = in >= 0 ? r + 512 : (1LL << 25) - r + 511;
  return (int)(r / 1024);
}

/* tanh of x * 2^power into Q0.15 via tanh(y) = 2 sigmoid(2y) - 1. */
static int ref_tanh(int x, int power) {
  int left = 15 + power - 3;
  int64_t in = left >= 0 ? (int64_t)x * 3 * (1LL << left)
                         : fdiv((int64_t)x * 3 + (1LL << (-left - 1)), -left);
  int64_t a = in < 0 ? -in : in, r;
  if (a / 256 >= 255)
    r = 65535LL * 256;
  else
    r = (int64_t)LUT[a / 256] * 256 + (a % 256) * (LUT[a / 256 + 1] - LUT[a / 256]);
  r = in >= 0 ? r - (1LL << 23) + 128 : -r + (1LL << 23) + 127;
  return (int)fdiv(r, 8);
}

static void test_ref_activations_sane(void **state) {
  (void)state;
  /* the reference LUT functions approximate the real functions */
  for (int q = -32768; q <= 32767; q += 7) {
    double s = 32768.0 / (1.0 + exp(-q / 4096.0));
    assert_true(fabs(ref_sigmoid(q) - s) <= 8.0 || (s > 32767 && ref_sigmoid(q) == 32767));
    double t = 32768.0 * tanh(q / 4096.0);
    assert_true(fabs(ref_tanh(q, -12) - t) <= 8.0);
    double t2 = 32768.0 * tanh(q / 2048.0);
    assert_true(fabs(ref_tanh(q, -11) - t2) <= 8.0);
    double t3 = 32768.0 * tanh(q / 32768.0);
    assert_true(fabs(ref_tanh(q, -15) - t3) <= 8.0);
  }
  assert_int_equal(ref_sigmoid(0), 16384);
  assert_int_equal(ref_tanh(0, -12), 0);
}

static int sat16(int64_t v) { return v < -32768 ? -32768 : v > 32767 ? 32767 : (int)v; }

/* ---- integer LSTM reference ------------------------------------------------ */

typedef struct qlstm {
  int nb, nt, ni, ns, time_major;
  int x_zp, h_zp, act16;   /* act16: int16 activations (zp 0), int64 bias */
  int32_t in_m[4], in_s[4], rec_m[4], rec_s[4];
  int32_t fc_m, fc_s, ig_m, ig_s, hid_m, hid_s;
  int cell_pow, clip;
  const int8_t *w_in[4], *w_rec[4];
  const int64_t *bias[4];
} qlstm;

/* Runs the whole sequence on int32 copies; x and out are in the op's layout. */
static void ref_qlstm(const qlstm *L, const int32_t *x, int32_t *h, int32_t *c, int32_t *out) {
  int hmin = L->act16 ? -32768 : -128, hmax = L->act16 ? 32767 : 127;
  int ns = L->ns;
  int32_t *gate = calloc((size_t)4 * ns, sizeof(int32_t));
  int32_t *hn = calloc((size_t)ns, sizeof(int32_t));
  for (int b = 0; b < L->nb; b++) {
    for (int t = 0; t < L->nt; t++) {
      size_t row = L->time_major ? (size_t)t * L->nb + b : (size_t)b * L->nt + t;
      const int32_t *xr = x + row * L->ni;
      int32_t *hb = h + (size_t)b * ns, *cb = c + (size_t)b * ns;
      for (int g = 0; g < 4; g++)
        for (int j = 0; j < ns; j++) {
          int64_t a = L->bias[g][j], r = 0;
          for (int k = 0; k < L->ni; k++) a += (int64_t)L->w_in[g][j * L->ni + k] * (xr[k] - L->x_zp);
          for (int k = 0; k < ns; k++) r += (int64_t)L->w_rec[g][j * ns + k] * (hb[k] - L->h_zp);
          /* int16 activations accumulate in int64 (TFLite's int64 rescale) */
          int64_t ia = L->act16 ? ref_mbqm64(a, L->in_m[g], L->in_s[g])
                                : ref_mbqm(a, L->in_m[g], L->in_s[g]);
          int64_t ra = L->act16 ? ref_mbqm64(r, L->rec_m[g], L->rec_s[g])
                                : ref_mbqm(r, L->rec_m[g], L->rec_s[g]);
          int v = sat16(sat16(ia) + sat16(ra));
          gate[g * ns + j] = g == AOT_LSTM_C ? ref_tanh(v, -12) : ref_sigmoid(v);
        }
      for (int j = 0; j < ns; j++) {
        int fcv = sat16(ref_mbqm((int64_t)gate[AOT_LSTM_F * ns + j] * cb[j], L->fc_m, L->fc_s));
        int igv = sat16(ref_mbqm((int64_t)gate[AOT_LSTM_I * ns + j] * gate[AOT_LSTM_C * ns + j],
                                 L->ig_m, L->ig_s));
        int cn = sat16(fcv + igv);
        if (L->clip > 0) cn = cn < -L->clip ? -L->clip : cn > L->clip ? L->clip : cn;
        cb[j] = cn;
        int64_t hv = ref_mbqm((int64_t)ref_tanh(cn, L->cell_pow) * gate[AOT_LSTM_O * ns + j],
                              L->hid_m, L->hid_s) + L->h_zp;
        hn[j] = (int32_t)(hv < hmin ? hmin : hv > hmax ? hmax : hv);
      }
      for (int j = 0; j < ns; j++) hb[j] = hn[j], out[row * ns + j] = hn[j];
    }
  }
  free(gate);
  free(hn);
}

static void qlstm_random(qlstm *L, int act16) {
  L->act16 = act16;
  L->x_zp = act16 ? 0 : rng_int(-128, 127);
  L->h_zp = act16 ? 0 : rng_int(-20, 20);
  for (int g = 0; g < 4; g++) {
    int sh;
    /* effective scales of realistic size: s_x * s_w / 2^-12 */
    quantize_multiplier((act16 ? 0.003 : 0.4) + rng_unit() * (act16 ? 0.01 : 1.5), &L->in_m[g], &sh);
    L->in_s[g] = sh;
    quantize_multiplier((act16 ? 0.002 : 0.2) + rng_unit() * (act16 ? 0.01 : 1.0), &L->rec_m[g], &sh);
    L->rec_s[g] = sh;
  }
  int sh;
  double cs = ldexp(1.0, L->cell_pow);
  quantize_multiplier(1.0 / 32768.0, &L->fc_m, &sh);
  L->fc_s = sh;
  quantize_multiplier(1.0 / 32768.0 / 32768.0 / cs, &L->ig_m, &sh);
  L->ig_s = sh;
  quantize_multiplier(1.0 / 32768.0 / 32768.0 / (act16 ? 3.0e-5 : 0.0078), &L->hid_m, &sh);
  L->hid_s = sh;
}

static void qlstm_params(const qlstm *L, aot_lstm_q_params *p) {
  memset(p, 0, sizeof *p);
  p->batch = L->nb;
  p->time_steps = L->nt;
  p->input_size = L->ni;
  p->state_size = L->ns;
  p->time_major = L->time_major;
  p->input_zp = L->x_zp;
  p->hidden_zp = L->h_zp;
  p->cell_act = AOT_ACT_TANH;
  for (int g = 0; g < 4; g++) {
    p->gate[g].in_mult = L->in_m[g];
    p->gate[g].in_shift = L->in_s[g];
    p->gate[g].rec_mult = L->rec_m[g];
    p->gate[g].rec_shift = L->rec_s[g];
  }
  p->fc_mult = L->fc_m, p->fc_shift = L->fc_s;
  p->ig_mult = L->ig_m, p->ig_shift = L->ig_s;
  p->hid_mult = L->hid_m, p->hid_shift = L->hid_s;
  p->cell_scale_power = L->cell_pow;
  p->cell_clip = L->clip;
}

static void qlstm_case(int act16, int nb, int nt, int ni, int ns, int time_major, int cell_pow,
                       int clip, int calls, unsigned seed) {
  rng_seed(seed);
  qlstm L;
  memset(&L, 0, sizeof L);
  L.nb = nb, L.nt = nt, L.ni = ni, L.ns = ns, L.time_major = time_major;
  L.cell_pow = cell_pow, L.clip = clip;
  qlstm_random(&L, act16);
  int8_t *wi[4], *wr[4];
  int32_t *b32[4];
  int64_t *b64[4];
  for (int g = 0; g < 4; g++) {
    wi[g] = malloc((size_t)ns * ni), wr[g] = malloc((size_t)ns * ns);
    b32[g] = malloc((size_t)ns * 4), b64[g] = malloc((size_t)ns * 8);
    for (int i = 0; i < ns * ni; i++) wi[g][i] = (int8_t)rng_int(-127, 127);
    for (int i = 0; i < ns * ns; i++) wr[g][i] = (int8_t)rng_int(-127, 127);
    for (int i = 0; i < ns; i++) {
      b64[g][i] = rng_int(-3000, 3000) * (act16 ? 50 : 1);
      b32[g][i] = (int32_t)b64[g][i];
    }
    L.w_in[g] = wi[g], L.w_rec[g] = wr[g], L.bias[g] = b64[g];
  }
  size_t nx = (size_t)nb * nt * ni, no = (size_t)nb * nt * ns, nst = (size_t)nb * ns;
  int32_t *x = calloc(nx, 4), *rh = calloc(nst, 4), *rc = calloc(nst, 4), *ro = calloc(no, 4);
  int8_t *x8 = calloc(nx, 1), *h8 = calloc(nst, 1), *o8 = calloc(no, 1);
  int16_t *x16 = calloc(nx, 2), *h16 = calloc(nst, 2), *o16 = calloc(no, 2), *c16 = calloc(nst, 2);
  int16_t *scratch = malloc(aot_lstm_q_buffer_size(nb, ns));
  for (size_t i = 0; i < nst; i++) {
    rh[i] = L.h_zp;
    h8[i] = (int8_t)L.h_zp;
  }
  aot_lstm_q_params p;
  qlstm_params(&L, &p);
  for (int call = 0; call < calls; call++) {
    for (size_t i = 0; i < nx; i++) {
      x[i] = act16 ? rng_int(-32768, 32767) : rng_int(-128, 127);
      x8[i] = (int8_t)x[i];
      x16[i] = (int16_t)x[i];
    }
    ref_qlstm(&L, x, rh, rc, ro);
    if (act16) {
      aot_lstm_s16_tensors t = {x16, {wi[0], wi[1], wi[2], wi[3]}, {wr[0], wr[1], wr[2], wr[3]},
                                {b64[0], b64[1], b64[2], b64[3]}, h16, c16, o16};
      assert_int_equal(aot_lstm_s16(&p, &t, scratch), 0);
    } else {
      aot_lstm_s8_tensors t = {x8, {wi[0], wi[1], wi[2], wi[3]}, {wr[0], wr[1], wr[2], wr[3]},
                               {b32[0], b32[1], b32[2], b32[3]}, h8, c16, o8};
      assert_int_equal(aot_lstm_s8(&p, &t, scratch), 0);
    }
    for (size_t i = 0; i < no; i++) assert_int_equal(act16 ? o16[i] : o8[i], ro[i]);
    for (size_t i = 0; i < nst; i++) {
      assert_int_equal(act16 ? h16[i] : h8[i], rh[i]);
      assert_int_equal(c16[i], rc[i]);
    }
  }
  for (int g = 0; g < 4; g++) free(wi[g]), free(wr[g]), free(b32[g]), free(b64[g]);
  free(x), free(rh), free(rc), free(ro), free(x8), free(h8), free(o8);
  free(x16), free(h16), free(o16), free(c16), free(scratch);
}

static void test_lstm_s8_batch_major(void **state) {
  (void)state;
  qlstm_case(0, 1, 6, 5, 4, 0, -12, 0, 3, 1);
  qlstm_case(0, 2, 4, 3, 6, 0, -11, 0, 2, 2);
}

static void test_lstm_s8_time_major(void **state) {
  (void)state;
  qlstm_case(0, 3, 4, 5, 4, 1, -12, 0, 2, 3);
  qlstm_case(0, 2, 3, 7, 5, 1, -15, 0, 2, 4);
}

static void test_lstm_s8_cell_clip(void **state) {
  (void)state;
  qlstm_case(0, 2, 8, 4, 4, 0, -12, 3000, 2, 5);
  qlstm_case(0, 1, 8, 4, 4, 1, -9, 100, 2, 6);
}

static void test_lstm_s16(void **state) {
  (void)state;
  qlstm_case(1, 1, 5, 4, 3, 0, -12, 0, 2, 7);
  qlstm_case(1, 2, 3, 3, 4, 1, -11, 0, 2, 8);
}

/* ---- float LSTM reference ------------------------------------------------- */

typedef struct flstm {
  int nb, nt, ni, ns, no, time_major, act;
  double cell_clip, proj_clip;
  const float *w_in[4], *w_rec[4], *w_peep[4], *bias[4], *ln[4], *w_proj, *b_proj;
} flstm;

static double fact(int act, double v) {
  switch (act) {
    case AOT_ACT_TANH: return tanh(v);
    case AOT_ACT_SIGMOID: return 1.0 / (1.0 + exp(-v));
    case AOT_ACT_RELU: return v < 0 ? 0 : v;
    default: return v;
  }
}

static void ref_flstm(const flstm *L, const float *x, double *h, double *c, double *out) {
  int ns = L->ns, no = L->no;
  double *gate = calloc((size_t)4 * ns, sizeof(double)), *hp = calloc((size_t)ns, sizeof(double));
  for (int b = 0; b < L->nb; b++)
    for (int t = 0; t < L->nt; t++) {
      size_t row = L->time_major ? (size_t)t * L->nb + b : (size_t)b * L->nt + t;
      const float *xr = x + row * L->ni;
      double *hb = h + (size_t)b * no, *cb = c + (size_t)b * ns;
      int order[4] = {AOT_LSTM_I, AOT_LSTM_F, AOT_LSTM_C, AOT_LSTM_O};
      for (int oi = 0; oi < 4; oi++) {
        int g = order[oi];
        if (g == AOT_LSTM_I && !L->w_in[g]) continue;
        if (g == AOT_LSTM_O) /* cell update before the output gate */
          for (int j = 0; j < ns; j++) {
            double ig = L->w_in[AOT_LSTM_I] ? gate[j] : 1.0 - gate[ns + j];
            cb[j] = gate[ns + j] * cb[j] + ig * gate[2 * ns + j];
            if (L->cell_clip > 0) cb[j] = fmax(-L->cell_clip, fmin(L->cell_clip, cb[j]));
          }
        for (int j = 0; j < ns; j++) {
          double a = 0;
          for (int k = 0; k < L->ni; k++) a += (double)L->w_in[g][j * L->ni + k] * xr[k];
          for (int k = 0; k < no; k++) a += (double)L->w_rec[g][j * no + k] * hb[k];
          if (L->w_peep[g]) a += (double)L->w_peep[g][j] * cb[j];
          gate[g * ns + j] = a;
        }
        if (L->ln[g]) {
          double m = 0, v = 0;
          for (int j = 0; j < ns; j++) m += gate[g * ns + j];
          m /= ns;
          for (int j = 0; j < ns; j++) v += (gate[g * ns + j] - m) * (gate[g * ns + j] - m);
          v /= ns;
          for (int j = 0; j < ns; j++)
            gate[g * ns + j] = (gate[g * ns + j] - m) / sqrt(v + 1e-8) * L->ln[g][j];
        }
        for (int j = 0; j < ns; j++) {
          double a = gate[g * ns + j] + (L->bias[g] ? L->bias[g][j] : 0.0);
          gate[g * ns + j] = fact(g == AOT_LSTM_C ? L->act : AOT_ACT_SIGMOID, a);
        }
      }
      for (int j = 0; j < ns; j++) hp[j] = gate[3 * ns + j] * fact(L->act, cb[j]);
      for (int j = 0; j < no; j++) {
        double a;
        if (L->w_proj) {
          a = L->b_proj ? L->b_proj[j] : 0.0;
          for (int k = 0; k < ns; k++) a += (double)L->w_proj[j * ns + k] * hp[k];
          if (L->proj_clip > 0) a = fmax(-L->proj_clip, fmin(L->proj_clip, a));
        } else {
          a = hp[j];
        }
        hb[j] = a;
        out[row * no + j] = a;
      }
    }
  free(gate);
  free(hp);
}

static float *frand(int n, double lo, double hi) {
  float *v = malloc((size_t)n * sizeof(float));
  for (int i = 0; i < n; i++) v[i] = (float)(lo + (hi - lo) * rng_unit());
  return v;
}

enum { F_CIFG = 1, F_PEEP = 2, F_LN = 4, F_PROJ = 8, F_CLIP = 16 };

static void flstm_case(int nb, int nt, int ni, int ns, int no, int time_major, int flags,
                       unsigned seed) {
  rng_seed(seed);
  flstm L;
  memset(&L, 0, sizeof L);
  L.nb = nb, L.nt = nt, L.ni = ni, L.ns = ns, L.no = (flags & F_PROJ) ? no : ns;
  L.time_major = time_major, L.act = AOT_ACT_TANH;
  L.cell_clip = (flags & F_CLIP) ? 0.7 : 0;
  L.proj_clip = (flags & F_CLIP) ? 0.3 : 0;
  float *all[32];
  int na = 0;
  aot_lstm_f32_tensors T;
  memset(&T, 0, sizeof T);
  for (int g = 0; g < 4; g++) {
    if (g == AOT_LSTM_I && (flags & F_CIFG)) continue;
    all[na++] = (float *)(L.w_in[g] = T.w_in[g] = frand(ns * ni, -0.6, 0.6));
    all[na++] = (float *)(L.w_rec[g] = T.w_rec[g] = frand(ns * L.no, -0.6, 0.6));
    all[na++] = (float *)(L.bias[g] = T.bias[g] = frand(ns, -0.3, 0.3));
    if ((flags & F_PEEP) && g != AOT_LSTM_C)
      all[na++] = (float *)(L.w_peep[g] = T.w_peep[g] = frand(ns, -0.5, 0.5));
    if (flags & F_LN) all[na++] = (float *)(L.ln[g] = T.ln[g] = frand(ns, 0.5, 1.5));
  }
  if (flags & F_PROJ) {
    all[na++] = (float *)(L.w_proj = T.w_proj = frand(L.no * ns, -0.5, 0.5));
    all[na++] = (float *)(L.b_proj = T.b_proj = frand(L.no, -0.1, 0.1));
  }
  size_t nx = (size_t)nb * nt * ni, nout = (size_t)nb * nt * L.no;
  float *x = malloc(nx * 4), *h = calloc((size_t)nb * L.no, 4), *c = calloc((size_t)nb * ns, 4);
  float *out = calloc(nout, 4);
  double *rh = calloc((size_t)nb * L.no, 8), *rc = calloc((size_t)nb * ns, 8);
  double *rout = calloc(nout, 8);
  float *scratch = malloc(aot_lstm_f32_buffer_size(nb, ns, L.no));
  T.input = x, T.hidden = h, T.cell = c, T.output = out;
  aot_lstm_f32_params p = {nb, nt, ni, ns, L.no, time_major, AOT_ACT_TANH,
                           (float)L.cell_clip, (float)L.proj_clip};
  for (int call = 0; call < 2; call++) {
    for (size_t i = 0; i < nx; i++) x[i] = (float)(rng_unit() * 4 - 2);
    ref_flstm(&L, x, rh, rc, rout);
    assert_int_equal(aot_lstm_f32(&p, &T, scratch), 0);
    for (size_t i = 0; i < nout; i++) assert_true(fabs(out[i] - rout[i]) < 2e-5);
    for (int i = 0; i < nb * ns; i++) assert_true(fabs(c[i] - rc[i]) < 2e-5);
    for (int i = 0; i < nb * L.no; i++) assert_true(fabs(h[i] - rh[i]) < 2e-5);
  }
  for (int i = 0; i < na; i++) free(all[i]);
  free(x), free(h), free(c), free(out), free(rh), free(rc), free(rout), free(scratch);
}

static void test_lstm_f32_plain(void **state) {
  (void)state;
  flstm_case(1, 5, 4, 3, 3, 0, 0, 31);
  flstm_case(2, 3, 3, 4, 4, 0, 0, 32);
  flstm_case(3, 4, 2, 5, 5, 1, 0, 33);
}

static void test_lstm_f32_variants(void **state) {
  (void)state;
  flstm_case(2, 4, 3, 5, 3, 0, F_PROJ, 41);
  flstm_case(1, 4, 3, 4, 4, 1, F_PEEP, 42);
  flstm_case(2, 3, 3, 4, 4, 0, F_CIFG | F_PEEP, 43);
  flstm_case(1, 5, 2, 6, 4, 0, F_LN | F_PROJ, 44);
  flstm_case(2, 5, 3, 4, 2, 1, F_CIFG | F_PEEP | F_LN | F_PROJ | F_CLIP, 45);
}

/* ---- op through a hand-built graph ---------------------------------------- */

static void test_op_lstm_int8_eval(void **state) {
  (void)state;
  rng_seed(90);
  const int nb = 1, nt = 5, ni = 6, ns = 4;
  tgraph G;
  tg_init(&G);
  int8_t wi[4][24], wr[4][16];
  int32_t b32[4][4];
  int64_t b64[4][4];
  float swi[4] = {0.011f, 0.009f, 0.0074f, 0.0089f}, swr[4] = {0.0082f, 0.0049f, 0.0058f, 0.0093f};
  int ids[24];
  for (int i = 0; i < 24; i++) ids[i] = -1;
  const float sx = 0.0039215f, sh = 0.0078168f, sc = 1.0f / 4096.0f;
  ids[0] = tg_tensor(&G, DT_INT8, 3, (int[]){nb, nt, ni}, sx, -128, ROLE_INPUT, NULL);
  for (int g = 0; g < 4; g++) {
    for (int i = 0; i < 24; i++) wi[g][i] = (int8_t)rng_int(-127, 127);
    for (int i = 0; i < 16; i++) wr[g][i] = (int8_t)rng_int(-127, 127);
    for (int i = 0; i < 4; i++) b32[g][i] = rng_int(-20000, 20000), b64[g][i] = b32[g][i];
    ids[1 + g] = tg_tensor(&G, DT_INT8, 2, (int[]){ns, ni}, swi[g], 0, ROLE_CONST, wi[g]);
    ids[5 + g] = tg_tensor(&G, DT_INT8, 2, (int[]){ns, ns}, swr[g], 0, ROLE_CONST, wr[g]);
    ids[12 + g] = tg_tensor(&G, DT_INT32, 1, (int[]){ns}, sx * swi[g], 0, ROLE_CONST, b32[g]);
  }
  ids[18] = tg_tensor(&G, DT_INT8, 2, (int[]){nb, ns}, sh, 3, ROLE_PERSISTENT, NULL);
  ids[19] = tg_tensor(&G, DT_INT16, 2, (int[]){nb, ns}, sc, 0, ROLE_PERSISTENT, NULL);
  int to = tg_tensor(&G, DT_INT8, 3, (int[]){nb, nt, ns}, sh, 3, ROLE_OUTPUT, NULL);
  litert_options o;
  memset(&o, 0, sizeof o);
  o.fused_act = ACT_TANH;
  o.cell_clip = 10.0f;
  ir_op *op = tg_op(&G, OP_UNIDIRECTIONAL_SEQUENCE_LSTM, 24, ids, 1, (int[]){to}, &o);
  const op_impl *impl = &op_unidirectional_sequence_lstm;
  char why[256] = "";
  assert_int_equal(impl->check(&G.g, op, why, sizeof why), 0);
  /* reference parameters from the scales as TFLM derives them */
  qlstm L;
  memset(&L, 0, sizeof L);
  L.nb = nb, L.nt = nt, L.ni = ni, L.ns = ns, L.x_zp = -128, L.h_zp = 3, L.cell_pow = -12;
  L.clip = (int)(10.0 / (1.0 / 4096.0));
  for (int g = 0; g < 4; g++) {
    int s;
    /* TFLM multiplies input and weight scales in float, divides in double */
    float pin = sx * swi[g], prec = sh * swr[g];
    ref_quantize_multiplier((double)pin * 4096.0, &L.in_m[g], &s);
    L.in_s[g] = s;
    ref_quantize_multiplier((double)prec * 4096.0, &L.rec_m[g], &s);
    L.rec_s[g] = s;
    L.w_in[g] = wi[g], L.w_rec[g] = wr[g], L.bias[g] = b64[g];
  }
  int s;
  ref_quantize_multiplier(1.0 / 32768.0, &L.fc_m, &s);
  L.fc_s = s;
  ref_quantize_multiplier(1.0 / 32768.0 / 32768.0 * 4096.0, &L.ig_m, &s);
  L.ig_s = s;
  ref_quantize_multiplier(1.0 / 32768.0 / 32768.0 / (double)sh, &L.hid_m, &s);
  L.hid_s = s;
  void **data = tg_alloc_data(&G);
  memset(data[ids[18]], 3, (size_t)nb * ns);
  int32_t x[30], rh[4] = {3, 3, 3, 3}, rc[4] = {0}, ro[20];
  size_t sb = impl->scratch(&G.g, op);
  void *scratch = malloc(sb);
  for (int call = 0; call < 3; call++) {
    for (int i = 0; i < nb * nt * ni; i++) {
      x[i] = rng_int(-128, 127);
      ((int8_t *)data[ids[0]])[i] = (int8_t)x[i];
    }
    assert_int_equal(op_eval(impl, &G.g, op, data, scratch), 0);
    ref_qlstm(&L, x, rh, rc, ro);
    for (int i = 0; i < nb * nt * ns; i++) assert_int_equal(((int8_t *)data[to])[i], ro[i]);
    for (int i = 0; i < nb * ns; i++) {
      assert_int_equal(((int8_t *)data[ids[18]])[i], rh[i]);
      assert_int_equal(((int16_t *)data[ids[19]])[i], rc[i]);
    }
  }
  /* refusals: peephole on the integer path, non-power-of-two cell scale */
  int tp = tg_tensor(&G, DT_INT16, 1, (int[]){ns}, 0.001f, 0, ROLE_CONST, b32[0]);
  op->in[10] = tp;
  assert_int_equal(impl->check(&G.g, op, why, sizeof why), -1);
  assert_non_null(strstr(why, "peephole"));
  op->in[10] = -1;
  G.t[ids[19]].scale[0] = 0.0003f;
  assert_int_equal(impl->check(&G.g, op, why, sizeof why), -1);
  assert_non_null(strstr(why, "power of two"));
  G.t[ids[19]].scale[0] = sc;
  G.t[ids[18]].role = ROLE_SCRATCH;
  assert_int_equal(impl->check(&G.g, op, why, sizeof why), -1);
  assert_non_null(strstr(why, "variable"));
  free(scratch);
  tg_free_data(&G, data);
  tg_free(&G);
}

/* ---- real models ----------------------------------------------------------- */

static const char *shared_dir(void) {
  const char *s = getenv("AOTC_SHARED");
  return s && *s ? s : "../shared";
}

static char *shared_path(const char *rel) {
  char *p = xasprintf("%s/%s", shared_dir(), rel);
  if (access(p, R_OK) != 0) {
    fprintf(stderr, "skipping: %s not found (set AOTC_SHARED)\n", p);
    free(p);
    return NULL;
  }
  return p;
}

/* Evaluates the LSTM op (operator 0 of the model) on the golden's input_0.
 * Returns the graph (caller ir_free) and data buffers, or NULL to skip. */
static ir_graph *run_lstm_model(const char *model_rel, const char *golden_rel, litert_model **mp,
                                npy_array **arrs, int *narr, void ***datap) {
  char *mpath = shared_path(model_rel), *gpath = shared_path(golden_rel);
  if (!mpath || !gpath) {
    free(mpath), free(gpath);
    return NULL;
  }
  aotc_diag d;
  memset(&d, 0, sizeof d);
  litert_model *m = litert_read_file(mpath, &d);
  assert_non_null(m);
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_non_null(g);
  assert_int_equal(npz_read(gpath, arrs, narr, &d), 0);
  ir_op *op = &g->ops[0];
  assert_int_equal(op->builtin, OP_UNIDIRECTIONAL_SEQUENCE_LSTM);
  ir_tensor *out = &g->t[op->out[0]];
  if (out->rank == 0) {
    /* litert-testdata's LSTM output carries no shape: it is [batch, time, output] */
    const ir_tensor *x = &g->t[op->in[0]], *h = &g->t[op->in[18]];
    out->rank = 3;
    out->shape[0] = x->shape[0];
    out->shape[1] = x->shape[1];
    out->shape[2] = h->shape[h->rank - 1];
  }
  char why[256] = "";
  const op_impl *impl = &op_unidirectional_sequence_lstm;
  int rc = impl->check(g, op, why, sizeof why);
  if (rc) fprintf(stderr, "check: %s\n", why);
  assert_int_equal(rc, 0);
  void **data = xcalloc((size_t)g->nt, sizeof(void *));
  for (int i = 0; i < g->nt; i++) {
    size_t n = ir_bytes(&g->t[i]);
    data[i] = xcalloc(n ? n : 1, 1);
    if (g->t[i].data) memcpy(data[i], g->t[i].data, n);
  }
  const npy_array *in = npz_find(*arrs, *narr, "input_0");
  assert_non_null(in);
  assert_int_equal(in->nbytes, ir_bytes(&g->t[op->in[0]]));
  memcpy(data[op->in[0]], in->data, in->nbytes);
  void *scratch = xcalloc(impl->scratch(g, op) + 1, 1);
  assert_int_equal(op_eval(impl, g, op, data, scratch), 0);
  free(scratch);
  free(mpath), free(gpath);
  *mp = m;
  *datap = data;
  return g;
}

static void free_run(ir_graph *g, litert_model *m, npy_array *arrs, int narr, void **data) {
  for (int i = 0; i < g->nt; i++) free(data[i]);
  free(data);
  npz_free(arrs, narr);
  ir_free(g);
  litert_model_free(m);
}

static void test_model_litert_lstm_float(void **state) {
  (void)state;
  litert_model *m;
  npy_array *arrs;
  int narr;
  void **data;
  ir_graph *g = run_lstm_model("models/litert-testdata/unidirectional_sequence_lstm.bin",
                               "goldens/litert-testdata/unidirectional_sequence_lstm.npz", &m,
                               &arrs, &narr, &data);
  if (!g) {
    skip();
    return;
  }
  const npy_array *gold = npz_find(arrs, narr, "output_0");
  assert_non_null(gold);
  const float *o = data[g->ops[0].out[0]];
  size_t n = gold->nbytes / 4;
  assert_int_equal(n, ir_numel(&g->t[g->ops[0].out[0]]));
  for (size_t i = 0; i < n; i++) {
    double e = ((const float *)gold->data)[i];
    assert_true(fabs(o[i] - e) <= 1e-5 + 1e-5 * fabs(e));
  }
  free_run(g, m, arrs, narr, data);
}

/* trained_lstm.tflite: LSTM -> RESHAPE -> FULLY_CONNECTED -> SOFTMAX; the
 * last three are evaluated here in double precision. */
static void test_model_trained_lstm_float(void **state) {
  (void)state;
  litert_model *m;
  npy_array *arrs;
  int narr;
  void **data;
  ir_graph *g = run_lstm_model("models/tflm/trained_lstm.tflite", "goldens-tflm/tflm/trained_lstm.npz",
                               &m, &arrs, &narr, &data);
  if (!g) {
    skip();
    return;
  }
  const ir_op *fc = &g->ops[2];
  assert_int_equal(fc->builtin, OP_FULLY_CONNECTED);
  const float *h = data[g->ops[0].out[0]];
  const ir_tensor *w = &g->t[fc->in[1]];
  const float *wd = (const float *)w->data, *bd = (const float *)g->t[fc->in[2]].data;
  int nout = w->shape[0], nin = w->shape[1];
  double logits[16], mx = -1e30, sum = 0;
  assert_true(nout <= 16);
  for (int j = 0; j < nout; j++) {
    double a = bd[j];
    for (int k = 0; k < nin; k++) a += (double)wd[j * nin + k] * h[k];
    logits[j] = a;
    if (a > mx) mx = a;
  }
  for (int j = 0; j < nout; j++) sum += exp(logits[j] - mx);
  const npy_array *gold = npz_find(arrs, narr, "output_0");
  assert_non_null(gold);
  for (int j = 0; j < nout; j++) {
    double p = exp(logits[j] - mx) / sum, e = ((const float *)gold->data)[j];
    assert_true(fabs(p - e) <= 1e-5 + 1e-4 * fabs(e));
  }
  free_run(g, m, arrs, narr, data);
}

/* trained_lstm_int8.tflite: the int8 LSTM followed by RESHAPE, an int8
 * FULLY_CONNECTED (TFLite reference arithmetic, written here) and SOFTMAX
 * (double precision here, so the final comparison allows 1 LSB). */
static void test_model_trained_lstm_int8(void **state) {
  (void)state;
  litert_model *m;
  npy_array *arrs;
  int narr;
  void **data;
  ir_graph *g = run_lstm_model("models/tflm/trained_lstm_int8.tflite",
                               "goldens-tflm/tflm/trained_lstm_int8.npz", &m, &arrs, &narr, &data);
  if (!g) {
    skip();
    return;
  }
  const ir_op *fc = &g->ops[2], *sm = &g->ops[3];
  assert_int_equal(fc->builtin, OP_FULLY_CONNECTED);
  const ir_tensor *x = &g->t[fc->in[0]], *w = &g->t[fc->in[1]], *fo = &g->t[fc->out[0]];
  const ir_tensor *so = &g->t[sm->out[0]];
  const int8_t *h = data[g->ops[0].out[0]];
  const int8_t *wd = (const int8_t *)w->data;
  const int32_t *bd = (const int32_t *)g->t[fc->in[2]].data;
  int nout = w->shape[0], nin = w->shape[1];
  int32_t mult;
  int sh;
  float prod = x->scale[0] * w->scale[0]; /* TFLM: float product, double division */
  ref_quantize_multiplier((double)prod / (double)fo->scale[0], &mult, &sh);
  int q[16], qmax = -1000;
  assert_true(nout <= 16);
  for (int j = 0; j < nout; j++) {
    int64_t a = bd[j];
    for (int k = 0; k < nin; k++) a += (int64_t)wd[j * nin + k] * (h[k] - x->zero_point[0]);
    int64_t v = ref_mbqm(a, mult, sh) + fo->zero_point[0];
    q[j] = (int)(v < -128 ? -128 : v > 127 ? 127 : v);
    if (q[j] > qmax) qmax = q[j];
  }
  double sum = 0;
  for (int j = 0; j < nout; j++) sum += exp(fo->scale[0] * (q[j] - qmax));
  const npy_array *gold = npz_find(arrs, narr, "output_0");
  assert_non_null(gold);
  int worst = 0;
  for (int j = 0; j < nout; j++) {
    double p = exp(fo->scale[0] * (q[j] - qmax)) / sum;
    long v = lround(p / so->scale[0]) + so->zero_point[0];
    v = v < -128 ? -128 : v > 127 ? 127 : v;
    int diff = abs((int)v - ((const int8_t *)gold->data)[j]);
    if (diff > worst) worst = diff;
  }
  fprintf(stderr, "trained_lstm_int8: worst softmax difference %d LSB\n", worst);
  assert_true(worst <= 1);
  free_run(g, m, arrs, narr, data);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ref_activations_sane),  cmocka_unit_test(test_lstm_s8_batch_major),
      cmocka_unit_test(test_lstm_s8_time_major),    cmocka_unit_test(test_lstm_s8_cell_clip),
      cmocka_unit_test(test_lstm_s16),              cmocka_unit_test(test_lstm_f32_plain),
      cmocka_unit_test(test_lstm_f32_variants),     cmocka_unit_test(test_op_lstm_int8_eval),
      cmocka_unit_test(test_model_litert_lstm_float), cmocka_unit_test(test_model_trained_lstm_float),
      cmocka_unit_test(test_model_trained_lstm_int8),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
