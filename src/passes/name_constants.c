/* name_constants.c - C names for constants after the role they play: a
 * constant read by a live op is named after its first reader and its
 * position there, e.g. op0_conv_2d_filter, op0_conv_2d_bias,
 * op11_fully_connected_weights, sg2_op4_add_in1 (ops of called subgraphs
 * carry their subgraph), so the constants of a module read as what they are
 * in a debugger and in <prefix>_constants.c; the model's tensor name stays in
 * the comment next to each one. Constants no live op reads keep their
 * tensor-derived name. Run last, after the transforms and planning, when the
 * readers are final. */
#include "passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The role of input position pos of an op, or NULL (then "in<pos>"). */
static const char *input_role(int builtin, int pos) {
  static const char *const conv[] = {"input", "filter", "bias"};
  static const char *const tconv[] = {"output_shape", "filter", "input", "bias"};
  static const char *const fc[] = {"input", "weights", "bias"};
  static const char *const svdf[] = {"input", "weights_feature", "weights_time", "bias", "state"};
  static const char *const lstm[] = {
      "input", "input_to_input_weights", "input_to_forget_weights", "input_to_cell_weights",
      "input_to_output_weights", "recurrent_to_input_weights", "recurrent_to_forget_weights",
      "recurrent_to_cell_weights", "recurrent_to_output_weights", "cell_to_input_weights",
      "cell_to_forget_weights", "cell_to_output_weights", "input_gate_bias", "forget_gate_bias",
      "cell_gate_bias", "output_gate_bias", "projection_weights", "projection_bias",
      "output_state", "cell_state", "input_layer_norm", "forget_layer_norm", "cell_layer_norm",
      "output_layer_norm"};
  const char *const *t = NULL;
  int n = 0;
  switch (builtin) {
    case OP_CONV_2D: case OP_DEPTHWISE_CONV_2D: t = conv; n = 3; break;
    case OP_TRANSPOSE_CONV: t = tconv; n = 4; break;
    case OP_FULLY_CONNECTED: t = fc; n = 3; break;
    case OP_SVDF: t = svdf; n = 5; break;
    case OP_UNIDIRECTIONAL_SEQUENCE_LSTM: t = lstm; n = 24; break;
    default: break;
  }
  return pos < n ? t[pos] : NULL;
}

static void name_graph(ir_graph *g) {
  char *named = xcalloc((size_t)g->nt + 1, 1);
  for (int i = 0; i < g->nops; i++) {
    const ir_op *op = &g->ops[i];
    if (op->dead) continue;
    char lname[64];
    snprintf(lname, sizeof lname, "%s", ir_op_name(op));
    for (char *p = lname; *p; p++)
      if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    c_identifier(lname, lname, 40);
    for (int k = 0; k < op->nin; k++) {
      int t = op->in[k];
      if (t < 0 || t >= g->nt || named[t] || g->t[t].role != ROLE_CONST) continue;
      named[t] = 1;
      const char *role = input_role(op->builtin, k);
      char pos[16];
      if (!role) {
        snprintf(pos, sizeof pos, "in%d", k);
        role = pos;
      }
      ir_tensor *x = &g->t[t];
      if (g->sg > 0)
        snprintf(x->cname, sizeof x->cname, "sg%d_op%d_%s_%s", g->sg, op->id, lname, role);
      else snprintf(x->cname, sizeof x->cname, "op%d_%s_%s", op->id, lname, role);
    }
  }
  free(named);
}

void pass_name_constants(ir_graph *main) {
  name_graph(main);
  for (int i = 1; i < main->nsubgraphs; i++)
    if (main->subgraphs[i] && main->subgraphs[i] != main) name_graph(main->subgraphs[i]);
}
