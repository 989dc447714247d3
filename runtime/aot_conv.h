/* aot_conv.h - convolution, fully connected, batch matmul and pooling kernels.
 *
 * Layouts (as in TFLite): activations NHWC; CONV_2D filter [O,H,W,I/groups];
 * DEPTHWISE_CONV_2D filter [1,H,W,O] (O = I * depth_multiplier);
 * TRANSPOSE_CONV filter [O,H,W,I]; FULLY_CONNECTED weights [O,I].
 *
 * Quantized arithmetic is that of the TFLite / TFLM reference kernels:
 *  - int8: acc(int32) = sum w * (x + input_offset) [+ bias]; out =
 *    aot_mbqm(acc, mult[c], shift[c]) + output_offset, clamped to
 *    [act_min, act_max]. input_offset = -input zero point.
 *  - int16x8: acc(int64) = sum w * x [+ bias(int64)]; out =
 *    aot_mbqm64(acc, mult[c], shift[c]) clamped (zero points are 0).
 * shift follows aot_mbqm: > 0 is a left shift (TFLite QuantizeMultiplier).
 * Every kernel returns AOT_KERNEL_OK or AOT_KERNEL_BAD_PARAM. */
#ifndef AOT_CONV_H
#define AOT_CONV_H

#include "aot_common.h"

/* ---- convolutions: CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV ---------- */
typedef struct aot_conv_params {
  int32_t batches;
  int32_t in_h, in_w, in_c;
  int32_t out_h, out_w, out_c;
  int32_t filter_h, filter_w;
  int32_t filter_in_c;        /* CONV_2D: in_c / groups; TRANSPOSE_CONV: in_c */
  int32_t stride_h, stride_w;
  int32_t dilation_h, dilation_w;   /* 1 for TRANSPOSE_CONV */
  int32_t pad_h, pad_w;       /* top / left padding */
  int32_t depth_multiplier;   /* DEPTHWISE_CONV_2D only */
  int32_t input_offset;       /* -input zero point (int8) */
  int32_t output_offset;      /* output zero point (int8) */
  int32_t act_min, act_max;   /* quantized activation range */
  float act_min_f, act_max_f; /* float activation range */
  const int32_t *out_mult;    /* out_c entries (quantized kernels) */
  const int32_t *out_shift;   /* out_c entries */
} aot_conv_params;

int32_t aot_conv2d_s8(const aot_conv_params *p, const int8_t *input,
                      const int8_t *filter, const int32_t *bias, int8_t *output);
int32_t aot_conv2d_s16(const aot_conv_params *p, const int16_t *input,
                       const int8_t *filter, const int64_t *bias, int16_t *output);
int32_t aot_conv2d_f32(const aot_conv_params *p, const float *input,
                       const float *filter, const float *bias, float *output);

int32_t aot_dwconv2d_s8(const aot_conv_params *p, const int8_t *input,
                        const int8_t *filter, const int32_t *bias, int8_t *output);
int32_t aot_dwconv2d_s16(const aot_conv_params *p, const int16_t *input,
                         const int8_t *filter, const int64_t *bias, int16_t *output);
int32_t aot_dwconv2d_f32(const aot_conv_params *p, const float *input,
                         const float *filter, const float *bias, float *output);

/* TRANSPOSE_CONV: computed as a gather over the input positions that reach
 * each output (same integer sums as the reference scatter, no scratch). */
int32_t aot_tconv2d_s8(const aot_conv_params *p, const int8_t *input,
                       const int8_t *filter, const int32_t *bias, int8_t *output);
int32_t aot_tconv2d_s16(const aot_conv_params *p, const int16_t *input,
                        const int8_t *filter, const int64_t *bias, int16_t *output);
int32_t aot_tconv2d_f32(const aot_conv_params *p, const float *input,
                        const float *filter, const float *bias, float *output);

/* ---- FULLY_CONNECTED ----------------------------------------------------- */
typedef struct aot_fc_params {
  int32_t batches;            /* rows of the flattened input */
  int32_t in_depth;           /* accumulation depth (weights dim 1) */
  int32_t out_depth;          /* output channels (weights dim 0) */
  int32_t input_offset;       /* -input zero point (int8) */
  int32_t output_offset;      /* output zero point (int8) */
  int32_t act_min, act_max;
  float act_min_f, act_max_f;
  int32_t per_channel;        /* 0: out_mult[0]/out_shift[0] for all rows */
  const int32_t *out_mult;
  const int32_t *out_shift;
} aot_fc_params;

int32_t aot_fc_s8(const aot_fc_params *p, const int8_t *input,
                  const int8_t *weights, const int32_t *bias, int8_t *output);
