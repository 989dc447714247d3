/* A caller written like heartkit-vitals-demo's tools/aot/parity/main.c and
 * src/ecg_arrhythmia.cc, from what helia-aot-interface.md says they use (the
 * originals are not public here): compile-time size checks, the I/O counts and
 * idents, tensor descriptors, region sizes, the plan hash, the operator
 * callback with init and run events, the test case built into the library,
 * and the PRINTF / PUT_IN hooks. Built with -DP=<prefix> style macros. */
#include <stdio.h>
#include <string.h>

#include "hkv_common.h"
#include "hkv_model.h"
#include "hkv_platform.h"
#include "hkv_test_case.h"

_Static_assert(hkv_input_0_size == 490, "input elements");
_Static_assert(hkv_output_0_size == 12, "output elements");
_Static_assert(hkv_num_inputs == 1 && hkv_num_outputs == 1, "one input, one output");

static int events[4];
static void on_op(int32_t op, hkv_operator_state_t state, int32_t status, void *user) {
  (void)op;
  (void)status;
  (*(int *)user)++;
  events[state]++;
}

int main(void) {
  static hkv_model_context_t ctx;
  int calls = 0;
  int32_t st;
  size_t i;
  ctx.callback = on_op;
  ctx.user_data = &calls;
  st = hkv_model_init(&ctx);
  if (st != hkv_status_ok) return 1;
  if (ctx.inputs[0].id != hkv_inputs_id[0] || ctx.outputs[0].id != hkv_outputs_id[0]) return 2;
  if (hkv_tensor_descriptors[ctx.inputs[0].id].size != ctx.inputs[0].size * sizeof(int8_t)) return 3;
  if (hkv_tensor_descriptors[ctx.inputs[0].id].type != hkv_tensor_type_scratch) return 4;
  if (hkv_arena_sizes[hkv_arena_dtcm] != hkv_arena_dtcm_size || hkv_arena_dtcm_size < ctx.inputs[0].size) return 5;
  if (strlen(HKV_PLAN_HASH) != 16) return 6;
  for (i = 0; i < ctx.inputs[0].size; i++) ctx.inputs[0].data[i] = (int8_t)(i % 7);
  st = hkv_model_run(&ctx);
  if (st != hkv_status_ok) return 7;
  if (events[hkv_op_state_init_started] == 0 || events[hkv_op_state_init_started] != events[hkv_op_state_init_finished] ||
      events[hkv_op_state_run_started] != events[hkv_op_state_run_finished] ||
      events[hkv_op_state_run_started] != events[hkv_op_state_init_started])
    return 8;
  if (hkv_model_run(NULL) != hkv_status_null_context) return 9;
  {
    static hkv_model_context_t fresh;
    if (hkv_model_run(&fresh) != hkv_status_not_initialized) return 10;
  }
  HKV_PRINTF("parity caller: %d callbacks, plan %s\n", calls, HKV_PLAN_HASH);
  if (hkv_test_case_init() != hkv_status_ok) return 11;
  return hkv_test_case_run() == 0 ? 0 : 12;
}
