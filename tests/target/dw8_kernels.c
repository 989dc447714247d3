/* dw8_kernels.c - check of the int8 DEPTHWISE_CONV_2D kernel as built for
 * the target (aot_dwconv2d_s8: Helium groups of 8-channel blocks on
 * Cortex-M55, the Arm DSP 3x3 / tap-pair paths on Cortex-M4, the portable
 * loops on the host) against the same file compiled with AOT_NO_SIMD
 * (ref_dwconv2d_s8, dw8_ref_kernels.c), byte for byte, including the guard
 * bytes after the output and after the scratch (nothing written past them).
 * Random layers: 3x3 filters (most cases) and others from 1x1 to 5x5, 1x3 /
 * 1x5 / 10x8 columns; strides 1-2; valid, same and random padding; dilation
 * 1-2; 1..300 channels (not multiples of 4 / 8 / 16); depth multiplier 1-3;
 * maps from 1x1 to 48x48 (3x3 and 6x6 often); extreme zero points (input
 * offset -127 / 128, output offset -128 / 127); per-channel multipliers and
 * shifts including shifts >= 0 and dead channels; narrow activation ranges;
 * with and without bias and the folded bias (kbias). On the DSP build the 3x3
 * layers run once more on the tap-pair loop (dsp_variant), and the
 * 32-bit fold check aot_dw3_slowk is compared with aot_dwconv2d_s8_dsp_slow
 * on edge and random values. Prints "N passed, M failed" and the number of
 * layers compared; exit status 0 when everything passed. Built and run by
 * tests/integration/test_simd_dw8.sh. */
#include <stdio.h>
#include <string.h>

#include "aot_conv.h"
#include "aot_dsp.h"
#include "aot_mve.h"

int32_t ref_dwconv2d_s8(const aot_conv_params *p, const int8_t *input, const int8_t *filter,
                        const int32_t *bias, int8_t *output, void *scratch);

#define KC_SEED 0x0D0D8A17u
#include "kernel_check.h"

#define IN_MAX 24576
#define OUT_MAX 49152
#define FILT_MAX 32768
#define CH_MAX 904
#define SCRATCH_MAX 65536
#define GUARD 64
#ifndef DW8_CASES
#define DW8_CASES 1500
#endif
static int8_t in_buf[IN_MAX], filt_buf[FILT_MAX];
static int8_t out_a[OUT_MAX + GUARD], out_b[OUT_MAX + GUARD];
static int32_t bias_buf[CH_MAX], mult_buf[CH_MAX], shift_buf[CH_MAX], kb_buf[CH_MAX];
static uint64_t scratch_a[(SCRATCH_MAX + GUARD) / 8], scratch_b[(SCRATCH_MAX + GUARD) / 8];

/* output size of one spatial dimension (at least 1) */
static int32_t out_dim(int32_t in, int32_t f, int32_t stride, int32_t dil, int32_t pad) {
  const int32_t span = dil * (f - 1) + 1;
  const int32_t o = (in + 2 * pad - span) / stride + 1;
  return o < 1 ? 1 : o;
}

/* one spatial dimension: valid, same (TFLite: ceil(in / stride) outputs,
 * the smaller half of the padding before) or random padding */
static void dim(int32_t in, int32_t f, int32_t s, int32_t d, int32_t *pad, int32_t *out) {
  const int32_t span = d * (f - 1) + 1, kind = (int32_t)(rnd() % 3);
  if (kind == 0 && in >= span) {   /* valid */
    *pad = 0;
    *out = (in - span) / s + 1;
  } else if (kind == 1) {   /* same */
    const int32_t o = (in + s - 1) / s, tot = (o - 1) * s + span - in;
    *pad = tot > 0 ? tot / 2 : 0;
    *out = o;
  } else {
    *pad = rr(0, aot_min_i32(span - 1, 4));
    *out = out_dim(in, f, s, d, *pad);
  }
}

