/* aot_resize_bilinear_f32.c - RESIZE_BILINEAR, float32 (reference kernel
 * arithmetic: fractional distances dy, dx of the source coordinates; the
 * template aot_resize_k.h). */
#define AOT_RB_NAME aot_resize_bilinear_f32
#define AOT_RB_T float
#define AOT_RB_W float
#define AOT_RB_WY(y) (p->fy[y] - (float)p->y0[y])
#define AOT_RB_WX(x) (p->fx[x] - (float)p->x0[x])
#define AOT_RB_BLEND(a, b, c, d, dy, dx) \
  ((a) * (1 - (dy)) * (1 - (dx)) + (b) * (dy) * (1 - (dx)) + (c) * (1 - (dy)) * (dx) + (d) * (dy) * (dx) + 0.0f)
#include "aot_resize_k.h"
