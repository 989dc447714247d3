/* compile.c - the pipeline: read -> hooks -> IR -> transforms -> plan ->
 * module directory (written atomically). */
#define _GNU_SOURCE
#include "compile.h"

#include "ir/verify_control.h"
#include "litert/hooks.h"
#include "ops/op_custom.h"
#include "passes/passes.h"
#include "plan/plan.h"
#include "ref/ref.h"

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Weak: the reference interpreter may be absent from a partial build. */
int ref_run(const litert_model *m, const npy_array *inputs, int nin, const ref_options *o,
            npy_array **outputs, int *nout, aotc_diag *d) __attribute__((weak));

const char *compile_runtime_dir(void) {
  const char *e = getenv("AOTC_RUNTIME_DIR");
  return (e && *e) ? e : AOTC_RUNTIME_DIR;
}

void compile_register_switches(aotc_config *c) {
  for (int i = 0; i < ir_ntransforms; i++)
    config_register_switch(c, "transforms", ir_transforms[i].name, 1, ir_transforms[i].doc);
  for (int i = 0; i < litert_hooks_count(); i++) {
    const litert_hook *h = litert_hooks_get(i);
    config_register_switch(c, "litert_hooks", h->name, h->enabled, h->doc);
  }
}

void compiled_free(compiled *cm) {
  ir_free(cm->graph);
  litert_model_free(cm->model);
  litert_model_free(cm->model_orig);
  memset(cm, 0, sizeof *cm);
}

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

/* Looks for a cycle in the call graph of the built subgraphs (all[s] != NULL)
 * from the main graph, with an explicit stack (a hostile model may chain
 * thousands of subgraphs). On a cycle, refuses naming it:
 * "subgraph 1 op 0 (WHILE body) -> subgraph 1". */
static int refuse_recursion(ir_graph **all, int ns, aotc_diag *d) {
  char *state = xcalloc((size_t)ns, 1);          /* 0 new, 1 on the stack, 2 done */
  int *stk = xcalloc((size_t)ns + 1, sizeof(int)), *edge = xcalloc((size_t)ns + 1, sizeof(int));
  int top = 0, rc = 0;
  stk[0] = 0;
  edge[0] = 0;
  state[0] = 1;
  while (top >= 0 && rc == 0) {
    ir_graph *g = all[stk[top]];
    int e = edge[top]++, op = e / 2, k = e % 2;
    if (!g || op >= g->nops) {
      state[stk[top--]] = 2;
      continue;
    }
    int callee[2];
    int nc = g->ops[op].dead ? 0 : op_callees(&g->ops[op], callee);
    if (k >= nc) continue;
    int s = callee[k];
    if (s <= 0 || s >= ns || !all[s] || state[s] == 2) continue;
    if (state[s] == 1) {
      strbuf b = {0};
      int from = 0;
      while (stk[from] != s) from++;
      for (int i = from; i <= top; i++) {
        const ir_graph *h = all[stk[i]];
        int oe = edge[i] - 1, o = oe / 2;
        sb_printf(&b, "subgraph %d op %d (%s %s) -> ", stk[i], h->ops[o].id,
                  litert_op_name(h->ops[o].builtin), callee_role(&h->ops[o], oe % 2));
      }
      sb_printf(&b, "subgraph %d", s);
      rc = diag_unsupported(d, "subgraphs call each other recursively: %s; a microcontroller module needs a call tree (no subgraph may call itself directly or through others); re-export the model without recursion",
                            b.s);
      sb_free(&b);
      break;
    }
    state[s] = 1;
    stk[++top] = s;
    edge[top] = 0;
  }
  free(state);
  free(stk);
  free(edge);
  return rc;
}

/* Builds, transforms and plans every subgraph reachable through control flow,
 * stacks their scratch regions above their callers', and lays out the
 * persistent arena: each graph's variable tensors, then one slot per resource
 * variable. */
