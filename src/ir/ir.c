/* ir.c - building the IR from a LiteRT subgraph, queries and the verifier. */
#include "ir.h"

#include <stdlib.h>
#include <string.h>

const char *ir_role_name(ir_role r) {
  switch (r) {
    case ROLE_SCRATCH: return "scratch";
    case ROLE_INPUT: return "input";
    case ROLE_OUTPUT: return "output";
    case ROLE_CONST: return "constant";
    case ROLE_PERSISTENT: return "persistent";
  }
  return "?";
}

void ir_set_cname(ir_graph *g, int t) {
  ir_tensor *x = &g->t[t];
  /* converters join several names with ';': the first one names the tensor */
  char first[97];
  size_t n = 0;
  for (const char *p = x->name ? x->name : ""; *p && *p != ';' && n < 96; p++) first[n++] = *p;
  first[n] = 0;
  char base[97];
  c_identifier(first, base, 64);
  if (g->sg > 0) snprintf(x->cname, sizeof x->cname, "s%d_t%d_%s", g->sg, t, base);
  else snprintf(x->cname, sizeof x->cname, "t%d_%s", t, base);
}

/* Grows array a of n elements of elem bytes by one zeroed element at pos (0..n); returns the array. */
static void *insert_zeroed(void *a, int n, int pos, size_t elem) {
  char *b = xrealloc(a, (size_t)(n + 1) * elem);
  memmove(b + (size_t)(pos + 1) * elem, b + (size_t)pos * elem, (size_t)(n - pos) * elem);
  memset(b + (size_t)pos * elem, 0, elem);
  return b;
}

int ir_add_tensor(ir_graph *g, char *name, int dtype, int rank, const int32_t *shape) {
  int32_t dims[IR_MAX_RANK] = {0};  /* shape may point into g->t, which moves */
  if (rank < 0) rank = 0;
  if (rank > IR_MAX_RANK) rank = IR_MAX_RANK;
  for (int k = 0; k < rank; k++) dims[k] = shape[k];
  int id = g->nt;
  g->t = insert_zeroed(g->t, g->nt++, id, sizeof(ir_tensor));
  ir_tensor *t = &g->t[id];
  t->name = name;
  t->dtype = dtype;
  t->rank = rank;
  memcpy(t->shape, dims, sizeof t->shape);
  t->role = ROLE_SCRATCH;
  t->alias = -1;
  t->io_index = -1;
  t->src_index = -1;
  t->arena = -1;
  t->used = 1;
  ir_set_cname(g, id);
  return id;
}

ir_op *ir_insert_op(ir_graph *g, int pos, int id, int builtin, int nin, const int *in, int nout,
                    const int *out) {
  g->ops = insert_zeroed(g->ops, g->nops++, pos, sizeof(ir_op));
  ir_op *op = &g->ops[pos];
  op->id = id;
  op->builtin = builtin;
  op->model_builtin = builtin;
  op->nin = nin;
  op->in = xcalloc((size_t)(nin > 0 ? nin : 1), sizeof(int));
  for (int i = 0; i < nin; i++) op->in[i] = in[i];
  op->nout = nout;
  op->out = xcalloc((size_t)(nout > 0 ? nout : 1), sizeof(int));
  for (int i = 0; i < nout; i++) op->out[i] = out[i];
  litert_options_default(&op->opts);
  return op;
}

size_t ir_numel(const ir_tensor *t) {
  size_t n = 1;
  for (int i = 0; i < t->rank; i++) n *= (size_t)(t->shape[i] > 0 ? t->shape[i] : 0);
  return n;
}

size_t ir_bytes(const ir_tensor *t) { return ir_numel(t) * dtype_size(t->dtype); }

void ir_set_float_data(ir_tensor *t, float *f, size_t n) {
  free(t->owned_data);
  t->owned_data = (uint8_t *)f;
  t->data = t->owned_data;
  t->data_bytes = n * sizeof(float);
  t->dtype = DT_FLOAT32;
  t->nq = 0;
}

const ir_tensor *ir_in(const ir_graph *g, const ir_op *op, int i) {
  if (i < 0 || i >= op->nin || op->in[i] < 0) return NULL;
  return &g->t[op->in[i]];
}

const ir_tensor *ir_out(const ir_graph *g, const ir_op *op, int i) {
  if (i < 0 || i >= op->nout || op->out[i] < 0) return NULL;
  return &g->t[op->out[i]];
}

int ir_root(const ir_graph *g, int t) {
  for (int guard = 0; t >= 0 && g->t[t].alias >= 0 && guard < g->nt; guard++) t = g->t[t].alias;
  return t;
}

