/* aot_ew_q.h - internal templates of the quantized (int8 / int16) ADD, SUB,
 * MUL and SQUARED_DIFFERENCE kernels, which differ per type only in the
 * element type, its Helium loads / stores and its range: each macro defines
 * the element function NAME_elem (the TFLite reference arithmetic), the fast
 * row functions of aot_ew_simd.h where they exist, and the exported kernel
 * NAME (prototypes in aot_elementwise.h). Unless AOT_NO_SIMD is defined, rows
 * with inner strides 0 or 1 run those fast paths (Helium: four lanes per
 * step; Arm DSP: SMMULR requantization), bit-identical to NAME_elem; other
 * rows, and parameters the fast paths cannot take, use NAME_elem. The
 * int16 flat ADD / SUB path (aot_ews_s16_flat) and the int8 MUL contiguous
 * rows (aot_ews_mul8_contig) of aot_ew_simd.h's scheme are defined here.
 * Invocations take no trailing ';'. */
#ifndef AOT_EW_Q_H
#define AOT_EW_Q_H

#include "aot_ew_simd.h"
#include "aot_features.h"   /* the paths this module compiles */

/* 1 when the int8 flat kernels compile no portable loop (AOT_EWS builds of a
 * module whose flat int8 ADD / SUB layers all take the rescale table) */
#if defined(AOT_EWS) && !AOT_F_EW_S8_FLATP
#define AOT_EWQ_TAB_ONLY 1
#else
#define AOT_EWQ_TAB_ONLY 0
#endif

#ifdef AOT_EWS
/* ---- int16 flat ADD / SUB, Arm DSP and scalar ------------------------------
 * Zero offsets (TFLite's int16) and a linear input as above: the table
 * input's rescaled value is rdb(SMMULR(v << 16, m)) (= srdhm(v << 15, m)),
 * X = 2S = +-2 s + +-(l << 15) fits int32 (|S| <= 2^30, the table input's
 * real multiplier being <= 1/2), and the output is the SMMLAR step of the
 * int8 table path, saturated to 16 bits. Returns 0 when it does not apply. */
#ifndef AOT_EWS_MVE
/* the constants of aot_ews_s16_row */
typedef struct aot_ews_s16k {
  aot_ews_rq qt;                      /* the table input's rescale */
  int32_t tin;                        /* 1: in2 is the table input */
  int32_t ft, cl, mo, add, e, cm, lo, hi;
} aot_ews_s16k;

AOT_INLINE int aot_ews_s16_setup(const aot_addsub_q_params *p, int sub, aot_ews_s16k *k) {
  aot_ews_rq q1, q2, qo;
  int64_t add64;
  if (p->left_shift != 15 || p->in1_offset != 0 || p->in2_offset != 0 ||
      p->act_min > p->act_max || p->act_min < -32768 || p->act_max > 32767)
    return 0;
  if (!aot_ews_rq_make(p->in1_mult, p->in1_shift, &q1) ||
      !aot_ews_rq_make(p->in2_mult, p->in2_shift, &q2) ||
      !aot_ews_rq_make(p->out_mult, p->out_shift, &qo))
    return 0;
  if (q2.e == 0 && q2.mult == (int32_t)1 << 30) k->tin = 0;
  else if (q1.e == 0 && q1.mult == (int32_t)1 << 30) k->tin = 1;
  else return 0;
  k->qt = k->tin ? q2 : q1;
  if (k->qt.e == 0 && k->qt.mult > (int32_t)1 << 30) return 0;
  add64 = (int64_t)p->out_offset * ((int64_t)1 << qo.e) + qo.rnd;
  if (add64 >= ((int64_t)1 << 30) || add64 <= -((int64_t)1 << 30)) return 0;
  k->cm = p->out_offset > p->act_min && qo.e > 0 ? -1 : 0;
  if (k->cm && qo.mult <= (int32_t)1 << 30) return 0;
  k->ft = sub && k->tin ? -2 : 2;
  k->cl = sub && !k->tin ? -32768 : 32768;
  k->mo = qo.mult;
  k->add = (int32_t)add64;
  k->e = qo.e;
  k->lo = p->act_min;
  k->hi = p->act_max;
  return 1;
}

