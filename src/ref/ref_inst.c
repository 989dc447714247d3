/* ref_inst.c - the reference interpreter's instance and its tensor storage.
 *
 * A subgraph is converted with ir_from_litert() on first use (nothing else:
 * no hooks, transforms or memory plan); every tensor gets its own calloc'd
 * buffer and constants point at the model's data. The declared shapes are
 * kept, and which tensors have a dynamic shape_signature (-1, or an unknown
 * rank), so that run-time shapes can be seen and undone: ref_set_shape gives
 * a tensor a new shape, growing its buffer (new bytes zero). Variable
 * tensors (ROLE_PERSISTENT) start at zero, int8 ones at their zero point (as
 * TFLite's and TFLM's ResetVariableTensors do), or at their buffer's data
 * when they have one, on creation and on every reset. The labels here name
 * subgraphs, operators and shapes in the interpreter's messages. */
#include "ref_internal.h"

#include <stdlib.h>
#include <string.h>

size_t ref_tbytes(const ir_tensor *t) {
  if (t->dtype == DT_RESOURCE) return sizeof(int32_t);
  return ir_bytes(t);
}

const char *ref_sg_label(const rinst *I, int s, char *buf, size_t n) {
  const char *nm = I->m->subgraphs[s].name;
  if (nm && *nm) snprintf(buf, n, "subgraph %d '%s'", s, nm);
  else snprintf(buf, n, "subgraph %d", s);
  return buf;
}

/* "op 3 (CONV_2D, int8 x int8 x int32 -> int8)" */
const char *ref_op_label(const ir_graph *g, const ir_op *op, char *buf, size_t n) {
  strbuf b = {0};
  sb_printf(&b, "op %d (%s", op->id,
            ir_op_name(op));
  int first = 1;
  for (int i = 0; i < op->nin; i++) {
    if (op->in[i] < 0) continue;
    sb_printf(&b, "%s%s", first ? ", " : " x ", dtype_name(g->t[op->in[i]].dtype));
    first = 0;
  }
  sb_puts(&b, " ->");
  for (int i = 0; i < op->nout; i++)
    if (op->out[i] >= 0) sb_printf(&b, "%s%s", i ? ", " : " ", dtype_name(g->t[op->out[i]].dtype));
  if (op->nout == 0) sb_puts(&b, " none");
  sb_puts(&b, ")");
  snprintf(buf, n, "%s", b.s ? b.s : "op");
  sb_free(&b);
  return buf;
}

void ref_shape_str(int rank, const int32_t *shape, char *buf, size_t n) {
  size_t k = 0;
  k += (size_t)snprintf(buf + k, n - k, "[");
  for (int i = 0; i < rank && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, "%s%d", i ? ", " : "", shape[i]);
  if (k < n) snprintf(buf + k, n - k, "]");
}

static void init_persistent(rinst *I, rsg *r) {
  const litert_subgraph *sg = &I->m->subgraphs[r->g->sg];
  for (int t = 0; t < r->g->nt; t++) {
    ir_tensor *x = &r->g->t[t];
    if (x->role != ROLE_PERSISTENT) continue;
    /* back to the declared shape */
    x->rank = r->ts[t].decl_rank;
    memcpy(x->shape, r->ts[t].decl_shape, sizeof x->shape);
    size_t need = ref_tbytes(x);
    if (need > r->ts[t].cap) {
      r->data[t] = xrealloc(r->data[t], need);
      r->ts[t].cap = need;
    }
    /* as TFLite and TFLM reset variable tensors: int8 ones to their zero
     * point, others to zero; a buffer, if present, gives the initial data */
    memset(r->data[t], (x->dtype == DT_INT8 && x->nq > 0) ? x->zero_point[0] : 0, r->ts[t].cap);
    const litert_tensor *lt = &sg->tensors[x->src_index];
    if (lt->buffer > 0 && (int)lt->buffer < I->m->nbuffers) {
      const litert_buffer *b = &I->m->buffers[lt->buffer];
      if (b->data && b->size > 0) memcpy(r->data[t], b->data, b->size < need ? b->size : need);
    }
  }
}

