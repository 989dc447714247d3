/* aot_resize_bilinear_f32.c - RESIZE_BILINEAR, float32 (reference kernel
 * arithmetic; source rows/columns and coordinates precomputed by aotc). */
#include "aot_movement.h"

int32_t aot_resize_bilinear_f32(const aot_resize_bilinear_params *p, const float *input,
                                float *output) {
  int32_t b, y, x, c;
  const long row = (long)p->in_w * p->depth;
  const long img = (long)p->in_h * row;
  for (b = 0; b < p->batches; b++) {
    const float *in = input + (long)b * img;
    for (y = 0; y < p->out_h; y++) {
      const float dy = p->fy[y] - (float)p->y0[y];
      const float *r0 = in + (long)p->y0[y] * row;
      const float *r1 = in + (long)p->y1[y] * row;
      for (x = 0; x < p->out_w; x++) {
        const float dx = p->fx[x] - (float)p->x0[x];
        const float *a = r0 + (long)p->x0[x] * p->depth;  /* y0, x0 */
        const float *bb = r1 + (long)p->x0[x] * p->depth; /* y1, x0 */
        const float *cc = r0 + (long)p->x1[x] * p->depth; /* y0, x1 */
        const float *d = r1 + (long)p->x1[x] * p->depth;  /* y1, x1 */
        for (c = 0; c < p->depth; c++) {
          float v = a[c] * (1 - dy) * (1 - dx) + bb[c] * dy * (1 - dx) +
                    cc[c] * (1 - dy) * dx + d[c] * dy * dx + 0.0f;
          *output++ = v;
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}
