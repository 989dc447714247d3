/* cost_calib_main.c - main of bench/cost_calib.sh: calls the int8 CONV_2D
 * and DEPTHWISE_CONV_2D kernels of the Cortex-M4 DSP build on a grid of
 * layer shapes, each on both of its paths (aot_conv_params.dsp_variant: the
 * kernel's rule and the other path), bracketing every call with the
 * instruction-count markers, and prints one line per call ("case=dw ih iw
 * ic oh ow oc fh fw s variant"), so the script can pair them with the
 * plugin's region counts and with the compiler's estimates
 * (src/ops/cost_dsp.c). The data are arbitrary: the paths' counts do not
 * depend on them. */
#include <stdio.h>
#include <string.h>

#include "aot_conv.h"
#include "target.h"

static int8_t in[65536], w[65536], out[65536];
static uint64_t scratch[4096];
static int32_t mult[256], shift[256], bias[256], kb[256];

static void run(int dw, int32_t ih, int32_t iw, int32_t ic, int32_t fh, int32_t fw, int32_t s, int32_t oc,
                int32_t pad) {
  aot_conv_params p;
  int v;
  memset(&p, 0, sizeof p);
  p.batches = 1;
  p.in_h = ih;
  p.in_w = iw;
  p.in_c = ic;
  p.filter_h = fh;
  p.filter_w = fw;
  p.filter_in_c = dw ? 1 : ic;
  p.out_c = dw ? ic : oc;
  p.stride_h = p.stride_w = s;
  p.dilation_h = p.dilation_w = 1;
  p.pad_h = pad ? (fh - 1) / 2 : 0;
  p.pad_w = pad ? (fw - 1) / 2 : 0;
  p.out_h = (ih + 2 * p.pad_h - fh) / s + 1;
  p.out_w = (iw + 2 * p.pad_w - fw) / s + 1;
  p.depth_multiplier = 1;
  p.input_offset = 3;
  p.output_offset = -5;
  p.act_min = -128;
  p.act_max = 127;
  p.out_mult = mult;
  p.out_shift = shift;
  p.kbias = kb;
  if ((size_t)ih * iw * ic > sizeof in || (size_t)p.out_h * p.out_w * p.out_c > sizeof out ||
      (size_t)fh * fw * p.filter_in_c * p.out_c > sizeof w)
    return;
  for (v = 0; v < 2; v++) {
    int32_t rc;
    p.dsp_variant = v ? (dw ? AOT_DSP_VAR_GEN : AOT_DSP_VAR_G4) : 0;
    if (dw ? !aot_dwconv2d_s8_dsp_is3(&p) && v == 0 : !aot_conv2d_s8_dsp_gw(&p) && v == 0) return;
    if (aot_conv2d_s8_scratch_size(&p) > sizeof scratch ||
        aot_dwconv2d_s8_scratch_size(&p) > sizeof scratch)
      return;
    printf("case=%d %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %d\n", dw, (long)ih, (long)iw,
           (long)ic, (long)p.out_h, (long)p.out_w, (long)p.out_c, (long)fh, (long)fw, (long)s,
           (long)pad, v);
    target_count_start();
    rc = dw ? aot_dwconv2d_s8(&p, in, w, bias, out, scratch)
            : aot_conv2d_s8(&p, in, w, bias, out, scratch);
    target_count_stop();
    if (rc != AOT_KERNEL_OK) printf("status %ld\n", (long)rc);
  }
}

int main(void) {
  static const int32_t hw[] = {4, 6, 8, 12, 16, 24, 32, 48};
  static const int32_t chs[] = {1, 3, 8, 16, 32, 64};
  static const int32_t ocs[] = {8, 16, 32, 64, 128};
  static const int32_t fs[][2] = {{3, 3}, {5, 5}, {1, 3}, {3, 1}, {10, 4}, {7, 7}};
  static const int32_t dchs[] = {8, 16, 32, 64, 128, 256};
  static const int32_t dhw[] = {3, 4, 5, 6, 8, 12, 16, 24, 32, 48};
  size_t a, b, c, d;
  int i;
  for (i = 0; i < 256; i++) {
    mult[i] = 0x40000000 + i * 977 * 1024;
    shift[i] = -7 - (i & 3);
    bias[i] = kb[i] = i * 131 - 9000;
  }
  for (i = 0; i < (int)sizeof in; i++) in[i] = (int8_t)(i * 37 + 11);
  for (i = 0; i < (int)sizeof w; i++) w[i] = (int8_t)(i * 53 + 7);
  for (a = 0; a < sizeof hw / sizeof hw[0]; a++)
    for (b = 0; b < sizeof chs / sizeof chs[0]; b++)
      for (c = 0; c < sizeof ocs / sizeof ocs[0]; c++)
        for (d = 0; d < sizeof fs / sizeof fs[0]; d++) {
          if (fs[d][0] * fs[d][1] * chs[b] > 1024 || fs[d][0] > hw[a]) continue;
          if (ocs[c] == 128 && (a + b + d) % 2) continue;
          run(0, hw[a], hw[a], chs[b], fs[d][0], fs[d][1], (a + b + c) % 3 == 0 ? 2 : 1, ocs[c],
              (a + c + d) % 2);
        }
  for (a = 0; a < sizeof dhw / sizeof dhw[0]; a++)
    for (b = 0; b < sizeof dchs / sizeof dchs[0]; b++)
      for (d = 0; d < 2; d++) {
        run(1, dhw[a], dhw[a], dchs[b], 3, 3, 1, 0, (int)d);
        run(1, dhw[a], dhw[a], dchs[b], 3, 3, 2, 0, (int)d);
        /* tall and wide images (the 3x3 path's transposed rows) */
        run(1, dhw[a] * 2 + 1, dhw[a] / 2 + 1, dchs[b], 3, 3, 1, 0, (int)d);
        run(1, dhw[a] / 2 + 3, dhw[a] * 2, dchs[b], 3, 3, 2, 0, (int)d);
      }
  printf("done\n");
  return 0;
}
