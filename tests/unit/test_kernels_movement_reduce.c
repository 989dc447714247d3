/* test_kernels_movement_reduce.c - MEAN, SUM, REDUCE_MAX, REDUCE_MIN,
 * ARG_MAX, ARG_MIN op_impls and kernels: hand-computed cases, and random
 * cases against an independent reference written from the definition of
 * TFLM's QuantizedMeanOrSum (int32 sum, QuantizeMultiplier of
 * in_scale/out_scale, 1/N folded into the multiplier, gemmlowp
 * SaturatingRoundingDoublingHighMul + RoundingDivideByPOT). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ops/ops.h"
#include "aot_movement.h"

extern const op_impl op_mean, op_sum, op_reduce_max, op_reduce_min, op_arg_max, op_arg_min;

#define MAXT 8
typedef struct tg {
  ir_graph g;
  ir_tensor t[MAXT];
  float scales[MAXT][1];
  int32_t zps[MAXT][1];
  void *data[MAXT];
  ir_op op;
  int in[MAXT], out[MAXT];
} tg;

static tg *new_tg(int builtin) {
  tg *x = calloc(1, sizeof *x);
  x->g.t = x->t;
  x->g.ops = &x->op;
  x->g.nops = 1;
  x->op.builtin = builtin;
  x->op.in = x->in;
  x->op.out = x->out;
  return x;
}
static void free_tg(tg *x) {
  for (int i = 0; i < x->g.nt; i++) free(x->data[i]);
  free(x);
}
static int add_t(tg *x, int dtype, int rank, const int32_t *shape, const void *data) {
  int i = x->g.nt++;
  ir_tensor *t = &x->t[i];
  memset(t, 0, sizeof *t);
  t->name = (char *)"";
  t->dtype = dtype;
  t->rank = rank;
  size_t n = 1;
  for (int k = 0; k < rank; k++) {
    t->shape[k] = shape[k];
    n *= (size_t)shape[k];
  }
  t->alias = -1;
  t->io_index = -1;
  t->scale = x->scales[i];
  t->zero_point = x->zps[i];
  size_t bytes = n * dtype_size(dtype);
  x->data[i] = calloc(1, bytes ? bytes : 1);
  if (data) memcpy(x->data[i], data, bytes);
  return i;
}
static int add_axes(tg *x, int n, const int32_t *v) {
  int32_t s[1] = {n};
  int i = add_t(x, DT_INT32, 1, s, v);
  x->t[i].role = ROLE_CONST;
  x->t[i].data = x->data[i];
  x->t[i].data_bytes = (size_t)n * 4;
  return i;
}
static void quant1(tg *x, int t, float s, int32_t zp) {
  x->t[t].nq = 1;
  x->scales[t][0] = s;
  x->zps[t][0] = zp;
}
/* a one-input op: input a, constant axes, output o */
static tg *reduce_graph(int builtin, int dtype, int rank, const int32_t *shape, const void *data,
                        int naxes, const int32_t *axes, int odtype, int orank, const int32_t *oshape) {
  tg *x = new_tg(builtin);
  int a = add_t(x, dtype, rank, shape, data);
  int ax = add_axes(x, naxes, axes);
  int o = add_t(x, odtype, orank, oshape, NULL);
  x->in[0] = a;
  x->in[1] = ax;
  x->op.nin = 2;
  x->out[0] = o;
  x->op.nout = 1;
  return x;
}
static int run(tg *x, const op_impl *impl) {
  char why[256] = "";
  int c = impl->check(&x->g, &x->op, why, sizeof why);
  if (c != 0) print_error("check failed: %s\n", why);
  assert_int_equal(c, 0);
  return op_eval(impl, &x->g, &x->op, x->data, NULL);
}
static void run_ok(tg *x, const op_impl *impl) { assert_int_equal(run(x, impl), 0); }
static void expect_refused(tg *x, const op_impl *impl, const char *needle) {
  char why[256] = "";
  assert_int_not_equal(impl->check(&x->g, &x->op, why, sizeof why), 0);
  if (!strstr(why, needle)) print_error("reason '%s' lacks '%s'\n", why, needle);
  assert_non_null(strstr(why, needle));
}

#define S(...) ((const int32_t[]){__VA_ARGS__})
#define OUT(x) ((x)->data[(x)->out[0]])
#define CHECK(T, x, ...)                                                        \
  do {                                                                          \
    const T ex_[] = {__VA_ARGS__};                                              \
    assert_memory_equal(OUT(x), ex_, sizeof ex_);                               \
  } while (0)

