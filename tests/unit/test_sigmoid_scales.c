/* test_sigmoid_scales.c - int8 and int16 LOGISTIC / TANH at every input scale
 * (issue 10), through hand-built IR graphs (ops_find -> check -> eval: aotc's
 * Prepare-time plan and its portable kernels), compared bit for bit with a
 * separate re-implementation of TFLM's reference arithmetic written in this
 * file from TFLM's sources (logistic_common.cc, tanh.cc,
 * quantization_util.cc CalculateInputRadius, common.cc
 * MultiplyByQuantizedMultiplier with double rounding, gemmlowp fixedpoint.h,
 * reference/integer_ops/logistic.h and tanh.h). Nothing here calls aotc's
 * fixed-point helpers.
 *
 * Input scales: log-spaced over 1e-6 .. 1e5 plus the boundaries where TFLM's
 * arithmetic changes form (int8 radius reaching 0 at scale 8; int16
 * power-of-two scales, the 15-bit multiplier limit at 32767/12288, the int32
 * wrap of in * multiplier above 65536/12288). Every input value, random input
 * zero points (int8). A few hand-computed anchors pin the reference itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_kernels_elementwise_util.h"

/* ---- gemmlowp / TFLite fixed point, re-implemented --------------------------- */

static int32_t r_srdhm(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  const int64_t ab = (int64_t)a * b;
  const int64_t nudge = ab >= 0 ? ((int64_t)1 << 30) : 1 - ((int64_t)1 << 30);
  return (int32_t)((ab + nudge) / ((int64_t)1 << 31));
}

static int32_t r_rdbpot(int32_t x, int e) {
  const int64_t mask = ((int64_t)1 << e) - 1;
  const int64_t rem = (int64_t)x & mask;
  const int64_t thr = (mask >> 1) + (x < 0 ? 1 : 0);
  const int64_t q = (int64_t)x >= 0 ? ((int64_t)x >> e) : -((-(int64_t)x + mask) >> e);
  return (int32_t)(q + (rem > thr ? 1 : 0));
}

/* SaturatingRoundingMultiplyByPOT<e> */
static int32_t r_srmpot(int32_t x, int e) {
  if (e == 0) return x;
  if (e < 0) return r_rdbpot(x, -e);
  const int64_t v = (int64_t)x * ((int64_t)1 << e);
  return v > INT32_MAX ? INT32_MAX : (v < INT32_MIN ? INT32_MIN : (int32_t)v);
}

static int32_t r_mbqm(int32_t x, int32_t qm, int shift) {
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  const int64_t xs = (int64_t)x * ((int64_t)1 << left);
  assert_true(xs >= INT32_MIN && xs <= INT32_MAX); /* TFLM: no overflow inside the radius */
  return r_rdbpot(r_srdhm((int32_t)xs, qm), right);
}

/* exp_on_interval_between_negative_one_quarter_and_0_excl, Q0.31 */
static int32_t r_exp_quarter(int32_t a) {
  const int32_t c = 1895147668, third = 715827883;
  const int32_t x = a + (1 << 28);
  const int32_t x2 = r_srdhm(x, x), x3 = r_srdhm(x2, x), x4 = r_srdhm(x2, x2);
  const int32_t x4q = r_srmpot(x4, -2);
  const int32_t poly = r_srmpot(r_srdhm(x4q + x3, third) + x2, -1);
  return c + r_srdhm(c, x + poly);
}

/* exp_on_negative_values for FixedPoint<int32, ib>, result Q0.31 */
static int32_t r_exp_neg(int32_t a, int ib) {
  static const int32_t mul[7] = {1672461947, 1302514674, 790015084, 290630308,
                                 39332535,   720401,     242};
  const int fb = 31 - ib;
  const int32_t quarter = (int32_t)1 << (fb - 2);
  const int32_t amq = (a & (quarter - 1)) - quarter;
  int32_t res = r_exp_quarter(r_srmpot(amq, ib)); /* Rescale<0> */
  const int32_t rem = amq - a;
  for (int ex = -2; ex <= 4; ex++)
    if (ib > ex && (rem & ((int32_t)1 << (fb + ex)))) res = r_srdhm(res, mul[ex + 2]);
  if (ib > 5 && a < -((int32_t)1 << (36 - ib))) res = 0;
  if (a == 0) res = INT32_MAX;
  return res;
}

