/* writer.c - serializes a litert_model to a .tflite flatbuffer (schema v3).
 *
 * Layout is front to back: each table is written (vtable first, then the
 * table) with zero placeholders for its offset fields; its vectors, strings
 * and sub-tables are written after it and the placeholders patched, so every
 * uoffset points forward as flatbuffers requires. Tables and vectors are
 * 4-byte aligned, 8-byte scalars 8-byte aligned, buffer data 16-byte aligned.
 * Every field the reader reads is written, so read -> write -> read gives an
 * equal model. */
#include "litert.h"

#include <stdlib.h>
#include <string.h>

typedef struct wb {
  uint8_t *b;
  size_t n, cap;
} wb;

static void w_reserve(wb *w, size_t extra) {
  if (w->n + extra <= w->cap) return;
  size_t cap = w->cap ? w->cap : 4096;
  while (cap < w->n + extra) cap *= 2;
  w->b = xrealloc(w->b, cap);
  w->cap = cap;
}

static void w_put(wb *w, const void *p, size_t len) {
  w_reserve(w, len);
  if (len) memcpy(w->b + w->n, p, len);
  w->n += len;
}

static void w_zero(wb *w, size_t len) {
  w_reserve(w, len);
  memset(w->b + w->n, 0, len);
  w->n += len;
}

/* Pads with zeros until (n + extra) is a multiple of align. */
static void w_align(wb *w, size_t align, size_t extra) {
  size_t r = (w->n + extra) % align;
  if (r) w_zero(w, align - r);
}

static void st16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}
static void st32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void st64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void w_u32(wb *w, uint32_t v) {
  uint8_t b[4];
  st32(b, v);
  w_put(w, b, 4);
}

/* Points the uoffset at slot to target (target > slot). */
static void w_patch(wb *w, size_t slot, size_t target) {
  st32(w->b + slot, (uint32_t)(target - slot));
}

/* ---- tables ------------------------------------------------------------- */

#define TB_MAX 16
typedef struct tfield {
  int id;
  unsigned size; /* 1, 4 or 8 */
  uint64_t val;
  unsigned off;  /* offset inside the table, set by tb_end */
} tfield;

typedef struct tb {
  tfield f[TB_MAX];
  int nf;
  size_t pos; /* table position after tb_end */
} tb;

static int tb_add(tb *t, int id, unsigned size, uint64_t val) {
  tfield *f = &t->f[t->nf];
  f->id = id;
  f->size = size;
  f->val = val;
  f->off = 0;
  return t->nf++;
}
static void tb_u8(tb *t, int id, int v) { tb_add(t, id, 1, (uint8_t)v); }
static void tb_u32(tb *t, int id, uint32_t v) { tb_add(t, id, 4, v); }
static void tb_i32(tb *t, int id, int32_t v) { tb_add(t, id, 4, (uint32_t)v); }
static void tb_f32(tb *t, int id, float v) {
  uint32_t u;
  memcpy(&u, &v, sizeof u);
  tb_add(t, id, 4, u);
}
static void tb_u64(tb *t, int id, uint64_t v) { tb_add(t, id, 8, v); }
/* An offset field; returns a handle for tb_slot. */
static int tb_ref(tb *t, int id) { return tb_add(t, id, 4, 0); }
static size_t tb_slot(const tb *t, int h) { return t->pos + t->f[h].off; }