/* n elements of the table input t and the linear input l (both contiguous) */
AOT_EWS_NOINLINE void aot_ews_s16_row(const aot_ews_s16k *k, const int16_t *t, const int16_t *l,
                                      int16_t *out, int32_t n) {
  const aot_ews_rq qt = k->qt;
  const int32_t ft = k->ft, cl = k->cl, mo = k->mo, add = k->add, e = k->e, cm = k->cm;
  const int32_t lo = k->lo, hi = k->hi;
  int32_t i;
#define AOT_EWS_S16_LOOP(FULL)                                                        \
  for (i = 0; i < n; i++) {                                                           \
    int32_t y = aot_ews_smmulr((int32_t)t[i] * 65536, qt.mult), x;                    \
    y = (y + qt.rnd + ((y >> 31) & qt.mask)) >> qt.e;                                 \
    x = y * ft + (int32_t)l[i] * cl;                                                  \
    y = aot_ews_smmlar(x, mo, add) + ((x >> 31) & cm);                                \
    y = aot_ews_ssat16(y >> e);                                                       \
    out[i] = (int16_t)((FULL) ? y : aot_ews_clamp(y, lo, hi));                        \
  }
/* the common case (full range, qt.e > 0) with the factors ft, cl and the
 * sign correction cm as constants: fewer live registers (no spills on Arm
 * DSP); X(y, v) = y * ft + v * cl, C: cm (0 or -1) */
#define AOT_EWS_S16_LOOPK(X, C)                                                       \
  {                                                                                   \
    const int32_t qm = qt.mult, qr = qt.rnd, qe = qt.e;                               \
    for (i = 0; i < n; i++) {                                                         \
      int32_t y = aot_ews_smmulr((int32_t)t[i] * 65536, qm), x;                       \
      y = (y + qr + (y >> 31)) >> qe;                                                 \
      x = X(y, (int32_t)l[i]);                                                        \
      y = aot_ews_smmlar(x, mo, add) + ((C) ? (x >> 31) : 0);                         \
      out[i] = (int16_t)aot_ews_ssat16(y >> e);                                       \
    }                                                                                 \
  }
#define AOT_EWS_S16_XADD(Y, V) ((Y) * 2 + (V) * 32768)
#define AOT_EWS_S16_XSUBT(Y, V) ((V) * 32768 - (Y) * 2)
#define AOT_EWS_S16_XSUBL(Y, V) ((Y) * 2 - (V) * 32768)
#define AOT_EWS_S16_LOOPX(C)                                                          \
  {                                                                                   \
    if (ft == 2 && cl == 32768) AOT_EWS_S16_LOOPK(AOT_EWS_S16_XADD, C)                \
    else if (ft == -2 && cl == 32768) AOT_EWS_S16_LOOPK(AOT_EWS_S16_XSUBT, C)         \
    else AOT_EWS_S16_LOOPK(AOT_EWS_S16_XSUBL, C)                                      \
  }
  if (lo == -32768 && hi == 32767 && qt.e > 0) {
    if (cm) AOT_EWS_S16_LOOPX(1)
    else AOT_EWS_S16_LOOPX(0)
  } else if (lo == -32768 && hi == 32767) {
    AOT_EWS_S16_LOOP(1)
  } else {
    AOT_EWS_S16_LOOP(0)
  }
}

AOT_EWS_NOINLINE int aot_ews_s16_flat(const aot_addsub_q_params *p, int sub, const int16_t *in1,
                                      const int16_t *in2, int16_t *out) {
  aot_ews_s16k k;
  if (!aot_ews_s16_setup(p, sub, &k)) return 0;
  if (k.tin) aot_ews_s16_row(&k, in2, in1, out, p->bc.size);
  else aot_ews_s16_row(&k, in1, in2, out, p->bc.size);
  return 1;
}

/* The same arithmetic over a broadcast whose rows are contiguous in both
 * inputs (inner strides 1: an input of the inner extents repeated over the
 * outer ones, e.g. [1, H, W, C] - [C]); 0 when it does not apply. */
