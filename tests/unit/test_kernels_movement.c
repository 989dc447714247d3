/* test_kernels_movement.c - data movement op_impls and kernels (reshape,
 * concatenation, pad, strided_slice, slice, transpose, split, pack, unpack,
 * gather, reverse, cast, shape, fill, zeros_like, tile, broadcast_to,
 * mirror_pad, resize, depth_to_space, space_to_depth) through tiny hand-built
 * IR graphs, against hand-computed expected values. */
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

extern const op_impl op_reshape, op_squeeze, op_expand_dims, op_concatenation, op_pad, op_padv2,
    op_mirror_pad, op_strided_slice, op_slice, op_transpose, op_split, op_split_v, op_pack,
    op_unpack, op_gather, op_reverse_v2, op_cast, op_shape, op_fill, op_zeros_like, op_tile,
    op_broadcast_to, op_resize_nearest_neighbor, op_resize_bilinear, op_depth_to_space,
    op_space_to_depth;

/* ---- a tiny graph builder ---- */
#define MAXT 16
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
  if (data) {
    memcpy(x->data[i], data, bytes);
    t->data_bytes = bytes;
  }
  return i;
}
/* a constant tensor */
static int add_c(tg *x, int dtype, int rank, const int32_t *shape, const void *data) {
  int i = add_t(x, dtype, rank, shape, data);
  x->t[i].role = ROLE_CONST;
  x->t[i].data = x->data[i];
  return i;
}
static int add_ci32(tg *x, int n, const int32_t *v) {
  int32_t s[1] = {n};
  return add_c(x, DT_INT32, 1, s, v);
}
static void quant1(tg *x, int t, float s, int32_t zp) {
  x->t[t].nq = 1;
  x->scales[t][0] = s;
  x->zps[t][0] = zp;
}
static void set_in(tg *x, int n, ...) {
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) x->in[i] = va_arg(ap, int);
  va_end(ap);
  x->op.nin = n;
}
static void set_out(tg *x, int n, ...) {
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) x->out[i] = va_arg(ap, int);
  va_end(ap);
  x->op.nout = n;
}

/* check() must accept, then eval() returns its status */
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
  if (needle && !strstr(why, needle)) print_error("reason '%s' lacks '%s'\n", why, needle);
  if (needle) assert_non_null(strstr(why, needle));
}

#define S(...) ((const int32_t[]){__VA_ARGS__})
#define CHECK_I8(t, ...)                                                        \
  do {                                                                          \
    const int8_t ex_[] = {__VA_ARGS__};                                         \
    assert_memory_equal(x->data[t], ex_, sizeof ex_);                           \
  } while (0)
#define CHECK_I16(t, ...)                                                       \
  do {                                                                          \
    const int16_t ex_[] = {__VA_ARGS__};                                        \
    assert_memory_equal(x->data[t], ex_, sizeof ex_);                           \
  } while (0)
#define CHECK_I32(t, ...)                                                       \
  do {                                                                          \
    const int32_t ex_[] = {__VA_ARGS__};                                        \
    assert_memory_equal(x->data[t], ex_, sizeof ex_);                           \
  } while (0)
#define CHECK_I64(t, ...)                                                       \
  do {                                                                          \
    const int64_t ex_[] = {__VA_ARGS__};                                        \
    assert_memory_equal(x->data[t], ex_, sizeof ex_);                           \
  } while (0)
#define CHECK_F32(t, ...)                                                       \
  do {                                                                          \
    const float ex_[] = {__VA_ARGS__};                                          \
    assert_memory_equal(x->data[t], ex_, sizeof ex_);                           \
  } while (0)

/* ---------------- kernels directly ---------------- */

static void test_copy_nd_kernel(void **state) {
  (void)state;
  /* transpose of a 2x3 int16 matrix; negative strides; broadcast */
  const int16_t in[6] = {1, 2, 3, 4, 5, 6};
  int16_t out[6] = {0};
  const int32_t cnt[2] = {3, 2}, is[2] = {1, 3}, os[2] = {2, 1};
  aot_copy_params p = {2, 2, 0, 0, cnt, is, os};
  assert_int_equal(aot_copy_nd(&p, in, out), 0);
  const int16_t ex[6] = {1, 4, 2, 5, 3, 6};
  assert_memory_equal(out, ex, sizeof ex);
  /* reverse rows and columns: start at the last element, strides -3, -1 */
  const int32_t cnt2[2] = {2, 3}, is2[2] = {-3, -1}, os2[2] = {3, 1};
  aot_copy_params p2 = {2, 2, 5, 0, cnt2, is2, os2};
  assert_int_equal(aot_copy_nd(&p2, in, out), 0);
  const int16_t ex2[6] = {6, 5, 4, 3, 2, 1};
  assert_memory_equal(out, ex2, sizeof ex2);
  /* 8-byte elements with stride 0 (broadcast of one row) */
  const int64_t in8[2] = {7, -9};
  int64_t out8[6];
  const int32_t cnt3[2] = {3, 2}, is3[2] = {0, 1}, os3[2] = {2, 1};
  aot_copy_params p3 = {2, 8, 0, 0, cnt3, is3, os3};
  assert_int_equal(aot_copy_nd(&p3, in8, out8), 0);
  const int64_t ex3[6] = {7, -9, 7, -9, 7, -9};
  assert_memory_equal(out8, ex3, sizeof ex3);
  /* bad parameters */
  aot_copy_params bad = {0, 2, 0, 0, cnt, is, os};
  assert_int_not_equal(aot_copy_nd(&bad, in, out), 0);
  bad.rank = 2;
  bad.elem_size = 3;
  assert_int_not_equal(aot_copy_nd(&bad, in, out), 0);
}

static void test_fill_kernel(void **state) {
  (void)state;
  const float v = -2.5f;
  float out[5];
  aot_fill_params p = {5, 4};
  assert_int_equal(aot_fill(&p, &v, out), 0);
  for (int i = 0; i < 5; i++) assert_true(out[i] == -2.5f);
  const int8_t b = -7;
  int8_t ob[3];
  aot_fill_params p1 = {3, 1};
  assert_int_equal(aot_fill(&p1, &b, ob), 0);
  assert_int_equal(ob[2], -7);
}

