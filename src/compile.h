/* compile.h - the compiler pipeline shared by the commands: read, hooks, IR,
 * transforms, plan, and writing a module directory atomically. */
#ifndef AOTC_COMPILE_H
#define AOTC_COMPILE_H

#include "codegen/codegen.h"
#include "config/config.h"
#include "io/npy.h"
#include "ir/ir.h"
#include "litert/litert.h"

typedef struct compiled {
  litert_model *model;            /* after hooks */
  litert_model *model_orig;       /* as read (for the reference interpreter), or NULL */
  ir_graph *graph;
  int fused_gru_loops;
  int transform_changes;
} compiled;

/* Registers transform and hook names as config switches. */
void compile_register_switches(aotc_config *c);

/* Reads the model, runs enabled hooks, builds the IR of subgraph 0, runs the
 * enabled transforms and plans memory. When check_ops is set, reports every
 * unsupported op at once. */
int compile_model(const aotc_config *c, const char *model_path, int check_ops, compiled *out,
                  aotc_diag *d);
/* The same for a model already in memory (takes ownership of m, also on
 * failure); model_path may be NULL (then the reference interpreter sees the
 * hooked model). */
int compile_litert(const aotc_config *c, litert_model *m, const char *model_path, int check_ops,
                   compiled *out, aotc_diag *d);
void compiled_free(compiled *cm);

/* Converts per the config into c->module_path (atomic: temp dir + rename;
 * refuses an existing directory without force). */
int compile_convert(const aotc_config *c, aotc_diag *d);

/* Writes the module of an already compiled model into out_dir (which must not
 * exist). Test data come from the config (golden npz, or the reference
 * interpreter when none is given). */
int compile_write_module(const aotc_config *c, const compiled *cm, const char *out_dir,
                         aotc_diag *d);

/* rm -rf. */
int remove_tree(const char *path);

/* Directory with the runtime kernels (AOTC_RUNTIME_DIR env, else built-in). */
const char *compile_runtime_dir(void);

#endif
