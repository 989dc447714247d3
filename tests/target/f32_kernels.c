/* f32_kernels.c - check of the float32 CONV_2D, DEPTHWISE_CONV_2D and
 * FULLY_CONNECTED target variants (runtime/aot_f32_simd.h) against the
 * portable kernels and an independent double-precision reference.
 *
 * Random cases: batches, image sizes 1-9, channel counts that are not
 * multiples of 4 or 8 (tails of every length), groups, depth multipliers,
 * filters 1-5, strides 1-3, dilations 1-3, paddings that clip or empty the
 * window, optional bias (in a third of the float cases with a NaN
 * channel, which must come out NaN as the portable clamp keeps it), activation
 * ranges that clamp. For every output:
 *  - the kernels as built for this target (aot_*: Helium on Cortex-M55,
 *    register-blocked FPU loops on Cortex-M4 and on the host when built with
 *    AOT_F32_FORCE_BLK, else the portable loops) and the same files built
 *    with AOT_NO_SIMD (ref_*, f32_ref_kernels.c) are each compared with a
 *    double-precision sum of the taps computed here from the definition
 *    (zero padding, clamp): |out - exact| <= (K + 2) * 2^-23 * S, where K is
 *    the number of taps and S the sum of |products| and |bias| (the bound of
 *    a float sum of K + 1 terms in any order, fused or not);
 *  - the register-blocked variant keeps the portable summation order and
 *    rounding (no fused multiply-add in ISO C): it must equal the portable
 *    kernel bit for bit;
 *  - nothing is written past the output.
 * The hybrid CONV_2D and FULLY_CONNECTED (float activations, int8 weights,
 * runtime/aot_hybrid_simd.h on the Arm targets) are compared bit for bit with
 * their portable build over random shapes (the 1x1 GEMM case in a third of
 * the convolutions), paddings, strides, dilations, per-channel and
 * per-tensor scales, inputs of either sign (zero points -128 and 127), an
 * infinite input or a range that overflows (the quantizer's fallbacks), and
 * must not write past the output or the planned scratch.
 * With -DF32_BENCH=1..4 it runs one KWS-sized layer between the instruction
 * count markers instead (1 conv 1x1 25x5x64->64, 2 depthwise 3x3 x64, 3 conv
 * 10x4 stride 2 49x10x1->64, 4 FC 64->12). Prints "N passed, M failed";
 * exit status 0 when everything passed. Built and run by
 * tests/integration/test_f32_simd.sh on the host, Cortex-M4 and Cortex-M55. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "aot_conv.h"
#include "aot_f32_simd.h"
#include "target.h"

int32_t ref_conv2d_f32(const aot_conv_params *p, const float *input, const float *filter,
                       const float *bias, float *output);
int32_t ref_dwconv2d_f32(const aot_conv_params *p, const float *input, const float *filter,
                         const float *bias, float *output);
int32_t ref_fc_f32(const aot_fc_params *p, const float *input, const float *weights,
                   const float *bias, float *output);
int32_t ref_conv2d_hybrid(const aot_conv_params *p, const aot_hybrid_params *h,
                          const float *input, const int8_t *filter, const float *bias,
                          float *output, void *scratch);
int32_t ref_fc_hybrid(const aot_fc_params *p, const aot_hybrid_params *h, const float *input,
                      const int8_t *weights, const float *bias, float *output, void *scratch);

#define KC_SEED 0x9E3779B9u
#include "kernel_check.h"

static float rf(void) { return (float)((double)(rnd() & 0xFFFFFF) / 8388608.0 - 1.0); }

#define MAXIN 2048
#define MAXF 4096
#define MAXOUT 4096
#define GUARD 8
static float in[MAXIN], filt[MAXF], bias[256], out_t[MAXOUT + GUARD], out_r[MAXOUT + GUARD];
static double exact[MAXOUT], bound[MAXOUT];

static double clampd(double x, float lo, float hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

/* compares out_t / out_r (n values) with exact / bound */
static void compare(const char *what, int idx, int32_t n) {
  int32_t i, ok_t = 1, ok_r = 1, same = 1;
  for (i = 0; i < n; i++) {
    if (isnan(exact[i])) { /* a NaN bias: the portable clamp keeps the NaN */
      ok_t &= isnan(out_t[i]) != 0;
      ok_r &= isnan(out_r[i]) != 0;
      continue;
    }
    ok_t &= fabs((double)out_t[i] - exact[i]) <= bound[i];
    ok_r &= fabs((double)out_r[i] - exact[i]) <= bound[i];
    same &= memcmp(&out_t[i], &out_r[i], sizeof(float)) == 0;
  }
  for (i = n; i < n + GUARD; i++) ok_t &= out_t[i] == 12345.0f && out_r[i] == 12345.0f;
  check(ok_t, what, idx);
  check(ok_r, what, idx);
#ifdef AOT_F32_BLK
  check(same, what, idx);
#else
  (void)same;
#endif
}

