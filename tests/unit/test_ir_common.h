/* test_ir_common.h - tiny float models built with the litert builder, for the
 * IR, transform and planner tests. */
#ifndef TEST_IR_COMMON_H
#define TEST_IR_COMMON_H

#include "ir/ir.h"
#include "passes/passes.h"
#include "litert/litert.h"

static inline int tm_tensor(litert_model *m, const char *name, int rank, const int32_t *shape) {
  return litert_add_tensor(m, 0, name, DT_FLOAT32, rank, shape, 0);
}

static inline int tm_const(litert_model *m, const char *name, int rank, const int32_t *shape,
                    const float *v, int n) {
  return litert_add_tensor(m, 0, name, DT_FLOAT32, rank, shape,
                           litert_add_buffer(m, v, sizeof(float) * (size_t)n));
}

static inline void tm_op(litert_model *m, int builtin, int nin, const int32_t *in, int nout,
                  const int32_t *out) {
  litert_options o;
  litert_options_default(&o);
  o.type = litert_builtin_options_type(builtin);
  if (builtin == OP_RESHAPE) {
    const litert_tensor *t = &m->subgraphs[0].tensors[out[0]];
    for (int i = 0; i < t->rank; i++) o.new_shape[i] = t->shape[i];
    o.new_shape_n = t->rank;
  }
  litert_add_op(m, 0, builtin, NULL, nin, in, nout, out, &o);
}

static inline litert_model *tm_new(void) {
  litert_model *m = litert_model_new();
  litert_add_subgraph(m, "main");
  return m;
}

#endif
