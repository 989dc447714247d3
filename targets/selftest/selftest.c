/* selftest.c - program of targets/selftest.sh (strict C99).
 * SELFTEST_EXIT: exit status to return when every check passes (default 0)
 * SELFTEST_LOOPS: iterations of the work inside the counted region
 * SELFTEST_FAULT: 1 = undefined instruction, 2 = stack overflow,
 *                 3 = write to a constant, 4 = integer division by zero,
 *                 5 = endless loop */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "target.h"

#if defined(__ARM_FEATURE_MVE)
#include <arm_mve.h>
#endif

#ifndef SELFTEST_EXIT
#define SELFTEST_EXIT 0
#endif
#ifndef SELFTEST_LOOPS
#define SELFTEST_LOOPS 10
#endif
#ifndef SELFTEST_FAULT
#define SELFTEST_FAULT 0
#endif

static int failures;

static void check(int ok, const char *what) {
  printf("%s: %s\n", ok ? "ok" : "FAILED", what);
  if (!ok) failures++;
}

/* .data and .bss initialisation. */
static int32_t initialised[4] = {11, -22, 33, -44};
static int32_t zeroed[64];

static const int32_t consts[8] = {1, 2, 3, 4, 5, 6, 7, 8};
volatile int32_t sink;
volatile int32_t vzero;

static int32_t work(int32_t n) {
  /* Data-dependent but deterministic loop: a fixed number of instructions
   * per iteration. */
  volatile int32_t acc = 0;
  int32_t i;
  for (i = 0; i < n; i++) acc = acc + consts[i & 7] * (i | 1);
  return acc;
}

#if SELFTEST_FAULT == 2
static int32_t recurse(volatile int32_t *p, int32_t depth) {
  volatile int32_t buf[64];
  buf[0] = depth;
  buf[63] = p ? p[0] : 0;
  if (depth < 0) return buf[0];
  return recurse(buf, depth + 1) + buf[63];
}
#endif

int main(void) {
  int32_t i, sum = 0;
  float s = 0.0f, pi;
  double e;
  int64_t big;
  char buf[64];

  printf("hello from %s\n",
#if defined(AOTC_TARGET_CORTEX_M55)
         "cortex-m55"
#elif defined(AOTC_TARGET_CORTEX_M4)
         "cortex-m4"
#else
         "host"
#endif
  );
  fprintf(stderr, "selftest: stderr works\n");

  check(initialised[0] == 11 && initialised[3] == -44, ".data initialised");
  for (i = 0; i < 64; i++) sum |= zeroed[i];
  check(sum == 0, ".bss zeroed");

  /* Float: Basel series, sqrt(6 * sum 1/k^2) -> pi. */
  for (i = 1; i <= 2000; i++) s += 1.0f / ((float)i * (float)i);
  pi = sqrtf(6.0f * s);
  snprintf(buf, sizeof buf, "%.4f", (double)pi);
  printf("pi ~ %s\n", buf);
  check(fabsf(pi - 3.14159265f) < 1e-3f, "float arithmetic + sqrtf");
  e = exp(1.0);
  check(fabs(e - 2.718281828459045) < 1e-12, "double exp()");
  big = (int64_t)1 << 40;
  snprintf(buf, sizeof buf, "%lld", (long long)(big + 5));
  check(strcmp(buf, "1099511627781") == 0, "int64 printf");

#if defined(__ARM_FEATURE_MVE)
  {
    int32_t a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, c[4];
    float fa[4] = {0.5f, 1.5f, 2.5f, 3.5f}, fc[4];
    vst1q_s32(c, vaddq_s32(vld1q_s32(a), vld1q_s32(b)));
    vst1q_f32(fc, vmulq_f32(vld1q_f32(fa), vld1q_f32(fa)));
    check(c[0] == 11 && c[3] == 44 && fc[1] == 2.25f && fc[3] == 12.25f,
          "MVE integer and float vectors");
  }
#endif

#if SELFTEST_FAULT == 1
  __asm__ volatile("udf #1");
#elif SELFTEST_FAULT == 2
  sink = recurse(0, 0);
#elif SELFTEST_FAULT == 3
  *(volatile int32_t *)&consts[1] = 5;
  sink = consts[1];
#elif SELFTEST_FAULT == 4
  sink = 7 / vzero;
#elif SELFTEST_FAULT == 5
  for (;;) sink++;
#endif

  target_count_start();
  sink = work(SELFTEST_LOOPS);
  target_count_stop();

  printf("selftest: %d failure(s)\n", failures);
  return failures ? 1 : SELFTEST_EXIT;
}
