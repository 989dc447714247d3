/* aot_fc_s8.c - FULLY_CONNECTED int8, as the TFLite reference
 * FullyConnected / FullyConnectedPerChannel: acc(int32) = sum w * (x +
 * input_offset) + bias, requantized with one multiplier (per-tensor) or one
 * per output channel. Weight zero points are 0. Four weight rows are
 * accumulated together so each input value is loaded once per four MACs
 * (AOT_F_FC_S8_ROWS4: a layer of four or more output channels and at least
 * 1024 weights that the three-row loop does not take); a module without such
 * layers compiles only the one-row loop of the DSP and portable builds. The
 * DSP build's three-row loop (aot_fc_s8_dsp3, aot_fc_dsp.h) comes with
 * AOT_F_FC_S8_ROWS3 (a layer where its code pays off), with or without the
 * four-row loop; a layer it turns down at run time takes the four-row loop
 * when compiled, else the one-row loop. */
#include "aot_conv.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(AOT_NO_SIMD)
/* Arm Helium (MVE, Cortex-M55): see aot_fc_s8_mve below. */
#include "aot_mve.h"
#define AOT_FC_S8_MVE 1
#elif defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32) && !defined(AOT_NO_SIMD)
/* Arm DSP extension: see aot_fc_s8_dsp below. */
#include "aot_dsp.h"
#include "aot_fc_dsp.h"
#define AOT_FC_S8_DSP 1
/* input taps widened on the stack (two bytes each), per chunk */
#define AOT_FC_S8_XW 1024
#endif

#if !defined(AOT_FC_S8_MVE) && !defined(AOT_FC_S8_DSP) /* (Clang warns when unused) */
AOT_INLINE int8_t aot_fc_s8_out(int32_t acc, const int32_t *bias, int32_t oc, int32_t mult,
                                int32_t shift, int32_t out_off, int32_t lo, int32_t hi) {
  if (bias) acc += bias[oc];
  return (int8_t)aot_clamp_i32(aot_conv_mbqm(acc, mult, shift) + out_off, lo, hi);
}
#endif

#ifdef AOT_FC_S8_MVE
/* Helium: sum w * (x + input_offset) + bias = sum w * x + ksum with ksum =
 * bias + input_offset * sum w per output channel (int32 arithmetic is
 * modular: the same integer as the portable sum), computed for up to
 * AOT_FC_S8_OCB channels at a time and reused for every batch row (one
 * batch row: the weight sums come from the dot product loop instead), or
 * taken from p->kbias (folded by aotc at compile time).
 * aot_mve_gemv_s8 (aot_mve.h) sums w * x four rows at a time with VMLADAVA
 * (exact) and requantizes with aot_mve_out_s8, bit-identical to
 * aot_conv_mbqm. */
#define AOT_FC_S8_OCB 64
static int32_t aot_fc_s8_mve(const aot_fc_params *p, const int8_t *input,
                             const int8_t *weights, const int32_t *bias, int8_t *output) {
  const int32_t depth = p->in_depth, out_depth = p->out_depth;
  const uint32_t in_off = (uint32_t)p->input_offset;
  int32_t ksum[AOT_FC_S8_OCB];
  aot_mve_gemv gv;
  int32_t c0;

  gv.ksum = p->batches > 1 ? ksum : NULL;
  gv.in_off = p->input_offset;
  gv.per_channel = p->per_channel;
  gv.out_off = p->output_offset;
  gv.lo = p->act_min;
  gv.hi = p->act_max;
  for (c0 = 0; c0 < out_depth; c0 += AOT_FC_S8_OCB) {
    const int32_t nc = out_depth - c0 < AOT_FC_S8_OCB ? out_depth - c0 : AOT_FC_S8_OCB;
    const int8_t *w = weights + (size_t)c0 * depth;
    int32_t j, b;
    gv.bias = bias ? bias + c0 : NULL;
    if (p->kbias) gv.ksum = p->kbias + c0;   /* folded at compile time */
    for (j = 0; gv.ksum == ksum && j < nc; j++) {
      const uint32_t t = (uint32_t)aot_mve_sum_s8(w + (size_t)j * depth, depth);
      ksum[j] = (int32_t)((bias ? (uint32_t)bias[c0 + j] : 0u) + t * in_off);
    }
    gv.mult = p->per_channel ? p->out_mult + c0 : p->out_mult;
    gv.shift = p->per_channel ? p->out_shift + c0 : p->out_shift;
    for (b = 0; b < p->batches; b++)
      aot_mve_gemv_s8(input + (size_t)b * depth, w, depth, nc, &gv,
                      output + (size_t)b * out_depth + c0);
  }
  return AOT_KERNEL_OK;
}
#endif

