/* npy.h - NumPy .npy / .npz reading and writing (no third-party npy code).
 *
 * .npy: format versions 1.0, 2.0 and 3.0 are read; C order only
 * (fortran_order True is an error). Element types ("descr"), with '<' or
 * '|' or '=' (little-endian / not applicable / native) and also '>' (big
 * endian, byte-swapped on load):
 *   f2 f4 f8 -> DT_FLOAT16 DT_FLOAT32 DT_FLOAT64
 *   i1 i2 i4 i8 -> DT_INT8 DT_INT16 DT_INT32 DT_INT64
 *   u1 u2 u4 u8 -> DT_UINT8 DT_UINT16 DT_UINT32 DT_UINT64
 *   b1 -> DT_BOOL, c8 c16 -> DT_COMPLEX64 DT_COMPLEX128
 * Structured, string and object dtypes are refused. Loaded data is always in
 * host (little-endian) byte order, in a freshly malloc'ed, suitably aligned
 * buffer. Written files are version 1.0 (2.0 if the header does not fit),
 * little-endian, header padded to a multiple of 64 bytes like NumPy does.
 *
 * .npz: a zip archive (read/written with libzip) of .npy members, stored or
 * deflated. The key of a member is its name minus the ".npy" suffix
 * ("input_0.npy" -> "input_0"); members not ending in ".npy" are skipped with
 * a warning. npz_write stores members uncompressed (np.savez) unless
 * compress is non-zero (np.savez_compressed).
 *
 * Every function returning int returns 0 on success, -1 with a message in d.
 * Every length and shape is bounds-checked (malformed header, truncated data,
 * element count overflow).
 */
#ifndef AOTC_NPY_H
#define AOTC_NPY_H

#include <stddef.h>
#include <stdint.h>

#include "aotc.h"

#define NPY_MAX_RANK 8

typedef struct npy_array {
  char *name;                   /* npz key (no ".npy"), NULL for a lone .npy */
  int dtype;                    /* aotc_dtype */
  int rank;                     /* 0 (scalar) .. NPY_MAX_RANK */
  int64_t shape[NPY_MAX_RANK];  /* shape[0..rank-1] */
  size_t count;                 /* number of elements (1 for a scalar) */
  size_t nbytes;                /* count * dtype_size(dtype) */
  void *data;                   /* nbytes bytes, host order, owned (free()) */
} npy_array;

/* Parses a whole .npy image (header + data). Copies the data; buf may be
 * freed afterwards. out->name is set to NULL. On failure out is zeroed. */
int npy_parse(const uint8_t *buf, size_t len, npy_array *out, aotc_diag *d);

/* Serialises a to a .npy image in *buf (free()) of *len bytes. */
int npy_serialize(const npy_array *a, uint8_t **buf, size_t *len, aotc_diag *d);

/* Reads / writes a single .npy file. Error messages start with the path. */
int npy_read_file(const char *path, npy_array *out, aotc_diag *d);
int npy_write_file(const char *path, const npy_array *a, aotc_diag *d);

/* Reads every .npy member of an .npz archive, in archive order. *arrs is a
 * malloc'ed array of *n entries (free with npz_free). */
int npz_read(const char *path, npy_array **arrs, int *n, aotc_diag *d);

/* Writes arrs[0..n-1] to path (replaced atomically by libzip). Each array
 * needs a non-NULL, unique name; the member is name + ".npy". */
int npz_write(const char *path, const npy_array *arrs, int n, int compress, aotc_diag *d);

/* The array with key name, or NULL. */
const npy_array *npz_find(const npy_array *arrs, int n, const char *name);

/* Fills a: copies name (may be NULL) and shape; allocates data and copies
 * from src if src is non-NULL, else zero-fills. Fails on a bad dtype/rank or
 * an overflowing size. */
int npy_init(npy_array *a, const char *name, int dtype, int rank, const int64_t *shape,
             const void *src, aotc_diag *d);

/* Element i (< a->count) of a numeric array converted to double (float16
 * decoded, bool as 0/1; complex: the real part). */
double npy_get_double(const npy_array *a, size_t i);

/* "[1, 49, 10, 1]" into buf (always NUL-terminated); returns buf. */
const char *npy_shape_str(const npy_array *a, char *buf, size_t size);

/* The .npy descr string ("<f4", "|i1", ...) for dtype, or NULL. */
const char *npy_descr(int dtype);

void npy_free(npy_array *a);             /* frees name and data, zeroes a */
void npz_free(npy_array *arrs, int n);   /* npy_free on each, then free(arrs) */

#endif
