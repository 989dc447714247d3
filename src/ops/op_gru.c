/* op_gru.c - the custom operator "GRU" that the LiteRT hook fuse_rolled_gru
 * (src/litert/fuse_gru.c) writes in place of a Keras rolled-GRU WHILE loop.
 *
 * gru_check() validates the tensors and the 24-byte options; gru_prepare()
 * computes the kernel parameters. gru_lower() lowers the op to one wide
 * kernel call (kernels.def, src/ops/lower.h) that op_emit prints and op_eval
 * runs: the weights are repacked at compile time into the kernels' layout
 * (runtime/aot_recurrent.h) - float32, binary16 words, or (hybrid, int8
 * weights) int8 rows with per-row scales - and passed as constant arrays of
 * the call. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_recurrent.h"
#include "lower_rec.h"
#include "ops.h"

static int in_id(const ir_op *op, int i) { return i < op->nin ? op->in[i] : -1; }

/* Inputs: 0 x [1, T, F], 1 h0 [1, U], 2 W [3U, F], 3 U [3U, U], 4 bias_x [3U]
 * (optional), 5 bias_h [3U] (optional). Outputs: 0 sequence [1, T, U] (or
 * U values when return_sequences is 0), 1 final state [1, U] (optional).
 * custom_options: AOT_GRU_OPTIONS_SIZE bytes, see aot_recurrent.h. */

enum { GRU_F32, GRU_F32_F16W, GRU_F16, GRU_F32_S8W };

static int32_t le32(const uint8_t *b) {
  uint32_t v = (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) |
               ((uint32_t)b[3] << 24);
  return (int32_t)v;
}

static int gru_options(const ir_op *op, aot_gru_params *p, char *why, size_t n) {
  memset(p, 0, sizeof *p);
  if (!op->custom_options || op->custom_options_len < AOT_GRU_OPTIONS_SIZE)
    return lower_rec_why(why, n, "GRU custom options must be %d bytes (got %zu)", AOT_GRU_OPTIONS_SIZE,
                   op->custom_options ? op->custom_options_len : (size_t)0);
  const uint8_t *b = op->custom_options;
  p->units = le32(b);
  p->reset_after = le32(b + 4);
  p->gate_act = le32(b + 8);
  p->cand_act = le32(b + 12);
  p->go_backwards = le32(b + 16);
  p->return_sequences = le32(b + 20);
  if (p->reset_after != 0 && p->reset_after != 1)
    return lower_rec_why(why, n, "GRU reset_after must be 0 or 1");
  if (p->gate_act != AOT_GRU_SIGMOID && p->gate_act != AOT_GRU_HARD_SIGMOID)
    return lower_rec_why(why, n, "GRU gate activation %d not supported", p->gate_act);
  if (p->cand_act != AOT_GRU_TANH && p->cand_act != AOT_GRU_LINEAR)
    return lower_rec_why(why, n, "GRU candidate activation %d not supported", p->cand_act);
  if ((p->go_backwards != 0 && p->go_backwards != 1) ||
      (p->return_sequences != 0 && p->return_sequences != 1))
    return lower_rec_why(why, n, "GRU go_backwards / return_sequences must be 0 or 1");
  return 0;
}

static int gru_kind(const ir_graph *g, const ir_op *op) {
  const ir_tensor *x = ir_in(g, op, 0), *w = ir_in(g, op, 2);
  if (x->dtype == DT_FLOAT16) return GRU_F16;
  if (w->dtype == DT_INT8) return GRU_F32_S8W;
  return w->dtype == DT_FLOAT16 ? GRU_F32_F16W : GRU_F32;
}

