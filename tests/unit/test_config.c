/* test_config.c - YAML config + dotted flags. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aotc.h"
#include "config/config.h"

static char *write_tmp(const char *name, const char *text) {
  const char *t = getenv("TMPDIR");
  char *p = xasprintf("%s/aotc_test_config_%d_%s", t && *t ? t : "/tmp", (int)getpid(), name);
  FILE *f = fopen(p, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  return p;
}

static void setup_cfg(aotc_config *c) {
  config_init(c);
  assert_int_equal(config_register_switch(c, "transforms", "fold_constants", 1, "fold constants"), 0);
  assert_int_equal(config_register_switch(c, "transforms", "fuse_activations", 1, NULL), 0);
  assert_int_equal(config_register_switch(c, "litert_hooks", "fuse_rolled_gru", 1, "GRU loops"), 0);
  assert_int_equal(config_register_switch(c, "litert_hooks", "strip_quant", 0, NULL), 0);
}

/* Parses a NULL-terminated flag list. */
static int args(aotc_config *c, aotc_diag *d, ...) {
  char *argv[64];
  int argc = 0;
  va_list ap;
  va_start(ap, d);
  for (char *a; (a = va_arg(ap, char *)) != NULL && argc < 64;) argv[argc++] = a;
  va_end(ap);
  return config_parse_args(c, argc, argv, NULL, NULL, d);
}

static void test_defaults(void **state) {
  (void)state;
  aotc_config c;
  setup_cfg(&c);
  assert_null(c.path);
  assert_null(c.model_path);
  assert_string_equal(c.module_path, ".");
  assert_string_equal(c.module_name, "helia_aot_nn");
  assert_int_equal(c.module_type, AOTC_MODULE_NEURALSPOT);
  assert_string_equal(c.model_name, "model");
  assert_string_equal(c.model_version, "v1.0.0");
  assert_int_equal(c.model_subgraph, 0);
  assert_int_equal(c.memory_allocate_arenas, 1);
  assert_int_equal(c.verbose, 0);
  assert_string_equal(c.module_prefix, "aot");
  assert_int_equal(c.test_enabled, 0);
  assert_null(c.test_golden_data);
  assert_true(c.test_tolerance == 1.0);
  assert_int_equal(c.test_num_iterations, 1);
  assert_int_equal(c.test_n_state_feedback, 0);
  assert_int_equal(c.test_mode, AOTC_TEST_REPEAT);
  assert_int_equal(c.test_n_resets, 0);
  assert_int_equal(c.memory_dump_residency_json, 0);
  assert_int_equal(c.force, 0);
  assert_string_equal(c.target, "host");
  assert_int_equal(c.verbose, 0);
  assert_int_equal(config_switch(&c, "transforms", "fold_constants"), 1);
  assert_int_equal(config_switch(&c, "litert_hooks", "strip_quant"), 0);
  assert_int_equal(config_switch(&c, "litert_hooks", "strip-quant"), 0);
  assert_int_equal(config_switch(&c, "transforms", "nope"), -1);
  assert_int_equal(config_switch(&c, "nogroup", "fold_constants"), -1);
  assert_int_equal(config_switch_is_set(&c, "transforms", "fold_constants"), 0);
  assert_int_not_equal(config_register_switch(&c, "bogus", "x", 1, NULL), 0);
  config_free(&c);
}

static const char *FULL_YAML =
    "# a full configuration\n"
    "model:\n"
    "  path: models/kws.tflite\n"
    "module:\n"
    "  path: out/kws\n"
    "  name: kws_module\n"
    "  prefix: kws\n"
    "test:\n"
    "  enabled: yes\n"
    "  golden-data: goldens/kws.npz\n"
    "  tolerance: 0.5\n"
    "  num_iterations: 4\n"
    "  state_feedback: [[0, 1], [2, 3]]\n"
    "  mode: sequence\n"
    "  resets:\n"
    "    - 3\n"
    "    - 7\n"
    "memory:\n"
    "  dump_residency_json: true\n"
    "transforms:\n"
    "  fold_constants: false\n"
    "litert-hooks:\n"
    "  fuse_rolled_gru: off\n"
    "force: 1\n"
    "target: cortex-m55\n"
    "verbose: True\n";