static void fill(float *v, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++) v[i] = rf();
}

static void acts(float *lo, float *hi) {
  switch (rr(0, 2)) {
    case 0: *lo = -INFINITY; *hi = INFINITY; break;
    case 1: *lo = 0.0f; *hi = INFINITY; break;
    default: *lo = -0.5f; *hi = 0.5f; break;
  }
}

/* CONV_2D (dw = 0) or DEPTHWISE_CONV_2D (dw = 1), exact double sums */
static void exact_conv(const aot_conv_params *p, int dw, const float *b) {
  const int32_t fic = dw ? 1 : p->filter_in_c;
  const int32_t per_group = dw ? p->depth_multiplier : p->out_c / (p->in_c / fic);
  int32_t n, oy, ox, oc, fy, fx, k, o = 0;
  for (n = 0; n < p->batches; n++)
    for (oy = 0; oy < p->out_h; oy++)
      for (ox = 0; ox < p->out_w; ox++)
        for (oc = 0; oc < p->out_c; oc++, o++) {
          double s = 0.0, a = 0.0;
          int32_t taps = 0;
          for (fy = 0; fy < p->filter_h; fy++)
            for (fx = 0; fx < p->filter_w; fx++) {
              const int32_t iy = oy * p->stride_h - p->pad_h + fy * p->dilation_h;
              const int32_t ix = ox * p->stride_w - p->pad_w + fx * p->dilation_w;
              if (iy < 0 || iy >= p->in_h || ix < 0 || ix >= p->in_w) continue;
              for (k = 0; k < fic; k++) {
                const int32_t ic = dw ? oc / per_group : (oc / per_group) * fic + k;
                const double x = in[((n * p->in_h + iy) * p->in_w + ix) * p->in_c + ic];
                const double w = dw ? filt[(fy * p->filter_w + fx) * p->out_c + oc]
                                    : filt[((oc * p->filter_h + fy) * p->filter_w + fx) * fic + k];
                s += x * w;
                a += fabs(x * w);
                taps++;
              }
            }
          if (b) {
            s += b[oc];
            a += fabs(b[oc]);
          }
          exact[o] = clampd(s, p->act_min_f, p->act_max_f);
          bound[o] = (taps + 2) * ldexp(1.0, -23) * a;
        }
}

static int32_t conv_case(aot_conv_params *p, int dw) {
  const int32_t eh = (p->filter_h - 1) * p->dilation_h + 1, ew = (p->filter_w - 1) * p->dilation_w + 1;
  p->pad_h = rr(0, eh - 1);
  p->pad_w = rr(0, ew - 1);
  if (p->in_h + 2 * p->pad_h < eh || p->in_w + 2 * p->pad_w < ew) return 0;
  p->out_h = (p->in_h + 2 * p->pad_h - eh) / p->stride_h + 1;
  p->out_w = (p->in_w + 2 * p->pad_w - ew) / p->stride_w + 1;
  acts(&p->act_min_f, &p->act_max_f);
  (void)dw;
  return p->batches * p->in_h * p->in_w * p->in_c <= MAXIN &&
         p->batches * p->out_h * p->out_w * p->out_c <= MAXOUT;
}

