/* test_kernels_movement_emit.c - emit() of the movement and reduction ops
 * agrees with eval(): for each small single-op model (built with the litert
 * model API and written to a temporary .tflite), aotc compiles a module,
 * the module is built with the host C compiler (-std=c99 -Wall -Wextra
 * -Werror -pedantic) and run on deterministic inputs, and its outputs must
 * equal, byte for byte, what the op's eval() computes on the untransformed
 * graph (harness: emit_harness.h). Skips when no C compiler ("cc") is
 * available. */
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

static void test_emit_concat_pad(void **state) {
  (void)state;
  litert_options o;
  mb *b = mb_new();
  int a = mb_in(b, DT_INT8, 2, S(3, 2)), c = mb_in(b, DT_INT8, 2, S(3, 5));
  int y = mb_out(b, DT_INT8, 2, S(3, 7));
  mb_q(b, a, 0.05f, 3);
  mb_q(b, c, 0.02f, -7);
  mb_q(b, y, 0.04f, 1);
  litert_options_default(&o);
  o.axis = 1;
  mb_op(b, OP_CONCATENATION, &o, 2, IO(a, c), 1, IO(y));
  check_model(b, "concat_requant");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 3, S(2, 1, 3));
  c = mb_in(b, DT_FLOAT32, 3, S(2, 2, 3));
  int e = mb_in(b, DT_FLOAT32, 3, S(2, 1, 3));
  y = mb_out(b, DT_FLOAT32, 3, S(2, 4, 3));
  litert_options_default(&o);
  o.axis = -2;
  mb_op(b, OP_CONCATENATION, &o, 3, IO(a, c, e), 1, IO(y));
  check_model(b, "concat_f32");

  b = mb_new();
  a = mb_in(b, DT_INT16, 4, S(1, 3, 4, 2));
  int p = mb_c(b, DT_INT32, 2, S(4, 2), S(0, 0, 1, 2, 0, 3, 0, 0), 32);
  y = mb_out(b, DT_INT16, 4, S(1, 6, 7, 2));
  mb_q(b, a, 0.001f, 0);
  mb_q(b, y, 0.001f, 0);
  litert_options_default(&o);
  mb_op(b, OP_PAD, &o, 2, IO(a, p), 1, IO(y));
  check_model(b, "pad_s16");

  b = mb_new();
  a = mb_in(b, DT_INT8, 2, S(3, 3));
  p = mb_c(b, DT_INT32, 2, S(2, 2), S(1, 1, 2, 0), 16);
  int cv = mb_c(b, DT_INT8, 0, NULL, (const int8_t[]){-9}, 1);
  y = mb_out(b, DT_INT8, 2, S(5, 5));
  mb_q(b, a, 0.1f, 4);
  mb_q(b, y, 0.1f, 4);
  litert_options_default(&o);
  mb_op(b, OP_PADV2, &o, 3, IO(a, p, cv), 1, IO(y));
  check_model(b, "padv2_s8");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 2, S(3, 4));
  p = mb_c(b, DT_INT32, 2, S(2, 2), S(2, 1, 3, 3), 16);
  y = mb_out(b, DT_FLOAT32, 2, S(6, 10));
  litert_options_default(&o);
  o.mirror_mode = 0;
  mb_op(b, OP_MIRROR_PAD, &o, 2, IO(a, p), 1, IO(y));
  check_model(b, "mirror_pad");
}

