/* reader_ops.c - the .tflite reader's Operator tables and their options.
 *
 * An operator's opcode index and its input, output and intermediate tensor
 * lists are checked against the model (-1 only for absent inputs); its
 * builtin options table is decoded field by field from the schema
 * description litert_options_fields() shares with the writer (so that a
 * read-write roundtrip is exact), and its custom options are copied out
 * (inline or, for large ones, at an offset of the file). Once every subgraph
 * is read, rd_check_op_options checks what later stages rely on: the options
 * table type matches the builtin, options the builtin cannot go without are
 * present, strides, dilations, pool filters and block sizes are >= 1,
 * padding and fused activation are known values, and subgraph indices of
 * control flow are in range. */
#include "reader_internal.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static int read_options(rd *r, const tab *ot, litert_options *o) {
  int n;
  const litert_optfield *f = litert_options_fields(o->type, &n);
  char *base = (char *)o;
  for (int i = 0; i < n; i++) {
    const litert_optfield *x = &f[i];
    char name[48];
    snprintf(name, sizeof name, "%s field %d", litert_options_name(o->type), x->id);
    switch (x->kind) {
      case LOF_BOOL: {
        int v;
        if (rd_get_u8(r, ot, x->id, x->def, &v, name)) return -1;
        v = v != 0;
        memcpy(base + x->off, &v, sizeof v);
        break;
      }
      case LOF_BYTE: {
        int v;
        if (rd_get_i8(r, ot, x->id, x->def, &v, name)) return -1;
        memcpy(base + x->off, &v, sizeof v);
        break;
      }
      case LOF_INT: {
        int32_t v;
        if (rd_get_i32(r, ot, x->id, x->def, &v, name)) return -1;
        int iv = v;
        memcpy(base + x->off, &iv, sizeof iv);
        break;
      }
      case LOF_UINT: {
        uint32_t v;
        if (rd_get_u32(r, ot, x->id, (uint32_t)x->def, &v, name)) return -1;
        if (v > INT_MAX) return rd_fail(r, "%s: value %u out of range", name, v);
        int iv = (int)v;
        memcpy(base + x->off, &iv, sizeof iv);
        break;
      }
      case LOF_FLOAT: {
        float v;
        if (rd_get_f32(r, ot, x->id, (float)x->def, &v, name)) return -1;
        memcpy(base + x->off, &v, sizeof v);
        break;
      }
      case LOF_LONG: {
        uint64_t u;
        if (rd_get_u64(r, ot, x->id, (uint64_t)(int64_t)x->def, &u, name)) return -1;
        int64_t v;
        memcpy(&v, &u, sizeof v);
        memcpy(base + x->off, &v, sizeof v);
        break;
      }
      case LOF_STRING: {
        char *s;
        if (rd_get_str(r, ot, x->id, &s, name)) return -1;
        char *old;
        memcpy(&old, base + x->off, sizeof old);
        free(old);
        memcpy(base + x->off, &s, sizeof s);
        break;
      }
      case LOF_INTVEC: {
        int32_t *v;
        int cnt, present;
        if (rd_get_i32vec(r, ot, x->id, &v, &cnt, &present, name)) return -1;
        if (!present) cnt = x->def;
        if (cnt > x->cap) {
          free(v);
          return rd_unsupported(r, "%s has %d entries (at most %d supported); aotc cannot hold this operator's options", name, cnt, x->cap);
        }
        for (int k = 0; k < cnt; k++) {
          int iv = v[k];
          memcpy(base + x->off + sizeof(int) * (size_t)k, &iv, sizeof iv);
        }
        memcpy(base + x->off_n, &cnt, sizeof cnt);
        free(v);
        break;
      }
    }
  }
  return 0;
}

int rd_check_index_list(rd *r, const int32_t *v, int n, int ntensors, int allow_neg,
                            const char *what) {
  for (int i = 0; i < n; i++)
    if (v[i] >= ntensors || v[i] < (allow_neg ? -1 : 0))
      return rd_fail(r, "%s %d is tensor %d, out of range (%d tensors)", what, i, (int)v[i],
                     ntensors);
  return 0;
}

