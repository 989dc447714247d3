/* config_options.c - the table of aotc's options: for each dotted key its type,
 * the field of aotc_config it fills, the accepted choices, the default (as
 * flag text), the check run after it is set, the help line and, for options
 * accepted only for helia-aot compatibility, why they change nothing. Also the
 * switch groups (transforms, litert_hooks) and the checks themselves. The
 * parsing of values is in config_values.c; lookup in config_lookup.c. */
#include "config/config_internal.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int check_prefix(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d);
static int check_name(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d);
static int check_positive(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d);
static int check_nonneg(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d);
static int check_subgraph(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d);

#define F(field) offsetof(aotc_config, field)

/* Keys of one section must be contiguous (config_dump_yaml relies on it). */
const opt_def cfg_opts[] = {
    {"model.path", T_STRING, F(model_path), 0, NULL, NULL, NULL,
     "the .tflite model to convert", NULL},
    {"model.subgraph", T_INT, F(model_subgraph), 0, NULL, "0", check_subgraph,
     "the subgraph to compile: 0, the model's entry (others run as callees of WHILE/IF/CALL_ONCE)", NULL},
    {"model.type", T_STRING, F(model_type), 0, "tflite|litert", "tflite", NULL,
     "model format; tflite and litert are the same flatbuffer", NULL},
    {"model.name", T_STRING, F(model_name), 0, NULL, "model", NULL, "model name shown in the module's README", NULL},
    {"model.description", T_STRING, F(model_description), 0, NULL, NULL, NULL,
     "model description shown in the module's README", NULL},
    {"model.version", T_STRING, F(model_version), 0, NULL, "v1.0.0", NULL, "model version shown in the module's README", NULL},
    {"module.path", T_STRING, F(module_path), 0, NULL, ".", NULL,
     "parent directory of the module (written to <module.path>/<module.name>/; created as needed), or a .zip archive", NULL},
    {"module.name", T_STRING, F(module_name), 0, NULL, "helia_aot_nn", check_name,
     "name of the module: its directory and its library (letters, digits, '_', '-', '.')", NULL},
    {"module.prefix", T_STRING, F(module_prefix), 0, NULL, "aot", check_prefix,
     "prefix of every generated C symbol; a C identifier, lower case recommended", NULL},
    {"module.type", T_ENUM, F(module_type), 0, "neuralspot|zephyr|cmake|nsx|cmsis_pack", "neuralspot", NULL,
     "build glue of the module: neuralspot (module.mk), zephyr, cmake, nsx, cmsis_pack", NULL},
    {"module.runtime", T_STRING, F(module_runtime), 0, NULL, NULL, NULL,
     "a shared kernel library written by `aotc runtime`: the module calls its kernels and copies none", NULL},
    {"test.enabled", T_BOOL, F(test_enabled), 0, NULL, "false", NULL,
     "also generate a test that runs the module on golden data", NULL},
    {"test.golden_data", T_STRING, F(test_golden_data), 0, NULL, NULL, NULL,
     ".npz file with input_N / output_N (and runK_output_N) arrays", NULL},
    {"test.tolerance", T_DOUBLE, F(test_tolerance), 0, NULL, "1", check_nonneg,
     "accepted difference from the golden: integer outputs in LSB (default 1); float outputs absolute plus 1e-4 relative (default 1e-5 absolute unless given)", NULL},
    {"test.num_iterations", T_INT, F(test_num_iterations), 0, NULL, "1", check_positive,
     "number of inferences the test runs", NULL},
    {"test.state_feedback", T_PAIRS, F(test_state_feedback), F(test_n_state_feedback), NULL, NULL,
     check_nonneg, "between iterations copy output OUT into input IN, as OUT:IN,OUT:IN", NULL},
    {"test.mode", T_ENUM, F(test_mode), 0, "repeat|sequence", "repeat", NULL,
     "repeat: every iteration uses the same inputs; sequence: one input set per iteration", NULL},
    {"test.resets", T_INTS, F(test_resets), F(test_n_resets), NULL, NULL, check_nonneg,
     "sequence steps before which the model is re-initialized (state reset), as N,N", NULL},
    {"test.skip_verification", T_BOOL, F(test_skip_verification), 0, NULL, "false", NULL,
     "helia-aot: skip verifying the generated test", "aotc convert never runs the test case ('aotc verify' does), so there is nothing to skip"},
    {"memory.dump_residency_json", T_BOOL, F(memory_dump_residency_json), 0, NULL, "false", NULL,
     "write the tensor memory plan (residency) as JSON beside the module", NULL},
    {"memory.planner", T_ENUM, F(memory_planner), 0, "greedy", "greedy", NULL,
     "memory planner (greedy: by size, best fit, gaps of dead tensors reused)", NULL},
    {"memory.constraints", T_MEMS, F(memory_constraints), F(memory_n_constraints), NULL, NULL, NULL,
     "caps on memories, [{name: dtcm, max_size: 262144}, ...]", NULL},
    {"memory.tensors", T_RULES, F(memory_tensors), F(memory_n_tensors), NULL, NULL, NULL,
     "tensor placement rules [{type: scratch|persistent|constant|\"*\", id: [..], attributes: {memory, constant_destination_memory}}]", NULL},
    {"memory.allocate_arenas", T_BOOL, F(memory_allocate_arenas), 0, NULL, "true", NULL,
     "emit the arena buffers (false: the application binds them with <prefix>_bind_arena)", NULL},
    {"memory.auto_hydrate_constants", T_BOOL, F(memory_auto_hydrate_constants), 0, NULL, "true", NULL,
     "model_init copies staged constants (constant_destination_memory) into their runtime memory (false: the application calls <prefix>_model_hydrate after init)", NULL},
    {"platform.name", T_STRING, F(platform_name), 0, NULL, NULL, NULL,
     "target platform: apollo3p_evb, apollo4p_evb, apollo4l_evb, apollo510_evb, apollo510b_evb, generic_cortex_m4, generic_cortex_m55, ... or a name described by the other platform keys", NULL},
    {"platform.cpu", T_STRING, F(platform_cpu), 0, NULL, NULL, NULL,
     "CPU of the platform (cortex-m4: DSP kernels, cortex-m55: Helium kernels)", NULL},
    {"platform.speeds", T_INTS, F(platform_speeds), F(platform_n_speeds), NULL, NULL, check_nonneg,
     "clock speeds in MHz", "clock speeds do not change the code aotc generates"},
    {"platform.memories", T_MEMS, F(platform_memories), F(platform_n_memories), NULL, NULL, NULL,
     "memories of the platform and their sizes, {dtcm: 262144, sram: 524288}", NULL},
    {"platform.capabilities", T_STRS, F(platform_capabilities), F(platform_n_capabilities), NULL, NULL, NULL,
     "capabilities of the platform (dsp, mve, fpu)", NULL},
    {"platform.preferred_memory_order", T_STRS, F(platform_preferred_memory_order),
     F(platform_n_preferred_memory_order), NULL, NULL, NULL, "memories in order of preference, [dtcm, sram]", NULL},
    {"platform.min_alignment", T_INT, F(platform_min_alignment), 0, NULL, "0", check_nonneg,
     "arena alignment in bytes (0: the platform's, at least 16)", NULL},
    {"operators", T_OPRULES, F(operators), F(n_operators), NULL, NULL, NULL,
     "operator attribute rules [{type: CONV_2D, id: [..], attributes: {accel, code_placement, scratch_placement}}]",
     "aotc keeps operator code in the module's text section and has no accelerator switch: accel and code_placement change nothing (scratch_placement is honoured: the operator's own scratch goes to that memory)"},
    {"documentation.html", T_BOOL, F(documentation_html), 0, NULL, "false", NULL,
     "helia-aot: HTML documentation", "aotc writes README.md (with the memory-over-time SVG), no HTML"},
    {"force", T_BOOL, F(force), 0, NULL, "false", NULL,
     "replace an existing module aotc wrote (<module.path>/<module.name>, never anything else)", NULL},
    {"target", T_STRING, F(target), 0, "host|cortex-m4|cortex-m55", "host", NULL,
     "target that verify builds and runs the module for (not given: platform.cpu when it is cortex-m4 or cortex-m55, else host)", NULL},
    {"verbose", T_LEVEL, F(verbose), 0, NULL, "0", NULL, "verbosity level (0 quiet, 1 progress, 2 details)", NULL},
    {"log_file", T_STRING, F(log_file), 0, NULL, NULL, NULL,
     "also append aotc's notes, result and error lines to this file", NULL},
};
const size_t cfg_n_opts = sizeof cfg_opts / sizeof cfg_opts[0];
_Static_assert(sizeof cfg_opts / sizeof cfg_opts[0] < 64, "aotc_config.noted has one slot per option plus one");