AOT_EWS_NOINLINE int aot_ews_s16_bcast(const aot_addsub_q_params *p, int sub, const int16_t *in1,
                                       const int16_t *in2, int16_t *out) {
  const aot_bcast *bc = &p->bc;
  aot_ews_s16k k;
  aot_bcast_it it;
  int32_t r, rows, n;
  if (bc->ndims < 1 || bc->stride[0][bc->ndims - 1] != 1 || bc->stride[1][bc->ndims - 1] != 1)
    return 0;
  if (!aot_ews_s16_setup(p, sub, &k)) return 0;
  n = bc->shape[bc->ndims - 1];
  rows = aot_bcast_rows(bc);
  aot_bcast_begin(&it);
  for (r = 0; r < rows; r++, out += n) {
    if (k.tin) aot_ews_s16_row(&k, in2 + it.off[1], in1 + it.off[0], out, n);
    else aot_ews_s16_row(&k, in1 + it.off[0], in2 + it.off[1], out, n);
    aot_bcast_next(bc, &it);
  }
  return 1;
}
#define AOT_EWS_S16_FLAT(P, SUB, A, B, O) aot_ews_s16_flat((P), (SUB), (A), (B), (O))
#define AOT_EWS_S16_BCAST(P, SUB, A, B, O) aot_ews_s16_bcast((P), (SUB), (A), (B), (O))
#else
#define AOT_EWS_S16_FLAT(P, SUB, A, B, O) 0
#define AOT_EWS_S16_BCAST(P, SUB, A, B, O) 0
#endif

/* int8 MUL over contiguous inputs (q->c8): y = srdhm(x1 * x2 << lsh, mult)
 * (SMMULR of the doubled product; VQRDMULH), out = clamp(floor((y + add -
 * [y < 0]) / 2^e), lo, hi): the rounding of aot_ews_mul_s with the output
 * offset folded into the addend. */
AOT_EWS_NOINLINE void aot_ews_mul8_contig(const aot_ews_mul *q, const int8_t *a, const int8_t *b,
                                          int8_t *o, int32_t n) {
  const int32_t o1 = q->off1, o2 = q->off2, m = q->mult, add = q->add, e = q->r.e;
  const int32_t lo = q->lo, hi = q->hi;
#ifdef AOT_EWS_MVE
  const int32_t lsh = q->lsh, sh = 24 - e;
  const int32x4_t vcm = vdupq_n_s32(q->cm), vlo = vdupq_n_s32(lo), vhi = vdupq_n_s32(hi);
#define AOT_EWS_MUL8_STEP(LA, LB, STO)                                                \
  {                                                                                   \
    const int32x4_t x = vshlq_r_s32(vmulq_s32(vaddq_n_s32(LA, o1), vaddq_n_s32(LB, o2)), lsh); \
    int32x4_t y = vaddq_n_s32(vandq_s32(vshrq_n_s32(x, 31), vcm), add);               \
    y = vshrq_n_s32(vqshlq_r_s32(vqrdmlahq_n_s32(y, x, m), sh), 24);                  \
    STO(vmaxq_s32(vminq_s32(y, vhi), vlo));                                           \
  }
#define AOT_EWS_MUL8_SU(V) vstrbq_s32(o, (V))
#define AOT_EWS_MUL8_SP(V) vstrbq_p_s32(o, (V), pr)
  for (; n >= 4; n -= 4, a += 4, b += 4, o += 4)
    AOT_EWS_MUL8_STEP(vldrbq_s32(a), vldrbq_s32(b), AOT_EWS_MUL8_SU)
  if (n > 0) {
    const mve_pred16_t pr = vctp32q((uint32_t)n);
    AOT_EWS_MUL8_STEP(vldrbq_z_s32(a, pr), vldrbq_z_s32(b, pr), AOT_EWS_MUL8_SP)
  }
#else
  /* x1 = (a + o1) * 2^(lsh + 1): the doubled, shifted product for SMMULR */
  const int32_t k = (int32_t)2 << q->lsh, o1k = o1 * k, mask = q->r.mask;
  int32_t i;
#define AOT_EWS_MUL8_LOOP(FULL)                                                       \
  for (i = 0; i < n; i++) {                                                           \
    const int32_t y = aot_ews_smmulr(((int32_t)a[i] * k + o1k) * ((int32_t)b[i] + o2), m); \
    const int32_t r = aot_ews_ssat8((y + add + ((y >> 31) & mask)) >> e);             \
    o[i] = (int8_t)((FULL) ? r : aot_ews_clamp(r, lo, hi));                           \
  }
  if (lo == -128 && hi == 127) AOT_EWS_MUL8_LOOP(1)
  else AOT_EWS_MUL8_LOOP(0)
#endif
}