static void test_emit_slices(void **state) {
  (void)state;
  litert_options o;
  mb *b = mb_new();
  int a = mb_in(b, DT_INT16, 3, S(4, 5, 6));
  int bb = mb_ci32(b, 3, S(-1, 1, 5)), e = mb_ci32(b, 3, S(0, 5, 0)), s = mb_ci32(b, 3, S(-2, 2, -2));
  int y = mb_out(b, DT_INT16, 3, S(2, 2, 3));
  litert_options_default(&o);
  mb_op(b, OP_STRIDED_SLICE, &o, 4, IO(a, bb, e, s), 1, IO(y));
  check_model(b, "strided_slice");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 3, S(4, 5, 6));
  bb = mb_ci32(b, 3, S(2, 0, 1));
  e = mb_ci32(b, 3, S(3, 5, 4));
  s = mb_ci32(b, 3, S(1, 1, 1));
  y = mb_out(b, DT_FLOAT32, 2, S(5, 3));
  litert_options_default(&o);
  o.shrink_axis_mask = 1;
  o.end_mask = 2;
  mb_op(b, OP_STRIDED_SLICE, &o, 4, IO(a, bb, e, s), 1, IO(y));
  check_model(b, "strided_slice_shrink");

  b = mb_new();
  a = mb_in(b, DT_INT32, 3, S(3, 4, 5));
  bb = mb_ci32(b, 3, S(1, 0, 2));
  s = mb_ci32(b, 3, S(2, -1, 2));
  y = mb_out(b, DT_INT32, 3, S(2, 4, 2));
  litert_options_default(&o);
  mb_op(b, OP_SLICE, &o, 3, IO(a, bb, s), 1, IO(y));
  check_model(b, "slice");

  b = mb_new();
  a = mb_in(b, DT_INT8, 4, S(2, 3, 4, 5));
  int p = mb_ci32(b, 4, S(0, 3, 1, 2));
  y = mb_out(b, DT_INT8, 4, S(2, 5, 3, 4));
  litert_options_default(&o);
  mb_op(b, OP_TRANSPOSE, &o, 2, IO(a, p), 1, IO(y));
  check_model(b, "transpose");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 3, S(2, 3, 4));
  p = mb_ci32(b, 2, S(0, 2));
  y = mb_out(b, DT_FLOAT32, 3, S(2, 3, 4));
  litert_options_default(&o);
  mb_op(b, OP_REVERSE_V2, &o, 2, IO(a, p), 1, IO(y));
  check_model(b, "reverse");
}

static void test_emit_split_pack(void **state) {
  (void)state;
  litert_options o;
  mb *b = mb_new();
  int ax = mb_ci32(b, 1, S(1));
  int a = mb_in(b, DT_INT8, 3, S(2, 6, 3));
  int y0 = mb_out(b, DT_INT8, 3, S(2, 2, 3)), y1 = mb_out(b, DT_INT8, 3, S(2, 2, 3)),
      y2 = mb_out(b, DT_INT8, 3, S(2, 2, 3));
  litert_options_default(&o);
  o.num_splits = 3;
  mb_op(b, OP_SPLIT, &o, 2, IO(ax, a), 3, IO(y0, y1, y2));
  check_model(b, "split");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 2, S(3, 7));
  int sz = mb_ci32(b, 2, S(5, -1));
  ax = mb_ci32(b, 1, S(-1));
  y0 = mb_out(b, DT_FLOAT32, 2, S(3, 5));
  y1 = mb_out(b, DT_FLOAT32, 2, S(3, 2));
  litert_options_default(&o);
  o.num_splits = 2;
  mb_op(b, OP_SPLIT_V, &o, 3, IO(a, sz, ax), 2, IO(y0, y1));
  check_model(b, "split_v");

  b = mb_new();
  a = mb_in(b, DT_INT16, 2, S(2, 3));
  int c = mb_in(b, DT_INT16, 2, S(2, 3));
  int y = mb_out(b, DT_INT16, 3, S(2, 2, 3));
  litert_options_default(&o);
  o.axis = 1;
  o.num = 2;
  mb_op(b, OP_PACK, &o, 2, IO(a, c), 1, IO(y));
  check_model(b, "pack");

  b = mb_new();
  a = mb_in(b, DT_INT32, 3, S(2, 3, 2));
  y0 = mb_out(b, DT_INT32, 2, S(2, 2));
  y1 = mb_out(b, DT_INT32, 2, S(2, 2));
  y2 = mb_out(b, DT_INT32, 2, S(2, 2));
  litert_options_default(&o);
  o.axis = 1;
  o.num = 3;
  mb_op(b, OP_UNPACK, &o, 1, IO(a), 3, IO(y0, y1, y2));
  check_model(b, "unpack");
}

