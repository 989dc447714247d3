/* make_hostile_models.c DIR - writes structurally valid but semantically
 * hostile models (issue 11, classes 1-7, 14, 15) with aotc's writer, and
 * prints a manifest line per model on stdout:
 *
 *   NAME EXPECT WORD [PREFIX]
 *
 * EXPECT is "refuse" (convert must fail with exit 1 or 2 and one line that
 * contains WORD) or "accept" (the module must compile with its own flags
 * and `aotc verify` must pass; WORD is "-" or a string the generated
 * src/PREFIX_model.c must contain). PREFIX, when given, is the --module.prefix to
 * convert with. Used by tests/integration/test_hostile.sh and as seeds of the
 * semantic fuzzer (tests/fuzz/fuzz_semantic.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "litert/litert.h"

static litert_model *M;
static const char *DIR_;

static litert_options opts_for(int b) {
  litert_options o;
  litert_options_default(&o);
  o.type = litert_builtin_options_type(b);
  return o;
}

static int T(int sg, const char *name, int dt, int n) {
  int32_t s[1] = {n};
  return litert_add_tensor(M, sg, name, dt, 1, s, 0);
}

static int C(int sg, const char *name, int dt, int n, const void *data) {
  int32_t s[1] = {n};
  size_t es = dt == DT_BOOL || dt == DT_INT8 ? 1 : 4;
  return litert_add_tensor(M, sg, name, dt, 1, s, litert_add_buffer(M, data, es * (size_t)n));
}

static void op(int sg, int b, int nin, const int32_t *in, int nout, const int32_t *out) {
  litert_options o = opts_for(b);
  litert_add_op(M, sg, b, NULL, nin, in, nout, out, &o);
}

static void op_while(int sg, int cond, int body, int nin, const int32_t *in, int nout, const int32_t *out) {
  litert_options o = opts_for(OP_WHILE);
  o.cond_subgraph = cond;
  o.body_subgraph = body;
  litert_add_op(M, sg, OP_WHILE, NULL, nin, in, nout, out, &o);
}

static void op_if(int sg, int then_, int else_, int nin, const int32_t *in, int nout, const int32_t *out) {
  litert_options o = opts_for(OP_IF);
  o.then_subgraph = then_;
  o.else_subgraph = else_;
  litert_add_op(M, sg, OP_IF, NULL, nin, in, nout, out, &o);
}

static void op_call_once(int sg, int init, int nin, const int32_t *in, int nout, const int32_t *out) {
  litert_options o = opts_for(OP_CALL_ONCE);
  o.init_subgraph = init;
  litert_add_op(M, sg, OP_CALL_ONCE, NULL, nin, in, nout, out, &o);
}

static void start(void) {
  M = litert_model_new();
  litert_add_subgraph(M, "main");
}

static int finish(const char *name, const char *expect, const char *word, const char *prefix) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.tflite", DIR_, name);
  aotc_diag d = {0};
  int rc = litert_write_file(M, path, &d);
  if (rc) fprintf(stderr, "%s: %s\n", name, d.msg);
  litert_model_free(M);
  M = NULL;
  printf("%s %s %s%s%s\n", name, expect, word, prefix ? " " : "", prefix ? prefix : "");
  return rc;
}

/* cond subgraph "i < limit" over an int32 counter [1] (plus n-1 float [4]
 * pass-through loop variables); returns its index. */
static int cond_less(int limit, int nextra, int extra_n) {
  int s = litert_add_subgraph(M, "cond");
  int32_t in[4], k = 0;
  in[k++] = T(s, "i", DT_INT32, 1);
  for (int j = 0; j < nextra; j++) in[k++] = T(s, "v", DT_FLOAT32, extra_n);
  int32_t lim = limit;
  int c = C(s, "limit", DT_INT32, 1, &lim);
  int o = T(s, "go", DT_BOOL, 1);
  op(s, OP_LESS, 2, (int32_t[]){in[0], c}, 1, (int32_t[]){o});
  litert_set_io(M, s, k, in, 1, (int32_t[]){o});
  return s;
}

