/* kernel_check.h - what every kernel-comparison firmware of tests/target
 * shares (included once, by the test's main file, after defining KC_SEED):
 * a xorshift32 generator seeded with KC_SEED (each test keeps its own seed,
 * so its random cases stay the same), rr(lo, hi) uniform integers in
 * [lo, hi], and check() counting passed / failed comparisons, printing the
 * first 29 failures with what failed and the case index. */
#ifndef KERNEL_CHECK_H
#define KERNEL_CHECK_H

#include <stdint.h>
#include <stdio.h>

#ifndef KC_SEED
#error "define KC_SEED (the test's random seed) before including kernel_check.h"
#endif

static uint32_t rng = KC_SEED;
static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}
/* uniform in [lo, hi] */
static int32_t rr(int32_t lo, int32_t hi) {
  return lo + (int32_t)(rnd() % (uint32_t)(hi - lo + 1));
}

static int passed, failed;
static void check(int ok, const char *what, int idx) {
  if (ok) {
    passed++;
  } else {
    failed++;
    if (failed < 30) printf("FAIL %s #%d\n", what, idx);
  }
}

#endif