static void test_emit_misc(void **state) {
  (void)state;
  litert_options o;
  mb *b = mb_new();
  int a = mb_in(b, DT_FLOAT32, 3, S(2, 5, 3));
  int ix = mb_c(b, DT_INT64, 1, S(4), (const int64_t[]){4, 0, 2, 2}, 32);
  int y = mb_out(b, DT_FLOAT32, 3, S(2, 4, 3));
  litert_options_default(&o);
  o.axis = 1;
  mb_op(b, OP_GATHER, &o, 2, IO(a, ix), 1, IO(y));
  check_model(b, "gather");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 1, S(16));
  y = mb_out(b, DT_INT8, 1, S(16));
  litert_options_default(&o);
  mb_op(b, OP_CAST, &o, 1, IO(a), 1, IO(y));
  check_model(b, "cast_f32_s8");

  b = mb_new();
  a = mb_in(b, DT_INT32, 2, S(3, 3));
  y = mb_out(b, DT_FLOAT32, 2, S(3, 3));
  litert_options_default(&o);
  mb_op(b, OP_CAST, &o, 1, IO(a), 1, IO(y));
  check_model(b, "cast_i32_f32");

  b = mb_new();
  int dims = mb_ci32(b, 2, S(3, 4));
  int v = mb_in(b, DT_INT16, 0, NULL);
  y = mb_out(b, DT_INT16, 2, S(3, 4));
  litert_options_default(&o);
  mb_op(b, OP_FILL, &o, 2, IO(dims, v), 1, IO(y));
  check_model(b, "fill");

  b = mb_new();
  a = mb_in(b, DT_INT8, 3, S(2, 1, 3));
  int m = mb_ci32(b, 3, S(2, 3, 1));
  y = mb_out(b, DT_INT8, 3, S(4, 3, 3));
  litert_options_default(&o);
  mb_op(b, OP_TILE, &o, 2, IO(a, m), 1, IO(y));
  check_model(b, "tile");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 2, S(3, 1));
  int sh = mb_ci32(b, 3, S(2, 3, 4));
  y = mb_out(b, DT_FLOAT32, 3, S(2, 3, 4));
  litert_options_default(&o);
  mb_op(b, OP_BROADCAST_TO, &o, 2, IO(a, sh), 1, IO(y));
  check_model(b, "broadcast_to");

  b = mb_new();
  a = mb_in(b, DT_INT8, 4, S(1, 3, 4, 2));
  sh = mb_ci32(b, 2, S(5, 7));
  y = mb_out(b, DT_INT8, 4, S(1, 5, 7, 2));
  mb_q(b, a, 0.1f, 2);
  mb_q(b, y, 0.1f, 2);
  litert_options_default(&o);
  o.half_pixel_centers = 1;
  mb_op(b, OP_RESIZE_NEAREST_NEIGHBOR, &o, 2, IO(a, sh), 1, IO(y));
  check_model(b, "resize_nn");

  b = mb_new();
  a = mb_in(b, DT_INT8, 4, S(2, 3, 4, 2));
  sh = mb_ci32(b, 2, S(5, 7));
  y = mb_out(b, DT_INT8, 4, S(2, 5, 7, 2));
  mb_q(b, a, 0.1f, 2);
  mb_q(b, y, 0.1f, 2);
  litert_options_default(&o);
  o.half_pixel_centers = 1;
  mb_op(b, OP_RESIZE_BILINEAR, &o, 2, IO(a, sh), 1, IO(y));
  check_model(b, "resize_bl_s8");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 4, S(1, 3, 4, 2));
  sh = mb_ci32(b, 2, S(6, 8));
  y = mb_out(b, DT_FLOAT32, 4, S(1, 6, 8, 2));
  litert_options_default(&o);
  o.align_corners = 1;
  mb_op(b, OP_RESIZE_BILINEAR, &o, 2, IO(a, sh), 1, IO(y));
  check_model(b, "resize_bl_f32");

  b = mb_new();
  a = mb_in(b, DT_INT16, 4, S(1, 2, 3, 8));
  y = mb_out(b, DT_INT16, 4, S(1, 4, 6, 2));
  litert_options_default(&o);
  o.block_size = 2;
  mb_op(b, OP_DEPTH_TO_SPACE, &o, 1, IO(a), 1, IO(y));
  check_model(b, "depth_to_space");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 4, S(1, 4, 6, 2));
  y = mb_out(b, DT_FLOAT32, 4, S(1, 2, 3, 8));
  litert_options_default(&o);
  o.block_size = 2;
  mb_op(b, OP_SPACE_TO_DEPTH, &o, 1, IO(a), 1, IO(y));
  check_model(b, "space_to_depth");
}

