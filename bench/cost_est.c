/* cost_est.c - host side of bench/cost_calib.sh: reads the calibration
 * firmware's cases with their counted instructions ("dw ih iw ic oh ow oc
 * fh fw stride pad variant count" per line), prints each with the
 * compiler's estimate (cost_dsp_conv_s8, src/ops/cost_dsp.c) and its error,
 * then per kernel the mean and largest error and how often the estimate
 * and the count agree on which of a layer's two paths is faster. */
#include <stdio.h>
#include <stdlib.h>

#include "aot_conv.h"
#include "ops/ops.h"

int main(void) {
  long v[13];
  double err_sum[2] = {0, 0}, err_max[2] = {0, 0};
  int n[2] = {0, 0}, pairs[2] = {0, 0}, agree[2] = {0, 0};
  long last_count = 0, last_est = 0;
  int have_rule = 0;
  printf("%-3s %-28s %-4s %10s %10s %7s\n", "op", "layer", "path", "counted", "estimate", "error");
  while (scanf("%ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld", &v[0], &v[1], &v[2], &v[3],
               &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10], &v[11], &v[12]) == 13) {
    aot_conv_params p = {0};
    const int dw = (int)v[0];
    p.batches = 1;
    p.in_h = (int32_t)v[1];
    p.in_w = (int32_t)v[2];
    p.in_c = (int32_t)v[3];
    p.out_h = (int32_t)v[4];
    p.out_w = (int32_t)v[5];
    p.out_c = (int32_t)v[6];
    p.filter_h = (int32_t)v[7];
    p.filter_w = (int32_t)v[8];
    p.filter_in_c = dw ? 1 : p.in_c;
    p.stride_h = p.stride_w = (int32_t)v[9];
    p.dilation_h = p.dilation_w = 1;
    p.pad_h = v[10] ? (p.filter_h - 1) / 2 : 0;
    p.pad_w = v[10] ? (p.filter_w - 1) / 2 : 0;
    p.depth_multiplier = 1;
    p.act_min = -128;
    p.act_max = 127;
    p.dsp_variant = v[11] ? (dw ? AOT_DSP_VAR_GEN : AOT_DSP_VAR_G4) : 0;
    const long est = (long)cost_dsp_conv_s8(dw, &p);
    const double e = 100.0 * (double)(est - v[12]) / (double)v[12];
    char layer[64];
    snprintf(layer, sizeof layer, "%ldx%ldx%ld->%ldx%ldx%ld f%ldx%ld s%ld", v[1], v[2], v[3], v[4],
             v[5], v[6], v[7], v[8], v[9]);
    printf("%-3s %-28s %-4s %10ld %10ld %6.1f%%\n", dw ? "dw" : "cv", layer,
           v[11] ? (dw ? "gen" : "g4") : "rule", v[12], est, e);
    err_sum[dw] += e < 0 ? -e : e;
    if ((e < 0 ? -e : e) > err_max[dw]) err_max[dw] = e < 0 ? -e : e;
    n[dw]++;
    if (v[11] == 0) {
      have_rule = 1;
      last_count = v[12];
      last_est = est;
    } else if (have_rule) {
      pairs[dw]++;
      agree[dw] += (v[12] < last_count) == (est < last_est);
      have_rule = 0;
    }
  }
  for (int k = 0; k < 2; k++)
    if (n[k])
      printf("%s: %d calls, mean |error| %.1f%%, largest %.1f%%; faster path agreed on %d of %d "
             "layers\n",
             k ? "DEPTHWISE_CONV_2D" : "CONV_2D", n[k], err_sum[k] / n[k], err_max[k], agree[k],
             pairs[k]);
  return 0;
}
