/* config_yaml.c - loading aotc options from a YAML file or string: nested
 * mappings become dotted keys, scalars go through cfg_set_text, sequences
 * become lists, the switch groups accept [{name, enabled, options}] lists,
 * and every error names its file and line. Size and depth limits of the
 * input are checked first (yaml_limits.c). */
#include "config/config_internal.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "yaml_limits.h"

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
  if (n->type != YAML_SCALAR_NODE || cfg_parse_int((const char *)n->data.scalar.value, v)) {
    if (n->type == YAML_SCALAR_NODE)
      return cfg_type_error_val(o, (const char *)n->data.scalar.value, where, y->d);
    return cfg_type_error(o, node_kind(n), where, y->d);
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
    cfg_set_ints(y->c, o, vals, n);
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
        if (cfg_parse_pair((const char *)it->data.scalar.value, &vals[i]))
          rc = cfg_type_error_val(o, (const char *)it->data.scalar.value, w, y->d);
      } else {
        rc = cfg_type_error(o, "a list item that is not an [OUT, IN] pair", w, y->d);
      }
      free(w);
      if (rc) {
        free(vals);
        return -1;
      }
    }
    cfg_set_pairs(y->c, o, vals, n);
  }
  return 0;
}

static int apply_node(const yctx *y, const opt_def *o, yaml_node_t *v) {
  if (is_null(v)) return 0;
  char *where = where_line(y, v);
  int rc;
  if (o->type == T_STRS || o->type == T_MEMS || o->type == T_RULES || o->type == T_OPRULES) {
    cfg_src src = {y->doc, y->file, y->d};
    rc = cfg_apply_structured_node(y->c, o, &src, v, 0);
    if (!rc && o->noeffect) y->c->noted[o - OPTS] = 1;
  } else if (v->type == YAML_SCALAR_NODE) {
    rc = cfg_set_text(y->c, o, (const char *)v->data.scalar.value, where, y->d);
  } else if (v->type == YAML_SEQUENCE_NODE && (o->type == T_INTS || o->type == T_PAIRS)) {
    rc = apply_sequence(y, o, v);
    if (!rc && o->check) rc = o->check(y->c, o, where, y->d);
    if (!rc && o->noeffect) y->c->noted[o - OPTS] = 1;
  } else {
    rc = cfg_type_error(o, node_kind(v), where, y->d);
  }
  free(where);
  return rc;
}

/* helia-aot's transforms list: [{name: NAME | "*", enabled: BOOL, options: {}}]
 * (a plain NAME item enables it). Applies to the switch group gkey. */
static int apply_switch_item(aotc_config *c, const char *gkey, const cfg_src *src, yaml_node_t *it) {
  aotc_switches *sw = cfg_group_at(c, (size_t)cfg_find_group(gkey));
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
      int rc = cfg_set_switch(sw, i, k, enabled, w, src->d);
      free(k);
      if (rc) return -1;
    }
    return 0;
  }
  char *k = xasprintf("%s.%s", gkey, name);
  char *nk = cfg_norm_key(k);
  int si = cfg_switch_index(sw, name), rc;
  if (si >= 0) rc = cfg_set_switch(sw, si, nk, enabled, w, src->d);
  else rc = cfg_unknown_option(c, nk, k, "", w, src->d);
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


int cfg_switch_flow_cb(const cfg_src *src, yaml_node_t *root, void *arg) {
  cfg_switch_flow *a = arg;
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
    char *key = cfg_norm_key(full);
    const opt_def *o;
    aotc_switches *s;
    int si, rc = 0;
    int r = cfg_resolve(y->c, key, &o, &s, &si);
    char *where = where_line(y, k);
    if (r == 0 && !*prefix && !strcmp(key, "custom_operators")) {
      rc = config_custom_ops_yaml(y->c, y->doc, v, y->file, y->d);
    } else if (r == 1) {
      rc = apply_node(y, o, v);
    } else if (r == 2) {
      if (v->type != YAML_SCALAR_NODE) {
        char pb[600];
        rc = diag_error(y->d, "option '%s' expects a bool (true/false/yes/no/1/0), got %s%s", key,
                        node_kind(v), cfg_paren(where, pb, sizeof pb));
      } else if (!is_null(v)) {
        char *w = where_line(y, v);
        rc = cfg_set_switch(s, si, key, (const char *)v->data.scalar.value, w, y->d);
        free(w);
      }
    } else if (cfg_find_group(key) >= 0 && v->type == YAML_SEQUENCE_NODE) {
      cfg_src src = {y->doc, y->file, y->d};
      rc = apply_switch_list(y->c, key, &src, v);
    } else if (cfg_is_section(key)) {
      if (v->type == YAML_MAPPING_NODE) {
        rc = walk_mapping(y, v, key);
      } else if (!is_null(v)) {
        char *keys = cfg_section_keys(y->c, key);
        char pb[600];
        rc = diag_error(y->d, "'%s' is a section, not an option; expected a mapping with keys: %s%s",
                        key, keys, cfg_paren(where, pb, sizeof pb));
        free(keys);
      }
    } else {
      rc = cfg_unknown_option(y->c, key, full, "", where, y->d);
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

