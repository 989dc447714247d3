/* test_kernels_movement_dyn.c - movement with a begin read at run time:
 * the aot_copy_nd_dyn kernel (range checks, negative wrap, clamping, int64
 * begin), SLICE / STRIDED_SLICE with a run-time begin and
 * DYNAMIC_UPDATE_SLICE through their eval() on hand-built IR graphs, the
 * check() refusals, and emit vs eval: each single-op model is compiled to a
 * module, built with the host C compiler (-std=c99 -pedantic -Werror) and
 * run; its output must equal eval()'s byte for byte. Expected values are
 * written out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "aot_movement.h"
#include "emit_harness.h"

/* ---- the kernel ------------------------------------------------------------ */

/* in = 0..19 as [4,5]; a [2,3] window at run-time (row, col) */
static void test_kernel_slice_window(void **state) {
  (void)state;
  int32_t in[20], out[6];
  for (int i = 0; i < 20; i++) in[i] = i;
  const int32_t cnt[2] = {2, 3}, is[2] = {5, 1}, os[2] = {3, 1};
  const int32_t wrap[2] = {0, 0}, lo[2] = {0, 0}, hi[2] = {2, 2}, str[2] = {5, 1};
  aot_copy_dyn_params p = {{2, 4, 0, 0, cnt, is, os}, 2, 0, 0, 0, wrap, lo, hi, str};
  int32_t b[2] = {1, 2};
  assert_int_equal(aot_copy_nd_dyn(&p, b, in, out), AOT_KERNEL_OK);
  const int32_t want[6] = {7, 8, 9, 12, 13, 14};
  assert_memory_equal(out, want, sizeof want);
  /* row 3 would read past the input: refused, nothing written */
  int32_t bad[2] = {3, 0};
  memset(out, 0x55, sizeof out);
  assert_int_equal(aot_copy_nd_dyn(&p, bad, in, out), AOT_KERNEL_INDEX_RANGE);
  for (int i = 0; i < 6; i++) assert_int_equal(out[i], 0x55555555);
  int32_t neg[2] = {0, -1};
  assert_int_equal(aot_copy_nd_dyn(&p, neg, in, out), AOT_KERNEL_INDEX_RANGE);
  /* negative indices wrap by the dimension size: row -3 of 4 is row 1 */
  const int32_t wrap2[2] = {4, 5};
  p.wrap = wrap2;
  int64_t b64[2] = {-3, -5};
  p.begin_is_64 = 1;
  assert_int_equal(aot_copy_nd_dyn(&p, b64, in, out), AOT_KERNEL_OK);
  const int32_t want2[6] = {5, 6, 7, 10, 11, 12};
  assert_memory_equal(out, want2, sizeof want2);
}

/* update [1,2] written into a [3,4] int16 operand at clamped start */
static void test_kernel_update_clamped(void **state) {
  (void)state;
  int16_t opd[12] = {0}, upd[2] = {-1, -2};
  const int32_t cnt[2] = {1, 2}, is[2] = {2, 1}, os[2] = {4, 1};
  const int32_t wrap[2] = {0, 0}, lo[2] = {0, 0}, hi[2] = {2, 2}, str[2] = {4, 1};
  aot_copy_dyn_params p = {{2, 2, 0, 0, cnt, is, os}, 2, 0, 1, 1, wrap, lo, hi, str};
  int32_t b[2] = {9, -4};  /* clamped to (2, 0) */
  assert_int_equal(aot_copy_nd_dyn(&p, b, upd, opd), AOT_KERNEL_OK);
  const int16_t want[12] = {0, 0, 0, 0, 0, 0, 0, 0, -1, -2, 0, 0};
  assert_memory_equal(opd, want, sizeof want);
  int32_t b2[2] = {1, 1};
  assert_int_equal(aot_copy_nd_dyn(&p, b2, upd, opd), AOT_KERNEL_OK);
  const int16_t want2[12] = {0, 0, 0, 0, 0, -1, -2, 0, -1, -2, 0, 0};
  assert_memory_equal(opd, want2, sizeof want2);
}

/* ---- ops through eval() -------------------------------------------------------- */

/* A graph built with the litert builder; data buffers for every tensor. */
typedef struct tg {
  mb *b;
  litert_model *m;
  ir_graph *g;
  void **data;
} tg;

static void tg_build(tg *x) {
  aotc_diag d = {0};
  litert_set_io(x->b->m, 0, x->b->nin, x->b->in, x->b->nout, x->b->out);
  x->m = x->b->m;
  x->g = ir_from_litert(x->m, 0, &d);
  assert_non_null(x->g);
  x->data = calloc((size_t)x->g->nt, sizeof(void *));
  for (int i = 0; i < x->g->nt; i++) {
    size_t nb = ir_bytes(&x->g->t[i]);
    x->data[i] = calloc(1, nb + 8);
    if (x->g->t[i].role == ROLE_CONST) memcpy(x->data[i], x->g->t[i].data, nb);
  }
}

