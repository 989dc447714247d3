/* codegen_features.c - the module's aot_features.h: the runtime's header
 * (every kernel path on) with each "#define AOT_F_<X> 1" line the module's
 * operators did not ask for (emit_feature) turned to 0, so the kernels
 * leave out the paths none of its layers can reach. Written only when the
 * module holds the header (one of its kernels includes it). */
#include "codegen_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int wanted(const char *name, size_t len, const char *const *features, int n) {
  for (int i = 0; i < n; i++)
    if (strlen(features[i]) == len && strncmp(features[i], name, len) == 0) return 1;
  return 0;
}

int cg_write_features(const cg_options *o, const char *dir, const char *const *features,
                      int nfeatures, aotc_diag *d) {
  char *rel = codegen_rename_prefix("src/aot_features.h", o->prefix);   /* as written */
  char *mod = xasprintf("%s/%s", dir, rel);
  struct stat st;
  int have = stat(mod, &st) == 0;
  free(mod);
  free(rel);
  if (!have) return 0;
  char *rpath = xasprintf("%s/aot_features.h", o->runtime_dir);
  uint8_t *data;
  size_t len;
  int rc = read_file_all(rpath, &data, &len, d);
  free(rpath);
  if (rc != 0) return -1;
  char *text = xstrndup((const char *)data, len);
  free(data);
  strbuf b = {0};
  static const char def[] = "#define AOT_F_";
  for (const char *p = text; *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
    if (strncmp(p, def, sizeof def - 1) == 0) {
      const char *name = p + sizeof def - 1, *e = name;
      while (*e == '_' || (*e >= 'A' && *e <= 'Z') || (*e >= '0' && *e <= '9')) e++;
      if (strncmp(e, " 1\n", 3) == 0 && !wanted(name, (size_t)(e - name), features, nfeatures)) {
        sb_printf(&b, "%.*s 0\n", (int)(e - p), p);
        p += n;
        continue;
      }
    }
    sb_printf(&b, "%.*s", (int)n, p);
    p += n;
  }
  rc = write_text(dir, "src/aot_features.h", b.s ? b.s : "", o->prefix, d);
  sb_free(&b);
  free(text);
  return rc;
}
