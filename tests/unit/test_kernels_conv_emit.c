/* test_kernels_conv_emit.c - emit() of the convolution-family ops agrees with
 * eval(): each small single-op model (built with the litert model API and
 * written to a temporary .tflite) is compiled by aotc into a module, the
 * module is built with the host C compiler (-std=c99 -Wall -Wextra -Werror
 * -pedantic) and run on deterministic inputs, and its outputs must equal,
 * byte for byte, what the op's eval() computes on the untransformed graph.
 * Skips when no C compiler ("cc") is available. */
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

/* One RNG drives the random constants and, after them, the inputs. */
static uint32_t seed = 99;

static uint32_t rnd(void) {
  seed = seed * 1664525u + 1013904223u;
  return seed >> 8;
}
static int rr(int lo, int hi) { return lo + (int)(rnd() % (uint32_t)(hi - lo + 1)); }

enum { T_PLAIN, T_IN, T_OUT };

/* A tensor of the single-op model: constant with random data (cnst) or not;
 * role T_IN / T_OUT makes it a model input / output; scale > 0 quantizes. */
static int gm_t(mb *b, int dt, int rank, const int32_t *shape, int cnst, int role, float scale,
                int zp) {
  size_t n = 1;
  for (int i = 0; i < rank; i++) n *= (size_t)shape[i];
  int buf = 0;
  if (cnst) {
    size_t es = dtype_size(dt);
    uint8_t *d = malloc(n * es);
    for (size_t i = 0; i < n; i++) {
      if (dt == DT_FLOAT32) {
        float v = (float)rr(-1000, 1000) / 500.0f;
        memcpy(d + 4 * i, &v, 4);
      } else if (dt == DT_INT8) {
        d[i] = (uint8_t)(int8_t)rr(-127, 127);
      } else if (dt == DT_INT16) {
        int16_t v = (int16_t)rr(-20000, 20000);
        memcpy(d + 2 * i, &v, 2);
      } else if (dt == DT_INT32) {
        int32_t v = rr(-3000, 3000);
        memcpy(d + 4 * i, &v, 4);
      } else if (dt == DT_INT64) {
        int64_t v = rr(-300000, 300000);
        memcpy(d + 8 * i, &v, 8);
      }
    }
    buf = litert_add_buffer(b->m, d, n * es);
    free(d);
  }
  int t = litert_add_tensor(b->m, 0, "t", dt, rank, shape, buf);
  if (scale > 0) mb_q(b, t, scale, zp);
  if (role == T_IN) b->in[b->nin++] = t;
  if (role == T_OUT) b->out[b->nout++] = t;
  return t;
}

static litert_options opt(int builtin) {
  litert_options o;
  litert_options_default(&o);
  o.type = litert_builtin_options_type(builtin);
  return o;
}

/* inputs continue the constants' random sequence (the index is not used) */
static void fill_random(void *p, int dtype, size_t n, uint32_t index) {
  (void)index;
  for (size_t i = 0; i < n; i++) {
    switch (dtype) {
      case DT_FLOAT32: ((float *)p)[i] = (float)rr(-1000, 1000) / 300.0f; break;
      case DT_INT8: ((int8_t *)p)[i] = (int8_t)rr(-128, 127); break;
      case DT_INT16: ((int16_t *)p)[i] = (int16_t)rr(-32768, 32767); break;
      default: ((uint8_t *)p)[i] = (uint8_t)rnd(); break;
    }
  }
}

/* Adds the op (the model's only one, output b->out[0]) and checks the
 * module against eval(). */
static void run_case(mb *b, int builtin, const litert_options *o, int nin, const int32_t *in,
                     const char *name) {
  mb_op(b, builtin, o, nin, in, 1, b->out);
  eh_check(b, name, fill_random, 1);
}

