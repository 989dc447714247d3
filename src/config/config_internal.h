/* config_internal.h - shared by the config_*.c files: the option table and its
 * types, the value parsers, the lookup helpers, and the structured values of
 * helia-aot's schema read from YAML nodes (config_rules.c). Not a public API. */
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

/* ---- the option table (config_options.c) ---------------------------------- */

typedef enum opt_type {
  T_BOOL, T_INT, T_DOUBLE, T_STRING, T_INTS, T_PAIRS, T_ENUM,
  T_LEVEL,   /* int >= 0; a bool word is 0/1 and the flag alone is 1 (verbose) */
  T_STRS,    /* list of names (lower case) */
  T_MEMS,    /* memory sizes: [{name, max_size}] or {name: bytes} */
  T_RULES,   /* tensor attribute rules */
  T_OPRULES  /* operator attribute rules */
} opt_type;

struct opt_def;
typedef int (*opt_check)(aotc_config *c, const struct opt_def *o, const char *where, aotc_diag *d);

typedef struct opt_def {
  const char *key;
  opt_type type;
  size_t off;          /* the field */
  size_t count_off;    /* T_INTS / T_PAIRS: the int count field */
  const char *choices; /* T_ENUM (stored as index) or T_STRING (validated): "a|b|c" */
  const char *dflt;    /* default, as flag text; NULL: none */
  opt_check check;
  const char *help;
  const char *noeffect; /* when given: why it changes nothing in aotc (noted once) */
} opt_def;

/* A group of named on/off switches registered at run time. */
typedef struct cfg_group {
  const char *name;
  size_t off; /* the aotc_switches field */
  const char *help;
} cfg_group;

/* Keys of one section are contiguous (config_dump_yaml relies on it). */
extern const opt_def cfg_opts[];
extern const size_t cfg_n_opts;
extern const cfg_group cfg_groups[];
extern const size_t cfg_n_groups;
#define OPTS cfg_opts
#define N_OPTS cfg_n_opts
#define GROUPS cfg_groups
#define N_GROUPS cfg_n_groups

#define FIELD(c, o, T) ((T *)(void *)((char *)(c) + (o)->off))
#define COUNT(c, o) ((int *)(void *)((char *)(c) + (o)->count_off))

/* ---- values (config_values.c) ---------------------------------------------- */

char *cfg_norm_key(const char *s); /* malloc'ed, '-' -> '_' */
int cfg_key_eq(const char *a, const char *b); /* '-' == '_' */
/* Does k start with the first n chars of p ('-' == '_')? */
int cfg_key_starts(const char *k, const char *p, size_t n);
/* " (where)" or "" */
const char *cfg_paren(const char *where, char *buf, size_t size);
int cfg_parse_bool(const char *s, int *v);
int cfg_parse_int(const char *s, int *v);
int cfg_parse_pair(const char *s, aotc_int_pair *p);
int cfg_type_error(const opt_def *o, const char *got, const char *where, aotc_diag *d);
int cfg_type_error_val(const opt_def *o, const char *val, const char *where, aotc_diag *d);
const char *cfg_type_desc(const opt_def *o);
/* Writes choice i of choices ("a|b|c") into buf. */
const char *cfg_choice_name(const char *choices, int i, char *buf, size_t size);
/* Replace a T_INTS / T_PAIRS field (taking v). */
void cfg_set_ints(aotc_config *c, const opt_def *o, int *v, int n);
void cfg_set_pairs(aotc_config *c, const opt_def *o, aotc_int_pair *v, int n);
/* Sets option o from text (flag value or YAML scalar). */
int cfg_set_text(aotc_config *c, const opt_def *o, const char *val, const char *where, aotc_diag *d);
/* Structured options (T_STRS, T_MEMS, T_RULES, T_OPRULES) from flow text or a node. */
int cfg_set_structured(aotc_config *c, const opt_def *o, const char *val, const char *where, int append,
                       aotc_diag *d);
int cfg_apply_structured_node(aotc_config *c, const opt_def *o, const cfg_src *src, yaml_node_t *n,
                              int append);
void cfg_free_structured(aotc_config *c, const opt_def *o);

/* ---- lookup and suggestions (config_lookup.c) ------------------------------- */

const opt_def *cfg_find_opt(const char *key);
aotc_switches *cfg_group_at(const aotc_config *c, size_t g);
int cfg_find_group(const char *name);
int cfg_switch_index(const aotc_switches *s, const char *name);
/* If key is "<group>.<rest>", returns the group index and sets *rest. */
int cfg_split_group(const char *key, const char **rest);
/* Is key a section (a strict prefix of some option key at a '.')? */
int cfg_is_section(const char *key);
/* Lists the keys of a section: "path, name, prefix" (malloc'ed). */
char *cfg_section_keys(const aotc_config *c, const char *sec);
/* The error for an unknown key; shown: the key as written, dash: "--" for flags. */
int cfg_unknown_option(const aotc_config *c, const char *key, const char *shown, const char *dash,
                       const char *where, aotc_diag *d);

/* ---- YAML (config_yaml.c) -------------------------------------------------- */

/* A cfg_parse_flow callback: applies a switch list [name | {name, enabled,
 * options}] to the group gkey. */
typedef struct cfg_switch_flow {
  aotc_config *c;
  const char *gkey;
} cfg_switch_flow;
int cfg_switch_flow_cb(const cfg_src *src, yaml_node_t *root, void *arg);

/* ---- switches and resolution (config.c) ------------------------------------ */

int cfg_set_switch(aotc_switches *s, int i, const char *key, const char *val, const char *where, aotc_diag *d);
/* Resolves key (normalized) to an option or a registered switch. Returns 1
 * for an option (*o), 2 for a switch (*sw, *si), 0 if unknown. */
int cfg_resolve(const aotc_config *c, const char *key, const opt_def **o, aotc_switches **sw, int *si);

#endif