/* ---------------- reshape family ---------------- */

static void test_reshape_copy(void **state) {
  (void)state;
  const float v[6] = {1, 2, 3, 4, 5, 6};
  tg *x = new_tg(OP_RESHAPE);
  int a = add_t(x, DT_FLOAT32, 2, S(2, 3), v);
  int sh = add_ci32(x, 1, S(6));
  int o = add_t(x, DT_FLOAT32, 1, S(6), NULL);
  set_in(x, 2, a, sh);
  set_out(x, 1, o);
  run_ok(x, &op_reshape);
  assert_memory_equal(x->data[o], v, sizeof v);
  free_tg(x);

  /* squeeze / expand_dims of int8, bool */
  const int8_t b[4] = {1, -2, 3, -4};
  x = new_tg(OP_SQUEEZE);
  a = add_t(x, DT_INT8, 3, S(1, 4, 1), b);
  o = add_t(x, DT_INT8, 1, S(4), NULL);
  set_in(x, 1, a);
  set_out(x, 1, o);
  run_ok(x, &op_squeeze);
  assert_memory_equal(x->data[o], b, 4);
  free_tg(x);

  x = new_tg(OP_EXPAND_DIMS);
  a = add_t(x, DT_BOOL, 1, S(4), b);
  int ax = add_ci32(x, 1, S(0));
  o = add_t(x, DT_BOOL, 2, S(1, 4), NULL);
  set_in(x, 2, a, ax);
  set_out(x, 1, o);
  run_ok(x, &op_expand_dims);
  assert_memory_equal(x->data[o], b, 4);
  free_tg(x);

  /* element count mismatch and dtype mismatch are refused */
  x = new_tg(OP_RESHAPE);
  a = add_t(x, DT_FLOAT32, 2, S(2, 3), v);
  o = add_t(x, DT_FLOAT32, 1, S(5), NULL);
  set_in(x, 1, a);
  set_out(x, 1, o);
  expect_refused(x, &op_reshape, "elements");
  free_tg(x);
  x = new_tg(OP_RESHAPE);
  a = add_t(x, DT_FLOAT32, 2, S(2, 3), v);
  o = add_t(x, DT_INT32, 1, S(6), NULL);
  set_in(x, 1, a);
  set_out(x, 1, o);
  expect_refused(x, &op_reshape, "int32");
  free_tg(x);
}

/* ---------------- concatenation ---------------- */

static void test_concat_axis1_int8(void **state) {
  (void)state;
  tg *x = new_tg(OP_CONCATENATION);
  int a = add_t(x, DT_INT8, 2, S(2, 2), (const int8_t[]){1, 2, 3, 4});
  int b = add_t(x, DT_INT8, 2, S(2, 1), (const int8_t[]){5, 6});
  int o = add_t(x, DT_INT8, 2, S(2, 3), NULL);
  quant1(x, a, 0.5f, 3);
  quant1(x, b, 0.5f, 3);
  quant1(x, o, 0.5f, 3);
  set_in(x, 2, a, b);
  set_out(x, 1, o);
  x->op.opts.axis = -1;
  run_ok(x, &op_concatenation);
  CHECK_I8(o, 1, 2, 5, 3, 4, 6);
  free_tg(x);
}

static void test_concat_axis0_float_3in(void **state) {
  (void)state;
  tg *x = new_tg(OP_CONCATENATION);
  int a = add_t(x, DT_FLOAT32, 2, S(1, 2), (const float[]){1, 2});
  int b = add_t(x, DT_FLOAT32, 2, S(2, 2), (const float[]){3, 4, 5, 6});
  int c = add_t(x, DT_FLOAT32, 2, S(1, 2), (const float[]){7, 8});
  int o = add_t(x, DT_FLOAT32, 2, S(4, 2), NULL);
  set_in(x, 3, a, b, c);
  set_out(x, 1, o);
  run_ok(x, &op_concatenation);
  CHECK_F32(o, 1, 2, 3, 4, 5, 6, 7, 8);
  free_tg(x);
  /* int64 along the middle axis of a 3-D tensor */
  x = new_tg(OP_CONCATENATION);
  a = add_t(x, DT_INT64, 3, S(2, 1, 2), (const int64_t[]){1, 2, 3, 4});
  b = add_t(x, DT_INT64, 3, S(2, 2, 2), (const int64_t[]){10, 11, 12, 13, 14, 15, 16, 17});
  o = add_t(x, DT_INT64, 3, S(2, 3, 2), NULL);
  set_in(x, 2, a, b);
  set_out(x, 1, o);
  x->op.opts.axis = 1;
  run_ok(x, &op_concatenation);
  CHECK_I64(o, 1, 2, 10, 11, 12, 13, 3, 4, 14, 15, 16, 17);
  free_tg(x);
}

static void test_concat_requant(void **state) {
  (void)state;
  /* in0 scale 0.5 zp 0: round(v * 0.5) (half away from zero);
   * in1 scale 1 zp 10: v - 10, clamped; output scale 1 zp 0. */
  tg *x = new_tg(OP_CONCATENATION);
  int a = add_t(x, DT_INT8, 1, S(4), (const int8_t[]){4, -3, 7, 5});
  int b = add_t(x, DT_INT8, 1, S(3), (const int8_t[]){10, 20, -128});
  int o = add_t(x, DT_INT8, 1, S(7), NULL);
  quant1(x, a, 0.5f, 0);
  quant1(x, b, 1.0f, 10);
  quant1(x, o, 1.0f, 0);
  set_in(x, 2, a, b);
  set_out(x, 1, o);
  run_ok(x, &op_concatenation);
  CHECK_I8(o, 2, -2, 4, 3, 0, 10, -128);
  free_tg(x);

  /* int16, output zero point applied, saturation at 32767 */
  x = new_tg(OP_CONCATENATION);
  a = add_t(x, DT_INT16, 1, S(2), (const int16_t[]){100, 30000});
  b = add_t(x, DT_INT16, 1, S(1), (const int16_t[]){-7});
  o = add_t(x, DT_INT16, 1, S(3), NULL);
  quant1(x, a, 2.0f, 0);
  quant1(x, b, 1.0f, 0);
  quant1(x, o, 1.0f, 0);
  set_in(x, 2, a, b);
  set_out(x, 1, o);
  run_ok(x, &op_concatenation);
  CHECK_I16(o, 200, 32767, -7);
  free_tg(x);

  /* fused activation refused; mismatched dims refused */
  x = new_tg(OP_CONCATENATION);
  a = add_t(x, DT_FLOAT32, 1, S(2), NULL);
  b = add_t(x, DT_FLOAT32, 1, S(2), NULL);
  o = add_t(x, DT_FLOAT32, 1, S(4), NULL);
  set_in(x, 2, a, b);
  set_out(x, 1, o);
  x->op.opts.fused_act = ACT_RELU;
  expect_refused(x, &op_concatenation, "activation");
  x->op.opts.fused_act = ACT_NONE;
  x->t[o].shape[0] = 5;
  expect_refused(x, &op_concatenation, "sum");
  free_tg(x);
}

