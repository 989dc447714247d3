/* config_lookup.c - finding an option by key: the option table, the switch
 * groups and their registered switches ('-' and '_' alike), sections (a key
 * prefix such as "module"), and the messages for an unknown key with the
 * closest valid key suggested (edit distance, prefix, same last component). */
#include "config/config_internal.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- lookup ---------------------------------------------------------------- */

const opt_def *cfg_find_opt(const char *key) {
  for (size_t i = 0; i < N_OPTS; i++)
    if (cfg_key_eq(OPTS[i].key, key)) return &OPTS[i];
  return NULL;
}

aotc_switches *cfg_group_at(const aotc_config *c, size_t g) {
  return (aotc_switches *)(void *)((char *)c + GROUPS[g].off);
}

int cfg_find_group(const char *name) {
  for (size_t g = 0; g < N_GROUPS; g++)
    if (cfg_key_eq(GROUPS[g].name, name)) return (int)g;
  return -1;
}

int cfg_switch_index(const aotc_switches *s, const char *name) {
  for (int i = 0; i < s->n; i++)
    if (cfg_key_eq(s->names[i], name)) return i;
  return -1;
}

/* If key is "<group>.<rest>", returns the group index and sets *rest. */
int cfg_split_group(const char *key, const char **rest) {
  const char *dot = strchr(key, '.');
  if (!dot) return -1;
  char *g = xstrndup(key, (size_t)(dot - key));
  int gi = cfg_find_group(g);
  free(g);
  if (gi >= 0) *rest = dot + 1;
  return gi;
}

/* Is key a section (a strict prefix of some option key at a '.')? */
int cfg_is_section(const char *key) {
  if (cfg_find_group(key) >= 0) return 1;
  size_t n = strlen(key);
  for (size_t i = 0; i < N_OPTS; i++)
    if (strlen(OPTS[i].key) > n && OPTS[i].key[n] == '.' && cfg_key_starts(OPTS[i].key, key, n))
      return 1;
  return 0;
}

/* Lists the keys of a section: "path, name, prefix". */
char *cfg_section_keys(const aotc_config *c, const char *sec) {
  strbuf b = {0};
  size_t n = strlen(sec);
  int gi = cfg_find_group(sec);
  if (gi >= 0) {
    const aotc_switches *s = cfg_group_at(c, (size_t)gi);
    for (int i = 0; i < s->n; i++) sb_printf(&b, "%s%s", b.len ? ", " : "", s->names[i]);
    if (!s->n) sb_puts(&b, "none registered");
    return b.s;
  }
  for (size_t i = 0; i < N_OPTS; i++)
    if (strlen(OPTS[i].key) > n && OPTS[i].key[n] == '.' && cfg_key_starts(OPTS[i].key, sec, n))
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
  for (size_t g = 0; c && g < N_GROUPS; g++) cap += cfg_group_at(c, g)->n;
  const char **k = xmalloc(sizeof *k * (size_t)cap);
  char **t = xmalloc(sizeof *t * (size_t)cap);
  for (size_t i = 0; i < N_OPTS; i++) k[n++] = OPTS[i].key;
  k[n++] = "path";
  for (size_t g = 0; c && g < N_GROUPS; g++) {
    const aotc_switches *s = cfg_group_at(c, g);
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
      if (strlen(k[i]) > len && cfg_key_starts(k[i], key, len)) pi = i;
    if (pi >= 0) {
      bi = pi;
    } else if (best > limit) {
      bi = -1;
      for (int i = 0; i < n && bi < 0; i++)
        if (cfg_key_eq(last_part(k[i]), last_part(key))) bi = i;
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
int cfg_unknown_option(const aotc_config *c, const char *key, const char *shown,
                          const char *dash, const char *where, aotc_diag *d) {
  char pb[600];
  const char *s = config_suggest(c, key);
  const char *rest = NULL;
  int gi = cfg_split_group(key, &rest);
  if (s && cfg_key_eq(s, key)) {
    /* "path" names the config file on the command line only */
    if (cfg_key_eq(key, "path"))
      return diag_error(d, "'%s'%s is not a key of the config file: the file itself is given with --path FILE; the model is model.path, the output module.path",
                        shown, cfg_paren(where, pb, sizeof pb));
    s = NULL;
  }
  if (s)
    return diag_error(d, "unknown option '%s'%s; did you mean '%s%s'?", shown,
                      cfg_paren(where, pb, sizeof pb), dash, s);
  if (gi >= 0) {
    char *names = cfg_section_keys(c, GROUPS[gi].name);
    diag_error(d, "unknown option '%s'%s; valid %s: %s", shown, cfg_paren(where, pb, sizeof pb),
               GROUPS[gi].name, names);
    free(names);
    return -1;
  }
  return diag_error(d, "unknown option '%s'%s", shown, cfg_paren(where, pb, sizeof pb));
}

