/* mve_kernels.c - Cortex-M55 (QEMU) check of the Helium (MVE) int8 kernels.
 *
 * 1. The vector requantization of runtime/aot_mve.h (aot_mve_mbqm) against
 *    the portable aot_mbqm of aot_common.h (TFLite MultiplyByQuantizedMultiplier,
 *    double rounding): edge accumulators (INT32_MIN/MAX, powers of two and
 *    their neighbours), every right shift 0..31 with values on, just below and
 *    just above each rounding tie (positive and negative), every left shift,
 *    edge multipliers, and random triples.
 * 2. CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and AVERAGE_POOL_2D int8 on
 *    random shapes (odd channel counts, tails that are not multiples of 16,
 *    padding that clips or empties the window, strides, dilation, groups,
 *    depth multiplier > 1, per-channel and per-tensor requantization, no
 *    bias, filters larger than the conv window copy; CONV_2D 1 x fw runs
 *    read in place, first layers of 1-3 input channels, layers cut into
 *    several packed channel blocks): the kernels as built
 *    for this target (aot_*, the MVE path on Cortex-M55) against the same
 *    files compiled with AOT_NO_SIMD (ref_*, mve_ref_kernels.c), byte for
 *    byte, including the bytes after the output (nothing written past it).
 * Prints one line per failure and "N passed, M failed"; exit status 0 when
 * everything passed. Built and run by tests/integration/test_mve.sh. */
#include <stdio.h>
#include <string.h>

#include "aot_conv.h"
#include "aot_mve.h"
#include "aot_dsp.h"

int32_t ref_conv2d_s8(const aot_conv_params *p, const int8_t *input, const int8_t *filter,
                      const int32_t *bias, int8_t *output, void *scratch);
int32_t ref_dwconv2d_s8(const aot_conv_params *p, const int8_t *input, const int8_t *filter,
                        const int32_t *bias, int8_t *output, void *scratch);
int32_t ref_fc_s8(const aot_fc_params *p, const int8_t *input, const int8_t *weights,
                  const int32_t *bias, int8_t *output);
int32_t ref_avgpool_s8(const aot_pool_params *p, const int8_t *input, int8_t *output);

#define KC_SEED 0x12345678u
#include "kernel_check.h"

/* ---- 1. requantization -------------------------------------------------- */
#ifdef AOT_MVE
static int rq_bad;
static void rq4(const int32_t *x, const int32_t *m, const int32_t *s) {
  int32_t out[4];
  int i;
  vst1q_s32(out, aot_mve_mbqm(vld1q_s32(x), aot_mve_rq_make(vld1q_s32(m), vld1q_s32(s))));
  for (i = 0; i < 4; i++) {
    const int32_t want = aot_mbqm(x[i], m[i], s[i]);
    if (out[i] != want || aot_conv_mbqm(x[i], m[i], s[i]) != want) {
      if (rq_bad < 20)
        printf("requant x=%ld m=%ld shift=%ld: mve %ld, aot_mbqm %ld, aot_conv_mbqm %ld\n",
               (long)x[i], (long)m[i], (long)s[i], (long)out[i], (long)want,
               (long)aot_conv_mbqm(x[i], m[i], s[i]));
      rq_bad++;
    }
  }
}

/* queue of (x, m, shift) triples checked four at a time */
static int32_t qx[4], qm[4], qs[4];
static int qn;
static long rq_count;
static void rq(int32_t x, int32_t m, int32_t s) {
  qx[qn] = x;
  qm[qn] = m;
  qs[qn] = s;
  rq_count++;
  if (++qn == 4) {
    rq4(qx, qm, qs);
    qn = 0;
  }
}

static void test_requant(void) {
  static const int32_t mults[] = {0, 1, 2, 3, 0x3FFFFFFF, 0x40000000, 0x40000001, 0x55555555,
                                  0x60000000, 0x7FFFFFFE, 0x7FFFFFFF};
  int32_t xs[200];
  int nx = 0, e, k, i, j, s, d;
  /* edge accumulators */
  xs[nx++] = INT32_MIN;
  xs[nx++] = INT32_MIN + 1;
  xs[nx++] = INT32_MAX;
  xs[nx++] = INT32_MAX - 1;
  xs[nx++] = 0;
  xs[nx++] = 1;
  xs[nx++] = -1;
  for (e = 1; e < 31; e++) {
    const int32_t v = (int32_t)1 << e;
    xs[nx++] = v;
    xs[nx++] = v - 1;
    xs[nx++] = v + 1;
    xs[nx++] = -v;
    xs[nx++] = -v - 1;
    xs[nx++] = 1 - v;
  }
  rq_bad = 0;
  for (i = 0; i < nx; i++)
    for (j = 0; j < (int)(sizeof mults / sizeof mults[0]); j++)
      for (s = -31; s <= 30; s++) rq(xs[i], mults[j], s);
  /* rounding ties of RoundingDivideByPOT: the high multiply is the identity
   * for |x| < 2^30 with m = 2^31 - 1, and maps 2t and 2t - 1 to t with
   * m = 2^30; t = k * 2^e + 2^(e-1) + d for d in -1..1, both signs */
  for (e = 1; e <= 31; e++) {
    for (k = -54; k <= 54; k++) {
      /* k near 0, and (k > 40) near the ends of the range */
      const int64_t big = (int64_t)1 << (30 - (e < 30 ? e : 30));
      const int64_t kk = k < -40 ? -big + (k + 47) : (k > 40 ? big + (k - 47) : k);
      for (d = -1; d <= 1; d++) {
        const int64_t t = kk * ((int64_t)1 << e) + ((int64_t)1 << (e - 1)) + d;
        if (t > -((int64_t)1 << 30) && t < ((int64_t)1 << 30)) rq((int32_t)t, 0x7FFFFFFF, -e);
        if (t >= -((int64_t)1 << 30) && t < ((int64_t)1 << 30)) {
          rq((int32_t)(2 * t), 0x40000000, -e);
          if (t > -((int64_t)1 << 30)) rq((int32_t)(2 * t - 1), 0x40000000, -e);
        }
      }
    }
  }
  /* random triples, realistic and full-range */
  for (i = 0; i < 200000; i++) {
    const int32_t x = (i & 1) ? (int32_t)rnd() : rr(-(1 << 20), 1 << 20);
    const int32_t m = (i & 2) ? (int32_t)(rnd() >> 1) : rr(0x40000000, 0x7FFFFFFF);
    const int32_t sh = (i & 4) ? rr(-31, 30) : rr(-20, 2);
    rq(x, m, sh);
  }
  while (qn != 0) rq(0, 0x40000000, 0);
  printf("requant: %ld triples, %d mismatches\n", rq_count, rq_bad);
  check(rq_bad == 0, "requant", 0);
}
#endif

