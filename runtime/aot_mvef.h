/* aot_mvef.h - SIMD helpers of the hybrid (float32 activations, int8
 * weights) kernels. aot_hyb_dot(w, q, n, zp) returns sum w[k] * (q[k] - zp)
 * over n int8 pairs, exactly the int32 sum the portable loops compute:
 *  - Helium (MVE integer, Cortex-M55): sixteen pairs per VMLADAVA plus the
 *    weight sum (VADDVA), combined as sum w*q - zp * sum w in modulo-2^32
 *    arithmetic, which equals the true sum whenever the portable int32 sum
 *    does not overflow; the tail is lane-predicated;
 *  - Arm DSP (Cortex-M4F): four pairs per step, SXTB16 + SSUB16 (q - zp is
 *    in [-255, 255] and fits the 16-bit halves exactly) + two SMLAD;
 *  - otherwise the portable loop.
 * AOT_NO_SIMD forces the portable loop (tests compare both). */
#ifndef AOT_MVEF_H
#define AOT_MVEF_H

#include "aot_common.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(AOT_NO_SIMD)
#include <arm_mve.h>
#define AOT_HYB_MVE 1
AOT_INLINE int32_t aot_hyb_dot(const int8_t *w, const int8_t *q, int32_t n, int32_t zp) {
  int32_t acc = 0, ws = 0;
  for (; n >= 16; n -= 16) {
    const int8x16_t wv = vldrbq_s8(w), xv = vldrbq_s8(q);
    acc = vmladavaq_s8(acc, wv, xv);
    ws = vaddvaq_s8(ws, wv);
    w += 16;
    q += 16;
  }
  if (n > 0) {
    const mve_pred16_t pr = vctp8q((uint32_t)n);
    const int8x16_t wv = vldrbq_z_s8(w, pr), xv = vldrbq_z_s8(q, pr);
    acc = vmladavaq_p_s8(acc, wv, xv, pr);
    ws = vaddvaq_p_s8(ws, wv, pr);
  }
  return (int32_t)((uint32_t)acc - (uint32_t)zp * (uint32_t)ws);
}
#elif defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32) && !defined(AOT_NO_SIMD)
#include <arm_acle.h>
#include <string.h>
#define AOT_HYB_DSP 1
AOT_INLINE int32_t aot_hyb_dot(const int8_t *w, const int8_t *q, int32_t n, int32_t zp) {
  const uint32_t zz = ((uint32_t)zp << 16) | ((uint32_t)zp & 0xFFFFu);
  int32_t acc = 0;
  for (; n >= 4; n -= 4) {
    uint32_t wv, xv;
    int16x2_t wh, xh;
    memcpy(&wv, w, 4);
    memcpy(&xv, q, 4);
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(wh) : "r"(wv));
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(xh) : "r"(xv));
    acc = __smlad(__sxtb16((int8x4_t)wv), __ssub16(__sxtb16((int8x4_t)xv), (int16x2_t)zz), acc);
    acc = __smlad(wh, __ssub16(xh, (int16x2_t)zz), acc);
    w += 4;
    q += 4;
  }
  for (; n > 0; n--) acc += (int32_t)*w++ * ((int32_t)*q++ - zp);
  return acc;
}
#else
AOT_INLINE int32_t aot_hyb_dot(const int8_t *w, const int8_t *q, int32_t n, int32_t zp) {
  int32_t acc = 0, k;
  for (k = 0; k < n; k++) acc += (int32_t)w[k] * ((int32_t)q[k] - zp);
  return acc;
}
#endif

#endif
