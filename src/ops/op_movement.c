/* op_movement.c - RESHAPE, SQUEEZE, EXPAND_DIMS, CONCATENATION, PAD, PADV2,
 * MIRROR_PAD, STRIDED_SLICE, SLICE and DYNAMIC_UPDATE_SLICE.
 *
 * Each operator is one plan function that reads its constant parameters
 * (paddings, begin/end/strides, sizes) from the IR and resolves the op into
 * steps of the movement step engine (mv_plan.h): strided copies, fills,
 * requantizing row copies, copies moved by run-time begin values. check,
 * emit and eval of every op run the same plan (mv_run_*). */
#include "mv_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* RESHAPE / SQUEEZE / EXPAND_DIMS: a byte copy. */
static int plan_reshape(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (mv_io_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  if (mv_numel64(in) != mv_numel64(out))
    return mv_fail(why, wl, "input has %lld elements, output %lld", (long long)mv_numel64(in),
                   (long long)mv_numel64(out));
  return mv_add_flat_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), mv_numel64(in), why, wl);
}

/* CONCATENATION */
static int plan_concat(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  const ir_tensor *out = OUT(0);
  if (mv_check_plain(out, "output", why, wl)) return -1;
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
    if (mv_check_plain(in, what, why, wl) || mv_check_same_dtype(in, out, why, wl)) return -1;
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
    if (quant && !mv_same_quant(in, out) && in->nq && out->nq) {
      if (in->nq != 1 || out->nq != 1)
        return mv_fail(why, wl, "input %d per-channel quantization differs from the output's", i);
      if (outer * total * inner > INT32_MAX) return mv_fail(why, wl, "tensor too large");
      mv_step *s = mv_step_add(p, ST_REQUANT);
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
      if (mv_add_copy(p, op->in[i], op->out[0], esize, &c, why, wl)) return -1;
    }
    pos += in->shape[axis];
  }
  return 0;
}

/* The paddings (input 1, [rank, 2] before/after pairs) of PAD, PADV2 and
 * MIRROR_PAD, whose output has rank orank. */
static int pad_paddings(const ir_graph *g, const ir_op *op, int rank, int orank, int64_t *pads,
                        char *why, size_t wl) {
  if (orank != rank) return mv_fail(why, wl, "output rank %d, input rank %d", orank, rank);
  int np;
  if (mv_const_ints(g, op->nin > 1 ? op->in[1] : -1, "paddings", pads, 2 * IR_MAX_RANK, &np, why, wl))
    return -1;
  if (np != 2 * rank) return mv_fail(why, wl, "paddings has %d values, expected %d", np, 2 * rank);
  return 0;
}

