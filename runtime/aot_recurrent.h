/* aot_recurrent.h - recurrent kernels: SVDF, unidirectional sequence LSTM, GRU.
 *
 * All kernels keep their recurrent state in caller-owned persistent buffers
 * (the model's variable tensors) and update them in place, so calling a
 * kernel again continues the sequence. Integer kernels reproduce the TFLite
 * Micro reference kernels bit for bit. */
#ifndef AOT_RECURRENT_H
#define AOT_RECURRENT_H

#include "aot_common.h"
#include "aot_f16.h"

/* Activation codes used by float recurrent kernels (values of the .tflite
 * ActivationFunctionType enum, plus SIGMOID as TFLite's kTfLiteActSigmoid). */
#define AOT_ACT_NONE 0
#define AOT_ACT_RELU 1
#define AOT_ACT_RELU_N1_TO_1 2
#define AOT_ACT_RELU6 3
#define AOT_ACT_TANH 4
#define AOT_ACT_SIGMOID 6

/* ---- packed int8 matrices (SVDF and LSTM fast kernels) ------------------ */
AOT_INLINE int32_t aot_lstm_pad4(int32_t n) { return (n + 3) & ~3; }

/* Byte offset of element (r, k) in a packed matrix of ncols columns
 * (4 * state_size rows, a multiple of 4): block r / 4 starts at
 * (r / 4) * 4 * K4 (K4 = aot_lstm_pad4(ncols)); in it the full 16-column
 * chunks (k < K16 = ncols rounded down to 16) hold 16 bytes of each of the
 * four rows in turn, (k / 16) * 64 + (r % 4) * 16 + k % 16, and the tail
 * columns follow row by row, 4 * K16 + (r % 4) * (K4 - K16) + k - K16;
 * the columns ncols <= k < K4 are zero. */
AOT_INLINE size_t aot_lstm_s8p_index(int32_t r, int32_t k, int32_t ncols) {
  const int32_t k4 = aot_lstm_pad4(ncols), k16 = ncols & ~15;
  const size_t base = (size_t)(r / 4) * 4u * (size_t)k4;
  if (k < k16) return base + (size_t)(k / 16) * 64u + (size_t)(r % 4) * 16u + (size_t)(k % 16);
  return base + 4u * (size_t)k16 + (size_t)(r % 4) * (size_t)(k4 - k16) + (size_t)(k - k16);
}

/* ---- SVDF ----------------------------------------------------------------
 * input [batch, input_size], weights_feature [num_filters, input_size],
 * weights_time [num_filters, memory_size], bias [num_units] (optional),
 * state [batch, memory_size * num_filters] (variable, updated in place),
 * output [batch, num_units]; num_filters = num_units * rank.
 *
 * Each call shifts every filter's state row left by one time step, writes
 * the new feature projection into the last column, then reduces the state
 * with weights_time and sums groups of `rank` filters into each unit. */
typedef struct aot_svdf_params {
  int32_t batch;
  int32_t input_size;
  int32_t num_filters;
  int32_t num_units;
  int32_t rank;
  int32_t memory_size;
  /* integer kernels */
  int32_t input_zp;       /* input zero point */
  int32_t state_zp;       /* activation state zero point */
  int32_t output_zp;
  int32_t mult1, shift1;  /* input*weights_feature -> state scale */
  int32_t mult2, shift2;  /* state*weights_time -> output scale */
  /* float kernel */
  int32_t activation;     /* AOT_ACT_* (integer kernels apply none, as TFLM) */
} aot_svdf_params;

/* int8 input/weights_feature/output, int16 weights_time and state. */
int32_t aot_svdf_s8_s16(const aot_svdf_params *p, const int8_t *input,
                        const int8_t *weights_feature, const int16_t *weights_time,
                        const int32_t *bias, int16_t *state, int8_t *output,
                        int32_t *scratch);
/* int8 everything (int8 weights_time and state with a state zero point). */
int32_t aot_svdf_s8_s8(const aot_svdf_params *p, const int8_t *input,
                       const int8_t *weights_feature, const int8_t *weights_time,
                       const int32_t *bias, int8_t *state, int8_t *output,
                       int32_t *scratch);
/* Scratch bytes of both integer SVDF kernels. */
AOT_INLINE size_t aot_svdf_s8_buffer_size(int32_t batch, int32_t num_filters,
                                          int32_t num_units) {
  return (size_t)batch * (size_t)(num_filters + num_units) * sizeof(int32_t);
}

