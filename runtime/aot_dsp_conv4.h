/* aot_dsp_conv4.h - Arm DSP (Cortex-M4F/M7/M33) helpers of the CONV_2D int8
 * kernel that computes four output positions at a time (aot_conv2d_s8.c,
 * aot_conv2d_s8_dsp4): the windows of four positions are sign-extended once
 * into 16-bit pairs, interleaved so that one LDM brings the same pair of taps
 * of all four positions, and every output channel then walks its filter row
 * once for the four positions. Per four taps and channel: one LDR of four
 * filter bytes, two SXTB16, two LDM of four input words and eight SMLAD
 * (13 instructions for 16 multiply-accumulates, against 18 for the two
 * positions x two channels of aot_dsp_dot2x2).
 *
 * Layout of the widened windows (col): group j of taps 4j .. 4j+3 is eight
 * words at col + 8j; words 0..3 hold taps (4j, 4j+2) of positions 0..3,
 * words 4..7 taps (4j+1, 4j+3), each as SXTB16 makes them from an input word
 * (low half the even tap). The last group of a window of n % 4 != 0 taps is
 * padded with zero taps. Only when __ARM_FEATURE_DSP (AOT_DSP, aot_dsp.h). */
#ifndef AOT_DSP_CONV4_H
#define AOT_DSP_CONV4_H

#include "aot_dsp.h"

#ifdef AOT_DSP

/* words of widened windows of four positions of n taps */
#define AOT_DSP_COL4_WORDS(n) (8 * (((n) + 3) >> 2))

/* n4 groups of four taps x (any alignment) into the slot of one position
 * (c = col + slot + 8 * first group) */
AOT_INLINE void aot_dsp_w4_run(const int8_t *x, int32_t n4, uint32_t *c) {
  for (; n4 > 0; n4--, x += 4, c += 8) {
    uint32_t v;
    memcpy(&v, x, 4);
    uint32_t h;
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(h) : "r"(v));
    c[0] = (uint32_t)__sxtb16((int8x4_t)v);
    c[4] = h;
  }
}

/* the last r (1..3) taps of a window, padded with zero taps */
AOT_INLINE void aot_dsp_w4_tail(const int8_t *x, int32_t r, uint32_t *c) {
  const uint32_t t0 = (uint32_t)(uint16_t)x[0];
  const uint32_t t1 = r > 1 ? (uint32_t)(uint16_t)x[1] : 0u;
  const uint32_t t2 = r > 2 ? (uint32_t)(uint16_t)x[2] : 0u;
  c[0] = t0 | (t2 << 16);
  c[4] = t1;
}

/* One group: four taps of one filter against the same taps of four
 * positions (x0..x3 must be ascending registers for the LDM). */
#define AOT_DSP_DOT1X4_GROUP                          \
  "ldr %[t], [%[w]], #4\n\t"                          \
  "ldmia %[c]!, {%[x0], %[x1], %[x2], %[x3]}\n\t"     \
  "sxtb16 %[u], %[t]\n\t"                             \
  "smlad %[a0], %[u], %[x0], %[a0]\n\t"               \
  "smlad %[a1], %[u], %[x1], %[a1]\n\t"               \
  "smlad %[a2], %[u], %[x2], %[a2]\n\t"               \
  "smlad %[a3], %[u], %[x3], %[a3]\n\t"               \
  "ldmia %[c]!, {%[x0], %[x1], %[x2], %[x3]}\n\t"     \
  "sxtb16 %[u], %[t], ror #8\n\t"                     \
  "smlad %[a0], %[u], %[x0], %[a0]\n\t"               \
  "smlad %[a1], %[u], %[x1], %[a1]\n\t"               \
  "smlad %[a2], %[u], %[x2], %[a2]\n\t"               \
  "smlad %[a3], %[u], %[x3], %[a3]\n\t"

/* s[p] += sum over k < 4 * n4 of w[k] * x_p[k] for the four positions of
 * col (n4 >= 1). Two groups per iteration, an odd group first (LSRS puts
 * n4's low bit in C and leaves Z for the pair count; the group's
 * instructions set no flags). Unaligned LDR of w is allowed on the M4. */
AOT_INLINE void aot_dsp_dot1x4(const uint32_t *col, const int8_t *w, int32_t n4, int32_t *s) {
  register uint32_t x0 __asm__("r8");
  register uint32_t x1 __asm__("r10");
  register uint32_t x2 __asm__("r11");
  register uint32_t x3 __asm__("r12");
  int32_t a0 = s[0], a1 = s[1], a2 = s[2], a3 = s[3];
  uint32_t t, u;
  __asm__ volatile(
      "lsrs %[n], %[n], #1\n\t"
      "bcc 2f\n\t"
      AOT_DSP_DOT1X4_GROUP
      "2:\n\t"
      "beq 3f\n"
      "1:\n\t"
      AOT_DSP_DOT1X4_GROUP
      AOT_DSP_DOT1X4_GROUP
      "subs %[n], %[n], #1\n\t"
      "bne 1b\n"
      "3:\n"
      : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [t] "=&r"(t),
        [u] "=&r"(u), [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3),
        [c] "+r"(col), [w] "+r"(w), [n] "+r"(n4)
      :
      : "cc", "memory");
  s[0] = a0;
  s[1] = a1;
  s[2] = a2;
  s[3] = a3;
}

#endif /* AOT_DSP */
#endif
