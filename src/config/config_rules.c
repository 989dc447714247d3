/* config_rules.c - the structured option values of helia-aot's schema:
 * attribute rule lists (memory.tensors, operators), memory size lists
 * (memory.constraints, platform.memories), string lists (platform.capabilities,
 * platform.preferred_memory_order) and the transforms list
 * ([{name, enabled, options}], name "*" for all).
 *
 * Each is read from a YAML node; a flag's text is read as YAML flow text
 * ("{type: scratch, attributes: {memory: dtcm}}", "[dtcm, sram]"), so flags
 * and files accept the same spellings. Every error is one line naming the
 * key and the line. */
#include "config/config_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *kind(const yaml_node_t *n) {
  return n->type == YAML_MAPPING_NODE ? "a mapping" : n->type == YAML_SEQUENCE_NODE ? "a list" : "a value";
}

static const char *scal(const yaml_node_t *n) {
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int null_node(const yaml_node_t *n) {
  const char *v = scal(n);
  if (!v || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) return 0;
  return !*v || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL");
}

static long line_of(const yaml_node_t *n) { return (long)n->start_mark.line + 1; }

/* A small edit-distance suggestion among words. */
static const char *closest(const char *w, const char *const *words) {
  const char *best = NULL;
  size_t bd = 3;
  for (int i = 0; words[i]; i++) {
    size_t n = strlen(w), m = strlen(words[i]);
    size_t row[64];
    if (m >= 63 || n >= 63) continue;
    for (size_t j = 0; j <= m; j++) row[j] = j;
    for (size_t a = 1; a <= n; a++) {
      size_t diag = row[0];
      row[0] = a;
      for (size_t b = 1; b <= m; b++) {
        size_t up = row[b], v = diag + (tolower((unsigned char)w[a - 1]) != words[i][b - 1]);
        if (up + 1 < v) v = up + 1;
        if (row[b - 1] + 1 < v) v = row[b - 1] + 1;
        row[b] = v;
        diag = up;
      }
    }
    if (row[m] < bd) bd = row[m], best = words[i];
  }
  return best;
}

static int unknown_key(const cfg_src *s, const char *key, const char *k, const yaml_node_t *n,
                       const char *const *words) {
  const char *sug = closest(k, words);
  strbuf b = {0};
  for (int i = 0; words[i]; i++) sb_printf(&b, "%s%s", i ? ", " : "", words[i]);
  int rc = sug ? diag_error(s->d, "unknown key '%s' in option '%s' (%s line %ld); did you mean '%s'?", k, key,
                            s->file, line_of(n), sug)
               : diag_error(s->d, "unknown key '%s' in option '%s' (%s line %ld); valid keys: %s", k, key,
                            s->file, line_of(n), b.s);
  sb_free(&b);
  return rc;
}

static char *lower_dup(const char *v) {
  char *r = xstrdup(v);
  for (char *p = r; *p; p++) *p = (char)tolower((unsigned char)*p);
  return r;
}

/* ---- string lists ---- */

int cfg_strs_from_yaml(const cfg_src *s, const char *key, yaml_node_t *n, char ***out, int *nout) {
  if (null_node(n)) return 0;
  if (n->type == YAML_SCALAR_NODE) {
    /* "a,b" */
    char *t = xstrdup(scal(n));
    int cnt = 0;
    char **v = NULL;
    for (char *p = strtok(t, ", []"); p; p = strtok(NULL, ", []")) {
      v = xrealloc(v, sizeof *v * (size_t)(cnt + 1));
      v[cnt++] = lower_dup(p);
    }
    free(t);
    cfg_strs_free(*out, *nout);
    *out = v;
    *nout = cnt;
    return 0;
  }
  if (n->type != YAML_SEQUENCE_NODE)
    return diag_error(s->d, "option '%s' expects a list of names, got %s (%s line %ld)", key, kind(n), s->file, line_of(n));
  int cnt = (int)(n->data.sequence.items.top - n->data.sequence.items.start);
  char **v = xcalloc((size_t)(cnt + 1), sizeof *v);
  for (int i = 0; i < cnt; i++) {
    yaml_node_t *it = yaml_document_get_node(s->doc, n->data.sequence.items.start[i]);
    if (!scal(it)) {
      cfg_strs_free(v, i);
      return diag_error(s->d, "option '%s' expects a list of names, item %d is %s (%s line %ld)", key, i, kind(it),
                        s->file, line_of(it));
    }
    v[i] = lower_dup(scal(it));
  }
  cfg_strs_free(*out, *nout);
  *out = v;
  *nout = cnt;
  return 0;
}

void cfg_strs_free(char **v, int n) {
  for (int i = 0; i < n; i++) free(v[i]);
  free(v);
}

/* ---- memory sizes: [{name, max_size|size}] or {name: bytes} ---- */

static int parse_size(const char *v, long long *out) {
  char *end;
  errno = 0;
  long long x = strtoll(v, &end, 0);
  if (end == v || errno) return -1;
  while (isspace((unsigned char)*end)) end++;
  if (*end == 'k' || *end == 'K') x *= 1024, end++;
  else if (*end == 'm' || *end == 'M') x *= 1024 * 1024, end++;
  if ((*end == 'b' || *end == 'B') && end[1] == 0) end++;
  if (*end || x < 0) return -1;
  *out = x;
  return 0;
}

static void mems_add(aotc_mem_size **v, int *n, const char *name, long long size) {
  char *l = lower_dup(name);
  for (int i = 0; i < *n; i++)
    if (!strcmp((*v)[i].name, l)) {
      (*v)[i].size = size;
      free(l);
      return;
    }
  *v = xrealloc(*v, sizeof **v * (size_t)(*n + 1));
  (*v)[*n].name = l;
  (*v)[*n].size = size;
  (*n)++;
}

int cfg_mems_from_yaml(const cfg_src *s, const char *key, yaml_node_t *n, aotc_mem_size **out, int *nout) {
  if (null_node(n)) return 0;
  aotc_mem_size *v = NULL;
  int cnt = 0;
  if (n->type == YAML_MAPPING_NODE) {
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
      yaml_node_t *k = yaml_document_get_node(s->doc, p->key), *val = yaml_document_get_node(s->doc, p->value);
      long long sz;
      if (!scal(k) || !scal(val) || parse_size(scal(val), &sz)) {
        cfg_mems_free(v, cnt);
        return diag_error(s->d, "option '%s' expects memory: bytes pairs like {dtcm: 262144} (%s line %ld)", key,
                          s->file, line_of(k));
      }
      mems_add(&v, &cnt, scal(k), sz);
    }
  } else if (n->type == YAML_SEQUENCE_NODE) {
    static const char *const words[] = {"name", "max_size", "size", NULL};
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
      yaml_node_t *e = yaml_document_get_node(s->doc, *it);
      if (e->type != YAML_MAPPING_NODE) {
        cfg_mems_free(v, cnt);
        return diag_error(s->d, "option '%s' expects a list of {name, max_size} entries, got %s (%s line %ld)", key,
                          kind(e), s->file, line_of(e));
      }
      const char *name = NULL;
      long long sz = -1;
      for (yaml_node_pair_t *p = e->data.mapping.pairs.start; p < e->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(s->doc, p->key), *val = yaml_document_get_node(s->doc, p->value);
        const char *ks = scal(k);
        if (!ks || (strcmp(ks, "name") && strcmp(ks, "max_size") && strcmp(ks, "size"))) {
          cfg_mems_free(v, cnt);
          return unknown_key(s, key, ks ? ks : "?", k, words);
        }
        if (!strcmp(ks, "name")) {
          name = scal(val);
        } else if (!null_node(val) && (!scal(val) || parse_size(scal(val), &sz))) {
          cfg_mems_free(v, cnt);
          return diag_error(s->d, "option '%s': '%s' expects a size in bytes (%s line %ld)", key, ks, s->file,
                            line_of(val));
        }
      }
      if (!name || !*name) {
        cfg_mems_free(v, cnt);
        return diag_error(s->d, "option '%s': entry without a memory name (%s line %ld)", key, s->file, line_of(e));
      }
      mems_add(&v, &cnt, name, sz); /* -1: the platform's size */
    }
  } else {
    return diag_error(s->d, "option '%s' expects a list of {name, max_size} or a mapping memory: bytes, got %s (%s line %ld)",
                      key, kind(n), s->file, line_of(n));
  }
  cfg_mems_free(*out, *nout);
  *out = v;
  *nout = cnt;
  return 0;
}

