/* codegen_export.c - where a module goes and how it gets there without ever
 * losing a user's file.
 *
 * module.path is the PARENT directory (as in helia-aot): the module is
 * <module.path>/<module.name>/. A module.path ending in .zip (or .pack) is a
 * zip archive holding <module.name>/... instead. Parents are created as
 * needed (and removed again when the convert fails).
 *
 * The module is written into a hidden temporary directory beside its final
 * place, then renamed into place: a failed or interrupted convert leaves the
 * previous module as it was. An existing target is replaced only with
 * --force, and only when it is a module aotc wrote: a directory holding the
 * marker file AOTC_MARKER, or a zip archive whose comment is the marker text.
 * Nothing else in the parent (the model, .gitignore, sibling modules) is ever
 * touched. */
#define _GNU_SOURCE
#include "codegen_internal.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#define AOTC_MARKER ".aotc-module"
#define AOTC_ZIP_COMMENT "aotc module"

static int rm_cb(const char *p, const struct stat *st, int flag, struct FTW *f) {
  (void)st;
  (void)flag;
  (void)f;
  return remove(p);
}

static int rm_tree(const char *path) { return nftw(path, rm_cb, 16, FTW_DEPTH | FTW_PHYS); }

int codegen_export_is_zip(const char *module_path) {
  size_t n = strlen(module_path);
  const char *ext[] = {".zip", ".pack"};
  for (int i = 0; i < 2; i++) {
    size_t l = strlen(ext[i]);
    if (n > l && strcasecmp(module_path + n - l, ext[i]) == 0) return 1;
  }
  return 0;
}

/* Directory part of p ("." when none); malloc'd. */
static char *dir_of(const char *p) {
  const char *s = strrchr(p, '/');
  if (!s) return xstrdup(".");
  if (s == p) return xstrdup("/");
  return xstrndup(p, (size_t)(s - p));
}

static char *base_of(const char *p) {
  const char *s = strrchr(p, '/');
  return xstrdup(s ? s + 1 : p);
}

char *codegen_export_target(const char *module_path, const char *module_name) {
  if (codegen_export_is_zip(module_path)) return xstrdup(module_path);
  size_t n = strlen(module_path);
  while (n > 1 && module_path[n - 1] == '/') n--;
  return xasprintf("%.*s/%s", (int)n, module_path, module_name);
}

/* Is the existing zip archive one that aotc wrote (its comment)? */
static int zip_is_ours(const char *path) {
  int err = 0;
  zip_t *z = zip_open(path, ZIP_RDONLY, &err);
  if (!z) return 0;
  int len = 0;
  const char *c = zip_get_archive_comment(z, &len, 0);
  int ours = c && len == (int)strlen(AOTC_ZIP_COMMENT) && memcmp(c, AOTC_ZIP_COMMENT, (size_t)len) == 0;
  zip_discard(z);
  return ours;
}

int codegen_export_check(const char *module_path, const char *module_name, int force, aotc_diag *d) {
  if (!module_path || !*module_path)
    return diag_error(d, "no output location: pass --module.path DIR (the parent directory of the module, or a .zip)");
  if (!module_name || !*module_name || strchr(module_name, '/') || !strcmp(module_name, ".") ||
      !strcmp(module_name, ".."))
    return diag_error(d, "module.name '%s' is not a directory name", module_name ? module_name : "");
  int zip = codegen_export_is_zip(module_path);
  struct stat st;
  if (!zip && stat(module_path, &st) == 0 && !S_ISDIR(st.st_mode))
    return diag_error(d, "module.path '%s' exists and is not a directory (module.path is the parent directory of the module)",
                      module_path);
  char *target = codegen_export_target(module_path, module_name);
  int rc = 0;
  if (lstat(target, &st) == 0) {
    if (zip) {
      if (!S_ISREG(st.st_mode) || !zip_is_ours(target))
        rc = diag_error(d, "'%s' exists and is not a module archive aotc wrote; aotc will not replace it: remove it or choose another module.path",
                        target);
      else if (!force)
        rc = diag_error(d, "'%s' already exists; pass --force to replace it", target);
    } else if (!S_ISDIR(st.st_mode)) {
      rc = diag_error(d, "'%s' exists and is not a directory; aotc will not replace it: remove it or choose another module.name",
                      target);
    } else {
      char *m = xasprintf("%s/%s", target, AOTC_MARKER);
      struct stat ms;
      int ours = lstat(m, &ms) == 0 && S_ISREG(ms.st_mode);
      free(m);
      if (!ours)
        rc = diag_error(d, "'%s' exists and is not a module aotc wrote (no %s marker); aotc will not replace it: remove it or choose another module.name",
                        target, AOTC_MARKER);
      else if (!force)
        rc = diag_error(d, "'%s' already exists; pass --force to replace it", target);
    }
  }
  free(target);
  return rc;
}

