/* codegen_config.c - the generator's options from the user's configuration:
 * names, model metadata and digest, module type, and the platform's memories
 * for the arena regions (scratch and persistent in the first preferred
 * memory, constants in the non-volatile one, unless memory.tensors says
 * otherwise; constants with a constant_destination_memory are staged: kept
 * in their memory and copied into the destination at init). */
#include "codegen_internal.h"

#include "config/config.h"
#include "platform/platform.h"

#include <stdlib.h>
#include <string.h>

/* The memory the rules give to the tensors of one role (rules without ids). */
static const char *rule_memory(const aotc_config *c, const char *role, int want_dest) {
  aotc_rule_attrs a;
  config_rules_resolve(c->memory_tensors, c->memory_n_tensors, role, NULL, &a);
  return want_dest ? a.constant_destination_memory : a.memory;
}

int codegen_options_from_config(const aotc_config *c, cg_options *o, cg_strings *keep, aotc_diag *d) {
  memset(keep, 0, sizeof *keep);
  platform pf;
  if (platform_from_config(c, &pf, d) != 0) return -1;
  o->model_name = c->model_name;
  o->model_version = c->model_version;
  o->model_description = c->model_description;
  o->module_type = c->module_type;
  o->pack = c->module_path && strlen(c->module_path) > 5 &&
            strcmp(c->module_path + strlen(c->module_path) - 5, ".pack") == 0;
  keep->platform_name = xstrdup(pf.name);
  keep->platform_cpu = xstrdup(pf.cpu);
  o->platform_name = keep->platform_name;
  o->platform_cpu = keep->platform_cpu;
  o->min_alignment = pf.min_alignment;
  const char *def_rw = pf.norder ? pf.order[0] : "sram";
  const char *def_const = "mram";
  for (int i = 0; i < pf.nmems; i++)
    if (platform_mem_nonvolatile(pf.mems[i].name)) def_const = pf.mems[i].name;
  const char *s = rule_memory(c, "scratch", 0), *p = rule_memory(c, "persistent", 0), *k = rule_memory(c, "constant", 0);
  keep->scratch_mem = xstrdup(platform_mem_canon(s ? s : def_rw));
  keep->persistent_mem = xstrdup(platform_mem_canon(p ? p : def_rw));
  keep->const_mem = xstrdup(platform_mem_canon(k ? k : def_const));
  /* constants kept in one memory and staged into another at init */
  const char *kd = rule_memory(c, "constant", 1);
  keep->const_src_mem = xstrdup(keep->const_mem);
  if (kd && strcmp(platform_mem_canon(kd), keep->const_mem) != 0) {
    free(keep->const_mem);
    keep->const_mem = xstrdup(platform_mem_canon(kd));
    o->const_staged = 1;
  }
  o->auto_hydrate = c->memory_auto_hydrate_constants;
  /* what aotc does not honour is said, never silently changed: rules by
   * tensor id that would give state another memory than its role's
   * (activations and constants by id: plan_scratch_placement,
   * plan_const_placement) */
  for (int i = 0; i < c->memory_n_tensors; i++) {
    const aotc_rule *r = &c->memory_tensors[i];
    if (!r->nids) continue;
    if (r->type && strcmp(r->type, "*") && strcmp(r->type, "persistent")) continue;
    if (r->memory && strcmp(platform_mem_canon(r->memory), keep->persistent_mem))
      diag_warn(d, "memory.tensors rule %d (line %d) names tensor ids and a memory other than the persistent role's: aotc keeps all persistent tensors (state) together in %s, so this rule is not applied to them",
                i, r->line, keep->persistent_mem);
  }
  o->external_arenas = !c->memory_allocate_arenas;
  o->nmems = pf.nmems;
  for (int i = 0; i < pf.nmems && i < 8; i++) {
    snprintf(o->mem_names[i], sizeof o->mem_names[i], "%s", pf.mems[i].name);
    o->mem_sizes[i] = pf.mems[i].size;
  }
  keep->mem_source = xasprintf("platform %s%s", pf.name, c->memory_n_constraints ? " with memory.constraints" : "");
  o->mem_source = keep->mem_source;
  const char *names[4] = {keep->scratch_mem, keep->persistent_mem, keep->const_mem, keep->const_src_mem};
  static const char *roles[4] = {"scratch", "persistent", "constant", "constant"};
  for (int r = 0; r < 4; r++)
    if (strcmp(pf.name, "host") != 0 && !platform_find_mem(&pf, names[r]))  /* host: any memory, no limit */
      return diag_error(d, "memory.tensors puts %s tensors in '%s', which platform %s does not have (it has %s%s%s%s)",
                        roles[r], names[r], pf.name, pf.mems[0].name, pf.nmems > 1 ? ", " : "",
                        pf.nmems > 1 ? pf.mems[1].name : "", pf.nmems > 2 ? ", ..." : "");
  o->scratch_mem = keep->scratch_mem;
  o->persistent_mem = keep->persistent_mem;
  o->const_mem = keep->const_mem;
  o->const_src_mem = keep->const_src_mem;
  if (c->model_path) {
    uint8_t *data;
    size_t len;
    aotc_diag dd = {0};
    if (read_file_all(c->model_path, &data, &len, &dd) == 0) {
      char hex[65];
      cg_sha256_hex(data, len, hex);
      free(data);
      keep->sha256 = xstrdup(hex);
      o->model_sha256 = keep->sha256;
    }
  }
  return 0;
}

void cg_strings_free(cg_strings *k) {
  free(k->platform_name);
  free(k->platform_cpu);
  free(k->scratch_mem);
  free(k->persistent_mem);
  free(k->const_mem);
  free(k->const_src_mem);
  free(k->sha256);
  free(k->mem_source);
  plan_scratch_place_free(&k->scratch_place);
  free(k->const_place.group);
  memset(k, 0, sizeof *k);
}
