/* mve_refuse.c - Cortex-M55 (QEMU) check that the Helium int8 convolution
 * kernels, built with an aot_features.h whose every AOT_F_<X> is 0 but
 * AOT_F_DW_S8_DM1 (a module none of whose layers needs the optional paths),
 * refuse each layer that
 * would need a left-out path with AOT_KERNEL_BAD_PARAM and leave the output
 * untouched, and still run the layers that need none (compared with the
 * TFLite reference formula computed here). With -DREFUSE_DM1 (built with
 * AOT_F_DW_S8_DM1 0 too) the depth multiplier 1 layers must be refused as
 * well. Built and run by
 * tests/integration/test_mve_refuse.sh on a copy of runtime/. */
#include <stdio.h>
#include <string.h>

#include "aot_conv.h"

static int passed, failed;
static int8_t in[4096], flt[8192], out[4096];
static int32_t bias[64], mult[64], shift[64];
static uint64_t scratch[16384 / 8];   /* larger than any case's scratch size */

static aot_conv_params shape(int32_t in_hw, int32_t in_c, int32_t f, int32_t dm, int32_t pad,
                             int32_t out_c) {
  aot_conv_params p;
  memset(&p, 0, sizeof p);
  p.batches = 1;
  p.in_h = p.in_w = in_hw;
  p.in_c = in_c;
  p.filter_h = p.filter_w = f;
  p.filter_in_c = in_c;
  p.stride_h = p.stride_w = 1;
  p.dilation_h = p.dilation_w = 1;
  p.pad_h = p.pad_w = pad;
  p.out_h = p.out_w = in_hw + 2 * pad - f + 1;
  p.out_c = out_c;
  p.depth_multiplier = dm;
  p.input_offset = 3;
  p.output_offset = -2;
  p.act_min = -128;
  p.act_max = 127;
  p.out_mult = mult;
  p.out_shift = shift;
  return p;
}

static void refused(const char *what, int dw, const aot_conv_params *p) {
  int32_t rc;
  size_t k;
  memset(out, 0x5a, sizeof out);
  rc = dw ? aot_dwconv2d_s8(p, in, flt, bias, out, scratch)
         : aot_conv2d_s8(p, in, flt, bias, out, scratch);
  for (k = 0; k < sizeof out && out[k] == 0x5a; k++) {
  }
  if (rc == AOT_KERNEL_BAD_PARAM && k == sizeof out) {
    passed++;
  } else {
    printf("%s: status %ld (want %d), output %s\n", what, (long)rc, AOT_KERNEL_BAD_PARAM,
           k == sizeof out ? "untouched" : "written");
    failed++;
  }
}

/* depthwise, depth multiplier 1, no padding: the reference formula */
static void runs_dw(const char *what, const aot_conv_params *p) {
  int32_t oy, ox, c, fy, fx, bad = 0, rc;
#ifdef REFUSE_DM1
  refused(what, 1, p);
  return;
#endif
  rc = aot_dwconv2d_s8(p, in, flt, bias, out, scratch);
  for (oy = 0; oy < p->out_h; oy++)
    for (ox = 0; ox < p->out_w; ox++)
      for (c = 0; c < p->out_c; c++) {
        int32_t acc = bias[c], v;
        for (fy = 0; fy < p->filter_h; fy++)
          for (fx = 0; fx < p->filter_w; fx++)
            acc += flt[(fy * p->filter_w + fx) * p->out_c + c] *
                   (in[((oy + fy) * p->in_w + ox + fx) * p->in_c + c] + p->input_offset);
        v = aot_clamp_i32(aot_conv_mbqm(acc, mult[c], shift[c]) + p->output_offset, p->act_min,
                          p->act_max);
        if (out[(oy * p->out_w + ox) * p->out_c + c] != (int8_t)v) bad++;
      }
  if (rc == AOT_KERNEL_OK && bad == 0) {
    passed++;
  } else {
    printf("%s: status %ld, %ld wrong outputs\n", what, (long)rc, (long)bad);
    failed++;
  }
}

int main(void) {
  uint32_t s = 12345u;
  size_t k;
  aot_conv_params p;
  for (k = 0; k < sizeof in; k++) in[k] = (int8_t)((s = s * 1103515245u + 12345u) >> 24);
  for (k = 0; k < sizeof flt; k++) flt[k] = (int8_t)((s = s * 1103515245u + 12345u) >> 24);
  for (k = 0; k < 64; k++) {
    bias[k] = (int32_t)((s = s * 1103515245u + 12345u) >> 20) - 2048;
    mult[k] = 1518500250 + (int32_t)k * 1000;
    shift[k] = -7;
  }
  printf("Helium kernels with every optional path left out\n");
  p = shape(6, 16, 3, 1, 1, 16);
  refused("dwconv padding (DW_S8_CLIP)", 1, &p);
  p = shape(6, 16, 3, 1, 0, 16);
  p.out_h = p.out_w = 5;   /* the last window reaches past the edge */
  refused("dwconv window past the edge (DW_S8_CLIP)", 1, &p);
  p = shape(6, 8, 3, 2, 0, 16);
  refused("dwconv depth multiplier 2 (DW_S8_DM)", 1, &p);
  p = shape(6, 4, 3, 1, 0, 4);
  refused("dwconv 4 channels (DW_S8_FEW)", 1, &p);
  p = shape(10, 8, 9, 1, 0, 8);
  refused("dwconv 81 taps (DW_S8_BIG)", 1, &p);
  p = shape(6, 8, 3, 1, 1, 8);
  refused("conv padding (CONV_S8_CLIP)", 0, &p);
  p = shape(8, 8, 3, 1, 0, 8);
  p.dilation_w = 2;
  p.out_w = 4;
  refused("conv dilation_w 2 (CONV_S8_CLIP)", 0, &p);
  p = shape(6, 8, 3, 1, 0, 8);
  p.filter_in_c = 4;
  refused("conv 2 groups (CONV_S8_CLIP)", 0, &p);
  p = shape(7, 24, 3, 1, 0, 24);
  runs_dw("dwconv 24 channels 3x3 inside the image", &p);
  p = shape(5, 12, 5, 1, 0, 12);
  runs_dw("dwconv 12 channels 5x5 inside the image", &p);
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