/* aot_conv_mbqm (the kernels' requantization, aot_conv.h) against aot_mbqm
 * (aot_common.h, the TFLite reference arithmetic): every shift -31..4 with
 * accumulators on, below and above each rounding tie of the right shift,
 * edge accumulators and multipliers, and random triples. */
static void test_conv_mbqm(void) {
  static const int32_t xs[] = {0, 1, -1, 2, -2, 3, -3, 0x7FFFFFFF, (int32_t)0x80000000,
                               0x7FFFFFFE, (int32_t)0x80000001, 0x40000000, -0x40000000};
  static const int32_t ms[] = {0, 1, 0x40000000, 0x7FFFFFFF, 0x7FFFFFFE, 0x55555555};
  long bad = 0, n = 0;
  int32_t s, i, j, k;
  for (s = -31; s <= 4; s++) {
    for (i = 0; i < (int32_t)(sizeof xs / sizeof xs[0]); i++)
      for (j = 0; j < (int32_t)(sizeof ms / sizeof ms[0]); j++) {
        n++;
        bad += aot_conv_mbqm(xs[i], ms[j], s) != aot_mbqm(xs[i], ms[j], s);
      }
    for (k = 0; k < 400; k++) {
      /* x * m / 2^31 lands near a tie of the right shift: m = 2^30 gives x / 2 */
      const int32_t e = s < 0 ? -s : 0;
      const int32_t base = (int32_t)rnd() >> (e < 30 ? 1 : 0);
      const int32_t tie = e > 0 && e < 31 ? (int32_t)(((int64_t)(base >> e) << e) + ((int64_t)1 << (e - 1))) : base;
      const int32_t x2 = (int32_t)((uint32_t)tie * 2u) + (int32_t)(k % 5) - 2;
      const int32_t x = (int32_t)rnd();
      const int32_t m = (int32_t)(rnd() >> 1);
      n += 2;
      bad += aot_conv_mbqm(x2, 0x40000000, s) != aot_mbqm(x2, 0x40000000, s);
      bad += aot_conv_mbqm(x, m, s) != aot_mbqm(x, m, s);
    }
  }
  printf("conv requant: %ld triples, %ld mismatches\n", n, bad);
  check(bad == 0, "conv_mbqm", 0);
}

/* ---- 2. kernels ----------------------------------------------------------- */
#define IN_MAX 16384
#define FILT_MAX 49152
#define OUT_MAX 32768
#define CH_MAX 256
#define GUARD 64
static int8_t in_buf[IN_MAX], filt_buf[FILT_MAX];
static int32_t kbias_buf[CH_MAX];   /* test_fc: the folded bias */
static int8_t out_a[OUT_MAX + GUARD], out_b[OUT_MAX + GUARD];
static int32_t bias_buf[CH_MAX], mult_buf[CH_MAX], shift_buf[CH_MAX];
/* the conv / depthwise scratch (aot_conv2d_s8_scratch_size bytes), guard
 * bytes after it; the reference kernels get their own */
#define SCRATCH_MAX 16384
static uint64_t scratch_a[(SCRATCH_MAX + GUARD) / 8], scratch_b[(SCRATCH_MAX + GUARD) / 8];
static int32_t ckbias_buf[CH_MAX];   /* conv / depthwise: the folded bias */

static void fill_s8(int8_t *p, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++) p[i] = (int8_t)rnd();
}

/* per-channel multipliers and shifts of n channels */
static void fill_rq(int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++) {
    mult_buf[i] = (rnd() % 64 == 0) ? (int32_t)(rnd() >> 1) : rr(0x40000000, 0x7FFFFFFF);
    shift_buf[i] = (rnd() % 16 == 0) ? rr(-31, 4) : rr(-14, 0);
    bias_buf[i] = rr(-(1 << 16), 1 << 16);
    if (rnd() % 32 == 0) {   /* a dead channel: multiplier 0, any shift */
      mult_buf[i] = 0;
      shift_buf[i] = rr(-8, 8);
    }
  }
}

static void fill_act(int32_t *lo, int32_t *hi) {
  if (rnd() % 2) {
    *lo = -128;
    *hi = 127;
  } else {
    *lo = rr(-128, 20);
    *hi = rr(*lo, 127);
  }
}

/* runs a kernel pair into out_a (MVE build) / out_b (portable), compares */
static int compare_out(int32_t ra, int32_t rb, int32_t n) {
  return ra == rb && memcmp(out_a, out_b, (size_t)n + GUARD) == 0;
}
static void clear_out(void) {
  memset(out_a, 0x5A, sizeof out_a);
  memset(out_b, 0x5A, sizeof out_b);
}

/* Fills the scratch buffers with garbage and guard bytes after n bytes;
 * 0 when n is past SCRATCH_MAX. */
static int scratch_prep(size_t n) {
  if (n > SCRATCH_MAX) return 0;
  memset(scratch_a, 0xA5, sizeof scratch_a);
  memset(scratch_b, 0xA5, sizeof scratch_b);
  return 1;
}
/* 1 when no kernel wrote past the n scratch bytes it was given */
static int scratch_kept(size_t n) {
  const uint8_t *a = (const uint8_t *)scratch_a + n, *b = (const uint8_t *)scratch_b + n;
  size_t i;
  for (i = 0; i < GUARD; i++)
    if (a[i] != 0xA5 || b[i] != 0xA5) return 0;
  return 1;
}
/* Half of the cases: the folded bias kbias[c] = bias[c] + input_offset *
 * (sum of channel c's taps) as aotc computes it, in p->kbias (the SIMD
 * kernels start from it; the portable kernel ignores it). */
