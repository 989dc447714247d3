/* aot_resize_bilinear_s16.c - RESIZE_BILINEAR, int16_t (reference
 * ResizeBilinearInteger: 10-bit fixed point coordinates, int64 products,
 * rounding half away from zero at 2^20). */
#include "aot_movement.h"

int32_t aot_resize_bilinear_s16(const aot_resize_bilinear_params *p, const int16_t *input,
                               int16_t *output) {
  int32_t b, y, x, c;
  const long row = (long)p->in_w * p->depth;
  const long img = (long)p->in_h * row;
  for (b = 0; b < p->batches; b++) {
    const int16_t *in = input + (long)b * img;
    for (y = 0; y < p->out_h; y++) {
      const int64_t wy = p->wy[y];
      const int16_t *r0 = in + (long)p->y0[y] * row;
      const int16_t *r1 = in + (long)p->y1[y] * row;
      for (x = 0; x < p->out_w; x++) {
        const int64_t wx = p->wx[x];
        const int16_t *a = r0 + (long)p->x0[x] * p->depth;
        const int16_t *bb = r1 + (long)p->x0[x] * p->depth;
        const int16_t *cc = r0 + (long)p->x1[x] * p->depth;
        const int16_t *d = r1 + (long)p->x1[x] * p->depth;
        for (c = 0; c < p->depth; c++) {
          int64_t o = (int64_t)a[c] * (1024 - wy) * (1024 - wx) +
                      (int64_t)bb[c] * wy * (1024 - wx) + (int64_t)cc[c] * (1024 - wy) * wx +
                      (int64_t)d[c] * wy * wx;
          int64_t round = o > 0 ? ((int64_t)1 << 19) : -((int64_t)1 << 19);
          *output++ = (int16_t)((o + round) / ((int64_t)1 << 20));
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}
