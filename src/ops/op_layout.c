/* op_layout.c - TRANSPOSE, REVERSE_V2, SPLIT, SPLIT_V, PACK, UNPACK, GATHER,
 * CAST, SHAPE, FILL, ZEROS_LIKE, TILE, BROADCAST_TO, DEPTH_TO_SPACE,
 * SPACE_TO_DEPTH, RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR.
 *
 * Each operator is one plan function that resolves the op, from its static
 * shapes and constant parameters (perm, axes, multiples, block size), into
 * steps of the movement step engine (mv_plan.h): strided copies, index-table
 * gathers, GATHER/CAST/RESIZE_BILINEAR kernel calls. check, emit and eval of
 * every op run the same plan (mv_run_*). */
#include "mv_plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* TRANSPOSE and TILE: the common input / output checks and the constant
 * vector input 1 (what names it) of up to IR_MAX_RANK values. */
static int io_and_vector(const ir_graph *g, const ir_op *op, const char *what, int64_t *v, int *nv,
                         char *why, size_t wl) {
  if (mv_io_common(g, op, why, wl)) return -1;
  return mv_const_ints(g, op->nin > 1 ? op->in[1] : -1, what, v, IR_MAX_RANK, nv, why, wl);
}

/* TRANSPOSE */
static int plan_transpose(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  int64_t perm[IR_MAX_RANK];
  int np;
  if (io_and_vector(g, op, "perm", perm, &np, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  int rank = in->rank;
  if (np != rank) return mv_fail(why, wl, "perm has %d values, input rank %d", np, rank);
  if (out->rank != rank) return mv_fail(why, wl, "output rank %d, input rank %d", out->rank, rank);
  int seen[IR_MAX_RANK] = {0};
  int64_t istr[IR_MAX_RANK], ostr[IR_MAX_RANK];
  mv_copy c;
  mv_copy_start(in, out, istr, ostr, &c, rank);
  for (int d = 0; d < rank; d++) {
    int64_t a = perm[d] < 0 ? perm[d] + rank : perm[d];
    if (a < 0 || a >= rank || seen[a]) return mv_fail(why, wl, "perm is not a permutation");
    seen[a] = 1;
    if (in->shape[a] != out->shape[d]) return mv_fail(why, wl, "output dim %d does not match perm", d);
    c.count[d] = out->shape[d];
    c.istr[d] = istr[a];
    c.ostr[d] = ostr[d];
  }
  return mv_add_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, why, wl);
}

/* REVERSE_V2 */
static int plan_reverse(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (mv_io_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  int rank = in->rank;
  int rev[IR_MAX_RANK];
  if (mv_const_axes(g, op->nin > 1 ? op->in[1] : -1, rank, IR_MAX_RANK, rev, why, wl)) return -1;
  if (mv_numel64(in) != mv_numel64(out) || out->rank != rank)
    return mv_fail(why, wl, "output shape differs from input");
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
  return mv_add_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, why, wl);
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
  return mv_add_copy(p, in_t, out_t, esize, &c, why, wl);
}

/* SPLIT (inputs: axis, input) and SPLIT_V (input, size_splits, axis) */
static int plan_split_common(const ir_graph *g, const ir_op *op, mv_plan *p, int in_idx,
                             int axis_idx, char *why, size_t wl) {
  const ir_tensor *in = IN(in_idx);
  if (mv_check_plain(in, "input", why, wl)) return -1;
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
    if (mv_check_plain(out, "output", why, wl) || mv_check_same_dtype(in, out, why, wl)) return -1;
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
  if (mv_check_plain(out, "output", why, wl)) return -1;
  int n = op->nin;
  if (n < 1) return mv_fail(why, wl, "no inputs");
  const ir_tensor *in0 = IN(0);
  if (mv_check_plain(in0, "input 0", why, wl)) return -1;
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
    if (mv_check_plain(in, what, why, wl) || mv_check_same_dtype(in, out, why, wl)) return -1;
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
  if (mv_check_plain(in, "input", why, wl)) return -1;
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
    if (mv_check_plain(out, "output", why, wl) || mv_check_same_dtype(in, out, why, wl)) return -1;
    if (mv_numel64(out) != outer * inner) return mv_fail(why, wl, "output %d has the wrong size", i);
    if (add_block(p, op->in[0], op->out[i], esize, outer, inner, n * inner, i * inner, 0, why, wl))
      return -1;
  }
  return 0;
}

