/* test_npy.c - .npy / .npz reader and writer.
 *
 * Reference facts about the goldens (dtypes, shapes, values) were read with
 * Python's zipfile + struct, independently of this code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

#include "aotc.h"
#include "io/npy.h"

static const char *shared_dir(void) {
  const char *s = getenv("AOTC_SHARED");
  return s && *s ? s : "../shared";
}

/* Path of a golden, or NULL (test skipped) when the shared data is missing. */
static char *golden(const char *rel) {
  char *p = xasprintf("%s/goldens/%s", shared_dir(), rel);
  if (access(p, R_OK) != 0) {
    fprintf(stderr, "skipping: %s not found (set AOTC_SHARED)\n", p);
    free(p);
    return NULL;
  }
  return p;
}

static char *tmp_path(const char *name) {
  const char *t = getenv("TMPDIR");
  return xasprintf("%s/aotc_test_npy_%d_%s", t && *t ? t : "/tmp", (int)getpid(), name);
}

/* Raw bytes of one zip member, read with libzip directly. */
static uint8_t *zip_member(const char *path, const char *member, size_t *len) {
  int err;
  zip_t *za = zip_open(path, ZIP_RDONLY, &err);
  assert_non_null(za);
  zip_stat_t st;
  assert_int_equal(zip_stat(za, member, 0, &st), 0);
  zip_file_t *zf = zip_fopen(za, member, 0);
  assert_non_null(zf);
  uint8_t *b = xmalloc((size_t)st.size);
  assert_int_equal(zip_fread(zf, b, st.size), (zip_int64_t)st.size);
  zip_fclose(zf);
  zip_discard(za);
  *len = (size_t)st.size;
  return b;
}

/* ---- goldens ------------------------------------------------------------ */

static void test_kws_golden(void **state) {
  (void)state;
  char *p = golden("mlperf-tiny/kws_ref_model.npz");
  if (!p) skip();
  aotc_diag d = {0};
  npy_array *a;
  int n;
  assert_int_equal(npz_read(p, &a, &n, &d), 0);
  assert_int_equal(n, 2);
  const npy_array *in = npz_find(a, n, "input_0");
  const npy_array *out = npz_find(a, n, "output_0");
  assert_non_null(in);
  assert_non_null(out);
  assert_null(npz_find(a, n, "input_0.npy"));
  assert_null(npz_find(a, n, "output_1"));
  assert_int_equal(in->dtype, DT_INT8);
  assert_int_equal(in->rank, 4);
  assert_int_equal(in->shape[0], 1);
  assert_int_equal(in->shape[1], 49);
  assert_int_equal(in->shape[2], 10);
  assert_int_equal(in->shape[3], 1);
  assert_int_equal(in->count, 490);
  assert_int_equal(in->nbytes, 490);
  static const int8_t first[8] = {89, 35, 2, -59, -50, -118, -109, -124};
  assert_memory_equal(in->data, first, 8);
  assert_int_equal(((int8_t *)in->data)[489], 80);
  assert_int_equal(out->dtype, DT_INT8);
  assert_int_equal(out->rank, 2);
  assert_int_equal(out->shape[0], 1);
  assert_int_equal(out->shape[1], 12);
  for (int i = 0; i < 11; i++) assert_int_equal(((int8_t *)out->data)[i], -128);
  assert_int_equal(((int8_t *)out->data)[11], 127);
  assert_true(npy_get_double(out, 11) == 127.0);
  assert_true(npy_get_double(out, 0) == -128.0);
  char sb[64];
  assert_string_equal(npy_shape_str(in, sb, sizeof sb), "[1, 49, 10, 1]");
  npz_free(a, n);
  free(p);
}

