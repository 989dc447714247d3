/* test_plan.c - the memory planner: no two simultaneously live tensors
 * overlap, 16-byte alignment, the arena meets the hand-computed lower bound
 * on a chain, in-place reuse, persistent tensors in their own arena. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "plan/plan.h"
#include "test_ir_common.h"

/* checks every pair of buffers live at the same op position is disjoint */
static void assert_no_overlap(const ir_graph *g) {
  for (int i = 0; i < g->nt; i++) {
    const ir_tensor *a = &g->t[i];
    if (!a->used || a->arena != 0 || a->alias >= 0) continue;
    assert_int_equal(a->offset % PLAN_ALIGN, 0);
    assert_true(a->offset + ir_bytes(a) <= g->scratch_arena_bytes);
    for (int j = i + 1; j < g->nt; j++) {
      const ir_tensor *b = &g->t[j];
      if (!b->used || b->arena != 0 || b->alias >= 0 || a->offset == b->offset) continue;
      /* live ranges from producer/consumer positions */
      int fa = ir_producer(g, i), fb = ir_producer(g, j), la = fa, lb = fb;
      for (int p = 0; p < g->nops; p++)
        for (int k = 0; k < g->ops[p].nin; k++) {
          if (g->ops[p].in[k] == i && p > la) la = p;
          if (g->ops[p].in[k] == j && p > lb) lb = p;
        }
      if (ir_is_output(g, i)) la = g->nops;
      if (ir_is_output(g, j)) lb = g->nops;
      int overlap_time = fa <= lb && fb <= la;
      int overlap_mem = a->offset < b->offset + ir_bytes(b) && b->offset < a->offset + ir_bytes(a);
      assert_false(overlap_time && overlap_mem);
    }
  }
}

/* x[1,100] -> MUL(x, c) t1 -> ADD(t1, x) t2 -> MUL(t2, t1) y : x and t1 stay live */
static void test_chain(void **state) {
  (void)state;
  litert_model *m = tm_new();
  int32_t s[2] = {1, 100}, s1[1] = {1};
  float cv = 2.0f;
  int x = tm_tensor(m, "x", 2, s), c = tm_const(m, "c", 1, s1, &cv, 1);
  int t1 = tm_tensor(m, "t1", 2, s), t2 = tm_tensor(m, "t2", 2, s), y = tm_tensor(m, "y", 2, s);
  tm_op(m, OP_MUL, 2, (int32_t[]){x, c}, 1, (int32_t[]){t1});
  tm_op(m, OP_ADD, 2, (int32_t[]){t1, x}, 1, (int32_t[]){t2});
  tm_op(m, OP_MUL, 2, (int32_t[]){t2, t1}, 1, (int32_t[]){y});
  litert_set_io(m, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_int_equal(plan_memory(g, &d), 0);
  /* 400 bytes -> 400 aligned; at op 1: x, t1, t2 live (t2 may reuse nothing) */
  assert_int_equal(g->scratch_lower_bound, 3 * 400);
  assert_int_equal(g->scratch_arena_bytes, g->scratch_lower_bound);
  assert_int_equal(g->persistent_arena_bytes, 0);
  assert_no_overlap(g);
  assert_int_equal(g->t[c].arena, -1); /* constants stay in flash */
  ir_free(g);
  litert_model_free(m);
}

/* RELU(a) where a dies at the RELU: the output takes a's storage */
static void test_inplace(void **state) {
  (void)state;
  litert_model *m = tm_new();
  int32_t s[2] = {1, 64};
  int x = tm_tensor(m, "x", 2, s), a = tm_tensor(m, "a", 2, s), b = tm_tensor(m, "b", 2, s);
  int y = tm_tensor(m, "y", 2, s);
  tm_op(m, OP_ADD, 2, (int32_t[]){x, x}, 1, (int32_t[]){a});
  tm_op(m, OP_RELU, 1, (int32_t[]){a}, 1, (int32_t[]){b});
  tm_op(m, OP_ADD, 2, (int32_t[]){b, b}, 1, (int32_t[]){y});
  litert_set_io(m, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_int_equal(plan_memory(g, &d), 0);
  assert_int_equal(g->t[a].offset, g->t[b].offset);
  assert_true(g->t[x].offset != g->t[a].offset); /* inputs are never clobbered in place */
  ir_free(g);
  litert_model_free(m);
}

/* a variable tensor goes to the persistent arena */
static void test_persistent(void **state) {
  (void)state;
  litert_model *m = tm_new();
  int32_t s[2] = {1, 10};
  int x = tm_tensor(m, "x", 2, s), v = tm_tensor(m, "state", 2, s), y = tm_tensor(m, "y", 2, s);
  m->subgraphs[0].tensors[v].is_variable = 1;
  tm_op(m, OP_ADD, 2, (int32_t[]){x, v}, 1, (int32_t[]){y});
  litert_set_io(m, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_int_equal(plan_memory(g, &d), 0);
  assert_int_equal(g->t[v].arena, 1);
  assert_int_equal(g->persistent_arena_bytes, 48); /* 40 bytes aligned to 16 */
  assert_no_overlap(g);
  ir_free(g);
  litert_model_free(m);
}

/* a pinned input keeps its bytes for the whole run */
static void test_pinned(void **state) {
  (void)state;
  litert_model *m = tm_new();
  int32_t s[2] = {1, 32};
  int x = tm_tensor(m, "x", 2, s), a = tm_tensor(m, "a", 2, s), y = tm_tensor(m, "y", 2, s);
  tm_op(m, OP_ADD, 2, (int32_t[]){x, x}, 1, (int32_t[]){a});
  tm_op(m, OP_ADD, 2, (int32_t[]){a, a}, 1, (int32_t[]){y});
  litert_set_io(m, 0, 1, (int32_t[]){x}, 1, (int32_t[]){y});
  aotc_diag d = {0};
  ir_graph *g = ir_from_litert(m, 0, &d);
  assert_int_equal(plan_memory(g, &d), 0);
  assert_int_equal(g->scratch_arena_bytes, 2 * 128); /* y may reuse x */
  ir_free(g);
  g = ir_from_litert(m, 0, &d);
  g->t[x].pinned = 1;
  assert_int_equal(plan_memory(g, &d), 0);
  assert_int_equal(g->scratch_arena_bytes, 3 * 128);
  assert_true(g->t[y].offset != g->t[x].offset);
  ir_free(g);
  litert_model_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_chain), cmocka_unit_test(test_inplace),
      cmocka_unit_test(test_persistent), cmocka_unit_test(test_pinned),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
