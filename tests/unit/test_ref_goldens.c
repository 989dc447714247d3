/* test_ref_goldens.c - the reference interpreter against the runtime goldens.
 *
 * For every shared model with a golden in $AOTC_SHARED/goldens/<dir>/<name>.npz
 * (made by the LiteRT runtime: input_N, output_N of the first run, runK_output_N
 * of run K+1 with the state carried), the interpreter runs the model as many
 * times as the golden has runs (sequence mode over identical inputs, so the
 * state is carried exactly as in the golden) and every output is compared:
 *  - integer outputs: within 1 LSB of LiteRT, and within 1 LSB of the TFLM
 *    golden ($AOTC_SHARED/goldens-tflm/...) where one exists;
 *  - float outputs: |got - want| <= 1e-4 |want| + 1e-5 max|want| (hybrid
 *    models, int8 weights of float ops: LiteRT quantizes the activations, the
 *    interpreter dequantizes the weights, so 1e-3 of the output range).
 * The stateful ones also run twice in a row with a reset in between; both
 * halves must match the golden (a reset gives back a fresh instance).
 * A model whose operators aotc does not support (yet) is skipped with the
 * reason. One line per model is printed (REF-GOLDEN ...): pass/fail, the
 * worst error and the exact-match percentage.
 *
 * Skipped entirely when the shared data is missing. */
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

#include "aotc.h"
#include "io/npy.h"
#include "litert/litert.h"
#include "ref/ref.h"

typedef struct gcase {
  const char *dir, *name, *ext;
  int hybrid;       /* float model with int8 weights */
} gcase;