void cfg_mems_free(aotc_mem_size *v, int n) {
  for (int i = 0; i < n; i++) free(v[i].name);
  free(v);
}

/* ---- attribute rules ---- */

static void rule_free(aotc_rule *r) {
  free(r->type);
  cfg_strs_free(r->ids, r->nids);
  free(r->memory);
  free(r->constant_destination_memory);
  free(r->code_placement);
  free(r->scratch_placement);
}

void cfg_rules_free(aotc_rule *v, int n) {
  for (int i = 0; i < n; i++) rule_free(&v[i]);
  free(v);
}

static int read_rule(const cfg_src *s, const char *key, int ops, yaml_node_t *e, aotc_rule *r) {
  static const char *const rkeys[] = {"type", "id", "attributes", NULL};
  static const char *const tattrs[] = {"memory", "arena", "constant_destination_memory", NULL};
  static const char *const oattrs[] = {"accel", "code_placement", "scratch_placement", NULL};
  memset(r, 0, sizeof *r);
  r->accel = -1;
  r->line = (int)line_of(e);
  if (e->type != YAML_MAPPING_NODE)
    return diag_error(s->d, "option '%s' expects a list of {type, id, attributes} rules, got %s (%s line %ld)", key,
                      kind(e), s->file, line_of(e));
  for (yaml_node_pair_t *p = e->data.mapping.pairs.start; p < e->data.mapping.pairs.top; p++) {
    yaml_node_t *k = yaml_document_get_node(s->doc, p->key), *v = yaml_document_get_node(s->doc, p->value);
    const char *ks = scal(k);
    if (!ks) return unknown_key(s, key, "?", k, rkeys);
    if (!strcmp(ks, "type")) {
      if (null_node(v)) continue;
      if (!scal(v)) return diag_error(s->d, "option '%s': 'type' expects a name (%s line %ld)", key, s->file, line_of(v));
      free(r->type);
      r->type = ops ? xstrdup(scal(v)) : lower_dup(scal(v));
      if (ops)
        for (char *q = r->type; *q; q++) *q = (char)toupper((unsigned char)*q);
      if (!ops && strcmp(r->type, "*") && strcmp(r->type, "scratch") && strcmp(r->type, "persistent") &&
          strcmp(r->type, "constant"))
        return diag_error(s->d, "option '%s': type '%s' is not scratch, persistent, constant or \"*\" (%s line %ld)", key,
                          scal(v), s->file, line_of(v));
    } else if (!strcmp(ks, "id")) {
      if (null_node(v)) continue;
      if (cfg_strs_from_yaml(s, key, v, &r->ids, &r->nids)) return -1;
    } else if (!strcmp(ks, "attributes")) {
      if (null_node(v)) continue;
      if (v->type != YAML_MAPPING_NODE)
        return diag_error(s->d, "option '%s': 'attributes' expects a mapping (%s line %ld)", key, s->file, line_of(v));
      for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
        yaml_node_t *ak = yaml_document_get_node(s->doc, q->key), *av = yaml_document_get_node(s->doc, q->value);
        const char *a = scal(ak), *val = scal(av);
        const char *const *words = ops ? oattrs : tattrs;
        int known = 0;
        for (int i = 0; a && words[i]; i++) known |= !strcmp(a, words[i]);
        if (!known) return unknown_key(s, key, a ? a : "?", ak, words);
        if (null_node(av)) continue;
        if (!val) return diag_error(s->d, "option '%s': attribute '%s' expects a value (%s line %ld)", key, a, s->file, line_of(av));
        if (!strcmp(a, "memory") || !strcmp(a, "arena")) free(r->memory), r->memory = lower_dup(val);
        else if (!strcmp(a, "constant_destination_memory"))
          free(r->constant_destination_memory), r->constant_destination_memory = lower_dup(val);
        else if (!strcmp(a, "code_placement")) free(r->code_placement), r->code_placement = lower_dup(val);
        else if (!strcmp(a, "scratch_placement")) free(r->scratch_placement), r->scratch_placement = lower_dup(val);
        else if (!strcmp(a, "accel")) {
          char *l = lower_dup(val);
          r->accel = !strcmp(l, "true") || !strcmp(l, "yes") || !strcmp(l, "1") || !strcmp(l, "on");
          free(l);
        }
      }
    } else {
      return unknown_key(s, key, ks, k, rkeys);
    }
  }
  return 0;
}