static void test_scalar_and_1tuple_goldens(void **state) {
  (void)state;
  char *p = golden("litert-testdata/call_once_mul.npz");
  if (!p) skip();
  aotc_diag d = {0};
  npy_array *a;
  int n;
  assert_int_equal(npz_read(p, &a, &n, &d), 0);
  assert_int_equal(n, 4);
  const npy_array *o = npz_find(a, n, "output_0");
  assert_non_null(o);
  assert_int_equal(o->dtype, DT_FLOAT32);
  assert_int_equal(o->rank, 0);
  assert_int_equal(o->count, 1);
  assert_int_equal(o->nbytes, 4);
  assert_float_equal(*(float *)o->data, 0.5478467345237732f, 0);
  char sb[16];
  assert_string_equal(npy_shape_str(o, sb, sizeof sb), "[]");
  assert_non_null(npz_find(a, n, "run2_output_0"));
  npz_free(a, n);
  free(p);

  p = golden("litert-testdata/multi_subgraphs_while.npz");
  if (!p) skip();
  assert_int_equal(npz_read(p, &a, &n, &d), 0);
  o = npz_find(a, n, "output_1");
  assert_non_null(o);
  assert_int_equal(o->dtype, DT_INT32);
  assert_int_equal(o->rank, 0);
  assert_int_equal(*(int32_t *)o->data, 2);
  npz_free(a, n);
  free(p);

  p = golden("litert-testdata/unidirectional_sequence_lstm.npz");
  if (!p) skip();
  assert_int_equal(npz_read(p, &a, &n, &d), 0);
  o = npz_find(a, n, "output_0");
  assert_non_null(o);
  assert_int_equal(o->rank, 1);
  assert_int_equal(o->shape[0], 4);
  static const float want[4] = {0.4684150218963623f, 0.2659677565097809f, 0.47172439098358154f,
                                0.4138513505458832f};
  assert_memory_equal(o->data, want, sizeof want);
  assert_int_equal(npz_find(a, n, "input_0")->rank, 3);
  npz_free(a, n);
  free(p);
}

static void test_int16_uint8_goldens(void **state) {
  (void)state;
  aotc_diag d = {0};
  npy_array *a;
  int n;
  char *p = golden("tflm/keyword_scrambled_8bit.npz");
  if (!p) skip();
  assert_int_equal(npz_read(p, &a, &n, &d), 0);
  const npy_array *in = npz_find(a, n, "input_0");
  assert_int_equal(in->dtype, DT_INT16);
  assert_int_equal(in->count, 96);
  static const int16_t want[4] = {2872, 1121, 91, -1886};
  assert_memory_equal(in->data, want, sizeof want);
  const npy_array *o = npz_find(a, n, "run2_output_0");
  assert_int_equal(o->dtype, DT_INT32);
  assert_int_equal(((int32_t *)o->data)[0], 0);
  assert_int_equal(((int32_t *)o->data)[1], 32767);
  npz_free(a, n);
  free(p);

  p = golden("streaming/okay_nabu_v2.npz");
  if (!p) skip();
  assert_int_equal(npz_read(p, &a, &n, &d), 0);
  o = npz_find(a, n, "run1_output_0");
  assert_int_equal(o->dtype, DT_UINT8);
  assert_int_equal(*(uint8_t *)o->data, 2);
  assert_int_equal(npz_find(a, n, "input_0")->dtype, DT_INT8);
  npz_free(a, n);
  free(p);
}

/* Our writer produces exactly the bytes NumPy wrote for the same array. */
static void test_serialize_matches_numpy(void **state) {
  (void)state;
  const char *members[][2] = {{"mlperf-tiny/kws_ref_model.npz", "input_0"},
                              {"mlperf-tiny/kws_ref_model.npz", "output_0"},
                              {"litert-testdata/call_once_mul.npz", "output_0"},
                              {"litert-testdata/unidirectional_sequence_lstm.npz", "output_0"},
                              {"tflm/keyword_scrambled_8bit.npz", "input_0"},
                              {"streaming/okay_nabu_v2.npz", "output_0"}};
  for (size_t k = 0; k < sizeof members / sizeof members[0]; k++) {
    char *p = golden(members[k][0]);
    if (!p) skip();
    char *m = xasprintf("%s.npy", members[k][1]);
    size_t len;
    uint8_t *raw = zip_member(p, m, &len);
    aotc_diag d = {0};
    npy_array a;
    assert_int_equal(npy_parse(raw, len, &a, &d), 0);
    uint8_t *ser;
    size_t slen;
    assert_int_equal(npy_serialize(&a, &ser, &slen, &d), 0);
    assert_int_equal(slen, len);
    assert_memory_equal(ser, raw, len);
    free(ser);
    npy_free(&a);
    free(raw);
    free(m);
    free(p);
  }
}

