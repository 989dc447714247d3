/* aot_mve.h - Arm Helium (M-profile Vector Extension, MVE) helpers of the int8
 * kernels (Cortex-M55 and later). Everything here exists only when the
 * compiler targets MVE integer (__ARM_FEATURE_MVE bit 0) and AOT_NO_SIMD is
 * not defined; AOT_MVE is then defined to 1. Kernels that include this header
 * keep their portable (and Arm DSP) loops for every other target.
 *
 * Requantization of four int32 lanes, bit-identical to aot_mbqm() (TFLite
 * MultiplyByQuantizedMultiplier with the reference double rounding) for a
 * non-negative multiplier (requantization multipliers always are):
 *  - left shift: VSHL by a lane count >= 0 wraps like aot_shl_i32;
 *  - SaturatingRoundingDoublingHighMul: VQRDMULH computes
 *    sat((2*a*b + 2^31) >> 32) = floor((a*b + 2^30) / 2^31), which equals the
 *    gemmlowp form (sign-dependent nudge, truncating division) for every sign
 *    of a*b; both saturate only a = b = INT32_MIN to INT32_MAX;
 *  - RoundingDivideByPOT (round half away from zero): VRSHL by -e rounds half
 *    up, floor((x + 2^(e-1)) / 2^e), in exact arithmetic; subtracting 1 from a
 *    negative x first (only when e > 0) turns it into half away from zero:
 *    floor((x - 1 + 2^(e-1)) / 2^e). The subtraction saturates at INT32_MIN,
 *    which gives the same quotient -2^(31-e).
 * tests/target/mve_kernels.c checks this against aot_mbqm on edge values and
 * random values under QEMU. */
#ifndef AOT_MVE_H
#define AOT_MVE_H

#include "aot_common.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(AOT_NO_SIMD)
#include <arm_mve.h>

#define AOT_MVE 1

/* An asm statement that writes the predicate register VPR (P0) tells GCC
 * with the clobber AOT_MVE_P0 ("p0"); Clang's inline assembly has no name
 * for it, so under Clang the statement instead saves VPR on the stack first
 * (AOT_MVE_P0_SAVE; every operand is a register, moving sp moves none) and
 * reloads it last (AOT_MVE_P0_RESTORE): a predicate Clang keeps in VPR
 * across the statement survives. GCC's text and clobbers are unchanged. */
#if defined(__clang__)
#define AOT_MVE_P0
#define AOT_MVE_P0_SAVE "vstr p0, [sp, #-8]!\n\t"
#define AOT_MVE_P0_RESTORE "\n\tvldr p0, [sp], #8\n"
#else
#define AOT_MVE_P0 "p0",
#define AOT_MVE_P0_SAVE ""
#define AOT_MVE_P0_RESTORE ""
#endif

/* Per-lane requantization constants: multiplier (>= 0), left shift (>= 0)
 * and right shift as a non-positive VRSHL count. */
typedef struct aot_mve_rq {
  int32x4_t mult, lsh, rsh;
} aot_mve_rq;

/* From TFLite (multiplier, shift) pairs of four lanes (shift > 0 = left). */
AOT_INLINE aot_mve_rq aot_mve_rq_make(int32x4_t mult, int32x4_t shift) {
  aot_mve_rq r;
  const int32x4_t zero = vdupq_n_s32(0);
  r.mult = mult;
  r.lsh = vmaxq_s32(shift, zero);
  r.rsh = vminq_s32(shift, zero);
  return r;
}

/* aot_mbqm(x, mult, shift) on four lanes. */
/* aot_mve_mbqm after its left shift (x already shifted, or every lane's
 * left shift 0) */
AOT_INLINE int32x4_t aot_mve_mbqm_nl(int32x4_t x, aot_mve_rq q) {
  int32x4_t fix;
  x = vqrdmulhq_s32(x, q.mult);
  /* -1 where x < 0 and the right shift is non-zero (both sign bits set) */
  fix = vshrq_n_s32(vandq_s32(x, q.rsh), 31);
  return vrshlq_s32(vqaddq_s32(x, fix), q.rsh);
}
AOT_INLINE int32x4_t aot_mve_mbqm(int32x4_t x, aot_mve_rq q) {
  return aot_mve_mbqm_nl(vshlq_s32(x, q.lsh), q);
}

