/* aot_tconv2d_k.h - the body of the TRANSPOSE_CONV kernels, one template for
 * float32, int16x8 and int8. The TFLite reference scatters x * w into a
 * zeroed output (or int32 / int64 buffer of its size) in input order, then
 * adds the bias and clamps or requantizes; here each output element gathers
 * the products of the input rows / columns that reach it, ascending, in the
 * same order, so the sums are identical and no scratch buffer is needed.
 * A kernel file defines AOT_TC_NAME (the function), AOT_TC_TIN, AOT_TC_TW,
 * AOT_TC_TB, AOT_TC_TOUT (input, filter, bias, output types), AOT_TC_ACC (the
 * accumulator type), AOT_TC_MAC(x, w) (one product, may use p) and
 * AOT_TC_OUT(acc, oc) (the output value of an accumulator, bias included),
 * then includes this file. */
#include "aot_conv.h"

int32_t AOT_TC_NAME(const aot_conv_params *p, const AOT_TC_TIN *input,
                    const AOT_TC_TW *filter, const AOT_TC_TB *bias, AOT_TC_TOUT *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c;
  const int32_t out_h = p->out_h, out_w = p->out_w, out_c = p->out_c;
  const int32_t fh = p->filter_h, fw = p->filter_w;
  const int32_t sh = p->stride_h, sw = p->stride_w;
  const int32_t filter_size = fh * fw * in_c;
  int32_t b, oy, ox, oc;

  if (sh <= 0 || sw <= 0 || p->pad_h < 0 || p->pad_w < 0 || p->filter_in_c != in_c)
    return AOT_KERNEL_BAD_PARAM;

  for (b = 0; b < p->batches; b++) {
    const AOT_TC_TIN *in_b = input + (size_t)b * in_h * in_w * in_c;
    for (oy = 0; oy < out_h; oy++) {
      const int32_t ty = oy + p->pad_h;
      const int32_t iy0 = ty - fh + 1 <= 0 ? 0 : (ty - fh + sh) / sh;
      const int32_t iy1 = aot_min_i32(ty / sh, in_h - 1);
      for (ox = 0; ox < out_w; ox++) {
        const int32_t tx = ox + p->pad_w;
        const int32_t ix0 = tx - fw + 1 <= 0 ? 0 : (tx - fw + sw) / sw;
        const int32_t ix1 = aot_min_i32(tx / sw, in_w - 1);
        for (oc = 0; oc < out_c; oc++) {
          const AOT_TC_TW *f_oc = filter + (size_t)oc * filter_size;
          AOT_TC_ACC acc = 0;
          int32_t iy;
          for (iy = iy0; iy <= iy1; iy++) {
            const int32_t fy = ty - iy * sh;
            int32_t ix;
            for (ix = ix0; ix <= ix1; ix++) {
              const int32_t fx = tx - ix * sw;
              const AOT_TC_TIN *ip = in_b + ((size_t)iy * in_w + ix) * in_c;
              const AOT_TC_TW *fp = f_oc + (fy * fw + fx) * in_c;
              int32_t c;
              for (c = 0; c < in_c; c++) acc += AOT_TC_MAC(ip[c], fp[c]);
            }
          }
          if (bias) acc += bias[oc];
          *output++ = AOT_TC_OUT(acc, oc);
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}

#undef AOT_TC_NAME
#undef AOT_TC_TIN
#undef AOT_TC_TW
#undef AOT_TC_TB
#undef AOT_TC_TOUT
#undef AOT_TC_ACC
#undef AOT_TC_MAC
#undef AOT_TC_OUT
