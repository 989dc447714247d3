/* util.c - diagnostics, memory, strings, dtypes, files. */
#include "aotc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Messages are one line whatever the model's names contain: control
 * characters become spaces. */
static void one_line(char *s) {
  for (; *s; s++)
    if ((unsigned char)*s < 32 || *s == 127) *s = ' ';
}

/* The longest quoted span ('...') of s of more than `keep` characters: its
 * start (after the quote) and length, or -1. */
static long longest_quoted(const char *s, size_t keep, size_t *len) {
  long best = -1;
  size_t bl = keep;
  for (const char *p = strchr(s, '\''); p; ) {
    const char *q = strchr(p + 1, '\'');
    if (!q) break;
    if ((size_t)(q - p - 1) > bl) {
      bl = (size_t)(q - p - 1);
      best = p + 1 - s;
    }
    p = strchr(q + 1, '\'');
  }
  *len = bl;
  return best;
}

/* Fits a message into cap bytes keeping its reason: names in quotes (tensor,
 * op, file names from the model) are shortened to their first and last
 * characters around "..." until the message fits; a message that is still
 * too long keeps its beginning and its end (where the fix is). */
static void fit_message(char *s, size_t n, char *out, size_t cap) {
  while (n + 1 > cap) {
    size_t ql;
    long at = longest_quoted(s, 40, &ql);
    if (at < 0) break;
    /* keep 24 + "..." + 13 characters of the name */
    size_t cut = ql - 40;
    memmove(s + at + 24, "...", 3);
    memmove(s + at + 27, s + at + 27 + cut, n - ((size_t)at + 27 + cut) + 1);
    n -= cut;
  }
  if (n + 1 <= cap) {
    memcpy(out, s, n + 1);
    return;
  }
  size_t head = (cap - 6) / 2, tail = cap - 6 - head;
  memcpy(out, s, head);
  memcpy(out + head, " ... ", 5);
  memcpy(out + head + 5, s + n - tail, tail);
  out[head + 5 + tail] = 0;
}

static int diag_set(aotc_diag *d, int code, const char *fmt, va_list ap) {
  if (d) {
    strbuf b = {0};
    sb_vprintf(&b, fmt, ap);
    if (!b.s) sb_puts(&b, "");
    fit_message(b.s, b.len, d->msg, sizeof d->msg);
    sb_free(&b);
    one_line(d->msg);
    d->code = code;
  }
  return -1;
}

void diag_replace(aotc_diag *d, const char *from, const char *to) {
  if (!d || !from || !*from || !to || !strstr(d->msg, from)) return;
  strbuf b = {0};
  size_t fl = strlen(from);
  for (const char *p = d->msg; *p;) {
    const char *q = strstr(p, from);
    if (!q) {
      sb_puts(&b, p);
      break;
    }
    sb_printf(&b, "%.*s%s", (int)(q - p), p, to);
    p = q + fl;
  }
  fit_message(b.s, b.len, d->msg, sizeof d->msg);
  sb_free(&b);
}

/* Body of the variadic diag_* functions that set code CODE and return -1. */
#define DIAG_SET_VARIADIC(d, code, fmt) \
  do {                                  \
    va_list ap;                         \
    va_start(ap, fmt);                  \
    diag_set(d, code, fmt, ap);         \
    va_end(ap);                         \
    return -1;                          \
  } while (0)

int diag_error(aotc_diag *d, const char *fmt, ...) { DIAG_SET_VARIADIC(d, 1, fmt); }

int diag_unsupported(aotc_diag *d, const char *fmt, ...) { DIAG_SET_VARIADIC(d, 2, fmt); }

void diag_warn(aotc_diag *d, const char *fmt, ...) {
  va_list ap;
  if (d && d->quiet) return;
  va_start(ap, fmt);
  fputs("aotc: warning: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  if (d) d->nwarn++;
}

void (*aotc_fatal_cleanup)(void);

static void oom(void) {
  fputs("aotc: out of memory\n", stderr);
  if (aotc_fatal_cleanup) aotc_fatal_cleanup();  /* e.g. convert's temporary directory */
  abort();
}

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) oom();
  return p;
}

void *xcalloc(size_t n, size_t sz) {
  void *p = calloc(n ? n : 1, sz ? sz : 1);
  if (!p) oom();
  return p;
}

void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) oom();
  return q;
}

char *xstrdup(const char *s) { return s ? xstrndup(s, strlen(s)) : NULL; }

char *xstrndup(const char *s, size_t n) {
  char *r = xmalloc(n + 1);
  memcpy(r, s, n);
  r[n] = 0;
  return r;
}

char *xasprintf(const char *fmt, ...) {
  strbuf b = {0};
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&b, fmt, ap);
  va_end(ap);
  if (!b.s) return xstrdup("");
  return b.s;
}

static void sb_reserve(strbuf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + extra + 1) cap *= 2;
  b->s = xrealloc(b->s, cap);
  b->cap = cap;
}

void sb_putc(strbuf *b, char c) {
  sb_reserve(b, 1);
  b->s[b->len++] = c;
  b->s[b->len] = 0;
}

void sb_puts(strbuf *b, const char *s) {
  size_t n = strlen(s);
  sb_reserve(b, n);
  memcpy(b->s + b->len, s, n + 1);
  b->len += n;
}

