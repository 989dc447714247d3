/* test_kernels_elementwise.c - broadcast planning, arithmetic, comparisons,
 * logical ops, SELECT_V2, unary float math, QUANTIZE and DEQUANTIZE.
 *
 * Expected values are hand-computed (cases chosen so the fixed-point
 * arithmetic is exact, e.g. equal scales) or come from the real-valued
 * formula in double precision with round-half-away-from-zero, allowing 1 LSB
 * only where the reference's two-step rounding can differ. Every op runs
 * through a tiny hand-built IR graph (ops_find -> check -> eval), which also
 * exercises the compile-time parameter computation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "aot_elementwise.h"
#include "ops/quant_elementwise.h"
#include "test_kernels_elementwise_util.h"

static char why[256];

#define RUN_OK(t)                                             \
  do {                                                        \
    int rc_ = tg_run((t), why, sizeof why);                   \
    if (rc_ != 0) print_error("run failed %d: %s\n", rc_, why); \
    assert_int_equal(rc_, 0);                                 \
  } while (0)

/* ---- broadcast planning ---------------------------------------------------- */

static ir_tensor mk(int rank, const int32_t *shape) {
  ir_tensor t;
  memset(&t, 0, sizeof t);
  t.rank = rank;
  for (int i = 0; i < rank; i++) t.shape[i] = shape[i];
  return t;
}

static void test_bcast_plan(void **s) {
  (void)s;
  aot_bcast b;
  {
    const int32_t so[] = {2, 3, 4}, s2[] = {4};
    ir_tensor o = mk(3, so), a = mk(3, so), c = mk(1, s2);
    const ir_tensor *in[] = {&a, &c};
    assert_int_equal(ew_bcast_plan(&o, in, 2, &b, why, sizeof why), 0);
    assert_int_equal(b.size, 24);
    assert_int_equal(b.ndims, 2);
    assert_int_equal(b.shape[0], 6);
    assert_int_equal(b.shape[1], 4);
    assert_int_equal(b.stride[0][0], 4);
    assert_int_equal(b.stride[0][1], 1);
    assert_int_equal(b.stride[1][0], 0);
    assert_int_equal(b.stride[1][1], 1);
  }
  {
    const int32_t so[] = {2, 3};
    ir_tensor o = mk(2, so), a = mk(2, so), c = mk(2, so);
    const ir_tensor *in[] = {&a, &c};
    assert_int_equal(ew_bcast_plan(&o, in, 2, &b, why, sizeof why), 0);
    assert_int_equal(b.ndims, 0);
    assert_int_equal(b.size, 6);
  }
  {
    const int32_t so[] = {2, 3, 4}, s1[] = {2, 1, 4}, s2[] = {1, 3, 1};
    ir_tensor o = mk(3, so), a = mk(3, s1), c = mk(3, s2);
    const ir_tensor *in[] = {&a, &c};
    assert_int_equal(ew_bcast_plan(&o, in, 2, &b, why, sizeof why), 0);
    assert_int_equal(b.ndims, 3);
    assert_int_equal(b.stride[0][0], 4);
    assert_int_equal(b.stride[0][1], 0);
    assert_int_equal(b.stride[0][2], 1);
    assert_int_equal(b.stride[1][0], 0);
    assert_int_equal(b.stride[1][1], 1);
    assert_int_equal(b.stride[1][2], 0);
  }
  {
    const int32_t so[] = {5};
    ir_tensor o = mk(1, so), a = mk(1, so), c = mk(0, so);
    const ir_tensor *in[] = {&a, &c};
    assert_int_equal(ew_bcast_plan(&o, in, 2, &b, why, sizeof why), 0);
    assert_int_equal(b.ndims, 1);
    assert_int_equal(b.shape[0], 5);
    assert_int_equal(b.stride[0][0], 1);
    assert_int_equal(b.stride[1][0], 0);
  }
  {
    const int32_t s1[] = {3}, s2[] = {4};
    ir_tensor o = mk(1, s2), a = mk(1, s1), c = mk(1, s2);
    const ir_tensor *in[] = {&a, &c};
    assert_int_equal(ew_bcast_plan(&o, in, 2, &b, why, sizeof why), -1);
  }
  {
    const int32_t so[] = {2, 2, 2, 2, 2, 2, 2}, s1[] = {2, 1, 2, 1, 2, 1, 2},
                  s2[] = {1, 2, 1, 2, 1, 2, 1};
    ir_tensor o = mk(7, so), a = mk(7, s1), c = mk(7, s2);
    const ir_tensor *in[] = {&a, &c};
    assert_int_equal(ew_bcast_plan(&o, in, 2, &b, why, sizeof why), -1);
  }
}

/* The bcast iterator walks rows in order: direct kernel call with a 3-D
 * broadcast (out[i][j][k] = a[i][0][k] + b[0][j][0]). */
static void test_bcast_kernel_direct(void **s) {
  (void)s;
  aot_arith_f32_params p;
  memset(&p, 0, sizeof p);
  p.act_min = -INFINITY;
  p.act_max = INFINITY;
  p.bc.size = 24;
  p.bc.ndims = 3;
  p.bc.shape[0] = 2, p.bc.shape[1] = 3, p.bc.shape[2] = 4;
  p.bc.stride[0][0] = 4, p.bc.stride[0][1] = 0, p.bc.stride[0][2] = 1;
  p.bc.stride[1][0] = 0, p.bc.stride[1][1] = 1, p.bc.stride[1][2] = 0;
  float a[8], b[3], y[24];
  for (int i = 0; i < 8; i++) a[i] = (float)i;
  for (int j = 0; j < 3; j++) b[j] = 100.0f * (float)(j + 1);
  assert_int_equal(aot_add_f32(&p, a, b, y), 0);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 4; k++)
        assert_true(y[(i * 3 + j) * 4 + k] == a[i * 4 + k] + b[j]);
}