/* r + out_off clamped to [lo, hi] (int8 values, still int32 lanes) */
AOT_INLINE int32x4_t aot_mve_clamp_out(int32x4_t r, int32_t out_off, int32_t lo, int32_t hi) {
  r = vmaxq_s32(vaddq_n_s32(r, out_off), vdupq_n_s32(lo));
  return vminq_s32(r, vdupq_n_s32(hi));
}

/* Requantized int8 value of four accumulators (clamped, still int32 lanes). */
AOT_INLINE int32x4_t aot_mve_out_s8(int32x4_t acc, aot_mve_rq q, int32_t out_off, int32_t lo,
                                    int32_t hi) {
  return aot_mve_clamp_out(aot_mve_mbqm(acc, q), out_off, lo, hi);
}

/* Four scalars as one vector. */
AOT_INLINE int32x4_t aot_mve_vec4(int32_t a, int32_t b, int32_t c, int32_t d) {
  int32x4_t v = vdupq_n_s32(a);
  v = vsetq_lane_s32(b, v, 1);
  v = vsetq_lane_s32(c, v, 2);
  return vsetq_lane_s32(d, v, 3);
}

/* Fill n bytes with v, 16 per step, the tail with a lane predicate. */
AOT_INLINE void aot_mve_fill_s8(int8_t *d, int8_t v, int32_t n) {
  const int8x16_t vv = vdupq_n_s8(v);
  for (; n >= 16; n -= 16) {
    vstrbq_s8(d, vv);
    d += 16;
  }
  if (n > 0) vstrbq_p_s8(d, vv, vctp8q((uint32_t)n));
}

/* Shape of aot_mve_dot4_s8: nrows runs of len taps; run r starts at
 * x + r * x_rs and at w + r * w_rs; the four filters are fstride apart, of
 * which the first nw (1..4) are real (the others re-read the first). */
typedef struct aot_mve_dot_shape {
  int32_t len, nrows, x_rs, w_rs, fstride, nw;
} aot_mve_dot_shape;

/* Two filters at a time (the loop state then fits the registers): sums of
 * w * x by VMLADAVA.S8 and of w by VADDVA.S8, exact in int32. The run tail is
 * loaded with a lane predicate (inactive lanes read as 0, nothing is read
 * past the run). */
AOT_INLINE void aot_mve_dot2_s8(const int8_t *x, const int8_t *wa, const int8_t *wb,
                                const aot_mve_dot_shape *s, int32_t in_off, int32_t *ra,
                                int32_t *rb) {
  int32_t sa = 0, sb = 0, ta = 0, tb = 0, r;
  const int32_t len = s->len, x_rs = s->x_rs, w_rs = s->w_rs;
  for (r = s->nrows; r > 0; r--) {
    const int8_t *q = x, *pa = wa, *pb = wb;
    int32_t k;
    for (k = len; k >= 16; k -= 16) {
      const int8x16_t xv = vldrbq_s8(q);
      const int8x16_t va = vldrbq_s8(pa);
      const int8x16_t vb = vldrbq_s8(pb);
      sa = vmladavaq_s8(sa, xv, va);
      ta = vaddvaq_s8(ta, va);
      sb = vmladavaq_s8(sb, xv, vb);
      tb = vaddvaq_s8(tb, vb);
      q += 16;
      pa += 16;
      pb += 16;
    }
    if (k > 0) {
      const mve_pred16_t pk = vctp8q((uint32_t)k);
      const int8x16_t xv = vldrbq_z_s8(q, pk);
      const int8x16_t va = vldrbq_z_s8(pa, pk);
      const int8x16_t vb = vldrbq_z_s8(pb, pk);
      sa = vmladavaq_s8(sa, xv, va);
      ta = vaddvaq_s8(ta, va);
      sb = vmladavaq_s8(sb, xv, vb);
      tb = vaddvaq_s8(tb, vb);
    }
    x += x_rs;
    wa += w_rs;
    wb += w_rs;
  }
  /* sum w * (x + in_off) = sum w * x + in_off * sum w (modular int32) */
  *ra = (int32_t)((uint32_t)sa + (uint32_t)ta * (uint32_t)in_off);
  *rb = (int32_t)((uint32_t)sb + (uint32_t)tb * (uint32_t)in_off);
}

