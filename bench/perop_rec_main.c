/* perop_rec_main.c - instructions of selected operators of a generated module
 * (prefix aot): the module's op callback brackets every operator whose id is
 * in PEROP_IDS (a comma-separated list given with -D) with the count markers
 * of targets/cortex-m/target.h, so the QEMU plugin's insns_region is the sum
 * over those operators of one inference. Used by bench/perop_rec.sh. */
#include <stdio.h>

#include "aot_model.h"
#include "target.h"

#ifndef PEROP_IDS
#define PEROP_IDS -1
#endif

static aot_model_context_t ctx;
static const int32_t perop_ids[] = {PEROP_IDS};

static int selected(int32_t id) {
  size_t i;
  for (i = 0; i < sizeof perop_ids / sizeof perop_ids[0]; i++)
    if (perop_ids[i] == id) return 1;
  return 0;
}

static void on_op(int32_t op_id, aot_operator_state_t ev, int32_t status, void *user) {
  (void)status;
  (void)user;
  if (!selected(op_id)) return;
  if (ev == aot_op_state_run_started) target_count_start();
  else if (ev == aot_op_state_run_finished) target_count_stop();
}

int main(void) {
  size_t i;
  int k;
  int32_t st = aot_model_init(&ctx);
  if (st != aot_status_ok) return 1;
  for (k = 0; k < aot_num_inputs; k++) {
    unsigned char *p = (unsigned char *)ctx.inputs[k].data;
    for (i = 0; i < ctx.inputs[k].bytes; i++) p[i] = (unsigned char)((i * 37u + 11u) & 0x3f);
  }
  ctx.callback = on_op;
  st = aot_model_run(&ctx);
  printf("run status %ld\n", (long)st);
  return st == aot_status_ok ? 0 : 1;
}
