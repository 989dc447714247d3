/* codegen_build.c - the files of a module besides the model: the runtime
 * kernels and headers copied (includes flattened, prefix renamed) and the build
 * glue (CMakeLists.txt). */
#include "codegen_internal.h"

#include "config/config.h"

#include <ctype.h>
#include <dirent.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

/* A runtime file's text as the module holds it: includes flattened (every
 * runtime file is in src/) and the kernels' aot_common.h included as
 * aot_kernel_common.h (<prefix>_common.h is the public header helia-aot's
 * callers include). Returns a malloc'd string. */
char *cg_module_text(const char *text) {
  strbuf b = {0};
  for (const char *p = text; *p;) {
    if (strncmp(p, "#include \"", 10) == 0) {
      const char *q = strchr(p + 10, '"');
      if (!q) {
        sb_puts(&b, p);
        break;
      }
      const char *start = p + 10;
      for (const char *s = start; s < q; s++)
        if (*s == '/') start = s + 1;
      if (q - start == 12 && strncmp(start, "aot_common.h", 12) == 0) {
        sb_puts(&b, "#include \"aot_kernel_common.h\"");
      } else {
        sb_puts(&b, "#include \"");
        sb_printf(&b, "%.*s\"", (int)(q - start), start);
      }
      p = q + 1;
      continue;
    }
    sb_putc(&b, *p++);
  }
  return b.s ? b.s : xstrdup("");
}

int copy_runtime_file(const cg_options *o, const char *rel, const char *dir, aotc_diag *d) {
  /* an absolute path is a user kernel (custom_operators) */
  char *src = rel[0] == '/' ? xstrdup(rel) : xasprintf("%s/%s", o->runtime_dir, rel);
  uint8_t *data;
  size_t len;
  if (read_file_all(src, &data, &len, d) != 0) {
    free(src);
    return -1;
  }
  free(src);
  char *text = xstrndup((const char *)data, len);
  free(data);
  char *m = cg_module_text(text);
  const char *base = strrchr(rel, '/');
  base = base ? base + 1 : rel;
  if (strcmp(base, "aot_common.h") == 0) base = "aot_kernel_common.h";
  char *outname = xasprintf("src/%s", base);
  int rc = write_text(dir, outname, m, o->prefix, d);
  free(outname);
  free(m);
  free(text);
  return rc;
}

/* ---- the runtime headers a module needs ---------------------------------- */

typedef struct hset {
  char **v;
  int n;
} hset;

static int hset_has(const hset *h, const char *name) {
  for (int i = 0; i < h->n; i++)
    if (strcmp(h->v[i], name) == 0) return 1;
  return 0;
}

static void hset_add(hset *h, const char *name) {
  if (hset_has(h, name)) return;
  h->v = xrealloc(h->v, (size_t)(h->n + 1) * sizeof(char *));
  h->v[h->n++] = xstrdup(name);
}

static void hset_free(hset *h) {
  for (int i = 0; i < h->n; i++) free(h->v[i]);
  free(h->v);
}

/* Adds the runtime headers text includes ("#include \"x\"" naming a file
 * runtime/<basename of x>) to h. */
static void add_includes(const cg_options *o, const char *text, hset *h) {
  for (const char *p = strstr(text, "#include \""); p; p = strstr(p + 1, "#include \"")) {
    const char *q = p + 10, *end = strchr(q, '"');
    if (!end) break;
    for (const char *s = q; s < end; s++)
      if (*s == '/') q = s + 1;
    char *name = xstrndup(q, (size_t)(end - q));
    char *path = xasprintf("%s/%s", o->runtime_dir, name);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) hset_add(h, name);
    free(path);
    free(name);
  }
}

static char *read_text(const char *path, aotc_diag *d) {
  uint8_t *data;
  size_t len;
  if (read_file_all(path, &data, &len, d) != 0) return NULL;
  char *t = xstrndup((const char *)data, len);
  free(data);
  return t;
}

/* The module's aot_kernels.h: the runtime's, with the family headers of
 * kernels the module does not use left out. */
