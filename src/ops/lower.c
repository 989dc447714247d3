/* lower.c - the kernel table and the generic printing and running of
 * lowered kernel calls (see lower.h).
 *
 * kernels.def is expanded three times: into the ids (lower.h), into host
 * wrappers w_<kernel> that call the kernel function with its own parameter
 * types, and into the descriptor table. Params structs print from a field
 * table per LP_* kind (name, place in the call, how the value prints), plus
 * the few members that depend on the kernel or on their values (tables,
 * optional softmax members). lower_emit and lower_eval are the only places
 * that turn a call into module text or into a host call. */
#include "lower.h"

#include "aot_kernels.h"
#include "lower_rec.h"
#include "quant_elementwise.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the kernel table ------------------------------------------------------- */

/* Uniform host wrappers w_<kernel> (a lower_fn): the void pointers convert to
 * the kernel's own parameter types; inputs past the kernel's count are unused. */
#define LOWER_WRAP_1(K)                                                                          \
  static int32_t w_##K(const void *p, const void *a, const void *b, const void *c, void *y) {    \
    (void)b;                                                                                     \
    (void)c;                                                                                     \
    return K(p, a, y);                                                                           \
  }
#define LOWER_WRAP_2(K)                                                                          \
  static int32_t w_##K(const void *p, const void *a, const void *b, const void *c, void *y) {    \
    (void)c;                                                                                     \
    return K(p, a, b, y);                                                                        \
  }
#define LOWER_WRAP_3(K)                                                                          \
  static int32_t w_##K(const void *p, const void *a, const void *b, const void *c, void *y) {    \
    return K(p, a, b, c, y);                                                                     \
  }
/* wide kernels: a is the argument vector (void *const *) */
#define LOWER_WIDE_HEAD(K)                                                                       \
  static int32_t w_##K(const void *p, const void *a, const void *b, const void *c, void *y) {    \
    void *const *v = (void *const *)a;                                                           \
    (void)b;                                                                                     \
    (void)c;                                                                                     \
    (void)y;
#define LOWER_WRAP_4(K) LOWER_WIDE_HEAD(K) return K(p, v[0], v[1], v[2], v[3]); }
#define LOWER_WRAP_5(K) LOWER_WIDE_HEAD(K) return K(p, v[0], v[1], v[2], v[3], v[4]); }
#define LOWER_WRAP_6(K) LOWER_WIDE_HEAD(K) return K(p, v[0], v[1], v[2], v[3], v[4], v[5]); }
#define LOWER_WRAP_9(K) LOWER_WIDE_HEAD(K) return K(p, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]); }
#define LOWER_WRAP_11(K)                                                                         \
  LOWER_WIDE_HEAD(K) return K(p, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10]); }
#define AOT_KERNEL(NAME, FILE, KIND, NIN) LOWER_WRAP_##NIN(NAME)
#define AOT_KERNEL_GLUE(NAME, FILE, KIND, NIN) /* lower_rec_NAME, in lower_rec.c */
#include "kernels.def"
#undef AOT_KERNEL_GLUE
#undef AOT_KERNEL

