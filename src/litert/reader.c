/* reader.c - bounds-checked .tflite (flatbuffer, schema v3) reader.
 *
 * Every access goes through the helpers below, which check each offset,
 * vtable, vector length and string against the file size before reading
 * (with memcpy, so unaligned input is fine). The first problem found is
 * reported as one line "malformed .tflite: <where>: <what> at offset N ...".
 * The structure is fixed (no recursion); the total amount of data decoded is
 * bounded by a multiple of the file size so that shared or overlapping
 * references cannot blow up memory, and the number of decoded elements
 * (tensors, operators, subgraphs, buffers, operator codes, integer vector
 * entries, quantization entries) by the absolute limits below, counted every
 * time a shared table or vector is referenced: memory is bounded by what is
 * decoded, whatever the file size. */
#include "litert.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct rd {
  const uint8_t *p;
  size_t n;
  aotc_diag *d;
  int failed;
  char ctx[128];
  uint64_t used, budget; /* bytes decoded so far / allowed */
  uint64_t count[7];     /* decoded elements so far, per LIM_* kind */
} rd;

/* Decoded-element limits per model (every subgraph together). Real models
 * stay far below them (the largest shared model has a few hundred tensors);
 * a 100,000-operator chain still converts. */
enum { LIM_TENSORS, LIM_OPS, LIM_SUBGRAPHS, LIM_TABLES, LIM_INTS, LIM_QUANT, LIM_STRBYTES };
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

typedef struct tab {
  size_t pos, vt;
  unsigned vtsize, tsize;
  const char *what;
} tab;

