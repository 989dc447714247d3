/* test_fp16_lower.c - float16 storage with float32 compute: the CAST and
 * DEQUANTIZE float16 kernels and the lower_fp16 IR transform.
 *
 * Independent references: hand-computed IEEE binary16 bit patterns (round to
 * nearest even worked out by hand below), and the LiteRT golden of the
 * float32 bigru64 model for the whole float16 pipeline (aotc fp16 + GRU
 * fusion + transforms), with an FP16-sized tolerance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aot_elementwise.h"
#include "aot_f16.h"
#include "aot_movement.h"
#include "compile.h"
#include "io/npy.h"
#include "ir/ir.h"
#include "litert/fp16.h"
#include "litert/litert.h"
#include "ops/ops.h"
#include "passes/passes.h"

/* ---- helpers --------------------------------------------------------------- */

static float bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static int add_t(litert_model *m, const char *name, int dt, int rank, const int32_t *shape) {
  return litert_add_tensor(m, 0, name, dt, rank, shape, 0);
}

static int add_c16(litert_model *m, const char *name, int rank, const int32_t *shape,
                   const uint16_t *bits, size_t n) {
  return litert_add_tensor(m, 0, name, DT_FLOAT16, rank, shape,
                           litert_add_buffer(m, bits, n * sizeof(uint16_t)));
}

static void add_op(litert_model *m, int builtin, int nin, const int32_t *in, int nout,
                   const int32_t *out) {
  litert_options o;
  litert_options_default(&o);
  o.type = litert_builtin_options_type(builtin);
  if (builtin == OP_CONCATENATION) o.axis = 1;
  if (builtin == OP_RESHAPE) {
    const litert_tensor *t = &m->subgraphs[0].tensors[out[0]];
    for (int i = 0; i < t->rank; i++) o.new_shape[i] = t->shape[i];
    o.new_shape_n = t->rank;
  }
  litert_add_op(m, 0, builtin, NULL, nin, in, nout, out, &o);
}

static int live_ops(const ir_graph *g) {
  int n = 0;
  for (int i = 0; i < g->nops; i++) n += !g->ops[i].dead;
  return n;
}

/* The i-th live op. */
static const ir_op *live_op(const ir_graph *g, int i) {
  for (int k = 0; k < g->nops; k++)
    if (!g->ops[k].dead && i-- == 0) return &g->ops[k];
  fail_msg("no live op %d", i);
  return NULL;
}

static void all_supported(const ir_graph *g) {
  for (int i = 0; i < g->nops; i++) {
    const ir_op *op = &g->ops[i];
    if (op->dead) continue;
    const op_impl *impl = ops_find(g, op);
    char why[256] = "";
    if (!impl || (impl->check && impl->check(g, op, why, sizeof why) != 0))
      fail_msg("op %d (%s) unsupported: %s", op->id, litert_op_name(op->builtin), why);
  }
}

/* Runs every live op of g with its eval(); inputs[i] holds the bytes of graph
 * input i. Returns the storage of every tensor (caller frees with
 * free_run). */
typedef struct run_data {
  void **data;
  char *own;
  int n;
} run_data;

static run_data run_graph(const ir_graph *g, const void *const *inputs) {
  run_data r;
  r.n = g->nt;
  r.data = calloc((size_t)g->nt, sizeof(void *));
  r.own = calloc((size_t)g->nt, 1);
  for (int t = 0; t < g->nt; t++) {
    if (g->t[t].alias >= 0) continue;
    if (g->t[t].role == ROLE_CONST) r.data[t] = (void *)g->t[t].data;
    else r.data[t] = calloc(1, ir_bytes(&g->t[t]) + 16), r.own[t] = 1;
  }
  for (int t = 0; t < g->nt; t++)
    if (g->t[t].alias >= 0) r.data[t] = r.data[ir_root(g, t)];
  for (int i = 0; i < g->nin; i++)
    memcpy(r.data[g->inputs[i]], inputs[i], ir_bytes(&g->t[g->inputs[i]]));
  for (int i = 0; i < g->nops; i++) {
    const ir_op *op = &g->ops[i];
    if (op->dead) continue;
    const op_impl *impl = ops_find(g, op);
    assert_non_null(impl);
    assert_true(op_has_eval(impl));
    size_t sb = impl->scratch ? impl->scratch(g, op) : 0;
    void *scratch = calloc(1, sb + 16);
    int st = op_eval(impl, g, op, r.data, scratch);
    free(scratch);
    if (st != 0) fail_msg("op %d (%s) failed with %d", op->id, litert_op_name(op->builtin), st);
  }
  return r;
}