int32_t aot_fc_s16(const aot_fc_params *p, const int16_t *input,
                   const int8_t *weights, const int64_t *bias, int16_t *output);
int32_t aot_fc_f32(const aot_fc_params *p, const float *input,
                   const float *weights, const float *bias, float *output);

/* ---- BATCH_MATMUL -------------------------------------------------------- */
/* out[b][m][n] = sum_k lhs[b][m][k] * rhs[b][k][n]; adj_x / adj_y transpose
 * the last two dims of lhs / rhs. Batch dims (up to 5, padded on the left
 * with 1) broadcast: a batch stride of 0 repeats the operand. */
#define AOT_BMM_MAX_BATCH_DIMS 5
typedef struct aot_bmm_params {
  int32_t batch_dims[AOT_BMM_MAX_BATCH_DIMS];   /* output batch shape */
  int32_t lhs_bstride[AOT_BMM_MAX_BATCH_DIMS];  /* elements, 0 = broadcast */
  int32_t rhs_bstride[AOT_BMM_MAX_BATCH_DIMS];
  int32_t m, k, n;
  int32_t adj_x, adj_y;
  int32_t lhs_offset, rhs_offset;   /* -zero points (int8) */
  int32_t output_offset;
  int32_t out_mult, out_shift;
  int32_t act_min, act_max;
} aot_bmm_params;

int32_t aot_batch_matmul_f32(const aot_bmm_params *p, const float *lhs,
                             const float *rhs, float *output);
int32_t aot_batch_matmul_s8(const aot_bmm_params *p, const int8_t *lhs,
                            const int8_t *rhs, int8_t *output);
int32_t aot_batch_matmul_s16(const aot_bmm_params *p, const int16_t *lhs,
                             const int16_t *rhs, int16_t *output);

/* ---- AVERAGE_POOL_2D / MAX_POOL_2D --------------------------------------- */
typedef struct aot_pool_params {
  int32_t batches;
  int32_t in_h, in_w, channels;
  int32_t out_h, out_w;
  int32_t filter_h, filter_w;
  int32_t stride_h, stride_w;
  int32_t pad_h, pad_w;
  int32_t act_min, act_max;
  float act_min_f, act_max_f;
} aot_pool_params;

int32_t aot_avgpool_s8(const aot_pool_params *p, const int8_t *input, int8_t *output);
int32_t aot_avgpool_s16(const aot_pool_params *p, const int16_t *input, int16_t *output);
int32_t aot_avgpool_f32(const aot_pool_params *p, const float *input, float *output);
int32_t aot_maxpool_s8(const aot_pool_params *p, const int8_t *input, int8_t *output);
int32_t aot_maxpool_s16(const aot_pool_params *p, const int16_t *input, int16_t *output);
int32_t aot_maxpool_f32(const aot_pool_params *p, const float *input, float *output);

/* ---- helpers ------------------------------------------------------------- */
/* aot_mbqm for a non-negative multiplier (always the case for requantization
 * multipliers): bit-identical result, cheaper rounding. The doubling high
 * multiply with its sign-dependent nudge and truncating division equals
 * floor((x * m + 2^30) / 2^31) for every sign of x * m; the rounding right
 * shift rounds half away from zero as aot_rdbpot. */
AOT_INLINE int32_t aot_conv_mbqm(int32_t x, int32_t m, int32_t shift) {
  const int32_t left = shift > 0 ? shift : 0;
  const int32_t right = shift > 0 ? 0 : -shift;
  const int64_t ab = (int64_t)aot_shl_i32(x, left) * m;
  int32_t r = (int32_t)((ab + ((int64_t)1 << 30)) >> 31);
  if (right > 0) {
    const int32_t mask = (int32_t)(((uint32_t)1 << right) - 1u);
    const int32_t rem = r & mask;
    const int32_t thr = (mask >> 1) + (r < 0 ? 1 : 0);
    r = (r >> right) + (rem > thr ? 1 : 0);
  }
  return r;
}

/* Range [*start, *end) of filter taps k (0 <= k < fsize) whose input
 * coordinate origin + k * dil lies in [0, in_size). Empty: *start >= *end. */
AOT_INLINE void aot_conv_window(int32_t origin, int32_t dil, int32_t in_size,
                                int32_t fsize, int32_t *start, int32_t *end) {
  int32_t s = 0, e;
  if (dil == 1) {
    if (origin < 0) s = -origin;
    e = in_size - origin;
  } else {
    if (origin < 0) s = (-origin + dil - 1) / dil;
    e = in_size - origin <= 0 ? 0 : (in_size - origin + dil - 1) / dil;
  }
  if (e > fsize) e = fsize;
  *start = s;
  *end = e;
}

#endif
