/* config.c - aotc options from a YAML file and dotted flags. See config.h. */
#include "config/config_internal.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "yaml_limits.h"

/* ---- the option table ----------------------------------------------------- */

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

static int check_prefix(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d);
static int check_name(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d);
static int check_positive(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d);
static int check_nonneg(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d);
static int check_subgraph(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d);

#define F(field) offsetof(aotc_config, field)

/* Keys of one section must be contiguous (config_dump_yaml relies on it). */
static const opt_def OPTS[] = {
    {"model.path", T_STRING, F(model_path), 0, NULL, NULL, NULL,
     "the .tflite model to convert", NULL},
    {"model.subgraph", T_INT, F(model_subgraph), 0, NULL, "0", check_subgraph,
     "the subgraph to compile: 0, the model's entry (others run as callees of WHILE/IF/CALL_ONCE)", NULL},
    {"model.type", T_STRING, F(model_type), 0, "tflite|litert", "tflite", NULL,
     "model format; tflite and litert are the same flatbuffer", NULL},
    {"model.name", T_STRING, F(model_name), 0, NULL, "model", NULL, "model name shown in the module's README", NULL},
    {"model.description", T_STRING, F(model_description), 0, NULL, NULL, NULL,
     "model description shown in the module's README", NULL},
    {"model.version", T_STRING, F(model_version), 0, NULL, "v1.0.0", NULL, "model version shown in the module's README", NULL},
    {"module.path", T_STRING, F(module_path), 0, NULL, ".", NULL,
     "parent directory of the module (written to <module.path>/<module.name>/; created as needed), or a .zip archive", NULL},
    {"module.name", T_STRING, F(module_name), 0, NULL, "helia_aot_nn", check_name,
     "name of the module: its directory and its library (letters, digits, '_', '-', '.')", NULL},
    {"module.prefix", T_STRING, F(module_prefix), 0, NULL, "aot", check_prefix,
     "prefix of every generated C symbol; a C identifier, lower case recommended", NULL},
    {"module.type", T_ENUM, F(module_type), 0, "neuralspot|zephyr|cmake|nsx|cmsis_pack", "neuralspot", NULL,
     "build glue of the module: neuralspot (module.mk), zephyr, cmake, nsx, cmsis_pack", NULL},
    {"test.enabled", T_BOOL, F(test_enabled), 0, NULL, "false", NULL,
     "also generate a test that runs the module on golden data", NULL},
    {"test.golden_data", T_STRING, F(test_golden_data), 0, NULL, NULL, NULL,
     ".npz file with input_N / output_N (and runK_output_N) arrays", NULL},
    {"test.tolerance", T_DOUBLE, F(test_tolerance), 0, NULL, "1", check_nonneg,
     "accepted difference from the golden: integer outputs in LSB (default 1); float outputs absolute plus 1e-4 relative (default 1e-5 absolute unless given)", NULL},
    {"test.num_iterations", T_INT, F(test_num_iterations), 0, NULL, "1", check_positive,
     "number of inferences the test runs", NULL},
    {"test.state_feedback", T_PAIRS, F(test_state_feedback), F(test_n_state_feedback), NULL, NULL,
     check_nonneg, "between iterations copy output OUT into input IN, as OUT:IN,OUT:IN", NULL},
    {"test.mode", T_ENUM, F(test_mode), 0, "repeat|sequence", "repeat", NULL,
     "repeat: every iteration uses the same inputs; sequence: one input set per iteration", NULL},
    {"test.resets", T_INTS, F(test_resets), F(test_n_resets), NULL, NULL, check_nonneg,
     "sequence steps before which the model is re-initialized (state reset), as N,N", NULL},
    {"test.skip_verification", T_BOOL, F(test_skip_verification), 0, NULL, "false", NULL,
     "helia-aot: skip verifying the generated test", "aotc convert never runs the test case ('aotc verify' does), so there is nothing to skip"},
    {"memory.dump_residency_json", T_BOOL, F(memory_dump_residency_json), 0, NULL, "false", NULL,
     "write the tensor memory plan (residency) as JSON beside the module", NULL},
    {"memory.planner", T_ENUM, F(memory_planner), 0, "greedy", "greedy", NULL,
     "memory planner (greedy: by size, best fit, gaps of dead tensors reused)", NULL},
    {"memory.constraints", T_MEMS, F(memory_constraints), F(memory_n_constraints), NULL, NULL, NULL,
     "caps on memories, [{name: dtcm, max_size: 262144}, ...]", NULL},
    {"memory.tensors", T_RULES, F(memory_tensors), F(memory_n_tensors), NULL, NULL, NULL,
     "tensor placement rules [{type: scratch|persistent|constant|\"*\", id: [..], attributes: {memory, constant_destination_memory}}]", NULL},
    {"memory.allocate_arenas", T_BOOL, F(memory_allocate_arenas), 0, NULL, "true", NULL,
     "emit the arena buffers (false: the application binds them with <prefix>_bind_arena)", NULL},
    {"memory.auto_hydrate_constants", T_BOOL, F(memory_auto_hydrate_constants), 0, NULL, "true", NULL,
     "model_init copies staged constants (constant_destination_memory) into their runtime memory (false: the application calls <prefix>_model_hydrate after init)", NULL},
    {"platform.name", T_STRING, F(platform_name), 0, NULL, NULL, NULL,
     "target platform: apollo3p_evb, apollo4p_evb, apollo4l_evb, apollo510_evb, apollo510b_evb, generic_cortex_m4, generic_cortex_m55, ... or a name described by the other platform keys", NULL},
    {"platform.cpu", T_STRING, F(platform_cpu), 0, NULL, NULL, NULL,
     "CPU of the platform (cortex-m4: DSP kernels, cortex-m55: Helium kernels)", NULL},
    {"platform.speeds", T_INTS, F(platform_speeds), F(platform_n_speeds), NULL, NULL, check_nonneg,
     "clock speeds in MHz", "clock speeds do not change the code aotc generates"},
    {"platform.memories", T_MEMS, F(platform_memories), F(platform_n_memories), NULL, NULL, NULL,
     "memories of the platform and their sizes, {dtcm: 262144, sram: 524288}", NULL},
    {"platform.capabilities", T_STRS, F(platform_capabilities), F(platform_n_capabilities), NULL, NULL, NULL,
     "capabilities of the platform (dsp, mve, fpu)", NULL},
    {"platform.preferred_memory_order", T_STRS, F(platform_preferred_memory_order),
     F(platform_n_preferred_memory_order), NULL, NULL, NULL, "memories in order of preference, [dtcm, sram]", NULL},
    {"platform.min_alignment", T_INT, F(platform_min_alignment), 0, NULL, "0", check_nonneg,
     "arena alignment in bytes (0: the platform's, at least 16)", NULL},
    {"operators", T_OPRULES, F(operators), F(n_operators), NULL, NULL, NULL,
     "operator attribute rules [{type: CONV_2D, id: [..], attributes: {accel, code_placement, scratch_placement}}]",
     "aotc keeps operator code in the module's text section and has no accelerator switch: accel and code_placement change nothing (scratch_placement is honoured: the operator's own scratch goes to that memory)"},
    {"documentation.html", T_BOOL, F(documentation_html), 0, NULL, "false", NULL,
     "helia-aot: HTML documentation", "aotc writes README.md (with the memory-over-time SVG), no HTML"},
    {"force", T_BOOL, F(force), 0, NULL, "false", NULL,
     "replace an existing module aotc wrote (<module.path>/<module.name>, never anything else)", NULL},
    {"target", T_STRING, F(target), 0, "host|cortex-m4|cortex-m55", "host", NULL,
     "target that verify builds and runs the module for (not given: platform.cpu when it is cortex-m4 or cortex-m55, else host)", NULL},
    {"verbose", T_LEVEL, F(verbose), 0, NULL, "0", NULL, "verbosity level (0 quiet, 1 progress, 2 details)", NULL},
    {"log_file", T_STRING, F(log_file), 0, NULL, NULL, NULL,
     "also append aotc's notes, result and error lines to this file", NULL},
};
#define N_OPTS (sizeof OPTS / sizeof OPTS[0])
_Static_assert(N_OPTS < 64, "aotc_config.noted has one slot per option plus one");

