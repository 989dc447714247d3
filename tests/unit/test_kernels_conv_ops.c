/* test_kernels_conv_ops.c - the convolution-family op_impls (check + eval)
 * through tiny hand-built IR graphs, with hand-computed expected values. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ops/ops.h"

extern const op_impl op_conv_2d, op_depthwise_conv_2d, op_transpose_conv, op_fully_connected,
    op_average_pool_2d, op_max_pool_2d, op_batch_matmul;

/* ---- a tiny graph builder ---- */
#define MAXT 8
typedef struct tg {
  ir_graph g;
  ir_tensor t[MAXT];
  float scales[MAXT][8];
  int32_t zps[MAXT][8];
  void *data[MAXT];
  ir_op op;
  int in[4], out[1];
} tg;

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
  if (data) {
    memcpy(x->data[i], data, bytes);
    t->role = ROLE_CONST;
    t->data = x->data[i];
    t->data_bytes = bytes;
  }
  return i;
}

static void quant(tg *x, int t, int n, const float *s, const int32_t *zp, int qdim) {
  x->t[t].nq = n;
  x->t[t].qdim = qdim;
  for (int i = 0; i < n; i++) {
    x->scales[t][i] = s[i];
    x->zps[t][i] = zp ? zp[i] : 0;
  }
}
static void quant1(tg *x, int t, float s, int32_t zp) { quant(x, t, 1, &s, &zp, 0); }

static void init(tg *x, int builtin) {
  memset(x, 0, sizeof *x);
  x->g.t = x->t;
  x->g.ops = &x->op;
  x->g.nops = 1;
  x->op.builtin = builtin;
  x->op.in = x->in;
  x->op.out = x->out;
  x->op.nout = 1;
  x->op.opts.stride_w = x->op.opts.stride_h = 1;
  x->op.opts.dilation_w = x->op.opts.dilation_h = 1;
  x->op.opts.padding = PAD_VALID;
}

static void set_io(tg *x, int nin, const int *in, int out) {
  x->op.nin = nin;
  for (int i = 0; i < nin; i++) x->in[i] = in[i];
  x->out[0] = out;
}

static void done(tg *x) {
  for (int i = 0; i < x->g.nt; i++) free(x->data[i]);
}

static int run(const op_impl *impl, tg *x) {
  char why[256] = "";
  int r = impl->check(&x->g, &x->op, why, sizeof why);
  if (r) print_error("check failed: %s\n", why);
  assert_int_equal(r, 0);
  return op_eval(impl, &x->g, &x->op, x->data, NULL);
}

static void expect_reject(const op_impl *impl, tg *x, const char *needle) {
  char why[256] = "";
  assert_int_not_equal(impl->check(&x->g, &x->op, why, sizeof why), 0);
  if (!strstr(why, needle)) print_error("reason '%s' lacks '%s'\n", why, needle);
  assert_non_null(strstr(why, needle));
}

