/* config.h - aotc options: a YAML file of nested keys plus dotted flags.
 *
 * Every option has a dotted key ("test.golden_data"). In the YAML file the
 * key is written nested:
 *
 *     model:
 *       path: kws.tflite
 *     test:
 *       enabled: true
 *       golden_data: kws.npz
 *       state_feedback: [[0, 1], [2, 3]]
 *     transforms:
 *       fold_constants: false
 *
 * (a dotted key inside a mapping, "test.enabled: true", is accepted too).
 * On the command line the same key is a flag: "--test.golden_data X",
 * "--test.golden_data=X". In keys and flags '-' and '_' are equivalent
 * ("--test.golden-data", "--litert-hooks.fuse_rolled_gru"). "--path FILE"
 * names the YAML file; flags override the file whatever their order.
 *
 * Value syntax, the same for flags and YAML scalars:
 *   bool    true|false|yes|no|on|off|1|0 (any case); a bool flag given alone
 *           ("--test.enabled") is true, and takes the next argument as its
 *           value only when that argument is one of these words
 *   int     decimal (or 0x hex), must fit in int
 *   double  any strtod number, finite
 *   list    "3,7" (ints) / "0:1,2:3" (pairs); in YAML also a sequence
 *           [3, 7] / [[0, 1], [2, 3]] (or ["0:1", "2:3"])
 * A YAML null value (empty, "~", "null") leaves the option as it was.
 * A list given again (flag after file) replaces the earlier list.
 *
 * Errors (unknown key, bad value, malformed YAML) fill the diag with a
 * one-line message naming the key and where it came from, e.g.
 *   unknown option 'module.prefx' (in cfg.yaml line 3); did you mean 'module.prefix'?
 *   option 'test.tolerance' expects a number (double), got 'abc' (flag --test.tolerance)
 *   cfg.yaml line 4 column 7: YAML syntax error: mapping values are not allowed in this context
 *
 * helia-aot's schema is accepted as is: the rule lists memory.tensors and
 * operators ([{type, id, attributes}]; a flag takes several rules, each YAML
 * flow text), memory sizes (memory.constraints [{name, max_size|size}],
 * platform.memories {name: bytes}), name lists, transforms as a list
 * [{name: NAME|"*", enabled, options}] besides the mapping, --no-<bool>
 * flags and verbose levels. Options given that change nothing in aotc are
 * noted once each by config_print_notes().
 *
 * transforms.<name> and litert_hooks.<name> are bools whose names come from
 * the caller: register them with config_register_switch() after config_init()
 * and before loading or parsing.
 */
#ifndef AOTC_CONFIG_H
#define AOTC_CONFIG_H

#include <stdio.h>

#include "aotc.h"

typedef enum aotc_test_mode {
  AOTC_TEST_REPEAT = 0,    /* "repeat": every iteration on the same inputs */
  AOTC_TEST_SEQUENCE = 1,  /* "sequence" */
} aotc_test_mode;

typedef struct aotc_int_pair {
  int out, in;             /* test.state_feedback: output index -> input index */
} aotc_int_pair;

/* A memory and a size in bytes (memory.constraints: -1 = the platform's size;
 * platform.memories). Names are lower case. */
typedef struct aotc_mem_size {
  char *name;
  long long size;
} aotc_mem_size;

/* One helia-aot attribute rule (memory.tensors, operators): which tensors or
 * operators it matches and the attributes it sets (NULL / -1: not set). */
typedef struct aotc_rule {
  char *type;          /* tensors: scratch|persistent|constant|"*" (lower case);
                          operators: the op type (upper case); NULL: any */
  char **ids;          /* tensor / operator ids as strings; NULL: any */
  int nids;
  char *memory;        /* attributes.memory (or the older 'arena'), lower case */
  char *constant_destination_memory;
  char *code_placement, *scratch_placement;  /* operators */
  int accel;           /* operators: -1 unset */
  int order;           /* position in the list (later wins among equals) */
  int line;            /* YAML line, for messages */
} aotc_rule;

/* What a rule list gives one tensor or operator (NULL / -1: no rule sets it). */
typedef struct aotc_rule_attrs {
  const char *memory, *constant_destination_memory;  /* tensors */
  const char *code_placement, *scratch_placement;    /* operators */
  int accel;
} aotc_rule_attrs;