static void fail_report(rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail_report(rd *r, const char *fmt, ...) {
  if (!r->failed) {
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_error(r->d, "malformed .tflite: %s%s%s; the file is damaged or not a TFLite flatbuffer, re-export it",
               r->ctx, r->ctx[0] ? ": " : "", msg);
    r->failed = 1;
  }
}
/* Reports a malformed file (the first report wins) and evaluates to -1; a
 * macro so that the compiler sees the -1 at each call site (a variadic
 * function is never inlined, and -O2 would otherwise warn that outputs of the
 * failing paths "may be used uninitialized"). */
#define fail(...) (fail_report(__VA_ARGS__), -1)

static int unsupported(rd *r, const char *fmt, ...) {
  if (!r->failed) {
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_unsupported(r->d, "unsupported .tflite: %s%s%s", r->ctx, r->ctx[0] ? ": " : "", msg);
    r->failed = 1;
  }
  return -1;
}

static void setctx(rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void setctx(rd *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->ctx, sizeof r->ctx, fmt, ap);
  va_end(ap);
}

static int charge(rd *r, uint64_t bytes) {
  r->used += bytes;
  if (r->used > r->budget)
    return fail(r, "decoded data exceeds %llu bytes for a %zu-byte file (shared or overlapping "
                "references?)", (unsigned long long)r->budget, r->n);
  return 0;
}

static int unsupported(rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Counts n decoded elements of one kind; refuses past the limit. */
static int count_elems(rd *r, int kind, uint64_t n, const char *table) {
  r->count[kind] += n;
  if (r->count[kind] <= limits[kind].max) return 0;
  return unsupported(r, "%s: the model decodes to more than %llu %s (aotc's limit per model; "
                     "tables shared by many entries?)", table,
                     (unsigned long long)limits[kind].max, limits[kind].what);
}

static uint16_t ld16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static uint32_t ld32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static uint64_t ld64(const uint8_t *p) { return (uint64_t)ld32(p) | ((uint64_t)ld32(p + 4) << 32); }

/* ---- tables --------------------------------------------------------------- */

static int tab_at(rd *r, uint64_t pos, tab *t, const char *what) {
  t->what = what;
  if (pos > r->n || r->n - pos < 4)
    return fail(r, "%s table at offset %llu runs past end of file (size %zu)", what,
                (unsigned long long)pos, r->n);
  if (charge(r, 16)) return -1;
  int32_t so = (int32_t)ld32(r->p + pos);
  int64_t vt = (int64_t)pos - (int64_t)so;
  if (vt < 0 || (uint64_t)vt > r->n || r->n - (uint64_t)vt < 4)
    return fail(r, "%s table at offset %llu has its vtable at offset %lld, outside the file "
                "(size %zu)", what, (unsigned long long)pos, (long long)vt, r->n);
  unsigned vs = ld16(r->p + vt), ts = ld16(r->p + vt + 2);
  if (vs < 4 || (vs & 1) || r->n - (uint64_t)vt < vs)
    return fail(r, "%s table at offset %llu: vtable at offset %lld has bad size %u (file size %zu)",
                what, (unsigned long long)pos, (long long)vt, vs, r->n);
  if (ts < 4 || r->n - pos < ts)
    return fail(r, "%s table at offset %llu: table size %u runs past end of file (size %zu)",
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
  unsigned fo = ld16(r->p + t->vt + o);
  if (fo == 0) return 0;
  if (fo < 4 || fo + size > t->tsize)
    return fail(r, "%s table at offset %zu: field '%s' (offset %u, %u bytes) lies outside the "
                "table (%u bytes)", t->what, t->pos, name, fo, size, t->tsize);
  return (long)fo;
}

static int get_u8(rd *r, const tab *t, int id, int def, int *out, const char *name) {
  long fo = fld(r, t, id, 1, name);
  if (fo < 0) return -1;
  *out = fo ? r->p[t->pos + (size_t)fo] : def;
  return 0;
}

static int get_i8(rd *r, const tab *t, int id, int def, int *out, const char *name) {
  long fo = fld(r, t, id, 1, name);
  if (fo < 0) return -1;
  *out = fo ? (int)(int8_t)r->p[t->pos + (size_t)fo] : def;
  return 0;
}

static int get_u32(rd *r, const tab *t, int id, uint32_t def, uint32_t *out, const char *name) {
  long fo = fld(r, t, id, 4, name);
  if (fo < 0) return -1;
  *out = fo ? ld32(r->p + t->pos + (size_t)fo) : def;
  return 0;
}

static int get_i32(rd *r, const tab *t, int id, int32_t def, int32_t *out, const char *name) {
  uint32_t u;
  if (get_u32(r, t, id, (uint32_t)def, &u, name)) return -1;
  memcpy(out, &u, sizeof *out);
  return 0;
}

static int get_u64(rd *r, const tab *t, int id, uint64_t def, uint64_t *out, const char *name) {
  long fo = fld(r, t, id, 8, name);
  if (fo < 0) return -1;
  *out = fo ? ld64(r->p + t->pos + (size_t)fo) : def;
  return 0;
}

static int get_f32(rd *r, const tab *t, int id, float def, float *out, const char *name) {
  long fo = fld(r, t, id, 4, name);
  if (fo < 0) return -1;
  if (!fo) {
    *out = def;
  } else {
    uint32_t u = ld32(r->p + t->pos + (size_t)fo);
    memcpy(out, &u, sizeof *out);
  }
  return 0;
}

/* Follows an offset field: 1 present (*target set), 0 absent, -1 error. */
static int get_ref(rd *r, const tab *t, int id, uint64_t *target, const char *name) {
  long fo = fld(r, t, id, 4, name);
  if (fo <= 0) return (int)fo;
  uint64_t at = (uint64_t)t->pos + (uint64_t)fo;
  uint64_t tg = at + ld32(r->p + at);
  if (tg >= r->n)
    return fail(r, "%s at offset %llu points to offset %llu, past end of file (size %zu)", name,
                (unsigned long long)at, (unsigned long long)tg, r->n);
  *target = tg;
  return 1;
}

/* A vector: 1 present (*data = first element, *count), 0 absent, -1 error. */
static int vec_at(rd *r, uint64_t pos, size_t esz, uint64_t *data, uint32_t *count,
                  const char *name) {
  if (pos > r->n || r->n - pos < 4)
    return fail(r, "%s at offset %llu runs past end of file (size %zu)", name,
                (unsigned long long)pos, r->n);
  uint32_t c = ld32(r->p + pos);
  uint64_t bytes = (uint64_t)c * esz;
  if (bytes > r->n - pos - 4)
    return fail(r, "%s at offset %llu (%u entries of %zu bytes) runs past end of file (size %zu)",
                name, (unsigned long long)pos, c, esz, r->n);
  if (charge(r, bytes + 4)) return -1;
  *data = pos + 4;
  *count = c;
  return 1;
}

static int get_vec(rd *r, const tab *t, int id, size_t esz, uint64_t *data, uint32_t *count,
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
static int get_str(rd *r, const tab *t, int id, char **out, const char *name) {
  uint64_t data;
  uint32_t n;
  *out = NULL;
  int k = get_vec(r, t, id, 1, &data, &n, name);
  if (k <= 0) return k;
  if (count_elems(r, LIM_STRBYTES, (uint64_t)n + 1, name)) return -1;
  *out = xstrndup((const char *)r->p + data, n);
  return 0;
}

/* A sub-table field: 1 present, 0 absent, -1 error. */
static int get_tab(rd *r, const tab *t, int id, tab *sub, const char *name) {
  uint64_t tg;
  int k = get_ref(r, t, id, &tg, name);
  if (k <= 0) return k;
  return tab_at(r, tg, sub, name) ? -1 : 1;
}

/* Element i of a vector of tables. */
static int vec_tab(rd *r, uint64_t data, uint32_t i, tab *sub, const char *name) {
  uint64_t at = data + 4ull * i;
  return tab_at(r, at + ld32(r->p + at), sub, name);
}

/* A vector of int32 copied out; *out NULL if absent or empty. */
static int get_i32vec(rd *r, const tab *t, int id, int32_t **out, int *n, int *present,
                      const char *name) {
  uint64_t data;
  uint32_t c;
  *out = NULL;
  *n = 0;
  int k = get_vec(r, t, id, 4, &data, &c, name);
  if (present) *present = k > 0;
  if (k <= 0) return k;
  if (c > (uint32_t)INT_MAX / 4) return fail(r, "%s has too many entries (%u)", name, c);
  if (count_elems(r, LIM_INTS, c, name)) return -1;
  if (c) {
    int32_t *v = xmalloc(sizeof *v * c);
    for (uint32_t i = 0; i < c; i++) {
      uint32_t u = ld32(r->p + data + 4ull * i);
      memcpy(&v[i], &u, sizeof u);
    }
    *out = v;
  }
  *n = (int)c;
  return 0;
}

/* A file-provided string made safe for a one-line message: printable ASCII
 * only, at most 60 characters. */
static const char *printable(const char *s, char *buf, size_t len) {
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

/* ---- shape helpers ------------------------------------------------------------ */

static const char *fmt_shape(const int32_t *s, int rank, char *buf, size_t len) {
  size_t k = 0;
  buf[0] = 0;
  k += (size_t)snprintf(buf, len, "[");
  for (int i = 0; i < rank && k < len; i++)
    k += (size_t)snprintf(buf + k, len - k, "%s%d", i ? "," : "", (int)s[i]);
  if (k < len) snprintf(buf + k, len - k, "]");
  return buf;
}

/* ---- model parts ------------------------------------------------------------ */

static int read_options(rd *r, const tab *ot, litert_options *o) {
  int n;
  const litert_optfield *f = litert_options_fields(o->type, &n);
  char *base = (char *)o;
  for (int i = 0; i < n; i++) {
    const litert_optfield *x = &f[i];
    char name[48];
    snprintf(name, sizeof name, "%s field %d", litert_options_name(o->type), x->id);
    switch (x->kind) {
      case LOF_BOOL: {
        int v;
        if (get_u8(r, ot, x->id, x->def, &v, name)) return -1;
        v = v != 0;
        memcpy(base + x->off, &v, sizeof v);
        break;
      }
      case LOF_BYTE: {
        int v;
        if (get_i8(r, ot, x->id, x->def, &v, name)) return -1;
        memcpy(base + x->off, &v, sizeof v);
        break;
      }
      case LOF_INT: {
        int32_t v;
        if (get_i32(r, ot, x->id, x->def, &v, name)) return -1;
        int iv = v;
        memcpy(base + x->off, &iv, sizeof iv);
        break;
      }
      case LOF_UINT: {
        uint32_t v;
        if (get_u32(r, ot, x->id, (uint32_t)x->def, &v, name)) return -1;
        if (v > INT_MAX) return fail(r, "%s: value %u out of range", name, v);
        int iv = (int)v;
        memcpy(base + x->off, &iv, sizeof iv);
        break;
      }
      case LOF_FLOAT: {
        float v;
        if (get_f32(r, ot, x->id, (float)x->def, &v, name)) return -1;
        memcpy(base + x->off, &v, sizeof v);
        break;
      }
      case LOF_LONG: {
        uint64_t u;
        if (get_u64(r, ot, x->id, (uint64_t)(int64_t)x->def, &u, name)) return -1;
        int64_t v;
        memcpy(&v, &u, sizeof v);
        memcpy(base + x->off, &v, sizeof v);
        break;
      }
      case LOF_STRING: {
        char *s;
        if (get_str(r, ot, x->id, &s, name)) return -1;
        char *old;
        memcpy(&old, base + x->off, sizeof old);
        free(old);
        memcpy(base + x->off, &s, sizeof s);
        break;
      }
      case LOF_INTVEC: {
        int32_t *v;
        int cnt, present;
        if (get_i32vec(r, ot, x->id, &v, &cnt, &present, name)) return -1;
        if (!present) cnt = x->def;
        if (cnt > x->cap) {
          free(v);
          return unsupported(r, "%s has %d entries (at most %d supported); aotc cannot hold this operator's options", name, cnt, x->cap);
        }
        for (int k = 0; k < cnt; k++) {
          int iv = v[k];
          memcpy(base + x->off + sizeof(int) * (size_t)k, &iv, sizeof iv);
        }
        memcpy(base + x->off_n, &cnt, sizeof cnt);
        free(v);
        break;
      }
    }
  }
  return 0;
}

static int read_buffer(rd *r, const tab *t, litert_buffer *b, int idx) {
  uint64_t data, off, size;
  uint32_t n;
  setctx(r, "buffer %d", idx);
  if (get_vec(r, t, 0, 1, &data, &n, "data vector") < 0) return -1;
  if (get_u64(r, t, 1, 0, &off, "offset") || get_u64(r, t, 2, 0, &size, "size")) return -1;
  if (n > 0) {
    b->data = xmalloc(n);
    memcpy(b->data, r->p + data, n);
    b->size = n;
  } else if (off > 1) {
    if (off > r->n || size > r->n - off)
      return fail(r, "external data at offset %llu (%llu bytes) runs past end of file (size %zu)",
                  (unsigned long long)off, (unsigned long long)size, r->n);
    if (charge(r, size)) return -1;
    if (size) {
      b->data = xmalloc((size_t)size);
      memcpy(b->data, r->p + off, (size_t)size);
      b->size = (size_t)size;
    }
  }
  return 0;
}

static int read_opcode(rd *r, const tab *t, litert_opcode *c, int idx) {
  int dep;
  int32_t bc, ver;
  setctx(r, "operator code %d", idx);
  if (get_i8(r, t, 0, 0, &dep, "deprecated_builtin_code") ||
      get_str(r, t, 1, &c->custom_code, "custom_code string") ||
      get_i32(r, t, 2, 1, &ver, "version") || get_i32(r, t, 3, 0, &bc, "builtin_code"))
    return -1;
  c->builtin = dep > bc ? dep : bc;
  c->version = ver;
  if (c->builtin < 0) return fail(r, "negative builtin code %d", c->builtin);
  return 0;
}

static int read_quant(rd *r, const tab *qt, litert_tensor *x) {
  uint64_t data;
  uint32_t n;
  litert_quant *q = &x->q;
  int k = get_vec(r, qt, 2, 4, &data, &n, "quantization scale vector");
  if (k < 0) return -1;
  if (n > (uint32_t)INT_MAX / 8) return fail(r, "too many quantization scales (%u)", n);
  if (count_elems(r, LIM_QUANT, n, "quantization scale vector")) return -1;
  if (n) {
    q->scale = xmalloc(sizeof *q->scale * n);
    for (uint32_t i = 0; i < n; i++) {
      uint32_t u = ld32(r->p + data + 4ull * i);
      memcpy(&q->scale[i], &u, sizeof u);
    }
  }
  q->nscale = (int)n;
  k = get_vec(r, qt, 3, 8, &data, &n, "quantization zero_point vector");
  if (k < 0) return -1;
  if (count_elems(r, LIM_QUANT, n, "quantization zero_point vector")) return -1;
  if (n) {
    q->zero_point = xmalloc(sizeof *q->zero_point * n);
    for (uint32_t i = 0; i < n; i++) {
      uint64_t u = ld64(r->p + data + 8ull * i);
      memcpy(&q->zero_point[i], &u, sizeof u);
    }
  }
  q->nzero = (int)n;
  int32_t qd;
  if (get_i32(r, qt, 6, 0, &qd, "quantized_dimension")) return -1;
  q->quantized_dimension = qd;
  if (q->nzero != 0 && q->nzero != q->nscale)
    return fail(r, "quantization has %d scales but %d zero points", q->nscale, q->nzero);
  /* quantized_dimension is meaningless per-tensor; some converters leave a
   * stale value there (person_detect: 3 on 1-D biases, which TFLM accepts).
   * Normalize to 0 so later stages and the writer see a consistent value. */
  if (q->nscale <= 1 && (qd < 0 || (qd > 0 && qd >= x->rank))) q->quantized_dimension = qd = 0;
  if (q->nscale > 1 && x->rank == 1 && (qd < 0 || qd >= 1) && x->shape[0] == q->nscale)
    q->quantized_dimension = qd = 0;
  if (q->nscale > 1) {
    if (qd < 0 || qd >= x->rank)
      return fail(r, "per-channel quantization (%d scales) with quantized_dimension %d out of "
                  "range for rank %d", q->nscale, qd, x->rank);
    if (x->shape[qd] != q->nscale)
      return fail(r, "per-channel quantization has %d scales but dimension %d has size %d",
                  q->nscale, qd, (int)x->shape[qd]);
  }
  return 0;
}

static int read_tensor(rd *r, const tab *t, litert_tensor *x, const litert_model *m, int sg,
                       int idx) {
  int shape_present, nsig, sig_present;
  char sb[160];
  setctx(r, "tensor %d of subgraph %d", idx, sg);
  x->rank = 0;
  if (get_i32vec(r, t, 0, &x->shape, &x->rank, &shape_present, "shape vector")) return -1;
  if (get_str(r, t, 3, &x->name, "name string")) return -1;
  if (x->name) setctx(r, "tensor %d ('%s') of subgraph %d", idx, printable(x->name, sb, sizeof sb), sg);
  if (get_i8(r, t, 1, 0, &x->type, "type")) return -1;
  if (x->type < 0 || x->type >= DT_COUNT_) return fail(r, "unknown tensor type %d", x->type);
  if (get_u32(r, t, 2, 0, &x->buffer, "buffer")) return -1;
  if (get_u8(r, t, 5, 0, &x->is_variable, "is_variable")) return -1;
  x->is_variable = x->is_variable != 0;
  if (get_u8(r, t, 8, 0, &x->has_rank, "has_rank")) return -1;
  x->has_rank = x->has_rank != 0;
  if (get_i32vec(r, t, 7, &x->shape_signature, &nsig, &sig_present, "shape_signature vector"))
    return -1;
  if (sig_present && !x->shape_signature) x->shape_signature = xmalloc(sizeof(int32_t));
  if (sig_present && nsig != x->rank)
    return fail(r, "shape_signature has %d entries but shape has %d", nsig, x->rank);
  for (int i = 0; i < x->rank; i++) {
    if (x->shape[i] < 0)
      return fail(r, "shape %s: dimension %d is negative",
                  fmt_shape(x->shape, x->rank, sb, sizeof sb), i);
    if (x->shape_signature && x->shape_signature[i] < -1)
      return fail(r, "shape_signature dimension %d is %d", i, (int)x->shape_signature[i]);
  }
  uint64_t count = 1;
  for (int i = 0; i < x->rank; i++) {
    count *= (uint64_t)x->shape[i];
    if (count > INT32_MAX)
      return fail(r, "shape %s has more than 2^31-1 elements",
                  fmt_shape(x->shape, x->rank, sb, sizeof sb));
  }
  if (x->buffer >= (uint32_t)m->nbuffers)
    return fail(r, "buffer index %u out of range (%d buffers)", x->buffer, m->nbuffers);
  const litert_buffer *b = &m->buffers[x->buffer];
  if (x->buffer && b->size) {
    size_t es = dtype_size(x->type);
    if (x->type == DT_INT4) {
      if (b->size != (count + 1) / 2 && b->size != count)
        return fail(r, "buffer %u holds %zu bytes but shape %s of int4 needs %llu", x->buffer,
                    b->size, fmt_shape(x->shape, x->rank, sb, sizeof sb),
                    (unsigned long long)((count + 1) / 2));
    } else if (es && x->type != DT_STRING) {
      if ((uint64_t)b->size != count * es)
        return fail(r, "buffer %u holds %zu bytes but shape %s of %s needs %llu", x->buffer,
                    b->size, fmt_shape(x->shape, x->rank, sb, sizeof sb), dtype_name(x->type),
                    (unsigned long long)(count * es));
    }
  }
  tab st;
  int k = get_tab(r, t, 6, &st, "sparsity");
  if (k < 0) return -1;
  if (k > 0) return unsupported(r, "sparse tensors are not supported; re-export the model without sparsity (dense weights, no tf.lite.Optimize.EXPERIMENTAL_SPARSITY)");
  tab qt;
  k = get_tab(r, t, 4, &qt, "quantization");
  if (k < 0) return -1;
  if (k > 0 && read_quant(r, &qt, x)) return -1;
  return 0;
}

static int check_index_list(rd *r, const int32_t *v, int n, int ntensors, int allow_neg,
                            const char *what) {
  for (int i = 0; i < n; i++)
    if (v[i] >= ntensors || v[i] < (allow_neg ? -1 : 0))
      return fail(r, "%s %d is tensor %d, out of range (%d tensors)", what, i, (int)v[i],
                  ntensors);
  return 0;
}

static int read_op(rd *r, const tab *t, litert_op *op, const litert_model *m,
                   const litert_subgraph *g, int sg, int idx) {
  setctx(r, "operator %d of subgraph %d", idx, sg);
  litert_options_default(&op->opts);
  if (get_u32(r, t, 0, 0, &op->opcode_index, "opcode_index")) return -1;
  if (op->opcode_index >= (uint32_t)m->nopcodes)
    return fail(r, "opcode_index %u out of range (%d operator codes)", op->opcode_index,
                m->nopcodes);
  int builtin = m->opcodes[op->opcode_index].builtin;
  setctx(r, "operator %d (%s) of subgraph %d", idx, litert_op_name(builtin), sg);
  if (get_i32vec(r, t, 1, &op->inputs, &op->ninputs, NULL, "inputs vector") ||
      get_i32vec(r, t, 2, &op->outputs, &op->noutputs, NULL, "outputs vector") ||
      get_i32vec(r, t, 8, &op->intermediates, &op->nintermediates, NULL, "intermediates vector"))
    return -1;
  if (check_index_list(r, op->inputs, op->ninputs, g->ntensors, 1, "input") ||
      check_index_list(r, op->outputs, op->noutputs, g->ntensors, 0, "output") ||
      check_index_list(r, op->intermediates, op->nintermediates, g->ntensors, 0, "intermediate"))
    return -1;
  int type;
  if (get_u8(r, t, 3, 0, &type, "builtin_options_type")) return -1;
  if (type != 0) {
    tab ot;
    int k = get_tab(r, t, 4, &ot, "builtin_options");
    if (k < 0) return -1;
    op->opts.type = type;
    if (k > 0 && read_options(r, &ot, &op->opts)) return -1;
  }
  uint64_t data, loff, lsize;
  uint32_t n;
  if (get_vec(r, t, 5, 1, &data, &n, "custom_options vector") < 0) return -1;
  if (get_u64(r, t, 9, 0, &loff, "large_custom_options_offset") ||
      get_u64(r, t, 10, 0, &lsize, "large_custom_options_size"))
    return -1;
  if (n) {
    op->custom_options = xmalloc(n);
    memcpy(op->custom_options, r->p + data, n);
    op->custom_options_len = n;
  } else if (loff > 1 && lsize) {
    if (loff > r->n || lsize > r->n - loff)
      return fail(r, "large custom options at offset %llu (%llu bytes) run past end of file "
                  "(size %zu)", (unsigned long long)loff, (unsigned long long)lsize, r->n);
    if (charge(r, lsize)) return -1;
    op->custom_options = xmalloc((size_t)lsize);
    memcpy(op->custom_options, r->p + loff, (size_t)lsize);
    op->custom_options_len = (size_t)lsize;
  }
  return 0;
}

/* Semantic checks of an op's options that later stages rely on. */
static int check_op_options(rd *r, const litert_model *m, const litert_op *op, int sg, int idx) {
  int builtin = m->opcodes[op->opcode_index].builtin;
  const litert_options *o = &op->opts;
  setctx(r, "operator %d (%s) of subgraph %d", idx, litert_op_name(builtin), sg);
  int want = litert_builtin_options_type(builtin);
  if (o->type != 0 && want != 0 && o->type != want)
    return fail(r, "builtin options are %s, expected %s", litert_options_name(o->type),
                litert_options_name(want));
  if (o->type == 0) {
    switch (builtin) {
      case OP_CONV_2D: case OP_DEPTHWISE_CONV_2D: case OP_AVERAGE_POOL_2D: case OP_MAX_POOL_2D:
      case OP_L2_POOL_2D: case OP_TRANSPOSE_CONV: case OP_WHILE: case OP_IF: case OP_CALL_ONCE:
      case OP_SPACE_TO_DEPTH: case OP_DEPTH_TO_SPACE: case OP_CONV_3D:
        return fail(r, "missing builtin options (%s)", litert_options_name(want));
      default:
        break;
    }
    return 0;
  }
  switch (o->type) {
    case BO_Conv2DOptions: case BO_DepthwiseConv2DOptions: case BO_Pool2DOptions:
    case BO_TransposeConvOptions: case BO_Conv3DOptions:
      if (o->stride_w < 1 || o->stride_h < 1 || (o->type == BO_Conv3DOptions && o->stride_d < 1))
        return fail(r, "stride %dx%d must be >= 1", o->stride_h, o->stride_w);
      if (o->dilation_w < 1 || o->dilation_h < 1 || o->dilation_d < 1)
        return fail(r, "dilation %dx%d must be >= 1", o->dilation_h, o->dilation_w);
      if (o->type == BO_Pool2DOptions && (o->filter_w < 1 || o->filter_h < 1))
        return fail(r, "pool filter %dx%d must be >= 1", o->filter_h, o->filter_w);
      if (o->padding != PAD_SAME && o->padding != PAD_VALID)
        return fail(r, "unknown padding %d", o->padding);
      break;
    case BO_SpaceToDepthOptions: case BO_DepthToSpaceOptions:
      if (o->block_size < 1) return fail(r, "block_size %d must be >= 1", o->block_size);
      break;
    case BO_WhileOptions:
      if (o->cond_subgraph < 0 || o->cond_subgraph >= m->nsubgraphs || o->body_subgraph < 0 ||
          o->body_subgraph >= m->nsubgraphs)
        return fail(r, "cond/body subgraph %d/%d out of range (%d subgraphs)", o->cond_subgraph,
                    o->body_subgraph, m->nsubgraphs);
      break;
    case BO_IfOptions:
      if (o->then_subgraph < 0 || o->then_subgraph >= m->nsubgraphs || o->else_subgraph < 0 ||
          o->else_subgraph >= m->nsubgraphs)
        return fail(r, "then/else subgraph %d/%d out of range (%d subgraphs)", o->then_subgraph,
                    o->else_subgraph, m->nsubgraphs);
      break;
    case BO_CallOnceOptions:
      if (o->init_subgraph < 0 || o->init_subgraph >= m->nsubgraphs)
        return fail(r, "init subgraph %d out of range (%d subgraphs)", o->init_subgraph,
                    m->nsubgraphs);
      break;
    case BO_CallOptions:
      if (o->subgraph >= m->nsubgraphs)
        return fail(r, "called subgraph %d out of range (%d subgraphs)", o->subgraph,
                    m->nsubgraphs);
      break;
    default:
      break;
  }
  int n;
  const litert_optfield *f = litert_options_fields(o->type, &n);
  for (int i = 0; i < n; i++)
    if (f[i].kind == LOF_BYTE && f[i].off == offsetof(litert_options, fused_act) &&
        (o->fused_act < ACT_NONE || o->fused_act > ACT_SIGN_BIT))
      return fail(r, "unknown fused activation %d", o->fused_act);
  return 0;
}

static int read_subgraph(rd *r, const tab *t, litert_subgraph *g, const litert_model *m, int sg) {
  uint64_t data;
  uint32_t n;
  setctx(r, "subgraph %d", sg);
  if (get_str(r, t, 4, &g->name, "name string")) return -1;
  if (get_vec(r, t, 0, 4, &data, &n, "tensors vector") < 0) return -1;
  if (count_elems(r, LIM_TENSORS, n, "tensors vector")) return -1;
  g->tensors = xcalloc(n ? n : 1, sizeof *g->tensors);
  for (uint32_t i = 0; i < n; i++) {
    tab tt;
    g->ntensors = (int)i + 1;
    setctx(r, "tensor %u of subgraph %d", i, sg);
    if (vec_tab(r, data, i, &tt, "Tensor")) return -1;
    if (read_tensor(r, &tt, &g->tensors[i], m, sg, (int)i)) return -1;
  }
  g->ntensors = (int)n;
  setctx(r, "subgraph %d", sg);
  if (get_i32vec(r, t, 1, &g->inputs, &g->ninputs, NULL, "inputs vector") ||
      get_i32vec(r, t, 2, &g->outputs, &g->noutputs, NULL, "outputs vector"))
    return -1;
  if (check_index_list(r, g->inputs, g->ninputs, g->ntensors, 0, "input") ||
      check_index_list(r, g->outputs, g->noutputs, g->ntensors, 0, "output"))
    return -1;
  if (get_vec(r, t, 3, 4, &data, &n, "operators vector") < 0) return -1;
  if (count_elems(r, LIM_OPS, n, "operators vector")) return -1;
  g->ops = xcalloc(n ? n : 1, sizeof *g->ops);
  for (uint32_t i = 0; i < n; i++) {
    tab ot;
    g->nops = (int)i + 1;
    setctx(r, "operator %u of subgraph %d", i, sg);
    if (vec_tab(r, data, i, &ot, "Operator")) return -1;
    if (read_op(r, &ot, &g->ops[i], m, g, sg, (int)i)) return -1;
  }
  g->nops = (int)n;
  return 0;
}

static int read_tensormaps(rd *r, const tab *t, int id, litert_sigtensor **out, int *nout,
                           const char *what) {
  uint64_t data;
  uint32_t n;
  if (get_vec(r, t, id, 4, &data, &n, what) < 0) return -1;
  if (count_elems(r, LIM_TABLES, n, what)) return -1;
  *out = xcalloc(n ? n : 1, sizeof **out);
  for (uint32_t i = 0; i < n; i++) {
    tab mt;
    *nout = (int)i + 1;
    if (vec_tab(r, data, i, &mt, "TensorMap")) return -1;
    if (get_str(r, &mt, 0, &(*out)[i].name, "TensorMap name") ||
        get_u32(r, &mt, 1, 0, &(*out)[i].tensor_index, "TensorMap tensor_index"))
      return -1;
  }
  *nout = (int)n;
  return 0;
}

static int read_model(rd *r, litert_model *m) {
  if (r->n < 8) return fail(r, "file too small (%zu bytes)", r->n);
  tab mt;
  uint64_t data;
  uint32_t n;
  setctx(r, "model");
  if (tab_at(r, ld32(r->p), &mt, "Model")) return -1;
  if (get_u32(r, &mt, 0, 0, &m->version, "version")) return -1;
  if (get_str(r, &mt, 3, &m->description, "description string")) return -1;

  /* buffers first: tensors are checked against them */
  if (get_vec(r, &mt, 4, 4, &data, &n, "buffers vector") < 0) return -1;
  if (count_elems(r, LIM_TABLES, n, "buffers vector")) return -1;
  m->buffers = xcalloc(n ? n : 1, sizeof *m->buffers);
  for (uint32_t i = 0; i < n; i++) {
    tab bt;
    m->nbuffers = (int)i + 1;
    setctx(r, "buffer %u", i);
    if (vec_tab(r, data, i, &bt, "Buffer")) return -1;
    if (read_buffer(r, &bt, &m->buffers[i], (int)i)) return -1;
  }
  m->nbuffers = (int)n;

  setctx(r, "model");
  if (get_vec(r, &mt, 1, 4, &data, &n, "operator_codes vector") < 0) return -1;
  if (count_elems(r, LIM_TABLES, n, "operator_codes vector")) return -1;
  m->opcodes = xcalloc(n ? n : 1, sizeof *m->opcodes);
  for (uint32_t i = 0; i < n; i++) {
    tab ct;
    m->nopcodes = (int)i + 1;
    setctx(r, "operator code %u", i);
    if (vec_tab(r, data, i, &ct, "OperatorCode")) return -1;
    if (read_opcode(r, &ct, &m->opcodes[i], (int)i)) return -1;
  }
  m->nopcodes = (int)n;

  setctx(r, "model");
  if (get_vec(r, &mt, 2, 4, &data, &n, "subgraphs vector") < 0) return -1;
  if (n == 0) return fail(r, "model has no subgraphs");
  if (count_elems(r, LIM_SUBGRAPHS, n, "subgraphs vector")) return -1;
  m->subgraphs = xcalloc(n, sizeof *m->subgraphs);
  for (uint32_t i = 0; i < n; i++) {
    tab st;
    m->nsubgraphs = (int)i + 1;
    setctx(r, "subgraph %u", i);
    if (vec_tab(r, data, i, &st, "SubGraph")) return -1;
    if (read_subgraph(r, &st, &m->subgraphs[i], m, (int)i)) return -1;
  }
  m->nsubgraphs = (int)n;
  for (int s = 0; s < m->nsubgraphs; s++)
    for (int o = 0; o < m->subgraphs[s].nops; o++)
      if (check_op_options(r, m, &m->subgraphs[s].ops[o], s, o)) return -1;

  setctx(r, "model");
  if (get_vec(r, &mt, 6, 4, &data, &n, "metadata vector") < 0) return -1;
  if (count_elems(r, LIM_TABLES, n, "metadata vector")) return -1;
  m->metadata = xcalloc(n ? n : 1, sizeof *m->metadata);
  for (uint32_t i = 0; i < n; i++) {
    tab dt;
    m->nmetadata = (int)i + 1;
    setctx(r, "metadata %u", i);
    if (vec_tab(r, data, i, &dt, "Metadata")) return -1;
    if (get_str(r, &dt, 0, &m->metadata[i].name, "name string") ||
        get_u32(r, &dt, 1, 0, &m->metadata[i].buffer, "buffer"))
      return -1;
    if (m->metadata[i].buffer >= (uint32_t)m->nbuffers)
      return fail(r, "buffer index %u out of range (%d buffers)", m->metadata[i].buffer,
                  m->nbuffers);
  }
  m->nmetadata = (int)n;

  setctx(r, "model");
  if (get_vec(r, &mt, 7, 4, &data, &n, "signature_defs vector") < 0) return -1;
  if (count_elems(r, LIM_TABLES, n, "signature_defs vector")) return -1;
  m->signatures = xcalloc(n ? n : 1, sizeof *m->signatures);
  for (uint32_t i = 0; i < n; i++) {
    tab gt;
    litert_signature *g = &m->signatures[i];
    m->nsignatures = (int)i + 1;
    setctx(r, "signature %u", i);
    if (vec_tab(r, data, i, &gt, "SignatureDef")) return -1;
    if (get_str(r, &gt, 2, &g->key, "signature_key string") ||
        get_u32(r, &gt, 4, 0, &g->subgraph_index, "subgraph_index") ||
        read_tensormaps(r, &gt, 0, &g->inputs, &g->ninputs, "inputs vector") ||
        read_tensormaps(r, &gt, 1, &g->outputs, &g->noutputs, "outputs vector"))
      return -1;
    if (g->subgraph_index >= (uint32_t)m->nsubgraphs)
      return fail(r, "subgraph_index %u out of range (%d subgraphs)", g->subgraph_index,
                  m->nsubgraphs);
    const litert_subgraph *sg = &m->subgraphs[g->subgraph_index];
    char pb[80];
    for (int j = 0; j < g->ninputs + g->noutputs; j++) {
      const litert_sigtensor *st = j < g->ninputs ? &g->inputs[j] : &g->outputs[j - g->ninputs];
      if (st->tensor_index >= (uint32_t)sg->ntensors)
        return fail(r, "%s '%s' maps to tensor %u, out of range (%d tensors)",
                    j < g->ninputs ? "input" : "output", printable(st->name, pb, sizeof pb),
                    st->tensor_index, sg->ntensors);
    }
  }
  m->nsignatures = (int)n;
  return 0;
}

litert_model *litert_read(const uint8_t *data, size_t len, aotc_diag *d) {
  rd r;
  memset(&r, 0, sizeof r);
  r.p = data;
  r.n = data ? len : 0;
  r.d = d;
  r.budget = 16ull * r.n + (1u << 20);
  litert_model *m = xcalloc(1, sizeof *m);
  if (read_model(&r, m)) {
    litert_model_free(m);
    return NULL;
  }
  return m;
}

/* Largest .tflite aotc reads (its buffers are copied once more when decoded). */
#define LITERT_MAX_FILE_BYTES ((size_t)1 << 30)

litert_model *litert_read_file(const char *path, aotc_diag *d) {
  uint8_t *data;
  size_t len;
  if (read_regular_file(path, LITERT_MAX_FILE_BYTES, "model", &data, &len, d)) return NULL;
  litert_model *m = litert_read(data, len, d);
  if (!m && d) {
    char *msg = xasprintf("%s: %s", path, d->msg);
    snprintf(d->msg, sizeof d->msg, "%s", msg);
    free(msg);
  }
  free(data);
  return m;
}
