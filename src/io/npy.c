/* npy.c - NumPy .npy / .npz reading and writing. See npy.h. */
#include "io/npy.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zip.h>

static const uint8_t NPY_MAGIC[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

/* Largest .npy member we agree to inflate from an .npz (guards against
 * zip bombs and nonsense sizes). */
#define NPZ_MAX_MEMBER ((uint64_t)1 << 32)

/* ---- dtypes ------------------------------------------------------------ */

static const struct {
  char kind;    /* 'f' 'i' 'u' 'b' 'c' */
  int size;     /* bytes */
  int dtype;    /* aotc_dtype */
} npy_types[] = {
    {'f', 2, DT_FLOAT16}, {'f', 4, DT_FLOAT32}, {'f', 8, DT_FLOAT64},
    {'i', 1, DT_INT8},    {'i', 2, DT_INT16},   {'i', 4, DT_INT32},  {'i', 8, DT_INT64},
    {'u', 1, DT_UINT8},   {'u', 2, DT_UINT16},  {'u', 4, DT_UINT32}, {'u', 8, DT_UINT64},
    {'b', 1, DT_BOOL},    {'c', 8, DT_COMPLEX64}, {'c', 16, DT_COMPLEX128},
};
#define N_NPY_TYPES (sizeof npy_types / sizeof npy_types[0])

const char *npy_descr(int dtype) {
  switch (dtype) {
    case DT_FLOAT16: return "<f2";
    case DT_FLOAT32: return "<f4";
    case DT_FLOAT64: return "<f8";
    case DT_INT8: return "|i1";
    case DT_INT16: return "<i2";
    case DT_INT32: return "<i4";
    case DT_INT64: return "<i8";
    case DT_UINT8: return "|u1";
    case DT_UINT16: return "<u2";
    case DT_UINT32: return "<u4";
    case DT_UINT64: return "<u8";
    case DT_BOOL: return "|b1";
    case DT_COMPLEX64: return "<c8";
    case DT_COMPLEX128: return "<c16";
    default: return NULL;
  }
}

/* Maps a descr string to a dtype; *swap set when big-endian multi-byte. */
static int descr_to_dtype(const char *descr, int *dtype, int *swap, aotc_diag *d) {
  const char *p = descr;
  char order = '=';
  if (*p == '<' || *p == '>' || *p == '|' || *p == '=') order = *p++;
  char kind = *p++;
  if (kind == '?' && *p == 0) { /* '?' is numpy's one-char code for bool */
    *dtype = DT_BOOL;
    *swap = 0;
    return 0;
  }
  if (!isdigit((unsigned char)*p))
    return diag_error(d, "unsupported .npy dtype '%s' (only numeric and bool arrays are supported)",
                      descr);
  long size = 0;
  while (isdigit((unsigned char)*p) && size < 1000) size = size * 10 + (*p++ - '0');
  if (*p != 0)
    return diag_error(d, "unsupported .npy dtype '%s' (only numeric and bool arrays are supported)",
                      descr);
  for (size_t i = 0; i < N_NPY_TYPES; i++) {
    if (npy_types[i].kind == kind && npy_types[i].size == size) {
      *dtype = npy_types[i].dtype;
      *swap = order == '>' && size > 1;
      return 0;
    }
  }
  return diag_error(d, "unsupported .npy dtype '%s' (only numeric and bool arrays are supported)",
                    descr);
}

/* ---- header dictionary --------------------------------------------------- */

typedef struct hparse {
  const char *p, *end;
} hparse;

static void hp_ws(hparse *h) {
  while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r'))
    h->p++;
}

static int hp_peek(hparse *h) { return h->p < h->end ? (unsigned char)*h->p : -1; }

/* Reads a quoted Python string literal (no escapes needed for npy keys and
 * descrs; a backslash is refused). */
static int hp_string(hparse *h, char *out, size_t size, const char *what, aotc_diag *d) {
  hp_ws(h);
  int q = hp_peek(h);
  if (q != '\'' && q != '"') return diag_error(d, "malformed .npy header: expected a quoted %s", what);
  h->p++;
  size_t n = 0;
  while (h->p < h->end && *h->p != q) {
    if (*h->p == '\\' || (unsigned char)*h->p < 0x20)
      return diag_error(d, "malformed .npy header: unexpected character in %s", what);
    if (n + 1 >= size) return diag_error(d, "malformed .npy header: %s too long", what);
    out[n++] = *h->p++;
  }
  if (h->p >= h->end) return diag_error(d, "malformed .npy header: unterminated %s", what);
  h->p++;
  out[n] = 0;
  return 0;
}

static int hp_expect(hparse *h, char c, const char *ctx, aotc_diag *d) {
  hp_ws(h);
  if (hp_peek(h) != (unsigned char)c)
    return diag_error(d, "malformed .npy header: expected '%c' %s", c, ctx);
  h->p++;
  return 0;
}

static int hp_word(hparse *h, const char *w) {
  size_t n = strlen(w);
  if ((size_t)(h->end - h->p) >= n && memcmp(h->p, w, n) == 0) {
    h->p += n;
    return 1;
  }
  return 0;
}

static int hp_shape(hparse *h, int *rank, int64_t *shape, aotc_diag *d) {
  if (hp_expect(h, '(', "to open the shape tuple", d)) return -1;
  int r = 0;
  for (;;) {
    hp_ws(h);
    if (hp_peek(h) == ')') {
      h->p++;
      break;
    }
    if (hp_peek(h) < 0 || !isdigit(hp_peek(h)))
      return diag_error(d, "malformed .npy header: shape must be a tuple of non-negative integers");
    int64_t v = 0;
    while (h->p < h->end && isdigit((unsigned char)*h->p)) {
      int dig = *h->p++ - '0';
      if (v > (INT64_MAX - dig) / 10)
        return diag_error(d, "malformed .npy header: shape dimension overflows");
      v = v * 10 + dig;
    }
    if (hp_peek(h) == 'L') h->p++; /* Python 2 long literal */
    if (r >= NPY_MAX_RANK)
      return diag_unsupported(d, ".npy array has more than %d dimensions", NPY_MAX_RANK);
    shape[r++] = v;
    hp_ws(h);
    if (hp_peek(h) == ',') {
      h->p++;
      continue;
    }
    if (hp_peek(h) == ')') {
      h->p++;
      /* A 1-tuple needs its comma in Python: "(4)" is an int, not a tuple. */
      if (r == 1) return diag_error(d, "malformed .npy header: shape '(%lld)' is not a tuple",
                                    (long long)shape[0]);
      break;
    }
    return diag_error(d, "malformed .npy header: expected ',' or ')' in shape");
  }
  *rank = r;
  return 0;
}

static int parse_header(const char *hdr, size_t hlen, char *descr, size_t descr_size, int *fortran,
                        int *rank, int64_t *shape, aotc_diag *d) {
  hparse h = {hdr, hdr + hlen};
  int have_descr = 0, have_fortran = 0, have_shape = 0;
  if (hp_expect(&h, '{', "at the start of the header dictionary", d)) return -1;
  for (;;) {
    hp_ws(&h);
    if (hp_peek(&h) == '}') {
      h.p++;
      break;
    }
    char key[32];
    if (hp_string(&h, key, sizeof key, "key", d)) return -1;
    if (hp_expect(&h, ':', "after a header key", d)) return -1;
    hp_ws(&h);
    if (strcmp(key, "descr") == 0) {
      if (have_descr++) return diag_error(d, "malformed .npy header: duplicate key 'descr'");
      if (hp_peek(&h) == '[')
        return diag_error(d, "unsupported .npy dtype: structured arrays are not supported");
      if (hp_string(&h, descr, descr_size, "descr", d)) return -1;
    } else if (strcmp(key, "fortran_order") == 0) {
      if (have_fortran++) return diag_error(d, "malformed .npy header: duplicate key 'fortran_order'");
      if (hp_word(&h, "True"))
        *fortran = 1;
      else if (hp_word(&h, "False"))
        *fortran = 0;
      else
        return diag_error(d, "malformed .npy header: fortran_order must be True or False");
    } else if (strcmp(key, "shape") == 0) {
      if (have_shape++) return diag_error(d, "malformed .npy header: duplicate key 'shape'");
      if (hp_shape(&h, rank, shape, d)) return -1;
    } else {
      return diag_error(d, "malformed .npy header: unexpected key '%s'", key);
    }
    hp_ws(&h);
    if (hp_peek(&h) == ',') {
      h.p++;
      continue;
    }
    if (hp_peek(&h) == '}') {
      h.p++;
      break;
    }
    return diag_error(d, "malformed .npy header: expected ',' or '}' after the value of '%s'", key);
  }
  /* Only padding may follow: spaces, and NumPy's terminating newline. */
  for (; h.p < h.end; h.p++) {
    if (*h.p != ' ' && *h.p != '\n' && *h.p != '\r' && *h.p != '\t' && *h.p != 0)
      return diag_error(d, "malformed .npy header: trailing characters after the dictionary");
  }
  if (!have_descr || !have_fortran || !have_shape)
    return diag_error(d, "malformed .npy header: missing key '%s'",
                      !have_descr ? "descr" : !have_fortran ? "fortran_order" : "shape");
  return 0;
}

/* count and nbytes of a shape, with overflow checks. */
static int shape_size(int dtype, int rank, const int64_t *shape, size_t *count, size_t *nbytes,
                      aotc_diag *d) {
  size_t esz = dtype_size(dtype);
  if (esz == 0) return diag_error(d, "unsupported array dtype %s", dtype_name(dtype));
  if (rank < 0 || rank > NPY_MAX_RANK)
    return diag_error(d, "array rank %d out of range 0..%d", rank, NPY_MAX_RANK);
  size_t c = 1;
  int zero = 0;
  for (int i = 0; i < rank; i++) {
    if (shape[i] < 0) return diag_error(d, "negative array dimension %lld", (long long)shape[i]);
    if (shape[i] == 0) zero = 1;
  }
  if (!zero) {
    for (int i = 0; i < rank; i++) {
      uint64_t dim = (uint64_t)shape[i];
      if (dim > SIZE_MAX || c > SIZE_MAX / (size_t)dim)
        return diag_error(d, "array shape overflows the element count");
      c *= (size_t)dim;
    }
  } else {
    c = 0;
  }
  if (c > SIZE_MAX / esz) return diag_error(d, "array shape overflows the byte size");
  *count = c;
  *nbytes = c * esz;
  return 0;
}

static uint32_t rd_le(const uint8_t *p, int n) {
  uint32_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

static void byteswap(uint8_t *p, size_t count, size_t esz) {
  for (size_t i = 0; i < count; i++, p += esz) {
    for (size_t a = 0, b = esz - 1; a < b; a++, b--) {
      uint8_t t = p[a];
      p[a] = p[b];
      p[b] = t;
    }
  }
}

int npy_parse(const uint8_t *buf, size_t len, npy_array *out, aotc_diag *d) {
  memset(out, 0, sizeof *out);
  if (!buf || len < 10 || memcmp(buf, NPY_MAGIC, sizeof NPY_MAGIC) != 0)
    return diag_error(d, "not a .npy file (bad magic)");
  int major = buf[6], minor = buf[7];
  if (major < 1 || major > 3 || minor != 0)
    return diag_error(d, "unsupported .npy format version %d.%d (1.0, 2.0 and 3.0 are supported)",
                      major, minor);
  size_t hoff = major == 1 ? 10 : 12;
  if (len < hoff) return diag_error(d, "truncated .npy header");
  size_t hlen = rd_le(buf + 8, major == 1 ? 2 : 4);
  if (hlen > len - hoff)
    return diag_error(d, "truncated .npy header: header length %zu but only %zu bytes follow", hlen,
                      len - hoff);

  char descr[16];
  int fortran = 0, rank = 0, dtype = 0, swap = 0;
  int64_t shape[NPY_MAX_RANK] = {0};
  if (parse_header((const char *)buf + hoff, hlen, descr, sizeof descr, &fortran, &rank, shape, d))
    return -1;
  if (fortran)
    return diag_error(d, ".npy array is in Fortran order (fortran_order: True); only C order is "
                         "supported");
  if (descr_to_dtype(descr, &dtype, &swap, d)) return -1;
  size_t count, nbytes;
  if (shape_size(dtype, rank, shape, &count, &nbytes, d)) return -1;
  size_t doff = hoff + hlen;
  if (nbytes > len - doff) {
    char sb[160];
    npy_array tmp = {.rank = rank};
    memcpy(tmp.shape, shape, sizeof shape);
    return diag_error(d, "truncated .npy data: shape %s %s needs %zu bytes, file has %zu",
                      npy_shape_str(&tmp, sb, sizeof sb), dtype_name(dtype), nbytes, len - doff);
  }
  out->dtype = dtype;
  out->rank = rank;
  memcpy(out->shape, shape, sizeof shape);
  out->count = count;
  out->nbytes = nbytes;
  out->data = xmalloc(nbytes);
  if (nbytes) memcpy(out->data, buf + doff, nbytes);
  if (swap) byteswap(out->data, count, dtype_size(dtype));
  return 0;
}

/* ---- writing ------------------------------------------------------------ */

int npy_serialize(const npy_array *a, uint8_t **buf, size_t *len, aotc_diag *d) {
  *buf = NULL;
  *len = 0;
  const char *descr = npy_descr(a->dtype);
  if (!descr) return diag_error(d, "cannot write a %s array to .npy", dtype_name(a->dtype));
  size_t count, nbytes;
  if (shape_size(a->dtype, a->rank, a->shape, &count, &nbytes, d)) return -1;
  if (nbytes != a->nbytes)
    return diag_error(d, "array '%s': nbytes %zu does not match its shape (%zu)",
                      a->name ? a->name : "", a->nbytes, nbytes);
  if (nbytes && !a->data) return diag_error(d, "array '%s' has no data", a->name ? a->name : "");
  strbuf h = {0};
  sb_printf(&h, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  for (int i = 0; i < a->rank; i++) sb_printf(&h, "%s%lld", i ? ", " : "", (long long)a->shape[i]);
  sb_puts(&h, a->rank == 1 ? ",), }" : "), }");
  /* Pad with spaces so the data starts on a 64-byte boundary; end with \n. */
  size_t hoff = 10;
  size_t total = hoff + h.len + 1;
  if (total + (64 - total % 64) % 64 - hoff > 0xffff) hoff = 12;
  total = hoff + h.len + 1;
  size_t pad = (64 - total % 64) % 64;
  for (size_t i = 0; i < pad; i++) sb_putc(&h, ' ');
  sb_putc(&h, '\n');
  if (h.len > UINT32_MAX || nbytes > SIZE_MAX - hoff - h.len) {
    sb_free(&h);
    return diag_error(d, "array too large for .npy");
  }
  size_t n = hoff + h.len + nbytes;
  uint8_t *b = xmalloc(n);
  memcpy(b, NPY_MAGIC, sizeof NPY_MAGIC);
  b[6] = hoff == 10 ? 1 : 2;
  b[7] = 0;
  uint32_t hl = (uint32_t)h.len;
  for (size_t i = 0; i < hoff - 8; i++) b[8 + i] = (uint8_t)(hl >> (8 * i));
  memcpy(b + hoff, h.s, h.len);
  if (nbytes) memcpy(b + hoff + h.len, a->data, nbytes);
  sb_free(&h);
  *buf = b;
  *len = n;
  return 0;
}

/* Rewrites d->msg as "<prefix>: <msg>". */
static int prefix_error(aotc_diag *d, const char *prefix) {
  if (!d) return -1;
  char tmp[sizeof d->msg];
  memcpy(tmp, d->msg, sizeof tmp);
  int code = d->code;
  diag_error(d, "%s: %s", prefix, tmp);
  d->code = code ? code : 1;
  return -1;
}

int npy_read_file(const char *path, npy_array *out, aotc_diag *d) {
  uint8_t *buf;
  size_t len;
  memset(out, 0, sizeof *out);
  if (read_file_all(path, &buf, &len, d)) return -1;
  int rc = npy_parse(buf, len, out, d);
  free(buf);
  if (rc) return prefix_error(d, path);
  return 0;
}

int npy_write_file(const char *path, const npy_array *a, aotc_diag *d) {
  uint8_t *buf;
  size_t len;
  if (npy_serialize(a, &buf, &len, d)) return prefix_error(d, path);
  int rc = write_file_all(path, buf, len, d);
  free(buf);
  return rc;
}

/* ---- npz -------------------------------------------------------------- */

static int ends_with(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && strcmp(s + n - m, suf) == 0;
}

static int zip_open_error(aotc_diag *d, const char *path, int err) {
  zip_error_t ze;
  zip_error_init_with_code(&ze, err);
  diag_error(d, "%s: cannot open .npz archive: %s", path, zip_error_strerror(&ze));
  zip_error_fini(&ze);
  return -1;
}

int npz_read(const char *path, npy_array **arrs, int *n, aotc_diag *d) {
  *arrs = NULL;
  *n = 0;
  int err = 0;
  zip_t *za = zip_open(path, ZIP_RDONLY, &err);
  if (!za) return zip_open_error(d, path, err);
  zip_int64_t ne = zip_get_num_entries(za, 0);
  if (ne < 0 || ne > INT_MAX / 2) {
    zip_discard(za);
    return diag_error(d, "%s: bad .npz archive (entry count)", path);
  }
  npy_array *out = xcalloc((size_t)ne ? (size_t)ne : 1, sizeof *out);
  int cnt = 0;
  uint8_t *buf = NULL;
  for (zip_int64_t i = 0; i < ne; i++) {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(za, (zip_uint64_t)i, 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME) ||
        !(st.valid & ZIP_STAT_SIZE)) {
      diag_error(d, "%s: cannot read entry %lld: %s", path, (long long)i,
                 zip_error_strerror(zip_get_error(za)));
      goto fail;
    }
    const char *mname = st.name;
    if (mname[0] == 0 || ends_with(mname, "/")) continue; /* directory */
    if (!ends_with(mname, ".npy")) {
      diag_warn(d, "%s: skipping member '%s' (not a .npy file)", path, mname);
      continue;
    }
    if (st.size > NPZ_MAX_MEMBER) {
      diag_error(d, "%s: member '%s' is too large (%llu bytes)", path, mname,
                 (unsigned long long)st.size);
      goto fail;
    }
    char *key = xstrndup(mname, strlen(mname) - 4);
    if (npz_find(out, cnt, key)) {
      diag_error(d, "%s: duplicate member '%s'", path, mname);
      free(key);
      goto fail;
    }
    zip_file_t *zf = zip_fopen_index(za, (zip_uint64_t)i, 0);
    if (!zf) {
      diag_error(d, "%s: cannot open member '%s': %s", path, mname,
                 zip_error_strerror(zip_get_error(za)));
      free(key);
      goto fail;
    }
    size_t size = (size_t)st.size;
    /* One spare byte so a member longer than its directory entry says is
     * noticed; reading to EOF makes libzip check the CRC. */
    buf = xmalloc(size + 1);
    size_t got = 0;
    int rerr = 0;
    for (;;) {
      zip_int64_t r = zip_fread(zf, buf + got, size + 1 - got);
      if (r < 0) {
        rerr = 1;
        break;
      }
      if (r == 0) break;
      got += (size_t)r;
      if (got > size) break;
    }
    if (rerr) {
      diag_error(d, "%s: cannot read member '%s': %s", path, mname,
                 zip_error_strerror(zip_file_get_error(zf)));
      zip_fclose(zf);
      free(key);
      goto fail;
    }
    int crc = zip_fclose(zf);
    if (got != size) {
      diag_error(d, "%s: member '%s' has %s data than its directory entry says (%zu vs %zu)", path,
                 mname, got < size ? "less" : "more", got, size);
      free(key);
      goto fail;
    }
    if (crc != 0) {
      diag_error(d, "%s: member '%s' is corrupt: %s", path, mname, zip_error_strerror(zip_get_error(za)));
      free(key);
      goto fail;
    }
    if (npy_parse(buf, size, &out[cnt], d)) {
      char *pre = xasprintf("%s: member '%s'", path, mname);
      prefix_error(d, pre);
      free(pre);
      free(key);
      goto fail;
    }
    out[cnt++].name = key;
    free(buf);
    buf = NULL;
  }
  zip_discard(za);
  *arrs = out;
  *n = cnt;
  return 0;
fail:
  free(buf);
  zip_discard(za);
  npz_free(out, cnt);
  return -1;
}

int npz_write(const char *path, const npy_array *arrs, int n, int compress, aotc_diag *d) {
  for (int i = 0; i < n; i++) {
    if (!arrs[i].name || !arrs[i].name[0])
      return diag_error(d, "%s: array %d has no name", path, i);
    for (int j = 0; j < i; j++)
      if (strcmp(arrs[i].name, arrs[j].name) == 0)
        return diag_error(d, "%s: duplicate array name '%s'", path, arrs[i].name);
  }
  int err = 0;
  zip_t *za = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &err);
  if (!za) return zip_open_error(d, path, err);
  for (int i = 0; i < n; i++) {
    uint8_t *buf;
    size_t len;
    if (npy_serialize(&arrs[i], &buf, &len, d)) {
      char *pre = xasprintf("%s: array '%s'", path, arrs[i].name);
      prefix_error(d, pre);
      free(pre);
      zip_discard(za);
      return -1;
    }
    zip_source_t *src = zip_source_buffer(za, buf, len, 1);
    if (!src) {
      free(buf);
      diag_error(d, "%s: %s", path, zip_error_strerror(zip_get_error(za)));
      zip_discard(za);
      return -1;
    }
    char *mname = xasprintf("%s.npy", arrs[i].name);
    zip_int64_t idx = zip_file_add(za, mname, src, ZIP_FL_ENC_UTF_8);
    free(mname);
    if (idx < 0) {
      zip_source_free(src);
      diag_error(d, "%s: cannot add '%s': %s", path, arrs[i].name,
                 zip_error_strerror(zip_get_error(za)));
      zip_discard(za);
      return -1;
    }
    /* a fixed time (1980-01-01, the zip epoch): the same arrays give a
       byte-identical archive (modules carry .npz test data) */
    if (zip_file_set_mtime(za, (zip_uint64_t)idx, (time_t)315532800, 0) != 0 ||
        zip_set_file_compression(za, (zip_uint64_t)idx, compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE,
                                 0) != 0) {
      diag_error(d, "%s: %s", path, zip_error_strerror(zip_get_error(za)));
      zip_discard(za);
      return -1;
    }
  }
  if (zip_close(za) != 0) {
    diag_error(d, "%s: cannot write .npz archive: %s", path, zip_error_strerror(zip_get_error(za)));
    zip_discard(za);
    return -1;
  }
  return 0;
}

const npy_array *npz_find(const npy_array *arrs, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (arrs[i].name && name && strcmp(arrs[i].name, name) == 0) return &arrs[i];
  return NULL;
}

/* ---- helpers -------------------------------------------------------------- */

int npy_init(npy_array *a, const char *name, int dtype, int rank, const int64_t *shape,
             const void *src, aotc_diag *d) {
  memset(a, 0, sizeof *a);
  size_t count, nbytes;
  if (rank < 0 || rank > NPY_MAX_RANK)
    return diag_error(d, "array rank %d out of range 0..%d", rank, NPY_MAX_RANK);
  if (rank && !shape) return diag_error(d, "array shape missing");
  if (shape_size(dtype, rank, shape, &count, &nbytes, d)) return -1;
  a->name = xstrdup(name);
  a->dtype = dtype;
  a->rank = rank;
  for (int i = 0; i < rank; i++) a->shape[i] = shape[i];
  a->count = count;
  a->nbytes = nbytes;
  a->data = xcalloc(1, nbytes);
  if (src && nbytes) memcpy(a->data, src, nbytes);
  return 0;
}

static double half_to_double(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0)
    v = ldexp((double)mant, -24);
  else if (exp == 31)
    v = mant ? NAN : INFINITY;
  else
    v = ldexp((double)(mant | 0x400), exp - 25);
  return sign ? -v : v;
}

