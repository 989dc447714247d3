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

/* An op whose scratch is kept outside the scratch arena (scratch_placement)
 * has this scratch_offset; its buffer is placed by the code generator in the
 * scratch region of its memory. */
#define PLAN_SCRATCH_ELSEWHERE ((size_t)-1)

/* plan_memory, except that the ops p with elsewhere[p] != 0 get no room in
 * the scratch arena (scratch_offset PLAN_SCRATCH_ELSEWHERE, scratch_bytes
 * still set). elsewhere may be NULL. */
int plan_memory_placed(ir_graph *g, const unsigned char *elsewhere, aotc_diag *d);

struct aotc_config;
/* Operator scratch placement (src/plan/plan_place.c): for each op of the main
 * graph the memory that operators[].attributes.scratch_placement gives its
 * scratch when that is not the scratch arena's memory, else "" (malloc'd
 * array of g->nops names; NULL when no rule moves any scratch). Fails with
 * one line when a rule names a memory the platform does not have. */
int plan_op_scratch_mems(const struct aotc_config *c, const ir_graph *g, char (**out)[16], aotc_diag *d);
/* Constant placement by tensor id (memory.tensors rules naming ids): the
 * constants of the main graph whose rules give them another (memory,
 * constant_destination_memory) pair than their role's. Group 0 is the role's
 * placement; group k > 0 is kept in src[k-1] and read from dst[k-1] (== src:
 * read in place, else staged). Each group has its own destination memory (a
 * rule that would share one with another group is reported and not applied). */
#define PLAN_MAX_CONST_GROUPS 4
typedef struct plan_const_place {
  int ngroups;
  char src[PLAN_MAX_CONST_GROUPS][16], dst[PLAN_MAX_CONST_GROUPS][16];
  unsigned char *group;   /* per main-graph tensor (malloc'd, g->nt entries) */
} plan_const_place;
/* Fills p (p->group NULL and ngroups 0 when no rule by id moves a constant).
 * def_src/def_dst: the role's placement (as the code generator resolved it). */
int plan_const_placement(const struct aotc_config *c, const ir_graph *g, const char *def_src, const char *def_dst,
                         plan_const_place *p, aotc_diag *d);

/* plan_memory with the config's operator scratch placement applied. */
int plan_memory_config(const struct aotc_config *c, ir_graph *g, aotc_diag *d);

#endif
