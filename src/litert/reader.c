/* reader.c - bounds-checked .tflite (flatbuffer, schema v3) reader: the
 * entry points and the walk over the model.
 *
 * litert_read walks the Model table in a fixed order (no recursion): the
 * buffers first (tensors are checked against them), the operator codes,
 * the subgraphs (each with its tensors, its input and output lists and its
 * operators), then the option checks of every operator (they need every
 * subgraph), the metadata and the signatures (each tensor map checked
 * against its subgraph). Every vector of tables is read by rd_read_tables
 * and every field through the checked accessors of reader_fb.c; the parts
 * are read by reader_tensor.c and reader_ops.c. The first problem found is
 * reported as one line "malformed .tflite: <where>: <what> ..." (or
 * "unsupported .tflite: ..." for a valid file past aotc's limits) and the
 * model read so far is freed. */
#include "reader_internal.h"

#include <stdlib.h>
#include <string.h>

/* What the readers of one subgraph's tables need. */
typedef struct sg_ctx {
  const litert_model *m;
  litert_subgraph *g;
  int sg;
} sg_ctx;

static int tensor_elem(rd *r, const tab *t, void *elem, void *ctx, int idx) {
  const sg_ctx *c = ctx;
  return rd_read_tensor(r, t, elem, c->m, c->sg, idx);
}

static int op_elem(rd *r, const tab *t, void *elem, void *ctx, int idx) {
  const sg_ctx *c = ctx;
  return rd_read_op(r, t, elem, c->m, c->g, c->sg, idx);
}

static int read_subgraph(rd *r, const tab *t, void *elem, void *ctx, int sg) {
  litert_subgraph *g = elem;
  sg_ctx c = {ctx, g, sg};
  rd_setctx(r, "subgraph %d", sg);
  if (rd_get_str(r, t, 4, &g->name, "name string")) return -1;
  g->tensors = rd_read_tables(r, t, 0, "tensors vector", LIM_TENSORS, "Tensor", "tensor", sg,
                              sizeof *g->tensors, &g->ntensors, tensor_elem, &c);
  if (r->failed) return -1;
  rd_setctx(r, "subgraph %d", sg);
  if (rd_get_i32vec(r, t, 1, &g->inputs, &g->ninputs, NULL, "inputs vector") ||
      rd_get_i32vec(r, t, 2, &g->outputs, &g->noutputs, NULL, "outputs vector"))
    return -1;
  if (rd_check_index_list(r, g->inputs, g->ninputs, g->ntensors, 0, "input") ||
      rd_check_index_list(r, g->outputs, g->noutputs, g->ntensors, 0, "output"))
    return -1;
  g->ops = rd_read_tables(r, t, 3, "operators vector", LIM_OPS, "Operator", "operator", sg,
                          sizeof *g->ops, &g->nops, op_elem, &c);
  return r->failed ? -1 : 0;
}

static int buffer_elem(rd *r, const tab *t, void *elem, void *ctx, int idx) {
  (void)ctx;
  return rd_read_buffer(r, t, elem, idx);
}

static int opcode_elem(rd *r, const tab *t, void *elem, void *ctx, int idx) {
  (void)ctx;
  return rd_read_opcode(r, t, elem, idx);
}

/* A string field and a uint32 field of one table (a name and an index). */
static int name_index(rd *r, const tab *t, int sid, char **s, const char *sname, int iid,
                      uint32_t *i, const char *iname) {
  if (rd_get_str(r, t, sid, s, sname) || rd_get_u32(r, t, iid, 0, i, iname)) return -1;
  return 0;
}

static int tensormap_elem(rd *r, const tab *t, void *elem, void *ctx, int idx) {
  litert_sigtensor *st = elem;
  (void)ctx;
  (void)idx;
  return name_index(r, t, 0, &st->name, "TensorMap name", 1, &st->tensor_index,
                    "TensorMap tensor_index");
}

static int metadata_elem(rd *r, const tab *t, void *elem, void *ctx, int idx) {
  litert_metadata *md = elem;
  const litert_model *m = ctx;
  (void)idx;
  if (name_index(r, t, 0, &md->name, "name string", 1, &md->buffer, "buffer")) return -1;
  if (md->buffer >= (uint32_t)m->nbuffers)
    return rd_fail(r, "buffer index %u out of range (%d buffers)", md->buffer, m->nbuffers);
  return 0;
}