static char *module_kernels_h(const char *runtime_text, const hset *used) {
  strbuf b = {0};
  for (const char *p = runtime_text; *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);
    int keep = 1;
    if (strncmp(p, "#include \"", 10) == 0) {
      const char *q = p + 10, *end = memchr(q, '"', len - 10);
      if (end) {
        char *name = xstrndup(q, (size_t)(end - q));
        keep = strcmp(name, "aot_common.h") == 0 || hset_has(used, name);
        free(name);
      }
    }
    if (keep) sb_printf(&b, "%.*s", (int)len, p);
    p += len;
  }
  return b.s ? b.s : xstrdup("");
}

/* Copies into the module the runtime headers it needs: the family headers
 * (and their support and internal headers) that its kernel files include, in
 * full closure, and a module aot_kernels.h that includes only those families.
 * Sorted for deterministic output. */
int copy_runtime_headers(const cg_options *o, const char *dir, const char *const *kernels,
                         int nkernels, aotc_diag *d) {
  hset used = {0};
  int rc = 0;
  for (int i = 0; i < nkernels && rc == 0; i++) {
    char *path = kernels[i][0] == '/' ? xstrdup(kernels[i])
                                      : xasprintf("%s/%s", o->runtime_dir, kernels[i]);
    char *t = read_text(path, d);
    free(path);
    if (!t) rc = -1;
    else add_includes(o, t, &used);
    free(t);
  }
  /* transitive closure: headers include each other */
  for (int i = 0; i < used.n && rc == 0; i++) {
    char *path = xasprintf("%s/%s", o->runtime_dir, used.v[i]);
    char *t = read_text(path, d);
    free(path);
    if (!t) rc = -1;
    else add_includes(o, t, &used);
    free(t);
  }
  char *kpath = xasprintf("%s/aot_kernels.h", o->runtime_dir);
  char *ktext = rc == 0 ? read_text(kpath, d) : NULL;
  free(kpath);
  if (!ktext) rc = -1;
  char *mk = ktext ? module_kernels_h(ktext, &used) : NULL;
  if (mk) hset_add(&used, "aot_common.h");
  if (used.n > 0) qsort(used.v, (size_t)used.n, sizeof(char *), cmp_str);
  for (int i = 0; i < used.n && rc == 0; i++)
    if (strcmp(used.v[i], "aot_kernels.h") != 0 && copy_runtime_file(o, used.v[i], dir, d) != 0)
      rc = -1;
  if (rc == 0) {
    char *m = cg_module_text(mk);
    if (write_text(dir, "src/aot_kernels.h", m, o->prefix, d) != 0) rc = -1;
    free(m);
  }
  free(mk);
  free(ktext);
  hset_free(&used);
  return rc;
}

int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}


/* The library/target name: module.name with '-' and '.' as '_' ("resnet-aot"
 * -> resnet_aot, as nsx::resnet_aot). */
static void target_name(const cg_options *o, char *buf, size_t n) {
  snprintf(buf, n, "%s", o->name);
  for (char *p = buf; *p; p++)
    if (*p == '-' || *p == '.') *p = '_';
}

static void upper(char *s) {
  for (; *s; s++) *s = (char)toupper((unsigned char)*s);
}

/* Sources of the library, relative to the module root. */
static void list_sources(const cg_options *o, const char *const *kernels, int nkernels, const char *pre,
                         const char *post, strbuf *b) {
  const char *fixed[] = {"src/aot_model.c", "src/aot_tensors.c", "src/aot_constants.c"};
  for (int i = 0; i < 3 && !o->runtime_library; i++) sb_printf(b, "%s%s%s", pre, fixed[i], post);
  if (o->test.enabled) sb_printf(b, "%ssrc/aot_test_case.c%s", pre, post);
  for (int i = 0; i < nkernels; i++) {
    if (o->shared_runtime && kernels[i][0] != '/') continue; /* in the library */
    const char *k = strrchr(kernels[i], '/');
    sb_printf(b, "%ssrc/%s%s", pre, k ? k + 1 : kernels[i], post);
  }
}

/* CMakeLists.txt for cmake and nsx: a static library, C99, includes-api public,
 * the <MODULE>_ATTRIBUTES_HEADER hook; nsx adds the nsx::<name> alias and
 * links the board flags target when NSX defines it. */
