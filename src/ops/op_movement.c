/* op_movement.c - data movement operators.
 *
 * Every operator here is resolved at compile time into a short list of
 * "steps" (an mv_plan): strided N-d copies, fills, index-table gathers,
 * requantizing row copies, GATHER, CAST and RESIZE_BILINEAR kernel calls. One
 * plan function per operator builds the list from the IR (constant
 * parameters such as paddings, begin/end/strides, perm, axes are read here
 * and must be constant tensors); check() runs it and reports why it failed,
 * emit() writes the steps as kernel calls with static const parameters, and
 * eval() runs the very same steps on host buffers. */
#include "ops.h"

#include "aot_movement.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MV_MAXD 16

/* ---------------------------------------------------------------------- */
/* shared helpers (also used by op_reduce.c)                               */

int mv_fail(char *why, size_t wl, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int mv_fail(char *why, size_t wl, const char *fmt, ...) {
  if (why && wl) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, wl, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* Reads a constant int32/int64 tensor (at most max values). */
int mv_const_ints(const ir_graph *g, int tid, const char *what, int64_t *out, int max, int *n,
                  char *why, size_t wl) {
  if (tid < 0 || tid >= g->nt) return mv_fail(why, wl, "%s is missing", what);
  const ir_tensor *t = &g->t[tid];
  if (t->role != ROLE_CONST || !t->data)
    return mv_fail(why, wl, "%s must be a constant tensor", what);
  if (t->dtype != DT_INT32 && t->dtype != DT_INT64)
    return mv_fail(why, wl, "%s is %s, expected int32 or int64", what, dtype_name(t->dtype));
  size_t cnt = ir_numel(t);
  size_t es = dtype_size(t->dtype);
  if (cnt > (size_t)max) return mv_fail(why, wl, "%s has %zu values (max %d)", what, cnt, max);
  if (t->data_bytes < cnt * es) return mv_fail(why, wl, "%s data is truncated", what);
  for (size_t i = 0; i < cnt; i++) {
    if (es == 4) {
      int32_t v;
      memcpy(&v, t->data + 4 * i, 4);
      out[i] = v;
    } else {
      int64_t v;
      memcpy(&v, t->data + 8 * i, 8);
      out[i] = v;
    }
  }
  *n = (int)cnt;
  return 0;
}

/* Row-major strides (elements) of a shape. */
void mv_strides(const int32_t *shape, int rank, int64_t *strides) {
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i] > 0 ? shape[i] : 0;
  }
}

static int same_quant(const ir_tensor *a, const ir_tensor *b) {
  if (a->nq != b->nq) return 0;
  for (int i = 0; i < a->nq; i++)
    if (a->scale[i] != b->scale[i] || a->zero_point[i] != b->zero_point[i]) return 0;
  return a->nq <= 1 || a->qdim == b->qdim;
}

static int plain_dtype(int dt) {
  switch (dt) {
    case DT_FLOAT32: case DT_FLOAT16: case DT_INT32: case DT_UINT8: case DT_INT64:
    case DT_BOOL: case DT_INT16: case DT_INT8: case DT_FLOAT64: case DT_UINT64:
    case DT_UINT32: case DT_UINT16:
      return 1;
    default:
      return 0;
  }
}

static int check_plain(const ir_tensor *t, const char *what, char *why, size_t wl) {
  if (!t) return mv_fail(why, wl, "%s is missing", what);
  if (!plain_dtype(t->dtype)) return mv_fail(why, wl, "%s dtype %s not supported", what, dtype_name(t->dtype));
  for (int d = 0; d < t->rank; d++)
    if (t->shape[d] < 0) return mv_fail(why, wl, "%s has a dynamic shape", what);
  return 0;
}

static int check_same_dtype(const ir_tensor *a, const ir_tensor *b, char *why, size_t wl) {
  if (a->dtype != b->dtype)
    return mv_fail(why, wl, "input %s with output %s not supported", dtype_name(a->dtype),
                   dtype_name(b->dtype));
  return 0;
}

static int64_t numel64(const ir_tensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->rank; i++) n *= t->shape[i] > 0 ? t->shape[i] : 0;
  return n;
}

/* ---------------------------------------------------------------------- */
/* plans                                                                   */

typedef struct mv_copy {
  int rank;
  int32_t count[MV_MAXD];
  int64_t istr[MV_MAXD], ostr[MV_MAXD];
  int64_t in_off, out_off;
} mv_copy;

enum { ST_COPY, ST_FILL, ST_REQUANT, ST_INDEX_MAP, ST_GATHER, ST_CAST, ST_RESIZE_BL, ST_DYN_COPY };

typedef struct mv_step {
  int kind;
  int in_t, out_t, aux_t;   /* tensor ids (-1: none) */
  int esize;
  mv_copy c;                /* COPY; INDEX_MAP uses rank/count */
  /* COPY from constant bytes (in_t == -1): cdata with cdtype elements */
  int cdtype;
  int ncdata;
  int64_t cdata[IR_MAX_RANK];
  /* FILL: aux_t is the value tensor, or -1 for value[] */
  int32_t fill_count;
  uint8_t value[8];
  /* REQUANT */
  aot_requant_rows_params rq;
  int dtype;                /* REQUANT / RESIZE_BL element dtype */
  /* INDEX_MAP */
  int32_t *map;
  int nmap;
  int inner_contiguous;
  /* GATHER / CAST */
  aot_gather_params gp;
  aot_cast_params cp;
  /* RESIZE_BILINEAR */
  aot_resize_bilinear_params rb;
  int32_t *rb_i;            /* y0 y1 wy (out_h each) then x0 x1 wx (out_w each) */
  float *rb_f;              /* fy (out_h) then fx (out_w) */
  /* DYN_COPY: COPY (c) moved by run-time begin values read from aux_t */
  int nbeg, begin_is_64, on_output, clamp;
  int32_t dwrap[MV_MAXD], dlo[MV_MAXD], dhi[MV_MAXD], dstride[MV_MAXD];
} mv_step;

typedef struct mv_plan {
  int n, cap;
  mv_step *s;
} mv_plan;

static mv_step *plan_add(mv_plan *p, int kind) {
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 4;
    p->s = xrealloc(p->s, (size_t)p->cap * sizeof(mv_step));
  }
  mv_step *s = &p->s[p->n++];
  memset(s, 0, sizeof *s);
  s->kind = kind;
  s->in_t = s->out_t = s->aux_t = -1;
  return s;
}

static void plan_free(mv_plan *p) {
  for (int i = 0; i < p->n; i++) {
    free(p->s[i].map);
    free(p->s[i].rb_i);
    free(p->s[i].rb_f);
  }
  free(p->s);
  p->s = NULL;
  p->n = p->cap = 0;
}

/* Drops size-1 dimensions and merges dimensions that are contiguous in both
 * the source and the destination. A copy of rank 0 (a scalar) or of only
 * size-1 dimensions becomes one element of rank 1. */
static void copy_simplify(mv_copy *c) {
  int r = 0;
  for (int d = 0; d < c->rank; d++) {
    if (c->count[d] == 0) {
      c->rank = 1;
      c->count[0] = 0;
      c->istr[0] = c->ostr[0] = 1;
      return;
    }
    if (c->count[d] == 1) continue;
    c->count[r] = c->count[d];
    c->istr[r] = c->istr[d];
    c->ostr[r] = c->ostr[d];
    r++;
  }
  if (r == 0) {
    c->rank = 1;
    c->count[0] = 1;
    c->istr[0] = c->ostr[0] = 1;
    return;
  }
  int w = 0;
  for (int d = 1; d < r; d++) {
    if (c->istr[w] == c->istr[d] * c->count[d] && c->ostr[w] == c->ostr[d] * c->count[d]) {
      c->count[w] *= c->count[d];
      c->istr[w] = c->istr[d];
      c->ostr[w] = c->ostr[d];
    } else {
      w++;
      c->count[w] = c->count[d];
      c->istr[w] = c->istr[d];
      c->ostr[w] = c->ostr[d];
    }
  }
  c->rank = w + 1;
  /* a single dimension whose strides are not 1 stays strided */
}

static int copy_finish(mv_copy *c, char *why, size_t wl) {
  copy_simplify(c);
  if (c->rank > AOT_MV_MAX_DIMS)
    return mv_fail(why, wl, "needs %d iteration dimensions (max %d)", c->rank, AOT_MV_MAX_DIMS);
  for (int d = 0; d < c->rank; d++)
    if (c->istr[d] > INT32_MAX || c->istr[d] < -INT32_MAX || c->ostr[d] > INT32_MAX ||
        c->ostr[d] < -INT32_MAX)
      return mv_fail(why, wl, "tensor too large");
  if (c->in_off > INT32_MAX || c->out_off > INT32_MAX || c->in_off < 0 || c->out_off < 0)
    return mv_fail(why, wl, "tensor too large");
  return 0;
}

/* Adds a COPY step; c is simplified in place. */
static int add_copy(mv_plan *p, int in_t, int out_t, int esize, mv_copy *c, char *why, size_t wl) {
  if (copy_finish(c, why, wl)) return -1;
  mv_step *s = plan_add(p, ST_COPY);
  s->in_t = in_t;
  s->out_t = out_t;
  s->esize = esize;
  s->c = *c;
  return 0;
}

/* A contiguous copy of n elements. */
static int add_flat_copy(mv_plan *p, int in_t, int out_t, int esize, int64_t n, char *why,
                         size_t wl) {
  mv_copy c;
  memset(&c, 0, sizeof c);
  c.rank = 1;
  if (n > INT32_MAX) return mv_fail(why, wl, "tensor too large");
  c.count[0] = (int32_t)n;
  c.istr[0] = c.ostr[0] = 1;
  return add_copy(p, in_t, out_t, esize, &c, why, wl);
}

/* Adds a DYN_COPY step: the COPY c moved at run time by the begin values of
 * tensor begin_t (lo/hi/wrap/stride describe each of the nbeg values; see
 * aot_copy_nd_dyn). */
static mv_step *add_dyn_copy(mv_plan *p, int in_t, int out_t, int esize, mv_copy *c, int begin_t,
                             int nbeg, char *why, size_t wl) {
  if (copy_finish(c, why, wl)) return NULL;
  if (nbeg < 0 || nbeg > AOT_MV_MAX_DIMS) {
    mv_fail(why, wl, "%d run-time begin values (max %d)", nbeg, AOT_MV_MAX_DIMS);
    return NULL;
  }
  mv_step *s = plan_add(p, ST_DYN_COPY);
  s->in_t = in_t;
  s->out_t = out_t;
  s->aux_t = begin_t;
  s->esize = esize;
  s->c = *c;
  s->nbeg = nbeg;
  return s;
}

static mv_step *add_fill(mv_plan *p, int out_t, int esize, int64_t count) {
  mv_step *s = plan_add(p, ST_FILL);
  s->out_t = out_t;
  s->esize = esize;
  s->fill_count = (int32_t)count;
  return s;
}

/* ---------------------------------------------------------------------- */
/* running and emitting steps                                              */

static void copy_params(const mv_step *s, aot_copy_params *p, int32_t *cnt, int32_t *is, int32_t *os) {
  for (int d = 0; d < s->c.rank; d++) {
    cnt[d] = s->c.count[d];
    is[d] = (int32_t)s->c.istr[d];
    os[d] = (int32_t)s->c.ostr[d];
  }
  p->rank = s->c.rank;
  p->elem_size = s->esize;
  p->in_offset = (int32_t)s->c.in_off;
  p->out_offset = (int32_t)s->c.out_off;
  p->count = cnt;
  p->in_stride = is;
  p->out_stride = os;
}