/* Packed integer SVDF (the compiler's form of aot_svdf_s8_s8 / _s8_s16, the
 * same outputs and state): weights_feature packed in blocks of four filters
 * as aot_lstm_s8p_index lays out a matrix of input_size columns
 * (pad4(num_filters) rows, padding rows zero), feat_bias[f] =
 * -input_zp * sum_k wf[f][k] and bias_eff[u] = bias[u] - state_zp *
 * sum over the unit's rank filters and memory of weights_time (both wrapped
 * to int32), so both reductions are plain dot products
 * (aot_svdf_s8p_pack). weights_time and the state keep their layout. */
int32_t aot_svdf_s8p_s8(const aot_svdf_params *p, const int8_t *input, const int8_t *wf_packed,
                        const int32_t *feat_bias, const int8_t *weights_time,
                        const int32_t *bias_eff, int8_t *state, int8_t *output, void *scratch);
int32_t aot_svdf_s8p_s16(const aot_svdf_params *p, const int8_t *input, const int8_t *wf_packed,
                         const int32_t *feat_bias, const int16_t *weights_time,
                         const int32_t *bias_eff, int16_t *state, int8_t *output,
                         void *scratch);
/* Scratch bytes of the packed SVDF kernels: the feature products of
 * pad4(num_filters) filters and a zero-padded input row. */
AOT_INLINE size_t aot_svdf_s8p_buffer_size(int32_t input_size, int32_t num_filters) {
  return (size_t)((num_filters + 3) & ~3) * sizeof(int32_t) + (size_t)((input_size + 3) & ~3);
}
/* Packs weights_feature into wf_packed (pad4(nf) * pad4(ni) bytes) and
 * feat_bias (pad4(nf) values); bias_eff [num_units] from bias (or NULL) and
 * the per-filter sums wt_sum[f] = sum_t weights_time[f][t]. */
AOT_INLINE void aot_svdf_s8p_pack(const aot_svdf_params *p, const int8_t *wf,
                                  const int64_t *wt_sum, const int32_t *bias,
                                  int8_t *wf_packed, int32_t *feat_bias, int32_t *bias_eff) {
  const int32_t nf = p->num_filters, ni = p->input_size, nf4 = (nf + 3) & ~3;
  int32_t f, k, u, r;
  for (f = 0; f < nf4; f++) {
    int64_t sum = 0;
    for (k = 0; k < ((ni + 3) & ~3); k++) {
      const int8_t v = f < nf && k < ni ? wf[(size_t)f * ni + k] : 0;
      wf_packed[aot_lstm_s8p_index(f, k, ni)] = v;
      sum += v;
    }
    feat_bias[f] = (int32_t)(uint32_t)(uint64_t)(-(int64_t)p->input_zp * sum);
  }
  for (u = 0; u < p->num_units; u++) {
    int64_t v = bias ? bias[u] : 0;
    for (r = 0; r < p->rank; r++) v -= (int64_t)p->state_zp * wt_sum[(size_t)u * p->rank + r];
    bias_eff[u] = (int32_t)(uint32_t)(uint64_t)v;
  }
}

int32_t aot_svdf_f32(const aot_svdf_params *p, const float *input,
                     const float *weights_feature, const float *weights_time,
                     const float *bias, float *state, float *output, float *scratch);
AOT_INLINE size_t aot_svdf_f32_buffer_size(int32_t batch, int32_t num_filters) {
  return (size_t)batch * (size_t)num_filters * sizeof(float);
}

/* ---- UNIDIRECTIONAL_SEQUENCE_LSTM ---------------------------------------
 * input [batch, time, input_size] (or [time, batch, input_size] when
 * time_major), output [batch, time, state_size] (same major order), hidden
 * (output) state [batch, output_size] and cell state [batch, state_size],
 * both variable tensors updated in place. Gate order everywhere: input,
 * forget, cell, output (AOT_LSTM_I/F/C/O). Input weights are
 * [state_size, input_size], recurrent weights [state_size, output_size].
 *
 * Like TFLM, a time-major sequence is processed for all batches at once per
 * step; a batch-major sequence runs each batch's whole sequence in turn. */
#define AOT_LSTM_I 0
#define AOT_LSTM_F 1
#define AOT_LSTM_C 2
#define AOT_LSTM_O 3

/* Float LSTM (TFLite float kernel, with optional CIFG (no input gate),
 * peephole, layer normalization and projection). */
