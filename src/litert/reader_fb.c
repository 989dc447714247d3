/* reader_fb.c - the bounds-checked flatbuffer accessors of the .tflite reader.
 *
 * Every access of the reader goes through these helpers, which check each
 * offset, vtable, vector length and string against the file size before
 * reading (with memcpy, so unaligned input is fine). The first problem found
 * is reported as one line "malformed .tflite: <where>: <what> at offset N
 * ..." (<where> is the context the reader set). The total amount of data
 * decoded is bounded by a multiple of the file size (rd_charge) so that
 * shared or overlapping references cannot blow up memory, and the number of
 * decoded elements (tensors, operators, subgraphs, buffers, operator codes,
 * integer vector entries, quantization entries, string bytes) by the
 * absolute limits below, counted every time a shared table or vector is
 * referenced (rd_count_elems). rd_read_tables reads a vector of tables into
 * an array, element by element, for every table vector of the model. */
#include "reader_internal.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Decoded-element limits per model (every subgraph together). Real models
 * stay far below them (the largest shared model has a few hundred tensors);
 * a 100,000-operator chain still converts. */
static const struct {
  const char *what;
  uint64_t max;
} limits[7] = {
    {"tensors", 250000},           {"operators", 250000},
    {"subgraphs", 10000},          {"buffers, operator codes, metadata and signature entries", 500000},
    {"integer vector entries (shapes, op inputs and outputs)", 16000000},
    {"quantization parameters (scales and zero points)", 4000000},
    {"bytes of names and other strings", 64000000},
};

int rd_report(rd *r, int unsupported, const char *fmt, ...) {
  if (r->failed) return -1;
  char msg[700];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (unsupported)
    diag_unsupported(r->d, "unsupported .tflite: %s%s%s", r->ctx, r->ctx[0] ? ": " : "", msg);
  else
    diag_error(r->d, "malformed .tflite: %s%s%s; the file is damaged or not a TFLite flatbuffer, re-export it",
               r->ctx, r->ctx[0] ? ": " : "", msg);
  r->failed = 1;
  return -1;
}

void rd_setctx(rd *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->ctx, sizeof r->ctx, fmt, ap);
  va_end(ap);
}

int rd_charge(rd *r, uint64_t bytes) {
  r->used += bytes;
  if (r->used > r->budget)
    return rd_fail(r, "decoded data exceeds %llu bytes for a %zu-byte file (shared or overlapping "
                   "references?)", (unsigned long long)r->budget, r->n);
  return 0;
}

int rd_count_elems(rd *r, int kind, uint64_t n, const char *table) {
  r->count[kind] += n;
  if (r->count[kind] <= limits[kind].max) return 0;
  return rd_unsupported(r, "%s: the model decodes to more than %llu %s (aotc's limit per model; "
                        "tables shared by many entries?)", table,
                        (unsigned long long)limits[kind].max, limits[kind].what);
}

/* ---- tables --------------------------------------------------------------- */

int rd_tab_at(rd *r, uint64_t pos, tab *t, const char *what) {
  t->what = what;
  if (pos > r->n || r->n - pos < 4)
    return rd_fail(r, "%s table at offset %llu runs past end of file (size %zu)", what,
                   (unsigned long long)pos, r->n);
  if (rd_charge(r, 16)) return -1;
  int32_t so = (int32_t)rd_ld32(r->p + pos);
  int64_t vt = (int64_t)pos - (int64_t)so;
  if (vt < 0 || (uint64_t)vt > r->n || r->n - (uint64_t)vt < 4)
    return rd_fail(r, "%s table at offset %llu has its vtable at offset %lld, outside the file "
                   "(size %zu)", what, (unsigned long long)pos, (long long)vt, r->n);
  unsigned vs = rd_ld16(r->p + vt), ts = rd_ld16(r->p + vt + 2);
  if (vs < 4 || (vs & 1) || r->n - (uint64_t)vt < vs)
    return rd_fail(r, "%s table at offset %llu: vtable at offset %lld has bad size %u (file size %zu)",
                   what, (unsigned long long)pos, (long long)vt, vs, r->n);
  if (ts < 4 || r->n - pos < ts)
    return rd_fail(r, "%s table at offset %llu: table size %u runs past end of file (size %zu)",
                   what, (unsigned long long)pos, ts, r->n);
  t->pos = (size_t)pos;
  t->vt = (size_t)vt;
  t->vtsize = vs;
  t->tsize = ts;
  return 0;
}

