/* lower_rec.h - the recurrent kinds of the lowering step (LP_SVDF,
 * LP_LSTM_F32, LP_LSTM_Q; lower_rec.c): their params type, their printing,
 * the host glue of their kernels.def rows (AOT_KERNEL_GLUE) and the helpers
 * the recurrent operators (op_recurrent.c, op_gru.c) share. */
#ifndef AOTC_LOWER_REC_H
#define AOTC_LOWER_REC_H

#include "lower.h"

/* 1 for the params kinds lower_rec.c prints. */
static inline int lower_rec_kind(int kind) { return kind >= LP_SVDF && kind <= LP_LSTM_Q; }
/* Prints one recurrent call (params "pname", its arrays, the call). */
int lower_rec_emit(emit_ctx *e, lower_call *pl, const char *pname);

/* Host glue of the AOT_KERNEL_GLUE rows (a lower_fn: a is the argument vector). */
#define AOT_KERNEL(NAME, FILE, KIND, NIN)
#define AOT_KERNEL_GLUE(NAME, FILE, KIND, NIN)                                                \
  int32_t lower_rec_##NAME(const void *p, const void *a, const void *b, const void *c, void *y);
#include "kernels.def"
#undef AOT_KERNEL_GLUE
#undef AOT_KERNEL

/* Argument i of wide call c: tensor t (an id, LOWER_SCRATCH or -1) with its
 * cast, or a constant array (adt as lower_arg; 'l' int64) owned by the call. */
void lower_rec_arg_t(lower_call *c, int i, int t, const char *cast);
void lower_rec_arg_a(lower_call *c, int i, char adt, const char *name, void *data, size_t n,
                     const char *cast);

/* Writes the reason into why (n bytes); returns -1. */
int lower_rec_why(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