static void run_conv(int idx, int dw) {
  aot_conv_params p;
  int32_t nf, nout, st_t, st_r;
  const float *b;
  memset(&p, 0, sizeof p);
  do {
    p.batches = rr(1, 2);
    p.in_h = rr(1, 9);
    p.in_w = rr(1, 9);
    p.filter_h = rr(1, 5);
    p.filter_w = rr(1, 5);
    p.stride_h = rr(1, 3);
    p.stride_w = rr(1, 3);
    p.dilation_h = rr(0, 3) == 0 ? rr(2, 3) : 1;
    p.dilation_w = rr(0, 3) == 0 ? rr(2, 3) : 1;
    if (dw) {
      p.in_c = rr(1, 20);
      p.depth_multiplier = rr(0, 2) == 0 ? rr(2, 5) : 1;
      p.out_c = p.in_c * p.depth_multiplier;
      p.filter_in_c = 1;
      nf = p.filter_h * p.filter_w * p.out_c;
    } else {
      const int32_t groups = rr(0, 4) == 0 ? rr(2, 3) : 1;
      p.filter_in_c = rr(1, 12);
      p.in_c = p.filter_in_c * groups;
      p.out_c = groups * rr(1, 19);
      nf = p.out_c * p.filter_h * p.filter_w * p.filter_in_c;
    }
  } while (nf > MAXF || p.out_c > 256 || !conv_case(&p, dw));
  nout = p.batches * p.out_h * p.out_w * p.out_c;
  fill(in, p.batches * p.in_h * p.in_w * p.in_c);
  fill(filt, nf);
  fill(bias, p.out_c);
  b = rr(0, 3) == 0 ? NULL : bias;
  if (b && rr(0, 2) == 0) bias[rr(0, p.out_c - 1)] = NAN; /* NaN through the clamp */
  exact_conv(&p, dw, b);
  {
    int32_t i;
    for (i = 0; i < nout + GUARD; i++) out_t[i] = out_r[i] = 12345.0f;
  }
  if (dw) {
    st_t = aot_dwconv2d_f32(&p, in, filt, b, out_t);
    st_r = ref_dwconv2d_f32(&p, in, filt, b, out_r);
  } else {
    st_t = aot_conv2d_f32(&p, in, filt, b, out_t);
    st_r = ref_conv2d_f32(&p, in, filt, b, out_r);
  }
  check(st_t == AOT_KERNEL_OK && st_r == AOT_KERNEL_OK, dw ? "dwconv status" : "conv status", idx);
  compare(dw ? "dwconv_f32" : "conv2d_f32", idx, nout);
}

static void run_fc(int idx) {
  aot_fc_params p;
  int32_t nout, r, o, k;
  const float *b;
  memset(&p, 0, sizeof p);
  p.batches = rr(1, 3);
  p.in_depth = rr(1, 150);
  p.out_depth = rr(1, 27);
  acts(&p.act_min_f, &p.act_max_f);
  nout = p.batches * p.out_depth;
  fill(in, p.batches * p.in_depth);
  fill(filt, p.out_depth * p.in_depth);
  fill(bias, p.out_depth);
  b = rr(0, 3) == 0 ? NULL : bias;
  if (b && rr(0, 2) == 0) bias[rr(0, p.out_depth - 1)] = NAN; /* NaN through the clamp */
  for (r = 0; r < p.batches; r++)
    for (o = 0; o < p.out_depth; o++) {
      double s = b ? b[o] : 0.0, a = b ? fabs(b[o]) : 0.0;
      for (k = 0; k < p.in_depth; k++) {
        const double t = (double)in[r * p.in_depth + k] * filt[o * p.in_depth + k];
        s += t;
        a += fabs(t);
      }
      exact[r * p.out_depth + o] = clampd(s, p.act_min_f, p.act_max_f);
      bound[r * p.out_depth + o] = (p.in_depth + 2) * ldexp(1.0, -23) * a;
    }
  for (o = 0; o < nout + GUARD; o++) out_t[o] = out_r[o] = 12345.0f;
  check(aot_fc_f32(&p, in, filt, b, out_t) == AOT_KERNEL_OK &&
            ref_fc_f32(&p, in, filt, b, out_r) == AOT_KERNEL_OK, "fc status", idx);
  compare("fc_f32", idx, nout);
}

