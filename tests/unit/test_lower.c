/* test_lower.c - the lowering step's tables (src/ops/lower.h, kernels.def,
 * ops_unary.def, registry.c):
 *   - every kernel descriptor names a runtime file that exists and defines
 *     that very function, with a params type a runtime header defines;
 *   - the operator table has no entry twice, each entry is either lowered
 *     (no emit / eval of its own) or has its own emit, and every row of
 *     ops_unary.def is in it under its name;
 *   - an op lowers to the expected call (kernel, arguments, parameters) and
 *     lower_eval runs it: SIGN against hand-computed values; a list of two
 *     calls with a scratch argument runs in order;
 *   - convolution-family ops (int8 CONV_2D, int8 and hybrid FULLY_CONNECTED)
 *     on random data: lowered once, evaluated through the descriptor
 *     (lower_eval) and compared byte for byte with a direct call of the
 *     portable kernel whose parameters are computed here from the TFLite
 *     formulas (QuantizeMultiplier written again with frexp); printed with
 *     lower_emit, which names the kernel, its arrays, its runtime file and
 *     the variant paths (features) the lowering chose;
 *   - int8 SOFTMAX: the exponential table is made for large ops only, and
 *     the kernel gives with it exactly the outputs it computes without it
 *     (int8 and int16 outputs, rows with repeated maxima and wide ranges);
 *     lower_emit prints the table and its length;
 *   - int8 SOFTMAX of two classes: lower_emit prints the two-class kernel's
 *     call, table and file (its outputs: test_softmax2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ops/emit.h"
#include "ops/lower.h"
#include "test_kernels_elementwise_util.h"

static char *slurp(const char *rel) {
  char path[1024];
  snprintf(path, sizeof path, "%s/runtime/%s", AOTC_SOURCE_DIR, rel);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = calloc(1, (size_t)n + 1);
  if (fread(s, 1, (size_t)n, f) != (size_t)n) n = 0;
  fclose(f);
  return s;
}

/* 1 if the file defines function name: "int32_t name(" or, for a file
 * made from a template header, "#define <macro> name" or a line invoking a
 * kernel-defining macro, "AOT_<MACRO>(name, ..." / "AOT_<MACRO>(x, name, ...". */
