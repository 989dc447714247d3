/* test_kernels_elementwise_util.h - tiny hand-built IR graphs for the
 * elementwise / activation unit tests: one op, its tensors, host buffers,
 * and a runner that goes through ops_find -> check -> eval. */
#ifndef TEST_KERNELS_ELEMENTWISE_UTIL_H
#define TEST_KERNELS_ELEMENTWISE_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ops/ops.h"

typedef struct tg {
  ir_graph *g;
  void *data[8];
} tg;

static inline void tg_init(tg *t) {
  memset(t, 0, sizeof *t);
  t->g = xcalloc(1, sizeof(ir_graph));
  t->g->t = xcalloc(8, sizeof(ir_tensor));
  t->g->ops = xcalloc(1, sizeof(ir_op));
}

/* Adds a tensor (scale <= 0: not quantized); returns its id. */
static inline int tg_tensor(tg *t, int dtype, int rank, const int32_t *shape, float scale,
                            int32_t zp) {
  ir_graph *g = t->g;
  int id = g->nt++;
  ir_tensor *x = &g->t[id];
  x->name = xstrdup("t");
  snprintf(x->cname, sizeof x->cname, "t%d", id);
  x->dtype = dtype;
  x->rank = rank;
  for (int i = 0; i < rank; i++) x->shape[i] = shape[i];
  if (scale > 0.0f) {
    x->nq = 1;
    x->scale = xmalloc(sizeof(float));
    x->zero_point = xmalloc(sizeof(int32_t));
    x->scale[0] = scale;
    x->zero_point[0] = zp;
  }
  x->alias = -1;
  x->io_index = -1;
  x->role = ROLE_SCRATCH;
  size_t b = ir_bytes(x);
  t->data[id] = xcalloc(1, b ? b : 1);
  return id;
}

/* Sets the single op; returns it for option tweaks. */
static inline ir_op *tg_op(tg *t, int builtin, int nin, const int *in, int out) {
  ir_op *op = &t->g->ops[0];
  t->g->nops = 1;
  op->builtin = builtin;
  op->nin = nin;
  op->nout = 1;
  op->in = xmalloc(sizeof(int) * (size_t)(nin ? nin : 1));
  for (int i = 0; i < nin; i++) op->in[i] = in[i];
  op->out = xmalloc(sizeof(int));
  op->out[0] = out;
  litert_options_default(&op->opts);
  return op;
}

/* check + eval with a scratch buffer of the op's scratch() bytes (filled
 * with 0xA5) followed by a 64-byte guard; returns 0, or -1 if unsupported
 * (why printed), -2 when the kernel wrote past its scratch, or the kernel
 * status. */
static inline int tg_run(tg *t, char *why, size_t n) {
  const ir_op *op = &t->g->ops[0];
  const op_impl *impl = ops_find(t->g, op);
  if (!impl) {
    snprintf(why, n, "no impl");
    return -1;
  }
  if (impl->check(t->g, op, why, n) != 0) return -1;
  const size_t sb = impl->scratch ? impl->scratch(t->g, op) : 0;
  unsigned char *scr = sb ? xmalloc(sb + 64) : NULL;
  if (scr) memset(scr, 0xA5, sb + 64);
  int rc = op_eval(impl, t->g, op, t->data, scr);
  for (size_t i = sb; scr && i < sb + 64; i++)
    if (scr[i] != 0xA5) {
      snprintf(why, n, "scratch overrun at byte %zu of %zu", i, sb);
      rc = -2;
      break;
    }
  free(scr);
  return rc;
}

static inline void tg_free(tg *t) {
  for (int i = 0; i < t->g->nt; i++) free(t->data[i]);
  ir_free(t->g);
}

/* Round half away from zero (TfLiteRound). */
static inline double rnd(double x) { return x < 0 ? -floor(-x + 0.5) : floor(x + 0.5); }

static inline int32_t clampi(double v, int32_t lo, int32_t hi) {
  return v < lo ? lo : (v > hi ? hi : (int32_t)v);
}

#endif