static void gen_cmake(const cg_options *o, const char *const *kernels, int nkernels, strbuf *cm) {
  char t[128], up[128];
  target_name(o, t, sizeof t);
  snprintf(up, sizeof up, "%s", t);
  upper(up);
  int nsx = o->module_type == AOTC_MODULE_NSX;
  cg_banner_hash(cm, o, "CMakeLists.txt");
  if (o->runtime_library) sb_printf(cm, "# Shared runtime library '%s' of aotc kernels: static library %s.\n", o->name, t);
  else if (nsx) sb_printf(cm, "# NSX module '%s': static library %s, alias nsx::%s.\n", o->name, t, t);
  else sb_printf(cm, "# CMake module '%s': static library %s.\n", o->name, t);
  sb_printf(cm, "cmake_minimum_required(VERSION 3.13)\nproject(%s C)\n\nadd_library(%s STATIC\n", t, t);
  list_sources(o, kernels, nkernels, "  ${CMAKE_CURRENT_LIST_DIR}/", "\n", cm);
  sb_printf(cm, ")\ntarget_include_directories(%s PUBLIC ${CMAKE_CURRENT_LIST_DIR}/includes-api\n"
                "  PRIVATE ${CMAKE_CURRENT_LIST_DIR}/src)\n"
                "target_compile_features(%s PUBLIC c_std_99)\n"
                "set_target_properties(%s PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)\n"
                "if(CMAKE_C_COMPILER_ID MATCHES \"GNU|Clang\")\n"
                "  target_compile_options(%s PRIVATE -Wall -Wextra -pedantic)\nendif()\n"
                "find_library(AOT_LIBM m)\nif(AOT_LIBM)\n  target_link_libraries(%s PUBLIC ${AOT_LIBM})\nendif()\n",
            t, t, t, t, t);
  if (o->shared_runtime) {
    char *rel = cg_shared_relpath(o);
    char lt[128];
    snprintf(lt, sizeof lt, "%s", cg_shared_name());
    for (char *p = lt; *p; p++)
      if (*p == '-' || *p == '.') *p = '_';
    sb_printf(cm, "# the kernels: the shared runtime library '%s' (prefix %s), built once\n"
                  "if(NOT TARGET %s)\n  add_subdirectory(\"${CMAKE_CURRENT_LIST_DIR}/%s\" \"${CMAKE_BINARY_DIR}/%s\")\nendif()\n"
                  "target_link_libraries(%s PUBLIC %s)\n",
              cg_shared_name(), cg_shared_prefix(), lt, rel, lt, t, lt);
    free(rel);
  }
  if (nsx)
    sb_printf(cm, "add_library(nsx::%s ALIAS %s)\nif(DEFINED NSX_BOARD_FLAGS_TARGET)\n"
                  "  target_link_libraries(%s PUBLIC ${NSX_BOARD_FLAGS_TARGET})\nendif()\n",
              t, t, t);
  sb_printf(cm, "# Placement hook: a header defining AOT_PUT_IN_<MEMORY>[_INIT] (and AOT_PRINTF),\n"
                "# force-included before the module's #ifndef defaults.\n"
                "if(DEFINED %s_ATTRIBUTES_HEADER)\n"
                "  if(EXISTS \"${%s_ATTRIBUTES_HEADER}\")\n"
                "    target_compile_options(%s PUBLIC \"-include${%s_ATTRIBUTES_HEADER}\")\n"
                "  else()\n    message(WARNING \"%s: attributes header not found: ${%s_ATTRIBUTES_HEADER}\")\n"
                "  endif()\nendif()\n",
            up, up, t, up, o->name, up);
  if (o->test.enabled)
    sb_printf(cm, "\n# host test program: runs the test case, prints PASS/FAIL\n"
                  "if(NOT CMAKE_CROSSCOMPILING)\n  add_executable(aot_test ${CMAKE_CURRENT_LIST_DIR}/src/aot_test_main.c)\n"
                  "  target_link_libraries(aot_test PRIVATE %s)\nendif()\n",
              t);
}