static void maybe_kbias(aot_conv_params *p, const int32_t *bias, int dw) {
  const int32_t taps = p->filter_h * p->filter_w * (dw ? 1 : p->filter_in_c);
  int32_t c, i;
  p->kbias = NULL;
  if (rnd() % 2) return;
  for (c = 0; c < p->out_c; c++) {
    uint32_t s = 0;
    for (i = 0; i < taps; i++)
      s += (uint32_t)(int32_t)(dw ? filt_buf[i * p->out_c + c] : filt_buf[c * taps + i]);
    ckbias_buf[c] = (int32_t)((bias ? (uint32_t)bias[c] : 0u) + s * (uint32_t)p->input_offset);
  }
  p->kbias = ckbias_buf;
}

/* output size of one spatial dim (at least 1) */
static int32_t out_dim(int32_t in, int32_t f, int32_t stride, int32_t dil, int32_t pad) {
  const int32_t span = dil * (f - 1) + 1;
  const int32_t o = (in + 2 * pad - span) / stride + 1;
  return o < 1 ? 1 : o;
}

static void spatial(aot_conv_params *p, int32_t fmax, int32_t inmax) {
  p->batches = rr(1, 2);
  p->in_h = rr(1, inmax);
  p->in_w = rr(1, inmax);
  p->filter_h = rr(1, fmax);
  p->filter_w = rr(1, fmax);
  p->stride_h = rr(1, 3);
  p->stride_w = rr(1, 3);
  p->dilation_h = rnd() % 2 ? 1 : rr(1, 3);
  p->dilation_w = rnd() % 2 ? 1 : rr(1, 3);
  p->pad_h = rr(0, aot_min_i32(p->dilation_h * (p->filter_h - 1) + 1, 4));
  p->pad_w = rr(0, aot_min_i32(p->dilation_w * (p->filter_w - 1) + 1, 4));
  p->out_h = out_dim(p->in_h, p->filter_h, p->stride_h, p->dilation_h, p->pad_h);
  p->out_w = out_dim(p->in_w, p->filter_w, p->stride_w, p->dilation_w, p->pad_w);
  p->input_offset = rr(-127, 128);
  p->output_offset = rr(-128, 127);
  fill_act(&p->act_min, &p->act_max);
  p->out_mult = mult_buf;
  p->out_shift = shift_buf;
}

static int npacked;   /* conv cases with a filter packed at compile time */
static int nother;    /* cases run again on the other DSP path (dsp_variant) */

/* The layer p again on the DSP path aotc's cost model may choose instead
 * of the kernel's rule (aot_conv_params.dsp_variant v: the four-position
 * path, the depthwise tap-pair loop), when the layer has one: the same
 * outputs as the portable kernel (out_b, status rb), within its scratch.
 * Helium and portable builds ignore the field: the same check holds. */