/* Constant source bytes of a COPY from cdata. */
static void const_bytes(const mv_step *s, uint8_t *buf) {
  for (int i = 0; i < s->ncdata; i++) {
    if (s->cdtype == DT_INT64) {
      memcpy(buf + 8 * i, &s->cdata[i], 8);
    } else {
      int32_t v = (int32_t)s->cdata[i];
      memcpy(buf + 4 * i, &v, 4);
    }
  }
}

static void rb_params(mv_step *s) {
  int oh = s->rb.out_h, ow = s->rb.out_w;
  s->rb.y0 = s->rb_i;
  s->rb.y1 = s->rb_i + oh;
  s->rb.wy = s->rb_i + 2 * oh;
  s->rb.x0 = s->rb_i + 3 * oh;
  s->rb.x1 = s->rb_i + 3 * oh + ow;
  s->rb.wx = s->rb_i + 3 * oh + 2 * ow;
  s->rb.fy = s->rb_f;
  s->rb.fx = s->rb_f + oh;
}

static int plan_eval(mv_plan *p, void *const *data) {
  for (int i = 0; i < p->n; i++) {
    mv_step *s = &p->s[i];
    int32_t st = AOT_KERNEL_OK;
    void *out = data[s->out_t];
    switch (s->kind) {
      case ST_COPY: {
        aot_copy_params cp;
        int32_t cnt[MV_MAXD], is[MV_MAXD], os[MV_MAXD];
        uint8_t buf[8 * IR_MAX_RANK + 8];
        copy_params(s, &cp, cnt, is, os);
        const void *in = data[s->in_t >= 0 ? s->in_t : 0];
        if (s->in_t < 0) {
          const_bytes(s, buf);
          in = buf;
        }
        st = aot_copy_nd(&cp, in, out);
        break;
      }
      case ST_FILL: {
        aot_fill_params fp = {s->fill_count, s->esize};
        st = aot_fill(&fp, s->aux_t >= 0 ? data[s->aux_t] : (const void *)s->value, out);
        break;
      }
      case ST_REQUANT:
        if (s->dtype == DT_INT8)
          st = aot_requant_rows_s8(&s->rq, data[s->in_t], out);
        else if (s->dtype == DT_UINT8)
          st = aot_requant_rows_u8(&s->rq, data[s->in_t], out);
        else
          st = aot_requant_rows_s16(&s->rq, data[s->in_t], out);
        break;
      case ST_INDEX_MAP: {
        aot_index_map_params ip = {s->c.rank, s->esize, s->inner_contiguous, s->c.count, s->map};
        st = aot_index_map(&ip, data[s->in_t], out);
        break;
      }
      case ST_GATHER:
        st = aot_gather(&s->gp, data[s->in_t], data[s->aux_t], out);
        break;
      case ST_DYN_COPY: {
        aot_copy_dyn_params dp;
        int32_t cnt[MV_MAXD], is[MV_MAXD], os[MV_MAXD];
        copy_params(s, &dp.copy, cnt, is, os);
        dp.nbegin = s->nbeg;
        dp.begin_is_64 = s->begin_is_64;
        dp.on_output = s->on_output;
        dp.clamp = s->clamp;
        dp.wrap = s->dwrap;
        dp.lo = s->dlo;
        dp.hi = s->dhi;
        dp.stride = s->dstride;
        st = aot_copy_nd_dyn(&dp, data[s->aux_t], data[s->in_t], out);
        break;
      }
      case ST_CAST:
        st = aot_cast(&s->cp, data[s->in_t], out);
        break;
      case ST_RESIZE_BL:
        rb_params(s);
        if (s->dtype == DT_FLOAT32)
          st = aot_resize_bilinear_f32(&s->rb, data[s->in_t], out);
        else if (s->dtype == DT_INT8)
          st = aot_resize_bilinear_s8(&s->rb, data[s->in_t], out);
        else
          st = aot_resize_bilinear_s16(&s->rb, data[s->in_t], out);
        break;
      default:
        return AOT_KERNEL_BAD_PARAM;
    }
    if (st != AOT_KERNEL_OK) return st;
  }
  return 0;
}

static const char *sfx(char *buf, size_t n, int step, const char *what) {
  snprintf(buf, n, "s%d_%s", step, what);
  return buf;
}

static void plan_emit(emit_ctx *e, mv_plan *p) {
  const char *op = emit_opname(e);
  char b[64];
  for (int i = 0; i < p->n; i++) {
    mv_step *s = &p->s[i];
    const char *out = emit_ptr(e, s->out_t);
    switch (s->kind) {
      case ST_COPY: {
        aot_copy_params cp;
        int32_t cnt[MV_MAXD], is[MV_MAXD], os[MV_MAXD];
        copy_params(s, &cp, cnt, is, os);
        if (cnt[0] == 0 && cp.rank == 1) break;
        const char *in;
        if (s->in_t >= 0) {
          in = emit_ptr(e, s->in_t);
        } else if (s->cdtype == DT_INT64) {
          in = emit_array_i64(e, sfx(b, sizeof b, i, "src"), s->cdata, (size_t)s->ncdata);
        } else {
          int32_t v[IR_MAX_RANK];
          for (int k = 0; k < s->ncdata; k++) v[k] = (int32_t)s->cdata[k];
          in = emit_array_i32(e, sfx(b, sizeof b, i, "src"), v, (size_t)s->ncdata);
        }
        const char *ac = emit_array_i32(e, sfx(b, sizeof b, i, "count"), cnt, (size_t)cp.rank);
        const char *ai = emit_array_i32(e, sfx(b, sizeof b, i, "in_stride"), is, (size_t)cp.rank);
        const char *ao = emit_array_i32(e, sfx(b, sizeof b, i, "out_stride"), os, (size_t)cp.rank);
        emit_decl(e,
                  "static const aot_copy_params %s_s%d = {\n"
                  "  .rank = %d,\n  .elem_size = %d,\n  .in_offset = %ld,\n  .out_offset = %ld,\n"
                  "  .count = %s,\n  .in_stride = %s,\n  .out_stride = %s\n};",
                  op, i, (int)cp.rank, (int)cp.elem_size, (long)cp.in_offset, (long)cp.out_offset,
                  ac, ai, ao);
        emit_call(e, "aot_copy_nd(&%s_s%d, %s, %s)", op, i, in, out);
        emit_kernel(e, "MovementFunctions/aot_copy_nd.c");
        break;
      }
      case ST_FILL: {
        if (s->fill_count == 0) break;
        const char *val;
        if (s->aux_t >= 0) {
          val = emit_ptr(e, s->aux_t);
        } else {
          val = emit_array_i8(e, sfx(b, sizeof b, i, "value"), (const int8_t *)s->value,
                              (size_t)s->esize);
        }
        emit_decl(e, "static const aot_fill_params %s_s%d = {\n  .count = %ld,\n  .elem_size = %d\n};",
                  op, i, (long)s->fill_count, s->esize);
        emit_call(e, "aot_fill(&%s_s%d, %s, %s)", op, i, val, out);
        emit_kernel(e, "MovementFunctions/aot_fill.c");
        break;
      }
      case ST_REQUANT: {
        const char *k = s->dtype == DT_INT8 ? "s8" : (s->dtype == DT_UINT8 ? "u8" : "s16");
        emit_decl(e,
                  "static const aot_requant_rows_params %s_s%d = {\n"
                  "  .rows = %ld,\n  .len = %ld,\n  .out_offset = %ld,\n  .out_row_stride = %ld,\n"
                  "  .scale = %s,\n  .bias = %s,\n  .out_zp = %ld\n};",
                  op, i, (long)s->rq.rows, (long)s->rq.len, (long)s->rq.out_offset,
                  (long)s->rq.out_row_stride, emit_float(e, s->rq.scale), emit_float(e, s->rq.bias),
                  (long)s->rq.out_zp);
        emit_call(e, "aot_requant_rows_%s(&%s_s%d, %s, %s)", k, op, i, emit_ptr(e, s->in_t), out);
        snprintf(b, sizeof b, "MovementFunctions/aot_requant_rows_%s.c", k);
        emit_kernel(e, b);
        break;
      }
      case ST_INDEX_MAP: {
        const char *ac = emit_array_i32(e, sfx(b, sizeof b, i, "count"), s->c.count, (size_t)s->c.rank);
        const char *am = emit_array_i32(e, sfx(b, sizeof b, i, "map"), s->map, (size_t)s->nmap);
        emit_decl(e,
                  "static const aot_index_map_params %s_s%d = {\n"
                  "  .rank = %d,\n  .elem_size = %d,\n  .inner_contiguous = %d,\n"
                  "  .count = %s,\n  .map = %s\n};",
                  op, i, s->c.rank, s->esize, s->inner_contiguous, ac, am);
        emit_call(e, "aot_index_map(&%s_s%d, %s, %s)", op, i, emit_ptr(e, s->in_t), out);
        emit_kernel(e, "MovementFunctions/aot_index_map.c");
        break;
      }
      case ST_GATHER:
        emit_decl(e,
                  "static const aot_gather_params %s_s%d = {\n"
                  "  .batch = %ld,\n  .outer = %ld,\n  .axis_size = %ld,\n  .inner = %ld,\n"
                  "  .coords = %ld,\n  .elem_size = %ld,\n  .index_is_64 = %ld\n};",
                  op, i, (long)s->gp.batch, (long)s->gp.outer, (long)s->gp.axis_size,
                  (long)s->gp.inner, (long)s->gp.coords, (long)s->gp.elem_size,
                  (long)s->gp.index_is_64);
        emit_call(e, "aot_gather(&%s_s%d, %s, %s, %s)", op, i, emit_ptr(e, s->in_t),
                  emit_ptr(e, s->aux_t), out);
        emit_kernel(e, "MovementFunctions/aot_gather.c");
        break;
      case ST_DYN_COPY: {
        aot_copy_params cp;
        int32_t cnt[MV_MAXD], is[MV_MAXD], os[MV_MAXD];
        copy_params(s, &cp, cnt, is, os);
        const char *ac = emit_array_i32(e, sfx(b, sizeof b, i, "count"), cnt, (size_t)cp.rank);
        const char *ai = emit_array_i32(e, sfx(b, sizeof b, i, "in_stride"), is, (size_t)cp.rank);
        const char *ao = emit_array_i32(e, sfx(b, sizeof b, i, "out_stride"), os, (size_t)cp.rank);
        const char *aw = emit_array_i32(e, sfx(b, sizeof b, i, "wrap"), s->dwrap, (size_t)s->nbeg);
        const char *al = emit_array_i32(e, sfx(b, sizeof b, i, "lo"), s->dlo, (size_t)s->nbeg);
        const char *ah = emit_array_i32(e, sfx(b, sizeof b, i, "hi"), s->dhi, (size_t)s->nbeg);
        const char *as = emit_array_i32(e, sfx(b, sizeof b, i, "begin_stride"), s->dstride,
                                        (size_t)s->nbeg);
        emit_decl(e,
                  "static const aot_copy_dyn_params %s_s%d = {\n"
                  "  .copy = {\n    .rank = %d,\n    .elem_size = %d,\n    .in_offset = %ld,\n"
                  "    .out_offset = %ld,\n    .count = %s,\n    .in_stride = %s,\n"
                  "    .out_stride = %s\n  },\n"
                  "  .nbegin = %d,\n  .begin_is_64 = %d,\n  .on_output = %d,\n  .clamp = %d,\n"
                  "  .wrap = %s,\n  .lo = %s,\n  .hi = %s,\n  .stride = %s\n};",
                  op, i, (int)cp.rank, (int)cp.elem_size, (long)cp.in_offset, (long)cp.out_offset,
                  ac, ai, ao, s->nbeg, s->begin_is_64, s->on_output, s->clamp, aw, al, ah, as);
        emit_call(e, "aot_copy_nd_dyn(&%s_s%d, %s, %s, %s)", op, i, emit_ptr(e, s->aux_t),
                  emit_ptr(e, s->in_t), out);
        emit_kernel(e, "MovementFunctions/aot_copy_nd_dyn.c");
        break;
      }
      case ST_CAST:
        emit_decl(e,
                  "static const aot_cast_params %s_s%d = {\n"
                  "  .count = %ld,\n  .in_type = %ld,\n  .out_type = %ld\n};",
                  op, i, (long)s->cp.count, (long)s->cp.in_type, (long)s->cp.out_type);
        emit_call(e, "aot_cast(&%s_s%d, %s, %s)", op, i, emit_ptr(e, s->in_t), out);
        emit_kernel(e, "MovementFunctions/aot_cast.c");
        break;
      case ST_RESIZE_BL: {
        int oh = s->rb.out_h, ow = s->rb.out_w;
        const int32_t *ri = s->rb_i;
        const char *y0 = emit_array_i32(e, sfx(b, sizeof b, i, "y0"), ri, (size_t)oh);
        const char *y1 = emit_array_i32(e, sfx(b, sizeof b, i, "y1"), ri + oh, (size_t)oh);
        const char *x0 = emit_array_i32(e, sfx(b, sizeof b, i, "x0"), ri + 3 * oh, (size_t)ow);
        const char *x1 = emit_array_i32(e, sfx(b, sizeof b, i, "x1"), ri + 3 * oh + ow, (size_t)ow);
        const char *wy = "NULL", *wx = "NULL", *fy = "NULL", *fx = "NULL", *k;
        if (s->dtype == DT_FLOAT32) {
          fy = emit_array_f32(e, sfx(b, sizeof b, i, "fy"), s->rb_f, (size_t)oh);
          fx = emit_array_f32(e, sfx(b, sizeof b, i, "fx"), s->rb_f + oh, (size_t)ow);
          k = "f32";
        } else {
          wy = emit_array_i32(e, sfx(b, sizeof b, i, "wy"), ri + 2 * oh, (size_t)oh);
          wx = emit_array_i32(e, sfx(b, sizeof b, i, "wx"), ri + 3 * oh + 2 * ow, (size_t)ow);
          k = s->dtype == DT_INT8 ? "s8" : "s16";
        }
        emit_decl(e,
                  "static const aot_resize_bilinear_params %s_s%d = {\n"
                  "  .batches = %ld,\n  .in_h = %ld,\n  .in_w = %ld,\n  .out_h = %ld,\n"
                  "  .out_w = %ld,\n  .depth = %ld,\n  .y0 = %s,\n  .y1 = %s,\n  .x0 = %s,\n"
                  "  .x1 = %s,\n  .wy = %s,\n  .wx = %s,\n  .fy = %s,\n  .fx = %s\n};",
                  op, i, (long)s->rb.batches, (long)s->rb.in_h, (long)s->rb.in_w,
                  (long)s->rb.out_h, (long)s->rb.out_w, (long)s->rb.depth, y0, y1, x0, x1, wy,
                  wx, fy, fx);
        emit_call(e, "aot_resize_bilinear_%s(&%s_s%d, %s, %s)", k, op, i, emit_ptr(e, s->in_t),
                  out);
        snprintf(b, sizeof b, "MovementFunctions/aot_resize_bilinear_%s.c", k);
        emit_kernel(e, b);
        break;
      }
      default:
        break;
    }
  }
}

