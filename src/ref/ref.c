/* ref.c - the host reference interpreter: ref_run, its inputs and outputs.
 *
 * Runs the ORIGINAL LiteRT model: every subgraph is converted with
 * ir_from_litert() and nothing else (no hooks, no transforms, no memory plan),
 * every tensor gets its own calloc'd buffer, constants point at the model's
 * buffers, and the operators run in model order through op_eval (a lowered
 * operator's kernel calls through the kernel table's host function pointers,
 * else the operator's eval: the same portable kernels the modules use).
 *
 * The interpreter implements itself what has no kernel:
 *  - control flow: WHILE, IF, CALL (nested up to IR_MAX_CALL_DEPTH
 *    subgraphs, no recursion) and CALL_ONCE (the init subgraph runs once per
 *    instance, on the first run after creation or reset); which wirings are
 *    valid is decided by ir_check_program (src/ir/verify_control.c), the
 *    check the compiler applies too;
 *  - resource variables: VAR_HANDLE gives one slot per (container,
 *    shared_name) pair, shared by every subgraph of the instance; a resource
 *    tensor holds slot+1 as an int32 (0: no handle); READ_VARIABLE before any
 *    ASSIGN_VARIABLE reads zeros in the read op's output shape and dtype;
 *  - variable tensors (is_variable, ROLE_PERSISTENT) keep their contents
 *    across runs and start at zero, int8 ones at their zero point (as
 *    TFLite's and TFLM's ResetVariableTensors do), or at their buffer's data
 *    when they have one;
 *  - run-time shapes: an op whose input shapes differ from the declared ones,
 *    or whose outputs have a dynamic shape_signature (-1), gets its output
 *    shapes computed before it runs (like TFLite's Prepare) by the
 *    operator's shape rule (ir_shape_rule, the same rule the static shape
 *    pass uses, here with every parameter read); small int32/int64 parameter
 *    inputs computed at run time (RESHAPE's shape, SLICE's begin/size, ...)
 *    are presented to the op as constants, because at that point they are.
 *    Anything else dynamic is a clear error.
 *
 * Hybrid models (float op, int8 constant weights) are run with the weights
 * dequantized once (w = scale * (q - zero_point)), as aotc's compiler does;
 * a warning says so.
 *
 * The interpreter is split by concern: ref_inst.c (the instance, tensor
 * storage, run-time shapes), ref_kernel.c (one operator with a kernel),
 * ref_control.c (the subgraph loop, WHILE / IF / CALL / CALL_ONCE), ref_var.c
 * (resource variables). This file checks the given inputs (dtype, steps,
 * shape; a run-time shape where the signature allows it) and the state
 * feedback pairs, runs subgraph 0 for every iteration of every step (with
 * the resets asked for; fed inputs take the given value first and after a
 * reset) and collects the outputs.
 */
#include "ref_internal.h"

#include <stdlib.h>
#include <string.h>

#include "../ir/verify_control.h"

static int in_list(const int *v, int n, int x) {
  for (int i = 0; i < n; i++)
    if (v[i] == x) return 1;
  return 0;
}

/* Copies step `step` of input i into the model's input tensor. */
static void load_input(rsg *r, int i, const npy_array *a, int step) {
  int t = r->g->inputs[i];
  size_t per = ref_tbytes(&r->g->t[t]);
  memcpy(r->data[t], (const uint8_t *)a->data + (size_t)step * per, per);
}

