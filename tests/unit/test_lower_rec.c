/* test_lower_rec.c - the recurrent operators on the lowering step
 * (op_recurrent.c, lower_rec.c): an int8 UNIDIRECTIONAL_SEQUENCE_LSTM, an
 * int8 SVDF with int16 state and a float LSTM, on seeded random data, are
 * lowered (kernel id and descriptor checked), emitted (the call and its
 * packed arrays in the module text) and evaluated through the descriptor
 * (lower_eval); the outputs and the updated states must equal a direct call
 * of the portable kernel on the original tensors bit for bit, and the packed
 * kernel run directly on the lowering's packed arrays must give the same
 * (so the compile-time packing is checked against the portable kernel). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "aot_recurrent.h"
#include "ir/ir.h"
#include "ops/emit.h"
#include "ops/lower.h"

/* ---- a one-op graph ---- */
enum { NT = 32 };
typedef struct rg {
  ir_graph *g;
  void *data[NT];
  uint32_t seed;
} rg;

static void rg_init(rg *r, uint32_t seed) {
  memset(r, 0, sizeof *r);
  r->g = xcalloc(1, sizeof(ir_graph));
  r->g->t = xcalloc(NT, sizeof(ir_tensor));
  r->g->ops = xcalloc(1, sizeof(ir_op));
  r->seed = seed;
}

static uint32_t rnd(rg *r) {
  r->seed = r->seed * 1664525u + 1013904223u;
  return r->seed >> 8;
}

static void *mdup(const void *p, size_t n) {
  void *d = xmalloc(n);
  memcpy(d, p, n);
  return d;
}

/* a tensor of random contents (range +-span around 0 for integers, [-1, 1]
 * for floats); scale <= 0: not quantized */
static int rg_t(rg *r, int dtype, int rank, const int32_t *shape, float scale, int32_t zp,
                int role, int span) {
  int id = r->g->nt++;
  ir_tensor *x = &r->g->t[id];
  *x = (ir_tensor){.name = xstrdup("t"), .dtype = dtype, .rank = rank, .alias = -1,
                   .io_index = -1, .role = role, .arena = role == ROLE_PERSISTENT,
                   .offset = (size_t)id * 4096, .nq = scale > 0.0f};
  snprintf(x->cname, sizeof x->cname, "t%d", id);
  memcpy(x->shape, shape, sizeof(int32_t) * (size_t)rank);
  if (x->nq) {
    x->scale = mdup(&scale, sizeof scale);
    x->zero_point = mdup(&zp, sizeof zp);
  }
  size_t b = ir_bytes(x), n = b / (size_t)dtype_size(dtype);
  uint8_t *d = xcalloc(1, b ? b : 1);
  for (size_t i = 0; i < n; i++) {
    int32_t v = (int32_t)(rnd(r) % (uint32_t)(2 * span + 1)) - span;
    switch (dtype) {
      case DT_INT8: ((int8_t *)d)[i] = (int8_t)v; break;
      case DT_INT16: ((int16_t *)d)[i] = (int16_t)v; break;
      case DT_INT32: ((int32_t *)d)[i] = v; break;
      case DT_INT64: ((int64_t *)d)[i] = v; break;
      default: ((float *)d)[i] = (float)(rnd(r) % 2001u) / 1000.0f - 1.0f; break;
    }
  }
  r->data[id] = d;
  if (role == ROLE_CONST) {
    x->data = d;
    x->data_bytes = b;
  }
  return id;
}

static ir_op *rg_op(rg *r, int builtin, int nin, const int *in, int out) {
  ir_op *op = &r->g->ops[0];
  r->g->nops = 1;
  op->builtin = builtin;
  op->nin = nin;
  op->nout = 1;
  op->in = xmalloc(sizeof(int) * (size_t)nin);
  memcpy(op->in, in, sizeof(int) * (size_t)nin);
  op->out = xmalloc(sizeof(int));
  op->out[0] = out;
  litert_options_default(&op->opts);
  return op;
}

static void rg_free(rg *r) {
  for (int i = 0; i < r->g->nt; i++) free(r->data[i]);
  ir_free(r->g);
}

static void *dup_of(const rg *r, int t) { return mdup(r->data[t], ir_bytes(&r->g->t[t])); }

/* Lowers the op, checks its kernel, emits it (the text must hold each
 * needle) and returns the list. */