#ifdef AOT_FC_S8_DSP
/* Arm DSP: each input row is widened to 16-bit pairs with the input offset
 * added (aot_dsp_widen_off, zero-padded to a multiple of four taps), at
 * most AOT_FC_S8_XW taps at a time, then four weight rows at a time are
 * summed with SMLAD (aot_dsp_dot4w: the same exact products as the portable
 * loop). One chunk (in_depth <= AOT_FC_S8_XW): widened once per batch row;
 * longer rows: chunk by chunk for every four rows. The padded last group
 * reads up to three bytes into the next weight row, so the last block of
 * rows sums its last taps in C instead. Requantization aot_dsp_rqf when
 * the shifts and the four rows' biases allow, else aot_conv_mbqm. */
#if AOT_F_FC_S8_ROWS4
/* four rows of n4 groups (not inlined: the loop needs 14 registers) */
static __attribute__((noinline)) void aot_fc_s8_dot4(const uint32_t *xw, const int8_t *w,
                                                     int32_t depth, int32_t n4, int32_t *s) {
  aot_dsp_dot4w(xw, w, w + depth, w + 2 * depth, w + 3 * depth, n4, s);
}
#endif

/* the int8 of accumulator acc: aot_dsp_rqf (rs = ~shift) when fast, else
 * aot_conv_mbqm (aot_dsp_mbqm) */
AOT_INLINE int8_t aot_fc_s8_q(int32_t acc, int32_t fast, int32_t m, int32_t sh, int32_t out_off,
                              int32_t full, int32_t lo, int32_t hi) {
  /* m = 0 gives 0 whatever the shift (rs masked to a valid count) */
  const int32_t v = fast ? aot_dsp_rqf(acc, m, ~sh & 31) : aot_dsp_mbqm(acc, m, sh);
  return aot_dsp_st(v + out_off, full, lo, hi);
}

#if AOT_F_FC_S8_ROWS3
/* Rows of a multiple of four taps (at least eight) on word-aligned weights
 * with the folded bias: the input widened once per batch row without its
 * offset (the bias folded by aotc holds it), three rows at a time summed by
 * aot_fc_dsp_dot3 into at most AOT_FC_S8_CH int32 sums (a last block of
 * fewer than three rows recomputes the rows before it instead), which
 * aot_fc_dsp_rq requantizes (aot_conv_mbqm for the sums of 2^30 or more in
 * magnitude, in a chunk where QADD saw one). 1 when it ran, 0 when the layer
 * does not fit it. */
#define AOT_FC_S8_CH 96
static int32_t aot_fc_s8_dsp3(const aot_fc_params *p, const int8_t *input,
                              const int8_t *weights, int8_t *output) {
  const int32_t depth = p->in_depth, out_depth = p->out_depth, ms = p->per_channel ? 1 : 0;
  const int32_t out_off = p->output_offset, lo = p->act_min, hi = p->act_max;
  const int32_t full = lo == -128 && hi == 127, c = 1 + 2 * out_off;
  uint32_t xw[AOT_FC_S8_XW / 2];
  int32_t acc[AOT_FC_S8_CH + 2];
  aot_fc_dsp_job job;
  int32_t b, r0, i;
  if ((depth & 3) || depth < 8 || depth > AOT_FC_S8_XW || out_depth < 3 || !p->kbias ||
      ((uintptr_t)weights & 3))
    return 0;
  for (i = 0; i < (ms ? out_depth : 1); i++)
    if ((p->out_shift[i] >= 0 || p->out_shift[i] < -31) && p->out_mult[i] != 0) return 0;
  job.xw = xw;
  job.depth = depth;
  job.n4 = depth >> 2;
  for (b = 0; b < p->batches; b++) {
    const int8_t *x = input + (size_t)b * depth;
    int8_t *o = output + (size_t)b * out_depth;
    aot_fc_dsp_widen(x, depth >> 2, xw);
    for (r0 = 0; r0 < out_depth; r0 += AOT_FC_S8_CH) {
      /* the last chunk keeps at least three rows */
      const int32_t nr = out_depth - r0 <= AOT_FC_S8_CH + 2 ? out_depth - r0 : AOT_FC_S8_CH;
      const int32_t *mult = p->out_mult + ms * r0, *shift = p->out_shift + ms * r0;
      job.w = weights + (size_t)r0 * depth;
      job.nblk = nr / 3;
      job.init = p->kbias + r0;
      job.out = acc;
      aot_fc_dsp_q_clear();
      aot_fc_dsp_dot3(&job);
      if (nr % 3) {
        job.w = weights + (size_t)(r0 + nr - 3) * depth;
        job.nblk = 1;
        job.init = p->kbias + r0 + nr - 3;
        job.out = acc + nr - 3;
        aot_fc_dsp_dot3(&job);
      }
      if (!aot_fc_dsp_q_set() && !ms && full) {
        /* the common case: one multiplier, every sum below 2^30 */
        const int32_t m = mult[0], rs = ~shift[0];
        int8_t *q = o + r0;
        for (i = 0; i + 4 <= nr; i += 4, q += 4) {
          q[0] = (int8_t)aot_fc_dsp_rq(acc[i], m, rs, c);
          q[1] = (int8_t)aot_fc_dsp_rq(acc[i + 1], m, rs, c);
          q[2] = (int8_t)aot_fc_dsp_rq(acc[i + 2], m, rs, c);
          q[3] = (int8_t)aot_fc_dsp_rq(acc[i + 3], m, rs, c);
        }
        for (; i < nr; i++) *q++ = (int8_t)aot_fc_dsp_rq(acc[i], m, rs, c);
      } else {
        /* per-channel multipliers, a narrower range, or sums of 2^30 or more
         * in magnitude (those take aot_conv_mbqm) */
        for (i = 0; i < nr; i++) {
          const int32_t m = mult[ms * i], sh = shift[ms * i];
          const int32_t v = (uint32_t)acc[i] + (1u << 30) < (1u << 31)
                                ? aot_fc_dsp_rq(acc[i], m, ~sh, c)
                                : aot_dsp_st(aot_dsp_mbqm(acc[i], m, sh) + out_off, 1, 0, 0);
          o[r0 + i] = (int8_t)(full ? v : aot_clamp_i32(v, lo, hi));
        }
      }
      if (nr > AOT_FC_S8_CH) break;
    }
  }
  return 1;
}
#endif

