/* aot_fc_dsp.h - the three-row matrix-vector loop of the int8
 * FULLY_CONNECTED kernel on the Arm DSP extension (Cortex-M4F/M7/M33),
 * and its requantization, for rows of a multiple of four taps on word-
 * aligned weights (aot_fc_s8.c chooses it; other layers keep the four-row
 * loop of aot_dsp.h).
 *
 * aot_fc_dsp_dot3 sums, for blocks of three consecutive weight rows, the
 * products w * x over the whole row with the input already widened into
 * 16-bit pairs (per four taps (x0, x2), (x1, x3), as aot_dsp_widen_off lays
 * them out). Per eight taps: one LDM of the four input pairs, then per row
 * one LDM of its eight weights, four SXTB16 and four SMLAD: 28 instructions
 * per 24 MACs, every product exact (the same integers as the portable
 * loop). The loop body holds eight such groups and is entered part-way for
 * the first (groups mod 8); it ends when the input pointer meets the end
 * kept on the stack; a last four taps take one LDR per row. Then the three
 * sums are stored, the row pointers move to the next block, and the next
 * block starts, all in the one function (naked: it uses all fourteen
 * registers, the stack keeps its job).
 *
 * QADD doubles each sum once (the result is dropped): it saturates, and
 * sets the sticky Q flag, only when |sum| >= 2^30 (SMLAD sets it too when a
 * running sum leaves the int32 range). A caller clears Q first
 * (aot_fc_dsp_q_clear) and, when it is set afterwards (aot_fc_dsp_q_set),
 * checks every sum before its fast requantization.
 *
 * aot_fc_dsp_rq is aot_conv_mbqm for |acc| < 2^30 and shifts in [-31, -1]
 * plus the output offset and the int8 saturation in six instructions:
 * SMMULR on 2 * acc is the doubling high multiply with its rounding,
 * r += r >> 31 and ((r >> rs) + 1 + 2 * out_off) >> 1 the rounding right
 * shift with the offset added (rs = -shift - 1; the last shift is SSAT's). */
#ifndef AOT_FC_DSP_H
#define AOT_FC_DSP_H

#include "aot_dsp.h"

#ifdef AOT_DSP

/* the job of aot_fc_dsp_dot3 (read once, copied onto its stack) */
typedef struct aot_fc_dsp_job {
  const uint32_t *xw;    /* widened input of the row, 2 * n4 words */
  const int8_t *w;       /* first row of the first block (word aligned) */
  int32_t depth;         /* row length in bytes, 4 * n4 */
  int32_t n4;            /* groups of four taps, at least 2 */
  int32_t nblk;          /* blocks of three rows, at least 1 */
  const int32_t *init;   /* 3 * nblk starting values (the folded bias) */
  int32_t *out;          /* 3 * nblk sums */
} aot_fc_dsp_job;

/* eight taps of one row: weights at W into T, U; the sum in A */
#define AOT_FC_DSP_ROW8(W, A)                   \
  "ldm " W "!, {r11, r12}\n\t"                  \
  "sxtb16 lr, r11\n\t"                          \
  "smlad " A ", lr, r7, " A "\n\t"              \
  "sxtb16 r11, r11, ror #8\n\t"                 \
  "smlad " A ", r11, r8, " A "\n\t"             \
  "sxtb16 lr, r12\n\t"                          \
  "smlad " A ", lr, r9, " A "\n\t"              \
  "sxtb16 r12, r12, ror #8\n\t"                 \
  "smlad " A ", r12, r10, " A "\n\t"
#define AOT_FC_DSP_GROUP                        \
  "ldm r0!, {r7, r8, r9, r10}\n\t"              \
  AOT_FC_DSP_ROW8("r1", "r4")                   \
  AOT_FC_DSP_ROW8("r2", "r5")                   \
  AOT_FC_DSP_ROW8("r3", "r6")