/* ---- hybrid CONV_2D / FULLY_CONNECTED (float activations, int8 weights):
 * the target variant (aot_hybrid_simd.h) must equal the portable kernel bit
 * for bit; scratch of the planned size with guard bytes after it */
#define MAXSCR 16384
static int8_t wq[MAXF];
static float fsc[256];
static unsigned char scr[MAXSCR + GUARD];

static void fill_hyb(int32_t nin, int32_t nw, int32_t nout) {
  int32_t i;
  const int mode = rr(0, 7);
  for (i = 0; i < nin; i++) {
    in[i] = rf() * (float)rr(1, 8);
    if (mode == 1 && in[i] < 0.0f) in[i] = -in[i];  /* zero point -128 */
    if (mode == 2 && in[i] > 0.0f) in[i] = -in[i];  /* zero point 127 */
    if (mode == 3 && rr(0, 3) == 0) in[i] = 0.0f;
  }
  if (mode == 4) in[rr(0, nin - 1)] = rr(0, 1) ? INFINITY : -INFINITY; /* portable fallback */
  if (mode == 5) {  /* a range that overflows: scale inf, reciprocal 0 */
    in[0] = 3.0e38f;
    in[nin - 1] = -3.0e38f;
  }
  for (i = 0; i < nw; i++) wq[i] = (int8_t)rr(-128, 127);
  for (i = 0; i < 256; i++) {
    fsc[i] = (float)rr(1, 1000) * 1e-4f;
    bias[i] = rf();
  }
  for (i = 0; i < nout + GUARD; i++) out_t[i] = out_r[i] = 12345.0f;
}

static void check_hyb(const char *what, int idx, int32_t st_t, int32_t st_r, int32_t nout,
                      size_t scr_n) {
  int32_t i, ok = st_t == AOT_KERNEL_OK && st_r == AOT_KERNEL_OK;
  ok &= memcmp(out_t, out_r, (size_t)nout * sizeof(float)) == 0;
  for (i = nout; i < nout + GUARD; i++) ok &= out_t[i] == 12345.0f && out_r[i] == 12345.0f;
  for (i = 0; i < GUARD; i++) ok &= scr[scr_n + (size_t)i] == 0xA5;
  check(ok, what, idx);
}

static void run_hyb_conv(int idx) {
  aot_conv_params p;
  aot_hybrid_params h;
  int32_t nf, nout, st_t, st_r;
  size_t sn;
  const float *b;
  memset(&p, 0, sizeof p);
  do {
    const int gemm = rr(0, 2) == 0;
    p.batches = rr(1, 2);
    p.in_h = rr(1, 9);
    p.in_w = rr(1, 9);
    p.filter_h = gemm ? 1 : rr(1, 5);
    p.filter_w = gemm ? 1 : rr(1, 5);
    p.stride_h = gemm ? 1 : rr(1, 3);
    p.stride_w = gemm ? 1 : rr(1, 3);
    p.dilation_h = !gemm && rr(0, 3) == 0 ? rr(2, 3) : 1;
    p.dilation_w = !gemm && rr(0, 3) == 0 ? rr(2, 3) : 1;
    p.in_c = p.filter_in_c = rr(1, 40);
    p.out_c = rr(1, 21);
    p.depth_multiplier = 1;
    nf = p.out_c * p.filter_h * p.filter_w * p.in_c;
    if (!conv_case(&p, 0)) continue;
    if (gemm) {
      p.pad_h = p.pad_w = 0;
      p.out_h = p.in_h;
      p.out_w = p.in_w;
    }
  } while (nf > MAXF || p.batches * p.out_h * p.out_w * p.out_c > MAXOUT ||
           p.batches * p.in_h * p.in_w * p.in_c > MAXIN ||
           (sn = aot_conv2d_hybrid_buffer_size(&p)) > MAXSCR);
  nout = p.batches * p.out_h * p.out_w * p.out_c;
  fill_hyb(p.batches * p.in_h * p.in_w * p.in_c, nf, nout);
  h.per_channel = rr(0, 1);
  h.filter_scale = fsc;
  b = rr(0, 3) == 0 ? NULL : bias;
  memset(scr, 0xA5, sizeof scr);
  st_t = aot_conv2d_hybrid(&p, &h, in, wq, b, out_t, scr);
  st_r = ref_conv2d_hybrid(&p, &h, in, wq, b, out_r, scr);
  check_hyb("conv2d_hybrid", idx, st_t, st_r, nout, sn);
}

