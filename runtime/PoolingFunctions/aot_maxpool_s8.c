/* aot_maxpool_s8.c - MAX_POOL_2D int8, as the TFLite reference: maximum over
 * the window clipped to the image, then the activation clamp.
 *
 * The channels of one output position are done together (NHWC: a window
 * tap's channels are contiguous): Helium sixteen channels per VMAX.S8 (the
 * last group predicated), Arm DSP four per SSUB8 + SEL (SSUB8 sets a GE flag
 * per byte where the tap is >= the running maximum, SEL takes those bytes
 * from the tap), the remaining channels one by one. The maximum of int8
 * values and the clamp to an activation range inside int8 are the same
 * bytes whichever way they are computed; an activation range outside int8
 * (or empty) keeps the portable loop. */
#include "aot_conv.h"

#include <string.h>

#if !defined(AOT_NO_SIMD) && defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>
#define AOT_MAXPOOL_S8_MVE 1
#elif !defined(AOT_NO_SIMD) && defined(__ARM_FEATURE_DSP) && defined(__ARM_FEATURE_SIMD32)
#define AOT_MAXPOOL_S8_DSP 1
#endif

#if defined(AOT_MAXPOOL_S8_DSP)
/* per byte: the larger (signed) of a and b */
AOT_INLINE uint32_t aot_mp_max4(uint32_t a, uint32_t b) {
  uint32_t t;
  __asm__("ssub8 %0, %2, %1\n\tsel %0, %2, %1" : "=&r"(t) : "r"(a), "r"(b) : "cc");
  return t;
}
/* per byte: the smaller (signed) of a and b */
AOT_INLINE uint32_t aot_mp_min4(uint32_t a, uint32_t b) {
  uint32_t t;
  __asm__("ssub8 %0, %2, %1\n\tsel %0, %1, %2" : "=&r"(t) : "r"(a), "r"(b) : "cc");
  return t;
}
#endif

/* ch channels of one output position: the window's rows start at base and
 * are row_step bytes apart, nfy rows of nfx taps ch bytes apart; c0: the
 * first channel the caller has not done */
static void aot_mp_scalar(const int8_t *base, size_t row_step, int32_t ch, int32_t c0, int32_t nfy,
                          int32_t nfx, int32_t act_min, int32_t act_max, int8_t *out) {
  int32_t c;
  for (c = c0; c < ch; c++) {
    const int8_t *row = base + c;
    int32_t mx = INT8_MIN, fy;
    for (fy = 0; fy < nfy; fy++) {
      const int8_t *ip = row;
      int32_t fx;
      for (fx = 0; fx < nfx; fx++) {
        if (*ip > mx) mx = *ip;
        ip += ch;
      }
      row += row_step;
    }
    out[c] = (int8_t)aot_clamp_i32(mx, act_min, act_max);
  }
}

static void aot_mp_pos(const int8_t *base, size_t row_step, int32_t ch, int32_t nfy, int32_t nfx,
                       int32_t act_min, int32_t act_max, int simd, int8_t *out) {
  int32_t c = 0;
#if defined(AOT_MAXPOOL_S8_MVE)
  if (simd) {
    const int8x16_t vlo = vdupq_n_s8((int8_t)act_min), vhi = vdupq_n_s8((int8_t)act_max);
    for (; c < ch; c += 16) {
      const mve_pred16_t pr = vctp8q((uint32_t)(ch - c));
      const int8_t *row = base + c;
      int8x16_t mx = vdupq_n_s8(INT8_MIN);
      int32_t fy, fx;
      for (fy = 0; fy < nfy; fy++, row += row_step)
        for (fx = 0; fx < nfx; fx++) mx = vmaxq_s8(mx, vldrbq_z_s8(row + (size_t)fx * ch, pr));
      vstrbq_p_s8(out + c, vminq_s8(vmaxq_s8(mx, vlo), vhi), pr);
    }
  }
#elif defined(AOT_MAXPOOL_S8_DSP)
  if (simd) {
    const uint32_t lo4 = (uint32_t)(uint8_t)act_min * 0x01010101u;
    const uint32_t hi4 = (uint32_t)(uint8_t)act_max * 0x01010101u;
    for (; c + 4 <= ch; c += 4) {
      const int8_t *row = base + c;
      uint32_t mx = 0x80808080u, w;
      int32_t fy, fx;
      for (fy = 0; fy < nfy; fy++, row += row_step)
        for (fx = 0; fx < nfx; fx++) {
          memcpy(&w, row + (size_t)fx * ch, 4);
          mx = aot_mp_max4(mx, w);
        }
      mx = aot_mp_min4(aot_mp_max4(mx, lo4), hi4);
      memcpy(out + c, &mx, 4);
    }
  }
#else
  (void)simd;
#endif
  aot_mp_scalar(base, row_step, ch, c, nfy, nfx, act_min, act_max, out);
}

int32_t aot_maxpool_s8(const aot_pool_params *p, const int8_t *input, int8_t *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, ch = p->channels;
  const int32_t act_min = p->act_min, act_max = p->act_max;
  const int simd = act_min >= INT8_MIN && act_min <= act_max && act_max <= INT8_MAX;
  int32_t b, oy, ox;

  for (b = 0; b < p->batches; b++) {
    const int8_t *in_b = input + (size_t)b * in_h * in_w * ch;
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, 1, in_h, p->filter_h, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, c;
        aot_conv_window(ix0, 1, in_w, p->filter_w, &fx0, &fx1);
        if (fy1 <= fy0 || fx1 <= fx0) {
          /* empty window: the reference yields the type's lowest value */
          for (c = 0; c < ch; c++)
            *output++ = (int8_t)aot_clamp_i32(INT8_MIN, act_min, act_max);
          continue;
        }
        aot_mp_pos(in_b + ((size_t)(iy0 + fy0) * in_w + (ix0 + fx0)) * ch, (size_t)in_w * ch, ch,
                   fy1 - fy0, fx1 - fx0, act_min, act_max, simd, output);
        output += ch;
      }
    }
  }
  return AOT_KERNEL_OK;
}