/* kind 0 conv, 1 depthwise, 2 transpose conv; groups > 1 for grouped conv */
static void conv_case(const char *name, int dt, int kind, int n, int h, int w, int c, int oc,
                      int fh, int fw, int sh, int sw, int dh, int dw, int pad, int act, int bias,
                      int groups) {
  mb *g = mb_new();
  int q = dt != DT_FLOAT32, s16 = dt == DT_INT16;
  int in = gm_t(g, dt, 4, (int32_t[]){n, h, w, c}, 0, T_IN, q ? 0.05f : 0, s16 ? 0 : 3);
  int32_t fs[4] = {kind == 1 ? 1 : oc, fh, fw, kind == 1 ? oc : c / groups};
  int f = gm_t(g, q ? DT_INT8 : DT_FLOAT32, 4, fs, 1, T_PLAIN, q ? 0.02f : 0, 0);
  int bdt = q ? (s16 ? DT_INT64 : DT_INT32) : DT_FLOAT32;
  int b = bias ? gm_t(g, bdt, 1, (int32_t[]){oc}, 1, T_PLAIN, q ? 0.001f : 0, 0) : -1;
  int builtin = kind == 0 ? OP_CONV_2D : kind == 1 ? OP_DEPTHWISE_CONV_2D : OP_TRANSPOSE_CONV;
  litert_options o = opt(builtin);
  o.stride_h = sh;
  o.stride_w = sw;
  o.dilation_h = dh;
  o.dilation_w = dw;
  o.padding = pad;
  o.fused_act = act;
  o.depth_multiplier = kind == 1 ? oc / c : 0;
  int oh, ow;
  if (kind == 2) {
    oh = pad == PAD_SAME ? h * sh : (h - 1) * sh + fh;
    ow = pad == PAD_SAME ? w * sw : (w - 1) * sw + fw;
  } else {
    int efh = (fh - 1) * dh + 1, efw = (fw - 1) * dw + 1;
    oh = pad == PAD_SAME ? (h + sh - 1) / sh : (h + sh - efh) / sh;
    ow = pad == PAD_SAME ? (w + sw - 1) / sw : (w + sw - efw) / sw;
  }
  int32_t os[4] = {n, oh, ow, oc};
  gm_t(g, dt, 4, os, 0, T_OUT, q ? 0.1f : 0, s16 ? 0 : -2);
  if (kind == 2) {
    int buf = litert_add_buffer(g->m, os, sizeof os);
    int ost = litert_add_tensor(g->m, 0, "oshape", DT_INT32, 1, (int32_t[]){4}, buf);
    run_case(g, builtin, &o, bias ? 4 : 3, (int32_t[]){ost, f, in, b}, name);
  } else {
    run_case(g, builtin, &o, 3, (int32_t[]){in, f, b}, name);
  }
}

static void test_emit_conv(void **state) {
  (void)state;
  if (!eh_have_cc) skip();
  conv_case("conv_s8_same_s2", DT_INT8, 0, 1, 9, 8, 3, 6, 3, 3, 2, 2, 1, 1, PAD_SAME, ACT_RELU6,
            1, 1);
  conv_case("conv_s8_grp_dil", DT_INT8, 0, 1, 10, 9, 4, 6, 3, 2, 1, 1, 2, 2, PAD_VALID, ACT_NONE,
            0, 2);
  conv_case("conv_s16_same", DT_INT16, 0, 1, 7, 6, 5, 7, 3, 3, 1, 2, 1, 1, PAD_SAME, ACT_RELU, 1,
            1);
  conv_case("conv_f32_same", DT_FLOAT32, 0, 2, 6, 5, 3, 5, 3, 3, 1, 1, 1, 1, PAD_SAME,
            ACT_RELU_N1_TO_1, 1, 1);
}

static void test_emit_depthwise(void **state) {
  (void)state;
  if (!eh_have_cc) skip();
  conv_case("dw_s8_dm2", DT_INT8, 1, 1, 8, 7, 3, 6, 3, 3, 2, 1, 1, 1, PAD_SAME, ACT_RELU, 1, 1);
  conv_case("dw_s8_dm1", DT_INT8, 1, 1, 6, 7, 6, 6, 3, 3, 1, 2, 1, 1, PAD_SAME, ACT_RELU6, 1, 1);
  conv_case("dw_s16_dm1", DT_INT16, 1, 1, 8, 7, 6, 6, 3, 3, 1, 1, 1, 2, PAD_SAME, ACT_NONE, 1, 1);
  conv_case("dw_f32_dm1", DT_FLOAT32, 1, 1, 8, 7, 5, 5, 3, 3, 1, 1, 1, 1, PAD_VALID, ACT_RELU6,
            0, 1);
}

static void test_emit_transpose_conv(void **state) {
  (void)state;
  if (!eh_have_cc) skip();
  conv_case("tconv_s8", DT_INT8, 2, 1, 4, 5, 3, 4, 3, 3, 2, 2, 1, 1, PAD_SAME, ACT_NONE, 1, 1);
  conv_case("tconv_f32", DT_FLOAT32, 2, 1, 3, 4, 2, 3, 4, 2, 2, 1, 1, 1, PAD_VALID, ACT_RELU, 1,
            1);
  conv_case("tconv_s16", DT_INT16, 2, 1, 1, 6, 4, 3, 1, 4, 1, 2, 1, 1, PAD_SAME, ACT_NONE, 1, 1);
}

static void fc_case(const char *name, int dt, int b, int i, int oc, int keep, int act, int bias) {
  mb *g = mb_new();
  int q = dt != DT_FLOAT32, s16 = dt == DT_INT16;
  int in = gm_t(g, dt, 3, (int32_t[]){b, 2, i}, 0, T_IN, q ? 0.05f : 0, s16 ? 0 : -7);
  int w = gm_t(g, q ? DT_INT8 : DT_FLOAT32, 2, (int32_t[]){oc, i}, 1, T_PLAIN, q ? 0.01f : 0, 0);
  int bdt = q ? (s16 ? DT_INT64 : DT_INT32) : DT_FLOAT32;
  int bb = bias ? gm_t(g, bdt, 1, (int32_t[]){oc}, 1, T_PLAIN, q ? 0.0005f : 0, 0) : -1;
  if (keep)
    gm_t(g, dt, 3, (int32_t[]){b, 2, oc}, 0, T_OUT, q ? 0.2f : 0, s16 ? 0 : 4);
  else
    gm_t(g, dt, 2, (int32_t[]){b * 2, oc}, 0, T_OUT, q ? 0.2f : 0, s16 ? 0 : 4);
  litert_options o = opt(OP_FULLY_CONNECTED);
  o.keep_num_dims = keep;
  o.fused_act = act;
  run_case(g, OP_FULLY_CONNECTED, &o, 3, (int32_t[]){in, w, bb}, name);
}

