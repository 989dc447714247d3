/* aot_conv.h - convolution, fully connected, batch matmul and pooling kernels.
 *
 * Layouts (as in TFLite): activations NHWC; CONV_2D filter [O,H,W,I/groups];
 * DEPTHWISE_CONV_2D filter [1,H,W,O] (O = I * depth_multiplier);
 * TRANSPOSE_CONV filter [O,H,W,I]; FULLY_CONNECTED weights [O,I].
 *
 * Quantized arithmetic is that of the TFLite / TFLM reference kernels:
 *  - int8: acc(int32) = sum w * (x + input_offset) [+ bias]; out =
 *    aot_mbqm(acc, mult[c], shift[c]) + output_offset, clamped to
 *    [act_min, act_max]. input_offset = -input zero point.
 *  - int16x8: acc(int64) = sum w * x [+ bias(int64)]; out =
 *    aot_mbqm64(acc, mult[c], shift[c]) clamped (zero points are 0).
 * shift follows aot_mbqm: > 0 is a left shift (TFLite QuantizeMultiplier).
 * Every kernel returns AOT_KERNEL_OK or AOT_KERNEL_BAD_PARAM. */
#ifndef AOT_CONV_H
#define AOT_CONV_H

#include "aot_common.h"
#include "aot_features.h"   /* the paths this module compiles */

/* 1 when layer p comes with aotc's folded bias (p->kbias): always in a
 * module without AOT_F_CONV_S8_NOKB (its SIMD kernels refuse a layer
 * without it), so they compile no filter sums of their own */
#define AOT_KB(p) (!AOT_F_CONV_S8_NOKB || (p)->kbias != NULL)
/* 1 when layer p's activation range is all of int8: always in a module
 * without AOT_F_CONV_S8_NARROW (its DSP kernels refuse other layers), so
 * they compile no clamp to a narrower range */
#define AOT_FULL8(p) (!AOT_F_CONV_S8_NARROW || ((p)->act_min == -128 && (p)->act_max == 127))

/* ---- convolutions: CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV ---------- */
typedef struct aot_conv_params {
  int32_t batches;
  int32_t in_h, in_w, in_c;
  int32_t out_h, out_w, out_c;
  int32_t filter_h, filter_w;
  int32_t filter_in_c;        /* CONV_2D: in_c / groups; TRANSPOSE_CONV: in_c */
  int32_t stride_h, stride_w;
  int32_t dilation_h, dilation_w;   /* 1 for TRANSPOSE_CONV */
  int32_t pad_h, pad_w;       /* top / left padding */
  int32_t depth_multiplier;   /* DEPTHWISE_CONV_2D only */
  int32_t input_offset;       /* -input zero point (int8) */
  int32_t output_offset;      /* output zero point (int8) */
  int32_t act_min, act_max;   /* quantized activation range */
  float act_min_f, act_max_f; /* float activation range */
  const int32_t *out_mult;    /* out_c entries (quantized kernels) */
  const int32_t *out_shift;   /* out_c entries */
  /* int8 CONV_2D / DEPTHWISE_CONV_2D, optional (NULL: the kernels compute
   * it): out_c entries bias[c] + input_offset * (sum of output channel c's
   * filter taps), int32 wrap-around, computed by aotc at compile time; the
   * SIMD kernels start their sums of w * x from it (the same integer as the
   * portable sum of w * (x + input_offset) + bias), the portable kernels
   * ignore it */
  const int32_t *kbias;
  /* int8 CONV_2D, Helium builds only (0 elsewhere): 1 when aotc stored the
   * filter packed at compile time in the order aot_mve_pass4_s8 loads it
   * (aot_mve_pack4_s8's, four output channels at a time; one group, kbias
   * set, out_c a multiple of 4, taps a multiple of 16, at most
   * AOT_CONV2D_S8_COL: the same bytes, only their order differs), so the
   * kernel packs nothing per call. The other builds refuse it. */
  int32_t filter_packed;
  /* int8, Cortex-M4 DSP build only (the others ignore it): the path aotc's
   * cost model chose when a layer can take two (src/passes/kernel_choice.c).
   * 0: the kernel's own rule; AOT_DSP_VAR_G4: a CONV_2D the rule gathers
   * into the pointwise kernel runs on the four-position path instead;
   * AOT_DSP_VAR_GEN: a 3x3 DEPTHWISE_CONV_2D runs on the tap-pair loop
   * instead of the 3x3 path; AOT_DSP_VAR_FIRST: a CONV_2D of 1-4 input
   * channels (aot_conv2d_s8_first_fits) runs on the few-channel path
   * (aot_conv_first.h) instead of the gathered windows. Outputs are the
   * same; only the count differs. */
  int32_t dsp_variant;
  /* int8 CONV_2D on the few-channel path (AOT_DSP_VAR_FIRST), Cortex-M4 DSP
   * build only: the layer's constants aotc computed at compile time
   * (aot_conv2d_s8_first_pack, aot_conv_first_pack.h: the channel constants
   * and the widened filter copies); NULL: the layer runs on the gathered
   * windows instead */
  const int32_t *first;
} aot_conv_params;
#define AOT_DSP_VAR_G4 1
#define AOT_DSP_VAR_GEN 2
#define AOT_DSP_VAR_FIRST 3

/* 1 if a window leaves the image (padding, or the last window reaching past
 * the edge): the paths of AOT_F_CONV_S8_CLIP / AOT_F_DW_S8_CLIP */
AOT_INLINE int aot_conv_clips(const aot_conv_params *p) {
  return p->pad_h > 0 || p->pad_w > 0 ||
         (p->out_h - 1) * p->stride_h - p->pad_h + (p->filter_h - 1) * p->dilation_h >= p->in_h ||
         (p->out_w - 1) * p->stride_w - p->pad_w + (p->filter_w - 1) * p->dilation_w >= p->in_w;
}

/* scratch: aot_conv2d_s8_scratch_size(p) bytes, 8-byte aligned (planned in
 * the arena by aotc; NULL when the size is 0) */
int32_t aot_conv2d_s8(const aot_conv_params *p, const int8_t *input,
                      const int8_t *filter, const int32_t *bias, int8_t *output,
                      void *scratch);
/* scratch: aot_conv2d_s16_scratch_size(p) bytes, 8-byte aligned (NULL when 0) */
int32_t aot_conv2d_s16(const aot_conv_params *p, const int16_t *input,
                       const int8_t *filter, const int64_t *bias, int16_t *output,
                       void *scratch);
int32_t aot_conv2d_f32(const aot_conv_params *p, const float *input,
                       const float *filter, const float *bias, float *output);

/* scratch: aot_dwconv2d_s8_scratch_size(p) bytes, 8-byte aligned */
int32_t aot_dwconv2d_s8(const aot_conv_params *p, const int8_t *input,
                        const int8_t *filter, const int32_t *bias, int8_t *output,
                        void *scratch);
int32_t aot_dwconv2d_s16(const aot_conv_params *p, const int16_t *input,
                         const int8_t *filter, const int64_t *bias, int16_t *output);
