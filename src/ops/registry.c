/* registry.c - the one table of supported operators.
 *
 * Each entry is defined in the op_*.c file of its family and listed once in
 * the OPS_A / OPS_B lists below, or is a row of ops_unary.def (the unary
 * operators, defined and listed from their row). The references are strong:
 * an entry whose object is renamed or missing fails the link, so no operator can silently drop out of
 * the table (and out of `aotc operators` / docs/operators.md). */
#include "ops.h"
#include "op_custom.h"

#include <string.h>

#define OPS_A(X)                                                                 \
  /* convolution family (op_conv.c, op_fc.c, op_pool.c) */                     \
  X(conv_2d) X(depthwise_conv_2d) X(transpose_conv) X(fully_connected)         \
  X(batch_matmul) X(average_pool_2d) X(max_pool_2d)                            \
  /* elementwise arithmetic and activations (op_elementwise.c, op_activation.c) */ \
  X(add) X(sub) X(mul) X(div) X(maximum) X(minimum) X(squared_difference)      \
  X(less) X(less_equal) X(greater) X(greater_equal) X(equal) X(not_equal)      \
  X(logical_and) X(logical_or) X(logical_not) X(select_v2)                     \
  X(logistic) X(tanh) X(relu) X(relu6) X(relu_n1_to_1) X(leaky_relu)           \
  X(hard_swish) X(prelu) X(elu)
/* ... then the unary operators of ops_unary.def, then: */
#define OPS_B(X)                                                                \
  X(softmax) X(log_softmax) X(quantize) X(dequantize)                          \
  /* data movement and reductions (op_movement.c, op_layout.c, op_reduce.c) */  \
  X(reshape) X(squeeze) X(expand_dims) X(concatenation) X(pad) X(padv2)        \
  X(mirror_pad) X(strided_slice) X(slice) X(dynamic_update_slice)             \
  X(transpose) X(split) X(split_v)                                             \
  X(pack) X(unpack) X(gather) X(reverse_v2) X(cast) X(shape) X(fill)           \
  X(zeros_like) X(tile) X(broadcast_to) X(mean) X(sum) X(reduce_max)           \
  X(reduce_min) X(arg_max) X(arg_min) X(resize_nearest_neighbor)               \
  X(resize_bilinear) X(depth_to_space) X(space_to_depth)                       \
  /* recurrent and stateful (op_recurrent.c, op_variable.c) */                 \
  X(svdf) X(unidirectional_sequence_lstm) X(gru) X(var_handle)                 \
  X(read_variable) X(assign_variable) X(call_once)

#define DECL(n) extern const op_impl op_##n;
#define EW_UNARY(VAR, ...) DECL(VAR)
OPS_A(DECL)
#include "ops_unary.def"
OPS_B(DECL)
#undef EW_UNARY
#undef DECL

#define REF(n) &op_##n,
#define EW_UNARY(VAR, ...) REF(VAR)
static const op_impl *const all_ops[] = {
    OPS_A(REF)
#include "ops_unary.def"
    OPS_B(REF) NULL};
#undef EW_UNARY
#undef REF

const op_impl *const *ops_all(void) { return all_ops; }

const op_impl *ops_find(const ir_graph *g, const ir_op *op) {
  (void)g;
  const op_impl *const *all = ops_all();
  for (int i = 0; all[i]; i++) {
    const op_impl *o = all[i];
    if (o->builtin != op->builtin) continue;
    if (op->builtin == OP_CUSTOM) {
      if (!o->custom || !op->custom || strcmp(o->custom, op->custom) != 0) continue;
    }
    return o;
  }
  /* a user kernel registered with custom_operators (op_custom.c) */
  if (op->builtin == OP_CUSTOM && op->custom) return custom_ops_find(op->custom);
  return NULL;
}