static int defines(const char *src, const char *name) {
  char def[128];
  snprintf(def, sizeof def, "int32_t %s(", name);
  if (strstr(src, def)) return 1;
  for (const char *p = strstr(src, "\nAOT_"); p; p = strstr(p + 1, "\nAOT_")) {
    const char *q = p + 1;
    while ((*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_') q++;
    if (*q != '(') continue;
    const char *nl = strchr(q, '\n');
    for (const char *a = q; a && a < (nl ? nl : a + strlen(a)); a = strchr(a + 1, ',')) {
      a++;
      while (*a == ' ') a++;
      const size_t n = strlen(name);
      if (strncmp(a, name, n) == 0 && (a[n] == ',' || a[n] == ')')) return 1;
    }
  }
  for (const char *p = strstr(src, "#define "); p; p = strstr(p + 1, "#define ")) {
    const char *sp = strchr(p + 8, ' ');
    const char *nl = strchr(p, '\n');
    if (sp && nl && sp < nl && (size_t)(nl - sp - 1) == strlen(name) &&
        strncmp(sp + 1, name, strlen(name)) == 0)
      return 1;
  }
  return 0;
}

static void test_kernel_table(void **state) {
  (void)state;
  static const char *const headers[] = {"aot_elementwise.h", "aot_conv.h", "aot_movement.h",
                                        "aot_recurrent.h"};
  enum { NH = sizeof headers / sizeof headers[0] };
  char *htext[NH];
  for (int i = 0; i < NH; i++) assert_non_null(htext[i] = slurp(headers[i]));
  assert_null(lower_kernel_get(-1));
  assert_null(lower_kernel_get(LK_COUNT));
  for (int k = 0; k < LK_COUNT; k++) {
    const lower_kernel *d = lower_kernel_get(k);
    assert_non_null(d);
    assert_non_null(d->fn);
    /* 1..3 tensor inputs, or a wide call (LP_GRU, the recurrent and hybrid
     * convolution kinds, the int8 convolutions and the int8 table ADD / SUB
     * with their scratch) with its argument vector */
    const int wide = d->kind == LP_GRU || (d->kind >= LP_SVDF && d->kind <= LP_LSTM_Q) ||
                     d->kind == LP_CONV_HYB || d->kind == LP_FC_HYB ||
                     (d->kind == LP_CONV && d->nin == 5) || (d->kind == LP_ADDSUB && d->nin == 4);
    assert_true((d->nin >= 1 && d->nin <= 3) || (wide && d->nin > 3 && d->nin <= LOWER_MAX_ARGS));
    assert_int_equal(strncmp(d->name, "aot_", 4), 0);
    for (int j = 0; j < k; j++) assert_string_not_equal(lower_kernel_get(j)->name, d->name);
    char *src = slurp(d->file);
    if (!src) fail_msg("kernel %s: runtime file %s missing", d->name, d->file);
    const int defined = defines(src, d->name);
    free(src);
    if (!defined) fail_msg("%s does not define %s", d->file, d->name);
    if (d->kind == LP_STEP) continue; /* the movement engine prints these */
    const char *ct = lower_params_ctype(d->kind);
    assert_non_null(ct);
    char td[128];
    snprintf(td, sizeof td, "} %s;", ct);
    int found = 0;
    for (int i = 0; i < NH; i++) found |= strstr(htext[i], td) != NULL;
    if (!found) {
      for (int i = 0; i < NH; i++) free(htext[i]);
      fail_msg("params type %s of %s not defined in a runtime header", ct, d->name);
    }
  }
  for (int i = 0; i < NH; i++) free(htext[i]);
}

static void test_operator_table(void **state) {
  (void)state;
  const op_impl *const *all = ops_all();
  int n = 0;
  for (int i = 0; all[i]; i++, n++) {
    const op_impl *o = all[i];
    assert_non_null(o->name);
    assert_non_null(o->check);
    if (o->lower) {
      assert_null(o->emit);
      assert_null(o->eval);
    } else {
      assert_non_null(o->emit);
    }
    for (int j = 0; j < i; j++)
      if (all[j]->builtin == o->builtin &&
          (o->custom == NULL ? all[j]->custom == NULL
                             : all[j]->custom && strcmp(all[j]->custom, o->custom) == 0))
        fail_msg("%s listed twice", o->name);
  }
  assert_true(n > 80);
  static const struct {
    int code;
    const char *name;
  } unary[] = {
#define EW_UNARY(VAR, CODE, NAME, KF32, KS32, DTYPES, CONSTRAINTS) {CODE, NAME},
#include "ops/ops_unary.def"
#undef EW_UNARY
  };
  for (size_t i = 0; i < sizeof unary / sizeof unary[0]; i++) {
    ir_op op;
    memset(&op, 0, sizeof op);
    op.builtin = unary[i].code;
    const op_impl *o = ops_find(NULL, &op);
    assert_non_null(o);
    assert_string_equal(o->name, unary[i].name);
    assert_non_null(o->lower);
  }
}

static void test_lower_sign(void **state) {
  (void)state;
  tg t;
  tg_init(&t);
  int x = tg_tensor(&t, DT_FLOAT32, 2, (const int32_t[]){2, 2}, 0, 0);
  int y = tg_tensor(&t, DT_FLOAT32, 2, (const int32_t[]){2, 2}, 0, 0);
  const float in[4] = {-0.5f, 0.0f, 7.0f, -INFINITY}, want[4] = {-1.0f, 0.0f, 1.0f, -1.0f};
  memcpy(t.data[x], in, sizeof in);
  ir_op *op = tg_op(&t, OP_SIGN, 1, (int[]){x}, y);
  const op_impl *impl = ops_find(t.g, op);
  char why[256] = "";
  lower_list *L = calloc(1, sizeof *L);
  assert_int_equal(lower_op(impl, t.g, op, L, why, sizeof why), 0);
  assert_int_equal(L->n, 1);
  assert_ptr_equal(L->call[0].k, lower_kernel_get(LK(aot_sign_f32)));
  assert_string_equal(L->call[0].k->name, "aot_sign_f32");
  assert_string_equal(L->call[0].k->file, "BasicMathFunctions/aot_sign_f32.c");
  assert_int_equal(L->call[0].in[0], x);
  assert_int_equal(L->call[0].in[1], -1);
  assert_int_equal(L->call[0].out, y);
  assert_int_equal(L->call[0].u.un.size, 4);
  assert_int_equal(lower_eval(L, t.data, NULL), 0);
  assert_memory_equal(t.data[y], want, sizeof want);
  lower_release(L);
  /* the int32 row picks the int32 kernel */
  t.g->t[x].dtype = DT_INT32;
  t.g->t[y].dtype = DT_INT32;
  assert_int_equal(lower_op(impl, t.g, op, L, why, sizeof why), 0);
  assert_ptr_equal(L->call[0].k, lower_kernel_get(LK(aot_sign_s32)));
  lower_release(L);
  /* int8 does not lower */
  t.g->t[x].dtype = DT_INT8;
  t.g->t[y].dtype = DT_INT8;
  assert_int_equal(lower_op(impl, t.g, op, L, why, sizeof why), -1);
  assert_non_null(strstr(why, "input is int8, expected float32"));
  lower_release(L);
  free(L);
  tg_free(&t);
}

/* A hand-made list of two calls: NEG of the scratch buffer into y, then
 * SIGN of y into z (a scratch argument and an intermediate tensor). */
static void test_lower_list(void **state) {
  (void)state;
  tg t;
  tg_init(&t);
  int y = tg_tensor(&t, DT_INT32, 1, (const int32_t[]){3}, 0, 0);
  int z = tg_tensor(&t, DT_INT32, 1, (const int32_t[]){3}, 0, 0);
  int32_t scratch[3] = {3, -4, 0};
  lower_list *L = calloc(1, sizeof *L);
  L->n = 2;
  lower_call_init(&L->call[0], LK(aot_neg_s32), LOWER_SCRATCH, -1, -1, y);
  L->call[0].u.un.size = 3;
  lower_call_init(&L->call[1], LK(aot_sign_s32), y, -1, -1, z);
  L->call[1].u.un.size = 3;
  assert_int_equal(lower_eval(L, t.data, scratch), 0);
  assert_memory_equal(t.data[y], ((const int32_t[]){-3, 4, 0}), 3 * sizeof(int32_t));
  assert_memory_equal(t.data[z], ((const int32_t[]){-1, 1, 0}), 3 * sizeof(int32_t));
  lower_release(L);
  free(L);
  tg_free(&t);
}

/* ---- convolution family ---------------------------------------------------- */

static uint32_t seed = 2024;
static int rr(int lo, int hi) {
  seed = seed * 1664525u + 1013904223u;
  return lo + (int)((seed >> 8) % (uint32_t)(hi - lo + 1));
}

/* TFLite QuantizeMultiplier: real = q * 2^(shift - 31), q in [2^30, 2^31). */
static void qmul(double real, int32_t *q, int32_t *shift) {
  int e;
  double f = frexp(real, &e);
  long long m = llround(f * 2147483648.0);
  if (m == 2147483648LL) m /= 2, e++;
  *q = (int32_t)m;
  *shift = e;
}

/* Gives tensor x nq scales along qdim (zero points 0). */
static void set_scales(ir_tensor *x, int nq, const float *sc, int qdim) {
  free(x->scale);
  free(x->zero_point);
  x->nq = nq;
  x->qdim = qdim;
  x->scale = xcalloc((size_t)nq, sizeof(float));
  x->zero_point = xcalloc((size_t)nq, sizeof(int32_t));
  memcpy(x->scale, sc, (size_t)nq * sizeof(float));
}

static void fill_s8(void *p, size_t n, int lo, int hi) {
  for (size_t i = 0; i < n; i++) ((int8_t *)p)[i] = (int8_t)rr(lo, hi);
}

/* Prints list L of op (named "op") with lower_emit into e (free with
 * emit_done). */
static void emit_list(tg *t, ir_op *op, lower_list *L, emit_ctx *e, char **cu) {
  memset(e, 0, sizeof *e);
  e->g = e->main = t->g;
  e->op = op;
  snprintf(e->opname, sizeof e->opname, "op");
  cu[0] = calloc((size_t)t->g->nt, 1);
  e->const_used = cu;
  assert_int_equal(lower_emit(e, L), 0);
  assert_int_equal(e->failed, 0);
}

static int has(const char *const *v, int n, const char *s) {
  for (int i = 0; i < n; i++)
    if (strcmp(v[i], s) == 0) return 1;
  return 0;
}

static void emit_done(emit_ctx *e) {
  for (int i = 0; i < e->npool; i++) free(e->pool[i]);
  free(e->pool);
  free(e->fn_names);
  free(e->fn_decls);
  free(e->kernels);
  free(e->features);
  free(e->const_used[0]);
  sb_free(&e->decls);
  sb_free(&e->body);
}

/* int8 CONV_2D, SAME padding (windows past the edge), per-channel filter,
 * fused RELU6: lower_eval equals aot_conv2d_s8 called directly. */
static void test_lower_conv_s8(void **state) {
  (void)state;
  tg t;
  tg_init(&t);
  const float si = 0.05f, so = 0.11f, fsc[4] = {0.010f, 0.021f, 0.0065f, 0.03f};
  int x = tg_tensor(&t, DT_INT8, 4, (const int32_t[]){1, 7, 6, 3}, si, -5);
  int f = tg_tensor(&t, DT_INT8, 4, (const int32_t[]){4, 3, 3, 3}, 1.0f, 0);
  int b = tg_tensor(&t, DT_INT32, 1, (const int32_t[]){4}, 0, 0);
  int y = tg_tensor(&t, DT_INT8, 4, (const int32_t[]){1, 4, 3, 4}, so, 3);
  set_scales(&t.g->t[f], 4, fsc, 0);
  fill_s8(t.data[x], 7 * 6 * 3, -128, 127);
  fill_s8(t.data[f], 4 * 27, -127, 127);
  for (int i = 0; i < 4; i++) ((int32_t *)t.data[b])[i] = rr(-3000, 3000);
  t.g->t[f].role = t.g->t[b].role = ROLE_CONST;   /* constants: the bias is folded */
  t.g->t[f].data = t.data[f];
  t.g->t[f].data_bytes = 4 * 27;
  t.g->t[b].data = t.data[b];
  t.g->t[b].data_bytes = 4 * 4;
  ir_op *op = tg_op(&t, OP_CONV_2D, 3, (int[]){x, f, b}, y);
  op->opts.padding = PAD_SAME;
  op->opts.stride_h = op->opts.stride_w = 2;
  op->opts.dilation_h = op->opts.dilation_w = 1;
  op->opts.fused_act = ACT_RELU6;
  const op_impl *impl = ops_find(t.g, op);
  char why[256] = "";
  lower_list *L = calloc(1, sizeof *L);
  assert_int_equal(lower_op(impl, t.g, op, L, why, sizeof why), 0);
  assert_int_equal(L->n, 1);
  const lower_call *c = &L->call[0];
  assert_ptr_equal(c->k, lower_kernel_get(LK(aot_conv2d_s8)));
  assert_int_equal(c->in[0], x);
  assert_int_equal(c->in[1], f);
  assert_int_equal(c->in[2], b);
  assert_int_equal(c->out, y);
  /* padded windows: the clipped path (27 taps, no BIG); one group, no
   * dilation: the DSP pointwise kernel with gathered windows (not the
   * four-position path, CONV_S8_G4, nor its padded filter: CONV_S8_GW);
   * RELU6: a range narrower than int8 */
  assert_int_equal(c->features, LF(CONV_S8_CLIP) | LF(CONV_S8_NARROW) | LF(CONV_S8_GW));
  /* the folded bias: bias + input_offset (5) * the sum of each filter */
  const int32_t *kb = c->arg[LOWER_CA_KBIAS].data;
  assert_non_null(kb);
  assert_int_equal(c->arg[LOWER_CA_KBIAS].n, 4);
  for (int o = 0; o < 4; o++) {
    int32_t sum = 0;
    for (int i = 0; i < 27; i++) sum += ((const int8_t *)t.data[f])[o * 27 + i];
    assert_int_equal(kb[o], ((const int32_t *)t.data[b])[o] + 5 * sum);
  }
  assert_int_equal(lower_eval(L, t.data, NULL), 0);

  /* the portable kernel with parameters computed here */
  int32_t mult[4], shift[4];
  for (int i = 0; i < 4; i++) qmul((double)si * (double)fsc[i] / (double)so, &mult[i], &shift[i]);
  aot_conv_params p = {.batches = 1, .in_h = 7, .in_w = 6, .in_c = 3, .out_h = 4, .out_w = 3,
                       .out_c = 4, .filter_h = 3, .filter_w = 3, .filter_in_c = 3,
                       .stride_h = 2, .stride_w = 2, .dilation_h = 1, .dilation_w = 1,
                       /* SAME: total padding (out - 1) * stride + filter - in, halved */
                       .pad_h = 1, .pad_w = 0, .input_offset = 5, .output_offset = 3,
                       .out_mult = mult, .out_shift = shift};
  p.act_min = 3 + 0;                                 /* RELU6: [0, 6] quantized */
  p.act_max = 3 + (int32_t)lround(6.0 / (double)so);
  int8_t want[48];
  assert_int_equal(aot_conv2d_s8(&p, t.data[x], t.data[f], t.data[b], want, NULL), 0);
  assert_memory_equal(t.data[y], want, sizeof want);

  /* the scratch the op asks for: the largest of the variants' needs (the
   * DSP pointwise kernel: 4 channel constants of 16 bytes, six widened
   * windows of 7 groups of 8 bytes, a padded last row, one gathered window) */
  op->scratch_bytes = impl->scratch(t.g, op);
  assert_int_equal(op->scratch_bytes, aot_conv2d_s8_scratch_size(&p));
  assert_true(op->scratch_bytes >= 16 * 4 + 6 * 7 * 8 + 7 * 4 + 27);
  emit_ctx e;
  char *cu[1];
  emit_list(&t, op, L, &e, cu);
  assert_non_null(strstr(e.decls.s, "static const int32_t op_mult[4]"));
  assert_non_null(strstr(e.decls.s, "static const int32_t op_shift[4]"));
  assert_non_null(strstr(e.decls.s, "static const aot_conv_params op_p = {\n  .batches = 1, .in_h = 7"));
  assert_non_null(strstr(e.decls.s, ".out_mult = op_mult, .out_shift = op_shift,"));
  assert_non_null(strstr(e.decls.s, "static const int32_t op_kbias[4]"));
  assert_non_null(strstr(e.decls.s, ".out_mult = op_mult, .out_shift = op_shift,\n  .kbias = op_kbias\n};"));
  assert_non_null(strstr(e.body.s, "st = aot_conv2d_s8(&op_p, t0, aot_constants.c_t1, aot_constants.c_t2, t3, op_scratch);"));
  assert_true(has(e.kernels, e.nkernels, "ConvolutionFunctions/aot_conv2d_s8.c"));
  assert_int_equal(e.nfeatures, 3);
  assert_string_equal(e.features[0], "CONV_S8_CLIP");
  assert_string_equal(e.features[1], "CONV_S8_NARROW");
  assert_string_equal(e.features[2], "CONV_S8_GW");
  emit_done(&e);
  lower_release(L);
  free(L);
  tg_free(&t);
}

/* int8 FULLY_CONNECTED with constant weights and rows over 1024 values: the
 * folded bias, the long-row path, lower_eval equals aot_fc_s8. */
static void test_lower_fc_s8(void **state) {
  (void)state;
  enum { B = 2, I = 1100, O = 5 };
  tg t;
  tg_init(&t);
  const float si = 0.04f, sw = 0.003f, so = 0.5f;
  int x = tg_tensor(&t, DT_INT8, 2, (const int32_t[]){B, I}, si, 7);
  int w = tg_tensor(&t, DT_INT8, 2, (const int32_t[]){O, I}, sw, 0);
  int b = tg_tensor(&t, DT_INT32, 1, (const int32_t[]){O}, 0, 0);
  int y = tg_tensor(&t, DT_INT8, 2, (const int32_t[]){B, O}, so, -4);
  fill_s8(t.data[x], B * I, -128, 127);
  fill_s8(t.data[w], O * I, -127, 127);
  for (int i = 0; i < O; i++) ((int32_t *)t.data[b])[i] = rr(-20000, 20000);
  t.g->t[w].role = t.g->t[b].role = ROLE_CONST;
  t.g->t[w].data = t.data[w];
  t.g->t[w].data_bytes = O * I;
  t.g->t[b].data = t.data[b];
  t.g->t[b].data_bytes = O * 4;
  ir_op *op = tg_op(&t, OP_FULLY_CONNECTED, 3, (int[]){x, w, b}, y);
  const op_impl *impl = ops_find(t.g, op);
  char why[256] = "";
  lower_list *L = calloc(1, sizeof *L);
  assert_int_equal(lower_op(impl, t.g, op, L, why, sizeof why), 0);
  const lower_call *c = &L->call[0];
  assert_ptr_equal(c->k, lower_kernel_get(LK(aot_fc_s8)));
  assert_int_equal(c->features, LF(FC_S8_LONG) | LF(FC_S8_ROWS4)); /* 1100 values, 5 rows */
  /* kbias[c] = bias[c] - 7 * (sum of weight row c) */
  const lower_arg *kb = &c->arg[LOWER_CA_KBIAS];
  assert_int_equal(kb->adt, 'w');
  assert_int_equal(kb->n, O);
  for (int r = 0; r < O; r++) {
    int32_t s = 0;
    for (int i = 0; i < I; i++) s += ((const int8_t *)t.data[w])[r * I + i];
    assert_int_equal(((const int32_t *)kb->data)[r], ((const int32_t *)t.data[b])[r] - 7 * s);
  }
  assert_int_equal(lower_eval(L, t.data, NULL), 0);

  int32_t mult, shift;
  qmul((double)(float)(si * sw) / (double)so, &mult, &shift); /* float product first */
  aot_fc_params p = {.batches = B, .in_depth = I, .out_depth = O, .input_offset = -7,
                     .output_offset = -4, .act_min = -128, .act_max = 127,
                     .out_mult = &mult, .out_shift = &shift};
  int8_t want[B * O];
  assert_int_equal(aot_fc_s8(&p, t.data[x], t.data[w], t.data[b], want), 0);
  assert_memory_equal(t.data[y], want, sizeof want);

  emit_ctx e;
  char *cu[1];
  emit_list(&t, op, L, &e, cu);
  assert_non_null(strstr(e.decls.s, "static const int32_t op_kbias[5]"));
  assert_non_null(strstr(e.decls.s, ".per_channel = 0, .out_mult = op_mult, .out_shift = op_shift,\n"
                                    "  .kbias = op_kbias\n};"));
  assert_non_null(strstr(e.body.s, "st = aot_fc_s8(&op_p, t0, aot_constants.c_t1, "
                                   "aot_constants.c_t2, t3);"));
  assert_true(has(e.kernels, e.nkernels, "FullyConnectedFunctions/aot_fc_s8.c"));
  assert_int_equal(e.nfeatures, 2);
  assert_string_equal(e.features[0], "FC_S8_LONG");
  assert_string_equal(e.features[1], "FC_S8_ROWS4");
  emit_done(&e);
  lower_release(L);
  free(L);
  tg_free(&t);
}

/* Hybrid FULLY_CONNECTED (float32 input, per-channel int8 weights), fused
 * RELU: a wide call with the op's scratch; lower_eval equals aot_fc_hybrid. */
static void test_lower_fc_hybrid(void **state) {
  (void)state;
  enum { B = 3, I = 20, O = 4 };
  tg t;
  tg_init(&t);
  const float wsc[O] = {0.02f, 0.013f, 0.05f, 0.0071f};
  int x = tg_tensor(&t, DT_FLOAT32, 2, (const int32_t[]){B, I}, 0, 0);
  int w = tg_tensor(&t, DT_INT8, 2, (const int32_t[]){O, I}, 1.0f, 0);
  int b = tg_tensor(&t, DT_FLOAT32, 1, (const int32_t[]){O}, 0, 0);
  int y = tg_tensor(&t, DT_FLOAT32, 2, (const int32_t[]){B, O}, 0, 0);
  set_scales(&t.g->t[w], O, wsc, 0);
  for (int i = 0; i < B * I; i++) ((float *)t.data[x])[i] = (float)rr(-1000, 1000) / 97.0f;
  fill_s8(t.data[w], O * I, -127, 127);
  for (int i = 0; i < O; i++) ((float *)t.data[b])[i] = (float)rr(-100, 100) / 50.0f;
  ir_op *op = tg_op(&t, OP_FULLY_CONNECTED, 3, (int[]){x, w, b}, y);
  op->opts.fused_act = ACT_RELU;
  const op_impl *impl = ops_find(t.g, op);
  char why[256] = "";
  lower_list *L = calloc(1, sizeof *L);
  assert_int_equal(lower_op(impl, t.g, op, L, why, sizeof why), 0);
  const lower_call *c = &L->call[0];
  assert_ptr_equal(c->k, lower_kernel_get(LK(aot_fc_hybrid)));
  assert_int_equal(c->features, 0);
  aot_fc_params p = {.batches = B, .in_depth = I, .out_depth = O, .act_min_f = 0.0f,
                     .act_max_f = HUGE_VALF};
  const size_t nscratch = aot_fc_hybrid_buffer_size(&p);
  assert_int_equal(impl->scratch(t.g, op), nscratch);
  void *scratch = calloc(1, nscratch);
  assert_int_equal(lower_eval(L, t.data, scratch), 0);
  aot_hybrid_params h = {.per_channel = 1, .filter_scale = wsc};
  float want[B * O];
  assert_int_equal(aot_fc_hybrid(&p, &h, t.data[x], t.data[w], t.data[b], want, scratch), 0);
  assert_memory_equal(t.data[y], want, sizeof want);
  free(scratch);

  emit_ctx e;
  char *cu[1];
  emit_list(&t, op, L, &e, cu);
  assert_non_null(strstr(e.decls.s, "static const float op_wscale[4]"));
  assert_non_null(strstr(e.decls.s, "static const aot_hybrid_params op_h = {.per_channel = 1, "
                                    ".filter_scale = op_wscale};"));
  assert_non_null(strstr(e.body.s, "st = aot_fc_hybrid(&op_p, &op_h, t0, t1, t2, t3, op_scratch);"));
  assert_int_equal(e.nfeatures, 0);
  emit_done(&e);
  lower_release(L);
  free(L);
  tg_free(&t);
}

/* int8 SOFTMAX: lowered with the exponential table when the op has at
 * least about n elements (op_activation.c), without it for a 12-class head;
 * the kernel's outputs with the table equal those it computes without it. */
static void test_lower_softmax_table(void **state) {
  (void)state;
  static const float scales[] = {0.02f, 0.1f, 0.25f, 0.5f, 1.5f};
  for (size_t si = 0; si < sizeof scales / sizeof scales[0]; si++) {
    for (int big = 0; big < 2; big++) {
      for (int out16 = 0; out16 < 2; out16++) {
        const int32_t rows = big ? 24 : 1, depth = big ? 100 : 12, n = rows * depth;
        tg t;
        tg_init(&t);
        int x = tg_tensor(&t, DT_INT8, 2, (const int32_t[]){rows, depth}, scales[si], -3);
        int y = out16 ? tg_tensor(&t, DT_INT16, 2, (const int32_t[]){rows, depth}, 1.0f / 65536.0f, -32768)
                      : tg_tensor(&t, DT_INT8, 2, (const int32_t[]){rows, depth}, 1.0f / 256.0f, -128);
        for (int r = 0; r < rows; r++)   /* row kinds: full range, narrow, mostly at the maximum */
          for (int c = 0; c < depth; c++)
            ((int8_t *)t.data[x])[r * depth + c] =
                (int8_t)(r % 3 == 0 ? rr(-128, 127) : r % 3 == 1 ? rr(90, 127) : (rr(0, 9) ? 127 : rr(-128, 127)));
        ir_op *op = tg_op(&t, OP_SOFTMAX, 1, (int[]){x}, y);
        op->opts.beta = 1.0f;
        char why[256] = "";
        lower_list *L = calloc(1, sizeof *L);
        assert_int_equal(lower_op(ops_find(t.g, op), t.g, op, L, why, sizeof why), 0);
        const lower_call *c = &L->call[0];
        const int32_t tn = c->u.sm.diff_min <= -255 ? 256 : 1 - c->u.sm.diff_min;
        assert_int_equal(c->nlut32, big ? tn : 0);
        aot_softmax_params p = c->u.sm;
        int16_t with[24 * 100], without[24 * 100];
        p.exp_tab = c->nlut32 ? c->lut32 : NULL;
        p.exp_tab_n = c->nlut32;
        int32_t st1 = out16 ? aot_softmax_s8_s16(&p, t.data[x], with)
                            : aot_softmax_s8(&p, t.data[x], (int8_t *)with);
        p.exp_tab = NULL;
        int32_t st2 = out16 ? aot_softmax_s8_s16(&p, t.data[x], without)
                            : aot_softmax_s8(&p, t.data[x], (int8_t *)without);
        assert_int_equal(st1, 0);   /* rows of 100: the sum of exponentials stays below 256 */
        assert_int_equal(st2, 0);
        assert_memory_equal(with, without, (size_t)n * (out16 ? 2 : 1));
        if (big && !out16 && si == 1) {   /* the emitted table */
          emit_ctx e;
          char *cu[1];
          emit_list(&t, op, L, &e, cu);
          assert_non_null(strstr(e.decls.s, "static const int32_t op_exp_tab["));
          assert_non_null(strstr(e.decls.s, ".exp_tab = op_exp_tab"));
          assert_non_null(strstr(e.decls.s, ".exp_tab_n = "));
          emit_done(&e);
        }
        lower_release(L);
        free(L);
        tg_free(&t);
      }
    }
  }
}

/* int8 SOFTMAX of two classes (op_activation.c softmax2_tables): the call
 * of aot_softmax2_s8 / _s16, its int16 table of exp_tab_n entries and the
 * runtime file; none of the general kernel's parameters. (Its outputs:
 * test_softmax2.) */
static void test_lower_softmax2_emit(void **state) {
  (void)state;
  for (int out16 = 0; out16 < 2; out16++) {
    tg t;
    tg_init(&t);
    int x = tg_tensor(&t, DT_INT8, 2, (const int32_t[]){3, 2}, 0.25f, 4);
    int y = out16 ? tg_tensor(&t, DT_INT16, 2, (const int32_t[]){3, 2}, 1.0f / 65536.0f, -32768)
                  : tg_tensor(&t, DT_INT8, 2, (const int32_t[]){3, 2}, 1.0f / 256.0f, -128);
    ir_op *op = tg_op(&t, OP_SOFTMAX, 1, (int[]){x}, y);
    op->opts.beta = 1.0f;
    char why[256] = "", want[96];
    lower_list *L = calloc(1, sizeof *L);
    assert_int_equal(lower_op(ops_find(t.g, op), t.g, op, L, why, sizeof why), 0);
    const int32_t n = L->call[0].u.sm.exp_tab_n;
    emit_ctx e;
    char *cu[1];
    emit_list(&t, op, L, &e, cu);
    snprintf(want, sizeof want, "static const int16_t op_sm2_tab[%d]", (int)n);
    assert_non_null(strstr(e.decls.s, want));
    assert_non_null(strstr(e.decls.s, ".exp_lut = op_sm2_tab"));
    snprintf(want, sizeof want, ".exp_tab_n = %d,", (int)n);
    assert_non_null(strstr(e.decls.s, want));
    assert_null(strstr(e.decls.s, ".input_mult"));
    assert_non_null(strstr(e.body.s, out16 ? "aot_softmax2_s8_s16(&op_p, " : "aot_softmax2_s8(&op_p, "));
    assert_true(has(e.kernels, e.nkernels, "SoftmaxFunctions/aot_softmax2_s8.c"));
    assert_false(has(e.kernels, e.nkernels, "SoftmaxFunctions/aot_softmax_s8.c"));
    emit_done(&e);
    lower_release(L);
    free(L);
    tg_free(&t);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_kernel_table),
      cmocka_unit_test(test_operator_table),
      cmocka_unit_test(test_lower_sign),
      cmocka_unit_test(test_lower_list),
      cmocka_unit_test(test_lower_conv_s8),
      cmocka_unit_test(test_lower_fc_s8),
      cmocka_unit_test(test_lower_fc_hybrid),
      cmocka_unit_test(test_lower_softmax_table),
      cmocka_unit_test(test_lower_softmax2_emit),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