/* ---------------------------------------------------------------------- */
/* operator plans                                                          */

typedef int (*plan_fn)(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl);

#define IN(i) ir_in(g, op, (i))
#define OUT(i) ir_out(g, op, (i))

static int io_common(const ir_graph *g, const ir_op *op, char *why, size_t wl) {
  if (check_plain(IN(0), "input", why, wl)) return -1;
  if (check_plain(OUT(0), "output", why, wl)) return -1;
  return check_same_dtype(IN(0), OUT(0), why, wl);
}

/* RESHAPE / SQUEEZE / EXPAND_DIMS: a byte copy. */
static int plan_reshape(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (io_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  if (numel64(in) != numel64(out))
    return mv_fail(why, wl, "input has %lld elements, output %lld", (long long)numel64(in),
                   (long long)numel64(out));
  return add_flat_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), numel64(in), why, wl);
}

/* CONCATENATION */
static int plan_concat(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  const ir_tensor *out = OUT(0);
  if (check_plain(out, "output", why, wl)) return -1;
  if (op->nin < 1) return mv_fail(why, wl, "no inputs");
  if (op->opts.fused_act != ACT_NONE)
    return mv_fail(why, wl, "fused activation %d not supported", op->opts.fused_act);
  int rank = out->rank;
  int axis = op->opts.axis < 0 ? op->opts.axis + rank : op->opts.axis;
  if (axis < 0 || axis >= rank) return mv_fail(why, wl, "axis %d out of range", op->opts.axis);
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++) outer *= out->shape[d];
  for (int d = axis + 1; d < rank; d++) inner *= out->shape[d];
  int64_t total = 0;
  int quant = out->dtype == DT_INT8 || out->dtype == DT_UINT8 || out->dtype == DT_INT16;
  for (int i = 0; i < op->nin; i++) {
    const ir_tensor *in = IN(i);
    char what[32];
    snprintf(what, sizeof what, "input %d", i);
    if (check_plain(in, what, why, wl) || check_same_dtype(in, out, why, wl)) return -1;
    if (in->rank != rank) return mv_fail(why, wl, "input %d rank %d, output rank %d", i, in->rank, rank);
    for (int d = 0; d < rank; d++)
      if (d != axis && in->shape[d] != out->shape[d])
        return mv_fail(why, wl, "input %d dim %d is %d, output %d", i, d, in->shape[d], out->shape[d]);
    total += in->shape[axis];
  }
  if (total != out->shape[axis])
    return mv_fail(why, wl, "inputs sum to %lld along axis %d, output has %d", (long long)total,
                   axis, out->shape[axis]);
  int esize = (int)dtype_size(out->dtype);
  int64_t pos = 0;
  for (int i = 0; i < op->nin; i++) {
    const ir_tensor *in = IN(i);
    int64_t len = in->shape[axis] * inner;
    if (quant && !same_quant(in, out) && in->nq && out->nq) {
      if (in->nq != 1 || out->nq != 1)
        return mv_fail(why, wl, "input %d per-channel quantization differs from the output's", i);
      if (outer * total * inner > INT32_MAX) return mv_fail(why, wl, "tensor too large");
      mv_step *s = plan_add(p, ST_REQUANT);
      s->in_t = op->in[i];
      s->out_t = op->out[0];
      s->dtype = out->dtype;
      s->rq.rows = (int32_t)outer;
      s->rq.len = (int32_t)len;
      s->rq.out_offset = (int32_t)(pos * inner);
      s->rq.out_row_stride = (int32_t)(total * inner);
      /* ConcatenationWithScaling: scale = in_scale * (1 / out_scale) in float */
      float inv = 1.0f / out->scale[0];
      s->rq.scale = in->scale[0] * inv;
      s->rq.bias = -(float)in->zero_point[0] * s->rq.scale;
      s->rq.out_zp = out->zero_point[0];
    } else {
      mv_copy c;
      memset(&c, 0, sizeof c);
      c.rank = 2;
      c.count[0] = (int32_t)outer;
      c.count[1] = (int32_t)len;
      c.istr[0] = len;
      c.istr[1] = 1;
      c.ostr[0] = total * inner;
      c.ostr[1] = 1;
      c.out_off = pos * inner;
      if (add_copy(p, op->in[i], op->out[0], esize, &c, why, wl)) return -1;
    }
    pos += in->shape[axis];
  }
  return 0;
}

