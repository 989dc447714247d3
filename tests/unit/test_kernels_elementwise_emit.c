/* test_kernels_elementwise_emit.c - emit() of the elementwise, activation,
 * softmax and (de)quantize ops agrees with eval(): small models (built with
 * the litert model API, written to a temporary .tflite) are compiled by aotc
 * into a module, the module is built with the host C compiler (-std=c99 -Wall
 * -Wextra -Werror -pedantic) and run on deterministic inputs, and its outputs
 * must equal byte for byte what the ops' eval() computes on the
 * untransformed graph. Covers broadcast plans, LUT arrays (int16 SOFTMAX,
 * int8 ELU) and per-channel arrays. Skips when no C compiler ("cc") exists.
 * The harness is emit_harness.h. */
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

static litert_options opts(void) {
  litert_options o;
  litert_options_default(&o);
  return o;
}

static void test_emit_arith(void **state) {
  (void)state;
  /* int8 ADD with broadcast and RELU, then int8 MUL with a constant */
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_INT8, 3, S(2, 3, 4));
    int c = mb_in(b, DT_INT8, 1, S(4));
    int a = mb_t(b, DT_INT8, 3, S(2, 3, 4));
    const int8_t kv[] = {3, -7, 100, -128};
    int k = mb_c(b, DT_INT8, 1, S(4), kv, 4);
    int y = mb_out(b, DT_INT8, 3, S(2, 3, 4));
    mb_q(b, x, 0.05f, -3);
    mb_q(b, c, 0.02f, 7);
    mb_q(b, a, 0.06f, -20);
    mb_q(b, k, 0.01f, 0);
    mb_q(b, y, 0.004f, 5);
    litert_options o = opts();
    o.fused_act = ACT_RELU;
    mb_op(b, OP_ADD, &o, 2, IO(x, c), 1, IO(a));
    o = opts();
    mb_op(b, OP_MUL, &o, 2, IO(a, k), 1, IO(y));
    check_model(b, "add_mul_s8");
  }
  /* int16 SUB (general path) with a two-sided broadcast, then MAXIMUM */
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_INT16, 3, S(1, 3, 1));
    int c = mb_in(b, DT_INT16, 3, S(2, 1, 4));
    int a = mb_t(b, DT_INT16, 3, S(2, 3, 4));
    int y = mb_out(b, DT_INT16, 3, S(2, 3, 4));
    mb_q(b, x, 0.001f, 0);
    mb_q(b, c, 0.0007f, 0);
    mb_q(b, a, 0.0015f, 0);
    mb_q(b, y, 0.0015f, 0);
    litert_options o = opts();
    o.pot_scale_int16 = 0;
    mb_op(b, OP_SUB, &o, 2, IO(x, c), 1, IO(a));
    o = opts();
    mb_op(b, OP_MAXIMUM, &o, 2, IO(a, x), 1, IO(y));
    check_model(b, "sub_max_s16");
  }
  /* float chain: ADD (RELU6), MUL by scalar, DIV, SQUARED_DIFFERENCE */
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_FLOAT32, 2, S(3, 5));
    int c = mb_in(b, DT_FLOAT32, 2, S(3, 1));
    const float two = 2.0f;
    int k = mb_c(b, DT_FLOAT32, 0, S(1), &two, 4);
    int a = mb_t(b, DT_FLOAT32, 2, S(3, 5));
    int m = mb_t(b, DT_FLOAT32, 2, S(3, 5));
    int d = mb_t(b, DT_FLOAT32, 2, S(3, 5));
    int y = mb_out(b, DT_FLOAT32, 2, S(3, 5));
    litert_options o = opts();
    o.fused_act = ACT_RELU6;
    mb_op(b, OP_ADD, &o, 2, IO(x, c), 1, IO(a));
    o = opts();
    mb_op(b, OP_MUL, &o, 2, IO(a, k), 1, IO(m));
    mb_op(b, OP_DIV, &o, 2, IO(x, m), 1, IO(d));
    mb_op(b, OP_SQUARED_DIFFERENCE, &o, 2, IO(d, c), 1, IO(y));
    check_model(b, "arith_f32");
  }
}