static void tb_end(wb *w, tb *t) {
  int maxid = -1, has8 = 0;
  for (int i = 0; i < t->nf; i++) {
    if (t->f[i].id > maxid) maxid = t->f[i].id;
    if (t->f[i].size == 8) has8 = 1;
  }
  /* field offsets: largest first so each is naturally aligned */
  unsigned cur = 4;
  for (unsigned sz = 8; sz >= 1; sz /= 2)
    for (int i = 0; i < t->nf; i++)
      if (t->f[i].size == sz) {
        cur = (cur + sz - 1) / sz * sz;
        t->f[i].off = cur;
        cur += sz;
      }
  unsigned tsize = (cur + 3) / 4 * 4;
  unsigned vtsize = 4 + 2 * (unsigned)(maxid + 1);
  w_align(w, 2, 0);
  size_t vt = w->n;
  w_zero(w, vtsize);
  st16(w->b + vt, (uint16_t)vtsize);
  st16(w->b + vt + 2, (uint16_t)tsize);
  for (int i = 0; i < t->nf; i++) st16(w->b + vt + 4 + 2 * t->f[i].id, (uint16_t)t->f[i].off);
  w_align(w, has8 ? 8 : 4, 0);
  t->pos = w->n;
  w_zero(w, tsize);
  st32(w->b + t->pos, (uint32_t)(t->pos - vt)); /* soffset: vtable = table - soffset */
  for (int i = 0; i < t->nf; i++) {
    uint8_t *p = w->b + t->pos + t->f[i].off;
    switch (t->f[i].size) {
      case 1: p[0] = (uint8_t)t->f[i].val; break;
      case 4: st32(p, (uint32_t)t->f[i].val); break;
      default: st64(p, t->f[i].val); break;
    }
  }
}

/* ---- vectors ------------------------------------------------------------- */

/* Starts a vector of count elements whose data is align-aligned (at least
 * 4): pads, writes the length; returns the position of the length. */
static size_t w_vec_begin(wb *w, uint32_t count, size_t align) {
  w_align(w, 4, 0);
  w_align(w, align < 4 ? 4 : align, 4);
  size_t pos = w->n;
  w_u32(w, count);
  return pos;
}

/* Writes a vector of count elements of esz bytes (little-endian source words
 * are converted element by element); returns the position of its length. */
static size_t w_vec_raw(wb *w, const void *data, size_t count, size_t esz, size_t align) {
  size_t pos = w_vec_begin(w, (uint32_t)count, align);
  w_put(w, data, count * esz);
  return pos;
}

static size_t w_vec_i32(wb *w, const int32_t *v, int n) {
  size_t pos = w_vec_begin(w, (uint32_t)(n > 0 ? n : 0), 4);
  for (int i = 0; i < n; i++) w_u32(w, (uint32_t)v[i]);
  return pos;
}

static size_t w_vec_f32(wb *w, const float *v, int n) {
  size_t pos = w_vec_begin(w, (uint32_t)n, 4);
  for (int i = 0; i < n; i++) {
    uint32_t u;
    memcpy(&u, &v[i], sizeof u);
    w_u32(w, u);
  }
  return pos;
}

static size_t w_vec_i64(wb *w, const int64_t *v, int n) {
  size_t pos = w_vec_begin(w, (uint32_t)n, 8);
  for (int i = 0; i < n; i++) {
    uint8_t b[8];
    st64(b, (uint64_t)v[i]);
    w_put(w, b, 8);
  }
  return pos;
}

static size_t w_str(wb *w, const char *s) {
  size_t len = strlen(s);
  size_t pos = w_vec_raw(w, s, len, 1, 4);
  w_zero(w, 1);
  return pos;
}

/* A vector of n table offsets (zeros to patch); returns its position. */
static size_t w_vec_tables(wb *w, int n) {
  w_align(w, 4, 0);
  size_t pos = w->n;
  w_u32(w, (uint32_t)n);
  w_zero(w, 4 * (size_t)n);
  return pos;
}
static size_t vec_elem(size_t vec, int i) { return vec + 4 + 4 * (size_t)i; }

/* ---- model parts -------------------------------------------------------- */

