/* test_op_sign.c - SIGN (float32, int32), the operator added through the
 * lowering step's three places (its kernels, its ops_unary.def row, this
 * test). The expected values are TFLite's definition written out by hand,
 * sign(x) = (0 < x) - (x < 0): 1, -1, or 0 for zeros and NaN, and they are
 * checked three ways: the host evaluation (ops_find -> check -> op_eval,
 * the kernel behind the descriptor), a generated module built with the host
 * C compiler and run on the same inputs (emit_harness.h: byte-equal to the
 * evaluation), and the refusal of a type SIGN does not support. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "emit_harness.h"
#include "test_kernels_elementwise_util.h"

#define NF 10
static const float f_in[NF] = {-2.5f, -0.0f, 0.0f, 3.0f, -INFINITY, INFINITY, NAN,
                               1e-45f /* denormal */, -1e-45f, 1e30f};
static const float f_want[NF] = {-1.0f, 0.0f, 0.0f, 1.0f, -1.0f, 1.0f, 0.0f, 1.0f, -1.0f, 1.0f};
#define NI 6
static const int32_t i_in[NI] = {INT32_MIN, -7, -1, 0, 1, INT32_MAX};
static const int32_t i_want[NI] = {-1, -1, -1, 0, 1, 1};

static void test_sign_eval(void **state) {
  (void)state;
  char why[256] = "";
  tg t;
  tg_init(&t);
  int x = tg_tensor(&t, DT_FLOAT32, 1, (const int32_t[]){NF}, 0, 0);
  int y = tg_tensor(&t, DT_FLOAT32, 1, (const int32_t[]){NF}, 0, 0);
  memcpy(t.data[x], f_in, sizeof f_in);
  tg_op(&t, OP_SIGN, 1, (int[]){x}, y);
  assert_int_equal(tg_run(&t, why, sizeof why), 0);
  for (int i = 0; i < NF; i++) assert_true(((float *)t.data[y])[i] == f_want[i]);
  /* -0.0 and NaN give +0.0, not -0.0 */
  assert_false(signbit(((float *)t.data[y])[1]));
  assert_false(signbit(((float *)t.data[y])[6]));
  tg_free(&t);

  tg_init(&t);
  x = tg_tensor(&t, DT_INT32, 2, (const int32_t[]){2, 3}, 0, 0);
  y = tg_tensor(&t, DT_INT32, 2, (const int32_t[]){2, 3}, 0, 0);
  memcpy(t.data[x], i_in, sizeof i_in);
  tg_op(&t, OP_SIGN, 1, (int[]){x}, y);
  assert_int_equal(tg_run(&t, why, sizeof why), 0);
  assert_memory_equal(t.data[y], i_want, sizeof i_want);
  tg_free(&t);

  /* int8 is not supported: refused by check with the reason */
  tg_init(&t);
  x = tg_tensor(&t, DT_INT8, 1, (const int32_t[]){4}, 0.5f, 0);
  y = tg_tensor(&t, DT_INT8, 1, (const int32_t[]){4}, 0.5f, 0);
  tg_op(&t, OP_SIGN, 1, (int[]){x}, y);
  assert_int_equal(tg_run(&t, why, sizeof why), -1);
  assert_non_null(strstr(why, "expected float32"));
  tg_free(&t);
}

static void fill_sign(void *p, int dtype, size_t n, uint32_t index) {
  (void)index;
  if (dtype == DT_FLOAT32) {
    assert_int_equal(n, NF);
    memcpy(p, f_in, sizeof f_in);
  } else {
    assert_int_equal(n, NI);
    memcpy(p, i_in, sizeof i_in);
  }
}

static void test_sign_module(void **state) {
  (void)state;
  litert_options o;
  litert_options_default(&o);
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_FLOAT32, 1, S(NF));
    int y = mb_out(b, DT_FLOAT32, 1, S(NF));
    mb_op(b, OP_SIGN, &o, 1, IO(x), 1, IO(y));
    eh_check(b, "sign_f32", fill_sign, 1);
  }
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_INT32, 2, S(3, 2));
    int y = mb_out(b, DT_INT32, 2, S(3, 2));
    mb_op(b, OP_SIGN, &o, 1, IO(x), 1, IO(y));
    eh_check(b, "sign_s32", fill_sign, 1);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sign_eval),
      cmocka_unit_test(test_sign_module),
  };
  return cmocka_run_group_tests(tests, eh_setup, eh_teardown);
}
