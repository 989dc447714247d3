/* aot_dwconv2d_f32.c - DEPTHWISE_CONV_2D float32, as the TFLite reference
 * DepthwiseConv (products summed in filter y, x order, then the bias, then
 * the activation clamp): output channel
 * oc = ic * depth_multiplier + m reads input channel ic and filter [.,.,.,oc].
 *
 * The valid filter window is computed once per output position. With depth
 * multiplier 1, four neighbouring channels are accumulated together (their
 * input and filter values are adjacent in memory). Target variants
 * (aot_f32_simd.h): Helium, four channels per vector (depth multiplier > 1:
 * the input values of the four output channels by one gather load);
 * register-blocked FPU loops (depth multiplier 1), two neighbouring output
 * positions with the same filter columns computed together (4 channels x 2
 * positions: each filter value loaded once for both). Every channel sums
 * its taps in the reference order (fused multiply-adds on Helium). */
#include "aot_conv.h"
#include "aot_f32_simd.h"

#ifdef AOT_F32_MVE
#define AOT_DWCONV2D_F32_MVE 1
#elif defined(AOT_F32_BLK)
#define AOT_DWCONV2D_F32_DSP 1
#endif

/* the taps of one output position inside the image, depth multiplier 1 */
typedef struct dw_win {
  const float *in, *f;  /* input and filter at the first tap, channel 0 */
  int32_t rows, nfx;    /* filter rows and columns inside the image */
  size_t row_step;      /* input elements between filter rows */
  size_t x_step;        /* input elements between filter columns */
  size_t frow;          /* filter elements between filter rows (fw * ch) */
} dw_win;

/* channels [c, ch) of one window (c is a multiple of 4 when ch - c >= 4) */
static void dw_win1(const dw_win *wn, int32_t c, int32_t ch, const float *bias, float lo,
                    float hi, float *out) {
  int32_t fy, k;
#ifdef AOT_F32_MVE
  for (; c + 4 <= ch; c += 4) {
    float32x4_t acc = vdupq_n_f32(0.0f);
    for (fy = 0; fy < wn->rows; fy++) {
      const float *ip = wn->in + (size_t)fy * wn->row_step + c;
      const float *fp = wn->f + (size_t)fy * wn->frow + c;
      for (k = 0; k < wn->nfx; k++) {
        acc = vfmaq_f32(acc, vldrwq_f32(ip), vldrwq_f32(fp));
        ip += wn->x_step;
        fp += ch;
      }
    }
    aot_f32_mve_out(out + c, acc, bias ? bias + c : bias, lo, hi);
  }
#else
  for (; c + 4 <= ch; c += 4) {
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    for (fy = 0; fy < wn->rows; fy++) {
      const float *ip = wn->in + (size_t)fy * wn->row_step + c;
      const float *fp = wn->f + (size_t)fy * wn->frow + c;
      for (k = 0; k < wn->nfx; k++) {
        AOT_F32_MLA(a0, ip[0], fp[0]);
        AOT_F32_MLA(a1, ip[1], fp[1]);
        AOT_F32_MLA(a2, ip[2], fp[2]);
        AOT_F32_MLA(a3, ip[3], fp[3]);
        ip += wn->x_step;
        fp += ch;
      }
    }
    aot_f32_out4(out + c, bias ? bias + c : bias, a0, a1, a2, a3, lo, hi);
  }
#endif
  for (; c < ch; c++) {
    float acc = 0.0f;
    for (fy = 0; fy < wn->rows; fy++) {
      const float *ip = wn->in + (size_t)fy * wn->row_step + c;
      const float *fp = wn->f + (size_t)fy * wn->frow + c;
      for (k = 0; k < wn->nfx; k++) {
        AOT_F32_MLA(acc, *ip, *fp);
        ip += wn->x_step;
        fp += ch;
      }
    }
    if (bias) acc += bias[c];
    out[c] = aot_clamp_f32(acc, lo, hi);
  }
}

#ifdef AOT_F32_PAIR
/* dw_win1 for two output positions whose windows differ only by dx input
 * elements (out and out2) */
