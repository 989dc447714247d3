/* ew_rec_kernels.c - check of the fast quantized ADD / SUB / MUL (int8 and
 * int16) kernels of runtime/aot_ew_simd.h against the portable kernels.
 *
 * The kernels as built for this target (aot_*: Helium on Cortex-M55, Arm DSP
 * on Cortex-M4, the fast scalar paths on the host) are compared byte for
 * byte with the same files compiled with AOT_NO_SIMD (ref_*,
 * ew_rec_ref_kernels.c) on random cases: output shapes of rank 0-4 with
 * every input dimension either full or broadcast (scalars, innermost
 * contiguous blocks, outer broadcasts, both inputs broadcast), strides that
 * are not 0/1 (the portable fallback), row lengths that are not multiples of
 * 4, random zero points, scales that give every shift (the larger input's
 * multiplier of exactly 0.5), power-of-two scale ratios (exact multipliers,
 * many rounding ties), fused activation ranges, in-place operation
 * (output = input 1), and the bytes after the output (nothing written past
 * it). Prints one line per failure and "N passed, M failed"; exit status 0
 * when everything passed. Built and run by tests/integration/test_simd_ew_rec.sh
 * on the host, Cortex-M4 and Cortex-M55. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "aot_ew_simd.h"
#include "aot_rec_simd.h"
#include "aot_recurrent.h"

int32_t ref_add_s8(const aot_addsub_q_params *p, const int8_t *a, const int8_t *b, int8_t *o);
int32_t ref_sub_s8(const aot_addsub_q_params *p, const int8_t *a, const int8_t *b, int8_t *o);
int32_t ref_mul_s8(const aot_mul_q_params *p, const int8_t *a, const int8_t *b, int8_t *o);
int32_t ref_add_s16(const aot_addsub_q_params *p, const int16_t *a, const int16_t *b,
                    int16_t *o);
int32_t ref_sub_s16(const aot_addsub_q_params *p, const int16_t *a, const int16_t *b,
                    int16_t *o);
int32_t ref_mul_s16(const aot_mul_q_params *p, const int16_t *a, const int16_t *b,
                    int16_t *o);

int32_t ref_svdf_s8_s8(const aot_svdf_params *p, const int8_t *input, const int8_t *wf,
                       const int8_t *wt, const int32_t *bias, int8_t *state, int8_t *output,
                       int32_t *scratch);
int32_t ref_svdf_s8_s16(const aot_svdf_params *p, const int8_t *input, const int8_t *wf,
                        const int16_t *wt, const int32_t *bias, int16_t *state, int8_t *output,
                        int32_t *scratch);
int32_t ref_lstm_s8(const aot_lstm_q_params *p, const aot_lstm_s8_tensors *t, int16_t *scratch);
int32_t ref_lstm_s16(const aot_lstm_q_params *p, const aot_lstm_s16_tensors *t, int16_t *scratch);

#define KC_SEED 0x2545F491u
#include "kernel_check.h"

static double runit(void) { return (double)(rnd() & 0xFFFFFF) / 16777216.0; }

/* TFLite QuantizeMultiplier (shift > 0 = left). */
static void qm(double r, int32_t *m, int32_t *s) {
  int e;
  double f;
  int64_t q;
  if (r == 0.0) {
    *m = 0;
    *s = 0;
    return;
  }
  f = frexp(r, &e);
  q = (int64_t)llround(f * 2147483648.0);
  if (q == ((int64_t)1 << 31)) {
    q /= 2;
    e++;
  }
  if (e < -31) {
    e = 0;
    q = 0;
  }
  *m = (int32_t)q;
  *s = e;
}

#define MAXN 700
#define GUARD 16
static int8_t a8[2 * MAXN], b8[2 * MAXN], o8[MAXN + GUARD], r8[MAXN + GUARD];
static int16_t a16[2 * MAXN], b16[2 * MAXN], o16[MAXN + GUARD], r16[MAXN + GUARD];

/* A random broadcast: returns the output size; na, nb the input sizes. */
static int32_t make_bcast(aot_bcast *bc, int32_t *na, int32_t *nb) {
  int32_t nd = rr(0, 4), d, k, shp[4], size = 1;
  memset(bc, 0, sizeof *bc);
  if (nd == 0) {
    size = rr(1, 300);
    bc->size = size;
    *na = *nb = size;
    return size;
  }
  for (d = 0; d < nd; d++) {
    shp[d] = rr(1, d == nd - 1 ? 40 : 6);
    size *= shp[d];
  }
  if (size > MAXN) return make_bcast(bc, na, nb);
  bc->ndims = nd;
  bc->size = size;
  for (d = 0; d < nd; d++) bc->shape[d] = shp[d];
  for (k = 0; k < 2; k++) {
    int32_t st = 1, mode = rr(0, 4), scale = rr(0, 5) == 0 ? 2 : 1;
    for (d = nd - 1; d >= 0; d--) {
      int bcast = mode == 0 ? 0 : mode == 1 ? 1 : (int)(rnd() & 1);
      if (bcast && shp[d] > 1) {
        bc->stride[k][d] = 0;
      } else {
        bc->stride[k][d] = st * scale; /* scale 2: a strided (non-contiguous) input */
        st *= shp[d];
      }
    }
    if (k == 0) *na = st * scale;
    else *nb = st * scale;
  }
  return size;
}