/* PAD / PADV2 */
static int plan_pad(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (io_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  int rank = in->rank;
  if (out->rank != rank) return mv_fail(why, wl, "output rank %d, input rank %d", out->rank, rank);
  int64_t pads[2 * IR_MAX_RANK];
  int np;
  if (mv_const_ints(g, op->nin > 1 ? op->in[1] : -1, "paddings", pads, 2 * IR_MAX_RANK, &np, why, wl))
    return -1;
  if (np != 2 * rank) return mv_fail(why, wl, "paddings has %d values, expected %d", np, 2 * rank);
  for (int d = 0; d < rank; d++) {
    if (pads[2 * d] < 0 || pads[2 * d + 1] < 0) return mv_fail(why, wl, "negative padding");
    if (in->shape[d] + pads[2 * d] + pads[2 * d + 1] != out->shape[d])
      return mv_fail(why, wl, "padded dim %d is %lld, output has %d", d,
                     (long long)(in->shape[d] + pads[2 * d] + pads[2 * d + 1]), out->shape[d]);
  }
  int esize = (int)dtype_size(in->dtype);
  int any = 0;
  for (int d = 0; d < 2 * rank; d++) any |= pads[d] != 0;
  if (any) {
    mv_step *f = add_fill(p, op->out[0], esize, numel64(out));
    const ir_tensor *cv = op->nin > 2 ? IN(2) : NULL;
    if (cv) {
      if (cv->dtype != out->dtype)
        return mv_fail(why, wl, "constant_values is %s, output %s", dtype_name(cv->dtype),
                       dtype_name(out->dtype));
      if (ir_numel(cv) != 1) return mv_fail(why, wl, "constant_values must have one element");
      if (cv->role == ROLE_CONST && cv->data && cv->data_bytes >= (size_t)esize)
        memcpy(f->value, cv->data, (size_t)esize);
      else
        f->aux_t = op->in[2];
    } else if (out->dtype == DT_INT8 || out->dtype == DT_UINT8 || out->dtype == DT_INT16) {
      /* quantized PAD pads with the output zero point */
      int32_t zp = out->nq ? out->zero_point[0] : 0;
      if (out->dtype == DT_INT16) {
        int16_t v = (int16_t)zp;
        memcpy(f->value, &v, 2);
      } else {
        f->value[0] = (uint8_t)zp;
      }
    }
  }
  mv_copy c;
  memset(&c, 0, sizeof c);
  int64_t ostr[IR_MAX_RANK], istr[IR_MAX_RANK];
  mv_strides(out->shape, rank, ostr);
  mv_strides(in->shape, rank, istr);
  c.rank = rank;
  for (int d = 0; d < rank; d++) {
    c.count[d] = in->shape[d];
    c.istr[d] = istr[d];
    c.ostr[d] = ostr[d];
    c.out_off += pads[2 * d] * ostr[d];
  }
  return add_copy(p, op->in[0], op->out[0], esize, &c, why, wl);
}

/* MIRROR_PAD */
static int plan_mirror_pad(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (io_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  int rank = in->rank;
  if (rank < 1 || rank > AOT_MV_MAX_DIMS) return mv_fail(why, wl, "rank %d not supported", rank);
  if (out->rank != rank) return mv_fail(why, wl, "output rank %d, input rank %d", out->rank, rank);
  int64_t pads[2 * IR_MAX_RANK];
  int np;
  if (mv_const_ints(g, op->nin > 1 ? op->in[1] : -1, "paddings", pads, 2 * IR_MAX_RANK, &np, why, wl))
    return -1;
  if (np != 2 * rank) return mv_fail(why, wl, "paddings has %d values, expected %d", np, 2 * rank);
  int mode = op->opts.mirror_mode; /* 0 REFLECT, 1 SYMMETRIC */
  if (mode != 0 && mode != 1) return mv_fail(why, wl, "mirror pad mode %d not supported", mode);
  int offset = mode == 0 ? 1 : 0;
  int64_t istr[IR_MAX_RANK];
  mv_strides(in->shape, rank, istr);
  int64_t nmap = 0;
  for (int d = 0; d < rank; d++) {
    int64_t l = pads[2 * d], r = pads[2 * d + 1];
    if (l < 0 || r < 0) return mv_fail(why, wl, "negative padding");
    if (l > in->shape[d] - offset || r > in->shape[d] - offset)
      return mv_fail(why, wl, "padding %lld/%lld too large for dim %d of size %d", (long long)l,
                     (long long)r, d, in->shape[d]);
    if (in->shape[d] + l + r != out->shape[d])
      return mv_fail(why, wl, "padded dim %d does not match the output", d);
    nmap += out->shape[d];
  }
  if (numel64(out) == 0) return 0;
  mv_step *s = plan_add(p, ST_INDEX_MAP);
  s->in_t = op->in[0];
  s->out_t = op->out[0];
  s->esize = (int)dtype_size(in->dtype);
  s->c.rank = rank;
  s->nmap = (int)nmap;
  s->map = xcalloc((size_t)nmap + 1, sizeof(int32_t));
  int k = 0;
  for (int d = 0; d < rank; d++) {
    int left = (int)pads[2 * d], size = in->shape[d];
    s->c.count[d] = out->shape[d];
    for (int o = 0; o < out->shape[d]; o++) {
      int v = o, src;
      if (v < left) {
        int orig = left + offset - 1;
        int m = v < orig - offset ? v : orig - offset;
        src = orig - m;
      } else {
        v -= left;
        if (v >= size) {
          v -= size;
          int orig = size - (1 + offset);
          src = orig - (v < orig ? v : orig);
        } else {
          src = v;
        }
      }
      s->map[k++] = (int32_t)(src * istr[d]);
    }
  }
  s->inner_contiguous = pads[2 * (rank - 1)] == 0 && pads[2 * (rank - 1) + 1] == 0;
  return 0;
}

/* A begin / start-indices tensor read at run time: int32 or int64 with n
 * values. */
static int check_dyn_begin(const ir_graph *g, int tid, int n, const char *what, char *why,
                           size_t wl) {
  if (tid < 0 || tid >= g->nt) return mv_fail(why, wl, "%s is missing", what);
  const ir_tensor *t = &g->t[tid];
  if (t->dtype != DT_INT32 && t->dtype != DT_INT64)
    return mv_fail(why, wl, "%s is %s, expected int32 or int64", what, dtype_name(t->dtype));
  if (t->rank > 1) return mv_fail(why, wl, "%s must be a vector", what);
  for (int d = 0; d < t->rank; d++)
    if (t->shape[d] < 0) return mv_fail(why, wl, "%s has a dynamic shape", what);
  if ((int64_t)ir_numel(t) != n)
    return mv_fail(why, wl, "%s has %zu values, expected %d", what, ir_numel(t), n);
  if (n > AOT_MV_MAX_DIMS) return mv_fail(why, wl, "%s has too many values", what);
  return 0;
}

static int is_runtime(const ir_graph *g, int tid) {
  return tid >= 0 && tid < g->nt && g->t[tid].role != ROLE_CONST;
}

/* Checks the sliced shape oshape[0..orank) against the output (the same
 * dimensions, or at least the same number of elements) and sets the output
 * strides of c: row-major over c->count. */
static int slice_out_strides(mv_copy *c, const int32_t *oshape, int orank, const ir_tensor *out,
                             char *why, size_t wl) {
  int ok = orank == out->rank;
  for (int i = 0; ok && i < orank; i++) ok = oshape[i] == out->shape[i];
  if (!ok) {
    int64_t n = 1;
    for (int i = 0; i < orank; i++) n *= oshape[i];
    if (n != numel64(out))
      return mv_fail(why, wl, "slice has %lld elements, output %lld", (long long)n,
                     (long long)numel64(out));
  }
  int64_t s = 1;
  for (int i = c->rank - 1; i >= 0; i--) {
    c->ostr[i] = s;
    s *= c->count[i];
  }
  return 0;
}

/* STRIDED_SLICE whose begin is computed at run time: a dimension sliced from
 * a run-time begin must keep a static length (shrink_axis_mask: one element;
 * offset: end is the constant length); begin_mask dimensions and dimensions
 * past the begin vector are static. The kernel wraps a negative begin once
 * and fails the run when the slice would leave the input. */
static int plan_strided_slice_dyn(const ir_graph *g, const ir_op *op, mv_plan *p, char *why,
                                  size_t wl) {
  const ir_tensor *in = IN(0), *out = OUT(0);
  if (op->opts.ellipsis_mask || op->opts.new_axis_mask)
    return mv_fail(why, wl, "ellipsis_mask / new_axis_mask with a run-time begin not supported");
  int rank = in->rank;
  const ir_tensor *bt = IN(1);
  int nb = bt ? (int)ir_numel(bt) : 0;
  if (nb > rank) return mv_fail(why, wl, "begin has %d values for a rank-%d input", nb, rank);
  if (check_dyn_begin(g, op->in[1], nb, "begin", why, wl)) return -1;
  int64_t ev[IR_MAX_RANK], sv[IR_MAX_RANK];
  int ne = 0, ns;
  if (mv_const_ints(g, op->nin > 3 ? op->in[3] : -1, "strides", sv, IR_MAX_RANK, &ns, why, wl))
    return -1;
  if (ns != nb) return mv_fail(why, wl, "begin/end/strides lengths differ");
  int end_const = op->nin > 2 && !is_runtime(g, op->in[2]);
  if (end_const) {
    if (mv_const_ints(g, op->in[2], "end", ev, IR_MAX_RANK, &ne, why, wl)) return -1;
    if (ne != nb) return mv_fail(why, wl, "begin/end/strides lengths differ");
  }
  const uint32_t bm = (uint32_t)op->opts.begin_mask, em = (uint32_t)op->opts.end_mask;
  const uint32_t sm = (uint32_t)op->opts.shrink_axis_mask;
  int64_t istr[IR_MAX_RANK];
  mv_strides(in->shape, rank, istr);
  mv_copy c;
  memset(&c, 0, sizeof c);
  c.rank = rank;
  int32_t wrap[IR_MAX_RANK], lo[IR_MAX_RANK], hi[IR_MAX_RANK], bstr[IR_MAX_RANK];
  int32_t oshape[IR_MAX_RANK];
  int orank = 0;
  for (int d = 0; d < rank; d++) {
    int64_t dim = in->shape[d], cnt;
    if (d < nb) {
      wrap[d] = 0;
      lo[d] = INT32_MIN;
      hi[d] = INT32_MAX;
      bstr[d] = 0;
    }
    if (d >= nb) {
      cnt = dim;
      c.istr[d] = istr[d];
    } else {
      int64_t st = sv[d];
      if (st == 0) return mv_fail(why, wl, "stride is zero");
      if (st > INT32_MAX || st < -INT32_MAX) return mv_fail(why, wl, "stride out of range");
      int shrink = (sm >> d) & 1u;
      if ((bm >> d) & 1u) {
        /* static start */
        int64_t start = st > 0 ? 0 : dim - 1, stop;
        if (shrink) {
          stop = start + 1;
        } else if ((em >> d) & 1u) {
          stop = st > 0 ? dim : -1;
        } else if (end_const) {
          stop = op->opts.ss_offset ? start + ev[d] : (ev[d] < 0 ? ev[d] + dim : ev[d]);
          if (st > 0) stop = stop < 0 ? 0 : (stop > dim ? dim : stop);
          else stop = stop < -1 ? -1 : (stop > dim - 1 ? dim - 1 : stop);
        } else {
          return mv_fail(why, wl, "end must be a constant tensor");
        }
        if (shrink) cnt = dim > 0 ? 1 : 0;
        else if (st > 0) cnt = stop > start ? (stop - start + st - 1) / st : 0;
        else cnt = start > stop ? (start - stop + (-st) - 1) / (-st) : 0;
        if (cnt > 0) c.in_off += start * istr[d];
      } else if (shrink) {
        /* one element at a run-time index in [-dim, dim) */
        if (dim < 1) return mv_fail(why, wl, "shrink of an empty dimension");
        cnt = 1;
        wrap[d] = (int32_t)dim;
        lo[d] = 0;
        hi[d] = (int32_t)(dim - 1);
        bstr[d] = (int32_t)istr[d];
      } else if (op->opts.ss_offset && !((em >> d) & 1u) && end_const && st > 0) {
        /* [begin, begin + end) with a static length */
        int64_t len = ev[d];
        if (len < 0 || len > dim)
          return mv_fail(why, wl, "slice length %lld out of range for dim %d of size %lld",
                         (long long)len, d, (long long)dim);
        cnt = (len + st - 1) / st;
        wrap[d] = (int32_t)dim;
        lo[d] = 0;
        hi[d] = (int32_t)(dim - len);
        bstr[d] = (int32_t)istr[d];
      } else {
        return mv_fail(why, wl,
                       "begin must be a constant tensor (a run-time begin needs shrink_axis_mask "
                       "or offset with a constant end in dim %d)", d);
      }
      c.istr[d] = istr[d] * st;
      if (shrink) {
        c.count[d] = (int32_t)cnt;
        continue;
      }
    }
    c.count[d] = (int32_t)cnt;
    oshape[orank++] = (int32_t)cnt;
  }
  if (slice_out_strides(&c, oshape, orank, out, why, wl)) return -1;
  mv_step *s = add_dyn_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, op->in[1],
                            nb, why, wl);
  if (!s) return -1;
  s->begin_is_64 = bt->dtype == DT_INT64;
  for (int d = 0; d < nb; d++) {
    s->dwrap[d] = wrap[d];
    s->dlo[d] = lo[d];
    s->dhi[d] = hi[d];
    s->dstride[d] = bstr[d];
  }
  return 0;
}

/* Computes the strided slice along effective dims (LiteRT semantics incl.
 * ellipsis and new_axis masks, shrink_axis, offset). */
static int plan_strided_slice(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (io_common(g, op, why, wl)) return -1;
  if (op->nin > 1 && is_runtime(g, op->in[1])) return plan_strided_slice_dyn(g, op, p, why, wl);
  const ir_tensor *in = IN(0), *out = OUT(0);
  int64_t bv[32], ev[32], sv[32];
  int nb, ne, ns;
  if (mv_const_ints(g, op->nin > 1 ? op->in[1] : -1, "begin", bv, 32, &nb, why, wl)) return -1;
  if (mv_const_ints(g, op->nin > 2 ? op->in[2] : -1, "end", ev, 32, &ne, why, wl)) return -1;
  if (mv_const_ints(g, op->nin > 3 ? op->in[3] : -1, "strides", sv, 32, &ns, why, wl)) return -1;
  if (nb != ne || nb != ns) return mv_fail(why, wl, "begin/end/strides lengths differ");
  const uint32_t ellipsis = (uint32_t)op->opts.ellipsis_mask, new_axis = (uint32_t)op->opts.new_axis_mask;
  const int offset = op->opts.ss_offset;
  const int in_dims = in->rank;
  int num_add_axis = 0;
  for (int i = 0; i < nb; i++)
    if (!((1u << i) & ellipsis) && ((1u << i) & new_axis)) num_add_axis++;
  const int eff = in_dims + num_add_axis;
  if (eff > MV_MAXD) return mv_fail(why, wl, "too many dimensions");
  int32_t start_i[MV_MAXD], stop_i[MV_MAXD], stride_i[MV_MAXD], shape[MV_MAXD];
  uint32_t bm = 0, em = 0, sm = 0;
  for (int i = 0; i < eff; i++) {
    start_i[i] = 0;
    stop_i[i] = 0;
    stride_i[i] = 1;
  }
  uint32_t eff_ellipsis = 0, eff_new_axis = 0;
  int ellipsis_start = eff, expanded = 0;
  for (int i = 0; i < eff;) {
    if ((1u << i) & ellipsis) {
      ellipsis_start = i;
      int end_idx = i + 1 + num_add_axis + in_dims - nb;
      if (end_idx > eff) end_idx = eff;
      if (end_idx < i + 1) end_idx = i + 1;
      expanded = end_idx - ellipsis_start - 1;
      for (; i < end_idx; ++i) eff_ellipsis |= 1u << i;
      continue;
    }
    if ((1u << (i - expanded)) & new_axis) eff_new_axis |= 1u << i;
    ++i;
  }
  int added_ellipsis = 0, added_axes = 0;
  for (int i = 0; i < eff; i++) {
    if ((1u << i) & eff_ellipsis) {
      added_ellipsis = i - ellipsis_start > 0 ? i - ellipsis_start : 0;
      bm |= 1u << i;
      em |= 1u << i;
      if (i - added_axes >= in_dims) return mv_fail(why, wl, "masks do not match the input rank");
      shape[i] = in->shape[i - added_axes];
    } else if ((1u << i) & eff_new_axis) {
      start_i[i] = 0;
      stop_i[i] = 1;
      shape[i] = 1;
      added_axes++;
    } else if (i >= nb + expanded) {
      bm |= 1u << i;
      em |= 1u << i;
      if (i - added_axes >= in_dims) return mv_fail(why, wl, "masks do not match the input rank");
      shape[i] = in->shape[i - added_axes];
    } else {
      int orig = i - added_ellipsis;
      start_i[i] = (int32_t)bv[orig];
      stop_i[i] = (int32_t)ev[orig];
      stride_i[i] = (int32_t)sv[orig];
      if ((uint32_t)op->opts.begin_mask & (1u << orig)) bm |= 1u << i;
      if ((uint32_t)op->opts.end_mask & (1u << orig)) em |= 1u << i;
      if ((uint32_t)op->opts.shrink_axis_mask & (1u << orig)) sm |= 1u << i;
      if (i - added_axes >= in_dims) return mv_fail(why, wl, "masks do not match the input rank");
      shape[i] = in->shape[i - added_axes];
    }
  }
  /* iteration */
  int64_t istr_eff[MV_MAXD];
  {
    int64_t s = 1;
    for (int i = eff - 1; i >= 0; i--) {
      istr_eff[i] = s;
      s *= shape[i];
    }
  }
  mv_copy c;
  memset(&c, 0, sizeof c);
  c.rank = eff;
  int32_t oshape[MV_MAXD];
  int orank = 0;
  for (int i = 0; i < eff; i++) {
    int size = shape[i], stride = stride_i[i];
    if (stride == 0) return mv_fail(why, wl, "stride is zero");
    if (stride == INT32_MIN) return mv_fail(why, wl, "stride INT32_MIN not supported");
    /* StartForAxis */
    int64_t start = start_i[i];
    if (start < 0) start += size;
    if (stride > 0)
      start = start < 0 ? 0 : (start > size ? size : start);
    else
      start = start < -1 ? -1 : (start > size - 1 ? size - 1 : start);
    if (bm & (1u << i)) start = stride > 0 ? 0 : size - 1;
    /* EndForAxis */
    int64_t stop;
    if (sm & (1u << i)) {
      stop = start >= size ? start : start + 1;
    } else {
      stop = stop_i[i];
      if (offset) stop += start;
      if (stop < 0) stop += size;
      if (stride > 0)
        stop = stop < 0 ? 0 : (stop > size ? size : stop);
      else
        stop = stop < -1 ? -1 : (stop > size - 1 ? size - 1 : stop);
      if (em & (1u << i)) stop = stride > 0 ? size : -1;
    }
    int64_t cnt;
    if (stride > 0)
      cnt = stop > start ? (stop - start + stride - 1) / stride : 0;
    else
      cnt = start > stop ? (start - stop + (-(int64_t)stride) - 1) / (-(int64_t)stride) : 0;
    c.count[i] = (int32_t)cnt;
    c.istr[i] = istr_eff[i] * stride;
    if (cnt > 0) c.in_off += start * istr_eff[i];
    if (!(sm & (1u << i))) oshape[orank++] = (int32_t)cnt;
  }
  if (slice_out_strides(&c, oshape, orank, out, why, wl)) return -1;
  return add_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, why, wl);
}