static void test_all_goldens_load(void **state) {
  (void)state;
  const char *files[] = {
      "gru/bigru64_fp32.npz",          "gru/precise_hey_mycroft.npz",
      "tflm/hello_world_float.npz",    "tflm/hello_world_int8.npz",
      "tflm/micro_speech_quantized.npz", "tflm/trained_lstm_int8.npz",
      "mlperf-tiny/vww_96_int8.npz",   "mlperf-tiny/ad01_int8.npz",
      "mlperf-tiny/str_ww_ref_model.npz", "litert-testdata/resource_vars_calibrated.npz"};
  for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
    char *p = golden(files[k]);
    if (!p) skip();
    aotc_diag d = {0};
    npy_array *a;
    int n;
    if (npz_read(p, &a, &n, &d)) fail_msg("%s: %s", files[k], d.msg);
    assert_true(n >= 2);
    assert_non_null(npz_find(a, n, "input_0"));
    assert_non_null(npz_find(a, n, "output_0"));
    npz_free(a, n);
    free(p);
  }
  char *p = golden("tflm/hello_world_float.npz");
  if (!p) skip();
  aotc_diag d = {0};
  npy_array *a;
  int n;
  assert_int_equal(npz_read(p, &a, &n, &d), 0);
  assert_float_equal(*(float *)npz_find(a, n, "input_0")->data, 0.2739233672618866f, 0);
  assert_float_equal(npy_get_double(npz_find(a, n, "output_0"), 0), 0.2560061812400818, 1e-7);
  npz_free(a, n);
  free(p);
}

/* ---- roundtrip -------------------------------------------------------- */

static void roundtrip(int compress) {
  aotc_diag d = {0};
  npy_array arrs[6];
  int64_t s4[4] = {1, 2, 3, 1}, s1[1] = {5}, s0[1] = {0}, sz[2] = {3, 0};
  int8_t i8[6] = {-128, -1, 0, 1, 2, 127};
  uint16_t f16[5] = {0x3c00, 0xc000, 0x0001, 0x7c00, 0x3555};
  double f64 = -1.5;
  int64_t i64[5] = {INT64_MIN, -1, 0, 1, INT64_MAX};
  uint8_t b1[5] = {0, 1, 1, 0, 1};
  assert_int_equal(npy_init(&arrs[0], "in8", DT_INT8, 4, s4, i8, &d), 0);
  assert_int_equal(npy_init(&arrs[1], "half", DT_FLOAT16, 1, s1, f16, &d), 0);
  assert_int_equal(npy_init(&arrs[2], "scalar", DT_FLOAT64, 0, s0, &f64, &d), 0);
  assert_int_equal(npy_init(&arrs[3], "wide", DT_INT64, 1, s1, i64, &d), 0);
  assert_int_equal(npy_init(&arrs[4], "flags", DT_BOOL, 1, s1, b1, &d), 0);
  assert_int_equal(npy_init(&arrs[5], "empty", DT_UINT16, 2, sz, NULL, &d), 0);
  assert_int_equal(arrs[5].count, 0);
  char *path = tmp_path(compress ? "z.npz" : "s.npz");
  assert_int_equal(npz_write(path, arrs, 6, compress, &d), 0);

  /* Independent check of the archive layout with libzip. */
  int err;
  zip_t *za = zip_open(path, ZIP_RDONLY, &err);
  assert_non_null(za);
  assert_int_equal(zip_get_num_entries(za, 0), 6);
  zip_stat_t st;
  assert_int_equal(zip_stat(za, "in8.npy", 0, &st), 0);
  assert_int_equal(st.comp_method, compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE);
  assert_int_equal(st.size, 128 + 6); /* NumPy pads the header to 64 bytes */
  zip_discard(za);

  npy_array *b;
  int n;
  if (npz_read(path, &b, &n, &d)) fail_msg("%s", d.msg);
  assert_int_equal(n, 6);
  for (int i = 0; i < 6; i++) {
    const npy_array *r = npz_find(b, n, arrs[i].name);
    assert_non_null(r);
    assert_int_equal(r->dtype, arrs[i].dtype);
    assert_int_equal(r->rank, arrs[i].rank);
    for (int k = 0; k < r->rank; k++) assert_int_equal(r->shape[k], arrs[i].shape[k]);
    assert_int_equal(r->nbytes, arrs[i].nbytes);
    if (r->nbytes) assert_memory_equal(r->data, arrs[i].data, r->nbytes);
  }
  const npy_array *h = npz_find(b, n, "half");
  assert_true(npy_get_double(h, 0) == 1.0);
  assert_true(npy_get_double(h, 1) == -2.0);
  assert_true(npy_get_double(h, 2) == ldexp(1.0, -24));
  assert_true(isinf(npy_get_double(h, 3)));
  assert_float_equal(npy_get_double(h, 4), 0.333251953125, 0);
  assert_true(npy_get_double(npz_find(b, n, "scalar"), 0) == -1.5);
  assert_true(npy_get_double(npz_find(b, n, "flags"), 1) == 1.0);
  assert_true(isnan(npy_get_double(npz_find(b, n, "flags"), 5))); /* out of range */
  npz_free(b, n);
  for (int i = 0; i < 6; i++) npy_free(&arrs[i]);
  unlink(path);
  free(path);
}

