/* ref_f16.h - float16 operators in the host reference interpreter
 * (ref_f16.c): an op whose check() refuses its float16 tensors runs as the
 * float32 op over the same values, its float16 outputs rounded to binary16,
 * as the compiled module runs it (transform lower_fp16). */
#ifndef AOTC_REF_F16_H
#define AOTC_REF_F16_H

#include <stddef.h>

#include "../ops/ops.h"

/* Runs op (of g) that way, on the tensor storage data[]. *scratch /
 * *scratch_cap: the interpreter's scratch buffer, grown as needed. Returns 0
 * when it ran (*status: the kernel's status), 1 when the rule does not apply
 * (no float16 tensor, an op the module leaves alone, or check() refuses the
 * float32 op too). */
int ref_f16_run(ir_graph *g, const ir_op *op, const op_impl *impl, void **data, void **scratch,
                size_t *scratch_cap, int *status);

#endif
