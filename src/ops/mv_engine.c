/* mv_engine.c - the step engine behind the data movement operators.
 *
 * Every operator here is resolved at compile time into a short list of
 * "steps" (an mv_plan): strided N-d copies, fills, index-table gathers,
 * requantizing row copies, GATHER, CAST and RESIZE_BILINEAR kernel calls. One
 * plan function per operator builds the list from the IR (constant
 * parameters such as paddings, begin/end/strides, perm, axes are read here
 * and must be constant tensors); check() runs it and reports why it failed,
 * emit() writes the steps as kernel calls with static const parameters, and
 * eval() runs the very same steps on host buffers. */
#include "lower.h"
#include "mv_plan.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---------------------------------------------------------------------- */
/* shared helpers (also used by op_reduce.c)                               */

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
  ir_const_ints(g, tid, out, max);
  *n = (int)cnt;
  return 0;
}

int mv_const_axes(const ir_graph *g, int tid, int rank, int max, int mask[IR_MAX_RANK], char *why,
                  size_t wl) {
  int64_t axes[IR_MAX_RANK * 4];
  int na;
  if (max > IR_MAX_RANK * 4) max = IR_MAX_RANK * 4;
  if (mv_const_ints(g, tid, "axis", axes, max, &na, why, wl)) return -1;
  for (int d = 0; d < IR_MAX_RANK; d++) mask[d] = 0;
  for (int i = 0; i < na; i++) {
    int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (a < 0 || a >= rank) return mv_fail(why, wl, "axis %lld out of range", (long long)axes[i]);
    mask[a] = 1;
  }
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

int mv_same_quant(const ir_tensor *a, const ir_tensor *b) {
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

int mv_check_plain(const ir_tensor *t, const char *what, char *why, size_t wl) {
  if (!t) return mv_fail(why, wl, "%s is missing", what);
  if (!plain_dtype(t->dtype)) return mv_fail(why, wl, "%s dtype %s not supported", what, dtype_name(t->dtype));
  for (int d = 0; d < t->rank; d++)
    if (t->shape[d] < 0) return mv_fail(why, wl, "%s has a dynamic shape", what);
  return 0;
}

int mv_check_same_dtype(const ir_tensor *a, const ir_tensor *b, char *why, size_t wl) {
  if (a->dtype != b->dtype)
    return mv_fail(why, wl, "input %s with output %s not supported", dtype_name(a->dtype),
                   dtype_name(b->dtype));
  return 0;
}

int64_t mv_numel64(const ir_tensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->rank; i++) n *= t->shape[i] > 0 ? t->shape[i] : 0;
  return n;
}

/* ---------------------------------------------------------------------- */
/* plans                                                                   */


mv_step *mv_step_add(mv_plan *p, int kind) {
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

int mv_copy_finish(mv_copy *c, char *why, size_t wl) {
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
int mv_add_copy(mv_plan *p, int in_t, int out_t, int esize, mv_copy *c, char *why, size_t wl) {
  if (mv_copy_finish(c, why, wl)) return -1;
  mv_step *s = mv_step_add(p, ST_COPY);
  s->in_t = in_t;
  s->out_t = out_t;
  s->esize = esize;
  s->c = *c;
  return 0;
}

/* A contiguous copy of n elements. */
int mv_add_flat_copy(mv_plan *p, int in_t, int out_t, int esize, int64_t n, char *why,
                         size_t wl) {
  mv_copy c;
  memset(&c, 0, sizeof c);
  c.rank = 1;
  if (n > INT32_MAX) return mv_fail(why, wl, "tensor too large");
  c.count[0] = (int32_t)n;
  c.istr[0] = c.ostr[0] = 1;
  return mv_add_copy(p, in_t, out_t, esize, &c, why, wl);
}

/* Adds a DYN_COPY step: the COPY c moved at run time by the begin values of
 * tensor begin_t (lo/hi/wrap/stride describe each of the nbeg values; see
 * aot_copy_nd_dyn). */
mv_step *mv_add_dyn_copy(mv_plan *p, int in_t, int out_t, int esize, mv_copy *c, int begin_t,
                             int nbeg, char *why, size_t wl) {
  if (mv_copy_finish(c, why, wl)) return NULL;
  if (nbeg < 0 || nbeg > AOT_MV_MAX_DIMS) {
    mv_fail(why, wl, "%d run-time begin values (max %d)", nbeg, AOT_MV_MAX_DIMS);
    return NULL;
  }
  mv_step *s = mv_step_add(p, ST_DYN_COPY);
  s->in_t = in_t;
  s->out_t = out_t;
  s->aux_t = begin_t;
  s->esize = esize;
  s->c = *c;
  s->nbeg = nbeg;
  return s;
}

mv_step *mv_add_fill(mv_plan *p, int out_t, int esize, int64_t count) {
  mv_step *s = mv_step_add(p, ST_FILL);
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

/* The step kernels come from the kernel table (kernels.def): the host runs
 * them through the descriptor's function pointer, the module calls the
 * descriptor's symbol and carries its file. */
static int32_t run(int k, const void *p, const void *a, const void *b, void *y) {
  return lower_kernel_get(k)->fn(p, a, b, NULL, y);
}

static int requant_kernel(int dtype) {
  return dtype == DT_INT8    ? LK(aot_requant_rows_s8)
         : dtype == DT_UINT8 ? LK(aot_requant_rows_u8)
                             : LK(aot_requant_rows_s16);
}

static int resize_kernel(int dtype) {
  return dtype == DT_FLOAT32 ? LK(aot_resize_bilinear_f32)
         : dtype == DT_INT8  ? LK(aot_resize_bilinear_s8)
                             : LK(aot_resize_bilinear_s16);
}

/* "kernel(&<op>_s<i>, [a, ]b, out)" and the kernel's file. */
static void step_call(emit_ctx *e, int k, const char *op, int i, const char *a, const char *b,
                      const char *out) {
  const lower_kernel *d = lower_kernel_get(k);
  if (a) emit_call(e, "%s(&%s_s%d, %s, %s, %s)", d->name, op, i, a, b, out);
  else emit_call(e, "%s(&%s_s%d, %s, %s)", d->name, op, i, b, out);
  emit_kernel(e, d->file);
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
        st = run(LK(aot_copy_nd), &cp, in, NULL, out);
        break;
      }
      case ST_FILL: {
        aot_fill_params fp = {s->fill_count, s->esize};
        st = run(LK(aot_fill), &fp, s->aux_t >= 0 ? data[s->aux_t] : (const void *)s->value, NULL, out);
        break;
      }
      case ST_REQUANT:
        st = run(requant_kernel(s->dtype), &s->rq, data[s->in_t], NULL, out);
        break;
      case ST_INDEX_MAP: {
        aot_index_map_params ip = {s->c.rank, s->esize, s->inner_contiguous, s->c.count, s->map};
        st = run(LK(aot_index_map), &ip, data[s->in_t], NULL, out);
        break;
      }
      case ST_GATHER:
        st = run(LK(aot_gather), &s->gp, data[s->in_t], data[s->aux_t], out);
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
        st = run(LK(aot_copy_nd_dyn), &dp, data[s->aux_t], data[s->in_t], out);
        break;
      }
      case ST_CAST:
        st = run(LK(aot_cast), &s->cp, data[s->in_t], NULL, out);
        break;
      case ST_RESIZE_BL:
        rb_params(s);
        st = run(resize_kernel(s->dtype), &s->rb, data[s->in_t], NULL, out);
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
        step_call(e, LK(aot_copy_nd), op, i, NULL, in, out);
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
        step_call(e, LK(aot_fill), op, i, NULL, val, out);
        break;
      }
      case ST_REQUANT: {
        emit_decl(e,
                  "static const aot_requant_rows_params %s_s%d = {\n"
                  "  .rows = %ld,\n  .len = %ld,\n  .out_offset = %ld,\n  .out_row_stride = %ld,\n"
                  "  .scale = %s,\n  .bias = %s,\n  .out_zp = %ld\n};",
                  op, i, (long)s->rq.rows, (long)s->rq.len, (long)s->rq.out_offset,
                  (long)s->rq.out_row_stride, emit_float(e, s->rq.scale), emit_float(e, s->rq.bias),
                  (long)s->rq.out_zp);
        step_call(e, requant_kernel(s->dtype), op, i, NULL, emit_ptr(e, s->in_t), out);
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
        step_call(e, LK(aot_index_map), op, i, NULL, emit_ptr(e, s->in_t), out);
        break;
      }
      case ST_GATHER: {
        emit_decl(e,
                  "static const aot_gather_params %s_s%d = {\n"
                  "  .batch = %ld,\n  .outer = %ld,\n  .axis_size = %ld,\n  .inner = %ld,\n"
                  "  .coords = %ld,\n  .elem_size = %ld,\n  .index_is_64 = %ld\n};",
                  op, i, (long)s->gp.batch, (long)s->gp.outer, (long)s->gp.axis_size,
                  (long)s->gp.inner, (long)s->gp.coords, (long)s->gp.elem_size,
                  (long)s->gp.index_is_64);
        const char *ix = emit_ptr(e, s->aux_t); /* indices, then input */
        step_call(e, LK(aot_gather), op, i, emit_ptr(e, s->in_t), ix, out);
        break;
      }
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
        const char *in = emit_ptr(e, s->in_t); /* input, then the begin values */
        step_call(e, LK(aot_copy_nd_dyn), op, i, emit_ptr(e, s->aux_t), in, out);
        break;
      }
      case ST_CAST:
        emit_decl(e,
                  "static const aot_cast_params %s_s%d = {\n"
                  "  .count = %ld,\n  .in_type = %ld,\n  .out_type = %ld\n};",
                  op, i, (long)s->cp.count, (long)s->cp.in_type, (long)s->cp.out_type);
        step_call(e, LK(aot_cast), op, i, NULL, emit_ptr(e, s->in_t), out);
        break;
      case ST_RESIZE_BL: {
        int oh = s->rb.out_h, ow = s->rb.out_w;
        const int32_t *ri = s->rb_i;
        const char *y0 = emit_array_i32(e, sfx(b, sizeof b, i, "y0"), ri, (size_t)oh);
        const char *y1 = emit_array_i32(e, sfx(b, sizeof b, i, "y1"), ri + oh, (size_t)oh);
        const char *x0 = emit_array_i32(e, sfx(b, sizeof b, i, "x0"), ri + 3 * oh, (size_t)ow);
        const char *x1 = emit_array_i32(e, sfx(b, sizeof b, i, "x1"), ri + 3 * oh + ow, (size_t)ow);
        const char *wy = "NULL", *wx = "NULL", *fy = "NULL", *fx = "NULL";
        if (s->dtype == DT_FLOAT32) {
          fy = emit_array_f32(e, sfx(b, sizeof b, i, "fy"), s->rb_f, (size_t)oh);
          fx = emit_array_f32(e, sfx(b, sizeof b, i, "fx"), s->rb_f + oh, (size_t)ow);
        } else {
          wy = emit_array_i32(e, sfx(b, sizeof b, i, "wy"), ri + 2 * oh, (size_t)oh);
          wx = emit_array_i32(e, sfx(b, sizeof b, i, "wx"), ri + 3 * oh + 2 * ow, (size_t)ow);
        }
        emit_decl(e,
                  "static const aot_resize_bilinear_params %s_s%d = {\n"
                  "  .batches = %ld,\n  .in_h = %ld,\n  .in_w = %ld,\n  .out_h = %ld,\n"
                  "  .out_w = %ld,\n  .depth = %ld,\n  .y0 = %s,\n  .y1 = %s,\n  .x0 = %s,\n"
                  "  .x1 = %s,\n  .wy = %s,\n  .wx = %s,\n  .fy = %s,\n  .fx = %s\n};",
                  op, i, (long)s->rb.batches, (long)s->rb.in_h, (long)s->rb.in_w,
                  (long)s->rb.out_h, (long)s->rb.out_w, (long)s->rb.depth, y0, y1, x0, x1, wy,
                  wx, fy, fx);
        step_call(e, resize_kernel(s->dtype), op, i, NULL, emit_ptr(e, s->in_t), out);
        break;
      }
      default:
        break;
    }
  }
}

int mv_io_common(const ir_graph *g, const ir_op *op, char *why, size_t wl) {
  if (mv_check_plain(IN(0), "input", why, wl)) return -1;
  if (mv_check_plain(OUT(0), "output", why, wl)) return -1;
  return mv_check_same_dtype(IN(0), OUT(0), why, wl);
}

/* A begin / start-indices tensor read at run time: int32 or int64 with n
 * values. */
int mv_check_dyn_begin(const ir_graph *g, int tid, int n, const char *what, char *why,
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

int mv_is_runtime(const ir_graph *g, int tid) {
  return tid >= 0 && tid < g->nt && g->t[tid].role != ROLE_CONST;
}

/* ---------------------------------------------------------------------- */
/* op_impl glue                                                            */

int mv_run_check(mv_plan_fn fn, const ir_graph *g, const ir_op *op, char *why, size_t wl) {
  mv_plan p = {0};
  int r = fn(g, op, &p, why, wl);
  plan_free(&p);
  return r;
}

int mv_run_emit(mv_plan_fn fn, emit_ctx *e, const ir_graph *g, const ir_op *op) {
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

int mv_run_eval(mv_plan_fn fn, const ir_graph *g, const ir_op *op, void *const *data) {
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