static void test_yaml_nesting(void **state) {
  (void)state;
  aotc_config c;
  aotc_diag d = {0};
  setup_cfg(&c);
  if (config_load_yaml_string(&c, FULL_YAML, "cfg.yaml", &d)) fail_msg("%s", d.msg);
  assert_string_equal(c.model_path, "models/kws.tflite");
  assert_string_equal(c.module_path, "out/kws");
  assert_string_equal(c.module_name, "kws_module");
  assert_string_equal(c.module_prefix, "kws");
  assert_int_equal(c.test_enabled, 1);
  assert_string_equal(c.test_golden_data, "goldens/kws.npz");
  assert_true(c.test_tolerance == 0.5);
  assert_int_equal(c.test_num_iterations, 4);
  assert_int_equal(c.test_n_state_feedback, 2);
  assert_int_equal(c.test_state_feedback[0].out, 0);
  assert_int_equal(c.test_state_feedback[0].in, 1);
  assert_int_equal(c.test_state_feedback[1].out, 2);
  assert_int_equal(c.test_state_feedback[1].in, 3);
  assert_int_equal(c.test_mode, AOTC_TEST_SEQUENCE);
  assert_int_equal(c.test_n_resets, 2);
  assert_int_equal(c.test_resets[0], 3);
  assert_int_equal(c.test_resets[1], 7);
  assert_int_equal(c.memory_dump_residency_json, 1);
  assert_int_equal(config_switch(&c, "transforms", "fold_constants"), 0);
  assert_int_equal(config_switch_is_set(&c, "transforms", "fold_constants"), 1);
  assert_int_equal(config_switch(&c, "transforms", "fuse_activations"), 1);
  assert_int_equal(config_switch_is_set(&c, "transforms", "fuse_activations"), 0);
  assert_int_equal(config_switch(&c, "litert_hooks", "fuse_rolled_gru"), 0);
  assert_int_equal(c.force, 1);
  assert_string_equal(c.target, "cortex-m55");
  assert_int_equal(c.verbose, 1);
  config_free(&c);

  /* Dotted keys inside the YAML, flow mappings, nulls and empty sections. */
  setup_cfg(&c);
  const char *y = "test.enabled: true\n"
                  "module: {prefix: abc, name: ~}\n"
                  "test:\n"
                  "  golden_data:\n"
                  "memory:\n"
                  "model.path: 'quoted: value'\n";
  if (config_load_yaml_string(&c, y, NULL, &d)) fail_msg("%s", d.msg);
  assert_int_equal(c.test_enabled, 1);
  assert_string_equal(c.module_prefix, "abc");
  assert_string_equal(c.module_name, "helia_aot_nn");
  assert_null(c.test_golden_data);
  assert_string_equal(c.model_path, "quoted: value");
  config_free(&c);

  /* Empty and comment-only files are fine. */
  setup_cfg(&c);
  assert_int_equal(config_load_yaml_string(&c, "", NULL, &d), 0);
  assert_int_equal(config_load_yaml_string(&c, "# nothing\n", NULL, &d), 0);
  config_free(&c);
}

static void test_flags_override_file(void **state) {
  (void)state;
  aotc_config c;
  aotc_diag d = {0};
  char *p = write_tmp("over.yaml", FULL_YAML);
  setup_cfg(&c);
  /* A flag before --path still overrides the file. */
  int rc = args(&c, &d, "--test.tolerance", "2.5", "--path", p, "--module.prefix=over",
                "--test.resets", "9", "--transforms.fold_constants", "--test.enabled", "no", NULL);
  if (rc) fail_msg("%s", d.msg);
  assert_string_equal(c.path, p);
  assert_true(c.test_tolerance == 2.5);
  assert_string_equal(c.module_prefix, "over");
  assert_int_equal(c.test_n_resets, 1); /* the flag's list replaces the file's */
  assert_int_equal(c.test_resets[0], 9);
  assert_int_equal(config_switch(&c, "transforms", "fold_constants"), 1);
  assert_int_equal(c.test_enabled, 0);
  assert_string_equal(c.model_path, "models/kws.tflite"); /* from the file */
  assert_int_equal(c.test_num_iterations, 4);
  config_free(&c);

  setup_cfg(&c);
  char *pe = xasprintf("--path=%s", p);
  rc = args(&c, &d, pe, "--test.num-iterations", "8", NULL);
  if (rc) fail_msg("%s", d.msg);
  assert_int_equal(c.test_num_iterations, 8);
  assert_string_equal(c.module_prefix, "kws");
  config_free(&c);
  free(pe);

  /* Missing file */
  setup_cfg(&c);
  assert_int_not_equal(args(&c, &d, "--path", "/nonexistent/cfg.yaml", NULL), 0);
  assert_non_null(strstr(d.msg, "/nonexistent/cfg.yaml"));
  assert_int_not_equal(args(&c, &d, "--path", NULL), 0);
  config_free(&c);
  unlink(p);
  free(p);
}

