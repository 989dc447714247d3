/* test_softmax2.c - int8 SOFTMAX of two classes by compile-time tables
 * (op_activation.c softmax2_tables, runtime/SoftmaxFunctions/aot_softmax2_s8.c):
 *   - for input scales from 0.001 (no saturation: 256-entry tables) to 8
 *     (a few entries), betas 0.5 / 1 / 2, int8 and int16 outputs and several
 *     input zero points, an op of all 65,536 rows (x0, x1) lowers to
 *     aot_softmax2_s8 / aot_softmax2_s8_s16 and, run through the descriptor
 *     (lower_eval), gives the general kernel's outputs and status exactly
 *     (aot_softmax_s8 / aot_softmax_s8_s16 called directly with the
 *     parameters the lowering makes for rows of four, which do not depend on
 *     the row length);
 *   - every table entry is read by some row: one entry off by one (three
 *     random ones per configuration, one at a time) must change an output;
 *   - rows of 1 or 3 elements keep the general kernel.
 * (What lower_emit prints for it: test_lower's softmax tests.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ops/lower.h"
#include "test_kernels_elementwise_util.h"

enum { ROWS = 65536 };

/* A one-SOFTMAX graph of rows x depth, int8 input (scale, zp), int8 or int16
 * output with the fixed quantization the op needs; lowered into L. */
static void lower_softmax(tg *t, lower_list *L, int32_t rows, int32_t depth, float scale,
                          int32_t zp, float beta, int out16) {
  char why[256] = "";
  tg_init(t);
  const int32_t shape[2] = {rows, depth};
  int x = tg_tensor(t, DT_INT8, 2, shape, scale, zp);
  int y = out16 ? tg_tensor(t, DT_INT16, 2, shape, 1.0f / 65536.0f, -32768)
                : tg_tensor(t, DT_INT8, 2, shape, 1.0f / 256.0f, -128);
  ir_op *op = tg_op(t, OP_SOFTMAX, 1, (int[]){x}, y);
  op->opts.beta = beta;
  memset(L, 0, sizeof *L);
  if (lower_op(ops_find(t->g, op), t->g, op, L, why, sizeof why) != 0) fail_msg("lower: %s", why);
  assert_int_equal(L->n, 1);
}

/* Rows whose outputs differ between out_a and out_b. */
static long row_diffs(const void *a, const void *b, int out16) {
  const size_t w = out16 ? 4 : 2;
  long n = 0;
  for (size_t r = 0; r < ROWS; r++)
    n += memcmp((const char *)a + r * w, (const char *)b + r * w, w) != 0;
  return n;
}

static void test_softmax2_exact(void **state) {
  (void)state;
  static const float scales[] = {0.001f, 0.0039f, 0.02f, 0.0625f, 0.25f, 1.5f, 8.0f};
  static const float betas[] = {1.0f, 0.5f, 2.0f};
  static const int32_t zps[] = {-128, -3, 0, 77};
  long cases = 0, mutants = 0, cfg = 0;
  int nmin = 1000, nmax = 0;
  for (size_t si = 0; si < sizeof scales / sizeof scales[0]; si++)
    for (size_t bi = 0; bi < sizeof betas / sizeof betas[0]; bi++)
      for (int out16 = 0; out16 < 2; out16++, cfg++) {
        const int32_t zp = zps[cfg % 4];
        tg t, tg4;
        lower_list *L = calloc(1, sizeof *L), *L4 = calloc(1, sizeof *L4);
        lower_softmax(&t, L, ROWS, 2, scales[si], zp, betas[bi], out16);
        lower_softmax(&tg4, L4, 1, 4, scales[si], zp, betas[bi], out16);
        lower_call *c = &L->call[0];
        assert_string_equal(c->k->name, out16 ? "aot_softmax2_s8_s16" : "aot_softmax2_s8");
        assert_string_equal(L4->call[0].k->name, out16 ? "aot_softmax_s8_s16" : "aot_softmax_s8");
        const int n = out16 ? c->u.sm.exp_tab_n / 2 : c->u.sm.exp_tab_n;
        assert_true(n >= 1 && n <= 256);
        nmin = n < nmin ? n : nmin;
        nmax = n > nmax ? n : nmax;
        int8_t *x = t.data[0];
        for (int32_t r = 0; r < ROWS; r++) {   /* every pair (x0, x1) */
          x[2 * r] = (int8_t)((r >> 8) - 128);
          x[2 * r + 1] = (int8_t)((r & 255) - 128);
        }
        const size_t ob = (size_t)ROWS * 2 * (out16 ? 2 : 1);
        void *got = t.data[1], *want = malloc(ob), *saved = malloc(ob);
        const int32_t st = lower_eval(L, t.data, NULL);
        /* the general kernel, its parameters from the op of rows of four */
        aot_softmax_params p = L4->call[0].u.sm;
        p.outer = ROWS;
        p.depth = 2;
        p.exp_tab = NULL;
        p.exp_tab_n = 0;
        const int32_t st_gen = out16 ? aot_softmax_s8_s16(&p, x, want) : aot_softmax_s8(&p, x, want);
        assert_int_equal(st, st_gen);
        assert_int_equal(st, 0);
        if (row_diffs(got, want, out16) != 0)
          fail_msg("scale %g beta %g out%d: %ld rows differ", (double)scales[si], (double)betas[bi],
                   out16 ? 16 : 8, row_diffs(got, want, out16));
        cases += ROWS;
        /* one entry off: some row must tell */
        memcpy(saved, got, ob);
        for (int m = 0; m < 3; m++) {
          const int j = rand() % c->u.sm.exp_tab_n;
          const int16_t keep = c->lut16[0][j];
          c->lut16[0][j] = (int16_t)(keep == INT16_MAX ? keep - 1 : keep + 1);
          assert_int_equal(lower_eval(L, t.data, NULL), 0);
          if (row_diffs(got, want, out16) == 0)
            fail_msg("table entry %d off by one: no output changed", j);
          c->lut16[0][j] = keep;
          mutants++;
        }
        assert_int_equal(lower_eval(L, t.data, NULL), 0);
        assert_memory_equal(got, saved, ob);
        free(want);
        free(saved);
        lower_release(L);
        lower_release(L4);
        free(L);
        free(L4);
        tg_free(&t);
        tg_free(&tg4);
      }
  printf("softmax2: %ld configurations, %ld rows compared with the general kernel, table "
         "lengths %d..%d, %ld one-entry-off tables all detected\n",
         cfg, cases, nmin, nmax, mutants);
}

/* rows of 1 and 3 keep the general kernel */
static void test_softmax2_only_two(void **state) {
  (void)state;
  for (int32_t depth = 1; depth <= 3; depth += 2) {
    tg t;
    lower_list *L = calloc(1, sizeof *L);
    lower_softmax(&t, L, 5, depth, 0.05f, 0, 1.0f, 0);
    assert_string_equal(L->call[0].k->name, "aot_softmax_s8");
    assert_int_equal(L->call[0].nlut16, 0);
    lower_release(L);
    free(L);
    tg_free(&t);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_softmax2_exact),
      cmocka_unit_test(test_softmax2_only_two),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