/* ---------------- hand-computed cases ---------------- */

static void test_mean_int8_hand(void **state) {
  (void)state;
  /* sum 101 - 2*4 = 93; multiplier 0.5/0.25 = 2 -> (2^30, 2), folded with
   * 1/4 -> (2^30, 0): 93 * 2^30 / 2^31 = 46.5 -> 47; 47 - 3 = 44 */
  tg *x = reduce_graph(OP_MEAN, DT_INT8, 4, S(1, 2, 2, 1), (const int8_t[]){10, 20, 30, 41}, 2,
                       S(1, 2), DT_INT8, 4, S(1, 1, 1, 1));
  quant1(x, 0, 0.5f, 2);
  quant1(x, 2, 0.25f, -3);
  x->op.opts.keep_dims = 1;
  run_ok(x, &op_mean);
  CHECK(int8_t, x, 44);
  free_tg(x);

  /* N = 3: multiplier (2^30, 1) folded -> (2^31/3 truncated, 0);
   * sum 7 -> 2, sum -7 -> -2 */
  x = reduce_graph(OP_MEAN, DT_INT8, 2, S(2, 3), (const int8_t[]){1, 2, 4, -1, -2, -4}, 1, S(1),
                   DT_INT8, 1, S(2));
  quant1(x, 0, 1.0f, 0);
  quant1(x, 2, 1.0f, 0);
  run_ok(x, &op_mean);
  CHECK(int8_t, x, 2, -2);
  /* saturation: output scale 1/100 -> 700 clamps to 127, -700 to -128 */
  quant1(x, 2, 0.01f, 0);
  run_ok(x, &op_mean);
  CHECK(int8_t, x, 127, -128);
  free_tg(x);
}

static void test_mean_int16_float(void **state) {
  (void)state;
  tg *x = reduce_graph(OP_MEAN, DT_INT16, 3, S(1, 3, 1), (const int16_t[]){100, 200, 401}, 1,
                       S(-2), DT_INT16, 3, S(1, 1, 1));
  quant1(x, 0, 0.001f, 0);
  quant1(x, 2, 0.001f, 0);
  x->op.opts.keep_dims = 1;
  run_ok(x, &op_mean);
  CHECK(int16_t, x, 234); /* 701 * (2^31/3) / 2^31 = 233.67 -> 234 */
  free_tg(x);

  float v[8];
  for (int i = 0; i < 8; i++) v[i] = (float)i;
  x = reduce_graph(OP_MEAN, DT_FLOAT32, 3, S(2, 2, 2), v, 3, S(0, 2, -1), DT_FLOAT32, 1, S(2));
  run_ok(x, &op_mean);
  CHECK(float, x, 2.5f, 4.5f);
  free_tg(x);

  /* 4-D mean over H and W of a [1,2,2,2] tensor (the common pooling case) */
  x = reduce_graph(OP_MEAN, DT_FLOAT32, 4, S(1, 2, 2, 2), v, 2, S(1, 2), DT_FLOAT32, 4,
                   S(1, 1, 1, 2));
  x->op.opts.keep_dims = 1;
  run_ok(x, &op_mean);
  CHECK(float, x, 3.0f, 4.0f);
  free_tg(x);
}

static void test_sum(void **state) {
  (void)state;
  /* multiplier 0.5: 12 -> 6; 13 -> 6.5 -> 7; zero point 1 removed per element */
  tg *x = reduce_graph(OP_SUM, DT_INT8, 2, S(3, 3), (const int8_t[]){3, 4, 5, 3, 4, 6, 4, 5, 6},
                       1, S(1), DT_INT8, 2, S(3, 1));
  quant1(x, 0, 1.0f, 0);
  quant1(x, 2, 2.0f, 0);
  x->op.opts.keep_dims = 1;
  run_ok(x, &op_sum);
  CHECK(int8_t, x, 6, 7, 8);
  quant1(x, 0, 1.0f, 1);
  run_ok(x, &op_sum);
  CHECK(int8_t, x, 5, 5, 6); /* (12-3)/2=4.5->5, (13-3)/2=5, (15-3)/2=6 */
  free_tg(x);

  x = reduce_graph(OP_SUM, DT_FLOAT32, 2, S(2, 2), (const float[]){1, 2, 3, 4}, 1, S(0),
                   DT_FLOAT32, 1, S(2));
  run_ok(x, &op_sum);
  CHECK(float, x, 4, 6);
  free_tg(x);

  x = reduce_graph(OP_SUM, DT_INT32, 2, S(2, 2), (const int32_t[]){INT32_MAX, 1, -5, 7}, 2, S(0, 1),
                   DT_INT32, 0, NULL);
  run_ok(x, &op_sum);
  CHECK(int32_t, x, INT32_MIN + 2); /* wraps like the reference */
  free_tg(x);

  /* empty axes: the identity (requantized) */
  x = reduce_graph(OP_SUM, DT_INT16, 1, S(3), (const int16_t[]){1, -2, 3}, 0, NULL, DT_INT16, 1,
                   S(3));
  quant1(x, 0, 1.0f, 0);
  quant1(x, 2, 1.0f, 0);
  run_ok(x, &op_sum);
  CHECK(int16_t, x, 1, -2, 3);
  free_tg(x);
}

