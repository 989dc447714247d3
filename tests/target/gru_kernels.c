/* gru_kernels.c - Cortex-M4 / Cortex-M55 (QEMU) check of the GRU kernels'
 * target variants against the portable kernels (gru_ref_kernels.c: the same
 * files built with AOT_NO_SIMD, renamed ref_*), both in one firmware.
 *
 * 1. The int8 row product of aot_gru_f32_s8w (SMLAD on M4, VMLADAVA on M55)
 *    against the portable loop: random lengths 1..300 (tails not multiples
 *    of 4/16), random and extreme (-128/127) values: identical int32.
 * 2. aot_gru_f32_s8w over random shapes (units and features not multiples
 *    of 4/8/16, 1..9 steps, reset_after 0/1, sigmoid / hard sigmoid, tanh /
 *    linear, go_backwards, return_sequences, per-row or per-tensor scales,
 *    zero rows, no bias, extreme inputs (+-1e4, all zero)).
 * 3. aot_gru_f32 (float32 weights, packed) over the same kind of shapes.
 * Comparison: on Cortex-M4 the variants perform the same float operations in
 * the same order (VMLA unfused, the same scalar gate code): results must be
 * bit-identical. On Cortex-M55 the Helium products use fused multiply-adds
 * and the vector sigmoid/tanh use Newton reciprocals, so the results differ
 * in the last bits; for s8w such a difference can move the dynamic
 * quantization of h by one step, so the bound is stated on the state values
 * (|h| <= 1 for tanh): max |a - b| <= GRU_TOL_ABS + GRU_TOL_REL |b|. The
 * largest observed difference is printed. Also checks that nothing is written
 * past the outputs. Prints "N passed, M failed"; exit status 0 if all passed.
 * Built and run by tests/integration/test_simd_gru.sh. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "aot_recurrent.h"

int32_t ref_gru_f32(const aot_gru_params *p, const float *x, const float *h0, const float *w,
                    const float *u, const float *bias_x, const float *bias_h, float *seq_out,
                    float *h_out, float *scratch);
int32_t ref_gru_f32_s8w(const aot_gru_params *p, const float *x, const float *h0,
                        const int8_t *w, const float *w_scale, const int8_t *u,
                        const float *u_scale, const float *bias_x, const float *bias_h,
                        float *seq_out, float *h_out, float *scratch);
int32_t ref_gru_dot_s8(const int8_t *w, const int8_t *q, int32_t n);

/* the target build of the s8w kernel, included so that its static row
 * product can be called */
#include "RecurrentFunctions/aot_gru_s8w.c"

#if defined(AOTC_TARGET_CORTEX_M55)
#define GRU_TOL_ABS 2e-3f
#define GRU_TOL_REL 2e-3f
#define GRU_EXACT 0
#else
#define GRU_TOL_ABS 0.0f
#define GRU_TOL_REL 0.0f
#define GRU_EXACT 1
#endif

#define KC_SEED 0x9E3779B9u
#include "kernel_check.h"

static float rf(float a) { return a * ((float)(int32_t)(rnd() % 20001u) / 10000.0f - 1.0f); }

static float worst, worst_n; /* largest |a - b| and |a - b| / (1 + |b|) */

#define MAXU 40
#define MAXF 40
#define MAXT 9
#define UP ((MAXU + 7) / 8 * 8)
static int8_t w8[3 * UP * MAXF], u8[3 * UP * MAXU];
static float wf[3 * UP * MAXF], uf[3 * UP * MAXU];
static float ws[3 * UP], us[3 * UP], bx[3 * UP], bh[3 * UP];
static float x[MAXT * MAXF], h0[MAXU];
#define OUTN (MAXT * MAXU + 8)
static float seq_a[OUTN], seq_b[OUTN], hout_a[MAXU + 8], hout_b[MAXU + 8];
static float scr_a[20000], scr_b[20000];

static int cmp(const float *a, const float *b, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++) {
    const float d = fabsf(a[i] - b[i]);
    if (!(d <= GRU_TOL_ABS + GRU_TOL_REL * fabsf(b[i]))) return 0;
    if (GRU_EXACT && memcmp(&a[i], &b[i], sizeof(float)) != 0) return 0;
    if (d > worst) worst = d;
    if (d / (1.0f + fabsf(b[i])) > worst_n) worst_n = d / (1.0f + fabsf(b[i]));
  }
  return 1;
}

static void random_params(aot_gru_params *p) {
  memset(p, 0, sizeof *p);
  p->time_steps = rr(1, MAXT);
  p->features = rr(1, MAXF);
  p->units = rr(1, MAXU);
  p->reset_after = rr(0, 1);
  p->gate_act = rr(0, 3) == 0 ? AOT_GRU_HARD_SIGMOID : AOT_GRU_SIGMOID;
  p->cand_act = rr(0, 3) == 0 ? AOT_GRU_LINEAR : AOT_GRU_TANH;
  p->go_backwards = rr(0, 1);
  p->return_sequences = rr(0, 1);
}

static void random_inputs(const aot_gru_params *p, int c) {
  int32_t i, n = p->time_steps * p->features;
  const float a = c % 7 == 0 ? 1e4f : (c % 5 == 0 ? 0.0f : 2.0f);
  for (i = 0; i < n; i++) x[i] = c % 11 == 0 ? (rnd() & 1 ? 1e4f : -1e4f) : rf(a);
  for (i = 0; i < p->units; i++) h0[i] = rf(1.0f);
}