static void write_options(wb *w, const litert_options *o, size_t slot) {
  int n;
  const litert_optfield *f = litert_options_fields(o->type, &n);
  const char *base = (const char *)o;
  tb t = {0};
  int h[TB_MAX];
  for (int i = 0; i < n; i++) {
    const litert_optfield *x = &f[i];
    h[i] = -1;
    switch (x->kind) {
      case LOF_BOOL: case LOF_BYTE: {
        int v;
        memcpy(&v, base + x->off, sizeof v);
        tb_u8(&t, x->id, x->kind == LOF_BOOL ? v != 0 : v);
        break;
      }
      case LOF_INT: case LOF_UINT: {
        int v;
        memcpy(&v, base + x->off, sizeof v);
        tb_i32(&t, x->id, v);
        break;
      }
      case LOF_FLOAT: {
        float v;
        memcpy(&v, base + x->off, sizeof v);
        tb_f32(&t, x->id, v);
        break;
      }
      case LOF_LONG: {
        int64_t v;
        memcpy(&v, base + x->off, sizeof v);
        tb_u64(&t, x->id, (uint64_t)v);
        break;
      }
      case LOF_STRING: {
        char *s;
        memcpy(&s, base + x->off, sizeof s);
        if (s) h[i] = tb_ref(&t, x->id);
        break;
      }
      case LOF_INTVEC: {
        int cnt;
        memcpy(&cnt, base + x->off_n, sizeof cnt);
        if (cnt >= 0) h[i] = tb_ref(&t, x->id);
        break;
      }
    }
  }
  tb_end(w, &t);
  w_patch(w, slot, t.pos);
  for (int i = 0; i < n; i++) {
    const litert_optfield *x = &f[i];
    if (h[i] < 0) continue;
    size_t s = tb_slot(&t, h[i]);
    if (x->kind == LOF_STRING) {
      char *str;
      memcpy(&str, base + x->off, sizeof str);
      w_patch(w, s, w_str(w, str));
    } else {
      int cnt, v[64];
      int32_t v32[64];
      memcpy(&cnt, base + x->off_n, sizeof cnt);
      if (cnt > x->cap) cnt = x->cap;
      memcpy(v, base + x->off, sizeof(int) * (size_t)cnt);
      for (int k = 0; k < cnt; k++) v32[k] = v[k];
      w_patch(w, s, w_vec_i32(w, v32, cnt));
    }
  }
}

static void write_tensor(wb *w, const litert_tensor *x, size_t slot) {
  tb t = {0};
  int hshape = -1, hname = -1, hq = -1, hsig = -1;
  if (x->rank >= 0) hshape = tb_ref(&t, 0);
  tb_u8(&t, 1, x->type);
  tb_u32(&t, 2, x->buffer);
  if (x->name) hname = tb_ref(&t, 3);
  const litert_quant *q = &x->q;
  if (q->nscale > 0 || q->nzero > 0 || q->quantized_dimension != 0) hq = tb_ref(&t, 4);
  if (x->is_variable) tb_u8(&t, 5, 1);
  if (x->shape_signature && x->rank >= 0) hsig = tb_ref(&t, 7);
  if (x->has_rank && x->rank >= 0) tb_u8(&t, 8, 1);
  tb_end(w, &t);
  w_patch(w, slot, t.pos);
  if (hshape >= 0) w_patch(w, tb_slot(&t, hshape), w_vec_i32(w, x->shape, x->rank));
  if (hname >= 0) w_patch(w, tb_slot(&t, hname), w_str(w, x->name));
  if (hsig >= 0) w_patch(w, tb_slot(&t, hsig), w_vec_i32(w, x->shape_signature, x->rank));
  if (hq >= 0) {
    tb u = {0};
    int hs = -1, hz = -1;
    if (q->nscale > 0) hs = tb_ref(&u, 2);
    if (q->nzero > 0) hz = tb_ref(&u, 3);
    tb_i32(&u, 6, q->quantized_dimension);
    tb_end(w, &u);
    w_patch(w, tb_slot(&t, hq), u.pos);
    if (hs >= 0) w_patch(w, tb_slot(&u, hs), w_vec_f32(w, q->scale, q->nscale));
    if (hz >= 0) w_patch(w, tb_slot(&u, hz), w_vec_i64(w, q->zero_point, q->nzero));
  }
}

