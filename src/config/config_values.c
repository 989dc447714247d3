/* config_values.c - turning text into option values: the small parsers (bools,
 * integers, numbers, comma lists, OUT:IN pairs, choices), the type errors
 * that name what was expected, cfg_set_text which stores a flag value or a
 * YAML scalar into the option's field, and the structured values (names,
 * memory sizes, rules) parsed as YAML flow text by config_rules.c. */
#include "config/config_internal.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ------------------------------------------------------ */

char *cfg_norm_key(const char *s) {
  char *r = xstrdup(s);
  for (char *p = r; *p; p++)
    if (*p == '-') *p = '_';
  return r;
}

int cfg_key_eq(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;
    if (x != y) return 0;
  }
  return *a == *b;
}

/* Does k start with the first n chars of p ('-' == '_')? */
int cfg_key_starts(const char *k, const char *p, size_t n) {
  if (strlen(k) < n || strlen(p) < n) return 0;
  for (size_t i = 0; i < n; i++) {
    char x = k[i] == '-' ? '_' : k[i], y = p[i] == '-' ? '_' : p[i];
    if (x != y) return 0;
  }
  return 1;
}

/* " (where)" or "" */
const char *cfg_paren(const char *where, char *buf, size_t size) {
  if (!where || !*where) return "";
  snprintf(buf, size, " (%s)", where);
  return buf;
}