/* ---- CONV_2D ---- */
static void test_conv_int8_eval(void **state) {
  (void)state;
  tg x;
  init(&x, OP_CONV_2D);
  /* same numbers as the kernel hand case: effective scale 0.5*0.25/0.25 =
   * 0.5 -> outputs 15 20 30 35 */
  const int8_t in[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  const int8_t f[4] = {1, 2, 3, 4};
  const int32_t b[1] = {3};
  int ti = add_t(&x, DT_INT8, 4, (int32_t[]){1, 3, 3, 1}, NULL);
  int tf = add_t(&x, DT_INT8, 4, (int32_t[]){1, 2, 2, 1}, f);
  int tb = add_t(&x, DT_INT32, 1, (int32_t[]){1}, b);
  int to = add_t(&x, DT_INT8, 4, (int32_t[]){1, 2, 2, 1}, NULL);
  quant1(&x, ti, 0.5f, -1);
  quant1(&x, tf, 0.25f, 0);
  quant1(&x, tb, 0.125f, 0);
  quant1(&x, to, 0.25f, -5);
  memcpy(x.data[ti], in, 9);
  set_io(&x, 3, (int[]){ti, tf, tb}, to);
  assert_int_equal(run(&op_conv_2d, &x), 0);
  const int8_t e[4] = {15, 20, 30, 35};
  assert_memory_equal(x.data[to], e, 4);
  /* fused RELU6 with output scale 0.25 zp -5: range [-5, 19] */
  x.op.opts.fused_act = ACT_RELU6;
  assert_int_equal(run(&op_conv_2d, &x), 0);
  const int8_t e6[4] = {15, 19, 19, 19};
  assert_memory_equal(x.data[to], e6, 4);
  /* SAME padding needs a 3x3 output: the 2x2 output is rejected */
  x.op.opts.padding = PAD_SAME;
  expect_reject(&op_conv_2d, &x, "differs from the computed");
  x.op.opts.padding = PAD_VALID;
  /* a filter zero point is refused */
  x.zps[tf][0] = 2;
  expect_reject(&op_conv_2d, &x, "zero point");
  x.zps[tf][0] = 0;
  /* int16 filter with int8 input */
  x.t[tf].dtype = DT_INT16;
  expect_reject(&op_conv_2d, &x, "filter int16");
  x.t[tf].dtype = DT_INT8;
  /* bias of the wrong type */
  x.t[tb].dtype = DT_INT64;
  expect_reject(&op_conv_2d, &x, "bias");
  done(&x);
}

static void test_conv_same_stride_per_channel(void **state) {
  (void)state;
  tg x;
  init(&x, OP_CONV_2D);
  /* input 1x3x3x1 = 1..9 (scale 1, zp 0), two 3x3 filters: all ones and
   * the centre tap only; SAME stride 2 -> 2x2x2 output. Filter scales
   * {1, 0.5}, output scale 1: channel 0 = window sums 12 16 24 28,
   * channel 1 = 0.5 * centre: 1*0.5 -> 0.5 -> 1 (ties away), 3 -> 1.5 -> 2,
   * 7 -> 3.5 -> 4, 9 -> 4.5 -> 5. Bias absent. */
  int8_t in[9], f[18] = {0};
  for (int i = 0; i < 9; i++) {
    in[i] = (int8_t)(i + 1);
    f[i] = 1;
  }
  f[9 + 4] = 1;
  int ti = add_t(&x, DT_INT8, 4, (int32_t[]){1, 3, 3, 1}, NULL);
  int tf = add_t(&x, DT_INT8, 4, (int32_t[]){2, 3, 3, 1}, f);
  int to = add_t(&x, DT_INT8, 4, (int32_t[]){1, 2, 2, 2}, NULL);
  quant1(&x, ti, 1.0f, 0);
  quant(&x, tf, 2, (float[]){1.0f, 0.5f}, NULL, 0);
  quant1(&x, to, 1.0f, 0);
  memcpy(x.data[ti], in, 9);
  x.op.opts.padding = PAD_SAME;
  x.op.opts.stride_h = x.op.opts.stride_w = 2;
  x.in[2] = -1;
  set_io(&x, 3, (int[]){ti, tf, -1}, to);
  assert_int_equal(run(&op_conv_2d, &x), 0);
  const int8_t e[8] = {12, 1, 16, 2, 24, 4, 28, 5};
  assert_memory_equal(x.data[to], e, 8);
  /* per-channel scales along the wrong dimension are refused */
  x.t[tf].qdim = 3;
  expect_reject(&op_conv_2d, &x, "scales");
  done(&x);
}

static void test_conv_int16_and_float_eval(void **state) {
  (void)state;
  tg x;
  init(&x, OP_CONV_2D);
  /* int16x8 1x1 conv: x = {1000, -3000}, w = {3, 2}, bias 5 (int64):
   * acc = -2995, scale 1*1/2 = 0.5 -> int64 MBQM -1497 */
  const int16_t in[2] = {1000, -3000};
  const int8_t f[2] = {3, 2};
  const int64_t b[1] = {5};
  int ti = add_t(&x, DT_INT16, 4, (int32_t[]){1, 1, 1, 2}, NULL);
  int tf = add_t(&x, DT_INT8, 4, (int32_t[]){1, 1, 1, 2}, f);
  int tb = add_t(&x, DT_INT64, 1, (int32_t[]){1}, b);
  int to = add_t(&x, DT_INT16, 4, (int32_t[]){1, 1, 1, 1}, NULL);
  quant1(&x, ti, 1.0f, 0);
  quant1(&x, tf, 1.0f, 0);
  quant1(&x, tb, 1.0f, 0);
  quant1(&x, to, 2.0f, 0);
  memcpy(x.data[ti], in, sizeof in);
  set_io(&x, 3, (int[]){ti, tf, tb}, to);
  assert_int_equal(run(&op_conv_2d, &x), 0);
  assert_int_equal(((int16_t *)x.data[to])[0], -1497);
  x.zps[ti][0] = 3;
  expect_reject(&op_conv_2d, &x, "zero point");
  x.zps[ti][0] = 0;
  x.t[tb].dtype = DT_INT32;
  expect_reject(&op_conv_2d, &x, "int64 expected");
  done(&x);

  /* float with dilation 2: 1x5x5x1 input 0..24, 2x2 filter {1,1,1,1},
   * dilation 2 VALID -> 3x3; out(0,0) = in(0,0)+in(0,2)+in(2,0)+in(2,2) =
   * 0+2+10+12 = 24, each step right +4, down +20; RELU_N1_TO_1 clamps. */
  init(&x, OP_CONV_2D);
  float fin[25], ff[4] = {1, 1, 1, 1};
  for (int i = 0; i < 25; i++) fin[i] = (float)i;
  ti = add_t(&x, DT_FLOAT32, 4, (int32_t[]){1, 5, 5, 1}, NULL);
  tf = add_t(&x, DT_FLOAT32, 4, (int32_t[]){1, 2, 2, 1}, ff);
  to = add_t(&x, DT_FLOAT32, 4, (int32_t[]){1, 3, 3, 1}, NULL);
  memcpy(x.data[ti], fin, sizeof fin);
  x.op.opts.dilation_h = x.op.opts.dilation_w = 2;
  set_io(&x, 2, (int[]){ti, tf}, to);
  assert_int_equal(run(&op_conv_2d, &x), 0);
  const float *o = x.data[to];
  assert_true(o[0] == 24.0f && o[1] == 28.0f && o[3] == 44.0f && o[8] == 72.0f);
  x.op.opts.fused_act = ACT_RELU_N1_TO_1;
  assert_int_equal(run(&op_conv_2d, &x), 0);
  assert_true(o[0] == 1.0f);
  x.op.opts.fused_act = ACT_TANH;
  expect_reject(&op_conv_2d, &x, "activation");
  done(&x);
}

/* ---- DEPTHWISE_CONV_2D ---- */
static void test_dwconv_eval(void **state) {
  (void)state;
  tg x;
  init(&x, OP_DEPTHWISE_CONV_2D);
  /* the kernel hand case with filter scales {0.5, 1, 1, 1}, in/out scale 1:
   * raw {10, -3, -2, -4} + bias {0,1,2,3} = {10,-2,0,-1}; channel 0 halves
   * to 5. */
  const int8_t in[8] = {1, -1, 2, -2, 3, -3, 4, -4};
  const int8_t f[16] = {1, 1, 2, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, -1, 0, 1};
  const int32_t b[4] = {0, 1, 2, 3};
  int ti = add_t(&x, DT_INT8, 4, (int32_t[]){1, 2, 2, 2}, NULL);
  int tf = add_t(&x, DT_INT8, 4, (int32_t[]){1, 2, 2, 4}, f);
  int tb = add_t(&x, DT_INT32, 1, (int32_t[]){4}, b);
  int to = add_t(&x, DT_INT8, 4, (int32_t[]){1, 1, 1, 4}, NULL);
  quant1(&x, ti, 1.0f, 0);
  quant(&x, tf, 4, (float[]){0.5f, 1, 1, 1}, NULL, 3);
  quant1(&x, to, 1.0f, 0);
  memcpy(x.data[ti], in, sizeof in);
  x.op.opts.depth_multiplier = 2;
  set_io(&x, 3, (int[]){ti, tf, tb}, to);
  assert_int_equal(run(&op_depthwise_conv_2d, &x), 0);
  const int8_t e[4] = {5, -2, 0, -1};
  assert_memory_equal(x.data[to], e, 4);
  /* float version of the same */
  done(&x);
}

/* ---- TRANSPOSE_CONV ---- */
static void test_tconv_eval(void **state) {
  (void)state;
  tg x;
  init(&x, OP_TRANSPOSE_CONV);
  const float in[4] = {1, 2, 3, 4}, f[4] = {1, 10, 100, 1000};
  const int32_t os[4] = {1, 4, 4, 1};
  int tos = add_t(&x, DT_INT32, 1, (int32_t[]){4}, os);
  int tf = add_t(&x, DT_FLOAT32, 4, (int32_t[]){1, 2, 2, 1}, f);
  int ti = add_t(&x, DT_FLOAT32, 4, (int32_t[]){1, 2, 2, 1}, NULL);
  int to = add_t(&x, DT_FLOAT32, 4, (int32_t[]){1, 4, 4, 1}, NULL);
  memcpy(x.data[ti], in, sizeof in);
  x.op.opts.stride_h = x.op.opts.stride_w = 2;
  x.op.opts.padding = PAD_SAME;
  set_io(&x, 3, (int[]){tos, tf, ti}, to);
  assert_int_equal(run(&op_transpose_conv, &x), 0);
  const float e[16] = {1, 10, 2, 20, 100, 1000, 200, 2000, 3, 30, 4, 40, 300, 3000, 400, 4000};
  for (int i = 0; i < 16; i++) assert_true(((float *)x.data[to])[i] == e[i]);
  done(&x);

  /* int8: same geometry, input scale 1 zp 1, filter {1,2,3,4} scale 1,
   * output scale 2 zp -1, bias {1}: out = round((x-1)*w + 1) / 2) - 1 */
  init(&x, OP_TRANSPOSE_CONV);
  const int8_t in8[4] = {2, 3, 4, 5};   /* x - zp = 1 2 3 4 */
  const int8_t f8[4] = {1, 2, 3, 4};
  const int32_t b[1] = {1};
  tos = add_t(&x, DT_INT32, 1, (int32_t[]){4}, os);
  tf = add_t(&x, DT_INT8, 4, (int32_t[]){1, 2, 2, 1}, f8);
  ti = add_t(&x, DT_INT8, 4, (int32_t[]){1, 2, 2, 1}, NULL);
  int tb = add_t(&x, DT_INT32, 1, (int32_t[]){1}, b);
  to = add_t(&x, DT_INT8, 4, (int32_t[]){1, 4, 4, 1}, NULL);
  quant1(&x, ti, 1.0f, 1);
  quant1(&x, tf, 1.0f, 0);
  quant1(&x, to, 2.0f, -1);
  memcpy(x.data[ti], in8, sizeof in8);
  x.op.opts.stride_h = x.op.opts.stride_w = 2;
  set_io(&x, 4, (int[]){tos, tf, ti, tb}, to);
  assert_int_equal(run(&op_transpose_conv, &x), 0);
  /* row 0: 1*1+1=2 ->1 ->0; 1*2+1=3 ->1.5->2 ->1; 2*1+1=3 ->2 ->1; 2*2+1=5 ->2.5->3 ->2 */
  const int8_t *o = x.data[to];
  assert_int_equal(o[0], 0);
  assert_int_equal(o[1], 1);
  assert_int_equal(o[2], 1);
  assert_int_equal(o[3], 2);
  /* (3,3): 4*4+1 = 17 -> 8.5 -> 9 -> 8 */
  assert_int_equal(o[15], 8);
  /* TFLM ignores a fused activation on quantized TRANSPOSE_CONV: refused */
  x.op.opts.fused_act = ACT_RELU;
  expect_reject(&op_transpose_conv, &x, "activation");
  x.op.opts.fused_act = ACT_NONE;
  /* a wrong output_shape constant is refused */
  int32_t *osd = x.data[tos];
  osd[1] = 5;
  expect_reject(&op_transpose_conv, &x, "output_shape");
  done(&x);

  /* int16x8 with a constant int16 bias (widened to int64 as TFLM does):
   * 1x1 filter {3}, scales 1 -> out = 3x - 7 */
  init(&x, OP_TRANSPOSE_CONV);
  const int32_t os16[4] = {1, 1, 2, 1};
  const int16_t in16[2] = {100, -200};
  const int8_t f16[1] = {3};
  const int16_t b16[1] = {-7};
  tos = add_t(&x, DT_INT32, 1, (int32_t[]){4}, os16);
  tf = add_t(&x, DT_INT8, 4, (int32_t[]){1, 1, 1, 1}, f16);
  ti = add_t(&x, DT_INT16, 4, (int32_t[]){1, 1, 2, 1}, NULL);
  tb = add_t(&x, DT_INT16, 1, (int32_t[]){1}, b16);
  to = add_t(&x, DT_INT16, 4, (int32_t[]){1, 1, 2, 1}, NULL);
  quant1(&x, ti, 1.0f, 0);
  quant1(&x, tf, 1.0f, 0);
  quant1(&x, to, 1.0f, 0);
  memcpy(x.data[ti], in16, sizeof in16);
  set_io(&x, 4, (int[]){tos, tf, ti, tb}, to);
  assert_int_equal(run(&op_transpose_conv, &x), 0);
  assert_int_equal(((int16_t *)x.data[to])[0], 293);
  assert_int_equal(((int16_t *)x.data[to])[1], -607);
  done(&x);
}

/* ---- FULLY_CONNECTED ---- */
static void test_fc_eval(void **state) {
  (void)state;
  tg x;
  init(&x, OP_FULLY_CONNECTED);
  /* kernel hand case: scales 1 x 0.5 / 1 -> 0.5 -> {8, 3, 7, 5};
   * keep_num_dims layout [1,2,3] -> [1,2,2] */
  const int8_t in[6] = {1, 2, 3, -2, 1, 4};
  const int8_t w[6] = {1, 2, 3, -1, 0, 1};
  const int32_t b[2] = {2, -2};
  int ti = add_t(&x, DT_INT8, 3, (int32_t[]){1, 2, 3}, NULL);
  int tw = add_t(&x, DT_INT8, 2, (int32_t[]){2, 3}, w);
  int tb = add_t(&x, DT_INT32, 1, (int32_t[]){2}, b);
  int to = add_t(&x, DT_INT8, 3, (int32_t[]){1, 2, 2}, NULL);
  quant1(&x, ti, 1.0f, 1);
  quant1(&x, tw, 0.5f, 0);
  quant1(&x, to, 1.0f, 3);
  memcpy(x.data[ti], in, sizeof in);
  x.op.opts.keep_num_dims = 1;
  set_io(&x, 3, (int[]){ti, tw, tb}, to);
  assert_int_equal(run(&op_fully_connected, &x), 0);
  const int8_t e[4] = {8, 3, 7, 5};
  assert_memory_equal(x.data[to], e, 4);
  /* per-channel weights: channel 1 scale 1.0 -> {8, 3, 7, 7} */
  quant(&x, tw, 2, (float[]){0.5f, 1.0f}, NULL, 0);
  assert_int_equal(run(&op_fully_connected, &x), 0);
  const int8_t e2[4] = {8, 3, 7, 7};
  assert_memory_equal(x.data[to], e2, 4);
  /* shape mismatch */
  x.t[to].shape[2] = 3;
  expect_reject(&op_fully_connected, &x, "output");
  x.t[to].shape[2] = 2;
  x.op.opts.weights_format = 1;
  expect_reject(&op_fully_connected, &x, "shuffled");
  done(&x);

  /* float without bias, RELU */
  init(&x, OP_FULLY_CONNECTED);
  const float fin[3] = {1, 2, 3}, fw[6] = {1, 1, 1, -1, 0, 0};
  ti = add_t(&x, DT_FLOAT32, 2, (int32_t[]){1, 3}, NULL);
  tw = add_t(&x, DT_FLOAT32, 2, (int32_t[]){2, 3}, fw);
  to = add_t(&x, DT_FLOAT32, 2, (int32_t[]){1, 2}, NULL);
  memcpy(x.data[ti], fin, sizeof fin);
  x.op.opts.fused_act = ACT_RELU;
  set_io(&x, 3, (int[]){ti, tw, -1}, to);
  assert_int_equal(run(&op_fully_connected, &x), 0);
  assert_true(((float *)x.data[to])[0] == 6.0f && ((float *)x.data[to])[1] == 0.0f);
  done(&x);

  /* int16x8: x {100, -200}, w {3, 4}, bias 50 (int64), scales 1*1/4:
   * acc = 300 - 800 + 50 = -450 -> -112.5 -> int64 MBQM floors +0.5 -> -112 */
  init(&x, OP_FULLY_CONNECTED);
  const int16_t in16[2] = {100, -200};
  const int8_t w16[2] = {3, 4};
  const int64_t b64[1] = {50};
  ti = add_t(&x, DT_INT16, 2, (int32_t[]){1, 2}, NULL);
  tw = add_t(&x, DT_INT8, 2, (int32_t[]){1, 2}, w16);
  tb = add_t(&x, DT_INT64, 1, (int32_t[]){1}, b64);
  to = add_t(&x, DT_INT16, 2, (int32_t[]){1, 1}, NULL);
  quant1(&x, ti, 1.0f, 0);
  quant1(&x, tw, 1.0f, 0);
  quant1(&x, to, 4.0f, 0);
  memcpy(x.data[ti], in16, sizeof in16);
  set_io(&x, 3, (int[]){ti, tw, tb}, to);
  assert_int_equal(run(&op_fully_connected, &x), 0);
  assert_int_equal(((int16_t *)x.data[to])[0], -112);
  done(&x);
}

/* ---- pooling ---- */
static void test_pool_eval(void **state) {
  (void)state;
  tg x;
  init(&x, OP_AVERAGE_POOL_2D);
  /* 3x3x2 int8 (c1 = -c0), 3x3 SAME stride 1: corner 3 / -3, edge 4 / -4 */
  int8_t in[18];
  for (int i = 0; i < 9; i++) {
    in[2 * i] = (int8_t)(i + 1);
    in[2 * i + 1] = (int8_t)-(i + 1);
  }
  int ti = add_t(&x, DT_INT8, 4, (int32_t[]){1, 3, 3, 2}, NULL);
  int to = add_t(&x, DT_INT8, 4, (int32_t[]){1, 3, 3, 2}, NULL);
  quant1(&x, ti, 0.1f, -2);
  quant1(&x, to, 0.1f, -2);
  memcpy(x.data[ti], in, sizeof in);
  x.op.opts.padding = PAD_SAME;
  x.op.opts.filter_h = x.op.opts.filter_w = 3;
  set_io(&x, 1, (int[]){ti}, to);
  assert_int_equal(run(&op_average_pool_2d, &x), 0);
  const int8_t *o = x.data[to];
  assert_int_equal(o[0], 3);
  assert_int_equal(o[1], -3);
  assert_int_equal(o[2], 4);
  assert_int_equal(o[3], -4);
  /* RELU: the range starts at the zero point -2 */
  x.op.opts.fused_act = ACT_RELU;
  assert_int_equal(run(&op_average_pool_2d, &x), 0);
  assert_int_equal(o[1], -2);
  assert_int_equal(o[3], -2);
  x.op.opts.fused_act = ACT_NONE;
  x.op.builtin = OP_MAX_POOL_2D;
  assert_int_equal(run(&op_max_pool_2d, &x), 0);
  assert_int_equal(o[0], 5);
  assert_int_equal(o[1], -1);
  /* different output quantization is refused */
  x.scales[to][0] = 0.2f;
  expect_reject(&op_max_pool_2d, &x, "quantization");
  x.scales[to][0] = 0.1f;
  /* VALID 2x2 stride 2 on 3x3 -> 1x1 */
  x.t[to].shape[1] = x.t[to].shape[2] = 1;
  x.op.opts.padding = PAD_VALID;
  x.op.opts.filter_h = x.op.opts.filter_w = 2;
  x.op.opts.stride_h = x.op.opts.stride_w = 2;
  x.op.builtin = OP_AVERAGE_POOL_2D;
  assert_int_equal(run(&op_average_pool_2d, &x), 0);
  assert_int_equal(o[0], 3);   /* (1+2+4+5)/4 */
  assert_int_equal(o[1], -3);
  done(&x);
}

/* ---- BATCH_MATMUL ---- */
static void test_bmm_eval(void **state) {
  (void)state;
  tg x;
  init(&x, OP_BATCH_MATMUL);
  /* lhs [2,1,2,3] (values 0..11), rhs [3,3,2] stored transposed (adj_y) as
   * [3,2,3] (values 0..17 minus 8) -> out [2,3,2,2]; expected by direct
   * index arithmetic: out[a][b][i][j] = sum_k L[a][i][k] * R[b][j][k]. */
  float l[12], r[18];
  for (int i = 0; i < 12; i++) l[i] = (float)i;
  for (int i = 0; i < 18; i++) r[i] = (float)(i - 8);
  int tl = add_t(&x, DT_FLOAT32, 4, (int32_t[]){2, 1, 2, 3}, NULL);
  int tr = add_t(&x, DT_FLOAT32, 3, (int32_t[]){3, 2, 3}, r);
  int to = add_t(&x, DT_FLOAT32, 4, (int32_t[]){2, 3, 2, 2}, NULL);
  memcpy(x.data[tl], l, sizeof l);
  x.op.opts.adj_y = 1;
  set_io(&x, 2, (int[]){tl, tr}, to);
  assert_int_equal(run(&op_batch_matmul, &x), 0);
  const float *o = x.data[to];
  int n = 0;
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 3; b++)
      for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++, n++) {
          float e = 0.0f;
          for (int k = 0; k < 3; k++) e += l[a * 6 + i * 3 + k] * r[b * 6 + j * 3 + k];
          assert_true(o[n] == e);
        }
  /* out[0][0][0][0] = 0*-8 + 1*-7 + 2*-6 = -19 */
  assert_true(o[0] == -19.0f);
  /* shape errors */
  x.op.opts.adj_y = 0;
  expect_reject(&op_batch_matmul, &x, "inner");
  x.op.opts.adj_y = 1;
  x.t[to].shape[1] = 2;
  expect_reject(&op_batch_matmul, &x, "batch");
  done(&x);

  /* int8 [1,2] x [2,1]: (3-1)*(4+2) + (5-1)*(-1+2) = 12 + 4 = 16; scales
   * 0.5*0.5/0.5 = 0.5 -> 8, + zp -3 = 5 */
  init(&x, OP_BATCH_MATMUL);
  const int8_t l8[2] = {3, 5}, r8[2] = {4, -1};
  tl = add_t(&x, DT_INT8, 2, (int32_t[]){1, 2}, l8);
  tr = add_t(&x, DT_INT8, 2, (int32_t[]){2, 1}, r8);
  to = add_t(&x, DT_INT8, 2, (int32_t[]){1, 1}, NULL);
  quant1(&x, tl, 0.5f, 1);
  quant1(&x, tr, 0.5f, -2);
  quant1(&x, to, 0.5f, -3);
  set_io(&x, 2, (int[]){tl, tr}, to);
  assert_int_equal(run(&op_batch_matmul, &x), 0);
  assert_int_equal(((int8_t *)x.data[to])[0], 5);
  done(&x);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_conv_int8_eval),
      cmocka_unit_test(test_conv_same_stride_per_channel),
      cmocka_unit_test(test_conv_int16_and_float_eval),
      cmocka_unit_test(test_dwconv_eval),
      cmocka_unit_test(test_tconv_eval),
      cmocka_unit_test(test_fc_eval),
      cmocka_unit_test(test_pool_eval),
      cmocka_unit_test(test_bmm_eval),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
