/* plan_program.c - planning a whole program: every subgraph reachable from
 * the main graph through WHILE / IF / CALL_ONCE is built from the LiteRT
 * model, shaped for its caller, transformed and planned on its own; then the
 * scratch region of each callee is stacked above its callers' (a fixed point
 * over the call graph, which ir_check_program has already proved to be a
 * tree), and the persistent arena is laid out: each graph's variable tensors,
 * then one slot per resource variable (VAR_HANDLE key), sized for the largest
 * value any READ_VARIABLE / ASSIGN_VARIABLE gives it. */
#include "plan/plan.h"

#include "config/config.h"
#include "ir/verify_control.h"
#include "passes/passes.h"

#include <stdlib.h>
#include <string.h>

/* Subgraphs an op calls (WHILE cond/body, IF then/else, CALL_ONCE init). */
static int op_callees(const ir_op *op, int sg[2]) {
  switch (op->builtin) {
    case OP_WHILE: sg[0] = op->opts.cond_subgraph; sg[1] = op->opts.body_subgraph; return 2;
    case OP_IF: sg[0] = op->opts.then_subgraph; sg[1] = op->opts.else_subgraph; return 2;
    case OP_CALL_ONCE: sg[0] = op->opts.init_subgraph; return 1;
    default: return 0;
  }
}

static size_t align16(size_t x) { return (x + 15) & ~(size_t)15; }

static const char *callee_role(const ir_op *op, int k) {
  switch (op->builtin) {
    case OP_WHILE: return k ? "body" : "cond";
    case OP_IF: return k ? "else" : "then";
    default: return "init";
  }
}

/* Builds, transforms and plans every subgraph reachable through control flow,
 * stacks their scratch regions above their callers', and lays out the
 * persistent arena: each graph's variable tensors, then one slot per resource
 * variable. */
