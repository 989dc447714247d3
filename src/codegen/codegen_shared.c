/* codegen_shared.c - one copy of the runtime kernels for several modules.
 *
 * `aotc runtime` writes a kernel library module (codegen_runtime_library):
 * the kernel sources and the kernel headers renamed to the library prefix,
 * its build glue, and a manifest (aotc-runtime.txt) naming the aotc version,
 * the prefix and each kernel and header with the SHA-256 of the runtime file
 * it came from. `aotc convert --module.runtime DIR` then writes a module that
 * copies no kernels: while it is written (cg_shared_begin .. cg_shared_end)
 * every aot_/AOT_ identifier the runtime headers declare (kernels, params
 * structs, status macros, inline helpers) and every #include of a library
 * header takes the library prefix; the model's own identifiers keep the
 * module prefix. A kernel the library lacks, or one whose source differs
 * from this aotc's (another kernel version), is refused in one line. */
#include "codegen_internal.h"

#include "config/config.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MANIFEST "aotc-runtime.txt"

typedef struct rt_entry {
  char *rel;   /* runtime-relative path (kernel) or header name */
  char hash[65];
  int header;
} rt_entry;

static struct {
  int active;
  char *prefix, *name, *dir;
  rt_entry *e;
  int n;
  char **ids;  /* identifiers (aot_...) the runtime headers declare, sorted */
  int nids;
} S;

static int cmp_cstr(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int file_hash(const char *path, char out[65], aotc_diag *d) {
  uint8_t *data;
  size_t len;
  if (read_file_all(path, &data, &len, d) != 0) return -1;
  cg_sha256_hex(data, len, out);
  free(data);
  return 0;
}

/* The runtime headers (runtime/aot_*.h), sorted. */
static int list_headers(const char *rtdir, char ***out) {
  DIR *dd = opendir(rtdir);
  int n = 0;
  *out = NULL;
  if (!dd) return 0;
  struct dirent *de;
  while ((de = readdir(dd)) != NULL) {
    size_t l = strlen(de->d_name);
    if (l > 6 && strncmp(de->d_name, "aot_", 4) == 0 && strcmp(de->d_name + l - 2, ".h") == 0) {
      *out = xrealloc(*out, (size_t)(n + 1) * sizeof(char *));
      (*out)[n++] = xstrdup(de->d_name);
    }
  }
  closedir(dd);
  if (n) qsort(*out, (size_t)n, sizeof(char *), cmp_cstr);
  return n;
}

/* Collects the aot_/AOT_ identifiers of text outside comments and strings. */
static void scan_ids(const char *t) {
  for (const char *p = t; *p;) {
    if (p[0] == '/' && p[1] == '*') {
      const char *q = strstr(p + 2, "*/");
      p = q ? q + 2 : p + strlen(p);
    } else if (p[0] == '/' && p[1] == '/') {
      while (*p && *p != '\n') p++;
    } else if (*p == '"') {
      for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1]) p++;
      if (*p) p++;
    } else if (isalpha((unsigned char)*p) || *p == '_') {
      const char *s = p;
      while (isalnum((unsigned char)*p) || *p == '_') p++;
      if ((size_t)(p - s) > 4 && (strncmp(s, "aot_", 4) == 0 || strncmp(s, "AOT_", 4) == 0)) {
        char *id = xstrndup(s, (size_t)(p - s));
        S.ids = xrealloc(S.ids, (size_t)(S.nids + 1) * sizeof(char *));
        S.ids[S.nids++] = id;
      }
    } else {
      p++;
    }
  }
}

static int load_ids(const char *rtdir, aotc_diag *d) {
  char **h;
  int nh = list_headers(rtdir, &h), rc = 0;
  for (int i = 0; i < nh; i++) {
    char *path = xasprintf("%s/%s", rtdir, h[i]);
    uint8_t *data;
    size_t len;
    if (rc == 0 && read_file_all(path, &data, &len, d) == 0) {
      char *t = xstrndup((const char *)data, len);
      free(data);
      scan_ids(t);
      free(t);
    } else {
      rc = -1;
    }
    free(path);
    free(h[i]);
  }
  free(h);
  if (S.nids) qsort(S.ids, (size_t)S.nids, sizeof(char *), cmp_cstr);
  return rc;
}

