/* aot_resize_k.h - the body of the RESIZE_BILINEAR kernels, one template for
 * float32, int8 and int16: source rows / columns and weights are precomputed
 * by aotc, the kernel walks the output and blends the four neighbours
 * (y0, x0), (y1, x0), (y0, x1), (y1, x1) of every element. A kernel file
 * defines AOT_RB_NAME (the function), AOT_RB_T (the element type), AOT_RB_W
 * (the weight type), AOT_RB_WY(y) / AOT_RB_WX(x) (the weights of output row y
 * and column x, from p) and AOT_RB_BLEND(a, b, c, d, wy, wx) (the output
 * element from the four neighbour values), then includes this file. */
#include "aot_movement.h"

/* The integer kernels' blend (reference ResizeBilinearInteger): int64
 * products of 10-bit weights, rounded half away from zero at 2^20. */
AOT_INLINE int64_t aot_rb_blend_q(int64_t a, int64_t b, int64_t c, int64_t d, int64_t wy,
                                  int64_t wx) {
  const int64_t o = a * (1024 - wy) * (1024 - wx) + b * wy * (1024 - wx) + c * (1024 - wy) * wx +
                    d * wy * wx;
  return (o + (o > 0 ? ((int64_t)1 << 19) : -((int64_t)1 << 19))) / ((int64_t)1 << 20);
}

int32_t AOT_RB_NAME(const aot_resize_bilinear_params *p, const AOT_RB_T *input,
                    AOT_RB_T *output) {
  int32_t b, y, x, c;
  const long row = (long)p->in_w * p->depth;
  const long img = (long)p->in_h * row;
  for (b = 0; b < p->batches; b++) {
    const AOT_RB_T *in = input + (long)b * img;
    for (y = 0; y < p->out_h; y++) {
      const AOT_RB_W wy = AOT_RB_WY(y);
      const AOT_RB_T *r0 = in + (long)p->y0[y] * row;
      const AOT_RB_T *r1 = in + (long)p->y1[y] * row;
      for (x = 0; x < p->out_w; x++) {
        const AOT_RB_W wx = AOT_RB_WX(x);
        const AOT_RB_T *a = r0 + (long)p->x0[x] * p->depth;  /* y0, x0 */
        const AOT_RB_T *bb = r1 + (long)p->x0[x] * p->depth; /* y1, x0 */
        const AOT_RB_T *cc = r0 + (long)p->x1[x] * p->depth; /* y0, x1 */
        const AOT_RB_T *d = r1 + (long)p->x1[x] * p->depth;  /* y1, x1 */
        for (c = 0; c < p->depth; c++) *output++ = AOT_RB_BLEND(a[c], bb[c], cc[c], d[c], wy, wx);
      }
    }
  }
  return AOT_KERNEL_OK;
}

#undef AOT_RB_NAME
#undef AOT_RB_T
#undef AOT_RB_W
#undef AOT_RB_WY
#undef AOT_RB_WX
#undef AOT_RB_BLEND
