/* lower_rec.c - the recurrent kernels of the lowering step (SVDF and
 * UNIDIRECTIONAL_SEQUENCE_LSTM, lowered by op_recurrent.c): how their params
 * print, how their calls print, and the host glue that runs them (the
 * kernels.def rows AOT_KERNEL_GLUE, descriptor function lower_rec_<kernel>).
 *
 * A recurrent call is a wide call (lower_call.arg). Its first `nprint`
 * arguments are the module's, the last of them the scratch buffer: the SVDF
 * kernels take them as plain arguments, the LSTM kernels through a tensors
 * struct "<opname>_t" printed from a field table. Constant arrays among them
 * (packed weights, folded biases) print after the params, in argument order.
 * The packed kernels (aot_svdf_s8p_*, aot_lstm_s8p / s16p) carry, after
 * those, host-only arguments - the original weights and biases - and their
 * host function runs the portable kernel, the reference the packed ones are
 * tested against, on them with a scratch buffer of the portable kernel's own
 * size (the module's plan holds the packed kernel's). */
#include "lower_rec.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aot_recurrent.h"

/* ---- shared helpers of the recurrent operators ------------------------------- */

int lower_rec_why(char *why, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, n, fmt, ap);
  va_end(ap);
  return -1;
}

void lower_rec_arg_t(lower_call *c, int i, int t, const char *cast) {
  c->arg[i] = (lower_arg){.t = t, .cast = cast};
}

void lower_rec_arg_a(lower_call *c, int i, char adt, const char *name, void *data, size_t n,
                     const char *cast) {
  c->arg[i] = (lower_arg){.t = -1, .cast = cast, .adt = adt, .name = name, .data = data, .n = n};
}

/* ---- params ----------------------------------------------------------------- */

/* A printed params member: 'i' int32, 'f' float, 'g' the LSTM gate block. */
typedef struct rec_pfield {
  const char *name;
  size_t off;
  char type;
} rec_pfield;

#define RI(M, X) {#X, offsetof(lower_call, u.M.X), 'i'}
#define RF(M, X) {#X, offsetof(lower_call, u.M.X), 'f'}

static const rec_pfield p_svdf[] = {
    RI(svdf, batch),     RI(svdf, input_size), RI(svdf, num_filters), RI(svdf, num_units),
    RI(svdf, rank),      RI(svdf, memory_size), RI(svdf, input_zp),   RI(svdf, state_zp),
    RI(svdf, output_zp), RI(svdf, mult1),       RI(svdf, shift1),     RI(svdf, mult2),
    RI(svdf, shift2),    RI(svdf, activation),  {0}};
static const rec_pfield p_lstm_f[] = {
    RI(lstm_f, batch),       RI(lstm_f, time_steps), RI(lstm_f, input_size),
    RI(lstm_f, state_size),  RI(lstm_f, output_size), RI(lstm_f, time_major),
    RI(lstm_f, cell_act),    RF(lstm_f, cell_clip),  RF(lstm_f, proj_clip), {0}};
static const rec_pfield p_lstm_q[] = {
    RI(lstm_q, batch),     RI(lstm_q, time_steps),       RI(lstm_q, input_size),
    RI(lstm_q, state_size), RI(lstm_q, time_major),      RI(lstm_q, input_zp),
    RI(lstm_q, hidden_zp), RI(lstm_q, cell_act),         {"gate", offsetof(lower_call, u.lstm_q.gate), 'g'},
    RI(lstm_q, fc_mult),   RI(lstm_q, fc_shift),         RI(lstm_q, ig_mult),
    RI(lstm_q, ig_shift),  RI(lstm_q, hid_mult),         RI(lstm_q, hid_shift),
    RI(lstm_q, cell_scale_power), RI(lstm_q, cell_clip), {0}};

static const rec_pfield *const rec_params[] = {
    [LP_SVDF - LP_SVDF] = p_svdf,
    [LP_LSTM_F32 - LP_SVDF] = p_lstm_f,
    [LP_LSTM_Q - LP_SVDF] = p_lstm_q,
};

static void print_params(emit_ctx *e, const lower_call *pl, const char *pname) {
  strbuf sb = {0};
  sb_printf(&sb, "static const %s %s = {\n", lower_params_ctype(pl->k->kind), pname);
  for (const rec_pfield *f = rec_params[pl->k->kind - LP_SVDF]; f->name; f++) {
    const char *at = (const char *)pl + f->off;
    sb_printf(&sb, "  .%s = ", f->name);
    if (f->type == 'i') {
      sb_printf(&sb, "%d", (int)*(const int32_t *)at);
    } else if (f->type == 'f') {
      sb_puts(&sb, emit_float(e, *(const float *)at));
    } else {
      const aot_lstm_gate_q *gq = (const aot_lstm_gate_q *)at;
      sb_puts(&sb, "{ /* in_mult, in_shift, rec_mult, rec_shift: I, F, C, O */\n");
      for (int gi = 0; gi < 4; gi++)
        sb_printf(&sb, "    {%d, %d, %d, %d}%s\n", (int)gq[gi].in_mult, (int)gq[gi].in_shift,
                  (int)gq[gi].rec_mult, (int)gq[gi].rec_shift, gi < 3 ? "," : "");
      sb_puts(&sb, "  }");
    }
    sb_puts(&sb, f[1].name ? ",\n" : "\n");
  }
  sb_puts(&sb, "};");
  emit_decl(e, "%s", sb.s);
  sb_free(&sb);
}