static void other_path(aot_conv_params *p, int dw, int32_t v, const int32_t *bias, int32_t rb,
                       int32_t o_n, int done) {
  size_t sv, g;
  int32_t ra;
  if (dw ? !aot_dwconv2d_s8_dsp_is3(p) : !aot_conv2d_s8_dsp_gw(p)) return;
  p->dsp_variant = v;
  sv = dw ? aot_dwconv2d_s8_scratch_size(p) : aot_conv2d_s8_scratch_size(p);
  if (sv <= SCRATCH_MAX) {
    memset(scratch_a, 0xA5, sizeof scratch_a);
    memset(out_a, 0x5A, sizeof out_a);
    ra = dw ? aot_dwconv2d_s8(p, in_buf, filt_buf, bias, out_a, scratch_a)
            : aot_conv2d_s8(p, in_buf, filt_buf, bias, out_a, scratch_a);
    for (g = 0; g < GUARD && ((const uint8_t *)scratch_a)[sv + g] == 0xA5; g++) {
    }
    check(compare_out(ra, rb, o_n) && g == GUARD,
          dw ? "dwconv2d_s8 on the tap-pair loop (dsp_variant)"
             : "conv2d_s8 on the four-position path (dsp_variant)",
          done);
    nother++;
  }
  p->dsp_variant = 0;
}
static void test_conv(int n_cases) {
  int it, done = 0;
  for (it = 0; done < n_cases; it++) {
    aot_conv_params p;
    int32_t groups, in_n, f_n, o_n, ra, rb, kind = it % 11;
    size_t sn;
    const int32_t *bias;
    memset(&p, 0, sizeof p);
    spatial(&p, 5, 10);
    groups = rnd() % 4 == 0 ? rr(2, 3) : 1;
    p.filter_in_c = rr(1, groups > 1 ? 12 : 40);
    p.out_c = groups * rr(1, groups > 1 ? 9 : 37);
    if (kind == 0) {   /* pointwise */
      p.filter_h = p.filter_w = 1;
      p.pad_h = p.pad_w = 0;
      p.dilation_h = p.dilation_w = 1;
    } else if (kind == 8) {   /* 1 x fw runs read in place (Helium), any strides */
      groups = 1;
      p.filter_h = 1;
      p.dilation_w = 1;
      p.pad_h = p.pad_w = 0;
      p.filter_in_c = rr(1, 24);
      p.in_w = rr(p.filter_w, 12);
    } else if (kind == 9) {   /* first layers: 1-3 input channels, 3x3 or 10x4, padding */
      groups = 1;
      p.filter_in_c = rr(1, 3);
      p.filter_h = rnd() % 2 ? 3 : 10;
      p.filter_w = p.filter_h == 3 ? 3 : 4;
      p.dilation_h = p.dilation_w = 1;
      p.in_h = rr(p.filter_h, p.filter_h + 8);
      p.in_w = rr(p.filter_w, 14);
      p.pad_h = rr(0, p.filter_h / 2);
      p.pad_w = rr(0, p.filter_w / 2);
      p.stride_h = p.stride_w = rr(1, 2);
      p.out_c = rr(1, 20);
    } else if (kind == 10) {   /* packed blocks of fewer channels than the layer (Helium) */
      groups = 1;
      p.filter_h = p.filter_w = 3;
      p.filter_in_c = rr(24, 40);
      p.out_c = rr(30, 70);
      if (rnd() % 2) {   /* a filter aotc packs (fsize % 16 == 0, out_c % 4 == 0) */
        p.filter_in_c = 16 * rr(1, 2);
        p.out_c = 4 * rr(2, 17);
      }
      p.in_h = rr(1, 6);
      p.in_w = rr(1, 6);
    } else if (kind == 4) {   /* pointwise stride 1: one matrix product (full blocks of 4) */
      groups = 1;
      p.filter_h = p.filter_w = 1;
      p.stride_h = p.stride_w = 1;
      p.pad_h = p.pad_w = 0;
      p.filter_in_c = rnd() % 2 ? 16 * rr(1, 4) : rr(1, 70);
      p.out_c = 4 * rr(1, 12);
    } else if (kind == 5) {   /* im2col of one position at a time (fsize 513..1017) */
      groups = 1;
      p.filter_h = p.filter_w = 3;
      p.filter_in_c = rr(57, 113);
      p.out_c = rnd() % 2 ? 4 * rr(1, 6) : rr(1, 24);
      p.in_h = rr(1, 5);
      p.in_w = rr(1, 5);
      p.pad_h = rr(0, 2 * p.dilation_h + 1);
      p.pad_w = rr(0, 2 * p.dilation_w + 1);
    } else if (kind == 1) {   /* 1 x fw row, no dilation (direct run) */
      p.filter_h = 1;
      p.pad_h = 0;
      p.dilation_w = 1;
    } else if (kind == 3) {   /* more output channels than one pass of kernel sums */
      p.out_c = groups * (groups == 1 ? rr(60, 140) : rr(30, 140 / groups));
    } else if (kind == 2) {   /* window larger than the on-stack copy */
      groups = 1;
      p.filter_h = p.filter_w = 5;
      p.filter_in_c = rr(41, 60);
      p.out_c = rr(1, 9);
      p.in_h = rr(3, 7);
      p.in_w = rr(3, 7);
    }
    p.in_c = p.filter_in_c * groups;
    p.out_h = out_dim(p.in_h, p.filter_h, p.stride_h, p.dilation_h, p.pad_h);
    p.out_w = out_dim(p.in_w, p.filter_w, p.stride_w, p.dilation_w, p.pad_w);
    in_n = p.batches * p.in_h * p.in_w * p.in_c;
    f_n = p.out_c * p.filter_h * p.filter_w * p.filter_in_c;
    o_n = p.batches * p.out_h * p.out_w * p.out_c;
    if (in_n > IN_MAX || f_n > FILT_MAX || o_n > OUT_MAX || p.out_c > CH_MAX) continue;
    fill_s8(in_buf, in_n);
    fill_s8(filt_buf, f_n);
    fill_rq(p.out_c);
    if (it % 7 == 0) {   /* biases near 2^30: the DSP kernel's exact (64-bit) requantization */
      int32_t i;
      for (i = 0; i < p.out_c; i++) {   /* shifts that bring them back into int8 */
        bias_buf[i] = (rnd() % 2 ? 1 : -1) * rr((1 << 30) - (1 << 12), 1 << 30);
        shift_buf[i] = rr(-31, -23);
      }
    }
    bias = rnd() % 5 == 0 ? NULL : bias_buf;
    sn = aot_conv2d_s8_scratch_size(&p);
    if (!scratch_prep(sn)) continue;
    maybe_kbias(&p, bias, 0);
    clear_out();
    ra = aot_conv2d_s8(&p, in_buf, filt_buf, bias, out_a, scratch_a);
    rb = ref_conv2d_s8(&p, in_buf, filt_buf, bias, out_b, scratch_b);
    check(scratch_kept(sn), "conv2d_s8 scratch bound", done);
    if (!compare_out(ra, rb, o_n))
      printf("conv case %d: b%ld %ldx%ldx%ld f%ldx%ld fic%ld oc%ld s%ld,%ld d%ld,%ld pad%ld,%ld\n",
             done, (long)p.batches, (long)p.in_h, (long)p.in_w, (long)p.in_c, (long)p.filter_h,
             (long)p.filter_w, (long)p.filter_in_c, (long)p.out_c, (long)p.stride_h,
             (long)p.stride_w, (long)p.dilation_h, (long)p.dilation_w, (long)p.pad_h,
             (long)p.pad_w);
    check(compare_out(ra, rb, o_n), "conv2d_s8", done);
    other_path(&p, 0, AOT_DSP_VAR_G4, bias, rb, o_n, done);
    {
      /* the filter packed as aotc stores it for a Helium build
         (aot_conv_params.filter_packed), written out here: per four
         channels, per 16 taps, the four filters' 16 bytes in turn. The
         Helium kernel must give the same outputs; the others refuse it. */
      const int32_t fs = p.filter_h * p.filter_w * p.filter_in_c;
      static int8_t packed[FILT_MAX];
      int32_t c, q, i;
      if (groups == 1 && p.kbias && p.out_c % 4 == 0 && fs % 16 == 0 && fs <= 1024) {
        for (c = 0; c < p.out_c; c += 4)
          for (q = 0; q < fs; q += 16)
            for (i = 0; i < 4; i++)
              memcpy(packed + (size_t)c * fs + (size_t)q * 4 + (size_t)i * 16,
                     filt_buf + (size_t)(c + i) * fs + q, 16);
        p.filter_packed = 1;
        /* its own scratch size: no packing buffer, channel blocks of up to
           AOT_CONV_MVE_PACKED_CB (aot_conv2d_s8_mve_plan_of) */
        sn = aot_conv2d_s8_scratch_size(&p);
        scratch_prep(sn);
        memset(out_a, 0x5A, sizeof out_a);
        ra = aot_conv2d_s8(&p, in_buf, packed, bias, out_a, scratch_a);
        p.filter_packed = 0;
#ifdef AOT_MVE
        check(compare_out(ra, rb, o_n), "conv2d_s8 with the filter packed at compile time", done);
        check(scratch_kept(sn), "conv2d_s8 packed: scratch bound", done);
#else
        check(ra == AOT_KERNEL_BAD_PARAM, "conv2d_s8 refuses a packed filter without Helium", done);
#endif
        npacked++;
      }
    }
    done++;
  }
}

/* pointwise (1x1, one group, no padding) convolutions: the DSP build's
 * six-position kernel (aot_conv_pw_dsp.h) with its tails (1 to 5 positions
 * left, a single position), filter rows of any length (small 8 / 16, not a
 * multiple of four), strides, channels past one block, slow requantization */