static void test_roundtrip_stored(void **state) {
  (void)state;
  roundtrip(0);
}

static void test_roundtrip_deflated(void **state) {
  (void)state;
  roundtrip(1);
}

static void test_npy_file_roundtrip(void **state) {
  (void)state;
  aotc_diag d = {0};
  npy_array a, b;
  int64_t shape[3] = {2, 1, 3};
  float v[6] = {1, -2, 3.5f, 0, 1e-3f, -7};
  assert_int_equal(npy_init(&a, NULL, DT_FLOAT32, 3, shape, v, &d), 0);
  char *path = tmp_path("a.npy");
  assert_int_equal(npy_write_file(path, &a, &d), 0);
  assert_int_equal(npy_read_file(path, &b, &d), 0);
  assert_null(b.name);
  assert_int_equal(b.rank, 3);
  assert_memory_equal(b.data, v, sizeof v);
  npy_free(&a);
  npy_free(&b);
  unlink(path);
  assert_int_not_equal(npy_read_file(path, &b, &d), 0); /* gone */
  free(path);
}

/* ---- hand-made headers ------------------------------------------------------ */

/* Builds a .npy image with the given version and header text (no padding
 * adjustments), followed by data. */
static uint8_t *mk(int major, const char *hdr, const void *data, size_t dlen, size_t *len) {
  size_t hl = strlen(hdr);
  size_t off = major == 1 ? 10 : 12;
  uint8_t *b = xmalloc(off + hl + dlen);
  memcpy(b, "\x93NUMPY", 6);
  b[6] = (uint8_t)major;
  b[7] = 0;
  b[8] = (uint8_t)hl;
  b[9] = (uint8_t)(hl >> 8);
  if (off == 12) b[10] = b[11] = 0;
  memcpy(b + off, hdr, hl);
  if (dlen) memcpy(b + off + hl, data, dlen);
  *len = off + hl + dlen;
  return b;
}