/* module.mk for neuralSPOT's make system (and any make build). */
static void gen_module_mk(const cg_options *o, const char *const *kernels, int nkernels, strbuf *mk) {
  char t[128], up[128];
  target_name(o, t, sizeof t);
  snprintf(up, sizeof up, "%s", t);
  upper(up);
  sb_printf(mk, "# module.mk - generated by aotc %s from %s: module '%s'.\n"
                "# Include it from a Makefile; it defines %s_DIR, %s_SOURCES, %s_INCLUDES and appends\n"
                "# to neuralSPOT's sources / includes_api variables.\n",
            AOTC_VERSION_STRING, comment_text(cg_model_file(o)), o->name, up, up, up);
  sb_printf(mk, "%s_DIR := $(patsubst %%/,%%,$(dir $(lastword $(MAKEFILE_LIST))))\n%s_SOURCES :=", up, up);
  strbuf pre = {0};
  sb_printf(&pre, " \\\n  $(%s_DIR)/", up);
  list_sources(o, kernels, nkernels, pre.s, "", mk);
  sb_free(&pre);
  sb_printf(mk, "\n%s_INCLUDES := $(%s_DIR)/includes-api $(%s_DIR)/src\n"
                "sources += $(%s_SOURCES)\nincludes_api += $(%s_DIR)/includes-api\n"
                "local_includes += $(%s_DIR)/src\n",
            up, up, up, up, up, up);
  if (o->shared_runtime) {
    char *rel = cg_shared_relpath(o);
    char lu[128];
    snprintf(lu, sizeof lu, "%s", cg_shared_name());
    for (char *p = lu; *p; p++) *p = (*p == '-' || *p == '.') ? '_' : (char)toupper((unsigned char)*p);
    sb_printf(mk, "# the kernels: the shared runtime library '%s' (prefix %s), included once\n"
                  "ifndef %s_DIR\ninclude $(%s_DIR)/%s/module.mk\nendif\n",
              cg_shared_name(), cg_shared_prefix(), lu, up, rel);
    free(rel);
  }
}

static void gen_zephyr(const cg_options *o, const char *const *kernels, int nkernels, strbuf *yml, strbuf *cm,
                       strbuf *kc) {
  char t[128], up[128];
  target_name(o, t, sizeof t);
  snprintf(up, sizeof up, "%s", t);
  upper(up);
  sb_printf(yml, "# zephyr/module.yml - generated by aotc %s: Zephyr module '%s'.\nname: %s\nbuild:\n"
                 "  cmake: zephyr\n  kconfig: zephyr/Kconfig\n",
            AOTC_VERSION_STRING, o->name, t);
  sb_printf(cm, "# Zephyr build of module '%s' (generated by aotc %s).\nif(CONFIG_%s)\n  zephyr_library_named(%s)\n"
                "  set(%s_ROOT ${CMAKE_CURRENT_LIST_DIR}/..)\n  zephyr_library_sources(\n",
            o->name, AOTC_VERSION_STRING, up, t, up);
  strbuf pre = {0};
  sb_printf(&pre, "    ${%s_ROOT}/", up);
  list_sources(o, kernels, nkernels, pre.s, "\n", cm);
  sb_free(&pre);
  sb_printf(cm, "  )\n  zephyr_include_directories(${%s_ROOT}/includes-api)\n"
                "  zephyr_library_include_directories(${%s_ROOT}/src)\nendif()\n",
            up, up);
  sb_printf(kc, "# Kconfig of module '%s' (generated by aotc %s).\nconfig %s\n\tbool \"%s: model compiled by aotc\"\n"
                "\tdefault n\n\thelp\n\t  Builds the C module generated by aotc from %s.\n",
            o->name, AOTC_VERSION_STRING, up, o->name, comment_text(cg_model_file(o)));
}

static void gen_nsx_yaml(const cg_options *o, strbuf *y) {
  char t[128];
  target_name(o, t, sizeof t);
  sb_printf(y, "# nsx-module.yaml - NSX module manifest, generated by aotc %s from %s.\nschema_version: 1\n\n"
               "module:\n  name: %s\n  type: algorithm\n  version: \"%s\"\n\nsupport:\n  ambiqsuite: true\n  zephyr: false\n\n"
               "summary: >-\n  Model module compiled by aotc (%s).\n\n"
               "build:\n  cmake:\n    package: %s\n    targets:\n      - \"nsx::%s\"\n\n"
               "depends:\n  required: []\n  optional: []\n\n"
               "compatibility:\n  boards:\n    - \"*\"\n  socs:\n    - apollo3p\n    - apollo4p\n    - apollo4l\n"
               "    - apollo510\n    - apollo510l\n    - apollo510b\n    - apollo5b\n    - apollo330P\n    - atomiq110\n"
               "  toolchains:\n    - arm-none-eabi-gcc\n    - armclang\n    - atfe\n",
            AOTC_VERSION_STRING, comment_text(cg_model_file(o)), o->name, o->model_version ? o->model_version : "v1.0.0",
            o->name, t, t);
}

