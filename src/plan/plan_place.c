/* plan_place.c - operator scratch placement: operators[] rules
 * (attributes.scratch_placement, resolved per op by type and the op's index
 * in the model with helia-aot's precedence) move an operator's own scratch
 * buffer (im2col and the like) out of the scratch arena into the scratch
 * region of another memory. Only the operators of the main graph; the
 * memory of the scratch arena itself is the one memory.tensors gives the
 * scratch role (or the platform's first preferred memory). */
#include "plan/plan.h"

#include "config/config.h"
#include "litert/litert.h"
#include "platform/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int plan_op_scratch_mems(const aotc_config *c, const ir_graph *g, char (**out)[16], aotc_diag *d) {
  *out = NULL;
  if (!c || !c->n_operators) return 0;
  platform pf;
  aotc_diag pd = {0};
  pd.quiet = 1;
  if (platform_from_config(c, &pf, &pd) != 0) return 0; /* reported by the code generator */
  aotc_rule_attrs sa;
  config_rules_resolve(c->memory_tensors, c->memory_n_tensors, "scratch", NULL, &sa);
  const char *smem = platform_mem_canon(sa.memory ? sa.memory : pf.norder ? pf.order[0] : "sram");
  char (*v)[16] = xcalloc((size_t)(g->nops + 1), sizeof *v);
  int moved = 0;
  for (int p = 0; p < g->nops; p++) {
    const ir_op *op = &g->ops[p];
    if (op->dead) continue;
    char id[16];
    snprintf(id, sizeof id, "%d", op->id);
    const char *type = op->builtin == OP_CUSTOM ? (op->custom ? op->custom : "CUSTOM") : litert_op_name(op->builtin);
    aotc_rule_attrs a;
    config_rules_resolve(c->operators, c->n_operators, type, id, &a);
    if (!a.scratch_placement) continue;
    const char *m = platform_mem_canon(a.scratch_placement);
    if (strcmp(pf.name, "host") != 0 && !platform_find_mem(&pf, m)) {
      free(v);
      return diag_error(d, "operators: op %d (%s) has scratch_placement '%s', which platform %s does not have; name one of its memories",
                        op->id, type, a.scratch_placement, pf.name);
    }
    if (platform_mem_nonvolatile(m)) {
      free(v);
      return diag_error(d, "operators: op %d (%s) has scratch_placement '%s', a non-volatile memory; scratch must be writable RAM (dtcm, sram, psram)",
                        op->id, type, a.scratch_placement);
    }
    if (!strcmp(m, smem)) continue; /* already there */
    snprintf(v[p], sizeof v[p], "%s", m);
    moved++;
  }
  if (!moved) {
    free(v);
    return 0;
  }
  *out = v;
  return 0;
}

int plan_memory_config(const aotc_config *c, ir_graph *g, aotc_diag *d) {
  char (*mems)[16];
  if (plan_op_scratch_mems(c, g, &mems, d) != 0) return -1;
  unsigned char *elsewhere = NULL;
  if (mems) {
    elsewhere = xcalloc((size_t)(g->nops + 1), 1);
    for (int p = 0; p < g->nops; p++) elsewhere[p] = mems[p][0] != 0;
  }
  int rc = plan_memory_placed(g, elsewhere, d);
  free(elsewhere);
  free(mems);
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