void sb_vprintf(strbuf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return;
  sb_reserve(b, (size_t)n);
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}

void sb_printf(strbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(b, fmt, ap);
  va_end(ap);
}

void sb_free(strbuf *b) {
  free(b->s);
  b->s = NULL;
  b->len = b->cap = 0;
}

static const struct {
  const char *name, *ctype;
  size_t size;
} dtypes[DT_COUNT_] = {
    [DT_FLOAT32] = {"float32", "float", 4},   [DT_FLOAT16] = {"float16", "uint16_t", 2},
    [DT_INT32] = {"int32", "int32_t", 4},     [DT_UINT8] = {"uint8", "uint8_t", 1},
    [DT_INT64] = {"int64", "int64_t", 8},     [DT_STRING] = {"string", NULL, 0},
    [DT_BOOL] = {"bool", "uint8_t", 1},       [DT_INT16] = {"int16", "int16_t", 2},
    [DT_COMPLEX64] = {"complex64", NULL, 8},  [DT_INT8] = {"int8", "int8_t", 1},
    [DT_FLOAT64] = {"float64", "double", 8},  [DT_COMPLEX128] = {"complex128", NULL, 16},
    [DT_UINT64] = {"uint64", "uint64_t", 8},  [DT_RESOURCE] = {"resource", NULL, 0},
    [DT_VARIANT] = {"variant", NULL, 0},      [DT_UINT32] = {"uint32", "uint32_t", 4},
    [DT_UINT16] = {"uint16", "uint16_t", 2},  [DT_INT4] = {"int4", NULL, 0},
};

const char *dtype_name(int dt) {
  return (dt >= 0 && dt < DT_COUNT_ && dtypes[dt].name) ? dtypes[dt].name : "dtype?";
}
const char *dtype_ctype(int dt) {
  return (dt >= 0 && dt < DT_COUNT_) ? dtypes[dt].ctype : NULL;
}
size_t dtype_size(int dt) { return (dt >= 0 && dt < DT_COUNT_) ? dtypes[dt].size : 0; }
int dtype_is_int(int dt) {
  switch (dt) {
    case DT_INT8: case DT_UINT8: case DT_INT16: case DT_INT32: case DT_INT64:
    case DT_UINT16: case DT_UINT32: case DT_UINT64: case DT_BOOL:
      return 1;
    default:
      return 0;
  }
}

int read_file_all(const char *path, uint8_t **data, size_t *len, aotc_diag *d) {
  FILE *f = fopen(path, "rb");
  if (!f) return diag_error(d, "cannot open '%s': %s", path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = xmalloc(cap);
  for (;;) {
    if (n == cap) buf = xrealloc(buf, cap *= 2);
    size_t r = fread(buf + n, 1, cap - n, f);
    n += r;
    if (r == 0) break;
  }
  int err = ferror(f);
  fclose(f);
  if (err) {
    free(buf);
    return diag_error(d, "cannot read '%s'", path);
  }
  *data = buf;
  *len = n;
  return 0;
}

int read_regular_file(const char *path, size_t max, const char *what, uint8_t **data, size_t *len,
                      aotc_diag *d) {
  FILE *f = fopen(path, "rb");
  if (!f) return diag_error(d, "cannot open %s '%s': %s", what, path, strerror(errno));
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    fclose(f);
    return diag_error(d, "%s '%s' is not a regular file; give the path of a file", what, path);
  }
  if ((uint64_t)st.st_size > (uint64_t)max) {
    fclose(f);
    return diag_error(d, "%s '%s' has %llu bytes, more than the limit of %zu bytes", what, path,
                      (unsigned long long)st.st_size, max);
  }
  size_t n = (size_t)st.st_size;
  uint8_t *buf = xmalloc(n + 1);
  size_t r = fread(buf, 1, n + 1, f); /* n + 1: notices a file that grew */
  int err = ferror(f);
  fclose(f);
  if (err || r > n) {
    free(buf);
    return diag_error(d, err ? "cannot read %s '%s'" : "%s '%s' changed while being read", what,
                      path);
  }
  *data = buf;
  *len = r;
  return 0;
}

int write_file_all(const char *path, const void *data, size_t len, aotc_diag *d) {
  FILE *f = fopen(path, "wb");
  if (!f) return diag_error(d, "cannot create '%s': %s", path, strerror(errno));
  size_t w = fwrite(data, 1, len, f);
  if (fclose(f) != 0 || w != len) return diag_error(d, "cannot write '%s'", path);
  return 0;
}

void c_identifier(const char *in, char *out, size_t maxlen) {
  size_t n = 0;
  int last_us = 0;
  if (!in) in = "";
  if (in[0] >= '0' && in[0] <= '9' && n < maxlen) { out[n++] = 't'; }
  for (const char *p = in; *p && n < maxlen; p++) {
    char c = *p;
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (ok) {
      out[n++] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
      last_us = 0;
    } else if (!last_us && n > 0) {
      out[n++] = '_';
      last_us = 1;
    }
  }
  while (n > 0 && out[n - 1] == '_') n--;
  if (n == 0 && maxlen > 0) out[n++] = 't';
  out[n] = 0;
}
