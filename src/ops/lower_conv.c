/* lower_conv.c - the convolution-family kinds of lowered kernel calls
 * (LP_CONV, LP_CONV_HYB, LP_FC, LP_FC_HYB, LP_BMM; see lower.h): how
 * lower_emit prints them and how lower_eval calls their kernel on the host.
 *
 * A call's tensors are in[0..2] (input, filter / weights, bias) and out; the
 * constant arrays its params point to (requantization multipliers and
 * shifts, an int64 bias, hybrid filter scales, the folded int8 bias) are
 * lower_arg arrays at their LOWER_CA_* place. Printing emits those arrays
 * first, then the params struct (one fixed layout per kind), the tensor
 * pointers and the call; the hybrid kernels also get an aot_hybrid_params
 * struct "<opname>_h" and the op's scratch buffer, as do the int8 CONV_2D and
 * DEPTHWISE_CONV_2D (their SIMD variants' windows and tables, sized by
 * aot_conv2d_s8_scratch_size). The host call points the
 * params at the same arrays and calls the descriptor's function. */
#include "lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lower_conv_array(lower_call *c, int role, char adt, const char *name, void *data,
                      size_t n) {
  free(c->arg[role].data);
  c->arg[role] = (lower_arg){.t = -1, .adt = adt, .name = name, .data = data, .n = n};
}

/* The array at place role, or NULL if the call has none. */
static void *ca_data(const lower_call *c, int role) {
  return c->arg[role].adt ? c->arg[role].data : NULL;
}

/* Emits the array at place role; its name, or "NULL" if the call has none. */
static const char *ca_emit(emit_ctx *e, const lower_call *c, int role) {
  const lower_arg *a = &c->arg[role];
  if (!a->adt || !a->data) return "NULL";
  switch (a->adt) {
    case 'f': return emit_array_f32(e, a->name, a->data, a->n);
    case 'l': return emit_array_i64(e, a->name, a->data, a->n);
    default: return emit_array_i32(e, a->name, a->data, a->n);
  }
}

static const char *tensor_text(emit_ctx *e, int t) { return t >= 0 ? emit_ptr(e, t) : "NULL"; }

/* The builds that may read the few-channel path's constants (the target
 * condition of AOT_DSP, aot_dsp.h: aot_conv_first.h; a DSP build with
 * AOT_NO_SIMD gets them too and does not read them): the others get neither
 * the array nor the params member. */
#define FIRST_IF                                                                  \
  "#if defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32) && "           \
  "!(defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1))"

/* kbias: the folded bias array's name, or NULL when the call has none;
 * packed: the Helium build's filter is packed (AOT_MVE_PACKED, the module's
 * aot_constants.h); first: the few-channel path's constants (FIRST_IF), or
 * NULL. Both come with kbias (the line before them ends without a comma),
 * each behind its #if with its comma. */
static void emit_conv_params(emit_ctx *e, const aot_conv_params *p, const char *pname,
                             const char *mult, const char *shift, const char *kbias,
                             int packed, const char *first) {
  const char *lo = emit_float(e, p->act_min_f), *hi = emit_float(e, p->act_max_f);
  emit_decl(e,
            "static const aot_conv_params %s = {\n"
            "  .batches = %d, .in_h = %d, .in_w = %d, .in_c = %d,\n"
            "  .out_h = %d, .out_w = %d, .out_c = %d,\n"
            "  .filter_h = %d, .filter_w = %d, .filter_in_c = %d,\n"
            "  .stride_h = %d, .stride_w = %d, .dilation_h = %d, .dilation_w = %d,\n"
            "  .pad_h = %d, .pad_w = %d, .depth_multiplier = %d,\n"
            "  .input_offset = %d, .output_offset = %d,\n"
            "  .act_min = %d, .act_max = %d, .act_min_f = %s, .act_max_f = %s,\n"
            "  .out_mult = %s, .out_shift = %s,%s%s%s%s%s%s%s\n"
            "};",
            pname, (int)p->batches, (int)p->in_h, (int)p->in_w, (int)p->in_c, (int)p->out_h,
            (int)p->out_w, (int)p->out_c, (int)p->filter_h, (int)p->filter_w,
            (int)p->filter_in_c, (int)p->stride_h, (int)p->stride_w, (int)p->dilation_h,
            (int)p->dilation_w, (int)p->pad_h, (int)p->pad_w, (int)p->depth_multiplier,
            (int)p->input_offset, (int)p->output_offset, (int)p->act_min, (int)p->act_max, lo,
            hi, mult, shift, kbias ? "\n  .kbias = " : "", kbias ? kbias : "",
            p->dsp_variant == AOT_DSP_VAR_G4    ? ",\n  .dsp_variant = 1 /* four-position path */"
            : p->dsp_variant == AOT_DSP_VAR_GEN ? ",\n  .dsp_variant = 2 /* tap-pair loop */"
            : p->dsp_variant == AOT_DSP_VAR_FIRST
                ? ",\n  .dsp_variant = 3 /* few-channel path */"
                : "",
            packed ? "\n#if AOT_MVE_PACKED\n  , .filter_packed = 1\n#endif" : "",
            first ? "\n" FIRST_IF "\n  , .first = " : "", first ? first : "",
            first ? "\n#endif" : "");
}