int ref_run(const litert_model *m, const npy_array *inputs, int nin, const ref_options *o,
            npy_array **outputs, int *nout, aotc_diag *d) {
  *outputs = NULL;
  *nout = 0;
  ref_options defo = {1, 0, NULL, 0, 0, NULL};
  if (!o) o = &defo;
  if (!m || m->nsubgraphs < 1) return diag_error(d, "model has no subgraphs");
  /* the validity rules the compiler applies (src/ir/verify_control.c) */
  if (ir_check_program(m, d) != 0) return -1;
  int iters = o->iterations > 0 ? o->iterations : 1;
  rinst *I = ref_inst_new(m, d);
  rsg *r = ref_get_sg(I, 0);
  npy_array *outs = NULL;
  int rc = 0, steps = 1;
  uint8_t *fed = NULL;
  if (!r) {
    ref_inst_free(I);
    return -1;
  }
  ir_graph *g = r->g;
  if (nin != g->nin) {
    rc = diag_error(d, "model has %d inputs, %d given", g->nin, nin);
    goto done;
  }
  /* inputs: dtype, steps, shape */
  for (int i = 0; i < nin && rc == 0; i++) {
    const npy_array *a = &inputs[i];
    int t = g->inputs[i];
    ir_tensor *x = &g->t[t];
    char want[96], got[96];
    if (a->dtype != x->dtype) {
      rc = diag_error(d, "input %d '%s': got %s data, the model expects %s", i, x->name,
                      dtype_name(a->dtype), dtype_name(x->dtype));
      break;
    }
    int lead = 0, st = 1;
    if (o->sequence) {
      if (a->rank < 1) {
        rc = diag_error(d, "input %d '%s': sequence mode needs a leading steps axis", i, x->name);
        break;
      }
      lead = 1;
      st = (int)a->shape[0];
      if (i == 0) steps = st;
      else if (st != steps) {
        rc = diag_error(d, "input %d '%s' has %d steps, input 0 has %d", i, x->name, st, steps);
        break;
      }
    }
    int32_t ash[NPY_MAX_RANK];
    int arank = a->rank - lead;
    for (int k = 0; k < arank; k++) ash[k] = (int32_t)a->shape[k + lead];
    size_t per = st > 0 ? a->nbytes / (size_t)st : 0;
    if (per != ref_tbytes(x)) {
      /* a run-time shape where the signature allows it */
      int ok = r->ts[t].dynsig && arank == x->rank;
      const litert_tensor *lt = &m->subgraphs[0].tensors[x->src_index];
      for (int k = 0; ok && k < arank; k++)
        if (ash[k] != x->shape[k] && !(lt->shape_signature && lt->shape_signature[k] < 0)) ok = 0;
      if (ok) {
        rc = ref_set_shape(I, r, t, arank, ash);  /* ops reading it infer their shapes */
      } else {
        ref_shape_str(x->rank, x->shape, want, sizeof want);
        ref_shape_str(arank, ash, got, sizeof got);
        rc = diag_error(d, "input %d '%s': got shape %s (%zu bytes%s), the model expects %s (%zu bytes)",
                        i, x->name, got, per, o->sequence ? " per step" : "", want, ref_tbytes(x));
      }
    }
  }
  if (rc) goto done;
  if (steps < 1) {
    rc = diag_error(d, "sequence mode: inputs have 0 steps");
    goto done;
  }
  fed = xcalloc((size_t)(g->nin + 1), 1);
  for (int k = 0; k < o->nfeedback; k++) {
    int oo = o->feedback[k][0], ii = o->feedback[k][1];
    if (oo < 0 || oo >= g->nout || ii < 0 || ii >= g->nin) {
      rc = diag_error(d, "state feedback %d:%d: the model has %d outputs and %d inputs", oo, ii,
                      g->nout, g->nin);
      goto done;
    }
    const ir_tensor *to = &g->t[g->outputs[oo]], *ti = &g->t[g->inputs[ii]];
    if (to->dtype != ti->dtype) {
      rc = diag_error(d, "state feedback %d:%d: output '%s' is %s, input '%s' is %s", oo, ii,
                      to->name, dtype_name(to->dtype), ti->name, dtype_name(ti->dtype));
      goto done;
    }
    if (fed[ii]) {
      rc = diag_error(d, "state feedback: input %d receives two outputs", ii);
      goto done;
    }
    fed[ii] = 1;
  }
  outs = xcalloc((size_t)(g->nout + 1), sizeof(npy_array));
  uint8_t **snap = xcalloc((size_t)(o->nfeedback + 1), sizeof(uint8_t *));
  for (int step = 0; step < steps && rc == 0; step++) {
    int reset_step = o->sequence && step > 0 && in_list(o->resets, o->nresets, step);
    if (reset_step) ref_inst_reset(I);
    for (int it = 0; it < iters && rc == 0; it++) {
      r = &I->sg[0];
      for (int i = 0; i < g->nin; i++) {
        /* fed inputs take the given value first and after a reset */
        if (fed[i] && !(step == 0 && it == 0) && !reset_step) continue;
        load_input(r, i, &inputs[i], o->sequence ? step : 0);
      }
      reset_step = 0;
      if (ref_run_subgraph(I, 0)) {
        rc = -1;
        break;
      }
      r = &I->sg[0];
      /* state feedback: snapshot every fed output first, then copy */
      for (int k = 0; k < o->nfeedback && rc == 0; k++) {
        int ot = g->outputs[o->feedback[k][0]], itn = g->inputs[o->feedback[k][1]];
        size_t ob = ref_tbytes(&g->t[ot]), ib = ref_tbytes(&g->t[itn]);
        if (ob != ib) {
          rc = diag_error(d, "state feedback %d:%d: output '%s' has %zu bytes, input '%s' %zu",
                          o->feedback[k][0], o->feedback[k][1], g->t[ot].name, ob, g->t[itn].name, ib);
          break;
        }
        free(snap[k]);
        snap[k] = xmalloc(ob ? ob : 1);
        memcpy(snap[k], r->data[ot], ob);
      }
      for (int k = 0; k < o->nfeedback && rc == 0; k++) {
        int itn = g->inputs[o->feedback[k][1]];
        memcpy(r->data[itn], snap[k], ref_tbytes(&g->t[itn]));
      }
    }
    if (rc) break;
    /* collect the outputs of this step */
    for (int i = 0; i < g->nout && rc == 0; i++) {
      int t = g->outputs[i];
      const ir_tensor *x = &g->t[t];
      size_t b = ref_tbytes(x);
      if (dtype_size(x->dtype) == 0) {
        rc = diag_unsupported(d, "output %d '%s' is %s", i, x->name, dtype_name(x->dtype));
        break;
      }
      if (step == 0) {
        int64_t sh[NPY_MAX_RANK + 1];
        int k = 0;
        if (o->sequence) sh[k++] = steps;
        for (int j = 0; j < x->rank && k < NPY_MAX_RANK; j++) sh[k++] = x->shape[j];
        char name[32];
        snprintf(name, sizeof name, "output_%d", i);
        if (npy_init(&outs[i], name, x->dtype, k, sh, NULL, d)) {
          rc = -1;
          break;
        }
      }
      if (outs[i].nbytes != b * (size_t)(o->sequence ? steps : 1)) {
        rc = diag_error(d, "output %d '%s' changed size between steps", i, x->name);
        break;
      }
      memcpy((uint8_t *)outs[i].data + (size_t)(o->sequence ? step : 0) * b, r->data[t], b);
    }
  }
  for (int k = 0; k < o->nfeedback; k++) free(snap[k]);
  free(snap);
done:
  free(fed);
  if (rc == 0) {
    *outputs = outs;
    *nout = g->nout;
  } else if (outs) {
    npz_free(outs, g->nout);
  }
  ref_inst_free(I);
  return rc ? -1 : 0;
}