int ir_is_output(const ir_graph *g, int t) {
  for (int i = 0; i < g->nout; i++)
    if (g->outputs[i] == t) return 1;
  return 0;
}

int ir_consumers(const ir_graph *g, int t) {
  int n = 0;
  for (int i = 0; i < g->nops; i++) {
    const ir_op *op = &g->ops[i];
    if (op->dead) continue;
    for (int k = 0; k < op->nin; k++)
      if (op->in[k] == t) n++;
  }
  return n;
}

int ir_producer(const ir_graph *g, int t) {
  for (int i = 0; i < g->nops; i++) {
    const ir_op *op = &g->ops[i];
    if (op->dead) continue;
    for (int k = 0; k < op->nout; k++)
      if (op->out[k] == t) return i;
  }
  return -1;
}

int ir_mark_used(ir_graph *g) {
  for (int i = 0; i < g->nt; i++) g->t[i].used = 0;
  for (int i = 0; i < g->nops; i++) {
    const ir_op *op = &g->ops[i];
    if (op->dead) continue;
    for (int k = 0; k < op->nin; k++)
      if (op->in[k] >= 0) g->t[op->in[k]].used = 1;
    for (int k = 0; k < op->nout; k++)
      if (op->out[k] >= 0) g->t[op->out[k]].used = 1;
  }
  for (int i = 0; i < g->nin; i++) g->t[g->inputs[i]].used = 1;
  for (int i = 0; i < g->nout; i++) g->t[g->outputs[i]].used = 1;
  /* an alias keeps its root alive */
  for (int i = 0; i < g->nt; i++)
    if (g->t[i].used && g->t[i].alias >= 0) g->t[ir_root(g, i)].used = 1;
  int n = 0;
  for (int i = 0; i < g->nt; i++) n += g->t[i].used;
  return n;
}

static int *copy_i32(const int32_t *v, int n) {
  int *r = xcalloc((size_t)(n > 0 ? n : 1), sizeof(int));
  for (int i = 0; i < n; i++) r[i] = v[i];
  return r;
}

/* Fills op (zeroed) from operator lo, number id, of model m. */
static void op_from_litert(const litert_model *m, const litert_op *lo, int id, ir_op *op) {
  op->id = id;
  op->builtin = litert_op_builtin(m, lo);
  op->model_builtin = op->builtin;
  op->custom = xstrdup(litert_op_custom(m, lo));
  op->nin = lo->ninputs;
  op->in = copy_i32(lo->inputs, lo->ninputs);
  op->nout = lo->noutputs;
  op->out = copy_i32(lo->outputs, lo->noutputs);
  op->opts = lo->opts;
  op->custom_options = lo->custom_options;
  op->custom_options_len = lo->custom_options_len;
}