static void dw_win2(const dw_win *wn, size_t dx, int32_t ch, const float *bias, float lo,
                    float hi, float *out, float *out2) {
  int32_t c = 0, fy, k;
  dw_win w2 = *wn;
#ifdef AOT_F32_MVE
  for (; c + 4 <= ch; c += 4) {
    float32x4_t a = vdupq_n_f32(0.0f), b = a;
    for (fy = 0; fy < wn->rows; fy++) {
      const float *ip = wn->in + (size_t)fy * wn->row_step + c;
      const float *fp = wn->f + (size_t)fy * wn->frow + c;
      for (k = 0; k < wn->nfx; k++) {
        const float32x4_t w = vldrwq_f32(fp);
        a = vfmaq_f32(a, vldrwq_f32(ip), w);
        b = vfmaq_f32(b, vldrwq_f32(ip + dx), w);
        ip += wn->x_step;
        fp += ch;
      }
    }
    aot_f32_mve_out(out + c, a, bias ? bias + c : bias, lo, hi);
    aot_f32_mve_out(out2 + c, b, bias ? bias + c : bias, lo, hi);
  }
#else
  for (; c + 4 <= ch; c += 4) {
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
    float b0 = 0.0f, b1 = 0.0f, b2 = 0.0f, b3 = 0.0f;
    for (fy = 0; fy < wn->rows; fy++) {
      const float *ip = wn->in + (size_t)fy * wn->row_step + c;
      const float *fp = wn->f + (size_t)fy * wn->frow + c;
      for (k = 0; k < wn->nfx; k++) {
        const float *jp = ip + dx;
        const float w0 = fp[0], w1 = fp[1], w2 = fp[2], w3 = fp[3];
        AOT_F32_MLA(a0, ip[0], w0);
        AOT_F32_MLA(a1, ip[1], w1);
        AOT_F32_MLA(a2, ip[2], w2);
        AOT_F32_MLA(a3, ip[3], w3);
        AOT_F32_MLA(b0, jp[0], w0);
        AOT_F32_MLA(b1, jp[1], w1);
        AOT_F32_MLA(b2, jp[2], w2);
        AOT_F32_MLA(b3, jp[3], w3);
        ip += wn->x_step;
        fp += ch;
      }
    }
    aot_f32_out4(out + c, bias ? bias + c : bias, a0, a1, a2, a3, lo, hi);
    aot_f32_out4(out2 + c, bias ? bias + c : bias, b0, b1, b2, b3, lo, hi);
  }
#endif
  w2.in += dx;
  dw_win1(wn, c, ch, bias, lo, hi, out);
  dw_win1(&w2, c, ch, bias, lo, hi, out2);
}
#endif

/* depth multiplier 1 */
static void aot_dw_f32_dm1(const aot_conv_params *p, const float *input, const float *filter,
                          const float *bias, float *output) {
  const int32_t in_h = p->in_h, in_w = p->in_w, ch = p->in_c;
  const int32_t fh = p->filter_h, fw = p->filter_w;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;
  const float lo = p->act_min_f, hi = p->act_max_f;
  const size_t in_row = (size_t)in_w * ch;
  int32_t b, oy, ox;

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
        int32_t fx0, fx1;
        dw_win wn;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        wn.row_step = (size_t)dh * in_row;
        wn.x_step = (size_t)dw * ch;
        wn.frow = (size_t)fw * ch;
        wn.nfx = fx1 - fx0;
        wn.rows = fy1 <= fy0 || wn.nfx <= 0 ? 0 : fy1 - fy0;   /* 0: bias only */
        wn.in = in_b;
        wn.f = filter;
        if (wn.rows > 0) {
          wn.in = in_b + (size_t)(iy0 + fy0 * dh) * in_row + (size_t)(ix0 + fx0 * dw) * ch;
          wn.f = filter + (size_t)(fy0 * fw + fx0) * ch;
        }
#ifdef AOT_F32_PAIR
        if (ypair) {  /* with the position below */
          dw_win2(&wn, (size_t)p->stride_h * in_row, ch, bias, lo, hi, output,
                  output + (size_t)p->out_w * ch);
          output += ch;
          continue;
        }
        /* with the next position, when it has the same filter columns */
        if (ox + 1 < p->out_w && aot_conv_same_window(ix0, p->stride_w, dw, in_w, fw, fx0, fx1)) {
          dw_win2(&wn, (size_t)p->stride_w * ch, ch, bias, lo, hi, output, output + ch);
          output += 2 * ch;
          ox++;
          continue;
        }
#endif
        dw_win1(&wn, 0, ch, bias, lo, hi, output);
        output += ch;
      }
      if (ypair) {
        output += (size_t)p->out_w * ch;
        oy++;
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
        int32_t fx0, fx1, fy_end, oc = 0;
        aot_conv_window(ix0, dw, in_w, fw, &fx0, &fx1);
        fy_end = fx1 <= fx0 ? fy0 : fy1;   /* empty window: bias only */
#ifdef AOT_F32_MVE
        /* four output channels per vector; lane i reads input channel (oc + i) / dm */
        for (; oc + 4 <= out_c; oc += 4) {
          const uint32_t o4[4] = {(uint32_t)(oc / dm), (uint32_t)((oc + 1) / dm),
                                  (uint32_t)((oc + 2) / dm), (uint32_t)((oc + 3) / dm)};
          const uint32x4_t offs = vldrwq_u32(o4);
          float32x4_t acc = vdupq_n_f32(0.0f);
          int32_t fy;
          for (fy = fy0; fy < fy_end; fy++) {
            const float *ip = in_b + ((size_t)(iy0 + fy * dh) * in_w + (ix0 + fx0 * dw)) * in_c;
            const float *fp = filter + (size_t)(fy * fw + fx0) * out_c + oc;
            int32_t fx;
            for (fx = fx0; fx < fx1; fx++) {
              acc = vfmaq_f32(acc, vldrwq_gather_shifted_offset_f32(ip, offs), vldrwq_f32(fp));
              ip += x_step;
              fp += fx_step;
            }
          }
          aot_f32_mve_out(output, acc, bias ? bias + oc : bias, act_min, act_max);
          output += 4;
        }
#endif
        for (; oc < out_c; oc++) {
          const float *in_c0 = in_b + oc / dm;
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
  return AOT_KERNEL_OK;
}
