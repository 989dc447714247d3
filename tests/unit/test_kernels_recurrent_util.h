/* test_kernels_recurrent_util.h - helpers shared by the recurrent kernel
 * tests: a deterministic RNG, independent integer rounding references and a
 * tiny hand-built IR graph. Header-only (static functions). */
#ifndef TEST_KERNELS_RECURRENT_UTIL_H
#define TEST_KERNELS_RECURRENT_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aotc.h"
#include "ir/ir.h"

#define TU_UNUSED __attribute__((unused))

/* ---- deterministic RNG (xorshift32) ---- */
static uint32_t tu_rng_state = 1;
TU_UNUSED static void rng_seed(unsigned s) { tu_rng_state = s * 2654435761u + 12345u; }
TU_UNUSED static uint32_t rng_u32(void) {
  uint32_t x = tu_rng_state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return tu_rng_state = x;
}
TU_UNUSED static int rng_int(int lo, int hi) {
  return lo + (int)(rng_u32() % (uint32_t)(hi - lo + 1));
}
TU_UNUSED static double rng_unit(void) { return (rng_u32() >> 8) / 16777216.0; }

/* ---- integer rounding references (int64, written from the definitions) ---- */

/* SaturatingRoundingDoublingHighMul: (a*b + nudge) / 2^31 truncated, where
 * nudge is 2^30 for a non-negative product and 1 - 2^30 otherwise. */
TU_UNUSED static int64_t ref_srdhm(int64_t a, int64_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  int64_t ab = a * b;
  if (ab >= 0) return (ab + (1LL << 30)) / (1LL << 31);
  return -((-ab + (1LL << 30) - 1) / (1LL << 31));
}

/* Rounding divide by 2^e, ties away from zero. */
TU_UNUSED static int64_t ref_rdbpot(int64_t x, int e) {
  if (e <= 0) return x;
  int64_t h = 1LL << (e - 1);
  return x >= 0 ? (x + h) >> e : -((-x + h) >> e);
}

/* MultiplyByQuantizedMultiplier with shift > 0 meaning a left shift. */
TU_UNUSED static int64_t ref_mbqm(int64_t x, int32_t m, int32_t s) {
  int64_t xs = s > 0 ? x * (1LL << s) : x;
  return ref_rdbpot(ref_srdhm(xs, m), s > 0 ? 0 : -s);
}

/* MultiplyByQuantizedMultiplier for int64 accumulators: the multiplier is
 * first rounded to 15 bits (saturating at 0x7FFF), then one rounding shift
 * (ties toward +infinity) by 15 - s. */
TU_UNUSED static int64_t ref_mbqm64(int64_t x, int32_t m, int32_t s) {
  int64_t red = m < 0x7FFF0000 ? (m + (1LL << 15)) / (1LL << 16) : 0x7FFF;
  int sh = 15 - s;
  int64_t v = x * red + (1LL << (sh - 1));
  int64_t d = 1LL << sh;
  return v >= 0 ? v / d : -((-v + d - 1) / d);
}

/* QuantizeMultiplier: real = q * 2^(s-31) with q in [2^30, 2^31). */
TU_UNUSED static void ref_quantize_multiplier(double real, int32_t *q, int *s) {
  if (real == 0) {
    *q = 0;
    *s = 0;
    return;
  }
  int e = 0;
  double f = real;
  while (f >= 1.0) f /= 2, e++;
  while (f < 0.5) f *= 2, e--;
  long long qq = llround(f * 2147483648.0);
  if (qq == 2147483648LL) qq /= 2, e++;
  *q = (int32_t)qq;
  *s = e;
}

/* ---- a tiny IR graph ---- */
#define TG_MAXT 64
#define TG_MAXO 8
typedef struct tgraph {
  ir_graph g;
  ir_tensor t[TG_MAXT];
  ir_op ops[TG_MAXO];
  int ndata;           /* tensors that got host buffers */
} tgraph;

TU_UNUSED static void tg_init(tgraph *G) {
  memset(G, 0, sizeof *G);
  G->g.t = G->t;
  G->g.ops = G->ops;
}

/* Adds a tensor; scale 0 means not quantized. data (constants) is borrowed. */
TU_UNUSED static int tg_tensor(tgraph *G, int dtype, int rank, const int *shape, float scale,
                               int zp, ir_role role, const void *data) {
  int id = G->g.nt++;
  ir_tensor *t = &G->t[id];
  t->name = xstrdup("t");
  snprintf(t->cname, sizeof t->cname, "t%d", id);
  t->dtype = dtype;
  t->rank = rank;
  for (int i = 0; i < rank; i++) t->shape[i] = shape[i];
  if (scale != 0.0f) {
    t->nq = 1;
    t->scale = xcalloc(1, sizeof(float));
    t->zero_point = xcalloc(1, sizeof(int32_t));
    t->scale[0] = scale;
    t->zero_point[0] = zp;
  }
  t->role = role;
  t->is_variable = role == ROLE_PERSISTENT;
  t->data = data;
  t->data_bytes = data ? ir_bytes(t) : 0;
  t->alias = -1;
  t->io_index = -1;
  t->src_index = id;
  return id;
}

TU_UNUSED static ir_op *tg_op(tgraph *G, int builtin, int nin, const int *in, int nout,
                              const int *out, const litert_options *opts) {
  ir_op *op = &G->ops[G->g.nops];
  op->id = G->g.nops++;
  op->builtin = builtin;
  op->nin = nin;
  op->nout = nout;
  op->in = xcalloc((size_t)nin, sizeof(int));
  op->out = xcalloc((size_t)nout, sizeof(int));
  memcpy(op->in, in, (size_t)nin * sizeof(int));
  memcpy(op->out, out, (size_t)nout * sizeof(int));
  if (opts) op->opts = *opts;
  return op;
}

/* Host buffers for every tensor (constants copied in). */
TU_UNUSED static void **tg_alloc_data(tgraph *G) {
  void **d = xcalloc((size_t)G->g.nt, sizeof(void *));
  G->ndata = G->g.nt;
  for (int i = 0; i < G->g.nt; i++) {
    size_t n = ir_bytes(&G->t[i]);
    d[i] = xcalloc(n ? n : 1, 1);
    if (G->t[i].data) memcpy(d[i], G->t[i].data, n);
  }
  return d;
}

TU_UNUSED static void tg_free_data(tgraph *G, void **d) {
  for (int i = 0; i < G->ndata; i++) free(d[i]);
  free(d);
}

TU_UNUSED static void tg_free(tgraph *G) {
  for (int i = 0; i < G->g.nt; i++) {
    free(G->t[i].name);
    free(G->t[i].scale);
    free(G->t[i].zero_point);
  }
  for (int i = 0; i < G->g.nops; i++) {
    free(G->ops[i].in);
    free(G->ops[i].out);
    free(G->ops[i].custom);
  }
}

#endif