/* Lane i (i < 4) = sum over runs and taps of w_i * (x + in_off), w_i = the
 * filter at w + i * fstride. Not inlined: the loops get the registers. */
static __attribute__((noinline, unused)) int32x4_t aot_mve_dot4_s8(const int8_t *x,
                                                                    const int8_t *w,
                                                                    const aot_mve_dot_shape *s,
                                                                    int32_t in_off) {
  const int32_t fs = s->fstride, nw = s->nw;
  int32_t a, b;
  int32x4_t acc = vdupq_n_s32(0);
  /* lanes 0 and 2, then 1 and 3 (one VMOV sets two lanes) */
  aot_mve_dot2_s8(x, w, nw > 2 ? w + 2 * fs : w, s, in_off, &a, &b);
  acc = vsetq_lane_s32(b, vsetq_lane_s32(a, acc, 0), 2);
  aot_mve_dot2_s8(x, nw > 1 ? w + fs : w, nw > 3 ? w + 3 * fs : w, s, in_off, &a, &b);
  return vsetq_lane_s32(b, vsetq_lane_s32(a, acc, 1), 3);
}

/* Sums of w_i[k] * x[k] over k < len for four filters w_i (exact int32: each
 * VMLADAVA.S8 adds 16 int8 products). A tail-predicated low-overhead loop
 * (DLSTP.8 / LETP): the last iteration loads and adds only the remaining
 * lanes, nothing is read past x + len or w_i + len. In assembly because
 * GCC 12 neither emits tail predication from intrinsics nor keeps the
 * post-increment addressing; VMLADAVA needs even accumulator registers. */
AOT_INLINE int32x4_t aot_mve_dot4_run(const int8_t *x, const int8_t *w0, const int8_t *w1,
                                      const int8_t *w2, const int8_t *w3, int32_t len) {
  register int32_t s0 __asm__("r6") = 0;
  register int32_t s1 __asm__("r8") = 0;
  register int32_t s2 __asm__("r10") = 0;
  register int32_t s3 __asm__("r12") = 0;
  if (len > 0) {
    __asm__ volatile(
        "dlstp.8 lr, %[len]\n"
        "1:\n\t"
        "vldrb.8 q0, [%[x]], #16\n\t"
        "vldrb.8 q1, [%[w0]], #16\n\t"
        "vmladava.s8 %[s0], q0, q1\n\t"
        "vldrb.8 q1, [%[w1]], #16\n\t"
        "vmladava.s8 %[s1], q0, q1\n\t"
        "vldrb.8 q1, [%[w2]], #16\n\t"
        "vmladava.s8 %[s2], q0, q1\n\t"
        "vldrb.8 q1, [%[w3]], #16\n\t"
        "vmladava.s8 %[s3], q0, q1\n\t"
        "letp lr, 1b\n"
        : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [s3] "+r"(s3), [x] "+r"(x),
          [w0] "+r"(w0), [w1] "+r"(w1), [w2] "+r"(w2), [w3] "+r"(w3)
        : [len] "r"(len)
        : "lr", "d0", "d1", "d2", "d3", "memory");
  }
  return aot_mve_vec4(s0, s1, s2, s3);
}

/* Two filters with their sums: *s = sum w_i[k] * x[k], *t = sum w_i[k]
 * (VMLADAVA.S8 / VADDVA.S8, exact int32), tail-predicated as above. */
