/* make_refusal_models.c OUTDIR - writes, with aotc's model writer, the models
 * of tests/integration/test_refusals.sh:
 *
 *   flex.tflite       Flex ops: FlexTensorListReserve x2 (main ops 1, 3),
 *                     FlexTensorListSetItem (main op 2), FlexTensorListGetItem
 *                     (subgraph 1 op 0)
 *   ethos_u.tflite    a Vela output: one CUSTOM 'ethos-u' op reading the
 *                     command stream, flash, two scratch tensors no op writes,
 *                     and the input
 *   unknown.tflite    ADD then CUSTOM 'MyMystery' (op 1)
 *   recursive.tflite  WHILE (cond 1, body 2) whose body runs the same WHILE
 *   unwritten.tflite  ADD (op 0) reading a tensor no op writes, named by a
 *                     5,000-character name
 *   twowriters.tflite tensor 'y' written by ADD op 0 and MUL op 1
 *   custom.tflite     y = CUSTOM 'AOTC_TEST_AXPB'(x [2,4], w [4]) with
 *                     custom_options = float b; z = RELU(y); outputs y, z
 *   custom_dyn.tflite the same with y declared [1,4] / signature [-1,4]
 *   custom.npz        input_0 = x, output_0 = y = x * w + b,
 *                     output_1 = max(y, 0), computed here in plain C
 *   custom_wrong.npz  the same with output_0[3] off by 0.01 (a verify that
 *                     must fail)
 *   custom_loop.tflite WHILE (i < 3) { i += 1; x = CUSTOM 'AOTC_TEST_AXPB'(x, w) }
 *                     on x [2,4], the user op in the body subgraph; outputs
 *                     i, x
 *   custom_loop.npz   input_0 = x, output_0 = 3, output_1 = three rounds of
 *                     x * w + b, in plain C
 */
#include "io/npy.h"
#include "litert/litert.h"

#include <stdlib.h>
#include <string.h>

static litert_model *M;

static int op(int sg, int b, const char *custom, int nin, const int32_t *in, int nout,
              const int32_t *out) {
  litert_options o;
  litert_options_default(&o);
  o.type = litert_builtin_options_type(b);
  return litert_add_op(M, sg, b, custom, nin, in, nout, out, &o);
}

static int save(const char *dir, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  aotc_diag d = {0};
  int rc = litert_write_file(M, path, &d);
  if (rc) fprintf(stderr, "%s: %s\n", path, d.msg);
  litert_model_free(M);
  M = NULL;
  return rc;
}

static int flex(const char *dir) {
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  int32_t s4[1] = {4};
  int x = litert_add_tensor(M, 0, "x", DT_FLOAT32, 1, s4, 0);
  int a = litert_add_tensor(M, 0, "a", DT_FLOAT32, 1, s4, 0);
  int l1 = litert_add_tensor(M, 0, "list", DT_VARIANT, 0, NULL, 0);
  int l2 = litert_add_tensor(M, 0, "list2", DT_VARIANT, 0, NULL, 0);
  int l3 = litert_add_tensor(M, 0, "list3", DT_VARIANT, 0, NULL, 0);
  op(0, OP_ADD, NULL, 2, (int32_t[]){x, x}, 1, (int32_t[]){a});
  op(0, OP_CUSTOM, "FlexTensorListReserve", 1, (int32_t[]){a}, 1, (int32_t[]){l1});
  op(0, OP_CUSTOM, "FlexTensorListSetItem", 2, (int32_t[]){l1, a}, 1, (int32_t[]){l2});
  op(0, OP_CUSTOM, "FlexTensorListReserve", 1, (int32_t[]){a}, 1, (int32_t[]){l3});
  litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){a});
  litert_add_subgraph(M, "other");
  int u = litert_add_tensor(M, 1, "u", DT_VARIANT, 0, NULL, 0);
  int v = litert_add_tensor(M, 1, "v", DT_FLOAT32, 1, s4, 0);
  op(1, OP_CUSTOM, "FlexTensorListGetItem", 1, (int32_t[]){u}, 1, (int32_t[]){v});
  litert_set_io(M, 1, 1, (int32_t[]){u}, 1, (int32_t[]){v});
  return save(dir, "flex.tflite");
}

