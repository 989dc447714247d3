/* dsp_fc_refuse.c - Cortex-M4 (QEMU) check of the int8 FULLY_CONNECTED DSP
 * kernel built with AOT_F_FC_S8_LONG 0 (a module none of whose layers has
 * rows of more than 1024 values): a row of 1025 values is refused with
 * AOT_KERNEL_BAD_PARAM and the output left untouched, and rows of 1..1024
 * values still give the TFLite reference result, computed here with a
 * multiplier of exactly one (2^30 with shift 1: the requantization is the
 * identity on the accumulator) so no project code serves as the reference.
 * Built and run by tests/integration/test_dsp_refuse.sh on a copy of
 * runtime/. */
#include <stdio.h>
#include <string.h>

#include "aot_conv.h"

static int passed, failed;
static int8_t in[2048], w[4 * 2048], out[64];
static int32_t bias[4];

static aot_fc_params shape(int32_t depth) {
  static const int32_t mult[1] = {1 << 30}, shift[1] = {1};
  aot_fc_params p;
  memset(&p, 0, sizeof p);
  p.batches = 1;
  p.in_depth = depth;
  p.out_depth = 4;
  p.input_offset = 1;
  p.output_offset = -3;
  p.act_min = -128;
  p.act_max = 127;
  p.out_mult = mult;
  p.out_shift = shift;
  return p;
}

int main(void) {
  static const int32_t depths[] = {1, 3, 4, 17, 64, 640, 1023, 1024};
  aot_fc_params p;
  int32_t rc, i, c, k;
  for (k = 0; k < (int32_t)sizeof in; k++) in[k] = (int8_t)((k * 7) % 3 - 1);   /* -1, 0, 1 */
  for (k = 0; k < (int32_t)sizeof w; k++) w[k] = (int8_t)((k * 5) % 3 - 1);
  for (c = 0; c < 4; c++) bias[c] = 10 * c - 15;
  p = shape(1025);
  memset(out, 0x5a, sizeof out);
  rc = aot_fc_s8(&p, in, w, bias, out);
  for (k = 0; k < (int32_t)sizeof out && out[k] == 0x5a; k++) {
  }
  if (rc == AOT_KERNEL_BAD_PARAM && k == (int32_t)sizeof out) passed++;
  else {
    printf("depth 1025: status %ld (want %d), output %s\n", (long)rc, AOT_KERNEL_BAD_PARAM,
           k == (int32_t)sizeof out ? "untouched" : "written");
    failed++;
  }
  for (i = 0; i < (int32_t)(sizeof depths / sizeof depths[0]); i++) {
    const int32_t d = depths[i];
    p = shape(d);
    rc = aot_fc_s8(&p, in, w, bias, out);
    for (c = 0; c < 4; c++) {
      int32_t acc = bias[c], want;
      for (k = 0; k < d; k++) acc += (int32_t)w[c * d + k] * ((int32_t)in[k] + 1);
      want = acc - 3;
      want = want < -128 ? -128 : want > 127 ? 127 : want;
      if (rc != AOT_KERNEL_OK || out[c] != want) {
        printf("depth %ld row %ld: status %ld, got %d want %ld\n", (long)d, (long)c, (long)rc,
               out[c], (long)want);
        failed++;
      } else {
        passed++;
      }
    }
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