static int is_rt_id(const char *s, size_t n) {
  char buf[256];
  if (n >= sizeof buf) return 0;
  memcpy(buf, s, n);
  buf[n] = 0;
  const char *k = buf;
  return bsearch(&k, S.ids, (size_t)S.nids, sizeof(char *), cmp_cstr) != NULL;
}

/* A library header name (aot_kernel_common.h or runtime/<name>) starts at s. */
static int is_rt_header(const char *s) {
  const char *q = strchr(s, '"');
  if (!q || q - s < 6) return 0;
  if ((size_t)(q - s) == 19 && strncmp(s, "aot_kernel_common.h", 19) == 0) return 1;
  for (int i = 0; i < S.n; i++)
    if (S.e[i].header && strlen(S.e[i].rel) == (size_t)(q - s) && strncmp(S.e[i].rel, s, (size_t)(q - s)) == 0 &&
        strcmp(S.e[i].rel, "aot_common.h") != 0)
      return 1;
  return 0;
}

int cg_shared_active(void) { return S.active; }

/* A library identifier, or the name of a library header in an #include. */
static int shared_is_rt(const char *text, const char *p, size_t n) {
  return is_rt_id(p, n) || (p > text && p[-1] == '"' && is_rt_header(p));
}

char *cg_shared_rename(const char *text, const char *prefix) {
  return codegen_rename_split(text, prefix, S.prefix, shared_is_rt);
}

static void shared_free(void) {
  free(S.prefix);
  free(S.name);
  free(S.dir);
  for (int i = 0; i < S.n; i++) free(S.e[i].rel);
  free(S.e);
  for (int i = 0; i < S.nids; i++) free(S.ids[i]);
  free(S.ids);
  memset(&S, 0, sizeof S);
}

void cg_shared_end(void) { shared_free(); }

static int bad_manifest(const char *path, int line, aotc_diag *d) {
  return diag_error(d, "%s line %d: not a manifest aotc runtime wrote; regenerate the library with `aotc runtime`", path, line);
}

