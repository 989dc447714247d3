/* runtime.c - `aotc runtime`: writes a shared kernel library module, one copy
 * of the runtime kernels that several modules in one firmware link against
 * (`aotc convert --module.runtime DIR`). The kernels are those the models
 * given need (each is compiled with the same options, e.g. the platform), or
 * every runtime kernel with --all. The library takes module.name,
 * module.prefix, module.path and module.type (cmake, nsx or neuralspot). */
#include "compile.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cmd_runtime(int argc, char **argv);

static int rfail(const aotc_diag *d) {
  fprintf(stderr, "aotc: error: %s\n", d->msg[0] ? d->msg : "failed");
  return d->code ? d->code : 1;
}

static int cmp_cstr_p(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every kernel source under the runtime's function directories, sorted. */
static int all_kernels(const char *rt, char ***out) {
  int n = 0;
  *out = NULL;
  DIR *top = opendir(rt);
  if (!top) return 0;
  struct dirent *de;
  while ((de = readdir(top)) != NULL) {
    if (de->d_name[0] == '.') continue;
    char *sub = xasprintf("%s/%s", rt, de->d_name);
    DIR *dd = opendir(sub);
    if (dd) {
      struct dirent *fe;
      while ((fe = readdir(dd)) != NULL) {
        size_t l = strlen(fe->d_name);
        if (l > 2 && strcmp(fe->d_name + l - 2, ".c") == 0) {
          *out = xrealloc(*out, (size_t)(n + 1) * sizeof(char *));
          (*out)[n++] = xasprintf("%s/%s", de->d_name, fe->d_name);
        }
      }
      closedir(dd);
    }
    free(sub);
  }
  closedir(top);
  if (n) qsort(*out, (size_t)n, sizeof(char *), cmp_cstr_p);
  return n;
}

struct lib_job {
  cg_options o;
  const char *const *kernels;
  int n;
};

static int write_lib(const char *dir, void *arg, aotc_diag *d) {
  struct lib_job *j = arg;
  if (mkdir(dir, 0755) != 0) return diag_error(d, "cannot create '%s'", dir);
  return codegen_runtime_library(&j->o, j->kernels, j->n, dir, d);
}

int cmd_runtime(int argc, char **argv) {
  aotc_config c;
  aotc_diag d = {0};
  int all = 0, nargs = 0, npos = 0, rc = 0;
  char **args = xcalloc((size_t)argc + 1, sizeof(char *)), **pos = NULL;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--all") == 0) all = 1;
    else args[nargs++] = argv[i];
  }
  config_init(&c);
  compile_register_switches(&c);
  if (config_parse_args(&c, nargs, args, &pos, &npos, &d) != 0) {
    free(args);
    free(pos);
    config_free(&c);
    return rfail(&d);
  }
  free(args);
  if (c.help) {
    puts("usage: aotc runtime --module.path PARENT --module.name N --module.prefix P [--module.type cmake|nsx|neuralspot]\n"
         "                    [platform and transform options] (--all | MODEL.tflite ...)\n"
         "Writes a kernel library module (<PARENT>/<N>/): the runtime kernels the models need\n"
         "(or all of them), renamed to prefix P, with its build glue and aotc-runtime.txt.\n"
         "Modules converted with --module.runtime <PARENT>/<N> call it and copy no kernels.");
    free(pos);
    config_free(&c);
    return 0;
  }
  if (c.module_type == AOTC_MODULE_ZEPHYR || c.module_type == AOTC_MODULE_CMSIS_PACK)
    rc = diag_error(&d, "module.type: aotc runtime writes cmake, nsx or neuralspot libraries; choose one of those");
  else if (c.module_runtime)
    rc = diag_error(&d, "module.runtime: a runtime library cannot itself use one; leave the option out");
  else if (!all && npos == 0)
    rc = diag_error(&d, "aotc runtime: no models; name the .tflite files whose kernels the library holds, or give --all");
  else if (all && npos > 0)
    rc = diag_error(&d, "aotc runtime: --all and models given; give one or the other");
  else if (codegen_export_is_zip(c.module_path))
    rc = diag_error(&d, "module.path '%s': a runtime library is a directory, not an archive; give a directory", c.module_path);
  const char *rt = compile_runtime_dir();
  char **kern = NULL;
  int nk = 0;
  if (rc == 0 && all) {
    nk = all_kernels(rt, &kern);
    if (nk == 0) rc = diag_error(&d, "runtime directory '%s' holds no kernels; set AOTC_RUNTIME_DIR to aotc's runtime/", rt);
  }
  if (rc == 0 && !all) {
    /* each model is converted into a scratch directory to learn its kernels */
    char tmpl[] = "/tmp/aotc-runtime-XXXXXX";
    char *tmp = mkdtemp(tmpl);
    if (!tmp) rc = diag_error(&d, "cannot create a temporary directory in /tmp");
    codegen_collect_kernels(1);
    for (int i = 0; i < npos && rc == 0; i++) {
      compiled cm;
      char *dir = xasprintf("%s/m%d", tmp, i);
      if (compile_model(&c, pos[i], 1, &cm, &d) != 0) {
        rc = -1;
      } else {
        rc = compile_write_module(&c, &cm, dir, &d);
        compiled_free(&cm);
      }
      remove_tree(dir);
      free(dir);
    }
    if (tmp) rmdir(tmp);
    const char *const *ks;
    nk = codegen_collected_kernels(&ks);
    kern = xcalloc((size_t)nk + 1, sizeof(char *));
    for (int i = 0; i < nk; i++) kern[i] = xstrdup(ks[i]);
    codegen_collect_kernels(0);
  }
  if (rc == 0) {
    struct lib_job j;
    memset(&j, 0, sizeof j);
    j.o.prefix = c.module_prefix ? c.module_prefix : "aot";
    j.o.name = c.module_name ? c.module_name : "helia_aot_nn";
    j.o.model_path = "runtime kernels";
    j.o.module_type = c.module_type;
    j.o.runtime_dir = rt;
    j.o.runtime_library = 1;
    j.kernels = (const char *const *)kern;
    j.n = nk;
    rc = codegen_export(c.module_path, j.o.name, c.force, write_lib, &j, &d);
    if (rc == 0) {
      char *t = codegen_export_target(c.module_path, j.o.name);
      printf("aotc: wrote runtime library (%d kernel%s) to %s\n", nk, nk == 1 ? "" : "s", t);
      free(t);
    }
  }
  for (int i = 0; i < nk; i++) free(kern[i]);
  free(kern);
  free(pos);
  config_free(&c);
  return rc == 0 ? 0 : rfail(&d);
}