static int ethos_u(const char *dir) {
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  uint8_t cms[16] = {1, 2, 3, 4}, flash[32] = {5};
  int32_t s16[1] = {16}, s32[1] = {32}, sx[2] = {1, 16}, sy[2] = {1, 4};
  int c = litert_add_tensor(M, 0, "_split_1_command_stream", DT_UINT8, 1, s16, litert_add_buffer(M, cms, 16));
  int f = litert_add_tensor(M, 0, "_split_1_flash", DT_UINT8, 1, s32, litert_add_buffer(M, flash, 32));
  int s = litert_add_tensor(M, 0, "_split_1_scratch", DT_UINT8, 1, s32, 0);
  int sf = litert_add_tensor(M, 0, "_split_1_scratch_fast", DT_UINT8, 1, s32, 0);
  int x = litert_add_tensor(M, 0, "input", DT_INT8, 2, sx, 0);
  int y = litert_add_tensor(M, 0, "output", DT_INT8, 2, sy, 0);
  op(0, OP_CUSTOM, "ethos-u", 5, (int32_t[]){c, f, s, sf, x}, 1, (int32_t[]){y});
  litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  return save(dir, "ethos_u.tflite");
}

static int unknown(const char *dir) {
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  int32_t s4[2] = {1, 4};
  int x = litert_add_tensor(M, 0, "x", DT_FLOAT32, 2, s4, 0);
  int a = litert_add_tensor(M, 0, "a", DT_FLOAT32, 2, s4, 0);
  int y = litert_add_tensor(M, 0, "y", DT_FLOAT32, 2, s4, 0);
  op(0, OP_ADD, NULL, 2, (int32_t[]){x, x}, 1, (int32_t[]){a});
  op(0, OP_CUSTOM, "MyMystery", 1, (int32_t[]){a}, 1, (int32_t[]){y});
  litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  return save(dir, "unknown.tflite");
}

static int while_op(int sg, int in, int out) {
  litert_options o;
  litert_options_default(&o);
  o.type = BO_WhileOptions;
  o.cond_subgraph = 1;
  o.body_subgraph = 2;
  return litert_add_op(M, sg, OP_WHILE, NULL, 1, (int32_t[]){in}, 1, (int32_t[]){out}, &o);
}

static int recursive(const char *dir) {
  M = litert_model_new();
  int32_t s1[1] = {1};
  int32_t three = 3;
  litert_add_subgraph(M, "main");
  int x = litert_add_tensor(M, 0, "i", DT_INT32, 1, s1, 0);
  int y = litert_add_tensor(M, 0, "i_out", DT_INT32, 1, s1, 0);
  while_op(0, x, y);
  litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  litert_add_subgraph(M, "cond");
  int ci = litert_add_tensor(M, 1, "i", DT_INT32, 1, s1, 0);
  int c3 = litert_add_tensor(M, 1, "three", DT_INT32, 1, s1, litert_add_buffer(M, &three, 4));
  int cb = litert_add_tensor(M, 1, "less", DT_BOOL, 1, s1, 0);
  op(1, OP_LESS, NULL, 2, (int32_t[]){ci, c3}, 1, (int32_t[]){cb});
  litert_set_io(M, 1, 1, (int32_t[]){ci}, 1, (int32_t[]){cb});
  litert_add_subgraph(M, "body");
  int bi = litert_add_tensor(M, 2, "i", DT_INT32, 1, s1, 0);
  int bo = litert_add_tensor(M, 2, "i_next", DT_INT32, 1, s1, 0);
  while_op(2, bi, bo);
  litert_set_io(M, 2, 1, (int32_t[]){bi}, 1, (int32_t[]){bo});
  return save(dir, "recursive.tflite");
}

static int unwritten(const char *dir) {
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  int32_t s4[2] = {1, 4};
  char *name = malloc(5001);
  memset(name, 'g', 5000);
  memcpy(name, "ghost_", 6);
  name[5000] = 0;
  int x = litert_add_tensor(M, 0, "x", DT_FLOAT32, 2, s4, 0);
  int g = litert_add_tensor(M, 0, name, DT_FLOAT32, 2, s4, 0);
  int y = litert_add_tensor(M, 0, "y", DT_FLOAT32, 2, s4, 0);
  free(name);
  op(0, OP_ADD, NULL, 2, (int32_t[]){x, g}, 1, (int32_t[]){y});
  litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  return save(dir, "unwritten.tflite");
}