int plan_program(const aotc_config *c, ir_graph *main, aotc_diag *d) {
  const litert_model *m = main->src;
  int ns = m->nsubgraphs;
  main->nsubgraphs = ns;
  main->subgraphs = xcalloc((size_t)ns, sizeof(ir_graph *));
  ir_graph **all = xcalloc((size_t)ns, sizeof(ir_graph *));
  all[0] = main;
  int *disabled = xcalloc((size_t)ir_ntransforms, sizeof(int));
  for (int i = 0; i < ir_ntransforms; i++)
    disabled[i] = c ? config_switch(c, "transforms", ir_transforms[i].name) == 0 : 0;
  int rc = 0;
  for (int gi = 0; gi < ns && rc == 0; gi++) {
    ir_graph *g = all[gi];
    if (!g) continue;
    for (int i = 0; i < g->nops && rc == 0; i++) {
      int callee[2];
      int nc = op_callees(&g->ops[i], callee);
      for (int k = 0; k < nc && rc == 0; k++) {
        int s = callee[k];
        if (s <= 0 || s >= ns) {
          rc = diag_error(d, "subgraph %d op %d (%s) calls subgraph %d as its %s, which %s (the model has %d subgraphs); the model is malformed, re-export it",
                          gi, g->ops[i].id, litert_op_name(g->ops[i].builtin), s, callee_role(&g->ops[i], k),
                          s == 0 ? "is the main graph" : "does not exist", ns);
          break;
        }
        if (all[s]) {
          /* called again: the same shapes, or a refusal (no per-caller copy) */
          if (ir_check_call_io(g, &g->ops[i], all[s], s, d) != 0) rc = -1;
          continue;
        }
        ir_graph *sg = ir_from_litert(m, s, d);
        if (!sg) { rc = -1; break; }
        for (int j = 0; j < sg->nin; j++) sg->t[sg->inputs[j]].pinned = 1;
        main->subgraphs[s] = sg;
        all[s] = sg;
        if (ir_infer_callee_shapes(sg, g, &g->ops[i], d) < 0 ||
            ir_check_call_io(g, &g->ops[i], sg, s, d) != 0 ||
            ir_run_transforms(sg, disabled, d) < 0 || plan_memory(sg, d) != 0)
          rc = -1;
      }
    }
  }
  free(disabled);
  /* scratch: a callee's region starts above its caller's */
  for (int i = 0; i < ns; i++)
    if (all[i]) {
      all[i]->own_scratch_bytes = align16(all[i]->scratch_arena_bytes);
      all[i]->own_persistent_bytes = all[i]->persistent_arena_bytes;
      all[i]->scratch_base = 0;
    }
  for (int iter = 0, changed = 1; changed && rc == 0; iter++) {
    if (iter > ns + 1) {
      rc = diag_unsupported(d, "subgraphs call each other recursively (the scratch regions of the control-flow subgraphs do not settle); a microcontroller module needs a call tree, re-export the model without recursion");
      break;
    }
    changed = 0;
    for (int gi = 0; gi < ns; gi++) {
      ir_graph *g = all[gi];
      if (!g) continue;
      for (int i = 0; i < g->nops; i++) {
        int callee[2];
        int nc = g->ops[i].dead ? 0 : op_callees(&g->ops[i], callee);
        for (int k = 0; k < nc; k++) {
          size_t want = g->scratch_base + g->own_scratch_bytes;
          if (all[callee[k]] && all[callee[k]]->scratch_base < want) {
            all[callee[k]]->scratch_base = want;
            changed = 1;
          }
        }
      }
    }
  }
  size_t scratch = 0, pers = 0;
  for (int i = 0; i < ns && rc == 0; i++) {
    if (!all[i]) continue;
    if (all[i]->scratch_base + all[i]->own_scratch_bytes > scratch)
      scratch = all[i]->scratch_base + all[i]->own_scratch_bytes;
    all[i]->persistent_base = pers;
    pers += align16(all[i]->own_persistent_bytes);
  }
  /* resource variables */
  for (int gi = 0; gi < ns && rc == 0; gi++) {
    ir_graph *g = all[gi];
    if (!g) continue;
    for (int i = 0; i < g->nops; i++) {
      if (g->ops[i].dead || g->ops[i].builtin != OP_VAR_HANDLE) continue;
      char *k = ir_var_key(&g->ops[i]);
      int found = 0;
      for (int v = 0; v < main->nvars; v++) found |= strcmp(main->vars[v].key, k) == 0;
      if (found) { free(k); continue; }
      main->vars = xrealloc(main->vars, (size_t)(main->nvars + 1) * sizeof *main->vars);
      main->vars[main->nvars++] = (struct ir_var){k, -1, 0, 0};
    }
  }
  for (int gi = 0; gi < ns && rc == 0; gi++) {
    ir_graph *g = all[gi];
    if (!g) continue;
    for (int i = 0; i < g->nops && rc == 0; i++) {
      const ir_op *op = &g->ops[i];
      if (op->dead || (op->builtin != OP_READ_VARIABLE && op->builtin != OP_ASSIGN_VARIABLE)) continue;
      int v = ir_var_slot(main, g, op);
      const ir_tensor *val = op->builtin == OP_READ_VARIABLE ? ir_out(g, op, 0) : ir_in(g, op, 1);
      if (v < 0 || !val) {
        rc = diag_unsupported(d, "subgraph %d op %d (%s): its resource (input 0) does not come from a VAR_HANDLE in the same subgraph, or it has no value tensor; aotc binds each variable at compile time, re-export the model with a VAR_HANDLE next to each use",
                              gi, op->id, litert_op_name(op->builtin));
        break;
      }
      if (main->vars[v].dtype >= 0 && main->vars[v].dtype != val->dtype) {
        rc = diag_unsupported(d, "subgraph %d op %d (%s): resource variable '%s' is used with dtypes %s and %s; a variable holds one dtype, re-export the model",
                              gi, op->id, litert_op_name(op->builtin), main->vars[v].key,
                              dtype_name(main->vars[v].dtype), dtype_name(val->dtype));
        break;
      }
      main->vars[v].dtype = val->dtype;
      if (ir_bytes(val) > main->vars[v].bytes) main->vars[v].bytes = ir_bytes(val);
    }
  }
  for (int v = 0; v < main->nvars && rc == 0; v++) {
    main->vars[v].offset = pers;
    pers += align16(main->vars[v].bytes);
  }
  if (rc == 0) {
    main->scratch_arena_bytes = scratch;
    main->persistent_arena_bytes = pers;
  }
  free(all);
  return rc;
}