/* ---- ADD / SUB ---------------------------------------------------------- */

static void test_add_f32(void **s) {
  (void)s;
  tg t;
  tg_init(&t);
  const int32_t s23[] = {2, 3}, s3[] = {3};
  int a = tg_tensor(&t, DT_FLOAT32, 2, s23, 0, 0);
  int b = tg_tensor(&t, DT_FLOAT32, 1, s3, 0, 0);
  int y = tg_tensor(&t, DT_FLOAT32, 2, s23, 0, 0);
  const float av[] = {-20.0f, -1.0f, 0.5f, 1.0f, 2.0f, 30.0f}, bv[] = {0.25f, 0.5f, -0.5f};
  memcpy(t.data[a], av, sizeof av);
  memcpy(t.data[b], bv, sizeof bv);
  ir_op *op = tg_op(&t, OP_ADD, 2, (int[]){a, b}, y);
  op->opts.fused_act = ACT_RELU6;
  RUN_OK(&t);
  const float want[] = {0.0f, 0.0f, 0.0f, 1.25f, 2.5f, 6.0f};
  for (int i = 0; i < 6; i++) assert_true(((float *)t.data[y])[i] == want[i]);
  op->opts.fused_act = ACT_NONE;
  op->builtin = OP_SUB;
  RUN_OK(&t);
  const float want2[] = {-20.25f, -1.5f, 1.0f, 0.75f, 1.5f, 30.5f};
  for (int i = 0; i < 6; i++) assert_true(((float *)t.data[y])[i] == want2[i]);
  tg_free(&t);
}

static void test_add_s32(void **s) {
  (void)s;
  tg t;
  tg_init(&t);
  const int32_t s4[] = {4};
  int a = tg_tensor(&t, DT_INT32, 1, s4, 0, 0);
  int b = tg_tensor(&t, DT_INT32, 1, s4, 0, 0);
  int y = tg_tensor(&t, DT_INT32, 1, s4, 0, 0);
  const int32_t av[] = {1, -7, INT32_MAX, 1000}, bv[] = {2, 3, 1, -1001};
  memcpy(t.data[a], av, sizeof av);
  memcpy(t.data[b], bv, sizeof bv);
  tg_op(&t, OP_ADD, 2, (int[]){a, b}, y);
  RUN_OK(&t);
  const int32_t want[] = {3, -4, INT32_MIN, -1}; /* wraps like the two's complement sum */
  assert_memory_equal(t.data[y], want, sizeof want);
  tg_free(&t);
}

static void test_add_s8_exact(void **s) {
  (void)s;
  tg t;
  tg_init(&t);
  const int32_t s4[] = {4};
  int a = tg_tensor(&t, DT_INT8, 1, s4, 0.5f, 0);
  int b = tg_tensor(&t, DT_INT8, 1, s4, 0.5f, 0);
  int y = tg_tensor(&t, DT_INT8, 1, s4, 0.5f, 0);
  const int8_t av[] = {1, 100, -100, 50}, bv[] = {2, 100, -100, -60};
  memcpy(t.data[a], av, 4);
  memcpy(t.data[b], bv, 4);
  ir_op *op = tg_op(&t, OP_ADD, 2, (int[]){a, b}, y);
  RUN_OK(&t);
  const int8_t want[] = {3, 127, -128, -10};
  assert_memory_equal(t.data[y], want, 4);
  /* fused RELU: output zero point 0 -> clamp at 0 */
  op->opts.fused_act = ACT_RELU;
  RUN_OK(&t);
  const int8_t want_relu[] = {3, 127, 0, 0};
  assert_memory_equal(t.data[y], want_relu, 4);
  op->opts.fused_act = ACT_NONE;
  op->builtin = OP_SUB;
  RUN_OK(&t);
  const int8_t want_sub[] = {-1, 0, 0, 110};
  assert_memory_equal(t.data[y], want_sub, 4);
  tg_free(&t);
}

/* Flat int8 ADD / SUB (equal shapes): from AOT_EWS_TAB_MIN elements on a
 * layer the rescale table takes lowers to aot_{add,sub}_s8_tab with a
 * scratch of exactly aot_addsub_s8_scratch_size bytes (the table, planned by
 * the op's scratch entry; tg_run guards its end), shorter ones to the
 * portable aot_{add,sub}_s8_flat without scratch; both give what the
 * portable loop gives byte for byte, in the FAST case (ReLU, output zero
 * point -128) and with a narrower activation range too. */
static void flat_s8_case(int builtin, int32_t size, int act, int32_t zo, int want_tab) {
  tg t;
  tg_init(&t);
  const int32_t sh[] = {size};
  int a = tg_tensor(&t, DT_INT8, 1, sh, 0.11f, -3);
  int b = tg_tensor(&t, DT_INT8, 1, sh, 0.047f, 17);
  int y = tg_tensor(&t, DT_INT8, 1, sh, 0.13f, zo);
  ir_op *op = tg_op(&t, builtin, 2, (int[]){a, b}, y);
  op->opts.fused_act = act;
  srand(11 + size);
  for (int32_t i = 0; i < size; i++) {
    ((int8_t *)t.data[a])[i] = (int8_t)(rand() % 256 - 128);
    ((int8_t *)t.data[b])[i] = (int8_t)(rand() % 256 - 128);
  }
  const op_impl *impl = ops_find(t.g, op);
  lower_list L;
  char why[256];
  assert_int_equal(lower_op(impl, t.g, op, &L, why, sizeof why), 0);
  const int is_tab = L.call[0].k == lower_kernel_get(builtin == OP_ADD ? LK(aot_add_s8_tab)
                                                                       : LK(aot_sub_s8_tab));
  const aot_addsub_q_params p = L.call[0].u.addsub;
  lower_release(&L);
  assert_int_equal(is_tab, want_tab);
  assert_int_equal(impl->scratch(t.g, op), want_tab ? (size_t)AOT_EWS_TAB_BYTES : 0u);
  assert_int_equal(aot_addsub_s8_scratch_size(&p), want_tab ? (size_t)AOT_EWS_TAB_BYTES : 0u);
  RUN_OK(&t);
  int8_t *want = xmalloc((size_t)size);
  for (int32_t i = 0; i < size; i++) { /* the portable element function, one by one */
    aot_addsub_q_params q = p;
    q.bc.size = 1;
    assert_int_equal((builtin == OP_ADD ? aot_add_s8_flat : aot_sub_s8_flat)(
                         &q, (const int8_t *)t.data[a] + i, (const int8_t *)t.data[b] + i,
                         want + i),
                     0);
  }
  assert_memory_equal(t.data[y], want, (size_t)size);
  free(want);
  tg_free(&t);
}

