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
 * padded with zero taps. Only when __ARM_FEATURE_DSP (AOT_DSP, aot_dsp.h) and
 * the module has such a layer (AOT_F_CONV_S8_G4, aot_features.h).
 *
 * The second half is the kernel's path itself (aot_conv2d_s8_dsp4, called by
 * aot_conv2d_s8_dsp in aot_conv2d_s8.c per block of output channels, for
 * grouped or dilated layers only): the im2col copies, the per-position
 * widening and the requantization of four positions. */
#ifndef AOT_DSP_CONV4_H
#define AOT_DSP_CONV4_H

#include "aot_dsp.h"
#include "aot_conv_pw_dsp.h"   /* aot_conv2d_s8_cp */

#if defined(AOT_DSP) && AOT_F_CONV_S8_G4

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

/* ---- the four-position CONV_2D path of aot_conv2d_s8.c ----------------- */
/* output channels per block (aot_conv2d_s8_dsp's AOT_CONV2D_S8_OCB) */
#define AOT_DSP_CONV4_OCB 64

/* im2col of the window at (iy0, ix0), group g, into c (fsize bytes) */
static void aot_conv2d_s8_dcol(const aot_conv_params *p, const int8_t *in_b, int32_t iy0,
                               int32_t ix0, int32_t fy0, int32_t fy1, int32_t fx0, int32_t fx1,
                               int32_t g, int8_t zp, int8_t *c) {
  const int32_t fh = p->filter_h, fw = p->filter_w, fic = p->filter_in_c, in_c = p->in_c;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const size_t in_row = (size_t)p->in_w * in_c;
  const int32_t rowlen = fw * fic;
  int32_t fy, fx;
  for (fy = 0; fy < fh; fy++, c += rowlen) {
    const int8_t *row;
    if (fy < fy0 || fy >= fy1 || fx1 <= fx0) {
      memset(c, zp, (size_t)rowlen);
      continue;
    }
    row = in_b + (size_t)(iy0 + fy * dh) * in_row + (size_t)g * fic;
    if (fx0 > 0) memset(c, zp, (size_t)(fx0 * fic));
    if (dw == 1 && fic == in_c) {
      aot_conv2d_s8_cp(c + fx0 * fic, row + (size_t)(ix0 + fx0) * in_c, (fx1 - fx0) * fic);
    } else if (fic == 1) {
      const int8_t *q = row + (size_t)(ix0 + fx0 * dw) * in_c;
      for (fx = fx0; fx < fx1; fx++, q += dw * in_c) c[fx] = *q;
    } else {
      for (fx = fx0; fx < fx1; fx++)
        aot_conv2d_s8_cp(c + fx * fic, row + (size_t)(ix0 + fx * dw) * in_c, fic);
    }
    if (fx1 < fw) memset(c + fx1 * fic, zp, (size_t)((fw - fx1) * fic));
  }
}

/* the window of output position (iy0, ix0), group g, copied into tmp
 * (fsize + 3 bytes; taps outside the image the input zero point) and
 * widened into slot q of the four-position layout (col = col16 + q) */
static void aot_conv2d_s8_win4(const aot_conv_params *p, const int8_t *in_b, int32_t iy0,
                               int32_t ix0, int32_t g, int8_t *tmp, uint32_t *col) {
  const int32_t fsize = p->filter_h * p->filter_w * p->filter_in_c;
  int32_t fy0, fy1, fx0, fx1;
  aot_conv_window(iy0, p->dilation_h, p->in_h, p->filter_h, &fy0, &fy1);
  aot_conv_window(ix0, p->dilation_w, p->in_w, p->filter_w, &fx0, &fx1);
  aot_conv2d_s8_dcol(p, in_b, iy0, ix0, fy0, fy1, fx0, fx1, g, (int8_t)(-p->input_offset), tmp);
  aot_dsp_w4_run(tmp, fsize >> 2, col);
  if (fsize & 3) aot_dsp_w4_tail(tmp + (fsize & ~3), fsize & 3, col + 2 * (fsize & ~3));
}

