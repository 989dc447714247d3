/* aot_resize_bilinear_s16.c - RESIZE_BILINEAR, int16_t (reference
 * ResizeBilinearInteger: 10-bit fixed point coordinates, int64 products,
 * rounding half away from zero at 2^20; the template aot_resize_k.h). */
#include "aot_common.h"

/* the int64 blend of the four neighbours, rounded half away from zero */
AOT_INLINE int64_t aot_rb_s16(int64_t a, int64_t b, int64_t c, int64_t d, int64_t wy, int64_t wx) {
  const int64_t o = a * (1024 - wy) * (1024 - wx) + b * wy * (1024 - wx) + c * (1024 - wy) * wx +
                    d * wy * wx;
  return (o + (o > 0 ? ((int64_t)1 << 19) : -((int64_t)1 << 19))) / ((int64_t)1 << 20);
}

#define AOT_RB_NAME aot_resize_bilinear_s16
#define AOT_RB_T int16_t
#define AOT_RB_W int64_t
#define AOT_RB_WY(y) p->wy[y]
#define AOT_RB_WX(x) p->wx[x]
#define AOT_RB_BLEND(a, b, c, d, wy, wx) (int16_t)aot_rb_s16(a, b, c, d, wy, wx)
#include "aot_resize_k.h"
