/* fuzz_semantic.c - libFuzzer target with a semantic custom mutator.
 *
 * Byte mutations rarely get past the reader's checks; this mutator reads the
 * input with aotc's reader, rewires what the model means and writes it back
 * with aotc's writer, so every mutant is a valid flatbuffer with hostile
 * meaning (issue 11): subgraph indices of WHILE / IF / CALL_ONCE / CALL ops,
 * op input and output tensor indices (also -1), subgraph input and output
 * lists, quantization parameters (scales 0, negative, tiny, huge, inf, NaN;
 * zero points INT32_MIN / INT32_MAX / out of range; per-channel counts and
 * dimensions), tensor dtypes, shapes and buffers, and op options (strides,
 * dilations, axes, fused activations). Inputs the reader refuses fall back
 * to libFuzzer's byte mutation.
 *
 * The target runs the whole conversion (reader, hooks, the shared control
 * check, IR, transforms, plan, operator checks, code generation into a
 * temporary directory). Property: no crash, no sanitizer report, and every
 * refusal is one non-empty line. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static aotc_config cfg;
static int cfg_ready;

static void check_msg(const aotc_diag *d) {
  if (!d->msg[0] || strchr(d->msg, '\n')) {
    fprintf(stderr, "bad diagnostic: '%s'\n", d->msg);
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!cfg_ready) {
    config_init(&cfg);
    compile_register_switches(&cfg);
    cfg_ready = 1;
  }
  aotc_diag d;
  memset(&d, 0, sizeof d);
  d.quiet = 1;
  litert_model *m = litert_read(data, size, &d);
  if (!m) {
    check_msg(&d);
    return 0;
  }
  compiled cm;
  if (compile_litert(&cfg, m, NULL, 1, &cm, &d) != 0) {
    check_msg(&d);
    return 0;
  }
  char tmpl[] = "/tmp/aotc-fuzzsem-XXXXXX";
  if (mkdtemp(tmpl)) {
    char dir[64];
    snprintf(dir, sizeof dir, "%s/m", tmpl);
    if (compile_write_module(&cfg, &cm, dir, &d) != 0) check_msg(&d);
    remove_tree(tmpl);
  }
  compiled_free(&cm);
  return 0;
}

/* ---- the mutator ---------------------------------------------------------- */

static uint32_t rng;
static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}
static int pick(int n) { return n > 0 ? (int)(rnd() % (uint32_t)n) : 0; }

/* An index near the valid range of n entries: -1, 0..n-1, n, or far out. */
static int hostile_index(int n) {
  switch (pick(8)) {
    case 0: return -1;
    case 1: return n;
    case 2: return pick(3) == 0 ? -2 : n + 1;
    default: return pick(n > 0 ? n : 1);
  }
}

static float hostile_scale(void) {
  static const float v[] = {0.0f, -1.0f, 1e-30f, 1e30f, 2147483648.0f, 4294967296.0f, 1e-10f,
                            0.5f, 1.0f, 3.0e38f};
  switch (pick(12)) {
    case 0: return HUGE_VALF;
    case 1: return NAN;
    default: return v[pick((int)(sizeof v / sizeof v[0]))];
  }
}

static int64_t hostile_zp(void) {
  static const int64_t v[] = {INT32_MIN, INT32_MAX, -128, 127, 128, -129, 255, 256, -32768, 32767,
                              65535, 0, 1, (int64_t)INT32_MAX + 1, (int64_t)INT32_MIN - 1};
  return v[pick((int)(sizeof v / sizeof v[0]))];
}

static int hostile_int(void) {
  static const int v[] = {0, -1, 1, 2, 3, 1 << 30, INT32_MAX, INT32_MIN, 65536, -65536, 8, 255};
  return v[pick((int)(sizeof v / sizeof v[0]))];
}

static void mutate_subgraph_index(litert_model *m, litert_op *op) {
  int *f[6] = {&op->opts.cond_subgraph, &op->opts.body_subgraph, &op->opts.then_subgraph,
               &op->opts.else_subgraph, &op->opts.init_subgraph, &op->opts.subgraph};
  *f[pick(6)] = hostile_index(m->nsubgraphs);
}