static void test_add_s8_flat_table(void **s) {
  (void)s;
  for (int k = 0; k < 2; k++) {
    const int bi = k ? OP_SUB : OP_ADD;
    flat_s8_case(bi, 1024, ACT_RELU, -128, 1);
    flat_s8_case(bi, 333, ACT_NONE, 5, 1);
    flat_s8_case(bi, 200, ACT_RELU6, -20, 1);
    flat_s8_case(bi, AOT_EWS_TAB_MIN, ACT_NONE, 0, 1);
    flat_s8_case(bi, AOT_EWS_TAB_MIN - 1, ACT_NONE, 0, 0);
  }
}

/* Random int8 ADD/SUB with broadcasting against the real-valued result. */
static void addsub_random(int builtin, int dtype) {
  tg t;
  tg_init(&t);
  const int32_t s34[] = {3, 4}, s4[] = {4};
  const int is16 = dtype == DT_INT16;
  const int32_t z1 = is16 ? 0 : -5, z2 = is16 ? 0 : 10, zo = is16 ? 0 : 3;
  const float s1 = 0.07f, s2 = 0.03f, so = 0.08f;
  const float k = is16 ? 1.0f / 256.0f : 1.0f;
  int a = tg_tensor(&t, dtype, 2, s34, s1 * k, z1);
  int b = tg_tensor(&t, dtype, 1, s4, s2 * k, z2);
  int y = tg_tensor(&t, dtype, 2, s34, so * k, zo);
  tg_op(&t, builtin, 2, (int[]){a, b}, y);
  const int32_t lo = is16 ? INT16_MIN : INT8_MIN, hi = is16 ? INT16_MAX : INT8_MAX;
  int exact = 0, total = 0;
  srand(7);
  for (int iter = 0; iter < 200; iter++) {
    int32_t av[12], bv[4];
    for (int i = 0; i < 12; i++) av[i] = lo + rand() % (hi - lo + 1);
    for (int i = 0; i < 4; i++) bv[i] = lo + rand() % (hi - lo + 1);
    for (int i = 0; i < 12; i++) {
      if (is16) ((int16_t *)t.data[a])[i] = (int16_t)av[i];
      else ((int8_t *)t.data[a])[i] = (int8_t)av[i];
    }
    for (int i = 0; i < 4; i++) {
      if (is16) ((int16_t *)t.data[b])[i] = (int16_t)bv[i];
      else ((int8_t *)t.data[b])[i] = (int8_t)bv[i];
    }
    RUN_OK(&t);
    for (int i = 0; i < 12; i++) {
      double ra = (double)(s1 * k) * (av[i] - z1), rb = (double)(s2 * k) * (bv[i % 4] - z2);
      double r = builtin == OP_ADD ? ra + rb : ra - rb;
      int32_t want = clampi(zo + rnd(r / (double)(so * k)), lo, hi);
      int32_t got = is16 ? ((int16_t *)t.data[y])[i] : ((int8_t *)t.data[y])[i];
      assert_true(abs(got - want) <= 1);
      exact += got == want;
      total++;
    }
  }
  assert_true(exact * 100 >= total * 95);
  tg_free(&t);
}

static void test_add_s8_random(void **s) {
  (void)s;
  addsub_random(OP_ADD, DT_INT8);
  addsub_random(OP_SUB, DT_INT8);
}

static void test_add_s16_random(void **s) {
  (void)s;
  addsub_random(OP_ADD, DT_INT16);
  addsub_random(OP_SUB, DT_INT16);
}

static void test_add_s16_pot(void **s) {
  (void)s;
  tg t;
  tg_init(&t);
  const int32_t s5[] = {5};
  int a = tg_tensor(&t, DT_INT16, 1, s5, 1.0f / 1024.0f, 0);
  int b = tg_tensor(&t, DT_INT16, 1, s5, 1.0f / 4096.0f, 0);
  int y = tg_tensor(&t, DT_INT16, 1, s5, 1.0f / 1024.0f, 0);
  const int16_t av[] = {100, 100, 100, 32767, 0}, bv[] = {6, -6, -2, 400, 1};
  memcpy(t.data[a], av, sizeof av);
  memcpy(t.data[b], bv, sizeof bv);
  ir_op *op = tg_op(&t, OP_ADD, 2, (int[]){a, b}, y);
  op->opts.pot_scale_int16 = 1;
  RUN_OK(&t);
  /* a + RoundingDivideByPOT(b, 2): 1.5 -> 2, -1.5 -> -2, -0.5 -> -1, sat */
  const int16_t want[] = {102, 98, 99, 32767, 0};
  assert_memory_equal(t.data[y], want, sizeof want);
  op->builtin = OP_SUB;
  RUN_OK(&t);
  const int16_t want_sub[] = {98, 102, 101, 32667, 0};
  assert_memory_equal(t.data[y], want_sub, sizeof want_sub);
  /* pot_scale_int16 false: general path rounds the sum once: 100 + (-0.5) -> 100 */
  op->builtin = OP_ADD;
  op->opts.pot_scale_int16 = 0;
  RUN_OK(&t);
  assert_int_equal(((int16_t *)t.data[y])[2], 100);
  assert_int_equal(((int16_t *)t.data[y])[0], 102);
  tg_free(&t);
}

