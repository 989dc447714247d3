/* aot_conv2d_f32.c - CONV_2D float32, as the TFLite reference Conv: products
 * summed in filter y, x, channel order (taps outside the image skipped), then
 * the bias, then the activation clamp.
 *
 * Per output position the valid filter window is computed once. Four output
 * channels are accumulated together, so each input value is loaded once per
 * four multiply-adds (each channel keeps the reference summation order). When the filter covers all input channels and
 * dilation_w is 1, the taps of one filter row are contiguous in both the
 * input and the filter and are walked as one run. */
#include "aot_conv.h"

int32_t aot_conv2d_f32(const aot_conv_params *p, const float *input,
                       const float *filter, const float *bias, float *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c;
  const int32_t out_c = p->out_c, fh = p->filter_h, fw = p->filter_w;
  const int32_t fic = p->filter_in_c;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const float act_min = p->act_min_f, act_max = p->act_max_f;
  const int32_t fsize = fh * fw * fic;
  const size_t in_row = (size_t)in_w * in_c;
  int32_t groups, per_group, b, oy, ox;

  if (fic <= 0 || in_c % fic != 0) return AOT_KERNEL_BAD_PARAM;
  groups = in_c / fic;
  if (out_c % groups != 0) return AOT_KERNEL_BAD_PARAM;
  per_group = out_c / groups;

  for (b = 0; b < p->batches; b++) {
    const float *in_b = input + (size_t)b * in_h * in_row;
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, nseg, seg, seg_step, g, oc = 0;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        /* one filter row = nseg runs of seg values, input runs seg_step apart */
        if (dw == 1 && groups == 1) {
          nseg = 1;
          seg = (fx1 - fx0) * fic;
        } else {
          nseg = fx1 - fx0;
          seg = fic;
        }
        seg_step = dw * in_c;
        if (fy1 <= fy0 || fx1 <= fx0) nseg = 0;
        for (g = 0; g < groups; g++) {
          /* first tap of the window (input, group g) and of filter rows */
          const float *in_win =
              nseg == 0 ? in_b
                        : in_b + (size_t)(iy0 + fy0 * dh) * in_row +
                              (size_t)(ix0 + fx0 * dw) * in_c + (size_t)g * fic;
          const int32_t f_first = (fy0 * fw + fx0) * fic;
          int32_t j = 0;
          for (; j + 4 <= per_group; j += 4, oc += 4) {
            const float *f0 = filter + (size_t)oc * fsize + f_first;
            float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
            int32_t fy, k;
            if (nseg > 0) {
              for (fy = fy0; fy < fy1; fy++) {
                const float *ip = in_win + (size_t)(fy - fy0) * dh * in_row;
                const float *fp = f0 + (fy - fy0) * fw * fic;
                for (k = 0; k < nseg; k++) {
                  const float *ie = ip + seg;
                  const float *q = ip, *w = fp;
                  while (q < ie) {
                    const float x = *q++;
                    a0 += x * w[0];
                    a1 += x * w[fsize];
                    a2 += x * w[2 * fsize];
                    a3 += x * w[3 * fsize];
                    w++;
                  }
                  ip += seg_step;
                  fp += seg;
                }
              }
            }
            if (bias) {
              a0 += bias[oc];
              a1 += bias[oc + 1];
              a2 += bias[oc + 2];
              a3 += bias[oc + 3];
            }
            output[0] = aot_clamp_f32(a0, act_min, act_max);
            output[1] = aot_clamp_f32(a1, act_min, act_max);
            output[2] = aot_clamp_f32(a2, act_min, act_max);
            output[3] = aot_clamp_f32(a3, act_min, act_max);
            output += 4;
          }
          for (; j < per_group; j++, oc++) {
            const float *f0 = filter + (size_t)oc * fsize + f_first;
            float acc = 0.0f;
            int32_t fy, k;
            if (nseg > 0) {
              for (fy = fy0; fy < fy1; fy++) {
                const float *ip = in_win + (size_t)(fy - fy0) * dh * in_row;
                const float *fp = f0 + (fy - fy0) * fw * fic;
                for (k = 0; k < nseg; k++) {
                  const float *ie = ip + seg;
                  const float *q = ip, *w = fp;
                  while (q < ie) acc += *q++ * *w++;
                  ip += seg_step;
                  fp += seg;
                }
              }
            }
            if (bias) acc += bias[oc];
            *output++ = aot_clamp_f32(acc, act_min, act_max);
          }
        }
      }
    }
  }
  return AOT_KERNEL_OK;
}
