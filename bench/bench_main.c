/* bench_main.c - one measured inference of a generated module (prefix aot)
 * between the instruction-count markers of targets/cortex-m/target.h. */
#include <stdio.h>

#include "aot_model.h"
#include "target.h"

static aot_model_context_t ctx;

int main(void) {
  size_t i;
  int k;
  int32_t st = aot_model_init(&ctx);
  if (st != aot_status_ok) return 1;
  for (k = 0; k < aot_num_inputs; k++) {
    unsigned char *p = (unsigned char *)ctx.inputs[k].data;
    for (i = 0; i < ctx.inputs[k].bytes; i++) p[i] = (unsigned char)((i * 37u + 11u) & 0x3f);
  }
  target_count_start();
  st = aot_model_run(&ctx);
  target_count_stop();
  printf("run status %ld\n", (long)st);
  return st == aot_status_ok ? 0 : 1;
}