/* ---- MUL / DIV / SQUARED_DIFFERENCE --------------------------------------- */

static void test_mul(void **s) {
  (void)s;
  {
    tg t;
    tg_init(&t);
    const int32_t s5[] = {5};
    int a = tg_tensor(&t, DT_INT8, 1, s5, 0.5f, 2);
    int b = tg_tensor(&t, DT_INT8, 1, s5, 0.5f, -3);
    int y = tg_tensor(&t, DT_INT8, 1, s5, 0.25f, 5);
    const int8_t av[] = {5, -3, 22, -18, 2}, bv[] = {1, 3, 17, 17, 100};
    memcpy(t.data[a], av, 5);
    memcpy(t.data[b], bv, 5);
    tg_op(&t, OP_MUL, 2, (int[]){a, b}, y);
    RUN_OK(&t);
    /* 5 + (a - 2) * (b + 3) */
    const int8_t want[] = {17, -25, 127, -128, 5};
    assert_memory_equal(t.data[y], want, 5);
    tg_free(&t);
  }
  {
    tg t;
    tg_init(&t);
    const int32_t s3[] = {3}, s1[] = {1};
    int a = tg_tensor(&t, DT_INT16, 1, s3, 1.0f / 256.0f, 0);
    int b = tg_tensor(&t, DT_INT16, 1, s1, 1.0f / 256.0f, 0);
    int y = tg_tensor(&t, DT_INT16, 1, s3, 1.0f / 65536.0f, 0);
    const int16_t av[] = {100, -200, 300}, bv[] = {150};
    memcpy(t.data[a], av, sizeof av);
    memcpy(t.data[b], bv, sizeof bv);
    tg_op(&t, OP_MUL, 2, (int[]){a, b}, y);
    RUN_OK(&t);
    const int16_t want[] = {15000, -30000, 32767};
    assert_memory_equal(t.data[y], want, sizeof want);
    tg_free(&t);
  }
  {
    tg t;
    tg_init(&t);
    const int32_t s3[] = {3};
    int a = tg_tensor(&t, DT_FLOAT32, 1, s3, 0, 0);
    int b = tg_tensor(&t, DT_FLOAT32, 1, s3, 0, 0);
    int y = tg_tensor(&t, DT_FLOAT32, 1, s3, 0, 0);
    const float av[] = {1.0f, 2.0f, 3.0f}, bv[] = {2.0f, 4.0f, 8.0f};
    memcpy(t.data[a], av, sizeof av);
    memcpy(t.data[b], bv, sizeof bv);
    ir_op *op = tg_op(&t, OP_MUL, 2, (int[]){a, b}, y);
    RUN_OK(&t);
    const float want[] = {2.0f, 8.0f, 24.0f};
    assert_memory_equal(t.data[y], want, sizeof want);
    op->builtin = OP_DIV;
    RUN_OK(&t);
    const float wdiv[] = {0.5f, 0.5f, 0.375f};
    assert_memory_equal(t.data[y], wdiv, sizeof wdiv);
    op->builtin = OP_SQUARED_DIFFERENCE;
    RUN_OK(&t);
    const float wsq[] = {1.0f, 4.0f, 25.0f};
    assert_memory_equal(t.data[y], wsq, sizeof wsq);
    tg_free(&t);
  }
}

/* Random int8 MUL against the real product. */
static void test_mul_s8_random(void **s) {
  (void)s;
  tg t;
  tg_init(&t);
  const int32_t s8[] = {8};
  int a = tg_tensor(&t, DT_INT8, 1, s8, 0.05f, -7);
  int b = tg_tensor(&t, DT_INT8, 1, s8, 0.11f, 4);
  int y = tg_tensor(&t, DT_INT8, 1, s8, 0.3f, -2);
  tg_op(&t, OP_MUL, 2, (int[]){a, b}, y);
  int exact = 0, total = 0;
  srand(3);
  for (int iter = 0; iter < 300; iter++) {
    for (int i = 0; i < 8; i++) {
      ((int8_t *)t.data[a])[i] = (int8_t)(rand() % 256 - 128);
      ((int8_t *)t.data[b])[i] = (int8_t)(rand() % 256 - 128);
    }
    RUN_OK(&t);
    for (int i = 0; i < 8; i++) {
      double r = 0.05 * (((int8_t *)t.data[a])[i] + 7) * 0.11 * (((int8_t *)t.data[b])[i] - 4);
      int32_t want = clampi(-2 + rnd(r / 0.3), -128, 127);
      int32_t got = ((int8_t *)t.data[y])[i];
      assert_true(abs(got - want) <= 1);
      exact += got == want;
      total++;
    }
  }
  assert_true(exact * 100 >= total * 97);
  tg_free(&t);
}