static void free_run(run_data *r) {
  for (int t = 0; t < r->n; t++)
    if (r->own[t]) free(r->data[t]);
  free(r->data);
  free(r->own);
}

static int transform_index(const char *name) {
  for (int i = 0; i < ir_ntransforms; i++)
    if (strcmp(ir_transforms[i].name, name) == 0) return i;
  return -1;
}

/* Every transform but lower_fp16 (so a test can run its own mode first). */
static void run_other_transforms(ir_graph *g) {
  int *disabled = calloc((size_t)ir_ntransforms, sizeof(int));
  disabled[transform_index("lower_fp16")] = 1;
  aotc_diag d = {0};
  if (ir_run_transforms(g, disabled, &d) < 0) fail_msg("transforms: %s", d.msg);
  free(disabled);
}

/* ---- kernels ----------------------------------------------------------------- */

/* float32 -> float16 with round to nearest even, worked out by hand:
 * binary16 has 10 fraction bits; normal exponents -14..15; subnormals are
 * k * 2^-24 for k = 1..1023. */
static const struct {
  uint32_t f;     /* binary32 bits of the input */
  uint16_t h;     /* expected binary16 */
} enc[] = {
    {0x3F800000u, 0x3C00},  /* 1 */
    {0xBF800000u, 0xBC00},  /* -1 */
    {0x00000000u, 0x0000},  /* +0 */
    {0x80000000u, 0x8000},  /* -0 */
    {0x3F801000u, 0x3C00},  /* 1 + 2^-11: half an ulp, tie -> even (1) */
    {0x3F803000u, 0x3C02},  /* 1 + 3*2^-11: tie between 0x3C01 and 0x3C02 -> even 0x3C02 */
    {0x3F801001u, 0x3C01},  /* just above the tie -> up */
    {0x3F800FFFu, 0x3C00},  /* just below the tie -> down */
    {0x40490FDBu, 0x4248},  /* pi = 1.5707963 * 2: 3.140625 (0x4248), error 0.00097 < ulp/2 */
    {0x477FE000u, 0x7BFF},  /* 65504 = max normal */
    {0x477FEFFFu, 0x7BFF},  /* 65519.998: below the 65520 tie */
    {0x477FF000u, 0x7C00},  /* 65520: tie between 65504 and 65536 -> even -> inf */
    {0x7F800000u, 0x7C00},  /* +inf */
    {0xFF800000u, 0xFC00},  /* -inf */
    {0x38800000u, 0x0400},  /* 2^-14: smallest normal */
    {0x387FC000u, 0x03FF},  /* 1023 * 2^-24: largest subnormal */
    {0x387FE000u, 0x0400},  /* 1023.5 * 2^-24: tie -> even 1024 = 0x0400 (normal) */
    {0x33800000u, 0x0001},  /* 2^-24: smallest subnormal */
    {0x33000000u, 0x0000},  /* 2^-25: tie between 0 and 2^-24 -> even 0 */
    {0x33000001u, 0x0001},  /* just above 2^-25 -> 2^-24 */
    {0x33C00000u, 0x0002},  /* 1.5 * 2^-24: tie -> even 2 */
    {0x34200000u, 0x0002},  /* 2.5 * 2^-24: tie -> even 2 */
    {0xB4400000u, 0x8003},  /* -3 * 2^-24 */
    {0x00000001u, 0x0000},  /* smallest binary32 subnormal -> +0 */
    {0x80000001u, 0x8000},  /* -> -0 */
    {0x7FC00000u, 0x7E00},  /* quiet NaN */
    {0xFFC00000u, 0xFE00},  /* negative quiet NaN */
    {0x7F802000u, 0x7E01},  /* signalling NaN with payload 1 in the kept bits -> quiet, payload kept */
    {0x7F800001u, 0x7E00},  /* NaN whose payload is only in dropped bits stays NaN */
    {0x3DCCCCCDu, 0x2E66},  /* 0.1 -> 0.0999755859375 */
    {0xC2F6E979u, 0xD7B7},  /* -123.456 -> -123.4375 */
};