static int gru_check(const ir_graph *g, const ir_op *op, char *why, size_t n) {
  aot_gru_params p;
  if (gru_options(op, &p, why, n)) return -1;
  if (op->nin < 4 || op->nout < 1) return lower_rec_why(why, n, "GRU needs at least 4 inputs, 1 output");
  const ir_tensor *x = ir_in(g, op, 0), *h0 = ir_in(g, op, 1), *w = ir_in(g, op, 2);
  const ir_tensor *u = ir_in(g, op, 3), *bx = ir_in(g, op, 4), *bh = ir_in(g, op, 5);
  const ir_tensor *seq = ir_out(g, op, 0), *hout = ir_out(g, op, 1);
  if (!x || !h0 || !w || !u || !seq)
    return lower_rec_why(why, n, "GRU x, h0, W, U and output 0 are required");
  if (x->rank != 3 || x->shape[0] != 1)
    return lower_rec_why(why, n, "GRU input must be [1, time, features]");
  int nt = x->shape[1], nf = x->shape[2], nu = p.units;
  if (nu <= 0 || nt <= 0 || nf <= 0) return lower_rec_why(why, n, "GRU has empty dimensions");
  if (nu > (1 << 16) || nf > (1 << 20))
    return lower_rec_why(why, n, "GRU units %d / features %d too large", nu, nf);
  if ((long)ir_numel(h0) != nu)
    return lower_rec_why(why, n, "GRU h0 has %ld values, units is %d", (long)ir_numel(h0), nu);
  if (w->rank != 2 || w->shape[0] != 3 * nu || w->shape[1] != nf)
    return lower_rec_why(why, n, "GRU W must be [3 x %d, %d]", nu, nf);
  if (u->rank != 2 || u->shape[0] != 3 * nu || u->shape[1] != nu)
    return lower_rec_why(why, n, "GRU U must be [3 x %d, %d]", nu, nu);
  if ((bx && (long)ir_numel(bx) != 3L * nu) || (bh && (long)ir_numel(bh) != 3L * nu))
    return lower_rec_why(why, n, "GRU biases must have 3 x %d values", nu);
  if (!w->data || !u->data || (bx && !bx->data) || (bh && !bh->data) ||
      w->role != ROLE_CONST || u->role != ROLE_CONST || (bx && bx->role != ROLE_CONST) ||
      (bh && bh->role != ROLE_CONST))
    return lower_rec_why(why, n, "GRU W, U and biases must be constant (they are repacked)");
  long want = p.return_sequences ? (long)nt * nu : nu;
  if ((long)ir_numel(seq) != want)
    return lower_rec_why(why, n, "GRU output 0 has %ld values, expected %ld", (long)ir_numel(seq), want);
  if (hout && (long)ir_numel(hout) != nu)
    return lower_rec_why(why, n, "GRU output 1 (state) has %ld values, expected %d",
                   (long)ir_numel(hout), nu);
  int act = x->dtype;
  if (act != DT_FLOAT32 && act != DT_FLOAT16)
    return lower_rec_why(why, n, "GRU input %s not supported (float32, float16)", dtype_name(act));
  int wdt = w->dtype;
  if (h0->dtype != act || seq->dtype != act || (hout && hout->dtype != act))
    return lower_rec_why(why, n, "GRU h0 and outputs must have the input's dtype");
  if (wdt == DT_INT8) {
    /* hybrid: float32 activations and biases, int8 W and U with zero points 0
     * and per-tensor or per-row (axis 0) scales */
    if (act != DT_FLOAT32) return lower_rec_why(why, n, "GRU int8 weights need float32 activations");
    if (u->dtype != DT_INT8) return lower_rec_why(why, n, "GRU W and U must share a dtype");
    if ((bx && bx->dtype != DT_FLOAT32) || (bh && bh->dtype != DT_FLOAT32))
      return lower_rec_why(why, n, "GRU with int8 weights needs float32 biases");
    const ir_tensor *m2[2] = {w, u};
    for (int i = 0; i < 2; i++) {
      const ir_tensor *t = m2[i];
      if (t->nq != 1 && !(t->nq == 3 * nu && t->qdim == 0))
        return lower_rec_why(why, n, "GRU int8 %s needs one scale or one per row (%d)", i ? "U" : "W",
                       3 * nu);
      for (int c = 0; c < t->nq; c++)
        if (t->zero_point[c] != 0 || !(t->scale[c] > 0.0f) || !isfinite(t->scale[c]))
          return lower_rec_why(why, n, "GRU int8 %s needs zero points 0 and positive finite scales",
                         i ? "U" : "W");
    }
    /* |w (q - zp)| <= 128 * 255: the int32 row sums cannot overflow */
    if (nf > 65536) return lower_rec_why(why, n, "GRU int8 weights: features %d over 65536", nf);
    return 0;
  }
  if (wdt != DT_FLOAT32 && wdt != DT_FLOAT16)
    return lower_rec_why(why, n, "GRU weights %s not supported (float32, float16, int8)",
                   dtype_name(wdt));
  if (act == DT_FLOAT16 && wdt != DT_FLOAT16)
    return lower_rec_why(why, n, "GRU float16 activations need float16 weights");
  if (u->dtype != wdt || (bx && bx->dtype != wdt) || (bh && bh->dtype != wdt))
    return lower_rec_why(why, n, "GRU W, U and biases must share a dtype");
  return 0;
}