static void test_unknown_suggestion(void **state) {
  (void)state;
  aotc_config c;
  aotc_diag d = {0};
  setup_cfg(&c);
  const char *y = "model:\n  path: m.tflite\nmodule:\n  prefx: aot\n";
  assert_int_not_equal(config_load_yaml_string(&c, y, "cfg.yaml", &d), 0);
  assert_string_equal(d.msg,
                      "unknown option 'module.prefx' (in cfg.yaml line 4); did you mean 'module.prefix'?");
  y = "module.prefx: aot\n";
  assert_int_not_equal(config_load_yaml_string(&c, y, "cfg.yaml", &d), 0);
  assert_string_equal(d.msg,
                      "unknown option 'module.prefx' (in cfg.yaml line 1); did you mean 'module.prefix'?");
  assert_int_not_equal(args(&c, &d, "--module.prefx", "aot", NULL), 0);
  assert_string_equal(d.msg, "unknown option '--module.prefx'; did you mean '--module.prefix'?");
  assert_int_not_equal(args(&c, &d, "--test.golden", "x.npz", NULL), 0);
  assert_non_null(strstr(d.msg, "did you mean '--test.golden_data'?"));
  assert_int_not_equal(args(&c, &d, "--prefix", "x", NULL), 0);
  assert_non_null(strstr(d.msg, "did you mean '--module.prefix'?"));
  assert_int_not_equal(args(&c, &d, "--verbse", NULL), 0);
  assert_non_null(strstr(d.msg, "did you mean '--verbose'?"));
  assert_int_not_equal(args(&c, &d, "--transforms.fold_constant", "false", NULL), 0);
  assert_non_null(strstr(d.msg, "did you mean '--transforms.fold_constants'?"));
  assert_int_not_equal(args(&c, &d, "--litert-hooks.zzzzzzzzzz", NULL), 0);
  assert_non_null(strstr(d.msg, "unknown option '--litert-hooks.zzzzzzzzzz'"));
  assert_non_null(strstr(d.msg, "fuse_rolled_gru, strip_quant"));
  assert_int_not_equal(args(&c, &d, "--completely-unrelated-thing", NULL), 0);
  assert_string_equal(d.msg, "unknown option '--completely-unrelated-thing'");
  assert_int_not_equal(args(&c, &d, "-x", NULL), 0);
  assert_non_null(strstr(d.msg, "'-x'"));
  assert_string_equal(config_suggest(&c, "tset.mode"), "test.mode");
  assert_null(config_suggest(&c, "qqqqqqqqqqqqqqqqq"));
  /* module.type is helia-aot's; a wrong value is refused with the choices */
  assert_int_equal(config_load_yaml_string(&c, "module:\n  type: zephyr\n", "c.yaml", &d), 0);
  assert_int_equal(c.module_type, AOTC_MODULE_ZEPHYR);
  assert_int_not_equal(config_load_yaml_string(&c, "module:\n  type: zephir\n", "c.yaml", &d), 0);
  assert_non_null(strstr(d.msg, "neuralspot|zephyr|cmake|nsx|cmsis_pack"));
  /* Sections used as values */
  assert_int_not_equal(config_load_yaml_string(&c, "module: x\n", "c.yaml", &d), 0);
  assert_non_null(strstr(d.msg, "'module' is a section"));
  assert_non_null(strstr(d.msg, "path, name, prefix, type"));
  assert_int_not_equal(args(&c, &d, "--test", "1", NULL), 0);
  assert_non_null(strstr(d.msg, "'--test' is a section"));
  config_free(&c);
}

/* helia-aot's structured keys: rule lists, memory sizes, the transforms list,
 * --no-<bool>, verbose levels, notes for options without effect. */