static void fill8(int8_t *v, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++) v[i] = (int8_t)rr(-128, 127);
}
static void fill16(int16_t *v, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++) v[i] = (int16_t)(rr(0, 7) == 0 ? (rr(0, 1) ? 32767 : -32768) : rr(-32768, 32767));
}

static void act_range(int32_t qmin, int32_t qmax, int32_t zo, int32_t *lo, int32_t *hi) {
  int kind = rr(0, 3);
  *lo = qmin;
  *hi = qmax;
  if (kind == 1) *lo = zo; /* RELU */
  if (kind == 2) {
    *lo = rr(qmin, zo);
    *hi = rr(zo, qmax);
  }
}

static void addsub_params(aot_addsub_q_params *p, int is16) {
  const int32_t qmin = is16 ? -32768 : -128, qmax = is16 ? 32767 : 127;
  double s1 = 0.001 + runit() * 0.1, s2 = rr(0, 3) == 0 ? s1 : 0.001 + runit() * 0.1, so;
  double tm, r1, r2, ro;
  int32_t z1 = is16 ? (rr(0, 3) ? 0 : rr(-300, 300)) : rr(-128, 127);
  int32_t z2 = is16 ? (rr(0, 3) ? 0 : rr(-300, 300)) : rr(-128, 127);
  int32_t zo = is16 ? (rr(0, 3) ? 0 : rr(-300, 300)) : rr(-128, 127);
  if (rr(0, 4) == 0) s2 = s1 * (0.001 + runit() * 0.01); /* very different scales */
  so = (s1 > s2 ? s1 : s2) * (0.2 + runit() * 3.0);
  if (rr(0, 2) == 0) {
    /* power-of-two scale ratios: exact multipliers, so rounding ties are frequent */
    static const double k[4] = {1.0, 3.0, 5.0, 7.0};
    s1 = ldexp(1.0, -rr(3, 10));
    s2 = s1 * k[rr(0, 3)] / ldexp(1.0, rr(0, 1) ? rr(1, 6) : rr(19, 25));
    if (rnd() & 1) {
      const double t = s1;
      s1 = s2;
      s2 = t;
    }
    so = (s1 > s2 ? s1 : s2) * ldexp(1.0, rr(-3, 2)) * k[rr(0, 3)];
  }
  p->left_shift = is16 ? 15 : 20;
  tm = 2.0 * (s1 > s2 ? s1 : s2);
  r1 = s1 / tm;
  r2 = s2 / tm;
  ro = tm / ((double)(1 << p->left_shift) * so);
  qm(r1, &p->in1_mult, &p->in1_shift);
  qm(r2, &p->in2_mult, &p->in2_shift);
  qm(ro, &p->out_mult, &p->out_shift);
  p->in1_offset = -z1;
  p->in2_offset = -z2;
  p->out_offset = zo;
  act_range(qmin, qmax, zo, &p->act_min, &p->act_max);
}

static void mul_params(aot_mul_q_params *p, int is16) {
  const int32_t qmin = is16 ? -32768 : -128, qmax = is16 ? 32767 : 127;
  double s1 = 0.001 + runit() * 0.1, s2 = 0.001 + runit() * 0.1;
  double so = s1 * s2 * (rr(0, 1) ? (0.001 + runit()) : (1.0 + runit() * 3000.0));
  int32_t zo = is16 ? 0 : rr(-128, 127);
  if (rr(0, 2) == 0) so = s1 * s2 * ldexp(1.0, rr(-6, 6)) * (double)rr(1, 7);
  qm(s1 * s2 / so, &p->out_mult, &p->out_shift);
  p->in1_offset = is16 ? 0 : -rr(-128, 127);
  p->in2_offset = is16 ? 0 : -rr(-128, 127);
  p->out_offset = zo;
  act_range(qmin, qmax, zo, &p->act_min, &p->act_max);
}

/* FLAT (HAS_FLAT 1): the kernel's equal-shapes entry point, compared too on
 * the cases without broadcast (bc.ndims 0) */
#define RUN_CASE(T, A, B, O, R, FILL, KERNEL, REF, PARAMS, PTYPE, IS16, NAME, HAS_FLAT, FLAT) \
  do {                                                                                 \
    PTYPE p;                                                                           \
    int32_t na, nb, size, inplace;                                                     \
    memset(&p, 0, sizeof p);                                                           \
    PARAMS(&p, IS16);                                                                  \
    size = make_bcast(&p.bc, &na, &nb);                                                \
    inplace = p.bc.ndims == 0 && (rnd() & 1);                                          \
    FILL(A, na);                                                                       \
    FILL(B, nb);                                                                       \
    memset(O, 0x5A, sizeof O);                                                         \
    memset(R, 0x5A, sizeof R);                                                         \
    if (inplace) {                                                                     \
      REF(&p, A, B, R);                                                                \
      memcpy(O, A, (size_t)size * sizeof(T));                                          \
      KERNEL(&p, O, B, O);                                                             \
    } else {                                                                           \
      REF(&p, A, B, R);                                                                \
      KERNEL(&p, A, B, O);                                                             \
    }                                                                                  \
    check(memcmp(O, R, sizeof O) == 0, NAME, c);                                       \
    if ((HAS_FLAT) && p.bc.ndims == 0 && !inplace) {                                   \
      memset(O, 0x5A, sizeof O);                                                       \
      check(FLAT(&p, A, B, O) == AOT_KERNEL_OK && memcmp(O, R, sizeof O) == 0,         \
            NAME "_flat", c);                                                          \
    }                                                                                  \
  } while (0)