int32_t aot_dwconv2d_f32(const aot_conv_params *p, const float *input,
                         const float *filter, const float *bias, float *output);

/* ---- scratch of the int8 CONV_2D / DEPTHWISE_CONV_2D kernels ------------
 * The bytes each target variant's path needs for a layer (im2col windows,
 * widened taps, per-channel constants), from its shapes; the kernel's
 * scratch size is the largest of them, so one plan serves the portable,
 * DSP and Helium builds of a module. Each is rounded up to 8 bytes. */
AOT_INLINE size_t aot_conv_scratch_round(size_t n) { return (n + 7u) & ~(size_t)7u; }
/* 1 when the layer is the DSP pointwise case (1x1 filter over all input
 * channels, no window leaving the image) */
AOT_INLINE int aot_conv2d_s8_is_pw(const aot_conv_params *p) {
  return p->filter_h == 1 && p->filter_w == 1 && p->filter_in_c == p->in_c && !aot_conv_clips(p);
}
/* 1 when the DSP build takes a layer that is not pointwise through the
 * pointwise kernel, its windows gathered (aot_conv_pw_dsp.h: one group,
 * dilation_w 1, at most 1024 taps) */
AOT_INLINE int aot_conv2d_s8_dsp_gw(const aot_conv_params *p) {
  return !aot_conv2d_s8_is_pw(p) && p->filter_in_c == p->in_c && p->dilation_w == 1 &&
         p->dsp_variant != AOT_DSP_VAR_G4 &&
         p->filter_h * p->filter_w * p->filter_in_c <= 1024;
}
/* the taps of a window in the DSP pointwise kernel: in_c, or the whole
 * filter of a gathered window */
AOT_INLINE int32_t aot_conv2d_s8_dsp_pwk(const aot_conv_params *p) {
  return aot_conv2d_s8_is_pw(p) ? p->in_c : p->filter_h * p->filter_w * p->filter_in_c;
}
/* 1 when the DSP build takes layer p through its pointwise kernel:
 * pointwise (in_c < 65536: its doubled sums) or gathered windows */
AOT_INLINE int aot_conv2d_s8_dsp_pwt(const aot_conv_params *p) {
  return (aot_conv2d_s8_is_pw(p) && p->in_c < 65536) || aot_conv2d_s8_dsp_gw(p);
}
/* per output-channel block of the DSP kernels: 64 channels of 12 bytes */
AOT_INLINE size_t aot_conv2d_s8_dsp_kc(const aot_conv_params *p) {
  const int32_t g = p->filter_in_c > 0 ? p->in_c / p->filter_in_c : 1;
  const int32_t pg = g > 0 ? p->out_c / g : p->out_c;
  return (size_t)12 * (size_t)(pg < 64 ? pg : 64);
}
/* where a gathered window of K taps starts in the scratch of the DSP
 * pointwise kernel (below), in bytes from the widened inputs: after them and
 * the padded last row (the kernel and the scratch size both use it) */
AOT_INLINE size_t aot_conv2d_s8_dsp_pw_win(int32_t K) {
  return aot_conv_scratch_round(52u * (((size_t)K + 3u) / 4u));
}
/* Cortex-M4 DSP, pointwise and gathered windows (aot_conv_pw_dsp.h): the
 * constants of every output channel (16 bytes each), the widened inputs of
 * six positions (48 bytes per four taps), when the taps are not a multiple
 * of four the last filter row padded to whole words, and for a gathered
 * layer its window (aot_conv2d_s8_dsp_pw_win) */
AOT_INLINE size_t aot_conv2d_s8_scratch_dsp_pw(const aot_conv_params *p) {
  const size_t K = (size_t)aot_conv2d_s8_dsp_pwk(p), ng = (K + 3u) / 4u;
  if (aot_conv2d_s8_dsp_gw(p))   /* and one gathered window (K bytes) */
    return aot_conv_scratch_round(16u * (size_t)p->out_c) + aot_conv2d_s8_dsp_pw_win((int32_t)K) +
           aot_conv_scratch_round(K);
  if (!aot_conv2d_s8_is_pw(p)) return 0;
  return aot_conv_scratch_round(16u * (size_t)p->out_c) +
         aot_conv_scratch_round(48u * ng + (K % 4 != 0 ? 4u * ng : 0u));
}
/* Cortex-M4 DSP, few input channels (aot_conv_first.h): one batch, one
 * group, 1-4 input channels, dilation 1, not pointwise, two or more output
 * columns, top padding below filter_h, at most AOT_CONV_FIRST_FH
 * filter rows of at most 40 taps, at most AOT_CONV_FIRST_L pairs of taps
 * in a window, a scratch and constants of at most AOT_CONV_FIRST_BYTES
 * each. Layout: nj pairs of taps per filter row, L = nj * filter_h per
 * window, oc8 output channels rounded up to eight; tot = 16-bit values of a
 * widened input row (one past the last a window reads), q = its pairs,
 * rw = words of a widened row (one more pair, for the shifted copy); odd:
 * stride_w * in_c is odd (the shifted copies); lead, n: zero points left of
 * a row's n values; spread: odd or lead odd (the rows are widened, then
 * spread: AOT_F_CONV_S8_FSPREAD; else four values at a time into two words:
 * AOT_F_CONV_S8_FEVEN); nrot: copies of the widened filter (filter_h when
 * they fit: the interleaved rows are a ring, each input row widened once;
 * else 1: every output row widens its rows again). Constants (p->first,
 * cwords int32, aot_conv_first_pack.h): a header (AOT_CF_*), per eight
 * channels eight start values and eight (m, rs) pairs, then the nrot filter
 * copies (w_words each). Scratch: one widened row (rw words, when spread) and the
 * interleaved rows (q x filter_h words, twice when odd). */
#define AOT_CONV_FIRST_FH 12
#define AOT_CONV_FIRST_L 64
#define AOT_CONV_FIRST_BYTES 16384
/* The header of the constants (p->first, aot_conv2d_s8_first_pack): 1 when
 * the assembly loop requantizes (fast); L; q, lead, n; the values of a
 * widened row (2 rw; 0 when not spread); odd; nrot; w_words; the word
 * offset of the filter copies; words between the windows of one loop; the
 * input zero point in both halves of a word; the paths the layer needs (1
 * AOT_F_CONV_S8_FSPREAD, 2 AOT_F_CONV_S8_FEVEN, 4 AOT_F_CONV_S8_FSLOW). */
enum { AOT_CF_FAST, AOT_CF_L, AOT_CF_Q, AOT_CF_LEAD, AOT_CF_N, AOT_CF_RV, AOT_CF_ODD,
       AOT_CF_NROT, AOT_CF_WW, AOT_CF_WOFS, AOT_CF_WSTEP, AOT_CF_ZP2, AOT_CF_NEED, AOT_CF_HDR };
/* The AOT_CONV_FIRST_BLK words of eight channels (aot_cf_row8 reads them
 * by their byte offsets): eight start values, eight (m, rs) pairs, then L,
 * 1 + 2 * output offset, the bytes from the end of a window to the next
 * one of the loop and from a position's outputs to the next one's, and the
 * fast flag. */