/* Resolves the rules for one tensor (type: its role, scratch|persistent|
 * constant) or operator (type: its op type, e.g. CONV_2D), id its id string
 * (NULL: match only rules without ids), with helia-aot's precedence: a rule
 * naming the type and the id beats one naming the type only, which beats one
 * naming the id only, which beats "*" (or no type); among equals the later
 * rule wins; rules merge field by field (a more specific rule that leaves a
 * field unset keeps the less specific rule's value). Types compare without
 * case. The strings point into the rules. Returns how many rules matched. */
int config_rules_resolve(const aotc_rule *rules, int n, const char *type, const char *id, aotc_rule_attrs *out);

typedef enum aotc_module_type {
  AOTC_MODULE_NEURALSPOT = 0,
  AOTC_MODULE_ZEPHYR = 1,
  AOTC_MODULE_CMAKE = 2,
  AOTC_MODULE_NSX = 3,
  AOTC_MODULE_CMSIS_PACK = 4,
} aotc_module_type;

/* A set of named boolean switches whose names the caller registers. */
typedef struct aotc_switches {
  int n;
  char **names;            /* as registered */
  char **help;             /* may hold NULLs */
  unsigned char *dflt;     /* registered default */
  unsigned char *value;    /* current value */
  unsigned char *set;      /* 1 once given by the file or a flag */
} aotc_switches;

typedef struct aotc_config {
  char *path;                      /* --path: the YAML file loaded, or NULL */
  char *model_path;                /* model.path */
  char *module_path;               /* module.path (parent directory of the module, or .zip) */
  char *module_name;               /* module.name, default "helia_aot_nn" */
  char *module_prefix;             /* module.prefix, default "aot"; a C identifier */
  char *module_runtime;            /* module.runtime: directory of a shared kernel library, or NULL */
  int test_enabled;                /* test.enabled, default 0 */
  char *test_golden_data;          /* test.golden_data (.npz) */
  double test_tolerance;           /* test.tolerance, default 1 */
  int test_tolerance_given;        /* 1 once test.tolerance was set by the file or a flag */
  int test_num_iterations;         /* test.num_iterations, default 1, >= 1 */
  aotc_int_pair *test_state_feedback; /* test.state_feedback */
  int test_n_state_feedback;
  int test_mode;                   /* test.mode: aotc_test_mode, default repeat */
  int *test_resets;                /* test.resets: iteration indices, >= 0 */
  int test_n_resets;
  int memory_dump_residency_json;  /* memory.dump_residency_json */
  char *model_type;                /* model.type: tflite|litert (the same file format) */
  int model_subgraph;              /* model.subgraph, default 0 */
  char *model_name;                /* model.name, default "model" */
  char *model_description;         /* model.description */
  char *model_version;             /* model.version, default "v1.0.0" */
  int module_type;                 /* module.type: aotc_module_type, default neuralspot */
  int test_skip_verification;      /* test.skip_verification */
  int memory_planner;              /* memory.planner: 0 = greedy */
  aotc_mem_size *memory_constraints; /* memory.constraints */
  int memory_n_constraints;
  aotc_rule *memory_tensors;       /* memory.tensors */
  int memory_n_tensors;
  int memory_allocate_arenas;      /* memory.allocate_arenas, default 1 */
  int memory_auto_hydrate_constants; /* memory.auto_hydrate_constants, default 1 */
  char *platform_name;             /* platform.name (built-in or user-described) */
  char *platform_cpu;              /* platform.cpu: cortex-m4|cortex-m55|... */
  int *platform_speeds;            /* platform.speeds (MHz) */
  int platform_n_speeds;
  aotc_mem_size *platform_memories; /* platform.memories */
  int platform_n_memories;
  char **platform_capabilities;    /* platform.capabilities */
  int platform_n_capabilities;
  char **platform_preferred_memory_order; /* platform.preferred_memory_order */
  int platform_n_preferred_memory_order;
  int platform_min_alignment;      /* platform.min_alignment, 0 = the platform's */
  aotc_rule *operators;            /* operators */
  int n_operators;
  int documentation_html;          /* documentation.html */
  char *log_file;                  /* log_file */
  unsigned char noted[64];         /* options given that have no effect (config_print_notes) */
  aotc_switches transforms;        /* transforms.<name> */
  aotc_switches litert_hooks;      /* litert_hooks.<name> */
  int force;                       /* force */
  char *target;                    /* target: host|cortex-m4|cortex-m55, default "host" */
  int target_given;                /* 1 once target was set by the file or a flag */
  int verbose;                     /* verbose: level 0.. (true = 1) */
  int help;                        /* --help or -h was given */
  struct aotc_custom_op *custom_ops;  /* custom_operators (src/config/custom_ops.c) */
  int n_custom_ops;
} aotc_config;