static void test_conv_pw(int n_cases) {
  int it, done = 0;
  for (it = 0; done < n_cases; it++) {
    aot_conv_params p;
    int32_t in_n, f_n, o_n, ra, rb;
    size_t sn;
    const int32_t *bias;
    memset(&p, 0, sizeof p);
    spatial(&p, 1, 9);
    p.filter_h = p.filter_w = 1;
    p.pad_h = p.pad_w = 0;
    p.dilation_h = p.dilation_w = 1;
    if (it % 5 == 0) p.stride_h = p.stride_w = 1;
    if (it % 9 == 1) p.in_h = p.in_w = 1;             /* one position (per batch) */
    if (it % 9 == 2) { p.in_h = 1; p.in_w = rr(2, 11); p.stride_w = 1; }   /* tails */
    switch (it % 6) {
      case 0: p.in_c = 8; break;
      case 1: p.in_c = 16; break;
      case 2: p.in_c = rr(1, 7); break;
      case 3: p.in_c = rr(17, 300); break;
      default: p.in_c = rr(1, 80); break;
    }
    p.filter_in_c = p.in_c;
    p.out_c = it % 4 == 0 ? rr(1, 5) : rr(1, 90);
    p.out_h = out_dim(p.in_h, 1, p.stride_h, 1, 0);
    p.out_w = out_dim(p.in_w, 1, p.stride_w, 1, 0);
    in_n = p.batches * p.in_h * p.in_w * p.in_c;
    f_n = p.out_c * p.in_c;
    o_n = p.batches * p.out_h * p.out_w * p.out_c;
    if (in_n > IN_MAX || f_n > FILT_MAX || o_n > OUT_MAX || p.out_c > CH_MAX) continue;
    fill_s8(in_buf, in_n);
    fill_s8(filt_buf, f_n);
    fill_rq(p.out_c);
    if (it % 7 == 3) {   /* biases near 2^30: exact (64-bit) requantization */
      int32_t i;
      for (i = 0; i < p.out_c; i++) {
        if (rnd() % 2) continue;
        bias_buf[i] = (rnd() % 2 ? 1 : -1) * rr((1 << 30) - (1 << 12), 1 << 30);
        shift_buf[i] = rr(-31, -23);
      }
    }
    bias = rnd() % 5 == 0 ? NULL : bias_buf;
    sn = aot_conv2d_s8_scratch_size(&p);
    if (!scratch_prep(sn)) continue;
    maybe_kbias(&p, bias, 0);
    clear_out();
    ra = aot_conv2d_s8(&p, in_buf, filt_buf, bias, out_a, scratch_a);
    rb = ref_conv2d_s8(&p, in_buf, filt_buf, bias, out_b, scratch_b);
    check(scratch_kept(sn), "conv2d_s8 pointwise scratch bound", done);
    if (!compare_out(ra, rb, o_n))
      printf("conv pw case %d: b%ld %ldx%ldx%ld oc%ld s%ld,%ld\n", done, (long)p.batches,
             (long)p.in_h, (long)p.in_w, (long)p.in_c, (long)p.out_c, (long)p.stride_h,
             (long)p.stride_w);
    check(compare_out(ra, rb, o_n), "conv2d_s8 pointwise", done);
    done++;
  }
}

/* CONV_2D shapes of the DSP kernel's four-position path (aot_conv2d_s8.c
 * aot_conv2d_s8_dsp4): first layers of 1-3 input channels (rows of
 * filter_w * in_c taps not a multiple of four: reordered filters; or a
 * multiple: rows straight from the input), 3x3 layers whose rows are whole
 * groups of four taps, channel counts across the 64-channel block, and
 * fewer than four output positions in all. */
static void test_conv_dsp4(int n_cases) {
  int it, done = 0;
  for (it = 0; done < n_cases; it++) {
    aot_conv_params p;
    int32_t in_n, f_n, o_n, ra, rb, kind = it % 4;
    size_t sn;
    const int32_t *bias;
    memset(&p, 0, sizeof p);
    spatial(&p, 7, 20);
    p.dilation_w = rnd() % 4 ? 1 : rr(2, 3);
    if (kind == 0) {          /* first layer */
      p.filter_in_c = rr(1, 3);
      p.out_c = rr(1, 40);
      if (rnd() % 2) p.filter_h = p.filter_w = 3;
    } else if (kind == 1) {   /* 3x3, rows of whole groups */
      p.filter_h = p.filter_w = 3;
      p.filter_in_c = 4 * rr(1, 8);
      p.out_c = rnd() % 3 ? rr(1, 24) : rr(60, 70);
      p.in_h = rr(3, 10);
      p.in_w = rr(3, 10);
    } else if (kind == 2) {   /* 1-3 output positions */
      p.filter_in_c = rr(1, 12);
      p.out_c = rr(1, 20);
      p.batches = 1;
      p.in_h = p.filter_h;
      p.in_w = p.filter_w + rr(0, 2);
      p.stride_h = 1;
      p.stride_w = 1;
      p.pad_h = p.pad_w = 0;
      p.dilation_h = p.dilation_w = 1;
    } else {                  /* anything of few taps */
      p.filter_in_c = rr(1, 9);
      p.out_c = rr(1, 70);
    }
    p.pad_h = aot_min_i32(p.pad_h, p.dilation_h * (p.filter_h - 1));
    p.pad_w = aot_min_i32(p.pad_w, p.dilation_w * (p.filter_w - 1));
    p.in_c = p.filter_in_c;
    p.out_h = out_dim(p.in_h, p.filter_h, p.stride_h, p.dilation_h, p.pad_h);
    p.out_w = out_dim(p.in_w, p.filter_w, p.stride_w, p.dilation_w, p.pad_w);
    in_n = p.batches * p.in_h * p.in_w * p.in_c;
    f_n = p.out_c * p.filter_h * p.filter_w * p.filter_in_c;
    o_n = p.batches * p.out_h * p.out_w * p.out_c;
    if (in_n > IN_MAX || f_n > FILT_MAX || o_n > OUT_MAX || p.out_c > CH_MAX) continue;
    fill_s8(in_buf, in_n);
    fill_s8(filt_buf, f_n);
    fill_rq(p.out_c);
    if (it % 9 == 0) {   /* biases near 2^30: the exact (64-bit) requantization */
      int32_t i;
      for (i = 0; i < p.out_c; i++) {
        bias_buf[i] = (rnd() % 2 ? 1 : -1) * rr((1 << 30) - (1 << 12), 1 << 30);
        shift_buf[i] = rr(-31, -23);
      }
    }
    bias = rnd() % 5 == 0 ? NULL : bias_buf;
    sn = aot_conv2d_s8_scratch_size(&p);
    if (!scratch_prep(sn)) continue;
    maybe_kbias(&p, bias, 0);
    clear_out();
    ra = aot_conv2d_s8(&p, in_buf, filt_buf, bias, out_a, scratch_a);
    rb = ref_conv2d_s8(&p, in_buf, filt_buf, bias, out_b, scratch_b);
    check(scratch_kept(sn), "conv2d_s8 (4 positions) scratch bound", done);
    if (!compare_out(ra, rb, o_n))
      printf("conv4 case %d: b%ld %ldx%ldx%ld f%ldx%ld oc%ld s%ld,%ld d%ld,%ld pad%ld,%ld\n",
             done, (long)p.batches, (long)p.in_h, (long)p.in_w, (long)p.in_c, (long)p.filter_h,
             (long)p.filter_w, (long)p.out_c, (long)p.stride_h, (long)p.stride_w,
             (long)p.dilation_h, (long)p.dilation_w, (long)p.pad_h, (long)p.pad_w);
    check(compare_out(ra, rb, o_n), "conv2d_s8 (4 positions)", done);
    done++;
  }
}