static const struct {
  const char *name;
  size_t off;
  const char *help;
} GROUPS[] = {
    {"transforms", F(transforms), "turn the IR transform <name> on or off"},
    {"litert_hooks", F(litert_hooks), "turn the LiteRT import hook <name> on or off"},
};
#define N_GROUPS (sizeof GROUPS / sizeof GROUPS[0])

#undef F

#define FIELD(c, o, T) ((T *)(void *)((char *)(c) + (o)->off))
#define COUNT(c, o) ((int *)(void *)((char *)(c) + (o)->count_off))

/* ---- small helpers ------------------------------------------------------ */

static char *norm_key(const char *s) {
  char *r = xstrdup(s);
  for (char *p = r; *p; p++)
    if (*p == '-') *p = '_';
  return r;
}

static int key_eq(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;
    if (x != y) return 0;
  }
  return *a == *b;
}

/* Does k start with the first n chars of p ('-' == '_')? */
static int key_starts(const char *k, const char *p, size_t n) {
  if (strlen(k) < n || strlen(p) < n) return 0;
  for (size_t i = 0; i < n; i++) {
    char x = k[i] == '-' ? '_' : k[i], y = p[i] == '-' ? '_' : p[i];
    if (x != y) return 0;
  }
  return 1;
}

/* " (where)" or "" */
static const char *paren(const char *where, char *buf, size_t size) {
  if (!where || !*where) return "";
  snprintf(buf, size, " (%s)", where);
  return buf;
}