int cfg_rules_from_yaml(const cfg_src *s, const char *key, int ops, yaml_node_t *n, int append,
                        aotc_rule **out, int *nout) {
  if (null_node(n)) return 0;
  yaml_node_item_t one, *a = &one, *z = &one + 1;
  if (n->type == YAML_SEQUENCE_NODE) {
    a = n->data.sequence.items.start;
    z = n->data.sequence.items.top;
  } else if (n->type == YAML_MAPPING_NODE) {
    one = (yaml_node_item_t)(n - s->doc->nodes.start + 1); /* a single rule */
  } else {
    return diag_error(s->d, "option '%s' expects a list of {type, id, attributes} rules, got %s (%s line %ld)", key,
                      kind(n), s->file, line_of(n));
  }
  int base = append ? *nout : 0, cnt = (int)(z - a);
  aotc_rule *v = xcalloc((size_t)(base + cnt + 1), sizeof *v);
  if (base) memcpy(v, *out, sizeof *v * (size_t)base);
  for (int i = 0; i < cnt; i++) {
    if (read_rule(s, key, ops, yaml_document_get_node(s->doc, a[i]), &v[base + i])) {
      rule_free(&v[base + i]);
      for (int k = base; k < base + i; k++) rule_free(&v[k]);
      free(v);
      return -1;
    }
    v[base + i].order = base + i;
  }
  if (!append) cfg_rules_free(*out, *nout);
  else free(*out);
  *out = v;
  *nout = base + cnt;
  return 0;
}

