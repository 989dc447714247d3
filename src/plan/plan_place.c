/* plan_place.c - placement rules that reach the planner: operators[] rules
 * (attributes.scratch_placement, resolved per op by type and the op's index
 * in the model with helia-aot's precedence) move an operator's own scratch
 * buffer (im2col and the like), memory.tensors rules by tensor id move
 * activations, out of the scratch arena into a scratch region of another
 * memory; memory.tensors rules by id group the constants they keep elsewhere
 * (plan_const_placement). Only the main graph; the memory of the scratch
 * arena itself is the one memory.tensors gives the scratch role (or the
 * platform's first preferred memory). */
#include "plan/plan.h"

#include "config/config.h"
#include "litert/litert.h"
#include "platform/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The group of memory m in p (added when new), or -1 when full. */
static int group_of(plan_scratch_place *p, const char *m) {
  for (int k = 0; k < p->ngroups; k++)
    if (!strcmp(p->mem[k], m)) return k + 1;
  if (p->ngroups == PLAN_MAX_SCRATCH_GROUPS) return -1;
  snprintf(p->mem[p->ngroups], sizeof p->mem[0], "%s", m);
  return ++p->ngroups;
}

static int check_ram(const platform *pf, const char *what, const char *given, const char *m, aotc_diag *d) {
  if (strcmp(pf->name, "host") != 0 && !platform_find_mem(pf, m))
    return diag_error(d, "%s has %s '%s', which platform %s does not have; name one of its memories", what,
                      strstr(what, "op ") ? "scratch_placement" : "memory", given, pf->name);
  if (platform_mem_nonvolatile(m))
    return diag_error(d, "%s has %s '%s', a non-volatile memory; scratch must be writable RAM (dtcm, sram, psram)", what,
                      strstr(what, "op ") ? "scratch_placement" : "memory", given);
  return 0;
}

void plan_scratch_place_free(plan_scratch_place *p) {
  free(p->op_grp);
  free(p->t_grp);
  memset(p, 0, sizeof *p);
}

int plan_scratch_placement(const aotc_config *c, const ir_graph *g, plan_scratch_place *p, aotc_diag *d) {
  memset(p, 0, sizeof *p);
  if (!c) return 0;
  int any_id = 0;
  for (int i = 0; i < c->memory_n_tensors; i++) any_id |= c->memory_tensors[i].nids > 0;
  if (!c->n_operators && !any_id) return 0;
  platform pf;
  aotc_diag pd = {0};
  pd.quiet = 1;
  if (platform_from_config(c, &pf, &pd) != 0) return 0; /* reported by the code generator */
  aotc_rule_attrs sa;
  config_rules_resolve(c->memory_tensors, c->memory_n_tensors, "scratch", NULL, &sa);
  const char *smem = platform_mem_canon(sa.memory ? sa.memory : pf.norder ? pf.order[0] : "sram");
  p->op_grp = xcalloc((size_t)(g->nops + 1), 1);
  p->t_grp = xcalloc((size_t)(g->nt + 1), 1);
  char what[96];
  for (int i = 0; i < g->nops && c->n_operators; i++) {
    const ir_op *op = &g->ops[i];
    if (op->dead) continue;
    char id[16];
    snprintf(id, sizeof id, "%d", op->id);
    const char *type = ir_op_name(op);  /* as the model (and the config) names it */
    aotc_rule_attrs a;
    config_rules_resolve(c->operators, c->n_operators, type, id, &a);
    if (!a.scratch_placement) continue;
    const char *m = platform_mem_canon(a.scratch_placement);
    snprintf(what, sizeof what, "operators: op %d (%s)", op->id, type);
    if (check_ram(&pf, what, a.scratch_placement, m, d)) goto fail;
    if (!strcmp(m, smem)) continue; /* already there */
    int k = group_of(p, m);
    if (k > 0) p->op_grp[i] = (unsigned char)k;
  }
  /* activations by id: storage roots of the main graph (aliases follow) */
  for (int t = 0; t < g->nt && any_id; t++) {
    const ir_tensor *x = &g->t[t];
    if (x->src_index < 0 || x->alias >= 0) continue;
    if (x->role != ROLE_SCRATCH && x->role != ROLE_INPUT && x->role != ROLE_OUTPUT) continue;
    char id[16];
    snprintf(id, sizeof id, "%d", x->src_index);
    aotc_rule_attrs a;
    config_rules_resolve(c->memory_tensors, c->memory_n_tensors, "scratch", id, &a);
    if (!a.memory) continue;
    const char *m = platform_mem_canon(a.memory);
    if (!strcmp(m, smem)) continue;
    snprintf(what, sizeof what, "memory.tensors: tensor %d", x->src_index);
    if (check_ram(&pf, what, a.memory, m, d)) goto fail;
    int k = group_of(p, m);
    if (k > 0) p->t_grp[t] = (unsigned char)k;
  }
  if (!p->ngroups) plan_scratch_place_free(p);
  return 0;
fail:
  plan_scratch_place_free(p);
  return -1;
}