/* The input projection of all time steps is computed at once when it fits in
 * GRU_PROJ_BYTES of scratch, else in blocks of a multiple of 4 steps (at
 * least 4): the kernels walk the weights once per 2 (Helium float16: 4)
 * steps whatever the block, so small blocks cost only a few calls. */
#define GRU_PROJ_BYTES 4096

static void gru_prepare(const ir_graph *g, const ir_op *op, aot_gru_params *p) {
  char why[8];
  gru_options(op, p, why, sizeof why);
  const ir_tensor *x = ir_in(g, op, 0);
  p->time_steps = x->shape[1];
  p->features = x->shape[2];
  size_t row = (size_t)3 * (size_t)aot_gru_padded_units(p->units) * sizeof(float);
  size_t steps = GRU_PROJ_BYTES / row / 4 * 4;
  if (steps < 4) steps = 4;
  p->proj_steps = steps >= (size_t)p->time_steps ? 0 : (int32_t)steps;
}

static int gru_kernel_kind(int kind) {
  if (kind == GRU_F32_S8W) return AOT_GRU_KIND_F32_S8W;
  return kind == GRU_F32 ? AOT_GRU_KIND_F32 : kind == GRU_F32_F16W ? AOT_GRU_KIND_F32_F16W
                                                                   : AOT_GRU_KIND_F16;
}

static size_t gru_scratch(const ir_graph *g, const ir_op *op) {
  aot_gru_params p;
  char why[8];
  const ir_tensor *x = op->nin > 0 ? ir_in(g, op, 0) : NULL;
  if (gru_options(op, &p, why, sizeof why) || !x || x->rank != 3 || op->nin < 3 || !ir_in(g, op, 2))
    return 0;
  gru_prepare(g, op, &p);
  return aot_gru_buffer_size(&p, gru_kernel_kind(gru_kind(g, op)));
}

/* The weights in the kernels' packed layout (aot_recurrent.h): float32
 * matrices and biases, or binary16 matrices as 32-bit words (two values
 * each) and binary16 biases. NULL for an absent bias. */
typedef struct gru_packed {
  void *w, *u, *bx, *bh;
  size_t nw, nu, nb; /* elements: floats, words (binary16 matrices) */
} gru_packed;

/* src [3 units, cols] of float32 (binary16 when f16) -> packed rows, zero padded;
 * both layouts move es-byte elements the same way */
static void *gru_pack(const void *src, int units, int cols, int f16) {
  int up = aot_gru_padded_units(units);
  size_t n = (size_t)3 * (size_t)up * (size_t)cols;
  if (!src) return NULL;
  const size_t es = f16 ? sizeof(uint16_t) : sizeof(float);
  unsigned char *d = xcalloc(n, es);
  const unsigned char *s = src;
  for (int gt = 0; gt < 3; gt++)
    for (int j = 0; j < units; j++)
      for (int k = 0; k < cols; k++) {
        const size_t to = f16 ? aot_gru_pack16_index(gt * up + j, k, cols)
                              : aot_gru_pack_index(gt * up + j, k, cols);
        memcpy(d + to * es, s + (((size_t)gt * units + j) * cols + k) * es, es);
      }
  return d;
}