static void tg_free(tg *x) {
  for (int i = 0; i < x->g->nt; i++) free(x->data[i]);
  free(x->data);
  ir_free(x->g);
  litert_model_free(x->m);
  free(x->b);
}

static int tg_check(tg *x, char *why, size_t n) {
  const ir_op *op = &x->g->ops[0];
  return ops_find(x->g, op)->check(x->g, op, why, n);
}

static int tg_eval(tg *x) {
  const ir_op *op = &x->g->ops[0];
  return op_eval(ops_find(x->g, op), x->g, op, x->data, NULL);
}

/* SLICE of a [3,4] float input, size [2,-1]... begin (r, c) at run time:
 * size -1 pins c to 4 - 2 = 2 (output [2,2]). */
static void test_slice_runtime_begin(void **state) {
  (void)state;
  tg x = {0};
  litert_options o;
  litert_options_default(&o);
  x.b = mb_new();
  int in = mb_in(x.b, DT_FLOAT32, 2, S(3, 4));
  int bg = mb_in(x.b, DT_INT32, 1, S(2));
  int sz = mb_ci32(x.b, 2, S(2, -1));
  int y = mb_out(x.b, DT_FLOAT32, 2, S(2, 2));
  mb_op(x.b, OP_SLICE, &o, 3, IO(in, bg, sz), 1, IO(y));
  tg_build(&x);
  char why[256] = "";
  assert_int_equal(tg_check(&x, why, sizeof why), 0);
  float *fi = x.data[in];
  for (int i = 0; i < 12; i++) fi[i] = (float)i;
  int32_t *b = x.data[bg];
  b[0] = 1;
  b[1] = 2;
  assert_int_equal(tg_eval(&x), 0);
  const float want[4] = {6, 7, 10, 11};
  assert_memory_equal(x.data[y], want, sizeof want);
  b[1] = 1; /* not 4 - 2: the -1 size would give 3 columns */
  assert_int_equal(tg_eval(&x), AOT_KERNEL_INDEX_RANGE);
  b[0] = 2;
  b[1] = 2; /* rows 2..3 of 3 */
  assert_int_equal(tg_eval(&x), AOT_KERNEL_INDEX_RANGE);
  tg_free(&x);
}

/* STRIDED_SLICE [4,3] int8 with shrink on dim 0 at a run-time index
 * (negative wraps), dims 1 whole: row i of the input. */
static void test_strided_slice_shrink_runtime(void **state) {
  (void)state;
  tg x = {0};
  litert_options o;
  litert_options_default(&o);
  o.shrink_axis_mask = 1;
  x.b = mb_new();
  int in = mb_in(x.b, DT_INT8, 2, S(4, 3));
  int bg = mb_in(x.b, DT_INT32, 1, S(1));
  int en = mb_in(x.b, DT_INT32, 1, S(1));  /* run-time end, unused by shrink */
  int st = mb_ci32(x.b, 1, S(1));
  int y = mb_out(x.b, DT_INT8, 1, S(3));
  mb_op(x.b, OP_STRIDED_SLICE, &o, 4, IO(in, bg, en, st), 1, IO(y));
  tg_build(&x);
  char why[256] = "";
  int rc = tg_check(&x, why, sizeof why);
  if (rc) print_error("%s\n", why);
  assert_int_equal(rc, 0);
  int8_t *v = x.data[in];
  for (int i = 0; i < 12; i++) v[i] = (int8_t)(10 * i);
  int32_t *b = x.data[bg];
  b[0] = -1; /* row 3 */
  assert_int_equal(tg_eval(&x), 0);
  const int8_t want[3] = {90, 100, 110};
  assert_memory_equal(x.data[y], want, 3);
  b[0] = 4;
  assert_int_equal(tg_eval(&x), AOT_KERNEL_INDEX_RANGE);
  b[0] = -5;
  assert_int_equal(tg_eval(&x), AOT_KERNEL_INDEX_RANGE);
  tg_free(&x);
}

/* STRIDED_SLICE with offset: [begin, begin + 2) of dim 1 of a [2,5] int32,
 * stride 1; dim 0 whole by begin_mask|end_mask. */