static int twowriters(const char *dir) {
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  int32_t s4[2] = {1, 4};
  int x = litert_add_tensor(M, 0, "x", DT_FLOAT32, 2, s4, 0);
  int y = litert_add_tensor(M, 0, "y", DT_FLOAT32, 2, s4, 0);
  op(0, OP_ADD, NULL, 2, (int32_t[]){x, x}, 1, (int32_t[]){y});
  op(0, OP_MUL, NULL, 2, (int32_t[]){x, x}, 1, (int32_t[]){y});
  litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  return save(dir, "twowriters.tflite");
}

static const float W[4] = {0.5f, -1.25f, 2.0f, 0.75f};
static const float B = 0.125f;
static const float X[8] = {1.0f, 2.0f, -3.0f, 0.5f, -0.25f, 4.0f, 1.5f, -2.0f};

static int custom(const char *dir, int dyn) {
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  int32_t s24[2] = {2, 4}, s14[2] = {1, 4}, s4[1] = {4};
  int x = litert_add_tensor(M, 0, "x", DT_FLOAT32, 2, s24, 0);
  int w = litert_add_tensor(M, 0, "w", DT_FLOAT32, 1, s4, litert_add_buffer(M, W, sizeof W));
  int y = litert_add_tensor(M, 0, "y", DT_FLOAT32, 2, dyn ? s14 : s24, 0);
  if (dyn) {
    litert_tensor *t = &M->subgraphs[0].tensors[y];
    t->shape_signature = malloc(2 * sizeof(int32_t));
    t->shape_signature[0] = -1;
    t->shape_signature[1] = 4;
  }
  int z = litert_add_tensor(M, 0, "z", DT_FLOAT32, 2, s24, 0);
  int oi = op(0, OP_CUSTOM, "AOTC_TEST_AXPB", 2, (int32_t[]){x, w}, 1, (int32_t[]){y});
  litert_op *o = &M->subgraphs[0].ops[oi];
  o->custom_options = malloc(4);
  memcpy(o->custom_options, &B, 4);
  o->custom_options_len = 4;
  op(0, OP_RELU, NULL, 1, (int32_t[]){y}, 1, (int32_t[]){z});
  litert_set_io(M, 0, 1, (int32_t[]){x}, 2, (int32_t[]){y, z});
  return save(dir, dyn ? "custom_dyn.tflite" : "custom.tflite");
}

