/* aot_conv2d_f32.c - CONV_2D float32, as the TFLite reference Conv: products
 * summed in filter y, x, channel order (taps outside the image skipped), then
 * the bias, then the activation clamp.
 *
 * Per output position the valid filter window is computed once (an
 * aot_f32_win, aot_f32_simd.h). When the filter covers all input channels and
 * dilation_w is 1, the taps of one filter row are contiguous in both the
 * input and the filter and are walked as one run. Portable loops: four
 * output channels accumulated together, so each input value is loaded once
 * per four multiply-adds (each channel keeps the reference summation order).
 * Target variants (aot_f32_simd.h): Helium, eight / four channels in vector
 * lanes with gather loads of the filter (aot_f32_mve_oc); register-blocked
 * FPU loops, two neighbouring output positions with the same filter columns
 * computed together (4 channels x 2 positions, conv_win2). Every channel
 * sums its taps in the reference order (fused multiply-adds on Helium). */
#include "aot_conv.h"
#include "aot_f32_simd.h"

#ifdef AOT_F32_MVE
#define AOT_CONV2D_F32_MVE 1
#elif defined(AOT_F32_BLK)
#define AOT_CONV2D_F32_DSP 1
#endif

#ifdef AOT_F32_PAIR
/* aot_f32_oc for two output positions whose windows differ only by dx input
 * elements (out and out2): every filter value loaded feeds both. */
static void conv_win2(const aot_f32_win *wn, size_t dx, const float *f0, int32_t fsize,
                      int32_t n, const float *bias, float lo, float hi, float *out,
                      float *out2) {
  int32_t j = 0;
#ifdef AOT_F32_MVE
  j = aot_f32_mve_oc2(wn, dx, f0, fsize, n, bias, lo, hi, out, out2);
#else
  int32_t r, k;
  for (; j + 4 <= n; j += 4) {
    const float *w = f0 + (size_t)j * fsize;
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    float b0 = 0.0f, b1 = 0.0f, b2 = 0.0f, b3 = 0.0f;
    for (r = 0; r < wn->rows; r++, w += wn->frow - wn->nseg * wn->seg) {
      const float *ip = wn->in + (size_t)r * wn->row_step;
      for (k = 0; k < wn->nseg; k++, ip += wn->seg_step) {
        const float *q = ip, *e = ip + wn->seg;
        while (q < e) {
          const float x = q[0], y = q[dx];
          const float w0 = w[0], w1 = w[fsize], w2 = w[2 * fsize], w3 = w[3 * fsize];
          AOT_F32_MLA(a0, x, w0);
          AOT_F32_MLA(a1, x, w1);
          AOT_F32_MLA(a2, x, w2);
          AOT_F32_MLA(a3, x, w3);
          AOT_F32_MLA(b0, y, w0);
          AOT_F32_MLA(b1, y, w1);
          AOT_F32_MLA(b2, y, w2);
          AOT_F32_MLA(b3, y, w3);
          q++;
          w++;
        }
      }
    }
    aot_f32_out4(out + j, bias ? bias + j : bias, a0, a1, a2, a3, lo, hi);
    aot_f32_out4(out2 + j, bias ? bias + j : bias, b0, b1, b2, b3, lo, hi);
  }
#endif
  if (j < n) {
    aot_f32_win w2 = *wn;
    w2.in += dx;
    aot_f32_oc(wn, f0 + (size_t)j * fsize, fsize, n - j, bias ? bias + j : bias, lo, hi, out + j);
    aot_f32_oc(&w2, f0 + (size_t)j * fsize, fsize, n - j, bias ? bias + j : bias, lo, hi,
             out2 + j);
  }
}
#endif

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
      int32_t fy0, fy1, ypair = 0;
      aot_conv_window(iy0, dh, in_h, fh, &fy0, &fy1);
#ifdef AOT_F32_PAIR
      /* the next row with the same filter rows */
      if (oy + 1 < p->out_h) ypair = aot_conv_same_window(iy0, p->stride_h, dh, in_h, fh, fy0, fy1);
#endif
      for (ox = 0; ox < p->out_w; ox++) {
        const int32_t ix0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1, g, f_first, pair = 0;
        aot_f32_win wn;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        /* one filter row = nseg runs of seg values, input runs seg_step apart */
        if (dw == 1 && groups == 1) {
          wn.nseg = 1;
          wn.seg = (fx1 - fx0) * fic;
        } else {
          wn.nseg = fx1 - fx0;
          wn.seg = fic;
        }
        wn.seg_step = dw * in_c;
        wn.frow = fw * fic;
        wn.row_step = (size_t)dh * in_row;
        wn.rows = fy1 <= fy0 || fx1 <= fx0 ? 0 : fy1 - fy0;
        wn.in = wn.rows == 0 ? in_b
                             : in_b + (size_t)(iy0 + fy0 * dh) * in_row +
                                   (size_t)(ix0 + fx0 * dw) * in_c;
        f_first = (fy0 * fw + fx0) * fic;
#ifdef AOT_F32_PAIR
        if (!ypair && ox + 1 < p->out_w)  /* the next position with the same filter columns */
          pair = aot_conv_same_window(ix0, p->stride_w, dw, in_w, fw, fx0, fx1);
#endif
        for (g = 0; g < groups; g++) {
          aot_f32_win wg = wn;
          const float *f0 = filter + (size_t)g * per_group * fsize + f_first;
          const float *bg = bias ? bias + (size_t)g * per_group : bias;
          float *og = output + (size_t)g * per_group;
          wg.in += (size_t)g * fic;
#ifdef AOT_F32_PAIR
          if (ypair) {  /* with the position below */
            conv_win2(&wg, (size_t)p->stride_h * in_row, f0, fsize, per_group, bg, act_min,
                      act_max, og, og + (size_t)p->out_w * out_c);
            continue;
          }
          if (pair) {
            conv_win2(&wg, (size_t)p->stride_w * in_c, f0, fsize, per_group, bg, act_min,
                      act_max, og, og + out_c);
            continue;
          }
#endif
          aot_f32_oc(&wg, f0, fsize, per_group, bg, act_min, act_max, og);
        }
        output += out_c;
        if (pair) {
          output += out_c;
          ox++;
        }
      }
      if (ypair) {
        output += (size_t)p->out_w * out_c;
        oy++;
      }
    }
  }
  return AOT_KERNEL_OK;
}