static void test_max_min(void **state) {
  (void)state;
  tg *x = reduce_graph(OP_REDUCE_MAX, DT_INT8, 2, S(2, 3), (const int8_t[]){1, -3, 3, 0, 2, -5}, 1,
                       S(1), DT_INT8, 1, S(2));
  quant1(x, 0, 0.5f, 1);
  quant1(x, 2, 0.5f, 1);
  run_ok(x, &op_reduce_max);
  CHECK(int8_t, x, 3, 2);
  free_tg(x);

  x = reduce_graph(OP_REDUCE_MIN, DT_INT8, 2, S(2, 3), (const int8_t[]){1, -3, 3, 0, 2, -5}, 1,
                   S(0), DT_INT8, 1, S(3));
  quant1(x, 0, 0.5f, 1);
  quant1(x, 2, 0.5f, 1);
  run_ok(x, &op_reduce_min);
  CHECK(int8_t, x, 0, -3, -5);
  quant1(x, 2, 0.25f, 1);
  expect_refused(x, &op_reduce_min, "quantization");
  free_tg(x);

  x = reduce_graph(OP_REDUCE_MAX, DT_FLOAT32, 2, S(2, 2), (const float[]){-1, -7, -3, -2}, 1,
                   S(1), DT_FLOAT32, 1, S(2));
  run_ok(x, &op_reduce_max);
  CHECK(float, x, -1, -2);
  free_tg(x);

  x = reduce_graph(OP_REDUCE_MIN, DT_INT16, 2, S(2, 2), (const int16_t[]){-1, -7, -3, 2}, 2,
                   S(1, 0), DT_INT16, 0, NULL);
  quant1(x, 0, 1.0f, 0);
  quant1(x, 2, 1.0f, 0);
  run_ok(x, &op_reduce_min);
  CHECK(int16_t, x, -7);
  free_tg(x);

  /* non-constant axes are refused */
  x = reduce_graph(OP_REDUCE_MIN, DT_FLOAT32, 1, S(2), NULL, 1, S(0), DT_FLOAT32, 0, NULL);
  x->t[1].role = ROLE_SCRATCH;
  x->t[1].data = NULL;
  expect_refused(x, &op_reduce_min, "constant");
  free_tg(x);
}

static void test_arg_minmax(void **state) {
  (void)state;
  tg *x = reduce_graph(OP_ARG_MAX, DT_FLOAT32, 2, S(2, 3), (const float[]){1, 3, 3, 5, 2, 5}, 1,
                       S(1), DT_INT32, 1, S(2));
  run_ok(x, &op_arg_max);
  CHECK(int32_t, x, 1, 0); /* ties: first index */
  free_tg(x);

  x = reduce_graph(OP_ARG_MIN, DT_INT8, 2, S(2, 3), (const int8_t[]){1, -3, 3, 0, 2, -5}, 1, S(0),
                   DT_INT64, 1, S(3));
  run_ok(x, &op_arg_min);
  CHECK(int64_t, x, 1, 0, 1);
  free_tg(x);

  x = reduce_graph(OP_ARG_MAX, DT_INT16, 3, S(1, 2, 2), (const int16_t[]){-9, 4, 7, 4}, 1, S(-2),
                   DT_INT32, 2, S(1, 2));
  run_ok(x, &op_arg_max);
  CHECK(int32_t, x, 1, 0);
  free_tg(x);

  x = reduce_graph(OP_ARG_MAX, DT_FLOAT32, 1, S(3), NULL, 1, S(0), DT_FLOAT32, 0, NULL);
  expect_refused(x, &op_arg_max, "output");
  free_tg(x);
}