/* per-channel multipliers, shifts (some >= 0, some dead channels) and bias */
static void fill_rq(int32_t n, int mode) {
  int32_t i;
  for (i = 0; i < n; i++) {
    mult_buf[i] = rnd() % 64 == 0 ? (int32_t)(rnd() >> 1) : rr(0x40000000, 0x7FFFFFFF);
    shift_buf[i] = rnd() % 8 == 0 ? rr(-31, 4) : rr(-14, -1);
    bias_buf[i] = rr(-(1 << 16), 1 << 16);
    if (mode == 1 && shift_buf[i] >= 0) shift_buf[i] = rr(-31, -1);   /* right shifts only */
    if (mode == 2) {   /* biases near 2^30 (the DSP 3x3 path's exact fallback) */
      bias_buf[i] = (rnd() % 2 ? 1 : -1) * rr((1 << 30) - (1 << 12), 1 << 30);
      shift_buf[i] = rr(-31, -23);
    }
    if (rnd() % 32 == 0) {
      mult_buf[i] = 0;
      shift_buf[i] = rr(-8, 8);
    }
  }
}

/* map sizes: 3x3 and 6x6 often, else 1..48 */
static int32_t map_dim(void) {
  switch (rnd() % 6) {
    case 0: return 3;
    case 1: return 6;
    case 2: return rr(1, 8);
    case 3: return rr(9, 48);
    default: return rr(1, 26);
  }
}

static int32_t nlayers, nother, nbig;

static void run_layer(aot_conv_params *p, const int32_t *bias, int idx) {
  const int32_t in_n = p->batches * p->in_h * p->in_w * p->in_c;
  const int32_t o_n = p->batches * p->out_h * p->out_w * p->out_c;
  const size_t sn = aot_dwconv2d_s8_scratch_size(p);
  int32_t ra, rb, pass, g;
  (void)in_n;
  for (pass = 0; pass < 2; pass++) {
    if (pass == 1) {   /* the DSP tap-pair loop for a 3x3 layer */
      if (!aot_dwconv2d_s8_dsp_is3(p)) break;
      p->dsp_variant = AOT_DSP_VAR_GEN;
    }
    memset(out_a, 0x5A, sizeof out_a);
    memset(out_b, 0x5A, sizeof out_b);
    memset(scratch_a, 0xA5, sizeof scratch_a);
    memset(scratch_b, 0xA5, sizeof scratch_b);
    {
      const size_t s2 = aot_dwconv2d_s8_scratch_size(p);
      ra = aot_dwconv2d_s8(p, in_buf, filt_buf, bias, out_a, s2 ? scratch_a : NULL);
      rb = ref_dwconv2d_s8(p, in_buf, filt_buf, bias, out_b, sn ? scratch_b : NULL);
      for (g = 0; g < GUARD && ((const uint8_t *)scratch_a)[s2 + (size_t)g] == 0xA5; g++) {
      }
    }
    if (!(ra == rb && ra == AOT_KERNEL_OK && memcmp(out_a, out_b, (size_t)o_n + GUARD) == 0 &&
          g == GUARD))
      printf("dw8 case %d%s: b%ld %ldx%ldx%ld f%ldx%ld dm%ld s%ld,%ld d%ld,%ld pad%ld,%ld "
             "out %ldx%ld act [%ld,%ld] kb %d: status %ld / %ld\n",
             idx, pass ? " (tap-pair loop)" : "", (long)p->batches, (long)p->in_h,
             (long)p->in_w, (long)p->in_c, (long)p->filter_h, (long)p->filter_w,
             (long)p->depth_multiplier, (long)p->stride_h, (long)p->stride_w,
             (long)p->dilation_h, (long)p->dilation_w, (long)p->pad_h, (long)p->pad_w,
             (long)p->out_h, (long)p->out_w, (long)p->act_min, (long)p->act_max,
             p->kbias != NULL, (long)ra, (long)rb);
    check(ra == rb && ra == AOT_KERNEL_OK && memcmp(out_a, out_b, (size_t)o_n + GUARD) == 0,
          pass ? "dwconv2d_s8 (tap-pair loop)" : "dwconv2d_s8", idx);
    check(g == GUARD, "dwconv2d_s8 scratch bound", idx);
    if (pass) nother++;
  }
  p->dsp_variant = 0;
  nlayers++;
}

