/* reader_internal.h - internal interface of the .tflite reader (reader.c,
 * reader_fb.c, reader_tensor.c, reader_ops.c).
 *
 * The reader state `rd` (the file, the first error, the context the error
 * line names, the decoded-data budget and the element counts), the table
 * handle `tab`, and the functions one file of the reader calls in another:
 * the bounds-checked flatbuffer accessors of reader_fb.c (every one returns
 * -1 after reporting the first problem, which wins), and the readers of the
 * model parts (buffers, operator codes, tensors: reader_tensor.c; operators
 * and their options: reader_ops.c) that reader.c's model walk calls. */
#ifndef AOTC_READER_INTERNAL_H
#define AOTC_READER_INTERNAL_H

#include "litert.h"

typedef struct rd {
  const uint8_t *p;
  size_t n;
  aotc_diag *d;
  int failed;
  char ctx[128];
  uint64_t used, budget; /* bytes decoded so far / allowed */
  uint64_t count[7];     /* decoded elements so far, per LIM_* kind */
} rd;

/* Kinds of decoded elements with a per-model limit (reader_fb.c). */
enum { LIM_TENSORS, LIM_OPS, LIM_SUBGRAPHS, LIM_TABLES, LIM_INTS, LIM_QUANT, LIM_STRBYTES };

/* A table: its position, its vtable and their sizes. */
typedef struct tab {
  size_t pos, vt;
  unsigned vtsize, tsize;
  const char *what;
} tab;

static inline uint16_t rd_ld16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t rd_ld32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t rd_ld64(const uint8_t *p) {
  return (uint64_t)rd_ld32(p) | ((uint64_t)rd_ld32(p + 4) << 32);
}

/* ---- reports (reader_fb.c) ------------------------------------------------ */

/* Reports the first problem found (later ones are dropped): a malformed
 * file, "malformed .tflite: <ctx>: <what>; ...", or with unsupported set a
 * valid file aotc cannot hold, "unsupported .tflite: <ctx>: <what>".
 * Returns -1. */
int rd_report(rd *r, int unsupported, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Reports a malformed file and evaluates to -1; a macro so that the compiler
 * sees the -1 at each call site (a variadic function is never inlined, and
 * -O2 would otherwise warn that outputs of the failing paths "may be used
 * uninitialized"). */
#define rd_fail(r, ...) (rd_report((r), 0, __VA_ARGS__), -1)
#define rd_unsupported(r, ...) rd_report((r), 1, __VA_ARGS__)
/* Sets the context the next report names ("tensor 3 of subgraph 0"). */
void rd_setctx(rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Charges bytes of decoded data against the budget. */
int rd_charge(rd *r, uint64_t bytes);
/* Counts n decoded elements of one kind; refuses past the limit. */
int rd_count_elems(rd *r, int kind, uint64_t n, const char *table);

/* ---- accessors (reader_fb.c) ---------------------------------------------- */

int rd_tab_at(rd *r, uint64_t pos, tab *t, const char *what);
/* Scalar field id of table t, def if absent. */
int rd_get_u8(rd *r, const tab *t, int id, int def, int *out, const char *name);
int rd_get_i8(rd *r, const tab *t, int id, int def, int *out, const char *name);
int rd_get_u32(rd *r, const tab *t, int id, uint32_t def, uint32_t *out, const char *name);
int rd_get_i32(rd *r, const tab *t, int id, int32_t def, int32_t *out, const char *name);
int rd_get_u64(rd *r, const tab *t, int id, uint64_t def, uint64_t *out, const char *name);
int rd_get_f32(rd *r, const tab *t, int id, float def, float *out, const char *name);
/* A vector: 1 present (*data = first element, *count), 0 absent, -1 error. */
int rd_get_vec(rd *r, const tab *t, int id, size_t esz, uint64_t *data, uint32_t *count,
               const char *name);
/* A string field: *out is NULL if absent, else a NUL-terminated copy. */
int rd_get_str(rd *r, const tab *t, int id, char **out, const char *name);
/* A sub-table field: 1 present, 0 absent, -1 error. */
int rd_get_tab(rd *r, const tab *t, int id, tab *sub, const char *name);
/* Element i of a vector of tables. */
int rd_vec_tab(rd *r, uint64_t data, uint32_t i, tab *sub, const char *name);
/* A vector of int32 copied out; *out NULL if absent or empty. */
int rd_get_i32vec(rd *r, const tab *t, int id, int32_t **out, int *n, int *present,
                  const char *name);

/* Reads one element of a vector of tables into elem (see rd_read_tables). */
typedef int (*rd_elem_fn)(rd *r, const tab *t, void *elem, void *ctx, int idx);
/* Reads vector field id of table t (vecname in messages), a vector of
 * tables of type tabname, into a new array of esz-byte elements (returned),
 * each read by fn; the tables count as `kind` against the limits. *count
 * follows the elements read so far, so that after a failure (r->failed set;
 * the array, if allocated, still returned) the model frees what was read.
 * Unless what is NULL, element i is read in the context "<what> <i>", or
 * "<what> <i> of subgraph <sg>" when sg >= 0. */
void *rd_read_tables(rd *r, const tab *t, int id, const char *vecname, int kind,
                     const char *tabname, const char *what, int sg, size_t esz, int *count,
                     rd_elem_fn fn, void *ctx);

/* ---- messages (reader_fb.c) ----------------------------------------------- */

/* A file-provided string made safe for a one-line message: printable ASCII
 * only, at most 60 characters. */
const char *rd_printable(const char *s, char *buf, size_t len);
/* "[1,2,3]" */
const char *rd_fmt_shape(const int32_t *s, int rank, char *buf, size_t len);

/* ---- model parts ------------------------------------------------------------ */

/* reader_tensor.c: Buffer, OperatorCode and Tensor tables (a tensor's
 * shape, type, buffer and quantization checked against the model's
 * buffers). */
int rd_read_buffer(rd *r, const tab *t, litert_buffer *b, int idx);
int rd_read_opcode(rd *r, const tab *t, litert_opcode *c, int idx);
int rd_read_tensor(rd *r, const tab *t, litert_tensor *x, const litert_model *m, int sg,
                   int idx);

/* reader_ops.c: tensor index lists, Operator tables with their options, and
 * the semantic checks of the options that later stages rely on. */
int rd_check_index_list(rd *r, const int32_t *v, int n, int ntensors, int allow_neg,
                        const char *what);
int rd_read_op(rd *r, const tab *t, litert_op *op, const litert_model *m,
               const litert_subgraph *g, int sg, int idx);
int rd_check_op_options(rd *r, const litert_model *m, const litert_op *op, int sg, int idx);

#endif