static int ci_eq(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

static int parse_bool(const char *s, int *v) {
  static const char *t[] = {"true", "yes", "on", "1"}, *f[] = {"false", "no", "off", "0"};
  for (int i = 0; i < 4; i++) {
    if (ci_eq(s, t[i])) return *v = 1, 0;
    if (ci_eq(s, f[i])) return *v = 0, 0;
  }
  return -1;
}

static int parse_int(const char *s, int *v) {
  while (isspace((unsigned char)*s)) s++;
  const char *q = s;
  if (*q == '+' || *q == '-') q++;
  int base = (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) ? 16 : 10;
  if (!isxdigit((unsigned char)q[base == 16 ? 2 : 0])) return -1;
  errno = 0;
  char *end;
  long l = strtol(s, &end, base);
  while (isspace((unsigned char)*end)) end++;
  if (errno || *end || l < INT_MIN || l > INT_MAX) return -1;
  *v = (int)l;
  return 0;
}

static int parse_double(const char *s, double *v) {
  char *end;
  errno = 0;
  double x = strtod(s, &end);
  if (end == s) return -1;
  while (isspace((unsigned char)*end)) end++;
  if (*end || errno == ERANGE || !isfinite(x)) return -1;
  *v = x;
  return 0;
}

/* Splits "a,b,c" (optional surrounding [ ]) into malloc'ed trimmed items. */
static int split_list(const char *s, char ***items) {
  while (isspace((unsigned char)*s)) s++;
  size_t len = strlen(s);
  while (len && isspace((unsigned char)s[len - 1])) len--;
  if (len >= 2 && s[0] == '[' && s[len - 1] == ']') {
    s++;
    len -= 2;
  }
  char *copy = xstrndup(s, len);
  int n = 0, cap = 0;
  char **out = NULL;
  char *p = copy;
  int empty = 1;
  for (char *q = copy; *q; q++)
    if (!isspace((unsigned char)*q)) empty = 0;
  if (!empty) {
    for (;;) {
      char *comma = strchr(p, ',');
      size_t l = comma ? (size_t)(comma - p) : strlen(p);
      while (l && isspace((unsigned char)*p)) p++, l--;
      while (l && isspace((unsigned char)p[l - 1])) l--;
      if (n == cap) out = xrealloc(out, sizeof *out * (size_t)(cap = cap ? cap * 2 : 4));
      out[n++] = xstrndup(p, l);
      if (!comma) break;
      p = comma + 1;
    }
  }
  free(copy);
  *items = out;
  return n;
}

static void free_items(char **items, int n) {
  for (int i = 0; i < n; i++) free(items[i]);
  free(items);
}

static const char *type_desc(const opt_def *o) {
  switch (o->type) {
    case T_BOOL: return "a bool (true/false/yes/no/1/0)";
    case T_INT: return "an integer";
    case T_DOUBLE: return "a number (double)";
    case T_STRING: return o->choices ? "one of" : "a string";
    case T_INTS: return "a list of integers like 3,7";
    case T_PAIRS: return "a list of OUT:IN integer pairs like 0:1,2:3";
    case T_ENUM: return "one of";
    case T_LEVEL: return "a level (0, 1, 2, ...; true = 1)";
    case T_STRS: return "a list of names like [dtcm, sram]";
    case T_MEMS: return "memory sizes like [{name: dtcm, max_size: 262144}] or {dtcm: 262144}";
    case T_RULES: return "a list of rules like [{type: scratch, attributes: {memory: dtcm}}]";
    case T_OPRULES: return "a list of rules like [{type: CONV_2D, attributes: {accel: false}}]";
  }
  return "?";
}

static int type_error(const opt_def *o, const char *got, const char *where, aotc_diag *d) {
  char pb[600];
  const char *ch = o->choices ? o->choices : "";
  return diag_error(d, "option '%s' expects %s%s%s, got %s%s", o->key, type_desc(o),
                    o->choices ? " " : "", ch, got, paren(where, pb, sizeof pb));
}

static int type_error_val(const opt_def *o, const char *val, const char *where, aotc_diag *d) {
  char *got = xasprintf("'%.200s'", val);
  type_error(o, got, where, d);
  free(got);
  return -1;
}

static int choice_index(const char *choices, const char *v) {
  int i = 0;
  for (const char *p = choices;; i++) {
    const char *bar = strchr(p, '|');
    size_t l = bar ? (size_t)(bar - p) : strlen(p);
    if (strlen(v) == l && strncmp(p, v, l) == 0) return i;
    if (!bar) return -1;
    p = bar + 1;
  }
}

/* Writes choice i of choices into buf. */
static const char *choice_name(const char *choices, int i, char *buf, size_t size) {
  const char *p = choices;
  for (int k = 0; k < i && p; k++) {
    p = strchr(p, '|');
    if (p) p++;
  }
  if (!p) return "?";
  const char *bar = strchr(p, '|');
  size_t l = bar ? (size_t)(bar - p) : strlen(p);
  snprintf(buf, size, "%.*s", (int)l, p);
  return buf;
}

/* ---- setting values ----------------------------------------------------- */

static void set_ints(aotc_config *c, const opt_def *o, int *v, int n) {
  int **f = FIELD(c, o, int *);
  free(*f);
  *f = v;
  *COUNT(c, o) = n;
}

static void set_pairs(aotc_config *c, const opt_def *o, aotc_int_pair *v, int n) {
  aotc_int_pair **f = FIELD(c, o, aotc_int_pair *);
  free(*f);
  *f = v;
  *COUNT(c, o) = n;
}

static int parse_pair(const char *s, aotc_int_pair *p) {
  const char *colon = strchr(s, ':');
  if (!colon) return -1;
  char *a = xstrndup(s, (size_t)(colon - s));
  int rc = parse_int(a, &p->out) || parse_int(colon + 1, &p->in);
  free(a);
  return rc ? -1 : 0;
}

static int set_structured(aotc_config *c, const opt_def *o, const char *val, const char *where, int append,
                          aotc_diag *d);

/* Sets option o from text (flag value or YAML scalar). */
static int set_text(aotc_config *c, const opt_def *o, const char *val, const char *where,
                    aotc_diag *d) {
  if (!strcmp(o->key, "target")) c->target_given = 1; /* config_init clears it after the defaults */
  switch (o->type) {
    case T_BOOL: {
      int v;
      if (parse_bool(val, &v)) return type_error_val(o, val, where, d);
      *FIELD(c, o, int) = v;
      break;
    }
    case T_INT: {
      int v;
      if (parse_int(val, &v)) return type_error_val(o, val, where, d);
      *FIELD(c, o, int) = v;
      break;
    }
    case T_DOUBLE: {
      double v;
      if (parse_double(val, &v)) return type_error_val(o, val, where, d);
      *FIELD(c, o, double) = v;
      if (FIELD(c, o, double) == &c->test_tolerance) c->test_tolerance_given = 1;
      break;
    }
    case T_STRING: {
      if (o->choices && choice_index(o->choices, val) < 0) return type_error_val(o, val, where, d);
      char **f = FIELD(c, o, char *);
      free(*f);
      *f = xstrdup(val);
      break;
    }
    case T_ENUM: {
      int i = choice_index(o->choices, val);
      if (i < 0) return type_error_val(o, val, where, d);
      *FIELD(c, o, int) = i;
      break;
    }
    case T_INTS: {
      char **items;
      int n = split_list(val, &items);
      int *v = xmalloc(sizeof *v * (size_t)(n ? n : 1));
      for (int i = 0; i < n; i++) {
        if (parse_int(items[i], &v[i])) {
          free(v);
          free_items(items, n);
          return type_error_val(o, val, where, d);
        }
      }
      free_items(items, n);
      set_ints(c, o, v, n);
      break;
    }
    case T_PAIRS: {
      char **items;
      int n = split_list(val, &items);
      aotc_int_pair *v = xmalloc(sizeof *v * (size_t)(n ? n : 1));
      for (int i = 0; i < n; i++) {
        if (parse_pair(items[i], &v[i])) {
          free(v);
          free_items(items, n);
          return type_error_val(o, val, where, d);
        }
      }
      free_items(items, n);
      set_pairs(c, o, v, n);
      break;
    }
    case T_LEVEL: {
      int v;
      if (parse_bool(val, &v) && (parse_int(val, &v) || v < 0)) return type_error_val(o, val, where, d);
      *FIELD(c, o, int) = v;
      break;
    }
    case T_STRS:
    case T_MEMS:
    case T_RULES:
    case T_OPRULES:
      if (set_structured(c, o, val, where, 0, d)) return -1;
      break;
  }
  if (where && o->noeffect) c->noted[o - OPTS] = 1;
  return o->check ? o->check(c, o, where, d) : 0;
}

static int check_prefix(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d) {
  const char *s = *FIELD(c, o, char *);
  char pb[600];
  int ok = s && (isalpha((unsigned char)s[0]) || s[0] == '_');
  for (const char *p = s; ok && *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_') ok = 0;
  if (!ok)
    return diag_error(d, "option '%s' must be a C identifier (letters, digits, '_'), got '%s'%s",
                      o->key, s ? s : "", paren(where, pb, sizeof pb));
  for (const char *p = s; *p; p++) {
    if (isupper((unsigned char)*p)) {
      diag_warn(d, "option '%s' is '%s': lower case is recommended%s", o->key, s,
                paren(where, pb, sizeof pb));
      break;
    }
  }
  return 0;
}

static int check_name(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d) {
  const char *s = *FIELD(c, o, char *);
  char pb[600];
  int ok = s && *s && *s != '.' && *s != '-';
  for (const char *p = s; ok && *p; p++)
    if (!isalnum((unsigned char)*p) && !strchr("_-.", *p)) ok = 0;
  if (!ok)
    return diag_error(d, "option '%s' must be a name of letters, digits, '_', '-' and '.', got '%s'%s",
                      o->key, s ? s : "", paren(where, pb, sizeof pb));
  return 0;
}

static int check_positive(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d) {
  char pb[600];
  int v = *FIELD(c, o, int);
  if (v < 1)
    return diag_error(d, "option '%s' must be at least 1, got %d%s", o->key, v,
                      paren(where, pb, sizeof pb));
  return 0;
}

static int check_nonneg(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d) {
  char pb[600];
  int bad = 0;
  if (o->type == T_DOUBLE) {
    bad = *FIELD(c, o, double) < 0;
  } else if (o->type == T_INTS) {
    for (int i = 0; i < *COUNT(c, o); i++) bad |= (*FIELD(c, o, int *))[i] < 0;
  } else if (o->type == T_PAIRS) {
    for (int i = 0; i < *COUNT(c, o); i++) {
      aotc_int_pair p = (*FIELD(c, o, aotc_int_pair *))[i];
      bad |= p.out < 0 || p.in < 0;
    }
  } else {
    bad = *FIELD(c, o, int) < 0;
  }
  if (bad)
    return diag_error(d, "option '%s' must not be negative%s", o->key, paren(where, pb, sizeof pb));
  return 0;
}

static int check_subgraph(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d) {
  char pb[600];
  int v = *FIELD(c, o, int);
  if (v != 0)
    return diag_error(d, "option '%s' is %d: aotc compiles the model's entry subgraph 0 (other subgraphs only as callees of WHILE/IF/CALL_ONCE); write the subgraph as its own model or use 0%s",
                      o->key, v, paren(where, pb, sizeof pb));
  return 0;
}

/* ---- structured values (config_rules.c) ------------------------------------ */

typedef struct flow_arg {
  aotc_config *c;
  const opt_def *o;
  int append;
} flow_arg;

static int apply_structured_node(aotc_config *c, const opt_def *o, const cfg_src *src, yaml_node_t *n,
                                 int append) {
  switch (o->type) {
    case T_STRS: return cfg_strs_from_yaml(src, o->key, n, FIELD(c, o, char **), COUNT(c, o));
    case T_MEMS: return cfg_mems_from_yaml(src, o->key, n, FIELD(c, o, aotc_mem_size *), COUNT(c, o));
    case T_RULES:
    case T_OPRULES:
      return cfg_rules_from_yaml(src, o->key, o->type == T_OPRULES, n, append, FIELD(c, o, aotc_rule *), COUNT(c, o));
    default: return -1;
  }
}

static int flow_cb(const cfg_src *src, yaml_node_t *root, void *arg) {
  flow_arg *a = arg;
  return apply_structured_node(a->c, a->o, src, root, a->append);
}

static int set_structured(aotc_config *c, const opt_def *o, const char *val, const char *where, int append,
                          aotc_diag *d) {
  flow_arg a = {c, o, append};
  return cfg_parse_flow(val, where ? where : o->key, flow_cb, &a, d);
}

static void free_structured(aotc_config *c, const opt_def *o) {
  switch (o->type) {
    case T_STRS: cfg_strs_free(*FIELD(c, o, char **), *COUNT(c, o)); break;
    case T_MEMS: cfg_mems_free(*FIELD(c, o, aotc_mem_size *), *COUNT(c, o)); break;
    case T_RULES:
    case T_OPRULES: cfg_rules_free(*FIELD(c, o, aotc_rule *), *COUNT(c, o)); break;
    default: break;
  }
}

int config_print_notes(const aotc_config *c, FILE *out) {
  int n = 0;
  for (size_t i = 0; i < N_OPTS; i++)
    if (c->noted[i] && OPTS[i].noeffect) {
      if (OPTS[i].type == T_OPRULES) {
        /* operators: only accel and code_placement change nothing */
        int moot = 0;
        for (int k = 0; k < c->n_operators; k++) moot |= c->operators[k].accel >= 0 || c->operators[k].code_placement != NULL;
        if (!moot) continue;
      }
      fprintf(out, "aotc: note: option '%s' is accepted for helia-aot compatibility but has no effect: %s\n",
              OPTS[i].key, OPTS[i].noeffect);
      n++;
    }
  if (c->noted[N_OPTS]) {
    fputs("aotc: note: 'options' of transforms are accepted for helia-aot compatibility but have no effect: aotc's transforms take none\n", out);
    n++;
  }
  return n;
}

/* ---- lookup ---------------------------------------------------------------- */

static const opt_def *find_opt(const char *key) {
  for (size_t i = 0; i < N_OPTS; i++)
    if (key_eq(OPTS[i].key, key)) return &OPTS[i];
  return NULL;
}

static aotc_switches *group_at(const aotc_config *c, size_t g) {
  return (aotc_switches *)(void *)((char *)c + GROUPS[g].off);
}

static int find_group(const char *name) {
  for (size_t g = 0; g < N_GROUPS; g++)
    if (key_eq(GROUPS[g].name, name)) return (int)g;
  return -1;
}

static int switch_index(const aotc_switches *s, const char *name) {
  for (int i = 0; i < s->n; i++)
    if (key_eq(s->names[i], name)) return i;
  return -1;
}

/* If key is "<group>.<rest>", returns the group index and sets *rest. */
static int split_group(const char *key, const char **rest) {
  const char *dot = strchr(key, '.');
  if (!dot) return -1;
  char *g = xstrndup(key, (size_t)(dot - key));
  int gi = find_group(g);
  free(g);
  if (gi >= 0) *rest = dot + 1;
  return gi;
}

/* Is key a section (a strict prefix of some option key at a '.')? */
static int is_section(const char *key) {
  if (find_group(key) >= 0) return 1;
  size_t n = strlen(key);
  for (size_t i = 0; i < N_OPTS; i++)
    if (strlen(OPTS[i].key) > n && OPTS[i].key[n] == '.' && key_starts(OPTS[i].key, key, n))
      return 1;
  return 0;
}

/* Lists the keys of a section: "path, name, prefix". */
static char *section_keys(const aotc_config *c, const char *sec) {
  strbuf b = {0};
  size_t n = strlen(sec);
  int gi = find_group(sec);
  if (gi >= 0) {
    const aotc_switches *s = group_at(c, (size_t)gi);
    for (int i = 0; i < s->n; i++) sb_printf(&b, "%s%s", b.len ? ", " : "", s->names[i]);
    if (!s->n) sb_puts(&b, "none registered");
    return b.s;
  }
  for (size_t i = 0; i < N_OPTS; i++)
    if (strlen(OPTS[i].key) > n && OPTS[i].key[n] == '.' && key_starts(OPTS[i].key, sec, n))
      sb_printf(&b, "%s%s", b.len ? ", " : "", OPTS[i].key + n + 1);
  return b.s ? b.s : xstrdup("");
}

static size_t edit_distance(const char *a, const char *b) {
  size_t n = strlen(a), m = strlen(b);
  size_t *row = xmalloc(sizeof *row * (m + 1));
  for (size_t j = 0; j <= m; j++) row[j] = j;
  for (size_t i = 1; i <= n; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= m; j++) {
      size_t up = row[j];
      char x = a[i - 1] == '-' ? '_' : a[i - 1], y = b[j - 1] == '-' ? '_' : b[j - 1];
      size_t best = diag + (x != y);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  size_t r = row[m];
  free(row);
  return r;
}

static const char *last_part(const char *k) {
  const char *dot = strrchr(k, '.');
  return dot ? dot + 1 : k;
}

/* Candidate keys: static options, "path", and registered switches. The
 * switch keys are built into *tmp (freed by the caller). */
static int candidates(const aotc_config *c, const char ***out, char ***tmp, int *ntmp) {
  int n = 0, nt = 0, cap = (int)N_OPTS + 1;
  for (size_t g = 0; c && g < N_GROUPS; g++) cap += group_at(c, g)->n;
  const char **k = xmalloc(sizeof *k * (size_t)cap);
  char **t = xmalloc(sizeof *t * (size_t)cap);
  for (size_t i = 0; i < N_OPTS; i++) k[n++] = OPTS[i].key;
  k[n++] = "path";
  for (size_t g = 0; c && g < N_GROUPS; g++) {
    const aotc_switches *s = group_at(c, g);
    for (int i = 0; i < s->n; i++) {
      t[nt] = xasprintf("%s.%s", GROUPS[g].name, s->names[i]);
      k[n++] = t[nt++];
    }
  }
  *out = k;
  *tmp = t;
  *ntmp = nt;
  return n;
}

const char *config_suggest(const aotc_config *c, const char *key) {
  const char **k;
  char **tmp;
  int nt;
  int n = candidates(c, &k, &tmp, &nt);
  size_t len = strlen(key);
  size_t limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
  size_t best = (size_t)-1;
  int bi = -1;
  for (int i = 0; i < n; i++) {
    size_t dist = edit_distance(key, k[i]);
    if (dist < best) best = dist, bi = i;
  }
  /* Order of preference: a near miss (one edit); a key that starts with
   * what was typed ("--test.golden" -> test.golden_data); a farther miss
   * within the limit; the same last component ("--prefix" -> module.prefix). */
  if (best > 1) {
    int pi = -1;
    for (int i = 0; i < n && pi < 0 && len >= 3; i++)
      if (strlen(k[i]) > len && key_starts(k[i], key, len)) pi = i;
    if (pi >= 0) {
      bi = pi;
    } else if (best > limit) {
      bi = -1;
      for (int i = 0; i < n && bi < 0; i++)
        if (key_eq(last_part(k[i]), last_part(key))) bi = i;
    }
  }
  const char *r = NULL;
  if (bi >= 0) {
    /* Return a static string: table keys are static; switch keys are
     * looked up again to return the registered name's storage. */
    if (bi < (int)N_OPTS + 1) {
      r = k[bi];
    } else {
      static char buf[256];
      snprintf(buf, sizeof buf, "%s", k[bi]);
      r = buf;
    }
  }
  for (int i = 0; i < nt; i++) free(tmp[i]);
  free(tmp);
  free(k);
  return r;
}

/* shown: the key as the user wrote it (for flags "--x"), dash: "--" for
 * flags, "" for YAML. */
static int unknown_option(const aotc_config *c, const char *key, const char *shown,
                          const char *dash, const char *where, aotc_diag *d) {
  char pb[600];
  const char *s = config_suggest(c, key);
  const char *rest = NULL;
  int gi = split_group(key, &rest);
  if (s && key_eq(s, key)) {
    /* "path" names the config file on the command line only */
    if (key_eq(key, "path"))
      return diag_error(d, "'%s'%s is not a key of the config file: the file itself is given with --path FILE; the model is model.path, the output module.path",
                        shown, paren(where, pb, sizeof pb));
    s = NULL;
  }
  if (s)
    return diag_error(d, "unknown option '%s'%s; did you mean '%s%s'?", shown,
                      paren(where, pb, sizeof pb), dash, s);
  if (gi >= 0) {
    char *names = section_keys(c, GROUPS[gi].name);
    diag_error(d, "unknown option '%s'%s; valid %s: %s", shown, paren(where, pb, sizeof pb),
               GROUPS[gi].name, names);
    free(names);
    return -1;
  }
  return diag_error(d, "unknown option '%s'%s", shown, paren(where, pb, sizeof pb));
}

/* ---- init / free / switches ------------------------------------------------ */

void config_init(aotc_config *c) {
  memset(c, 0, sizeof *c);
  aotc_diag d = {0};
  d.quiet = 1;
  for (size_t i = 0; i < N_OPTS; i++)
    if (OPTS[i].dflt) set_text(c, &OPTS[i], OPTS[i].dflt, NULL, &d);
  c->test_tolerance_given = 0; /* defaults do not count as given */
  c->target_given = 0;
}

static void free_switches(aotc_switches *s) {
  for (int i = 0; i < s->n; i++) {
    free(s->names[i]);
    free(s->help[i]);
  }
  free(s->names);
  free(s->help);
  free(s->dflt);
  free(s->value);
  free(s->set);
  memset(s, 0, sizeof *s);
}

void config_free(aotc_config *c) {
  if (!c) return;
  free(c->path);
  for (size_t i = 0; i < N_OPTS; i++) {
    const opt_def *o = &OPTS[i];
    if (o->type == T_STRING || o->type == T_INTS || o->type == T_PAIRS) free(*FIELD(c, o, void *));
    else free_structured(c, o);
  }
  for (size_t g = 0; g < N_GROUPS; g++) free_switches(group_at(c, g));
  config_custom_ops_free(c);
  memset(c, 0, sizeof *c);
}

int config_register_switch(aotc_config *c, const char *group, const char *name, int dflt,
                           const char *help) {
  int gi = find_group(group);
  if (gi < 0 || !name || !*name) return -1;
  aotc_switches *s = group_at(c, (size_t)gi);
  int i = switch_index(s, name);
  if (i < 0) {
    i = s->n++;
    size_t n = (size_t)s->n;
    s->names = xrealloc(s->names, n * sizeof *s->names);
    s->help = xrealloc(s->help, n * sizeof *s->help);
    s->dflt = xrealloc(s->dflt, n);
    s->value = xrealloc(s->value, n);
    s->set = xrealloc(s->set, n);
    s->names[i] = xstrdup(name);
    s->help[i] = NULL;
    s->set[i] = 0;
  }
  free(s->help[i]);
  s->help[i] = xstrdup(help);
  s->dflt[i] = dflt != 0;
  if (!s->set[i]) s->value[i] = dflt != 0;
  return 0;
}

int config_switch(const aotc_config *c, const char *group, const char *name) {
  int gi = find_group(group);
  if (gi < 0) return -1;
  const aotc_switches *s = group_at(c, (size_t)gi);
  int i = switch_index(s, name);
  return i < 0 ? -1 : s->value[i];
}

int config_switch_is_set(const aotc_config *c, const char *group, const char *name) {
  int gi = find_group(group);
  if (gi < 0) return 0;
  const aotc_switches *s = group_at(c, (size_t)gi);
  int i = switch_index(s, name);
  return i < 0 ? 0 : s->set[i];
}

static int set_switch(aotc_switches *s, int i, const char *key, const char *val, const char *where,
                      aotc_diag *d) {
  int v;
  if (parse_bool(val, &v)) {
    char pb[600];
    return diag_error(d, "option '%s' expects a bool (true/false/yes/no/1/0), got '%.200s'%s", key,
                      val, paren(where, pb, sizeof pb));
  }
  s->value[i] = (unsigned char)v;
  s->set[i] = 1;
  return 0;
}

/* Resolves key (normalized) to an option or a registered switch. Returns 1
 * for an option (*o), 2 for a switch (*sw, *si), 0 if unknown. */
static int resolve(const aotc_config *c, const char *key, const opt_def **o, aotc_switches **sw,
                   int *si) {
  *o = find_opt(key);
  if (*o) return 1;
  const char *rest;
  int gi = split_group(key, &rest);
  if (gi >= 0) {
    aotc_switches *s = group_at(c, (size_t)gi);
    int i = switch_index(s, rest);
    if (i >= 0) {
      *sw = s;
      *si = i;
      return 2;
    }
  }
  return 0;
}

int config_set(aotc_config *c, const char *key, const char *value, const char *where,
               aotc_diag *d) {
  const opt_def *o;
  aotc_switches *s;
  int si;
  char *k = norm_key(key);
  int r = resolve(c, k, &o, &s, &si), rc;
  if (r == 1)
    rc = set_text(c, o, value, where, d);
  else if (r == 2)
    rc = set_switch(s, si, k, value, where, d);
  else
    rc = unknown_option(c, k, key, "", where, d);
  free(k);
  return rc;
}

/* ---- YAML -------------------------------------------------------------- */

typedef struct yctx {
  aotc_config *c;
  yaml_document_t *doc;
  const char *file;
  aotc_diag *d;
} yctx;

static int is_null(const yaml_node_t *n) {
  if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) return 0;
  const char *v = (const char *)n->data.scalar.value;
  return !*v || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL");
}

static char *where_line(const yctx *y, const yaml_node_t *n) {
  return xasprintf("in %s line %zu", y->file, n->start_mark.line + 1);
}

static const char *node_kind(const yaml_node_t *n) {
  return n->type == YAML_MAPPING_NODE ? "a mapping" : n->type == YAML_SEQUENCE_NODE ? "a list" : "a value";
}

static int yaml_int(const yctx *y, const opt_def *o, yaml_node_t *n, int *v, const char *where) {
  if (n->type != YAML_SCALAR_NODE || parse_int((const char *)n->data.scalar.value, v)) {
    if (n->type == YAML_SCALAR_NODE)
      return type_error_val(o, (const char *)n->data.scalar.value, where, y->d);
    return type_error(o, node_kind(n), where, y->d);
  }
  return 0;
}

static int apply_sequence(const yctx *y, const opt_def *o, yaml_node_t *v) {
  yaml_node_item_t *a = v->data.sequence.items.start, *z = v->data.sequence.items.top;
  int n = (int)(z - a);
  if (o->type == T_INTS) {
    int *vals = xmalloc(sizeof *vals * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
      yaml_node_t *it = yaml_document_get_node(y->doc, a[i]);
      char *w = where_line(y, it);
      int rc = yaml_int(y, o, it, &vals[i], w);
      free(w);
      if (rc) {
        free(vals);
        return -1;
      }
    }
    set_ints(y->c, o, vals, n);
  } else {
    aotc_int_pair *vals = xmalloc(sizeof *vals * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
      yaml_node_t *it = yaml_document_get_node(y->doc, a[i]);
      char *w = where_line(y, it);
      int rc = 0;
      if (it->type == YAML_SEQUENCE_NODE &&
          it->data.sequence.items.top - it->data.sequence.items.start == 2) {
        yaml_node_t *p0 = yaml_document_get_node(y->doc, it->data.sequence.items.start[0]);
        yaml_node_t *p1 = yaml_document_get_node(y->doc, it->data.sequence.items.start[1]);
        rc = yaml_int(y, o, p0, &vals[i].out, w) || yaml_int(y, o, p1, &vals[i].in, w);
      } else if (it->type == YAML_SCALAR_NODE) {
        if (parse_pair((const char *)it->data.scalar.value, &vals[i]))
          rc = type_error_val(o, (const char *)it->data.scalar.value, w, y->d);
      } else {
        rc = type_error(o, "a list item that is not an [OUT, IN] pair", w, y->d);
      }
      free(w);
      if (rc) {
        free(vals);
        return -1;
      }
    }
    set_pairs(y->c, o, vals, n);
  }
  return 0;
}

static int apply_node(const yctx *y, const opt_def *o, yaml_node_t *v) {
  if (is_null(v)) return 0;
  char *where = where_line(y, v);
  int rc;
  if (o->type == T_STRS || o->type == T_MEMS || o->type == T_RULES || o->type == T_OPRULES) {
    cfg_src src = {y->doc, y->file, y->d};
    rc = apply_structured_node(y->c, o, &src, v, 0);
    if (!rc && o->noeffect) y->c->noted[o - OPTS] = 1;
  } else if (v->type == YAML_SCALAR_NODE) {
    rc = set_text(y->c, o, (const char *)v->data.scalar.value, where, y->d);
  } else if (v->type == YAML_SEQUENCE_NODE && (o->type == T_INTS || o->type == T_PAIRS)) {
    rc = apply_sequence(y, o, v);
    if (!rc && o->check) rc = o->check(y->c, o, where, y->d);
    if (!rc && o->noeffect) y->c->noted[o - OPTS] = 1;
  } else {
    rc = type_error(o, node_kind(v), where, y->d);
  }
  free(where);
  return rc;
}

/* helia-aot's transforms list: [{name: NAME | "*", enabled: BOOL, options: {}}]
 * (a plain NAME item enables it). Applies to the switch group gkey. */
static int apply_switch_item(aotc_config *c, const char *gkey, const cfg_src *src, yaml_node_t *it) {
  aotc_switches *sw = group_at(c, (size_t)find_group(gkey));
  const char *name = NULL, *enabled = "true";
  char w[400];
  snprintf(w, sizeof w, "in %.300s line %zu", src->file, it->start_mark.line + 1);
  if (it->type == YAML_SCALAR_NODE) {
    name = (const char *)it->data.scalar.value;
  } else if (it->type == YAML_MAPPING_NODE) {
    for (yaml_node_pair_t *p = it->data.mapping.pairs.start; p < it->data.mapping.pairs.top; p++) {
      yaml_node_t *k = yaml_document_get_node(src->doc, p->key), *v = yaml_document_get_node(src->doc, p->value);
      const char *ks = k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "?";
      if (!strcmp(ks, "name") && v->type == YAML_SCALAR_NODE) {
        name = (const char *)v->data.scalar.value;
      } else if (!strcmp(ks, "enabled") && v->type == YAML_SCALAR_NODE) {
        if (!is_null(v)) enabled = (const char *)v->data.scalar.value;
      } else if (!strcmp(ks, "options")) {
        if (!is_null(v) && !(v->type == YAML_MAPPING_NODE && v->data.mapping.pairs.top == v->data.mapping.pairs.start))
          c->noted[N_OPTS] = 1;
      } else {
        return diag_error(src->d, "unknown key '%s' in a %s item (%s); valid keys: name, enabled, options", ks, gkey, w);
      }
    }
  } else {
    return diag_error(src->d, "a %s item must be a name or {name, enabled, options} (%s)", gkey, w);
  }
  if (!name || !*name) return diag_error(src->d, "a %s item has no name (%s)", gkey, w);
  if (!strcmp(name, "*")) {
    for (int i = 0; i < sw->n; i++) {
      char *k = xasprintf("%s.%s", gkey, sw->names[i]);
      int rc = set_switch(sw, i, k, enabled, w, src->d);
      free(k);
      if (rc) return -1;
    }
    return 0;
  }
  char *k = xasprintf("%s.%s", gkey, name);
  char *nk = norm_key(k);
  int si = switch_index(sw, name), rc;
  if (si >= 0) rc = set_switch(sw, si, nk, enabled, w, src->d);
  else rc = unknown_option(c, nk, k, "", w, src->d);
  free(nk);
  free(k);
  return rc;
}

static int apply_switch_list(aotc_config *c, const char *gkey, const cfg_src *src, yaml_node_t *seq) {
  if (seq->type != YAML_SEQUENCE_NODE) return apply_switch_item(c, gkey, src, seq);
  for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++)
    if (apply_switch_item(c, gkey, src, yaml_document_get_node(src->doc, *it))) return -1;
  return 0;
}

typedef struct switch_flow {
  aotc_config *c;
  const char *gkey;
} switch_flow;

static int switch_flow_cb(const cfg_src *src, yaml_node_t *root, void *arg) {
  switch_flow *a = arg;
  return apply_switch_list(a->c, a->gkey, src, root);
}

static int walk_mapping(const yctx *y, yaml_node_t *map, const char *prefix) {
  for (yaml_node_pair_t *pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top;
       pr++) {
    yaml_node_t *k = yaml_document_get_node(y->doc, pr->key);
    yaml_node_t *v = yaml_document_get_node(y->doc, pr->value);
    if (!k || !v) continue;
    if (k->type != YAML_SCALAR_NODE)
      return diag_error(y->d, "%s line %zu: option names must be plain keys, not %s", y->file,
                        k->start_mark.line + 1, node_kind(k));
    const char *raw = (const char *)k->data.scalar.value;
    char *full = *prefix ? xasprintf("%s.%s", prefix, raw) : xstrdup(raw);
    char *key = norm_key(full);
    const opt_def *o;
    aotc_switches *s;
    int si, rc = 0;
    int r = resolve(y->c, key, &o, &s, &si);
    char *where = where_line(y, k);
    if (r == 0 && !*prefix && !strcmp(key, "custom_operators")) {
      rc = config_custom_ops_yaml(y->c, y->doc, v, y->file, y->d);
    } else if (r == 1) {
      rc = apply_node(y, o, v);
    } else if (r == 2) {
      if (v->type != YAML_SCALAR_NODE) {
        char pb[600];
        rc = diag_error(y->d, "option '%s' expects a bool (true/false/yes/no/1/0), got %s%s", key,
                        node_kind(v), paren(where, pb, sizeof pb));
      } else if (!is_null(v)) {
        char *w = where_line(y, v);
        rc = set_switch(s, si, key, (const char *)v->data.scalar.value, w, y->d);
        free(w);
      }
    } else if (find_group(key) >= 0 && v->type == YAML_SEQUENCE_NODE) {
      cfg_src src = {y->doc, y->file, y->d};
      rc = apply_switch_list(y->c, key, &src, v);
    } else if (is_section(key)) {
      if (v->type == YAML_MAPPING_NODE) {
        rc = walk_mapping(y, v, key);
      } else if (!is_null(v)) {
        char *keys = section_keys(y->c, key);
        char pb[600];
        rc = diag_error(y->d, "'%s' is a section, not an option; expected a mapping with keys: %s%s",
                        key, keys, paren(where, pb, sizeof pb));
        free(keys);
      }
    } else {
      rc = unknown_option(y->c, key, full, "", where, y->d);
    }
    free(where);
    free(key);
    free(full);
    if (rc) return -1;
  }
  return 0;
}

static int yaml_syntax_error(yaml_parser_t *p, const char *file, aotc_diag *d) {
  const char *problem = p->problem ? p->problem : "unknown error";
  if (p->error == YAML_MEMORY_ERROR) return diag_error(d, "%s: out of memory parsing YAML", file);
  if (p->error == YAML_READER_ERROR)
    return diag_error(d, "%s: cannot read YAML: %s at byte %zu", file, problem, p->problem_offset);
  if (p->context)
    return diag_error(d, "%s line %zu column %zu: YAML syntax error: %s %s (line %zu)", file,
                      p->problem_mark.line + 1, p->problem_mark.column + 1, problem, p->context,
                      p->context_mark.line + 1);
  return diag_error(d, "%s line %zu column %zu: YAML syntax error: %s", file,
                    p->problem_mark.line + 1, p->problem_mark.column + 1, problem);
}

static int load_parser(aotc_config *c, yaml_parser_t *p, const char *file, aotc_diag *d) {
  yaml_document_t doc;
  if (!yaml_parser_load(p, &doc)) return yaml_syntax_error(p, file, d);
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  int rc = 0;
  if (root) {
    /* A second document is refused (and parsing it finds later syntax
     * errors). */
    yaml_document_t doc2;
    if (!yaml_parser_load(p, &doc2)) {
      rc = yaml_syntax_error(p, file, d);
    } else {
      yaml_node_t *r2 = yaml_document_get_root_node(&doc2);
      if (r2)
        rc = diag_error(d, "%s line %zu: only one YAML document is supported", file,
                        r2->start_mark.line + 1);
      yaml_document_delete(&doc2);
    }
    if (!rc) {
      yctx y = {c, &doc, file, d};
      if (root->type == YAML_MAPPING_NODE)
        rc = walk_mapping(&y, root, "");
      else if (!is_null(root))
        rc = diag_error(d, "%s line %zu: expected a mapping of options at the top level, got %s",
                        file, root->start_mark.line + 1, node_kind(root));
    }
  }
  yaml_document_delete(&doc);
  return rc;
}

int config_load_yaml(aotc_config *c, const char *path, aotc_diag *d) {
  unsigned char *buf;
  size_t len;
  if (config_yaml_read(path, &buf, &len, d)) return -1;
  if (config_yaml_check(buf, len, path, d)) {
    free(buf);
    return -1;
  }
  yaml_parser_t p;
  if (!yaml_parser_initialize(&p)) {
    free(buf);
    return diag_error(d, "%s: cannot initialise the YAML parser", path);
  }
  yaml_parser_set_input_string(&p, buf, len);
  int rc = load_parser(c, &p, path, d);
  yaml_parser_delete(&p);
  free(buf);
  if (!rc) {
    free(c->path);
    c->path = xstrdup(path);
  }
  return rc;
}

int config_load_yaml_string(aotc_config *c, const char *yaml, const char *name, aotc_diag *d) {
  yaml_parser_t p;
  if (!name) name = "<string>";
  if (config_yaml_check((const unsigned char *)yaml, strlen(yaml), name, d)) return -1;
  if (!yaml_parser_initialize(&p)) return diag_error(d, "%s: cannot initialise the YAML parser", name);
  yaml_parser_set_input_string(&p, (const unsigned char *)yaml, strlen(yaml));
  int rc = load_parser(c, &p, name, d);
  yaml_parser_delete(&p);
  return rc;
}

/* ---- flags ----------------------------------------------------------------- */

static int is_bool_word(const char *s) {
  int v;
  return parse_bool(s, &v) == 0;
}

int config_parse_args(aotc_config *c, int argc, char **argv, char ***positional, int *npositional,
                      aotc_diag *d) {
  if (positional) *positional = NULL;
  if (npositional) *npositional = 0;
  /* Pass 1: --help and --path. */
  const char *path = NULL;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) break;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) c->help = 1;
    if (!strcmp(a, "--path")) {
      if (i + 1 >= argc) return diag_error(d, "option '--path' needs a value (the YAML file)");
      path = argv[++i];
    } else if (!strncmp(a, "--path=", 7)) {
      path = a + 7;
    }
  }
  if (c->help) return 0;
  if (path && config_load_yaml(c, path, d)) return -1;

  /* Pass 2: every flag, on top of the file. */
  char **pos = NULL;
  int npos = 0, only_pos = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (only_pos || a[0] != '-' || !a[1]) {
      if (!positional) {
        free(pos);
        return diag_error(d, "unexpected argument '%s' (options are written --key value)", a);
      }
      pos = xrealloc(pos, sizeof *pos * (size_t)(npos + 1));
      pos[npos++] = argv[i];
      continue;
    }
    if (!strcmp(a, "--")) {
      only_pos = 1;
      continue;
    }
    if (a[1] != '-') {
      free(pos);
      return diag_error(d, "unknown option '%s' (options are written --key value)", a);
    }
    const char *eq = strchr(a + 2, '=');
    char *name = eq ? xstrndup(a + 2, (size_t)(eq - (a + 2))) : xstrdup(a + 2);
    char *key = norm_key(name);
    char *flag = xasprintf("--%s", name);
    char *where = xasprintf("flag %s", flag);
    int rc = 0;
    const opt_def *o;
    aotc_switches *s;
    int si;
    int neg = 0;
    if (!strncmp(key, "no_", 3) && resolve(c, key, &o, &s, &si) == 0) {
      /* helia-aot's --no-<bool> */
      int r3 = resolve(c, key + 3, &o, &s, &si);
      if (r3 == 2 || (r3 == 1 && o->type == T_BOOL)) {
        memmove(key, key + 3, strlen(key + 3) + 1);
        neg = 1;
      }
    }
    if (!strcmp(key, "path")) {
      if (!eq) i++;  /* loaded in pass 1 */
    } else if (find_group(key) >= 0 && !neg) {
      /* --transforms ITEM ...: names or {name, enabled, options} */
      switch_flow sf = {c, GROUPS[find_group(key)].name};
      int any = 0;
      if (eq) rc = cfg_parse_flow(eq + 1, where, switch_flow_cb, &sf, d), any = 1;
      while (!rc && !eq && i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
        rc = cfg_parse_flow(argv[++i], where, switch_flow_cb, &sf, d);
        any = 1;
      }
      if (!rc && !any) {
        char *keys = section_keys(c, key);
        rc = diag_error(d, "option '%s' needs items: transform names or {name, enabled, options} (names: %s)", flag, keys);
        free(keys);
      }
    } else {
      int r = resolve(c, key, &o, &s, &si);
      int is_bool = r == 2 || (r == 1 && (o->type == T_BOOL || o->type == T_LEVEL));
      int multi = r == 1 && (o->type == T_RULES || o->type == T_OPRULES);
      const char *val = eq ? eq + 1 : neg ? "false" : NULL;
      if (multi && !val) {
        /* --memory.tensors RULE RULE ...: each a flow mapping or list */
        int any = 0;
        while (!rc && i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
          rc = set_structured(c, o, argv[++i], where, any, d);
          any = 1;
        }
        if (!rc && !any) rc = diag_error(d, "option '%s' needs a value (%s)", flag, type_desc(o));
        if (!rc && o->noeffect) c->noted[o - OPTS] = 1;
        r = -1; /* done */
      }
      if (r == 0 && !strncmp(key, "custom_operators.", 17)) {
        if (!val && i + 1 < argc) val = argv[++i];
        rc = config_custom_ops_flag(c, name + 17, val, d);
      } else if (r == 0) {
        if (is_section(key)) {
          char *keys = section_keys(c, key);
          rc = diag_error(d, "'%s' is a section, not an option; use %s.<key> with one of: %s", flag,
                          flag, keys);
          free(keys);
        } else {
          rc = unknown_option(c, key, flag, "--", NULL, d);
        }
      } else if (r < 0) {
        /* handled above */
      } else if (!val && is_bool) {
        int lv;
        val = (i + 1 < argc && (is_bool_word(argv[i + 1]) ||
                                (o && o->type == T_LEVEL && parse_int(argv[i + 1], &lv) == 0)))
                  ? argv[++i]
                  : "true";
      } else if (!val) {
        if (i + 1 >= argc || !strncmp(argv[i + 1], "--", 2))
          rc = diag_error(d, "option '%s' needs a value (%s)", flag, type_desc(o));
        else
          val = argv[++i];
      }
      if (!rc && r == 1) rc = set_text(c, o, val, where, d);
      if (!rc && r == 2) rc = set_switch(s, si, key, val, where, d);
    }
    free(where);
    free(flag);
    free(key);
    free(name);
    if (rc) {
      free(pos);
      return -1;
    }
  }
  if (positional) {
    *positional = pos;
    *npositional = npos;
  } else {
    free(pos);
  }
  return 0;
}