/* SQUARED_DIFFERENCE int8 against the real value. */
static void test_squared_diff_s8(void **s) {
  (void)s;
  tg t;
  tg_init(&t);
  const int32_t s8[] = {8}, s1[] = {1};
  int a = tg_tensor(&t, DT_INT8, 1, s8, 0.05f, 3);
  int b = tg_tensor(&t, DT_INT8, 1, s1, 0.04f, -2);
  int y = tg_tensor(&t, DT_INT8, 1, s8, 0.2f, -128);
  tg_op(&t, OP_SQUARED_DIFFERENCE, 2, (int[]){a, b}, y);
  int exact = 0, total = 0;
  srand(9);
  for (int iter = 0; iter < 200; iter++) {
    for (int i = 0; i < 8; i++) ((int8_t *)t.data[a])[i] = (int8_t)(rand() % 256 - 128);
    ((int8_t *)t.data[b])[0] = (int8_t)(rand() % 256 - 128);
    RUN_OK(&t);
    for (int i = 0; i < 8; i++) {
      double d = 0.05 * (((int8_t *)t.data[a])[i] - 3) - 0.04 * (((int8_t *)t.data[b])[0] + 2);
      int32_t want = clampi(-128 + rnd(d * d / 0.2), -128, 127);
      int32_t got = ((int8_t *)t.data[y])[i];
      assert_true(abs(got - want) <= 1);
      exact += got == want;
      total++;
    }
  }
  assert_true(exact * 100 >= total * 90);
  tg_free(&t);
}

/* ---- MAXIMUM / MINIMUM ---------------------------------------------------- */

static void test_maxmin(void **s) {
  (void)s;
  tg t;
  tg_init(&t);
  const int32_t s23[] = {2, 3}, s21[] = {2, 1};
  int a = tg_tensor(&t, DT_INT8, 2, s23, 0.1f, 0);
  int b = tg_tensor(&t, DT_INT8, 2, s21, 0.1f, 0);
  int y = tg_tensor(&t, DT_INT8, 2, s23, 0.1f, 0);
  const int8_t av[] = {-5, 0, 7, 100, -128, 3}, bv[] = {1, 4};
  memcpy(t.data[a], av, 6);
  memcpy(t.data[b], bv, 2);
  ir_op *op = tg_op(&t, OP_MAXIMUM, 2, (int[]){a, b}, y);
  RUN_OK(&t);
  const int8_t wmax[] = {1, 1, 7, 100, 4, 4};
  assert_memory_equal(t.data[y], wmax, 6);
  op->builtin = OP_MINIMUM;
  RUN_OK(&t);
  const int8_t wmin[] = {-5, 0, 1, 4, -128, 3};
  assert_memory_equal(t.data[y], wmin, 6);
  tg_free(&t);

  tg_init(&t);
  a = tg_tensor(&t, DT_FLOAT32, 2, s23, 0, 0);
  b = tg_tensor(&t, DT_FLOAT32, 2, s21, 0, 0);
  y = tg_tensor(&t, DT_FLOAT32, 2, s23, 0, 0);
  const float fa[] = {-5.5f, 0.0f, 7.0f, 1.0f, 2.0f, 3.0f}, fb[] = {1.0f, 2.5f};
  memcpy(t.data[a], fa, sizeof fa);
  memcpy(t.data[b], fb, sizeof fb);
  tg_op(&t, OP_MAXIMUM, 2, (int[]){a, b}, y);
  RUN_OK(&t);
  const float wf[] = {1.0f, 1.0f, 7.0f, 2.5f, 2.5f, 3.0f};
  assert_memory_equal(t.data[y], wf, sizeof wf);
  tg_free(&t);
}

/* ---- comparisons, logical, select ---------------------------------------- */

static void test_compare(void **s) {
  (void)s;
  {
    tg t;
    tg_init(&t);
    const int32_t s23[] = {2, 3}, s3[] = {3};
    int a = tg_tensor(&t, DT_FLOAT32, 2, s23, 0, 0);
    int b = tg_tensor(&t, DT_FLOAT32, 1, s3, 0, 0);
    int y = tg_tensor(&t, DT_BOOL, 2, s23, 0, 0);
    const float av[] = {1.0f, 2.0f, 3.0f, 4.0f, -5.0f, 6.0f}, bv[] = {2.0f, 2.0f, 2.0f};
    memcpy(t.data[a], av, sizeof av);
    memcpy(t.data[b], bv, sizeof bv);
    ir_op *op = tg_op(&t, OP_LESS, 2, (int[]){a, b}, y);
    const int codes[] = {OP_LESS, OP_LESS_EQUAL, OP_GREATER, OP_GREATER_EQUAL, OP_EQUAL,
                         OP_NOT_EQUAL};
    const uint8_t want[6][6] = {{1, 0, 0, 0, 1, 0}, {1, 1, 0, 0, 1, 0}, {0, 0, 1, 1, 0, 1},
                                {0, 1, 1, 1, 0, 1}, {0, 1, 0, 0, 0, 0}, {1, 0, 1, 1, 1, 1}};
    for (int c = 0; c < 6; c++) {
      op->builtin = codes[c];
      RUN_OK(&t);
      assert_memory_equal(t.data[y], want[c], 6);
    }
    tg_free(&t);
  }
  {
    /* int8 with different scales: 4 * 0.5 == 8 * 0.25 */
    tg t;
    tg_init(&t);
    const int32_t s3[] = {3};
    int a = tg_tensor(&t, DT_INT8, 1, s3, 0.5f, 0);
    int b = tg_tensor(&t, DT_INT8, 1, s3, 0.25f, -2);
    int y = tg_tensor(&t, DT_BOOL, 1, s3, 0, 0);
    const int8_t av[] = {4, 5, -1}, bv[] = {6, 6, -2}; /* b reals: 2.0, 2.0, 0.0 */
    memcpy(t.data[a], av, 3);
    memcpy(t.data[b], bv, 3);
    ir_op *op = tg_op(&t, OP_EQUAL, 2, (int[]){a, b}, y);
    RUN_OK(&t);
    const uint8_t weq[] = {1, 0, 0};
    assert_memory_equal(t.data[y], weq, 3);
    op->builtin = OP_GREATER;
    RUN_OK(&t);
    const uint8_t wgt[] = {0, 1, 0};
    assert_memory_equal(t.data[y], wgt, 3);
    tg_free(&t);
  }
  {
    tg t;
    tg_init(&t);
    const int32_t s3[] = {3}, s1[] = {1};
    int a = tg_tensor(&t, DT_INT32, 1, s3, 0, 0);
    int b = tg_tensor(&t, DT_INT32, 1, s1, 0, 0);
    int y = tg_tensor(&t, DT_BOOL, 1, s3, 0, 0);
    const int32_t av[] = {INT32_MIN, 7, 8}, bv[] = {7};
    memcpy(t.data[a], av, sizeof av);
    memcpy(t.data[b], bv, sizeof bv);
    tg_op(&t, OP_NOT_EQUAL, 2, (int[]){a, b}, y);
    RUN_OK(&t);
    const uint8_t w[] = {1, 0, 1};
    assert_memory_equal(t.data[y], w, 3);
    tg_free(&t);
  }
}