static void test_helia_schema(void **state) {
  (void)state;
  aotc_config c;
  aotc_diag d = {0};
  d.quiet = 1;
  setup_cfg(&c);
  const char *y =
      "memory:\n"
      "  constraints:\n    - {name: DTCM, max_size: 262144}\n    - {name: sram, size: 1M}\n"
      "  tensors:\n"
      "    - type: SCRATCH\n      attributes: {memory: DTCM}\n"
      "    - type: constant\n      id: [\"45\", \"47\"]\n      attributes: {memory: mram, constant_destination_memory: dtcm}\n"
      "    - type: \"*\"\n      id: null\n      attributes: {arena: sram}\n"
      "platform:\n  name: apollo510_evb\n  memories: {\"dtcm\": 262144, \"sram\": 524288}\n"
      "  preferred_memory_order: [dtcm, sram]\n  speeds: [96, 192]\n"
      "operators:\n  - type: conv_2d\n    attributes: {code_placement: ITCM, accel: false}\n"
      "transforms:\n  - name: \"*\"\n    enabled: false\n  - name: fold_constants\n    enabled: true\n"
      "verbose: 2\n";
  assert_int_equal(config_load_yaml_string(&c, y, "h.yaml", &d), 0);
  assert_int_equal(c.memory_n_constraints, 2);
  assert_string_equal(c.memory_constraints[0].name, "dtcm");
  assert_true(c.memory_constraints[0].size == 262144);
  assert_true(c.memory_constraints[1].size == 1024 * 1024);
  assert_int_equal(c.memory_n_tensors, 3);
  assert_string_equal(c.memory_tensors[0].type, "scratch");
  assert_string_equal(c.memory_tensors[0].memory, "dtcm");
  assert_int_equal(c.memory_tensors[1].nids, 2);
  assert_string_equal(c.memory_tensors[1].ids[1], "47");
  assert_string_equal(c.memory_tensors[1].constant_destination_memory, "dtcm");
  assert_string_equal(c.memory_tensors[2].memory, "sram");
  assert_null(c.memory_tensors[2].ids);
  assert_int_equal(c.memory_tensors[2].order, 2);
  assert_int_equal(c.platform_n_memories, 2);
  assert_int_equal(c.platform_n_preferred_memory_order, 2);
  assert_int_equal(c.n_operators, 1);
  assert_string_equal(c.operators[0].type, "CONV_2D");
  assert_int_equal(c.operators[0].accel, 0);
  assert_int_equal(config_switch(&c, "transforms", "fold_constants"), 1);
  assert_int_equal(config_switch(&c, "transforms", "fuse_activations"), 0);
  assert_int_equal(c.verbose, 2);
  /* notes: operators and platform.speeds given, each noted once */
  FILE *f = tmpfile();
  assert_true(config_print_notes(&c, f) >= 2);
  fclose(f);
  /* the dump reads back to the same rules */
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  config_dump_yaml(&c, m);
  fclose(m);
  aotc_config c2;
  setup_cfg(&c2);
  assert_int_equal(config_load_yaml_string(&c2, buf, "dump", &d), 0);
  assert_int_equal(c2.memory_n_tensors, 3);
  assert_string_equal(c2.memory_tensors[1].ids[0], "45");
  assert_true(c2.memory_constraints[0].size == 262144);
  free(buf);
  config_free(&c2);
  /* flags: several rules after one flag, --no-<bool>, verbose alone = 1 */
  assert_int_equal(args(&c, &d, "--memory.tensors", "{type: scratch, attributes: {memory: sram}}",
                        "{type: constant, attributes: {memory: mram}}", "--no-memory.allocate-arenas", "--verbose",
                        "--transforms", "{name: '*', enabled: true}", NULL), 0);
  assert_int_equal(c.memory_n_tensors, 2);
  assert_string_equal(c.memory_tensors[1].memory, "mram");
  assert_int_equal(c.memory_allocate_arenas, 0);
  assert_int_equal(c.verbose, 1);
  assert_int_equal(config_switch(&c, "transforms", "fuse_activations"), 1);
  /* errors: one line, with a suggestion */
  assert_int_not_equal(config_load_yaml_string(&c, "memory:\n  tensors:\n    - type: scratch\n      attributes: {memroy: dtcm}\n", "e.yaml", &d), 0);
  assert_non_null(strstr(d.msg, "did you mean 'memory'?"));
  assert_null(strchr(d.msg, '\n'));
  assert_int_not_equal(config_load_yaml_string(&c, "memory:\n  tensors:\n    - type: scrach\n", "e.yaml", &d), 0);
  assert_non_null(strstr(d.msg, "scratch, persistent, constant"));
  assert_int_not_equal(config_load_yaml_string(&c, "transforms:\n  - name: fold_constant\n", "e.yaml", &d), 0);
  assert_non_null(strstr(d.msg, "did you mean 'transforms.fold_constants'?"));
  assert_int_not_equal(config_load_yaml_string(&c, "model:\n  subgraph: 1\n", "e.yaml", &d), 0);
  assert_non_null(strstr(d.msg, "subgraph 0"));
  config_free(&c);
}