typedef struct aot_lstm_f32_params {
  int32_t batch, time_steps, input_size, state_size;
  int32_t output_size;    /* projection output size, = state_size without projection */
  int32_t time_major;
  int32_t cell_act;       /* activation of the cell gate and of the cell state in
                             the output: AOT_ACT_TANH, AOT_ACT_SIGMOID, AOT_ACT_RELU,
                             AOT_ACT_RELU6, AOT_ACT_RELU_N1_TO_1 or AOT_ACT_NONE */
  float cell_clip;        /* 0: none */
  float proj_clip;        /* 0: none */
} aot_lstm_f32_params;

typedef struct aot_lstm_f32_tensors {
  const float *input;
  const float *w_in[4];   /* input weights; w_in[I] NULL for CIFG */
  const float *w_rec[4];  /* recurrent weights; w_rec[I] NULL for CIFG */
  const float *w_peep[4]; /* peephole weights [state_size] or NULL (w_peep[C] unused) */
  const float *bias[4];   /* gate biases; bias[I] NULL for CIFG */
  const float *ln[4];     /* layer norm coefficients or all NULL */
  const float *w_proj;    /* [output_size, state_size] or NULL */
  const float *b_proj;    /* [output_size] or NULL */
  float *hidden;          /* output state, variable */
  float *cell;            /* cell state, variable */
  float *output;
} aot_lstm_f32_tensors;

int32_t aot_lstm_f32(const aot_lstm_f32_params *p, const aot_lstm_f32_tensors *t,
                     float *scratch);
/* Scratch: four gate buffers, one spare buffer and the projection input. */
AOT_INLINE size_t aot_lstm_f32_buffer_size(int32_t batch, int32_t state_size,
                                           int32_t output_size) {
  (void)output_size;
  return (size_t)batch * (size_t)state_size * 5u * sizeof(float);
}

/* Integer LSTM as TFLM's "8x8_16" kernel: int8 activations and hidden state,
 * int8 weights, int32 biases, int16 cell state with a power-of-two scale.
 * Each gate runs two fully connected layers (input and recurrent) to int16
 * Q3.12, adds them with saturation and applies the int16 sigmoid/tanh
 * (Q0.15 outputs). */
typedef struct aot_lstm_gate_q {
  int32_t in_mult, in_shift;    /* input_scale * w_in_scale / 2^-12 */
  int32_t rec_mult, rec_shift;  /* hidden_scale * w_rec_scale / 2^-12 */
} aot_lstm_gate_q;

typedef struct aot_lstm_q_params {
  int32_t batch, time_steps, input_size, state_size;
  int32_t time_major;
  int32_t input_zp;             /* input zero point */
  int32_t hidden_zp;            /* output state zero point */
  int32_t cell_act;             /* cell gate: AOT_ACT_TANH or AOT_ACT_SIGMOID */
  aot_lstm_gate_q gate[4];
  int32_t fc_mult, fc_shift;    /* forget (Q0.15) x cell -> cell */
  int32_t ig_mult, ig_shift;    /* input gate x cell gate (Q0.15 x Q0.15) -> cell */
  int32_t hid_mult, hid_shift;  /* tanh(cell) x output gate -> hidden */
  int32_t cell_scale_power;     /* cell scale = 2^cell_scale_power */
  int32_t cell_clip;            /* quantized cell clip, 0: none */
} aot_lstm_q_params;

typedef struct aot_lstm_s8_tensors {
  const int8_t *input;
  const int8_t *w_in[4];
  const int8_t *w_rec[4];
  const int32_t *bias[4];
  int8_t *hidden;
  int16_t *cell;
  int8_t *output;
} aot_lstm_s8_tensors;

int32_t aot_lstm_s8(const aot_lstm_q_params *p, const aot_lstm_s8_tensors *t,
                    int16_t *scratch);
/* int16 activations, int8 weights, int64 biases, int16 cell (TFLM 16x8). */
typedef struct aot_lstm_s16_tensors {
  const int16_t *input;
  const int8_t *w_in[4];
  const int8_t *w_rec[4];
  const int64_t *bias[4];
  int16_t *hidden;
  int16_t *cell;
  int16_t *output;
} aot_lstm_s16_tensors;

int32_t aot_lstm_s16(const aot_lstm_q_params *p, const aot_lstm_s16_tensors *t,
                     int16_t *scratch);