#endif /* AOT_EWS */

#ifdef AOT_EWS
#define AOT_EWQ_ADDSUB_ROWS(NAME, T, OPR, VOP, LD, ST, BOUNDED)                 \
  AOT_EWS_ADDSUB_ROW(NAME##_row, T, OPR, VOP, LD, ST, BOUNDED)
/* the fast path of an ADD / SUB kernel body: RUN on the setup q, then
 * return; RANGE and BITS as aot_ews_addsub_setup, PREFER 1 for a
 * commutative operator */
#define AOT_EWQ_ADDSUB_WITH(RANGE, BITS, PREFER, RUN)                           \
  {                                                                             \
    aot_ews_addsub q;                                                           \
    if (aot_ews_addsub_setup(p, RANGE, BITS, &q)) {                             \
      if (PREFER) aot_ews_prefer_fast(&q);                                      \
      q.fast = aot_ews_is_fast(&q);                                             \
      RUN;                                                                      \
      return AOT_KERNEL_OK;                                                     \
    }                                                                           \
  }
#define AOT_EWQ_ADDSUB_TRY(NAME, RANGE, BITS, PREFER, TAB)                      \
  if (!(TAB) && AOT_EWS_S16_BCAST(p, !(PREFER), (const int16_t *)in1,           \
                                  (const int16_t *)in2, (int16_t *)out))        \
    return AOT_KERNEL_OK;                                                       \
  AOT_EWQ_ADDSUB_WITH(RANGE, BITS, PREFER,                                      \
                      AOT_EWS_ROWS(&p->bc, in1, in2, out, NAME##_row, &q, NAME##_elem, p))
/* the same for NAME_flat (equal shapes): the contiguous row alone; int8
 * (TAB 1): the portable loop (the layers the rescale table takes call
 * NAME_tab, AOT_EWQ_ADDSUB_TAB; a flat module then links no contiguous-row
 * code); int16 (TAB 0, not Helium): aot_ews_s16_flat when it applies, else
 * the contiguous row */
#define AOT_EWQ_ADDSUB_FLAT_TRY(NAME, RANGE, BITS, PREFER, TAB)                 \
  if (!(TAB) && AOT_EWS_S16_FLAT(p, !(PREFER), (const int16_t *)in1,            \
                                 (const int16_t *)in2, (int16_t *)out))         \
    return AOT_KERNEL_OK;                                                       \
  if (!(TAB))                                                                   \
  AOT_EWQ_ADDSUB_WITH(RANGE, BITS, PREFER,                                      \
                      if (q.swap) NAME##_row_contig(&q, in2, in1, out, p->bc.size); \
                      else NAME##_row_contig(&q, in1, in2, out, p->bc.size))
/* the body of an int8 table kernel (AOT_EWQ_ADDSUB_TAB): the rescale table
 * in the scratch (SUB: PREFER 0); ELEM the element function (unused) */
#define AOT_EWQ_ADDSUB_TAB_RUN(ELEM, PREFER)                                    \
  {                                                                             \
    aot_ews_tabk k;                                                             \
    if (!scratch || aot_addsub_s8_scratch_size(p) == 0) return AOT_KERNEL_BAD_PARAM; \
    aot_ews_tab_setup(p, !(PREFER), (int32_t *)scratch, &k);                    \
    if (k.tin) aot_ews_tab_run(&k, in2, in1, out, p->bc.size);                  \
    else aot_ews_tab_run(&k, in1, in2, out, p->bc.size);                        \
    return AOT_KERNEL_OK;                                                       \
  }
#define AOT_EWQ_MUL_ROWS(NAME, T, LD, ST) AOT_EWS_MUL_ROW(NAME##_row, T, LD, ST)
#define AOT_EWQ_MUL_TRY(NAME)                                                   \
  {                                                                             \
    aot_ews_mul q;                                                              \
    if (aot_ews_mul_setup(p, (int)sizeof *in1, &q)) {                           \
      AOT_EWS_ROWS(&p->bc, in1, in2, out, NAME##_row, &q, NAME##_elem, p);      \
      return AOT_KERNEL_OK;                                                     \
    }                                                                           \
  }
#else
#define AOT_EWQ_ADDSUB_ROWS(NAME, T, OPR, VOP, LD, ST, BOUNDED)
#define AOT_EWQ_ADDSUB_TRY(NAME, RANGE, BITS, PREFER, TAB)
#define AOT_EWQ_ADDSUB_FLAT_TRY(NAME, RANGE, BITS, PREFER, TAB)
/* the portable build: the flat loop of ELEM, the scratch unused */
#define AOT_EWQ_ADDSUB_TAB_RUN(ELEM, PREFER)                                    \
  {                                                                             \
    int32_t i;                                                                  \
    (void)scratch;                                                              \
    if (p->bc.ndims != 0) return AOT_KERNEL_BAD_PARAM;                          \
    for (i = 0; i < p->bc.size; i++) out[i] = ELEM(p, in1[i], in2[i]);          \
    return AOT_KERNEL_OK;                                                       \
  }
#define AOT_EWQ_MUL_ROWS(NAME, T, LD, ST)
#define AOT_EWQ_MUL_TRY(NAME)
#endif

/* ADD (OPR +) / SUB (OPR -), TFLite general quantized path (reference_ops
 * AddElementwise / SubElementwise): both inputs are rescaled to a common
 * scale with left_shift headroom, then combined and rescaled to the output.
 * Defines NAME_run and FLAT_run, the bodies of the kernels NAME and FLAT
 * the kernel file defines (so that each names its variant macro next to
 * them). FLAT (NAME_flat) is the kernel for inputs of the output's shape
 * (bc.ndims 0, as aotc emits it for such layers): the contiguous row alone,
 * so a module without broadcasting links no broadcast walk; int8 (TAB 1)
 * keeps its portable loop only with AOT_F_EW_S8_FLATP (a layer the table
 * does not take) or without AOT_EWS.
 * VOP, LD, ST, BOUNDED, RANGE, BITS, PREFER: see AOT_EWS_ADDSUB_ROW; TAB 1
 * (int8): the rescale table path of aot_ews_tab_run. */
#define AOT_EWQ_ADDSUB(NAME, FLAT, T, OPR, VOP, LD, ST, BOUNDED, RANGE, BITS, PREFER, TAB) \
  AOT_INLINE T NAME##_elem(const aot_addsub_q_params *p, T a, T b) {            \
    const int32_t x1 = aot_shl_i32(p->in1_offset + a, p->left_shift);           \
    const int32_t x2 = aot_shl_i32(p->in2_offset + b, p->left_shift);           \
    const int32_t s1 = aot_mbqm_lt1(x1, p->in1_mult, p->in1_shift);             \
    const int32_t s2 = aot_mbqm_lt1(x2, p->in2_mult, p->in2_shift);             \
    const int32_t raw = aot_mbqm_lt1(s1 OPR s2, p->out_mult, p->out_shift) + p->out_offset; \
    return (T)aot_clamp_i32(raw, p->act_min, p->act_max);                       \
  }                                                                             \
  AOT_EWQ_ADDSUB_ROWS(NAME, T, OPR, VOP, LD, ST, BOUNDED)                       \
  AOT_INLINE int32_t NAME##_run(const aot_addsub_q_params *p, const T *in1, const T *in2, \
                                 T *out) {                                      \
    AOT_EWQ_ADDSUB_TRY(NAME, RANGE, BITS, PREFER, TAB)                          \
    AOT_EW_BINARY(&p->bc, in1, in2, out, NAME##_elem, p);                       \
    return AOT_KERNEL_OK;                                                       \
  }                                                                             \
  AOT_INLINE int32_t FLAT##_run(const aot_addsub_q_params *p, const T *in1, const T *in2, \
                                T *out) {                                       \
    int32_t i;                                                                  \
    if (p->bc.ndims != 0) return AOT_KERNEL_BAD_PARAM;                          \
    AOT_EWQ_ADDSUB_FLAT_TRY(NAME, RANGE, BITS, PREFER, TAB)                     \
    if ((TAB) && AOT_EWQ_TAB_ONLY) return AOT_KERNEL_BAD_PARAM; /* aot_features.h */ \
    for (i = 0; i < p->bc.size; i++) out[i] = NAME##_elem(p, in1[i], in2[i]);   \
    return AOT_KERNEL_OK;                                                       \
  }

/* int8 ADD / SUB of equal shapes through the rescale table of
 * aot_ew_simd.h in the caller's scratch (aot_addsub_s8_scratch_size):
 * defines TABK_run(p, in1, in2, out, scratch), the body of the kernel TABK,
 * after AOT_EWQ_ADDSUB(NAME, ...) of the same file (NAME_elem); PREFER as
 * there. Without AOT_EWS: the portable loop. */
#define AOT_EWQ_ADDSUB_TAB(NAME, TABK, PREFER)                                  \
  AOT_INLINE int32_t TABK##_run(const aot_addsub_q_params *p, const int8_t *in1, \
                                const int8_t *in2, int8_t *out, void *scratch)  \
    AOT_EWQ_ADDSUB_TAB_RUN(NAME##_elem, PREFER)

/* MUL (reference_integer_ops MulElementwise): the product of the offset
 * inputs rescaled with one multiplier. LD, ST: see AOT_EWS_MUL_ROW.
 * AOT_EWQ_MUL_BODY defines NAME_run, the body of the kernel NAME the kernel
 * file defines; AOT_EWQ_MUL defines NAME too. */
#define AOT_EWQ_MUL_BODY(NAME, T, LD, ST)                                       \
  AOT_INLINE T NAME##_elem(const aot_mul_q_params *p, T a, T b) {               \
    const int32_t x1 = p->in1_offset + a;                                       \
    const int32_t x2 = p->in2_offset + b;                                       \
    const int32_t raw = p->out_offset + aot_mbqm(x1 * x2, p->out_mult, p->out_shift); \
    return (T)aot_clamp_i32(raw, p->act_min, p->act_max);                       \
  }                                                                             \
  AOT_EWQ_MUL_ROWS(NAME, T, LD, ST)                                             \
  AOT_INLINE int32_t NAME##_run(const aot_mul_q_params *p, const T *in1, const T *in2, \
                                T *out) {                                       \
    AOT_EWQ_MUL_TRY(NAME)                                                       \
    AOT_EW_BINARY(&p->bc, in1, in2, out, NAME##_elem, p);                       \
    return AOT_KERNEL_OK;                                                       \
  }
#define AOT_EWQ_MUL_DEF(NAME, T)                                                \
  int32_t NAME(const aot_mul_q_params *p, const T *in1, const T *in2, T *out) { \
    return NAME##_run(p, in1, in2, out);                                        \
  }
#define AOT_EWQ_MUL(NAME, T, LD, ST)                                            \
  AOT_EWQ_MUL_BODY(NAME, T, LD, ST)                                             \
  AOT_EWQ_MUL_DEF(NAME, T)

/* SQUARED_DIFFERENCE (TFLM): both inputs rescaled to a common scale
 * (left_shift headroom), the difference squared (saturated to INT32_MAX) and
 * rescaled to the output with a general multiplier; clamped to [act_min,
 * act_max]. No fast path. */
#define AOT_EWQ_SQUARED_DIFF(NAME, T)                                           \
  AOT_INLINE T NAME##_elem(const aot_addsub_q_params *p, T a, T b) {            \
    const int32_t x1 = aot_shl_i32(p->in1_offset + a, p->left_shift);           \
    const int32_t x2 = aot_shl_i32(p->in2_offset + b, p->left_shift);           \
    const int32_t d = aot_mbqm_lt1(x1, p->in1_mult, p->in1_shift) -             \
                      aot_mbqm_lt1(x2, p->in2_mult, p->in2_shift);              \
    const uint32_t sq = (uint32_t)d * (uint32_t)d;                              \
    const int32_t sq32 = sq <= (uint32_t)INT32_MAX ? (int32_t)sq : INT32_MAX;   \
    const int32_t raw = aot_mbqm(sq32, p->out_mult, p->out_shift) + p->out_offset; \
    return (T)aot_clamp_i32(raw, p->act_min, p->act_max);                       \
  }                                                                             \
  int32_t NAME(const aot_addsub_q_params *p, const T *in1, const T *in2, T *out) { \
    AOT_EW_BINARY(&p->bc, in1, in2, out, NAME##_elem, p);                       \
    return AOT_KERNEL_OK;                                                       \
  }

#endif /* AOT_EW_Q_H */