static void xml_text(strbuf *b, const char *s) {
  for (const char *p = s; *p; p++) {
    if (*p == '<') sb_puts(b, "&lt;");
    else if (*p == '>') sb_puts(b, "&gt;");
    else if (*p == '&') sb_puts(b, "&amp;");
    else if (*p == '"') sb_puts(b, "&quot;");
    else if ((unsigned char)*p >= 32 && (unsigned char)*p < 127) sb_putc(b, *p);
  }
}

/* CMSIS-Pack description: one component with the module's files. */
static void gen_pdsc(const cg_options *o, const char *const *kernels, int nkernels, strbuf *x) {
  sb_puts(x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  sb_printf(x, "<!-- generated by aotc %s from ", AOTC_VERSION_STRING);
  xml_text(x, comment_text(cg_model_file(o)));
  sb_puts(x, " -->\n<package schemaVersion=\"1.7.7\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema-instance\" "
             "xs:noNamespaceSchemaLocation=\"https://raw.githubusercontent.com/Open-CMSIS-Pack/Open-CMSIS-Pack-Spec/v1.7.7/schema/PACK.xsd\">\n"
             "  <vendor>Ambiq</vendor>\n  <name>");
  xml_text(x, o->name);
  sb_puts(x, "</name>\n  <description>Model module compiled by aotc</description>\n  <url></url>\n"
             "  <releases>\n    <release version=\"1.0.0\">generated</release>\n  </releases>\n"
             "  <components>\n    <component Cclass=\"Machine Learning\" Cgroup=\"");
  xml_text(x, o->name);
  sb_puts(x, "\" Cversion=\"1.0.0\">\n      <description>model inference module</description>\n      <files>\n"
             "        <file category=\"include\" name=\"includes-api/\"/>\n");
  strbuf src = {0};
  list_sources(o, kernels, nkernels, "        <file category=\"source\" name=\"", "\"/>\n", &src);
  sb_puts(x, src.s);
  sb_free(&src);
  sb_puts(x, "      </files>\n    </component>\n  </components>\n</package>\n");
}

int gen_build_glue(const ir_graph *g, const cg_options *o, const char *const *kernels, int nkernels,
                   const char *dir, aotc_diag *d) {
  (void)g;
  strbuf a = {0}, b = {0}, c = {0};
  int rc = 0;
  switch (o->module_type) {
    case AOTC_MODULE_CMAKE:
      gen_cmake(o, kernels, nkernels, &a);
      rc = write_text(dir, "CMakeLists.txt", a.s, o->prefix, d);
      break;
    case AOTC_MODULE_NSX:
      gen_cmake(o, kernels, nkernels, &a);
      gen_nsx_yaml(o, &b);
      rc = write_text(dir, "CMakeLists.txt", a.s, o->prefix, d) || write_text(dir, "nsx-module.yaml", b.s, o->prefix, d);
      break;
    case AOTC_MODULE_ZEPHYR: {
      gen_zephyr(o, kernels, nkernels, &a, &b, &c);
      char *zd = xasprintf("%s/zephyr", dir);
      rc = mkdir(zd, 0755) != 0 ? diag_error(d, "cannot create '%s'", zd) : 0;
      free(zd);
      rc = rc || write_text(dir, "zephyr/module.yml", a.s, o->prefix, d) ||
           write_text(dir, "zephyr/CMakeLists.txt", b.s, o->prefix, d) || write_text(dir, "zephyr/Kconfig", c.s, o->prefix, d);
      break;
    }
    case AOTC_MODULE_CMSIS_PACK: {
      gen_pdsc(o, kernels, nkernels, &a);
      char *n = xasprintf("Ambiq.%s.pdsc", o->name);
      rc = write_text(dir, n, a.s, o->prefix, d);
      free(n);
      break;
    }
    default: /* neuralspot */
      gen_module_mk(o, kernels, nkernels, &a);
      rc = write_text(dir, "module.mk", a.s, o->prefix, d);
      break;
  }
  sb_free(&a);
  sb_free(&b);
  sb_free(&c);
  return rc ? -1 : 0;
}
