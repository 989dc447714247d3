/* aot_resize_bilinear_s8.c - RESIZE_BILINEAR, int8_t (reference
 * ResizeBilinearInteger: 10-bit fixed point coordinates, int64 products,
 * rounding half away from zero at 2^20; the template aot_resize_k.h). */
#define AOT_RB_NAME aot_resize_bilinear_s8
#define AOT_RB_T int8_t
#define AOT_RB_W int64_t
#define AOT_RB_WY(y) p->wy[y]
#define AOT_RB_WX(x) p->wx[x]
#define AOT_RB_BLEND(a, b, c, d, wy, wx) (int8_t)aot_rb_blend_q(a, b, c, d, wy, wx)
#include "aot_resize_k.h"