static void test_dwconv(int n_cases) {
  int it, done = 0, neg, fold;
  for (it = 0; done < n_cases; it++) {
    aot_conv_params p;
    int32_t in_n, f_n, o_n, ra, rb;
    size_t sn;
    const int32_t *bias;
    memset(&p, 0, sizeof p);
    spatial(&p, 5, 10);
    p.depth_multiplier = rnd() % 2 ? 1 : rr(2, 5);
    p.in_c = rr(1, p.depth_multiplier == 1 ? 70 : 20);
    p.out_c = p.in_c * p.depth_multiplier;
    p.filter_in_c = 1;
    if (it % 3 == 0) {   /* 3x3, depth multiplier 1: the unrolled interior path */
      p.filter_h = p.filter_w = 3;
      p.depth_multiplier = 1;
      p.in_c = p.out_c = rr(8, 40);
      p.in_h = rr(3, 10);
      p.in_w = rr(3, 10);
      p.pad_h = rr(0, aot_min_i32(2 * p.dilation_h + 1, 4));
      p.pad_w = rr(0, aot_min_i32(2 * p.dilation_w + 1, 4));
      p.out_h = out_dim(p.in_h, 3, p.stride_h, p.dilation_h, p.pad_h);
      p.out_w = out_dim(p.in_w, 3, p.stride_w, p.dilation_w, p.pad_w);
    }
    if (it % 7 == 5) {   /* filters past AOT_DW_MVE_TAPS taps: the 4-lane path */
      p.filter_h = 9;
      p.filter_w = rr(8, 9);
      p.depth_multiplier = 1;
      p.in_c = p.out_c = rr(8, 20);
      p.dilation_h = p.dilation_w = 1;
      p.in_h = rr(1, 10);
      p.in_w = rr(1, 10);
      p.pad_h = rr(0, 4);
      p.pad_w = rr(0, 4);
      p.out_h = out_dim(p.in_h, p.filter_h, p.stride_h, 1, p.pad_h);
      p.out_w = out_dim(p.in_w, p.filter_w, p.stride_w, 1, p.pad_w);
    } else if (it % 7 == 6) {   /* wide rows: pairs, clipped columns and rows */
      p.filter_h = p.filter_w = 3;
      p.depth_multiplier = 1;
      p.in_c = p.out_c = 8 * rr(1, 4);
      p.in_h = rr(2, 8);
      p.in_w = rr(8, 24);
      p.pad_h = rr(0, 2);
      p.pad_w = rr(0, 2);
      p.out_h = out_dim(p.in_h, 3, p.stride_h, p.dilation_h, p.pad_h);
      p.out_w = out_dim(p.in_w, 3, p.stride_w, p.dilation_w, p.pad_w);
    } else if (it % 11 == 4) {   /* first-layer style: 1..3 input channels, depth multiplier 6..24 */
      p.depth_multiplier = rr(6, 24);
      p.in_c = rr(1, 3);
      if (rnd() % 2) {   /* filters past AOT_DW_MVE_TAPS taps, 8k output channels */
        p.depth_multiplier = 8 * rr(1, 2);
        p.filter_h = rr(8, 10);
        p.filter_w = 8;
        p.dilation_h = p.dilation_w = 1;
        p.in_h = rr(6, 14);
        p.in_w = rr(6, 12);
        p.pad_h = rr(0, 4);
        p.pad_w = rr(0, 4);
        p.out_h = out_dim(p.in_h, p.filter_h, p.stride_h, 1, p.pad_h);
        p.out_w = out_dim(p.in_w, p.filter_w, p.stride_w, 1, p.pad_w);
      }
      p.out_c = p.in_c * p.depth_multiplier;
    } else if (it % 3 == 1 && rnd() % 2) {   /* large filters: fewer channels per DSP block */
      p.depth_multiplier = 1;
      p.filter_h = rr(4, 8);
      p.filter_w = rr(5, 8);
      p.in_c = p.out_c = rr(1, 40);
      p.out_h = out_dim(p.in_h, p.filter_h, p.stride_h, p.dilation_h, p.pad_h);
      p.out_w = out_dim(p.in_w, p.filter_w, p.stride_w, p.dilation_w, p.pad_w);
    }
    neg = fold = 0;
    if (it % 13 == 7) {   /* the Helium 3x3 pairs in assembly: stride_w 1 or 2, dilation_w 1,
                             every shift negative, any channel count from 8, long rows */
      neg = 1;
      p.filter_h = p.filter_w = 3;
      p.depth_multiplier = 1;
      p.in_c = p.out_c = rr(8, 40);
      p.stride_w = rr(1, 2);
      p.dilation_w = 1;
      p.in_h = rr(1, 8);
      p.in_w = rr(1, 26);
      p.pad_h = rr(0, 2 * p.dilation_h + 1);
      p.pad_w = rr(0, 3);
      p.out_h = out_dim(p.in_h, 3, p.stride_h, p.dilation_h, p.pad_h);
      p.out_w = out_dim(p.in_w, 3, p.stride_w, 1, p.pad_w);
    } else if (it % 5 == 2) {   /* 3x3, stride_w 1 or 2: the DSP build's channel-by-channel path */
      fold = 1;
      p.filter_h = p.filter_w = 3;
      p.depth_multiplier = 1;
      p.dilation_h = p.dilation_w = 1;
      p.stride_w = rr(1, 2);
      p.in_c = p.out_c = rnd() % 3 ? rr(1, 70) : 4 * rr(1, 16);
      p.in_h = rr(1, 12);
      p.in_w = rr(1, 26);
      p.pad_h = rr(0, 2);
      p.pad_w = rr(0, 2);
      p.out_h = out_dim(p.in_h, 3, p.stride_h, 1, p.pad_h);
      p.out_w = out_dim(p.in_w, 3, p.stride_w, 1, p.pad_w);
    }
    in_n = p.batches * p.in_h * p.in_w * p.in_c;
    f_n = p.out_c * p.filter_h * p.filter_w;
    o_n = p.batches * p.out_h * p.out_w * p.out_c;
    if (in_n > IN_MAX || f_n > FILT_MAX || o_n > OUT_MAX || p.out_c > CH_MAX) continue;
    fill_s8(in_buf, in_n);
    fill_s8(filt_buf, f_n);
    fill_rq(p.out_c);
    if (neg) {
      int32_t i;
      for (i = 0; i < p.out_c; i++)
        if (shift_buf[i] >= 0) shift_buf[i] = rr(-31, -1);
    } else if (fold && rnd() % 4) {   /* right shifts only (the folded requantization) */
      int32_t i;
      for (i = 0; i < p.out_c; i++) {
        if (shift_buf[i] >= 0) shift_buf[i] = rr(-31, -1);
        if (rnd() % 8 == 0) bias_buf[i] = rr(-(1 << 29), 1 << 29);   /* near the fold's bound */
      }
    }
    if (it % 7 == 0) {   /* biases near 2^30: the DSP kernel's exact (64-bit) requantization */
      int32_t i;
      for (i = 0; i < p.out_c; i++) {   /* shifts that bring them back into int8 */
        bias_buf[i] = (rnd() % 2 ? 1 : -1) * rr((1 << 30) - (1 << 12), 1 << 30);
        shift_buf[i] = rr(-31, -23);
      }
    }
    bias = rnd() % 5 == 0 ? NULL : bias_buf;
    sn = aot_dwconv2d_s8_scratch_size(&p);
    if (!scratch_prep(sn)) continue;
    maybe_kbias(&p, bias, 1);
    clear_out();
    ra = aot_dwconv2d_s8(&p, in_buf, filt_buf, bias, out_a, scratch_a);
    rb = ref_dwconv2d_s8(&p, in_buf, filt_buf, bias, out_b, scratch_b);
    check(scratch_kept(sn), "dwconv2d_s8 scratch bound", done);
    if (!compare_out(ra, rb, o_n))
      printf("dwconv case %d: b%ld %ldx%ldx%ld f%ldx%ld dm%ld s%ld,%ld d%ld,%ld pad%ld,%ld\n",
             done, (long)p.batches, (long)p.in_h, (long)p.in_w, (long)p.in_c, (long)p.filter_h,
             (long)p.filter_w, (long)p.depth_multiplier, (long)p.stride_h, (long)p.stride_w,
             (long)p.dilation_h, (long)p.dilation_w, (long)p.pad_h, (long)p.pad_w);
    check(compare_out(ra, rb, o_n), "dwconv2d_s8", done);
    other_path(&p, 1, AOT_DSP_VAR_GEN, bias, rb, o_n, done);
    done++;
  }
}