/* Flat int8 ADD / SUB: the layers the rescale table takes
 * (aot_addsub_s8_scratch_size > 0: from AOT_EWS_TAB_MIN elements on) through
 * aot_{add,sub}_s8_tab with the table in a scratch buffer of exactly that
 * size, followed by a guard that must stay untouched (and the portable
 * build's ref_*_tab, which ignores the buffer, must agree too), the others
 * through aot_{add,sub}_s8_flat: sizes 1..MAXN, a third of the cases with a
 * ReLU whose zero point is -128 (the FAST loop), in place or not. */
#define TAB_GUARD 64
static int32_t tab_scr[(AOT_EWS_TAB_BYTES + TAB_GUARD) / 4];
static int tab_cases;
int32_t ref_add_s8_tab(const aot_addsub_q_params *p, const int8_t *a, const int8_t *b,
                       int8_t *o, void *scratch);
int32_t ref_sub_s8_tab(const aot_addsub_q_params *p, const int8_t *a, const int8_t *b,
                       int8_t *o, void *scratch);
static int guard_ok(const void *buf, size_t from, size_t to) {
  const unsigned char *u = (const unsigned char *)buf;
  size_t i;
  for (i = from; i < to; i++)
    if (u[i] != 0xA5) return 0;
  return 1;
}
static void flat8_case(int c) {
  int k;
  for (k = 0; k < 2; k++) {
    aot_addsub_q_params p;
    int32_t n, inplace = rr(0, 3) == 0, rc;
    size_t sz;
    int8_t *x = a8, *y = b8;
    int32_t (*ker)(const aot_addsub_q_params *, const int8_t *, const int8_t *, int8_t *) =
        k ? aot_sub_s8_flat : aot_add_s8_flat;
    int32_t (*tab)(const aot_addsub_q_params *, const int8_t *, const int8_t *, int8_t *,
                   void *) = k ? aot_sub_s8_tab : aot_add_s8_tab;
    int32_t (*rtab)(const aot_addsub_q_params *, const int8_t *, const int8_t *, int8_t *,
                    void *) = k ? ref_sub_s8_tab : ref_add_s8_tab;
    int32_t (*ref)(const aot_addsub_q_params *, const int8_t *, const int8_t *, int8_t *) =
        k ? ref_sub_s8 : ref_add_s8;
    memset(&p, 0, sizeof p);
    addsub_params(&p, 0);
    if (rr(0, 2) == 0) {
      p.out_offset = -128;
      p.act_min = -128;
      p.act_max = 127;
    }
    n = rr(0, 3) == 0 ? rr(1, 40) : rr(1, MAXN);
    p.bc.size = n;
    sz = aot_addsub_s8_scratch_size(&p);
    check(sz == 0 || sz == AOT_EWS_TAB_BYTES, "flat8 scratch size", c);
    if (sz > AOT_EWS_TAB_BYTES) sz = AOT_EWS_TAB_BYTES;
    fill8(a8, n);
    fill8(b8, n);
    memset(o8, 0x5A, sizeof o8);
    memset(r8, 0x5A, sizeof r8);
    memset(tab_scr, 0xA5, sizeof tab_scr);
    ref(&p, a8, b8, r8);
    if (inplace && (rnd() & 1)) { /* the output is the second input */
      memcpy(o8, b8, (size_t)n);
      y = o8;
    } else if (inplace) {
      memcpy(o8, a8, (size_t)n);
      x = o8;
    }
    if (sz) {
      tab_cases++;
      rc = tab(&p, x, y, o8, tab_scr);
      check(guard_ok(tab_scr, sz, sizeof tab_scr), "flat8 scratch guard", c);
    } else {
      rc = ker(&p, x, y, o8);
    }
    check(rc == AOT_KERNEL_OK, "flat8 rc", c);
    check(memcmp(o8, r8, sizeof o8) == 0, k ? "sub_s8 flat long" : "add_s8 flat long", c);
    if (sz && !inplace) { /* the portable build of the table kernel */
      memset(o8, 0x5A, sizeof o8);
      check(rtab(&p, a8, b8, o8, NULL) == AOT_KERNEL_OK && memcmp(o8, r8, sizeof o8) == 0,
            "flat8 ref tab", c);
    }
  }
}

/* Long int8 MUL rows (aot_ews_mul8_contig): sizes 1..MAXN. */
static void mul8_long_case(int c) {
  aot_mul_q_params p;
  const int32_t n = rr(1, MAXN);
  memset(&p, 0, sizeof p);
  mul_params(&p, 0);
  p.bc.size = n;
  fill8(a8, n);
  fill8(b8, n);
  memset(o8, 0x5A, sizeof o8);
  memset(r8, 0x5A, sizeof r8);
  ref_mul_s8(&p, a8, b8, r8);
  check(aot_mul_s8(&p, a8, b8, o8) == AOT_KERNEL_OK, "mul8 rc", c);
  check(memcmp(o8, r8, sizeof o8) == 0, "mul_s8 long", c);
}