rsg *ref_get_sg(rinst *I, int s) {
  if (s < 0 || s >= I->nsg) {
    diag_error(I->d, "subgraph %d does not exist (model has %d)", s, I->nsg);
    return NULL;
  }
  rsg *r = &I->sg[s];
  if (r->g) return r;
  ir_graph *g = ir_from_litert(I->m, s, I->d);
  if (!g) return NULL;
  const litert_subgraph *sg = &I->m->subgraphs[s];
  int n = g->nt > 0 ? g->nt : 1;
  r->g = g;
  r->data = xcalloc((size_t)n, sizeof(void *));
  r->ts = xcalloc((size_t)n, sizeof *r->ts);
  for (int t = 0; t < g->nt; t++) {
    ir_tensor *x = &g->t[t];
    const litert_tensor *lt = &sg->tensors[x->src_index];
    r->ts[t].decl_rank = x->rank;
    memcpy(r->ts[t].decl_shape, x->shape, sizeof x->shape);
    /* rank unknown; or rank 0, which old converters also write for "unknown"
     * (a real scalar gets rank 0 from the shape rules again) */
    if (lt->rank <= 0 && x->role != ROLE_CONST) r->ts[t].dynsig = 1;
    if (lt->shape_signature)
      for (int k = 0; k < lt->rank; k++)
        if (lt->shape_signature[k] < 0) r->ts[t].dynsig = 1;
    if (x->role == ROLE_CONST) {
      r->data[t] = (void *)x->data;
    } else {
      size_t need = ref_tbytes(x);
      r->data[t] = xcalloc(need ? need : 1, 1);
      r->ts[t].cap = need ? need : 1;
    }
  }
  init_persistent(I, r);
  return r;
}

static void free_vars(rinst *I) {
  for (int i = 0; i < I->nvars; i++) {
    free(I->vars[i].container);
    free(I->vars[i].name);
    free(I->vars[i].data);
  }
  free(I->vars);
  I->vars = NULL;
  I->nvars = 0;
}

/* Resets the state of the instance: variable tensors, resource variables,
 * CALL_ONCE. */
void ref_inst_reset(rinst *I) {
  for (int s = 0; s < I->nsg; s++)
    if (I->sg[s].g) init_persistent(I, &I->sg[s]);
  free_vars(I);
  memset(I->once_done, 0, (size_t)(I->nsg > 0 ? I->nsg : 1));
}

rinst *ref_inst_new(const litert_model *m, aotc_diag *d) {
  rinst *I = xcalloc(1, sizeof *I);
  I->m = m;
  I->d = d;
  I->nsg = m->nsubgraphs;
  I->sg = xcalloc((size_t)(I->nsg > 0 ? I->nsg : 1), sizeof(rsg));
  I->once_done = xcalloc((size_t)(I->nsg > 0 ? I->nsg : 1), 1);
  return I;
}

void ref_inst_free(rinst *I) {
  if (!I) return;
  for (int s = 0; s < I->nsg; s++) {
    rsg *r = &I->sg[s];
    if (!r->g) continue;
    for (int t = 0; t < r->g->nt; t++)
      if (r->ts[t].cap) free(r->data[t]);
    free(r->data);
    free(r->ts);
    ir_free(r->g);
  }
  free(I->sg);
  free_vars(I);
  free(I->once_done);
  free(I->scratch);
  free(I);
}

/* ---- tensor shapes at run time ------------------------------------------- */

int ref_same_shape(int ra, const int32_t *a, int rb, const int32_t *b) {
  if (ra != rb) return 0;
  for (int i = 0; i < ra; i++)
    if (a[i] != b[i]) return 0;
  return 1;
}

int ref_is_declared(const rsg *r, int t) {
  const ir_tensor *x = &r->g->t[t];
  return ref_same_shape(x->rank, x->shape, r->ts[t].decl_rank, r->ts[t].decl_shape);
}

/* Gives tensor t a new shape (growing its buffer; new bytes zero). */
int ref_set_shape(rinst *I, rsg *r, int t, int rank, const int32_t *shape) {
  ir_tensor *x = &r->g->t[t];
  if (ref_same_shape(x->rank, x->shape, rank, shape)) return 0;
  char a[96], b[96], l[64];
  if (rank > IR_MAX_RANK) return diag_unsupported(I->d, "%s: tensor %d '%s' would get rank %d", ref_sg_label(I, r->g->sg, l, sizeof l), t, x->name, rank);
  for (int i = 0; i < rank; i++)
    if (shape[i] < 0) {
      ref_shape_str(rank, shape, a, sizeof a);
      return diag_error(I->d, "%s: tensor %d '%s' would get the invalid shape %s",
                        ref_sg_label(I, r->g->sg, l, sizeof l), t, x->name, a);
    }
  if (x->role == ROLE_CONST) {
    ref_shape_str(x->rank, x->shape, a, sizeof a);
    ref_shape_str(rank, shape, b, sizeof b);
    return diag_error(I->d, "%s: constant tensor %d '%s' %s cannot take the shape %s",
                      ref_sg_label(I, r->g->sg, l, sizeof l), t, x->name, a, b);
  }
  x->rank = rank;
  for (int i = 0; i < IR_MAX_RANK; i++) x->shape[i] = i < rank ? shape[i] : 0;
  size_t need = ref_tbytes(x);
  if (need > r->ts[t].cap) {
    r->data[t] = xrealloc(r->data[t], need);
    memset((uint8_t *)r->data[t] + r->ts[t].cap, 0, need - r->ts[t].cap);
    r->ts[t].cap = need;
  }
  return 0;
}