/* ---------------- pad ---------------- */

static void test_pad_int8_zero_point(void **state) {
  (void)state;
  tg *x = new_tg(OP_PAD);
  int a = add_t(x, DT_INT8, 4, S(1, 2, 2, 1), (const int8_t[]){1, 2, 3, 4});
  int pd = add_c(x, DT_INT32, 2, S(4, 2), (const int32_t[]){0, 0, 1, 0, 0, 1, 0, 0});
  int o = add_t(x, DT_INT8, 4, S(1, 3, 3, 1), NULL);
  quant1(x, a, 0.1f, -5);
  quant1(x, o, 0.1f, -5);
  set_in(x, 2, a, pd);
  set_out(x, 1, o);
  run_ok(x, &op_pad);
  CHECK_I8(o, -5, -5, -5, 1, 2, -5, 3, 4, -5);
  free_tg(x);
}

static void test_pad_float_int16_padv2(void **state) {
  (void)state;
  tg *x = new_tg(OP_PAD);
  int a = add_t(x, DT_FLOAT32, 1, S(2), (const float[]){1.5f, -2});
  int pd = add_c(x, DT_INT64, 2, S(1, 2), (const int64_t[]){2, 1});
  int o = add_t(x, DT_FLOAT32, 1, S(5), NULL);
  set_in(x, 2, a, pd);
  set_out(x, 1, o);
  run_ok(x, &op_pad);
  CHECK_F32(o, 0, 0, 1.5f, -2, 0);
  free_tg(x);

  x = new_tg(OP_PAD);
  a = add_t(x, DT_INT16, 2, S(2, 2), (const int16_t[]){1, 2, 3, 4});
  pd = add_c(x, DT_INT32, 2, S(2, 2), (const int32_t[]){1, 1, 0, 1});
  o = add_t(x, DT_INT16, 2, S(4, 3), NULL);
  quant1(x, a, 1.0f / 32768, 0);
  quant1(x, o, 1.0f / 32768, 0);
  set_in(x, 2, a, pd);
  set_out(x, 1, o);
  run_ok(x, &op_pad);
  CHECK_I16(o, 0, 0, 0, 1, 2, 0, 3, 4, 0, 0, 0, 0);
  free_tg(x);

  x = new_tg(OP_PADV2);
  a = add_t(x, DT_FLOAT32, 2, S(1, 2), (const float[]){1, 2});
  pd = add_c(x, DT_INT32, 2, S(2, 2), (const int32_t[]){0, 1, 1, 0});
  int cv = add_c(x, DT_FLOAT32, 0, NULL, (const float[]){9.5f});
  o = add_t(x, DT_FLOAT32, 2, S(2, 3), NULL);
  set_in(x, 3, a, pd, cv);
  set_out(x, 1, o);
  run_ok(x, &op_padv2);
  CHECK_F32(o, 9.5f, 1, 2, 9.5f, 9.5f, 9.5f);
  /* a runtime (non-constant) pad value works too */
  x->t[cv].role = ROLE_SCRATCH;
  x->t[cv].data = NULL;
  memcpy(x->data[cv], (const float[]){-1.0f}, 4);
  run_ok(x, &op_padv2);
  CHECK_F32(o, -1, 1, 2, -1, -1, -1);
  /* non-constant paddings are refused */
  x->t[pd].role = ROLE_SCRATCH;
  x->t[pd].data = NULL;
  expect_refused(x, &op_padv2, "constant");
  free_tg(x);
}

static void test_mirror_pad(void **state) {
  (void)state;
  tg *x = new_tg(OP_MIRROR_PAD);
  int a = add_t(x, DT_INT8, 1, S(3), (const int8_t[]){1, 2, 3});
  int pd = add_c(x, DT_INT32, 2, S(1, 2), (const int32_t[]){2, 1});
  int o = add_t(x, DT_INT8, 1, S(6), NULL);
  set_in(x, 2, a, pd);
  set_out(x, 1, o);
  x->op.opts.mirror_mode = 0; /* REFLECT */
  run_ok(x, &op_mirror_pad);
  CHECK_I8(o, 3, 2, 1, 2, 3, 2);
  free_tg(x);

  x = new_tg(OP_MIRROR_PAD);
  a = add_t(x, DT_FLOAT32, 2, S(2, 3), (const float[]){1, 2, 3, 4, 5, 6});
  pd = add_c(x, DT_INT32, 2, S(2, 2), (const int32_t[]){1, 0, 2, 2});
  o = add_t(x, DT_FLOAT32, 2, S(3, 7), NULL);
  set_in(x, 2, a, pd);
  set_out(x, 1, o);
  x->op.opts.mirror_mode = 1; /* SYMMETRIC */
  run_ok(x, &op_mirror_pad);
  CHECK_F32(o, 2, 1, 1, 2, 3, 3, 2,  /* row 0 mirrors row 0 */
            2, 1, 1, 2, 3, 3, 2, 5, 4, 4, 5, 6, 6, 5);
  /* REFLECT cannot pad 3 from a dim of 3 */
  x->op.opts.mirror_mode = 0;
  ((int32_t *)x->data[pd])[2] = 3;
  expect_refused(x, &op_mirror_pad, "too large");
  free_tg(x);
}