static void test_emit_compare_select(void **state) {
  (void)state;
  mb *b = mb_new();
  int x = mb_in(b, DT_INT8, 2, S(4, 6));
  int c = mb_in(b, DT_INT8, 2, S(4, 1));
  int fx = mb_in(b, DT_FLOAT32, 2, S(4, 6));
  int fy = mb_in(b, DT_FLOAT32, 1, S(6));
  int cond = mb_t(b, DT_BOOL, 2, S(4, 6));
  int cond2 = mb_t(b, DT_BOOL, 2, S(4, 6));
  int y = mb_out(b, DT_FLOAT32, 2, S(4, 6));
  mb_q(b, x, 0.1f, 3);
  mb_q(b, c, 0.07f, -9);
  litert_options o = opts();
  mb_op(b, OP_LESS, &o, 2, IO(x, c), 1, IO(cond));
  mb_op(b, OP_LOGICAL_NOT, &o, 1, IO(cond), 1, IO(cond2));
  mb_op(b, OP_SELECT_V2, &o, 3, IO(cond2, fx, fy), 1, IO(y));
  check_model(b, "compare_select");
}

static void test_emit_activations(void **state) {
  (void)state;
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_INT8, 2, S(4, 16));
    int t1 = mb_t(b, DT_INT8, 2, S(4, 16));
    int t2 = mb_t(b, DT_INT8, 2, S(4, 16));
    int t3 = mb_t(b, DT_INT8, 2, S(4, 16));
    int t4 = mb_t(b, DT_INT8, 2, S(4, 16));
    const int8_t al[] = {64, 32, -64, 10, 0, 127, -128, 5, 1, 2, 3, 4, 5, 6, 7, 8};
    int alpha = mb_c(b, DT_INT8, 1, S(16), al, 16);
    int t5 = mb_t(b, DT_INT8, 2, S(4, 16));
    int y = mb_out(b, DT_INT8, 2, S(4, 16));
    mb_q(b, x, 0.05f, 2);
    mb_q(b, t1, 0.03f, -100);
    mb_q(b, t2, 0.02f, -60);
    mb_q(b, t3, 0.04f, 0);
    mb_q(b, alpha, 1.0f / 128.0f, 0);
    mb_q(b, t4, 0.05f, 10);
    mb_q(b, t5, 1.0f / 128.0f, 0);
    mb_q(b, y, 1.0f / 256.0f, -128);
    litert_options o = opts();
    mb_op(b, OP_HARD_SWISH, &o, 1, IO(x), 1, IO(t1));
    mb_op(b, OP_ELU, &o, 1, IO(t1), 1, IO(t2));
    o.alpha = 0.2f;
    mb_op(b, OP_LEAKY_RELU, &o, 1, IO(t2), 1, IO(t3));
    o = opts();
    mb_op(b, OP_PRELU, &o, 2, IO(t3, alpha), 1, IO(t4));
    mb_op(b, OP_TANH, &o, 1, IO(t4), 1, IO(t5));
    mb_op(b, OP_LOGISTIC, &o, 1, IO(t5), 1, IO(y));
    check_model(b, "act_s8");
  }
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_INT16, 2, S(3, 8));
    int t1 = mb_t(b, DT_INT16, 2, S(3, 8));
    int t2 = mb_t(b, DT_INT16, 2, S(3, 8));
    int y = mb_out(b, DT_INT16, 2, S(3, 8));
    mb_q(b, x, 1.0f / 4096.0f, 0);
    mb_q(b, t1, 1.0f / 32768.0f, 0);
    mb_q(b, t2, 0.0003f, 0);
    mb_q(b, y, 1.0f / 32768.0f, 0);
    litert_options o = opts();
    mb_op(b, OP_LOGISTIC, &o, 1, IO(x), 1, IO(t1));
    mb_op(b, OP_RELU, &o, 1, IO(t1), 1, IO(t2));
    mb_op(b, OP_TANH, &o, 1, IO(t2), 1, IO(y));
    check_model(b, "act_s16");
  }
}