static int32_t aot_fc_s8_dsp(const aot_fc_params *p, const int8_t *input, const int8_t *weights,
                             const int32_t *bias, int8_t *output) {
  const int32_t depth = p->in_depth, out_depth = p->out_depth;
  const int32_t out_off = p->output_offset, lo = p->act_min, hi = p->act_max;
  const int32_t in_off = p->input_offset, ms = p->per_channel ? 1 : 0;
  const int32_t full = lo == -128 && hi == 127;
  int32_t b;
#if AOT_F_FC_S8_ROWS3
  if (aot_fc_s8_dsp3(p, input, weights, output)) return AOT_KERNEL_OK;
#endif
#if AOT_F_FC_S8_ROWS4
#if AOT_F_FC_S8_LONG
  const int32_t one = depth <= AOT_FC_S8_XW;
#else
  /* no layer of this module has rows longer than one chunk */
  const int32_t one = 1;
  if (depth > AOT_FC_S8_XW) return AOT_KERNEL_BAD_PARAM;
#endif
  /* aot_dsp_rqf needs every shift in [-31, -1] and |accumulator| < 2^30:
   * |bias| < lim, as |sum w * (x + input_offset)| <= 128 * 255 * depth */
  const int32_t lim = depth >= 32768 ? 0 : (1 << 30) - 32640 * depth;
  const uint32_t span = lim > 0 ? 2u * (uint32_t)lim - 1u : 0u;
  static const int32_t zero4[4] = {0, 0, 0, 0};
  uint32_t xw[AOT_FC_S8_XW / 2 + 2];
  int32_t c, sh_ok = 1;
  for (c = 0; c < (ms ? out_depth : 1); c++)
    if ((p->out_shift[c] >= 0 || p->out_shift[c] < -31) && p->out_mult[c] != 0) sh_ok = 0;
#endif
  for (b = 0; b < p->batches; b++) {
    const int8_t *x = input + (size_t)b * depth;
    const int8_t *w = weights;
    int8_t *o = output + (size_t)b * out_depth;
    const int32_t *mult = p->out_mult, *shift = p->out_shift;
    int32_t oc = 0, k;
#if AOT_F_FC_S8_ROWS4
    if (one && out_depth >= 4) aot_dsp_widen_off(x, depth, in_off, xw);   /* four-row loop only */
    for (; oc + 4 <= out_depth; oc += 4, w += 4 * depth, o += 4) {
      const int32_t *const bb = bias ? bias + oc : zero4;
      int32_t s[4], k0, fast;
      s[0] = bb[0];
      s[1] = bb[1];
      s[2] = bb[2];
      s[3] = bb[3];
      fast = sh_ok && (uint32_t)(s[0] + lim - 1) < span && (uint32_t)(s[1] + lim - 1) < span &&
             (uint32_t)(s[2] + lim - 1) < span && (uint32_t)(s[3] + lim - 1) < span;
      for (k0 = 0; k0 < depth; k0 += AOT_FC_S8_XW) {
#if AOT_F_FC_S8_LONG
        const int32_t kn = depth - k0 < AOT_FC_S8_XW ? depth - k0 : AOT_FC_S8_XW;
#else
        const int32_t kn = depth;
#endif
        const int32_t n4 = kn >> 2, k4 = kn & ~3;
        const int8_t *wk = w + k0;
        if (!one) aot_dsp_widen_off(x + k0, kn, in_off, xw);
        if (k4 < kn && oc + 4 < out_depth) {
          aot_fc_s8_dot4(xw, wk, depth, n4 + 1, s);
        } else {
          aot_fc_s8_dot4(xw, wk, depth, n4, s);
          for (k = k4; k < kn; k++) {
            const int32_t xv = x[k0 + k] + in_off;
            s[0] += wk[k] * xv;
            s[1] += wk[depth + k] * xv;
            s[2] += wk[2 * depth + k] * xv;
            s[3] += wk[3 * depth + k] * xv;
          }
        }
      }
      o[0] = aot_fc_s8_q(s[0], fast, mult[0], shift[0], out_off, full, lo, hi);
      o[1] = aot_fc_s8_q(s[1], fast, mult[ms], shift[ms], out_off, full, lo, hi);
      o[2] = aot_fc_s8_q(s[2], fast, mult[2 * ms], shift[2 * ms], out_off, full, lo, hi);
      o[3] = aot_fc_s8_q(s[3], fast, mult[3 * ms], shift[3 * ms], out_off, full, lo, hi);
      mult += 4 * ms;
      shift += 4 * ms;
    }
#endif
    /* the last 1..3 rows (every row in a module without four-row layers) */
    for (; oc < out_depth; oc++, w += depth, mult += ms, shift += ms) {
      int32_t acc = bias ? bias[oc] : 0;
      for (k = 0; k < depth; k++) acc += w[k] * (x[k] + in_off);
      *o++ = aot_fc_s8_q(acc, 0, mult[0], shift[0], out_off, full, lo, hi);
    }
  }
  return AOT_KERNEL_OK;
}
#endif