/* ---- help and dump --------------------------------------------------------- */

static const char *metavar(const opt_def *o) {
  switch (o->type) {
    case T_BOOL: return "[BOOL]";
    case T_INT: return "INT";
    case T_DOUBLE: return "NUM";
    case T_STRING: return o->choices ? o->choices : "STR";
    case T_INTS: return "N,N";
    case T_PAIRS: return "OUT:IN,..";
    case T_ENUM: return o->choices;
    case T_LEVEL: return "[LEVEL]";
    case T_STRS: return "[A,B]";
    case T_MEMS: return "YAML";
    case T_RULES:
    case T_OPRULES: return "RULE [RULE ...]";
  }
  return "";
}

void config_print_help(const aotc_config *c, FILE *out) {
  fputs("Options (each flag --a.b is also the nested key a: {b: ...} of the YAML file;\n"
        "'-' and '_' are equivalent; flags override the file):\n",
        out);
  fprintf(out, "  %-36s %s\n", "--path FILE", "YAML configuration file");
  for (size_t i = 0; i < N_OPTS; i++) {
    const opt_def *o = &OPTS[i];
    char *lhs = xasprintf("--%s %s", o->key, metavar(o));
    fprintf(out, "  %-36s %s", lhs, o->help);
    if (o->dflt) fprintf(out, " (default: %s)", o->dflt);
    fputc('\n', out);
    free(lhs);
  }
  for (size_t g = 0; g < N_GROUPS; g++) {
    char *lhs = xasprintf("--%s.<name> [BOOL]", GROUPS[g].name);
    fprintf(out, "  %-36s %s\n", lhs, GROUPS[g].help);
    free(lhs);
    const aotc_switches *s = c ? group_at(c, g) : NULL;
    for (int i = 0; s && i < s->n; i++) {
      lhs = xasprintf("    %s.%s", GROUPS[g].name, s->names[i]);
      fprintf(out, "  %-36s %s%s(default: %s)\n", lhs, s->help[i] ? s->help[i] : "",
              s->help[i] ? " " : "", s->dflt[i] ? "true" : "false");
      free(lhs);
    }
  }
  config_custom_ops_help(out);
  fprintf(out, "  %-36s %s\n", "-h, --help", "print this help");
}