#define AOT_CF_BL 24
#define AOT_CF_BC1 25
#define AOT_CF_BXSTEP 26
#define AOT_CF_BOSTEP 27
#define AOT_CF_BFAST 28
#define AOT_CONV_FIRST_BLK 29
#define AOT_CF_BL_BYTES 96
#define AOT_CF_BC1_BYTES 100
#define AOT_CF_BXSTEP_BYTES 104
#define AOT_CF_BFAST_BYTES 112
typedef struct aot_conv2d_s8_first_lay {
  int32_t nj, L, oc8, tot, q, rw, odd, nrot, lead, n, spread;
  size_t w_words, cwords, bytes;
} aot_conv2d_s8_first_lay;
AOT_INLINE void aot_conv2d_s8_first_layout(const aot_conv_params *p, aot_conv2d_s8_first_lay *L) {
  const int64_t rl = (int64_t)p->filter_w * p->in_c;
  const int64_t tot = ((int64_t)p->out_w - 1) * p->stride_w * p->in_c + rl + 1;
  const int64_t lead = (int64_t)p->pad_w * p->in_c, n = (int64_t)p->in_w * p->in_c;
  size_t c0;
  L->nj = (int32_t)((rl + 1) / 2);
  L->L = L->nj * p->filter_h;
  L->oc8 = (p->out_c + 7) & ~7;
  L->odd = (int32_t)(((int64_t)p->stride_w * p->in_c) & 1);
  L->tot = tot > 0 && tot < (1 << 20) ? (int32_t)tot : 0;
  L->lead = (int32_t)(lead < L->tot ? lead : L->tot);
  L->n = (int32_t)(n < L->tot - L->lead ? n : L->tot - L->lead);
  L->spread = L->odd || (L->lead & 1);
  L->q = (L->tot + 1) / 2;
  L->rw = L->q + 1;
  L->w_words = (size_t)L->oc8 * (size_t)L->L;
  c0 = AOT_CF_HDR + AOT_CONV_FIRST_BLK * (size_t)(L->oc8 / 8);
  L->nrot = 4u * (c0 + L->w_words * (size_t)p->filter_h) > AOT_CONV_FIRST_BYTES ? 1 : p->filter_h;
  L->cwords = c0 + L->w_words * (size_t)L->nrot;
  L->bytes = 4u * (L->spread ? (size_t)L->rw : 0u) +
             4u * (size_t)L->q * (size_t)p->filter_h * (L->odd ? 2u : 1u);
}
AOT_INLINE int aot_conv2d_s8_first_fits(const aot_conv_params *p) {
  aot_conv2d_s8_first_lay L;
  if (p->filter_in_c != p->in_c || p->in_c < 1 || p->in_c > 4 || p->dilation_h != 1 ||
      p->dilation_w != 1 || p->filter_h < 1 || p->filter_h > AOT_CONV_FIRST_FH ||
      p->filter_w < 1 || p->filter_w * p->in_c > 40 || p->filter_h * p->filter_w < 2 ||
      p->out_c < 1 || p->out_c > 4096 || p->out_w < 1 || p->stride_w < 1 || p->stride_h < 1 ||
      p->in_w > 4096 || p->pad_h < 0 || p->pad_h >= p->filter_h || p->batches != 1 ||
      p->out_w < 2)
    return 0;
  aot_conv2d_s8_first_layout(p, &L);
  return L.tot > 0 && L.L <= AOT_CONV_FIRST_L && L.bytes <= AOT_CONV_FIRST_BYTES &&
         L.nrot == p->filter_h && 4u * L.cwords <= AOT_CONV_FIRST_BYTES;
}
/* 1 when the DSP build runs layer p on the few-channel path: aotc chose it
 * (AOT_DSP_VAR_FIRST, where its cost model counts fewer instructions than
 * the gathered windows) and it fits; the kernel also needs p->first */
AOT_INLINE int aot_conv2d_s8_dsp_first(const aot_conv_params *p) {
  return p->dsp_variant == AOT_DSP_VAR_FIRST && aot_conv2d_s8_first_fits(p);
}
AOT_INLINE size_t aot_conv2d_s8_scratch_dsp_first(const aot_conv_params *p) {
  aot_conv2d_s8_first_lay L;
  if (!aot_conv2d_s8_dsp_first(p)) return 0;
  aot_conv2d_s8_first_layout(p, &L);
  return aot_conv_scratch_round(L.bytes);
}
/* Cortex-M4 DSP, grouped or dilated layers of up to 1024 taps (the
 * four-position path, AOT_F_CONV_S8_G4): the channel constants, the widened
 * windows of four positions (aot_dsp_conv4.h: 8 words per four taps) and
 * one int8 window (fsize + 3 bytes) */
AOT_INLINE size_t aot_conv2d_s8_scratch_dsp_col(const aot_conv_params *p) {
  const size_t fsize = (size_t)p->filter_h * (size_t)p->filter_w * (size_t)p->filter_in_c;
  if (aot_conv2d_s8_is_pw(p) || aot_conv2d_s8_dsp_gw(p) || fsize > 1024u) return 0;
  return aot_conv_scratch_round(aot_conv2d_s8_dsp_kc(p)) +
         aot_conv_scratch_round(32u * ((fsize + 3u) / 4u) + fsize + 3u);
}
/* Cortex-M55 Helium (aot_conv2d_s8.c): how a layer with filters of up to
 * 1024 taps is cut for the packed 2-position x 4-channel loop, and the
 * scratch bytes this takes (returned). k16 = taps rounded up to 16; cb =
 * output channels whose filters are packed at a time (a multiple of 4; 0:
 * larger filters, no scratch); np = output positions copied per im2col pass
 * (even; 0: every window is a run of the input, read in place: 1 x fw
 * filter with dilation_w 1 (or fw 1), one group, no window leaving the
 * image); na = positions summed per pass (into int32, then requantized).
 * Scratch: cb x 4 int32 constants, 12 int32 of pass state, na x 4 int32
 * sums, cb x k16 packed filter bytes (none when aotc packed the filter:
 * filter_packed), np x k16 im2col bytes. cb is as many channels as 8 KB of
 * packed filters hold (every window is copied once per block); with a
 * filter packed at compile time nothing is copied, so cb takes every
 * channel up to AOT_CONV_MVE_PACKED_CB (each window copied once; 16 bytes
 * of constants per channel). np is as many positions as 2 KB hold, at
 * least 4 (one block's constants are loaded once per pass). */
#define AOT_CONV_MVE_PACKED_CB 128
typedef struct aot_conv2d_s8_mve_plan {
  int32_t k16, cb, np, na;
} aot_conv2d_s8_mve_plan;

