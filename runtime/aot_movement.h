/* aot_movement.h - data movement and reduction kernels.
 *
 * Most movement operators (RESHAPE, CONCATENATION, PAD, STRIDED_SLICE, SLICE,
 * TRANSPOSE, SPLIT, PACK, UNPACK, REVERSE_V2, TILE, BROADCAST_TO,
 * DEPTH_TO_SPACE, SPACE_TO_DEPTH, ...) are dtype-agnostic: aotc resolves them
 * at compile time into one or more aot_copy_nd() / aot_fill() calls over
 * elements of 1, 2, 4 or 8 bytes. Offsets and strides are in elements.
 *
 * Reductions (MEAN, SUM, REDUCE_MAX, REDUCE_MIN) follow the TFLM reference
 * kernels: the elements of each output are accumulated in increasing input
 * order (so float sums are bit-identical to the reference), quantized
 * MEAN/SUM use an int32 sum and one MultiplyByQuantizedMultiplier.
 *
 * Every kernel returns AOT_KERNEL_OK, AOT_KERNEL_BAD_PARAM, or (GATHER) an
 * index-out-of-range status. */
#ifndef AOT_MOVEMENT_H
#define AOT_MOVEMENT_H

#include "aot_common.h"

/* Largest rank the N-d kernels iterate over (after aotc merged contiguous
 * dimensions; TILE of a rank-r tensor uses up to 2r). */
#define AOT_MV_MAX_DIMS 16

/* Element type codes (values of the .tflite TensorType enum). */
#define AOT_MV_FLOAT32 0
#define AOT_MV_FLOAT16 1 /* IEEE binary16 bit patterns (uint16_t) */
#define AOT_MV_INT32 2
#define AOT_MV_UINT8 3
#define AOT_MV_INT64 4
#define AOT_MV_BOOL 6
#define AOT_MV_INT16 7
#define AOT_MV_INT8 9
#define AOT_MV_UINT32 15
#define AOT_MV_UINT16 16

/* Status returned by aot_gather() for an index outside [0, axis_size). */
#define AOT_KERNEL_INDEX_RANGE 2

/* Advances the multi-index idx over count[0..rank-1] (last dimension
 * fastest) and updates the linear offset *off by stride[]. Returns 0 when the
 * iteration wrapped around (all indices back to 0). */
AOT_INLINE int aot_mv_next(int32_t *idx, const int32_t *count, const int32_t *stride,
                           int rank, long *off) {
  int d;
  for (d = rank - 1; d >= 0; d--) {
    idx[d]++;
    *off += stride[d];
    if (idx[d] < count[d]) return 1;
    *off -= (long)stride[d] * count[d];
    idx[d] = 0;
  }
  return 0;
}

/* Same with two offsets following the same multi-index. */
AOT_INLINE int aot_mv_next2(int32_t *idx, const int32_t *count, const int32_t *stride_a,
                            const int32_t *stride_b, int rank, long *off_a, long *off_b) {
  int d;
  for (d = rank - 1; d >= 0; d--) {
    idx[d]++;
    *off_a += stride_a[d];
    *off_b += stride_b[d];
    if (idx[d] < count[d]) return 1;
    *off_a -= (long)stride_a[d] * count[d];
    *off_b -= (long)stride_b[d] * count[d];
    idx[d] = 0;
  }
  return 0;
}

/* ---- N-d strided copy ---------------------------------------------------
 * For every multi-index i over count[0..rank-1]:
 *   out[out_offset + sum i_k*out_stride[k]] = in[in_offset + sum i_k*in_stride[k]]
 * Strides may be negative (REVERSE, negative STRIDED_SLICE strides) or zero
 * (broadcast). The innermost dimension is one memmove when both its strides
 * are 1. rank in [1, AOT_MV_MAX_DIMS]; elem_size 1, 2, 4 or 8. */
typedef struct aot_copy_params {
  int32_t rank;
  int32_t elem_size;
  int32_t in_offset;
  int32_t out_offset;
  const int32_t *count;
  const int32_t *in_stride;
  const int32_t *out_stride;
} aot_copy_params;
int32_t aot_copy_nd(const aot_copy_params *p, const void *input, void *output);