static int write_op(wb *w, const litert_op *op, size_t slot, aotc_diag *d) {
  tb t = {0};
  int ho = -1, hc = -1, hm = -1;
  if (op->opts.type < 0 || op->opts.type > 255)
    return diag_error(d, "cannot write options type %d", op->opts.type);
  tb_u32(&t, 0, op->opcode_index);
  int hi = tb_ref(&t, 1);
  int hout = tb_ref(&t, 2);
  if (op->opts.type) {
    tb_u8(&t, 3, op->opts.type);
    ho = tb_ref(&t, 4);
  }
  if (op->custom_options_len) hc = tb_ref(&t, 5);
  if (op->nintermediates > 0) hm = tb_ref(&t, 8);
  tb_end(w, &t);
  w_patch(w, slot, t.pos);
  w_patch(w, tb_slot(&t, hi), w_vec_i32(w, op->inputs, op->ninputs));
  w_patch(w, tb_slot(&t, hout), w_vec_i32(w, op->outputs, op->noutputs));
  if (ho >= 0) write_options(w, &op->opts, tb_slot(&t, ho));
  if (hc >= 0)
    w_patch(w, tb_slot(&t, hc), w_vec_raw(w, op->custom_options, op->custom_options_len, 1, 4));
  if (hm >= 0) w_patch(w, tb_slot(&t, hm), w_vec_i32(w, op->intermediates, op->nintermediates));
  return 0;
}

static int write_subgraph(wb *w, const litert_subgraph *g, size_t slot, aotc_diag *d) {
  tb t = {0};
  int ht = tb_ref(&t, 0), hi = tb_ref(&t, 1), ho = tb_ref(&t, 2), hops = tb_ref(&t, 3);
  int hn = g->name ? tb_ref(&t, 4) : -1;
  tb_end(w, &t);
  w_patch(w, slot, t.pos);
  size_t v = w_vec_tables(w, g->ntensors);
  w_patch(w, tb_slot(&t, ht), v);
  for (int i = 0; i < g->ntensors; i++) write_tensor(w, &g->tensors[i], vec_elem(v, i));
  w_patch(w, tb_slot(&t, hi), w_vec_i32(w, g->inputs, g->ninputs));
  w_patch(w, tb_slot(&t, ho), w_vec_i32(w, g->outputs, g->noutputs));
  v = w_vec_tables(w, g->nops);
  w_patch(w, tb_slot(&t, hops), v);
  for (int i = 0; i < g->nops; i++)
    if (write_op(w, &g->ops[i], vec_elem(v, i), d)) return -1;
  if (hn >= 0) w_patch(w, tb_slot(&t, hn), w_str(w, g->name));
  return 0;
}

static void write_tensormaps(wb *w, const litert_sigtensor *v, int n, size_t slot) {
  size_t vec = w_vec_tables(w, n);
  w_patch(w, slot, vec);
  for (int i = 0; i < n; i++) {
    tb t = {0};
    int hn = v[i].name ? tb_ref(&t, 0) : -1;
    tb_u32(&t, 1, v[i].tensor_index);
    tb_end(w, &t);
    w_patch(w, vec_elem(vec, i), t.pos);
    if (hn >= 0) w_patch(w, tb_slot(&t, hn), w_str(w, v[i].name));
  }
}

