/* aot_dwconv2d_f32.c - DEPTHWISE_CONV_2D float32, as the TFLite reference
 * DepthwiseConv (products summed in filter y, x order, then the bias, then
 * the activation clamp): output channel
 * oc = ic * depth_multiplier + m reads input channel ic and filter [.,.,.,oc].
 *
 * The valid filter window is computed once per output position. With depth
 * multiplier 1, four neighbouring channels are accumulated together (their
 * input and filter values are adjacent in memory). */
#include "aot_conv.h"

/* depth multiplier 1 */
static void aot_dw_f32_dm1(const aot_conv_params *p, const float *input, const float *filter,
                          const float *bias, float *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, ch = p->in_c;
  const int32_t fh = p->filter_h, fw = p->filter_w;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const float lo = p->act_min_f, hi = p->act_max_f;
  const size_t in_row = (size_t)in_w * ch, x_step = (size_t)dw * ch;
  int32_t b, oy, ox;

  for (b = 0; b < p->batches; b++) {
    const float *in_b = input + (size_t)b * in_h * in_row;
    for (oy = 0; oy < p->out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
      for (ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, nfx, fy_end = fy1, c = 0;
        const float *in_win = in_b, *f_win = filter;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        nfx = fx1 - fx0;
        if (fy1 <= fy0 || nfx <= 0) {
          fy_end = fy0;   /* empty window: bias only */
        } else {
          in_win = in_b + (size_t)(iy0 + fy0 * dh) * in_row + (size_t)(ix0 + fx0 * dw) * ch;
          f_win = filter + (size_t)(fy0 * fw + fx0) * ch;
        }
        for (; c + 4 <= ch; c += 4) {
          float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
          int32_t fy;
          for (fy = fy0; fy < fy_end; fy++) {
            const float *ip = in_win + (size_t)(fy - fy0) * dh * in_row + c;
            const float *fp = f_win + (size_t)(fy - fy0) * fw * ch + c;
            int32_t k;
            for (k = 0; k < nfx; k++) {
              a0 += ip[0] * fp[0];
              a1 += ip[1] * fp[1];
              a2 += ip[2] * fp[2];
              a3 += ip[3] * fp[3];
              ip += x_step;
              fp += ch;
            }
          }
          if (bias) {
            a0 += bias[c];
            a1 += bias[c + 1];
            a2 += bias[c + 2];
            a3 += bias[c + 3];
          }
          output[0] = aot_clamp_f32(a0, lo, hi);
          output[1] = aot_clamp_f32(a1, lo, hi);
          output[2] = aot_clamp_f32(a2, lo, hi);
          output[3] = aot_clamp_f32(a3, lo, hi);
          output += 4;
        }
        for (; c < ch; c++) {
          float acc = 0.0f;
          int32_t fy;
          for (fy = fy0; fy < fy_end; fy++) {
            const float *ip = in_win + (size_t)(fy - fy0) * dh * in_row + c;
            const float *fp = f_win + (size_t)(fy - fy0) * fw * ch + c;
            int32_t k;
            for (k = 0; k < nfx; k++) {
              acc += *ip * *fp;
              ip += x_step;
              fp += ch;
            }
          }
          if (bias) acc += bias[c];
          *output++ = aot_clamp_f32(acc, lo, hi);
        }
      }
    }
  }
}

int32_t aot_dwconv2d_f32(const aot_conv_params *p, const float *input,
                        const float *filter, const float *bias, float *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, in_c = p->in_c;
  const int32_t out_h = p->out_h, out_w = p->out_w, out_c = p->out_c;
  const int32_t fh = p->filter_h, fw = p->filter_w, dm = p->depth_multiplier;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const float act_min = p->act_min_f, act_max = p->act_max_f;
  const int32_t x_step = dw * in_c, fx_step = out_c;
  int32_t b, oy, ox;

  if (dm <= 0 || out_c != in_c * dm) return AOT_KERNEL_BAD_PARAM;
  if (dm == 1) {
    aot_dw_f32_dm1(p, input, filter, bias, output);
    return AOT_KERNEL_OK;
  }

  for (b = 0; b < p->batches; b++) {
    const float *in_b = input + (size_t)b * in_h * in_w * in_c;
    for (oy = 0; oy < out_h; oy++) {
      const int32_t iy0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
      for (ox = 0; ox < out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, fy_end, ic, oc = 0;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        fy_end = fx1 <= fx0 ? fy0 : fy1;   /* empty window: bias only */
        for (ic = 0; ic < in_c; ic++) {
          const float *in_c0 = in_b + ic;
          int32_t m;
          for (m = 0; m < dm; m++, oc++) {
            float acc = 0.0f;
          int32_t fy;
            for (fy = fy0; fy < fy_end; fy++) {
              const float *ip = in_c0 + ((size_t)(iy0 + fy * dh) * in_w +
                                          (ix0 + fx0 * dw)) * in_c;
              const float *fp = filter + (size_t)(fy * fw + fx0) * out_c + oc;
              int32_t fx;
              for (fx = fx0; fx < fx1; fx++) {
                acc += *ip * *fp;
                ip += x_step;
                fp += fx_step;
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