/* PAD / PADV2 */
static int plan_pad(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (mv_io_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  int rank = in->rank;
  int64_t pads[2 * IR_MAX_RANK];
  if (pad_paddings(g, op, rank, out->rank, pads, why, wl)) return -1;
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
    mv_step *f = mv_add_fill(p, op->out[0], esize, mv_numel64(out));
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
  int64_t ostr[IR_MAX_RANK], istr[IR_MAX_RANK];
  mv_copy_start(out, in, ostr, istr, &c, rank);
  for (int d = 0; d < rank; d++) {
    c.count[d] = in->shape[d];
    c.istr[d] = istr[d];
    c.ostr[d] = ostr[d];
    c.out_off += pads[2 * d] * ostr[d];
  }
  return mv_add_copy(p, op->in[0], op->out[0], esize, &c, why, wl);
}

/* MIRROR_PAD */
static int plan_mirror_pad(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  if (mv_io_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *out = OUT(0);
  int rank = in->rank;
  if (rank < 1 || rank > AOT_MV_MAX_DIMS) return mv_fail(why, wl, "rank %d not supported", rank);
  int64_t pads[2 * IR_MAX_RANK];
  if (pad_paddings(g, op, rank, out->rank, pads, why, wl)) return -1;
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
  if (mv_numel64(out) == 0) return 0;
  mv_step *s = mv_step_add(p, ST_INDEX_MAP);
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
    if (n != mv_numel64(out))
      return mv_fail(why, wl, "slice has %lld elements, output %lld", (long long)n,
                     (long long)mv_numel64(out));
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
  if (mv_check_dyn_begin(g, op->in[1], nb, "begin", why, wl)) return -1;
  int64_t ev[IR_MAX_RANK], sv[IR_MAX_RANK];
  int ne = 0, ns;
  if (mv_const_ints(g, op->nin > 3 ? op->in[3] : -1, "strides", sv, IR_MAX_RANK, &ns, why, wl))
    return -1;
  if (ns != nb) return mv_fail(why, wl, "begin/end/strides lengths differ");
  int end_const = op->nin > 2 && !mv_is_runtime(g, op->in[2]);
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
  mv_step *s = mv_add_dyn_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, op->in[1],
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
  if (mv_io_common(g, op, why, wl)) return -1;
  if (op->nin > 1 && mv_is_runtime(g, op->in[1])) return plan_strided_slice_dyn(g, op, p, why, wl);
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
  return mv_add_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, why, wl);
}

/* SLICE's output has the input's rank; starts copy c over it, with the input
 * strides in istr. */
static int slice_copy_start(const ir_tensor *in, const ir_tensor *out, int64_t *istr, mv_copy *c,
                            char *why, size_t wl) {
  if (out->rank != in->rank)
    return mv_fail(why, wl, "output rank %d, input rank %d", out->rank, in->rank);
  mv_strides(in->shape, in->rank, istr);
  memset(c, 0, sizeof *c);
  c->rank = in->rank;
  return 0;
}

/* SLICE with a begin computed at run time (constant size): the kernel fails
 * the run when begin leaves the input. A size of -1 ("to the end") fixes
 * begin to input dim - output dim. */
static int plan_slice_dyn(const ir_graph *g, const ir_op *op, mv_plan *p, char *why, size_t wl) {
  const ir_tensor *in = IN(0), *out = OUT(0);
  int rank = in->rank;
  int64_t sv[IR_MAX_RANK];
  int ns;
  if (mv_check_dyn_begin(g, op->in[1], rank, "begin", why, wl)) return -1;
  if (mv_const_ints(g, op->nin > 2 ? op->in[2] : -1, "size", sv, IR_MAX_RANK, &ns, why, wl)) return -1;
  if (ns != rank) return mv_fail(why, wl, "begin/size must have %d values", rank);
  int64_t istr[IR_MAX_RANK];
  mv_copy c;
  if (slice_copy_start(in, out, istr, &c, why, wl)) return -1;
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
  mv_step *s = mv_add_dyn_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, op->in[1],
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
  if (mv_io_common(g, op, why, wl)) return -1;
  if (op->nin > 1 && mv_is_runtime(g, op->in[1])) return plan_slice_dyn(g, op, p, why, wl);
  const ir_tensor *in = IN(0), *out = OUT(0);
  int rank = in->rank;
  int64_t bv[IR_MAX_RANK], sv[IR_MAX_RANK];
  int nb, ns;
  if (mv_const_ints(g, op->nin > 1 ? op->in[1] : -1, "begin", bv, IR_MAX_RANK, &nb, why, wl)) return -1;
  if (mv_const_ints(g, op->nin > 2 ? op->in[2] : -1, "size", sv, IR_MAX_RANK, &ns, why, wl)) return -1;
  if (nb != rank || ns != rank) return mv_fail(why, wl, "begin/size must have %d values", rank);
  int64_t istr[IR_MAX_RANK];
  mv_copy c;
  if (slice_copy_start(in, out, istr, &c, why, wl)) return -1;
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
  return mv_add_copy(p, op->in[0], op->out[0], (int)dtype_size(in->dtype), &c, why, wl);
}

/* DYNAMIC_UPDATE_SLICE (operand, update, start_indices): the output is the
 * operand with update written at start (clamped into the operand, XLA /
 * TFLite semantics). Start indices may be computed at run time. */
static int plan_dynamic_update_slice(const ir_graph *g, const ir_op *op, mv_plan *p, char *why,
                                     size_t wl) {
  if (mv_io_common(g, op, why, wl)) return -1;
  const ir_tensor *in = IN(0), *upd = IN(1), *out = OUT(0);
  if (mv_check_plain(upd, "update", why, wl) || mv_check_same_dtype(upd, out, why, wl)) return -1;
  int rank = in->rank;
  if (out->rank != rank || mv_numel64(out) != mv_numel64(in))
    return mv_fail(why, wl, "output shape differs from the operand's");
  if (upd->rank != rank) return mv_fail(why, wl, "update rank %d, operand rank %d", upd->rank, rank);
  for (int d = 0; d < rank; d++)
    if (upd->shape[d] > in->shape[d] || out->shape[d] != in->shape[d])
      return mv_fail(why, wl, "update dim %d (%d) larger than the operand's (%d)", d, upd->shape[d],
                     in->shape[d]);
  if (mv_check_dyn_begin(g, op->nin > 2 ? op->in[2] : -1, rank, "start_indices", why, wl)) return -1;
  int esize = (int)dtype_size(in->dtype);
  if (mv_add_flat_copy(p, op->in[0], op->out[0], esize, mv_numel64(in), why, wl)) return -1;
  if (mv_numel64(upd) == 0) return 0;
  int64_t ostr[IR_MAX_RANK], ustr[IR_MAX_RANK];
  mv_copy c;
  mv_copy_start(in, upd, ostr, ustr, &c, rank);
  for (int d = 0; d < rank; d++) {
    c.count[d] = upd->shape[d];
    c.istr[d] = ustr[d];
    c.ostr[d] = ostr[d];
  }
  if (!mv_is_runtime(g, op->in[2])) {
    /* constant start: clamped now */
    int64_t sv[IR_MAX_RANK];
    int ns;
    if (mv_const_ints(g, op->in[2], "start_indices", sv, IR_MAX_RANK, &ns, why, wl)) return -1;
    for (int d = 0; d < rank; d++) {
      int64_t v = sv[d], top = in->shape[d] - upd->shape[d];
      v = v < 0 ? 0 : (v > top ? top : v);
      c.out_off += v * ostr[d];
    }
    return mv_add_copy(p, op->in[1], op->out[0], esize, &c, why, wl);
  }
  mv_step *s = mv_add_dyn_copy(p, op->in[1], op->out[0], esize, &c, op->in[2], rank, why, wl);
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

#define ANY_DT "any fixed-size dtype"

#define RESHAPE_NOTE "byte copy; usually aliased away by aotc (equal element counts)"
MV_OP(reshape, OP_RESHAPE, "RESHAPE", ANY_DT, RESHAPE_NOTE, plan_reshape, 1)
MV_OP(squeeze, OP_SQUEEZE, "SQUEEZE", ANY_DT, RESHAPE_NOTE, plan_reshape, 1)
MV_OP(expand_dims, OP_EXPAND_DIMS, "EXPAND_DIMS", ANY_DT, RESHAPE_NOTE, plan_reshape, 1)
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
MV_OP(dynamic_update_slice, OP_DYNAMIC_UPDATE_SLICE, "DYNAMIC_UPDATE_SLICE", ANY_DT,
      "start indices constant or computed at run time, int32/int64; clamped into the operand "
      "(XLA semantics)",
      plan_dynamic_update_slice, 1)