static const lower_kernel lower_kernels[LK_COUNT] = {
#define AOT_KERNEL(NAME, FILE, KIND, NIN) [LK_##NAME] = {#NAME, FILE, KIND, NIN, w_##NAME},
#define AOT_KERNEL_GLUE(NAME, FILE, KIND, NIN) \
  [LK_##NAME] = {#NAME, FILE, KIND, NIN, lower_rec_##NAME},
#include "kernels.def"
#undef AOT_KERNEL_GLUE
#undef AOT_KERNEL
};

const lower_kernel *lower_kernel_get(int k) {
  return k >= 0 && k < LK_COUNT ? &lower_kernels[k] : NULL;
}

void lower_call_init(lower_call *c, int k, int in0, int in1, int in2, int out) {
  memset(c, 0, sizeof *c);
  c->k = lower_kernel_get(k);
  c->in[0] = in0;
  c->in[1] = in1;
  c->in[2] = in2;
  c->out = out;
}

/* ---- params printing ------------------------------------------------------- */

/* A params struct member as printed: its name, its place in an lower_call and
 * how it prints: 'i' int32, 'f' float, 'b' aot_bcast, 'c' AOT_CMP_* op,
 * 'r' AOT_RQ_* type, 'o' AOT_REDUCE_* op, 'a' pointer to the next of the
 * call's int32 arrays (ia). */
typedef struct lower_field {
  const char *name;
  size_t off;
  char type;
  char more;             /* 1: the next field follows on the same line; 2: the
                            last field, without a comma */
} lower_field;

#define FLD(M, X, T) {#X, offsetof(lower_call, u.M.X), T, 0}
#define FLD_MORE(M, X, T) {#X, offsetof(lower_call, u.M.X), T, 1}
#define FLD_LAST(M, X, T) {#X, offsetof(lower_call, u.M.X), T, 2}
#define PI(X) FLD_MORE(pool, X, 'i')
#define FI(M, X) FLD(M, X, 'i')
#define FF(M, X) FLD(M, X, 'f')
#define FB(M) FLD(M, bc, 'b')

/* Per params kind: the C type and the members printed for every kernel, in
 * order (at most 16; unnamed entries end the list). print_params adds the
 * members that depend on the kernel or on their values. */
static const struct {
  const char *ctype;
  lower_field f[17];
} lp_params[] = {
    /* printed by lower_conv.c */
    [LP_CONV] = {"aot_conv_params", {{0}}},
    [LP_CONV_HYB] = {"aot_conv_params", {{0}}},
    [LP_FC] = {"aot_fc_params", {{0}}},
    [LP_FC_HYB] = {"aot_fc_params", {{0}}},
    [LP_BMM] = {"aot_bmm_params", {{0}}},
    [LP_ADDSUB] = {"aot_addsub_q_params",
                    {FB(addsub), FI(addsub, left_shift), FI(addsub, in1_offset),
                     FI(addsub, in2_offset), FI(addsub, in1_mult), FI(addsub, in1_shift),
                     FI(addsub, in2_mult), FI(addsub, in2_shift), FI(addsub, out_mult),
                     FI(addsub, out_shift), FI(addsub, out_offset), FI(addsub, act_min),
                     FI(addsub, act_max)}},
    [LP_POT] = {"aot_addsub_pot_params",
                 {FB(pot), FI(pot, in1_shift), FI(pot, in2_shift), FI(pot, act_min),
                  FI(pot, act_max)}},
    [LP_MUL] = {"aot_mul_q_params",
                 {FB(mul), FI(mul, in1_offset), FI(mul, in2_offset), FI(mul, out_offset),
                  FI(mul, out_mult), FI(mul, out_shift), FI(mul, act_min), FI(mul, act_max)}},
    [LP_ARITH_F32] = {"aot_arith_f32_params", {FB(af), FF(af, act_min), FF(af, act_max)}},
    [LP_ARITH_S32] = {"aot_arith_s32_params", {FB(ai), FI(ai, act_min), FI(ai, act_max)}},
    [LP_BCAST] = {"aot_bcast_params", {FB(bp)}},
    [LP_COMPARE] = {"aot_compare_params", {FB(cmp), FLD(cmp, op, 'c')}},
    [LP_SELECT] = {"aot_select_params", {FB(sel), FI(sel, elem_size)}},
    [LP_UNARY] = {"aot_unary_params", {FI(un, size)}},
    [LP_ACT_CLAMP_F32] = {"aot_act_clamp_f32_params", {FI(cf, size), FF(cf, lo), FF(cf, hi)}},
    [LP_ACT_CLAMP_Q] = {"aot_act_clamp_q_params", {FI(cq, size), FI(cq, lo), FI(cq, hi)}},
    [LP_RELU_Q] = {"aot_relu_q_params",
                    {FI(relu, size), FI(relu, in_zp), FI(relu, out_zp), FI(relu, mult),
                     FI(relu, shift), FI(relu, act_min), FI(relu, act_max)}},
    [LP_LEAKY_Q] = {"aot_leaky_relu_q_params",
                     {FI(lq, size), FI(lq, in_zp), FI(lq, out_zp), FI(lq, mult_identity),
                      FI(lq, shift_identity), FI(lq, mult_alpha), FI(lq, shift_alpha)}},
    [LP_LEAKY_F32] = {"aot_leaky_relu_f32_params", {FI(lf, size), FF(lf, alpha)}},
    [LP_SIG_S8] = {"aot_sigmoid_s8_params",
                    {FI(s8, size), FI(s8, in_zp), FI(s8, range_radius), FI(s8, mult),
                     FI(s8, left_shift)}},
    [LP_SIG_S16] = {"aot_sigmoid_s16_params",
                     {FI(s16, size), FI(s16, mult), FI(s16, left_shift)}},
    [LP_HSWISH] = {"aot_hard_swish_s8_params",
                    {FI(hs, size), FI(hs, in_zp), FI(hs, out_zp), FI(hs, out_mult16),
                     FI(hs, out_exp), FI(hs, reluish_mult16), FI(hs, reluish_exp)}},
    [LP_PRELU_Q] = {"aot_prelu_q_params",
                     {FB(prelu), FI(prelu, in_offset), FI(prelu, alpha_offset),
                      FI(prelu, out_offset), FI(prelu, mult1), FI(prelu, shift1),
                      FI(prelu, mult2), FI(prelu, shift2)}},
    [LP_LUT_S8] = {"aot_lut_s8_params", {FI(lut, size)}},
    [LP_SOFTMAX] = {"aot_softmax_params", {FI(sm, outer), FI(sm, depth)}},
    [LP_QUANTIZE] = {"aot_quantize_params",
                      {FI(q, size), FF(q, scale), FI(q, zero_point)}},
    [LP_REQUANT] = {"aot_requant_params",
                     {FI(rq, size), FLD(rq, in_type, 'r'), FLD(rq, out_type, 'r'),
                      FI(rq, in_zp), FI(rq, out_zp), FI(rq, mult), FI(rq, shift)}},
    [LP_DEQUANT] = {"aot_dequantize_params",
                     {FI(dq, size), FF(dq, scale), FI(dq, zero_point)}},
    [LP_DEQUANT_PC] = {"aot_dequantize_pc_params",
                        {FI(dpc, outer), FI(dpc, channels), FI(dpc, inner)}},
    /* four to a line */
    [LP_POOL] = {"aot_pool_params",
                 {PI(batches), PI(in_h), PI(in_w), FI(pool, channels), PI(out_h), PI(out_w),
                  PI(filter_h), FI(pool, filter_w), PI(stride_h), PI(stride_w), PI(pad_h),
                  FI(pool, pad_w), PI(act_min), PI(act_max), FLD_MORE(pool, act_min_f, 'f'),
                  FF(pool, act_max_f)}},
    [LP_REDUCE] = {"aot_reduce_params",
                   {FLD(rd, op, 'o'), FI(rd, outer_rank), FI(rd, inner_rank), FLD(rd, count, 'a'),
                    FLD(rd, stride, 'a'), FI(rd, num_reduced), FI(rd, input_zp),
                    FI(rd, output_zp), FI(rd, mult), FLD_LAST(rd, shift, 'i')}},
    [LP_STEP] = {NULL, {{0}}},
    [LP_GRU] = {"aot_gru_params",
                {FI(gru, time_steps), FI(gru, features), FI(gru, units), FI(gru, reset_after),
                 FI(gru, gate_act), FI(gru, cand_act), FI(gru, go_backwards),
                 FI(gru, return_sequences), FLD_LAST(gru, proj_steps, 'i')}},
    [LP_ARG] = {"aot_arg_minmax_params",
                {FI(arg, outer), FI(arg, axis_size), FI(arg, inner), FI(arg, is_min),
                 FI(arg, in_type), FLD_LAST(arg, out_is_64, 'i')}},
    /* printed by lower_rec.c */
    [LP_SVDF] = {"aot_svdf_params", {{0}}},
    [LP_LSTM_F32] = {"aot_lstm_f32_params", {{0}}},
    [LP_LSTM_Q] = {"aot_lstm_q_params", {{0}}},
};

/* the int8 comparison's requantization */
static const lower_field cmp_s8_fields[] = {
    FI(cmp, left_shift), FI(cmp, in1_offset), FI(cmp, in1_mult), FI(cmp, in1_shift),
    FI(cmp, in2_offset), FI(cmp, in2_mult), FI(cmp, in2_shift), {0}};

static void fi(strbuf *sb, const char *name, int32_t v) {
  sb_printf(sb, "  .%s = ", name);
  ew_i32_text(sb, v);
  sb_puts(sb, ",\n");
}

static void ff(strbuf *sb, emit_ctx *e, const char *name, float v) {
  sb_printf(sb, "  .%s = %s,\n", name, emit_float(e, v));
}

static const char *reduce_op_name(int32_t op) {
  switch (op) {
    case AOT_REDUCE_SUM: return "AOT_REDUCE_SUM";
    case AOT_REDUCE_MEAN: return "AOT_REDUCE_MEAN";
    case AOT_REDUCE_MAX: return "AOT_REDUCE_MAX";
    default: return "AOT_REDUCE_MIN";
  }
}

/* ia_names: the emitted names of the call's int32 arrays ('a' fields). */
static void print_fields(strbuf *sb, emit_ctx *e, const lower_call *pl, const lower_field *f,
                         const char *const *ia_names) {
  static const char *const cmp_ops[] = {"AOT_CMP_EQUAL",        "AOT_CMP_NOT_EQUAL",
                                        "AOT_CMP_LESS",         "AOT_CMP_LESS_EQUAL",
                                        "AOT_CMP_GREATER",      "AOT_CMP_GREATER_EQUAL"};
  static const char *const rq_types[] = {"AOT_RQ_S8", "AOT_RQ_U8", "AOT_RQ_S16", "AOT_RQ_S32"};
  int cont = 0, na = 0;
  for (; f->name; f++) {
    const char *at = (const char *)pl + f->off;
    sb_printf(sb, "%s.%s = ", cont ? "" : "  ", f->name);
    switch (f->type) {
      case 'i': ew_i32_text(sb, *(const int32_t *)at); break;
      case 'f': sb_puts(sb, emit_float(e, *(const float *)at)); break;
      case 'b': ew_bcast_text(sb, (const aot_bcast *)at); break;
      case 'c': sb_puts(sb, cmp_ops[*(const int32_t *)at]); break;
      case 'r': sb_puts(sb, rq_types[*(const int32_t *)at & 3]); break;
      case 'o': sb_puts(sb, reduce_op_name(*(const int32_t *)at)); break;
      case 'a': sb_puts(sb, ia_names && na < 2 && ia_names[na] ? ia_names[na] : "NULL"), na++; break;
    }
    sb_puts(sb, f->more == 1 ? ", " : f->more == 2 ? "\n" : ",\n");
    cont = f->more == 1;
  }
}

static void print_params(strbuf *sb, emit_ctx *e, const lower_call *pl,
                         const char *const *ia_names, const char *lut_a,
                         const char *lut_b) {
  print_fields(sb, e, pl, lp_params[pl->k->kind].f, ia_names);
  switch (pl->k->kind) {
    case LP_COMPARE:
      if (pl->k == lower_kernel_get(LK(aot_compare_s8))) print_fields(sb, e, pl, cmp_s8_fields, NULL);
      break;
    case LP_LUT_S8: sb_printf(sb, "  .table = %s,\n", lut_a ? lut_a : "NULL"); break;
    case LP_SOFTMAX: {
      const aot_softmax_params *p = &pl->u.sm;
      if (p->input_mult || p->input_left_shift) {
        fi(sb, "input_mult", p->input_mult);
        fi(sb, "input_left_shift", p->input_left_shift);
      }
      if (p->diff_min) fi(sb, "diff_min", p->diff_min);
      if (p->reverse_scaling_divisor) {
        fi(sb, "reverse_scaling_divisor", p->reverse_scaling_divisor);
        fi(sb, "reverse_scaling_right_shift", p->reverse_scaling_right_shift);
      }
      if (p->beta != 0.0f) ff(sb, e, "beta", p->beta);
      if (lut_a && pl->nlut32) {
        sb_printf(sb, "  .exp_tab = %s,\n", lut_a);
        fi(sb, "exp_tab_n", pl->nlut32);
      } else if (lut_a) {
        sb_printf(sb, "  .exp_lut = %s,\n", lut_a);
        if (p->exp_tab_n) fi(sb, "exp_tab_n", p->exp_tab_n); /* two-class table */
      }
      if (lut_b) sb_printf(sb, "  .one_over_one_plus_x_lut = %s,\n", lut_b);
      break;
    }
    case LP_DEQUANT_PC:
      sb_printf(sb, "  .scales = %s,\n", lut_a);
      sb_printf(sb, "  .zero_points = %s,\n", lut_b);
      break;
  }
}

const char *lower_params_ctype(int kind) {
  return kind >= 0 && kind < (int)(sizeof lp_params / sizeof lp_params[0]) ? lp_params[kind].ctype
                                                                           : NULL;
}

/* ---- printing and running a list ------------------------------------------- */

static const char *arg_text(emit_ctx *e, int t) {
  return t >= 0 ? emit_ptr(e, t) : t == LOWER_SCRATCH ? emit_scratch_ptr(e) : "NULL";
}

static const void *arg_data(void *const *data, void *scratch, int t) {
  return t >= 0 ? data[t] : t == LOWER_SCRATCH ? scratch : NULL;
}

/* The call's params struct "static const <type> <pname> = {...};". */
static void emit_params(emit_ctx *e, const lower_call *pl, const char *pname,
                        const char *const *ia_names, const char *lut_a, const char *lut_b) {
  strbuf sb = {0};
  sb_printf(&sb, "static const %s %s = {\n", lp_params[pl->k->kind].ctype, pname);
  print_params(&sb, e, pl, ia_names, lut_a, lut_b);
  sb_puts(&sb, "};");
  emit_decl(e, "%s", sb.s);
  sb_free(&sb);
}

/* A wide call: the params, the constant arrays in argument order, the call
 * with each argument's cast. */
static int emit_wide(emit_ctx *e, lower_call *pl, const char *pname) {
  if (lower_rec_kind(pl->k->kind)) return lower_rec_emit(e, pl, pname);
  int na = pl->k->nin;
  if (na > LOWER_MAX_ARGS) return -1;
  emit_params(e, pl, pname, NULL, NULL, NULL);
  strbuf sb = {0};
  char *text[LOWER_MAX_ARGS] = {0};
  for (int i = 0; i < na; i++) {
    const lower_arg *a = &pl->arg[i];
    if (!a->adt || !a->data) continue;
    switch (a->adt) {
      case 'f': text[i] = xstrdup(emit_array_f32(e, a->name, a->data, a->n)); break;
      case 'b': text[i] = xstrdup(emit_array_i8(e, a->name, a->data, a->n)); break;
      case 'h': text[i] = xstrdup(emit_array_i16(e, a->name, a->data, a->n)); break;
      default: text[i] = xstrdup(emit_array_i32(e, a->name, a->data, a->n)); break;
    }
  }
  for (int i = 0; i < na; i++)
    if (!text[i]) text[i] = xstrdup(pl->arg[i].adt ? "NULL" : arg_text(e, pl->arg[i].t));
  sb_printf(&sb, "%s(&%s", pl->k->name, pname);
  for (int i = 0; i < na; i++) {
    sb_printf(&sb, ", %s%s", pl->arg[i].cast ? pl->arg[i].cast : "", text[i]);
    free(text[i]);
  }
  sb_puts(&sb, ")");
  emit_call(e, "%s", sb.s);
  sb_free(&sb);
  emit_kernel(e, pl->k->file);
  return 0;
}

static int emit_one(emit_ctx *e, lower_call *pl, const char *pname) {
  const char *lut_a = NULL, *lut_b = NULL;
  if (!pl->k || !lp_params[pl->k->kind].ctype) return -1;
  if (pl->k->kind < LP_ADDSUB) return lower_conv_emit(e, pl, pname);
  if (pl->k->nin > 3) return emit_wide(e, pl, pname);
  /* one int16 table of a SOFTMAX: the two-class kernel's T_max, T_other */
  if (pl->nlut16 == 1 && pl->k->kind == LP_SOFTMAX)
    lut_a = emit_array_i16(e, "sm2_tab", pl->lut16[0], (size_t)pl->u.sm.exp_tab_n);
  else if (pl->nlut16 >= 1) lut_a = emit_array_i16(e, "exp_lut", pl->lut16[0], 513);
  if (pl->nlut16 >= 2) lut_b = emit_array_i16(e, "recip_lut", pl->lut16[1], 513);
  if (pl->nlut8) lut_a = emit_array_i8(e, "lut", pl->lut8, 256);
  if (pl->nlut32) lut_a = emit_array_i32(e, "exp_tab", pl->lut32, (size_t)pl->nlut32);
  if (pl->nchan) {
    lut_a = emit_array_f32(e, "scales", pl->chan_scale, (size_t)pl->nchan);
    lut_b = emit_array_i32(e, "zero_points", pl->chan_zp, (size_t)pl->nchan);
  }
  const char *ia_names[2] = {NULL, NULL};
  int na = 0;
  for (const lower_field *f = lp_params[pl->k->kind].f; f->name; f++)
    if (f->type == 'a' && na < 2) {
      ia_names[na] = emit_array_i32(e, f->name, pl->ia[na], (size_t)pl->nia[na]);
      na++;
    }
  emit_params(e, pl, pname, ia_names, lut_a, lut_b);
  const char *a = arg_text(e, pl->in[0]);
  const char *b = arg_text(e, pl->in[1]);
  const char *c = arg_text(e, pl->in[2]);
  const char *y = emit_ptr(e, pl->out);
  switch (pl->k->nin) {
    case 1: emit_call(e, "%s(&%s, %s, %s)", pl->k->name, pname, a, y); break;
    case 2: emit_call(e, "%s(&%s, %s, %s, %s)", pl->k->name, pname, a, b, y); break;
    default: emit_call(e, "%s(&%s, %s, %s, %s, %s)", pl->k->name, pname, a, b, c, y); break;
  }
  emit_kernel(e, pl->k->file);
  return 0;
}

int lower_emit(emit_ctx *e, lower_list *L) {
  static const char *const feature_names[LF_COUNT] = {
#define LOWER_FEATURE_NAME(NAME) #NAME,
      LOWER_FEATURES(LOWER_FEATURE_NAME)
#undef LOWER_FEATURE_NAME
  };
  for (int i = 0; i < L->n; i++) {
    char pname[96];
    if (i == 0) snprintf(pname, sizeof pname, "%s_p", emit_opname(e));
    else snprintf(pname, sizeof pname, "%s_p%d", emit_opname(e), i);
    if (emit_one(e, &L->call[i], pname)) return -1;
    for (int f = 0; f < LF_COUNT; f++)
      if (L->call[i].features & (1u << f)) emit_feature(e, feature_names[f]);
  }
  return 0;
}

static int eval_one(lower_call *pl, void *const *data, void *scratch) {
  if (!pl->k) return -1;
  if (pl->k->kind < LP_ADDSUB) return lower_conv_eval(pl, data, scratch);
  if (pl->k->nin > 3) {
    void *argv[LOWER_MAX_ARGS];
    if (pl->k->nin > LOWER_MAX_ARGS) return -1;
    for (int i = 0; i < pl->k->nin; i++) {
      const lower_arg *a = &pl->arg[i];
      argv[i] = a->adt ? a->data : (void *)arg_data(data, scratch, a->t);
    }
    return (int)pl->k->fn(&pl->u, argv, NULL, NULL, NULL);
  }
  if (pl->nlut8) pl->u.lut.table = pl->lut8;
  if (pl->nchan) {
    pl->u.dpc.scales = pl->chan_scale;
    pl->u.dpc.zero_points = pl->chan_zp;
  }
  int na = 0;
  for (const lower_field *f = lp_params[pl->k->kind].f; f->name; f++)
    if (f->type == 'a' && na < 2) {
      const int32_t *arr = pl->ia[na++];
      memcpy((char *)pl + f->off, &arr, sizeof arr);
    }
  if (pl->k->kind == LP_SOFTMAX && pl->nlut16 >= 1) pl->u.sm.exp_lut = pl->lut16[0];
  if (pl->k->kind == LP_SOFTMAX && pl->nlut16 >= 2)
    pl->u.sm.one_over_one_plus_x_lut = pl->lut16[1];
  if (pl->k->kind == LP_SOFTMAX && pl->nlut32) {
    pl->u.sm.exp_tab = pl->lut32;
    pl->u.sm.exp_tab_n = pl->nlut32;
  }
  const void *a = arg_data(data, scratch, pl->in[0]);
  const void *b = arg_data(data, scratch, pl->in[1]);
  const void *c = arg_data(data, scratch, pl->in[2]);
  return (int)pl->k->fn(&pl->u, a, b, c, data[pl->out]);
}

int lower_eval(lower_list *L, void *const *data, void *scratch) {
  for (int i = 0; i < L->n; i++) {
    int st = eval_one(&L->call[i], data, scratch);
    if (st != 0) return st;
  }
  return 0;
}

void lower_release(lower_list *L) {
  for (int i = 0; i < LOWER_MAX_CALLS; i++) {
    lower_call *c = &L->call[i];
    free(c->chan_scale);
    free(c->chan_zp);
    c->chan_scale = NULL;
    c->chan_zp = NULL;
    c->nchan = 0;
    for (int a = 0; a < LOWER_MAX_ARGS; a++) {
      free(c->arg[a].data);
      c->arg[a].data = NULL;
    }
  }
  L->n = 0;
}

/* ---- the operator's side ---------------------------------------------------- */

/* Lists live on the heap: a call carries its tables (about 3 KB). */
static int lower_with(lower_op_fn f, const ir_graph *g, const ir_op *op, lower_list **out,
                      char *why, size_t n) {
  lower_list *L = xcalloc(1, sizeof *L);
  int rc = f ? f(g, op, L, why, n) : -1;
  if (rc == 0 && (L->n < 1 || L->n > LOWER_MAX_CALLS)) rc = -1, snprintf(why, n, "no kernel call");
  *out = L;
  return rc;
}

static void list_free(lower_list *L) {
  lower_release(L);
  free(L);
}

int lower_op(const op_impl *impl, const ir_graph *g, const ir_op *op, lower_list *L, char *why,
             size_t n) {
  memset(L, 0, sizeof *L);
  if (!impl || !impl->lower) return snprintf(why, n, "operator is not lowered"), -1;
  return impl->lower(g, op, L, why, n);
}

int lower_check(lower_op_fn f, const ir_graph *g, const ir_op *op, char *why, size_t n) {
  lower_list *L;
  int rc = lower_with(f, g, op, &L, why, n);
  list_free(L);
  return rc;
}

/* The scratch bytes the kernel of call c needs, from the size function the
 * kernel itself checks; 0 for kernels without scratch. An int8 CONV_2D whose
 * filter the Helium build reads packed (c->mve_pack) is sized as that build
 * sees its params (filter_packed: no packing buffer), the other builds'
 * needs as they see them (they ignore filter_packed). */
static size_t call_scratch(const lower_call *c) {
  const lower_kernel *k = c->k;
  if (k == lower_kernel_get(LK(aot_conv2d_s8))) {
    aot_conv_params p = c->u.conv.p;
    p.filter_packed = c->mve_pack;
    return aot_conv2d_s8_scratch_size(&p);
  }
  if (k == lower_kernel_get(LK(aot_dwconv2d_s8))) return aot_dwconv2d_s8_scratch_size(&c->u.conv.p);
  if (k == lower_kernel_get(LK(aot_conv2d_s16))) return aot_conv2d_s16_scratch_size(&c->u.conv.p);
  if (k == lower_kernel_get(LK(aot_tconv2d_s16)))
    return aot_tconv2d_s16_scratch_size(&c->u.conv.p);
  if (k == lower_kernel_get(LK(aot_conv2d_hybrid)))
    return aot_conv2d_hybrid_buffer_size(&c->u.conv.p);
  if (k == lower_kernel_get(LK(aot_dwconv2d_hybrid)))
    return aot_dwconv2d_hybrid_buffer_size(&c->u.conv.p);
  if (k == lower_kernel_get(LK(aot_fc_hybrid))) return aot_fc_hybrid_buffer_size(&c->u.fc.p);
  if (k == lower_kernel_get(LK(aot_add_s8_tab)) || k == lower_kernel_get(LK(aot_sub_s8_tab)))
    return aot_addsub_s8_scratch_size(&c->u.addsub);
  return 0;
}

size_t lower_scratch(lower_op_fn f, const ir_graph *g, const ir_op *op) {
  char why[256];
  lower_list *L;
  size_t r = 0;
  if (lower_with(f, g, op, &L, why, sizeof why) == 0 && L->n == 1) r = call_scratch(&L->call[0]);
  list_free(L);
  return r;
}

int op_emit(const op_impl *impl, emit_ctx *e, const ir_graph *g, const ir_op *op) {
  if (!impl) return -1;
  if (!impl->lower) return impl->emit ? impl->emit(e, g, op) : -1;
  char why[256];
  lower_list *L;
  int rc = lower_with(impl->lower, g, op, &L, why, sizeof why) ? -1 : lower_emit(e, L);
  list_free(L);
  return rc;
}

int op_eval(const op_impl *impl, const ir_graph *g, const ir_op *op, void *const *data,
            void *scratch) {
  if (!impl) return -1;
  if (!impl->lower) return impl->eval ? impl->eval(g, op, data, scratch) : -1;
  char why[256];
  lower_list *L;
  int rc = lower_with(impl->lower, g, op, &L, why, sizeof why) ? -1 : lower_eval(L, data, scratch);
  list_free(L);
  return rc;
}

int op_has_eval(const op_impl *impl) { return impl && (impl->lower || impl->eval); }
