/* test_refusals.c - the diagnostics buffer (a message longer than it keeps
 * its reason and fix; temporary paths replaced), the refusal of Flex,
 * ethos-u and unknown CUSTOM ops in every subgraph (custom_ops_prepare), the
 * custom_operators config key (YAML and flags, its errors), and the IR
 * verifier's messages (subgraph, ops, tensors). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "aotc.h"
#include "config/config.h"
#include "ir/ir.h"
#include "litert/litert.h"
#include "ops/op_custom.h"

static void assert_one_line(const char *s) {
  for (; *s; s++) assert_true((unsigned char)*s >= 32);
}

static int ends_with(const char *s, const char *end) {
  size_t a = strlen(s), b = strlen(end);
  return a >= b && !strcmp(s + a - b, end);
}

/* ---- diagnostics ---- */

static void test_long_name_keeps_reason(void **st) {
  (void)st;
  char *name = xmalloc(3001);
  memset(name, 'n', 3000);
  memcpy(name, "start_of_name", 13);
  memcpy(name + 2989, "end_of_name", 11);
  name[3000] = 0;
  aotc_diag d = {0};
  assert_int_equal(diag_unsupported(&d, "op 7 (CUSTOM '%s') reads tensor 3 '%s'; the fix: re-export it", name, "x"), -1);
  assert_int_equal(d.code, 2);
  assert_true(strlen(d.msg) < sizeof d.msg);
  assert_true(ends_with(d.msg, "; the fix: re-export it"));
  assert_non_null(strstr(d.msg, "op 7 (CUSTOM 'start_of_name"));
  assert_non_null(strstr(d.msg, "..."));
  assert_non_null(strstr(d.msg, "end_of_name'"));
  assert_non_null(strstr(d.msg, "tensor 3 'x'"));
  /* many long names: each is shortened, the reason stays */
  aotc_diag d2 = {0};
  diag_error(&d2, "'%s' '%s' '%s' '%s' '%s': reason", name, name, name, name, name);
  assert_true(ends_with(d2.msg, ": reason"));
  assert_int_equal(d2.code, 1);
  free(name);
}

static void test_long_text_keeps_both_ends(void **st) {
  (void)st;
  char *text = xmalloc(5001);
  memset(text, 'a', 5000);
  text[5000] = 0;
  aotc_diag d = {0};
  diag_error(&d, "what: %s; fix: do this", text);
  assert_true(strlen(d.msg) < sizeof d.msg);
  assert_true(!strncmp(d.msg, "what: aaa", 9));
  assert_true(ends_with(d.msg, "; fix: do this"));
  assert_non_null(strstr(d.msg, " ... "));
  /* a short message is left as it is, control characters become spaces */
  diag_error(&d, "line1\nline2 '%s'", "n\tm");
  assert_string_equal(d.msg, "line1 line2 'n m'");
  free(text);
}

static void test_replace_temp_path(void **st) {
  (void)st;
  aotc_diag d = {0};
  diag_error(&d, "cannot write '/x/out.aotc-tmp-42/src/a.c' and '/x/out.aotc-tmp-42/b'");
  diag_replace(&d, "/x/out.aotc-tmp-42", "/x/out");
  assert_string_equal(d.msg, "cannot write '/x/out/src/a.c' and '/x/out/b'");
  diag_replace(&d, "absent", "y");
  assert_string_equal(d.msg, "cannot write '/x/out/src/a.c' and '/x/out/b'");
}

/* ---- CUSTOM refusals ---- */