static lower_list *lower_and_emit(rg *r, int kernel, const char *const *needles) {
  const ir_op *op = &r->g->ops[0];
  const op_impl *impl = ops_find(r->g, op);
  assert_non_null(impl);
  assert_non_null(impl->lower);
  char why[256] = "";
  assert_int_equal(impl->check(r->g, op, why, sizeof why), 0);
  lower_list *L = calloc(1, sizeof *L);
  if (lower_op(impl, r->g, op, L, why, sizeof why)) fail_msg("lowering failed: %s", why);
  assert_int_equal(L->n, 1);
  const lower_kernel *k = lower_kernel_get(kernel);
  if (L->call[0].k != k) fail_msg("lowered to %s, expected %s", L->call[0].k->name, k->name);
  assert_non_null(k->fn);
  emit_ctx e = {0};
  e.g = e.main = r->g;
  e.op = op;
  snprintf(e.opname, sizeof e.opname, "op0");
  e.const_used = xcalloc(1, sizeof(char *));
  e.const_used[0] = xcalloc((size_t)r->g->nt + 1, 1);
  assert_int_equal(lower_emit(&e, L), 0);
  assert_false(e.failed);
  for (int i = 0; needles[i]; i++)
    if (!strstr(e.decls.s, needles[i]) && !strstr(e.body.s, needles[i]))
      fail_msg("'%s' not in the emitted text:\n%s\n%s", needles[i], e.decls.s, e.body.s);
  assert_int_equal(e.nkernels, 1);
  assert_string_equal(e.kernels[0], k->file);
  sb_free(&e.decls);
  sb_free(&e.body);
  for (int i = 0; i < e.npool; i++) free(e.pool[i]);
  free(e.pool);
  free(e.fn_names);
  free(e.fn_decls);
  free(e.kernels);
  free(e.const_used[0]);
  free(e.const_used);
  return L;
}

static void *planned_scratch(rg *r) {
  const ir_op *op = &r->g->ops[0];
  size_t n = ops_find(r->g, op)->scratch(r->g, op);
  return xcalloc(1, n ? n : 1);
}

/* ---- int8 LSTM ---- */

enum { LB = 2, LT = 3, LI = 5, LS = 6 };

static void build_lstm_s8(rg *r, int *x, int *h, int *c, int *o) {
  int in[24];
  for (int i = 0; i < 24; i++) in[i] = -1;
  *x = in[0] = rg_t(r, DT_INT8, 3, (const int32_t[]){LB, LT, LI}, 0.05f, 3, ROLE_INPUT, 100);
  for (int gi = 0; gi < 4; gi++) {
    in[1 + gi] = rg_t(r, DT_INT8, 2, (const int32_t[]){LS, LI}, 0.01f + 0.002f * gi, 0,
                      ROLE_CONST, 127);
    in[5 + gi] = rg_t(r, DT_INT8, 2, (const int32_t[]){LS, LS}, 0.012f, 0, ROLE_CONST, 127);
    in[12 + gi] = rg_t(r, DT_INT32, 1, (const int32_t[]){LS}, 0.0f, 0, ROLE_CONST, 3000);
  }
  *h = in[18] = rg_t(r, DT_INT8, 2, (const int32_t[]){LB, LS}, 0.02f, -2, ROLE_PERSISTENT, 60);
  *c = in[19] = rg_t(r, DT_INT16, 2, (const int32_t[]){LB, LS}, 1.0f / 2048.0f, 0,
                     ROLE_PERSISTENT, 3000);
  *o = rg_t(r, DT_INT8, 3, (const int32_t[]){LB, LT, LS}, 0.02f, -2, ROLE_SCRATCH, 0);
  ir_op *op = rg_op(r, OP_UNIDIRECTIONAL_SEQUENCE_LSTM, 24, in, *o);
  op->opts.fused_act = ACT_TANH;
}

static void portable_lstm_s8(rg *r, const aot_lstm_q_params *p, int8_t *hid, int16_t *cell,
                             int8_t *out) {
  const ir_op *op = &r->g->ops[0];
  aot_lstm_s8_tensors t;
  t.input = r->data[op->in[0]];
  for (int gi = 0; gi < 4; gi++) {
    t.w_in[gi] = r->data[op->in[1 + gi]];
    t.w_rec[gi] = r->data[op->in[5 + gi]];
    t.bias[gi] = r->data[op->in[12 + gi]];
  }
  t.hidden = hid;
  t.cell = cell;
  t.output = out;
  int16_t *sc = xcalloc(1, aot_lstm_q_buffer_size(p->batch, p->state_size));
  assert_int_equal(aot_lstm_s8(p, &t, sc), 0);
  free(sc);
}

