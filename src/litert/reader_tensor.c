/* reader_tensor.c - the .tflite reader's Buffer, OperatorCode and Tensor
 * tables.
 *
 * A buffer's data is copied out (inline, or external data at an offset of
 * the file, charged against the decoding budget); an operator code's builtin
 * is the larger of the deprecated 8-bit code and the 32-bit one. A tensor is
 * read with its shape, shape_signature, type, buffer and quantization and
 * checked: dimensions non-negative and at most 2^31-1 elements, the buffer
 * index in range and its size equal to shape x dtype (int4: packed or one
 * byte a value), no sparsity, and per-channel quantization with one scale
 * per channel of a valid quantized_dimension (a stale dimension of
 * per-tensor quantization is normalized to 0). */
#include "reader_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

int rd_read_buffer(rd *r, const tab *t, litert_buffer *b, int idx) {
  uint64_t data, off, size;
  uint32_t n;
  rd_setctx(r, "buffer %d", idx);
  if (rd_get_vec(r, t, 0, 1, &data, &n, "data vector") < 0) return -1;
  if (rd_get_u64(r, t, 1, 0, &off, "offset") || rd_get_u64(r, t, 2, 0, &size, "size")) return -1;
  if (n > 0) {
    b->data = xmalloc(n);
    memcpy(b->data, r->p + data, n);
    b->size = n;
  } else if (off > 1) {
    if (off > r->n || size > r->n - off)
      return rd_fail(r, "external data at offset %llu (%llu bytes) runs past end of file (size %zu)",
                     (unsigned long long)off, (unsigned long long)size, r->n);
    if (rd_charge(r, size)) return -1;
    if (size) {
      b->data = xmalloc((size_t)size);
      memcpy(b->data, r->p + off, (size_t)size);
      b->size = (size_t)size;
    }
  }
  return 0;
}

int rd_read_opcode(rd *r, const tab *t, litert_opcode *c, int idx) {
  int dep;
  int32_t bc, ver;
  rd_setctx(r, "operator code %d", idx);
  if (rd_get_i8(r, t, 0, 0, &dep, "deprecated_builtin_code") ||
      rd_get_str(r, t, 1, &c->custom_code, "custom_code string") ||
      rd_get_i32(r, t, 2, 1, &ver, "version") || rd_get_i32(r, t, 3, 0, &bc, "builtin_code"))
    return -1;
  c->builtin = dep > bc ? dep : bc;
  c->version = ver;
  if (c->builtin < 0) return rd_fail(r, "negative builtin code %d", c->builtin);
  return 0;
}

/* A vector of quantization parameters (4-byte scales or 8-byte zero points)
 * copied out; *out stays NULL if it is absent or empty. */
static int read_qvec(rd *r, const tab *qt, int id, size_t esz, void **out, int *count,
                     const char *name) {
  uint64_t data;
  uint32_t n;
  if (rd_get_vec(r, qt, id, esz, &data, &n, name) < 0) return -1;
  if (esz == 4 && n > (uint32_t)INT_MAX / 8) return rd_fail(r, "too many quantization scales (%u)", n);
  if (rd_count_elems(r, LIM_QUANT, n, name)) return -1;
  if (n) {
    uint8_t *v = xmalloc(esz * n);
    for (uint32_t i = 0; i < n; i++) {
      const uint8_t *p = r->p + data + esz * i;
      uint32_t u = esz == 4 ? rd_ld32(p) : 0;
      uint64_t w = esz == 8 ? rd_ld64(p) : 0;
      memcpy(v + esz * i, esz == 4 ? (const void *)&u : (const void *)&w, esz);
    }
    *out = v;
  }
  *count = (int)n;
  return 0;
}

static int read_quant(rd *r, const tab *qt, litert_tensor *x) {
  litert_quant *q = &x->q;
  void *scale = NULL, *zero = NULL;
  int k = read_qvec(r, qt, 2, 4, &scale, &q->nscale, "quantization scale vector");
  q->scale = scale;
  if (k) return -1;
  k = read_qvec(r, qt, 3, 8, &zero, &q->nzero, "quantization zero_point vector");
  q->zero_point = zero;
  if (k) return -1;
  int32_t qd;
  if (rd_get_i32(r, qt, 6, 0, &qd, "quantized_dimension")) return -1;
  q->quantized_dimension = qd;
  if (q->nzero != 0 && q->nzero != q->nscale)
    return rd_fail(r, "quantization has %d scales but %d zero points", q->nscale, q->nzero);
  /* quantized_dimension is meaningless per-tensor; some converters leave a
   * stale value there (person_detect: 3 on 1-D biases, which TFLM accepts).
   * Normalize to 0 so later stages and the writer see a consistent value. */
  if (q->nscale <= 1 && (qd < 0 || (qd > 0 && qd >= x->rank))) q->quantized_dimension = qd = 0;
  if (q->nscale > 1 && x->rank == 1 && (qd < 0 || qd >= 1) && x->shape[0] == q->nscale)
    q->quantized_dimension = qd = 0;
  if (q->nscale > 1) {
    if (qd < 0 || qd >= x->rank)
      return rd_fail(r, "per-channel quantization (%d scales) with quantized_dimension %d out of "
                     "range for rank %d", q->nscale, qd, x->rank);
    if (x->shape[qd] != q->nscale)
      return rd_fail(r, "per-channel quantization has %d scales but dimension %d has size %d",
                     q->nscale, qd, (int)x->shape[qd]);
  }
  return 0;
}