int cg_shared_begin(const cg_options *o, aotc_diag *d) {
  shared_free();
  if (o->module_type == AOTC_MODULE_ZEPHYR || o->module_type == AOTC_MODULE_CMSIS_PACK)
    return diag_error(d, "module.runtime: the %s build glue cannot link a shared runtime library; use module.type cmake, nsx or neuralspot, or leave module.runtime out",
                      o->module_type == AOTC_MODULE_ZEPHYR ? "zephyr" : "cmsis_pack");
  if (o->module_parent && codegen_export_is_zip(o->module_parent))
    return diag_error(d, "module.runtime: module.path '%s' is an archive, which cannot refer to the library beside it; give a directory", o->module_parent);
  char *path = xasprintf("%s/%s", o->shared_runtime, MANIFEST);
  uint8_t *data;
  size_t len;
  struct stat st;
  if (stat(path, &st) != 0) {
    diag_error(d, "module.runtime '%s': no %s there; give the directory `aotc runtime` wrote (<module.path>/<module.name>)", o->shared_runtime, MANIFEST);
    free(path);
    return -1;
  }
  if (read_file_all(path, &data, &len, d) != 0) {
    free(path);
    return -1;
  }
  char *t = xstrndup((const char *)data, len);
  free(data);
  int rc = 0, line = 0;
  char *save = NULL;
  for (char *l = strtok_r(t, "\n", &save); l && rc == 0; l = strtok_r(NULL, "\n", &save)) {
    line++;
    char a[32], b[PATH_MAX], h[80];
    if (l[0] == '#') continue;
    int k = sscanf(l, "%31s %4095s %79s", a, b, h);
    if (k == 2 && !strcmp(a, "aotc")) {
      if (strcmp(b, AOTC_VERSION_STRING) != 0)
        rc = diag_error(d, "module.runtime '%s' was written by aotc %s, this is aotc %s; regenerate the library with this aotc (`aotc runtime`)",
                        o->shared_runtime, b, AOTC_VERSION_STRING);
    } else if (k == 2 && !strcmp(a, "prefix")) {
      S.prefix = xstrdup(b);
    } else if (k == 2 && !strcmp(a, "name")) {
      S.name = xstrdup(b);
    } else if (k == 3 && (!strcmp(a, "kernel") || !strcmp(a, "header")) && strlen(h) == 64) {
      S.e = xrealloc(S.e, (size_t)(S.n + 1) * sizeof *S.e);
      S.e[S.n].rel = xstrdup(b);
      memcpy(S.e[S.n].hash, h, 65);
      S.e[S.n].header = a[0] == 'h';
      S.n++;
    } else {
      rc = bad_manifest(path, line, d);
    }
  }
  free(t);
  if (rc == 0 && (!S.prefix || !S.name)) rc = bad_manifest(path, line, d);
  if (rc == 0 && !strcmp(S.prefix, o->prefix))
    rc = diag_error(d, "module.prefix '%s' is the prefix of the runtime library '%s'; give the module another prefix", o->prefix, o->shared_runtime);
  /* the library's headers must be this aotc's (params structs, helpers) */
  for (int i = 0; i < S.n && rc == 0; i++) {
    if (!S.e[i].header) continue;
    char *rp = xasprintf("%s/%s", o->runtime_dir, S.e[i].rel);
    char hh[65];
    if (stat(rp, &st) != 0 || file_hash(rp, hh, d) != 0 || strcmp(hh, S.e[i].hash) != 0)
      rc = diag_error(d, "module.runtime '%s': its kernel header %s differs from this aotc's runtime (another kernel version); regenerate the library with this aotc (`aotc runtime`)",
                      o->shared_runtime, S.e[i].rel);
    free(rp);
  }
  free(path);
  if (rc == 0) {
    S.dir = xstrdup(o->shared_runtime);
    rc = load_ids(o->runtime_dir, d);
  }
  if (rc != 0) {
    shared_free();
    return -1;
  }
  S.active = 1;
  return 0;
}

int cg_shared_check_kernels(const cg_options *o, const char *const *kernels, int n, aotc_diag *d) {
  for (int i = 0; i < n; i++) {
    if (kernels[i][0] == '/') continue; /* user kernels stay in the module */
    int found = -1;
    for (int j = 0; j < S.n; j++)
      if (!S.e[j].header && !strcmp(S.e[j].rel, kernels[i])) found = j;
    if (found < 0)
      return diag_error(d, "module.runtime '%s' lacks the kernel %s this model needs; regenerate the library with this model among its models (or with --all)",
                        o->shared_runtime, kernels[i]);
    char *rp = xasprintf("%s/%s", o->runtime_dir, kernels[i]);
    char hh[65];
    int r = file_hash(rp, hh, d);
    free(rp);
    if (r != 0) return -1;
    if (strcmp(hh, S.e[found].hash) != 0)
      return diag_error(d, "module.runtime '%s': its kernel %s differs from this aotc's (another kernel version); regenerate the library with this aotc (`aotc runtime`)",
                        o->shared_runtime, kernels[i]);
  }
  return 0;
}

const char *cg_shared_name(void) { return S.name; }
const char *cg_shared_prefix(void) { return S.prefix; }

/* The path of the library relative to the module directory (both resolved),
 * for the build glue; the absolute path when there is no common root. */
char *cg_shared_relpath(const cg_options *o) {
  char a[PATH_MAX], b[PATH_MAX];
  if (!o->module_parent || !realpath(o->module_parent, a) || !realpath(S.dir, b)) return xstrdup(S.dir);
  strbuf r = {0};
  char *mod = xasprintf("%s/%s", a, o->name);
  size_t i = 0, last = 0;
  while (mod[i] && b[i] && mod[i] == b[i]) {
    if (mod[i] == '/') last = i;
    i++;
  }
  if ((!mod[i] && b[i] == '/') || (!b[i] && mod[i] == '/') || (!mod[i] && !b[i])) last = i;
  for (const char *p = mod + last; *p; p++)
    if (*p == '/') sb_puts(&r, "../");
  if (b[last]) sb_puts(&r, b + last + (b[last] == '/'));
  free(mod);
  if (!r.s) return xstrdup(".");
  return r.s;
}