/* four positions of one output channel: requantized, output offset added
 * (off1 = 1 + 2 * output_offset folds it into the last rounding shift),
 * stored at o[0], o[os], o[2 os], o[3 os] */
AOT_INLINE void aot_conv2d_s8_out4(const int32_t *s, const aot_dsp_kc *k, const aot_dsp_gemv *gv,
                                   int32_t off1, int8_t *o, size_t os) {
  int32_t v0, v1, v2, v3;
  if ((uint32_t)k->s < 32u) {
    const int32_t m = k->m, rs = k->s;
    int32_t r0, r1, r2, r3;
    __asm__("smmulr %0, %1, %2" : "=r"(r0) : "r"((uint32_t)s[0] << 1), "r"(m));
    __asm__("smmulr %0, %1, %2" : "=r"(r1) : "r"((uint32_t)s[1] << 1), "r"(m));
    __asm__("smmulr %0, %1, %2" : "=r"(r2) : "r"((uint32_t)s[2] << 1), "r"(m));
    __asm__("smmulr %0, %1, %2" : "=r"(r3) : "r"((uint32_t)s[3] << 1), "r"(m));
    v0 = (((r0 + (r0 >> 31)) >> rs) + off1) >> 1;
    v1 = (((r1 + (r1 >> 31)) >> rs) + off1) >> 1;
    v2 = (((r2 + (r2 >> 31)) >> rs) + off1) >> 1;
    v3 = (((r3 + (r3 >> 31)) >> rs) + off1) >> 1;
  } else {
    v0 = aot_dsp_rqk(s[0], k) + gv->out_off;
    v1 = aot_dsp_rqk(s[1], k) + gv->out_off;
    v2 = aot_dsp_rqk(s[2], k) + gv->out_off;
    v3 = aot_dsp_rqk(s[3], k) + gv->out_off;
  }
  if (gv->full) {
    v0 = __ssat(v0, 8);
    v1 = __ssat(v1, 8);
    v2 = __ssat(v2, 8);
    v3 = __ssat(v3, 8);
  } else {
    v0 = aot_clamp_i32(v0, gv->lo, gv->hi);
    v1 = aot_clamp_i32(v1, gv->lo, gv->hi);
    v2 = aot_clamp_i32(v2, gv->lo, gv->hi);
    v3 = aot_clamp_i32(v3, gv->lo, gv->hi);
  }
  /* one pointer stepped by os (not four pointers kept across the channels) */
  __asm__ volatile(
      "strb %[v0], [%[o]]\n\t"
      "strb %[v1], [%[o], %[os]]\n\t"
      "add %[o], %[o], %[os], lsl #1\n\t"
      "strb %[v2], [%[o]]\n\t"
      "strb %[v3], [%[o], %[os]]\n"
      : [o] "+r"(o)
      : [v0] "r"(v0), [v1] "r"(v1), [v2] "r"(v2), [v3] "r"(v3), [os] "r"(os)
      : "memory");
}

/* Grouped or dilated layers (AOT_F_CONV_S8_G4): four consecutive output
 * positions at a time; the last group of four ends
 * at the last position (recomputing a few positions into the same bytes),
 * and fewer than four positions in all repeat the last one into a local
 * output buffer. The windows are widened once into col (aot_dsp_conv4.h),
 * then every output channel of the block sums its filter against the four
 * (aot_dsp_dot1x4). The padded last group of a window of fsize % 4 != 0
 * taps reads the next filter's first bytes against zero taps, except for
 * the layer's last filter, whose last bytes are copied into a zero-padded
 * word. */