static void test_emit_softmax(void **state) {
  (void)state;
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_INT8, 2, S(3, 10));
    int y = mb_out(b, DT_INT8, 2, S(3, 10));
    int y2 = mb_out(b, DT_INT8, 2, S(3, 10));
    mb_q(b, x, 0.08f, -5);
    mb_q(b, y, 1.0f / 256.0f, -128);
    mb_q(b, y2, 16.0f / 256.0f, 127);
    litert_options o = opts();
    o.beta = 1.0f;
    mb_op(b, OP_SOFTMAX, &o, 1, IO(x), 1, IO(y));
    o = opts();
    mb_op(b, OP_LOG_SOFTMAX, &o, 1, IO(x), 1, IO(y2));
    check_model(b, "softmax_s8");
  }
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_INT16, 2, S(2, 12));
    int y = mb_out(b, DT_INT16, 2, S(2, 12));
    mb_q(b, x, 0.0005f, 0);
    mb_q(b, y, 1.0f / 32768.0f, 0);
    litert_options o = opts();
    o.beta = 1.0f;
    mb_op(b, OP_SOFTMAX, &o, 1, IO(x), 1, IO(y));
    check_model(b, "softmax_s16");
  }
  {
    mb *b = mb_new();
    int x = mb_in(b, DT_FLOAT32, 2, S(2, 7));
    int y = mb_out(b, DT_FLOAT32, 2, S(2, 7));
    litert_options o = opts();
    o.beta = 0.5f;
    mb_op(b, OP_SOFTMAX, &o, 1, IO(x), 1, IO(y));
    check_model(b, "softmax_f32");
  }
}

static void test_emit_quantize(void **state) {
  (void)state;
  mb *b = mb_new();
  int x = mb_in(b, DT_FLOAT32, 2, S(2, 3));
  int q = mb_t(b, DT_INT8, 2, S(2, 3));
  int q16 = mb_t(b, DT_INT16, 2, S(2, 3));
  int dq = mb_t(b, DT_FLOAT32, 2, S(2, 3));
  const int8_t wv[] = {1, -2, 3, 100, -100, 7};
  int w = mb_c(b, DT_INT8, 2, S(2, 3), wv, 6);
  const float sc[] = {0.5f, 0.25f, 2.0f};
  const int64_t zp[] = {0, 1, -1};
  litert_tensor_set_quant(b->m, 0, w, 3, sc, zp, 1);
  int wf = mb_t(b, DT_FLOAT32, 2, S(2, 3));
  int y = mb_out(b, DT_FLOAT32, 2, S(2, 3));
  mb_q(b, q, 0.7f, -4);
  mb_q(b, q16, 0.01f, 0);
  litert_options o = opts();
  mb_op(b, OP_QUANTIZE, &o, 1, IO(x), 1, IO(q));
  mb_op(b, OP_QUANTIZE, &o, 1, IO(q), 1, IO(q16));
  mb_op(b, OP_DEQUANTIZE, &o, 1, IO(q16), 1, IO(dq));
  mb_op(b, OP_DEQUANTIZE, &o, 1, IO(w), 1, IO(wf));
  mb_op(b, OP_ADD, &o, 2, IO(dq, wf), 1, IO(y));
  check_model(b, "quantize");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_emit_arith),       cmocka_unit_test(test_emit_compare_select),
      cmocka_unit_test(test_emit_activations), cmocka_unit_test(test_emit_softmax),
      cmocka_unit_test(test_emit_quantize),
  };
  return cmocka_run_group_tests(tests, eh_setup, eh_teardown);
}