static void test_versions_and_byteorder(void **state) {
  (void)state;
  aotc_diag d = {0};
  npy_array a;
  size_t len;
  /* v2.0 and v3.0 headers (4-byte length), double quotes, no trailing
   * comma, extra whitespace; big-endian int32. */
  const uint8_t be[8] = {0, 0, 1, 2, 0xff, 0xff, 0xff, 0xfe};
  uint8_t *b = mk(2, "{\"descr\": \">i4\", \"shape\": (2,), \"fortran_order\": False}  \n", be, 8,
                  &len);
  assert_int_equal(npy_parse(b, len, &a, &d), 0);
  assert_int_equal(a.dtype, DT_INT32);
  assert_int_equal(((int32_t *)a.data)[0], 258);
  assert_int_equal(((int32_t *)a.data)[1], -2);
  npy_free(&a);
  free(b);
  const uint8_t u[4] = {1, 0, 0xff, 0xff};
  b = mk(3, "{'descr':'<u2','fortran_order':False,'shape':( 2 , ),}\n", u, 4, &len);
  assert_int_equal(npy_parse(b, len, &a, &d), 0);
  assert_int_equal(a.dtype, DT_UINT16);
  assert_true(npy_get_double(&a, 1) == 65535.0);
  npy_free(&a);
  free(b);
  /* Python 2 long dims, '|b1' and '?' */
  b = mk(1, "{'descr': '?', 'fortran_order': False, 'shape': (1L, 2L), }\n", u, 2, &len);
  assert_int_equal(npy_parse(b, len, &a, &d), 0);
  assert_int_equal(a.dtype, DT_BOOL);
  assert_int_equal(a.shape[1], 2);
  npy_free(&a);
  free(b);
  /* Extra bytes after the data are ignored (as NumPy does). */
  b = mk(1, "{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }\n", u, 4, &len);
  assert_int_equal(npy_parse(b, len, &a, &d), 0);
  assert_int_equal(a.nbytes, 3);
  npy_free(&a);
  free(b);
  /* Rank 8 writes and reads back; the header is padded to 64 bytes. */
  int64_t shape[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  assert_int_equal(npy_init(&a, "x", DT_INT8, 8, shape, "\x05", &d), 0);
  uint8_t *ser;
  assert_int_equal(npy_serialize(&a, &ser, &len, &d), 0);
  assert_int_equal(ser[6], 1);
  assert_int_equal((10 + ser[8] + 256 * ser[9]) % 64, 0);
  npy_array c;
  assert_int_equal(npy_parse(ser, len, &c, &d), 0);
  assert_int_equal(c.rank, 8);
  assert_int_equal(*(int8_t *)c.data, 5);
  npy_free(&c);
  npy_free(&a);
  free(ser);
}

static void expect_parse_error(int major, const char *hdr, size_t dlen, const char *needle) {
  aotc_diag d = {0};
  npy_array a;
  size_t len;
  uint8_t data[64] = {0};
  uint8_t *b = mk(major, hdr, data, dlen, &len);
  int rc = npy_parse(b, len, &a, &d);
  if (rc == 0) fail_msg("header accepted: %s", hdr);
  if (!strstr(d.msg, needle)) fail_msg("message '%s' lacks '%s'", d.msg, needle);
  assert_null(a.data);
  free(b);
}

static void test_malformed(void **state) {
  (void)state;
  expect_parse_error(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }\n", 8,
                     "Fortran order");
  expect_parse_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }\n", 8,
                     "truncated .npy data");
  expect_parse_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4), }\n", 16,
                     "not a tuple");
  expect_parse_error(1, "{'descr': '<U4', 'fortran_order': False, 'shape': (1,), }\n", 16,
                     "unsupported .npy dtype '<U4'");
  expect_parse_error(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }\n",
                     16, "structured");
  expect_parse_error(1, "{'descr': '<f4', 'shape': (1,), }\n", 16, "missing key 'fortran_order'");
  expect_parse_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }\n", 16,
                     "non-negative");
  expect_parse_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}\n", 16,
                     "unexpected key 'x'");
  expect_parse_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } junk\n", 16,
                     "trailing");
  expect_parse_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,", 16, "malformed");
  expect_parse_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1), }",
                     16, "more than 8 dimensions");
  expect_parse_error(1,
                     "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296,"
                     " 4294967296), }\n",
                     16, "overflows");
  expect_parse_error(1,
                     "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,),"
                     " }\n",
                     16, "overflows");
  expect_parse_error(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904,),"
                        " }\n", 16, "overflows");

  aotc_diag d = {0};
  npy_array a;
  assert_int_not_equal(npy_parse((const uint8_t *)"NUMPY\x01\x00\x00\x00\x00", 10, &a, &d), 0);
  assert_non_null(strstr(d.msg, "bad magic"));
  assert_int_not_equal(npy_parse((const uint8_t *)"\x93NUMPY\x04\x00\x00\x00\x00", 11, &a, &d), 0);
  assert_non_null(strstr(d.msg, "version 4.0"));
  /* header length beyond the end of the buffer */
  assert_int_not_equal(npy_parse((const uint8_t *)"\x93NUMPY\x01\x00\xff\x00{", 11, &a, &d), 0);
  assert_non_null(strstr(d.msg, "truncated .npy header"));
  assert_int_not_equal(npy_parse((const uint8_t *)"\x93NUMPY\x02\x00\x01\x00", 10, &a, &d), 0);
  assert_int_not_equal(npy_parse(NULL, 0, &a, &d), 0);

  /* Every prefix of a valid image is rejected without reading out of bounds. */
  size_t len;
  const float v[2] = {1, 2};
  uint8_t *b = mk(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", v, 8, &len);
  for (size_t k = 0; k < len; k++) {
    uint8_t *c = xmalloc(k);
    memcpy(c, b, k);
    assert_int_not_equal(npy_parse(c, k, &a, &d), 0);
    free(c);
  }
  assert_int_equal(npy_parse(b, len, &a, &d), 0);
  npy_free(&a);
  free(b);
}

