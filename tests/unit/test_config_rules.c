/* test_config_rules.c - helia-aot's attribute rules (memory.tensors,
 * operators): parsing from YAML and flags (types in any case, ids as a
 * string, a number or a list, the older 'arena' spelling, null fields), the
 * precedence config_rules_resolve applies ((type and id) > type > id > "*",
 * the later rule among equals, field-by-field merge) and the one-line errors
 * (unknown keys and attributes with a suggestion, bad types, wrong shapes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "aotc.h"
#include "config/config.h"

static void load(aotc_config *c, const char *yaml) {
  aotc_diag d = {0};
  d.quiet = 1;
  config_init(c);
  int rc = config_load_yaml_string(c, yaml, "r.yaml", &d);
  if (rc) fprintf(stderr, "unexpected error: %s\n", d.msg);
  assert_int_equal(rc, 0);
}

/* The error of a YAML text that must fail, one line. */
static const char *load_err(const char *yaml, char *buf, size_t n) {
  aotc_config c;
  aotc_diag d = {0};
  d.quiet = 1;
  config_init(&c);
  assert_int_not_equal(config_load_yaml_string(&c, yaml, "r.yaml", &d), 0);
  snprintf(buf, n, "%s", d.msg);
  assert_null(strchr(buf, '\n'));
  config_free(&c);
  return buf;
}

static const char *mem_of(const aotc_config *c, const char *role, const char *id) {
  aotc_rule_attrs a;
  config_rules_resolve(c->memory_tensors, c->memory_n_tensors, role, id, &a);
  return a.memory;
}

static void test_parse_forms(void **state) {
  (void)state;
  aotc_config c;
  load(&c, "memory:\n  tensors:\n"
           "    - {type: SCRATCH, attributes: {memory: DTCM}}\n"
           "    - {type: constant, id: 45, attributes: {arena: MRAM}}\n"
           "    - {type: Constant, id: [\"45\", 47], attributes: {memory: mram, constant_destination_memory: SRAM}}\n"
           "    - {id: null, type: null, attributes: {memory: null}}\n"
           "operators:\n  - {type: conv_2d, id: [\"3\"], attributes: {scratch_placement: DTCM, accel: yes}}\n");
  assert_int_equal(c.memory_n_tensors, 4);
  assert_string_equal(c.memory_tensors[0].type, "scratch");
  assert_string_equal(c.memory_tensors[0].memory, "dtcm");
  assert_int_equal(c.memory_tensors[1].nids, 1);
  assert_string_equal(c.memory_tensors[1].ids[0], "45");
  assert_string_equal(c.memory_tensors[1].memory, "mram"); /* the older 'arena' */
  assert_string_equal(c.memory_tensors[2].type, "constant");
  assert_string_equal(c.memory_tensors[2].ids[1], "47");
  assert_string_equal(c.memory_tensors[2].constant_destination_memory, "sram");
  assert_null(c.memory_tensors[3].type);
  assert_null(c.memory_tensors[3].ids);
  assert_null(c.memory_tensors[3].memory);
  for (int i = 0; i < 4; i++) assert_int_equal(c.memory_tensors[i].order, i);
  assert_int_equal(c.n_operators, 1);
  assert_string_equal(c.operators[0].type, "CONV_2D");
  assert_string_equal(c.operators[0].scratch_placement, "dtcm");
  assert_int_equal(c.operators[0].accel, 1);
  config_free(&c);
}

static void test_precedence(void **state) {
  (void)state;
  aotc_config c;
  /* listed from the most to the least specific, so list order alone would
   * give the wrong answers */
  load(&c, "memory:\n  tensors:\n"
           "    - {type: constant, id: [\"7\"], attributes: {memory: itcm}}\n"
           "    - {type: constant, attributes: {memory: mram}}\n"
           "    - {id: [\"7\", \"8\"], attributes: {memory: psram}}\n"
           "    - {type: \"*\", attributes: {memory: sram}}\n");
  assert_string_equal(mem_of(&c, "constant", "7"), "itcm");   /* type and id */
  assert_string_equal(mem_of(&c, "constant", "9"), "mram");   /* type */
  assert_string_equal(mem_of(&c, "constant", NULL), "mram");
  assert_string_equal(mem_of(&c, "scratch", "8"), "psram");   /* id */
  assert_string_equal(mem_of(&c, "scratch", "7"), "psram");
  assert_string_equal(mem_of(&c, "scratch", "1"), "sram");    /* "*" */
  assert_string_equal(mem_of(&c, "persistent", NULL), "sram");
  aotc_rule_attrs a;
  assert_int_equal(config_rules_resolve(c.memory_tensors, c.memory_n_tensors, "constant", "7", &a), 4);
  assert_int_equal(config_rules_resolve(c.memory_tensors, c.memory_n_tensors, "scratch", "1", &a), 1);
  config_free(&c);
  /* among equals the later rule wins; types compare without case */
  load(&c, "memory:\n  tensors:\n"
           "    - {type: scratch, attributes: {memory: dtcm}}\n"
           "    - {type: SCRATCH, attributes: {memory: sram}}\n"
           "    - {type: \"*\", attributes: {memory: psram}}\n"
           "    - {attributes: {memory: dtcm}}\n");
  assert_string_equal(mem_of(&c, "scratch", NULL), "sram");
  assert_string_equal(mem_of(&c, "SCRATCH", NULL), "sram");
  assert_string_equal(mem_of(&c, "persistent", NULL), "dtcm"); /* no type = "*", later */
  config_free(&c);
  /* nothing matches: all unset */
  load(&c, "memory:\n  tensors:\n    - {type: constant, id: [\"3\"], attributes: {memory: mram}}\n");
  assert_int_equal(config_rules_resolve(c.memory_tensors, c.memory_n_tensors, "constant", "4", &a), 0);
  assert_null(a.memory);
  assert_null(a.constant_destination_memory);
  assert_int_equal(a.accel, -1);
  assert_int_equal(config_rules_resolve(c.memory_tensors, c.memory_n_tensors, "constant", NULL, &a), 0);
  config_free(&c);
}