/* SLICE with a begin computed at run time (constant size): the kernel fails
 * the run when begin leaves the input. A size of -1 ("to the end") fixes
 * begin to input dim - output dim. */
static int plan_slice_dyn(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  const ir_tensor *in = IN(0), *out = OUT(0);
  int rank = in->rank;
  int64_t sv[IR_MAX_RANK];
  int ns;
  if (check_dyn_begin(g, op->in[1], rank, "begin", why, wl)) return -1;
  if (mv_const_ints(g, op->nin > 2 ? op->in[2] : -1, "size", sv, IR_MAX_RANK, &ns, why, wl)) return -1;
  if (ns != rank) return mv_fail(why, wl, "begin/size must have %d values", rank);
  if (out->rank != rank) return mv_fail(why, wl, "output rank %d, input rank %d", out->rank, rank);
  int64_t istr[IR_MAX_RANK];
  mv_strides(in->shape, rank, istr);
  mv_copy c;
  memset(&c, 0, sizeof c);
  c.rank = rank;
  int32_t lo[IR_MAX_RANK], hi[IR_MAX_RANK];
  int64_t os = 1;
  for (int d = rank - 1; d >= 0; d--) {
    int64_t n = sv[d] == -1 ? out->shape[d] : sv[d];
    if (n < 0 || n > in->shape[d])
      return mv_fail(why, wl, "slice size %lld out of range for dim %d of size %d",
                     (long long)sv[d], d, in->shape[d]);
    if (n != out->shape[d]) return mv_fail(why, wl, "slice size %lld != output dim %d", (long long)n, out->shape[d]);
    hi[d] = (int32_t)(in->shape[d] - n);
    lo[d] = sv[d] == -1 ? hi[d] : 0;
    c.count[d] = (int32_t)n;
    c.istr[d] = istr[d];
    c.ostr[d] = os;
    os *= n;
  }
  mv_step *s = add_dyn_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, op->in[1],
                            rank, why, wl);
  if (!s) return -1;
  s->begin_is_64 = g->t[op->in[1]].dtype == DT_INT64;
  for (int d = 0; d < rank; d++) {
    s->dwrap[d] = 0;
    s->dlo[d] = lo[d];
    s->dhi[d] = hi[d];
    s->dstride[d] = (int32_t)istr[d];
  }
  return 0;
}

/* SLICE */
static int plan_slice(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (io_common(g, op, why, wl)) return -1;
  if (op->nin > 1 && is_runtime(g, op->in[1])) return plan_slice_dyn(g, op, p, why, wl);
  const ir_tensor *in = IN(0), *out = OUT(0);
  int rank = in->rank;
  int64_t bv[IR_MAX_RANK], sv[IR_MAX_RANK];
  int nb, ns;
  if (mv_const_ints(g, op->nin > 1 ? op->in[1] : -1, "begin", bv, IR_MAX_RANK, &nb, why, wl)) return -1;
  if (mv_const_ints(g, op->nin > 2 ? op->in[2] : -1, "size", sv, IR_MAX_RANK, &ns, why, wl)) return -1;
  if (nb != rank || ns != rank) return mv_fail(why, wl, "begin/size must have %d values", rank);
  if (out->rank != rank) return mv_fail(why, wl, "output rank %d, input rank %d", out->rank, rank);
  int64_t istr[IR_MAX_RANK];
  mv_strides(in->shape, rank, istr);
  mv_copy c;
  memset(&c, 0, sizeof c);
  c.rank = rank;
  int64_t os = 1;
  for (int d = rank - 1; d >= 0; d--) {
    int64_t b = bv[d], n = sv[d];
    if (n == -1) n = in->shape[d] - b;
    if (b < 0 || n < 0 || b + n > in->shape[d])
      return mv_fail(why, wl, "slice [%lld, +%lld) out of range for dim %d of size %d",
                     (long long)b, (long long)sv[d], d, in->shape[d]);
    if (n != out->shape[d]) return mv_fail(why, wl, "slice size %lld != output dim %d", (long long)n, out->shape[d]);
    c.count[d] = (int32_t)n;
    c.istr[d] = istr[d];
    c.ostr[d] = os;
    os *= n;
    c.in_off += b * istr[d];
  }
  return add_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, why, wl);
}

/* TRANSPOSE */
static int plan_transpose(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (io_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  int rank = in->rank;
  int64_t perm[IR_MAX_RANK];
  int np;
  if (mv_const_ints(g, op->nin > 1 ? op->in[1] : -1, "perm", perm, IR_MAX_RANK, &np, why, wl)) return -1;
  if (np != rank) return mv_fail(why, wl, "perm has %d values, input rank %d", np, rank);
  if (out->rank != rank) return mv_fail(why, wl, "output rank %d, input rank %d", out->rank, rank);
  int seen[IR_MAX_RANK] = {0};
  int64_t istr[IR_MAX_RANK], ostr[IR_MAX_RANK];
  mv_strides(in->shape, rank, istr);
  mv_strides(out->shape, rank, ostr);
  mv_copy c;
  memset(&c, 0, sizeof c);
  c.rank = rank;
  for (int d = 0; d < rank; d++) {
    int64_t a = perm[d] < 0 ? perm[d] + rank : perm[d];
    if (a < 0 || a >= rank || seen[a]) return mv_fail(why, wl, "perm is not a permutation");
    seen[a] = 1;
    if (in->shape[a] != out->shape[d]) return mv_fail(why, wl, "output dim %d does not match perm", d);
    c.count[d] = out->shape[d];
    c.istr[d] = istr[a];
    c.ostr[d] = ostr[d];
  }
  return add_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, why, wl);
}

/* REVERSE_V2 */
static int plan_reverse(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (io_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  int rank = in->rank;
  int64_t axes[IR_MAX_RANK];
  int na;
  if (mv_const_ints(g, op->nin > 1 ? op->in[1] : -1, "axis", axes, IR_MAX_RANK, &na, why, wl)) return -1;
  if (numel64(in) != numel64(out) || out->rank != rank)
    return mv_fail(why, wl, "output shape differs from input");
  int rev[IR_MAX_RANK] = {0};
  for (int i = 0; i < na; i++) {
    int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (a < 0 || a >= rank) return mv_fail(why, wl, "axis %lld out of range", (long long)axes[i]);
    rev[a] = 1;
  }
  int64_t istr[IR_MAX_RANK];
  mv_strides(in->shape, rank, istr);
  mv_copy c;
  memset(&c, 0, sizeof c);
  c.rank = rank;
  for (int d = 0; d < rank; d++) {
    c.count[d] = in->shape[d];
    c.ostr[d] = istr[d];
    if (rev[d] && in->shape[d] > 0) {
      c.istr[d] = -istr[d];
      c.in_off += (int64_t)(in->shape[d] - 1) * istr[d];
    } else {
      c.istr[d] = istr[d];
    }
  }
  return add_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, why, wl);
}

/* Copies a block [outer, len] of tensor in_t (contiguous) into/out of a
 * tensor viewed as [outer, total] at column offset pos. */