static void test_type_errors(void **state) {
  (void)state;
  aotc_config c;
  aotc_diag d = {0};
  setup_cfg(&c);
  assert_int_not_equal(config_load_yaml_string(&c, "test:\n  tolerance: abc\n", "t.yaml", &d), 0);
  assert_string_equal(d.msg, "option 'test.tolerance' expects a number (double), got 'abc' (in t.yaml "
                             "line 2)");
  assert_int_not_equal(args(&c, &d, "--test.num_iterations", "four", NULL), 0);
  assert_string_equal(d.msg, "option 'test.num_iterations' expects an integer, got 'four' (flag "
                             "--test.num_iterations)");
  assert_int_not_equal(args(&c, &d, "--test.num_iterations", "99999999999", NULL), 0);
  assert_non_null(strstr(d.msg, "expects an integer"));
  assert_int_not_equal(args(&c, &d, "--test.num_iterations=0", NULL), 0);
  assert_non_null(strstr(d.msg, "'test.num_iterations' must be at least 1"));
  assert_int_not_equal(args(&c, &d, "--test.tolerance", "-1", NULL), 0);
  assert_non_null(strstr(d.msg, "'test.tolerance' must not be negative"));
  assert_int_not_equal(args(&c, &d, "--test.enabled=maybe", NULL), 0);
  assert_non_null(strstr(d.msg, "'test.enabled' expects a bool"));
  assert_int_not_equal(args(&c, &d, "--test.mode", "random", NULL), 0);
  assert_non_null(strstr(d.msg, "'test.mode' expects one of repeat|sequence, got 'random'"));
  assert_int_not_equal(args(&c, &d, "--target", "cortex-m7", NULL), 0);
  assert_non_null(strstr(d.msg, "'target' expects one of host|cortex-m4|cortex-m55"));
  assert_int_not_equal(args(&c, &d, "--test.resets", "3,x", NULL), 0);
  assert_non_null(strstr(d.msg, "'test.resets' expects a list of integers"));
  assert_int_not_equal(args(&c, &d, "--test.resets", "-3", NULL), 0);
  assert_non_null(strstr(d.msg, "must not be negative"));
  assert_int_not_equal(args(&c, &d, "--test.state_feedback", "0-1", NULL), 0);
  assert_non_null(strstr(d.msg, "'test.state_feedback' expects a list of OUT:IN"));
  assert_int_not_equal(args(&c, &d, "--test.tolerance", NULL), 0);
  assert_non_null(strstr(d.msg, "'--test.tolerance' needs a value"));
  assert_int_not_equal(args(&c, &d, "--model.path", "--verbose", NULL), 0);
  assert_non_null(strstr(d.msg, "'--model.path' needs a value"));
  assert_int_not_equal(args(&c, &d, "--module.prefix", "9lives", NULL), 0);
  assert_non_null(strstr(d.msg, "'module.prefix' must be a C identifier"));
  assert_int_not_equal(args(&c, &d, "--module.prefix", "a-b", NULL), 0);
  assert_int_not_equal(args(&c, &d, "--module.name", "a/b", NULL), 0);
  assert_non_null(strstr(d.msg, "'module.name'"));
  assert_int_not_equal(config_load_yaml_string(&c, "test:\n  enabled: [1]\n", "t.yaml", &d), 0);
  assert_non_null(strstr(d.msg, "'test.enabled' expects a bool (true/false/yes/no/1/0), got a list (in t.yaml line 2)"));
  assert_int_not_equal(config_load_yaml_string(&c, "test:\n  resets: [1, [2]]\n", "t.yaml", &d), 0);
  assert_non_null(strstr(d.msg, "'test.resets'"));
  assert_int_not_equal(config_load_yaml_string(&c, "test:\n  state_feedback: [[1, 2, 3]]\n", "t.yaml", &d), 0);
  assert_non_null(strstr(d.msg, "'test.state_feedback'"));
  assert_int_not_equal(config_load_yaml_string(&c, "transforms:\n  fold_constants: sure\n", "t.yaml", &d), 0);
  assert_non_null(strstr(d.msg, "'transforms.fold_constants' expects a bool"));
  assert_non_null(strstr(d.msg, "t.yaml line 2"));
  assert_int_not_equal(config_load_yaml_string(&c, "- a\n- b\n", "t.yaml", &d), 0);
  assert_non_null(strstr(d.msg, "expected a mapping of options at the top level"));
  assert_int_not_equal(config_load_yaml_string(&c, "? [a]\n: 1\n", "t.yaml", &d), 0);
  assert_non_null(strstr(d.msg, "plain keys"));
  /* Upper-case prefix is accepted with a warning. */
  aotc_diag w = {0};
  fflush(stderr);
  int saved = dup(2);
  FILE *null = fopen("/dev/null", "w");
  dup2(fileno(null), 2);
  int wrc = args(&c, &w, "--module.prefix", "Kws", NULL);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  fclose(null);
  assert_int_equal(wrc, 0);
  assert_int_equal(w.nwarn, 1);
  assert_string_equal(c.module_prefix, "Kws");
  config_free(&c);
}