AOT_INLINE size_t aot_conv2d_s8_mve_plan_of(const aot_conv_params *p,
                                            aot_conv2d_s8_mve_plan *pl) {
  const int32_t fsize = p->filter_h * p->filter_w * p->filter_in_c;
  const int32_t groups = p->filter_in_c > 0 && p->in_c % p->filter_in_c == 0
                             ? p->in_c / p->filter_in_c : 1;
  const int32_t pg4 = (p->out_c / (groups > 0 ? groups : 1) + 3) & ~3;
  const int32_t npos2 = (p->batches * p->out_h * p->out_w + 1) & ~1;
  pl->k16 = (fsize + 15) & ~15;
  pl->cb = 0;
  pl->np = 0;
  pl->na = 0;
  if (fsize <= 0 || fsize > 1024 || pg4 <= 0) return 0;
  if (p->filter_h == 1 && (p->filter_w == 1 || p->dilation_w == 1) && groups == 1 &&
      !aot_conv_clips(p)) {
    pl->cb = 4;
    pl->na = aot_min_i32(32, npos2);
  } else {
    pl->cb = p->filter_packed ? aot_min_i32(AOT_CONV_MVE_PACKED_CB, pg4)
                              : aot_min_i32(aot_max_i32((8192 / pl->k16) & ~3, 4), pg4);
    pl->np = aot_min_i32(aot_max_i32((2048 / pl->k16) & ~1, 4), aot_min_i32(32, npos2));
    pl->na = pl->np;
  }
  return (size_t)pl->cb * (16 + (p->filter_packed ? 0u : (size_t)pl->k16)) + 48u +
         16u * (size_t)pl->na + (size_t)pl->np * (size_t)pl->k16;
}
AOT_INLINE size_t aot_conv2d_s8_scratch_mve(const aot_conv_params *p) {
  aot_conv2d_s8_mve_plan pl;
  return aot_conv_scratch_round(aot_conv2d_s8_mve_plan_of(p, &pl));
}
/* Cortex-M55 Helium few-channel CONV_2D (aot_conv_first_mve.h): one group
 * of 1-4 input channels, dilation 1, 2 to 1024 taps, a filter not packed by
 * aotc, and a layer the generic path would copy window by window (im2col:
 * a window of more than one row, or one leaving the image). Per output row
 * the fh input rows an output row reads are copied with zero-point padding
 * into P (fh rows of wp * in_c bytes, rs apart, 16 columns of slack), then
 * gathered column by column into B (per column its fh rows' in_c bytes:
 * t = fh * in_c bytes a column), so every window is one run of fsize
 * bytes. Scratch: cb x 4 int32 constants, 12 int32 of pass state, na x 4
 * int32 sums, cb x k16 packed filter bytes, 2 t x 8 uint16 gather offsets,
 * P, B (16 bytes of slack: windows are read as k16 taps). Output rows of
 * at least 12 columns only: its passes run over one output row (the generic
 * path's over up to 32 positions across rows), so on narrower rows their
 * per-call costs outweigh the copies saved (KWS, out_w 5: 121,138 -> 276,857
 * instructions on that path). Fits when the gather offsets stay below 65536. */
typedef struct aot_conv2d_s8_fmve_plan {
  int32_t t, wp, k16, cb, na, ng;
  size_t rs;
} aot_conv2d_s8_fmve_plan;
AOT_INLINE size_t aot_conv2d_s8_fmve_plan_of(const aot_conv_params *p,
                                             aot_conv2d_s8_fmve_plan *pl) {
  const int32_t fsize = p->filter_h * p->filter_w * p->in_c;
  pl->t = p->filter_h * p->in_c;
  pl->wp = (p->out_w - 1) * p->stride_w + p->filter_w;
  pl->ng = (pl->wp + 15) / 16;
  pl->rs = (size_t)pl->wp * (size_t)p->in_c;
  pl->k16 = (fsize + 15) & ~15;
  pl->cb = 0;
  pl->na = 0;
  if (p->in_c < 1 || p->in_c > 4 || p->filter_in_c != p->in_c || p->dilation_h != 1 ||
      p->dilation_w != 1 || p->filter_packed || fsize < 2 || fsize > 1024 ||
      p->out_w < 12 || p->out_c < 1 || (p->filter_h == 1 && !aot_conv_clips(p)) ||
      (size_t)(p->filter_h - 1) * pl->rs + 16u * (size_t)p->in_c > 65535u)
    return 0;
  pl->cb = aot_min_i32(aot_max_i32((8192 / pl->k16) & ~3, 4), (p->out_c + 3) & ~3);
  pl->na = aot_min_i32(64, (p->out_w + 1) & ~1);
  return (size_t)pl->cb * (16u + (size_t)pl->k16) + 48u + 16u * (size_t)pl->na +
         32u * (size_t)pl->t + (size_t)p->filter_h * pl->rs + 16u * (size_t)p->in_c +
         (size_t)pl->ng * 16u * (size_t)pl->t + 16u;
}
AOT_INLINE int aot_conv2d_s8_fmve_fits(const aot_conv_params *p) {
  aot_conv2d_s8_fmve_plan pl;
  aot_conv2d_s8_fmve_plan_of(p, &pl);
  return pl.cb != 0;
}
AOT_INLINE size_t aot_conv2d_s8_scratch_fmve(const aot_conv_params *p) {
  aot_conv2d_s8_fmve_plan pl;
  return aot_conv_scratch_round(aot_conv2d_s8_fmve_plan_of(p, &pl));
}
AOT_INLINE size_t aot_conv2d_s8_scratch_size(const aot_conv_params *p) {
  size_t a = aot_conv2d_s8_scratch_dsp_pw(p), b = aot_conv2d_s8_scratch_dsp_col(p);
  size_t c = aot_conv2d_s8_scratch_mve(p), d = aot_conv2d_s8_scratch_dsp_first(p);
  const size_t e = aot_conv2d_s8_scratch_fmve(p);
  a = a > b ? a : b;
  c = c > e ? c : e;
  a = a > d ? a : d;
  return a > c ? a : c;
}
/* int16x8 CONV_2D / TRANSPOSE_CONV (aot_conv2d_s16.c, aot_tconv2d_s16.c):
 * the SIMD builds' requantization constants (16 bytes per output channel),
 * then the Cortex-M4 DSP build's column of two output positions, 4 bytes per
 * tap of a window (rounded up to 4 taps), for windows of at most
 * AOT_S16_DSP_COL_K taps (a TRANSPOSE_CONV's: below); no column for other
 * layers, which the DSP build runs one position at a time. The portable
 * build uses none of it. */
