/* make_gru_int8.c IN.tflite OUT.tflite [per-tensor] [mutate] [collide] [first-only] - rewrites a
 * float32 Keras rolled-GRU model into the form TensorFlow's converter writes
 * with dynamic-range quantization (Optimize.DEFAULT, no representative
 * dataset): every float32 constant weight of a FULLY_CONNECTED in a subgraph
 * other than the main one (the WHILE bodies) becomes int8, symmetric, zero
 * point 0, values in [-127, 127], with one scale per output row (default) or
 * one per tensor ("per-tensor"): scale = max |w| / 127, q = round(w / scale)
 * (half away from zero); the op's options get asymmetric_quantize_inputs = 1
 * as the converter sets them. Activations and biases stay float32.
 *
 * "mutate" breaks the GRU proof but keeps a valid graph: the last MUL of
 * each body becomes an ADD (the loop then computes another recurrence,
 * which the WHILE lowering and the reference interpreter still run).
 * "first-only" quantizes only the first such weight of each body: the cell
 * still proves to be a GRU, but mixes int8 and float projections.
 *
 * "collide" adds an (unused) operator code CUSTOM("GRU").
 *
 * Used by tests/integration/test_gru_int8.sh. Prints the number of weights
 * quantized and the int8 / float32 bytes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litert/litert.h"

static int8_t q8(float v, float scale) {
  float r = v / scale;
  long q = lroundf(r);
  if (q > 127) q = 127;
  if (q < -127) q = -127;
  return (int8_t)q;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s IN.tflite OUT.tflite [per-tensor] [mutate] [collide]\n", argv[0]);
    return 1;
  }
  int per_tensor = 0, mutate = 0, collide = 0, first_only = 0;
  for (int i = 3; i < argc; i++) {
    if (strcmp(argv[i], "per-tensor") == 0) per_tensor = 1;
    else if (strcmp(argv[i], "mutate") == 0) mutate = 1;
    else if (strcmp(argv[i], "collide") == 0) collide = 1;
    else if (strcmp(argv[i], "first-only") == 0) first_only = 1;
    else {
      fprintf(stderr, "%s: unknown option '%s'\n", argv[0], argv[i]);
      return 1;
    }
  }
  aotc_diag d = {0};
  litert_model *m = litert_read_file(argv[1], &d);
  if (!m) {
    fprintf(stderr, "%s: %s\n", argv[1], d.msg);
    return 1;
  }
  int nq = 0;
  size_t bytes8 = 0, bytes32 = 0;
  for (int s = 1; s < m->nsubgraphs; s++) {
    litert_subgraph *g = &m->subgraphs[s];
    int nfc = 0;
    if (mutate) {
      int last = -1;
      for (int i = 0; i < g->nops; i++)
        if (litert_op_builtin(m, &g->ops[i]) == OP_MUL) last = i;
      if (last >= 0) {
        int oc = -1;
        for (int k = 0; k < m->nopcodes && oc < 0; k++)
          if (m->opcodes[k].builtin == OP_ADD && !m->opcodes[k].custom_code) oc = k;
        if (oc < 0) oc = litert_add_opcode(m, OP_ADD, NULL, 1);
        g = &m->subgraphs[s];
        litert_op *op = &g->ops[last];
        op->opcode_index = (uint32_t)oc;
        op->opts.type = litert_builtin_options_type(OP_ADD);
      }
    }
    for (int i = 0; i < g->nops; i++) {
      litert_op *op = &g->ops[i];
      int b = litert_op_builtin(m, op);
      if (b != OP_FULLY_CONNECTED || op->ninputs < 2 || op->inputs[1] < 0) continue;
      litert_tensor *w = &g->tensors[op->inputs[1]];
      if (w->type != DT_FLOAT32 || w->rank != 2 || w->buffer == 0 ||
          (int)w->buffer >= m->nbuffers)
        continue;
      int rows = w->shape[0], cols = w->shape[1];
      litert_buffer *buf = &m->buffers[w->buffer];
      if (rows <= 0 || cols <= 0 || buf->size != (size_t)rows * (size_t)cols * 4) continue;
      if (first_only && nfc++ > 0) continue;
      const float *f = (const float *)buf->data;
      int ns = per_tensor ? 1 : rows;
      float *scale = malloc(sizeof(float) * (size_t)ns);
      int64_t *zp = calloc((size_t)ns, sizeof(int64_t));
      for (int r = 0; r < ns; r++) {
        float mx = 0.0f;
        size_t lo = per_tensor ? 0 : (size_t)r * (size_t)cols;
        size_t hi = per_tensor ? (size_t)rows * (size_t)cols : lo + (size_t)cols;
        for (size_t e = lo; e < hi; e++) mx = fabsf(f[e]) > mx ? fabsf(f[e]) : mx;
        scale[r] = mx > 0.0f ? mx / 127.0f : 1.0f;
      }
      int8_t *q = malloc((size_t)rows * (size_t)cols);
      for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
          size_t e = (size_t)r * (size_t)cols + (size_t)c;
          q[e] = q8(f[e], scale[per_tensor ? 0 : r]);
        }
      /* a new buffer: the float one may be shared */
      int nb = litert_add_buffer(m, q, (size_t)rows * (size_t)cols);
      free(q);
      g = &m->subgraphs[s];
      op = &g->ops[i];
      w = &g->tensors[op->inputs[1]];
      w->buffer = (uint32_t)nb;
      w->type = DT_INT8;
      free(w->q.scale), free(w->q.zero_point);
      w->q.nscale = w->q.nzero = ns;
      w->q.scale = scale;
      w->q.zero_point = zp;
      w->q.quantized_dimension = 0;
      op->opts.asymmetric_quantize_inputs = 1;
      nq++;
      bytes8 += (size_t)rows * (size_t)cols;
      bytes32 += (size_t)rows * (size_t)cols * 4;
    }
  }
  if (collide) litert_add_opcode(m, OP_CUSTOM, "GRU", 1);
  if (nq == 0 && !collide) {
    fprintf(stderr, "%s: no float32 FULLY_CONNECTED weights in a loop body\n", argv[1]);
    litert_model_free(m);
    return 1;
  }
  if (litert_write_file(m, argv[2], &d)) {
    fprintf(stderr, "%s: %s\n", argv[2], d.msg);
    litert_model_free(m);
    return 1;
  }
  printf("quantized %d FULLY_CONNECTED weights: %zu int8 bytes (float32: %zu)\n", nq, bytes8,
         bytes32);
  litert_model_free(m);
  return 0;
}
