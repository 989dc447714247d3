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

/* Scratch storage that placement rules put in another memory than the
 * scratch arena's (memory.tensors rules by tensor id, operators'
 * scratch_placement) is planned per memory: the k-th such memory's buffers
 * get offsets in window k, [PLAN_WINDOW(k), PLAN_WINDOW(k + 1)); the code
 * generator maps each window to the scratch region of its memory. */
#define PLAN_WINDOW_SHIFT 28
#define PLAN_WINDOW(k) ((size_t)(k) << PLAN_WINDOW_SHIFT)
#define PLAN_MAX_SCRATCH_GROUPS 6

/* plan_memory, with op_grp[p] / t_grp[t] (0: the scratch arena, k >= 1: the
 * k-th other memory) for each op's own scratch and each storage root; both
 * may be NULL. */
int plan_memory_placed(ir_graph *g, const unsigned char *op_grp, const unsigned char *t_grp, aotc_diag *d);

struct aotc_config;
/* Where the config puts scratch storage of the main graph (plan_place.c):
 * mem[k-1] names memory k; op_grp / t_grp as plan_memory_placed takes them
 * (malloc'd; NULL and ngroups 0 when every buffer stays in the arena). */
typedef struct plan_scratch_place {
  int ngroups;
  char mem[PLAN_MAX_SCRATCH_GROUPS][16];
  unsigned char *op_grp, *t_grp;
} plan_scratch_place;
/* Resolves operators[].scratch_placement per op (by type and the op's index)
 * and memory.tensors rules by id for activations (type scratch, by the
 * tensor's .tflite index); a memory the platform lacks, or a non-volatile
 * one, fails with one line. */
int plan_scratch_placement(const struct aotc_config *c, const ir_graph *g, plan_scratch_place *p, aotc_diag *d);
void plan_scratch_place_free(plan_scratch_place *p);

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

/* Builds, transforms and plans every subgraph reachable from main through
 * control flow, stacks their scratch regions above their callers' and lays
 * out the persistent arena (variable tensors, then resource variables). */
int plan_program(const struct aotc_config *c, ir_graph *main, aotc_diag *d);

#endif
