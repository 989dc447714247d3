/* test_lower.c - the lowering step's tables (src/ops/lower.h, kernels.def,
 * ops_unary.def, registry.c):
 *   - every kernel descriptor names a runtime file that exists and defines
 *     that very function, with a params type a runtime header defines;
 *   - the operator table has no entry twice, each entry is either lowered
 *     (no emit / eval of its own) or has its own emit, and every row of
 *     ops_unary.def is in it under its name;
 *   - an op lowers to the expected call (kernel, arguments, parameters) and
 *     lower_eval runs it: SIGN against hand-computed values; a list of two
 *     calls with a scratch argument runs in order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ops/lower.h"
#include "test_kernels_elementwise_util.h"

static char *slurp(const char *rel) {
  char path[1024];
  snprintf(path, sizeof path, "%s/runtime/%s", AOTC_SOURCE_DIR, rel);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = calloc(1, (size_t)n + 1);
  if (fread(s, 1, (size_t)n, f) != (size_t)n) n = 0;
  fclose(f);
  return s;
}

/* 1 if the file defines function name: "int32_t name(" or, for a file
 * made from a template header, "#define <macro> name" or a line invoking a
 * kernel-defining macro, "AOT_<MACRO>(name, ..." / "AOT_<MACRO>(x, name, ...". */
