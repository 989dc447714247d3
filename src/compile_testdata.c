/* compile_testdata.c - the data of the generated test case: the check of the
 * test.state_feedback pairs against the model's inputs and outputs, and the
 * stimulus and expectation of the test, read from the golden .npz
 * (input_N, output_N, runK_output_N) or, where the file has no expectation
 * for the configured protocol (or there is no file: seeded random inputs),
 * computed by the reference interpreter on the model as read. */
#include "compile_testdata.h"

#include "ops/op_custom.h"
#include "ref/ref.h"

#include <stdlib.h>
#include <string.h>

/* Weak: the reference interpreter may be absent from a partial build. */
int ref_run(const litert_model *m, const npy_array *inputs, int nin, const ref_options *o,
            npy_array **outputs, int *nout, aotc_diag *d) __attribute__((weak));

static size_t dims_numel(const ir_tensor *t) { return ir_numel(t); }

/* Checks the state-feedback pairs against the model's I/O. */
int compile_check_feedback(const aotc_config *c, const ir_graph *g, aotc_diag *d) {
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
int compile_load_test_data(const aotc_config *c, const compiled *cm, const int (*fb)[2],
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
