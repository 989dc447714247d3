/* conv_as_fc.c - a CONV_2D whose one window per image is the whole input
 * is the FULLY_CONNECTED of the flattened image. With output [B, 1, 1, O],
 * filter [O, H, W, C] over input [B, H, W, C] (one group, no padding:
 * stride and dilation do not matter for the single window), NHWC stores
 * each image [H, W, C] in the order the filter stores each of its rows, so
 * the filter bytes are the weight matrix [O, H * W * C] as they are, and
 * output channel o sums the same products w * (x + input offset) + bias.
 * Streaming audio models are made of these: every call computes one new
 * frame from a window of past frames (microWakeWord's okay_nabu: a 5-frame
 * CONV_2D and five 1x1 ones of one position each). The convolution kernels
 * set up windows and per-call channel constants that a single position
 * does not repay; the FC kernels start at once (okay_nabu's 64 -> 64 layer:
 * 22,546 instructions as CONV_2D on Cortex-M4).
 * The transform gives the filter the shape [O, K] and the op the type
 * FULLY_CONNECTED; the output keeps its shape [B, 1, 1, O], which the FC
 * lowering accepts (batches x output depth elements). Requantization is
 * the convolution's: a per-tensor filter scale is repeated per output
 * channel, so the FC lowering computes the multipliers per channel as
 * TFLite's convolution does (in double, conv_channel_multipliers) rather
 * than with its own per-tensor rounding. int8 and int16x8 layers only (a
 * float32 or hybrid layer keeps its own kernels); the filter must be a
 * constant that no other op reads. The op keeps its model name
 * (ir_op.model_builtin) in the generated code and the reports. */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

#include "../ops/ops.h"

static int conv_as_fc_ok(const ir_graph *g, const ir_op *op) {
  if (op->dead || op->builtin != OP_CONV_2D || op->nin < 2 || op->nout < 1) return 0;
  if (op->in[0] < 0 || op->in[1] < 0 || op->out[0] < 0) return 0;
  const ir_tensor *x = &g->t[op->in[0]], *y = &g->t[op->out[0]];
  const int fi = ir_root(g, op->in[1]);
  const ir_tensor *f = &g->t[fi];
  if (x->rank != 4 || y->rank != 4 || f->rank != 4) return 0;
  for (int d = 0; d < 4; d++)
    if (x->shape[d] <= 0 || y->shape[d] <= 0 || f->shape[d] <= 0) return 0;
  /* one window, the whole image, one group */
  if (y->shape[1] != 1 || y->shape[2] != 1 || y->shape[0] != x->shape[0] ||
      f->shape[0] != y->shape[3] || f->shape[1] != x->shape[1] || f->shape[2] != x->shape[2] ||
      f->shape[3] != x->shape[3])
    return 0;
  /* a dilated window longer than one tap would reach past the image (SAME
     padding): not the flattened image */
  if ((op->opts.dilation_h != 1 && f->shape[1] != 1) || (op->opts.dilation_w != 1 && f->shape[2] != 1))
    return 0;
  if ((int64_t)f->shape[1] * f->shape[2] * f->shape[3] > INT32_MAX) return 0;
  if (f->role != ROLE_CONST || !f->data || ir_bytes(f) != f->data_bytes) return 0;
  if (op->in[1] != fi || ir_consumers(g, fi) != 1 || ir_is_output(g, fi)) return 0;
  const int ok_dt = (x->dtype == DT_INT8 || x->dtype == DT_INT16) && f->dtype == DT_INT8;
  if (!ok_dt || x->dtype != y->dtype || f->nq < 1) return 0;
  if (f->nq > 1 && (f->qdim != 0 || f->nq != f->shape[0])) return 0;
  /* bytes another constant shares (a RESHAPE's output aliased to them) stay */
  for (int t = 0; f->owned_data && t < g->nt; t++)
    if (t != fi && g->t[t].data == f->owned_data) return 0;
  return 1;
}

int pass_conv_as_fc(ir_graph *g) {
  int changes = 0;
  for (int i = 0; i < g->nops; i++) {
    ir_op *op = &g->ops[i];
    if (!conv_as_fc_ok(g, op)) continue;
    ir_tensor *f = &g->t[op->in[1]];
    const ir_tensor old = *f;
    const int32_t o = f->shape[0], k = f->shape[1] * f->shape[2] * f->shape[3];
    float *scale = NULL;
    int32_t *zp = NULL;
    if (f->nq == 1) {   /* the convolution's per-channel multipliers */
      scale = xmalloc((size_t)o * sizeof *scale);
      zp = xmalloc((size_t)o * sizeof *zp);
      for (int32_t c = 0; c < o; c++) {
        scale[c] = f->scale[0];
        zp[c] = f->zero_point[0];
      }
      f->scale = scale;
      f->zero_point = zp;
      f->nq = o;
      f->qdim = 0;
    }
    f->rank = 2;
    f->shape[0] = o;
    f->shape[1] = k;
    f->shape[2] = f->shape[3] = 0;
    const litert_options old_opts = op->opts;
    op->builtin = OP_FULLY_CONNECTED;
    op->opts.type = litert_builtin_options_type(OP_FULLY_CONNECTED);
    op->opts.keep_num_dims = 0;
    op->opts.weights_format = 0;
    /* the FULLY_CONNECTED implementation must accept the layer as it now is */
    const op_impl *impl = ops_find(g, op);
    char why[256];
    if (!impl || (impl->check && impl->check(g, op, why, sizeof why) != 0)) {
      op->builtin = OP_CONV_2D;
      op->opts = old_opts;
      *f = old;
      free(scale);
      free(zp);
      continue;
    }
    if (scale) {
      free(old.scale);
      free(old.zero_point);
    }
    changes++;
  }
  return changes;
}