static void mutate_quant(litert_tensor *t) {
  litert_quant *q = &t->q;
  switch (pick(5)) {
    case 0:
    case 1:
      if (q->nscale > 0) q->scale[pick(q->nscale)] = hostile_scale();
      else {
        q->nscale = 1;
        q->scale = realloc(q->scale, sizeof(float));
        q->scale[0] = hostile_scale();
      }
      break;
    case 2:
      if (q->nzero > 0) q->zero_point[pick(q->nzero)] = hostile_zp();
      else {
        q->nzero = 1;
        q->zero_point = realloc(q->zero_point, sizeof(int64_t));
        q->zero_point[0] = hostile_zp();
      }
      break;
    case 3: q->quantized_dimension = hostile_int() % 9; break;
    default: {
      /* per-channel count that may not match the shape */
      int n = 1 + pick(5);
      q->scale = realloc(q->scale, (size_t)n * sizeof(float));
      q->zero_point = realloc(q->zero_point, (size_t)n * sizeof(int64_t));
      for (int i = q->nscale; i < n; i++) q->scale[i] = pick(2) ? 0.1f : hostile_scale();
      for (int i = q->nzero; i < n; i++) q->zero_point[i] = pick(2) ? 0 : hostile_zp();
      q->nscale = n;
      q->nzero = pick(2) ? n : 1;
      break;
    }
  }
}

static void mutate_once(litert_model *m) {
  if (m->nsubgraphs < 1) return;
  int s = pick(m->nsubgraphs);
  litert_subgraph *g = &m->subgraphs[s];
  litert_op *op = g->nops > 0 ? &g->ops[pick(g->nops)] : NULL;
  litert_tensor *t = g->ntensors > 0 ? &g->tensors[pick(g->ntensors)] : NULL;
  /* mostly a tensor the chosen op reads or writes */
  if (op && pick(3)) {
    int k = pick(op->ninputs + op->noutputs);
    int ti = k < op->ninputs ? op->inputs[k] : (op->noutputs ? op->outputs[k - op->ninputs] : -1);
    if (ti >= 0 && ti < g->ntensors) t = &g->tensors[ti];
  }
  switch (pick(12)) {
    case 0:
    case 1: {
      /* a control op's subgraph: prefer ops that call subgraphs */
      for (int k = 0; k < g->nops && op; k++) {
        int b = litert_op_builtin(m, &g->ops[k]);
        if (b == OP_WHILE || b == OP_IF || b == OP_CALL_ONCE || b == OP_CALL) {
          op = &g->ops[k];
          if (pick(2)) break;
        }
      }
      if (op) mutate_subgraph_index(m, op);
      break;
    }
    case 2:
      if (op && op->ninputs > 0) op->inputs[pick(op->ninputs)] = hostile_index(g->ntensors);
      break;
    case 3:
      if (op && op->noutputs > 0) op->outputs[pick(op->noutputs)] = hostile_index(g->ntensors);
      break;
    case 4:
      if (g->ninputs > 0 && pick(2)) g->inputs[pick(g->ninputs)] = pick(g->ntensors > 0 ? g->ntensors : 1);
      else if (g->noutputs > 0) g->outputs[pick(g->noutputs)] = pick(g->ntensors > 0 ? g->ntensors : 1);
      break;
    case 5:
    case 6:
      if (t) mutate_quant(t);
      break;
    case 7:
      if (t) {
        static const int dts[] = {DT_FLOAT32, DT_FLOAT16, DT_INT32, DT_UINT8, DT_INT64, DT_BOOL,
                                  DT_INT16, DT_INT8};
        t->type = dts[pick(8)];
      }
      break;
    case 8:
      if (t && t->rank > 0) {
        static const int32_t dims[] = {0, 1, 2, 3, 7, 64, 65536, 1 << 30};
        t->shape[pick(t->rank)] = dims[pick(8)];
      }
      break;
    case 9:
      if (t && m->nbuffers > 0) t->buffer = (uint32_t)pick(m->nbuffers);
      break;
    case 10:
      if (op) {
        int *f[8] = {&op->opts.stride_w, &op->opts.stride_h, &op->opts.dilation_w, &op->opts.dilation_h,
                     &op->opts.axis, &op->opts.fused_act, &op->opts.depth_multiplier, &op->opts.num};
        *f[pick(8)] = hostile_int();
      }
      break;
    default:
      /* the same tensor on both sides of an op, or an op reading its output */
      if (op && op->ninputs > 0 && op->noutputs > 0) {
        if (pick(2)) op->inputs[pick(op->ninputs)] = op->outputs[pick(op->noutputs)];
        else op->outputs[pick(op->noutputs)] = op->inputs[pick(op->ninputs)];
      }
      break;
  }
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  rng = seed ? seed : 0x9e3779b9u;
  aotc_diag d;
  memset(&d, 0, sizeof d);
  d.quiet = 1;
  litert_model *m = pick(8) ? litert_read(data, size, &d) : NULL;
  if (!m) return LLVMFuzzerMutate(data, size, max_size);
  int n = 1 + pick(3);
  for (int i = 0; i < n; i++) mutate_once(m);
  uint8_t *out = NULL;
  size_t len = 0;
  size_t r = 0;
  if (litert_write(m, &out, &len, &d) == 0 && len <= max_size) {
    memcpy(data, out, len);
    r = len;
  }
  free(out);
  litert_model_free(m);
  return r ? r : LLVMFuzzerMutate(data, size, max_size);
}