/* Offset of field id inside the table, 0 if absent; -1 (after fail) if the
 * field of `size` bytes does not fit in the table. */
static long fld(rd *r, const tab *t, int id, unsigned size, const char *name) {
  unsigned o = 4u + 2u * (unsigned)id;
  if (o + 2 > t->vtsize) return 0;
  unsigned fo = rd_ld16(r->p + t->vt + o);
  if (fo == 0) return 0;
  if (fo < 4 || fo + size > t->tsize)
    return rd_fail(r, "%s table at offset %zu: field '%s' (offset %u, %u bytes) lies outside the "
                   "table (%u bytes)", t->what, t->pos, name, fo, size, t->tsize);
  return (long)fo;
}

/* The little-endian bits of a field of size 1, 4 or 8 bytes: 1 present
 * (*v set), 0 absent, -1 error. */
static int get_bits(rd *r, const tab *t, int id, unsigned size, uint64_t *v, const char *name) {
  long fo = fld(r, t, id, size, name);
  if (fo <= 0) return (int)fo;
  const uint8_t *p = r->p + t->pos + (size_t)fo;
  *v = size == 1 ? p[0] : size == 4 ? rd_ld32(p) : rd_ld64(p);
  return 1;
}

/* A byte field as an int, sign-extended if is_signed. */
static int get_byte(rd *r, const tab *t, int id, int is_signed, int def, int *out,
                    const char *name) {
  uint64_t v;
  int k = get_bits(r, t, id, 1, &v, name);
  *out = k <= 0 ? def : is_signed ? (int)(int8_t)v : (int)v;
  return k < 0 ? -1 : 0;
}

int rd_get_u8(rd *r, const tab *t, int id, int def, int *out, const char *name) {
  return get_byte(r, t, id, 0, def, out, name);
}

int rd_get_i8(rd *r, const tab *t, int id, int def, int *out, const char *name) {
  return get_byte(r, t, id, 1, def, out, name);
}

int rd_get_u64(rd *r, const tab *t, int id, uint64_t def, uint64_t *out, const char *name) {
  int k = get_bits(r, t, id, 8, out, name);
  if (k == 0) *out = def;
  return k < 0 ? -1 : 0;
}

/* A 4-byte field of any type (def and out point to 4 bytes). */
static int get_word(rd *r, const tab *t, int id, const void *def, void *out, const char *name) {
  uint64_t v;
  int k = get_bits(r, t, id, 4, &v, name);
  uint32_t u = (uint32_t)v;
  memcpy(out, k > 0 ? (const void *)&u : def, 4);
  return k < 0 ? -1 : 0;
}

int rd_get_u32(rd *r, const tab *t, int id, uint32_t def, uint32_t *out, const char *name) {
  return get_word(r, t, id, &def, out, name);
}

int rd_get_i32(rd *r, const tab *t, int id, int32_t def, int32_t *out, const char *name) {
  return get_word(r, t, id, &def, out, name);
}

int rd_get_f32(rd *r, const tab *t, int id, float def, float *out, const char *name) {
  return get_word(r, t, id, &def, out, name);
}

/* Follows an offset field: 1 present (*target set), 0 absent, -1 error. */
static int get_ref(rd *r, const tab *t, int id, uint64_t *target, const char *name) {
  long fo = fld(r, t, id, 4, name);
  if (fo <= 0) return (int)fo;
  uint64_t at = (uint64_t)t->pos + (uint64_t)fo;
  uint64_t tg = at + rd_ld32(r->p + at);
  if (tg >= r->n)
    return rd_fail(r, "%s at offset %llu points to offset %llu, past end of file (size %zu)", name,
                   (unsigned long long)at, (unsigned long long)tg, r->n);
  *target = tg;
  return 1;
}

/* A vector: 1 present (*data = first element, *count), 0 absent, -1 error. */
static int vec_at(rd *r, uint64_t pos, size_t esz, uint64_t *data, uint32_t *count,
                  const char *name) {
  if (pos > r->n || r->n - pos < 4)
    return rd_fail(r, "%s at offset %llu runs past end of file (size %zu)", name,
                   (unsigned long long)pos, r->n);
  uint32_t c = rd_ld32(r->p + pos);
  uint64_t bytes = (uint64_t)c * esz;
  if (bytes > r->n - pos - 4)
    return rd_fail(r, "%s at offset %llu (%u entries of %zu bytes) runs past end of file (size %zu)",
                   name, (unsigned long long)pos, c, esz, r->n);
  if (rd_charge(r, bytes + 4)) return -1;
  *data = pos + 4;
  *count = c;
  return 1;
}

