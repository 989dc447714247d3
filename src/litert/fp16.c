/* fp16.c - rewriting a float32 (or float16-weights) model into a fully
 * float16 model. See fp16.h. */
#include "fp16.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aot_f16.h"

static int has_data(const litert_model *m, const litert_tensor *t) {
  return t->buffer > 0 && (int)t->buffer < m->nbuffers && m->buffers[t->buffer].size > 0;
}

static int is_quant_int(int type) {
  return type == DT_INT8 || type == DT_UINT8 || type == DT_INT16 || type == DT_INT32 ||
         type == DT_INT4 || type == DT_UINT16;
}

/* Element i of a constant tensor as double (float types and quantized ints,
 * dequantized when the tensor has quantization parameters). */
static double const_value(const litert_model *m, const litert_tensor *t, size_t i, size_t inner,
                          size_t dimlen) {
  const uint8_t *p = m->buffers[t->buffer].data;
  double v;
  switch (t->type) {
    case DT_FLOAT32: { float f; memcpy(&f, p + 4 * i, 4); return f; }
    case DT_FLOAT16: { uint16_t h; memcpy(&h, p + 2 * i, 2); return aot_f16_to_f32(h); }
    case DT_INT8: v = (int8_t)p[i]; break;
    case DT_UINT8: v = p[i]; break;
    case DT_INT16: { int16_t x; memcpy(&x, p + 2 * i, 2); v = x; break; }
    case DT_UINT16: { uint16_t x; memcpy(&x, p + 2 * i, 2); v = x; break; }
    case DT_INT32: { int32_t x; memcpy(&x, p + 4 * i, 4); v = x; break; }
    default: return 0.0;
  }
  const litert_quant *q = &t->q;
  if (q->nscale < 1) return v;
  int ch = 0;
  if (q->nscale > 1) ch = (int)((i / inner) % dimlen);
  double zp = ch < q->nzero ? (double)q->zero_point[ch] : 0.0;
  /* DEQUANTIZE computes in float: (q - zp) * scale */
  return (double)((float)(v - zp) * q->scale[ch]);
}

static size_t tensor_numel(const litert_tensor *t) {
  size_t n = 1;
  for (int k = 0; k < t->rank; k++) n *= t->shape[k] > 0 ? (size_t)t->shape[k] : 0;
  return n;
}

/* float16 bytes of a constant (float or quantized int), counting range losses. */
static uint16_t *to_half(const litert_model *m, const litert_tensor *t, size_t *n,
                         litert_fp16_stats *st) {
  size_t es = dtype_size(t->type);
  if (t->type == DT_INT4 || !es) return NULL;
  size_t cnt = m->buffers[t->buffer].size / es;
  if (cnt != tensor_numel(t)) return NULL;
  size_t inner = 1, dimlen = 1;
  if (t->q.nscale > 1) {
    int qd = t->q.quantized_dimension;
    if (qd < 0 || qd >= t->rank || t->shape[qd] != t->q.nscale) return NULL;
    for (int k = qd + 1; k < t->rank; k++) inner *= (size_t)t->shape[k];
    dimlen = (size_t)t->shape[qd];
  }
  uint16_t *h = xmalloc(cnt * 2 + 2);
  for (size_t i = 0; i < cnt; i++) {
    double v = const_value(m, t, i, inner, dimlen);
    h[i] = aot_f32_to_f16((float)v);
    if (isfinite(v) && (h[i] & 0x7C00u) == 0x7C00u) st->overflow++;
    if (v != 0 && (h[i] & 0x7FFFu) == 0) st->underflow++;
  }
  *n = cnt;
  return h;
}

/* ref[b]: 1 if a tensor or metadata references buffer b; 2 if only
 * constants read by DEQUANTIZE ops do (candidates for dropping). */