static void test_cast_f32_to_f16(void **state) {
  (void)state;
  enum { N = sizeof enc / sizeof enc[0] };
  /* 3 copies: more than one 32-element chunk of the kernel */
  float in[3 * N];
  uint16_t out[3 * N];
  for (int i = 0; i < 3 * N; i++) in[i] = bits_f32(enc[i % N].f);
  aot_cast_params p = {3 * N, AOT_MV_FLOAT32, AOT_MV_FLOAT16};
  memset(out, 0xAA, sizeof out);
  assert_int_equal(aot_cast(&p, in, out), AOT_KERNEL_OK);
  for (int i = 0; i < 3 * N; i++)
    if (out[i] != enc[i % N].h)
      fail_msg("[%d] 0x%08x -> 0x%04x, want 0x%04x", i, enc[i % N].f, out[i], enc[i % N].h);
  for (int i = 0; i < N; i++) assert_int_equal(aot_f32_to_f16(in[i]), enc[i].h);
}

/* float16 -> float32 is exact: hand-decoded values. */
static const struct {
  uint16_t h;
  uint32_t f;
} dec[] = {
    {0x3C00, 0x3F800000u},  /* 1 */
    {0x8000, 0x80000000u},  /* -0 */
    {0x0001, 0x33800000u},  /* 2^-24 */
    {0x03FF, 0x387FC000u},  /* 1023 * 2^-24 */
    {0x0200, 0x38000000u},  /* 2^-15 (subnormal, one bit) */
    {0x8155, 0xB7AA8000u},  /* -341 * 2^-24 = -(1 + 85/256) * 2^-16 */
    {0x0400, 0x38800000u},  /* 2^-14 */
    {0x7BFF, 0x477FE000u},  /* 65504 */
    {0x3555, 0x3EAAA000u},  /* 0.333251953125 */
    {0x7C00, 0x7F800000u},  /* inf */
    {0xFC00, 0xFF800000u},  /* -inf */
    {0x7E00, 0x7FC00000u},  /* quiet NaN */
    {0x7C01, 0x7F802000u},  /* NaN payload kept */
    {0xC500, 0xC0A00000u},  /* -5 */
};

static void test_cast_f16_to_f32_and_dequantize(void **state) {
  (void)state;
  enum { N = sizeof dec / sizeof dec[0] };
  uint16_t in[3 * N];
  float out[3 * N], out2[3 * N];
  for (int i = 0; i < 3 * N; i++) in[i] = dec[i % N].h;
  aot_cast_params p = {3 * N, AOT_MV_FLOAT16, AOT_MV_FLOAT32};
  assert_int_equal(aot_cast(&p, in, out), AOT_KERNEL_OK);
  aot_unary_params up;
  memset(&up, 0, sizeof up);
  up.size = 3 * N;
  assert_int_equal(aot_dequantize_f16(&up, in, out2), AOT_KERNEL_OK);
  for (int i = 0; i < 3 * N; i++) {
    if (f32_bits(out[i]) != dec[i % N].f)
      fail_msg("CAST [%d] 0x%04x -> 0x%08x, want 0x%08x", i, in[i], f32_bits(out[i]), dec[i % N].f);
    if (f32_bits(out2[i]) != dec[i % N].f)
      fail_msg("DEQUANTIZE [%d] 0x%04x -> 0x%08x, want 0x%08x", i, in[i], f32_bits(out2[i]),
               dec[i % N].f);
  }
  /* every binary16 value survives float16 -> float32 -> float16 */
  for (uint32_t h = 0; h < 0x10000u; h++) {
    uint16_t x = (uint16_t)h, back;
    float f;
    aot_cast_params a = {1, AOT_MV_FLOAT16, AOT_MV_FLOAT32}, b = {1, AOT_MV_FLOAT32, AOT_MV_FLOAT16};
    assert_int_equal(aot_cast(&a, &x, &f), 0);
    assert_int_equal(aot_cast(&b, &f, &back), 0);
    int nan = (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu);
    if (nan) assert_int_equal(back, x | 0x0200); /* quietened */
    else if (back != x) fail_msg("0x%04x -> %g -> 0x%04x", h, f, back);
  }
}