static void test_emit_fc(void **state) {
  (void)state;
  if (!eh_have_cc) skip();
  fc_case("fc_s8_keep", DT_INT8, 3, 20, 7, 1, ACT_RELU, 1);
  fc_case("fc_s16", DT_INT16, 2, 33, 5, 0, ACT_NONE, 1);
  fc_case("fc_f32_nobias", DT_FLOAT32, 2, 17, 9, 0, ACT_NONE, 0);
}

static void pool_case(const char *name, int dt, int mx, int h, int w, int c, int fh, int fw,
                      int sh, int sw, int pad, int act) {
  mb *g = mb_new();
  int q = dt != DT_FLOAT32, zp = dt == DT_INT8 ? 5 : 0;
  int in = gm_t(g, dt, 4, (int32_t[]){1, h, w, c}, 0, T_IN, q ? 0.05f : 0, zp);
  int oh = pad == PAD_SAME ? (h + sh - 1) / sh : (h + sh - fh) / sh;
  int ow = pad == PAD_SAME ? (w + sw - 1) / sw : (w + sw - fw) / sw;
  gm_t(g, dt, 4, (int32_t[]){1, oh, ow, c}, 0, T_OUT, q ? 0.05f : 0, zp);
  int builtin = mx ? OP_MAX_POOL_2D : OP_AVERAGE_POOL_2D;
  litert_options o = opt(builtin);
  o.filter_h = fh;
  o.filter_w = fw;
  o.stride_h = sh;
  o.stride_w = sw;
  o.padding = pad;
  o.fused_act = act;
  run_case(g, builtin, &o, 1, (int32_t[]){in}, name);
}

static void test_emit_pool(void **state) {
  (void)state;
  if (!eh_have_cc) skip();
  pool_case("avg_s8", DT_INT8, 0, 7, 6, 5, 3, 2, 2, 2, PAD_SAME, ACT_NONE);
  pool_case("avg_s16", DT_INT16, 0, 7, 6, 5, 3, 3, 1, 1, PAD_SAME, ACT_RELU);
  pool_case("avg_f32", DT_FLOAT32, 0, 7, 6, 5, 2, 2, 2, 2, PAD_VALID, ACT_NONE);
  pool_case("max_s8", DT_INT8, 1, 7, 6, 5, 3, 3, 2, 2, PAD_SAME, ACT_RELU);
  pool_case("max_s16", DT_INT16, 1, 7, 6, 5, 2, 3, 1, 2, PAD_VALID, ACT_NONE);
  pool_case("max_f32", DT_FLOAT32, 1, 7, 6, 5, 3, 3, 2, 2, PAD_SAME, ACT_RELU6);
}

static void bmm_case(const char *name, int dt, int adjx, int adjy, int rhs_const) {
  mb *g = mb_new();
  int q = dt != DT_FLOAT32, s16 = dt == DT_INT16;
  int32_t ls[4] = {2, 1, adjx ? 5 : 3, adjx ? 3 : 5};
  int32_t rs[3] = {3, adjy ? 4 : 5, adjy ? 5 : 4};
  int l = gm_t(g, dt, 4, ls, 0, T_IN, q ? 0.05f : 0, s16 ? 0 : 2);
  int r = gm_t(g, dt, 3, rs, rhs_const, rhs_const ? T_PLAIN : T_IN, q ? 0.03f : 0, s16 ? 0 : -1);
  gm_t(g, dt, 4, (int32_t[]){2, 3, 3, 4}, 0, T_OUT, q ? 0.3f : 0, s16 ? 0 : 1);
  litert_options o = opt(OP_BATCH_MATMUL);
  o.adj_x = adjx;
  o.adj_y = adjy;
  run_case(g, OP_BATCH_MATMUL, &o, 2, (int32_t[]){l, r}, name);
}

static void test_emit_batch_matmul(void **state) {
  (void)state;
  if (!eh_have_cc) skip();
  bmm_case("bmm_f32", DT_FLOAT32, 0, 0, 0);
  bmm_case("bmm_s8_adj", DT_INT8, 1, 1, 1);
  bmm_case("bmm_s16_adjy", DT_INT16, 0, 1, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_emit_conv),      cmocka_unit_test(test_emit_depthwise),
      cmocka_unit_test(test_emit_transpose_conv), cmocka_unit_test(test_emit_fc),
      cmocka_unit_test(test_emit_pool),      cmocka_unit_test(test_emit_batch_matmul),
  };
  return cmocka_run_group_tests(tests, eh_setup, eh_teardown);
}