static int ci_eq(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

int cfg_parse_bool(const char *s, int *v) {
  static const char *t[] = {"true", "yes", "on", "1"}, *f[] = {"false", "no", "off", "0"};
  for (int i = 0; i < 4; i++) {
    if (ci_eq(s, t[i])) return *v = 1, 0;
    if (ci_eq(s, f[i])) return *v = 0, 0;
  }
  return -1;
}

int cfg_parse_int(const char *s, int *v) {
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

int cfg_parse_double(const char *s, double *v) {
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
int cfg_split_list(const char *s, char ***items) {
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

void cfg_free_items(char **items, int n) {
  for (int i = 0; i < n; i++) free(items[i]);
  free(items);
}

const char *cfg_type_desc(const opt_def *o) {
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

int cfg_type_error(const opt_def *o, const char *got, const char *where, aotc_diag *d) {
  char pb[600];
  const char *ch = o->choices ? o->choices : "";
  return diag_error(d, "option '%s' expects %s%s%s, got %s%s", o->key, cfg_type_desc(o),
                    o->choices ? " " : "", ch, got, cfg_paren(where, pb, sizeof pb));
}

int cfg_type_error_val(const opt_def *o, const char *val, const char *where, aotc_diag *d) {
  char *got = xasprintf("'%.200s'", val);
  cfg_type_error(o, got, where, d);
  free(got);
  return -1;
}

int cfg_choice_index(const char *choices, const char *v) {
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
const char *cfg_choice_name(const char *choices, int i, char *buf, size_t size) {
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

void cfg_set_ints(aotc_config *c, const opt_def *o, int *v, int n) {
  int **f = FIELD(c, o, int *);
  free(*f);
  *f = v;
  *COUNT(c, o) = n;
}

void cfg_set_pairs(aotc_config *c, const opt_def *o, aotc_int_pair *v, int n) {
  aotc_int_pair **f = FIELD(c, o, aotc_int_pair *);
  free(*f);
  *f = v;
  *COUNT(c, o) = n;
}

int cfg_parse_pair(const char *s, aotc_int_pair *p) {
  const char *colon = strchr(s, ':');
  if (!colon) return -1;
  char *a = xstrndup(s, (size_t)(colon - s));
  int rc = cfg_parse_int(a, &p->out) || cfg_parse_int(colon + 1, &p->in);
  free(a);
  return rc ? -1 : 0;
}

static int parse_int_item(const char *s, void *v) { return cfg_parse_int(s, v); }
static int parse_pair_item(const char *s, void *v) { return cfg_parse_pair(s, v); }

/* Parses the list val into a new array (*out, *n elements of elem bytes) with parse per item;
   -1 (nothing allocated) when an item does not parse. */
static int parse_items(const char *val, size_t elem, int (*parse)(const char *, void *), void **out, int *n) {
  char **items;
  *n = cfg_split_list(val, &items);
  char *v = xmalloc(elem * (size_t)(*n ? *n : 1));
  int rc = 0;
  for (int i = 0; i < *n && !rc; i++) rc = parse(items[i], v + elem * (size_t)i);
  cfg_free_items(items, *n);
  if (rc) free(v);
  *out = rc ? NULL : v;
  return rc ? -1 : 0;
}


/* Sets option o from text (flag value or YAML scalar). */
int cfg_set_text(aotc_config *c, const opt_def *o, const char *val, const char *where,
                    aotc_diag *d) {
  if (!strcmp(o->key, "target")) c->target_given = 1; /* config_init clears it after the defaults */
  switch (o->type) {
    case T_BOOL: {
      int v;
      if (cfg_parse_bool(val, &v)) return cfg_type_error_val(o, val, where, d);
      *FIELD(c, o, int) = v;
      break;
    }
    case T_INT: {
      int v;
      if (cfg_parse_int(val, &v)) return cfg_type_error_val(o, val, where, d);
      *FIELD(c, o, int) = v;
      break;
    }
    case T_DOUBLE: {
      double v;
      if (cfg_parse_double(val, &v)) return cfg_type_error_val(o, val, where, d);
      *FIELD(c, o, double) = v;
      if (FIELD(c, o, double) == &c->test_tolerance) c->test_tolerance_given = 1;
      break;
    }
    case T_STRING: {
      if (o->choices && cfg_choice_index(o->choices, val) < 0) return cfg_type_error_val(o, val, where, d);
      char **f = FIELD(c, o, char *);
      free(*f);
      *f = xstrdup(val);
      break;
    }
    case T_ENUM: {
      int i = cfg_choice_index(o->choices, val);
      if (i < 0) return cfg_type_error_val(o, val, where, d);
      *FIELD(c, o, int) = i;
      break;
    }
    case T_INTS:
    case T_PAIRS: {
      int ints = o->type == T_INTS;
      void *v;
      int n;
      if (parse_items(val, ints ? sizeof(int) : sizeof(aotc_int_pair), ints ? parse_int_item : parse_pair_item, &v, &n))
        return cfg_type_error_val(o, val, where, d);
      if (ints) cfg_set_ints(c, o, v, n);
      else cfg_set_pairs(c, o, v, n);
      break;
    }
    case T_LEVEL: {
      int v;
      if (cfg_parse_bool(val, &v) && (cfg_parse_int(val, &v) || v < 0)) return cfg_type_error_val(o, val, where, d);
      *FIELD(c, o, int) = v;
      break;
    }
    case T_STRS:
    case T_MEMS:
    case T_RULES:
    case T_OPRULES:
      if (cfg_set_structured(c, o, val, where, 0, d)) return -1;
      break;
  }
  if (where && o->noeffect) c->noted[o - OPTS] = 1;
  return o->check ? o->check(c, o, where, d) : 0;
}

/* ---- structured values (config_rules.c) ------------------------------------ */

typedef struct flow_arg {
  aotc_config *c;
  const opt_def *o;
  int append;
} flow_arg;

int cfg_apply_structured_node(aotc_config *c, const opt_def *o, const cfg_src *src, yaml_node_t *n,
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
  return cfg_apply_structured_node(a->c, a->o, src, root, a->append);
}

int cfg_set_structured(aotc_config *c, const opt_def *o, const char *val, const char *where, int append,
                          aotc_diag *d) {
  flow_arg a = {c, o, append};
  return cfg_parse_flow(val, where ? where : o->key, flow_cb, &a, d);
}

void cfg_free_structured(aotc_config *c, const opt_def *o) {
  switch (o->type) {
    case T_STRS: cfg_strs_free(*FIELD(c, o, char **), *COUNT(c, o)); break;
    case T_MEMS: cfg_mems_free(*FIELD(c, o, aotc_mem_size *), *COUNT(c, o)); break;
    case T_RULES:
    case T_OPRULES: cfg_rules_free(*FIELD(c, o, aotc_rule *), *COUNT(c, o)); break;
    default: break;
  }
}