#define AOT_S16_DSP_COL_K 2048
AOT_INLINE size_t aot_s16_col_bytes(int64_t k) {
  return k <= 0 || k > AOT_S16_DSP_COL_K ? 0 : aot_conv_scratch_round(4u * (size_t)((k + 3) & ~3));
}
AOT_INLINE size_t aot_s16_rq_bytes(const aot_conv_params *p) {
  return p->out_c > 0 ? aot_conv_scratch_round(16u * (size_t)p->out_c) : 0;
}
AOT_INLINE size_t aot_conv2d_s16_scratch_size(const aot_conv_params *p) {
  return aot_s16_rq_bytes(p) +
         aot_s16_col_bytes((int64_t)p->filter_h * p->filter_w * p->filter_in_c);
}
/* TRANSPOSE_CONV int16x8 (SIMD builds). Layers whose filter meets many
 * inputs (aot_tconv2d_s16_phased: batches x in_h x in_w at least
 * AOT_S16_TC_REUSE) run by phases (the outputs of residues oy mod
 * stride_h, ox mod stride_w: an ordinary convolution of the input with
 * ceil(fh / sh) x ceil(fw / sw) x in_c taps): the constants, then the
 * sub-filter of one phase of every output channel, rearranged per call (at
 * most AOT_S16_TC_PF bytes), then the Arm DSP build's widened four channels
 * of it. Other layers: the constants, then the column of two outputs (in_c
 * a multiple of 4, at most 504). Without either, the constants alone (one
 * output at a time, the whole filter). */
#define AOT_S16_TC_PF 32768
#define AOT_S16_TC_REUSE 16
AOT_INLINE int64_t aot_tconv2d_s16_phase_k(const aot_conv_params *p) {
  return (int64_t)((p->filter_h + p->stride_h - 1) / p->stride_h) *
         ((p->filter_w + p->stride_w - 1) / p->stride_w) * p->in_c;
}
AOT_INLINE int aot_tconv2d_s16_phased(const aot_conv_params *p) {
  const int64_t k = aot_tconv2d_s16_phase_k(p);
  return (int64_t)p->batches * p->in_h * p->in_w >= AOT_S16_TC_REUSE && k > 0 &&
         k * p->out_c <= AOT_S16_TC_PF;
}
/* the Arm DSP build's four channels of the sub-filter widened to int16
 * pairs (8 bytes per tap) when in_c is a multiple of 4 and a phase's window
 * at most 504 taps (AOT_S16_RUN: one int32 sum per output) */
AOT_INLINE size_t aot_tconv2d_s16_quad_bytes(const aot_conv_params *p) {
  const int64_t k = aot_tconv2d_s16_phase_k(p);
  return p->in_c % 4 != 0 || k <= 0 || k > 504 ? 0 : (size_t)(8 * k);
}
AOT_INLINE size_t aot_tconv2d_s16_scratch_size(const aot_conv_params *p) {
  if (p->stride_h <= 0 || p->stride_w <= 0 || p->in_c <= 0 || p->out_c <= 0)
    return aot_s16_rq_bytes(p);
  if (aot_tconv2d_s16_phased(p))
    return aot_s16_rq_bytes(p) +
           aot_conv_scratch_round((size_t)aot_tconv2d_s16_phase_k(p) * (size_t)p->out_c) +
           aot_tconv2d_s16_quad_bytes(p);
  /* in_c a multiple of 4 and at most 504 (AOT_S16_RUN): whole blocks */
  if (p->in_c % 4 != 0 || p->in_c > 504) return aot_s16_rq_bytes(p);
  return aot_s16_rq_bytes(p) + aot_s16_col_bytes(aot_tconv2d_s16_phase_k(p));
}
/* Cortex-M4 DSP depthwise, depth multiplier 1 (aot_dwconv_dsp.h):
 *  - 3x3, stride_w 1 or 2, no dilation (aot_dwconv2d_s8_dsp_is3): per
 *    block of up to AOT_DW3_CB channels 40 bytes of constants per channel
 *    (aot_dw3_ch) and a ring of three input rows widened to int16,
 *    aot_dwconv2d_s8_dsp_wp(p) columns per channel;
 *  - other filters up to AOT_DW_S8_DSP_TAPS taps (aot_dw_s8_dsp_dm1): per block of up to
 *    AOT_DW_S8_DSP_CH channels (fewer for large filters, whose widened taps
 *    fill AOT_DW_S8_DSP_W16 words) the channel constants (12 bytes), the
 *    widened filter, the taps' address table and a row of zero points. */
#define AOT_DW_S8_DSP_CH 32      /* channels of a block, at most */
#define AOT_DW_S8_DSP_TAPS 49    /* filter taps (7 x 7), at most */
#define AOT_DW_S8_DSP_W16 432    /* words of the widened filter of a block */
#define AOT_DW3_CH_BYTES 40      /* sizeof(aot_dw3_ch) */
#define AOT_DW3_CB 16            /* channels of a 3x3 block, at most */
/* the 3x3 path's instructions for one channel's rows x cols outputs: per
 * row 70 per four positions, 40 for a remaining two, 31 for a last one and
 * 15, counted on Cortex-M4 */
AOT_INLINE int32_t aot_dwconv2d_s8_dsp_cost(int32_t rows, int32_t cols) {
  return rows * (70 * (cols / 4) + 40 * ((cols % 4) / 2) + 31 * (cols % 2) + 15);
}
/* 1 when the 3x3 path runs the layer transposed (output columns as its
 * rows: cheaper by that count, e.g. KWS's 25x5 images) */
AOT_INLINE int aot_dwconv2d_s8_dsp_tr(const aot_conv_params *p) {
  return (p->stride_h == 1 || p->stride_h == 2) &&
         aot_dwconv2d_s8_dsp_cost(p->out_w, p->out_h) < aot_dwconv2d_s8_dsp_cost(p->out_h, p->out_w);
}
/* 1 when the 3x3 path takes the layer: every 3x3 layer of stride_w 1 or 2
 * unless aotc chose the tap-pair loop for it (AOT_DSP_VAR_GEN: on rows of
 * fewer than four outputs it counts fewer instructions, but it costs a
 * module without other layers for it 2.7 KB of code) */
AOT_INLINE int aot_dwconv2d_s8_dsp_is3(const aot_conv_params *p) {
  return p->depth_multiplier == 1 && p->filter_h == 3 && p->filter_w == 3 &&
         p->dsp_variant != AOT_DSP_VAR_GEN && p->dilation_h == 1 && p->dilation_w == 1 &&
         (p->stride_w == 1 || p->stride_w == 2);
}
/* 1 when the 3x3 path requantizes a channel (folded bias ks, multiplier
 * m, shift sh; output offset out_off) with aot_conv_mbqm on the exact sum
 * (aot_dw3_slow) instead of SMMLAR on the doubled sum: m < 0, a shift
 * outside [-31, -1] (m = 0 counts as shift -1), or sums that may reach 2^30
 * or an rounding constant that may overflow. aot_dw3_setup's test, and
 * aotc's for AOT_F_DW_S8_3SLOW (host code too). */
AOT_INLINE int aot_dwconv2d_s8_dsp_slow(int32_t ks, int32_t m, int32_t sh, int32_t out_off) {
  int64_t ak, rmax, k;
  if (m == 0) sh = -1;
  if (m < 0 || sh > -1 || sh < -31) return 1;
  ak = ks < 0 ? -(int64_t)ks : (int64_t)ks;
  ak += 9 * 128 * 128;
  rmax = ((ak * m) >> 31) + 1;
  k = ((int64_t)1 << (-sh - 1)) + (int64_t)out_off * ((int64_t)1 << -sh);
  return ak >= ((int64_t)1 << 30) || rmax + (k < 0 ? -k : k) + 1 >= ((int64_t)1 << 31);
}
/* int16 columns of a widened row: those the windows read, +1 for the last
 * pair's high half, even */
