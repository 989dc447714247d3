/* verify_control.h - validity of a model's control flow and wiring, shared by
 * the compiler (compile.c, before any hook or transform) and the reference
 * interpreter (ref_run), so that both accept and refuse the same models.
 *
 * ir_check_program() looks at the LiteRT model as read: the call graph of
 * WHILE / IF / CALL / CALL_ONCE (no cycle, nesting at most
 * IR_MAX_CALL_DEPTH subgraphs, callees exist and are not the main graph,
 * a WHILE's cond is not its body), the wiring of every control and resource
 * op (counts, no absent tensor, equal dtypes across the call), CALL_ONCE
 * callees without inputs or outputs, no constant subgraph input or model
 * input, and no kernel op without outputs.
 *
 * ir_check_call_io() checks, after shape inference, that the values passed
 * to and from one callee have the sizes (and, for inputs, the shapes) the
 * callee was compiled for: a subgraph called by two ops with different input
 * shapes is refused there. */
#ifndef AOTC_IR_VERIFY_CONTROL_H
#define AOTC_IR_VERIFY_CONTROL_H

#include "ir.h"

/* Longest chain of nested subgraph calls, the main graph counted (the
 * reference interpreter's limit; generated code nests C calls as deep). */
#define IR_MAX_CALL_DEPTH 64

int ir_check_program(const litert_model *m, aotc_diag *d);

/* callee is subgraph s of the program, called by op of caller (s is one of
 * the op's subgraph indices). Returns 0 or -1 with a one-line message. */
int ir_check_call_io(const ir_graph *caller, const ir_op *op, const ir_graph *callee, int s,
                     aotc_diag *d);

#endif
