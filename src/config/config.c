/* config.c - aotc's configuration object: defaults, freeing, the registered
 * switches (transforms, litert_hooks), config_set, the command-line flags
 * (--path FILE, --a.b VALUE, --flag alone for bools), --help and the dump of
 * the resolved configuration as YAML. The option table is config_options.c,
 * value parsing config_values.c, lookup and suggestions config_lookup.c,
 * YAML files config_yaml.c. See config.h. */
#include "config/config_internal.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- init / free / switches ------------------------------------------------ */

void config_init(aotc_config *c) {
  memset(c, 0, sizeof *c);
  aotc_diag d = {0};
  d.quiet = 1;
  for (size_t i = 0; i < N_OPTS; i++)
    if (OPTS[i].dflt) cfg_set_text(c, &OPTS[i], OPTS[i].dflt, NULL, &d);
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
    else cfg_free_structured(c, o);
  }
  for (size_t g = 0; g < N_GROUPS; g++) free_switches(cfg_group_at(c, g));
  config_custom_ops_free(c);
  memset(c, 0, sizeof *c);
}

int config_register_switch(aotc_config *c, const char *group, const char *name, int dflt,
                           const char *help) {
  int gi = cfg_find_group(group);
  if (gi < 0 || !name || !*name) return -1;
  aotc_switches *s = cfg_group_at(c, (size_t)gi);
  int i = cfg_switch_index(s, name);
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
  int gi = cfg_find_group(group);
  if (gi < 0) return -1;
  const aotc_switches *s = cfg_group_at(c, (size_t)gi);
  int i = cfg_switch_index(s, name);
  return i < 0 ? -1 : s->value[i];
}

int config_switch_is_set(const aotc_config *c, const char *group, const char *name) {
  int gi = cfg_find_group(group);
  if (gi < 0) return 0;
  const aotc_switches *s = cfg_group_at(c, (size_t)gi);
  int i = cfg_switch_index(s, name);
  return i < 0 ? 0 : s->set[i];
}

int cfg_set_switch(aotc_switches *s, int i, const char *key, const char *val, const char *where,
                      aotc_diag *d) {
  int v;
  if (cfg_parse_bool(val, &v)) {
    char pb[600];
    return diag_error(d, "option '%s' expects a bool (true/false/yes/no/1/0), got '%.200s'%s", key,
                      val, cfg_paren(where, pb, sizeof pb));
  }
  s->value[i] = (unsigned char)v;
  s->set[i] = 1;
  return 0;
}

/* Resolves key (normalized) to an option or a registered switch. Returns 1
 * for an option (*o), 2 for a switch (*sw, *si), 0 if unknown. */