/* four taps of one row (the input pairs in r7, r8) */
#define AOT_FC_DSP_ROW4(W, A)                   \
  "ldr r11, [" W "], #4\n\t"                    \
  "sxtb16 lr, r11\n\t"                          \
  "smlad " A ", lr, r7, " A "\n\t"              \
  "sxtb16 r11, r11, ror #8\n\t"                 \
  "smlad " A ", r11, r8, " A "\n\t"

/* the check that every group is 112 bytes (the computed entry relies on
 * it). Clang's integrated assembler takes no label difference in .if; its
 * groups are the same 112 bytes: every instruction of a group (LDM of high
 * registers, SXTB16, SMLAD) has only a 32-bit Thumb encoding, and the
 * kernel tests (tests/integration/test_clang_simd.sh) run every entry. */
#if defined(__clang__)
#define AOT_FC_DSP_SIZE_CHECK
#else
#define AOT_FC_DSP_SIZE_CHECK                                      \
  ".if (11b - 10b) != 112 || (12b - 10b) != 8 * 112\n\t"         \
  ".error \"aot_fc_dsp_dot3: a group is not 112 bytes\"\n\t"     \
  ".endif\n\t"
#endif

/* one assembly string longer than the 4095 characters C99 promises
 * (-pedantic's -Woverlength-strings; GCC and Clang take it) */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif
/* Stack during the loop: [sp] the input end of the eight-tap groups,
 * [sp, #4] the loop entry, [sp, #8] the address after the groups (the tail
 * or not), then the job: xw +12, w +16, depth +20, n4 +24, nblk +28,
 * init +32, out +36; the saved registers above. Registers: r0 input, r1-r3
 * the three rows, r4-r6 the sums, r7-r10 input pairs, r11, r12, lr
 * weights. */
/* aligned(4): the ADR offsets below are resolved by the assembler from the
 * function's place in its section, which is only right when the linker
 * keeps that place's word alignment (-O0, -Og, -O1 and -Os align functions
 * to halfwords only; the entry would then land 2 bytes off) */
__attribute__((naked, noinline, unused, aligned(4))) static void aot_fc_dsp_dot3(
    const aot_fc_dsp_job *job __attribute__((unused))) {
  __asm__ volatile(
      "push {r4, r5, r6, r7, r8, r9, r10, r11, lr}\n\t"
      "ldm r0, {r0, r1, r2, r3, r4, r5, r6}\n\t"
      "push {r0, r1, r2, r3, r4, r5, r6}\n\t"
      "sub sp, sp, #12\n\t"
      /* end of the groups: xw + 16 * (n4 >> 1) */
      "lsrs r7, r3, #1\n\t"
      "add r8, r0, r7, lsl #4\n\t"
      "str r8, [sp]\n\t"
      /* the exit of the groups: the four-tap tail when n4 is odd */
      "adr.w r8, 7f\n\t"
      "tst r3, #1\n\t"
      "it eq\n\t"
      "adreq.w r8, 8f\n\t"
      "orr r8, r8, #1\n\t"
      "str r8, [sp, #8]\n\t"
      /* the entry: (8 - groups mod 8) mod 8 groups into the body (every
         group is 112 bytes, checked below) */
      "and r7, r7, #7\n\t"
      "rsb r7, r7, #8\n\t"
      "and r7, r7, #7\n\t"
      "adr.w r8, 10f\n\t"
      "mov r9, #112\n\t"
      "mla r8, r7, r9, r8\n\t"
      "orr r8, r8, #1\n\t"
      "str r8, [sp, #4]\n\t"
      /* rows: r1, r1 + depth, r1 + 2 * depth */
      "add r2, r1, r2\n\t"
      "add r3, r2, r2\n\t"
      "sub r3, r3, r1\n"
      "1:\n\t"
      "ldr r0, [sp, #12]\n\t"
      "ldr r7, [sp, #32]\n\t"
      "ldm r7!, {r4, r5, r6}\n\t"
      "str r7, [sp, #32]\n\t"
      "ldr pc, [sp, #4]\n"
      "10:\n\t" AOT_FC_DSP_GROUP
      "11:\n\t" AOT_FC_DSP_GROUP AOT_FC_DSP_GROUP AOT_FC_DSP_GROUP AOT_FC_DSP_GROUP
      AOT_FC_DSP_GROUP AOT_FC_DSP_GROUP AOT_FC_DSP_GROUP
      "12:\n\t"
      AOT_FC_DSP_SIZE_CHECK
      "ldr r11, [sp]\n\t"
      "cmp r0, r11\n\t"
      "bne 10b\n\t"
      "ldr pc, [sp, #8]\n"
      "7:\n\t"
      "ldm r0, {r7, r8}\n\t"
      AOT_FC_DSP_ROW4("r1", "r4")
      AOT_FC_DSP_ROW4("r2", "r5")
      AOT_FC_DSP_ROW4("r3", "r6")
      "8:\n\t"
      "qadd r8, r4, r4\n\t"
      "qadd r9, r5, r5\n\t"
      "qadd r10, r6, r6\n\t"
      "ldr r7, [sp, #36]\n\t"
      "stm r7!, {r4, r5, r6}\n\t"
      "str r7, [sp, #36]\n\t"
      /* the next block: r3 is its first row */
      "ldr r11, [sp, #20]\n\t"
      "mov r1, r3\n\t"
      "add r2, r3, r11\n\t"
      "add r3, r2, r11\n\t"
      "ldr r11, [sp, #28]\n\t"
      "subs r11, r11, #1\n\t"
      "str r11, [sp, #28]\n\t"
      "bne 1b\n\t"
      "add sp, sp, #40\n\t"
      "pop {r4, r5, r6, r7, r8, r9, r10, r11, pc}\n");
}
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* the requantized int8 of acc (see above); c = 1 + 2 * out_off */
AOT_INLINE int32_t aot_fc_dsp_rq(int32_t acc, int32_t m, int32_t rs, int32_t c) {
  int32_t r;
  __asm__(
      "add %0, %1, %1\n\t"
      "smmulr %0, %0, %2\n\t"
      "add %0, %0, %0, asr #31\n\t"
      "asr %0, %0, %3\n\t"
      "add %0, %0, %4\n\t"
      "ssat %0, #8, %0, asr #1\n"
      : "=&r"(r)
      : "r"(acc), "r"(m), "r"(rs), "r"(c));
  return r;
}