/* Flat int16 ADD / SUB with zero offsets (aot_ews_s16_flat on Arm DSP and
 * the host): sizes 1..MAXN, full or random activation ranges. */
static void flat16_case(int c) {
  int k;
  for (k = 0; k < 2; k++) {
    aot_addsub_q_params p;
    int32_t n;
    int32_t (*ker)(const aot_addsub_q_params *, const int16_t *, const int16_t *, int16_t *) =
        k ? aot_sub_s16_flat : aot_add_s16_flat;
    int32_t (*ref)(const aot_addsub_q_params *, const int16_t *, const int16_t *, int16_t *) =
        k ? ref_sub_s16 : ref_add_s16;
    memset(&p, 0, sizeof p);
    addsub_params(&p, 1);
    p.in1_offset = 0;
    p.in2_offset = 0;
    n = rr(1, MAXN);
    p.bc.size = n;
    fill16(a16, n);
    fill16(b16, n);
    memset(o16, 0x5A, sizeof o16);
    memset(r16, 0x5A, sizeof r16);
    ref(&p, a16, b16, r16);
    check(ker(&p, a16, b16, o16) == AOT_KERNEL_OK, "flat16 rc", c);
    check(memcmp(o16, r16, sizeof o16) == 0, k ? "sub_s16_flat long" : "add_s16_flat long", c);
  }
}

/* ---- SVDF / LSTM ---------------------------------------------------------- */
static int8_t wf8[4096], wt8[2048], in8[512], st8a[4096], st8b[4096], out8a[256], out8b[256];
static int16_t wt16[2048], st16a[4096], st16b[4096];
static int32_t bias32[4][128], scr_a[1024], scr_b[1024];
static int16_t lscr_a[2048], lscr_b[2048];

static int8_t st8p[4096], out8p[256], swf_p[84 * 52];
static int16_t st16p[4096];
static int64_t wts[84];
static int32_t sfb[84], sbe[84], sscr[200];

static void rand_mult(int32_t *m, int32_t *s, int32_t lo, int32_t hi) {
  *m = (int32_t)(0x40000000u + (rnd() & 0x3FFFFFFFu));
  *s = rr(lo, hi);
}

static void svdf_case(int c) {
  aot_svdf_params p;
  int32_t i, step, nf, tot, is16 = (int32_t)(rnd() & 1);
  memset(&p, 0, sizeof p);
  p.batch = rr(1, 2);
  p.input_size = rr(1, 50);
  p.rank = rr(1, 2);
  p.num_units = rr(1, 40);
  p.num_filters = nf = p.num_units * p.rank;
  p.memory_size = rr(1, 25);
  p.input_zp = rr(-128, 127);
  p.state_zp = is16 ? 0 : rr(-128, 127);
  p.output_zp = rr(-128, 127);
  rand_mult(&p.mult1, &p.shift1, -14, 2);
  rand_mult(&p.mult2, &p.shift2, -14, 2);
  tot = p.batch * nf * p.memory_size;
  fill8(wf8, nf * p.input_size);
  fill8(wt8, nf * p.memory_size);
  fill16(wt16, nf * p.memory_size);
  for (i = 0; i < nf * p.memory_size; i++) wt16[i] = (int16_t)(wt16[i] / 16);
  for (i = 0; i < p.num_units; i++) bias32[0][i] = rr(-40000, 40000);
  fill8(st8a, tot);
  memcpy(st8b, st8a, sizeof st8a);
  fill16(st16a, tot);
  for (i = 0; i < tot; i++) st16a[i] = (int16_t)(st16a[i] / 64);
  memcpy(st16b, st16a, sizeof st16a);
  memcpy(st8p, st8a, sizeof st8a);
  memcpy(st16p, st16a, sizeof st16a);
  for (i = 0; i < nf; i++) {
    int32_t t;
    wts[i] = 0;
    for (t = 0; t < p.memory_size; t++)
      wts[i] += is16 ? wt16[i * p.memory_size + t] : wt8[i * p.memory_size + t];
  }
  for (step = 0; step < 3; step++) {
    const int32_t *bias = (rnd() & 3) ? bias32[0] : 0;
    aot_svdf_s8p_pack(&p, wf8, wts, bias, swf_p, sfb, sbe);
    memset(sscr, 0xA5, sizeof sscr);
    memset(out8p, 0x5A, sizeof out8p);
    fill8(in8, p.batch * p.input_size);
    memset(out8a, 0x5A, sizeof out8a);
    memset(out8b, 0x5A, sizeof out8b);
    if (is16) {
      ref_svdf_s8_s16(&p, in8, wf8, wt16, bias, st16a, out8a, scr_a);
      aot_svdf_s8_s16(&p, in8, wf8, wt16, bias, st16b, out8b, scr_b);
      check(memcmp(st16a, st16b, sizeof st16a) == 0, "svdf_s8_s16 state", c);
    } else {
      ref_svdf_s8_s8(&p, in8, wf8, wt8, bias, st8a, out8a, scr_a);
      aot_svdf_s8_s8(&p, in8, wf8, wt8, bias, st8b, out8b, scr_b);
      check(memcmp(st8a, st8b, sizeof st8a) == 0, "svdf_s8_s8 state", c);
    }
    check(memcmp(out8a, out8b, sizeof out8a) == 0, is16 ? "svdf_s8_s16 out" : "svdf_s8_s8 out", c);
    if (is16) {
      aot_svdf_s8p_s16(&p, in8, swf_p, sfb, wt16, sbe, st16p, out8p, sscr);
      check(memcmp(st16a, st16p, sizeof st16a) == 0, "svdf_s8p_s16 state", c);
    } else {
      aot_svdf_s8p_s8(&p, in8, swf_p, sfb, wt8, sbe, st8p, out8p, sscr);
      check(memcmp(st8a, st8p, sizeof st8a) == 0, "svdf_s8p_s8 state", c);
    }
    check(memcmp(out8a, out8p, sizeof out8a) == 0, is16 ? "svdf_s8p_s16 out" : "svdf_s8p_s8 out", c);
    check(((unsigned char *)sscr)[aot_svdf_s8p_buffer_size(p.input_size, nf)] == 0xA5,
          "svdf_s8p scratch overrun", c);
  }
}