static void test_dw(int n_cases) {
  int it, done = 0;
  for (it = 0; done < n_cases; it++) {
    aot_conv_params p;
    int32_t in_n, f_n, o_n, i, c, mode = 0;
    const int32_t *bias;
    memset(&p, 0, sizeof p);
    p.batches = rnd() % 8 == 0 ? 2 : 1;
    p.filter_h = p.filter_w = 3;
    switch (rnd() % 8) {
      case 0: p.filter_h = rr(1, 5); p.filter_w = rr(1, 5); break;
      case 1: p.filter_h = 1; p.filter_w = rnd() % 2 ? 3 : 5; break;
      case 2: p.filter_h = rnd() % 2 ? 3 : 5; p.filter_w = 1; break;
      case 3: if (rnd() % 3 == 0) { p.filter_h = 10; p.filter_w = 8; } break;
      default: break;
    }
    p.stride_h = rr(1, 2);
    p.stride_w = rr(1, 2);
    p.dilation_h = rnd() % 4 ? 1 : 2;
    p.dilation_w = rnd() % 4 ? 1 : 2;
    p.depth_multiplier = rnd() % 4 ? 1 : rr(2, 3);
    p.in_h = map_dim();
    p.in_w = map_dim();
    switch (rnd() % 4) {   /* channels */
      case 0: p.in_c = rr(1, 16); break;
      case 1: p.in_c = rr(17, 72); break;
      case 2: p.in_c = 8 * rr(1, 36) + (rnd() % 2 ? 0 : rr(1, 7)); break;
      default: p.in_c = rr(60, 300); break;
    }
    if (p.in_c > 300) p.in_c = 300;
    p.out_c = p.in_c * p.depth_multiplier;
    p.filter_in_c = 1;
    dim(p.in_h, p.filter_h, p.stride_h, p.dilation_h, &p.pad_h, &p.out_h);
    dim(p.in_w, p.filter_w, p.stride_w, p.dilation_w, &p.pad_w, &p.out_w);
    in_n = p.batches * p.in_h * p.in_w * p.in_c;
    f_n = p.out_c * p.filter_h * p.filter_w;
    o_n = p.batches * p.out_h * p.out_w * p.out_c;
    if (in_n > IN_MAX || f_n > FILT_MAX || o_n > OUT_MAX || p.out_c > CH_MAX) continue;
    if (aot_dwconv2d_s8_scratch_size(&p) > SCRATCH_MAX) continue;
    switch (rnd() % 4) {   /* zero points */
      case 0: p.input_offset = rnd() % 2 ? -127 : 128; break;
      default: p.input_offset = rr(-127, 128); break;
    }
    p.output_offset = rnd() % 4 == 0 ? (rnd() % 2 ? -128 : 127) : rr(-128, 127);
    if (rnd() % 2) {
      p.act_min = -128;
      p.act_max = 127;
    } else {
      p.act_min = rr(-128, 20);
      p.act_max = rr(p.act_min, 127);
    }
    for (i = 0; i < in_n; i++) {   /* extremes now and then */
      const uint32_t r = rnd();
      in_buf[i] = (int8_t)(r % 16 == 0 ? (r & 16 ? 127 : -128) : (int32_t)(r >> 8) & 0xFF);
    }
    for (i = 0; i < f_n; i++) {
      const uint32_t r = rnd();
      filt_buf[i] = (int8_t)(r % 16 == 0 ? (r & 16 ? 127 : -128) : (int32_t)(r >> 8) & 0xFF);
    }
    if (it % 5 == 1) mode = 1;
    if (it % 11 == 3) mode = 2;
    fill_rq(p.out_c, mode);
    p.out_mult = mult_buf;
    p.out_shift = shift_buf;
    bias = rnd() % 6 == 0 ? NULL : bias_buf;
    p.kbias = NULL;
    if (rnd() % 4) {   /* the folded bias as aotc computes it */
      const int32_t taps = p.filter_h * p.filter_w;
      for (c = 0; c < p.out_c; c++) {
        uint32_t s = 0;
        for (i = 0; i < taps; i++) s += (uint32_t)(int32_t)filt_buf[i * p.out_c + c];
        kb_buf[c] = (int32_t)((bias ? (uint32_t)bias[c] : 0u) + s * (uint32_t)p.input_offset);
      }
      p.kbias = kb_buf;
    }
    if (p.in_c > 64) nbig++;
    run_layer(&p, bias, done);
    done++;
  }
}