/* Scratch bytes of aot_lstm_s8 / aot_lstm_s16 (four int16 buffers, as TFLM). */
AOT_INLINE size_t aot_lstm_q_buffer_size(int32_t batch, int32_t state_size) {
  return (size_t)batch * (size_t)state_size * 4u * sizeof(int16_t);
}

/* Packed int8 LSTM (the compiler's form of aot_lstm_s8, same arithmetic and
 * the same outputs): the four gates' weights stacked gate-major (row
 * r = g * state_size + j, gates I, F, C, O) and interleaved in blocks of four
 * rows in the order the SIMD loops load them (aot_lstm_s8p_index), and the
 * zero points folded into the biases at compile time:
 * b_in[r] = bias_g[j] - input_zp * sum_k w_in_g[j][k],
 * b_rec[r] = -hidden_zp * sum_k w_rec_g[j][k] (wrapped to int32, as int32
 * sums are modular), so the matrix products are plain int8 x int8 sums.
 * Each step computes all gate rows of one batch row in one pass over the
 * input and the hidden state (Arm DSP: SMLAD on four rows at a time; Helium:
 * VMLADAVA), then one fused loop does sigmoid/tanh, the cell update and the
 * hidden state. aot_lstm_s8p_pack_gate builds the packed tensors. */
typedef struct aot_lstm_s8p_tensors {
  const int8_t *input;
  const int8_t *w_in;    /* [4 * state_size][aot_lstm_pad4(input_size)] */
  const int8_t *w_rec;   /* [4 * state_size][aot_lstm_pad4(state_size)] */
  const int32_t *b_in;   /* [4 * state_size] */
  const int32_t *b_rec;  /* [4 * state_size] */
  int8_t *hidden;
  int16_t *cell;
  int8_t *output;
} aot_lstm_s8p_tensors;

int32_t aot_lstm_s8p(const aot_lstm_q_params *p, const aot_lstm_s8p_tensors *t, void *scratch);

/* Packed int16 LSTM (aot_lstm_s16 on the same packed weights; zero points
 * are 0): bias [4 * state_size] int64, gate-major (NULL gate biases as 0). */
typedef struct aot_lstm_s16p_tensors {
  const int16_t *input;
  const int8_t *w_in;    /* as aot_lstm_s8p_tensors */
  const int8_t *w_rec;
  const int64_t *bias;
  int16_t *hidden;
  int16_t *cell;
  int16_t *output;
} aot_lstm_s16p_tensors;

int32_t aot_lstm_s16p(const aot_lstm_q_params *p, const aot_lstm_s16p_tensors *t,
                      void *scratch);
/* Scratch bytes of aot_lstm_s16p: as aot_lstm_s8p with int16 input and
 * hidden copies. */
AOT_INLINE size_t aot_lstm_s16p_buffer_size(int32_t input_size, int32_t state_size) {
  return (size_t)state_size * 8u * sizeof(int32_t) +
         ((size_t)aot_lstm_pad4(input_size) + (size_t)aot_lstm_pad4(state_size)) * 2u;
}
/* Scratch bytes of aot_lstm_s8p: the int32 input and recurrent products of
 * the 4 * state_size gate rows of one batch row and zero-padded int8 copies
 * of its input and hidden state. */
AOT_INLINE size_t aot_lstm_s8p_buffer_size(int32_t input_size, int32_t state_size) {
  return (size_t)state_size * 8u * sizeof(int32_t) + (size_t)aot_lstm_pad4(input_size) +
         (size_t)aot_lstm_pad4(state_size);
}

/* Packs one gate's weights (w [ns][ncols], bias [ns] or NULL) into rows
 * g * ns .. of wp (4 * ns * aot_lstm_pad4(ncols) bytes) and bp:
 * bp = bias - zp * row sum. */
AOT_INLINE void aot_lstm_s8p_pack_gate(int32_t g, int32_t ns, int32_t ncols, int32_t zp,
                                       const int8_t *w, const int32_t *bias, int8_t *wp,
                                       int32_t *bp) {
  const int32_t k4 = aot_lstm_pad4(ncols);
  int32_t j, k;
  for (j = 0; j < ns; j++) {
    const int32_t r = g * ns + j;
    int64_t sum = 0;
    for (k = 0; k < k4; k++) {
      const int8_t v = k < ncols ? w[(size_t)j * ncols + k] : 0;
      wp[aot_lstm_s8p_index(r, k, ncols)] = v;
      sum += v;
    }
    sum = (bias ? (int64_t)bias[j] : 0) - (int64_t)zp * sum;
    bp[r] = (int32_t)(uint32_t)(uint64_t)sum;
  }
}