/* The packed SVDF's Arm DSP paths (aot_svdf_s8p.c): the feature projection
 * on a widened input over word-aligned packed weights (one case in five one
 * byte off alignment: aot_rec_dot4p_s8), the time reduction of memories of
 * a multiple of eight (the assembly loop; other sizes now and then), the
 * SMMULR requantization with accumulators near or past 2^30 (large biases)
 * and left shifts; against the portable aot_svdf_s8 (ref_svdf_s8_s8). */
static union {
  uint32_t align;
  int8_t b[84 * 52 + 4];
} sq_wf;

static void svdf_dsp_case(int c) {
  aot_svdf_params p;
  int32_t i, step, nf, tot;
  const int32_t off = c % 5 == 2 ? 1 : 0;
  memset(&p, 0, sizeof p);
  p.batch = rr(1, 2);
  p.input_size = rr(1, 50);
  p.rank = rr(1, 2);
  p.num_units = rr(1, 40);
  p.num_filters = nf = p.num_units * p.rank;
  p.memory_size = c % 6 == 5 ? rr(1, 25) : 8 * rr(1, 3);
  p.input_zp = rr(-128, 127);
  p.state_zp = rr(-128, 127);
  p.output_zp = rr(-128, 127);
  rand_mult(&p.mult1, &p.shift1, -14, c % 4 == 1 ? 2 : -1);
  rand_mult(&p.mult2, &p.shift2, -14, c % 4 == 3 ? 2 : -1);
  tot = p.batch * nf * p.memory_size;
  fill8(wf8, nf * p.input_size);
  fill8(wt8, nf * p.memory_size);
  for (i = 0; i < p.num_units; i++)
    bias32[0][i] = c % 3 == 0 ? (int32_t)rnd() : rr(-40000, 40000); /* sums past 2^30 */
  fill8(st8a, tot);
  memcpy(st8p, st8a, sizeof st8a);
  for (i = 0; i < nf; i++) {
    int32_t t;
    wts[i] = 0;
    for (t = 0; t < p.memory_size; t++) wts[i] += wt8[i * p.memory_size + t];
  }
  for (step = 0; step < 3; step++) {
    aot_svdf_s8p_pack(&p, wf8, wts, bias32[0], sq_wf.b + off, sfb, sbe);
    fill8(in8, p.batch * p.input_size);
    memset(out8a, 0x5A, sizeof out8a);
    memset(out8p, 0x5A, sizeof out8p);
    ref_svdf_s8_s8(&p, in8, wf8, wt8, bias32[0], st8a, out8a, scr_a);
    aot_svdf_s8p_s8(&p, in8, sq_wf.b + off, sfb, wt8, sbe, st8p, out8p, sscr);
    check(memcmp(st8a, st8p, sizeof st8a) == 0, "svdf_s8p dsp state", c);
    check(memcmp(out8a, out8p, sizeof out8a) == 0, "svdf_s8p dsp out", c);
  }
}

static int8_t lw_in[4][2048], lw_rec[4][2048], lh_a[128], lh_b[128], lo_a[4096], lo_b[4096];
static int16_t lc_a[128], lc_b[128], lc_p[128];
static int8_t lh_p[128], lo_p[4096], lpw_in[4 * 40 * 52], lpw_rec[4 * 40 * 40];
static int32_t lpb_in[4 * 40], lpb_rec[4 * 40], lpscr[1400];