static char *referenced_buffers(const litert_model *m) {
  char *ref = xcalloc((size_t)m->nbuffers + 1, 1);
  char *only_dq = xcalloc((size_t)m->nbuffers + 1, 1);
  for (int b = 0; b < m->nbuffers; b++) only_dq[b] = 1;
  for (int s = 0; s < m->nsubgraphs; s++) {
    const litert_subgraph *g = &m->subgraphs[s];
    char *dq_in = xcalloc((size_t)g->ntensors + 1, 1);
    for (int i = 0; i < g->nops; i++)
      if (litert_op_builtin(m, &g->ops[i]) == OP_DEQUANTIZE && g->ops[i].ninputs >= 1 &&
          g->ops[i].inputs[0] >= 0)
        dq_in[g->ops[i].inputs[0]] = 1;
    for (int t = 0; t < g->ntensors; t++) {
      uint32_t b = g->tensors[t].buffer;
      if (b == 0 || b >= (uint32_t)m->nbuffers) continue;
      ref[b] = 1;
      if (!dq_in[t]) only_dq[b] = 0;
    }
    free(dq_in);
  }
  for (int i = 0; i < m->nmetadata; i++)
    if (m->metadata[i].buffer < (uint32_t)m->nbuffers) {
      ref[m->metadata[i].buffer] = 1;
      only_dq[m->metadata[i].buffer] = 0;
    }
  for (int b = 0; b < m->nbuffers; b++)
    if (ref[b] && only_dq[b]) ref[b] = 2;
  free(only_dq);
  return ref;
}

/* Signature entries of subgraph s naming tensor t (inputs, or outputs if
 * outputs is set) name ext instead. */
static void retarget_signatures(litert_model *m, int s, int t, int ext, int outputs) {
  for (int k = 0; k < m->nsignatures; k++) {
    litert_signature *sgn = &m->signatures[k];
    if ((int)sgn->subgraph_index != s) continue;
    litert_sigtensor *v = outputs ? sgn->outputs : sgn->inputs;
    int n = outputs ? sgn->noutputs : sgn->ninputs;
    for (int j = 0; j < n; j++)
      if ((int)v[j].tensor_index == t) v[j].tensor_index = (uint32_t)ext;
  }
}

static int set_buffer(litert_model *m, const void *data, size_t bytes) {
  return litert_add_buffer(m, data, bytes);
}

static int builtin(const litert_model *m, const litert_op *op) { return litert_op_builtin(m, op); }

static int is_sg_input(const litert_subgraph *s, int t) {
  for (int i = 0; i < s->ninputs; i++)
    if (s->inputs[i] == t) return 1;
  return 0;
}

/* Adds a CAST op (appended; the caller moves it). */
static int add_cast(litert_model *m, int sg, int in, int out, int from, int to) {
  litert_options o;
  litert_options_default(&o);
  o.type = BO_CastOptions;
  o.in_data_type = from;
  o.out_data_type = to;
  int32_t i[1] = {in}, q[1] = {out};
  int at = litert_add_op(m, sg, OP_CAST, NULL, 1, i, 1, q, &o);
  litert_options_free(&o);
  return at;
}

/* A copy of tensor t (name, shape, signature, type), without data. */
static int clone_tensor(litert_model *m, int sg, int t, int type) {
  litert_tensor *src = &m->subgraphs[sg].tensors[t];
  char *name = xstrdup(src->name);
  int rank = src->rank;
  int32_t *shape = rank > 0 ? xmalloc(sizeof(int32_t) * (size_t)rank) : NULL;
  int32_t *sig = NULL;
  if (rank > 0) memcpy(shape, src->shape, sizeof(int32_t) * (size_t)rank);
  if (rank > 0 && src->shape_signature) {
    sig = xmalloc(sizeof(int32_t) * (size_t)rank);
    memcpy(sig, src->shape_signature, sizeof(int32_t) * (size_t)rank);
  }
  int n = litert_add_tensor(m, sg, name, type, rank, shape, 0);
  m->subgraphs[sg].tensors[n].shape_signature = sig;
  free(name);
  free(shape);
  return n;
}

static void rename_suffix(litert_tensor *t, const char *suffix) {
  char *nm = xasprintf("%s%s", t->name ? t->name : "", suffix);
  free(t->name);
  t->name = nm;
}