AOT_INLINE int32_t aot_dwconv2d_s8_dsp_wp(const aot_conv_params *p) {
  return aot_dwconv2d_s8_dsp_tr(p) ? ((p->out_h - 1) * p->stride_h + 4 + 1) & ~1
                                   : ((p->out_w - 1) * p->stride_w + 4 + 1) & ~1;
}
AOT_INLINE size_t aot_dwconv2d_s8_scratch_dsp(const aot_conv_params *p) {
  const size_t ch = (size_t)(p->in_c > 0 ? p->in_c : 0);
  const int32_t nt = p->filter_h * p->filter_w, np2 = nt & ~1, odd = nt & 1;
  const int32_t gw = 2 * np2 + 2 * odd;
  size_t b, n;
  if (p->depth_multiplier != 1 || nt > AOT_DW_S8_DSP_TAPS) return 0;
  if (aot_dwconv2d_s8_dsp_is3(p)) {
    const size_t cb = ch < AOT_DW3_CB ? ch : AOT_DW3_CB;
    return aot_conv_scratch_round(AOT_DW3_CH_BYTES * cb) +
           aot_conv_scratch_round(3u * cb * (size_t)aot_dwconv2d_s8_dsp_wp(p) * 2u);
  }
  n = (size_t)(AOT_DW_S8_DSP_W16 / gw * 4);
  if (n > AOT_DW_S8_DSP_CH) n = AOT_DW_S8_DSP_CH;
  if (n > ch) n = ch;
  b = aot_conv_scratch_round(12u * n) + aot_conv_scratch_round(4u * (n / 4u) * (size_t)gw) +
      aot_conv_scratch_round(sizeof(const int8_t *) * (size_t)(np2 + odd)) +
      aot_conv_scratch_round(n);
  return b;
}
/* Cortex-M55 Helium depthwise (aot_dwconv_mve.h): filters of at most
 * AOT_DW_MVE_TAPS taps take its 8-channel blocks, their filter packed in the
 * scratch, 8 bytes per tap. Depth multiplier 1 and at least 8 channels: the
 * ring of padded rows, aot_dw_mve_layout; otherwise (the gather path) the
 * packed filter alone. */
#define AOT_DW_MVE_TAPS 64
/* byte offsets of the ring path's parts in the scratch (aot_dwconv_mve.h
 * describes them): a group of grp 8-channel blocks (at most AOT_DW_MVE_GRP),
 * each with its unit (packed filter, constants: usz bytes) and its ring
 * (span rows of pw padded positions, then a zero-point row: rsz bytes);
 * size = the bytes in all */
#define AOT_DW_MVE_GRP 8
typedef struct aot_dw_mve_lay {
  size_t wpk, cst, usz, off, ring, rsz, size;   /* byte offsets / sizes in the scratch */
  int32_t span, pw, grp;
} aot_dw_mve_lay;

AOT_INLINE void aot_dw_mve_layout(const aot_conv_params *p, aot_dw_mve_lay *l) {
  const int32_t span = (p->filter_h - 1) * p->dilation_h + 1;
  const int32_t need = (p->out_w - 1) * p->stride_w + (p->filter_w - 1) * p->dilation_w + 1;
  l->span = span;
  l->pw = aot_max_i32(p->in_w + p->pad_w, need);
  l->grp = aot_min_i32(AOT_DW_MVE_GRP, (p->in_c + 7) / 8);
  l->wpk = 0;
  l->cst = (size_t)p->filter_h * p->filter_w * 8;
  l->usz = l->cst + 160;
  l->off = l->usz * (size_t)l->grp;
  l->ring = l->off + ((size_t)p->filter_h * 4 + 7) / 8 * 8;
  l->rsz = (size_t)(span + 1) * l->pw * 8;
  l->size = l->ring + l->rsz * (size_t)l->grp;
}
AOT_INLINE size_t aot_dwconv2d_s8_scratch_mve(const aot_conv_params *p) {
  aot_dw_mve_lay l;
  if (p->filter_h * p->filter_w > AOT_DW_MVE_TAPS) return 0;
  if (p->depth_multiplier != 1 || p->in_c < 8)
    return (size_t)p->filter_h * (size_t)p->filter_w * 8u;
  aot_dw_mve_layout(p, &l);
  return l.size;
}
AOT_INLINE size_t aot_dwconv2d_s8_scratch_size(const aot_conv_params *p) {
  const size_t a = aot_dwconv2d_s8_scratch_dsp(p), b = aot_dwconv2d_s8_scratch_mve(p);
  return a > b ? a : b;
}

/* TRANSPOSE_CONV: computed as a gather over the input positions that reach
 * each output (same integer sums as the reference scatter, no scratch). */
int32_t aot_tconv2d_s8(const aot_conv_params *p, const int8_t *input,
                       const int8_t *filter, const int32_t *bias, int8_t *output);
/* scratch: aot_tconv2d_s16_scratch_size(p) bytes, 8-byte aligned (NULL when 0) */
int32_t aot_tconv2d_s16(const aot_conv_params *p, const int16_t *input,
                        const int8_t *filter, const int64_t *bias, int16_t *output,
                        void *scratch);
int32_t aot_tconv2d_f32(const aot_conv_params *p, const float *input,
                        const float *filter, const float *bias, float *output);

/* ---- FULLY_CONNECTED ----------------------------------------------------- */
typedef struct aot_fc_params {
  int32_t batches;            /* rows of the flattened input */
  int32_t in_depth;           /* accumulation depth (weights dim 1) */
  int32_t out_depth;          /* output channels (weights dim 0) */
  int32_t input_offset;       /* -input zero point (int8) */
  int32_t output_offset;      /* output zero point (int8) */
  int32_t act_min, act_max;
  float act_min_f, act_max_f;
  int32_t per_channel;        /* 0: out_mult[0]/out_shift[0] for all rows */
  const int32_t *out_mult;
  const int32_t *out_shift;
  /* int8, optional (NULL: unused): out_depth entries bias[c] + input_offset *
   * (sum of weight row c), int32 wrap-around, computed by aotc at compile
   * time; the SIMD kernels start their sums of w * x from it (same integer
   * as the portable sum of w * (x + input_offset) + bias), the portable
   * kernel ignores it */
  const int32_t *kbias;
} aot_fc_params;

int32_t aot_fc_s8(const aot_fc_params *p, const int8_t *input,
                  const int8_t *weights, const int32_t *bias, int8_t *output);
int32_t aot_fc_s16(const aot_fc_params *p, const int16_t *input,
                   const int8_t *weights, const int64_t *bias, int16_t *output);
int32_t aot_fc_f32(const aot_fc_params *p, const float *input,
                   const float *weights, const float *bias, float *output);