/* ---- GRU (custom operator "GRU") -----------------------------------------
 * Keras GRU over a sequence: x [1, time, features], h0 [1, units],
 * W [3*units, features], U [3*units, units], bias_x [3*units],
 * bias_h [3*units] (either bias may be absent), gate order z, r, n (the
 * operator's tensors; the kernels take them packed, see below).
 *   z = g(x.Wz + bz + h.Uz + cz), r = g(x.Wr + br + h.Ur + cr)
 *   reset_after=1: n = a(x.Wn + bn + r * (h.Un + cn))
 *   reset_after=0: n = a(x.Wn + bn + (r * h).Un + cn)
 *   h' = z * h + (1 - z) * n
 * with g the gate activation and a the candidate activation. Outputs: the
 * sequence [1, time, units] (or only the last step [1, 1, units] when
 * return_sequences is 0) and the final state [1, units].
 *
 * The operator's custom_options are this fixed little-endian struct
 * (AOT_GRU_OPTIONS_SIZE = 24 bytes, six int32 words):
 *   word 0  units              (must equal the h0 / W shapes)
 *   word 1  reset_after        0 or 1
 *   word 2  gate activation    AOT_GRU_SIGMOID (0) or AOT_GRU_HARD_SIGMOID (1:
 *                              clamp(0.2 x + 0.5, 0, 1))
 *   word 3  candidate act.     AOT_GRU_TANH (0) or AOT_GRU_LINEAR (1)
 *   word 4  go_backwards       0 or 1 (process time steps last to first; the
 *                              output sequence is in processing order, as Keras)
 *   word 5  return_sequences   0 or 1
 */
#define AOT_GRU_OPTIONS_SIZE 24
#define AOT_GRU_SIGMOID 0
#define AOT_GRU_HARD_SIGMOID 1
#define AOT_GRU_TANH 0
#define AOT_GRU_LINEAR 1

typedef struct aot_gru_params {
  int32_t time_steps, features, units;
  int32_t reset_after;
  int32_t gate_act;       /* AOT_GRU_SIGMOID / AOT_GRU_HARD_SIGMOID */
  int32_t cand_act;       /* AOT_GRU_TANH / AOT_GRU_LINEAR */
  int32_t go_backwards;
  int32_t return_sequences;
  int32_t proj_steps;     /* time steps whose input projection x.W + bias_x is
                             computed at once (scratch holds proj_steps rows
                             of it); 0 or >= time_steps: all */
} aot_gru_params;

/* Packed weights. The kernels compute x.W for all time steps (of a block of
 * proj_steps) as one matrix product, then per step h.U, both over 8-row
 * blocks whose columns are stored contiguously (the order the loops read
 * them). With Up = aot_gru_padded_units(units) (units rounded up to 8), gate
 * g (z, r, n = 0, 1, 2) unit j is packed row R = g * Up + j; rows j >= units
 * are zero. A matrix with K columns (K = features for W, units for U) has
 * 3 * Up packed rows:
 *  - float32: element (R, k) at aot_gru_pack_index(R, k, K)
 *    = (R / 8) * 8K + 8k + R % 8;
 *  - binary16: 32-bit words, two values per word; column k of block R / 8 is
 *    the four words (R / 8) * 4K + 4k + i, i < 4, word i holding rows i (low
 *    16 bits) and i + 4 (high 16 bits) of the block. As a little-endian
 *    uint16_t array: element (R, k) at aot_gru_pack16_index(R, k, K).
 * Biases (optional) have 3 * Up packed rows: float32 at index R, binary16
 * (uint16_t) at aot_gru_pack16_index(R, 0, 1). The compiler (op GRU) packs
 * the W [3U, F], U [3U, U], bias [3U] tensors of the operator this way. */
#define AOT_GRU_BLOCK 8
AOT_INLINE int32_t aot_gru_padded_units(int32_t units) {
  return (units + AOT_GRU_BLOCK - 1) / AOT_GRU_BLOCK * AOT_GRU_BLOCK;
}
AOT_INLINE size_t aot_gru_pack_index(int32_t row, int32_t col, int32_t cols) {
  return (size_t)(row / 8) * 8u * (size_t)cols + 8u * (size_t)col + (size_t)(row % 8);
}
AOT_INLINE size_t aot_gru_pack16_index(int32_t row, int32_t col, int32_t cols) {
  return (size_t)(row / 8) * 8u * (size_t)cols + 8u * (size_t)col + 2u * (size_t)(row % 4) +
         (size_t)((row % 8) / 4);
}