static int add_block(mv_plan *p, int in_t, int out_t, int esize, int64_t outer, int64_t len,
                     int64_t total, int64_t pos, int into_out, char *why, size_t wl) {
  mv_copy c;
  memset(&c, 0, sizeof c);
  c.rank = 2;
  c.count[0] = (int32_t)outer;
  c.count[1] = (int32_t)len;
  if (into_out) {
    c.istr[0] = len;
    c.ostr[0] = total;
    c.out_off = pos;
  } else {
    c.istr[0] = total;
    c.ostr[0] = len;
    c.in_off = pos;
  }
  c.istr[1] = c.ostr[1] = 1;
  return add_copy(p, in_t, out_t, esize, &c, why, wl);
}

/* SPLIT (inputs: axis, input) and SPLIT_V (input, size_splits, axis) */
static int plan_split_common(const ir_graph *g, const ir_op *op, mv_plan *p, int in_idx,
                             int axis_idx, char *why, size_t wl) {
  const ir_tensor *in = IN(in_idx);
  if (check_plain(in, "input", why, wl)) return -1;
  int64_t av[1];
  int na;
  if (mv_const_ints(g, axis_idx < op->nin ? op->in[axis_idx] : -1, "axis", av, 1, &na, why, wl))
    return -1;
  if (na != 1) return mv_fail(why, wl, "axis must have one value");
  int rank = in->rank;
  int axis = (int)(av[0] < 0 ? av[0] + rank : av[0]);
  if (axis < 0 || axis >= rank) return mv_fail(why, wl, "axis %lld out of range", (long long)av[0]);
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++) outer *= in->shape[d];
  for (int d = axis + 1; d < rank; d++) inner *= in->shape[d];
  int64_t pos = 0;
  for (int i = 0; i < op->nout; i++) {
    const ir_tensor *out = OUT(i);
    if (!out) continue;
    if (check_plain(out, "output", why, wl) || check_same_dtype(in, out, why, wl)) return -1;
    if (out->rank != rank) return mv_fail(why, wl, "output %d rank differs from input", i);
    for (int d = 0; d < rank; d++)
      if (d != axis && out->shape[d] != in->shape[d])
        return mv_fail(why, wl, "output %d dim %d differs from input", i, d);
    pos += out->shape[axis];
  }
  if (pos != in->shape[axis])
    return mv_fail(why, wl, "outputs sum to %lld along axis %d, input has %d", (long long)pos, axis,
                   in->shape[axis]);
  pos = 0;
  int esize = (int)dtype_size(in->dtype);
  for (int i = 0; i < op->nout; i++) {
    const ir_tensor *out = OUT(i);
    if (!out) continue;
    int64_t len = out->shape[axis] * inner;
    if (add_block(p, op->in[in_idx], op->out[i], esize, outer, len, in->shape[axis] * inner,
                  pos * inner, 0, why, wl))
      return -1;
    pos += out->shape[axis];
  }
  return 0;
}

static int plan_split(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (op->nin < 2) return mv_fail(why, wl, "SPLIT needs 2 inputs");
  if (op->opts.num_splits > 0 && op->opts.num_splits != op->nout)
    return mv_fail(why, wl, "num_splits %d but %d outputs", op->opts.num_splits, op->nout);
  const ir_tensor *in = IN(1);
  if (in) {
    int64_t av[1];
    int na;
    if (mv_const_ints(g, op->in[0], "axis", av, 1, &na, why, wl)) return -1;
    int axis = (int)(av[0] < 0 ? av[0] + in->rank : av[0]);
    if (axis >= 0 && axis < in->rank && in->shape[axis] % op->nout != 0)
      return mv_fail(why, wl, "dim %d of size %d does not split into %d", axis, in->shape[axis], op->nout);
  }
  return plan_split_common(g, op, p, 1, 0, why, wl);
}

static int plan_split_v(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (op->nin < 3) return mv_fail(why, wl, "SPLIT_V needs 3 inputs");
  return plan_split_common(g, op, p, 0, 2, why, wl);
}

/* PACK */
static int plan_pack(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  const ir_tensor *out = OUT(0);
  if (check_plain(out, "output", why, wl)) return -1;
  int n = op->nin;
  if (n < 1) return mv_fail(why, wl, "no inputs");
  const ir_tensor *in0 = IN(0);
  if (check_plain(in0, "input 0", why, wl)) return -1;
  int rank = in0->rank;
  int axis = op->opts.axis < 0 ? op->opts.axis + rank + 1 : op->opts.axis;
  if (axis < 0 || axis > rank) return mv_fail(why, wl, "axis %d out of range", op->opts.axis);
  if (out->rank != rank + 1 || out->shape[axis] != n)
    return mv_fail(why, wl, "output shape does not match %d packed inputs", n);
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++) outer *= in0->shape[d];
  for (int d = axis; d < rank; d++) inner *= in0->shape[d];
  for (int i = 0; i < n; i++) {
    const ir_tensor *in = IN(i);
    char what[32];
    snprintf(what, sizeof what, "input %d", i);
    if (check_plain(in, what, why, wl) || check_same_dtype(in, out, why, wl)) return -1;
    if (in->rank != rank) return mv_fail(why, wl, "input %d rank differs", i);
    for (int d = 0; d < rank; d++)
      if (in->shape[d] != in0->shape[d] || out->shape[d < axis ? d : d + 1] != in->shape[d])
        return mv_fail(why, wl, "input %d shape differs", i);
  }
  int esize = (int)dtype_size(out->dtype);
  for (int i = 0; i < n; i++)
    if (add_block(p, op->in[i], op->out[0], esize, outer, inner, n * inner, i * inner, 1, why, wl))
      return -1;
  return 0;
}

/* UNPACK */
static int plan_unpack(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  const ir_tensor *in = IN(0);
  if (check_plain(in, "input", why, wl)) return -1;
  int rank = in->rank;
  int axis = op->opts.axis < 0 ? op->opts.axis + rank : op->opts.axis;
  if (axis < 0 || axis >= rank) return mv_fail(why, wl, "axis %d out of range", op->opts.axis);
  int n = in->shape[axis];
  if (op->nout != n) return mv_fail(why, wl, "%d outputs for a dim of size %d", op->nout, n);
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++) outer *= in->shape[d];
  for (int d = axis + 1; d < rank; d++) inner *= in->shape[d];
  int esize = (int)dtype_size(in->dtype);
  for (int i = 0; i < n; i++) {
    const ir_tensor *out = OUT(i);
    if (!out) continue;
    if (check_plain(out, "output", why, wl) || check_same_dtype(in, out, why, wl)) return -1;
    if (numel64(out) != outer * inner) return mv_fail(why, wl, "output %d has the wrong size", i);
    if (add_block(p, op->in[0], op->out[i], esize, outer, inner, n * inner, i * inner, 0, why, wl))
      return -1;
  }
  return 0;
}

/* GATHER */
static int plan_gather(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (io_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *idx = IN(1), *out = OUT(0);
  if (!idx) return mv_fail(why, wl, "indices missing");
  if (idx->dtype != DT_INT32 && idx->dtype != DT_INT64)
    return mv_fail(why, wl, "indices %s not supported", dtype_name(idx->dtype));
  int rank = in->rank, irank = idx->rank;
  int axis = op->opts.axis < 0 ? op->opts.axis + rank : op->opts.axis;
  int bd = op->opts.batch_dims < 0 ? op->opts.batch_dims + irank : op->opts.batch_dims;
  if (axis < 0 || axis >= rank) return mv_fail(why, wl, "axis %d out of range", op->opts.axis);
  if (bd < 0 || bd > irank || bd > axis) return mv_fail(why, wl, "batch_dims %d not valid", op->opts.batch_dims);
  int64_t batch = 1, outer = 1, inner = 1, coords = 1;
  for (int d = 0; d < bd; d++) {
    if (in->shape[d] != idx->shape[d]) return mv_fail(why, wl, "batch dims of input and indices differ");
    batch *= in->shape[d];
  }
  for (int d = bd; d < axis; d++) outer *= in->shape[d];
  for (int d = axis + 1; d < rank; d++) inner *= in->shape[d];
  for (int d = bd; d < irank; d++) coords *= idx->shape[d];
  /* output shape: in[:axis] + idx[bd:] + in[axis+1:] */
  int32_t os[2 * IR_MAX_RANK];
  int orank = 0;
  for (int d = 0; d < axis; d++) os[orank++] = in->shape[d];
  for (int d = bd; d < irank; d++) os[orank++] = idx->shape[d];
  for (int d = axis + 1; d < rank; d++) os[orank++] = in->shape[d];
  int ok = orank == out->rank;
  for (int d = 0; ok && d < orank; d++) ok = os[d] == out->shape[d];
  if (!ok) return mv_fail(why, wl, "output shape does not match the gather");
  if (batch * outer * in->shape[axis] * inner > INT32_MAX || numel64(out) > INT32_MAX)
    return mv_fail(why, wl, "tensor too large");
  mv_step *s = plan_add(p, ST_GATHER);
  s->in_t = op->in[0];
  s->aux_t = op->in[1];
  s->out_t = op->out[0];
  s->gp.batch = (int32_t)batch;
  s->gp.outer = (int32_t)outer;
  s->gp.axis_size = in->shape[axis];
  s->gp.inner = (int32_t)inner;
  s->gp.coords = (int32_t)coords;
  s->gp.elem_size = (int32_t)dtype_size(in->dtype);
  s->gp.index_is_64 = idx->dtype == DT_INT64;
  if (s->gp.elem_size != 1 && s->gp.elem_size != 2 && s->gp.elem_size != 4 && s->gp.elem_size != 8)
    return mv_fail(why, wl, "element size %d not supported", s->gp.elem_size);
  return 0;
}

/* DYNAMIC_UPDATE_SLICE (operand, update, start_indices): the output is the
 * operand with update written at start (clamped into the operand, XLA /
 * TFLite semantics). Start indices may be computed at run time. */
static int plan_dynamic_update_slice(const ir_graph *g, const ir_op *op, mv_plan *p, char *why,
                                     size_t wl) {
  if (io_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *upd = IN(1), *out = OUT(0);
  if (check_plain(upd, "update", why, wl) || check_same_dtype(upd, out, why, wl)) return -1;
  int rank = in->rank;
  if (out->rank != rank || numel64(out) != numel64(in))
    return mv_fail(why, wl, "output shape differs from the operand's");
  if (upd->rank != rank) return mv_fail(why, wl, "update rank %d, operand rank %d", upd->rank, rank);
  for (int d = 0; d < rank; d++)
    if (upd->shape[d] > in->shape[d] || out->shape[d] != in->shape[d])
      return mv_fail(why, wl, "update dim %d (%d) larger than the operand's (%d)", d, upd->shape[d],
                     in->shape[d]);
  if (check_dyn_begin(g, op->nin > 2 ? op->in[2] : -1, rank, "start_indices", why, wl)) return -1;
  int esize = (int)dtype_size(in->dtype);
  if (add_flat_copy(p, op->in[0], op->out[0], esize, numel64(in), why, wl)) return -1;
  if (numel64(upd) == 0) return 0;
  int64_t ostr[IR_MAX_RANK], ustr[IR_MAX_RANK];
  mv_strides(in->shape, rank, ostr);
  mv_strides(upd->shape, rank, ustr);
  mv_copy c;
  memset(&c, 0, sizeof c);
  c.rank = rank;
  for (int d = 0; d < rank; d++) {
    c.count[d] = upd->shape[d];
    c.istr[d] = ustr[d];
    c.ostr[d] = ostr[d];
  }
  if (!is_runtime(g, op->in[2])) {
    /* constant start: clamped now */
    int64_t sv[IR_MAX_RANK];
    int ns;
    if (mv_const_ints(g, op->in[2], "start_indices", sv, IR_MAX_RANK, &ns, why, wl)) return -1;
    for (int d = 0; d < rank; d++) {
      int64_t v = sv[d], top = in->shape[d] - upd->shape[d];
      v = v < 0 ? 0 : (v > top ? top : v);
      c.out_off += v * ostr[d];
    }
    return add_copy(p, op->in[1], op->out[0], esize, &c, why, wl);
  }
  mv_step *s = add_dyn_copy(p, op->in[1], op->out[0], esize, &c, op->in[2], rank, why, wl);
  if (!s) return -1;
  s->begin_is_64 = g->t[op->in[2]].dtype == DT_INT64;
  s->on_output = 1;
  s->clamp = 1;
  for (int d = 0; d < rank; d++) {
    s->dwrap[d] = 0;
    s->dlo[d] = 0;
    s->dhi[d] = in->shape[d] - upd->shape[d];
    s->dstride[d] = (int32_t)ostr[d];
  }
  return 0;
}

/* CAST */
static int cast_type_ok(int dt) {
  switch (dt) {
    case DT_FLOAT32: case DT_FLOAT16: case DT_INT8: case DT_UINT8: case DT_BOOL: case DT_INT16:
    case DT_UINT16: case DT_INT32: case DT_UINT32: case DT_INT64:
      return 1;
    default:
      return 0;
  }
}

static int plan_cast(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  const ir_tensor *in = IN(0), *out = OUT(0);
  if (!in || !out) return mv_fail(why, wl, "input or output missing");
  if (check_plain(in, "input", why, wl) || check_plain(out, "output", why, wl)) return -1;
  if (!cast_type_ok(in->dtype) || !cast_type_ok(out->dtype))
    return mv_fail(why, wl, "cast %s -> %s not supported", dtype_name(in->dtype), dtype_name(out->dtype));
  if (numel64(in) != numel64(out)) return mv_fail(why, wl, "input and output sizes differ");
  if (numel64(in) > INT32_MAX) return mv_fail(why, wl, "tensor too large");
  if (in->dtype == out->dtype)
    return add_flat_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), numel64(in), why, wl);
  mv_step *s = plan_add(p, ST_CAST);
  s->in_t = op->in[0];
  s->out_t = op->out[0];
  s->cp.count = (int32_t)numel64(in);
  s->cp.in_type = in->dtype;
  s->cp.out_type = out->dtype;
  return 0;
}