static int32_t r_half_sum(int32_t a, int32_t b) {
  const int64_t s = (int64_t)a + b;
  return (int32_t)((s + (s >= 0 ? 1 : -1)) / 2);
}

/* Newton-Raphson for 1/(1+a), a in [0,1): x in Q2.29 after 3 iterations */
static int32_t r_newton(int32_t a, int32_t *half_den) {
  *half_den = r_half_sum(a, INT32_MAX);
  int32_t x = 1515870810 + r_srdhm(*half_den, -1010580540);
  for (int i = 0; i < 3; i++) {
    const int32_t om = (1 << 29) - r_srdhm(*half_den, x);
    x = x + r_srmpot(r_srdhm(x, om), 2);
  }
  return x;
}
static int32_t r_one_over_one_plus(int32_t a) {
  int32_t hd;
  return r_srmpot(r_newton(a, &hd), 1);
}
static int32_t r_one_minus_over_one_plus(int32_t a) {
  int32_t hd;
  return r_srmpot(r_newton(a, &hd) - (1 << 29), 2);
}

static int32_t r_logistic_q(int32_t a, int ib) {
  if (a == 0) return 1 << 30;
  const int32_t absa = a > 0 ? a : -a;
  const int32_t pos = r_one_over_one_plus(r_exp_neg(-absa, ib));
  return a > 0 ? pos : INT32_MAX - pos;
}

static int32_t r_tanh_q(int32_t a, int ib) {
  if (a == 0) return 0;
  const int32_t neg = a < 0 ? a : -a;
  const int32_t t = r_one_minus_over_one_plus(r_exp_neg(neg, ib + 1));
  return a < 0 ? -t : t;
}

/* ---- TFLM int8 Prepare + kernels ------------------------------------------- */

typedef struct { int32_t mult, shift, radius; } s8p;

static s8p r_prep8(float scale) {
  s8p p;
  int sh;
  const double q = frexp((double)scale * (double)(1 << 27), &sh);
  const double qm = rnd(q * 2147483648.0);
  p.mult = qm > 2147483647.0 ? INT32_MAX : (int32_t)qm; /* Arm's saturating conversion */
  p.shift = sh;
  assert_true(sh >= 0);
  if (sh > 62) {
    p.radius = 0; /* TFLM's 1LL << sh is undefined; the formula's value */
  } else {
    const double r = 15.0 * (double)(1LL << 27) / (double)(1LL << sh);
    p.radius = (int32_t)floor(r);
  }
  return p;
}

static int8_t r_sig8(int is_tanh, const s8p *p, int32_t zp, int8_t v) {
  const int32_t in = (int32_t)v - zp;
  if (in <= -p->radius) return -128;
  if (in >= p->radius) return 127;
  const int32_t q4 = r_mbqm(in, p->mult, p->shift);
  int32_t o;
  if (is_tanh) {
    o = r_rdbpot(r_tanh_q(q4, 4), 24);
  } else {
    o = r_rdbpot(r_logistic_q(q4, 4), 23) - 128;
  }
  return (int8_t)(o < -128 ? -128 : (o > 127 ? 127 : o));
}

/* ---- TFLM int16 Prepare + kernels ------------------------------------------ */

static const uint16_t tflm_sigmoid_u16[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149,
    40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369,
    47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169,
    53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
    57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370,
    60565, 60753, 60935, 61110, 61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302,
    62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186, 63279, 63368, 63454, 63536,
    63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
    64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786,
    64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079,
    65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
    65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
    65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
    65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474,
    65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498,
    65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
    65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522,
    65523, 65523, 65524, 65524, 65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528,
    65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531,
    65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
    65534, 65534, 65534, 65535,
};

typedef struct { int32_t mult, shift; int ok; } s16p;

static s16p r_prep16(int is_tanh, float scale) {
  s16p p = {0, 0, 1};
  const float l2 = logf(scale) * (1.0f / logf(2.0f));
  const float l2r = (float)rnd((double)l2);
  int pot = fabsf(l2 - l2r) < 1e-3f;
  p.shift = 12 + (int)l2r;
  pot = pot && (p.shift == 0 || (is_tanh && p.shift == 1));
  if (pot) {
    p.mult = 0;
    return p;
  }
  double m = (double)scale * 4096.0 * 3.0;
  p.shift = 0;
  while (m <= 32767.0 / 2.0 && p.shift <= 30) {
    p.shift++;
    m *= 2.0;
  }
  if (m >= 2147483648.0) p.ok = 0; /* static_cast<int32_t> undefined */
  else p.mult = (int32_t)m;
  if (p.ok && p.mult == 0) p.ok = 0; /* would take the POT path with 3 << 31 */
  return p;
}

