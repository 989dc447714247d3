/* dsp_conv_refuse.c - Cortex-M4 (QEMU) check of the int8 CONV_2D DSP kernel
 * built with the variant paths of a module that needs none of them
 * (AOT_F_CONV_S8_G4, AOT_F_CONV_S8_BIG and AOT_F_CONV_S8_NARROW set to 0):
 * a grouped layer, a window of more than 1024 taps, an activation range
 * narrower than int8 and a filter marked packed for Helium
 * (aot_conv_params.filter_packed) are each refused with
 * AOT_KERNEL_BAD_PARAM with the output left untouched, and the layers the
 * module does have (pointwise, 3x3 with padding) still give the TFLite
 * reference result, computed here with a multiplier of exactly one (2^30
 * with shift 1: the requantization is the identity on the accumulator) so
 * no project code serves as the reference. Built and run by
 * tests/integration/test_dsp_refuse.sh on a copy of runtime/. */
#include <stdio.h>
#include <string.h>

#include "aot_conv.h"

static int passed, failed;
static int8_t in[4096], w[16384], out[4096];
static uint64_t scratch[8192];
static int32_t mult[64], shift[64], bias[64];

/* a layer of in_h x in_w x in_c, f x f filter, out_c channels, stride 1,
 * padding pad on every side, groups groups */
static aot_conv_params layer(int32_t hw, int32_t in_c, int32_t f, int32_t out_c, int32_t pad,
                             int32_t groups) {
  aot_conv_params p;
  memset(&p, 0, sizeof p);
  p.batches = 1;
  p.in_h = p.in_w = hw;
  p.in_c = in_c;
  p.filter_h = p.filter_w = f;
  p.filter_in_c = in_c / groups;
  p.out_c = out_c;
  p.stride_h = p.stride_w = p.dilation_h = p.dilation_w = 1;
  p.pad_h = p.pad_w = pad;
  p.out_h = p.out_w = hw + 2 * pad - f + 1;
  p.depth_multiplier = 1;
  p.input_offset = 1;
  p.output_offset = -3;
  p.act_min = -128;
  p.act_max = 127;
  p.out_mult = mult;
  p.out_shift = shift;
  return p;
}

static void refused(const char *what, const aot_conv_params *p) {
  int32_t rc, k;
  if (aot_conv2d_s8_scratch_size(p) > sizeof scratch) {
    printf("%s: scratch too large for the test\n", what);
    failed++;
    return;
  }
  memset(out, 0x5a, sizeof out);
  rc = aot_conv2d_s8(p, in, w, bias, out, scratch);
  for (k = 0; k < (int32_t)sizeof out && out[k] == 0x5a; k++) {
  }
  if (rc == AOT_KERNEL_BAD_PARAM && k == (int32_t)sizeof out) {
    passed++;
  } else {
    printf("%s: status %ld (want %d), output %s\n", what, (long)rc, AOT_KERNEL_BAD_PARAM,
           k == (int32_t)sizeof out ? "untouched" : "written");
    failed++;
  }
}

/* the layer p (one group) against a direct sum */
static void exact(const char *what, const aot_conv_params *p) {
  const int32_t fs = p->filter_h * p->filter_w * p->in_c;
  int32_t rc, oy, ox, c, fy, fx, i, bad = 0;
  rc = aot_conv2d_s8(p, in, w, bias, out, scratch);
  for (oy = 0; oy < p->out_h; oy++)
    for (ox = 0; ox < p->out_w; ox++)
      for (c = 0; c < p->out_c; c++) {
        int32_t acc = bias[c], want;
        for (fy = 0; fy < p->filter_h; fy++)
          for (fx = 0; fx < p->filter_w; fx++) {
            const int32_t iy = oy - p->pad_h + fy, ix = ox - p->pad_w + fx;
            if (iy < 0 || ix < 0 || iy >= p->in_h || ix >= p->in_w) continue;
            for (i = 0; i < p->in_c; i++)
              acc += (int32_t)w[c * fs + (fy * p->filter_w + fx) * p->in_c + i] *
                     ((int32_t)in[(iy * p->in_w + ix) * p->in_c + i] + 1);
          }
        want = acc - 3;
        want = want < -128 ? -128 : want > 127 ? 127 : want;
        if (out[(oy * p->out_w + ox) * p->out_c + c] != want) bad++;
      }
  if (rc == AOT_KERNEL_OK && bad == 0) {
    passed++;
  } else {
    printf("%s: status %ld, %ld outputs wrong\n", what, (long)rc, (long)bad);
    failed++;
  }
}

int main(void) {
  aot_conv_params p;
  int32_t k;
  for (k = 0; k < (int32_t)sizeof in; k++) in[k] = (int8_t)((k * 7) % 3 - 1);   /* -1, 0, 1 */
  for (k = 0; k < (int32_t)sizeof w; k++) w[k] = (int8_t)((k * 5) % 3 - 1);
  for (k = 0; k < 64; k++) {
    mult[k] = 1 << 30;
    shift[k] = 1;
    bias[k] = 10 * (k % 4) - 15;
  }
  p = layer(5, 8, 3, 4, 1, 2);
  refused("grouped 3x3 (CONV_S8_G4 off)", &p);
  p = layer(3, 120, 3, 4, 0, 1);
  refused("3x3x120 window, 1080 taps (CONV_S8_BIG off)", &p);
  p = layer(4, 16, 1, 8, 0, 1);
  p.act_min = 0;
  refused("pointwise with a RELU range (CONV_S8_NARROW off)", &p);
  p = layer(4, 16, 1, 8, 0, 1);
  p.filter_packed = 1;
  refused("pointwise with a filter packed for Helium", &p);
  p = layer(4, 16, 1, 8, 0, 1);
  exact("pointwise 4x4x16 -> 8", &p);
  p = layer(5, 4, 3, 8, 1, 1);
  exact("3x3 5x5x4 -> 8, padding 1", &p);
  p = layer(6, 3, 3, 4, 1, 1);
  exact("3x3 6x6x3 -> 4, padding 1 (rows not a multiple of four taps)", &p);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