/* ---- calls ------------------------------------------------------------------ */

/* A member of an LSTM tensors struct: arguments arg .. arg + n - 1 (n 1 or 4). */
typedef struct rec_tfield {
  const char *name;
  int arg, n;
} rec_tfield;

static const rec_tfield t_lstm_f32[] = {
    {"input", 0, 1}, {"w_in", 1, 4},   {"w_rec", 5, 4},   {"w_peep", 9, 4},
    {"bias", 13, 4}, {"ln", 17, 4},    {"w_proj", 21, 1}, {"b_proj", 22, 1},
    {"hidden", 23, 1}, {"cell", 24, 1}, {"output", 25, 1}, {0}};
static const rec_tfield t_lstm_q[] = {{"input", 0, 1},  {"w_in", 1, 4},  {"w_rec", 5, 4},
                                      {"bias", 9, 4},   {"hidden", 13, 1}, {"cell", 14, 1},
                                      {"output", 15, 1}, {0}};
static const rec_tfield t_lstm_s8p[] = {{"input", 0, 1}, {"w_in", 1, 1},   {"w_rec", 2, 1},
                                        {"b_in", 3, 1},  {"b_rec", 4, 1},  {"hidden", 5, 1},
                                        {"cell", 6, 1},  {"output", 7, 1}, {0}};
static const rec_tfield t_lstm_s16p[] = {{"input", 0, 1},  {"w_in", 1, 1}, {"w_rec", 2, 1},
                                         {"bias", 3, 1},   {"hidden", 4, 1}, {"cell", 5, 1},
                                         {"output", 6, 1}, {0}};

/* How a kernel's call prints: its module arguments and, for the LSTM
 * kernels, the tensors struct (NULL: a plain call). */
static void rec_form(int k, int *nprint, const rec_tfield **f) {
  *f = NULL;
  if (k == LK(aot_svdf_s8p_s16) || k == LK(aot_svdf_s8p_s8)) *nprint = 8;
  else if (k == LK(aot_lstm_f32)) *f = t_lstm_f32, *nprint = 27;
  else if (k == LK(aot_lstm_s8) || k == LK(aot_lstm_s16)) *f = t_lstm_q, *nprint = 17;
  else if (k == LK(aot_lstm_s8p)) *f = t_lstm_s8p, *nprint = 9;
  else if (k == LK(aot_lstm_s16p)) *f = t_lstm_s16p, *nprint = 8;
  else *nprint = 7; /* the portable SVDF kernels */
}

/* The text of a module argument (its constant array is emitted here). */
static const char *arg_text(emit_ctx *e, const lower_arg *a) {
  if (!a->adt) return a->t >= 0 ? emit_ptr(e, a->t) : a->t == LOWER_SCRATCH ? emit_scratch_ptr(e) : "NULL";
  switch (a->adt) {
    case 'b': return emit_array_i8(e, a->name, a->data, a->n);
    case 'l': return emit_array_i64(e, a->name, a->data, a->n);
    case 'f': return emit_array_f32(e, a->name, a->data, a->n);
    default: return emit_array_i32(e, a->name, a->data, a->n);
  }
}

int lower_rec_emit(emit_ctx *e, lower_call *pl, const char *pname) {
  int nprint;
  const rec_tfield *f;
  rec_form((int)(pl->k - lower_kernel_get(0)), &nprint, &f);
  if (nprint > pl->k->nin) return -1;
  print_params(e, pl, pname);
  const char *text[LOWER_MAX_ARGS];
  for (int i = 0; i < nprint; i++)
    if (pl->arg[i].adt) text[i] = arg_text(e, &pl->arg[i]);
  for (int i = 0; i < nprint; i++)
    if (!pl->arg[i].adt) text[i] = arg_text(e, &pl->arg[i]);
  const lower_arg *sc = &pl->arg[nprint - 1];
  if (!f) {
    strbuf sb = {0};
    sb_printf(&sb, "%s(&%s", pl->k->name, pname);
    for (int i = 0; i < nprint; i++)
      sb_printf(&sb, ", %s%s", pl->arg[i].cast ? pl->arg[i].cast : "", text[i]);
    sb_puts(&sb, ")");
    emit_call(e, "%s", sb.s);
    sb_free(&sb);
  } else {
    const char *nm = emit_opname(e);
    emit_stmt(e, "{");
    emit_stmt(e, "  const %s_tensors %s_t = {", pl->k->name, nm);
    for (; f->name; f++) {
      const char *end = f[1].name ? "," : "};";
      if (f->n == 4)
        emit_stmt(e, "  .%s = {%s, %s, %s, %s}%s", f->name, text[f->arg], text[f->arg + 1],
                  text[f->arg + 2], text[f->arg + 3], end);
      else
        emit_stmt(e, "  .%s = %s%s", f->name, text[f->arg], end);
    }
    emit_call(e, "%s(&%s, &%s_t, %s%s)", pl->k->name, pname, nm, sc->cast ? sc->cast : "",
              text[nprint - 1]);
    emit_stmt(e, "}");
  }
  emit_kernel(e, pl->k->file);
  return 0;
}