static void test_strided_slice_offset_runtime(void **state) {
  (void)state;
  tg x = {0};
  litert_options o;
  litert_options_default(&o);
  o.ss_offset = 1;
  o.begin_mask = 1;
  o.end_mask = 1;
  x.b = mb_new();
  int in = mb_in(x.b, DT_INT32, 2, S(2, 5));
  int bg = mb_in(x.b, DT_INT32, 1, S(2));
  int en = mb_ci32(x.b, 2, S(0, 2));
  int st = mb_ci32(x.b, 2, S(1, 1));
  int y = mb_out(x.b, DT_INT32, 2, S(2, 2));
  mb_op(x.b, OP_STRIDED_SLICE, &o, 4, IO(in, bg, en, st), 1, IO(y));
  tg_build(&x);
  char why[256] = "";
  int rc = tg_check(&x, why, sizeof why);
  if (rc) print_error("%s\n", why);
  assert_int_equal(rc, 0);
  int32_t *v = x.data[in];
  for (int i = 0; i < 10; i++) v[i] = i;
  int32_t *b = x.data[bg];
  b[0] = 7; /* ignored (begin_mask) */
  b[1] = 3;
  assert_int_equal(tg_eval(&x), 0);
  const int32_t want[4] = {3, 4, 8, 9};
  assert_memory_equal(x.data[y], want, sizeof want);
  b[1] = 4; /* [4, 6) leaves the input */
  assert_int_equal(tg_eval(&x), AOT_KERNEL_INDEX_RANGE);
  tg_free(&x);
}

/* a run-time begin whose slice length would depend on it is refused */
static void test_strided_slice_runtime_refused(void **state) {
  (void)state;
  tg x = {0};
  litert_options o;
  litert_options_default(&o);
  x.b = mb_new();
  int in = mb_in(x.b, DT_FLOAT32, 1, S(6));
  int bg = mb_in(x.b, DT_INT32, 1, S(1));
  int en = mb_ci32(x.b, 1, S(4));
  int st = mb_ci32(x.b, 1, S(1));
  int y = mb_out(x.b, DT_FLOAT32, 1, S(2));
  mb_op(x.b, OP_STRIDED_SLICE, &o, 4, IO(in, bg, en, st), 1, IO(y));
  tg_build(&x);
  char why[256] = "";
  assert_int_equal(tg_check(&x, why, sizeof why), -1);
  assert_non_null(strstr(why, "begin must be a constant tensor"));
  tg_free(&x);
}

/* DYNAMIC_UPDATE_SLICE: operand [3,2] float, update [1,2], start at run
 * time (int64) and constant (clamped). */
static void test_dynamic_update_slice(void **state) {
  (void)state;
  tg x = {0};
  litert_options o;
  litert_options_default(&o);
  x.b = mb_new();
  int opd = mb_in(x.b, DT_FLOAT32, 2, S(3, 2));
  int upd = mb_in(x.b, DT_FLOAT32, 2, S(1, 2));
  int sti = mb_in(x.b, DT_INT64, 1, S(2));
  int y = mb_out(x.b, DT_FLOAT32, 2, S(3, 2));
  mb_op(x.b, OP_DYNAMIC_UPDATE_SLICE, &o, 3, IO(opd, upd, sti), 1, IO(y));
  tg_build(&x);
  char why[256] = "";
  int rc = tg_check(&x, why, sizeof why);
  if (rc) print_error("%s\n", why);
  assert_int_equal(rc, 0);
  float *a = x.data[opd], *u = x.data[upd];
  for (int i = 0; i < 6; i++) a[i] = (float)(i + 1);
  u[0] = -1;
  u[1] = -2;
  int64_t *s = x.data[sti];
  s[0] = 1;
  s[1] = 0;
  assert_int_equal(tg_eval(&x), 0);
  const float want[6] = {1, 2, -1, -2, 5, 6};
  assert_memory_equal(x.data[y], want, sizeof want);
  s[0] = 5; /* clamped to row 2 */
  s[1] = 3; /* clamped to col 0 */
  assert_int_equal(tg_eval(&x), 0);
  const float want2[6] = {1, 2, 3, 4, -1, -2};
  assert_memory_equal(x.data[y], want2, sizeof want2);
  tg_free(&x);

  /* constant start (-1, 0): clamped to row 0 at compile time */
  x = (tg){0};
  x.b = mb_new();
  opd = mb_in(x.b, DT_FLOAT32, 2, S(3, 2));
  upd = mb_in(x.b, DT_FLOAT32, 2, S(1, 2));
  sti = mb_ci32(x.b, 2, S(-1, 0));
  y = mb_out(x.b, DT_FLOAT32, 2, S(3, 2));
  mb_op(x.b, OP_DYNAMIC_UPDATE_SLICE, &o, 3, IO(opd, upd, sti), 1, IO(y));
  tg_build(&x);
  assert_int_equal(tg_check(&x, why, sizeof why), 0);
  a = x.data[opd];
  u = x.data[upd];
  for (int i = 0; i < 6; i++) a[i] = (float)(i + 1);
  u[0] = -1;
  u[1] = -2;
  assert_int_equal(tg_eval(&x), 0);
  const float want3[6] = {-1, -2, 3, 4, 5, 6};
  assert_memory_equal(x.data[y], want3, sizeof want3);
  /* an update larger than the operand is refused */
  tg_free(&x);
  x = (tg){0};
  x.b = mb_new();
  opd = mb_in(x.b, DT_FLOAT32, 2, S(3, 2));
  upd = mb_in(x.b, DT_FLOAT32, 2, S(1, 3));
  sti = mb_ci32(x.b, 2, S(0, 0));
  y = mb_out(x.b, DT_FLOAT32, 2, S(3, 2));
  mb_op(x.b, OP_DYNAMIC_UPDATE_SLICE, &o, 3, IO(opd, upd, sti), 1, IO(y));
  tg_build(&x);
  assert_int_equal(tg_check(&x, why, sizeof why), -1);
  tg_free(&x);
}

