/* compile.c - the driver: read the model -> refuse unknown custom ops and
 * invalid control flow -> LiteRT hooks -> IR of subgraph 0 -> shapes ->
 * transforms -> memory plan of the main graph and of the program
 * (plan_program) -> module directory, written atomically through
 * codegen_export. The test case's data are compile_testdata.c's. */
#define _GNU_SOURCE
#include "compile.h"

#include "compile_testdata.h"
#include "ir/verify_control.h"
#include "litert/hooks.h"
#include "ops/op_custom.h"
#include "passes/passes.h"
#include "plan/plan.h"

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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


int compile_write_module(const aotc_config *c, const compiled *cm, const char *dir, aotc_diag *d) {
  const ir_graph *g = cm->graph;
  cg_options o = {0};
  o.prefix = c->module_prefix ? c->module_prefix : "aot";
  o.name = c->module_name ? c->module_name : "helia_aot_nn";
  o.model_path = c->model_path;
  o.runtime_dir = compile_runtime_dir();
  o.shared_runtime = c->module_runtime;
  o.module_parent = c->module_path;
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
  if (compile_check_feedback(c, g, d) != 0) {
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
    if (compile_load_test_data(c, cm, (const int (*)[2])fb, &ins, &outs, &steps, &ref_used, d) != 0) goto out;
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

