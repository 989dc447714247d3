/* cost_dsp.c - the counted-cost model of the Cortex-M4 DSP convolution
 * paths: an estimate of the instructions one call of the int8 CONV_2D or
 * DEPTHWISE_CONV_2D kernel executes on a layer, on the path its
 * dsp_variant selects (the rule's: gathered windows through the pointwise
 * kernel, the 3x3 depthwise path; or the other: the four-position path,
 * the tap-pair loop). Each estimate is a sum of terms of the layer's shape
 * that follow the kernel's loop structure (blocks of six or four output
 * positions, groups of four taps, blocks of 64 channels or of 32 depthwise
 * channels, rows of four outputs), weighted by coefficients fitted to
 * instruction counts under QEMU over a grid of 2,630 calls (least squares,
 * each count weighted by its inverse square root). bench/cost_calib.sh
 * prints every estimate against its count: mean error 5.3% (CONV_2D) and
 * 4.1% (depthwise), up to 73% on the smallest layers, and the faster path
 * picked on 1,233 of 1,315 layers. The kernel choice pass
 * (passes/kernel_choice.c) compares the two estimates of a layer. The
 * coefficients are hundredths of an instruction; when a kernel's loops
 * change, refit them (bench/cost_fit.py, on cost_calib.sh's counts). */
#include <stdint.h>

#include "aot_conv.h"
#include "ops.h"

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* sum of c[i] * t[i] / 100 */
static int64_t dot(const int32_t *c, const int64_t *t, int n) {
  int64_t s = 0;
  for (int i = 0; i < n; i++) s += (int64_t)c[i] * t[i];
  return s / 100;
}

int64_t cost_dsp_conv_s8(int dw, const aot_conv_params *p) {
  const int64_t P = (int64_t)p->batches * p->out_h * p->out_w, oc = p->out_c;
  const int64_t K = (int64_t)p->filter_h * p->filter_w * (dw ? 1 : p->filter_in_c);
  const int64_t ng = cdiv(K, 4), macs = P * oc * K;
  int64_t est;
  if (!dw && p->dsp_variant != AOT_DSP_VAR_G4) {
    /* gathered windows, six positions x channel pairs (aot_conv_pw_dsp.h) */
    static const int32_t c[] = {2198, 12638, 5060, 17623, -76, 10848, 16744, -2873, 108};
    const int64_t t[] = {cdiv(P, 6) * oc * ng, P * ng, cdiv(P, 6) * oc, P, oc * ng, oc, 1,
                         P * K, P * oc};
    est = dot(c, t, 9);
  } else if (!dw) {
    /* four positions at a time (aot_dsp_conv4.h) */
    static const int32_t c[] = {1401, 15485, 9306, 30247, -67, 3457, -29315, -620, -555};
    const int64_t nb = cdiv(oc, 64);   /* blocks of 64 channels, each its own im2col */
    const int64_t t[] = {cdiv(P, 4) * oc * ng, cdiv(P, 4) * ng * nb, cdiv(P, 4) * oc, P * nb,
                         oc * ng, oc, 1, P * K * nb, P * oc};
    est = dot(c, t, 9);
  } else if (p->dsp_variant != AOT_DSP_VAR_GEN) {
    /* the 3x3 path: rows of four, two and one outputs per channel (aot_dw3_row) */
    const int tr = aot_dwconv2d_s8_dsp_tr(p);
    const int64_t rows = tr ? p->out_w : p->out_h, cols = tr ? p->out_h : p->out_w;
    static const int32_t c[] = {7072, 3293, 3065, 5290, 17502, 45551, 236};
    const int64_t t[] = {oc * rows * (cols / 4), oc * rows * (cols % 4 / 2), oc * rows * (cols % 2),
                         oc * rows, oc, 1, (int64_t)p->in_h * p->in_w * oc};
    est = dot(c, t, 7);
  } else {
    /* the tap-pair loop, blocks of up to 32 channels (aot_dw_s8_dsp_dm1) */
    static const int32_t c[] = {3647, 13963, 617, 8828, 19121, -20, 86561};
    const int64_t t[] = {oc * P, cdiv(oc, 32) * P, oc * p->out_h, oc, 1,
                         (int64_t)p->in_h * p->in_w * oc, cdiv(oc, 32)};
    est = dot(c, t, 7);
  }
  /* never below the DSP floor of two MACs per instruction */
  return est > macs / 2 ? est : macs / 2;
}

/* The few-channel path (aot_conv_first.h): per output position and block
 * of eight channels the assembly loop (13.5 instructions per pair of taps,
 * 82 for the requantization and the loop), per output row and block the
 * call, and the columns of interleaved rows (each input row once: the
 * ring); four values into two words, or (odd left padding, shifted copies)
 * every value widened then spread, about 36 per pair. The constants are
 * computed at compile time. Fitted by hand to the counts of VWW,
 * person_detect and ResNet-8's first layers (within 1%). */
int64_t cost_dsp_first_s8(const aot_conv_params *p) {
  aot_conv2d_s8_first_lay L;
  aot_conv2d_s8_first_layout(p, &L);
  const int64_t P = (int64_t)p->batches * p->out_h * p->out_w, nb = L.oc8 / 8;
  const int64_t cols = (int64_t)p->batches * (p->in_h + p->filter_h);
  return P * nb * (27 * L.L + 164) / 2 + (int64_t)p->batches * p->out_h * nb * 45 +
         cols * (L.spread ? 36 * (int64_t)L.q + 100 : (58 * (int64_t)L.q + 300) / 10) + 2000;
}