static void test_logical_select(void **s) {
  (void)s;
  {
    tg t;
    tg_init(&t);
    const int32_t s4[] = {4};
    int a = tg_tensor(&t, DT_BOOL, 1, s4, 0, 0);
    int b = tg_tensor(&t, DT_BOOL, 1, s4, 0, 0);
    int y = tg_tensor(&t, DT_BOOL, 1, s4, 0, 0);
    const uint8_t av[] = {0, 0, 1, 1}, bv[] = {0, 1, 0, 1};
    memcpy(t.data[a], av, 4);
    memcpy(t.data[b], bv, 4);
    ir_op *op = tg_op(&t, OP_LOGICAL_AND, 2, (int[]){a, b}, y);
    RUN_OK(&t);
    assert_memory_equal(t.data[y], ((uint8_t[]){0, 0, 0, 1}), 4);
    op->builtin = OP_LOGICAL_OR;
    RUN_OK(&t);
    assert_memory_equal(t.data[y], ((uint8_t[]){0, 1, 1, 1}), 4);
    op->builtin = OP_LOGICAL_NOT;
    op->nin = 1;
    RUN_OK(&t);
    assert_memory_equal(t.data[y], ((uint8_t[]){1, 1, 0, 0}), 4);
    op->builtin = OP_EQUAL;
    op->nin = 2;
    RUN_OK(&t);
    assert_memory_equal(t.data[y], ((uint8_t[]){1, 0, 0, 1}), 4);
    tg_free(&t);
  }
  {
    tg t;
    tg_init(&t);
    const int32_t s21[] = {2, 1}, s23[] = {2, 3}, s1[] = {1};
    int c = tg_tensor(&t, DT_BOOL, 2, s21, 0, 0);
    int x = tg_tensor(&t, DT_FLOAT32, 2, s23, 0, 0);
    int yv = tg_tensor(&t, DT_FLOAT32, 1, s1, 0, 0);
    int o = tg_tensor(&t, DT_FLOAT32, 2, s23, 0, 0);
    const uint8_t cv[] = {1, 0};
    const float xv[] = {1, 2, 3, 4, 5, 6}, yvv[] = {-1};
    memcpy(t.data[c], cv, 2);
    memcpy(t.data[x], xv, sizeof xv);
    memcpy(t.data[yv], yvv, sizeof yvv);
    tg_op(&t, OP_SELECT_V2, 3, (int[]){c, x, yv}, o);
    RUN_OK(&t);
    const float w[] = {1, 2, 3, -1, -1, -1};
    assert_memory_equal(t.data[o], w, sizeof w);
    tg_free(&t);
  }
}

/* ---- unary float math ------------------------------------------------------- */

static void test_unary(void **s) {
  (void)s;
  tg t;
  tg_init(&t);
  const int32_t s1[] = {1};
  int x = tg_tensor(&t, DT_FLOAT32, 1, s1, 0, 0);
  int y = tg_tensor(&t, DT_FLOAT32, 1, s1, 0, 0);
  ir_op *op = tg_op(&t, OP_EXP, 1, (int[]){x}, y);
  struct {
    int code;
    float in, want;
  } cases[] = {{OP_EXP, 0.0f, 1.0f},   {OP_LOG, 1.0f, 0.0f},      {OP_SQRT, 4.0f, 2.0f},
               {OP_RSQRT, 4.0f, 0.5f}, {OP_ABS, -3.0f, 3.0f},     {OP_NEG, 2.0f, -2.0f},
               {OP_FLOOR, -1.5f, -2.0f}, {OP_SQUARE, 3.0f, 9.0f}, {OP_FLOOR, 2.5f, 2.0f}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    op->builtin = cases[i].code;
    *(float *)t.data[x] = cases[i].in;
    RUN_OK(&t);
    assert_true(*(float *)t.data[y] == cases[i].want);
  }
  tg_free(&t);

  tg_init(&t);
  const int32_t s2[] = {2};
  x = tg_tensor(&t, DT_INT32, 1, s2, 0, 0);
  y = tg_tensor(&t, DT_INT32, 1, s2, 0, 0);
  ((int32_t *)t.data[x])[0] = 5;
  ((int32_t *)t.data[x])[1] = INT32_MIN;
  tg_op(&t, OP_NEG, 1, (int[]){x}, y);
  RUN_OK(&t);
  assert_int_equal(((int32_t *)t.data[y])[0], -5);
  assert_int_equal(((int32_t *)t.data[y])[1], INT32_MIN);
  tg_free(&t);

  /* ABS int8: |x - zp| rescaled (0.5 -> 0.25: doubled) */
  tg_init(&t);
  const int32_t s4[] = {4};
  x = tg_tensor(&t, DT_INT8, 1, s4, 0.5f, 3);
  y = tg_tensor(&t, DT_INT8, 1, s4, 0.25f, -100);
  const int8_t xv[] = {3, -7, 13, -128};
  memcpy(t.data[x], xv, 4);
  tg_op(&t, OP_ABS, 1, (int[]){x}, y);
  RUN_OK(&t);
  assert_memory_equal(t.data[y], ((int8_t[]){-100, -80, -80, 127}), 4);
  tg_free(&t);
}