static void lstm_case(int c) {
  aot_lstm_q_params p;
  aot_lstm_s8_tensors ta, tb;
  int32_t g, ns, ni, nb, nt, seq;
  memset(&p, 0, sizeof p);
  p.batch = nb = rr(1, 2);
  p.time_steps = nt = rr(1, 6);
  p.input_size = ni = rr(1, 50);
  p.state_size = ns = rr(1, 40);
  p.time_major = (int32_t)(rnd() & 1);
  p.input_zp = rr(-128, 127);
  p.hidden_zp = rr(-128, 127);
  p.cell_act = (rnd() & 3) ? AOT_ACT_TANH : AOT_ACT_SIGMOID;
  for (g = 0; g < 4; g++) {
    rand_mult(&p.gate[g].in_mult, &p.gate[g].in_shift, -12, 1);
    rand_mult(&p.gate[g].rec_mult, &p.gate[g].rec_shift, -12, -2);
    fill8(lw_in[g], ns * ni);
    fill8(lw_rec[g], ns * ns);
    for (seq = 0; seq < ns; seq++) bias32[g][seq] = rr(-30000, 30000);
  }
  rand_mult(&p.fc_mult, &p.fc_shift, -16, -14);
  rand_mult(&p.ig_mult, &p.ig_shift, -20, -16);
  rand_mult(&p.hid_mult, &p.hid_shift, -24, -20);
  p.cell_scale_power = -rr(9, 13);
  p.cell_clip = (rnd() & 1) ? rr(1, 32767) : 0;
  fill8(in8, nb * nt * ni > 512 ? 512 : nb * nt * ni);
  fill8(lh_a, nb * ns);
  memcpy(lh_b, lh_a, sizeof lh_a);
  fill16(lc_a, nb * ns);
  memcpy(lc_b, lc_a, sizeof lc_a);
  memset(lo_a, 0x5A, sizeof lo_a);
  memset(lo_b, 0x5A, sizeof lo_b);
  memset(&ta, 0, sizeof ta);
  ta.input = in8;
  for (g = 0; g < 4; g++) {
    ta.w_in[g] = lw_in[g];
    ta.w_rec[g] = lw_rec[g];
    ta.bias[g] = (rnd() & 3) ? bias32[g] : 0;
  }
  tb = ta;
  ta.hidden = lh_a;
  ta.cell = lc_a;
  ta.output = lo_a;
  tb.hidden = lh_b;
  tb.cell = lc_b;
  tb.output = lo_b;
  if (nb * nt * ni > 512) return;
  /* the packed kernel starts from the same state and input */
  memcpy(lh_p, lh_a, sizeof lh_a);
  memcpy(lc_p, lc_a, sizeof lc_a);
  memset(lo_p, 0x5A, sizeof lo_p);
  ref_lstm_s8(&p, &ta, lscr_a);
  aot_lstm_s8(&p, &tb, lscr_b);
  check(memcmp(lo_a, lo_b, sizeof lo_a) == 0, "lstm_s8 out", c);
  check(memcmp(lh_a, lh_b, sizeof lh_a) == 0, "lstm_s8 hidden", c);
  check(memcmp(lc_a, lc_b, sizeof lc_a) == 0, "lstm_s8 cell", c);
  {
    aot_lstm_s8p_tensors tp;
    size_t need = aot_lstm_s8p_buffer_size(ni, ns);
    for (g = 0; g < 4; g++) {
      aot_lstm_s8p_pack_gate(g, ns, ni, p.input_zp, ta.w_in[g], ta.bias[g], lpw_in, lpb_in);
      aot_lstm_s8p_pack_gate(g, ns, ns, p.hidden_zp, ta.w_rec[g], 0, lpw_rec, lpb_rec);
    }
    tp.input = in8;
    tp.w_in = lpw_in;
    tp.w_rec = lpw_rec;
    tp.b_in = lpb_in;
    tp.b_rec = lpb_rec;
    tp.hidden = lh_p;
    tp.cell = lc_p;
    tp.output = lo_p;
    memset(lpscr, 0xA5, sizeof lpscr);
    check(need + 4 <= sizeof lpscr, "lstm_s8p scratch size", c);
    aot_lstm_s8p(&p, &tp, lpscr);
    check(((unsigned char *)lpscr)[need] == 0xA5, "lstm_s8p scratch overrun", c);
    check(memcmp(lo_a, lo_p, sizeof lo_a) == 0, "lstm_s8p out", c);
    check(memcmp(lh_a, lh_p, sizeof lh_a) == 0, "lstm_s8p hidden", c);
    check(memcmp(lc_a, lc_p, sizeof lc_a) == 0, "lstm_s8p cell", c);
  }
}

/* The packed int8 LSTM's Arm DSP paths (aot_lstm_s8p.c): word-aligned
 * packed weights (the LDRD chunk loop and widened input; one case in five
 * one byte off alignment: the portable-order loop), up to three 16-column
 * chunks plus tails, gate biases that are small (SMMULR requantization) or
 * near 2^30 (the 64-bit path for that gate), right and left gate shifts;
 * against the portable aot_lstm_s8 (ref_lstm_s8). */
static union {
  uint32_t align;
  int8_t b[4 * 40 * 52 + 4];
} lq_in, lq_rec;
static int32_t lq_bin[4 * 40], lq_brec[4 * 40];