static void run_outputs(const aot_gru_params *p, int32_t ra, int32_t rb, const char *what, int c) {
  const int32_t n = p->return_sequences ? p->time_steps * p->units : p->units;
  check(ra == AOT_KERNEL_OK && rb == AOT_KERNEL_OK, what, c);
  check(cmp(seq_a, seq_b, n) && cmp(hout_a, hout_b, p->units), what, c);
  check(seq_a[n] == -7.0f && hout_a[p->units] == -7.0f, what, c);
}

static void fill_guard(void) {
  int32_t i;
  for (i = 0; i < OUTN; i++) seq_a[i] = seq_b[i] = -7.0f;
  for (i = 0; i < MAXU + 8; i++) hout_a[i] = hout_b[i] = -7.0f;
}

static void test_dot(void) {
  static int8_t a[300], b[300];
  int c, i;
  for (c = 0; c < 400; c++) {
    const int32_t n = rr(1, 300);
    const int mode = c % 4;
    for (i = 0; i < n; i++) {
      a[i] = (int8_t)(mode == 1 ? -128 : mode == 2 ? (rnd() & 1 ? 127 : -128) : rr(-128, 127));
      b[i] = (int8_t)(mode == 1 ? -128 : mode == 2 ? (rnd() & 1 ? -128 : 127) : rr(-128, 127));
    }
    check(aot_gru_dot_s8(a, b, n) == ref_gru_dot_s8(a, b, n), "dot_s8", c);
  }
}

static void test_s8w(void) {
  int c;
  for (c = 0; c < 150; c++) {
    aot_gru_params p;
    int32_t up, r, k, rows, ra, rb;
    const int per_tensor = c % 3 == 0, nobias = c % 4 == 1;
    random_params(&p);
    up = aot_gru_padded_units(p.units);
    rows = 3 * up;
    for (r = 0; r < rows; r++) {
      const int zero = (r % up) >= p.units || rr(0, 9) == 0; /* padded or zero row */
      for (k = 0; k < p.features; k++) w8[r * p.features + k] = (int8_t)(zero ? 0 : rr(-128, 127));
      for (k = 0; k < p.units; k++) u8[r * p.units + k] = (int8_t)(zero ? 0 : rr(-128, 127));
      ws[r] = per_tensor ? 0.004f : 0.0005f + (float)rr(0, 100) * 1e-4f;
      us[r] = per_tensor ? 0.003f : 0.0005f + (float)rr(0, 100) * 1e-4f;
      bx[r] = rf(0.5f);
      bh[r] = rf(0.5f);
    }
    random_inputs(&p, c);
    fill_guard();
    if (aot_gru_buffer_size(&p, AOT_GRU_KIND_F32_S8W) > sizeof scr_a) continue;
    ra = aot_gru_f32_s8w(&p, x, h0, w8, ws, u8, us, nobias ? NULL : bx, nobias ? NULL : bh, seq_a,
                         hout_a, scr_a);
    rb = ref_gru_f32_s8w(&p, x, h0, w8, ws, u8, us, nobias ? NULL : bx, nobias ? NULL : bh,
                         seq_b, hout_b, scr_b);
    run_outputs(&p, ra, rb, "gru_f32_s8w", c);
  }
}

static void test_f32(void) {
  int c;
  for (c = 0; c < 150; c++) {
    aot_gru_params p;
    int32_t up, r, k, ra, rb;
    const int nobias = c % 4 == 1;
    random_params(&p);
    p.proj_steps = rr(0, p.time_steps);
    up = aot_gru_padded_units(p.units);
    for (r = 0; r < 3 * up; r++) {
      const int zero = (r % up) >= p.units || rr(0, 9) == 0;
      for (k = 0; k < p.features; k++)
        wf[aot_gru_pack_index(r, k, p.features)] = zero ? 0.0f : rf(0.6f);
      for (k = 0; k < p.units; k++) uf[aot_gru_pack_index(r, k, p.units)] = zero ? 0.0f : rf(0.6f);
      bx[r] = (r % up) >= p.units ? 0.0f : rf(0.5f);
      bh[r] = (r % up) >= p.units ? 0.0f : rf(0.5f);
    }
    random_inputs(&p, c);
    fill_guard();
    if (aot_gru_buffer_size(&p, AOT_GRU_KIND_F32) > sizeof scr_a) continue;
    ra = aot_gru_f32(&p, x, h0, wf, uf, nobias ? NULL : bx, nobias ? NULL : bh, seq_a, hout_a,
                     scr_a);
    rb = ref_gru_f32(&p, x, h0, wf, uf, nobias ? NULL : bx, nobias ? NULL : bh, seq_b, hout_b,
                     scr_b);
    run_outputs(&p, ra, rb, "gru_f32", c);
  }
}

int main(void) {
#if defined(AOT_GRU_S8_MVE)
  printf("GRU kernels (Helium) vs portable, bound %g abs + %g rel\n", (double)GRU_TOL_ABS,
         (double)GRU_TOL_REL);
#elif defined(AOT_GRU_S8_DSP)
  printf("GRU kernels (DSP/VFP) vs portable, bit-exact\n");
#else
  printf("GRU kernels (portable only)\n");
#endif
  test_dot();
  test_s8w();
  printf("s8w max |diff| %g, max |diff| / (1 + |ref|) %g\n", (double)worst, (double)worst_n);
  worst = worst_n = 0.0f;
  test_f32();
  printf("f32 max |diff| %g, max |diff| / (1 + |ref|) %g\n", (double)worst, (double)worst_n);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