AOT_INLINE void aot_mve_dot2s_run(const int8_t *x, const int8_t *w0, const int8_t *w1,
                                  int32_t len, int32_t *r) {
  register int32_t s0 __asm__("r6") = 0;
  register int32_t s1 __asm__("r8") = 0;
  register int32_t t0 __asm__("r10") = 0;
  register int32_t t1 __asm__("r12") = 0;
  if (len > 0) {
    __asm__ volatile(
        "dlstp.8 lr, %[len]\n"
        "1:\n\t"
        "vldrb.8 q0, [%[x]], #16\n\t"
        "vldrb.8 q1, [%[w0]], #16\n\t"
        "vmladava.s8 %[s0], q0, q1\n\t"
        "vaddva.s8 %[t0], q1\n\t"
        "vldrb.8 q1, [%[w1]], #16\n\t"
        "vmladava.s8 %[s1], q0, q1\n\t"
        "vaddva.s8 %[t1], q1\n\t"
        "letp lr, 1b\n"
        : [s0] "+r"(s0), [s1] "+r"(s1), [t0] "+r"(t0), [t1] "+r"(t1), [x] "+r"(x),
          [w0] "+r"(w0), [w1] "+r"(w1)
        : [len] "r"(len)
        : "lr", "d0", "d1", "d2", "d3", "memory");
  }
  r[0] = s0;
  r[1] = s1;
  r[2] = t0;
  r[3] = t1;
}

/* Matrix-vector product with requantization: for c < nc,
 *   out[c] = requantized(sum over k < len of w[c * len + k] * x[k] + ksum[c])
 * with ksum = bias + input_offset * sum of filter c (so the sum is that of
 * w * (x + input_offset) + bias, modular int32). Four rows at a time share
 * the x vector (aot_mve_dot4_run); rows past nc re-read the block's first row
 * and are not stored. Without ksum (one use of each filter: summing them
 * separately would cost another pass) the filter sums come from the loop
 * (aot_mve_dot2s_run). Not inlined (the loop gets the registers). */
typedef struct aot_mve_gemv {
  const int32_t *ksum;           /* nc entries; NULL: sum the filters in the loop
                                    and add in_off * sum + bias[c] (bias may be NULL) */
  const int32_t *bias;
  int32_t in_off;
  const int32_t *mult, *shift;   /* nc entries, or one when per_channel == 0 */
  int32_t per_channel;
  int32_t out_off, lo, hi;
} aot_mve_gemv;

static __attribute__((noinline, unused)) void aot_mve_gemv_s8(const int8_t *x, const int8_t *w,
                                                               int32_t len, int32_t nc,
                                                               const aot_mve_gemv *g,
                                                               int8_t *out) {
  aot_mve_rq rq = aot_mve_rq_make(vdupq_n_s32(g->mult[0]), vdupq_n_s32(g->shift[0]));
  int32_t j;
  for (j = 0; j < nc; j += 4, w += 4 * len) {
    const int32_t n = nc - j < 4 ? nc - j : 4;
    const mve_pred16_t p4 = vctp32q((uint32_t)n);
    int32x4_t acc;
    if (g->ksum) {
      acc = aot_mve_dot4_run(x, w, n > 1 ? w + len : w, n > 2 ? w + 2 * len : w,
                             n > 3 ? w + 3 * len : w, len);
      acc = vaddq_s32(acc, vldrwq_z_s32(g->ksum + j, p4));
    } else {   /* lanes 0, 2 then 1, 3 */
      int32_t a[4], b[4];
      aot_mve_dot2s_run(x, w, n > 2 ? w + 2 * len : w, len, a);
      aot_mve_dot2s_run(x, n > 1 ? w + len : w, n > 3 ? w + 3 * len : w, len, b);
      acc = vmlaq_n_s32(aot_mve_vec4(a[0], b[0], a[1], b[1]), aot_mve_vec4(a[2], b[2], a[3], b[3]),
                        g->in_off);
      if (g->bias) acc = vaddq_s32(acc, vldrwq_z_s32(g->bias + j, p4));
    }
    if (g->per_channel)
      rq = aot_mve_rq_make(vldrwq_z_s32(g->mult + j, p4), vldrwq_z_s32(g->shift + j, p4));
    vstrbq_p_s32(out + j, aot_mve_out_s8(acc, rq, g->out_off, g->lo, g->hi), p4);
  }
}