static litert_model *model_with(const char *code0, int sg_of_custom, const char *code1) {
  litert_model *m = litert_model_new();
  litert_options o;
  litert_options_default(&o);
  int32_t s4[1] = {4};
  for (int s = 0; s < 2; s++) {
    litert_add_subgraph(m, s ? "other" : "main");
    int x = litert_add_tensor(m, s, "x", DT_FLOAT32, 1, s4, 0);
    int a = litert_add_tensor(m, s, "a", DT_FLOAT32, 1, s4, 0);
    int y = litert_add_tensor(m, s, "y", DT_FLOAT32, 1, s4, 0);
    litert_add_op(m, s, OP_ADD, NULL, 2, (int32_t[]){x, x}, 1, (int32_t[]){a}, &o);
    const char *code = s == sg_of_custom ? code0 : code1;
    if (code) litert_add_op(m, s, OP_CUSTOM, code, 1, (int32_t[]){a}, 1, (int32_t[]){y}, &o);
    else litert_add_op(m, s, OP_ADD, NULL, 2, (int32_t[]){a, a}, 1, (int32_t[]){y}, &o);
    litert_set_io(m, s, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  }
  return m;
}

static void test_flex_in_any_subgraph(void **st) {
  (void)st;
  litert_model *m = model_with("FlexTensorListReserve", 1, NULL);
  aotc_diag d = {0};
  assert_int_equal(custom_ops_prepare(NULL, m, 1, &d), -1);
  assert_int_equal(d.code, 2);
  assert_one_line(d.msg);
  assert_non_null(strstr(d.msg, "'FlexTensorListReserve' (1 op, first subgraph 1 op 1)"));
  assert_non_null(strstr(d.msg, "TFLITE_BUILTINS"));
  assert_non_null(strstr(d.msg, "unroll=True"));
  /* refused even when unknown customs are not checked (inspect) */
  aotc_diag d2 = {0};
  assert_int_equal(custom_ops_prepare(NULL, m, 0, &d2), -1);
  litert_model_free(m);
}

static void test_ethos_u_and_unknown(void **st) {
  (void)st;
  litert_model *m = model_with("ethos-u", 0, NULL);
  aotc_diag d = {0};
  assert_int_equal(custom_ops_prepare(NULL, m, 0, &d), -1);
  assert_non_null(strstr(d.msg, "subgraph 0 op 1 is CUSTOM 'ethos-u'"));
  assert_non_null(strstr(d.msg, "before Vela"));
  litert_model_free(m);

  m = model_with("Foo", 0, "Bar");
  aotc_diag d2 = {0};
  assert_int_equal(custom_ops_prepare(NULL, m, 0, &d2), 0); /* inspect: listed later */
  assert_int_equal(custom_ops_prepare(NULL, m, 1, &d2), -1);
  assert_int_equal(d2.code, 2);
  assert_non_null(strstr(d2.msg, "subgraph 0 op 1 is CUSTOM 'Foo'"));
  assert_non_null(strstr(d2.msg, "'Bar' (1 op, first subgraph 1 op 1)"));
  assert_non_null(strstr(d2.msg, "custom_operators"));
  litert_model_free(m);

  /* aotc's own custom operator is not an unknown one */
  m = model_with("GRU", 0, NULL);
  aotc_diag d3 = {0};
  assert_int_equal(custom_ops_prepare(NULL, m, 1, &d3), 0);
  litert_model_free(m);
}

/* ---- custom_operators config ---- */

static void test_config_yaml_and_flags(void **st) {
  (void)st;
  aotc_config c;
  aotc_diag d = {0};
  config_init(&c);
  const char *y = "custom_operators:\n"
                  "  - code: MY_OP\n"
                  "    source: k/my.c\n"
                  "    function: my_run\n"
                  "    scratch_bytes: 64\n"
                  "    outputs: [{dtype: int8, shape: [1, 10]}, {dtype: float32, shape: []}]\n";
  assert_int_equal(config_load_yaml_string(&c, y, "/cfg/dir/a.yaml", &d), 0);
  assert_int_equal(c.n_custom_ops, 1);
  assert_string_equal(c.custom_ops[0].code, "MY_OP");
  assert_string_equal(c.custom_ops[0].source, "/cfg/dir/k/my.c");
  assert_string_equal(c.custom_ops[0].function, "my_run");
  assert_int_equal(c.custom_ops[0].scratch_bytes, 64);
  assert_int_equal(c.custom_ops[0].noutputs, 2);
  assert_int_equal(c.custom_ops[0].outputs[0].dtype, DT_INT8);
  assert_int_equal(c.custom_ops[0].outputs[0].rank, 2);
  assert_int_equal(c.custom_ops[0].outputs[0].shape[1], 10);
  assert_int_equal(c.custom_ops[0].outputs[1].rank, 0);
  char *argv[] = {"--custom-operators.MY_OP.function", "other_run",
                  "--custom_operators.B2.outputs=int16[3];float32[2,2]", NULL};
  assert_int_equal(config_parse_args(&c, 3, argv, NULL, NULL, &d), 0);
  assert_string_equal(c.custom_ops[0].function, "other_run");
  assert_int_equal(c.n_custom_ops, 2);
  assert_string_equal(c.custom_ops[1].code, "B2");
  assert_int_equal(c.custom_ops[1].noutputs, 2);
  assert_int_equal(c.custom_ops[1].outputs[0].dtype, DT_INT16);
  assert_int_equal(c.custom_ops[1].outputs[1].shape[1], 2);
  /* the dump reads back to the same entries */
  FILE *f = tmpfile();
  assert_non_null(f);
  config_dump_yaml(&c, f);
  long n = ftell(f);
  rewind(f);
  char *text = xcalloc((size_t)n + 1, 1);
  assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  aotc_config c2;
  config_init(&c2);
  if (config_load_yaml_string(&c2, text, "<string>", &d) != 0) fail_msg("%s\n%s", d.msg, text);
  assert_int_equal(c2.n_custom_ops, 2);
  for (int i = 0; i < 2; i++) {
    assert_string_equal(c2.custom_ops[i].code, c.custom_ops[i].code);
    assert_int_equal(c2.custom_ops[i].noutputs, c.custom_ops[i].noutputs);
    assert_int_equal(c2.custom_ops[i].scratch_bytes, c.custom_ops[i].scratch_bytes);
    for (int k = 0; k < c.custom_ops[i].noutputs; k++) {
      assert_int_equal(c2.custom_ops[i].outputs[k].dtype, c.custom_ops[i].outputs[k].dtype);
      assert_int_equal(c2.custom_ops[i].outputs[k].rank, c.custom_ops[i].outputs[k].rank);
    }
  }
  assert_string_equal(c2.custom_ops[0].source, "/cfg/dir/k/my.c");
  assert_string_equal(c2.custom_ops[0].function, "other_run");
  free(text);
  config_free(&c2);
  config_free(&c);
}

static void expect_yaml_error(const char *yaml, const char *pattern) {
  aotc_config c;
  aotc_diag d = {0};
  config_init(&c);
  assert_int_not_equal(config_load_yaml_string(&c, yaml, "c.yaml", &d), 0);
  assert_one_line(d.msg);
  if (!strstr(d.msg, pattern)) fail_msg("'%s' not in '%s'", pattern, d.msg);
  config_free(&c);
}

static void test_config_errors(void **st) {
  (void)st;
  expect_yaml_error("custom_operators: 3\n", "must be a list");
  expect_yaml_error("custom_operators:\n  - source: a.c\n", "line 2): the entry has no code");
  expect_yaml_error("custom_operators:\n  - {code: A, sauce: a.c}\n", "unknown field 'sauce'; fields: code, source");
  expect_yaml_error("custom_operators:\n  - {code: A}\n  - {code: A}\n", "code 'A' is registered twice");
  expect_yaml_error("custom_operators:\n  - {code: A, function: 9x}\n", "function '9x' is not a C identifier");
  expect_yaml_error("custom_operators:\n  - {code: A, scratch_bytes: -1}\n", "scratch_bytes '-1'");
  expect_yaml_error("custom_operators:\n  - {code: A, outputs: [{dtype: int9, shape: [1]}]}\n", "output dtype 'int9'");
  expect_yaml_error("custom_operators:\n  - {code: A, outputs: [{dtype: int8}]}\n", "needs both dtype and shape");
  expect_yaml_error("custom_operators:\n  - {code: A, outputs: 'int8[1,x]'}\n", "output dim 'x'");
  aotc_config c;
  aotc_diag d = {0};
  config_init(&c);
  char *argv[] = {"--custom-operators.A", "x", NULL};
  assert_int_not_equal(config_parse_args(&c, 2, argv, NULL, NULL, &d), 0);
  assert_non_null(strstr(d.msg, "--custom_operators.<CODE>.<field>"));
  config_free(&c);
}

/* ---- IR verifier ---- */

static void test_verifier_messages(void **st) {
  (void)st;
  litert_model *m = litert_model_new();
  litert_options o;
  litert_options_default(&o);
  int32_t s4[1] = {4};
  litert_add_subgraph(m, "main");
  int x = litert_add_tensor(m, 0, "x", DT_FLOAT32, 1, s4, 0);
  int y = litert_add_tensor(m, 0, "y", DT_FLOAT32, 1, s4, 0);
  int z = litert_add_tensor(m, 0, "z", DT_FLOAT32, 1, s4, 0);
  litert_add_op(m, 0, OP_ADD, NULL, 2, (int32_t[]){x, z}, 1, (int32_t[]){y}, &o);
  litert_add_op(m, 0, OP_MUL, NULL, 2, (int32_t[]){x, x}, 1, (int32_t[]){z}, &o);
  litert_set_io(m, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_non_null(g);
  assert_int_equal(ir_verify(g, &d), -1);
  assert_non_null(strstr(d.msg, "subgraph 0 op 0 (ADD) reads tensor 2 'z' (input 1), which op 1 (MUL) writes only later"));
  /* two writers name both ops */
  g->ops[0].in[1] = x;
  g->ops[1].out[0] = y;
  assert_int_equal(ir_verify(g, &d), -1);
  assert_non_null(strstr(d.msg, "tensor 1 'y' is written by two ops, op 0 (ADD) and op 1 (MUL)"));
  ir_free(g);
  litert_model_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_long_name_keeps_reason),
      cmocka_unit_test(test_long_text_keeps_both_ends),
      cmocka_unit_test(test_replace_temp_path),
      cmocka_unit_test(test_flex_in_any_subgraph),
      cmocka_unit_test(test_ethos_u_and_unknown),
      cmocka_unit_test(test_config_yaml_and_flags),
      cmocka_unit_test(test_config_errors),
      cmocka_unit_test(test_verifier_messages),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
