/* aotc.h - types and helpers shared by every stage of the compiler. */
#ifndef AOTC_H
#define AOTC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- diagnostics ------------------------------------------------------ */

/* A diagnostic sink. Stages report the first fatal problem with diag_error()
 * and return non-zero; the command line prints msg as one line. A message
 * longer than msg keeps its reason and fix: quoted names are shortened first
 * ("'very_long...name_end'"), then the middle of the text. */
typedef struct aotc_diag {
  char msg[1024];
  int code;      /* exit code to use: 1 generic, 2 unsupported model */
  int nwarn;     /* warnings printed so far (to stderr) */
  int quiet;     /* suppress warnings */
} aotc_diag;

int diag_error(aotc_diag *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));          /* returns -1 */
int diag_unsupported(aotc_diag *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));          /* code 2, returns -1 */
void diag_warn(aotc_diag *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Replaces every occurrence of `from` in d->msg by `to` (e.g. a temporary
 * directory by the path the user gave). */
void diag_replace(aotc_diag *d, const char *from, const char *to);

/* ---- memory ------------------------------------------------------------ */
void *xmalloc(size_t n);               /* aborts on OOM; n==0 allowed */
extern void (*aotc_fatal_cleanup)(void);   /* run before that abort (NULL: none) */
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);          /* NULL -> NULL */
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Growable string buffer. */
typedef struct strbuf {
  char *s;
  size_t len, cap;
} strbuf;
void sb_putc(strbuf *b, char c);
void sb_puts(strbuf *b, const char *s);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *b, const char *fmt, va_list ap);
void sb_free(strbuf *b);

/* ---- element types ----------------------------------------------------- */
/* Values equal the .tflite schema's TensorType enum. */
typedef enum aotc_dtype {
  DT_FLOAT32 = 0,
  DT_FLOAT16 = 1,
  DT_INT32 = 2,
  DT_UINT8 = 3,
  DT_INT64 = 4,
  DT_STRING = 5,
  DT_BOOL = 6,
  DT_INT16 = 7,
  DT_COMPLEX64 = 8,
  DT_INT8 = 9,
  DT_FLOAT64 = 10,
  DT_COMPLEX128 = 11,
  DT_UINT64 = 12,
  DT_RESOURCE = 13,
  DT_VARIANT = 14,
  DT_UINT32 = 15,
  DT_UINT16 = 16,
  DT_INT4 = 17,
  DT_COUNT_
} aotc_dtype;

const char *dtype_name(int dt);      /* "int8", "float32", ...; "dtype?" if unknown */
const char *dtype_ctype(int dt);     /* "int8_t", "float", ...; NULL if none */
size_t dtype_size(int dt);           /* bytes per element; 0 if not a plain type */
int dtype_is_int(int dt);

/* ---- files -------------------------------------------------------------- */
/* Reads a whole file. Returns 0 and sets *data (free()) and *len, or -1 with
 * the reason in d. */
int read_file_all(const char *path, uint8_t **data, size_t *len, aotc_diag *d);
int write_file_all(const char *path, const void *data, size_t len, aotc_diag *d);
/* Reads a whole regular file of at most max bytes; refuses anything else
 * (a directory, a device such as /dev/zero, a FIFO, a larger file) with one
 * line naming `what`, the path and the limit. */
int read_regular_file(const char *path, size_t max, const char *what, uint8_t **data, size_t *len,
                      aotc_diag *d);

/* Identifier for C: letters, digits and '_' only, not starting with a digit,
 * at most maxlen chars. Writes into out (size >= maxlen+1). */
void c_identifier(const char *in, char *out, size_t maxlen);

#endif