/* float16 <-> integer and bool go through float (static_cast semantics). */
static void test_cast_f16_int(void **state) {
  (void)state;
  /* -2.5, 3.75, 65504, -inf, NaN, -0.99 (0xBBEB ~ -0.9897) */
  uint16_t h[6] = {0xC100, 0x4380, 0x7BFF, 0xFC00, 0x7E00, 0xBBEB};
  int32_t i32[6];
  aot_cast_params p = {6, AOT_MV_FLOAT16, AOT_MV_INT32};
  assert_int_equal(aot_cast(&p, h, i32), 0);
  const int32_t want32[6] = {-2, 3, 65504, INT32_MIN, 0, 0};
  assert_memory_equal(i32, want32, sizeof want32);
  int8_t i8[6];
  p.out_type = AOT_MV_INT8;
  assert_int_equal(aot_cast(&p, h, i8), 0);
  assert_int_equal(i8[0], -2);
  assert_int_equal(i8[1], 3);
  assert_int_equal(i8[2], -32); /* 65504 wraps: 0xE0 */
  uint8_t bl[6];
  p.out_type = AOT_MV_BOOL;
  assert_int_equal(aot_cast(&p, h, bl), 0);
  const uint8_t wantb[6] = {1, 1, 1, 1, 1, 1};
  assert_memory_equal(bl, wantb, 6);
  /* integers -> float16: 2049 ties to 2048 (even), 2051 -> 2052, 70000 -> inf,
   * -7 exact; bool true -> 1 */
  int32_t iv[4] = {2049, 2051, 70000, -7};
  uint16_t ho[4];
  aot_cast_params q = {4, AOT_MV_INT32, AOT_MV_FLOAT16};
  assert_int_equal(aot_cast(&q, iv, ho), 0);
  assert_int_equal(ho[0], 0x6800);  /* 2048 */
  assert_int_equal(ho[1], 0x6802);  /* 2052 */
  assert_int_equal(ho[2], 0x7C00);
  assert_int_equal(ho[3], 0xC700);  /* -7 */
  uint8_t b1[2] = {0, 7};
  uint16_t hb[2];
  aot_cast_params r = {2, AOT_MV_BOOL, AOT_MV_FLOAT16};
  assert_int_equal(aot_cast(&r, b1, hb), 0);
  assert_int_equal(hb[0], 0x0000);
  assert_int_equal(hb[1], 0x3C00);
}

/* ---- the transform --------------------------------------------------------------- */