/* body subgraph "i + 1, v * 2" */
static int body_step(int nextra, int extra_n) {
  int s = litert_add_subgraph(M, "body");
  int32_t in[4], out[4], k = 0;
  in[k] = T(s, "i", DT_INT32, 1);
  int32_t one = 1;
  int c1 = C(s, "one", DT_INT32, 1, &one);
  out[k] = T(s, "i_next", DT_INT32, 1);
  op(s, OP_ADD, 2, (int32_t[]){in[k], c1}, 1, (int32_t[]){out[k]});
  k++;
  float two[8] = {2, 2, 2, 2, 2, 2, 2, 2};
  for (int j = 0; j < nextra; j++) {
    in[k] = T(s, "v", DT_FLOAT32, extra_n);
    int c2 = C(s, "two", DT_FLOAT32, 1, two);
    out[k] = T(s, "v_next", DT_FLOAT32, extra_n);
    op(s, OP_MUL, 2, (int32_t[]){in[k], c2}, 1, (int32_t[]){out[k]});
    k++;
  }
  litert_set_io(M, s, k, in, k, out);
  return s;
}

/* branch subgraph: out = in * factor (float [n]) */
static int branch_mul(const char *name, float factor, int n, int out_dt, int out_n) {
  int s = litert_add_subgraph(M, name);
  int x = T(s, "x", DT_FLOAT32, n);
  int c = C(s, "factor", DT_FLOAT32, 1, &factor);
  int y = T(s, "y", out_dt, out_n);
  op(s, OP_MUL, 2, (int32_t[]){x, c}, 1, (int32_t[]){y});
  litert_set_io(M, s, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  return s;
}

/* main: float x [n], bool cond c; y = IF(c, x) with the given branches */
static void main_if(int then_, int else_, int n, int out_n) {
  int x = T(0, "x", DT_FLOAT32, n), c = T(0, "c", DT_BOOL, 1), y = T(0, "y", DT_FLOAT32, out_n);
  op_if(0, then_, else_, 2, (int32_t[]){c, x}, 1, (int32_t[]){y});
  litert_set_io(M, 0, 2, (int32_t[]){c, x}, 1, (int32_t[]){y});
}

/* main: counter i [1] and v [n]; (i', v') = WHILE(i, v) */
static void main_while(int cond, int body, int n) {
  int i = T(0, "i", DT_INT32, 1), v = T(0, "v", DT_FLOAT32, n);
  int io = T(0, "i_out", DT_INT32, 1), vo = T(0, "v_out", DT_FLOAT32, n);
  op_while(0, cond, body, 2, (int32_t[]){i, v}, 2, (int32_t[]){io, vo});
  litert_set_io(M, 0, 2, (int32_t[]){i, v}, 2, (int32_t[]){io, vo});
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: make_hostile_models DIR\n");
    return 1;
  }
  DIR_ = argv[1];
  int rc = 0;

  /* ---- reference: a valid WHILE and a valid IF (must be accepted) ---- */
  start();
  { int c = cond_less(3, 1, 4), b = body_step(1, 4); main_while(c, b, 4); }
  rc |= finish("ok_while", "accept", "aot_subgraph_", NULL);
  start();
  { int t = branch_mul("then", 2.0f, 4, DT_FLOAT32, 4), e = branch_mul("else", -1.0f, 4, DT_FLOAT32, 4); main_if(t, e, 4, 4); }
  rc |= finish("ok_if", "accept", "aot_subgraph_", NULL);

  /* ---- 1. recursion through subgraphs without scratch ---- */
  start();  /* WHILE whose body runs the same WHILE */
  {
    int c = cond_less(3, 1, 4);
    int b = litert_add_subgraph(M, "body");
    int i = T(b, "i", DT_INT32, 1), v = T(b, "v", DT_FLOAT32, 4);
    int io = T(b, "i2", DT_INT32, 1), vo = T(b, "v2", DT_FLOAT32, 4);
    op_while(b, c, b, 2, (int32_t[]){i, v}, 2, (int32_t[]){io, vo});
    litert_set_io(M, b, 2, (int32_t[]){i, v}, 2, (int32_t[]){io, vo});
    main_while(c, b, 4);
  }
  rc |= finish("rec_while_body_self", "refuse", "recursion", NULL);
  start();  /* IF whose branch is itself */
  {
    int a = litert_add_subgraph(M, "self");
    int c = T(a, "c", DT_BOOL, 1), x = T(a, "x", DT_FLOAT32, 4), y = T(a, "y", DT_FLOAT32, 4);
    op_if(a, a, a, 2, (int32_t[]){c, x}, 1, (int32_t[]){y});
    litert_set_io(M, a, 2, (int32_t[]){c, x}, 1, (int32_t[]){y});
    int mc = T(0, "c", DT_BOOL, 1), mx = T(0, "x", DT_FLOAT32, 4), my = T(0, "y", DT_FLOAT32, 4);
    op_if(0, a, a, 3, (int32_t[]){mc, mc, mx}, 1, (int32_t[]){my});
    litert_set_io(M, 0, 2, (int32_t[]){mc, mx}, 1, (int32_t[]){my});
  }
  rc |= finish("rec_if_self", "refuse", "recursion", NULL);
  start();  /* IF A -> B -> A */
  {
    int a = litert_add_subgraph(M, "A"), b = litert_add_subgraph(M, "B");
    for (int k = 0; k < 2; k++) {
      int s = k ? b : a, other = k ? a : b;
      int c = T(s, "c", DT_BOOL, 1), x = T(s, "x", DT_FLOAT32, 4), y = T(s, "y", DT_FLOAT32, 4);
      op_if(s, other, other, 2, (int32_t[]){c, x}, 1, (int32_t[]){y});
      litert_set_io(M, s, 2, (int32_t[]){c, x}, 1, (int32_t[]){y});
    }
    int mc = T(0, "c", DT_BOOL, 1), mx = T(0, "x", DT_FLOAT32, 4), my = T(0, "y", DT_FLOAT32, 4);
    op_if(0, a, b, 2, (int32_t[]){mc, mx}, 1, (int32_t[]){my});
    litert_set_io(M, 0, 2, (int32_t[]){mc, mx}, 1, (int32_t[]){my});
  }
  rc |= finish("rec_if_a_b_a", "refuse", "recursion", NULL);
  start();  /* a branch that calls the main graph */
  {
    int t = litert_add_subgraph(M, "back_to_main");
    int x = T(t, "x", DT_FLOAT32, 4), y = T(t, "y", DT_FLOAT32, 4), c = T(t, "c", DT_BOOL, 1);
    op_if(t, 0, 0, 2, (int32_t[]){c, x}, 1, (int32_t[]){y});
    litert_set_io(M, t, 2, (int32_t[]){c, x}, 1, (int32_t[]){y});
    main_if(t, t, 4, 4);
  }
  rc |= finish("rec_calls_main", "refuse", "recursion", NULL);
  start();  /* CALL_ONCE whose init runs itself */
  {
    int s = litert_add_subgraph(M, "init");
    op_call_once(s, s, 0, NULL, 0, NULL);
    litert_set_io(M, s, 0, NULL, 0, NULL);
    int x = T(0, "x", DT_FLOAT32, 4), y = T(0, "y", DT_FLOAT32, 4);
    op_call_once(0, s, 0, NULL, 0, NULL);
    op(0, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y});
    litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  }
  rc |= finish("rec_call_once_self", "refuse", "recursion", NULL);

  /* ---- 2. absent (-1) control-flow inputs ---- */
  start();
  {
    int c = cond_less(3, 1, 4), b = body_step(1, 4);
    int i = T(0, "i", DT_INT32, 1), v = T(0, "v", DT_FLOAT32, 4);
    int io = T(0, "i_out", DT_INT32, 1), vo = T(0, "v_out", DT_FLOAT32, 4);
    op_while(0, c, b, 2, (int32_t[]){-1, v}, 2, (int32_t[]){io, vo});
    litert_set_io(M, 0, 2, (int32_t[]){i, v}, 2, (int32_t[]){io, vo});
  }
  rc |= finish("absent_while_var", "refuse", "absent", NULL);
  start();
  {
    int c = cond_less(3, 1, 4), b = body_step(1, 4);
    int i = T(0, "i", DT_INT32, 1), v = T(0, "v", DT_FLOAT32, 4);
    int io = T(0, "i_out", DT_INT32, 1);
    op_while(0, c, b, 2, (int32_t[]){i, v}, 2, (int32_t[]){io, -1});
    litert_set_io(M, 0, 2, (int32_t[]){i, v}, 1, (int32_t[]){io});
  }
  rc |= finish("absent_while_out", "refuse", "malformed", NULL);
  start();
  {
    int t = branch_mul("then", 2.0f, 4, DT_FLOAT32, 4), e = branch_mul("else", 3.0f, 4, DT_FLOAT32, 4);
    int x = T(0, "x", DT_FLOAT32, 4), y = T(0, "y", DT_FLOAT32, 4);
    op_if(0, t, e, 2, (int32_t[]){-1, x}, 1, (int32_t[]){y});
    litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  }
  rc |= finish("absent_if_cond", "refuse", "absent", NULL);
  start();
  {
    int t = branch_mul("then", 2.0f, 4, DT_FLOAT32, 4), e = branch_mul("else", 3.0f, 4, DT_FLOAT32, 4);
    int c = T(0, "c", DT_BOOL, 1), y = T(0, "y", DT_FLOAT32, 4);
    op_if(0, t, e, 2, (int32_t[]){c, -1}, 1, (int32_t[]){y});
    litert_set_io(M, 0, 1, (int32_t[]){c}, 1, (int32_t[]){y});
  }
  rc |= finish("absent_if_input", "refuse", "absent", NULL);
  start();
  {
    int t = branch_mul("then", 2.0f, 4, DT_FLOAT32, 4), e = branch_mul("else", 3.0f, 4, DT_FLOAT32, 4);
    int c = T(0, "c", DT_BOOL, 1), x = T(0, "x", DT_FLOAT32, 4), z = T(0, "z", DT_FLOAT32, 4);
    op_if(0, t, e, 2, (int32_t[]){c, x}, 1, (int32_t[]){-1});
    op(0, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){z});
    litert_set_io(M, 0, 2, (int32_t[]){c, x}, 1, (int32_t[]){z});
  }
  rc |= finish("absent_if_output", "refuse", "malformed", NULL);

  /* ---- 3. wiring the reference rejects ---- */
  start();
  { int c = cond_less(3, 1, 4); main_while(c, c, 4); }
  rc |= finish("while_cond_is_body", "refuse", "separate", NULL);
  start();
  {
    int c = litert_add_subgraph(M, "cond_empty");
    int ci = T(c, "i", DT_INT32, 1), cv = T(c, "v", DT_FLOAT32, 4);
    int32_t z[1] = {0};
    int go = litert_add_tensor(M, c, "go", DT_BOOL, 1, z, 0);
    int lim = C(c, "lim", DT_INT32, 1, (int32_t[]){3});
    op(c, OP_LESS, 2, (int32_t[]){ci, lim}, 1, (int32_t[]){go});
    litert_set_io(M, c, 2, (int32_t[]){ci, cv}, 1, (int32_t[]){go});
    int b = body_step(1, 4);
    main_while(c, b, 4);
  }
  rc |= finish("while_cond_empty", "refuse", "elements", NULL);
  start();
  {
    int c = litert_add_subgraph(M, "cond_no_out");
    int ci = T(c, "i", DT_INT32, 1), cv = T(c, "v", DT_FLOAT32, 4);
    litert_set_io(M, c, 2, (int32_t[]){ci, cv}, 0, NULL);
    int b = body_step(1, 4);
    main_while(c, b, 4);
  }
  rc |= finish("while_cond_no_output", "refuse", "output", NULL);
  start();
  {
    int s = litert_add_subgraph(M, "init_io");
    int a = T(s, "a", DT_FLOAT32, 4), o = T(s, "o", DT_FLOAT32, 4);
    op(s, OP_RELU, 1, (int32_t[]){a}, 1, (int32_t[]){o});
    litert_set_io(M, s, 1, (int32_t[]){a}, 1, (int32_t[]){o});
    int x = T(0, "x", DT_FLOAT32, 4), y = T(0, "y", DT_FLOAT32, 4);
    op_call_once(0, s, 0, NULL, 0, NULL);
    op(0, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y});
    litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  }
  rc |= finish("call_once_callee_io", "refuse", "CALL_ONCE", NULL);
  start();
  {
    int s = litert_add_subgraph(M, "init");
    litert_set_io(M, s, 0, NULL, 0, NULL);
    int x = T(0, "x", DT_FLOAT32, 4), y = T(0, "y", DT_FLOAT32, 4);
    op_call_once(0, s, 1, (int32_t[]){x}, 0, NULL);
    op(0, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y});
    litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  }
  rc |= finish("call_once_op_io", "refuse", "CALL_ONCE", NULL);
  start();
  { int t = branch_mul("then", 2.0f, 4, DT_INT32, 4), e = branch_mul("else", 3.0f, 4, DT_FLOAT32, 4); main_if(t, e, 4, 4); }
  rc |= finish("if_branch_out_dtype", "refuse", "dtype", NULL);
  start();
  { int t = branch_mul("then", 2.0f, 4, DT_FLOAT32, 4), e = branch_mul("else", 3.0f, 4, DT_FLOAT32, 4); main_if(t, e, 4, 2); }
  rc |= finish("if_branch_out_size", "refuse", "sizes", NULL);
  start();
  { int t = branch_mul("then", 2.0f, 4, DT_FLOAT32, 4), e = branch_mul("else", 3.0f, 4, DT_FLOAT32, 4); main_if(t, e, 4, 8); }
  rc |= finish("if_branch_out_larger", "refuse", "sizes", NULL);
  start();
  {
    int c = cond_less(3, 1, 4);
    int b = litert_add_subgraph(M, "body_bad_dtype");
    int i = T(b, "i", DT_INT32, 1), v = T(b, "v", DT_FLOAT32, 4), vo = T(b, "v_i", DT_INT32, 4);
    op(b, OP_CAST, 1, (int32_t[]){v}, 1, (int32_t[]){vo});
    litert_set_io(M, b, 2, (int32_t[]){i, v}, 2, (int32_t[]){i, vo});
    main_while(c, b, 4);
  }
  rc |= finish("while_body_out_dtype", "refuse", "dtype", NULL);
  start();
  {
    int t = litert_add_subgraph(M, "then_const_in");
    float k[4] = {1, 2, 3, 4};
    int x = C(t, "x", DT_FLOAT32, 4, k), y = T(t, "y", DT_FLOAT32, 4);
    op(t, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y});
    litert_set_io(M, t, 1, (int32_t[]){x}, 1, (int32_t[]){y});
    int e = branch_mul("else", 3.0f, 4, DT_FLOAT32, 4);
    main_if(t, e, 4, 4);
  }
  rc |= finish("subgraph_input_const", "refuse", "constant", NULL);
  start();
  {
    int x = T(0, "x", DT_FLOAT32, 4), y = T(0, "y", DT_FLOAT32, 4), z = T(0, "z", DT_FLOAT32, 4);
    op(0, OP_ADD, 2, (int32_t[]){x, x}, 0, NULL);
    (void)z;
    op(0, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y});
    litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  }
  rc |= finish("op_no_outputs", "refuse", "outputs", NULL);
  start();
  {
    int x = T(0, "x", DT_FLOAT32, 4), y = T(0, "y", DT_FLOAT32, 4);
    op(0, OP_READ_VARIABLE, 1, (int32_t[]){x}, 0, NULL);
    op(0, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y});
    litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  }
  rc |= finish("read_variable_no_output", "refuse", "absent", NULL);
  start();
  {
    int x = T(0, "x", DT_FLOAT32, 4), y = T(0, "y", DT_FLOAT32, 4);
    op(0, OP_ASSIGN_VARIABLE, 1, (int32_t[]){x}, 0, NULL);
    op(0, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y});
    litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  }
  rc |= finish("assign_variable_one_input", "refuse", "ASSIGN_VARIABLE", NULL);
  /* nesting: a chain of IFs, each branch calling the next; depth D counts the
   * main graph */
  for (int variant = 0; variant < 2; variant++) {
    int depth = variant ? 65 : 64;
    start();
    int prev = -1;
    int *sg = calloc((size_t)depth, sizeof(int));
    for (int k = 1; k < depth; k++) sg[k] = litert_add_subgraph(M, "level");
    for (int k = depth - 1; k >= 1; k--) {
      int s = sg[k];
      if (k == depth - 1) {
        int x = T(s, "x", DT_FLOAT32, 4), y = T(s, "y", DT_FLOAT32, 4);
        op(s, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y});
        litert_set_io(M, s, 1, (int32_t[]){x}, 1, (int32_t[]){y});
      } else {
        int x = T(s, "x", DT_FLOAT32, 4), y = T(s, "y", DT_FLOAT32, 4);
        uint8_t one = 1;
        int cc = C(s, "true", DT_BOOL, 1, &one);
        op_if(s, prev, prev, 2, (int32_t[]){cc, x}, 1, (int32_t[]){y});
        litert_set_io(M, s, 1, (int32_t[]){x}, 1, (int32_t[]){y});
      }
      prev = s;
    }
    int x = T(0, "x", DT_FLOAT32, 4), y = T(0, "y", DT_FLOAT32, 4);
    uint8_t one = 1;
    int cc = C(0, "true", DT_BOOL, 1, &one);
    op_if(0, prev, prev, 2, (int32_t[]){cc, x}, 1, (int32_t[]){y});
    litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
    free(sg);
    rc |= finish(variant ? "nesting_65" : "nesting_64", variant ? "refuse" : "accept",
                 variant ? "deeper" : "aot_subgraph_63", NULL);
  }

  /* ---- 4. one subgraph, two callers with different input shapes ---- */
  for (int variant = 0; variant < 3; variant++) {
    start();
    int t = branch_mul("then", 2.0f, 4, DT_FLOAT32, 4), e = branch_mul("else", 3.0f, 4, DT_FLOAT32, 4);
    int n2 = variant == 0 ? 8 : variant == 1 ? 4 : 2;
    int c = T(0, "c", DT_BOOL, 1), x = T(0, "x", DT_FLOAT32, 4), y = T(0, "y", DT_FLOAT32, 4);
    int x2 = T(0, "x2", DT_FLOAT32, n2), y2 = T(0, "y2", DT_FLOAT32, n2);
    op_if(0, t, e, 2, (int32_t[]){c, x}, 1, (int32_t[]){y});
    op_if(0, e, t, 2, (int32_t[]){c, x2}, 1, (int32_t[]){y2});
    litert_set_io(M, 0, 3, (int32_t[]){c, x, x2}, 2, (int32_t[]){y, y2});
    const char *nm[3] = {"two_callers_8_vs_4", "two_callers_same_shape", "two_callers_2_vs_4"};
    rc |= finish(nm[variant], variant == 1 ? "accept" : "refuse", variant == 1 ? "aot_subgraph_" : "compiled", NULL);
  }
  start();  /* two WHILE loops over one body, vectors of 4 and 6 */
  {
    int c = cond_less(3, 1, 4), b = body_step(1, 4);
    int i = T(0, "i", DT_INT32, 1), v = T(0, "v", DT_FLOAT32, 4), w = T(0, "w", DT_FLOAT32, 6);
    int io = T(0, "i_out", DT_INT32, 1), vo = T(0, "v_out", DT_FLOAT32, 4);
    int io2 = T(0, "i_out2", DT_INT32, 1), wo = T(0, "w_out", DT_FLOAT32, 6);
    op_while(0, c, b, 2, (int32_t[]){i, v}, 2, (int32_t[]){io, vo});
    op_while(0, c, b, 2, (int32_t[]){i, w}, 2, (int32_t[]){io2, wo});
    litert_set_io(M, 0, 3, (int32_t[]){i, v, w}, 2, (int32_t[]){vo, wo});
  }
  rc |= finish("two_whiles_4_vs_6", "refuse", "compiled", NULL);

  /* ---- 5. a graph input that is a constant ---- */
  for (int variant = 0; variant < 2; variant++) {
    start();
    float k[4] = {1, 2, 3, 4};
    int x = T(0, "x", DT_FLOAT32, 4), kc = C(0, "k", DT_FLOAT32, 4, k), y = T(0, "y", DT_FLOAT32, 4);
    op(0, OP_ADD, 2, (int32_t[]){x, kc}, 1, (int32_t[]){y});
    if (variant) litert_set_io(M, 0, 1, (int32_t[]){kc}, 1, (int32_t[]){y});
    else litert_set_io(M, 0, 2, (int32_t[]){x, kc}, 1, (int32_t[]){y});
    rc |= finish(variant ? "const_input_only" : "const_input_second", "refuse", "constant", NULL);
  }

  /* ---- 6. modules without kernels, inputs or outputs ---- */
  start();  /* only a RESHAPE (an alias: no kernel call) */
  {
    int32_t s22[2] = {2, 2}, s2[1] = {2};
    int x = T(0, "x", DT_FLOAT32, 4);
    int shp = litert_add_tensor(M, 0, "shape", DT_INT32, 1, s2, litert_add_buffer(M, s22, sizeof s22));
    int y = litert_add_tensor(M, 0, "y", DT_FLOAT32, 2, s22, 0);
    litert_options o = opts_for(OP_RESHAPE);
    o.new_shape[0] = 2, o.new_shape[1] = 2, o.new_shape_n = 2;
    litert_add_op(M, 0, OP_RESHAPE, NULL, 2, (int32_t[]){x, shp}, 1, (int32_t[]){y}, &o);
    litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  }
  rc |= finish("no_kernel_reshape", "accept", "-", NULL);
  start();  /* an IF whose branches only pass their input through */
  {
    int t = litert_add_subgraph(M, "identity");
    int a = T(t, "a", DT_FLOAT32, 4);
    litert_set_io(M, t, 1, (int32_t[]){a}, 1, (int32_t[]){a});
    main_if(t, t, 4, 4);
  }
  rc |= finish("no_kernel_if_identity", "accept", "aot_subgraph_", NULL);
  start();  /* no inputs */
  {
    float k[4] = {1, 2, 3, 4};
    int kc = C(0, "k", DT_FLOAT32, 4, k), y = T(0, "y", DT_FLOAT32, 4);
    op(0, OP_RELU, 1, (int32_t[]){kc}, 1, (int32_t[]){y});
    litert_set_io(M, 0, 0, NULL, 1, (int32_t[]){y});
  }
  rc |= finish("no_inputs", "refuse", "inputs", NULL);
  start();  /* no outputs */
  {
    int x = T(0, "x", DT_FLOAT32, 4), y = T(0, "y", DT_FLOAT32, 4);
    op(0, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y});
    litert_set_io(M, 0, 1, (int32_t[]){x}, 0, NULL);
  }
  rc |= finish("no_outputs", "refuse", "outputs", NULL);

  /* ---- 7. names ---- */
  const char *names[4] = {"trigraph?" "?/x?" "?=y?" "?'z?" "?!", "quote\"back\\slash?", "aot_x AOT_Y", "*/ /* aot_z"};
  for (int variant = 0; variant < 4; variant++) {
    start();
    int x = T(0, names[variant], DT_FLOAT32, 4), y = T(0, "y", DT_FLOAT32, 4);
    op(0, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y});
    litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
    char nm[32];
    snprintf(nm, sizeof nm, "name_%d", variant);
    rc |= finish(nm, "accept", variant == 2 ? "\"aot_x" : "-", variant >= 2 ? "kws" : NULL);
  }
  start();  /* a 1 MB name */
  {
    size_t n = 1 << 20;
    char *big = malloc(n + 1);
    for (size_t k = 0; k < n; k++) big[k] = (char)('a' + k % 26);
    big[n] = 0;
    int x = T(0, big, DT_FLOAT32, 4), y = T(0, big, DT_FLOAT32, 4);
    free(big);
    op(0, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y});
    litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  }
  rc |= finish("name_1mb", "accept", "...\"", NULL);

  /* ---- 14. infinities and NaN in the expected outputs ---- */
  start();
  {
    float inf = HUGE_VALF;
    int x = T(0, "x", DT_FLOAT32, 16), c = C(0, "inf", DT_FLOAT32, 1, &inf);
    int y = T(0, "y_inf", DT_FLOAT32, 16), z = T(0, "z_nan", DT_FLOAT32, 16);
    op(0, OP_MUL, 2, (int32_t[]){x, c}, 1, (int32_t[]){y});
    op(0, OP_SUB, 2, (int32_t[]){y, y}, 1, (int32_t[]){z});
    litert_set_io(M, 0, 1, (int32_t[]){x}, 2, (int32_t[]){y, z});
  }
  rc |= finish("inf_nan_outputs", "accept", "-", NULL);

  /* ---- 15. WHILE with no loop variables ---- */
  start();
  {
    int c = litert_add_subgraph(M, "cond_false");
    uint8_t f = 0;
    int go = C(c, "false", DT_BOOL, 1, &f);
    litert_set_io(M, c, 0, NULL, 1, (int32_t[]){go});
    int b = litert_add_subgraph(M, "body_empty");
    litert_set_io(M, b, 0, NULL, 0, NULL);
    int x = T(0, "x", DT_FLOAT32, 4), y = T(0, "y", DT_FLOAT32, 4);
    op_while(0, c, b, 0, NULL, 0, NULL);
    op(0, OP_RELU, 1, (int32_t[]){x}, 1, (int32_t[]){y});
    litert_set_io(M, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  }
  rc |= finish("while_no_vars", "accept", "aot_subgraph_", NULL);
  return rc ? 1 : 0;
}
