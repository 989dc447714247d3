/* config_internal.h - shared by config.c and config_rules.c: the structured
 * values of helia-aot's schema read from YAML nodes. Not a public API. */
#ifndef AOTC_CONFIG_INTERNAL_H
#define AOTC_CONFIG_INTERNAL_H

#include <yaml.h>

#include "config/config.h"

/* Where a node comes from: the document and a name for messages. */
typedef struct cfg_src {
  yaml_document_t *doc;
  const char *file;
  aotc_diag *d;
} cfg_src;

int cfg_strs_from_yaml(const cfg_src *s, const char *key, yaml_node_t *n, char ***out, int *nout);
void cfg_strs_free(char **v, int n);
int cfg_mems_from_yaml(const cfg_src *s, const char *key, yaml_node_t *n, aotc_mem_size **out, int *nout);
void cfg_mems_free(aotc_mem_size *v, int n);
/* ops: 1 for operator rules (type upper-cased), 0 for tensor rules. A single
 * mapping is one rule. append: add to the list instead of replacing it. */
int cfg_rules_from_yaml(const cfg_src *s, const char *key, int ops, yaml_node_t *n, int append,
                        aotc_rule **out, int *nout);
void cfg_rules_free(aotc_rule *v, int n);

/* Parses text as a YAML (flow) document and calls fn on its root. */
typedef int (*cfg_flow_fn)(const cfg_src *s, yaml_node_t *root, void *arg);
int cfg_parse_flow(const char *text, const char *where, cfg_flow_fn fn, void *arg, aotc_diag *d);

#endif