/* ---- emit vs eval -------------------------------------------------------------- */

/* Input 0 gets deterministic data; the others (begin / start) get the
 * in-range values 1, 0, 1, ... */
static void fill_input(void *p, int dtype, size_t n, uint32_t index) {
  uint32_t s = 12345u;
  for (size_t i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    int64_t v = index == 0 ? (int64_t)(s >> 20) - 2048 : (int64_t)((i + 1) % 2);
    switch (dtype) {
      case DT_FLOAT32: ((float *)p)[i] = (float)v / 64.0f; break;
      case DT_INT16: ((int16_t *)p)[i] = (int16_t)v; break;
      case DT_INT32: ((int32_t *)p)[i] = (int32_t)v; break;
      case DT_INT64: ((int64_t *)p)[i] = v; break;
      default: ((uint8_t *)p)[i] = (uint8_t)v; break;
    }
  }
}

/* The one-op model b through emit_harness.h: module output == eval(). */
static void emit_check(mb *b, const char *name) { eh_check(b, name, fill_input, 1); }

static void test_emit_dyn(void **state) {
  (void)state;
  litert_options o;
  /* SLICE [3,4] int16 at (1, 0), size [2, 3] */
  mb *b = mb_new();
  litert_options_default(&o);
  int in = mb_in(b, DT_INT16, 2, S(3, 4));
  int bg = mb_in(b, DT_INT32, 1, S(2));
  int sz = mb_ci32(b, 2, S(2, 3));
  int y = mb_out(b, DT_INT16, 2, S(2, 3));
  mb_op(b, OP_SLICE, &o, 3, IO(in, bg, sz), 1, IO(y));
  emit_check(b, "slice_dyn");

  /* STRIDED_SLICE shrink at run-time index 1 of [3,2,2] float */
  b = mb_new();
  litert_options_default(&o);
  o.shrink_axis_mask = 1;
  in = mb_in(b, DT_FLOAT32, 3, S(3, 2, 2));
  bg = mb_in(b, DT_INT32, 1, S(1));
  int en = mb_ci32(b, 1, S(0));
  int st = mb_ci32(b, 1, S(1));
  y = mb_out(b, DT_FLOAT32, 2, S(2, 2));
  mb_op(b, OP_STRIDED_SLICE, &o, 4, IO(in, bg, en, st), 1, IO(y));
  emit_check(b, "strided_slice_dyn");

  /* DYNAMIC_UPDATE_SLICE [4,3] float, update [2,2] at run-time (1, 0) */
  b = mb_new();
  litert_options_default(&o);
  in = mb_in(b, DT_FLOAT32, 2, S(4, 3));
  bg = mb_in(b, DT_INT64, 1, S(2));
  int up = mb_c(b, DT_FLOAT32, 2, S(2, 2), (const float[]){-1, -2, -3, -4}, 16);
  y = mb_out(b, DT_FLOAT32, 2, S(4, 3));
  mb_op(b, OP_DYNAMIC_UPDATE_SLICE, &o, 3, IO(in, up, bg), 1, IO(y));
  emit_check(b, "dus_dyn");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_kernel_slice_window),
      cmocka_unit_test(test_kernel_update_clamped),
      cmocka_unit_test(test_slice_runtime_begin),
      cmocka_unit_test(test_strided_slice_shrink_runtime),
      cmocka_unit_test(test_strided_slice_offset_runtime),
      cmocka_unit_test(test_strided_slice_runtime_refused),
      cmocka_unit_test(test_dynamic_update_slice),
      cmocka_unit_test(test_emit_dyn),
  };
  return cmocka_run_group_tests(tests, eh_setup, eh_teardown);
}