/* ---- N-d strided copy with a run-time offset ------------------------------
 * SLICE / STRIDED_SLICE whose begin is a tensor computed at run time, and
 * DYNAMIC_UPDATE_SLICE (the update written at run-time start indices). The
 * copy is copy (static part, as aot_copy_nd); nbegin values are read from
 * begin (int32, or int64 if begin_is_64); value k is v = begin[k], plus
 * wrap[k] if v < 0 (negative indices counting from the end; wrap[k] = 0: no
 * wrapping); v must lie in [lo[k], hi[k]] (clamped into it if clamp, else
 * the kernel returns AOT_KERNEL_INDEX_RANGE and writes nothing) and moves the
 * input (on_output = 0) or the output (on_output = 1) by v * stride[k]
 * elements. nbegin in [0, AOT_MV_MAX_DIMS]. */
typedef struct aot_copy_dyn_params {
  aot_copy_params copy;
  int32_t nbegin;
  int32_t begin_is_64;
  int32_t on_output;
  int32_t clamp;
  const int32_t *wrap;
  const int32_t *lo;
  const int32_t *hi;
  const int32_t *stride;
} aot_copy_dyn_params;
int32_t aot_copy_nd_dyn(const aot_copy_dyn_params *p, const void *begin, const void *input,
                        void *output);

/* ---- fill: output[0..count) = *value (elem_size bytes) ------------------- */
typedef struct aot_fill_params {
  int32_t count;
  int32_t elem_size;
} aot_fill_params;
int32_t aot_fill(const aot_fill_params *p, const void *value, void *output);

/* ---- gather through per-dimension index tables ---------------------------
 * For every multi-index i over count[0..rank-1] (output row-major):
 *   out[flat(i)] = in[sum_k map_k[i_k]]
 * where map holds the tables of all dimensions one after the other (count[0]
 * entries for dim 0, then count[1] for dim 1, ...), already multiplied by the
 * input strides. If inner_contiguous, the last table is 0,1,2,... and each
 * innermost row is copied at once. Used by MIRROR_PAD and
 * RESIZE_NEAREST_NEIGHBOR. */
typedef struct aot_index_map_params {
  int32_t rank;
  int32_t elem_size;
  int32_t inner_contiguous;
  const int32_t *count;
  const int32_t *map;
} aot_index_map_params;
int32_t aot_index_map(const aot_index_map_params *p, const void *input, void *output);

/* ---- GATHER (TFLite reference semantics) --------------------------------
 * input viewed as [batch, outer, axis_size, inner], indices as
 * [batch, coords]; output [batch, outer, coords, inner]. An index outside
 * [0, axis_size) returns AOT_KERNEL_INDEX_RANGE. */
typedef struct aot_gather_params {
  int32_t batch;
  int32_t outer;
  int32_t axis_size;
  int32_t inner;          /* elements */
  int32_t coords;         /* indices per batch */
  int32_t elem_size;      /* 1, 2, 4 or 8 */
  int32_t index_is_64;    /* indices int64 (else int32) */
} aot_gather_params;
int32_t aot_gather(const aot_gather_params *p, const void *input, const void *indices,
                   void *output);

/* ---- CAST: static_cast between AOT_MV_* types ---------------------------
 * float -> integer truncates toward zero (NaN -> 0; out of range, which is
 * undefined in the reference, saturates for int32/int64 and wraps the
 * saturated int64 for narrower types); integer -> narrower integer wraps;
 * anything -> bool is (x != 0); bool reads as 0/1. float16 (binary16 bit
 * patterns) decodes exactly to float and encodes with round to nearest even
 * (subnormals, overflow to inf, NaN stays NaN); integers go through float. */
typedef struct aot_cast_params {
  int32_t count;
  int32_t in_type;
  int32_t out_type;
} aot_cast_params;
int32_t aot_cast(const aot_cast_params *p, const void *input, void *output);

/* ---- CONCATENATION of one input whose quantization differs from the
 * output's (TFLite ConcatenationWithScaling arithmetic):
 *   out = clamp(round(in * scale + bias) + out_zp)
 * with scale = in_scale / out_scale, bias = -in_zp * scale (float).
 * Input is [rows, len] contiguous; output rows start at out_offset and are
 * out_row_stride elements apart. */