/* x (f16 input) -> ADD(x, c) -> y (f16 output), c a float16 constant. */
static void test_lower_add(void **state) {
  (void)state;
  litert_model *m = litert_model_new();
  litert_add_subgraph(m, "main");
  int32_t s4[2] = {1, 4};
  /* c: 2^-11 (exactly half an ulp of 1), 2^-11, 2^-24 (subnormal), -2 */
  const uint16_t cb[4] = {0x1000, 0x1000, 0x0001, 0xC000};
  int x = add_t(m, "x", DT_FLOAT16, 2, s4);
  int c = add_c16(m, "c", 2, s4, cb, 4);
  int y = add_t(m, "y", DT_FLOAT16, 2, s4);
  add_op(m, OP_ADD, 2, (int32_t[]){x, c}, 1, (int32_t[]){y});
  litert_set_io(m, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_non_null(g);
  /* float16 ADD has no kernel */
  const op_impl *add = ops_find(g, &g->ops[0]);
  char why[256];
  assert_non_null(add);
  assert_int_not_equal(add->check(g, &g->ops[0], why, sizeof why), 0);
  int nt0 = g->nt;
  assert_int_equal(ir_lower_fp16(g, &d), 1);
  assert_int_equal(ir_verify(g, &d), 0);
  assert_int_equal(g->nops, 3);
  assert_int_equal(g->nt, nt0 + 3); /* x/f32, c/f32, y/f32 */
  const ir_op *c0 = &g->ops[0], *a = &g->ops[1], *c1 = &g->ops[2];
  assert_int_equal(c0->builtin, OP_CAST);
  assert_int_equal(a->builtin, OP_ADD);
  assert_int_equal(c1->builtin, OP_CAST);
  assert_int_equal(c0->in[0], x);
  assert_int_equal(g->t[c0->out[0]].dtype, DT_FLOAT32);
  assert_int_equal(a->in[0], c0->out[0]);
  assert_int_equal(c0->opts.in_data_type, DT_FLOAT16);
  assert_int_equal(c0->opts.out_data_type, DT_FLOAT32);
  assert_int_equal(c1->opts.in_data_type, DT_FLOAT32);
  assert_int_equal(c1->opts.out_data_type, DT_FLOAT16);
  /* the constant is converted at compile time, exactly */
  const ir_tensor *cf = &g->t[a->in[1]];
  assert_int_equal(cf->role, ROLE_CONST);
  assert_int_equal(cf->dtype, DT_FLOAT32);
  assert_int_equal(cf->data_bytes, 16);
  const float *cv = (const float *)cf->data;
  assert_true(cv[0] == 0x1p-11f && cv[1] == 0x1p-11f && cv[2] == 0x1p-24f && cv[3] == -2.0f);
  assert_int_equal(a->out[0], c1->in[0]);
  assert_int_equal(g->t[a->out[0]].dtype, DT_FLOAT32);
  assert_int_equal(c1->out[0], y);
  assert_int_equal(g->outputs[0], y);
  assert_int_equal(g->t[y].dtype, DT_FLOAT16);
  assert_false(g->t[c].used); /* the float16 constant is no longer emitted */
  /* new ops get fresh ids; names stay unique C identifiers */
  assert_true(c0->id != a->id && c1->id != a->id && c0->id != c1->id);
  assert_string_not_equal(g->t[c0->out[0]].cname, g->t[x].cname);
  all_supported(g);
  /* numerics: x = 1, 1 + 2^-10, 2^-14, 3; y = fl16(x + c) by hand:
   * 1 + 2^-11 ties to even -> 1 (0x3C00); 1 + 2^-10 + 2^-11 ties -> 1 + 2^-9
   * (0x3C02); 2^-14 + 2^-24 = 0x0401 (exact); 3 - 2 = 1 */
  const uint16_t xb[4] = {0x3C00, 0x3C01, 0x0400, 0x4200};
  const void *ins[1] = {xb};
  run_data r = run_graph(g, ins);
  const uint16_t *yb = r.data[y];
  assert_int_equal(yb[0], 0x3C00);
  assert_int_equal(yb[1], 0x3C02);
  assert_int_equal(yb[2], 0x0401);
  assert_int_equal(yb[3], 0x3C00);
  free_run(&r);
  /* lowering again changes nothing */
  assert_int_equal(ir_lower_fp16(g, &d), 0);
  ir_free(g);
  litert_model_free(m);
}

/* x -> MUL(x, c) -> m -> ADD(m, e) -> y, all float16: between the two
 * lowered ops the faithful mode keeps the float16 rounding of m; the other
 * mode passes float32. x = c = values chosen so that the difference shows:
 * x = 1 + 2^-10 (0x3C01), c = 1 + 3*2^-10 (0x3C03): x*c = 1 + 4*2^-10 +
 * 3*2^-20, rounded to float16 1 + 4*2^-10 (0x3C04); e = -1.
 * faithful: (1 + 4*2^-10) - 1 = 2^-8 -> 0x1C00;
 * float32 between: 2^-8 + 3*2^-20 = 2^-8 * (1 + 0.75*2^-10) -> rounds up to
 * 2^-8 * (1 + 2^-10) -> 0x1C01. */
static litert_model *chain_model(int *x, int *mt, int *y) {
  litert_model *m = litert_model_new();
  litert_add_subgraph(m, "main");
  int32_t s1[1] = {1};
  const uint16_t cb[1] = {0x3C03}, eb[1] = {0xBC00};
  *x = add_t(m, "x", DT_FLOAT16, 1, s1);
  int c = add_c16(m, "c", 1, s1, cb, 1);
  int e = add_c16(m, "e", 1, s1, eb, 1);
  *mt = add_t(m, "m", DT_FLOAT16, 1, s1);
  *y = add_t(m, "y", DT_FLOAT16, 1, s1);
  add_op(m, OP_MUL, 2, (int32_t[]){*x, c}, 1, (int32_t[]){*mt});
  add_op(m, OP_ADD, 2, (int32_t[]){*mt, e}, 1, (int32_t[]){*y});
  litert_set_io(m, 0, 1, (int32_t[]){*x}, 1, (int32_t[]){*y});
  return m;
}

static void test_lower_chain_rounding(void **state) {
  (void)state;
  const uint16_t xb[1] = {0x3C01};
  const void *ins[1] = {xb};
  for (int keep = 1; keep >= 0; keep--) {
    int x, mt, y;
    litert_model *m = chain_model(&x, &mt, &y);
    aotc_diag d = {0};
    ir_graph *g = ir_from_litert(m, 0, &d);
    assert_non_null(g);
    assert_int_equal(ir_lower_fp16_mode(g, keep, &d), 2);
    run_other_transforms(g);
    all_supported(g);
    if (keep) {
      /* CAST, MUL, CAST (-> m), CAST (m ->), ADD, CAST */
      assert_int_equal(live_ops(g), 6);
      assert_int_equal(live_op(g, 2)->out[0], mt);
      assert_int_equal(live_op(g, 3)->in[0], mt);
    } else {
      /* CAST, MUL, ADD, CAST: the float16 m has no reader, its cast is dead */
      assert_int_equal(live_ops(g), 4);
      assert_int_equal(live_op(g, 1)->builtin, OP_MUL);
      assert_int_equal(live_op(g, 2)->builtin, OP_ADD);
      assert_int_equal(live_op(g, 2)->in[0], live_op(g, 1)->out[0]);
      assert_false(g->t[mt].used);
    }
    run_data r = run_graph(g, ins);
    assert_int_equal(((const uint16_t *)r.data[y])[0], keep ? 0x1C00 : 0x1C01);
    free_run(&r);
    ir_free(g);
    litert_model_free(m);
  }
}

/* The registered transform is the faithful mode. */
static void test_registered_is_faithful(void **state) {
  (void)state;
  int x, mt, y;
  litert_model *m = chain_model(&x, &mt, &y);
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_true(transform_index("lower_fp16") >= 0);
  assert_true(transform_index("lower_fp16") < transform_index("fold_constants"));
  assert_true(ir_run_transforms(g, NULL, &d) > 0);
  all_supported(g);
  const uint16_t xb[1] = {0x3C01};
  const void *ins[1] = {xb};
  run_data r = run_graph(g, ins);
  assert_int_equal(((const uint16_t *)r.data[y])[0], 0x1C00);
  free_run(&r);
  ir_free(g);
  litert_model_free(m);
}

/* Ops with float16 support stay as they are: RESHAPE, CONCATENATION,
 * TRANSPOSE (byte movers); an op with no implementation at all is left
 * alone (no tensors added); a float16 activation read by two lowered ops is
 * cast once, a float16 constant read by two lowered ops converted once; a
 * float16 tensor that is a graph output and read by a lowered op keeps its
 * cast. */
static void test_lower_mixed(void **state) {
  (void)state;
  litert_model *m = litert_model_new();
  litert_add_subgraph(m, "main");
  int32_t s22[2] = {2, 2}, s14[2] = {1, 4}, s24[2] = {2, 4}, s2[1] = {2}, s42[2] = {4, 2};
  const int32_t shp[2] = {2, 2}, perm[2] = {1, 0};
  const uint16_t kb[4] = {0x3C00, 0x4000, 0x4200, 0x4400}; /* 1 2 3 4 */
  int x = add_t(m, "x", DT_FLOAT16, 2, s14);
  int shape = litert_add_tensor(m, 0, "shape", DT_INT32, 1, s2, litert_add_buffer(m, shp, 8));
  int pm = litert_add_tensor(m, 0, "perm", DT_INT32, 1, s2, litert_add_buffer(m, perm, 8));
  int k = add_c16(m, "k", 2, s22, kb, 4);
  int r = add_t(m, "r", DT_FLOAT16, 2, s22);
  int a = add_t(m, "a", DT_FLOAT16, 2, s22);
  int b = add_t(m, "b", DT_FLOAT16, 2, s22);
  int cc = add_t(m, "cat", DT_FLOAT16, 2, s24);
  int tr = add_t(m, "tr", DT_FLOAT16, 2, s42);
  int u = add_t(m, "u", DT_FLOAT16, 2, s42);
  add_op(m, OP_RESHAPE, 2, (int32_t[]){x, shape}, 1, (int32_t[]){r});
  add_op(m, OP_ADD, 2, (int32_t[]){r, k}, 1, (int32_t[]){a});       /* lowered */
  add_op(m, OP_MUL, 2, (int32_t[]){r, k}, 1, (int32_t[]){b});       /* lowered */
  add_op(m, OP_CONCATENATION, 2, (int32_t[]){a, b}, 1, (int32_t[]){cc});
  add_op(m, OP_TRANSPOSE, 2, (int32_t[]){cc, pm}, 1, (int32_t[]){tr});
  litert_add_op(m, 0, OP_CUSTOM, "NoSuchOp", 1, (int32_t[]){tr}, 1, (int32_t[]){u}, NULL);
  litert_set_io(m, 0, 1, (int32_t[]){x}, 3, (int32_t[]){u, a, tr});
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_non_null(g);
  int nt0 = g->nt;
  assert_int_equal(ir_lower_fp16(g, &d), 2);
  assert_int_equal(ir_verify(g, &d), 0);
  /* RESHAPE, CAST r, ADD, CAST a, MUL, CAST b, CONCATENATION, TRANSPOSE, custom */
  assert_int_equal(g->nops, 9);
  static const int want[9] = {OP_RESHAPE, OP_CAST, OP_ADD, OP_CAST, OP_MUL,
                              OP_CAST, OP_CONCATENATION, OP_TRANSPOSE, OP_CUSTOM};
  for (int i = 0; i < 9; i++) assert_int_equal(g->ops[i].builtin, want[i]);
  /* r/f32, k/f32, a/f32, b/f32 */
  assert_int_equal(g->nt, nt0 + 4);
  assert_int_equal(g->ops[2].in[0], g->ops[1].out[0]);
  assert_int_equal(g->ops[4].in[0], g->ops[1].out[0]);   /* one cast for both readers */
  assert_int_equal(g->ops[2].in[1], g->ops[4].in[1]);    /* one converted constant */
  assert_int_equal(g->ops[3].out[0], a);
  assert_int_equal(g->ops[5].out[0], b);
  assert_int_equal(g->ops[6].in[0], a);                  /* float16 readers keep float16 */
  assert_int_equal(g->ops[8].in[0], tr);
  assert_int_equal(g->t[g->ops[8].out[0]].dtype, DT_FLOAT16);
  /* the non-faithful mode also keeps a's cast: a is a graph output */
  ir_free(g);
  g = ir_from_litert(m, 0, &d);
  assert_int_equal(ir_lower_fp16_mode(g, 0, &d), 2);
  run_other_transforms(g);
  int casts = 0;
  for (int i = 0; i < g->nops; i++) casts += !g->ops[i].dead && g->ops[i].builtin == OP_CAST;
  assert_int_equal(casts, 3);
  ir_free(g);
  litert_model_free(m);
}

/* Numerics of mixed supported / lowered ops, against a hand computation:
 * x [1,4] -> RESHAPE [2,2] -> r; a = r + k; b = r * k; CONCATENATION(a, b)
 * on axis 1 -> [2,4] -> output. */
static void test_lower_mixed_numerics(void **state) {
  (void)state;
  litert_model *m = litert_model_new();
  litert_add_subgraph(m, "main");
  int32_t s22[2] = {2, 2}, s14[2] = {1, 4}, s24[2] = {2, 4}, s2[1] = {2};
  const int32_t shp[2] = {2, 2};
  /* k = 1, 2, 3, 0.5 */
  const uint16_t kb[4] = {0x3C00, 0x4000, 0x4200, 0x3800};
  int x = add_t(m, "x", DT_FLOAT16, 2, s14);
  int shape = litert_add_tensor(m, 0, "shape", DT_INT32, 1, s2, litert_add_buffer(m, shp, 8));
  int k = add_c16(m, "k", 2, s22, kb, 4);
  int r = add_t(m, "r", DT_FLOAT16, 2, s22);
  int a = add_t(m, "a", DT_FLOAT16, 2, s22);
  int b = add_t(m, "b", DT_FLOAT16, 2, s22);
  int cc = add_t(m, "cat", DT_FLOAT16, 2, s24);
  add_op(m, OP_RESHAPE, 2, (int32_t[]){x, shape}, 1, (int32_t[]){r});
  add_op(m, OP_ADD, 2, (int32_t[]){r, k}, 1, (int32_t[]){a});
  add_op(m, OP_MUL, 2, (int32_t[]){r, k}, 1, (int32_t[]){b});
  add_op(m, OP_CONCATENATION, 2, (int32_t[]){a, b}, 1, (int32_t[]){cc});
  litert_set_io(m, 0, 1, (int32_t[]){x}, 1, (int32_t[]){cc});
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_true(ir_run_transforms(g, NULL, &d) > 0);
  all_supported(g);
  /* x = 1, 2049/2048 (0x3C01 = 1 + 2^-10), -3, 65504 */
  const uint16_t xb[4] = {0x3C00, 0x3C01, 0xC200, 0x7BFF};
  const void *ins[1] = {xb};
  run_data rd = run_graph(g, ins);
  const uint16_t *o = rd.data[cc];
  /* row 0: a = 1+1 = 2 (0x4000), (1+2^-10)+2 = 3 + 2^-10: ulp of 3 is 2^-9,
   *        2^-10 is a tie -> even 3 (0x4200); b = 1*1 = 1, (1+2^-10)*2 = 0x4001
   * row 1: a = -3+3 = 0, 65504+0.5 -> 65504 (0x7BFF); b = -9 (0xC880),
   *        65504*0.5 = 32752 (0x77FF) */
  const uint16_t want[8] = {0x4000, 0x4200, 0x3C00, 0x4001, 0x0000, 0x7BFF, 0xC880, 0x77FF};
  for (int i = 0; i < 8; i++)
    if (o[i] != want[i]) fail_msg("out[%d] = 0x%04x, want 0x%04x", i, o[i], want[i]);
  free_run(&rd);
  ir_free(g);
  litert_model_free(m);
}

/* ---- the acceptance model ---------------------------------------------------------- */

static char *shared_path(const char *rel) {
  const char *s = getenv("AOTC_SHARED");
  char *p = xasprintf("%s/%s", s && *s ? s : "../shared", rel);
  struct stat st;
  if (stat(p, &st) != 0) {
    fprintf(stderr, "skipping: %s not found (set AOTC_SHARED)\n", p);
    free(p);
    return NULL;
  }
  return p;
}

/* aotc fp16 of bigru64_fp32, compiled (GRU fusion, transforms): every op is
 * supported, and evaluated on the host it matches the LiteRT float32 golden
 * within the float16 tolerance (see tests/integration/test_fp16_gru.sh for
 * the derivation). */
static void test_bigru_fp16(void **state) {
  (void)state;
  char *mp = shared_path("models/gru/bigru64_fp32.tflite");
  char *gp = shared_path("goldens/gru/bigru64_fp32.npz");
  if (!mp || !gp) {
    free(mp), free(gp);
    skip();
  }
  aotc_diag d = {0};
  d.quiet = 1;
  litert_model *lm = litert_read_file(mp, &d);
  assert_non_null(lm);
  assert_int_equal(litert_to_fp16(lm, 0, &d), 0);
  char tmp[] = "/tmp/aotc-fp16-lower-XXXXXX";
  int fd = mkstemp(tmp);
  assert_true(fd >= 0);
  close(fd);
  if (litert_write_file(lm, tmp, &d) != 0) fail_msg("%s", d.msg);
  litert_model_free(lm);
  compiled cm;
  int rc = compile_model(NULL, tmp, 1, &cm, &d);
  unlink(tmp);
  if (rc != 0) fail_msg("compile: %s", d.msg);
  ir_graph *g = cm.graph;
  assert_int_equal(cm.fused_gru_loops, 2);
  all_supported(g);
  int grus = 0, f16_gru = 0, lowered = 0;
  for (int i = 0; i < g->nops; i++) {
    const ir_op *op = &g->ops[i];
    if (op->dead) continue;
    if (op->builtin == OP_CUSTOM && op->custom && strcmp(op->custom, "GRU") == 0) {
      grus++;
      f16_gru += g->t[op->in[0]].dtype == DT_FLOAT16 && g->t[op->in[1]].dtype == DT_FLOAT16;
    }
    if (op->builtin == OP_CONV_2D || op->builtin == OP_FULLY_CONNECTED)
      lowered += g->t[op->in[0]].dtype == DT_FLOAT32 && g->t[op->in[1]].dtype == DT_FLOAT32;
  }
  assert_int_equal(grus, 2);
  assert_int_equal(f16_gru, 2);   /* the GRUs keep float16 */
  assert_int_equal(lowered, 3);   /* CONV_2D and both FULLY_CONNECTED run in float32 */
  npy_array *arr = NULL;
  int na = 0;
  if (npz_read(gp, &arr, &na, &d) != 0) fail_msg("%s", d.msg);
  const npy_array *in = npz_find(arr, na, "input_0"), *out = npz_find(arr, na, "output_0");
  assert_non_null(in);
  assert_non_null(out);
  const ir_tensor *xt = &g->t[g->inputs[0]];
  assert_int_equal(xt->dtype, DT_FLOAT32);
  assert_int_equal(ir_numel(xt), in->count);
  float *x = malloc(in->count * sizeof(float));
  for (size_t i = 0; i < in->count; i++) x[i] = (float)npy_get_double(in, i);
  const void *ins[1] = {x};
  run_data r = run_graph(g, ins);
  const float *y = r.data[g->outputs[0]];
  assert_int_equal(ir_numel(&g->t[g->outputs[0]]), out->count);
  double worst = 0, sum = 0;
  for (size_t i = 0; i < out->count; i++) {
    double e = fabs(y[i] - npy_get_double(out, i));
    if (e > worst) worst = e;
    sum += y[i];
  }
  fprintf(stderr, "  bigru64 float16 vs float32 golden: max |err| = %.3g\n", worst);
  assert_true(worst <= 2e-3);
  assert_true(fabs(sum - 1.0) < 1e-2); /* still a softmax */
  free_run(&r);
  free(x);
  npz_free(arr, na);
  compiled_free(&cm);
  free(mp), free(gp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cast_f32_to_f16),
      cmocka_unit_test(test_cast_f16_to_f32_and_dequantize),
      cmocka_unit_test(test_cast_f16_int),
      cmocka_unit_test(test_lower_add),
      cmocka_unit_test(test_lower_chain_rounding),
      cmocka_unit_test(test_registered_is_faithful),
      cmocka_unit_test(test_lower_mixed),
      cmocka_unit_test(test_lower_mixed_numerics),
      cmocka_unit_test(test_bigru_fp16),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