static void test_npz_errors(void **state) {
  (void)state;
  aotc_diag d = {0};
  npy_array *a;
  int n;
  assert_int_not_equal(npz_read("/nonexistent/x.npz", &a, &n, &d), 0);
  assert_non_null(strstr(d.msg, "/nonexistent/x.npz"));
  assert_null(a);

  char *path = tmp_path("bad.npz");
  assert_int_equal(write_file_all(path, "not a zip at all", 16, &d), 0);
  assert_int_not_equal(npz_read(path, &a, &n, &d), 0);
  assert_non_null(strstr(d.msg, "cannot open .npz"));

  /* A stored archive with one data byte flipped: CRC error. */
  npy_array x;
  int64_t s[1] = {200};
  uint8_t data[200];
  for (int i = 0; i < 200; i++) data[i] = (uint8_t)i;
  assert_int_equal(npy_init(&x, "x", DT_UINT8, 1, s, data, &d), 0);
  assert_int_equal(npz_write(path, &x, 1, 0, &d), 0);
  uint8_t *buf;
  size_t len;
  assert_int_equal(read_file_all(path, &buf, &len, &d), 0);
  uint8_t *hit = NULL;
  for (size_t k = 0; k + 100 <= len && !hit; k++)
    if (memcmp(buf + k, data + 50, 100) == 0) hit = buf + k;
  assert_non_null(hit);
  hit[10] ^= 0x55;
  assert_int_equal(write_file_all(path, buf, len, &d), 0);
  free(buf);
  assert_int_not_equal(npz_read(path, &a, &n, &d), 0);
  assert_non_null(strstr(d.msg, "member 'x.npy'"));

  /* A member whose .npy is malformed names the member. */
  int err;
  zip_t *za = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &err);
  assert_non_null(za);
  static const char junk[] = "\x93NUMPY\x01\x00\x04\x00{}\n ";
  zip_source_t *src = zip_source_buffer(za, junk, sizeof junk - 1, 0);
  assert_true(zip_file_add(za, "y.npy", src, 0) >= 0);
  src = zip_source_buffer(za, "hello", 5, 0);
  assert_true(zip_file_add(za, "readme.txt", src, 0) >= 0);
  assert_int_equal(zip_close(za), 0);
  assert_int_not_equal(npz_read(path, &a, &n, &d), 0);
  assert_non_null(strstr(d.msg, "member 'y.npy'"));
  assert_non_null(strstr(d.msg, "missing key"));

  /* Non-.npy members are skipped. */
  za = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &err);
  uint8_t *ser;
  assert_int_equal(npy_serialize(&x, &ser, &len, &d), 0);
  src = zip_source_buffer(za, ser, len, 1);
  assert_true(zip_file_add(za, "x.npy", src, 0) >= 0);
  src = zip_source_buffer(za, "hello", 5, 0);
  assert_true(zip_file_add(za, "readme.txt", src, 0) >= 0);
  assert_int_equal(zip_close(za), 0);
  d.quiet = 1;
  assert_int_equal(npz_read(path, &a, &n, &d), 0);
  assert_int_equal(n, 1);
  assert_string_equal(a[0].name, "x");
  assert_memory_equal(a[0].data, data, 200);
  npz_free(a, n);

  /* Writer refusals */
  npy_array two[2] = {x, x};
  assert_int_not_equal(npz_write(path, two, 2, 0, &d), 0);
  assert_non_null(strstr(d.msg, "duplicate"));
  two[1].name = NULL;
  assert_int_not_equal(npz_write(path, two, 2, 0, &d), 0);
  npy_array bad = x;
  bad.nbytes = 3;
  assert_int_not_equal(npz_write(path, &bad, 1, 0, &d), 0);
  assert_non_null(strstr(d.msg, "does not match"));
  bad = x;
  bad.dtype = DT_STRING;
  assert_int_not_equal(npy_serialize(&bad, &ser, &len, &d), 0);
  assert_int_not_equal(npy_init(&bad, "s", DT_INT8, 9, s, NULL, &d), 0);

  npy_free(&x);
  unlink(path);
  free(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_kws_golden),
      cmocka_unit_test(test_scalar_and_1tuple_goldens),
      cmocka_unit_test(test_int16_uint8_goldens),
      cmocka_unit_test(test_serialize_matches_numpy),
      cmocka_unit_test(test_all_goldens_load),
      cmocka_unit_test(test_roundtrip_stored),
      cmocka_unit_test(test_roundtrip_deflated),
      cmocka_unit_test(test_npy_file_roundtrip),
      cmocka_unit_test(test_versions_and_byteorder),
      cmocka_unit_test(test_malformed),
      cmocka_unit_test(test_npz_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