ir_graph *ir_from_litert(const litert_model *m, int sgi, aotc_diag *d) {
  if (sgi < 0 || sgi >= m->nsubgraphs) {
    diag_error(d, "subgraph %d does not exist (model has %d)", sgi, m->nsubgraphs);
    return NULL;
  }
  const litert_subgraph *sg = &m->subgraphs[sgi];
  ir_graph *g = xcalloc(1, sizeof *g);
  g->src = m;
  g->sg = sgi;
  g->nt = sg->ntensors;
  g->t = xcalloc((size_t)(g->nt > 0 ? g->nt : 1), sizeof(ir_tensor));
  for (int i = 0; i < g->nt; i++) {
    const litert_tensor *lt = &sg->tensors[i];
    ir_tensor *t = &g->t[i];
    t->name = xstrdup(lt->name ? lt->name : "");
    t->dtype = lt->type;
    t->src_index = i;
    t->alias = -1;
    t->io_index = -1;
    t->arena = -1;
    t->is_variable = lt->is_variable;
    if (lt->rank > IR_MAX_RANK) {
      diag_unsupported(d, "tensor %d '%s' has rank %d; aotc supports rank <= %d", i, t->name,
                       lt->rank, IR_MAX_RANK);
      ir_free(g);
      return NULL;
    }
    t->rank = lt->rank < 0 ? 0 : lt->rank;
    for (int k = 0; k < t->rank; k++) t->shape[k] = lt->shape[k];
    if (lt->q.nscale > 0) {
      t->nq = lt->q.nscale;
      t->scale = xcalloc((size_t)t->nq, sizeof(float));
      t->zero_point = xcalloc((size_t)t->nq, sizeof(int32_t));
      for (int k = 0; k < t->nq; k++) {
        t->scale[k] = lt->q.scale[k];
        /* a zero point beyond int32 becomes INT32_MIN, which every operator's
         * range check refuses (a plain cast would wrap it to a valid value) */
        const int64_t z = k < lt->q.nzero ? lt->q.zero_point[k] : 0;
        t->zero_point[k] = z < INT32_MIN || z > INT32_MAX ? INT32_MIN : (int32_t)z;
      }
      t->qdim = lt->q.quantized_dimension;
    }
    t->role = ROLE_SCRATCH;
    if (lt->buffer > 0 && (int)lt->buffer < m->nbuffers && m->buffers[lt->buffer].size > 0 &&
        !lt->is_variable) {
      t->role = ROLE_CONST;
      t->data = m->buffers[lt->buffer].data;
      t->data_bytes = m->buffers[lt->buffer].size;
    } else if (lt->is_variable) {
      t->role = ROLE_PERSISTENT;
    }
    ir_set_cname(g, i);
  }
  g->nin = sg->ninputs;
  g->inputs = copy_i32(sg->inputs, sg->ninputs);
  g->nout = sg->noutputs;
  g->outputs = copy_i32(sg->outputs, sg->noutputs);
  for (int i = 0; i < g->nout; i++) {
    ir_tensor *t = &g->t[g->outputs[i]];
    if (t->role == ROLE_SCRATCH) t->role = ROLE_OUTPUT;
    t->io_index = i;
  }
  for (int i = 0; i < g->nin; i++) {
    ir_tensor *t = &g->t[g->inputs[i]];
    if (t->role == ROLE_SCRATCH || t->role == ROLE_OUTPUT) t->role = ROLE_INPUT;
    t->io_index = i;
  }
  g->nops = sg->nops;
  g->ops = xcalloc((size_t)(g->nops > 0 ? g->nops : 1), sizeof(ir_op));
  for (int i = 0; i < g->nops; i++) op_from_litert(m, &sg->ops[i], i, &g->ops[i]);
  ir_mark_used(g);
  return g;
}

void ir_free(ir_graph *g) {
  if (!g) return;
  for (int i = 0; i < g->nt; i++) {
    free(g->t[i].name);
    free(g->t[i].scale);
    free(g->t[i].zero_point);
    free(g->t[i].owned_data);
  }
  for (int i = 0; i < g->nops; i++) {
    free(g->ops[i].in);
    free(g->ops[i].out);
    free(g->ops[i].custom);
  }
  for (int i = 0; i < g->nsubgraphs; i++) ir_free(g->subgraphs[i]);
  free(g->subgraphs);
  for (int i = 0; i < g->nvars; i++) free(g->vars[i].key);
  free(g->vars);
  free(g->t);
  free(g->ops);
  free(g->inputs);
  free(g->outputs);
  free(g);
}

const char *ir_op_name(const ir_op *op) {
  if (op->model_builtin == OP_CUSTOM) return op->custom ? op->custom : "CUSTOM";
  return litert_op_name(op->model_builtin);
}

/* "CONV_2D", or "CUSTOM 'code'" */
static const char *op_kind(const ir_op *op, char *buf, size_t n) {
  if (op->builtin == OP_CUSTOM) snprintf(buf, n, "CUSTOM '%s'", op->custom ? op->custom : "");
  else snprintf(buf, n, "%s", litert_op_name(op->builtin));
  return buf;
}

/* Every message names the subgraph, the op (index and type) and the tensor
 * (index and name), and says what to do about it. */