typedef struct aot_requant_rows_params {
  int32_t rows;
  int32_t len;
  int32_t out_offset;
  int32_t out_row_stride;
  float scale;
  float bias;
  int32_t out_zp;
} aot_requant_rows_params;
int32_t aot_requant_rows_s8(const aot_requant_rows_params *p, const int8_t *input,
                            int8_t *output);
int32_t aot_requant_rows_u8(const aot_requant_rows_params *p, const uint8_t *input,
                            uint8_t *output);
int32_t aot_requant_rows_s16(const aot_requant_rows_params *p, const int16_t *input,
                             int16_t *output);

/* ---- ARG_MAX / ARG_MIN ---------------------------------------------------
 * input [outer, axis_size, inner]; output [outer, inner] of int32 or int64.
 * Ties keep the first index (strict comparison), as the reference. */
typedef struct aot_arg_minmax_params {
  int32_t outer;
  int32_t axis_size;
  int32_t inner;
  int32_t is_min;
  int32_t in_type;        /* AOT_MV_FLOAT32, INT8, UINT8, INT16, INT32, INT64 */
  int32_t out_is_64;
} aot_arg_minmax_params;
int32_t aot_arg_minmax(const aot_arg_minmax_params *p, const void *input, void *output);

/* ---- RESIZE_BILINEAR -----------------------------------------------------
 * NHWC, per output row y: rows y0[y], y1[y]; per column x: x0[x], x1[x].
 * float: fy[y] / fx[x] are the scaled source coordinates (input_y, input_x of
 * the reference); the weights are computed as in the reference.
 * int8/int16: wy[y] / wx[x] are input_y - 1024*y0 (10-bit fixed point of the
 * reference ResizeBilinearInteger). */
typedef struct aot_resize_bilinear_params {
  int32_t batches;
  int32_t in_h, in_w;
  int32_t out_h, out_w;
  int32_t depth;
  const int32_t *y0, *y1, *x0, *x1;
  const int32_t *wy, *wx;         /* integer kernels */
  const float *fy, *fx;           /* float kernel */
} aot_resize_bilinear_params;
int32_t aot_resize_bilinear_f32(const aot_resize_bilinear_params *p, const float *input,
                                float *output);
int32_t aot_resize_bilinear_s8(const aot_resize_bilinear_params *p, const int8_t *input,
                               int8_t *output);
int32_t aot_resize_bilinear_s16(const aot_resize_bilinear_params *p, const int16_t *input,
                                int16_t *output);

/* ---- reductions: MEAN, SUM, REDUCE_MAX, REDUCE_MIN -----------------------
 * count/stride hold outer_rank kept dimensions then inner_rank reduced
 * dimensions (input strides in elements, input order). Outputs are written
 * contiguously in kept-dimension order. num_reduced = product of the reduced
 * counts (0 allowed: SUM/MEAN give 0, MAX/MIN the type's lowest/highest).
 * Quantized MEAN/SUM: out = clamp(aot_mbqm(sum - input_zp*num_reduced, mult,
 * shift) + output_zp) with the 1/num_reduced factor of MEAN already folded
 * into mult/shift at compile time (as the TFLM reference does). Quantized
 * MAX/MIN require equal input and output quantization (no rescale). */
#define AOT_REDUCE_SUM 0
#define AOT_REDUCE_MEAN 1
#define AOT_REDUCE_MAX 2
#define AOT_REDUCE_MIN 3

typedef struct aot_reduce_params {
  int32_t op;
  int32_t outer_rank;     /* >= 0 */
  int32_t inner_rank;     /* >= 0 */
  const int32_t *count;   /* outer_rank + inner_rank entries */
  const int32_t *stride;
  int32_t num_reduced;
  int32_t input_zp;
  int32_t output_zp;
  int32_t mult;
  int32_t shift;
} aot_reduce_params;
int32_t aot_reduce_f32(const aot_reduce_params *p, const float *input, float *output);
int32_t aot_reduce_s8(const aot_reduce_params *p, const int8_t *input, int8_t *output);
int32_t aot_reduce_s16(const aot_reduce_params *p, const int16_t *input, int16_t *output);
int32_t aot_reduce_i32(const aot_reduce_params *p, const int32_t *input, int32_t *output);

#endif