/* kbias: the folded bias array's name, or NULL when the kernel has none
 * (only aot_fc_s8 prints the member). */
static void emit_fc_params(emit_ctx *e, const aot_fc_params *p, const char *pname,
                           const char *mult, const char *shift, const char *kbias) {
  const char *lo = emit_float(e, p->act_min_f), *hi = emit_float(e, p->act_max_f);
  emit_decl(e,
            "static const aot_fc_params %s = {\n"
            "  .batches = %d, .in_depth = %d, .out_depth = %d,\n"
            "  .input_offset = %d, .output_offset = %d,\n"
            "  .act_min = %d, .act_max = %d, .act_min_f = %s, .act_max_f = %s,\n"
            "  .per_channel = %d, .out_mult = %s, .out_shift = %s,%s%s\n"
            "};",
            pname, (int)p->batches, (int)p->in_depth, (int)p->out_depth, (int)p->input_offset,
            (int)p->output_offset, (int)p->act_min, (int)p->act_max, lo, hi,
            (int)p->per_channel, mult, shift, kbias ? "\n  .kbias = " : "", kbias ? kbias : "");
}

static void emit_bmm(emit_ctx *e, const lower_call *c, const char *pname) {
  const aot_bmm_params *p = &c->u.bmm;
  strbuf dims = {0}, ls = {0}, rs = {0};
  for (int d = 0; d < AOT_BMM_MAX_BATCH_DIMS; d++) {
    sb_printf(&dims, "%s%d", d ? ", " : "", (int)p->batch_dims[d]);
    sb_printf(&ls, "%s%d", d ? ", " : "", (int)p->lhs_bstride[d]);
    sb_printf(&rs, "%s%d", d ? ", " : "", (int)p->rhs_bstride[d]);
  }
  emit_decl(e,
            "static const aot_bmm_params %s = {\n"
            "  .batch_dims = {%s},\n"
            "  .lhs_bstride = {%s},\n"
            "  .rhs_bstride = {%s},\n"
            "  .m = %d, .k = %d, .n = %d, .adj_x = %d, .adj_y = %d,\n"
            "  .lhs_offset = %d, .rhs_offset = %d, .output_offset = %d,\n"
            "  .out_mult = %d, .out_shift = %d, .act_min = %d, .act_max = %d,\n"
            "};",
            pname, dims.s, ls.s, rs.s, (int)p->m, (int)p->k, (int)p->n, (int)p->adj_x,
            (int)p->adj_y, (int)p->lhs_offset, (int)p->rhs_offset, (int)p->output_offset,
            (int)p->out_mult, (int)p->out_shift, (int)p->act_min, (int)p->act_max);
  sb_free(&dims);
  sb_free(&ls);
  sb_free(&rs);
  const char *l = tensor_text(e, c->in[0]);
  const char *r = tensor_text(e, c->in[1]);
  emit_call(e, "%s(&%s, %s, %s, %s)", c->k->name, pname, l, r, emit_ptr(e, c->out));
}

