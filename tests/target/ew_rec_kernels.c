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
 * multiplier of exactly 0.5), fused activation ranges, in-place operation
 * (output = input 1), and the bytes after the output (nothing written past
 * it). Prints one line per failure and "N passed, M failed"; exit status 0
 * when everything passed. Built and run by tests/integration/test_simd_ew_rec.sh
 * on the host, Cortex-M4 and Cortex-M55. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "aot_ew_simd.h"

int32_t ref_add_s8(const aot_addsub_q_params *p, const int8_t *a, const int8_t *b, int8_t *o);
int32_t ref_sub_s8(const aot_addsub_q_params *p, const int8_t *a, const int8_t *b, int8_t *o);
int32_t ref_mul_s8(const aot_mul_q_params *p, const int8_t *a, const int8_t *b, int8_t *o);
int32_t ref_add_s16(const aot_addsub_q_params *p, const int16_t *a, const int16_t *b,
                    int16_t *o);
int32_t ref_sub_s16(const aot_addsub_q_params *p, const int16_t *a, const int16_t *b,
                    int16_t *o);
int32_t ref_mul_s16(const aot_mul_q_params *p, const int16_t *a, const int16_t *b,
                    int16_t *o);

static uint32_t rng = 0x2545F491u;
static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}
static int32_t rr(int32_t lo, int32_t hi) {
  return lo + (int32_t)(rnd() % (uint32_t)(hi - lo + 1));
}
static double runit(void) { return (double)(rnd() & 0xFFFFFF) / 16777216.0; }

static int passed, failed;
static void check(int ok, const char *what, int idx) {
  if (ok) {
    passed++;
  } else {
    failed++;
    if (failed < 30) printf("FAIL %s #%d\n", what, idx);
  }
}

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
  qm(s1 * s2 / so, &p->out_mult, &p->out_shift);
  p->in1_offset = is16 ? 0 : -rr(-128, 127);
  p->in2_offset = is16 ? 0 : -rr(-128, 127);
  p->out_offset = zo;
  act_range(qmin, qmax, zo, &p->act_min, &p->act_max);
}

#define RUN_CASE(T, A, B, O, R, FILL, KERNEL, REF, PARAMS, PTYPE, IS16, NAME)          \
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
  } while (0)

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
             aot_addsub_q_params, 0, "add_s8");
    RUN_CASE(int8_t, a8, b8, o8, r8, fill8, aot_sub_s8, ref_sub_s8, addsub_params,
             aot_addsub_q_params, 0, "sub_s8");
    RUN_CASE(int8_t, a8, b8, o8, r8, fill8, aot_mul_s8, ref_mul_s8, mul_params,
             aot_mul_q_params, 0, "mul_s8");
    RUN_CASE(int16_t, a16, b16, o16, r16, fill16, aot_add_s16, ref_add_s16, addsub_params,
             aot_addsub_q_params, 1, "add_s16");
    RUN_CASE(int16_t, a16, b16, o16, r16, fill16, aot_sub_s16, ref_sub_s16, addsub_params,
             aot_addsub_q_params, 1, "sub_s16");
    RUN_CASE(int16_t, a16, b16, o16, r16, fill16, aot_mul_s16, ref_mul_s16, mul_params,
             aot_mul_q_params, 1, "mul_s16");
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