/* mkdir -p, recording each directory created (so a failure can remove them). */
static int make_parents(const char *path, char ***made, int *nmade, aotc_diag *d) {
  char *p = xstrdup(path);
  size_t n = strlen(p);
  int rc = 0;
  for (size_t i = 1; i <= n && rc == 0; i++) {
    if (p[i] != '/' && p[i] != 0) continue;
    char save = p[i];
    p[i] = 0;
    struct stat st;
    if (stat(p, &st) != 0) {
      if (mkdir(p, 0755) != 0) {
        rc = diag_error(d, "cannot create directory '%s': %s", p, strerror(errno));
      } else {
        *made = xrealloc(*made, sizeof **made * (size_t)(*nmade + 1));
        (*made)[(*nmade)++] = xstrdup(p);
      }
    } else if (!S_ISDIR(st.st_mode)) {
      rc = diag_error(d, "cannot create '%s': '%s' is not a directory", path, p);
    }
    p[i] = save;
  }
  free(p);
  return rc;
}

/* The temporary directory being written, removed on SIGINT/SIGTERM/SIGHUP. */
static char g_tmp[4096], g_tmpzip[4096];

static void on_signal(int sig) {
  if (g_tmp[0]) rm_tree(g_tmp);
  if (g_tmpzip[0]) unlink(g_tmpzip);
  signal(sig, SIG_DFL);
  raise(sig);
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Adds dir (on disk) as entries <name>/... of z, sorted, fixed times. */
static int zip_add_tree(zip_t *z, const char *dir, const char *name, aotc_diag *d) {
  DIR *dp = opendir(dir);
  if (!dp) return diag_error(d, "cannot read '%s': %s", dir, strerror(errno));
  char **names = NULL;
  int n = 0;
  struct dirent *de;
  while ((de = readdir(dp)) != NULL) {
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
    names = xrealloc(names, sizeof *names * (size_t)(n + 1));
    names[n++] = xstrdup(de->d_name);
  }
  closedir(dp);
  if (n) qsort(names, (size_t)n, sizeof *names, cmp_names);
  const time_t fixed = 315532800; /* 1980-01-01, the zip epoch: byte-identical archives */
  zip_int64_t di = zip_dir_add(z, name, ZIP_FL_ENC_UTF_8);
  int rc = di < 0 ? diag_error(d, "cannot add '%s' to the archive: %s", name, zip_strerror(z)) : 0;
  if (rc == 0) zip_file_set_mtime(z, (zip_uint64_t)di, fixed, 0);
  for (int i = 0; i < n; i++) {
    char *p = xasprintf("%s/%s", dir, names[i]);
    char *e = xasprintf("%s/%s", name, names[i]);
    struct stat st;
    if (rc == 0 && stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
      rc = zip_add_tree(z, p, e, d);
    } else if (rc == 0) {
      zip_source_t *s = zip_source_file(z, p, 0, -1);
      zip_int64_t fi = s ? zip_file_add(z, e, s, ZIP_FL_ENC_UTF_8) : -1;
      if (fi < 0) {
        if (s) zip_source_free(s);
        rc = diag_error(d, "cannot add '%s' to the archive: %s", e, zip_strerror(z));
      } else {
        zip_file_set_mtime(z, (zip_uint64_t)fi, fixed, 0);
      }
    }
    free(p);
    free(e);
    free(names[i]);
  }
  free(names);
  return rc;
}

static int write_zip(const char *zpath, const char *dir, const char *name, aotc_diag *d) {
  int err = 0;
  zip_t *z = zip_open(zpath, ZIP_CREATE | ZIP_TRUNCATE, &err);
  if (!z) return diag_error(d, "cannot create the archive '%s' (libzip error %d)", zpath, err);
  int rc = zip_add_tree(z, dir, name, d);
  if (rc == 0 && zip_set_archive_comment(z, AOTC_ZIP_COMMENT, (zip_uint16_t)strlen(AOTC_ZIP_COMMENT)) < 0)
    rc = diag_error(d, "cannot write the archive '%s': %s", zpath, zip_strerror(z));
  if (rc != 0) {
    zip_discard(z);
    return -1;
  }
  if (zip_close(z) < 0) {
    rc = diag_error(d, "cannot write the archive '%s': %s", zpath, zip_strerror(z));
    zip_discard(z);
  }
  return rc;
}

int codegen_export(const char *module_path, const char *module_name, int force, cg_write_fn write,
                   void *arg, aotc_diag *d) {
  if (codegen_export_check(module_path, module_name, force, d) != 0) return -1;
  int zip = codegen_export_is_zip(module_path);
  char *target = codegen_export_target(module_path, module_name);
  char *parent = dir_of(target);
  char *base = base_of(target);
  char **made = NULL;
  int nmade = 0, rc = 0;
  char *tmp = xasprintf("%s/.%s.aotc-tmp-%ld", parent, base, (long)getpid());
  char *tmpzip = zip ? xasprintf("%s/.%s.aotc-tmp-%ld.zip", parent, base, (long)getpid()) : NULL;
  char *old = NULL;
  struct sigaction sa, o_int, o_term, o_hup;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  snprintf(g_tmp, sizeof g_tmp, "%s", tmp);
  snprintf(g_tmpzip, sizeof g_tmpzip, "%s", tmpzip ? tmpzip : "");
  sigaction(SIGINT, &sa, &o_int);
  sigaction(SIGTERM, &sa, &o_term);
  sigaction(SIGHUP, &sa, &o_hup);
  rc = make_parents(parent, &made, &nmade, d);
  if (rc == 0) {
    rm_tree(tmp);
    rc = write(tmp, arg, d);
  }
  if (rc == 0) {
    char *m = xasprintf("%s/%s", tmp, AOTC_MARKER);
    const char *text = "This directory is a module written by aotc. `aotc convert --force` replaces it\n"
                       "only while this file is here; remove the file to keep aotc away from it.\n";
    rc = write_file_all(m, text, strlen(text), d);
    free(m);
  }
  if (rc == 0 && zip) {
    rc = write_zip(tmpzip, tmp, module_name, d);
    if (rc == 0 && rename(tmpzip, target) != 0)
      rc = diag_error(d, "cannot move the archive into '%s': %s", target, strerror(errno));
    if (rc != 0) unlink(tmpzip);
  } else if (rc == 0) {
    /* the swap (previous module aside, new one in, previous removed) is not
     * interrupted: a signal arriving now is delivered once it is done */
    sigset_t block, prev;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, &prev);
    struct stat st;
    if (lstat(target, &st) == 0) {
      /* checked again: the target may have appeared while compiling */
      if (codegen_export_check(module_path, module_name, force, d) != 0) {
        rc = -1;
      } else {
        old = xasprintf("%s/.%s.aotc-old-%ld", parent, base, (long)getpid());
        rm_tree(old);
        if (rename(target, old) != 0) rc = diag_error(d, "cannot replace '%s': %s", target, strerror(errno));
      }
    }
    if (rc == 0 && rename(tmp, target) != 0) {
      rc = diag_error(d, "cannot move the module into '%s': %s", target, strerror(errno));
      if (old) rename(old, target);
    }
    if (rc == 0 && old) rm_tree(old);
    sigprocmask(SIG_SETMASK, &prev, NULL);
  }
  struct stat st;
  if (lstat(tmp, &st) == 0) rm_tree(tmp);
  if (rc != 0) {
    diag_replace(d, tmp, target); /* name the user's path, not ours */
    if (tmpzip) diag_replace(d, tmpzip, target);
  }
  if (rc != 0)
    for (int i = nmade - 1; i >= 0; i--) rmdir(made[i]);
  sigaction(SIGINT, &o_int, NULL);
  sigaction(SIGTERM, &o_term, NULL);
  sigaction(SIGHUP, &o_hup, NULL);
  g_tmp[0] = g_tmpzip[0] = 0;
  for (int i = 0; i < nmade; i++) free(made[i]);
  free(made);
  free(old);
  free(tmp);
  free(tmpzip);
  free(base);
  free(parent);
  free(target);
  return rc;
}
