/* codegen.h - writes a module directory for a planned IR graph. */
#ifndef AOTC_CODEGEN_H
#define AOTC_CODEGEN_H

#include "../ir/ir.h"

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

typedef struct cg_options {
  const char *prefix;         /* symbol prefix, e.g. "aot" */
  const char *name;           /* library name, e.g. "aot_model" */
  const char *model_path;     /* for the README */
  const char *runtime_dir;    /* where runtime/ kernels are */
  cg_test test;
  int dump_residency_json;
  int fused_gru_loops;        /* for the README */
} cg_options;

/* Writes the module into dir (which must exist and be empty). Returns 0, or
 * -1 with the reason in d (e.g. an op without implementation). */
int codegen_module(const ir_graph *g, const cg_options *o, const char *dir, aotc_diag *d);

/* Lists every unsupported op of g in one message ("op 3 (FOO, int8 -> int8):
 * reason; op 7 ..."). Returns the count. */
int codegen_check_supported(const ir_graph *g, aotc_diag *d);

/* Renames the runtime prefix aot_/AOT_ at identifier starts in text to
 * prefix_/PREFIX_. Returns a malloc'd string. */
char *codegen_rename_prefix(const char *text, const char *prefix);

/* Total bytes of constants the module will hold in flash (used consts). */
size_t codegen_const_bytes(const ir_graph *g);

#endif
