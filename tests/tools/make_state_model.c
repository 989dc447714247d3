/* make_state_model.c OUT.tflite - writes a float model with explicit state:
 * inputs x [1,4] (0) and h [1,4] (1); outputs y = x * h [1,4] (0),
 * h' = reshape(x + 0.5 * h) [1,1,4] (1), c = cast<int32>(y) [1,4] (2) and
 * reshape(y) [2,2] (3).
 * Used by tests/integration/test_explicit_state.sh. */
#include "litert/litert.h"

static litert_model *M;

static void add_op(int b, int nin, const int32_t *in, int nout, const int32_t *out) {
  litert_options o;
  litert_options_default(&o);
  o.type = litert_builtin_options_type(b);
  if (b == OP_RESHAPE) {
    const litert_tensor *t = &M->subgraphs[0].tensors[out[0]];
    for (int i = 0; i < t->rank; i++) o.new_shape[i] = t->shape[i];
    o.new_shape_n = t->rank;
  }
  litert_add_op(M, 0, b, NULL, nin, in, nout, out, &o);
}

int main(int argc, char **argv) {
  if (argc != 2) return 1;
  M = litert_model_new();
  litert_add_subgraph(M, "main");
  int32_t s14[2] = {1, 4}, s114[3] = {1, 1, 4}, s1[1] = {3};
  int x = litert_add_tensor(M, 0, "x", DT_FLOAT32, 2, s14, 0);
  int h = litert_add_tensor(M, 0, "state_in", DT_FLOAT32, 2, s14, 0);
  float half = 0.5f;
  int32_t sc[1] = {1};
  int c05 = litert_add_tensor(M, 0, "half", DT_FLOAT32, 1, sc, litert_add_buffer(M, &half, 4));
  int y = litert_add_tensor(M, 0, "y", DT_FLOAT32, 2, s14, 0);
  int hh = litert_add_tensor(M, 0, "half_state", DT_FLOAT32, 2, s14, 0);
  int sum = litert_add_tensor(M, 0, "sum", DT_FLOAT32, 2, s14, 0);
  int32_t shp[3] = {1, 1, 4};
  int shp_t = litert_add_tensor(M, 0, "shape", DT_INT32, 1, s1, litert_add_buffer(M, shp, sizeof shp));
  int hout = litert_add_tensor(M, 0, "state_out", DT_FLOAT32, 3, s114, 0);
  int c = litert_add_tensor(M, 0, "y_int", DT_INT32, 2, s14, 0);
  int32_t s22[2] = {2, 2}, s2[1] = {2};
  int shp2_t = litert_add_tensor(M, 0, "shape22", DT_INT32, 1, s2, litert_add_buffer(M, s22, sizeof s22));
  int y22 = litert_add_tensor(M, 0, "y_square", DT_FLOAT32, 2, s22, 0);
  add_op(OP_MUL, 2, (int32_t[]){x, h}, 1, (int32_t[]){y});
  add_op(OP_MUL, 2, (int32_t[]){h, c05}, 1, (int32_t[]){hh});
  add_op(OP_ADD, 2, (int32_t[]){x, hh}, 1, (int32_t[]){sum});
  add_op(OP_RESHAPE, 2, (int32_t[]){sum, shp_t}, 1, (int32_t[]){hout});
  add_op(OP_CAST, 1, (int32_t[]){y}, 1, (int32_t[]){c});
  add_op(OP_RESHAPE, 2, (int32_t[]){y, shp2_t}, 1, (int32_t[]){y22});
  litert_set_io(M, 0, 2, (int32_t[]){x, h}, 4, (int32_t[]){y, hout, c, y22});
  aotc_diag d = {0};
  int rc = litert_write_file(M, argv[1], &d);
  if (rc) fprintf(stderr, "%s\n", d.msg);
  litert_model_free(M);
  return rc ? 1 : 0;
}