static void test_state_feedback_forms(void **state) {
  (void)state;
  aotc_config c;
  aotc_diag d = {0};
  setup_cfg(&c);
  assert_int_equal(args(&c, &d, "--test.state_feedback", "0:1,2:3", NULL), 0);
  assert_int_equal(c.test_n_state_feedback, 2);
  assert_int_equal(c.test_state_feedback[1].out, 2);
  assert_int_equal(c.test_state_feedback[1].in, 3);
  assert_int_equal(args(&c, &d, "--test.state-feedback= 4:5 ", NULL), 0);
  assert_int_equal(c.test_n_state_feedback, 1);
  assert_int_equal(c.test_state_feedback[0].out, 4);
  assert_int_equal(c.test_state_feedback[0].in, 5);
  assert_int_equal(config_load_yaml_string(&c, "test:\n  state_feedback:\n    - [6, 7]\n    - [8, 9]\n    - [10, 11]\n", NULL, &d), 0);
  assert_int_equal(c.test_n_state_feedback, 3);
  assert_int_equal(c.test_state_feedback[2].out, 10);
  assert_int_equal(c.test_state_feedback[2].in, 11);
  assert_int_equal(config_load_yaml_string(&c, "test:\n  state_feedback: ['1:0', '3:2']\n", NULL, &d), 0);
  assert_int_equal(c.test_n_state_feedback, 2);
  assert_int_equal(c.test_state_feedback[1].out, 3);
  assert_int_equal(c.test_state_feedback[1].in, 2);
  assert_int_equal(config_load_yaml_string(&c, "test:\n  state_feedback: \"0:1,2:3\"\n", NULL, &d), 0);
  assert_int_equal(c.test_n_state_feedback, 2);
  assert_int_equal(config_load_yaml_string(&c, "test:\n  state_feedback: []\n", NULL, &d), 0);
  assert_int_equal(c.test_n_state_feedback, 0);
  assert_int_not_equal(config_load_yaml_string(&c, "test:\n  state_feedback: [[0, -1]]\n", "s.yaml", &d), 0);
  assert_non_null(strstr(d.msg, "must not be negative"));
  config_free(&c);
}

static void test_resets_list(void **state) {
  (void)state;
  aotc_config c;
  aotc_diag d = {0};
  setup_cfg(&c);
  assert_int_equal(args(&c, &d, "--test.resets", "3,7", NULL), 0);
  assert_int_equal(c.test_n_resets, 2);
  assert_int_equal(c.test_resets[0], 3);
  assert_int_equal(c.test_resets[1], 7);
  assert_int_equal(args(&c, &d, "--test.resets=[ 1 , 2 , 30 ]", NULL), 0);
  assert_int_equal(c.test_n_resets, 3);
  assert_int_equal(c.test_resets[2], 30);
  assert_int_equal(config_load_yaml_string(&c, "test:\n  resets: [4, 5]\n", NULL, &d), 0);
  assert_int_equal(c.test_n_resets, 2);
  assert_int_equal(c.test_resets[0], 4);
  assert_int_equal(config_load_yaml_string(&c, "test:\n  resets: 6\n", NULL, &d), 0);
  assert_int_equal(c.test_n_resets, 1);
  assert_int_equal(c.test_resets[0], 6);
  assert_int_equal(args(&c, &d, "--test.resets=", NULL), 0);
  assert_int_equal(c.test_n_resets, 0);
  config_free(&c);
}