static void test_emit_reduce(void **state) {
  (void)state;
  litert_options o;
  mb *b = mb_new();
  int a = mb_in(b, DT_INT8, 4, S(1, 5, 6, 3));
  int ax = mb_ci32(b, 2, S(1, 2));
  int y = mb_out(b, DT_INT8, 4, S(1, 1, 1, 3));
  mb_q(b, a, 0.07f, -3);
  mb_q(b, y, 0.02f, 5);
  litert_options_default(&o);
  o.keep_dims = 1;
  mb_op(b, OP_MEAN, &o, 2, IO(a, ax), 1, IO(y));
  check_model(b, "mean_s8");

  b = mb_new();
  a = mb_in(b, DT_INT16, 3, S(4, 3, 5));
  ax = mb_ci32(b, 2, S(0, -1));
  y = mb_out(b, DT_INT16, 1, S(3));
  mb_q(b, a, 0.0003f, 0);
  mb_q(b, y, 0.004f, 0);
  litert_options_default(&o);
  mb_op(b, OP_SUM, &o, 2, IO(a, ax), 1, IO(y));
  check_model(b, "sum_s16");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 3, S(4, 3, 5));
  ax = mb_ci32(b, 1, S(1));
  y = mb_out(b, DT_FLOAT32, 2, S(4, 5));
  litert_options_default(&o);
  mb_op(b, OP_REDUCE_MAX, &o, 2, IO(a, ax), 1, IO(y));
  check_model(b, "reduce_max_f32");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 3, S(4, 3, 5));
  ax = mb_ci32(b, 2, S(0, 2));
  y = mb_out(b, DT_FLOAT32, 1, S(3));
  litert_options_default(&o);
  mb_op(b, OP_MEAN, &o, 2, IO(a, ax), 1, IO(y));
  check_model(b, "mean_f32");

  b = mb_new();
  a = mb_in(b, DT_FLOAT32, 2, S(4, 9));
  ax = mb_ci32(b, 1, S(1));
  y = mb_out(b, DT_INT32, 1, S(4));
  litert_options_default(&o);
  o.out_type = DT_INT32;
  mb_op(b, OP_ARG_MAX, &o, 2, IO(a, ax), 1, IO(y));
  check_model(b, "arg_max");

  b = mb_new();
  a = mb_in(b, DT_INT8, 2, S(4, 9));
  ax = mb_ci32(b, 1, S(0));
  y = mb_out(b, DT_INT64, 1, S(9));
  litert_options_default(&o);
  o.out_type = DT_INT64;
  mb_op(b, OP_ARG_MIN, &o, 2, IO(a, ax), 1, IO(y));
  check_model(b, "arg_min");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_emit_concat_pad), cmocka_unit_test(test_emit_slices),
      cmocka_unit_test(test_emit_split_pack), cmocka_unit_test(test_emit_misc),
      cmocka_unit_test(test_emit_reduce),
  };
  return cmocka_run_group_tests(tests, eh_setup, eh_teardown);
}
