/* plan.h - tensor lifetimes and the static memory plan. */
#ifndef AOTC_PLAN_H
#define AOTC_PLAN_H

#include "../ir/ir.h"

#define PLAN_ALIGN 16

/* Assigns every used non-constant tensor an arena and offset, and every op
 * its scratch offset. Scratch arena: greedy by size, best fit, 16-byte
 * alignment, in-place reuse where the op allows it. Persistent arena:
 * variable tensors, packed, never reused. Fills g->scratch_arena_bytes,
 * g->scratch_lower_bound (largest sum of live bytes at any op) and
 * g->persistent_arena_bytes. */
int plan_memory(ir_graph *g, aotc_diag *d);

#endif
