/* test_kernels_movement_seanet.c - the TFLM seanet int16 PAD and
 * STRIDED_SLICE single-op models (models/tflm/seanet-int16/{pad,
 * strided_slice}): every op of each model is checked and evaluated with the
 * movement op_impls on the model's input CSV, and the output must equal the
 * golden CSV (made by the TFLite reference kernels) exactly. Skips when
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

/* Reads comma-separated integers; returns the count (<= max). */
static int read_csv(const char *path, int32_t *v, int max) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  int n = 0;
  long x;
  while (n < max && fscanf(f, " %ld ,", &x) == 1) v[n++] = (int32_t)x;
  fclose(f);
  return n;
}

/* Runs one model; returns the number of mismatching output values, or -1 if
 * the model could not be run (reported). */
static int run_model(const char *dir, const char *name, int *nvalues) {
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
  int rc = 0, bad = 0;
  /* input */
  if (g->nin != 1 || g->nout != 1 || g->t[g->inputs[0]].dtype != DT_INT16 ||
      g->t[g->outputs[0]].dtype != DT_INT16) {
    print_error("%s: expected one int16 input and output\n", name);
    rc = -1;
    goto done;
  }
  int32_t *buf = malloc(1 << 20);
  const ir_tensor *tin = &g->t[g->inputs[0]], *tout = &g->t[g->outputs[0]];
  snprintf(path, sizeof path, "%s/%s_input0_int16.csv", dir, name);
  int n = read_csv(path, buf, 1 << 18);
  if (n != (int)ir_numel(tin)) {
    print_error("%s: input csv has %d values, tensor %zu\n", name, n, ir_numel(tin));
    rc = -1;
    free(buf);
    goto done;
  }
  for (int i = 0; i < n; i++) ((int16_t *)data[g->inputs[0]])[i] = (int16_t)buf[i];
  for (int k = 0; k < g->nops && rc == 0; k++) {
    const ir_op *op = &g->ops[k];
    const op_impl *impl = ops_find(g, op);
    char why[256] = "";
    if (!impl || impl->check(g, op, why, sizeof why) != 0) {
      print_error("%s: op %d (%s) not supported: %s\n", name, k, litert_op_name(op->builtin), why);
      rc = -1;
      break;
    }
    int st = op_eval(impl, g, op, data, NULL);
    if (st != 0) {
      print_error("%s: op %d eval failed %d\n", name, k, st);
      rc = -1;
    }
  }
  if (rc == 0) {
    snprintf(path, sizeof path, "%s/%s_golden_int16.csv", dir, name);
    n = read_csv(path, buf, 1 << 18);
    if (n != (int)ir_numel(tout)) {
      print_error("%s: golden csv has %d values, tensor %zu\n", name, n, ir_numel(tout));
      rc = -1;
    } else {
      const int16_t *o = data[g->outputs[0]];
      for (int i = 0; i < n; i++)
        if (o[i] != buf[i]) {
          if (bad < 3) print_error("%s: value %d is %d, golden %d\n", name, i, o[i], (int)buf[i]);
          bad++;
        }
      *nvalues += n;
    }
  }
  free(buf);
done:
  for (int i = 0; i < g->nt; i++) free(data[i]);
  free(data);
  ir_free(g);
  litert_model_free(m);
  return rc < 0 ? -1 : bad;
}

static void run_folder(const char *sub, int expect_min) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/models/tflm/seanet-int16/%s", shared_dir(), sub);
  DIR *dp = opendir(dir);
  if (!dp) {
    print_message("skipped: %s not found (set AOTC_SHARED)\n", dir);
    skip();
    return;
  }
  struct dirent *de;
  int models = 0, failed = 0, values = 0;
  while ((de = readdir(dp))) {
    size_t l = strlen(de->d_name);
    if (l < 8 || strcmp(de->d_name + l - 7, ".tflite") != 0) continue;
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(l - 7), de->d_name);
    int r = run_model(dir, name, &values);
    models++;
    if (r != 0) failed++;
  }
  closedir(dp);
  print_message("%s: %d models, %d values compared, %d failed\n", sub, models, values, failed);
  assert_true(models >= expect_min);
  assert_int_equal(failed, 0);
}

static void test_seanet_pad(void **state) {
  (void)state;
  run_folder("pad", 19);
}

static void test_seanet_strided_slice(void **state) {
  (void)state;
  run_folder("strided_slice", 34);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_seanet_pad),
      cmocka_unit_test(test_seanet_strided_slice),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