/* The int32 expression of TFLM's kernel, evaluated with the two's complement
 * wrap a 32-bit MUL/ADD gives, then an arithmetic shift. */
static int32_t r_scale16(const s16p *p, int16_t v) {
  uint32_t mult = (uint32_t)p->mult, shift = (uint32_t)p->shift;
  if (p->mult == 0) {
    mult = 3u << shift;
    shift = 0;
  }
  const uint32_t round = shift > 0 ? 1u << (shift - 1) : 0u;
  const uint32_t w = (uint32_t)(int32_t)v * mult + round;
  const int64_t sw = w >= 0x80000000u ? (int64_t)w - 4294967296LL : (int64_t)w;
  return (int32_t)(sw >= 0 ? sw >> shift : -((-sw + ((1LL << shift) - 1)) >> shift));
}

static int16_t r_sig16(int is_tanh, const s16p *p, int16_t v) {
  const int32_t x = r_scale16(p, v);
  const uint32_t ax = x == INT32_MIN ? 0x80000000u : (uint32_t)(x < 0 ? -x : x);
  if (!is_tanh) {
    const uint32_t uh = ax >> 9;
    uint32_t r;
    if (uh >= 255) r = 0x7FFFu << 10;
    else r = ((uint32_t)tflm_sigmoid_u16[uh] << 9) +
             (ax & 0x1FFu) * ((uint32_t)tflm_sigmoid_u16[uh + 1] - tflm_sigmoid_u16[uh]);
    r = x >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1u;
    return (int16_t)(r >> 10);
  }
  const uint32_t uh = ax >> 8;
  int32_t r;
  if (uh >= 255) r = 0xFFFF << 8;
  else r = (int32_t)(((uint32_t)tflm_sigmoid_u16[uh] << 8) +
                     (ax & 0xFFu) * ((uint32_t)tflm_sigmoid_u16[uh + 1] - tflm_sigmoid_u16[uh]));
  r = x >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
  return (int16_t)(r >= 0 ? r >> 8 : -((-r + 255) >> 8));
}

/* ---- driving aotc ---------------------------------------------------------- */

static char why[512];
static long n_cases, n_values;

static uint32_t rng = 12345u;
static uint32_t next_rand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

/* Runs aotc on all 256 int8 inputs; 0 ok, -1 refused. */
static int run8(int is_tanh, float scale, int32_t zp, int8_t *got) {
  tg t;
  tg_init(&t);
  const int32_t s[] = {256};
  int x = tg_tensor(&t, DT_INT8, 1, s, scale, zp);
  int y = tg_tensor(&t, DT_INT8, 1, s, is_tanh ? 1.0f / 128.0f : 1.0f / 256.0f,
                    is_tanh ? 0 : -128);
  for (int i = 0; i < 256; i++) ((int8_t *)t.data[x])[i] = (int8_t)(i - 128);
  tg_op(&t, is_tanh ? OP_TANH : OP_LOGISTIC, 1, (int[]){x}, y);
  int rc = tg_run(&t, why, sizeof why);
  if (rc == 0) memcpy(got, t.data[y], 256);
  tg_free(&t);
  return rc;
}

static int run16(int is_tanh, float scale, int16_t *got) {
  tg t;
  tg_init(&t);
  const int32_t s[] = {65536};
  int x = tg_tensor(&t, DT_INT16, 1, s, scale, 0);
  int y = tg_tensor(&t, DT_INT16, 1, s, 1.0f / 32768.0f, 0);
  for (int i = 0; i < 65536; i++) ((int16_t *)t.data[x])[i] = (int16_t)(i - 32768);
  tg_op(&t, is_tanh ? OP_TANH : OP_LOGISTIC, 1, (int[]){x}, y);
  int rc = tg_run(&t, why, sizeof why);
  if (rc == 0) memcpy(got, t.data[y], 65536 * sizeof(int16_t));
  tg_free(&t);
  return rc;
}