int lower_conv_emit(emit_ctx *e, lower_call *c, const char *pname) {
  const int kind = c->k->kind;
  if (kind == LP_BMM) {
    emit_bmm(e, c, pname);
    emit_kernel(e, c->k->file);
    return 0;
  }
  const char *mult = ca_emit(e, c, LOWER_CA_MULT), *shift = ca_emit(e, c, LOWER_CA_SHIFT);
  if (kind == LP_FC || kind == LP_FC_HYB) {
    const char *kbias = ca_emit(e, c, LOWER_CA_KBIAS);
    emit_fc_params(e, &c->u.fc.p, pname, mult, shift,
                   c->k == lower_kernel_get(LK(aot_fc_s8)) ? kbias : NULL);
  } else {
    const char *kbias = c->arg[LOWER_CA_KBIAS].adt ? ca_emit(e, c, LOWER_CA_KBIAS) : NULL;
    const char *first = NULL;
    if (c->arg[LOWER_CA_FIRST].adt) {
      emit_decl(e, "%s", FIRST_IF);
      first = ca_emit(e, c, LOWER_CA_FIRST);
      emit_decl(e, "#endif");
    }
    emit_conv_params(e, &c->u.conv.p, pname, mult, shift, kbias, c->mve_pack, first);
  }
  const char *in = tensor_text(e, c->in[0]), *f = tensor_text(e, c->in[1]);
  const char *b = c->arg[LOWER_CA_BIAS64].adt ? ca_emit(e, c, LOWER_CA_BIAS64)
                                              : tensor_text(e, c->in[2]);
  const char *out = emit_ptr(e, c->out);
  if (kind == LP_CONV_HYB || kind == LP_FC_HYB) {
    const aot_hybrid_params *h = kind == LP_FC_HYB ? &c->u.fc.h : &c->u.conv.h;
    const char *fs = ca_emit(e, c, LOWER_CA_SCALE);
    emit_decl(e, "static const aot_hybrid_params %s_h = {.per_channel = %d, .filter_scale = %s};",
              emit_opname(e), (int)h->per_channel, fs);
    const char *sc = emit_scratch_ptr(e);
    emit_call(e, "%s(&%s, &%s_h, %s, %s, %s, %s, %s)", c->k->name, pname, emit_opname(e), in, f,
              b, out, sc);
  } else if (c->k->nin == 5) {   /* int8 CONV_2D / DEPTHWISE_CONV_2D, int16 CONV_2D /
                                   TRANSPOSE_CONV: a scratch buffer */
    const char *sc = emit_scratch_bytes(e) > 0 ? emit_scratch_ptr(e) : "NULL";
    emit_call(e, "%s(&%s, %s, %s, %s, %s, %s)", c->k->name, pname, in, f, b, out, sc);
  } else {
    emit_call(e, "%s(&%s, %s, %s, %s, %s)", c->k->name, pname, in, f, b, out);
  }
  emit_kernel(e, c->k->file);
  return 0;
}

int lower_conv_eval(lower_call *c, void *const *data, void *scratch) {
  const int kind = c->k->kind;
  void *in = c->in[0] >= 0 ? data[c->in[0]] : NULL;
  void *f = c->in[1] >= 0 ? data[c->in[1]] : NULL;
  void *b = c->arg[LOWER_CA_BIAS64].adt ? ca_data(c, LOWER_CA_BIAS64)
                                        : c->in[2] >= 0 ? data[c->in[2]] : NULL;
  aot_hybrid_params *h = NULL;
  switch (kind) {
    case LP_CONV:
    case LP_CONV_HYB:
      c->u.conv.p.out_mult = ca_data(c, LOWER_CA_MULT);
      c->u.conv.p.out_shift = ca_data(c, LOWER_CA_SHIFT);
      c->u.conv.p.kbias = ca_data(c, LOWER_CA_KBIAS);
      c->u.conv.p.first = ca_data(c, LOWER_CA_FIRST);
      h = &c->u.conv.h;
      break;
    case LP_FC:
    case LP_FC_HYB:
      c->u.fc.p.out_mult = ca_data(c, LOWER_CA_MULT);
      c->u.fc.p.out_shift = ca_data(c, LOWER_CA_SHIFT);
      c->u.fc.p.kbias = ca_data(c, LOWER_CA_KBIAS);
      h = &c->u.fc.h;
      break;
    case LP_BMM: return (int)c->k->fn(&c->u, in, f, NULL, data[c->out]);
    default: return -1;
  }
  if (kind == LP_CONV_HYB || kind == LP_FC_HYB) {
    h->filter_scale = ca_data(c, LOWER_CA_SCALE);
    void *argv[6] = {h, in, f, b, data[c->out], scratch};
    return (int)c->k->fn(&c->u, argv, NULL, NULL, NULL);
  }
  if (c->k->nin == 5) {
    void *argv[5] = {in, f, b, data[c->out], scratch};
    return (int)c->k->fn(&c->u, argv, NULL, NULL, NULL);
  }
  return (int)c->k->fn(&c->u, in, f, b, data[c->out]);
}