static const gcase cases[] = {
    {"mlperf-tiny", "ad01_int8", ".tflite", 0},
    {"mlperf-tiny", "kws_ref_model", ".tflite", 0},
    {"mlperf-tiny", "kws_ref_model_float32", ".tflite", 1},
    {"mlperf-tiny", "pretrainedResnet_quant", ".tflite", 0},
    {"mlperf-tiny", "str_ww_ref_model", ".tflite", 0},
    {"mlperf-tiny", "vww_96_int8", ".tflite", 0},
    {"tflm", "hello_world_float", ".tflite", 0},
    {"tflm", "hello_world_int8", ".tflite", 0},
    {"tflm", "keyword_scrambled_8bit", ".tflite", 0},
    {"tflm", "micro_speech_quantized", ".tflite", 0},
    {"tflm", "trained_lstm", ".tflite", 0},
    {"tflm", "trained_lstm_int8", ".tflite", 0},
    {"litert-testdata", "multi_subgraphs_while", ".bin", 0},
    {"litert-testdata", "nested_while", ".bin", 0},
    {"litert-testdata", "call_once_mul", ".bin", 0},
    {"litert-testdata", "resource_vars_calibrated", ".bin", 0},
    {"litert-testdata", "unidirectional_sequence_lstm", ".bin", 0},
    {"streaming", "okay_nabu_v2", ".tflite", 0},
    {"gru", "bigru64_fp32", ".tflite", 0},
    {"gru", "bigru64_fp16w", ".tflite", 0},
    {"gru", "precise_hey_mycroft", ".tflite", 0},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

static const char *shared_dir(void) {
  const char *s = getenv("AOTC_SHARED");
  return s && *s ? s : "../shared";
}

static int have_shared(void) {
  char *p = xasprintf("%s/models/SOURCES.md", shared_dir());
  int ok = access(p, R_OK) == 0;
  free(p);
  return ok;
}

typedef struct cmp {
  double max_err;
  size_t exact, total, bad;
  char first_bad[200];
} cmp;

/* Compares step `step` of got (stacked on a leading axis) with want. */
static void compare(const npy_array *got, size_t per, int step, const npy_array *want, int hybrid,
                    cmp *c, const char *what) {
  int is_float = got->dtype == DT_FLOAT32 || got->dtype == DT_FLOAT64 || got->dtype == DT_FLOAT16;
  double maxabs = 0;
  for (size_t i = 0; i < want->count; i++) {
    double e = fabs(npy_get_double(want, i));
    if (e > maxabs) maxabs = e;
  }
  for (size_t i = 0; i < per && i < want->count; i++) {
    double g = npy_get_double(got, (size_t)step * per + i), e = npy_get_double(want, i);
    double err = fabs(g - e);
    double lim = is_float ? (hybrid ? 1e-3 * maxabs + 1e-4 * fabs(e)
                                    : 1e-4 * fabs(e) + 1e-5 * maxabs)
                          : 1.0;
    if (err > c->max_err || err != err) c->max_err = err;
    if (err == 0) c->exact++;
    c->total++;
    if (!(err <= lim)) {
      if (!c->bad)
        snprintf(c->first_bad, sizeof c->first_bad, "%s index %zu: got %.9g want %.9g", what, i, g, e);
      c->bad++;
    }
  }
}

static const npy_array *golden_out(const npy_array *a, int n, int run, int i) {
  char key[48];
  if (run == 0) snprintf(key, sizeof key, "output_%d", i);
  else snprintf(key, sizeof key, "run%d_output_%d", run, i);
  return npz_find(a, n, key);
}

/* reset: run the golden's runs twice with a reset in between (sequence mode,
 * resets = {runs}); both halves must match the golden, i.e. a reset gives back
 * a fresh instance. Only for goldens with more than one run. */
static void run_case_mode(const gcase *gc, int reset) {
  if (!have_shared()) {
    fprintf(stderr, "skipping: %s/models not found (set AOTC_SHARED)\n", shared_dir());
    skip();
  }
  char *mpath = xasprintf("%s/models/%s/%s%s", shared_dir(), gc->dir, gc->name, gc->ext);
  char *gpath = xasprintf("%s/goldens/%s/%s.npz", shared_dir(), gc->dir, gc->name);
  char *tpath = xasprintf("%s/goldens-tflm/%s/%s.npz", shared_dir(), gc->dir, gc->name);
  aotc_diag d = {0};
  d.quiet = 1;
  litert_model *m = litert_read_file(mpath, &d);
  if (!m) fail_msg("%s: %s", mpath, d.msg);
  npy_array *ga = NULL, *ta = NULL;
  int gn = 0, tn = 0;
  assert_int_equal(npz_read(gpath, &ga, &gn, &d), 0);
  if (access(tpath, R_OK) == 0) assert_int_equal(npz_read(tpath, &ta, &tn, &d), 0);
  int runs = 1;
  while (golden_out(ga, gn, runs, 0)) runs++;
  if (reset && runs < 2) {
    printf("REF-GOLDEN %s/%s (reset) SKIP: the golden has one run\n", gc->dir, gc->name);
    npz_free(ga, gn);
    if (ta) npz_free(ta, tn);
    litert_model_free(m);
    free(mpath), free(gpath), free(tpath);
    skip();
  }
  int gruns = runs;           /* runs in the golden */
  if (reset) runs *= 2;       /* steps executed */
  const litert_subgraph *sg = &m->subgraphs[0];
  npy_array *ins = xcalloc((size_t)sg->ninputs + 1, sizeof(npy_array));
  for (int i = 0; i < sg->ninputs; i++) {
    char key[32];
    snprintf(key, sizeof key, "input_%d", i);
    const npy_array *a = npz_find(ga, gn, key);
    if (!a) fail_msg("%s: no %s", gpath, key);
    int64_t sh[NPY_MAX_RANK + 1];
    sh[0] = runs;
    for (int k = 0; k < a->rank; k++) sh[k + 1] = a->shape[k];
    assert_int_equal(npy_init(&ins[i], key, a->dtype, a->rank + 1, sh, NULL, &d), 0);
    for (int r = 0; r < runs; r++) memcpy((uint8_t *)ins[i].data + (size_t)r * a->nbytes, a->data, a->nbytes);
  }
  int reset_at[1] = {gruns};
  ref_options o = {1, 0, NULL, 1, reset ? 1 : 0, reset_at};
  npy_array *outs = NULL;
  int nout = 0;
  int rc = ref_run(m, ins, sg->ninputs, &o, &outs, &nout, &d);
  char label[96];
  snprintf(label, sizeof label, "%s/%s%s", gc->dir, gc->name, reset ? " (reset)" : "");
  if (rc != 0) {
    if (d.code == 2) {
      printf("REF-GOLDEN %-40s SKIP unsupported: %s\n", label, d.msg);
      npz_free(ins, sg->ninputs);
      npz_free(ga, gn);
      if (ta) npz_free(ta, tn);
      litert_model_free(m);
      free(mpath), free(gpath), free(tpath);
      skip();
    }
    fail_msg("%s: %s", label, d.msg);
  }
  cmp cl = {0}, ct = {0};
  int int_out = 0;
  for (int i = 0; i < nout; i++) {
    if (dtype_is_int(outs[i].dtype)) int_out = 1;
    for (int r = 0; r < runs; r++) {
      const npy_array *w = golden_out(ga, gn, r % gruns, i);
      if (!w) fail_msg("%s: golden has no output %d of run %d", label, i, r + 1);
      size_t per = outs[i].count / (size_t)runs;
      if (w->count != per || w->dtype != outs[i].dtype)
        fail_msg("%s: output %d: golden %s x %zu, interpreter %s x %zu", label, i,
                 dtype_name(w->dtype), w->count, dtype_name(outs[i].dtype), per);
      char what[64];
      snprintf(what, sizeof what, "run %d output %d", r + 1, i);
      compare(&outs[i], per, r, w, gc->hybrid, &cl, what);
      const npy_array *tw = ta ? golden_out(ta, tn, r % gruns, i) : NULL;
      if (tw) compare(&outs[i], per, r, tw, gc->hybrid, &ct, what);
    }
  }
  int pass = cl.bad == 0 && ct.bad == 0;
  printf("REF-GOLDEN %-40s %s runs=%d  LiteRT: max_err=%.3g exact=%.1f%%", label,
         pass ? "PASS" : "FAIL", runs, cl.max_err, cl.total ? 100.0 * (double)cl.exact / (double)cl.total : 100.0);
  if (ct.total)
    printf("  TFLM: max_err=%.3g exact=%.1f%%", ct.max_err, 100.0 * (double)ct.exact / (double)ct.total);
  printf("%s\n", int_out ? "  (integer)" : "");
  if (cl.bad) printf("    LiteRT mismatches: %zu, first: %s\n", cl.bad, cl.first_bad);
  if (ct.bad) printf("    TFLM mismatches: %zu, first: %s\n", ct.bad, ct.first_bad);
  fflush(stdout);
  npz_free(outs, nout);
  npz_free(ins, sg->ninputs);
  npz_free(ga, gn);
  if (ta) npz_free(ta, tn);
  litert_model_free(m);
  free(mpath), free(gpath), free(tpath);
  assert_true(pass);
}

static void run_case(void **state) { run_case_mode(*state, 0); }
static void run_reset_case(void **state) { run_case_mode(*state, 1); }

static const char *const reset_cases[] = {"keyword_scrambled_8bit", "call_once_mul",
                                           "resource_vars_calibrated", "okay_nabu_v2"};
enum { NRESET = sizeof reset_cases / sizeof reset_cases[0] };

int main(void) {
  struct CMUnitTest tests[NCASES + NRESET];
  char names[NRESET][64];
  int n = 0;
  for (int i = 0; i < NCASES; i++)
    tests[n++] = (struct CMUnitTest){cases[i].name, run_case, NULL, NULL, (void *)&cases[i]};
  for (int k = 0; k < NRESET; k++)
    for (int i = 0; i < NCASES; i++)
      if (strcmp(cases[i].name, reset_cases[k]) == 0) {
        snprintf(names[k], sizeof names[k], "%s_reset", cases[i].name);
        tests[n++] = (struct CMUnitTest){names[k], run_reset_case, NULL, NULL, (void *)&cases[i]};
      }
  return _cmocka_run_group_tests("ref_goldens", tests, (size_t)n, NULL, NULL);
}