/* binary16 matrix (uint16 view) -> 32-bit words, low half first */
static uint32_t *gru_words(uint16_t *h, size_t n) {
  uint32_t *w = xcalloc(n / 2, sizeof(uint32_t));
  for (size_t i = 0; i < n / 2; i++) w[i] = (uint32_t)h[2 * i] | ((uint32_t)h[2 * i + 1] << 16);
  free(h);
  return w;
}

static void gru_pack_all(const aot_gru_params *p, int kind, const void *w, const void *u,
                         const void *bx, const void *bh, gru_packed *k) {
  int f16 = kind != GRU_F32, up = aot_gru_padded_units(p->units);
  k->nw = (size_t)3 * up * p->features;
  k->nu = (size_t)3 * up * p->units;
  k->nb = (size_t)3 * up;
  k->w = gru_pack(w, p->units, p->features, f16);
  k->u = gru_pack(u, p->units, p->units, f16);
  k->bx = gru_pack(bx, p->units, 1, f16);
  k->bh = gru_pack(bh, p->units, 1, f16);
  if (f16) {
    k->w = gru_words(k->w, k->nw), k->nw /= 2;
    k->u = gru_words(k->u, k->nu), k->nu /= 2;
  }
}

static const void *gru_const(const ir_graph *g, const ir_op *op, int i) {
  const ir_tensor *t = ir_in(g, op, i);
  return t ? t->data : NULL;
}

/* Hybrid (int8 weights): W, U as int8 rows R = g * Up + j, zero padded, and
 * one float scale per packed row (0 for padding); biases float32 packed. */
typedef struct gru_packed_s8 {
  int8_t *w, *u;
  float *ws, *us, *bx, *bh;
  size_t nw, nu, nb;
} gru_packed_s8;

static int8_t *gru_pack_s8(const int8_t *src, int units, int cols) {
  int up = aot_gru_padded_units(units);
  int8_t *d = xcalloc((size_t)3 * (size_t)up * (size_t)cols, 1);
  for (int gt = 0; gt < 3; gt++)
    for (int j = 0; j < units; j++)
      memcpy(d + ((size_t)gt * up + j) * (size_t)cols, src + ((size_t)gt * units + j) * (size_t)cols,
             (size_t)cols);
  return d;
}

static float *gru_pack_scales(const ir_tensor *t, int units) {
  int up = aot_gru_padded_units(units);
  float *d = xcalloc((size_t)3 * (size_t)up, sizeof(float));
  for (int gt = 0; gt < 3; gt++)
    for (int j = 0; j < units; j++) d[gt * up + j] = t->scale[t->nq > 1 ? gt * units + j : 0];
  return d;
}

static void gru_pack_s8_all(const ir_graph *g, const ir_op *op, const aot_gru_params *p,
                            const void *w, const void *u, const void *bx, const void *bh,
                            gru_packed_s8 *k) {
  int up = aot_gru_padded_units(p->units);
  k->nw = (size_t)3 * up * p->features;
  k->nu = (size_t)3 * up * p->units;
  k->nb = (size_t)3 * up;
  k->w = gru_pack_s8(w, p->units, p->features);
  k->u = gru_pack_s8(u, p->units, p->units);
  k->ws = gru_pack_scales(ir_in(g, op, 2), p->units);
  k->us = gru_pack_scales(ir_in(g, op, 3), p->units);
  k->bx = gru_pack(bx, p->units, 1, 0);
  k->bh = gru_pack(bh, p->units, 1, 0);
}

/* One wide call (kernels.def, LP_GRU): the params, then x, h0, the packed
 * weights (and, with int8 weights, their per-row scales), the biases, the
 * sequence and state outputs and the scratch. */