int litert_write(const litert_model *m, uint8_t **out, size_t *len, aotc_diag *d) {
  wb w = {0};
  *out = NULL;
  *len = 0;
  w_zero(&w, 4);       /* root offset */
  w_put(&w, "TFL3", 4); /* file identifier */

  tb t = {0};
  tb_u32(&t, 0, m->version);
  int hoc = tb_ref(&t, 1), hsg = tb_ref(&t, 2);
  int hdesc = m->description ? tb_ref(&t, 3) : -1;
  int hbuf = tb_ref(&t, 4);
  int hmeta = m->nmetadata > 0 ? tb_ref(&t, 6) : -1;
  int hsig = m->nsignatures > 0 ? tb_ref(&t, 7) : -1;
  tb_end(&w, &t);
  w_patch(&w, 0, t.pos);

  size_t v = w_vec_tables(&w, m->nopcodes);
  w_patch(&w, tb_slot(&t, hoc), v);
  for (int i = 0; i < m->nopcodes; i++) {
    const litert_opcode *c = &m->opcodes[i];
    tb u = {0};
    tb_u8(&u, 0, c->builtin < 127 ? c->builtin : 127);
    int hc = c->custom_code ? tb_ref(&u, 1) : -1;
    tb_i32(&u, 2, c->version);
    tb_i32(&u, 3, c->builtin);
    tb_end(&w, &u);
    w_patch(&w, vec_elem(v, i), u.pos);
    if (hc >= 0) w_patch(&w, tb_slot(&u, hc), w_str(&w, c->custom_code));
  }

  v = w_vec_tables(&w, m->nsubgraphs);
  w_patch(&w, tb_slot(&t, hsg), v);
  for (int i = 0; i < m->nsubgraphs; i++)
    if (write_subgraph(&w, &m->subgraphs[i], vec_elem(v, i), d)) {
      free(w.b);
      return -1;
    }

  if (hdesc >= 0) w_patch(&w, tb_slot(&t, hdesc), w_str(&w, m->description));

  if (hmeta >= 0) {
    v = w_vec_tables(&w, m->nmetadata);
    w_patch(&w, tb_slot(&t, hmeta), v);
    for (int i = 0; i < m->nmetadata; i++) {
      tb u = {0};
      int hn = m->metadata[i].name ? tb_ref(&u, 0) : -1;
      tb_u32(&u, 1, m->metadata[i].buffer);
      tb_end(&w, &u);
      w_patch(&w, vec_elem(v, i), u.pos);
      if (hn >= 0) w_patch(&w, tb_slot(&u, hn), w_str(&w, m->metadata[i].name));
    }
  }

  if (hsig >= 0) {
    v = w_vec_tables(&w, m->nsignatures);
    w_patch(&w, tb_slot(&t, hsig), v);
    for (int i = 0; i < m->nsignatures; i++) {
      const litert_signature *g = &m->signatures[i];
      tb u = {0};
      int hi = tb_ref(&u, 0), ho = tb_ref(&u, 1);
      int hk = g->key ? tb_ref(&u, 2) : -1;
      tb_u32(&u, 4, g->subgraph_index);
      tb_end(&w, &u);
      w_patch(&w, vec_elem(v, i), u.pos);
      write_tensormaps(&w, g->inputs, g->ninputs, tb_slot(&u, hi));
      write_tensormaps(&w, g->outputs, g->noutputs, tb_slot(&u, ho));
      if (hk >= 0) w_patch(&w, tb_slot(&u, hk), w_str(&w, g->key));
    }
  }

  /* buffers last: the bulk of the file */
  v = w_vec_tables(&w, m->nbuffers);
  w_patch(&w, tb_slot(&t, hbuf), v);
  for (int i = 0; i < m->nbuffers; i++) {
    const litert_buffer *b = &m->buffers[i];
    tb u = {0};
    int hd = (b->size && b->data) ? tb_ref(&u, 0) : -1;
    tb_end(&w, &u);
    w_patch(&w, vec_elem(v, i), u.pos);
    if (hd >= 0) w_patch(&w, tb_slot(&u, hd), w_vec_raw(&w, b->data, b->size, 1, 16));
  }
  w_align(&w, 16, 0);

  if (w.n > 0x7fffffffu) {
    free(w.b);
    return diag_error(d, "model too large to write as one flatbuffer (%zu bytes, max 2 GB)", w.n);
  }
  *out = w.b;
  *len = w.n;
  return 0;
}

int litert_write_file(const litert_model *m, const char *path, aotc_diag *d) {
  uint8_t *buf;
  size_t len;
  if (litert_write(m, &buf, &len, d)) return -1;
  int rc = write_file_all(path, buf, len, d);
  free(buf);
  return rc;
}