int ir_verify(const ir_graph *g, aotc_diag *d) {
  /* writer[t]: -1 unwritten, -2 graph input / constant / persistent, else the op */
  int *writer = xcalloc((size_t)(g->nt > 0 ? g->nt : 1), sizeof(int));
  for (int i = 0; i < g->nt; i++) writer[i] = -1;
  int rc = 0, sg = g->sg;
  char k1[160], k2[160];
  for (int i = 0; i < g->nin && rc == 0; i++) {
    int t = g->inputs[i];
    if (t < 0 || t >= g->nt)
      rc = diag_error(d, "subgraph %d: input %d names tensor %d, which does not exist (the subgraph has %d tensors); the model is malformed, re-export it",
                      sg, i, t, g->nt);
    else writer[t] = -2;
  }
  for (int i = 0; i < g->nt && rc == 0; i++) {
    const ir_tensor *t = &g->t[i];
    if (t->role == ROLE_CONST || t->role == ROLE_PERSISTENT) writer[i] = -2;
    if (t->alias >= g->nt || t->alias == i)
      rc = diag_error(d, "subgraph %d: tensor %d '%s' has bad alias %d (internal error in an aotc transform; disable transforms with --transforms.<name> false and report it)",
                      sg, i, t->name, t->alias);
    if (t->role == ROLE_CONST && t->used && dtype_size(t->dtype) > 0 &&
        t->data_bytes < ir_bytes(t))
      rc = diag_error(d, "subgraph %d: constant tensor %d '%s' has %zu bytes of data, its shape needs %zu; the model is malformed, re-export it",
                      sg, i, t->name, t->data_bytes, ir_bytes(t));
  }
  for (int i = 0; i < g->nops && rc == 0; i++) {
    const ir_op *op = &g->ops[i];
    if (op->dead) continue;
    for (int k = 0; k < op->nin && rc == 0; k++) {
      int t = op->in[k];
      if (t < -1 || t >= g->nt)
        rc = diag_error(d, "subgraph %d op %d (%s): input %d names tensor %d, which does not exist (the subgraph has %d tensors); the model is malformed, re-export it",
                        sg, op->id, op_kind(op, k1, sizeof k1), k, t, g->nt);
      else if (t >= 0 && writer[ir_root(g, t)] == -1) {
        int later = -1;
        for (int j = i + 1; j < g->nops && later < 0; j++)
          for (int m = 0; m < g->ops[j].nout; m++)
            if (!g->ops[j].dead && g->ops[j].out[m] == t) later = j;
        if (later >= 0)
          rc = diag_error(d, "subgraph %d op %d (%s) reads tensor %d '%s' (input %d), which op %d (%s) writes only later; the ops are not in execution order, re-export the model",
                          sg, op->id, op_kind(op, k1, sizeof k1), t, g->t[t].name, k,
                          g->ops[later].id, op_kind(&g->ops[later], k2, sizeof k2));
        else
          rc = diag_error(d, "subgraph %d op %d (%s) reads tensor %d '%s' (input %d), which no op writes and which is neither a graph input nor a constant with data; the model is malformed, re-export it",
                          sg, op->id, op_kind(op, k1, sizeof k1), t, g->t[t].name, k);
      }
    }
    for (int k = 0; k < op->nout && rc == 0; k++) {
      int t = op->out[k];
      if (t < 0 || t >= g->nt)
        rc = diag_error(d, "subgraph %d op %d (%s): output %d names tensor %d, which does not exist (the subgraph has %d tensors); the model is malformed, re-export it",
                        sg, op->id, op_kind(op, k1, sizeof k1), k, t, g->nt);
      else if (g->t[t].role == ROLE_CONST)
        rc = diag_error(d, "subgraph %d op %d (%s) writes constant tensor %d '%s' (output %d); the model is malformed, re-export it",
                        sg, op->id, op_kind(op, k1, sizeof k1), t, g->t[t].name, k);
      else if (writer[t] >= 0)
        rc = diag_error(d, "subgraph %d: tensor %d '%s' is written by two ops, op %d (%s) and op %d (%s); each tensor needs one writer, re-export the model",
                        sg, t, g->t[t].name, g->ops[writer[t]].id,
                        op_kind(&g->ops[writer[t]], k1, sizeof k1), op->id, op_kind(op, k2, sizeof k2));
      else
        writer[t] = i;
    }
  }
  for (int i = 0; i < g->nout && rc == 0; i++) {
    int t = g->outputs[i];
    if (t < 0 || t >= g->nt)
      rc = diag_error(d, "subgraph %d: output %d names tensor %d, which does not exist (the subgraph has %d tensors); the model is malformed, re-export it",
                      sg, i, t, g->nt);
    else if (writer[ir_root(g, t)] == -1)
      rc = diag_error(d, "subgraph %d: output %d is tensor %d '%s', which no op writes; the model is malformed, re-export it",
                      sg, i, t, g->t[t].name);
  }
  free(writer);
  return rc;
}

char *ir_var_key(const ir_op *op) {
  return xasprintf("%s/%s", op->opts.container ? op->opts.container : "",
                   op->opts.shared_name ? op->opts.shared_name : "");
}

int ir_var_slot(const ir_graph *main, const ir_graph *g, const ir_op *op) {
  if (op->nin < 1 || op->in[0] < 0) return -1;
  int p = ir_producer(g, op->in[0]);
  if (p < 0 || g->ops[p].builtin != OP_VAR_HANDLE) return -1;
  char *k = ir_var_key(&g->ops[p]);
  int r = -1;
  for (int i = 0; i < main->nvars; i++)
    if (strcmp(main->vars[i].key, k) == 0) r = i;
  free(k);
  return r;
}