/* GATHER */
static int plan_gather(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (mv_io_common(g, op, why, wl)) return -1;
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
  if (batch * outer * in->shape[axis] * inner > INT32_MAX || mv_numel64(out) > INT32_MAX)
    return mv_fail(why, wl, "tensor too large");
  mv_step *s = mv_step_add(p, ST_GATHER);
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
  if (mv_check_plain(in, "input", why, wl) || mv_check_plain(out, "output", why, wl)) return -1;
  if (!cast_type_ok(in->dtype) || !cast_type_ok(out->dtype))
    return mv_fail(why, wl, "cast %s -> %s not supported", dtype_name(in->dtype), dtype_name(out->dtype));
  if (mv_numel64(in) != mv_numel64(out)) return mv_fail(why, wl, "input and output sizes differ");
  if (mv_numel64(in) > INT32_MAX) return mv_fail(why, wl, "tensor too large");
  if (in->dtype == out->dtype)
    return mv_add_flat_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), mv_numel64(in), why, wl);
  mv_step *s = mv_step_add(p, ST_CAST);
  s->in_t = op->in[0];
  s->out_t = op->out[0];
  s->cp.count = (int32_t)mv_numel64(in);
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
  if (mv_numel64(out) != in->rank) return mv_fail(why, wl, "output must have %d elements", in->rank);
  if (in->rank == 0) return 0;
  mv_copy c;
  memset(&c, 0, sizeof c);
  c.rank = 1;
  c.count[0] = in->rank;
  c.istr[0] = c.ostr[0] = 1;
  if (mv_copy_finish(&c, why, wl)) return -1;
  mv_step *s = mv_step_add(p, ST_COPY);
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
  if (mv_check_plain(out, "output", why, wl)) return -1;
  if (!val) return mv_fail(why, wl, "value missing");
  if (val->dtype != out->dtype)
    return mv_fail(why, wl, "value %s with output %s not supported", dtype_name(val->dtype),
                   dtype_name(out->dtype));
  if (ir_numel(val) != 1) return mv_fail(why, wl, "value must be a scalar");
  if (mv_numel64(out) > INT32_MAX) return mv_fail(why, wl, "tensor too large");
  mv_step *s = mv_add_fill(p, op->out[0], (int)dtype_size(out->dtype), mv_numel64(out));
  s->aux_t = op->in[1];
  return 0;
}

/* ZEROS_LIKE */
static int plan_zeros_like(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (mv_io_common(g, op, why, wl)) return -1;
  if (mv_numel64(OUT(0)) > INT32_MAX) return mv_fail(why, wl, "tensor too large");
  mv_add_fill(p, op->out[0], (int)dtype_size(OUT(0)->dtype), mv_numel64(OUT(0)));
  return 0;
}

/* TILE */
static int plan_tile(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  int64_t mult[IR_MAX_RANK];
  int nm;
  if (io_and_vector(g, op, "multiples", mult, &nm, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  int rank = in->rank;
  if (nm != rank || out->rank != rank) return mv_fail(why, wl, "multiples must have %d values", rank);
  int64_t istr[IR_MAX_RANK], ostr[IR_MAX_RANK];
  mv_copy c;
  mv_copy_start(in, out, istr, ostr, &c, 2 * rank);
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
  return mv_add_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, why, wl);
}

/* BROADCAST_TO */
static int plan_broadcast_to(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (mv_io_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  int rank = out->rank;
  if (in->rank > rank) return mv_fail(why, wl, "input rank %d > output rank %d", in->rank, rank);
  int64_t istr[IR_MAX_RANK], ostr[IR_MAX_RANK];
  mv_copy c;
  mv_copy_start(in, out, istr, ostr, &c, rank);
  for (int d = 0; d < rank; d++) {
    int k = d - (rank - in->rank);
    int idim = k >= 0 ? in->shape[k] : 1;
    if (idim != out->shape[d] && idim != 1)
      return mv_fail(why, wl, "input dim %d (%d) does not broadcast to %d", k, idim, out->shape[d]);
    c.count[d] = out->shape[d];
    c.ostr[d] = ostr[d];
    c.istr[d] = (k >= 0 && idim != 1) ? istr[k] : 0;
  }
  return mv_add_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, why, wl);
}

/* DEPTH_TO_SPACE / SPACE_TO_DEPTH (NHWC) */
static int plan_d2s_s2d(const ir_graph *g, const ir_op *op, mv_plan *p, int d2s, char *why, size_t wl) {
  if (mv_io_common(g, op, why, wl)) return -1;
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
  return mv_add_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, why, wl);
}
static int plan_d2s(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  return plan_d2s_s2d(g, op, p, 1, why, wl);
}
static int plan_s2d(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  return plan_d2s_s2d(g, op, p, 0, why, wl);
}

/* RESIZE_* common checks; returns 0 and sizes */
static int resize_common(const ir_graph *g, const ir_op *op, char *why, size_t wl) {
  if (mv_io_common(g, op, why, wl)) return -1;
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
  if (!mv_same_quant(in, out)) return mv_fail(why, wl, "input and output quantization differ");
  return 0;
}

/* RESIZE_NEAREST_NEIGHBOR */
static int plan_resize_nn(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (resize_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  int B = in->shape[0], ih = in->shape[1], iw = in->shape[2], C = in->shape[3];
  int oh = out->shape[1], ow = out->shape[2];
  if (mv_numel64(out) == 0) return 0;
  mv_step *s = mv_step_add(p, ST_INDEX_MAP);
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
  mv_step *s = mv_step_add(p, ST_RESIZE_BL);
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

#define ANY_DT "any fixed-size dtype"

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