int cfg_resolve(const aotc_config *c, const char *key, const opt_def **o, aotc_switches **sw,
                   int *si) {
  *o = cfg_find_opt(key);
  if (*o) return 1;
  const char *rest;
  int gi = cfg_split_group(key, &rest);
  if (gi >= 0) {
    aotc_switches *s = cfg_group_at(c, (size_t)gi);
    int i = cfg_switch_index(s, rest);
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
  char *k = cfg_norm_key(key);
  int r = cfg_resolve(c, k, &o, &s, &si), rc;
  if (r == 1)
    rc = cfg_set_text(c, o, value, where, d);
  else if (r == 2)
    rc = cfg_set_switch(s, si, k, value, where, d);
  else
    rc = cfg_unknown_option(c, k, key, "", where, d);
  free(k);
  return rc;
}

/* ---- flags ----------------------------------------------------------------- */

static int is_bool_word(const char *s) {
  int v;
  return cfg_parse_bool(s, &v) == 0;
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
    char *key = cfg_norm_key(name);
    char *flag = xasprintf("--%s", name);
    char *where = xasprintf("flag %s", flag);
    int rc = 0;
    const opt_def *o;
    aotc_switches *s;
    int si;
    int neg = 0;
    if (!strncmp(key, "no_", 3) && cfg_resolve(c, key, &o, &s, &si) == 0) {
      /* helia-aot's --no-<bool> */
      int r3 = cfg_resolve(c, key + 3, &o, &s, &si);
      if (r3 == 2 || (r3 == 1 && o->type == T_BOOL)) {
        memmove(key, key + 3, strlen(key + 3) + 1);
        neg = 1;
      }
    }
    if (!strcmp(key, "path")) {
      if (!eq) i++;  /* loaded in pass 1 */
    } else if (cfg_find_group(key) >= 0 && !neg) {
      /* --transforms ITEM ...: names or {name, enabled, options} */
      cfg_switch_flow sf = {c, GROUPS[cfg_find_group(key)].name};
      int any = 0;
      if (eq) rc = cfg_parse_flow(eq + 1, where, cfg_switch_flow_cb, &sf, d), any = 1;
      while (!rc && !eq && i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
        rc = cfg_parse_flow(argv[++i], where, cfg_switch_flow_cb, &sf, d);
        any = 1;
      }
      if (!rc && !any) {
        char *keys = cfg_section_keys(c, key);
        rc = diag_error(d, "option '%s' needs items: transform names or {name, enabled, options} (names: %s)", flag, keys);
        free(keys);
      }
    } else {
      int r = cfg_resolve(c, key, &o, &s, &si);
      int is_bool = r == 2 || (r == 1 && (o->type == T_BOOL || o->type == T_LEVEL));
      int multi = r == 1 && (o->type == T_RULES || o->type == T_OPRULES);
      const char *val = eq ? eq + 1 : neg ? "false" : NULL;
      if (multi && !val) {
        /* --memory.tensors RULE RULE ...: each a flow mapping or list */
        int any = 0;
        while (!rc && i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
          rc = cfg_set_structured(c, o, argv[++i], where, any, d);
          any = 1;
        }
        if (!rc && !any) rc = diag_error(d, "option '%s' needs a value (%s)", flag, cfg_type_desc(o));
        if (!rc && o->noeffect) c->noted[o - OPTS] = 1;
        r = -1; /* done */
      }
      if (r == 0 && !strncmp(key, "custom_operators.", 17)) {
        if (!val && i + 1 < argc) val = argv[++i];
        rc = config_custom_ops_flag(c, name + 17, val, d);
      } else if (r == 0) {
        if (cfg_is_section(key)) {
          char *keys = cfg_section_keys(c, key);
          rc = diag_error(d, "'%s' is a section, not an option; use %s.<key> with one of: %s", flag,
                          flag, keys);
          free(keys);
        } else {
          rc = cfg_unknown_option(c, key, flag, "--", NULL, d);
        }
      } else if (r < 0) {
        /* handled above */
      } else if (!val && is_bool) {
        int lv;
        val = (i + 1 < argc && (is_bool_word(argv[i + 1]) ||
                                (o && o->type == T_LEVEL && cfg_parse_int(argv[i + 1], &lv) == 0)))
                  ? argv[++i]
                  : "true";
      } else if (!val) {
        if (i + 1 >= argc || !strncmp(argv[i + 1], "--", 2))
          rc = diag_error(d, "option '%s' needs a value (%s)", flag, cfg_type_desc(o));
        else
          val = argv[++i];
      }
      if (!rc && r == 1) rc = cfg_set_text(c, o, val, where, d);
      if (!rc && r == 2) rc = cfg_set_switch(s, si, key, val, where, d);
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
    const aotc_switches *s = c ? cfg_group_at(c, g) : NULL;
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

/* Writes element k of list option o of m as YAML. */
static void put_yaml_list_item(FILE *out, const opt_def *o, aotc_config *m, int k) {
  switch (o->type) {
    case T_INTS: fprintf(out, "%d", (*FIELD(m, o, int *))[k]); break;
    case T_PAIRS: {
      aotc_int_pair p = (*FIELD(m, o, aotc_int_pair *))[k];
      fprintf(out, "[%d, %d]", p.out, p.in);
      break;
    }
    case T_STRS: put_yaml_string(out, (*FIELD(m, o, char **))[k]); break;
    case T_MEMS: {
      aotc_mem_size ms = (*FIELD(m, o, aotc_mem_size *))[k];
      fputs("{name: ", out);
      put_yaml_string(out, ms.name);
      if (ms.size >= 0) fprintf(out, ", max_size: %lld}", ms.size);
      else fputs("}", out);
      break;
    }
    default: { /* T_RULES, T_OPRULES */
      const aotc_rule *r = &(*FIELD(m, o, aotc_rule *))[k];
      fputs("{type: ", out);
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
      break;
    }
  }
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
      case T_ENUM: fputs(cfg_choice_name(o->choices, *FIELD(m, o, int), nb, sizeof nb), out); break;
      case T_INTS:
      case T_PAIRS:
      case T_STRS:
      case T_MEMS:
      case T_RULES:
      case T_OPRULES:
        fputc('[', out);
        for (int k = 0; k < *COUNT(m, o); k++) {
          if (k) fputs(", ", out);
          put_yaml_list_item(out, o, m, k);
        }
        fputc(']', out);
        break;
      case T_LEVEL: fprintf(out, "%d", *FIELD(m, o, int)); break;
    }
    fputc('\n', out);
  }
  for (size_t g = 0; g < N_GROUPS; g++) {
    const aotc_switches *s = cfg_group_at(c, g);
    if (!s->n) continue;
    fprintf(out, "%s:\n", GROUPS[g].name);
    for (int i = 0; i < s->n; i++)
      fprintf(out, "  %s: %s\n", s->names[i], s->value[i] ? "true" : "false");
  }
  config_custom_ops_dump(c, out);
}