/* ---- packed 2 x 4 blocks (CONV_2D) ------------------------------------------
 * Four filters packed for aot_mve_pass4_s8 (aot_mve_pack4_s8): per chunk of
 * 16 taps the four filters' 16 bytes one after the other (64 bytes a chunk),
 * taps past len and filters past nw zero. A pair of input rows x0, x1 then
 * takes 6 loads and 8 VMLADAVA.S8 per chunk (128 multiply-accumulates): each
 * input vector is shared by four filters, each filter vector by two rows.
 * The eight sums stay in r0, r2, ..., r12, lr (VMLADAVA needs even
 * registers), so the loop counts with SUBS / BNE instead of LETP, two
 * chunks an iteration; they start from the channel constants (LDM) and
 * leave by STM into an int32 buffer, which the caller requantizes. */
AOT_INLINE void aot_mve_pack4_s8(int8_t *dst, const int8_t *w, size_t fstride, int32_t nw,
                                 int32_t len) {
  const int8x16_t z = vdupq_n_s8(0);
  int32_t k, i;
  if (nw == 4 && len > 0) {
    /* the last chunk zeroed, then one tail-predicated loop over the taps
       (its last stores write only the taps of the last chunk) */
    const int8_t *w1 = w + fstride, *w2 = w1 + fstride, *w3 = w2 + fstride;
    int8_t *d = dst;
    int8_t *last = dst + (((size_t)len - 1) >> 4) * 64;
    vstrbq_s8(last, z);
    vstrbq_s8(last + 16, z);
    vstrbq_s8(last + 32, z);
    vstrbq_s8(last + 48, z);
    __asm__ volatile(
        "dlstp.8 lr, %[n]\n"
        "1:\n\t"
        "vldrb.8 q0, [%[w0]], #16\n\t"
        "vstrb.8 q0, [%[d]], #16\n\t"
        "vldrb.8 q0, [%[w1]], #16\n\t"
        "vstrb.8 q0, [%[d]], #16\n\t"
        "vldrb.8 q0, [%[w2]], #16\n\t"
        "vstrb.8 q0, [%[d]], #16\n\t"
        "vldrb.8 q0, [%[w3]], #16\n\t"
        "vstrb.8 q0, [%[d]], #16\n\t"
        "letp lr, 1b\n"
        : [d] "+r"(d), [w0] "+r"(w), [w1] "+r"(w1), [w2] "+r"(w2), [w3] "+r"(w3)
        : [n] "r"(len)
        : "lr", "d0", "d1", "memory");
    return;
  }
  for (k = 0; k < len; k += 16) {
    const mve_pred16_t pk = vctp8q((uint32_t)(len - k));
    for (i = 0; i < 4; i++, dst += 16)
      vstrbq_s8(dst, i < nw ? vldrbq_z_s8(w + (size_t)i * fstride + k, pk) : z);
  }
}

/* n bytes from s to d (n >= 1): a tail-predicated low-overhead loop */
AOT_INLINE void aot_mve_copy_run_s8(int8_t *d, const int8_t *s, int32_t n) {
  __asm__ volatile(
      "dlstp.8 lr, %[n]\n"
      "1:\n\t"
      "vldrb.8 q0, [%[s]], #16\n\t"
      "vstrb.8 q0, [%[d]], #16\n\t"
      "letp lr, 1b\n"
      : [d] "+r"(d), [s] "+r"(s)
      : [n] "r"(n)
      : "lr", "d0", "d1", "memory");
}