/* SHAPE */
static int plan_shape(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  const ir_tensor *in = IN(0), *out = OUT(0);
  if (!in || !out) return mv_fail(why, wl, "input or output missing");
  for (int d = 0; d < in->rank; d++)
    if (in->shape[d] < 0) return mv_fail(why, wl, "input has a dynamic shape");
  if (out->dtype != DT_INT32 && out->dtype != DT_INT64)
    return mv_fail(why, wl, "output %s not supported", dtype_name(out->dtype));
  if (numel64(out) != in->rank) return mv_fail(why, wl, "output must have %d elements", in->rank);
  if (in->rank == 0) return 0;
  mv_copy c;
  memset(&c, 0, sizeof c);
  c.rank = 1;
  c.count[0] = in->rank;
  c.istr[0] = c.ostr[0] = 1;
  if (copy_finish(&c, why, wl)) return -1;
  mv_step *s = plan_add(p, ST_COPY);
  s->out_t = op->out[0];
  s->esize = (int)dtype_size(out->dtype);
  s->c = c;
  s->cdtype = out->dtype;
  s->ncdata = in->rank;
  for (int d = 0; d < in->rank; d++) s->cdata[d] = in->shape[d];
  return 0;
}

/* FILL (dims, value) */
static int plan_fill(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  const ir_tensor *out = OUT(0), *val = IN(1);
  if (check_plain(out, "output", why, wl)) return -1;
  if (!val) return mv_fail(why, wl, "value missing");
  if (val->dtype != out->dtype)
    return mv_fail(why, wl, "value %s with output %s not supported", dtype_name(val->dtype),
                   dtype_name(out->dtype));
  if (ir_numel(val) != 1) return mv_fail(why, wl, "value must be a scalar");
  if (numel64(out) > INT32_MAX) return mv_fail(why, wl, "tensor too large");
  mv_step *s = add_fill(p, op->out[0], (int)dtype_size(out->dtype), numel64(out));
  s->aux_t = op->in[1];
  return 0;
}

/* ZEROS_LIKE */
static int plan_zeros_like(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (io_common(g, op, why, wl)) return -1;
  if (numel64(OUT(0)) > INT32_MAX) return mv_fail(why, wl, "tensor too large");
  add_fill(p, op->out[0], (int)dtype_size(OUT(0)->dtype), numel64(OUT(0)));
  return 0;
}

/* TILE */
static int plan_tile(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (io_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  int rank = in->rank;
  int64_t mult[IR_MAX_RANK];
  int nm;
  if (mv_const_ints(g, op->nin > 1 ? op->in[1] : -1, "multiples", mult, IR_MAX_RANK, &nm, why, wl)) return -1;
  if (nm != rank || out->rank != rank) return mv_fail(why, wl, "multiples must have %d values", rank);
  int64_t istr[IR_MAX_RANK], ostr[IR_MAX_RANK];
  mv_strides(in->shape, rank, istr);
  mv_strides(out->shape, rank, ostr);
  mv_copy c;
  memset(&c, 0, sizeof c);
  c.rank = 2 * rank;
  for (int d = 0; d < rank; d++) {
    if (mult[d] < 0) return mv_fail(why, wl, "negative multiple");
    if (in->shape[d] * mult[d] != out->shape[d]) return mv_fail(why, wl, "output dim %d does not match", d);
    c.count[2 * d] = (int32_t)mult[d];
    c.istr[2 * d] = 0;
    c.ostr[2 * d] = in->shape[d] * ostr[d];
    c.count[2 * d + 1] = in->shape[d];
    c.istr[2 * d + 1] = istr[d];
    c.ostr[2 * d + 1] = ostr[d];
  }
  return add_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, why, wl);
}

/* BROADCAST_TO */
static int plan_broadcast_to(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (io_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  int rank = out->rank;
  if (in->rank > rank) return mv_fail(why, wl, "input rank %d > output rank %d", in->rank, rank);
  int64_t istr[IR_MAX_RANK], ostr[IR_MAX_RANK];
  mv_strides(in->shape, in->rank, istr);
  mv_strides(out->shape, rank, ostr);
  mv_copy c;
  memset(&c, 0, sizeof c);
  c.rank = rank;
  for (int d = 0; d < rank; d++) {
    int k = d - (rank - in->rank);
    int idim = k >= 0 ? in->shape[k] : 1;
    if (idim != out->shape[d] && idim != 1)
      return mv_fail(why, wl, "input dim %d (%d) does not broadcast to %d", k, idim, out->shape[d]);
    c.count[d] = out->shape[d];
    c.ostr[d] = ostr[d];
    c.istr[d] = (k >= 0 && idim != 1) ? istr[k] : 0;
  }
  return add_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, why, wl);
}

/* DEPTH_TO_SPACE / SPACE_TO_DEPTH (NHWC) */
static int plan_d2s_s2d(const ir_graph *g, const ir_op *op, mv_plan *p, int d2s, char *why, size_t wl) {
  if (io_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  if (in->rank != 4 || out->rank != 4) return mv_fail(why, wl, "input and output must be 4-D");
  int bs = op->opts.block_size;
  if (bs < 1) return mv_fail(why, wl, "block_size %d not valid", bs);
  int B = in->shape[0], H = in->shape[1], W = in->shape[2], C = in->shape[3];
  mv_copy c;
  memset(&c, 0, sizeof c);
  c.rank = 6;
  if (d2s) {
    if (C % (bs * bs)) return mv_fail(why, wl, "depth %d not divisible by block_size^2", C);
    int oc = C / (bs * bs);
    if (out->shape[0] != B || out->shape[1] != H * bs || out->shape[2] != W * bs || out->shape[3] != oc)
      return mv_fail(why, wl, "output shape does not match");
    /* iterate the output as [B, H, dy, W, dx, oc] */
    int32_t cnt[6] = {B, H, bs, W, bs, oc};
    int64_t is[6] = {(int64_t)H * W * C, (int64_t)W * C, (int64_t)bs * oc, C, oc, 1};
    int64_t os[6] = {(int64_t)H * bs * W * bs * oc, (int64_t)bs * W * bs * oc, (int64_t)W * bs * oc,
                     (int64_t)bs * oc, oc, 1};
    memcpy(c.count, cnt, sizeof cnt);
    memcpy(c.istr, is, sizeof is);
    memcpy(c.ostr, os, sizeof os);
  } else {
    if (H % bs || W % bs) return mv_fail(why, wl, "height/width not divisible by block_size");
    int oh = H / bs, ow = W / bs;
    if (out->shape[0] != B || out->shape[1] != oh || out->shape[2] != ow || out->shape[3] != C * bs * bs)
      return mv_fail(why, wl, "output shape does not match");
    /* iterate the output as [B, oh, ow, dy, dx, C] */
    int32_t cnt[6] = {B, oh, ow, bs, bs, C};
    int64_t is[6] = {(int64_t)H * W * C, (int64_t)bs * W * C, (int64_t)bs * C, (int64_t)W * C, C, 1};
    int64_t os[6] = {(int64_t)oh * ow * bs * bs * C, (int64_t)ow * bs * bs * C, (int64_t)bs * bs * C,
                     (int64_t)bs * C, C, 1};
    memcpy(c.count, cnt, sizeof cnt);
    memcpy(c.istr, is, sizeof is);
    memcpy(c.ostr, os, sizeof os);
  }
  return add_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, why, wl);
}
static int plan_d2s(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  return plan_d2s_s2d(g, op, p, 1, why, wl);
}
static int plan_s2d(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  return plan_d2s_s2d(g, op, p, 0, why, wl);
}