/* The 16-bit pairs of n4 groups of four int8 x (per group (x0, x2), (x1,
 * x3)), no offset added: per eight taps two loads, four SXTB16, two
 * stores. */
AOT_INLINE void aot_fc_dsp_widen(const int8_t *x, int32_t n4, uint32_t *xw) {
  for (; n4 >= 2; n4 -= 2, x += 8, xw += 4) {
    uint32_t v0, v1, a, b, c, d;
    memcpy(&v0, x, 4);
    memcpy(&v1, x + 4, 4);
    __asm__("sxtb16 %0, %4\n\t"
            "sxtb16 %1, %4, ror #8\n\t"
            "sxtb16 %2, %5\n\t"
            "sxtb16 %3, %5, ror #8"
            : "=&r"(a), "=&r"(b), "=&r"(c), "=&r"(d)
            : "r"(v0), "r"(v1));
    xw[0] = a;
    xw[1] = b;
    xw[2] = c;
    xw[3] = d;
  }
  if (n4) {
    uint32_t v0, a, b;
    memcpy(&v0, x, 4);
    __asm__("sxtb16 %0, %2\n\t"
            "sxtb16 %1, %2, ror #8"
            : "=&r"(a), "=&r"(b)
            : "r"(v0));
    xw[0] = a;
    xw[1] = b;
  }
}

/* clears the sticky saturation flag Q */
AOT_INLINE void aot_fc_dsp_q_clear(void) {
  __asm__ volatile("msr APSR_nzcvq, %0" : : "r"(0) : "cc");
}

/* 1 when Q is set (some QADD saturated since aot_fc_dsp_q_clear) */
AOT_INLINE int32_t aot_fc_dsp_q_set(void) {
  uint32_t v;
  __asm__ volatile("mrs %0, APSR" : "=r"(v));
  return (int32_t)(v >> 27) & 1;
}

#endif /* AOT_DSP */

#endif