static void aot_conv2d_s8_dsp4(const aot_conv_params *p, const int8_t *input,
                               const int8_t *filter, int8_t *output, int32_t g,
                               int32_t oc0, int32_t nc, const aot_dsp_gemv *gv, int8_t *tmp,
                               uint32_t *col) {
  const int32_t out_h = p->out_h, out_w = p->out_w, out_c = p->out_c;
  const size_t in_img = (size_t)p->in_h * p->in_w * p->in_c;
  const int32_t npos = p->batches * out_h * out_w;
  const int32_t off1 = 1 + 2 * gv->out_off;
  int32_t fsize, n4, n4p, last_short, pos, pend;
  int32_t cpos = 0, ox = 0, oy = 0, ob_ = 0;   /* the position of (ob_, oy, ox) */
  const int8_t *f0;
  size_t fstride, os = (size_t)out_c;
  int8_t obuf[4 * AOT_DSP_CONV4_OCB];
  fsize = p->filter_h * p->filter_w * p->filter_in_c;
  f0 = filter + (size_t)oc0 * fsize;
  fstride = (size_t)fsize;
  n4 = fsize >> 2;
  n4p = (fsize + 3) >> 2;
  /* (aot_conv2d_s8_dsp refuses such a layer without AOT_F_CONV_S8_FPAD) */
  last_short = AOT_F_CONV_S8_FPAD && (fsize & 3) && oc0 + nc == out_c;
  for (pos = 0; pos < npos; pos = pend) {
    int8_t *ob;
    int32_t q, j;
    pend = pos + 4;
    if (pend > npos) {
      if (npos >= 4) {
        pos = npos - 4;
        pend = npos;
      } else {
        pend = npos;
      }
    }
    if (pos != cpos) {   /* the last group stepped back: coordinates anew */
      cpos = pos;
      ox = pos % out_w;
      oy = pos / out_w % out_h;
      ob_ = pos / out_w / out_h;
    }
    for (q = 0; q < 4; q++) {
      if (pos + q < pend) {
        aot_conv2d_s8_win4(p, input + (size_t)ob_ * in_img, oy * p->stride_h - p->pad_h,
                           ox * p->stride_w - p->pad_w, g, tmp, col + q);
        cpos++;
        if (++ox == out_w) {
          ox = 0;
          if (++oy == out_h) {
            oy = 0;
            ob_++;
          }
        }
      } else {   /* fewer than four positions: repeat the last one */
        int32_t i;
        for (i = 0; i < 8 * n4p; i += 4) col[i + q] = col[i + q - 1];
      }
    }
    if (pend - pos == 4) {
      ob = output + (size_t)pos * out_c + oc0;
      os = (size_t)out_c;
    } else {
      ob = obuf;
      os = (size_t)nc;
    }
    for (j = 0; j < nc - last_short; j++) {
      const aot_dsp_kc *k = gv->kc + j;
      int32_t s[4];
      s[0] = s[1] = s[2] = s[3] = k->ks;
      aot_dsp_dot1x4(col, f0 + (size_t)j * fstride, n4p, s);
      aot_conv2d_s8_out4(s, k, gv, off1, ob + j, os);
    }
    if (last_short) {   /* the layer's last filter: its last bytes in a padded word */
      const aot_dsp_kc *k = gv->kc + j;
      const int8_t *w = f0 + (size_t)j * fstride;
      int32_t s[4];
      uint32_t wt = 0;
      s[0] = s[1] = s[2] = s[3] = k->ks;
      if (n4 > 0) aot_dsp_dot1x4(col, w, n4, s);
      memcpy(&wt, w + 4 * n4, (size_t)(fsize & 3));
      aot_dsp_dot1x4(col + 8 * n4, (const int8_t *)&wt, 1, s);
      aot_conv2d_s8_out4(s, k, gv, off1, ob + j, os);
    }
    if (ob == obuf)
      for (q = 0; q < pend - pos; q++)
        memcpy(output + (size_t)(pos + q) * out_c + oc0, obuf + (size_t)q * nc, (size_t)nc);
  }
}

#endif /* AOT_DSP && AOT_F_CONV_S8_G4 */
#endif