/* ---- hybrid (dynamic-range) CONV_2D / DEPTHWISE_CONV_2D / FULLY_CONNECTED
 * float32 input and output, int8 filter (zero point 0) with float scales
 * (filter_scale[c] per output channel, or filter_scale[0] for all), float32
 * bias (or NULL). The float input is quantized to int8 at run time into the
 * scratch buffer, the int8 x int8 products are summed in int32,
 * acc = sum w * (q - zero point), taps outside the image skipped, and the sum
 * is scaled back to float. This is what the LiteRT runtime computes:
 *  - CONV_2D and FULLY_CONNECTED run in its XNNPACK delegate ("qd8" dynamic
 *    quantization, aot_hybrid_quantize_qd8): one quantization per image, per
 *    pixel when the convolution is a 1x1 stride-1 GEMM, per row of a fully
 *    connected input; out = ((float)acc * input_scale) * filter_scale[c] +
 *    bias[c];
 *  - DEPTHWISE_CONV_2D runs LiteRT's own hybrid kernel (depthwise_conv.cc
 *    EvalHybridPerChannel): AsymmetricQuantizeFloats per image
 *    (aot_hybrid_quantize_asym); out = ((float)acc * input_scale) *
 *    filter_scale[c] + bias[c].
 * Outputs are clamped to [act_min_f, act_max_f]. The *_buffer_size functions
 * give the scratch bytes (one quantized image, pixel or row). */
typedef struct aot_hybrid_params {
  int32_t per_channel;        /* 1: filter_scale[c], 0: filter_scale[0] */
  const float *filter_scale;
} aot_hybrid_params;

size_t aot_conv2d_hybrid_buffer_size(const aot_conv_params *p);
int32_t aot_conv2d_hybrid(const aot_conv_params *p, const aot_hybrid_params *h,
                          const float *input, const int8_t *filter,
                          const float *bias, float *output, void *scratch);
size_t aot_dwconv2d_hybrid_buffer_size(const aot_conv_params *p);
int32_t aot_dwconv2d_hybrid(const aot_conv_params *p, const aot_hybrid_params *h,
                            const float *input, const int8_t *filter,
                            const float *bias, float *output, void *scratch);
size_t aot_fc_hybrid_buffer_size(const aot_fc_params *p);
int32_t aot_fc_hybrid(const aot_fc_params *p, const aot_hybrid_params *h,
                      const float *input, const int8_t *weights,
                      const float *bias, float *output, void *scratch);

/* 1 if CONV_2D runs as a GEMM in XNNPACK (1x1 filter, stride 1, hence no
 * padding): its input is then quantized pixel by pixel. */
AOT_INLINE int32_t aot_conv_is_gemm(const aot_conv_params *p) {
  return p->filter_h == 1 && p->filter_w == 1 && p->stride_h == 1 && p->stride_w == 1 &&
         p->pad_h == 0 && p->pad_w == 0;
}

/* x rounded to an integer in [lo, hi]: half away from zero (TfLiteRound)
 * when even == 0, half to even (lrintf, XNNPACK) when even == 1. x is clamped
 * first (NaN gives lo). x - trunc(x) is exact for |x| < 2^23. */
AOT_INLINE int32_t aot_hybrid_round(float x, int32_t lo, int32_t hi, int32_t even) {
  int32_t t;
  float frac;
  if (!(x >= (float)lo)) return lo;
  if (!(x <= (float)hi)) return hi;
  t = (int32_t)x;
  frac = x - (float)t;
  if (frac > 0.5f || (frac == 0.5f && (!even || (t & 1)))) t++;
  else if (frac < -0.5f || (frac == -0.5f && (!even || (t & 1)))) t--;
  return aot_clamp_i32(t, lo, hi);
}

/* XNNPACK f32 -> qd8 conversion of n values (xnn_f32_qd8_asymmetric_
 * quantization_params + the f32-qs8 convert kernel), all in float:
 * [rmin, rmax] = [min(0, min x), max(0, max x)]; m = 255 / (rmax - rmin)
 * (1 if the range is empty); zero point from the end with the smaller error,
 * clamped to [-128, 127] and rounded half to even; *scale = 1 / m; the values
 * are q = round_half_even(x * (1 / *scale)) + zp, clamped to [-128, 127]. */
AOT_INLINE void aot_hybrid_quantize_qd8(const float *v, int32_t n, int8_t *q, float *scale,
                                        int32_t *zp) {
  float lo = 0.0f, hi = 0.0f, rmin, rmax, m, dmin, dmax, fz, mq;
  int32_t i, z;
  if (n > 0) lo = hi = v[0];
  for (i = 1; i < n; i++) {
    if (v[i] < lo) lo = v[i];
    if (v[i] > hi) hi = v[i];
  }
  rmin = lo < 0.0f ? lo : 0.0f;
  rmax = hi > 0.0f ? hi : 0.0f;
  m = rmin == rmax ? 1.0f : 255.0f / (rmax - rmin);
  dmin = rmin * m;
  dmax = rmax * m;
  fz = (-128.0f + dmin) + (127.0f + dmax) > 0.0f ? -128.0f - dmin : 127.0f - dmax;
  z = aot_hybrid_round(fz, -128, 127, 1);
  *scale = 1.0f / m;
  *zp = z;
  mq = 1.0f / *scale;
  for (i = 0; i < n; i++) {
    /* the convert kernel clamps x * m to [-128 - zp, 127 - zp], then rounds */
    q[i] = (int8_t)(aot_hybrid_round(v[i] * mq, -128 - z, 127 - z, 1) + z);
  }
}

/* tensor_utils AsymmetricQuantizeFloats (LiteRT) on n values: *scale and
 * *zp, computed in double; q = TfLiteRound(zp + x * (1 / scale)) clamped to
 * [-128, 127]. */
AOT_INLINE void aot_hybrid_quantize_asym(const float *v, int32_t n, int8_t *q,
                                         float *scale, int32_t *zp) {
  float lo = 0.0f, hi = 0.0f, inv, fzp;
  double rmin, rmax, s, zmin, zmax, zd, emin, emax;
  int32_t i, z;
  if (n > 0) lo = hi = v[0];
  for (i = 1; i < n; i++) {
    if (v[i] < lo) lo = v[i];
    if (v[i] > hi) hi = v[i];
  }
  rmin = (double)(lo < 0.0f ? lo : 0.0f);
  rmax = (double)(hi > 0.0f ? hi : 0.0f);
  if (rmin == rmax) {
    for (i = 0; i < n; i++) q[i] = 0;
    *scale = 1.0f;
    *zp = 0;
    return;
  }
  s = (rmax - rmin) / 255.0;
  zmin = -128.0 - rmin / s;
  zmax = 127.0 - rmax / s;
  emin = 128.0 + (rmin / s < 0.0 ? -(rmin / s) : rmin / s);
  emax = 127.0 + (rmax / s < 0.0 ? -(rmax / s) : rmax / s);
  zd = emin < emax ? zmin : zmax;
  if (zd <= -128.0) {
    z = -128;
  } else if (zd >= 127.0) {
    z = 127;
  } else {  /* round half away from zero; |zd| < 128 */
    double f;
    z = (int32_t)zd;
    f = zd - (double)z;
    if (f >= 0.5) z++;
    else if (f <= -0.5) z--;
  }
  *scale = (float)s;
  *zp = z;
  inv = 1.0f / *scale;
  fzp = (float)z;
  for (i = 0; i < n; i++) q[i] = (int8_t)aot_hybrid_round(fzp + v[i] * inv, -128, 127, 0);
}