static void test_boolean_forms(void **state) {
  (void)state;
  aotc_config c;
  aotc_diag d = {0};
  char **pos;
  int npos;
  setup_cfg(&c);
  assert_int_equal(args(&c, &d, "--test.enabled", NULL), 0);
  assert_int_equal(c.test_enabled, 1);
  const char *f[] = {"false", "0", "no", "off", "FALSE"}, *t[] = {"true", "1", "yes", "on", "Yes"};
  for (int i = 0; i < 5; i++) {
    assert_int_equal(args(&c, &d, "--test.enabled", f[i], NULL), 0);
    assert_int_equal(c.test_enabled, 0);
    assert_int_equal(args(&c, &d, "--test.enabled", t[i], NULL), 0);
    assert_int_equal(c.test_enabled, 1);
  }
  assert_int_equal(args(&c, &d, "--test.enabled=false", "--force", "--verbose", NULL), 0);
  assert_int_equal(c.test_enabled, 0);
  assert_int_equal(c.force, 1);
  assert_int_equal(c.verbose, 1);
  /* A bool flag alone does not swallow a positional argument. */
  config_free(&c);
  setup_cfg(&c);
  char *argv[] = {"--force", "model.tflite", "--memory.dump-residency-json", "--", "--verbose"};
  assert_int_equal(config_parse_args(&c, 5, argv, &pos, &npos, &d), 0);
  assert_int_equal(c.force, 1);
  assert_int_equal(c.memory_dump_residency_json, 1);
  assert_int_equal(c.verbose, 0);
  assert_int_equal(npos, 2);
  assert_string_equal(pos[0], "model.tflite");
  assert_string_equal(pos[1], "--verbose");
  free(pos);
  /* Positional arguments are an error when the caller takes none. */
  assert_int_not_equal(config_parse_args(&c, 2, argv, NULL, NULL, &d), 0);
  assert_non_null(strstr(d.msg, "unexpected argument 'model.tflite'"));
  /* YAML booleans */
  assert_int_equal(config_load_yaml_string(&c, "force: no\nverbose: on\n", NULL, &d), 0);
  assert_int_equal(c.force, 0);
  assert_int_equal(c.verbose, 1);
  config_free(&c);
}

static void test_dash_underscore(void **state) {
  (void)state;
  aotc_config c;
  aotc_diag d = {0};
  setup_cfg(&c);
  assert_int_equal(args(&c, &d, "--test.golden-data", "a.npz", NULL), 0);
  assert_string_equal(c.test_golden_data, "a.npz");
  assert_int_equal(args(&c, &d, "--test.golden_data", "b.npz", NULL), 0);
  assert_string_equal(c.test_golden_data, "b.npz");
  assert_int_equal(args(&c, &d, "--test.golden-data=c.npz", NULL), 0);
  assert_string_equal(c.test_golden_data, "c.npz");
  assert_int_equal(args(&c, &d, "--litert-hooks.fuse_rolled_gru", "false", NULL), 0);
  assert_int_equal(config_switch(&c, "litert_hooks", "fuse_rolled_gru"), 0);
  assert_int_equal(args(&c, &d, "--litert_hooks.fuse-rolled-gru", NULL), 0);
  assert_int_equal(config_switch(&c, "litert_hooks", "fuse_rolled_gru"), 1);
  assert_int_equal(args(&c, &d, "--memory.dump-residency-json", "true", NULL), 0);
  assert_int_equal(c.memory_dump_residency_json, 1);
  assert_int_equal(config_set(&c, "test.num-iterations", "3", NULL, &d), 0);
  assert_int_equal(c.test_num_iterations, 3);
  assert_int_not_equal(config_set(&c, "test.num-iteration", "3", "api", &d), 0);
  assert_string_equal(d.msg, "unknown option 'test.num-iteration' (api); did you mean 'test.num_iterations'?");
  config_free(&c);
}