static void test_fc(int n_cases) {
  int i;
  for (i = 0; i < n_cases; i++) {
    aot_fc_params p;
    int32_t o_n, ra, rb;
    const int32_t *bias;
    memset(&p, 0, sizeof p);
    p.batches = rr(1, 3);
    p.in_depth = i % 4 == 0 ? rr(1, 40) : rr(1, 600);
    p.out_depth = i % 5 == 0 ? rr(60, 200) : rr(1, 41);
    if (i % 7 == 3) {   /* rows longer than the DSP kernel's widened chunk */
      p.in_depth = rr(1025, 2600);
      p.out_depth = rr(1, 14);
      p.batches = rr(1, 2);
    }
    if (p.out_depth * p.in_depth > FILT_MAX) p.in_depth = FILT_MAX / p.out_depth;
    p.input_offset = rr(-127, 128);
    p.output_offset = rr(-128, 127);
    fill_act(&p.act_min, &p.act_max);
    p.per_channel = (int32_t)(rnd() % 2);
    p.out_mult = mult_buf;
    p.out_shift = shift_buf;
    fill_s8(in_buf, p.batches * p.in_depth);
    fill_s8(filt_buf, p.out_depth * p.in_depth);
    fill_rq(p.out_depth);
    if (i % 6 == 1) {   /* biases near 2^30: the DSP kernel's exact (64-bit) requantization */
      int32_t j;
      for (j = 0; j < p.out_depth; j++) {   /* shifts that bring them back into int8 */
        bias_buf[j] = (rnd() % 2 ? 1 : -1) * rr((1 << 30) - (1 << 12), 1 << 30);
        shift_buf[j] = rr(-31, -23);
      }
    }
    bias = rnd() % 5 == 0 ? NULL : bias_buf;
    if (rnd() % 2) {   /* the bias folded by aotc: bias + input_offset * row sum, wrapped */
      int32_t j, k;
      for (j = 0; j < p.out_depth; j++) {
        uint32_t t = bias ? (uint32_t)bias[j] : 0u;
        for (k = 0; k < p.in_depth; k++)
          t += (uint32_t)p.input_offset * (uint32_t)(int32_t)filt_buf[j * p.in_depth + k];
        kbias_buf[j] = (int32_t)t;
      }
      p.kbias = kbias_buf;
    }
    o_n = p.batches * p.out_depth;
    clear_out();
    ra = aot_fc_s8(&p, in_buf, filt_buf, bias, out_a);
    rb = ref_fc_s8(&p, in_buf, filt_buf, bias, out_b);
    if (!compare_out(ra, rb, o_n))
      printf("fc case %d: b%ld depth%ld out%ld pc%ld\n", i, (long)p.batches, (long)p.in_depth,
             (long)p.out_depth, (long)p.per_channel);
    check(compare_out(ra, rb, o_n), "fc_s8", i);
  }
}