int litert_to_fp16(litert_model *m, int io_fp16, aotc_diag *d) {
  return litert_to_fp16_ex(m, io_fp16, NULL, d);
}

int litert_to_fp16_ex(litert_model *m, int io_fp16, litert_fp16_stats *stp, aotc_diag *d) {
  litert_fp16_stats st;
  memset(&st, 0, sizeof st);
  if (!m) return diag_error(d, "no model");

  /* ---- 1. refuse quantized activations ---- */
  for (int s = 0; s < m->nsubgraphs; s++) {
    const litert_subgraph *g = &m->subgraphs[s];
    for (int i = 0; i < g->nops; i++) {
      int b = builtin(m, &g->ops[i]);
      if (b == OP_QUANTIZE)
        return diag_unsupported(d, "subgraph %d op %d (QUANTIZE): the model has quantized "
                                   "activations; aotc fp16 converts float models only", s, i);
    }
    for (int t = 0; t < g->ntensors; t++) {
      const litert_tensor *x = &g->tensors[t];
      if (x->q.nscale > 0 && is_quant_int(x->type) && !has_data(m, x))
        return diag_unsupported(d, "subgraph %d tensor %d '%s' is a quantized %s activation; "
                                   "aotc fp16 converts float models only",
                                s, t, x->name ? x->name : "", dtype_name(x->type));
    }
  }

  /* entry subgraphs: 0 and every signature's */
  char *entry = xcalloc((size_t)m->nsubgraphs + 1, 1);
  if (m->nsubgraphs > 0) entry[0] = 1;
  for (int i = 0; i < m->nsignatures; i++)
    if (m->signatures[i].subgraph_index < (uint32_t)m->nsubgraphs)
      entry[m->signatures[i].subgraph_index] = 1;

  /* ---- 2. per subgraph: plan folds and identities, convert tensors ---- */
  /* buffers used by tensors that stay as they are (not float32) */
  char *keep_buf = xcalloc((size_t)m->nbuffers + 1, 1);
  for (int s = 0; s < m->nsubgraphs; s++) {
    const litert_subgraph *g = &m->subgraphs[s];
    for (int t = 0; t < g->ntensors; t++)
      if (g->tensors[t].type != DT_FLOAT32 && g->tensors[t].buffer > 0 &&
          (int)g->tensors[t].buffer < m->nbuffers)
        keep_buf[g->tensors[t].buffer] = 1;
  }
  for (int i = 0; i < m->nmetadata; i++)
    if ((int)m->metadata[i].buffer < m->nbuffers) keep_buf[m->metadata[i].buffer] = 1;
  char *ref_before = referenced_buffers(m);
  int nbuf_before = m->nbuffers;
  int nbuf0 = m->nbuffers;
  int *conv_buf = xmalloc(sizeof(int) * ((size_t)nbuf0 + 1));
  for (int b = 0; b < nbuf0; b++) conv_buf[b] = -1;

  for (int s = 0; s < m->nsubgraphs; s++) {
    litert_subgraph *g = &m->subgraphs[s];
    int n_io_in = entry[s] && !io_fp16 ? g->ninputs : 0;
    int n_io_out = entry[s] && !io_fp16 ? g->noutputs : 0;
    /* remember float32 entry I/O before the types change */
    char *in_f32 = xcalloc((size_t)n_io_in + 1, 1), *out_f32 = xcalloc((size_t)n_io_out + 1, 1);
    for (int i = 0; i < n_io_in; i++)
      in_f32[i] = g->inputs[i] >= 0 && g->tensors[g->inputs[i]].type == DT_FLOAT32;
    for (int i = 0; i < n_io_out; i++)
      out_f32[i] = g->outputs[i] >= 0 && g->tensors[g->outputs[i]].type == DT_FLOAT32;

    /* hybrid: quantized constants read by ops that produce float32 */
    for (int i = 0; i < g->nops; i++) {
      litert_op *op = &g->ops[i];
      int b = builtin(m, op);
      if (b == OP_DEQUANTIZE) continue;
      int float_out = 0;
      for (int k = 0; k < op->noutputs; k++)
        if (op->outputs[k] >= 0 && g->tensors[op->outputs[k]].type == DT_FLOAT32) float_out = 1;
      if (!float_out) continue;
      for (int k = 0; k < op->ninputs; k++) {
        int t = op->inputs[k];
        if (t < 0) continue;
        litert_tensor *x = &g->tensors[t];
        if (x->q.nscale < 1 || !is_quant_int(x->type) || !has_data(m, x)) continue;
        if ((b == OP_FULLY_CONNECTED || b == OP_CONV_2D || b == OP_DEPTHWISE_CONV_2D ||
             b == OP_TRANSPOSE_CONV) && x->type == DT_INT32)
          continue; /* an int32 bias of a quantized op is not a hybrid weight */
        size_t n;
        uint16_t *h = to_half(m, x, &n, &st);
        if (!h) {
          free(in_f32), free(out_f32), free(entry), free(keep_buf), free(conv_buf);
          return diag_unsupported(d, "subgraph %d tensor %d '%s': cannot dequantize this %s "
                                     "weight", s, t, x->name ? x->name : "", dtype_name(x->type));
        }
        x->buffer = (uint32_t)set_buffer(m, h, n * 2);
        free(h);
        x->type = DT_FLOAT16;
        free(x->q.scale), free(x->q.zero_point);
        memset(&x->q, 0, sizeof x->q);
        st.constants++;
        g = &m->subgraphs[s];
      }
    }

    /* DEQUANTIZE: fold constants, mark float16 -> float16 identities */
    char *kill = xcalloc((size_t)g->nops + 1, 1);
    char *ident = xcalloc((size_t)g->nops + 1, 1);
    int *fold_buf = xmalloc(sizeof(int) * ((size_t)g->nops + 1));
    for (int i = 0; i < g->nops; i++) {
      fold_buf[i] = -1;
      litert_op *op = &g->ops[i];
      if (builtin(m, op) != OP_DEQUANTIZE || op->ninputs < 1 || op->noutputs < 1) continue;
      int in = op->inputs[0], out = op->outputs[0];
      if (in < 0 || out < 0 || g->tensors[out].type != DT_FLOAT32) continue;
      litert_tensor *x = &g->tensors[in];
      if (has_data(m, x)) {
        if (x->type == DT_FLOAT16 && x->q.nscale == 0) {
          fold_buf[i] = (int)x->buffer; /* share the float16 bytes */
        } else {
          size_t n;
          uint16_t *h = to_half(m, x, &n, &st);
          if (!h) continue;
          fold_buf[i] = set_buffer(m, h, n * 2);
          free(h);
          g = &m->subgraphs[s];
        }
        kill[i] = 1;
        st.folded++;
      } else if (x->type == DT_FLOAT16 || x->type == DT_FLOAT32) {
        ident[i] = 1;
      }
    }

    /* CAST: new types; float -> float becomes an identity */
    for (int i = 0; i < g->nops; i++) {
      litert_op *op = &g->ops[i];
      if (builtin(m, op) != OP_CAST || op->ninputs < 1 || op->noutputs < 1) continue;
      int in = op->inputs[0], out = op->outputs[0];
      if (in < 0 || out < 0) continue;
      int ti = g->tensors[in].type, to = g->tensors[out].type;
      int ni = ti == DT_FLOAT32 ? DT_FLOAT16 : ti, no = to == DT_FLOAT32 ? DT_FLOAT16 : to;
      if (ni == no) {
        ident[i] = 1;
      } else if (ti != ni || to != no) {
        op->opts.type = BO_CastOptions;
        op->opts.in_data_type = ni;
        op->opts.out_data_type = no;
      }
    }

    /* every float32 tensor becomes float16 */
    for (int t = 0; t < g->ntensors; t++) {
      litert_tensor *x = &g->tensors[t];
      if (x->type != DT_FLOAT32) continue;
      st.tensors++;
      if (has_data(m, x)) {
        int b = (int)x->buffer;
        if (b < nbuf0 && conv_buf[b] >= 0) {
          x->type = DT_FLOAT16;
          x->buffer = (uint32_t)conv_buf[b];
        } else {
          size_t n;
          uint16_t *h = to_half(m, x, &n, &st);
          if (!h) {
            free(kill), free(ident), free(fold_buf), free(in_f32), free(out_f32);
            free(entry), free(keep_buf), free(conv_buf);
            return diag_error(d, "subgraph %d tensor %d '%s': data size does not match its shape",
                              s, t, x->name ? x->name : "");
          }
          int nb;
          if (b < nbuf0 && !keep_buf[b]) {
            /* convert the buffer in place */
            free(m->buffers[b].data);
            m->buffers[b].data = xmalloc(n * 2 + 1);
            memcpy(m->buffers[b].data, h, n * 2);
            m->buffers[b].size = n * 2;
            nb = b;
          } else {
            nb = set_buffer(m, h, n * 2);
          }
          free(h);
          if (b < nbuf0) conv_buf[b] = nb;
          g = &m->subgraphs[s];
          x = &g->tensors[t];
          x->buffer = (uint32_t)nb;
          x->type = DT_FLOAT16;
        }
        st.constants++;
      } else {
        x->type = DT_FLOAT16;
      }
    }

    /* apply folds: the DEQUANTIZE output becomes the constant */
    for (int i = 0; i < g->nops; i++) {
      if (fold_buf[i] < 0) continue;
      litert_tensor *o = &g->tensors[g->ops[i].outputs[0]];
      o->buffer = (uint32_t)fold_buf[i];
      o->type = DT_FLOAT16;
    }

    /* identities: readers, subgraph outputs and signatures use the input */
    for (int i = 0; i < g->nops; i++) {
      if (!ident[i]) continue;
      int in = g->ops[i].inputs[0], out = g->ops[i].outputs[0];
      for (int j = 0; j < g->nops; j++)
        for (int k = 0; k < g->ops[j].ninputs; k++)
          if (g->ops[j].inputs[k] == out) g->ops[j].inputs[k] = in;
      int was_output = 0;
      for (int j = 0; j < g->noutputs; j++)
        if (g->outputs[j] == out) g->outputs[j] = in, was_output = 1;
      for (int k = 0; k < m->nsignatures; k++) {
        litert_signature *sgn = &m->signatures[k];
        if ((int)sgn->subgraph_index != s) continue;
        for (int j = 0; j < sgn->noutputs; j++)
          if ((int)sgn->outputs[j].tensor_index == out) sgn->outputs[j].tensor_index = (uint32_t)in;
      }
      if (was_output && entry[s] && !is_sg_input(g, in)) {
        /* the model output keeps its name */
        litert_tensor *ti = &g->tensors[in], *to = &g->tensors[out];
        char *nm = ti->name;
        ti->name = to->name;
        to->name = nm;
      }
      kill[i] = 1;
      st.removed++;
    }

    /* drop killed ops */
    int w = 0;
    for (int i = 0; i < g->nops; i++) {
      if (kill[i]) {
        litert_op_free(&g->ops[i]);
        continue;
      }
      if (w != i) g->ops[w] = g->ops[i];
      w++;
    }
    g->nops = w;
    free(kill), free(ident), free(fold_buf);

    /* ---- 3. float32 model inputs / outputs behind CASTs ---- */
    int ncast_in = 0;
    for (int i = 0; i < n_io_in; i++) {
      if (!in_f32[i]) continue;
      int t = m->subgraphs[s].inputs[i];
      int ext = clone_tensor(m, s, t, DT_FLOAT32);
      rename_suffix(&m->subgraphs[s].tensors[t], "/fp16");
      /* other inputs listing the same tensor share the new one */
      for (int j = i; j < m->subgraphs[s].ninputs; j++)
        if (m->subgraphs[s].inputs[j] == t) m->subgraphs[s].inputs[j] = ext, in_f32[j] = 0;
      retarget_signatures(m, s, t, ext, 0);
      int at = add_cast(m, s, ext, t, DT_FLOAT32, DT_FLOAT16);
      g = &m->subgraphs[s];
      litert_op tmp = g->ops[at];
      memmove(&g->ops[ncast_in + 1], &g->ops[ncast_in], sizeof *g->ops * (size_t)(at - ncast_in));
      g->ops[ncast_in] = tmp;
      ncast_in++;
      st.casts++;
    }
    for (int i = 0; i < n_io_out; i++) {
      if (!out_f32[i]) continue;
      int t = m->subgraphs[s].outputs[i];
      int ext = clone_tensor(m, s, t, DT_FLOAT32);
      /* keep the external name on the float32 tensor */
      if (!is_sg_input(&m->subgraphs[s], t)) rename_suffix(&m->subgraphs[s].tensors[t], "/fp16");
      for (int j = i; j < m->subgraphs[s].noutputs; j++)
        if (m->subgraphs[s].outputs[j] == t) m->subgraphs[s].outputs[j] = ext, out_f32[j] = 0;
      retarget_signatures(m, s, t, ext, 1);
      add_cast(m, s, t, ext, DT_FLOAT16, DT_FLOAT32);
      st.casts++;
    }
    free(in_f32), free(out_f32);
  }
  free(entry), free(keep_buf), free(conv_buf);

  /* constants only the folded DEQUANTIZE ops read are dropped, and so are the
   * buffers nothing references any more */
  for (int s = 0; s < m->nsubgraphs; s++) {
    litert_subgraph *g = &m->subgraphs[s];
    char *used = xcalloc((size_t)g->ntensors + 1, 1);
    for (int i = 0; i < g->nops; i++) {
      for (int k = 0; k < g->ops[i].ninputs; k++)
        if (g->ops[i].inputs[k] >= 0) used[g->ops[i].inputs[k]] = 1;
      for (int k = 0; k < g->ops[i].noutputs; k++)
        if (g->ops[i].outputs[k] >= 0) used[g->ops[i].outputs[k]] = 1;
      for (int k = 0; k < g->ops[i].nintermediates; k++)
        if (g->ops[i].intermediates[k] >= 0) used[g->ops[i].intermediates[k]] = 1;
    }
    for (int i = 0; i < g->ninputs; i++)
      if (g->inputs[i] >= 0) used[g->inputs[i]] = 1;
    for (int i = 0; i < g->noutputs; i++)
      if (g->outputs[i] >= 0) used[g->outputs[i]] = 1;
    for (int k = 0; k < m->nsignatures; k++) {
      const litert_signature *sgn = &m->signatures[k];
      if ((int)sgn->subgraph_index != s) continue;
      for (int j = 0; j < sgn->ninputs; j++)
        if ((int)sgn->inputs[j].tensor_index < g->ntensors) used[sgn->inputs[j].tensor_index] = 1;
      for (int j = 0; j < sgn->noutputs; j++)
        if ((int)sgn->outputs[j].tensor_index < g->ntensors) used[sgn->outputs[j].tensor_index] = 1;
    }
    for (int t = 0; t < g->ntensors; t++)
      if (!used[t] && g->tensors[t].buffer > 0 && !g->tensors[t].is_variable &&
          g->tensors[t].buffer < (uint32_t)nbuf_before && ref_before[g->tensors[t].buffer] == 2)
        g->tensors[t].buffer = 0;
    free(used);
  }
  char *ref_after = referenced_buffers(m);
  for (int b = 1; b < nbuf_before; b++)
    if (ref_before[b] && !ref_after[b] && m->buffers[b].size) {
      free(m->buffers[b].data);
      m->buffers[b].data = NULL;
      m->buffers[b].size = 0;
    }
  free(ref_before), free(ref_after);

  if (st.overflow)
    diag_warn(d, "%zu constant value%s beyond the float16 range became infinite", st.overflow,
              st.overflow == 1 ? "" : "s");
  if (st.underflow)
    diag_warn(d, "%zu non-zero constant value%s below the float16 range became zero",
              st.underflow, st.underflow == 1 ? "" : "s");
  if (stp) *stp = st;
  return 0;
}
