/* make_model.c - writes the demo model: a small int8 keyword-spotting-shaped
 * CNN (input [1,49,10,1] int8: CONV_2D -> DEPTHWISE_CONV_2D -> CONV_2D ->
 * AVERAGE_POOL_2D -> RESHAPE -> FULLY_CONNECTED -> SOFTMAX, 12 classes) with
 * deterministic pseudo-random weights, built with aotc's .tflite writer. */
#include "litert/litert.h"

#include <stdlib.h>
#include <string.h>

static uint32_t lcg = 12345u;
static int rnd(int lo, int hi) {
  lcg = lcg * 1664525u + 1013904223u;
  return lo + (int)((lcg >> 8) % (uint32_t)(hi - lo + 1));
}

static litert_model *M;

/* Adds an op whose options carry their schema type. */
static void add_op(int builtin, int nin, const int32_t *in, int nout, const int32_t *out,
                   litert_options *o) {
  o->type = litert_builtin_options_type(builtin);
  litert_add_op(M, 0, builtin, NULL, nin, in, nout, out, o);
}

/* An int8 activation tensor with per-tensor quantization. */
static int act(const char *name, int r, const int32_t *shape, float scale, int64_t zp) {
  int t = litert_add_tensor(M, 0, name, DT_INT8, r, shape, 0);
  litert_tensor_set_quant(M, 0, t, 1, &scale, &zp, 0);
  return t;
}

/* Per-channel int8 weights (channel = dim 0 or 3) and int32 bias. */
static int weights(const char *name, const int32_t shape[4], int qdim, float in_scale, int *bias) {
  int n = shape[0] * shape[1] * shape[2] * shape[3];
  int8_t *w = malloc((size_t)n);
  for (int i = 0; i < n; i++) w[i] = (int8_t)rnd(-127, 127);
  int ch = shape[qdim];
  float *sc = malloc(sizeof(float) * (size_t)ch);
  int64_t *zp = calloc((size_t)ch, sizeof(int64_t));
  int32_t *b = malloc(sizeof(int32_t) * (size_t)ch);
  float *bsc = malloc(sizeof(float) * (size_t)ch);
  for (int c = 0; c < ch; c++) {
    sc[c] = 0.004f + 0.0005f * (float)rnd(0, 8);
    b[c] = rnd(-2000, 2000);
    bsc[c] = sc[c] * in_scale;
  }
  int t = litert_add_tensor(M, 0, name, DT_INT8, 4, shape, litert_add_buffer(M, w, (size_t)n));
  litert_tensor_set_quant(M, 0, t, ch, sc, zp, qdim);
  char bname[64];
  snprintf(bname, sizeof bname, "%s_bias", name);
  int32_t bshape[1] = {ch};
  *bias = litert_add_tensor(M, 0, bname, DT_INT32, 1, bshape,
                            litert_add_buffer(M, b, sizeof(int32_t) * (size_t)ch));
  litert_tensor_set_quant(M, 0, *bias, ch, bsc, zp, 0);
  free(w); free(sc); free(zp); free(b); free(bsc);
  return t;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUT.tflite\n", argv[0]);
    return 1;
  }
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  litert_options o;
  int bias;
  int32_t s_in[4] = {1, 49, 10, 1}, s_c1[4] = {1, 25, 5, 16}, s_c2[4] = {1, 25, 5, 32};
  int32_t s_pool[4] = {1, 1, 1, 32}, s_flat[2] = {1, 32}, s_fc[2] = {1, 12};
  int x = act("input", 4, s_in, 0.5f, 0);
  /* conv 3x3 stride 2, 16 filters, relu */
  int32_t w1s[4] = {16, 3, 3, 1};
  int w1 = weights("conv1_weights", w1s, 0, 0.5f, &bias);
  int c1 = act("conv1_relu", 4, s_c1, 0.05f, -128);
  litert_options_default(&o);
  o.padding = PAD_SAME; o.stride_w = o.stride_h = 2; o.fused_act = ACT_RELU;
  add_op(OP_CONV_2D, 3, (int32_t[]){x, w1, bias}, 1, (int32_t[]){c1}, &o);
  /* depthwise 3x3, relu6 */
  int32_t w2s[4] = {1, 3, 3, 16};
  int w2 = weights("dw_weights", w2s, 3, 0.05f, &bias);
  int c2 = act("dw_relu", 4, s_c1, 0.03f, -128);
  litert_options_default(&o);
  o.padding = PAD_SAME; o.stride_w = o.stride_h = 1; o.depth_multiplier = 1; o.fused_act = ACT_RELU6;
  add_op(OP_DEPTHWISE_CONV_2D, 3, (int32_t[]){c1, w2, bias}, 1, (int32_t[]){c2}, &o);
  /* pointwise conv 1x1, 32 filters, relu */
  int32_t w3s[4] = {32, 1, 1, 16};
  int w3 = weights("pw_weights", w3s, 0, 0.03f, &bias);
  int c3 = act("pw_relu", 4, s_c2, 0.04f, -128);
  litert_options_default(&o);
  o.padding = PAD_VALID; o.stride_w = o.stride_h = 1; o.fused_act = ACT_RELU;
  add_op(OP_CONV_2D, 3, (int32_t[]){c2, w3, bias}, 1, (int32_t[]){c3}, &o);
  /* global average pool */
  int p = act("avg_pool", 4, s_pool, 0.04f, -128);
  litert_options_default(&o);
  o.padding = PAD_VALID; o.stride_w = 5; o.stride_h = 25; o.filter_w = 5; o.filter_h = 25;
  add_op(OP_AVERAGE_POOL_2D, 1, (int32_t[]){c3}, 1, (int32_t[]){p}, &o);
  /* reshape to [1, 32] */
  int32_t shp[2] = {1, 32}, shp_shape[1] = {2};
  int shape_t = litert_add_tensor(M, 0, "flatten_shape", DT_INT32, 1, shp_shape,
                                  litert_add_buffer(M, shp, sizeof shp));
  int f = act("flatten", 2, s_flat, 0.04f, -128);
  litert_options_default(&o);
  o.new_shape[0] = 1; o.new_shape[1] = 32; o.new_shape_n = 2;
  add_op(OP_RESHAPE, 2, (int32_t[]){p, shape_t}, 1, (int32_t[]){f}, &o);
  /* fully connected 12 */
  int32_t w4s[4] = {12, 1, 1, 32};
  int w4 = weights("fc_weights", w4s, 0, 0.04f, &bias);
  int32_t w4shape[2] = {12, 32};
  litert_model *m = M;
  m->subgraphs[0].tensors[w4].rank = 2;
  memcpy(m->subgraphs[0].tensors[w4].shape, w4shape, sizeof w4shape);
  int logits = act("logits", 2, s_fc, 0.1f, 10);
  litert_options_default(&o);
  add_op(OP_FULLY_CONNECTED, 3, (int32_t[]){f, w4, bias}, 1, (int32_t[]){logits}, &o);
  int prob = act("probabilities", 2, s_fc, 1.0f / 256.0f, -128);
  litert_options_default(&o);
  o.beta = 1.0f;
  add_op(OP_SOFTMAX, 1, (int32_t[]){logits}, 1, (int32_t[]){prob}, &o);
  litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){prob});
  aotc_diag d = {0};
  int rc = litert_write_file(M, argv[1], &d);
  if (rc != 0) fprintf(stderr, "make_model: %s\n", d.msg);
  litert_model_free(M);
  return rc == 0 ? 0 : 1;
}
