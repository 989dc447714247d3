/* measure.h - instruction counts and per-operator profiles of a module under
 * QEMU for `aotc verify --count-instructions / --profile` (measure.c). */
#ifndef AOTC_MEASURE_H
#define AOTC_MEASURE_H
#include "compile.h"

#include <stdio.h>

#define MEASURE_MAX_OPS 60000 /* the plugin keeps 65536 region counts */

typedef struct measure_row {
  int id;               /* operator index in the model */
  char *type, *shapes, *kernel;
  uint64_t macs;
  long long instructions;
  int runs;
} measure_row;

typedef struct measure_info {
  measure_row *rows;
  int nrows;
  size_t arena_bytes;
  long long instructions, code_bytes, const_bytes;
} measure_info;

uint64_t measure_op_macs(const ir_graph *g, const ir_op *op);
/* Operator rows and arena size of the compiled graph (before it is freed). */
void measure_collect(const ir_graph *g, measure_info *mi);
void measure_free(measure_info *mi);
/* Writes the measuring main for a module with this prefix. */
int measure_write_main(const char *path, const char *prefix, int profile, aotc_diag *d);
/* Reads build-run.sh's insn_count.txt and size.txt in outdir and the
 * firmware's stdout (log). */
int measure_parse(measure_info *mi, const char *outdir, const char *log, const char *moddir,
                  const char *prefix, const char *target, int profile, aotc_diag *d);
void measure_print_profile(const measure_info *mi, const char *target, FILE *f);

#endif