#ifdef AOT_DSP
/* the header's static kernels are not called here */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "aot_dwconv_dsp.h"
#pragma GCC diagnostic pop
/* aot_dw3_slowk against aot_dwconv2d_s8_dsp_slow (and its folded constant
 * against the 64-bit formula) */
static void test_slowk(int n) {
  static const int32_t ks_e[] = {0, 1, -1, 0x3FFDBFFF, -0x3FFDBFFF, 0x3FFDC000, -0x3FFDC000,
                                 0x7FFFFFFF, (int32_t)0x80000000, 1 << 29, -(1 << 29)};
  static const int32_t m_e[] = {0, 1, 0x40000000, 0x7FFFFFFF, -1, 0x5A5A5A5A};
  static const int32_t o_e[] = {0, -128, 127, 1 << 20, -(1 << 20), 0x7FFFFFFF,
                                (int32_t)0x80000000};
  int32_t i, bad = 0, cnt = 0;
  for (i = 0; i < n; i++) {
    const int32_t ks = i % 3 ? (int32_t)rnd() >> (rnd() % 32) : ks_e[rnd() % 11];
    const int32_t m = i % 4 ? (int32_t)(rnd() >> 1) : m_e[rnd() % 6];
    int32_t sh = rr(-33, 2);
    int32_t off = i % 5 ? rr(-128, 127) : o_e[rnd() % 7];
    if (i % 7 == 6 && m > 0) {   /* |k| on and around the bound 2^31 - 1 - rmax */
      const int64_t ak = (ks < 0 ? -(int64_t)ks : (int64_t)ks) + 9 * 128 * 128;
      const int64_t lim = ((int64_t)1 << 31) - 1 - (((ak * m) >> 31) + 1);
      int32_t z = 0;
      int64_t t;
      while (z < 30 && !((lim >> z) & 1)) z++;   /* lim = odd * 2^z */
      sh = -(z + 1) - (int32_t)(rnd() % 2);
      t = (lim >> (-sh - 1)) + rr(-2, 2);
      if (t % 2 == 0) t++;
      if (rnd() % 2) t = -t;
      off = (int32_t)((t - 1) / 2);
    }
    int32_t k = 0, slow = aot_dw3_slowk(ks, m, sh, off, &k);
    const int want = aot_dwconv2d_s8_dsp_slow(ks, m, sh, off);
    if (slow != want) bad++;
    if (!slow && !want) {
      const int32_t e = m == 0 ? 1 : -sh;
      const int64_t k64 = ((int64_t)1 << (e - 1)) + (int64_t)off * ((int64_t)1 << e);
      if ((int64_t)k != k64) bad++;
    }
    cnt++;
  }
  printf("aot_dw3_slowk: %ld values, %ld mismatches\n", (long)cnt, (long)bad);
  check(bad == 0, "aot_dw3_slowk", 0);
}
#endif

int main(void) {
#if defined(AOT_MVE)
  printf("dw8 kernels (Helium) against the portable kernel\n");
#elif defined(AOT_DSP)
  printf("dw8 kernels (Arm DSP) against the portable kernel\n");
#else
  printf("dw8 kernels (portable build) against the portable kernel\n");
#endif
#ifdef AOT_DSP
  test_slowk(200000);
#endif
  test_dw(DW8_CASES);
  printf("%ld depthwise layers compared (%ld of more than 64 channels, %ld again on the "
         "tap-pair loop)\n",
         (long)nlayers, (long)nbig, (long)nother);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