/* ---------------- strided slice ---------------- */

static tg *ss_graph(int dtype, int rank, const int32_t *shape, const void *data, int n,
                    const int32_t *b, const int32_t *e, const int32_t *s, int orank,
                    const int32_t *oshape) {
  tg *x = new_tg(OP_STRIDED_SLICE);
  int a = add_t(x, dtype, rank, shape, data);
  int cb = add_ci32(x, n, b), ce = add_ci32(x, n, e), cs = add_ci32(x, n, s);
  int o = add_t(x, dtype, orank, oshape, NULL);
  set_in(x, 4, a, cb, ce, cs);
  set_out(x, 1, o);
  return x;
}

static void test_strided_slice_1d(void **state) {
  (void)state;
  const int16_t v[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  tg *x = ss_graph(DT_INT16, 1, S(10), v, 1, S(1), S(8), S(3), 1, S(3));
  run_ok(x, &op_strided_slice);
  CHECK_I16(4, 1, 4, 7);
  free_tg(x);
  /* negative stride */
  x = ss_graph(DT_INT16, 1, S(10), v, 1, S(8), S(1), S(-3), 1, S(3));
  run_ok(x, &op_strided_slice);
  CHECK_I16(4, 8, 5, 2);
  free_tg(x);
  /* negative begin, end_mask with negative stride: whole reversed */
  x = ss_graph(DT_INT16, 1, S(10), v, 1, S(-1), S(0), S(-1), 1, S(10));
  x->op.opts.end_mask = 1;
  run_ok(x, &op_strided_slice);
  CHECK_I16(4, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  free_tg(x);
  /* out-of-range end clamps */
  x = ss_graph(DT_INT16, 1, S(10), v, 1, S(7), S(100), S(1), 1, S(3));
  run_ok(x, &op_strided_slice);
  CHECK_I16(4, 7, 8, 9);
  free_tg(x);
  /* stride 0 refused */
  x = ss_graph(DT_INT16, 1, S(10), v, 1, S(7), S(100), S(0), 1, S(3));
  expect_refused(x, &op_strided_slice, "zero");
  free_tg(x);
}

static void test_strided_slice_masks(void **state) {
  (void)state;
  float v[12];
  for (int i = 0; i < 12; i++) v[i] = (float)i;
  /* shrink axis 0: row 1, columns 0 and 2 */
  tg *x = ss_graph(DT_FLOAT32, 2, S(3, 4), v, 2, S(1, 0), S(2, 4), S(1, 2), 1, S(2));
  x->op.opts.shrink_axis_mask = 1;
  run_ok(x, &op_strided_slice);
  CHECK_F32(4, 4, 6);
  free_tg(x);
  /* begin_mask / end_mask on dim 0 */
  x = ss_graph(DT_FLOAT32, 2, S(3, 4), v, 2, S(5, 1), S(0, 3), S(1, 1), 2, S(3, 2));
  x->op.opts.begin_mask = 1;
  x->op.opts.end_mask = 1;
  run_ok(x, &op_strided_slice);
  CHECK_F32(4, 1, 2, 5, 6, 9, 10);
  free_tg(x);
  /* offset: end = begin + end */
  x = ss_graph(DT_FLOAT32, 2, S(3, 4), v, 2, S(0, 1), S(2, 2), S(1, 1), 2, S(2, 2));
  x->op.opts.ss_offset = 1;
  run_ok(x, &op_strided_slice);
  CHECK_F32(4, 1, 2, 5, 6);
  free_tg(x);
  /* ellipsis: [..., 1:3] on [2,2,3] */
  x = ss_graph(DT_FLOAT32, 3, S(2, 2, 3), v, 2, S(0, 1), S(0, 3), S(1, 1), 3, S(2, 2, 2));
  x->op.opts.ellipsis_mask = 1;
  run_ok(x, &op_strided_slice);
  CHECK_F32(4, 1, 2, 4, 5, 7, 8, 10, 11);
  free_tg(x);
  /* new_axis: [newaxis, 0:3] on [3] */
  x = ss_graph(DT_FLOAT32, 1, S(3), v, 2, S(0, 0), S(0, 3), S(1, 1), 2, S(1, 3));
  x->op.opts.new_axis_mask = 1;
  run_ok(x, &op_strided_slice);
  CHECK_F32(4, 0, 1, 2);
  free_tg(x);
  /* fewer indices than dims: remaining dims are taken whole */
  x = ss_graph(DT_FLOAT32, 2, S(3, 4), v, 1, S(2), S(3), S(1), 2, S(1, 4));
  run_ok(x, &op_strided_slice);
  CHECK_F32(4, 8, 9, 10, 11);
  free_tg(x);
  /* 5-D with a negative stride on an inner dim and shrink on the last */
  int8_t w[32];
  for (int i = 0; i < 32; i++) w[i] = (int8_t)i;
  x = ss_graph(DT_INT8, 5, S(2, 2, 2, 2, 2), w, 5, S(0, 1, -1, 0, 1), S(2, 2, -3, 2, 2),
               S(1, 1, -1, 1, 1), 4, S(2, 1, 2, 2));
  x->op.opts.shrink_axis_mask = 16;
  run_ok(x, &op_strided_slice);
  /* index = 16a + 8*1 + 4c' + 2d + 1 with c' = 1, 0 */
  CHECK_I8(4, 13, 15, 9, 11, 29, 31, 25, 27);
  free_tg(x);
  /* wrong output shape refused */
  x = ss_graph(DT_FLOAT32, 2, S(3, 4), v, 2, S(0, 0), S(3, 4), S(1, 1), 2, S(3, 3));
  expect_refused(x, &op_strided_slice, "elements");
  free_tg(x);
}

/* ---------------- slice, transpose, reverse ---------------- */

static void test_slice(void **state) {
  (void)state;
  int32_t v[12];
  for (int i = 0; i < 12; i++) v[i] = i;
  tg *x = new_tg(OP_SLICE);
  int a = add_t(x, DT_INT32, 2, S(3, 4), v);
  int b = add_ci32(x, 2, S(1, 1));
  int s = add_c(x, DT_INT64, 1, S(2), (const int64_t[]){2, -1});
  int o = add_t(x, DT_INT32, 2, S(2, 3), NULL);
  set_in(x, 3, a, b, s);
  set_out(x, 1, o);
  run_ok(x, &op_slice);
  CHECK_I32(o, 5, 6, 7, 9, 10, 11);
  /* out of range refused */
  ((int32_t *)x->data[b])[0] = 2;
  expect_refused(x, &op_slice, "range");
  free_tg(x);
}

static void test_transpose(void **state) {
  (void)state;
  int16_t v[24];
  for (int i = 0; i < 24; i++) v[i] = (int16_t)i;
  tg *x = new_tg(OP_TRANSPOSE);
  int a = add_t(x, DT_INT16, 3, S(2, 3, 4), v);
  int p = add_ci32(x, 3, S(2, 0, 1));
  int o = add_t(x, DT_INT16, 3, S(4, 2, 3), NULL);
  set_in(x, 2, a, p);
  set_out(x, 1, o);
  run_ok(x, &op_transpose);
  /* out[k][i][j] = in[i][j][k] = 12i + 4j + k */
  const int16_t *r = x->data[o];
  for (int k = 0; k < 4; k++)
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 3; j++) assert_int_equal(r[k * 6 + i * 3 + j], 12 * i + 4 * j + k);
  free_tg(x);

  /* 6-D: reverse all axes of [1,2,1,2,1,2] */
  float f[8];
  for (int i = 0; i < 8; i++) f[i] = (float)i;
  x = new_tg(OP_TRANSPOSE);
  a = add_t(x, DT_FLOAT32, 6, S(1, 2, 1, 2, 1, 2), f);
  p = add_ci32(x, 6, S(5, 4, 3, 2, 1, 0));
  o = add_t(x, DT_FLOAT32, 6, S(2, 1, 2, 1, 2, 1), NULL);
  set_in(x, 2, a, p);
  set_out(x, 1, o);
  run_ok(x, &op_transpose);
  /* in index 4a + 2b + c (a,b,c the size-2 dims) -> out index 4c + 2b + a */
  CHECK_F32(o, 0, 4, 2, 6, 1, 5, 3, 7);
  /* not a permutation */
  ((int32_t *)x->data[p])[0] = 3;
  expect_refused(x, &op_transpose, "permutation");
  free_tg(x);
}

static void test_reverse(void **state) {
  (void)state;
  const int8_t v[6] = {0, 1, 2, 3, 4, 5};
  tg *x = new_tg(OP_REVERSE_V2);
  int a = add_t(x, DT_INT8, 2, S(2, 3), v);
  int ax = add_ci32(x, 1, S(-1));
  int o = add_t(x, DT_INT8, 2, S(2, 3), NULL);
  set_in(x, 2, a, ax);
  set_out(x, 1, o);
  run_ok(x, &op_reverse_v2);
  CHECK_I8(o, 2, 1, 0, 5, 4, 3);
  free_tg(x);
  x = new_tg(OP_REVERSE_V2);
  a = add_t(x, DT_INT8, 2, S(2, 3), v);
  ax = add_ci32(x, 2, S(0, 1));
  o = add_t(x, DT_INT8, 2, S(2, 3), NULL);
  set_in(x, 2, a, ax);
  set_out(x, 1, o);
  run_ok(x, &op_reverse_v2);
  CHECK_I8(o, 5, 4, 3, 2, 1, 0);
  free_tg(x);
}

/* ---------------- split, pack, unpack ---------------- */

static void test_split(void **state) {
  (void)state;
  const int8_t v[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  tg *x = new_tg(OP_SPLIT);
  int ax = add_ci32(x, 1, S(1));
  int a = add_t(x, DT_INT8, 2, S(2, 4), v);
  int o0 = add_t(x, DT_INT8, 2, S(2, 2), NULL);
  int o1 = add_t(x, DT_INT8, 2, S(2, 2), NULL);
  set_in(x, 2, ax, a);
  set_out(x, 2, o0, o1);
  x->op.opts.num_splits = 2;
  run_ok(x, &op_split);
  CHECK_I8(o0, 0, 1, 4, 5);
  CHECK_I8(o1, 2, 3, 6, 7);
  free_tg(x);

  x = new_tg(OP_SPLIT_V);
  a = add_t(x, DT_INT8, 2, S(2, 4), v);
  int sz = add_ci32(x, 2, S(1, -1));
  ax = add_ci32(x, 1, S(-1));
  o0 = add_t(x, DT_INT8, 2, S(2, 1), NULL);
  o1 = add_t(x, DT_INT8, 2, S(2, 3), NULL);
  set_in(x, 3, a, sz, ax);
  set_out(x, 2, o0, o1);
  x->op.opts.num_splits = 2;
  run_ok(x, &op_split_v);
  CHECK_I8(o0, 0, 4);
  CHECK_I8(o1, 1, 2, 3, 5, 6, 7);
  free_tg(x);
}

static void test_pack_unpack(void **state) {
  (void)state;
  tg *x = new_tg(OP_PACK);
  int a = add_t(x, DT_FLOAT32, 1, S(2), (const float[]){1, 2});
  int b = add_t(x, DT_FLOAT32, 1, S(2), (const float[]){3, 4});
  int c = add_t(x, DT_FLOAT32, 1, S(2), (const float[]){5, 6});
  int o = add_t(x, DT_FLOAT32, 2, S(2, 3), NULL);
  set_in(x, 3, a, b, c);
  set_out(x, 1, o);
  x->op.opts.axis = 1;
  x->op.opts.num = 3;
  run_ok(x, &op_pack);
  CHECK_F32(o, 1, 3, 5, 2, 4, 6);
  free_tg(x);

  x = new_tg(OP_UNPACK);
  a = add_t(x, DT_INT32, 2, S(2, 3), (const int32_t[]){1, 2, 3, 4, 5, 6});
  int o0 = add_t(x, DT_INT32, 1, S(2), NULL);
  int o1 = add_t(x, DT_INT32, 1, S(2), NULL);
  int o2 = add_t(x, DT_INT32, 1, S(2), NULL);
  set_in(x, 1, a);
  set_out(x, 3, o0, o1, o2);
  x->op.opts.axis = -1;
  x->op.opts.num = 3;
  run_ok(x, &op_unpack);
  CHECK_I32(o0, 1, 4);
  CHECK_I32(o1, 2, 5);
  CHECK_I32(o2, 3, 6);
  free_tg(x);
}

/* ---------------- gather ---------------- */

static void test_gather(void **state) {
  (void)state;
  tg *x = new_tg(OP_GATHER);
  int a = add_t(x, DT_FLOAT32, 2, S(2, 3), (const float[]){0, 1, 2, 3, 4, 5});
  int ix = add_t(x, DT_INT32, 1, S(2), (const int32_t[]){2, 0});
  int o = add_t(x, DT_FLOAT32, 2, S(2, 2), NULL);
  set_in(x, 2, a, ix);
  set_out(x, 1, o);
  x->op.opts.axis = 1;
  run_ok(x, &op_gather);
  CHECK_F32(o, 2, 0, 5, 3);
  /* an index out of range fails at run time */
  ((int32_t *)x->data[ix])[1] = 3;
  assert_int_equal(run(x, &op_gather), AOT_KERNEL_INDEX_RANGE);
  ((int32_t *)x->data[ix])[1] = -1;
  assert_int_equal(run(x, &op_gather), AOT_KERNEL_INDEX_RANGE);
  free_tg(x);

  /* axis 0, int64 indices of rank 2, int8 rows */
  x = new_tg(OP_GATHER);
  a = add_t(x, DT_INT8, 2, S(3, 2), (const int8_t[]){10, 11, 20, 21, 30, 31});
  ix = add_t(x, DT_INT64, 2, S(2, 2), (const int64_t[]){2, 2, 0, 1});
  o = add_t(x, DT_INT8, 3, S(2, 2, 2), NULL);
  set_in(x, 2, a, ix);
  set_out(x, 1, o);
  run_ok(x, &op_gather);
  CHECK_I8(o, 30, 31, 30, 31, 10, 11, 20, 21);
  free_tg(x);

  /* batch_dims = 1 */
  x = new_tg(OP_GATHER);
  a = add_t(x, DT_INT16, 2, S(2, 3), (const int16_t[]){0, 1, 2, 3, 4, 5});
  ix = add_t(x, DT_INT32, 2, S(2, 1), (const int32_t[]){1, 2});
  o = add_t(x, DT_INT16, 2, S(2, 1), NULL);
  set_in(x, 2, a, ix);
  set_out(x, 1, o);
  x->op.opts.axis = 1;
  x->op.opts.batch_dims = 1;
  run_ok(x, &op_gather);
  CHECK_I16(o, 1, 5);
  free_tg(x);
}

/* ---------------- cast, shape, fill, zeros_like ---------------- */

static void test_cast(void **state) {
  (void)state;
  tg *x = new_tg(OP_CAST);
  int a = add_t(x, DT_FLOAT32, 1, S(5), (const float[]){2.7f, -2.7f, 300.0f, -0.5f, 127.9f});
  int o = add_t(x, DT_INT8, 1, S(5), NULL);
  set_in(x, 1, a);
  set_out(x, 1, o);
  run_ok(x, &op_cast);
  CHECK_I8(o, 2, -2, 44, 0, 127); /* truncation; 300 wraps to 44 */
  free_tg(x);

  x = new_tg(OP_CAST);
  a = add_t(x, DT_INT32, 1, S(3), (const int32_t[]){0, 5, -1});
  o = add_t(x, DT_BOOL, 1, S(3), NULL);
  set_in(x, 1, a);
  set_out(x, 1, o);
  run_ok(x, &op_cast);
  CHECK_I8(o, 0, 1, 1);
  free_tg(x);

  x = new_tg(OP_CAST);
  a = add_t(x, DT_BOOL, 1, S(2), (const uint8_t[]){0, 1});
  o = add_t(x, DT_FLOAT32, 1, S(2), NULL);
  set_in(x, 1, a);
  set_out(x, 1, o);
  run_ok(x, &op_cast);
  CHECK_F32(o, 0.0f, 1.0f);
  free_tg(x);

  x = new_tg(OP_CAST);
  a = add_t(x, DT_INT8, 1, S(2), (const int8_t[]){-1, 7});
  o = add_t(x, DT_UINT8, 1, S(2), NULL);
  set_in(x, 1, a);
  set_out(x, 1, o);
  run_ok(x, &op_cast);
  assert_int_equal(((uint8_t *)x->data[o])[0], 255);
  assert_int_equal(((uint8_t *)x->data[o])[1], 7);
  free_tg(x);

  x = new_tg(OP_CAST);
  a = add_t(x, DT_INT16, 1, S(2), (const int16_t[]){-32768, 12});
  o = add_t(x, DT_INT32, 1, S(2), NULL);
  set_in(x, 1, a);
  set_out(x, 1, o);
  run_ok(x, &op_cast);
  CHECK_I32(o, -32768, 12);
  free_tg(x);

  x = new_tg(OP_CAST);
  a = add_t(x, DT_UINT8, 1, S(2), (const uint8_t[]){200, 3});
  o = add_t(x, DT_FLOAT32, 1, S(2), NULL);
  set_in(x, 1, a);
  set_out(x, 1, o);
  run_ok(x, &op_cast);
  CHECK_F32(o, 200.0f, 3.0f);
  free_tg(x);

  /* more than one 32-element chunk: int16 -> int8 keeps the low byte */
  int16_t w[70];
  for (int i = 0; i < 70; i++) w[i] = (int16_t)(i * 256 + (i - 35));
  x = new_tg(OP_CAST);
  a = add_t(x, DT_INT16, 1, S(70), w);
  o = add_t(x, DT_INT8, 1, S(70), NULL);
  set_in(x, 1, a);
  set_out(x, 1, o);
  run_ok(x, &op_cast);
  for (int i = 0; i < 70; i++) assert_int_equal(((int8_t *)x->data[o])[i], i - 35);
  free_tg(x);

  x = new_tg(OP_CAST);
  a = add_t(x, DT_STRING, 1, S(2), NULL);
  o = add_t(x, DT_FLOAT32, 1, S(2), NULL);
  set_in(x, 1, a);
  set_out(x, 1, o);
  expect_refused(x, &op_cast, "not supported");
  free_tg(x);
}

static void test_shape_fill_zeros(void **state) {
  (void)state;
  tg *x = new_tg(OP_SHAPE);
  int a = add_t(x, DT_FLOAT32, 3, S(2, 3, 5), NULL);
  int o = add_t(x, DT_INT32, 1, S(3), NULL);
  set_in(x, 1, a);
  set_out(x, 1, o);
  run_ok(x, &op_shape);
  CHECK_I32(o, 2, 3, 5);
  free_tg(x);
  x = new_tg(OP_SHAPE);
  a = add_t(x, DT_INT8, 2, S(7, 1), NULL);
  o = add_t(x, DT_INT64, 1, S(2), NULL);
  set_in(x, 1, a);
  set_out(x, 1, o);
  run_ok(x, &op_shape);
  CHECK_I64(o, 7, 1);
  free_tg(x);

  x = new_tg(OP_FILL);
  int d = add_ci32(x, 2, S(2, 2));
  int v = add_t(x, DT_FLOAT32, 0, NULL, (const float[]){1.5f});
  o = add_t(x, DT_FLOAT32, 2, S(2, 2), NULL);
  set_in(x, 2, d, v);
  set_out(x, 1, o);
  run_ok(x, &op_fill);
  CHECK_F32(o, 1.5f, 1.5f, 1.5f, 1.5f);
  free_tg(x);

  x = new_tg(OP_ZEROS_LIKE);
  a = add_t(x, DT_INT16, 1, S(3), (const int16_t[]){4, 5, 6});
  o = add_t(x, DT_INT16, 1, S(3), NULL);
  memset(x->data[o], 0x5a, 6);
  set_in(x, 1, a);
  set_out(x, 1, o);
  run_ok(x, &op_zeros_like);
  CHECK_I16(o, 0, 0, 0);
  free_tg(x);
}

/* ---------------- tile, broadcast_to ---------------- */

static void test_tile_broadcast(void **state) {
  (void)state;
  tg *x = new_tg(OP_TILE);
  int a = add_t(x, DT_INT8, 2, S(2, 1), (const int8_t[]){1, 2});
  int m = add_ci32(x, 2, S(2, 3));
  int o = add_t(x, DT_INT8, 2, S(4, 3), NULL);
  set_in(x, 2, a, m);
  set_out(x, 1, o);
  run_ok(x, &op_tile);
  CHECK_I8(o, 1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2);
  free_tg(x);

  x = new_tg(OP_TILE);
  a = add_t(x, DT_FLOAT32, 2, S(1, 2), (const float[]){1, 2});
  m = add_ci32(x, 2, S(2, 2));
  o = add_t(x, DT_FLOAT32, 2, S(2, 4), NULL);
  set_in(x, 2, a, m);
  set_out(x, 1, o);
  run_ok(x, &op_tile);
  CHECK_F32(o, 1, 2, 1, 2, 1, 2, 1, 2);
  free_tg(x);

  x = new_tg(OP_BROADCAST_TO);
  a = add_t(x, DT_INT32, 1, S(3), (const int32_t[]){1, 2, 3});
  int sh = add_ci32(x, 2, S(2, 3));
  o = add_t(x, DT_INT32, 2, S(2, 3), NULL);
  set_in(x, 2, a, sh);
  set_out(x, 1, o);
  run_ok(x, &op_broadcast_to);
  CHECK_I32(o, 1, 2, 3, 1, 2, 3);
  free_tg(x);

  x = new_tg(OP_BROADCAST_TO);
  a = add_t(x, DT_INT16, 2, S(2, 1), (const int16_t[]){1, 2});
  sh = add_ci32(x, 3, S(2, 2, 2));
  o = add_t(x, DT_INT16, 3, S(2, 2, 2), NULL);
  set_in(x, 2, a, sh);
  set_out(x, 1, o);
  run_ok(x, &op_broadcast_to);
  CHECK_I16(o, 1, 1, 2, 2, 1, 1, 2, 2);
  x->t[o].shape[1] = 3;
  expect_refused(x, &op_broadcast_to, "broadcast");
  free_tg(x);
}

/* ---------------- resize ---------------- */

static void test_resize_nearest(void **state) {
  (void)state;
  tg *x = new_tg(OP_RESIZE_NEAREST_NEIGHBOR);
  int a = add_t(x, DT_INT8, 4, S(1, 2, 2, 1), (const int8_t[]){1, 2, 3, 4});
  int sz = add_ci32(x, 2, S(3, 3));
  int o = add_t(x, DT_INT8, 4, S(1, 3, 3, 1), NULL);
  set_in(x, 2, a, sz);
  set_out(x, 1, o);
  run_ok(x, &op_resize_nearest_neighbor);
  /* scale 2/3: 0 -> 0, 1 -> floor(0.67) = 0, 2 -> floor(1.33) = 1 */
  CHECK_I8(o, 1, 1, 2, 1, 1, 2, 3, 3, 4);
  /* align_corners: scale 1/2: round(0.5) = 1 */
  x->op.opts.align_corners = 1;
  run_ok(x, &op_resize_nearest_neighbor);
  CHECK_I8(o, 1, 2, 2, 3, 4, 4, 3, 4, 4);
  free_tg(x);

  /* float, 2 channels, upscale x2 */
  x = new_tg(OP_RESIZE_NEAREST_NEIGHBOR);
  a = add_t(x, DT_FLOAT32, 4, S(1, 1, 2, 2), (const float[]){1, 2, 3, 4});
  sz = add_ci32(x, 2, S(1, 4));
  o = add_t(x, DT_FLOAT32, 4, S(1, 1, 4, 2), NULL);
  set_in(x, 2, a, sz);
  set_out(x, 1, o);
  run_ok(x, &op_resize_nearest_neighbor);
  CHECK_F32(o, 1, 2, 1, 2, 3, 4, 3, 4);
  free_tg(x);
}

static void test_resize_bilinear(void **state) {
  (void)state;
  tg *x = new_tg(OP_RESIZE_BILINEAR);
  int a = add_t(x, DT_FLOAT32, 4, S(1, 2, 2, 1), (const float[]){0, 10, 20, 30});
  int sz = add_ci32(x, 2, S(4, 4));
  int o = add_t(x, DT_FLOAT32, 4, S(1, 4, 4, 1), NULL);
  set_in(x, 2, a, sz);
  set_out(x, 1, o);
  run_ok(x, &op_resize_bilinear);
  /* source coordinates 0, .5, 1, 1.5 (clamped to the last row/col) */
  CHECK_F32(o, 0, 5, 10, 10, 10, 15, 20, 20, 20, 25, 30, 30, 20, 25, 30, 30);
  free_tg(x);

  /* int8: products with 10-bit weights, rounding half away from zero */
  x = new_tg(OP_RESIZE_BILINEAR);
  a = add_t(x, DT_INT8, 4, S(1, 2, 2, 1), (const int8_t[]){0, 3, -5, 8});
  sz = add_ci32(x, 2, S(4, 4));
  o = add_t(x, DT_INT8, 4, S(1, 4, 4, 1), NULL);
  quant1(x, a, 0.5f, 0);
  quant1(x, o, 0.5f, 0);
  set_in(x, 2, a, sz);
  set_out(x, 1, o);
  run_ok(x, &op_resize_bilinear);
  CHECK_I8(o, 0, 2, 3, 3, -3, 2, 6, 6, -5, 2, 8, 8, -5, 2, 8, 8);
  /* different quantization refused */
  quant1(x, o, 0.25f, 0);
  expect_refused(x, &op_resize_bilinear, "quantization");
  free_tg(x);

  /* float with half_pixel_centers, 2 -> 3 columns: scale 2/3, source
   * x = -1/6 (lo 0, hi 0), 0.5 (lo 0, hi 1), 7/6 (lo 1, hi 1) */
  x = new_tg(OP_RESIZE_BILINEAR);
  a = add_t(x, DT_FLOAT32, 4, S(1, 1, 2, 1), (const float[]){4, 8});
  sz = add_ci32(x, 2, S(1, 3));
  o = add_t(x, DT_FLOAT32, 4, S(1, 1, 3, 1), NULL);
  set_in(x, 2, a, sz);
  set_out(x, 1, o);
  x->op.opts.half_pixel_centers = 1;
  run_ok(x, &op_resize_bilinear);
  CHECK_F32(o, 4, 6, 8);
  free_tg(x);
}

/* ---------------- depth_to_space / space_to_depth ---------------- */

static void test_depth_space(void **state) {
  (void)state;
  tg *x = new_tg(OP_DEPTH_TO_SPACE);
  int a = add_t(x, DT_INT8, 4, S(1, 1, 2, 4), (const int8_t[]){1, 2, 3, 4, 5, 6, 7, 8});
  int o = add_t(x, DT_INT8, 4, S(1, 2, 4, 1), NULL);
  set_in(x, 1, a);
  set_out(x, 1, o);
  x->op.opts.block_size = 2;
  run_ok(x, &op_depth_to_space);
  CHECK_I8(o, 1, 2, 5, 6, 3, 4, 7, 8);
  free_tg(x);

  x = new_tg(OP_SPACE_TO_DEPTH);
  a = add_t(x, DT_INT8, 4, S(1, 2, 4, 1), (const int8_t[]){1, 2, 5, 6, 3, 4, 7, 8});
  o = add_t(x, DT_INT8, 4, S(1, 1, 2, 4), NULL);
  set_in(x, 1, a);
  set_out(x, 1, o);
  x->op.opts.block_size = 2;
  run_ok(x, &op_space_to_depth);
  CHECK_I8(o, 1, 2, 3, 4, 5, 6, 7, 8);
  free_tg(x);

  /* 2 output channels: out[h*2+dy][w*2+dx][c] = in[h][w][(dy*2+dx)*2+c] */
  float f[8];
  for (int i = 0; i < 8; i++) f[i] = (float)i;
  x = new_tg(OP_DEPTH_TO_SPACE);
  a = add_t(x, DT_FLOAT32, 4, S(1, 1, 1, 8), f);
  o = add_t(x, DT_FLOAT32, 4, S(1, 2, 2, 2), NULL);
  set_in(x, 1, a);
  set_out(x, 1, o);
  x->op.opts.block_size = 2;
  run_ok(x, &op_depth_to_space);
  CHECK_F32(o, 0, 1, 2, 3, 4, 5, 6, 7);
  free_tg(x);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_copy_nd_kernel),
      cmocka_unit_test(test_fill_kernel),
      cmocka_unit_test(test_reshape_copy),
      cmocka_unit_test(test_concat_axis1_int8),
      cmocka_unit_test(test_concat_axis0_float_3in),
      cmocka_unit_test(test_concat_requant),
      cmocka_unit_test(test_pad_int8_zero_point),
      cmocka_unit_test(test_pad_float_int16_padv2),
      cmocka_unit_test(test_mirror_pad),
      cmocka_unit_test(test_strided_slice_1d),
      cmocka_unit_test(test_strided_slice_masks),
      cmocka_unit_test(test_slice),
      cmocka_unit_test(test_transpose),
      cmocka_unit_test(test_reverse),
      cmocka_unit_test(test_split),
      cmocka_unit_test(test_pack_unpack),
      cmocka_unit_test(test_gather),
      cmocka_unit_test(test_cast),
      cmocka_unit_test(test_shape_fill_zeros),
      cmocka_unit_test(test_tile_broadcast),
      cmocka_unit_test(test_resize_nearest),
      cmocka_unit_test(test_resize_bilinear),
      cmocka_unit_test(test_depth_space),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