/* ---------------- random cases vs an independent reference ---------------- */

static uint32_t rng = 987654321u;
static uint32_t rnd(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}
static int32_t rnd_range(int32_t lo, int32_t hi) { return lo + (int32_t)(rnd() % (uint32_t)(hi - lo + 1)); }

/* QuantizeMultiplier from its definition */
static void ref_qm(double r, int32_t *q, int *shift) {
  if (r == 0) {
    *q = 0;
    *shift = 0;
    return;
  }
  int e = 0;
  double m = r;
  while (m >= 1.0) { m /= 2; e++; }
  while (m < 0.5) { m *= 2; e--; }
  int64_t qq = (int64_t)llround(m * 2147483648.0);
  if (qq == 2147483648LL) { qq /= 2; e++; }
  if (e < -31) { e = 0; qq = 0; }
  *q = (int32_t)qq;
  *shift = e;
}
static int32_t ref_srdhm(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  int64_t ab = (int64_t)a * b;
  int64_t nudge = ab >= 0 ? (1LL << 30) : (1 - (1LL << 30));
  return (int32_t)((ab + nudge) / (1LL << 31));
}
static int32_t ref_rdbpot(int32_t x, int e) {
  if (e == 0) return x;
  double d = (double)x / (double)(1LL << e);
  return (int32_t)(d >= 0 ? floor(d + 0.5) : -floor(-d + 0.5));
}
static int32_t ref_mbqm(int32_t x, int32_t m, int shift) {
  int64_t xl = (int64_t)x * (1LL << (shift > 0 ? shift : 0));
  return ref_rdbpot(ref_srdhm((int32_t)xl, m), shift > 0 ? 0 : -shift);
}

static void random_quant_case(int dtype, int is_mean) {
  int rank = rnd_range(1, 4);
  int32_t shape[4];
  int n = 1;
  for (int d = 0; d < rank; d++) {
    shape[d] = rnd_range(1, 5);
    n *= shape[d];
  }
  int32_t axes[4];
  int na = 0, red[4] = {0};
  for (int d = 0; d < rank; d++)
    if (rnd() % 2) {
      axes[na++] = rnd() % 2 ? d : d - rank;
      red[d] = 1;
    }
  int qmin = dtype == DT_INT8 ? -128 : -32768, qmax = dtype == DT_INT8 ? 127 : 32767;
  int16_t *in = malloc((size_t)n * 2);
  int8_t *in8 = malloc((size_t)n);
  for (int i = 0; i < n; i++) {
    in[i] = (int16_t)rnd_range(qmin, qmax);
    in8[i] = (int8_t)in[i];
  }
  int32_t oshape[4];
  int nout = 1;
  for (int d = 0; d < rank; d++) {
    oshape[d] = red[d] ? 1 : shape[d];
    nout *= oshape[d];
  }
  tg *x = reduce_graph(is_mean ? OP_MEAN : OP_SUM, dtype, rank, shape,
                       dtype == DT_INT8 ? (const void *)in8 : (const void *)in, na, axes, dtype, rank,
                       oshape);
  x->op.opts.keep_dims = 1;
  float is = (float)rnd_range(1, 1000) / 997.0f, os = (float)rnd_range(1, 1000) / 211.0f;
  int32_t izp = dtype == DT_INT8 ? rnd_range(-20, 20) : 0, ozp = dtype == DT_INT8 ? rnd_range(-20, 20) : 0;
  quant1(x, 0, is, izp);
  quant1(x, 2, os, ozp);
  run_ok(x, is_mean ? &op_mean : &op_sum);
  /* reference */
  int32_t q;
  int shift;
  ref_qm((double)is / (double)os, &q, &shift);
  int64_t num = 1;
  for (int d = 0; d < rank; d++)
    if (red[d]) num *= shape[d];
  if (is_mean) {
    int s = 0;
    while ((num >> (s + 1)) != 0) s++;
    if (s > 32) s = 32;
    if (s > 31 + shift) s = 31 + shift;
    q = (int32_t)(((int64_t)q << s) / num);
    shift -= s;
  }
  int32_t ostr[4], istr[4];
  ostr[rank - 1] = istr[rank - 1] = 1;
  for (int d = rank - 2; d >= 0; d--) {
    ostr[d] = ostr[d + 1] * oshape[d + 1];
    istr[d] = istr[d + 1] * shape[d + 1];
  }
  int64_t *sums = calloc((size_t)nout, sizeof(int64_t));
  for (int i = 0; i < n; i++) {
    int oi = 0;
    for (int d = 0; d < rank; d++) {
      int c = (i / istr[d]) % shape[d];
      if (!red[d]) oi += c * ostr[d];
    }
    sums[oi] += in[i];
  }
  for (int o = 0; o < nout; o++) {
    int32_t v = ref_mbqm((int32_t)(sums[o] - (int64_t)izp * num), q, shift) + ozp;
    v = v < qmin ? qmin : (v > qmax ? qmax : v);
    int32_t got = dtype == DT_INT8 ? ((int8_t *)OUT(x))[o] : ((int16_t *)OUT(x))[o];
    if (got != v) print_error("rank %d n %d out %d: got %d want %d\n", rank, n, o, got, v);
    assert_int_equal(got, v);
  }
  free(sums);
  free(in);
  free(in8);
  free_tg(x);
}

