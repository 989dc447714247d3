/* dw_as_conv.c - a DEPTHWISE_CONV_2D of one input channel is the CONV_2D
 * of one input channel with the same window: output channel m sums the
 * taps of filter column m over the single input channel (depth multiplier
 * M = output channels). Audio front ends are written this way (a spectrogram
 * of one channel into M feature maps, as TFLM's micro_speech). The
 * depthwise kernels run a depth multiplier above 1 on their general loop,
 * one output channel at a time; the CONV_2D kernels run it as a matrix
 * product over windows (gathered taps, several output channels per pass).
 * The transform transposes the constant filter [1, kh, kw, M] into
 * [M, kh, kw, 1] (per-channel quantization moves from dimension 3 to 0,
 * the scales stay in output-channel order) and changes the op's type; the
 * sums, and so the outputs, are the same integers. int8, int16x8 and
 * float32 layers only (the hybrid form keeps its own kernels); the filter
 * must be a constant that no other op reads. The op keeps its model name
 * (ir_op.model_builtin) in the generated code and the reports. */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

#include "../ops/ops.h"

static int dw_as_conv_ok(const ir_graph *g, const ir_op *op) {
  if (op->dead || op->builtin != OP_DEPTHWISE_CONV_2D || op->nin < 2 || op->nout < 1) return 0;
  if (op->in[0] < 0 || op->in[1] < 0 || op->out[0] < 0) return 0;
  const ir_tensor *x = &g->t[op->in[0]], *y = &g->t[op->out[0]];
  const int fi = ir_root(g, op->in[1]);
  const ir_tensor *f = &g->t[fi];
  if (x->rank != 4 || y->rank != 4 || f->rank != 4 || x->shape[3] != 1) return 0;
  if (f->shape[0] != 1 || f->shape[3] != y->shape[3] || f->shape[1] <= 0 || f->shape[2] <= 0 ||
      f->shape[3] <= 0)
    return 0;
  if (f->role != ROLE_CONST || !f->data || ir_bytes(f) != f->data_bytes) return 0;
  if (op->in[1] != fi || ir_consumers(g, fi) != 1 || ir_is_output(g, fi)) return 0;
  const int ok_dt = (x->dtype == DT_INT8 && f->dtype == DT_INT8) ||
                    (x->dtype == DT_INT16 && f->dtype == DT_INT8) ||
                    (x->dtype == DT_FLOAT32 && f->dtype == DT_FLOAT32);
  if (!ok_dt || x->dtype != y->dtype) return 0;
  if (f->nq > 1 && f->qdim != 3) return 0;
  /* bytes another constant shares (a RESHAPE's output aliased to them) stay */
  for (int t = 0; f->owned_data && t < g->nt; t++)
    if (t != fi && g->t[t].data == f->owned_data) return 0;
  return 1;
}

int pass_depthwise_as_conv(ir_graph *g) {
  int changes = 0;
  for (int i = 0; i < g->nops; i++) {
    ir_op *op = &g->ops[i];
    if (!dw_as_conv_ok(g, op)) continue;
    ir_tensor *f = &g->t[op->in[1]];
    const size_t es = dtype_size(f->dtype);
    const int32_t kh = f->shape[1], kw = f->shape[2], m = f->shape[3];
    const size_t taps = (size_t)kh * (size_t)kw;
    uint8_t *nd = xmalloc(f->data_bytes);
    for (size_t t = 0; t < taps; t++)
      for (int32_t c = 0; c < m; c++)
        memcpy(nd + ((size_t)c * taps + t) * es, f->data + (t * (size_t)m + (size_t)c) * es, es);
    const int32_t old_shape[4] = {f->shape[0], f->shape[1], f->shape[2], f->shape[3]};
    const int old_qdim = f->qdim;
    const uint8_t *old_data = f->data;
    uint8_t *old_owned = f->owned_data;
    f->shape[0] = m;
    f->shape[3] = 1;
    if (f->nq > 1) f->qdim = 0;
    f->data = nd;
    f->owned_data = nd;
    const int old_type = op->opts.type;
    op->builtin = OP_CONV_2D;
    op->opts.type = litert_builtin_options_type(OP_CONV_2D);
    /* the CONV_2D implementation must accept the layer as it now is */
    const op_impl *impl = ops_find(g, op);
    char why[256];
    if (!impl || (impl->check && impl->check(g, op, why, sizeof why) != 0)) {
      /* not a layer the CONV_2D kernels take: left as it was */
      op->builtin = OP_DEPTHWISE_CONV_2D;
      op->opts.type = old_type;
      memcpy(f->shape, old_shape, sizeof old_shape);
      f->qdim = old_qdim;
      f->data = old_data;
      f->owned_data = old_owned;
      free(nd);
      continue;
    }
    free(old_owned);
    changes++;
  }
  return changes;
}