int rd_read_tensor(rd *r, const tab *t, litert_tensor *x, const litert_model *m, int sg,
                       int idx) {
  int shape_present, nsig, sig_present;
  char sb[160];
  rd_setctx(r, "tensor %d of subgraph %d", idx, sg);
  x->rank = 0;
  if (rd_get_i32vec(r, t, 0, &x->shape, &x->rank, &shape_present, "shape vector")) return -1;
  if (rd_get_str(r, t, 3, &x->name, "name string")) return -1;
  if (x->name) rd_setctx(r, "tensor %d ('%s') of subgraph %d", idx, rd_printable(x->name, sb, sizeof sb), sg);
  if (rd_get_i8(r, t, 1, 0, &x->type, "type")) return -1;
  if (x->type < 0 || x->type >= DT_COUNT_) return rd_fail(r, "unknown tensor type %d", x->type);
  if (rd_get_u32(r, t, 2, 0, &x->buffer, "buffer")) return -1;
  if (rd_get_u8(r, t, 5, 0, &x->is_variable, "is_variable")) return -1;
  x->is_variable = x->is_variable != 0;
  if (rd_get_u8(r, t, 8, 0, &x->has_rank, "has_rank")) return -1;
  x->has_rank = x->has_rank != 0;
  if (rd_get_i32vec(r, t, 7, &x->shape_signature, &nsig, &sig_present, "shape_signature vector"))
    return -1;
  if (sig_present && !x->shape_signature) x->shape_signature = xmalloc(sizeof(int32_t));
  if (sig_present && nsig != x->rank)
    return rd_fail(r, "shape_signature has %d entries but shape has %d", nsig, x->rank);
  for (int i = 0; i < x->rank; i++) {
    if (x->shape[i] < 0)
      return rd_fail(r, "shape %s: dimension %d is negative",
                     rd_fmt_shape(x->shape, x->rank, sb, sizeof sb), i);
    if (x->shape_signature && x->shape_signature[i] < -1)
      return rd_fail(r, "shape_signature dimension %d is %d", i, (int)x->shape_signature[i]);
  }
  uint64_t count = 1;
  for (int i = 0; i < x->rank; i++) {
    count *= (uint64_t)x->shape[i];
    if (count > INT32_MAX)
      return rd_fail(r, "shape %s has more than 2^31-1 elements",
                     rd_fmt_shape(x->shape, x->rank, sb, sizeof sb));
  }
  if (x->buffer >= (uint32_t)m->nbuffers)
    return rd_fail(r, "buffer index %u out of range (%d buffers)", x->buffer, m->nbuffers);
  const litert_buffer *b = &m->buffers[x->buffer];
  if (x->buffer && b->size) {
    size_t es = dtype_size(x->type);
    if (x->type == DT_INT4) {
      if (b->size != (count + 1) / 2 && b->size != count)
        return rd_fail(r, "buffer %u holds %zu bytes but shape %s of int4 needs %llu", x->buffer,
                       b->size, rd_fmt_shape(x->shape, x->rank, sb, sizeof sb),
                       (unsigned long long)((count + 1) / 2));
    } else if (es && x->type != DT_STRING) {
      if ((uint64_t)b->size != count * es)
        return rd_fail(r, "buffer %u holds %zu bytes but shape %s of %s needs %llu", x->buffer,
                       b->size, rd_fmt_shape(x->shape, x->rank, sb, sizeof sb), dtype_name(x->type),
                       (unsigned long long)(count * es));
    }
  }
  tab st;
  int k = rd_get_tab(r, t, 6, &st, "sparsity");
  if (k < 0) return -1;
  if (k > 0) return rd_unsupported(r, "sparse tensors are not supported; re-export the model without sparsity (dense weights, no tf.lite.Optimize.EXPERIMENTAL_SPARSITY)");
  tab qt;
  k = rd_get_tab(r, t, 4, &qt, "quantization");
  if (k < 0) return -1;
  if (k > 0 && read_quant(r, &qt, x)) return -1;
  return 0;
}