static void test_random_quantized(void **state) {
  (void)state;
  for (int i = 0; i < 200; i++) {
    random_quant_case(DT_INT8, 1);
    random_quant_case(DT_INT16, 1);
    random_quant_case(DT_INT8, 0);
    random_quant_case(DT_INT16, 0);
  }
}

/* float: per output, elements added in increasing input order (exact) */
static void test_random_float(void **state) {
  (void)state;
  for (int it = 0; it < 100; it++) {
    int rank = rnd_range(1, 5);
    int32_t shape[5], oshape[5], axes[5];
    int n = 1, na = 0, red[5] = {0};
    for (int d = 0; d < rank; d++) {
      shape[d] = rnd_range(1, 4);
      n *= shape[d];
      if (rnd() % 2) {
        axes[na++] = d;
        red[d] = 1;
      }
    }
    int nout = 1;
    for (int d = 0; d < rank; d++) {
      oshape[d] = red[d] ? 1 : shape[d];
      nout *= oshape[d];
    }
    float *v = malloc((size_t)n * sizeof(float));
    for (int i = 0; i < n; i++) v[i] = (float)rnd_range(-100000, 100000) / 7.0f;
    int op = it % 4;
    const op_impl *impls[4] = {&op_sum, &op_mean, &op_reduce_max, &op_reduce_min};
    int codes[4] = {OP_SUM, OP_MEAN, OP_REDUCE_MAX, OP_REDUCE_MIN};
    tg *x = reduce_graph(codes[op], DT_FLOAT32, rank, shape, v, na, axes, DT_FLOAT32, rank, oshape);
    run_ok(x, impls[op]);
    float *ref = malloc((size_t)nout * sizeof(float));
    int *first = calloc((size_t)nout, sizeof(int));
    int64_t num = 1;
    for (int d = 0; d < rank; d++)
      if (red[d]) num *= shape[d];
    for (int i = 0; i < n; i++) {
      int oi = 0, rem = i, mul = 1;
      int idx[5];
      for (int d = rank - 1; d >= 0; d--) {
        idx[d] = rem % shape[d];
        rem /= shape[d];
      }
      for (int d = rank - 1; d >= 0; d--) {
        if (!red[d]) oi += idx[d] * mul;
        mul *= oshape[d];
      }
      if (!first[oi]) {
        ref[oi] = op < 2 ? 0.0f + v[i] : v[i];
        first[oi] = 1;
      } else if (op < 2) {
        ref[oi] = ref[oi] + v[i];
      } else if (op == 2) {
        ref[oi] = v[i] > ref[oi] ? v[i] : ref[oi];
      } else {
        ref[oi] = v[i] < ref[oi] ? v[i] : ref[oi];
      }
    }
    if (op == 1)
      for (int o = 0; o < nout; o++) ref[o] = ref[o] / (float)num;
    assert_memory_equal(OUT(x), ref, (size_t)nout * sizeof(float));
    free(ref);
    free(first);
    free(v);
    free_tg(x);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mean_int8_hand),  cmocka_unit_test(test_mean_int16_float),
      cmocka_unit_test(test_sum),             cmocka_unit_test(test_max_min),
      cmocka_unit_test(test_arg_minmax),      cmocka_unit_test(test_random_quantized),
      cmocka_unit_test(test_random_float),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