static int defines(const char *src, const char *name) {
  char def[128];
  snprintf(def, sizeof def, "int32_t %s(", name);
  if (strstr(src, def)) return 1;
  for (const char *p = strstr(src, "\nAOT_"); p; p = strstr(p + 1, "\nAOT_")) {
    const char *q = p + 1;
    while ((*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_') q++;
    if (*q != '(') continue;
    const char *nl = strchr(q, '\n');
    for (const char *a = q; a && a < (nl ? nl : a + strlen(a)); a = strchr(a + 1, ',')) {
      a++;
      while (*a == ' ') a++;
      const size_t n = strlen(name);
      if (strncmp(a, name, n) == 0 && (a[n] == ',' || a[n] == ')')) return 1;
    }
  }
  for (const char *p = strstr(src, "#define "); p; p = strstr(p + 1, "#define ")) {
    const char *sp = strchr(p + 8, ' ');
    const char *nl = strchr(p, '\n');
    if (sp && nl && sp < nl && (size_t)(nl - sp - 1) == strlen(name) &&
        strncmp(sp + 1, name, strlen(name)) == 0)
      return 1;
  }
  return 0;
}

static void test_kernel_table(void **state) {
  (void)state;
  static const char *const headers[] = {"aot_elementwise.h", "aot_conv.h", "aot_movement.h",
                                        "aot_recurrent.h"};
  enum { NH = sizeof headers / sizeof headers[0] };
  char *htext[NH];
  for (int i = 0; i < NH; i++) assert_non_null(htext[i] = slurp(headers[i]));
  assert_null(lower_kernel_get(-1));
  assert_null(lower_kernel_get(LK_COUNT));
  for (int k = 0; k < LK_COUNT; k++) {
    const lower_kernel *d = lower_kernel_get(k);
    assert_non_null(d);
    assert_non_null(d->fn);
    /* 1..3 tensor inputs, or a wide call (LP_GRU, the recurrent kinds) with its argument vector */
    const int wide = d->kind == LP_GRU || (d->kind >= LP_SVDF && d->kind <= LP_LSTM_Q);
    assert_true((d->nin >= 1 && d->nin <= 3) || (wide && d->nin > 3 && d->nin <= LOWER_MAX_ARGS));
    assert_int_equal(strncmp(d->name, "aot_", 4), 0);
    for (int j = 0; j < k; j++) assert_string_not_equal(lower_kernel_get(j)->name, d->name);
    char *src = slurp(d->file);
    if (!src) fail_msg("kernel %s: runtime file %s missing", d->name, d->file);
    const int defined = defines(src, d->name);
    free(src);
    if (!defined) fail_msg("%s does not define %s", d->file, d->name);
    if (d->kind == LP_STEP) continue; /* the movement engine prints these */
    const char *ct = lower_params_ctype(d->kind);
    assert_non_null(ct);
    char td[128];
    snprintf(td, sizeof td, "} %s;", ct);
    int found = 0;
    for (int i = 0; i < NH; i++) found |= strstr(htext[i], td) != NULL;
    if (!found) {
      for (int i = 0; i < NH; i++) free(htext[i]);
      fail_msg("params type %s of %s not defined in a runtime header", ct, d->name);
    }
  }
  for (int i = 0; i < NH; i++) free(htext[i]);
}

static void test_operator_table(void **state) {
  (void)state;
  const op_impl *const *all = ops_all();
  int n = 0;
  for (int i = 0; all[i]; i++, n++) {
    const op_impl *o = all[i];
    assert_non_null(o->name);
    assert_non_null(o->check);
    if (o->lower) {
      assert_null(o->emit);
      assert_null(o->eval);
    } else {
      assert_non_null(o->emit);
    }
    for (int j = 0; j < i; j++)
      if (all[j]->builtin == o->builtin &&
          (o->custom == NULL ? all[j]->custom == NULL
                             : all[j]->custom && strcmp(all[j]->custom, o->custom) == 0))
        fail_msg("%s listed twice", o->name);
  }
  assert_true(n > 80);
  static const struct {
    int code;
    const char *name;
  } unary[] = {
#define EW_UNARY(VAR, CODE, NAME, KF32, KS32, DTYPES, CONSTRAINTS) {CODE, NAME},
#include "ops/ops_unary.def"
#undef EW_UNARY
  };
  for (size_t i = 0; i < sizeof unary / sizeof unary[0]; i++) {
    ir_op op;
    memset(&op, 0, sizeof op);
    op.builtin = unary[i].code;
    const op_impl *o = ops_find(NULL, &op);
    assert_non_null(o);
    assert_string_equal(o->name, unary[i].name);
    assert_non_null(o->lower);
  }
}

static void test_lower_sign(void **state) {
  (void)state;
  tg t;
  tg_init(&t);
  int x = tg_tensor(&t, DT_FLOAT32, 2, (const int32_t[]){2, 2}, 0, 0);
  int y = tg_tensor(&t, DT_FLOAT32, 2, (const int32_t[]){2, 2}, 0, 0);
  const float in[4] = {-0.5f, 0.0f, 7.0f, -INFINITY}, want[4] = {-1.0f, 0.0f, 1.0f, -1.0f};
  memcpy(t.data[x], in, sizeof in);
  ir_op *op = tg_op(&t, OP_SIGN, 1, (int[]){x}, y);
  const op_impl *impl = ops_find(t.g, op);
  char why[256] = "";
  lower_list *L = calloc(1, sizeof *L);
  assert_int_equal(lower_op(impl, t.g, op, L, why, sizeof why), 0);
  assert_int_equal(L->n, 1);
  assert_ptr_equal(L->call[0].k, lower_kernel_get(LK(aot_sign_f32)));
  assert_string_equal(L->call[0].k->name, "aot_sign_f32");
  assert_string_equal(L->call[0].k->file, "BasicMathFunctions/aot_sign_f32.c");
  assert_int_equal(L->call[0].in[0], x);
  assert_int_equal(L->call[0].in[1], -1);
  assert_int_equal(L->call[0].out, y);
  assert_int_equal(L->call[0].u.un.size, 4);
  assert_int_equal(lower_eval(L, t.data, NULL), 0);
  assert_memory_equal(t.data[y], want, sizeof want);
  lower_release(L);
  /* the int32 row picks the int32 kernel */
  t.g->t[x].dtype = DT_INT32;
  t.g->t[y].dtype = DT_INT32;
  assert_int_equal(lower_op(impl, t.g, op, L, why, sizeof why), 0);
  assert_ptr_equal(L->call[0].k, lower_kernel_get(LK(aot_sign_s32)));
  lower_release(L);
  /* int8 does not lower */
  t.g->t[x].dtype = DT_INT8;
  t.g->t[y].dtype = DT_INT8;
  assert_int_equal(lower_op(impl, t.g, op, L, why, sizeof why), -1);
  assert_non_null(strstr(why, "input is int8, expected float32"));
  lower_release(L);
  free(L);
  tg_free(&t);
}

/* A hand-made list of two calls: NEG of the scratch buffer into y, then
 * SIGN of y into z (a scratch argument and an intermediate tensor). */
static void test_lower_list(void **state) {
  (void)state;
  tg t;
  tg_init(&t);
  int y = tg_tensor(&t, DT_INT32, 1, (const int32_t[]){3}, 0, 0);
  int z = tg_tensor(&t, DT_INT32, 1, (const int32_t[]){3}, 0, 0);
  int32_t scratch[3] = {3, -4, 0};
  lower_list *L = calloc(1, sizeof *L);
  L->n = 2;
  lower_call_init(&L->call[0], LK(aot_neg_s32), LOWER_SCRATCH, -1, -1, y);
  L->call[0].u.un.size = 3;
  lower_call_init(&L->call[1], LK(aot_sign_s32), y, -1, -1, z);
  L->call[1].u.un.size = 3;
  assert_int_equal(lower_eval(L, t.data, scratch), 0);
  assert_memory_equal(t.data[y], ((const int32_t[]){-3, 4, 0}), 3 * sizeof(int32_t));
  assert_memory_equal(t.data[z], ((const int32_t[]){-1, 1, 0}), 3 * sizeof(int32_t));
  lower_release(L);
  free(L);
  tg_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_kernel_table),
      cmocka_unit_test(test_operator_table),
      cmocka_unit_test(test_lower_sign),
      cmocka_unit_test(test_lower_list),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