/* ---- BATCH_MATMUL -------------------------------------------------------- */
/* out[b][m][n] = sum_k lhs[b][m][k] * rhs[b][k][n]; adj_x / adj_y transpose
 * the last two dims of lhs / rhs. Batch dims (up to 5, padded on the left
 * with 1) broadcast: a batch stride of 0 repeats the operand. */
#define AOT_BMM_MAX_BATCH_DIMS 5
typedef struct aot_bmm_params {
  int32_t batch_dims[AOT_BMM_MAX_BATCH_DIMS];   /* output batch shape */
  int32_t lhs_bstride[AOT_BMM_MAX_BATCH_DIMS];  /* elements, 0 = broadcast */
  int32_t rhs_bstride[AOT_BMM_MAX_BATCH_DIMS];
  int32_t m, k, n;
  int32_t adj_x, adj_y;
  int32_t lhs_offset, rhs_offset;   /* -zero points (int8) */
  int32_t output_offset;
  int32_t out_mult, out_shift;
  int32_t act_min, act_max;
} aot_bmm_params;

int32_t aot_batch_matmul_f32(const aot_bmm_params *p, const float *lhs,
                             const float *rhs, float *output);
int32_t aot_batch_matmul_s8(const aot_bmm_params *p, const int8_t *lhs,
                            const int8_t *rhs, int8_t *output);
int32_t aot_batch_matmul_s16(const aot_bmm_params *p, const int16_t *lhs,
                             const int16_t *rhs, int16_t *output);

/* ---- AVERAGE_POOL_2D / MAX_POOL_2D --------------------------------------- */
typedef struct aot_pool_params {
  int32_t batches;
  int32_t in_h, in_w, channels;
  int32_t out_h, out_w;
  int32_t filter_h, filter_w;
  int32_t stride_h, stride_w;
  int32_t pad_h, pad_w;
  int32_t act_min, act_max;
  float act_min_f, act_max_f;
} aot_pool_params;

int32_t aot_avgpool_s8(const aot_pool_params *p, const int8_t *input, int8_t *output);
int32_t aot_avgpool_s16(const aot_pool_params *p, const int16_t *input, int16_t *output);
int32_t aot_avgpool_f32(const aot_pool_params *p, const float *input, float *output);
int32_t aot_maxpool_s8(const aot_pool_params *p, const int8_t *input, int8_t *output);
int32_t aot_maxpool_s16(const aot_pool_params *p, const int16_t *input, int16_t *output);
int32_t aot_maxpool_f32(const aot_pool_params *p, const float *input, float *output);

/* ---- helpers ------------------------------------------------------------- */
/* aot_mbqm for a non-negative multiplier (always the case for requantization
 * multipliers): bit-identical result, cheaper rounding.
 *  - SaturatingRoundingDoublingHighMul: the doubling high multiply with its
 *    sign-dependent nudge and truncating division equals
 *    r = floor((x * m + 2^30) / 2^31) for every sign of x * m (no saturation:
 *    m >= 0 excludes INT32_MIN * INT32_MIN), so -2^31 < r < 2^31 - 1.
 *  - RoundingDivideByPOT(r, e) (half away from zero) = floor((r + 2^(e-1)) /
 *    2^e) for r >= 0 and floor((r - 1 + 2^(e-1)) / 2^e) for r < 0; with
 *    y = r - [r < 0] (r + (r >> 31), no overflow) and the nested-floor
 *    identity floor((floor(y / 2^(e-1)) + 1) / 2) = floor((y + 2^(e-1)) / 2^e)
 *    it is ((y >> (e - 1)) + 1) >> 1, whose + 1 cannot overflow (y < 2^31 - 1).
 * tests/target/mve_kernels.c checks it against aot_mbqm on edge and random
 * values. */
AOT_INLINE int32_t aot_conv_mbqm(int32_t x, int32_t m, int32_t shift) {
  int32_t r;
  if (shift > 0) x = aot_shl_i32(x, shift);
  r = (int32_t)(((int64_t)x * m + ((int64_t)1 << 30)) >> 31);
  if (shift < 0) {
    r += r >> 31;
    r = ((r >> (-shift - 1)) + 1) >> 1;
  }
  return r;
}

/* 1 when a pointwise channel (folded bias ks, multiplier m, shift sh, K
 * input channels) gives the same output *v for every input: both ends of
 * ks +- 16384 * K (|sum w * x| <= 16384 * K) requantize and clamp to it
 * (monotone for m >= 0 and sh <= 0; the range must not wrap int32), e.g.
 * VWW's dead channels with bias +-2^30. The DSP pointwise kernel's test,
 * and aotc's for AOT_F_CONV_S8_PWK (host code too). */
AOT_INLINE int aot_conv2d_s8_pw_const(int32_t ks, int32_t m, int32_t sh, int32_t k,
                                      int32_t out_off, int32_t lo, int32_t hi, int32_t *v) {
  const int64_t a = (int64_t)ks - (int64_t)16384 * k, b = (int64_t)ks + (int64_t)16384 * k;
  int32_t qa, qb;
  if (m < 0 || sh > 0 || a < INT32_MIN || b > INT32_MAX) return 0;
  qa = aot_clamp_i32(aot_conv_mbqm((int32_t)a, m, sh) + out_off, lo, hi);
  qb = aot_clamp_i32(aot_conv_mbqm((int32_t)b, m, sh) + out_off, lo, hi);
  *v = qa;
  return qa == qb;
}

/* Range [*start, *end) of filter taps k (0 <= k < fsize) whose input
 * coordinate origin + k * dil lies in [0, in_size). Empty: *start >= *end. */
AOT_INLINE void aot_conv_window(int32_t origin, int32_t dil, int32_t in_size,
                                int32_t fsize, int32_t *start, int32_t *end) {
  int32_t s = 0, e;
  if (dil == 1) {
    if (origin < 0) s = -origin;
    e = in_size - origin;
  } else {
    if (origin < 0) s = (-origin + dil - 1) / dil;
    e = in_size - origin <= 0 ? 0 : (in_size - origin + dil - 1) / dil;
  }
  if (e > fsize) e = fsize;
  *start = s;
  *end = e;
}

/* Whether the output position one stride on (origin + stride) reaches the
 * same filter taps [start, end) as the one at origin (aot_conv_window). */
AOT_INLINE int aot_conv_same_window(int32_t origin, int32_t stride, int32_t dil,
                                    int32_t in_size, int32_t fsize, int32_t start,
                                    int32_t end) {
  int32_t s, e;
  aot_conv_window(origin + stride, dil, in_size, fsize, &s, &e);
  return s == start && e == end;
}

#endif