/* RESIZE_* common checks; returns 0 and sizes */
static int resize_common(const ir_graph *g, const ir_op *op, char *why, size_t wl) {
  if (io_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  if (in->rank != 4 || out->rank != 4) return mv_fail(why, wl, "input and output must be 4-D");
  if (in->shape[0] != out->shape[0] || in->shape[3] != out->shape[3])
    return mv_fail(why, wl, "batch/depth of input and output differ");
  if (op->opts.align_corners && op->opts.half_pixel_centers)
    return mv_fail(why, wl, "align_corners with half_pixel_centers not supported");
  if (out->shape[1] < 1 || out->shape[2] < 1) return mv_fail(why, wl, "empty output");
  if (op->nin > 1 && op->in[1] >= 0) {
    const ir_tensor *sz = IN(1);
    if (sz->role == ROLE_CONST && sz->data) {
      int64_t v[2];
      int n;
      if (mv_const_ints(g, op->in[1], "size", v, 2, &n, why, wl)) return -1;
      if (n != 2 || v[0] != out->shape[1] || v[1] != out->shape[2])
        return mv_fail(why, wl, "size tensor does not match the output shape");
    }
  }
  if (!same_quant(in, out)) return mv_fail(why, wl, "input and output quantization differ");
  return 0;
}

/* RESIZE_NEAREST_NEIGHBOR */
static int plan_resize_nn(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (resize_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  int B = in->shape[0], ih = in->shape[1], iw = in->shape[2], C = in->shape[3];
  int oh = out->shape[1], ow = out->shape[2];
  if (numel64(out) == 0) return 0;
  mv_step *s = plan_add(p, ST_INDEX_MAP);
  s->in_t = op->in[0];
  s->out_t = op->out[0];
  s->esize = (int)dtype_size(in->dtype);
  s->c.rank = 4;
  s->c.count[0] = B;
  s->c.count[1] = oh;
  s->c.count[2] = ow;
  s->c.count[3] = C;
  s->nmap = B + oh + ow + C;
  s->map = xcalloc((size_t)s->nmap, sizeof(int32_t));
  s->inner_contiguous = 1;
  int k = 0;
  for (int b = 0; b < B; b++) s->map[k++] = (int32_t)((int64_t)b * ih * iw * C);
  int ac = op->opts.align_corners, hp = op->opts.half_pixel_centers;
  for (int pass = 0; pass < 2; pass++) {
    int isz = pass ? iw : ih, osz = pass ? ow : oh;
    int64_t stride = pass ? C : (int64_t)iw * C;
    float scale = (ac && osz > 1) ? (float)(isz - 1) / (float)(osz - 1) : (float)isz / (float)osz;
    float off = hp ? 0.5f : 0.0f;
    for (int o = 0; o < osz; o++) {
      float v = ((float)o + off) * scale;
      int32_t r = ac ? (int32_t)roundf(v) : (int32_t)floorf(v);
      if (r > isz - 1) r = isz - 1;
      if (hp && r < 0) r = 0;
      s->map[k++] = (int32_t)(r * stride);
    }
  }
  for (int c = 0; c < C; c++) s->map[k++] = c;
  return 0;
}

/* RESIZE_BILINEAR */
static int plan_resize_bl(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (resize_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  if (in->dtype != DT_FLOAT32 && in->dtype != DT_INT8 && in->dtype != DT_INT16)
    return mv_fail(why, wl, "dtype %s not supported", dtype_name(in->dtype));
  int ih = in->shape[1], iw = in->shape[2];
  int oh = out->shape[1], ow = out->shape[2];
  if (ih < 1 || iw < 1) return mv_fail(why, wl, "empty input");
  if ((int64_t)ih * 1024 > INT32_MAX / 2 || (int64_t)iw * 1024 > INT32_MAX / 2 ||
      (int64_t)oh * ih * 1024 > INT32_MAX || (int64_t)ow * iw * 1024 > INT32_MAX)
    return mv_fail(why, wl, "tensor too large");
  mv_step *s = plan_add(p, ST_RESIZE_BL);
  s->in_t = op->in[0];
  s->out_t = op->out[0];
  s->dtype = in->dtype;
  s->rb.batches = in->shape[0];
  s->rb.in_h = ih;
  s->rb.in_w = iw;
  s->rb.out_h = oh;
  s->rb.out_w = ow;
  s->rb.depth = in->shape[3];
  s->rb_i = xcalloc((size_t)(3 * oh + 3 * ow), sizeof(int32_t));
  s->rb_f = xcalloc((size_t)(oh + ow), sizeof(float));
  int ac = op->opts.align_corners, hp = op->opts.half_pixel_centers;
  for (int pass = 0; pass < 2; pass++) {
    int isz = pass ? iw : ih, osz = pass ? ow : oh;
    int32_t *i0 = pass ? s->rb_i + 3 * oh : s->rb_i;
    int32_t *i1 = i0 + osz, *w = i0 + 2 * osz;
    float *f = pass ? s->rb_f + oh : s->rb_f;
    if (in->dtype == DT_FLOAT32) {
      float scale = (float)isz / (float)osz;
      if (ac && osz > 1) scale = (float)(isz - 1) / (float)(osz - 1);
      for (int o = 0; o < osz; o++) {
        float v = hp ? ((float)o + 0.5f) * scale - 0.5f : (float)o * scale;
        float fl = floorf(v);
        int32_t lo = (int32_t)fl < 0 ? 0 : (int32_t)fl;
        int32_t hi = (int32_t)ceilf(v) < isz - 1 ? (int32_t)ceilf(v) : isz - 1;
        f[o] = v;
        i0[o] = lo;
        i1[o] = hi;
      }
    } else {
      int32_t s10 = ((1 << 10) * isz + osz / 2) / osz;
      if (ac && osz > 1) s10 = ((1 << 10) * (isz - 1) + (osz - 1) / 2) / (osz - 1);
      for (int o = 0; o < osz; o++) {
        int32_t v = hp ? o * s10 + s10 / 2 - (1 << 9) : o * s10;
        int32_t lo = v / (1 << 10) > 0 ? v / (1 << 10) : 0;
        int32_t hi = (v + (1 << 10) - 1) / (1 << 10);
        if (hi > isz - 1) hi = isz - 1;
        i0[o] = lo;
        i1[o] = hi;
        w[o] = v - (1 << 10) * lo;
      }
    }
  }
  return 0;
}

/* ---------------------------------------------------------------------- */
/* op_impl glue                                                            */

static int run_check(plan_fn fn, const ir_graph *g, const ir_op *op, char *why, size_t wl) {
  mv_plan p = {0};
  int r = fn(g, op, &p, why, wl);
  plan_free(&p);
  return r;
}

static int run_emit(plan_fn fn, emit_ctx *e, const ir_graph *g, const ir_op *op) {
  mv_plan p = {0};
  char why[256];
  if (fn(g, op, &p, why, sizeof why)) {
    plan_free(&p);
    return -1;
  }
  plan_emit(e, &p);
  plan_free(&p);
  return 0;
}

static int run_eval(plan_fn fn, const ir_graph *g, const ir_op *op, void *const *data) {
  mv_plan p = {0};
  char why[256];
  if (fn(g, op, &p, why, sizeof why)) {
    plan_free(&p);
    return AOT_KERNEL_BAD_PARAM;
  }
  int r = plan_eval(&p, data);
  plan_free(&p);
  return r;
}

#define MV_OP(name, code, NAME, DT, CONS, fn, inpl)                                            \
  static int name##_check(const ir_graph *g, const ir_op *op, char *why, size_t wl) {         \
    return run_check(fn, g, op, why, wl);                                                      \
  }                                                                                            \
  static int name##_emit(emit_ctx *e, const ir_graph *g, const ir_op *op) {                    \
    return run_emit(fn, e, g, op);                                                             \
  }                                                                                            \
  static int name##_eval(const ir_graph *g, const ir_op *op, void *const *data, void *scr) {   \
    (void)scr;                                                                                 \
    return run_eval(fn, g, op, data);                                                          \
  }                                                                                            \
  const op_impl op_##name = {code, NULL, NAME, DT, CONS, name##_check, NULL, inpl,             \
                             name##_emit, name##_eval};

#define ANY_DT "any fixed-size dtype"

MV_OP(reshape, OP_RESHAPE, "RESHAPE", ANY_DT,
      "byte copy; usually aliased away by aotc (equal element counts)", plan_reshape, 1)
MV_OP(squeeze, OP_SQUEEZE, "SQUEEZE", ANY_DT,
      "byte copy; usually aliased away by aotc (equal element counts)", plan_reshape, 1)
MV_OP(expand_dims, OP_EXPAND_DIMS, "EXPAND_DIMS", ANY_DT,
      "byte copy; usually aliased away by aotc (equal element counts)", plan_reshape, 1)
MV_OP(concatenation, OP_CONCATENATION, "CONCATENATION", ANY_DT,
      "any axis; no fused activation; int8/uint8/int16 inputs with a quantization different "
      "from the output's are requantized (TFLite ConcatenationWithScaling arithmetic)",
      plan_concat, 0)
MV_OP(pad, OP_PAD, "PAD", ANY_DT,
      "constant paddings; quantized pads with the output zero point", plan_pad, 0)
MV_OP(padv2, OP_PADV2, "PADV2", ANY_DT,
      "constant paddings; constant_values scalar of the output dtype", plan_pad, 0)
MV_OP(mirror_pad, OP_MIRROR_PAD, "MIRROR_PAD", ANY_DT,
      "constant paddings; REFLECT and SYMMETRIC", plan_mirror_pad, 0)
MV_OP(strided_slice, OP_STRIDED_SLICE, "STRIDED_SLICE", ANY_DT,
      "constant begin/end/strides; all masks (begin, end, ellipsis, new_axis, shrink_axis), "
      "negative strides, offset; a run-time begin (constant strides, no ellipsis/new_axis "
      "mask) where each such dimension is shrunk or has offset with a constant length; an "
      "out-of-range run-time begin fails the run",
      plan_strided_slice, 0)
MV_OP(slice, OP_SLICE, "SLICE", ANY_DT,
      "constant size (-1 = to the end); begin constant or computed at run time (an "
      "out-of-range run-time begin fails the run)",
      plan_slice, 0)
MV_OP(transpose, OP_TRANSPOSE, "TRANSPOSE", ANY_DT, "constant perm, up to 8-D", plan_transpose, 0)
MV_OP(split, OP_SPLIT, "SPLIT", ANY_DT, "constant axis", plan_split, 0)
MV_OP(split_v, OP_SPLIT_V, "SPLIT_V", ANY_DT, "constant axis; sizes from the output shapes",
      plan_split_v, 0)
MV_OP(pack, OP_PACK, "PACK", ANY_DT, "", plan_pack, 0)
MV_OP(unpack, OP_UNPACK, "UNPACK", ANY_DT, "", plan_unpack, 0)
MV_OP(gather, OP_GATHER, "GATHER", ANY_DT,
      "int32/int64 indices (may be runtime tensors); axis, batch_dims; an index out of range "
      "fails the run",
      plan_gather, 0)
MV_OP(reverse_v2, OP_REVERSE_V2, "REVERSE_V2", ANY_DT, "constant axes", plan_reverse, 0)
MV_OP(dynamic_update_slice, OP_DYNAMIC_UPDATE_SLICE, "DYNAMIC_UPDATE_SLICE", ANY_DT,
      "start indices constant or computed at run time, int32/int64; clamped into the operand "
      "(XLA semantics)",
      plan_dynamic_update_slice, 1)
MV_OP(cast, OP_CAST, "CAST",
      "float32, float16, int8, uint8, int16, uint16, int32, uint32, int64, bool (any pair)",
      "static_cast semantics; float to int truncates; to float16 rounds to nearest even",
      plan_cast, 0)
MV_OP(shape, OP_SHAPE, "SHAPE", "output int32, int64", "static shapes", plan_shape, 0)
MV_OP(fill, OP_FILL, "FILL", ANY_DT, "static output shape; value may be a runtime scalar",
      plan_fill, 0)
MV_OP(zeros_like, OP_ZEROS_LIKE, "ZEROS_LIKE", ANY_DT, "", plan_zeros_like, 0)
MV_OP(tile, OP_TILE, "TILE", ANY_DT, "constant multiples", plan_tile, 0)
MV_OP(broadcast_to, OP_BROADCAST_TO, "BROADCAST_TO", ANY_DT, "static output shape",
      plan_broadcast_to, 0)
MV_OP(resize_nearest_neighbor, OP_RESIZE_NEAREST_NEIGHBOR, "RESIZE_NEAREST_NEIGHBOR", ANY_DT,
      "4-D NHWC; align_corners, half_pixel_centers; static output size", plan_resize_nn, 0)
MV_OP(resize_bilinear, OP_RESIZE_BILINEAR, "RESIZE_BILINEAR", "float32, int8, int16",
      "4-D NHWC; align_corners, half_pixel_centers; static output size; same input/output "
      "quantization",
      plan_resize_bl, 0)
MV_OP(depth_to_space, OP_DEPTH_TO_SPACE, "DEPTH_TO_SPACE", ANY_DT, "4-D NHWC", plan_d2s, 0)
MV_OP(space_to_depth, OP_SPACE_TO_DEPTH, "SPACE_TO_DEPTH", ANY_DT, "4-D NHWC", plan_s2d, 0)