/* FULLY_CONNECTED on the DSP three-row loop (aot_fc_dsp.h): rows of a
 * multiple of four taps, the folded bias, shifts in [-31, -1] (or dead
 * channels), 3..200 rows (a last block of 1 or 2 rows recomputes the rows
 * before it), more than one 96-row chunk, odd and even eight-tap group
 * counts; some cases with sums near 2^30 (the QADD saturation falls back to
 * the exact path) and some on weights one byte off word alignment (the
 * four-row loop). */
static void test_fc3(int n_cases) {
  int i;
  for (i = 0; i < n_cases; i++) {
    aot_fc_params p;
    int32_t o_n, ra, rb, j, k;
    const int32_t *bias;
    int8_t *w = filt_buf + (i % 9 == 4 ? 1 : 0);
    memset(&p, 0, sizeof p);
    p.batches = rr(1, 3);
    p.in_depth = 4 * (i % 3 == 0 ? rr(2, 10) : rr(2, 256));
    p.out_depth = i % 4 == 0 ? rr(3, 8) : i % 4 == 1 ? rr(90, 200) : rr(3, 60);
    if (p.out_depth * p.in_depth > FILT_MAX - 4) p.in_depth = 4 * ((FILT_MAX - 4) / p.out_depth / 4);
    p.input_offset = rr(-127, 128);
    p.output_offset = rr(-128, 127);
    fill_act(&p.act_min, &p.act_max);
    p.per_channel = (int32_t)(rnd() % 2);
    p.out_mult = mult_buf;
    p.out_shift = shift_buf;
    fill_s8(in_buf, p.batches * p.in_depth);
    fill_s8(w, p.out_depth * p.in_depth);
    fill_rq(p.out_depth);
    for (j = 0; j < p.out_depth; j++)
      if (mult_buf[j] != 0) shift_buf[j] = rr(-31, -1);
    if (i % 10 == 7) {   /* sums near 2^30 */
      for (j = 0; j < p.out_depth; j++) {
        bias_buf[j] = (rnd() % 2 ? 1 : -1) * rr((1 << 30) - (1 << 12), 1 << 30);
        shift_buf[j] = rr(-31, -23);
      }
    }
    bias = rnd() % 5 == 0 ? NULL : bias_buf;
    for (j = 0; j < p.out_depth; j++) {
      uint32_t t = bias ? (uint32_t)bias[j] : 0u;
      for (k = 0; k < p.in_depth; k++)
        t += (uint32_t)p.input_offset * (uint32_t)(int32_t)w[j * p.in_depth + k];
      kbias_buf[j] = (int32_t)t;
    }
    p.kbias = kbias_buf;
    o_n = p.batches * p.out_depth;
    clear_out();
    ra = aot_fc_s8(&p, in_buf, w, bias, out_a);
    rb = ref_fc_s8(&p, in_buf, w, bias, out_b);
    if (!compare_out(ra, rb, o_n))
      printf("fc3 case %d: b%ld depth%ld out%ld pc%ld\n", i, (long)p.batches, (long)p.in_depth,
             (long)p.out_depth, (long)p.per_channel);
    check(compare_out(ra, rb, o_n), "fc_s8 rows3", i);
  }
}

static void test_avgpool(int n_cases) {
  int it, done = 0;
  for (it = 0; done < n_cases; it++) {
    aot_pool_params p;
    int32_t in_n, o_n, ra, rb;
    memset(&p, 0, sizeof p);
    p.batches = rr(1, 2);
    p.in_h = rr(1, 12);
    p.in_w = rr(1, 12);
    p.channels = rr(1, 70);
    p.filter_h = rr(1, p.in_h);
    p.filter_w = rr(1, p.in_w);
    if (it % 10 == 0) {   /* global pooling with a large window */
      p.in_h = rr(10, 20);
      p.in_w = rr(10, 20);
      p.channels = rr(1, 40);
      p.filter_h = p.in_h;
      p.filter_w = p.in_w;
    }
    p.stride_h = rr(1, 3);
    p.stride_w = rr(1, 3);
    p.pad_h = rr(0, p.filter_h - 1);
    p.pad_w = rr(0, p.filter_w - 1);
    p.out_h = out_dim(p.in_h, p.filter_h, p.stride_h, 1, p.pad_h);
    p.out_w = out_dim(p.in_w, p.filter_w, p.stride_w, 1, p.pad_w);
    fill_act(&p.act_min, &p.act_max);
    in_n = p.batches * p.in_h * p.in_w * p.channels;
    o_n = p.batches * p.out_h * p.out_w * p.channels;
    if (in_n > IN_MAX || o_n > OUT_MAX) continue;
    fill_s8(in_buf, in_n);
    if (it % 7 == 0) memset(in_buf, it % 14 == 0 ? 0x80 : 0x7F, (size_t)in_n);  /* extremes */
    clear_out();
    ra = aot_avgpool_s8(&p, in_buf, out_a);
    rb = ref_avgpool_s8(&p, in_buf, out_b);
    if (!compare_out(ra, rb, o_n))
      printf("avgpool case %d: b%ld %ldx%ldx%ld f%ldx%ld s%ld,%ld pad%ld,%ld\n", done,
             (long)p.batches, (long)p.in_h, (long)p.in_w, (long)p.channels, (long)p.filter_h,
             (long)p.filter_w, (long)p.stride_h, (long)p.stride_w, (long)p.pad_h, (long)p.pad_w);
    check(compare_out(ra, rb, o_n), "avgpool_s8", done);
    done++;
  }
}

int main(void) {
#ifdef AOT_MVE
  printf("MVE kernels (Helium) against the portable kernels\n");
  test_requant();
#elif defined(AOT_DSP)
  printf("DSP kernels (SMLAD) against the portable kernels\n");
#else
  printf("no MVE or DSP on this target: portable kernels against themselves\n");
#endif
  test_conv_mbqm();
  test_conv(400);
  printf("conv2d_s8: %d cases with a packed filter\n", npacked);
  check(npacked >= 10, "enough conv cases with a packed filter", 0);
  printf("conv2d_s8 / dwconv2d_s8: %d cases run again on the other DSP path\n", nother);
  check(nother >= 20, "enough cases on the other DSP path", 0);
  test_conv_pw(300);
  test_conv_dsp4(400);
  test_dwconv(900);
  test_fc(300);
  test_fc3(300);
  test_avgpool(200);
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
