/* insn_loop.c - a hand-written loop of known length between the
 * instruction-count markers, for tests/integration/test_measure.sh.
 * The region runs from the instruction after target_count_start returns to
 * the call of target_count_stop: 1 (movs) + 2 * LOOP_N (subs + bne) + 1 (the
 * bl to the stop marker) = 2 * LOOP_N + 2 instructions. */
#include "target.h"

#ifndef LOOP_N
#define LOOP_N 100
#endif
#define STR2(x) #x
#define STR(x) STR2(x)

__attribute__((naked, noinline)) static void measured(void) {
  __asm__ volatile(
      "push {r4, lr}\n\t"
      "bl target_count_start\n\t"
      "movw r4, #" STR(LOOP_N) "\n\t"
      "1:\n\t"
      "subs r4, r4, #1\n\t"
      "bne 1b\n\t"
      "bl target_count_stop\n\t"
      "pop {r4, pc}\n\t");
}

int main(void) {
  measured();
  return 0;
}