int rd_get_vec(rd *r, const tab *t, int id, size_t esz, uint64_t *data, uint32_t *count,
                   const char *name) {
  uint64_t tg;
  int k = get_ref(r, t, id, &tg, name);
  if (k <= 0) {
    *count = 0;
    *data = 0;
    return k;
  }
  return vec_at(r, tg, esz, data, count, name);
}

/* A string field: *out is NULL if absent, else a NUL-terminated copy. */
int rd_get_str(rd *r, const tab *t, int id, char **out, const char *name) {
  uint64_t data;
  uint32_t n;
  *out = NULL;
  int k = rd_get_vec(r, t, id, 1, &data, &n, name);
  if (k <= 0) return k;
  if (rd_count_elems(r, LIM_STRBYTES, (uint64_t)n + 1, name)) return -1;
  *out = xstrndup((const char *)r->p + data, n);
  return 0;
}

/* A sub-table field: 1 present, 0 absent, -1 error. */
int rd_get_tab(rd *r, const tab *t, int id, tab *sub, const char *name) {
  uint64_t tg;
  int k = get_ref(r, t, id, &tg, name);
  if (k <= 0) return k;
  return rd_tab_at(r, tg, sub, name) ? -1 : 1;
}

/* Element i of a vector of tables. */
int rd_vec_tab(rd *r, uint64_t data, uint32_t i, tab *sub, const char *name) {
  uint64_t at = data + 4ull * i;
  return rd_tab_at(r, at + rd_ld32(r->p + at), sub, name);
}

/* A vector of int32 copied out; *out NULL if absent or empty. */
int rd_get_i32vec(rd *r, const tab *t, int id, int32_t **out, int *n, int *present,
                      const char *name) {
  uint64_t data;
  uint32_t c;
  *out = NULL;
  *n = 0;
  int k = rd_get_vec(r, t, id, 4, &data, &c, name);
  if (present) *present = k > 0;
  if (k <= 0) return k;
  if (c > (uint32_t)INT_MAX / 4) return rd_fail(r, "%s has too many entries (%u)", name, c);
  if (rd_count_elems(r, LIM_INTS, c, name)) return -1;
  if (c) {
    int32_t *v = xmalloc(sizeof *v * c);
    for (uint32_t i = 0; i < c; i++) {
      uint32_t u = rd_ld32(r->p + data + 4ull * i);
      memcpy(&v[i], &u, sizeof u);
    }
    *out = v;
  }
  *n = (int)c;
  return 0;
}

const char *rd_printable(const char *s, char *buf, size_t len) {
  size_t k = 0;
  if (!s) s = "";
  for (; *s && k + 4 < len && k < 60; s++) {
    unsigned char c = (unsigned char)*s;
    buf[k++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
  }
  if (*s && k + 4 <= len) {
    memcpy(buf + k, "...", 3);
    k += 3;
  }
  buf[k] = 0;
  return buf;
}

const char *rd_fmt_shape(const int32_t *s, int rank, char *buf, size_t len) {
  size_t k = 0;
  buf[0] = 0;
  k += (size_t)snprintf(buf, len, "[");
  for (int i = 0; i < rank && k < len; i++)
    k += (size_t)snprintf(buf + k, len - k, "%s%d", i ? "," : "", (int)s[i]);
  if (k < len) snprintf(buf + k, len - k, "]");
  return buf;
}

void *rd_read_tables(rd *r, const tab *t, int id, const char *vecname, int kind,
                     const char *tabname, const char *what, int sg, size_t esz, int *count,
                     rd_elem_fn fn, void *ctx) {
  uint64_t data;
  uint32_t n;
  if (rd_get_vec(r, t, id, 4, &data, &n, vecname) < 0) return NULL;
  if (rd_count_elems(r, kind, n, vecname)) return NULL;
  char *arr = xcalloc(n ? n : 1, esz);
  for (uint32_t i = 0; i < n; i++) {
    tab et;
    *count = (int)i + 1;
    if (what && sg >= 0) rd_setctx(r, "%s %u of subgraph %d", what, i, sg);
    else if (what) rd_setctx(r, "%s %u", what, i);
    if (rd_vec_tab(r, data, i, &et, tabname) || fn(r, &et, arr + esz * i, ctx, (int)i)) return arr;
  }
  *count = (int)n;
  return arr;
}