/* float32 everything. h0 may alias h_out. */
int32_t aot_gru_f32(const aot_gru_params *p, const float *x, const float *h0,
                    const float *w, const float *u, const float *bias_x,
                    const float *bias_h, float *seq_out, float *h_out,
                    float *scratch);
/* float32 activations, IEEE binary16 weights and biases (decoded exactly). */
int32_t aot_gru_f32_f16w(const aot_gru_params *p, const float *x, const float *h0,
                         const uint32_t *w, const uint32_t *u, const uint16_t *bias_x,
                         const uint16_t *bias_h, float *seq_out, float *h_out,
                         float *scratch);
/* binary16 activations, weights and biases. Where the compiler offers FP16
 * vector arithmetic (Helium: __ARM_FEATURE_MVE & 2, as arm-none-eabi-gcc
 * -mcpu=cortex-m55 defines) the matrix products multiply and accumulate in
 * binary16; elsewhere in float32 (the same bits on every such target). The
 * gate nonlinearities run in float32. The state is rounded to binary16 after
 * every step (it is stored as binary16 in the outputs). */
int32_t aot_gru_f16(const aot_gru_params *p, const uint16_t *x, const uint16_t *h0,
                    const uint32_t *w, const uint32_t *u, const uint16_t *bias_x,
                    const uint16_t *bias_h, uint16_t *seq_out, uint16_t *h_out,
                    float *scratch);

/* float32 activations, int8 weights ("hybrid" / dynamic-range quantization,
 * as the LiteRT runtime runs each FULLY_CONNECTED of a converted Keras cell):
 * w [3 Up][features] and u [3 Up][units] int8, row R = g * Up + j (rows
 * j >= units zero), w_scale / u_scale [3 Up] the rows' float scales,
 * float32 biases [3 Up] (or NULL). Per step the input row x_t, the state h
 * (and, reset_after = 0, r * h) are each quantized with
 * aot_hybrid_quantize_qd8 (aot_conv.h, XNNPACK qd8, as aot_fc_hybrid) and
 * every row is ((float)acc * input_scale) * row_scale + bias with
 * acc = sum w * (q - zp) in int32. The gates are those of aot_gru_f32. */
int32_t aot_gru_f32_s8w(const aot_gru_params *p, const float *x, const float *h0,
                        const int8_t *w, const float *w_scale, const int8_t *u,
                        const float *u_scale, const float *bias_x, const float *bias_h,
                        float *seq_out, float *h_out, float *scratch);

/* Scratch bytes (float aligned) of each kernel: the projection of proj_steps
 * time steps (3 Up floats each), the recurrent products and the state; the
 * binary16 kernels add the decoded biases, two decoded input rows and the
 * binary16 state. */
#define AOT_GRU_KIND_F32 0
#define AOT_GRU_KIND_F32_F16W 1
#define AOT_GRU_KIND_F16 2
#define AOT_GRU_KIND_F32_S8W 3 /* gx, gh [3Up], h, rh [Up], row sums [2][3Up], int8 row */
AOT_INLINE int32_t aot_gru_proj_block(const aot_gru_params *p) {
  return p->proj_steps > 0 && p->proj_steps < p->time_steps ? p->proj_steps : p->time_steps;
}
AOT_INLINE size_t aot_gru_buffer_size(const aot_gru_params *p, int32_t kind) {
  size_t up = (size_t)aot_gru_padded_units(p->units);
  size_t n = (size_t)aot_gru_proj_block(p) * 3u * up + 5u * up;
  if (kind == AOT_GRU_KIND_F32_S8W) {
    size_t q = (size_t)(p->features > p->units ? p->features : p->units);
    return (14u * up + (q + 3u) / 4u) * sizeof(float);
  }
  if (kind != AOT_GRU_KIND_F32) n += 6u * up;
  if (kind == AOT_GRU_KIND_F16) n += 2u * (size_t)p->features + up;
  return n * sizeof(float);
}

/* aot_f16_to_f32 / aot_f32_to_f16 (IEEE binary16 conversions): aot_f16.h */

#endif