/* ---- flow text for flags ---- */

int cfg_parse_flow(const char *text, const char *where, cfg_flow_fn fn, void *arg, aotc_diag *d) {
  yaml_parser_t p;
  yaml_document_t doc;
  if (!yaml_parser_initialize(&p)) return diag_error(d, "cannot initialise the YAML parser");
  yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
  int rc;
  if (!yaml_parser_load(&p, &doc)) {
    rc = diag_error(d, "cannot read '%.200s' (%s): %s", text, where, p.problem ? p.problem : "YAML syntax error");
  } else {
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    cfg_src s = {&doc, where, d};
    rc = root ? fn(&s, root, arg) : 0;
    yaml_document_delete(&doc);
  }
  yaml_parser_delete(&p);
  return rc;
}

/* ---- resolving the rules for one tensor or operator ---- */

static int same_word(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

/* Specificity of r for (type, id): 3 type and id, 2 type, 1 id, 0 "*" or
 * neither; -1 when r does not match. */
static int rule_spec(const aotc_rule *r, const char *type, const char *id) {
  int has_type = r->type && strcmp(r->type, "*") != 0;
  if (has_type && (!type || !same_word(r->type, type))) return -1;
  if (r->nids) {
    int hit = 0;
    for (int i = 0; id && i < r->nids && !hit; i++) hit = strcmp(r->ids[i], id) == 0;
    if (!hit) return -1;
  }
  return has_type ? (r->nids ? 3 : 2) : (r->nids ? 1 : 0);
}

int config_rules_resolve(const aotc_rule *rules, int n, const char *type, const char *id, aotc_rule_attrs *out) {
  memset(out, 0, sizeof *out);
  out->accel = -1;
  int matched = 0;
  /* apply from the least to the most specific, in list order within a tier:
   * each set field overrides what came before */
  for (int spec = 0; spec <= 3; spec++)
    for (int i = 0; i < n; i++) {
      const aotc_rule *r = &rules[i];
      if (rule_spec(r, type, id) != spec) continue;
      matched++;
      if (r->memory) out->memory = r->memory;
      if (r->constant_destination_memory) out->constant_destination_memory = r->constant_destination_memory;
      if (r->code_placement) out->code_placement = r->code_placement;
      if (r->scratch_placement) out->scratch_placement = r->scratch_placement;
      if (r->accel >= 0) out->accel = r->accel;
    }
  return matched;
}