static int custom_loop(const char *dir) {
  M = litert_model_new();
  int32_t s24[2] = {2, 4}, s4[1] = {4}, s1[1] = {1};
  int32_t zero = 0, one = 1, three = 3;
  litert_options wo;
  litert_options_default(&wo);
  wo.type = BO_WhileOptions;
  wo.cond_subgraph = 1;
  wo.body_subgraph = 2;
  litert_add_subgraph(M, "main");
  int x = litert_add_tensor(M, 0, "x", DT_FLOAT32, 2, s24, 0);
  int i0 = litert_add_tensor(M, 0, "i0", DT_INT32, 1, s1, litert_add_buffer(M, &zero, 4));
  int io = litert_add_tensor(M, 0, "i_out", DT_INT32, 1, s1, 0);
  int xo = litert_add_tensor(M, 0, "x_out", DT_FLOAT32, 2, s24, 0);
  litert_add_op(M, 0, OP_WHILE, NULL, 2, (int32_t[]){i0, x}, 2, (int32_t[]){io, xo}, &wo);
  litert_set_io(M, 0, 1, (int32_t[]){x}, 2, (int32_t[]){io, xo});
  litert_add_subgraph(M, "cond");
  int ci = litert_add_tensor(M, 1, "i", DT_INT32, 1, s1, 0);
  int cx = litert_add_tensor(M, 1, "x", DT_FLOAT32, 2, s24, 0);
  int c3 = litert_add_tensor(M, 1, "three", DT_INT32, 1, s1, litert_add_buffer(M, &three, 4));
  int cb = litert_add_tensor(M, 1, "go_on", DT_BOOL, 1, s1, 0);
  op(1, OP_LESS, NULL, 2, (int32_t[]){ci, c3}, 1, (int32_t[]){cb});
  litert_set_io(M, 1, 2, (int32_t[]){ci, cx}, 1, (int32_t[]){cb});
  litert_add_subgraph(M, "body");
  int bi = litert_add_tensor(M, 2, "i", DT_INT32, 1, s1, 0);
  int bx = litert_add_tensor(M, 2, "x", DT_FLOAT32, 2, s24, 0);
  int b1 = litert_add_tensor(M, 2, "one", DT_INT32, 1, s1, litert_add_buffer(M, &one, 4));
  int bw = litert_add_tensor(M, 2, "w", DT_FLOAT32, 1, s4, litert_add_buffer(M, W, sizeof W));
  int bi1 = litert_add_tensor(M, 2, "i_next", DT_INT32, 1, s1, 0);
  int by = litert_add_tensor(M, 2, "x_next", DT_FLOAT32, 2, s24, 0);
  op(2, OP_ADD, NULL, 2, (int32_t[]){bi, b1}, 1, (int32_t[]){bi1});
  int oi = op(2, OP_CUSTOM, "AOTC_TEST_AXPB", 2, (int32_t[]){bx, bw}, 1, (int32_t[]){by});
  litert_op *o = &M->subgraphs[2].ops[oi];
  o->custom_options = malloc(4);
  memcpy(o->custom_options, &B, 4);
  o->custom_options_len = 4;
  litert_set_io(M, 2, 2, (int32_t[]){bi, bx}, 2, (int32_t[]){bi1, by});
  if (save(dir, "custom_loop.tflite")) return 1;
  /* golden */
  float v[8];
  memcpy(v, X, sizeof v);
  for (int it = 0; it < 3; it++)
    for (int k = 0; k < 8; k++) {
      float p = v[k] * W[k % 4];
      v[k] = p + B;
    }
  int32_t n = 3;
  int64_t shape[2] = {2, 4}, sh1[1] = {1};
  npy_array a[3];
  aotc_diag d = {0};
  memset(a, 0, sizeof a);
  if (npy_init(&a[0], "input_0", DT_FLOAT32, 2, shape, X, &d) || npy_init(&a[1], "output_0", DT_INT32, 1, sh1, &n, &d) ||
      npy_init(&a[2], "output_1", DT_FLOAT32, 2, shape, v, &d))
    return 1;
  char path[4096];
  snprintf(path, sizeof path, "%s/custom_loop.npz", dir);
  int rc = npz_write(path, a, 3, 0, &d);
  if (rc) fprintf(stderr, "%s: %s\n", path, d.msg);
  for (int i = 0; i < 3; i++) npy_free(&a[i]);
  return rc;
}

static int golden(const char *dir, int wrong) {
  float y[8], z[8];
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 4; c++) {
      float p = X[r * 4 + c] * W[c];
      y[r * 4 + c] = p + B;
      z[r * 4 + c] = y[r * 4 + c] > 0.0f ? y[r * 4 + c] : 0.0f;
    }
  if (wrong) y[3] += 0.01f;
  int64_t shape[2] = {2, 4};
  npy_array a[3];
  aotc_diag d = {0};
  memset(a, 0, sizeof a);
  if (npy_init(&a[0], "input_0", DT_FLOAT32, 2, shape, X, &d) || npy_init(&a[1], "output_0", DT_FLOAT32, 2, shape, y, &d) ||
      npy_init(&a[2], "output_1", DT_FLOAT32, 2, shape, z, &d))
    return 1;
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, wrong ? "custom_wrong.npz" : "custom.npz");
  int rc = npz_write(path, a, 3, 0, &d);
  if (rc) fprintf(stderr, "%s: %s\n", path, d.msg);
  for (int i = 0; i < 3; i++) npy_free(&a[i]);
  return rc;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
    return 1;
  }
  const char *dir = argv[1];
  int rc = flex(dir) || ethos_u(dir) || unknown(dir) || recursive(dir) || unwritten(dir) ||
           twowriters(dir) || custom(dir, 0) || custom(dir, 1) || golden(dir, 0) ||
           golden(dir, 1) || custom_loop(dir);
  return rc ? 1 : 0;
}