static void lstm_dsp_case(int c) {
  aot_lstm_q_params p;
  aot_lstm_s8_tensors ta;
  aot_lstm_s8p_tensors tp;
  int32_t g, ns, ni, nb, nt, j;
  const int32_t off = c % 5 == 4 ? 1 : 0;
  memset(&p, 0, sizeof p);
  p.batch = nb = rr(1, 2);
  p.time_steps = nt = rr(1, 4);
  p.state_size = ns = rr(1, 40);
  ni = rr(1, 51);
  if (ns * ni > 2048) ni = 2048 / ns;
  p.input_size = ni;
  if (nb * nt * ni > 512) p.time_steps = nt = 512 / (nb * ni);
  p.time_major = (int32_t)(rnd() & 1);
  p.input_zp = rr(-128, 127);
  p.hidden_zp = rr(-128, 127);
  p.cell_act = (rnd() & 3) ? AOT_ACT_TANH : AOT_ACT_SIGMOID;
  for (g = 0; g < 4; g++) {
    rand_mult(&p.gate[g].in_mult, &p.gate[g].in_shift, -12, c % 3 == 0 ? 1 : -1);
    rand_mult(&p.gate[g].rec_mult, &p.gate[g].rec_shift, -12, -2);
    fill8(lw_in[g], ns * ni);
    fill8(lw_rec[g], ns * ns);
    for (j = 0; j < ns; j++) bias32[g][j] = rr(-30000, 30000);
    if (c % 7 == 3 && g == (c & 3)) /* products may reach 2^30: not SMMULR */
      for (j = 0; j < ns; j++) bias32[g][j] = (rnd() & 1 ? 1 : -1) * rr((1 << 30) - 4096, 1 << 30);
  }
  rand_mult(&p.fc_mult, &p.fc_shift, -16, -14);
  rand_mult(&p.ig_mult, &p.ig_shift, -20, -16);
  rand_mult(&p.hid_mult, &p.hid_shift, -24, -20);
  p.cell_scale_power = -rr(9, 13);
  p.cell_clip = (rnd() & 1) ? rr(1, 32767) : 0;
  fill8(in8, nb * nt * ni);
  fill8(lh_a, nb * ns);
  memcpy(lh_p, lh_a, sizeof lh_a);
  fill16(lc_a, nb * ns);
  memcpy(lc_p, lc_a, sizeof lc_a);
  memset(lo_a, 0x5A, sizeof lo_a);
  memset(lo_p, 0x5A, sizeof lo_p);
  memset(&ta, 0, sizeof ta);
  ta.input = in8;
  for (g = 0; g < 4; g++) {
    ta.w_in[g] = lw_in[g];
    ta.w_rec[g] = lw_rec[g];
    ta.bias[g] = bias32[g];
    aot_lstm_s8p_pack_gate(g, ns, ni, p.input_zp, lw_in[g], bias32[g], lq_in.b + off, lq_bin);
    aot_lstm_s8p_pack_gate(g, ns, ns, p.hidden_zp, lw_rec[g], 0, lq_rec.b + off, lq_brec);
  }
  ta.hidden = lh_a;
  ta.cell = lc_a;
  ta.output = lo_a;
  tp.input = in8;
  tp.w_in = lq_in.b + off;
  tp.w_rec = lq_rec.b + off;
  tp.b_in = lq_bin;
  tp.b_rec = lq_brec;
  tp.hidden = lh_p;
  tp.cell = lc_p;
  tp.output = lo_p;
  ref_lstm_s8(&p, &ta, lscr_a);
  aot_lstm_s8p(&p, &tp, lpscr);
  check(memcmp(lo_a, lo_p, sizeof lo_a) == 0, "lstm_s8p dsp out", c);
  check(memcmp(lh_a, lh_p, sizeof lh_a) == 0, "lstm_s8p dsp hidden", c);
  check(memcmp(lc_a, lc_p, sizeof lc_a) == 0, "lstm_s8p dsp cell", c);
}

/* int16 LSTM (16x8): the packed kernel against the portable aot_lstm_s16. */
static int16_t l16_in[512], l16_ha[128], l16_hp[128], l16_ca[128], l16_cp[128];
static int16_t l16_oa[4096], l16_op[4096];
static int64_t l16_bias[4][40], l16_bp[4 * 40];

static void lstm16_case(int c) {
  aot_lstm_q_params p;
  aot_lstm_s16_tensors ta;
  aot_lstm_s16p_tensors tp;
  int32_t g, ns, ni, nb, nt, i, with_bias = (int32_t)(rnd() & 3);
  size_t need;
  memset(&p, 0, sizeof p);
  p.batch = nb = rr(1, 2);
  p.time_steps = nt = rr(1, 5);
  p.input_size = ni = rr(1, 50);
  p.state_size = ns = rr(1, 40);
  if (nb * nt * ni > 512) return;
  p.time_major = (int32_t)(rnd() & 1);
  p.cell_act = (rnd() & 3) ? AOT_ACT_TANH : AOT_ACT_SIGMOID;
  for (g = 0; g < 4; g++) {
    rand_mult(&p.gate[g].in_mult, &p.gate[g].in_shift, -22, -6);
    rand_mult(&p.gate[g].rec_mult, &p.gate[g].rec_shift, -22, -6);
    fill8(lw_in[g], ns * ni);
    fill8(lw_rec[g], ns * ns);
    for (i = 0; i < ns; i++) l16_bias[g][i] = rr(-3000000, 3000000);
  }
  rand_mult(&p.fc_mult, &p.fc_shift, -16, -14);
  rand_mult(&p.ig_mult, &p.ig_shift, -20, -16);
  rand_mult(&p.hid_mult, &p.hid_shift, -20, -12);
  p.cell_scale_power = -rr(9, 13);
  p.cell_clip = (rnd() & 1) ? rr(1, 32767) : 0;
  fill16(l16_in, nb * nt * ni);
  fill16(l16_ha, nb * ns);
  memcpy(l16_hp, l16_ha, sizeof l16_ha);
  fill16(l16_ca, nb * ns);
  memcpy(l16_cp, l16_ca, sizeof l16_ca);
  memset(l16_oa, 0x5A, sizeof l16_oa);
  memset(l16_op, 0x5A, sizeof l16_op);
  memset(&ta, 0, sizeof ta);
  ta.input = l16_in;
  for (g = 0; g < 4; g++) {
    ta.w_in[g] = lw_in[g];
    ta.w_rec[g] = lw_rec[g];
    ta.bias[g] = with_bias ? l16_bias[g] : 0;
    aot_lstm_s8p_pack_gate(g, ns, ni, 0, lw_in[g], 0, lpw_in, lpb_in);
    aot_lstm_s8p_pack_gate(g, ns, ns, 0, lw_rec[g], 0, lpw_rec, lpb_rec);
    for (i = 0; i < ns; i++) l16_bp[g * ns + i] = with_bias ? l16_bias[g][i] : 0;
  }
  ta.hidden = l16_ha;
  ta.cell = l16_ca;
  ta.output = l16_oa;
  tp.input = l16_in;
  tp.w_in = lpw_in;
  tp.w_rec = lpw_rec;
  tp.bias = l16_bp;
  tp.hidden = l16_hp;
  tp.cell = l16_cp;
  tp.output = l16_op;
  need = aot_lstm_s16p_buffer_size(ni, ns);
  memset(lpscr, 0xA5, sizeof lpscr);
  check(need + 4 <= sizeof lpscr, "lstm_s16p scratch size", c);
  ref_lstm_s16(&p, &ta, lscr_a);
  aot_lstm_s16p(&p, &tp, lpscr);
  check(((unsigned char *)lpscr)[need] == 0xA5, "lstm_s16p scratch overrun", c);
  check(memcmp(l16_oa, l16_op, sizeof l16_oa) == 0, "lstm_s16p out", c);
  check(memcmp(l16_ha, l16_hp, sizeof l16_ha) == 0, "lstm_s16p hidden", c);
  check(memcmp(l16_ca, l16_cp, sizeof l16_ca) == 0, "lstm_s16p cell", c);
}