static void test_merge_fields(void **state) {
  (void)state;
  aotc_config c;
  /* the specific rule sets only the destination: the memory comes from the
   * role rule (field by field), as in helia-profiler's VWW config */
  load(&c, "memory:\n  tensors:\n"
           "    - {type: constant, id: [\"45\"], attributes: {constant_destination_memory: dtcm}}\n"
           "    - {type: constant, attributes: {memory: mram}}\n"
           "    - {type: constant, attributes: {constant_destination_memory: sram}}\n");
  aotc_rule_attrs a;
  config_rules_resolve(c.memory_tensors, c.memory_n_tensors, "constant", "45", &a);
  assert_string_equal(a.memory, "mram");
  assert_string_equal(a.constant_destination_memory, "dtcm");
  config_rules_resolve(c.memory_tensors, c.memory_n_tensors, "constant", "46", &a);
  assert_string_equal(a.memory, "mram");
  assert_string_equal(a.constant_destination_memory, "sram");
  config_free(&c);
  /* operators: by op type and id, merged */
  load(&c, "operators:\n"
           "  - {type: CONV_2D, attributes: {code_placement: ITCM, scratch_placement: SRAM}}\n"
           "  - {type: conv_2d, id: [\"3\"], attributes: {scratch_placement: DTCM}}\n"
           "  - {type: \"*\", attributes: {accel: false}}\n");
  config_rules_resolve(c.operators, c.n_operators, "CONV_2D", "3", &a);
  assert_string_equal(a.code_placement, "itcm");
  assert_string_equal(a.scratch_placement, "dtcm");
  assert_int_equal(a.accel, 0);
  config_rules_resolve(c.operators, c.n_operators, "CONV_2D", "5", &a);
  assert_string_equal(a.scratch_placement, "sram");
  config_rules_resolve(c.operators, c.n_operators, "DEPTHWISE_CONV_2D", "3", &a);
  assert_null(a.scratch_placement);
  assert_int_equal(a.accel, 0);
  config_free(&c);
}

static void test_flags_append_order(void **state) {
  (void)state;
  aotc_config c;
  aotc_diag d = {0};
  d.quiet = 1;
  load(&c, "memory:\n  tensors:\n    - {type: scratch, attributes: {memory: dtcm}}\n");
  /* a flag replaces the file's list; several rules after one flag keep their order */
  char *argv[] = {"--memory.tensors", "{type: scratch, attributes: {memory: sram}}",
                  "{type: scratch, attributes: {memory: psram}}"};
  assert_int_equal(config_parse_args(&c, 3, argv, NULL, NULL, &d), 0);
  assert_int_equal(c.memory_n_tensors, 2);
  assert_string_equal(mem_of(&c, "scratch", NULL), "psram");
  config_free(&c);
}

static void test_errors(void **state) {
  (void)state;
  char b[2048];
  load_err("memory:\n  tensors:\n    - {type: scratch, attributes: {memroy: dtcm}}\n", b, sizeof b);
  assert_non_null(strstr(b, "unknown key 'memroy'"));
  assert_non_null(strstr(b, "did you mean 'memory'"));
  assert_non_null(strstr(b, "line 3"));
  load_err("memory:\n  tensors:\n    - {typ: scratch}\n", b, sizeof b);
  assert_non_null(strstr(b, "did you mean 'type'"));
  load_err("memory:\n  tensors:\n    - {type: activations, attributes: {memory: dtcm}}\n", b, sizeof b);
  assert_non_null(strstr(b, "type 'activations' is not scratch, persistent, constant or \"*\""));
  load_err("memory:\n  tensors: dtcm\n", b, sizeof b);
  assert_non_null(strstr(b, "expects a list of {type, id, attributes} rules"));
  load_err("memory:\n  tensors:\n    - {type: scratch, attributes: dtcm}\n", b, sizeof b);
  assert_non_null(strstr(b, "'attributes' expects a mapping"));
  load_err("memory:\n  tensors:\n    - {type: scratch, attributes: {memory: [dtcm]}}\n", b, sizeof b);
  assert_non_null(strstr(b, "attribute 'memory' expects a value"));
  load_err("operators:\n  - {type: CONV_2D, attributes: {memory: dtcm}}\n", b, sizeof b);
  assert_non_null(strstr(b, "unknown key 'memory' in option 'operators'"));
  load_err("memory:\n  tensors:\n    - {type: scratch, id: {a: 1}}\n", b, sizeof b);
  assert_non_null(strstr(b, "expects a list of names"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_forms),
      cmocka_unit_test(test_precedence),
      cmocka_unit_test(test_merge_fields),
      cmocka_unit_test(test_flags_append_order),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