static void test_malformed_yaml(void **state) {
  (void)state;
  aotc_config c;
  aotc_diag d = {0};
  setup_cfg(&c);
  assert_int_not_equal(config_load_yaml_string(&c, "model:\n  path: a\n   bad: 1\n", "bad.yaml", &d), 0);
  assert_non_null(strstr(d.msg, "bad.yaml line 3"));
  assert_non_null(strstr(d.msg, "YAML syntax error"));
  assert_int_not_equal(config_load_yaml_string(&c, "test:\n  resets: [1, 2\nmodel: x\n", "bad.yaml", &d), 0);
  assert_non_null(strstr(d.msg, "bad.yaml line "));
  assert_non_null(strstr(d.msg, "YAML syntax error"));
  assert_int_not_equal(config_load_yaml_string(&c, "a: 1\n\tb: 2\n", "tab.yaml", &d), 0);
  assert_non_null(strstr(d.msg, "tab.yaml line 2"));
  assert_int_not_equal(config_load_yaml_string(&c, "force: true\n---\nverbose: true\n", "two.yaml", &d), 0);
  assert_string_equal(d.msg, "two.yaml line 3: only one YAML document is supported");
  /* Through a file and the flag parser */
  char *p = write_tmp("bad.yaml", "# comment\ntest:\n  enabled: true\n  tolerance: [1\n");
  assert_int_not_equal(args(&c, &d, "--path", p, NULL), 0);
  assert_non_null(strstr(d.msg, p));
  assert_non_null(strstr(d.msg, "YAML syntax error"));
  assert_null(c.path);
  unlink(p);
  free(p);
  config_free(&c);
}

static char *capture(void (*fn)(const aotc_config *, FILE *), const aotc_config *c) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  fn(c, f);
  fclose(f);
  return buf;
}

static void test_help_and_dump(void **state) {
  (void)state;
  aotc_config c;
  aotc_diag d = {0};
  setup_cfg(&c);
  char *h = capture(config_print_help, &c);
  const char *keys[] = {"--path FILE", "--model.path", "--module.path", "--module.name", "--module.prefix",
                        "--test.enabled", "--test.golden_data", "--test.tolerance",
                        "--test.num_iterations", "--test.state_feedback", "--test.mode",
                        "--test.resets", "--memory.dump_residency_json", "--force", "--target",
                        "--verbose", "--transforms.<name>", "--litert_hooks.<name>",
                        "transforms.fold_constants", "fold constants (default: true)",
                        "litert_hooks.strip_quant", "(default: helia_aot_nn)", "repeat|sequence"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (!strstr(h, keys[i])) fail_msg("help lacks '%s':\n%s", keys[i], h);
  free(h);
  h = capture(config_print_help, NULL);
  assert_non_null(strstr(h, "--transforms.<name>"));
  free(h);

  /* --help stops parsing (even before bad flags) */
  assert_int_equal(args(&c, &d, "--bogus", "--help", NULL), 0);
  assert_int_equal(c.help, 1);
  config_free(&c);

  /* dump -> load gives back the same values */
  setup_cfg(&c);
  assert_int_equal(config_load_yaml_string(&c, FULL_YAML, NULL, &d), 0);
  assert_int_equal(config_set(&c, "model.path", "we\"ird\\path", NULL, &d), 0);
  char *y = capture(config_dump_yaml, &c);
  aotc_config c2;
  setup_cfg(&c2);
  if (config_load_yaml_string(&c2, y, "dump", &d)) fail_msg("%s\n%s", d.msg, y);
  assert_string_equal(c2.model_path, "we\"ird\\path");
  assert_string_equal(c2.module_prefix, "kws");
  assert_int_equal(c2.test_enabled, 1);
  assert_true(c2.test_tolerance == 0.5);
  assert_int_equal(c2.test_n_state_feedback, 2);
  assert_int_equal(c2.test_state_feedback[1].in, 3);
  assert_int_equal(c2.test_mode, AOTC_TEST_SEQUENCE);
  assert_int_equal(c2.test_n_resets, 2);
  assert_int_equal(c2.test_resets[1], 7);
  assert_int_equal(config_switch(&c2, "transforms", "fold_constants"), 0);
  assert_int_equal(config_switch(&c2, "litert_hooks", "fuse_rolled_gru"), 0);
  assert_string_equal(c2.target, "cortex-m55");
  assert_int_equal(c2.verbose, 1);
  free(y);
  config_free(&c2);
  config_free(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_defaults),
      cmocka_unit_test(test_yaml_nesting),
      cmocka_unit_test(test_flags_override_file),
      cmocka_unit_test(test_unknown_suggestion),
      cmocka_unit_test(test_type_errors),
      cmocka_unit_test(test_helia_schema),
      cmocka_unit_test(test_state_feedback_forms),
      cmocka_unit_test(test_resets_list),
      cmocka_unit_test(test_boolean_forms),
      cmocka_unit_test(test_dash_underscore),
      cmocka_unit_test(test_malformed_yaml),
      cmocka_unit_test(test_help_and_dump),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
