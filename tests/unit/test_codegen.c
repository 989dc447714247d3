/* test_codegen.c - code generator pieces: every unsupported op reported at
 * once, prefix renaming only at identifier starts, float literals exact. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "codegen/codegen.h"
#include "test_ir_common.h"

static void test_all_unsupported_listed(void **state) {
  (void)state;
  litert_model *m = tm_new();
  int32_t s[2] = {1, 4};
  int x = tm_tensor(m, "x", 2, s), a = tm_tensor(m, "a", 2, s), y = tm_tensor(m, "y", 2, s);
  int z = tm_tensor(m, "z", 2, s);
  tm_op(m, OP_L2_NORMALIZATION, 1, (int32_t[]){x}, 1, (int32_t[]){a});
  tm_op(m, OP_ADD, 2, (int32_t[]){a, a}, 1, (int32_t[]){y});
  tm_op(m, OP_LOCAL_RESPONSE_NORMALIZATION, 1, (int32_t[]){y}, 1, (int32_t[]){z});
  litert_set_io(m, 0, 1, (int32_t[]){x}, 1, (int32_t[]){z});
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_int_equal(codegen_check_supported(g, &d), 2);
  assert_int_equal(d.code, 2);
  assert_non_null(strstr(d.msg, "op 0 (L2_NORMALIZATION, float32 -> float32)"));
  assert_non_null(strstr(d.msg, "op 2 (LOCAL_RESPONSE_NORMALIZATION, float32 -> float32)"));
  assert_null(strstr(d.msg, "op 1 "));
  assert_null(strchr(d.msg, '\n'));
  ir_free(g);
  litert_model_free(m);
}

static void test_rename_prefix(void **state) {
  (void)state;
  char *r = codegen_rename_prefix(
      "#include \"aot_common.h\"\nint32_t aot_model_run(aot_model_context_t *c); /* AOT_STATUS_OK */ "
      "int float_aot_x; int xaot_y;",
      "kws");
  assert_string_equal(r, "#include \"kws_common.h\"\nint32_t kws_model_run(kws_model_context_t *c); "
                         "/* KWS_STATUS_OK */ int float_aot_x; int xaot_y;");
  free(r);
}

/* hostile tensor names and paths cannot break the generated C */
static void test_hostile_names(void **state) {
  (void)state;
  if (system("cc --version >/dev/null 2>&1") != 0) skip();
  litert_model *m = tm_new();
  int32_t s[2] = {1, 4};
  int x = tm_tensor(m, "in */ #error x \n\"quoted\"", 2, s);
  int y = tm_tensor(m, "out*//*;\x01 trailing", 2, s);
  tm_op(m, OP_ADD, 2, (int32_t[]){x, x}, 1, (int32_t[]){y});
  litert_set_io(m, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_non_null(g);
  extern int plan_memory(ir_graph *, aotc_diag *);
  assert_int_equal(plan_memory(g, &d), 0);
  char tmpl[] = "/tmp/aotc-hostile-XXXXXX";
  assert_non_null(mkdtemp(tmpl));
  char dir[128], cmd[512];
  snprintf(dir, sizeof dir, "%s/m", tmpl);
  snprintf(cmd, sizeof cmd, "mkdir %s", dir);
  assert_int_equal(system(cmd), 0);
  cg_options o;
  memset(&o, 0, sizeof o);
  o.prefix = "aot";
  o.name = "aot_model";
  o.model_path = "/tmp/evil */ path;\n.tflite";
  o.runtime_dir = AOTC_SOURCE_DIR "/runtime";
  assert_int_equal(codegen_module(g, &o, dir, &d), 0);
  snprintf(cmd, sizeof cmd,
           "cc -std=c99 -Wall -Wextra -Werror -pedantic -fsyntax-only -I%s/includes-api -I%s/src %s/src/*.c",
           dir, dir, dir);
  assert_int_equal(system(cmd), 0);
  snprintf(cmd, sizeof cmd, "rm -rf %s", tmpl);
  assert_int_equal(system(cmd), 0);
  ir_free(g);
  litert_model_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_all_unsupported_listed),
      cmocka_unit_test(test_rename_prefix),
      cmocka_unit_test(test_hostile_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