/* aot_rec_mbqm against aot_mbqm on random and edge values. */
static void mbqm_cases(void) {
  static const int32_t edge[] = {0, 1, -1, 2, -2, 3, -3, 1 << 30, -(1 << 30), INT32_MAX, INT32_MIN,
                                 INT32_MAX - 1, INT32_MIN + 1, 0x10000, -0x10000};
  int i, j, s, bad = 0;
  for (i = 0; i < (int)(sizeof edge / sizeof edge[0]); i++)
    for (s = -31; s <= 8; s++)
      for (j = 0; j < 4; j++) {
        const int32_t m = j == 0 ? INT32_MAX : j == 1 ? 1 << 30 : j == 2 ? 0 : (int32_t)(rnd() >> 1);
        if (aot_rec_mbqm(edge[i], m, s) != aot_mbqm(edge[i], m, s)) bad++;
      }
  for (i = 0; i < 20000; i++) {
    const int32_t x = (int32_t)rnd() >> rr(0, 31), m = (int32_t)(rnd() >> 1), sh = rr(-31, 4);
    if (aot_rec_mbqm(x, m, sh) != aot_mbqm(x, m, sh)) bad++;
  }
  check(bad == 0, "aot_rec_mbqm", bad);
}

int main(void) {
  int c;
#if defined(AOT_EWS_MVE)
  printf("EW kernels (Helium)\n");
#elif defined(AOT_EWS_DSP)
  printf("EW kernels (Arm DSP)\n");
#else
  printf("EW kernels (fast scalar)\n");
#endif
  for (c = 0; c < 400; c++) {
    RUN_CASE(int8_t, a8, b8, o8, r8, fill8, aot_add_s8, ref_add_s8, addsub_params,
             aot_addsub_q_params, 0, "add_s8", 1, aot_add_s8_flat);
    RUN_CASE(int8_t, a8, b8, o8, r8, fill8, aot_sub_s8, ref_sub_s8, addsub_params,
             aot_addsub_q_params, 0, "sub_s8", 1, aot_sub_s8_flat);
    RUN_CASE(int8_t, a8, b8, o8, r8, fill8, aot_mul_s8, ref_mul_s8, mul_params,
             aot_mul_q_params, 0, "mul_s8", 0, aot_mul_s8);
    RUN_CASE(int16_t, a16, b16, o16, r16, fill16, aot_add_s16, ref_add_s16, addsub_params,
             aot_addsub_q_params, 1, "add_s16", 1, aot_add_s16_flat);
    RUN_CASE(int16_t, a16, b16, o16, r16, fill16, aot_sub_s16, ref_sub_s16, addsub_params,
             aot_addsub_q_params, 1, "sub_s16", 1, aot_sub_s16_flat);
    RUN_CASE(int16_t, a16, b16, o16, r16, fill16, aot_mul_s16, ref_mul_s16, mul_params,
             aot_mul_q_params, 1, "mul_s16", 0, aot_mul_s16);
  }
  for (c = 0; c < 600; c++) flat8_case(c);
  printf("flat int8 ADD/SUB: %d of 1200 cases through the rescale table\n", tab_cases);
  check(tab_cases >= 100, "flat8 cases through the table", tab_cases);
  for (c = 0; c < 300; c++) flat16_case(c);
  for (c = 0; c < 200; c++) mul8_long_case(c);
  mbqm_cases();
  for (c = 0; c < 150; c++) {
    svdf_case(c);
    lstm_case(c);
    lstm16_case(c);
  }
  for (c = 0; c < 150; c++) {
    lstm_dsp_case(c);
    svdf_dsp_case(c);
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