int32_t aot_fc_s8(const aot_fc_params *p, const int8_t *input,
                  const int8_t *weights, const int32_t *bias, int8_t *output) {
#if defined(AOT_FC_S8_MVE)
  return aot_fc_s8_mve(p, input, weights, bias, output);
#elif defined(AOT_FC_S8_DSP)
  return aot_fc_s8_dsp(p, input, weights, bias, output);
#else
  const int32_t depth = p->in_depth, out_depth = p->out_depth;
  const int32_t in_off = p->input_offset, out_off = p->output_offset;
  const int32_t lo = p->act_min, hi = p->act_max;
  const int32_t ms = p->per_channel ? 1 : 0;
  const int32_t *mult = p->out_mult, *shift = p->out_shift;
  int32_t b;

  for (b = 0; b < p->batches; b++) {
    const int8_t *in_row = input + (size_t)b * depth;
    const int8_t *in_end = in_row + depth;
    const int8_t *w = weights;
    int32_t oc = 0;
#if AOT_F_FC_S8_ROWS4
    for (; oc + 4 <= out_depth; oc += 4) {
      int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
      const int8_t *q = in_row;
      while (q < in_end) {
        const int32_t x = *q++ + in_off;
        a0 += w[0] * x;
        a1 += w[depth] * x;
        a2 += w[2 * depth] * x;
        a3 += w[3 * depth] * x;
        w++;
      }
      w += 3 * depth;
      output[0] = aot_fc_s8_out(a0, bias, oc, mult[oc * ms], shift[oc * ms], out_off, lo, hi);
      output[1] = aot_fc_s8_out(a1, bias, oc + 1, mult[(oc + 1) * ms], shift[(oc + 1) * ms],
                                out_off, lo, hi);
      output[2] = aot_fc_s8_out(a2, bias, oc + 2, mult[(oc + 2) * ms], shift[(oc + 2) * ms],
                                out_off, lo, hi);
      output[3] = aot_fc_s8_out(a3, bias, oc + 3, mult[(oc + 3) * ms], shift[(oc + 3) * ms],
                                out_off, lo, hi);
      output += 4;
    }
#endif
    for (; oc < out_depth; oc++) {
      int32_t acc = 0;
      const int8_t *q = in_row;
      while (q < in_end) acc += *w++ * (*q++ + in_off);
      *output++ = aot_fc_s8_out(acc, bias, oc, mult[oc * ms], shift[oc * ms], out_off, lo, hi);
    }
  }
  return AOT_KERNEL_OK;
#endif
}