static int signature_elem(rd *r, const tab *t, void *elem, void *ctx, int idx) {
  litert_signature *g = elem;
  const litert_model *m = ctx;
  (void)idx;
  if (name_index(r, t, 2, &g->key, "signature_key string", 4, &g->subgraph_index,
                 "subgraph_index"))
    return -1;
  g->inputs = rd_read_tables(r, t, 0, "inputs vector", LIM_TABLES, "TensorMap", NULL, -1,
                             sizeof *g->inputs, &g->ninputs, tensormap_elem, NULL);
  if (r->failed) return -1;
  g->outputs = rd_read_tables(r, t, 1, "outputs vector", LIM_TABLES, "TensorMap", NULL, -1,
                              sizeof *g->outputs, &g->noutputs, tensormap_elem, NULL);
  if (r->failed) return -1;
  if (g->subgraph_index >= (uint32_t)m->nsubgraphs)
    return rd_fail(r, "subgraph_index %u out of range (%d subgraphs)", g->subgraph_index,
                   m->nsubgraphs);
  const litert_subgraph *sg = &m->subgraphs[g->subgraph_index];
  char pb[80];
  for (int j = 0; j < g->ninputs + g->noutputs; j++) {
    const litert_sigtensor *st = j < g->ninputs ? &g->inputs[j] : &g->outputs[j - g->ninputs];
    if (st->tensor_index >= (uint32_t)sg->ntensors)
      return rd_fail(r, "%s '%s' maps to tensor %u, out of range (%d tensors)",
                     j < g->ninputs ? "input" : "output", rd_printable(st->name, pb, sizeof pb),
                     st->tensor_index, sg->ntensors);
  }
  return 0;
}

static int read_model(rd *r, litert_model *m) {
  if (r->n < 8) return rd_fail(r, "file too small (%zu bytes)", r->n);
  tab mt;
  rd_setctx(r, "model");
  if (rd_tab_at(r, rd_ld32(r->p), &mt, "Model")) return -1;
  if (rd_get_u32(r, &mt, 0, 0, &m->version, "version")) return -1;
  if (rd_get_str(r, &mt, 3, &m->description, "description string")) return -1;

  /* buffers first: tensors are checked against them */
  m->buffers = rd_read_tables(r, &mt, 4, "buffers vector", LIM_TABLES, "Buffer", "buffer", -1,
                              sizeof *m->buffers, &m->nbuffers, buffer_elem, NULL);
  if (r->failed) return -1;

  rd_setctx(r, "model");
  m->opcodes = rd_read_tables(r, &mt, 1, "operator_codes vector", LIM_TABLES, "OperatorCode",
                              "operator code", -1, sizeof *m->opcodes, &m->nopcodes, opcode_elem,
                              NULL);
  if (r->failed) return -1;

  rd_setctx(r, "model");
  m->subgraphs = rd_read_tables(r, &mt, 2, "subgraphs vector", LIM_SUBGRAPHS, "SubGraph", "subgraph",
                                -1, sizeof *m->subgraphs, &m->nsubgraphs, read_subgraph, m);
  if (r->failed) return -1;
  if (m->nsubgraphs == 0) return rd_fail(r, "model has no subgraphs");
  for (int s = 0; s < m->nsubgraphs; s++)
    for (int o = 0; o < m->subgraphs[s].nops; o++)
      if (rd_check_op_options(r, m, &m->subgraphs[s].ops[o], s, o)) return -1;

  rd_setctx(r, "model");
  m->metadata = rd_read_tables(r, &mt, 6, "metadata vector", LIM_TABLES, "Metadata", "metadata", -1,
                               sizeof *m->metadata, &m->nmetadata, metadata_elem, m);
  if (r->failed) return -1;

  rd_setctx(r, "model");
  m->signatures = rd_read_tables(r, &mt, 7, "signature_defs vector", LIM_TABLES, "SignatureDef",
                                 "signature", -1, sizeof *m->signatures, &m->nsignatures,
                                 signature_elem, m);
  return r->failed ? -1 : 0;
}

litert_model *litert_read(const uint8_t *data, size_t len, aotc_diag *d) {
  rd r;
  memset(&r, 0, sizeof r);
  r.p = data;
  r.n = data ? len : 0;
  r.d = d;
  r.budget = 16ull * r.n + (1u << 20);
  litert_model *m = xcalloc(1, sizeof *m);
  if (read_model(&r, m)) {
    litert_model_free(m);
    return NULL;
  }
  return m;
}

/* Largest .tflite aotc reads (its buffers are copied once more when decoded). */
#define LITERT_MAX_FILE_BYTES ((size_t)1 << 30)

litert_model *litert_read_file(const char *path, aotc_diag *d) {
  uint8_t *data;
  size_t len;
  if (read_regular_file(path, LITERT_MAX_FILE_BYTES, "model", &data, &len, d)) return NULL;
  litert_model *m = litert_read(data, len, d);
  if (!m && d) {
    char *msg = xasprintf("%s: %s", path, d->msg);
    snprintf(d->msg, sizeof d->msg, "%s", msg);
    free(msg);
  }
  free(data);
  return m;
}