static void test_lstm_s8(void **state) {
  (void)state;
  rg r;
  rg_init(&r, 12345u);
  int x, h, c, o;
  build_lstm_s8(&r, &x, &h, &c, &o);
  int8_t *h0 = dup_of(&r, h), *hw = dup_of(&r, h), *hp = dup_of(&r, h);
  int16_t *c0 = dup_of(&r, c), *cw = dup_of(&r, c), *cp = dup_of(&r, c);
  int8_t ow[LB * LT * LS], op_[LB * LT * LS];
  static const char *const needles[] = {"aot_lstm_s8p(&op0_p, &op0_t, ", "op0_w_in_packed[",
                                        "op0_b_rec_folded[", ".cell_scale_power = -11", NULL};
  lower_list *L = lower_and_emit(&r, LK(aot_lstm_s8p), needles);
  lower_call *call = &L->call[0];
  assert_int_equal(call->k->nin, 25);
  /* through the descriptor: the portable kernel on the original tensors */
  void *sc = planned_scratch(&r);
  assert_int_equal(lower_eval(L, r.data, sc), 0);
  portable_lstm_s8(&r, &call->u.lstm_q, hw, cw, ow);
  assert_memory_equal(r.data[o], ow, sizeof ow);
  assert_memory_equal(r.data[h], hw, LB * LS);
  assert_memory_equal(r.data[c], cw, LB * LS * 2);
  /* the state moved: a second step differs from the first */
  assert_memory_not_equal(r.data[h], h0, LB * LS);
  /* the packed kernel on the lowering's arrays, from the initial state */
  aot_lstm_s8p_tensors t = {r.data[x], call->arg[1].data, call->arg[2].data, call->arg[3].data,
                            call->arg[4].data, hp, cp, op_};
  memcpy(hp, h0, LB * LS);
  memcpy(cp, c0, LB * LS * 2);
  assert_int_equal(aot_lstm_s8p(&call->u.lstm_q, &t, sc), 0);
  assert_memory_equal(op_, ow, sizeof ow);
  assert_memory_equal(hp, hw, LB * LS);
  assert_memory_equal(cp, cw, LB * LS * 2);
  lower_release(L);
  /* the test hook lowers to the portable kernel, which runs alike */
  setenv("AOTC_LSTM_PORTABLE", "1", 1);
  static const char *const portable[] = {"aot_lstm_s8(&op0_p, &op0_t, (int16_t *)", NULL};
  lower_list *L2 = lower_and_emit(&r, LK(aot_lstm_s8), portable);
  free(sc);
  sc = planned_scratch(&r);
  unsetenv("AOTC_LSTM_PORTABLE");
  memcpy(r.data[h], h0, LB * LS);
  memcpy(r.data[c], c0, LB * LS * 2);
  assert_int_equal(lower_eval(L2, r.data, sc), 0);
  assert_memory_equal(r.data[o], ow, sizeof ow);
  assert_memory_equal(r.data[c], cw, LB * LS * 2);
  lower_release(L2);
  free(L2);
  free(L);
  free(sc);
  free(h0), free(hw), free(hp), free(c0), free(cw), free(cp);
  rg_free(&r);
}

/* ---- int8 SVDF, int16 state ---- */

enum { SB = 2, SI = 7, SF = 6, SR = 2, SM = 3 };

static void test_svdf_s8(void **state) {
  (void)state;
  rg r;
  rg_init(&r, 777u);
  int x = rg_t(&r, DT_INT8, 2, (const int32_t[]){SB, SI}, 0.04f, -5, ROLE_INPUT, 120);
  int wf = rg_t(&r, DT_INT8, 2, (const int32_t[]){SF, SI}, 0.01f, 0, ROLE_CONST, 127);
  int wt = rg_t(&r, DT_INT16, 2, (const int32_t[]){SF, SM}, 0.0005f, 0, ROLE_CONST, 20000);
  int b = rg_t(&r, DT_INT32, 1, (const int32_t[]){SF / SR}, 0.0f, 0, ROLE_CONST, 5000);
  int st = rg_t(&r, DT_INT16, 2, (const int32_t[]){SB, SM * SF}, 0.003f, 0, ROLE_PERSISTENT,
                8000);
  int o = rg_t(&r, DT_INT8, 2, (const int32_t[]){SB, SF / SR}, 0.05f, 4, ROLE_SCRATCH, 0);
  ir_op *op = rg_op(&r, OP_SVDF, 5, (const int[]){x, wf, wt, b, st}, o);
  op->opts.rank = SR;
  int16_t *s0 = dup_of(&r, st), *sw = dup_of(&r, st), *sp = dup_of(&r, st);
  int8_t ow[SB * SF / SR], op_[SB * SF / SR];
  static const char *const needles[] = {"aot_svdf_s8p_s16(&op0_p, ", "op0_wf_packed[",
                                        "op0_bias_folded[", ".rank = 2,", NULL};
  lower_list *L = lower_and_emit(&r, LK(aot_svdf_s8p_s16), needles);
  lower_call *call = &L->call[0];
  void *sc = planned_scratch(&r);
  assert_int_equal(lower_eval(L, r.data, sc), 0);
  const aot_svdf_params *p = &call->u.svdf;
  int32_t *psc = xcalloc(1, aot_svdf_s8_buffer_size(p->batch, p->num_filters, p->num_units));
  assert_int_equal(aot_svdf_s8_s16(p, r.data[x], r.data[wf], r.data[wt], r.data[b], sw, ow, psc),
                   0);
  assert_memory_equal(r.data[o], ow, sizeof ow);
  assert_memory_equal(r.data[st], sw, SB * SM * SF * 2);
  assert_memory_not_equal(sw, s0, SB * SM * SF * 2);
  assert_int_equal(aot_svdf_s8p_s16(p, r.data[x], call->arg[1].data, call->arg[2].data,
                                    r.data[wt], call->arg[4].data, sp, op_, sc),
                   0);
  assert_memory_equal(op_, ow, sizeof ow);
  assert_memory_equal(sp, sw, SB * SM * SF * 2);
  lower_release(L);
  free(L);
  free(sc), free(psc), free(s0), free(sw), free(sp);
  rg_free(&r);
}