/* ---- QUANTIZE / DEQUANTIZE --------------------------------------------------- */

static void test_quantize_f32(void **s) {
  (void)s;
  tg t;
  tg_init(&t);
  const int32_t s7[] = {7};
  int x = tg_tensor(&t, DT_FLOAT32, 1, s7, 0, 0);
  int y = tg_tensor(&t, DT_INT8, 1, s7, 0.5f, 1);
  const float xv[] = {0.25f, -0.25f, 1.25f, 100.0f, -100.0f, NAN, -0.75f};
  memcpy(t.data[x], xv, sizeof xv);
  tg_op(&t, OP_QUANTIZE, 1, (int[]){x}, y);
  RUN_OK(&t);
  /* round half away from zero: 0.5 -> 1, -0.5 -> -1, 2.5 -> 3, -1.5 -> -2 */
  const int8_t want[] = {2, 0, 4, 127, -128, 1, -1};
  assert_memory_equal(t.data[y], want, sizeof want);
  tg_free(&t);

  tg_init(&t);
  const int32_t s3[] = {3};
  x = tg_tensor(&t, DT_FLOAT32, 1, s3, 0, 0);
  y = tg_tensor(&t, DT_UINT8, 1, s3, 1.0f, 128);
  const float xu[] = {-0.5f, 0.5f, 300.0f};
  memcpy(t.data[x], xu, sizeof xu);
  tg_op(&t, OP_QUANTIZE, 1, (int[]){x}, y);
  RUN_OK(&t);
  const uint8_t wu[] = {127, 129, 255};
  assert_memory_equal(t.data[y], wu, sizeof wu);
  tg_free(&t);

  tg_init(&t);
  x = tg_tensor(&t, DT_FLOAT32, 1, s3, 0, 0);
  y = tg_tensor(&t, DT_INT16, 1, s3, 1.0f / 1024.0f, 0);
  const float x16[] = {1.0f, -31.9995f, 40.0f};
  memcpy(t.data[x], x16, sizeof x16);
  tg_op(&t, OP_QUANTIZE, 1, (int[]){x}, y);
  RUN_OK(&t);
  const int16_t w16[] = {1024, -32767, 32767};
  assert_memory_equal(t.data[y], w16, sizeof w16);
  tg_free(&t);
}

static void test_requantize(void **s) {
  (void)s;
  const int32_t s4[] = {4};
  {
    tg t;
    tg_init(&t);
    int x = tg_tensor(&t, DT_INT8, 1, s4, 0.5f, 3);
    int y = tg_tensor(&t, DT_INT8, 1, s4, 0.5f, -10);
    const int8_t xv[] = {3, 100, -128, 127};
    memcpy(t.data[x], xv, 4);
    tg_op(&t, OP_QUANTIZE, 1, (int[]){x}, y);
    RUN_OK(&t);
    const int8_t w[] = {-10, 87, -128, 114};
    assert_memory_equal(t.data[y], w, 4);
    tg_free(&t);
  }
  {
    tg t;
    tg_init(&t);
    int x = tg_tensor(&t, DT_INT8, 1, s4, 0.5f, 3);
    int y = tg_tensor(&t, DT_INT16, 1, s4, 0.25f, 0);
    const int8_t xv[] = {3, 100, -128, 127};
    memcpy(t.data[x], xv, 4);
    tg_op(&t, OP_QUANTIZE, 1, (int[]){x}, y);
    RUN_OK(&t);
    const int16_t w[] = {0, 194, -262, 248};
    assert_memory_equal(t.data[y], w, sizeof w);
    tg_free(&t);
  }
  {
    tg t;
    tg_init(&t);
    int x = tg_tensor(&t, DT_INT8, 1, s4, 0.1f, 0);
    int y = tg_tensor(&t, DT_UINT8, 1, s4, 0.1f, 128);
    const int8_t xv[] = {0, -128, 127, -1};
    memcpy(t.data[x], xv, 4);
    tg_op(&t, OP_QUANTIZE, 1, (int[]){x}, y);
    RUN_OK(&t);
    const uint8_t w[] = {128, 0, 255, 127};
    assert_memory_equal(t.data[y], w, 4);
    tg_free(&t);
  }
  {
    /* int16 -> int8 halving: SaturatingRoundingDoublingHighMul rounds ties
     * up: 2.5 -> 3, -2.5 -> -2, -3.5 -> -3 */
    tg t;
    tg_init(&t);
    int x = tg_tensor(&t, DT_INT16, 1, s4, 0.5f, 0);
    int y = tg_tensor(&t, DT_INT8, 1, s4, 1.0f, 0);
    const int16_t xv[] = {5, -5, 400, -7};
    memcpy(t.data[x], xv, sizeof xv);
    tg_op(&t, OP_QUANTIZE, 1, (int[]){x}, y);
    RUN_OK(&t);
    const int8_t w[] = {3, -2, 127, -3};
    assert_memory_equal(t.data[y], w, 4);
    tg_free(&t);
  }
}

