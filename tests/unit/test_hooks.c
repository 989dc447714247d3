/* test_hooks.c - the LiteRT model hook registry: fuse_rolled_gru registered by
 * default, hooks run in order, an embedding program adds and replaces hooks,
 * the config switch disables one, and a hook's error stops the conversion. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "compile.h"
#include "litert/hooks.h"
#include "test_ir_common.h"

static char order[16];
static int norder;

static int hook_a(litert_model *m, int sg, const char *path, aotc_diag *d) {
  (void)m; (void)sg; (void)path; (void)d;
  order[norder++] = 'a';
  return 1;
}
static int hook_b(litert_model *m, int sg, const char *path, aotc_diag *d) {
  (void)m; (void)sg; (void)path; (void)d;
  order[norder++] = 'b';
  return 0;
}
static int hook_fail(litert_model *m, int sg, const char *path, aotc_diag *d) {
  (void)m; (void)sg; (void)path;
  return diag_unsupported(d, "hook says no");
}

static litert_model *small_model(void) {
  litert_model *m = tm_new();
  int32_t s[2] = {1, 4};
  int x = tm_tensor(m, "x", 2, s), y = tm_tensor(m, "y", 2, s);
  tm_op(m, OP_ADD, 2, (int32_t[]){x, x}, 1, (int32_t[]){y});
  litert_set_io(m, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  return m;
}

static void test_registry(void **state) {
  (void)state;
  assert_true(litert_hooks_count() >= 1);
  assert_string_equal(litert_hooks_get(0)->name, "fuse_rolled_gru");
  assert_true(litert_hooks_get(0)->enabled);
  int ia = litert_hooks_register("test_a", "first", hook_a, 1);
  int ib = litert_hooks_register("test_b", "second", hook_b, 1);
  assert_true(ib == ia + 1);
  norder = 0;
  litert_model *m = small_model();
  aotc_diag d = {0};
  int counts[32] = {0};
  assert_int_equal(litert_hooks_run(m, NULL, counts, &d), 0);
  assert_int_equal(norder, 2);
  assert_memory_equal(order, "ab", 2);
  assert_int_equal(counts[ia], 1);
  /* replacing keeps the position */
  assert_int_equal(litert_hooks_register("test_a", "replaced", hook_b, 1), ia);
  norder = 0;
  assert_int_equal(litert_hooks_run(m, NULL, counts, &d), 0);
  assert_memory_equal(order, "bb", 2);
  /* disabling */
  assert_int_equal(litert_hooks_enable("test_b", 0), 0);
  assert_int_equal(litert_hooks_enable("no_such_hook", 0), -1);
  norder = 0;
  assert_int_equal(litert_hooks_run(m, NULL, counts, &d), 0);
  assert_int_equal(norder, 1);
  litert_model_free(m);
}

static void test_config_switch_and_error(void **state) {
  (void)state;
  litert_hooks_register("test_fail", "fails", hook_fail, 1);
  aotc_config c;
  config_init(&c);
  compile_register_switches(&c);
  compiled cm;
  aotc_diag d = {0};
  /* enabled: the conversion stops with the hook's error (exit code 2) */
  assert_int_not_equal(compile_litert(&c, small_model(), NULL, 1, &cm, &d), 0);
  assert_int_equal(d.code, 2);
  assert_non_null(strstr(d.msg, "hook says no"));
  /* disabled through the config key litert_hooks.test_fail */
  char *argv[] = {"--litert-hooks.test_fail", "false"};
  assert_int_equal(config_parse_args(&c, 2, argv, NULL, NULL, &d), 0);
  assert_int_equal(compile_litert(&c, small_model(), NULL, 1, &cm, &d), 0);
  compiled_free(&cm);
  config_free(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_registry),
      cmocka_unit_test(test_config_switch_and_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