/* ---- host glue ---------------------------------------------------------------- */

#define REC_GLUE(K)                                                                           \
  int32_t lower_rec_##K(const void *p, const void *a, const void *b, const void *c, void *y) { \
    void *const *v = (void *const *)a;                                                        \
    (void)b;                                                                                  \
    (void)c;                                                                                  \
    (void)y;

REC_GLUE(aot_svdf_f32) return aot_svdf_f32(p, v[0], v[1], v[2], v[3], v[4], v[5], v[6]); }
REC_GLUE(aot_svdf_s8_s16) return aot_svdf_s8_s16(p, v[0], v[1], v[2], v[3], v[4], v[5], v[6]); }
REC_GLUE(aot_svdf_s8_s8) return aot_svdf_s8_s8(p, v[0], v[1], v[2], v[3], v[4], v[5], v[6]); }

/* packed SVDF: x, wf_packed, feat_bias, wt, bias_folded, state, output,
 * scratch, then the portable kernel's arguments from 8 on */
static int32_t svdf_host(const aot_svdf_params *p, void *const *v, int s16) {
  int32_t *own = calloc(1, aot_svdf_s8_buffer_size(p->batch, p->num_filters, p->num_units));
  if (!own) return -1;
  v += 8;
  int32_t rc = s16 ? aot_svdf_s8_s16(p, v[0], v[1], v[2], v[3], v[4], v[5], own)
                   : aot_svdf_s8_s8(p, v[0], v[1], v[2], v[3], v[4], v[5], own);
  free(own);
  return rc;
}
REC_GLUE(aot_svdf_s8p_s16) return svdf_host(p, v, 1); }
REC_GLUE(aot_svdf_s8p_s8) return svdf_host(p, v, 0); }

REC_GLUE(aot_lstm_f32)
  aot_lstm_f32_tensors t;
  t.input = v[0];
  for (int gi = 0; gi < 4; gi++) {
    t.w_in[gi] = v[1 + gi];
    t.w_rec[gi] = v[5 + gi];
    t.w_peep[gi] = v[9 + gi];
    t.bias[gi] = v[13 + gi];
    t.ln[gi] = v[17 + gi];
  }
  t.w_proj = v[21];
  t.b_proj = v[22];
  t.hidden = v[23];
  t.cell = v[24];
  t.output = v[25];
  return aot_lstm_f32(p, &t, v[26]);
}

/* The portable integer LSTM on v: input, w_in, w_rec and bias of each
 * gate, hidden, cell, output; scratch NULL: a buffer of its own size. */
#define REC_Q_FILL(T)                \
  do {                               \
    (T).input = v[0];                \
    for (int gi = 0; gi < 4; gi++) { \
      (T).w_in[gi] = v[1 + gi];      \
      (T).w_rec[gi] = v[5 + gi];     \
      (T).bias[gi] = v[9 + gi];      \
    }                                \
    (T).hidden = v[13];              \
    (T).cell = v[14];                \
    (T).output = v[15];              \
  } while (0)

static int32_t lstm_q_run(const aot_lstm_q_params *p, void *const *v, int s16, void *scratch) {
  void *own = NULL;
  if (!scratch && !(scratch = own = calloc(1, aot_lstm_q_buffer_size(p->batch, p->state_size))))
    return -1;
  int32_t rc;
  if (s16) {
    aot_lstm_s16_tensors t;
    REC_Q_FILL(t);
    rc = aot_lstm_s16(p, &t, scratch);
  } else {
    aot_lstm_s8_tensors t;
    REC_Q_FILL(t);
    rc = aot_lstm_s8(p, &t, scratch);
  }
  free(own);
  return rc;
}

REC_GLUE(aot_lstm_s8) return lstm_q_run(p, v, 0, v[16]); }
REC_GLUE(aot_lstm_s16) return lstm_q_run(p, v, 1, v[16]); }
/* packed: the module's 9 (int16: 8) arguments, then the portable kernel's */
REC_GLUE(aot_lstm_s8p) return lstm_q_run(p, v + 9, 0, NULL); }
REC_GLUE(aot_lstm_s16p) return lstm_q_run(p, v + 8, 1, NULL); }