#define AOT_MVE_P4_MACS              \
  "vldrb.8 q2, [%[w]], #16\n\t"       \
  "vmladava.s8 r0, q0, q2\n\t"        \
  "vmladava.s8 r8, q1, q2\n\t"        \
  "vldrb.8 q2, [%[w]], #16\n\t"       \
  "vmladava.s8 r2, q0, q2\n\t"        \
  "vmladava.s8 r10, q1, q2\n\t"       \
  "vldrb.8 q2, [%[w]], #16\n\t"       \
  "vmladava.s8 r4, q0, q2\n\t"        \
  "vmladava.s8 r12, q1, q2\n\t"       \
  "vldrb.8 q2, [%[w]], #16\n\t"       \
  "vmladava.s8 r6, q0, q2\n\t"        \
  "vmladava.s8 lr, q1, q2\n\t"
/* n >= 1 chunks of 16 taps of both rows, two at a time (an odd one first):
 * 15 instructions a chunk instead of 16 with one at a time, 3 more for a
 * row of one chunk */
#define AOT_MVE_P4_CHUNK                  \
  "vldrb.8 q0, [%[x0]], #16\n\t"          \
  "vldrb.8 q1, [%[x1]], #16\n\t"          \
  AOT_MVE_P4_MACS
#define AOT_MVE_P4_LOOP                  \
  "tst " AOT_ASM_R7(n) ", #1\n\t"                      \
  "beq 4f\n\t"                            \
  AOT_MVE_P4_CHUNK                        \
  "subs " AOT_ASM_R7(n) ", " AOT_ASM_R7(n) ", #1\n\t"               \
  "beq 5f\n\t"                            \
  "4:\n\t"                                \
  AOT_MVE_P4_CHUNK                        \
  AOT_MVE_P4_CHUNK                        \
  "subs " AOT_ASM_R7(n) ", " AOT_ASM_R7(n) ", #2\n\t"               \
  "bne 4b\n\t"                            \
  "5:\n\t"
#define AOT_MVE_P4_TAIL                   \
  "vldr VPR, [%[st], #24]\n\t"             \
  "vpstt\n\t"                             \
  "vldrbt.8 q0, [%[x0]]\n\t"              \
  "vldrbt.8 q1, [%[x1]]\n\t"              \
  AOT_MVE_P4_MACS
#define AOT_MVE_P4_ASM(body)                                                              \
  __asm__ volatile(AOT_ASM_R7_SAVE AOT_MVE_P0_SAVE "1:\n\t"                                         \
                   "ldm %[st], {r0, r2, r4, r6}\n\t"                                      \
                   "ldm %[st], {r8, r10, r12, lr}\n\t"                                    \
                   "ldrd " AOT_ASM_R7(n) ", %[w], [%[st], #16]\n\t" body                               \
                   "stm %[acc]!, {r0, r2, r4, r6}\n\t"                                    \
                   "stm %[acc]!, {r8, r10, r12, lr}\n\t"                                  \
                   "ldrd r0, r2, [%[st], #28]\n\t"                                        \
                   "add %[x0], %[x0], r0\n\t"                                             \
                   "add %[x1], %[x1], r0\n\t"                                             \
                   "cmp %[acc], r2\n\t"                                                   \
                   "bne 1b\n" AOT_MVE_P0_RESTORE AOT_ASM_R7_RESTORE                                   \
                   : [x0] "+r"(x0), [x1] "+r"(x1), [acc] "+r"(acc), AOT_ASM_R7_OP([n] "=&r"(n),)   \
                     [w] "=&r"(w)                                                         \
                   : [st] "r"(st)                                                         \
                   : "r0", "r2", "r4", "r6", "r8", "r10", "r12", "lr", "q0", "q1", "q2", \
                     AOT_MVE_P0 "cc", "memory")

/* Pass of four packed filters over pairs of rows. st (int32 words, word
 * aligned): [0..3] ks, [4] n, [5] the packed filters (aot_mve_pack4_s8, as
 * a pointer), [6] lane predicate of the last chunk (mode 1), [7] bytes from
 * a pair's rows to the next pair's, less 16 * n, [8] the end of acc (a
 * pointer). Per pair (rows x0, x1, then x0 + d, x1 + d, ...) acc gets eight
 * int32: ks[c] + sum over the taps of w_c * x0, then the same for x1. A row
 * is 16 * n taps (mode 0, n >= 1), or 16 * n (n >= 0) then the lanes of the
 * predicate (mode 1); inactive lanes read nothing and load 0. */