/* ---- float LSTM (CIFG, peephole) ---- */

static void test_lstm_f32(void **state) {
  (void)state;
  rg r;
  rg_init(&r, 99u);
  int in[24];
  for (int i = 0; i < 24; i++) in[i] = -1;
  in[0] = rg_t(&r, DT_FLOAT32, 3, (const int32_t[]){LB, LT, LI}, 0.0f, 0, ROLE_INPUT, 0);
  for (int gi = 1; gi < 4; gi++) {
    in[1 + gi] = rg_t(&r, DT_FLOAT32, 2, (const int32_t[]){LS, LI}, 0.0f, 0, ROLE_CONST, 0);
    in[5 + gi] = rg_t(&r, DT_FLOAT32, 2, (const int32_t[]){LS, LS}, 0.0f, 0, ROLE_CONST, 0);
    in[12 + gi] = rg_t(&r, DT_FLOAT32, 1, (const int32_t[]){LS}, 0.0f, 0, ROLE_CONST, 0);
  }
  in[10] = rg_t(&r, DT_FLOAT32, 1, (const int32_t[]){LS}, 0.0f, 0, ROLE_CONST, 0);
  in[11] = rg_t(&r, DT_FLOAT32, 1, (const int32_t[]){LS}, 0.0f, 0, ROLE_CONST, 0);
  int h = in[18] = rg_t(&r, DT_FLOAT32, 2, (const int32_t[]){LB, LS}, 0.0f, 0, ROLE_PERSISTENT, 0);
  int c = in[19] = rg_t(&r, DT_FLOAT32, 2, (const int32_t[]){LB, LS}, 0.0f, 0, ROLE_PERSISTENT, 0);
  int o = rg_t(&r, DT_FLOAT32, 3, (const int32_t[]){LB, LT, LS}, 0.0f, 0, ROLE_SCRATCH, 0);
  ir_op *op = rg_op(&r, OP_UNIDIRECTIONAL_SEQUENCE_LSTM, 24, in, o);
  op->opts.fused_act = ACT_TANH;
  op->opts.cell_clip = 0.75f;
  float *hw = dup_of(&r, h), *cw = dup_of(&r, c), ow[LB * LT * LS];
  static const char *const needles[] = {"aot_lstm_f32(&op0_p, &op0_t, (float *)",
                                        ".w_in = {NULL, ", ".cell_clip = 0x1.8p-1f,", NULL};
  lower_list *L = lower_and_emit(&r, LK(aot_lstm_f32), needles);
  void *sc = planned_scratch(&r);
  assert_int_equal(lower_eval(L, r.data, sc), 0);
  aot_lstm_f32_tensors t;
  memset(&t, 0, sizeof t);
  t.input = r.data[in[0]];
  for (int gi = 1; gi < 4; gi++) {
    t.w_in[gi] = r.data[in[1 + gi]];
    t.w_rec[gi] = r.data[in[5 + gi]];
    t.bias[gi] = r.data[in[12 + gi]];
  }
  t.w_peep[AOT_LSTM_F] = r.data[in[10]];
  t.w_peep[AOT_LSTM_O] = r.data[in[11]];
  t.hidden = hw;
  t.cell = cw;
  t.output = ow;
  float *fsc = xcalloc(1, aot_lstm_f32_buffer_size(LB, LS, LS));
  assert_int_equal(aot_lstm_f32(&L->call[0].u.lstm_f, &t, fsc), 0);
  assert_memory_equal(r.data[o], ow, sizeof ow);
  assert_memory_equal(r.data[h], hw, LB * LS * sizeof(float));
  assert_memory_equal(r.data[c], cw, LB * LS * sizeof(float));
  lower_release(L);
  free(L);
  free(sc), free(fsc), free(hw), free(cw);
  rg_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lstm_s8),
      cmocka_unit_test(test_svdf_s8),
      cmocka_unit_test(test_lstm_f32),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