static void run_hyb_fc(int idx) {
  aot_fc_params p;
  aot_hybrid_params h;
  int32_t nout, st_t, st_r;
  size_t sn;
  const float *b;
  memset(&p, 0, sizeof p);
  p.batches = rr(1, 4);
  p.in_depth = rr(1, 300);
  p.out_depth = rr(1, 13);
  acts(&p.act_min_f, &p.act_max_f);
  nout = p.batches * p.out_depth;
  fill_hyb(p.batches * p.in_depth, p.in_depth * p.out_depth, nout);
  h.per_channel = rr(0, 1);
  h.filter_scale = fsc;
  b = rr(0, 3) == 0 ? NULL : bias;
  sn = aot_fc_hybrid_buffer_size(&p);
  memset(scr, 0xA5, sizeof scr);
  st_t = aot_fc_hybrid(&p, &h, in, wq, b, out_t, scr);
  st_r = ref_fc_hybrid(&p, &h, in, wq, b, out_r, scr);
  check_hyb("fc_hybrid", idx, st_t, st_r, nout, sn);
}

#ifdef F32_BENCH
static float big_in[25 * 5 * 64], big_f[64 * 64], big_o[25 * 5 * 64];
static int bench(void) {
  aot_conv_params p;
  aot_fc_params f;
  int32_t st;
  memset(&p, 0, sizeof p);
  fill(big_in, 25 * 5 * 64);
  fill(bias, 64);
  fill(big_f, 64 * 64);
  p.batches = 1;
  p.in_h = p.out_h = 25;
  p.in_w = p.out_w = 5;
  p.in_c = p.out_c = p.filter_in_c = 64;
  p.filter_h = p.filter_w = 1;
  p.stride_h = p.stride_w = p.dilation_h = p.dilation_w = 1;
  p.depth_multiplier = 1;
  p.act_min_f = 0.0f;
  p.act_max_f = INFINITY;
  target_count_start();
  switch (F32_BENCH) {
    case 1: st = aot_conv2d_f32(&p, big_in, big_f, bias, big_o); break;
    case 2:
      p.filter_h = p.filter_w = 3;
      p.pad_h = p.pad_w = 1;
      p.filter_in_c = 1;
      st = aot_dwconv2d_f32(&p, big_in, big_f, bias, big_o);
      break;
    case 3:
      p.in_h = 49;
      p.in_w = 10;
      p.in_c = p.filter_in_c = 1;
      p.filter_h = 10;
      p.filter_w = 4;
      p.stride_h = p.stride_w = 2;
      p.pad_h = 4;
      p.pad_w = 1;
      st = aot_conv2d_f32(&p, big_in, big_f, bias, big_o);
      break;
    default:
      memset(&f, 0, sizeof f);
      f.batches = 1;
      f.in_depth = 64;
      f.out_depth = 12;
      f.act_min_f = -INFINITY;
      f.act_max_f = INFINITY;
      st = aot_fc_f32(&f, big_in, big_f, bias, big_o);
      break;
  }
  target_count_stop();
  printf("bench %d: status %d, out %f\n", F32_BENCH, (int)st, (double)big_o[7]);
  return st != 0;
}
#endif

int main(void) {
  int i;
#ifdef F32_BENCH
  return bench();
#endif
#if defined(AOT_F32_MVE)
  printf("f32 kernels (Helium)\n");
#elif defined(AOT_F32_BLK)
  printf("f32 kernels (register-blocked FPU)\n");
#else
  printf("f32 kernels (portable)\n");
#endif
  for (i = 0; i < 300; i++) run_conv(i, 0);
  for (i = 0; i < 300; i++) run_conv(i, 1);
  for (i = 0; i < 200; i++) run_fc(i);
  for (i = 0; i < 300; i++) run_hyb_conv(i);
  for (i = 0; i < 200; i++) run_hyb_fc(i);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