static int plan_program(const aotc_config *c, ir_graph *main, aotc_diag *d) {
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
  if (rc == 0) rc = refuse_recursion(all, ns, d);
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

int compile_model(const aotc_config *c, const char *model_path, int check_ops, compiled *out,
                  aotc_diag *d) {
  memset(out, 0, sizeof *out);
  if (!model_path || !*model_path)
    return diag_error(d, "no model given: pass --model.path MODEL.tflite (or model.path in the config)");
  litert_model *m = litert_read_file(model_path, d);
  if (!m) return -1;
  return compile_litert(c, m, model_path, check_ops, out, d);
}

int compile_litert(const aotc_config *c, litert_model *m, const char *model_path, int check_ops,
                   compiled *out, aotc_diag *d) {
  memset(out, 0, sizeof *out);
  out->model = m;
  if (out->model->nsubgraphs < 1) {
    compiled_free(out);
    return diag_error(d, "%s: model has no subgraphs", model_path ? model_path : "model");
  }
  /* Flex, Vela and unknown CUSTOM ops are refused before any analysis */
  if (custom_ops_prepare(c, out->model, check_ops, d) != 0) {
    compiled_free(out);
    return -1;
  }
  /* control flow and wiring, on the model as read (the reference
   * interpreter applies the same rules) */
  if (ir_check_program(out->model, d) != 0) {
    compiled_free(out);
    return -1;
  }
  int nh = litert_hooks_count();
  int *counts = xcalloc((size_t)(nh + 1), sizeof(int));
  for (int i = 0; i < nh; i++) {
    const litert_hook *h = litert_hooks_get(i);
    int on = c ? config_switch(c, "litert_hooks", h->name) : 1;
    litert_hooks_enable(h->name, on != 0);
  }
  int rc = litert_hooks_run(out->model, model_path, counts, d);
  int rewrites = 0;
  for (int i = 0; i < nh; i++) {
    if (strcmp(litert_hooks_get(i)->name, "fuse_rolled_gru") == 0) out->fused_gru_loops = counts[i];
    rewrites += counts[i];
  }
  free(counts);
  /* the reference interpreter runs the model as read, before any hook */
  if (rc == 0 && rewrites > 0 && model_path) out->model_orig = litert_read_file(model_path, d);
  if (rc != 0) {
    compiled_free(out);
    return -1;
  }
  out->graph = ir_from_litert(out->model, 0, d);
  if (!out->graph || ir_infer_shapes(out->graph, d) < 0) {
    compiled_free(out);
    return -1;
  }
  /* state-feedback targets keep their bytes for the whole run */
  if (c)
    for (int i = 0; i < c->test_n_state_feedback; i++) {
      int in = c->test_state_feedback[i].in;
      if (in >= 0 && in < out->graph->nin) out->graph->t[out->graph->inputs[in]].pinned = 1;
    }
  int *disabled = xcalloc((size_t)ir_ntransforms, sizeof(int));
  for (int i = 0; i < ir_ntransforms; i++)
    disabled[i] = c ? config_switch(c, "transforms", ir_transforms[i].name) == 0 : 0;
  int n = ir_run_transforms(out->graph, disabled, d);
  free(disabled);
  if (n < 0) {
    compiled_free(out);
    return -1;
  }
  out->transform_changes = n;
  if (plan_memory_config(c, out->graph, d) != 0 || plan_program(c, out->graph, d) != 0) {
    compiled_free(out);
    return -1;
  }
  pass_name_constants(out->graph);
  if (check_ops && codegen_check_supported(out->graph, d) != 0) {
    compiled_free(out);
    return -1;
  }
  return 0;
}

static int rm_cb(const char *p, const struct stat *st, int flag, struct FTW *f) {
  (void)st;
  (void)flag;
  (void)f;
  return remove(p);
}

int remove_tree(const char *path) { return nftw(path, rm_cb, 16, FTW_DEPTH | FTW_PHYS); }

static size_t dims_numel(const ir_tensor *t) { return ir_numel(t); }

/* Checks the state-feedback pairs against the model's I/O. */
static int check_feedback(const aotc_config *c, const ir_graph *g, aotc_diag *d) {
  for (int i = 0; i < c->test_n_state_feedback; i++) {
    int o = c->test_state_feedback[i].out, in = c->test_state_feedback[i].in;
    if (o < 0 || o >= g->nout)
      return diag_error(d, "test.state_feedback pair %d (%d:%d): output position %d is out of range (model has %d outputs)",
                        i, o, in, o, g->nout);
    if (in < 0 || in >= g->nin)
      return diag_error(d, "test.state_feedback pair %d (%d:%d): input position %d is out of range (model has %d inputs)",
                        i, o, in, in, g->nin);
    for (int k = 0; k < i; k++)
      if (c->test_state_feedback[k].in == in)
        return diag_error(d, "test.state_feedback: outputs %d and %d are both assigned to input %d; each input takes at most one output",
                          c->test_state_feedback[k].out, o, in);
    const ir_tensor *to = &g->t[g->outputs[o]], *ti = &g->t[g->inputs[in]];
    if (to->dtype != ti->dtype)
      return diag_error(d, "test.state_feedback %d:%d: output %d '%s' is %s but input %d '%s' is %s; the pair must have one dtype",
                        o, in, o, to->name, dtype_name(to->dtype), in, ti->name, dtype_name(ti->dtype));
    /* shapes equal up to dimensions of size 1 */
    int a = 0, b = 0, same = 1;
    while (a < to->rank || b < ti->rank) {
      while (a < to->rank && to->shape[a] == 1) a++;
      while (b < ti->rank && ti->shape[b] == 1) b++;
      if (a < to->rank && b < ti->rank) {
        if (to->shape[a] != ti->shape[b]) same = 0;
        a++;
        b++;
      } else if (a < to->rank || b < ti->rank) {
        same = 0;
        break;
      }
    }
    if (!same || dims_numel(to) != dims_numel(ti))
      return diag_error(d, "test.state_feedback %d:%d: output %d '%s' and input %d '%s' have different shapes; the pair must match (dimensions of size 1 aside)",
                        o, in, o, to->name, in, ti->name);
    int qdiff = to->nq != ti->nq ||
                (to->nq && (to->scale[0] != ti->scale[0] || to->zero_point[0] != ti->zero_point[0]));
    if (qdiff)
      diag_warn(d, "test.state_feedback %d:%d: output '%s' and input '%s' have different quantization; the state is carried as raw values",
                o, in, to->name, ti->name);
  }
  return 0;
}

/* Loads the test stimulus/expectation from the golden npz, or computes the
 * expectation with the reference interpreter. Arrays are returned in
 * ins and outs (npz_free). */
static int load_test_data(const aotc_config *c, const compiled *cm, const int (*fb)[2],
                          npy_array **ins, npy_array **outs, int *steps, int *ref_used_out,
                          aotc_diag *d) {
  const ir_graph *g = cm->graph;
  npy_array *arrs = NULL, *ref_outs = NULL;
  int n = 0, nref = 0, ref_used = 0;
  int seq = c->test_mode == AOTC_TEST_SEQUENCE;
  *ins = xcalloc((size_t)(g->nin + 1), sizeof(npy_array));
  *outs = xcalloc((size_t)(g->nout + 1), sizeof(npy_array));
  *steps = 1;
  /* messages name the golden file, or what stands for it */
  const char *gname = c->test_golden_data ? c->test_golden_data : "the generated test data (no test.golden_data)";
  if (!c->test_golden_data) {
    if (custom_ops_refuse_ref(cm->model, d) != 0) return -1;
    /* no golden: seeded random stimulus, expectation from the reference
     * interpreter (the original graph, none of our transforms) */
    uint32_t seed = 0x2545f491u;
    arrs = xcalloc((size_t)(g->nin + 1), sizeof(npy_array));
    n = g->nin;
    for (int i = 0; i < g->nin; i++) {
      const ir_tensor *t = &g->t[g->inputs[i]];
      int64_t shape[IR_MAX_RANK];
      for (int k = 0; k < t->rank; k++) shape[k] = t->shape[k];
      char key[32];
      snprintf(key, sizeof key, "input_%d", i);
      if (npy_init(&arrs[i], key, t->dtype, t->rank, shape, NULL, d) != 0) return -1;
      uint8_t *b = arrs[i].data;
      for (size_t k = 0; k < arrs[i].count; k++) {
        seed = seed * 1664525u + 1013904223u;
        uint32_t r = seed >> 8;
        switch (t->dtype) {
          case DT_FLOAT32: { float v = (float)((double)(r % 20001) / 10000.0 - 1.0); memcpy(b + 4 * k, &v, 4); break; }
          case DT_INT8: b[k] = (uint8_t)(int8_t)(r % 256 - 128); break;
          case DT_UINT8: case DT_BOOL: b[k] = (uint8_t)(t->dtype == DT_BOOL ? r % 2 : r % 256); break;
          case DT_INT16: { int16_t v = (int16_t)((int32_t)(r % 65536) - 32768); memcpy(b + 2 * k, &v, 2); break; }
          case DT_INT32: { int32_t v = (int32_t)(r % 201) - 100; memcpy(b + 4 * k, &v, 4); break; }
          default: break;
        }
      }
    }
    diag_warn(d, "no test.golden_data: using seeded random inputs and the reference interpreter's outputs");
  } else if (npz_read(c->test_golden_data, &arrs, &n, d) != 0) {
    return -1;
  }
  int rc = 0;
  for (int i = 0; i < g->nin && rc == 0; i++) {
    char key[32];
    snprintf(key, sizeof key, "input_%d", i);
    const npy_array *a = npz_find(arrs, n, key);
    const ir_tensor *t = &g->t[g->inputs[i]];
    if (!a) {
      rc = diag_error(d, "%s: no array '%s' for model input %d '%s'", gname, key, i, t->name);
      break;
    }
    if (a->dtype != t->dtype) {
      rc = diag_error(d, "%s: '%s' is %s but model input %d '%s' is %s", gname, key,
                      dtype_name(a->dtype), i, t->name, dtype_name(t->dtype));
      break;
    }
    size_t per = ir_bytes(t);
    int st = seq && a->rank > 0 ? (int)a->shape[0] : 1;
    if (a->nbytes != per * (size_t)st) {
      rc = diag_error(d, "%s: '%s' has %zu bytes, model input %d '%s' needs %zu%s", gname,
                      key, a->nbytes, i, t->name, per, seq ? " per step" : "");
      break;
    }
    if (i == 0) *steps = st;
    else if (st != *steps) {
      rc = diag_error(d, "%s: '%s' has %d steps but input_0 has %d", gname, key, st, *steps);
      break;
    }
    npy_init(&(*ins)[i], key, a->dtype, a->rank, a->shape, a->data, d);
  }
  int iters = c->test_num_iterations > 0 ? c->test_num_iterations : 1;
  for (int i = 0; i < g->nout && rc == 0; i++) {
    char key[48];
    const npy_array *a = NULL;
    const char *from = gname;
    if (iters > 1 && !seq) {
      snprintf(key, sizeof key, "run%d_output_%d", iters - 1, i);
      a = npz_find(arrs, n, key);
    }
    if (!a && iters == 1) {
      snprintf(key, sizeof key, "output_%d", i);
      a = npz_find(arrs, n, key);
    }
    if (!a) {
      /* the expectation after this protocol is not in the file: the
       * reference interpreter computes it from the same inputs */
      if (!ref_outs) {
        if (custom_ops_refuse_ref(cm->model, d) != 0) { rc = -1; break; }
        if (!ref_run) {
          rc = diag_error(d, "no expected output for the test protocol and no reference interpreter in this build");
          break;
        }
        ref_options ro = {iters, c->test_n_state_feedback, fb, seq, c->test_n_resets, c->test_resets};
        int r = ref_run(cm->model_orig ? cm->model_orig : cm->model, *ins, g->nin, &ro, &ref_outs, &nref, d);
        if (r != 0) { rc = -1; break; }
        if (c->test_golden_data)
          diag_warn(d, "%s has no expected outputs for %d iteration(s)%s; using the reference interpreter's",
                    c->test_golden_data, iters, seq ? " in sequence mode" : "");
        ref_used = 1;
      }
      snprintf(key, sizeof key, "output_%d", i);
      a = npz_find(ref_outs, nref, key);
      from = "the reference interpreter's outputs";
    }
    const ir_tensor *t = &g->t[g->outputs[i]];
    if (!a) {
      rc = diag_error(d, "%s: no array '%s' for model output %d '%s'%s", from, key, i, t->name,
                      c->test_golden_data ? "; add it to the golden file" : "");
      break;
    }
    if (a->dtype != t->dtype || a->nbytes != ir_bytes(t) * (size_t)*steps) {
      rc = diag_error(d, "%s: '%s' (%s, %zu bytes) does not match model output %d '%s' (%s, %zu bytes%s)",
                      from, key, dtype_name(a->dtype), a->nbytes, i, t->name,
                      dtype_name(t->dtype), ir_bytes(t), seq ? " per step" : "");
      break;
    }
    npy_init(&(*outs)[i], key, a->dtype, a->rank, a->shape, a->data, d);
  }
  npz_free(arrs, n);
  if (ref_outs) npz_free(ref_outs, nref);
  *ref_used_out = ref_used;
  return rc;
}

int compile_write_module(const aotc_config *c, const compiled *cm, const char *dir, aotc_diag *d) {
  const ir_graph *g = cm->graph;
  cg_options o = {0};
  o.prefix = c->module_prefix ? c->module_prefix : "aot";
  o.name = c->module_name ? c->module_name : "helia_aot_nn";
  o.model_path = c->model_path;
  o.runtime_dir = compile_runtime_dir();
  cg_strings keep;
  if (codegen_options_from_config(c, &o, &keep, d) != 0) return -1;
  /* placement by id and scratch_placement (as plan_memory_config planned them) */
  if (plan_scratch_placement(c, g, &keep.scratch_place, d) != 0) {
    cg_strings_free(&keep);
    return -1;
  }
  if (keep.scratch_place.ngroups) o.scratch_place = &keep.scratch_place;
  if (plan_const_placement(c, g, keep.const_src_mem, keep.const_mem, &keep.const_place, d) != 0) {
    cg_strings_free(&keep);
    return -1;
  }
  if (keep.const_place.ngroups) o.const_place = &keep.const_place;
  o.dump_residency_json = c->memory_dump_residency_json;
  o.fused_gru_loops = cm->fused_gru_loops;
  npy_array *ins = NULL, *outs = NULL;
  cg_array *cins = NULL, *couts = NULL;
  int (*fb)[2] = NULL;
  int rc = -1, golden_from_ref = 0;
  if (check_feedback(c, g, d) != 0) {
    cg_strings_free(&keep);
    return -1;
  }
  if (c->test_enabled) {
    int steps = 1, ref_used = 0;
    fb = xcalloc((size_t)(c->test_n_state_feedback + 1), sizeof *fb);
    for (int i = 0; i < c->test_n_state_feedback; i++) {
      fb[i][0] = c->test_state_feedback[i].out;
      fb[i][1] = c->test_state_feedback[i].in;
    }
    if (load_test_data(c, cm, (const int (*)[2])fb, &ins, &outs, &steps, &ref_used, d) != 0) goto out;
    golden_from_ref = ref_used;
    cins = xcalloc((size_t)(g->nin + 1), sizeof(cg_array));
    couts = xcalloc((size_t)(g->nout + 1), sizeof(cg_array));
    for (int i = 0; i < g->nin; i++) cins[i] = (cg_array){ins[i].dtype, ins[i].nbytes, ins[i].data, steps};
    for (int i = 0; i < g->nout; i++) couts[i] = (cg_array){outs[i].dtype, outs[i].nbytes, outs[i].data, steps};
    o.test.enabled = 1;
    o.test.inputs = cins;
    o.test.outputs = couts;
    o.test.tolerance = c->test_tolerance;
    /* an explicit test.tolerance applies to every output; by default float
     * outputs get 1e-5 absolute (1 LSB means nothing for them) */
    o.test.float_tolerance = c->test_tolerance_given ? c->test_tolerance : 1e-5;
    o.test.num_iterations = c->test_num_iterations;
    o.test.nfeedback = c->test_n_state_feedback;
    o.test.feedback = (const int (*)[2])fb;
    o.test.sequence = c->test_mode == AOTC_TEST_SEQUENCE;
    o.test.nresets = c->test_n_resets;
    o.test.resets = c->test_resets;
  }
  if (mkdir(dir, 0755) != 0) {
    diag_error(d, "cannot create '%s': %s", dir, strerror(errno));
    goto out;
  }
  rc = codegen_module(g, &o, dir, d);
  if (rc == 0 && golden_from_ref) {
    /* the golden aotc used, next to the module */
    npy_array *all = xcalloc((size_t)(g->nin + g->nout + 1), sizeof(npy_array));
    for (int i = 0; i < g->nin; i++) all[i] = ins[i];
    for (int i = 0; i < g->nout; i++) all[g->nin + i] = outs[i];
    char *gp = xasprintf("%s/golden.npz", dir);
    rc = npz_write(gp, all, g->nin + g->nout, 0, d);
    free(gp);
    free(all);
  }
out:
  if (ins) npz_free(ins, g->nin);
  if (outs) npz_free(outs, g->nout);
  free(cins);
  free(couts);
  free(fb);
  cg_strings_free(&keep);
  return rc;
}

struct convert_job {
  const aotc_config *c;
  const compiled *cm;
};

static int write_job(const char *dir, void *arg, aotc_diag *d) {
  const struct convert_job *j = arg;
  return compile_write_module(j->c, j->cm, dir, d);
}

int compile_convert(const aotc_config *c, aotc_diag *d) {
  /* the output location is checked before compiling, and again by the export */
  if (codegen_export_check(c->module_path, c->module_name, c->force, d) != 0) return -1;
  compiled cm;
  if (compile_model(c, c->model_path, 1, &cm, d) != 0) return -1;
  struct convert_job job = {c, &cm};
  int rc = codegen_export(c->module_path, c->module_name, c->force, write_job, &job, d);
  if (rc == 0 && cm.fused_gru_loops > 0)
    fprintf(stderr, "aotc: fused %d rolled GRU loop%s\n", cm.fused_gru_loops, cm.fused_gru_loops > 1 ? "s" : "");
  compiled_free(&cm);
  return rc;
}