static void check8(int is_tanh, float scale, int32_t zp) {
  int8_t got[256];
  const int rc = run8(is_tanh, scale, zp, got);
  if (rc != 0) print_error("int8 %s scale %g zp %d refused: %s\n", is_tanh ? "TANH" : "LOGISTIC",
                           (double)scale, zp, why);
  assert_int_equal(rc, 0);
  const s8p p = r_prep8(scale);
  for (int i = 0; i < 256; i++) {
    const int8_t want = r_sig8(is_tanh, &p, zp, (int8_t)(i - 128));
    if (got[i] != want)
      print_error("int8 %s scale %.9g zp %d in %d: got %d want %d\n",
                  is_tanh ? "TANH" : "LOGISTIC", (double)scale, zp, i - 128, got[i], want);
    assert_int_equal(got[i], want);
  }
  n_cases++;
  n_values += 256;
}

static void check16(int is_tanh, float scale) {
  static int16_t got[65536];
  const s16p p = r_prep16(is_tanh, scale);
  const int rc = run16(is_tanh, scale, got);
  if ((rc == 0) != p.ok)
    print_error("int16 %s scale %g: aotc rc %d (%s), reference ok %d\n",
                is_tanh ? "TANH" : "LOGISTIC", (double)scale, rc, why, p.ok);
  assert_int_equal(rc == 0, p.ok);
  if (!p.ok) return;
  for (int i = 0; i < 65536; i++) {
    const int16_t want = r_sig16(is_tanh, &p, (int16_t)(i - 32768));
    if (got[i] != want)
      print_error("int16 %s scale %.9g in %d: got %d want %d\n", is_tanh ? "TANH" : "LOGISTIC",
                  (double)scale, i - 32768, got[i], want);
    assert_int_equal(got[i], want);
  }
  n_cases++;
  n_values += 65536;
}

/* ---- anchors: the reference itself, by hand ------------------------------- */

static void test_reference_anchors(void **s) {
  (void)s;
  /* TFLM's table is sigmoid(i / 24) in 0.16 within 1.2 LSB (a typo would be off by far more) */
  for (int i = 0; i < 256; i++) {
    const double v = 65536.0 / (1.0 + exp(-i / 24.0));
    assert_true(fabs((double)tflm_sigmoid_u16[i] - (v > 65535 ? 65535 : v)) <= 1.2);
  }
  /* int8 logistic 1/16: sigmoid(0) = 0.5 -> 128 - 128 = 0; sigmoid(2) = 0.8808 -> 97 */
  s8p p = r_prep8(1.0f / 16.0f);
  assert_int_equal(p.shift, 24); /* 2^-4 * 2^27 = 2^23 = 0.5 * 2^24 */
  assert_int_equal(p.mult, 1 << 30);
  assert_int_equal(p.radius, 15 * 8);
  assert_int_equal(r_sig8(0, &p, 0, 0), 0);
  assert_int_equal(r_sig8(0, &p, 0, 32), 97);
  assert_int_equal(r_sig8(1, &p, 0, 16), 97); /* tanh(1) = 0.7616 -> 97.5 -> 97 (RDBPOT) */
  /* scale 8: frexp(2^30) = 0.5 * 2^31, radius floor(15 * 2^27 / 2^31) = 0 */
  p = r_prep8(8.0f);
  assert_int_equal(p.shift, 31);
  assert_int_equal(p.radius, 0);
  /* radius 0: the zero point (and below) gives -128, above gives 127 */
  assert_int_equal(r_sig8(0, &p, 5, 5), -128);
  assert_int_equal(r_sig8(0, &p, 5, 4), -128);
  assert_int_equal(r_sig8(0, &p, 5, 6), 127);
  assert_int_equal(r_sig8(1, &p, 0, 0), -128);
  /* scale 7.99: shift 30, radius 1: only the zero point is computed (0.5, 0) */
  p = r_prep8(7.99f);
  assert_int_equal(p.radius, 1);
  assert_int_equal(r_sig8(0, &p, -3, -3), 0);
  assert_int_equal(r_sig8(1, &p, -3, -3), 0);
  /* int16 logistic 2^-12 (POT, multiplier 3): 0 -> 16384 (0.5 in Q0.15) */
  s16p q = r_prep16(0, 1.0f / 4096.0f);
  assert_int_equal(q.mult, 0);
  assert_int_equal(q.shift, 0);
  assert_int_equal(r_sig16(0, &q, 0), 16384);
  /* int16 logistic scale 10: multiplier 122880, shift 0; 17476 * 122880 =
   * 2147450880 fits int32 (saturates to 32767), 17477 * 122880 = 2147573760
   * wraps negative in TFLM's int32 product and gives 1. */
  q = r_prep16(0, 10.0f);
  assert_int_equal(q.mult, 122880);
  assert_int_equal(q.shift, 0);
  assert_int_equal(r_sig16(0, &q, 17476), 32767);
  assert_int_equal(r_sig16(0, &q, 17477), 1);
  /* int16 scale 0.001: 12.288 doubled 11 times = 25165.824 -> 25165, shift 11 */
  q = r_prep16(1, 0.001f);
  assert_int_equal(q.shift, 11);
  assert_int_equal(q.mult, 25165);
  assert_int_equal(r_sig16(1, &q, 0), 0);
  /* and aotc agrees on the wrap anchor */
  static int16_t got[65536];
  assert_int_equal(run16(0, 10.0f, got), 0);
  assert_int_equal(got[17476 + 32768], 32767);
  assert_int_equal(got[17477 + 32768], 1);
  int8_t g8[256];
  assert_int_equal(run8(0, 1000.0f, 7, g8), 0);
  assert_int_equal(g8[7 + 128], -128);
  assert_int_equal(g8[8 + 128], 127);
}