/* ---- the library ---------------------------------------------------------- */

int codegen_runtime_library(const cg_options *o, const char *const *kernels, int nkernels, const char *dir,
                            aotc_diag *d) {
  char **hdr;
  int nh = list_headers(o->runtime_dir, &hdr), rc = 0;
  strbuf man = {0};
  char hh[65];
  sb_printf(&man, "# aotc-runtime.txt - kernel library '%s' written by aotc runtime; aotc convert\n"
                  "# --module.runtime reads it. Do not edit.\naotc %s\nprefix %s\nname %s\n",
            o->name, AOTC_VERSION_STRING, o->prefix, o->name);
  char *inc = xasprintf("%s/includes-api", dir), *srcd = xasprintf("%s/src", dir);
  if (mkdir(inc, 0755) != 0 || mkdir(srcd, 0755) != 0) rc = diag_error(d, "cannot create directories in '%s'", dir);
  free(inc);
  free(srcd);
  for (int i = 0; i < nh && rc == 0; i++) {
    char *p = xasprintf("%s/%s", o->runtime_dir, hdr[i]);
    uint8_t *data;
    size_t len;
    if (file_hash(p, hh, d) != 0 || read_file_all(p, &data, &len, d) != 0) {
      rc = -1;
    } else {
      char *t = xstrndup((const char *)data, len);
      free(data);
      char *m = cg_module_text(t);
      const char *base = strcmp(hdr[i], "aot_common.h") == 0 ? "aot_kernel_common.h" : hdr[i];
      char *rel = xasprintf("includes-api/%s", base);
      rc = write_text(dir, rel, m, o->prefix, d);
      sb_printf(&man, "header %s %s\n", hdr[i], hh);
      free(rel);
      free(m);
      free(t);
    }
    free(p);
  }
  for (int i = 0; i < nkernels && rc == 0; i++) {
    char *p = xasprintf("%s/%s", o->runtime_dir, kernels[i]);
    if (file_hash(p, hh, d) != 0 || copy_runtime_file(o, kernels[i], dir, d) != 0) rc = -1;
    else sb_printf(&man, "kernel %s %s\n", kernels[i], hh);
    free(p);
  }
  for (int i = 0; i < nh; i++) free(hdr[i]);
  free(hdr);
  if (rc == 0) { /* as is: the kernel paths keep their runtime names */
    char *mp = xasprintf("%s/%s", dir, MANIFEST);
    rc = write_file_all(mp, man.s, man.len, d);
    free(mp);
  }
  sb_free(&man);
  if (rc == 0) rc = gen_build_glue(NULL, o, kernels, nkernels, dir, d);
  return rc ? -1 : 0;
}

/* ---- the kernels models need (aotc runtime MODEL...) ----------------------- */

static char **g_sink;
static int g_nsink, g_sink_on;

void codegen_collect_kernels(int on) {
  g_sink_on = on;
  if (!on) {
    for (int i = 0; i < g_nsink; i++) free(g_sink[i]);
    free(g_sink);
    g_sink = NULL;
    g_nsink = 0;
  }
}

void cg_collect_kernel(const char *rel) {
  if (!g_sink_on || rel[0] == '/') return;
  for (int i = 0; i < g_nsink; i++)
    if (!strcmp(g_sink[i], rel)) return;
  g_sink = xrealloc(g_sink, (size_t)(g_nsink + 1) * sizeof(char *));
  g_sink[g_nsink++] = xstrdup(rel);
  qsort(g_sink, (size_t)g_nsink, sizeof(char *), cmp_cstr);
}

int codegen_collected_kernels(const char *const **out) {
  *out = (const char *const *)g_sink;
  return g_nsink;
}