int rd_read_op(rd *r, const tab *t, litert_op *op, const litert_model *m,
                   const litert_subgraph *g, int sg, int idx) {
  rd_setctx(r, "operator %d of subgraph %d", idx, sg);
  litert_options_default(&op->opts);
  if (rd_get_u32(r, t, 0, 0, &op->opcode_index, "opcode_index")) return -1;
  if (op->opcode_index >= (uint32_t)m->nopcodes)
    return rd_fail(r, "opcode_index %u out of range (%d operator codes)", op->opcode_index,
                   m->nopcodes);
  int builtin = m->opcodes[op->opcode_index].builtin;
  rd_setctx(r, "operator %d (%s) of subgraph %d", idx, litert_op_name(builtin), sg);
  if (rd_get_i32vec(r, t, 1, &op->inputs, &op->ninputs, NULL, "inputs vector") ||
      rd_get_i32vec(r, t, 2, &op->outputs, &op->noutputs, NULL, "outputs vector") ||
      rd_get_i32vec(r, t, 8, &op->intermediates, &op->nintermediates, NULL, "intermediates vector"))
    return -1;
  if (rd_check_index_list(r, op->inputs, op->ninputs, g->ntensors, 1, "input") ||
      rd_check_index_list(r, op->outputs, op->noutputs, g->ntensors, 0, "output") ||
      rd_check_index_list(r, op->intermediates, op->nintermediates, g->ntensors, 0, "intermediate"))
    return -1;
  int type;
  if (rd_get_u8(r, t, 3, 0, &type, "builtin_options_type")) return -1;
  if (type != 0) {
    tab ot;
    int k = rd_get_tab(r, t, 4, &ot, "builtin_options");
    if (k < 0) return -1;
    op->opts.type = type;
    if (k > 0 && read_options(r, &ot, &op->opts)) return -1;
  }
  uint64_t data, loff, lsize;
  uint32_t n;
  if (rd_get_vec(r, t, 5, 1, &data, &n, "custom_options vector") < 0) return -1;
  if (rd_get_u64(r, t, 9, 0, &loff, "large_custom_options_offset") ||
      rd_get_u64(r, t, 10, 0, &lsize, "large_custom_options_size"))
    return -1;
  if (n) {
    op->custom_options = xmalloc(n);
    memcpy(op->custom_options, r->p + data, n);
    op->custom_options_len = n;
  } else if (loff > 1 && lsize) {
    if (loff > r->n || lsize > r->n - loff)
      return rd_fail(r, "large custom options at offset %llu (%llu bytes) run past end of file "
                     "(size %zu)", (unsigned long long)loff, (unsigned long long)lsize, r->n);
    if (rd_charge(r, lsize)) return -1;
    op->custom_options = xmalloc((size_t)lsize);
    memcpy(op->custom_options, r->p + loff, (size_t)lsize);
    op->custom_options_len = (size_t)lsize;
  }
  return 0;
}

/* Semantic checks of an op's options that later stages rely on. */
int rd_check_op_options(rd *r, const litert_model *m, const litert_op *op, int sg, int idx) {
  int builtin = m->opcodes[op->opcode_index].builtin;
  const litert_options *o = &op->opts;
  rd_setctx(r, "operator %d (%s) of subgraph %d", idx, litert_op_name(builtin), sg);
  int want = litert_builtin_options_type(builtin);
  if (o->type != 0 && want != 0 && o->type != want)
    return rd_fail(r, "builtin options are %s, expected %s", litert_options_name(o->type),
                   litert_options_name(want));
  if (o->type == 0) {
    switch (builtin) {
      case OP_CONV_2D: case OP_DEPTHWISE_CONV_2D: case OP_AVERAGE_POOL_2D: case OP_MAX_POOL_2D:
      case OP_L2_POOL_2D: case OP_TRANSPOSE_CONV: case OP_WHILE: case OP_IF: case OP_CALL_ONCE:
      case OP_SPACE_TO_DEPTH: case OP_DEPTH_TO_SPACE: case OP_CONV_3D:
        return rd_fail(r, "missing builtin options (%s)", litert_options_name(want));
      default:
        break;
    }
    return 0;
  }
  switch (o->type) {
    case BO_Conv2DOptions: case BO_DepthwiseConv2DOptions: case BO_Pool2DOptions:
    case BO_TransposeConvOptions: case BO_Conv3DOptions:
      if (o->stride_w < 1 || o->stride_h < 1 || (o->type == BO_Conv3DOptions && o->stride_d < 1))
        return rd_fail(r, "stride %dx%d must be >= 1", o->stride_h, o->stride_w);
      if (o->dilation_w < 1 || o->dilation_h < 1 || o->dilation_d < 1)
        return rd_fail(r, "dilation %dx%d must be >= 1", o->dilation_h, o->dilation_w);
      if (o->type == BO_Pool2DOptions && (o->filter_w < 1 || o->filter_h < 1))
        return rd_fail(r, "pool filter %dx%d must be >= 1", o->filter_h, o->filter_w);
      if (o->padding != PAD_SAME && o->padding != PAD_VALID)
        return rd_fail(r, "unknown padding %d", o->padding);
      break;
    case BO_SpaceToDepthOptions: case BO_DepthToSpaceOptions:
      if (o->block_size < 1) return rd_fail(r, "block_size %d must be >= 1", o->block_size);
      break;
    case BO_WhileOptions: case BO_IfOptions: {
      int w = o->type == BO_WhileOptions;
      int a = w ? o->cond_subgraph : o->then_subgraph, b = w ? o->body_subgraph : o->else_subgraph;
      if (a < 0 || a >= m->nsubgraphs || b < 0 || b >= m->nsubgraphs)
        return rd_fail(r, "%s subgraph %d/%d out of range (%d subgraphs)",
                       w ? "cond/body" : "then/else", a, b, m->nsubgraphs);
      break;
    }
    case BO_CallOnceOptions:
      if (o->init_subgraph < 0 || o->init_subgraph >= m->nsubgraphs)
        return rd_fail(r, "init subgraph %d out of range (%d subgraphs)", o->init_subgraph,
                       m->nsubgraphs);
      break;
    case BO_CallOptions:
      if (o->subgraph >= m->nsubgraphs)
        return rd_fail(r, "called subgraph %d out of range (%d subgraphs)", o->subgraph,
                       m->nsubgraphs);
      break;
    default:
      break;
  }
  int n;
  const litert_optfield *f = litert_options_fields(o->type, &n);
  for (int i = 0; i < n; i++)
    if (f[i].kind == LOF_BYTE && f[i].off == offsetof(litert_options, fused_act) &&
        (o->fused_act < ACT_NONE || o->fused_act > ACT_SIGN_BIT))
      return rd_fail(r, "unknown fused activation %d", o->fused_act);
  return 0;
}