/* ---- sweeps --------------------------------------------------------------- */

#define N8 600
#define N16 160

static void test_int8_sweep(void **s) {
  (void)s;
  for (int k = 0; k <= N8; k++) {
    const float scale = (float)pow(10.0, -6.0 + 11.0 * k / N8);
    for (int is_tanh = 0; is_tanh < 2; is_tanh++) {
      check8(is_tanh, scale, (int32_t)(next_rand() % 256) - 128);
      check8(is_tanh, scale, 0);
    }
  }
  const float edges[] = {8.0f,   nextafterf(8.0f, 0.0f), 7.5f,    4.0f,   1e6f,
                         1e10f,  3.4e10f,                1e20f,   3e38f,  3.8e-9f,
                         1.0f / 16.0f, 1.0f / 256.0f};
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
    for (int is_tanh = 0; is_tanh < 2; is_tanh++)
      for (int z = -128; z <= 127; z += 51) check8(is_tanh, edges[i], z);
  print_message("  int8: %ld cases, %ld values\n", n_cases, n_values);
}

static void test_int8_refusals(void **s) {
  (void)s;
  int8_t got[256];
  /* below 2^-28 TFLM's radius is undefined */
  assert_int_equal(run8(0, 1e-9f, 0, got), -1);
  assert_non_null(strstr(why, "2^-28"));
  assert_int_equal(run8(1, 3e-9f, 0, got), -1);
  /* zero points outside int8 */
  assert_int_equal(run8(0, 0.1f, 128, got), -1);
  assert_int_equal(run8(1, 0.1f, INT32_MIN, got), -1);
  assert_non_null(strstr(why, "zero point"));
}

static void test_int16_sweep(void **s) {
  (void)s;
  n_cases = n_values = 0;
  for (int k = 0; k <= N16; k++) {
    const float scale = (float)pow(10.0, -6.0 + 11.0 * k / N16);
    for (int is_tanh = 0; is_tanh < 2; is_tanh++) check16(is_tanh, scale);
  }
  const float edges[] = {1.0f / 4096.0f, 1.0f / 2048.0f, 1.0f / 8192.0f, 32767.0f / 12288.0f,
                         2.6667f,        2.67f,          65536.0f / 12288.0f, 5.3334f,
                         5.34f,          100.0f,         174762.0f,      3.9e-14f,
                         1e-10f};
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
    for (int is_tanh = 0; is_tanh < 2; is_tanh++) check16(is_tanh, edges[i]);
  print_message("  int16: %ld cases, %ld values\n", n_cases, n_values);
}

static void test_int16_refusals(void **s) {
  (void)s;
  static int16_t got[65536];
  assert_int_equal(run16(0, 2e5f, got), -1);
  assert_non_null(strstr(why, "int32"));
  assert_int_equal(run16(1, 1e30f, got), -1);
  assert_int_equal(run16(1, 1e-15f, got), -1);
  assert_non_null(strstr(why, "too small"));
  /* the reference agrees that these are undefined in TFLM */
  assert_false(r_prep16(0, 2e5f).ok);
  assert_false(r_prep16(1, 1e-15f).ok);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reference_anchors), cmocka_unit_test(test_int8_sweep),
      cmocka_unit_test(test_int8_refusals),     cmocka_unit_test(test_int16_sweep),
      cmocka_unit_test(test_int16_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
