/* perop_main.c - main of bench/perop.sh: one inference of a generated module
 * (prefix aot) whose op callback brackets every operator with the
 * instruction-count markers; prints the op ids in execution order
 * ("op=ID"), so the script can pair them with the plugin's region counts. */
#include <stdio.h>

#include "aot_model.h"
#include "target.h"

static aot_model_context_t ctx;

static void on_op(int32_t op_id, aot_operator_state_t ev, int32_t status, void *user) {
  (void)status;
  (void)user;
  if (ev == aot_op_state_run_started) {
    printf("op=%ld\n", (long)op_id);
    target_count_start();
  } else if (ev == aot_op_state_run_finished) {
    target_count_stop();
  }
}

int main(void) {
  size_t i;
  int k;
  int32_t st = aot_model_init(&ctx);
  if (st != 0) return 1;
  for (k = 0; k < aot_num_inputs; k++) {
    unsigned char *p = (unsigned char *)ctx.inputs[k].data;
    for (i = 0; i < ctx.inputs[k].bytes; i++) p[i] = (unsigned char)((i * 37u + 11u) & 0x3f);
  }
  ctx.callback = on_op;
  st = aot_model_run(&ctx);
  printf("run status %ld\n", (long)st);
  return st == 0 ? 0 : 1;
}