double npy_get_double(const npy_array *a, size_t i) {
  const uint8_t *p = (const uint8_t *)a->data;
  if (!p || i >= a->count) return NAN;
  p += i * dtype_size(a->dtype);
  switch (a->dtype) {
    case DT_FLOAT32: case DT_COMPLEX64: { float v; memcpy(&v, p, 4); return v; }
    case DT_FLOAT64: case DT_COMPLEX128: { double v; memcpy(&v, p, 8); return v; }
    case DT_FLOAT16: { uint16_t v; memcpy(&v, p, 2); return half_to_double(v); }
    case DT_INT8: return (double)*(const int8_t *)p;
    case DT_UINT8: return (double)*p;
    case DT_BOOL: return *p ? 1.0 : 0.0;
    case DT_INT16: { int16_t v; memcpy(&v, p, 2); return v; }
    case DT_UINT16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case DT_INT32: { int32_t v; memcpy(&v, p, 4); return v; }
    case DT_UINT32: { uint32_t v; memcpy(&v, p, 4); return v; }
    case DT_INT64: { int64_t v; memcpy(&v, p, 8); return (double)v; }
    case DT_UINT64: { uint64_t v; memcpy(&v, p, 8); return (double)v; }
    default: return NAN;
  }
}

const char *npy_shape_str(const npy_array *a, char *buf, size_t size) {
  if (!size) return buf;
  size_t off = 0;
  buf[0] = 0;
  int r = a->rank < 0 ? 0 : a->rank > NPY_MAX_RANK ? NPY_MAX_RANK : a->rank;
  off += (size_t)snprintf(buf, size, "[");
  for (int i = 0; i < r && off < size; i++)
    off += (size_t)snprintf(buf + off, size - off, "%s%lld", i ? ", " : "", (long long)a->shape[i]);
  if (off < size) snprintf(buf + off, size - off, "]");
  return buf;
}

void npy_free(npy_array *a) {
  if (!a) return;
  free(a->name);
  free(a->data);
  memset(a, 0, sizeof *a);
}

void npz_free(npy_array *arrs, int n) {
  if (!arrs) return;
  for (int i = 0; i < n; i++) npy_free(&arrs[i]);
  free(arrs);
}