int plan_memory_config(const aotc_config *c, ir_graph *g, aotc_diag *d) {
  plan_scratch_place p;
  if (plan_scratch_placement(c, g, &p, d) != 0) return -1;
  int rc = plan_memory_placed(g, p.op_grp, p.t_grp, d);
  plan_scratch_place_free(&p);
  return rc;
}

int plan_const_placement(const aotc_config *c, const ir_graph *g, const char *def_src, const char *def_dst,
                         plan_const_place *p, aotc_diag *d) {
  memset(p, 0, sizeof *p);
  if (!c || !c->memory_n_tensors) return 0;
  int any_id = 0;
  for (int i = 0; i < c->memory_n_tensors; i++) any_id |= c->memory_tensors[i].nids > 0;
  if (!any_id) return 0;
  platform pf;
  aotc_diag pd = {0};
  pd.quiet = 1;
  if (platform_from_config(c, &pf, &pd) != 0) return 0;
  unsigned char *grp = xcalloc((size_t)(g->nt + 1), 1);
  int warned = 0;
  for (int t = 0; t < g->nt; t++) {
    const ir_tensor *x = &g->t[t];
    if (x->role != ROLE_CONST || x->src_index < 0) continue;
    char id[16];
    snprintf(id, sizeof id, "%d", x->src_index);
    aotc_rule_attrs a;
    config_rules_resolve(c->memory_tensors, c->memory_n_tensors, "constant", id, &a);
    const char *src = a.memory ? platform_mem_canon(a.memory) : def_src;
    const char *dst = a.constant_destination_memory ? platform_mem_canon(a.constant_destination_memory) : src;
    if (!strcmp(src, def_src) && !strcmp(dst, def_dst)) continue;
    if (strcmp(pf.name, "host") != 0 && (!platform_find_mem(&pf, src) || !platform_find_mem(&pf, dst))) {
      free(grp);
      return diag_error(d, "memory.tensors: constant tensor %d is placed in '%s'%s%s, which platform %s does not have",
                        x->src_index, src, strcmp(src, dst) ? " staged to " : "", strcmp(src, dst) ? dst : "", pf.name);
    }
    int k = 0;
    while (k < p->ngroups && (strcmp(p->src[k], src) || strcmp(p->dst[k], dst))) k++;
    if (k == p->ngroups) {
      int clash = !strcmp(dst, def_dst);
      for (int j = 0; j < p->ngroups; j++) clash |= !strcmp(p->dst[j], dst);
      if (clash || p->ngroups == PLAN_MAX_CONST_GROUPS) {
        if (!warned++)
          diag_warn(d, "memory.tensors: constant tensor %d would be read from '%s' like constants kept elsewhere; aotc reads each memory's constants from one source, so the tensor keeps its role's placement",
                    x->src_index, dst);
        continue;
      }
      snprintf(p->src[k], sizeof p->src[k], "%s", src);
      snprintf(p->dst[k], sizeof p->dst[k], "%s", dst);
      p->ngroups++;
    }
    grp[t] = (unsigned char)(k + 1);
  }
  if (!p->ngroups) {
    free(grp);
    return 0;
  }
  p->group = grp;
  return 0;
}
