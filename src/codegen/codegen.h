/* codegen.h - writes a module directory for a planned IR graph. */
#ifndef AOTC_CODEGEN_H
#define AOTC_CODEGEN_H

#include "../ir/ir.h"
#include "../plan/plan.h"

/* One array of test data (stimulus or expected output), native dtype. */
typedef struct cg_array {
  int dtype;
  size_t nbytes;
  const void *data;
  int steps;        /* sequence mode: leading steps axis length, else 1 */
} cg_array;

typedef struct cg_test {
  int enabled;
  const cg_array *inputs;     /* g->nin entries */
  const cg_array *outputs;    /* g->nout entries (expected after the last iteration /
                                 each step in sequence mode) */
  double tolerance;           /* integer outputs: LSB */
  double float_tolerance;     /* float outputs: absolute (plus 1e-4 relative) */
  int num_iterations;
  int nfeedback;
  const int (*feedback)[2];   /* [output position, input position] */
  int sequence;               /* 1: inputs/outputs have a leading steps axis */
  int nresets;
  const int *resets;          /* steps before which init runs again */
} cg_test;

#define AOTC_VERSION_STRING "0.9.0"

typedef struct cg_options {
  const char *prefix;         /* symbol prefix, e.g. "aot" */
  const char *name;           /* module (directory, library) name, e.g. "helia_aot_nn" */
  const char *model_path;     /* only its file name reaches the module */
  const char *model_sha256;   /* hex digest of the model file, for the banner */
  const char *model_name, *model_version, *model_description; /* README */
  int module_type;            /* aotc_module_type (config.h) */
  const char *platform_name, *platform_cpu;
  const char *scratch_mem, *persistent_mem, *const_mem; /* memories of the regions (constants: at run time) */
  const char *const_src_mem;  /* where the constants are kept (== const_mem unless staged) */
  int const_staged;           /* constants copied from const_src_mem into const_mem at init */
  int auto_hydrate;           /* model_init hydrates the staged constants */
  const plan_const_place *const_place; /* constants placed by tensor id (NULL: none) */
  const plan_scratch_place *scratch_place; /* scratch storage in other memories (NULL: none) */
  int min_alignment;          /* arena alignment (>= 16) */
  int pack;                   /* cmsis_pack: module.path ends in .pack */
  int external_arenas;        /* memory.allocate_arenas false: the caller binds them */
  int nmems;                  /* the platform's memories and the bytes available (-1: no limit) */
  char mem_names[8][16];
  long long mem_sizes[8];
  const char *mem_source;     /* "platform X" / "memory.constraints": for the error */
  const char *runtime_dir;    /* where runtime/ kernels are */
  const char *shared_runtime; /* module.runtime: the kernel library's directory, or NULL */
  const char *module_parent;  /* module.path (for the library's relative path) */
  int runtime_library;        /* writing the kernel library itself (aotc runtime) */
  cg_test test;
  int dump_residency_json;
  int fused_gru_loops;        /* for the README */
} cg_options;

/* Storage of the strings codegen_options_from_config() sets. */
typedef struct cg_strings {
  char *platform_name, *platform_cpu, *scratch_mem, *persistent_mem, *const_mem, *const_src_mem, *sha256, *mem_source;
  plan_scratch_place scratch_place;
  plan_const_place const_place;
} cg_strings;
struct aotc_config;
/* Fills the platform, memory, model and module fields of o from the config
 * (codegen_config.c). Returns 0, or -1 with one line in d. */
int codegen_options_from_config(const struct aotc_config *c, cg_options *o, cg_strings *keep, aotc_diag *d);
void cg_strings_free(cg_strings *k);

/* Writes the module into dir (which must exist and be empty). Returns 0, or
 * -1 with the reason in d (e.g. an op without implementation). */
int codegen_module(const ir_graph *g, const cg_options *o, const char *dir, aotc_diag *d);

/* ---- export (codegen_export.c): where the module goes ----
 * module_path is the parent directory; the module is <module_path>/<name>/,
 * or, when module_path ends in .zip/.pack, a zip archive of <name>/. */
typedef int (*cg_write_fn)(const char *dir, void *arg, aotc_diag *d); /* creates dir */
/* 1 when module_path names an archive (.zip, .pack). */
int codegen_export_is_zip(const char *module_path);
/* The module's final location (malloc'd). */
char *codegen_export_target(const char *module_path, const char *name);
/* Refuses (one line naming the path) a target that exists without force, or
 * that is not a module aotc wrote. */
int codegen_export_check(const char *module_path, const char *name, int force, aotc_diag *d);
/* Checks, creates the parents, calls write() on a temporary directory beside
 * the target, adds the marker and renames it into place (or zips it). On
 * failure or SIGINT/SIGTERM/SIGHUP nothing but the previous state remains. */
int codegen_export(const char *module_path, const char *name, int force, cg_write_fn write,
                   void *arg, aotc_diag *d);

/* ---- memory over time (codegen_svg.c) ---- */
typedef struct cg_life {
  int t;               /* tensor, or -1 - op position for an operator's scratch */
  int first, last;     /* op positions */
  size_t offset, size; /* in the scratch arena */
} cg_life;
/* Lifetimes of the scratch arena's storage (malloc'd array, count returned). */
int cg_lifetimes(const ir_graph *g, cg_life **out);
/* The scratch arena over time as an SVG document. */
void gen_memory_svg(const ir_graph *g, strbuf *s);

/* Lists every unsupported op of g in one message ("op 3 (FOO, int8 -> int8):
 * reason; op 7 ..."). Returns the count. */
int codegen_check_supported(const ir_graph *g, aotc_diag *d);

/* Renames the runtime prefix aot_/AOT_ at identifier starts in text to
 * prefix_/PREFIX_. Returns a malloc'd string. */
char *codegen_rename_prefix(const char *text, const char *prefix);

/* Writes the shared kernel library (aotc runtime; codegen_shared.c) into dir:
 * the kernels (runtime-relative paths), every runtime header, the manifest
 * and the build glue of o->module_type, all with prefix o->prefix. */
int codegen_runtime_library(const cg_options *o, const char *const *kernels, int nkernels, const char *dir,
                            aotc_diag *d);

/* While on, codegen_module() records the runtime kernels each module needs
 * (sorted, no duplicates; off frees the list). */
void codegen_collect_kernels(int on);
int codegen_collected_kernels(const char *const **out);

/* Total bytes of constants the module will hold in flash (used consts). */
size_t codegen_const_bytes(const ir_graph *g);

#endif