static void test_dequantize(void **s) {
  (void)s;
  {
    tg t;
    tg_init(&t);
    const int32_t s3[] = {3};
    int x = tg_tensor(&t, DT_INT8, 1, s3, 0.5f, -3);
    int y = tg_tensor(&t, DT_FLOAT32, 1, s3, 0, 0);
    const int8_t xv[] = {-3, 127, -128};
    memcpy(t.data[x], xv, 3);
    tg_op(&t, OP_DEQUANTIZE, 1, (int[]){x}, y);
    RUN_OK(&t);
    const float w[] = {0.0f, 65.0f, -62.5f};
    assert_memory_equal(t.data[y], w, sizeof w);
    tg_free(&t);
  }
  {
    /* product rounded once: 0.1f * 3 is the float nearest to 0.1f*3 exactly */
    tg t;
    tg_init(&t);
    const int32_t s2[] = {2};
    int x = tg_tensor(&t, DT_INT16, 1, s2, 0.1f, 0);
    int y = tg_tensor(&t, DT_FLOAT32, 1, s2, 0, 0);
    const int16_t xv[] = {3, -32768};
    memcpy(t.data[x], xv, sizeof xv);
    tg_op(&t, OP_DEQUANTIZE, 1, (int[]){x}, y);
    RUN_OK(&t);
    assert_true(((float *)t.data[y])[0] == (float)((double)0.1f * 3.0));
    assert_true(((float *)t.data[y])[1] == (float)((double)0.1f * -32768.0));
    tg_free(&t);
  }
  {
    tg t;
    tg_init(&t);
    const int32_t s11[] = {11};
    int x = tg_tensor(&t, DT_FLOAT16, 1, s11, 0, 0);
    int y = tg_tensor(&t, DT_FLOAT32, 1, s11, 0, 0);
    const uint16_t h[] = {0x3C00, 0x0001, 0x03FF, 0x7C00, 0xFC00, 0x7E00,
                          0x8000, 0x7BFF, 0x0400, 0xC000, 0x3555};
    memcpy(t.data[x], h, sizeof h);
    tg_op(&t, OP_DEQUANTIZE, 1, (int[]){x}, y);
    RUN_OK(&t);
    const float *o = t.data[y];
    assert_true(o[0] == 1.0f);
    assert_true(o[1] == ldexpf(1.0f, -24));
    assert_true(o[2] == ldexpf(1023.0f, -24));
    assert_true(isinf(o[3]) && o[3] > 0);
    assert_true(isinf(o[4]) && o[4] < 0);
    assert_true(isnan(o[5]));
    assert_true(o[6] == 0.0f && signbit(o[6]));
    assert_true(o[7] == 65504.0f);
    assert_true(o[8] == ldexpf(1.0f, -14));
    assert_true(o[9] == -2.0f);
    assert_true(o[10] == 1365.0f / 4096.0f); /* 0x3555 = 0.333251953125 */
    uint32_t nanbits;
    memcpy(&nanbits, &o[5], 4);
    assert_int_equal(nanbits, 0x7FC00000u);
    tg_free(&t);
  }
}

/* Per-channel DEQUANTIZE (int8 constant weights, qdim 1). */
static void test_dequantize_per_channel(void **s) {
  (void)s;
  tg t;
  tg_init(&t);
  const int32_t s23[] = {2, 3};
  int x = tg_tensor(&t, DT_INT8, 2, s23, 1.0f, 0);
  int y = tg_tensor(&t, DT_FLOAT32, 2, s23, 0, 0);
  ir_tensor *xt = &t.g->t[x];
  xt->nq = 3;
  xt->qdim = 1;
  xt->scale = xrealloc(xt->scale, 3 * sizeof(float));
  xt->zero_point = xrealloc(xt->zero_point, 3 * sizeof(int32_t));
  const float sc[] = {0.5f, 1.0f, 2.0f};
  const int32_t zp[] = {0, 1, -1};
  memcpy(xt->scale, sc, sizeof sc);
  memcpy(xt->zero_point, zp, sizeof zp);
  const int8_t xv[] = {4, 4, 4, -2, -2, -2};
  memcpy(t.data[x], xv, 6);
  tg_op(&t, OP_DEQUANTIZE, 1, (int[]){x}, y);
  RUN_OK(&t);
  const float w[] = {2.0f, 3.0f, 10.0f, -1.0f, -3.0f, -2.0f};
  assert_memory_equal(t.data[y], w, sizeof w);
  tg_free(&t);
}

/* Unsupported combinations are refused with a reason. */
static void test_refusals(void **s) {
  (void)s;
  tg t;
  tg_init(&t);
  const int32_t s2[] = {2};
  int a = tg_tensor(&t, DT_INT8, 1, s2, 0.5f, 0);
  int b = tg_tensor(&t, DT_INT16, 1, s2, 0.5f, 0);
  int y = tg_tensor(&t, DT_INT8, 1, s2, 0.5f, 0);
  tg_op(&t, OP_ADD, 2, (int[]){a, b}, y);
  assert_int_equal(tg_run(&t, why, sizeof why), -1);
  assert_non_null(strstr(why, "int16"));
  tg_free(&t);

  tg_init(&t);
  a = tg_tensor(&t, DT_FLOAT32, 1, s2, 0, 0);
  y = tg_tensor(&t, DT_INT32, 1, s2, 1.0f, 0);
  tg_op(&t, OP_QUANTIZE, 1, (int[]){a}, y);
  assert_int_equal(tg_run(&t, why, sizeof why), -1);
  tg_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bcast_plan),     cmocka_unit_test(test_bcast_kernel_direct),
      cmocka_unit_test(test_add_f32),        cmocka_unit_test(test_add_s32),
      cmocka_unit_test(test_add_s8_exact),   cmocka_unit_test(test_add_s8_random),
      cmocka_unit_test(test_add_s8_flat_table),
      cmocka_unit_test(test_add_s16_random), cmocka_unit_test(test_add_s16_pot),
      cmocka_unit_test(test_mul),            cmocka_unit_test(test_mul_s8_random),
      cmocka_unit_test(test_squared_diff_s8),
      cmocka_unit_test(test_maxmin),         cmocka_unit_test(test_compare),
      cmocka_unit_test(test_logical_select), cmocka_unit_test(test_unary),
      cmocka_unit_test(test_quantize_f32),   cmocka_unit_test(test_requantize),
      cmocka_unit_test(test_dequantize),     cmocka_unit_test(test_refusals),
      cmocka_unit_test(test_dequantize_per_channel),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