static void put_yaml_string(FILE *out, const char *s) {
  if (!s) {
    fputs("null", out);
    return;
  }
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(out, "\\%c", *p);
    else if (*p < 0x20 || *p == 0x7f)
      fprintf(out, "\\x%02x", *p);
    else
      fputc(*p, out);
  }
  fputc('"', out);
}

void config_dump_yaml(const aotc_config *c, FILE *out) {
  char section[64] = "";
  for (size_t i = 0; i < N_OPTS; i++) {
    const opt_def *o = &OPTS[i];
    const char *dot = strchr(o->key, '.');
    const char *leaf = o->key;
    if (dot) {
      size_t sl = (size_t)(dot - o->key);
      if (strlen(section) != sl || strncmp(section, o->key, sl)) {
        snprintf(section, sizeof section, "%.*s", (int)sl, o->key);
        fprintf(out, "%s:\n", section);
      }
      leaf = dot + 1;
      fputs("  ", out);
    } else {
      section[0] = 0;
    }
    fprintf(out, "%s: ", leaf);
    aotc_config *m = (aotc_config *)(void *)c; /* FIELD() only reads here */
    char nb[64];
    switch (o->type) {
      case T_BOOL: fputs(*FIELD(m, o, int) ? "true" : "false", out); break;
      case T_INT: fprintf(out, "%d", *FIELD(m, o, int)); break;
      case T_DOUBLE: fprintf(out, "%.17g", *FIELD(m, o, double)); break;
      case T_STRING: put_yaml_string(out, *FIELD(m, o, char *)); break;
      case T_ENUM: fputs(choice_name(o->choices, *FIELD(m, o, int), nb, sizeof nb), out); break;
      case T_INTS:
        fputc('[', out);
        for (int k = 0; k < *COUNT(m, o); k++)
          fprintf(out, "%s%d", k ? ", " : "", (*FIELD(m, o, int *))[k]);
        fputc(']', out);
        break;
      case T_PAIRS:
        fputc('[', out);
        for (int k = 0; k < *COUNT(m, o); k++) {
          aotc_int_pair p = (*FIELD(m, o, aotc_int_pair *))[k];
          fprintf(out, "%s[%d, %d]", k ? ", " : "", p.out, p.in);
        }
        fputc(']', out);
        break;
      case T_LEVEL: fprintf(out, "%d", *FIELD(m, o, int)); break;
      case T_STRS:
        fputc('[', out);
        for (int k = 0; k < *COUNT(m, o); k++) {
          if (k) fputs(", ", out);
          put_yaml_string(out, (*FIELD(m, o, char **))[k]);
        }
        fputc(']', out);
        break;
      case T_MEMS:
        fputc('[', out);
        for (int k = 0; k < *COUNT(m, o); k++) {
          aotc_mem_size ms = (*FIELD(m, o, aotc_mem_size *))[k];
          fputs(k ? ", {name: " : "{name: ", out);
          put_yaml_string(out, ms.name);
          if (ms.size >= 0) fprintf(out, ", max_size: %lld}", ms.size);
          else fputs("}", out);
        }
        fputc(']', out);
        break;
      case T_RULES:
      case T_OPRULES:
        fputc('[', out);
        for (int k = 0; k < *COUNT(m, o); k++) {
          const aotc_rule *r = &(*FIELD(m, o, aotc_rule *))[k];
          fputs(k ? ", {" : "{", out);
          fputs("type: ", out);
          put_yaml_string(out, r->type);
          if (r->nids) {
            fputs(", id: [", out);
            for (int q = 0; q < r->nids; q++) {
              if (q) fputs(", ", out);
              put_yaml_string(out, r->ids[q]);
            }
            fputc(']', out);
          }
          fputs(", attributes: {", out);
          int first = 1;
          const char *names[] = {"memory", "constant_destination_memory", "code_placement", "scratch_placement"};
          const char *vals[] = {r->memory, r->constant_destination_memory, r->code_placement, r->scratch_placement};
          for (int q = 0; q < 4; q++) {
            if (!vals[q]) continue;
            fprintf(out, "%s%s: ", first ? "" : ", ", names[q]);
            put_yaml_string(out, vals[q]);
            first = 0;
          }
          if (r->accel >= 0) fprintf(out, "%saccel: %s", first ? "" : ", ", r->accel ? "true" : "false");
          fputs("}}", out);
        }
        fputc(']', out);
        break;
    }
    fputc('\n', out);
  }
  for (size_t g = 0; g < N_GROUPS; g++) {
    const aotc_switches *s = group_at(c, g);
    if (!s->n) continue;
    fprintf(out, "%s:\n", GROUPS[g].name);
    for (int i = 0; i < s->n; i++)
      fprintf(out, "  %s: %s\n", s->names[i], s->value[i] ? "true" : "false");
  }
  config_custom_ops_dump(c, out);
}