/* Sets every default. */
void config_init(aotc_config *c);
void config_free(aotc_config *c);

/* Registers the bool option <group>.<name> with a default (0/1) and a help
 * line (may be NULL). group is "transforms" or "litert_hooks". Registering a
 * name twice updates its default and help. Returns 0, or -1 if group is not
 * one of those. */
int config_register_switch(aotc_config *c, const char *group, const char *name, int dflt,
                           const char *help);

/* Value of a registered switch: 1/0, or -1 when name is not registered.
 * '-' and '_' are equivalent in name. */
int config_switch(const aotc_config *c, const char *group, const char *name);
/* 1 when the switch was given in the file or a flag, else 0. */
int config_switch_is_set(const aotc_config *c, const char *group, const char *name);

/* Loads the YAML file (sets c->path). */
int config_load_yaml(aotc_config *c, const char *path, aotc_diag *d);
/* Same from a string; name is used in messages ("<string>" when NULL). */
int config_load_yaml_string(aotc_config *c, const char *yaml, const char *name, aotc_diag *d);

/* Parses the arguments that follow the subcommand (argv[0] is the first
 * option, not the program name). First finds --path and loads that file,
 * then applies every flag on top. -h/--help set c->help. Arguments that are
 * not flags are positional: when positional is non-NULL they are returned in
 * a malloc'ed array (free() it; the strings point into argv) with their
 * count in *npositional; when positional is NULL a positional argument is
 * an error. "--" ends the flags. */
int config_parse_args(aotc_config *c, int argc, char **argv, char ***positional, int *npositional,
                      aotc_diag *d);

/* Sets one option by its dotted key from text, as a flag would. where
 * describes the origin for messages (may be NULL). */
int config_set(aotc_config *c, const char *key, const char *value, const char *where,
               aotc_diag *d);

/* The option key closest to key (edit distance, then a key that key is the
 * start of, then the same last component), or NULL if none is close. The
 * string is static (valid until the next call). */
const char *config_suggest(const aotc_config *c, const char *key);

/* Prints every option with its type, default and help text (for
 * "aotc convert --help"). c may be NULL: then no switch names are listed. */
void config_print_help(const aotc_config *c, FILE *out);

/* Prints, once each, a note for every option given that has no effect in
 * aotc ("aotc: note: option 'documentation.html' ..."). Returns the count. */
int config_print_notes(const aotc_config *c, FILE *out);

/* Writes the effective configuration as YAML that config_load_yaml reads
 * back to the same values. */
void config_dump_yaml(const aotc_config *c, FILE *out);

/* ---- custom_operators (src/config/custom_ops.c) ----------------------------
 * User kernels for CUSTOM ops. In YAML a list of mappings:
 *
 *     custom_operators:
 *       - code: MY_OP              # the model's custom code (case-sensitive)
 *         source: kernels/my_op.c  # one C99 file, relative to the config file
 *         function: my_op_run      # int32_t my_op_run(const aot_custom_args *a)
 *         scratch_bytes: 0         # optional
 *         outputs: [{dtype: int8, shape: [1, 10]}]   # optional output rule
 *
 * As flags: --custom_operators.<CODE>.<field> VALUE (source relative to the
 * working directory; outputs as "int8[1,10];float32[4]"), which add or
 * complete the entry of that code. */
typedef struct aotc_custom_output {
  int dtype;
  int rank;
  int32_t shape[8];
} aotc_custom_output;

typedef struct aotc_custom_op {
  char *code;
  char *source;           /* as resolved against the config file's directory */
  char *function;
  long scratch_bytes;
  aotc_custom_output *outputs;
  int noutputs;           /* -1: no output rule */
  char *where;            /* "cfg.yaml line 4" / "flag --custom_operators.X.source" */
} aotc_custom_op;

/* Applies the YAML value of custom_operators (node is a yaml_node_t of doc, a
 * yaml_document_t; void to keep yaml.h out of this header). */
int config_custom_ops_yaml(aotc_config *c, void *doc, void *node, const char *file, aotc_diag *d);
/* Applies --custom_operators.<rest> VALUE; rest is "<CODE>.<field>" as typed. */
int config_custom_ops_flag(aotc_config *c, const char *rest, const char *value, aotc_diag *d);
void config_custom_ops_free(aotc_config *c);
/* The help lines of custom_operators, and the YAML of the entries (for
 * config_print_help / config_dump_yaml; the dump gives sources as resolved). */
void config_custom_ops_help(FILE *out);
void config_custom_ops_dump(const aotc_config *c, FILE *out);

#endif
