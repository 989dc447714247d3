/* test_kernels_elementwise_seanet.c - the TFLM seanet int16 single-op models
 * of the elementwise family (models/tflm/seanet-int16/{add,sub,leaky_relu,
 * quantize}): each model is read, every op is checked and evaluated with the
 * op_impls on the input CSVs, and the output is compared with the golden CSV
 * (made by the TFLite interpreter's reference kernels). TFLM's own test
 * accepts +-1 LSB on these vectors; we require +-1 and report how many values
 * match exactly (ADD, LEAKY_RELU and QUANTIZE must match exactly). Skips when
 * AOTC_SHARED is missing. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ir/ir.h"
#include "litert/litert.h"
#include "ops/ops.h"

static const char *shared_dir(void) {
  const char *s = getenv("AOTC_SHARED");
  return s && *s ? s : "../shared";
}

/* Reads comma-separated integers; returns the count (<= max), -1 if absent. */
static long read_csv(const char *path, int64_t *v, long max) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  long n = 0;
  long long x;
  while (n < max && fscanf(f, " %lld ,", &x) == 1) v[n++] = (int64_t)x;
  fclose(f);
  return n;
}

static const char *csv_type(int dt) {
  return dt == DT_INT16 ? "int16" : dt == DT_INT32 ? "int32" : dt == DT_INT8 ? "int8" : NULL;
}

static void store(void *p, int dt, long i, int64_t v) {
  if (dt == DT_INT16) ((int16_t *)p)[i] = (int16_t)v;
  else if (dt == DT_INT32) ((int32_t *)p)[i] = (int32_t)v;
  else ((int8_t *)p)[i] = (int8_t)v;
}

static int64_t load(const void *p, int dt, long i) {
  if (dt == DT_INT16) return ((const int16_t *)p)[i];
  if (dt == DT_INT32) return ((const int32_t *)p)[i];
  return ((const int8_t *)p)[i];
}

typedef struct stats {
  long values, exact, off1, bad;
  int models;
} stats;

/* Runs one model; returns 0, or -1 if it could not be run (reported). */
static int run_model(const char *dir, const char *name, stats *st) {
  char path[2048];   /* dir (up to 1023) + name (up to 255) + suffix */
  aotc_diag d;
  memset(&d, 0, sizeof d);
  snprintf(path, sizeof path, "%s/%s.tflite", dir, name);
  litert_model *m = litert_read_file(path, &d);
  if (!m) {
    print_error("%s: %s\n", path, d.msg);
    return -1;
  }
  ir_graph *g = ir_from_litert(m, 0, &d);
  if (!g) {
    print_error("%s: %s\n", path, d.msg);
    litert_model_free(m);
    return -1;
  }
  void **data = calloc((size_t)g->nt, sizeof(void *));
  for (int i = 0; i < g->nt; i++) {
    size_t b = ir_bytes(&g->t[i]);
    data[i] = calloc(1, b ? b : 1);
    if (g->t[i].role == ROLE_CONST && g->t[i].data) memcpy(data[i], g->t[i].data, b);
  }
  int rc = 0;
  int64_t *buf = malloc(sizeof(int64_t) << 18);
  /* inputs: <name>_input<k>_<type>.csv, in order of the first op's inputs */
  const ir_op *op0 = &g->ops[0];
  for (int k = 0; k < op0->nin && rc == 0; k++) {
    int t = op0->in[k];
    if (t < 0) continue;
    const ir_tensor *x = &g->t[t];
    snprintf(path, sizeof path, "%s/%s_input%d_%s.csv", dir, name, k, csv_type(x->dtype));
    long nv = read_csv(path, buf, 1 << 18);
    if (nv < 0) {
      if (x->role == ROLE_CONST) continue;
      print_error("%s: missing %s\n", name, path);
      rc = -1;
    } else if (nv != (long)ir_numel(x)) {
      print_error("%s: %s has %ld values, tensor %zu\n", name, path, nv, ir_numel(x));
      rc = -1;
    } else {
      for (long i = 0; i < nv; i++) store(data[t], x->dtype, i, buf[i]);
    }
  }
  for (int k = 0; k < g->nops && rc == 0; k++) {
    const ir_op *op = &g->ops[k];
    const op_impl *impl = ops_find(g, op);
    char why[256] = "";
    if (!impl || impl->check(g, op, why, sizeof why) != 0) {
      print_error("%s: op %d (%s) not supported: %s\n", name, k, litert_op_name(op->builtin), why);
      rc = -1;
      break;
    }
    int s = op_eval(impl, g, op, data, NULL);
    if (s != 0) {
      print_error("%s: op %d eval failed %d\n", name, k, s);
      rc = -1;
    }
  }
  if (rc == 0) {
    const ir_tensor *y = &g->t[g->outputs[0]];
    snprintf(path, sizeof path, "%s/%s_golden_%s.csv", dir, name, csv_type(y->dtype));
    long nv = read_csv(path, buf, 1 << 18);
    if (nv != (long)ir_numel(y)) {
      print_error("%s: golden csv has %ld values, tensor %zu\n", name, nv, ir_numel(y));
      rc = -1;
    } else {
      long off1_before = st->off1;
      for (long i = 0; i < nv; i++) {
        int64_t got = load(data[g->outputs[0]], y->dtype, i), diff = got - buf[i];
        if (diff == 0) st->exact++;
        else if (diff == 1 || diff == -1) st->off1++;
        else {
          if (st->bad < 5)
            print_error("%s: value %ld is %lld, golden %lld\n", name, i, (long long)got,
                        (long long)buf[i]);
          st->bad++;
        }
      }
      if (st->off1 > off1_before)
        print_message("  %s: %ld values off by 1\n", name, st->off1 - off1_before);
      st->values += nv;
      st->models++;
    }
  }
  free(buf);
  for (int i = 0; i < g->nt; i++) free(data[i]);
  free(data);
  ir_free(g);
  litert_model_free(m);
  return rc;
}

static void run_folder(const char *sub, int require_exact) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/models/tflm/seanet-int16/%s", shared_dir(), sub);
  DIR *dp = opendir(dir);
  if (!dp) {
    print_message("seanet %s: %s missing, skipped\n", sub, dir);
    skip();
    return;
  }
  stats st;
  memset(&st, 0, sizeof st);
  int failed = 0;
  struct dirent *de;
  while ((de = readdir(dp)) != NULL) {
    size_t len = strlen(de->d_name);
    if (len < 8 || strcmp(de->d_name + len - 7, ".tflite") != 0) continue;
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(len - 7), de->d_name);
    if (run_model(dir, name, &st) != 0) failed++;
  }
  closedir(dp);
  print_message("SEANET %-10s models=%d values=%ld exact=%ld off_by_1=%ld worse=%ld\n", sub,
                st.models, st.values, st.exact, st.off1, st.bad);
  assert_int_equal(failed, 0);
  assert_true(st.models > 0);
  assert_int_equal(st.bad, 0);
  if (require_exact) assert_int_equal(st.off1, 0);
}

static void test_add(void **s) { (void)s; run_folder("add", 1); }
static void test_sub(void **s) { (void)s; run_folder("sub", 0); }
static void test_leaky_relu(void **s) { (void)s; run_folder("leaky_relu", 1); }
static void test_quantize(void **s) { (void)s; run_folder("quantize", 1); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_add),
      cmocka_unit_test(test_sub),
      cmocka_unit_test(test_leaky_relu),
      cmocka_unit_test(test_quantize),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