static int gru_lower(const ir_graph *g, const ir_op *op, lower_list *L, char *why, size_t n) {
  if (gru_check(g, op, why, n)) return -1;
  aot_gru_params p;
  gru_prepare(g, op, &p);
  int kind = gru_kind(g, op), ho = op->nout > 1 ? op->out[1] : -1;
  const void *w = gru_const(g, op, 2), *u = gru_const(g, op, 3);
  const void *bx = gru_const(g, op, 4), *bh = gru_const(g, op, 5);
  lower_call *c = &L->call[L->n++];
  if (kind == GRU_F32_S8W) {
    lower_call_init(c, LK(aot_gru_f32_s8w), -1, -1, -1, op->out[0]);
    c->u.gru = p;
    gru_packed_s8 k;
    gru_pack_s8_all(g, op, &p, w, u, bx, bh, &k);
    const char *f = "(const float *)";
    lower_rec_arg_t(c, 0, in_id(op, 0), f);
    lower_rec_arg_t(c, 1, in_id(op, 1), f);
    lower_rec_arg_a(c, 2, 'b', "w_packed", k.w, k.nw, NULL);
    lower_rec_arg_a(c, 3, 'f', "w_scale", k.ws, k.nb, NULL);
    lower_rec_arg_a(c, 4, 'b', "u_packed", k.u, k.nu, NULL);
    lower_rec_arg_a(c, 5, 'f', "u_scale", k.us, k.nb, NULL);
    lower_rec_arg_a(c, 6, 'f', "bx_packed", k.bx, k.nb, NULL);
    lower_rec_arg_a(c, 7, 'f', "bh_packed", k.bh, k.nb, NULL);
    lower_rec_arg_t(c, 8, op->out[0], "(float *)");
    lower_rec_arg_t(c, 9, ho, "(float *)");
    lower_rec_arg_t(c, 10, LOWER_SCRATCH, "(float *)");
    return 0;
  }
  int lk = kind == GRU_F32 ? LK(aot_gru_f32) : kind == GRU_F32_F16W ? LK(aot_gru_f32_f16w)
                                                                    : LK(aot_gru_f16);
  lower_call_init(c, lk, -1, -1, -1, op->out[0]);
  c->u.gru = p;
  gru_packed k;
  gru_pack_all(&p, kind, w, u, bx, bh, &k);
  const char *ca = kind == GRU_F16 ? "(const uint16_t *)" : "(const float *)";
  const char *oa = kind == GRU_F16 ? "(uint16_t *)" : "(float *)";
  const char *cw = kind == GRU_F32 ? "(const float *)" : "(const uint32_t *)";
  const char *cb = kind == GRU_F32 ? "(const float *)" : "(const uint16_t *)";
  char wa = kind == GRU_F32 ? 'f' : 'w', ba = kind == GRU_F32 ? 'f' : 'h';
  lower_rec_arg_t(c, 0, in_id(op, 0), ca);
  lower_rec_arg_t(c, 1, in_id(op, 1), ca);
  lower_rec_arg_a(c, 2, wa, "w_packed", k.w, k.nw, cw);
  lower_rec_arg_a(c, 3, wa, "u_packed", k.u, k.nu, cw);
  lower_rec_arg_a(c, 4, ba, "bx_packed", k.bx, k.nb, cb);
  lower_rec_arg_a(c, 5, ba, "bh_packed", k.bh, k.nb, cb);
  lower_rec_arg_t(c, 6, op->out[0], oa);
  lower_rec_arg_t(c, 7, ho, oa);
  lower_rec_arg_t(c, 8, LOWER_SCRATCH, "(float *)");
  return 0;
}

const op_impl op_gru = {
    .builtin = OP_CUSTOM,
    .custom = "GRU",
    .name = "GRU (custom)",
    .dtypes = "float32; float32 with float16 weights; float32 with int8 weights (hybrid); float16",
    .constraints =
        "custom operator produced from Keras GRU loops: x [1, time, features], h0, W [3U, F], "
        "U [3U, U], optional bias_x / bias_h [3U] (gate order z, r, n); options (24-byte "
        "little-endian struct): units, reset_after, sigmoid or hard sigmoid gates, tanh or "
        "linear candidate, go_backwards, return_sequences",
    .check = gru_check,
    .scratch = gru_scratch,
    .inplace = 0,
    .lower = gru_lower,
};