AOT_INLINE void aot_mve_pass4_s8(const int8_t *x0, const int8_t *x1, int32_t *acc,
                                 const int32_t *st, const int mode) {
  int32_t n;
  const int8_t *w;
  if (mode == 0)
    AOT_MVE_P4_ASM(AOT_MVE_P4_LOOP);
  else
    AOT_MVE_P4_ASM("cmp " AOT_ASM_R7(n) ", #0\n\t"
                   "beq 3f\n\t" AOT_MVE_P4_LOOP "3:\n\t" AOT_MVE_P4_TAIL);
  (void)n, (void)w;
}

/* aot_mve_pass4_s8 for rows of at most 16 taps: the four filters stay in
 * vector registers (no filter loads), the rows are read under the
 * predicate st[6] (a VPT block, the predicate loaded once); st[7] is the
 * full step from a pair's rows to the next pair's. */
AOT_INLINE void aot_mve_pass4_short_s8(const int8_t *x0, const int8_t *x1, int32_t *acc,
                                       const int32_t *st) {
  const int8_t *w = (const int8_t *)(intptr_t)st[5];
  const int8x16_t w0 = vldrbq_s8(w), w1 = vldrbq_s8(w + 16), w2 = vldrbq_s8(w + 32),
                  w3 = vldrbq_s8(w + 48);
  __asm__ volatile(
      AOT_MVE_P0_SAVE
      "vldr VPR, [%[st], #24]\n"
      "1:\n\t"
      "ldm %[st], {r0, r2, r4, r6}\n\t"
      "ldm %[st], {r8, r10, r12, lr}\n\t"
      "vpstt\n\t"
      "vldrbt.8 q0, [%[x0]]\n\t"
      "vldrbt.8 q1, [%[x1]]\n\t"
      "vmladava.s8 r0, q0, %q[w0]\n\t"
      "vmladava.s8 r8, q1, %q[w0]\n\t"
      "vmladava.s8 r2, q0, %q[w1]\n\t"
      "vmladava.s8 r10, q1, %q[w1]\n\t"
      "vmladava.s8 r4, q0, %q[w2]\n\t"
      "vmladava.s8 r12, q1, %q[w2]\n\t"
      "vmladava.s8 r6, q0, %q[w3]\n\t"
      "vmladava.s8 lr, q1, %q[w3]\n\t"
      "stm %[acc]!, {r0, r2, r4, r6}\n\t"
      "stm %[acc]!, {r8, r10, r12, lr}\n\t"
      "ldrd r0, r2, [%[st], #28]\n\t"
      "add %[x0], %[x0], r0\n\t"
      "add %[x1], %[x1], r0\n\t"
      "cmp %[acc], r2\n\t"
      "bne 1b\n" AOT_MVE_P0_RESTORE
      : [x0] "+r"(x0), [x1] "+r"(x1), [acc] "+r"(acc)
      : [st] "r"(st), [w0] "w"(w0), [w1] "w"(w1), [w2] "w"(w2), [w3] "w"(w3)
      : "r0", "r2", "r4", "r6", "r8", "r10", "r12", "lr", "q0", "q1", AOT_MVE_P0 "cc",
        "memory");
}

/* Sum of n int8 values (exact in int32). */
AOT_INLINE int32_t aot_mve_sum_s8(const int8_t *w, int32_t n) {
  int32_t t = 0;
  for (; n >= 16; n -= 16) {
    t = vaddvaq_s8(t, vldrbq_s8(w));
    w += 16;
  }
  if (n > 0) t = vaddvaq_s8(t, vldrbq_z_s8(w, vctp8q((uint32_t)n)));
  return t;
}

#endif /* MVE */

#endif