const cfg_group cfg_groups[] = {
    {"transforms", F(transforms), "turn the IR transform <name> on or off"},
    {"litert_hooks", F(litert_hooks), "turn the LiteRT import hook <name> on or off"},
};
const size_t cfg_n_groups = sizeof cfg_groups / sizeof cfg_groups[0];

#undef F

/* ---- checks run after an option is set -------------------------------------- */

static int check_prefix(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d) {
  const char *s = *FIELD(c, o, char *);
  char pb[600];
  int ok = s && (isalpha((unsigned char)s[0]) || s[0] == '_');
  for (const char *p = s; ok && *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_') ok = 0;
  if (!ok)
    return diag_error(d, "option '%s' must be a C identifier (letters, digits, '_'), got '%s'%s",
                      o->key, s ? s : "", cfg_paren(where, pb, sizeof pb));
  for (const char *p = s; *p; p++) {
    if (isupper((unsigned char)*p)) {
      diag_warn(d, "option '%s' is '%s': lower case is recommended%s", o->key, s,
                cfg_paren(where, pb, sizeof pb));
      break;
    }
  }
  return 0;
}

static int check_name(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d) {
  const char *s = *FIELD(c, o, char *);
  char pb[600];
  int ok = s && *s && *s != '.' && *s != '-';
  for (const char *p = s; ok && *p; p++)
    if (!isalnum((unsigned char)*p) && !strchr("_-.", *p)) ok = 0;
  if (!ok)
    return diag_error(d, "option '%s' must be a name of letters, digits, '_', '-' and '.', got '%s'%s",
                      o->key, s ? s : "", cfg_paren(where, pb, sizeof pb));
  return 0;
}

static int check_positive(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d) {
  char pb[600];
  int v = *FIELD(c, o, int);
  if (v < 1)
    return diag_error(d, "option '%s' must be at least 1, got %d%s", o->key, v,
                      cfg_paren(where, pb, sizeof pb));
  return 0;
}

static int check_nonneg(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d) {
  char pb[600];
  int bad = 0;
  if (o->type == T_DOUBLE) {
    bad = *FIELD(c, o, double) < 0;
  } else if (o->type == T_INTS) {
    for (int i = 0; i < *COUNT(c, o); i++) bad |= (*FIELD(c, o, int *))[i] < 0;
  } else if (o->type == T_PAIRS) {
    for (int i = 0; i < *COUNT(c, o); i++) {
      aotc_int_pair p = (*FIELD(c, o, aotc_int_pair *))[i];
      bad |= p.out < 0 || p.in < 0;
    }
  } else {
    bad = *FIELD(c, o, int) < 0;
  }
  if (bad)
    return diag_error(d, "option '%s' must not be negative%s", o->key, cfg_paren(where, pb, sizeof pb));
  return 0;
}

static int check_subgraph(aotc_config *c, const opt_def *o, const char *where, aotc_diag *d) {
  char pb[600];
  int v = *FIELD(c, o, int);
  if (v != 0)
    return diag_error(d, "option '%s' is %d: aotc compiles the model's entry subgraph 0 (other subgraphs only as callees of WHILE/IF/CALL_ONCE); write the subgraph as its own model or use 0%s",
                      o->key, v, cfg_paren(where, pb, sizeof pb));
  return 0;
}

