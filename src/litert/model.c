/* model.c - the in-memory .tflite model: names, option defaults and the
 * option-table schema shared by reader and writer, building helpers, free,
 * structural equality. */
#include "litert.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[] = {
  [0] = "ADD", [1] = "AVERAGE_POOL_2D", [2] = "CONCATENATION", [3] = "CONV_2D",
  [4] = "DEPTHWISE_CONV_2D", [5] = "DEPTH_TO_SPACE", [6] = "DEQUANTIZE",
  [7] = "EMBEDDING_LOOKUP", [8] = "FLOOR", [9] = "FULLY_CONNECTED", [10] = "HASHTABLE_LOOKUP",
  [11] = "L2_NORMALIZATION", [12] = "L2_POOL_2D", [13] = "LOCAL_RESPONSE_NORMALIZATION",
  [14] = "LOGISTIC", [15] = "LSH_PROJECTION", [16] = "LSTM", [17] = "MAX_POOL_2D",
  [18] = "MUL", [19] = "RELU", [20] = "RELU_N1_TO_1", [21] = "RELU6", [22] = "RESHAPE",
  [23] = "RESIZE_BILINEAR", [24] = "RNN", [25] = "SOFTMAX", [26] = "SPACE_TO_DEPTH",
  [27] = "SVDF", [28] = "TANH", [29] = "CONCAT_EMBEDDINGS", [30] = "SKIP_GRAM", [31] = "CALL",
  [32] = "CUSTOM", [33] = "EMBEDDING_LOOKUP_SPARSE", [34] = "PAD",
  [35] = "UNIDIRECTIONAL_SEQUENCE_RNN", [36] = "GATHER", [37] = "BATCH_TO_SPACE_ND",
  [38] = "SPACE_TO_BATCH_ND", [39] = "TRANSPOSE", [40] = "MEAN", [41] = "SUB", [42] = "DIV",
  [43] = "SQUEEZE", [44] = "UNIDIRECTIONAL_SEQUENCE_LSTM", [45] = "STRIDED_SLICE",
  [46] = "BIDIRECTIONAL_SEQUENCE_RNN", [47] = "EXP", [48] = "TOPK_V2", [49] = "SPLIT",
  [50] = "LOG_SOFTMAX", [51] = "DELEGATE", [52] = "BIDIRECTIONAL_SEQUENCE_LSTM",
  [53] = "CAST", [54] = "PRELU", [55] = "MAXIMUM", [56] = "ARG_MAX", [57] = "MINIMUM",
  [58] = "LESS", [59] = "NEG", [60] = "PADV2", [61] = "GREATER", [62] = "GREATER_EQUAL",
  [63] = "LESS_EQUAL", [64] = "SELECT", [65] = "SLICE", [66] = "SIN", [67] = "TRANSPOSE_CONV",
  [68] = "SPARSE_TO_DENSE", [69] = "TILE", [70] = "EXPAND_DIMS", [71] = "EQUAL",
  [72] = "NOT_EQUAL", [73] = "LOG", [74] = "SUM", [75] = "SQRT", [76] = "RSQRT",
  [77] = "SHAPE", [78] = "POW", [79] = "ARG_MIN", [80] = "FAKE_QUANT", [81] = "REDUCE_PROD",
  [82] = "REDUCE_MAX", [83] = "PACK", [84] = "LOGICAL_OR", [85] = "ONE_HOT",
  [86] = "LOGICAL_AND", [87] = "LOGICAL_NOT", [88] = "UNPACK", [89] = "REDUCE_MIN",
  [90] = "FLOOR_DIV", [91] = "REDUCE_ANY", [92] = "SQUARE", [93] = "ZEROS_LIKE",
  [94] = "FILL", [95] = "FLOOR_MOD", [96] = "RANGE", [97] = "RESIZE_NEAREST_NEIGHBOR",
  [98] = "LEAKY_RELU", [99] = "SQUARED_DIFFERENCE", [100] = "MIRROR_PAD", [101] = "ABS",
  [102] = "SPLIT_V", [103] = "UNIQUE", [104] = "CEIL", [105] = "REVERSE_V2", [106] = "ADD_N",
  [107] = "GATHER_ND", [108] = "COS", [109] = "WHERE", [110] = "RANK", [111] = "ELU",
  [112] = "REVERSE_SEQUENCE", [113] = "MATRIX_DIAG", [114] = "QUANTIZE",
  [115] = "MATRIX_SET_DIAG", [116] = "ROUND", [117] = "HARD_SWISH", [118] = "IF",
  [119] = "WHILE", [120] = "NON_MAX_SUPPRESSION_V4", [121] = "NON_MAX_SUPPRESSION_V5",
  [122] = "SCATTER_ND", [123] = "SELECT_V2", [124] = "DENSIFY", [125] = "SEGMENT_SUM",
  [126] = "BATCH_MATMUL", [127] = "PLACEHOLDER_FOR_GREATER_OP_CODES", [128] = "CUMSUM",
  [129] = "CALL_ONCE", [130] = "BROADCAST_TO", [131] = "RFFT2D", [132] = "CONV_3D",
  [133] = "IMAG", [134] = "REAL", [135] = "COMPLEX_ABS", [136] = "HASHTABLE",
  [137] = "HASHTABLE_FIND", [138] = "HASHTABLE_IMPORT", [139] = "HASHTABLE_SIZE",
  [140] = "REDUCE_ALL", [141] = "CONV_3D_TRANSPOSE", [142] = "VAR_HANDLE",
  [143] = "READ_VARIABLE", [144] = "ASSIGN_VARIABLE", [145] = "BROADCAST_ARGS",
  [146] = "RANDOM_STANDARD_NORMAL", [147] = "BUCKETIZE", [148] = "RANDOM_UNIFORM",
  [149] = "MULTINOMIAL", [150] = "GELU", [151] = "DYNAMIC_UPDATE_SLICE",
  [152] = "RELU_0_TO_1", [153] = "UNSORTED_SEGMENT_PROD", [154] = "UNSORTED_SEGMENT_MAX",
  [155] = "UNSORTED_SEGMENT_SUM", [156] = "ATAN2", [157] = "UNSORTED_SEGMENT_MIN",
  [158] = "SIGN", [159] = "BITCAST", [160] = "BITWISE_XOR", [161] = "RIGHT_SHIFT",
};
static const char *const bo_names[] = {
  [0] = "NONE", [1] = "Conv2DOptions", [2] = "DepthwiseConv2DOptions",
  [3] = "ConcatEmbeddingsOptions", [4] = "LSHProjectionOptions", [5] = "Pool2DOptions",
  [6] = "SVDFOptions", [7] = "RNNOptions", [8] = "FullyConnectedOptions",
  [9] = "SoftmaxOptions", [10] = "ConcatenationOptions", [11] = "AddOptions",
  [12] = "L2NormOptions", [13] = "LocalResponseNormalizationOptions", [14] = "LSTMOptions",
  [15] = "ResizeBilinearOptions", [16] = "CallOptions", [17] = "ReshapeOptions",
  [18] = "SkipGramOptions", [19] = "SpaceToDepthOptions",
  [20] = "EmbeddingLookupSparseOptions", [21] = "MulOptions", [22] = "PadOptions",
  [23] = "GatherOptions", [24] = "BatchToSpaceNDOptions", [25] = "SpaceToBatchNDOptions",
  [26] = "TransposeOptions", [27] = "ReducerOptions", [28] = "SubOptions",
  [29] = "DivOptions", [30] = "SqueezeOptions", [31] = "SequenceRNNOptions",
  [32] = "StridedSliceOptions", [33] = "ExpOptions", [34] = "TopKV2Options",
  [35] = "SplitOptions", [36] = "LogSoftmaxOptions", [37] = "CastOptions",
  [38] = "DequantizeOptions", [39] = "MaximumMinimumOptions", [40] = "ArgMaxOptions",
  [41] = "LessOptions", [42] = "NegOptions", [43] = "PadV2Options", [44] = "GreaterOptions",
  [45] = "GreaterEqualOptions", [46] = "LessEqualOptions", [47] = "SelectOptions",
  [48] = "SliceOptions", [49] = "TransposeConvOptions", [50] = "SparseToDenseOptions",
  [51] = "TileOptions", [52] = "ExpandDimsOptions", [53] = "EqualOptions",
  [54] = "NotEqualOptions", [55] = "ShapeOptions", [56] = "PowOptions",
  [57] = "ArgMinOptions", [58] = "FakeQuantOptions", [59] = "PackOptions",
  [60] = "LogicalOrOptions", [61] = "OneHotOptions", [62] = "LogicalAndOptions",
  [63] = "LogicalNotOptions", [64] = "UnpackOptions", [65] = "FloorDivOptions",
  [66] = "SquareOptions", [67] = "ZerosLikeOptions", [68] = "FillOptions",
  [69] = "BidirectionalSequenceLSTMOptions", [70] = "BidirectionalSequenceRNNOptions",
  [71] = "UnidirectionalSequenceLSTMOptions", [72] = "FloorModOptions", [73] = "RangeOptions",
  [74] = "ResizeNearestNeighborOptions", [75] = "LeakyReluOptions",
  [76] = "SquaredDifferenceOptions", [77] = "MirrorPadOptions", [78] = "AbsOptions",
  [79] = "SplitVOptions", [80] = "UniqueOptions", [81] = "ReverseV2Options",
  [82] = "AddNOptions", [83] = "GatherNdOptions", [84] = "CosOptions", [85] = "WhereOptions",
  [86] = "RankOptions", [87] = "ReverseSequenceOptions", [88] = "MatrixDiagOptions",
  [89] = "QuantizeOptions", [90] = "MatrixSetDiagOptions", [91] = "HardSwishOptions",
  [92] = "IfOptions", [93] = "WhileOptions", [94] = "DepthToSpaceOptions",
  [95] = "NonMaxSuppressionV4Options", [96] = "NonMaxSuppressionV5Options",
  [97] = "ScatterNdOptions", [98] = "SelectV2Options", [99] = "DensifyOptions",
  [100] = "SegmentSumOptions", [101] = "BatchMatMulOptions", [102] = "CumsumOptions",
  [103] = "CallOnceOptions", [104] = "BroadcastToOptions", [105] = "Rfft2dOptions",
  [106] = "Conv3DOptions", [107] = "HashtableOptions", [108] = "HashtableFindOptions",
  [109] = "HashtableImportOptions", [110] = "HashtableSizeOptions",
  [111] = "VarHandleOptions", [112] = "ReadVariableOptions", [113] = "AssignVariableOptions",
  [114] = "RandomOptions", [115] = "BucketizeOptions", [116] = "GeluOptions",
  [117] = "DynamicUpdateSliceOptions", [118] = "UnsortedSegmentProdOptions",
  [119] = "UnsortedSegmentMaxOptions", [120] = "UnsortedSegmentMinOptions",
  [121] = "UnsortedSegmentSumOptions", [122] = "ATan2Options", [123] = "SignOptions",
  [124] = "BitcastOptions", [125] = "BitwiseXorOptions", [126] = "RightShiftOptions",
};

const char *litert_op_name(int builtin) {
  static char buf[4][24];
  static int next;
  if (builtin >= 0 && builtin < (int)(sizeof op_names / sizeof op_names[0]) && op_names[builtin])
    return op_names[builtin];
  char *b = buf[next];
  next = (next + 1) & 3;
  snprintf(b, sizeof buf[0], "BUILTIN_%d", builtin);
  return b;
}

const char *litert_options_name(int type) {
  static char buf[4][32];
  static int next;
  if (type >= 0 && type < (int)(sizeof bo_names / sizeof bo_names[0]) && bo_names[type])
    return bo_names[type];
  char *b = buf[next];
  next = (next + 1) & 3;
  snprintf(b, sizeof buf[0], "BuiltinOptions%d", type);
  return b;
}

int litert_builtin_options_type(int builtin) {
  static const unsigned char map[OP_RIGHT_SHIFT + 1] = {
      [OP_ADD] = BO_AddOptions, [OP_AVERAGE_POOL_2D] = BO_Pool2DOptions,
      [OP_CONCATENATION] = BO_ConcatenationOptions, [OP_CONV_2D] = BO_Conv2DOptions,
      [OP_DEPTHWISE_CONV_2D] = BO_DepthwiseConv2DOptions,
      [OP_DEPTH_TO_SPACE] = BO_DepthToSpaceOptions, [OP_DEQUANTIZE] = BO_DequantizeOptions,
      [OP_EMBEDDING_LOOKUP_SPARSE] = BO_EmbeddingLookupSparseOptions,
      [OP_FULLY_CONNECTED] = BO_FullyConnectedOptions,
      [OP_L2_NORMALIZATION] = BO_L2NormOptions, [OP_L2_POOL_2D] = BO_Pool2DOptions,
      [OP_LOCAL_RESPONSE_NORMALIZATION] = BO_LocalResponseNormalizationOptions,
      [OP_LSH_PROJECTION] = BO_LSHProjectionOptions, [OP_LSTM] = BO_LSTMOptions,
      [OP_MAX_POOL_2D] = BO_Pool2DOptions, [OP_MUL] = BO_MulOptions,
      [OP_RESHAPE] = BO_ReshapeOptions, [OP_RESIZE_BILINEAR] = BO_ResizeBilinearOptions,
      [OP_RNN] = BO_RNNOptions, [OP_SOFTMAX] = BO_SoftmaxOptions,
      [OP_SPACE_TO_DEPTH] = BO_SpaceToDepthOptions, [OP_SVDF] = BO_SVDFOptions,
      [OP_CONCAT_EMBEDDINGS] = BO_ConcatEmbeddingsOptions, [OP_SKIP_GRAM] = BO_SkipGramOptions,
      [OP_CALL] = BO_CallOptions, [OP_PAD] = BO_PadOptions,
      [OP_UNIDIRECTIONAL_SEQUENCE_RNN] = BO_SequenceRNNOptions, [OP_GATHER] = BO_GatherOptions,
      [OP_BATCH_TO_SPACE_ND] = BO_BatchToSpaceNDOptions,
      [OP_SPACE_TO_BATCH_ND] = BO_SpaceToBatchNDOptions, [OP_TRANSPOSE] = BO_TransposeOptions,
      [OP_MEAN] = BO_ReducerOptions, [OP_SUB] = BO_SubOptions, [OP_DIV] = BO_DivOptions,
      [OP_SQUEEZE] = BO_SqueezeOptions,
      [OP_UNIDIRECTIONAL_SEQUENCE_LSTM] = BO_UnidirectionalSequenceLSTMOptions,
      [OP_STRIDED_SLICE] = BO_StridedSliceOptions,
      [OP_BIDIRECTIONAL_SEQUENCE_RNN] = BO_BidirectionalSequenceRNNOptions,
      [OP_EXP] = BO_ExpOptions, [OP_TOPK_V2] = BO_TopKV2Options, [OP_SPLIT] = BO_SplitOptions,
      [OP_LOG_SOFTMAX] = BO_LogSoftmaxOptions,
      [OP_BIDIRECTIONAL_SEQUENCE_LSTM] = BO_BidirectionalSequenceLSTMOptions,
      [OP_CAST] = BO_CastOptions, [OP_MAXIMUM] = BO_MaximumMinimumOptions,
      [OP_ARG_MAX] = BO_ArgMaxOptions, [OP_MINIMUM] = BO_MaximumMinimumOptions,
      [OP_LESS] = BO_LessOptions, [OP_NEG] = BO_NegOptions, [OP_PADV2] = BO_PadV2Options,
      [OP_GREATER] = BO_GreaterOptions, [OP_GREATER_EQUAL] = BO_GreaterEqualOptions,
      [OP_LESS_EQUAL] = BO_LessEqualOptions, [OP_SELECT] = BO_SelectOptions,
      [OP_SLICE] = BO_SliceOptions, [OP_TRANSPOSE_CONV] = BO_TransposeConvOptions,
      [OP_SPARSE_TO_DENSE] = BO_SparseToDenseOptions, [OP_TILE] = BO_TileOptions,
      [OP_EXPAND_DIMS] = BO_ExpandDimsOptions, [OP_EQUAL] = BO_EqualOptions,
      [OP_NOT_EQUAL] = BO_NotEqualOptions, [OP_SUM] = BO_ReducerOptions,
      [OP_SHAPE] = BO_ShapeOptions, [OP_POW] = BO_PowOptions, [OP_ARG_MIN] = BO_ArgMinOptions,
      [OP_FAKE_QUANT] = BO_FakeQuantOptions, [OP_REDUCE_PROD] = BO_ReducerOptions,
      [OP_REDUCE_MAX] = BO_ReducerOptions, [OP_PACK] = BO_PackOptions,
      [OP_LOGICAL_OR] = BO_LogicalOrOptions, [OP_ONE_HOT] = BO_OneHotOptions,
      [OP_LOGICAL_AND] = BO_LogicalAndOptions, [OP_LOGICAL_NOT] = BO_LogicalNotOptions,
      [OP_UNPACK] = BO_UnpackOptions, [OP_REDUCE_MIN] = BO_ReducerOptions,
      [OP_FLOOR_DIV] = BO_FloorDivOptions, [OP_REDUCE_ANY] = BO_ReducerOptions,
      [OP_SQUARE] = BO_SquareOptions, [OP_ZEROS_LIKE] = BO_ZerosLikeOptions,
      [OP_FILL] = BO_FillOptions, [OP_FLOOR_MOD] = BO_FloorModOptions,
      [OP_RANGE] = BO_RangeOptions,
      [OP_RESIZE_NEAREST_NEIGHBOR] = BO_ResizeNearestNeighborOptions,
      [OP_LEAKY_RELU] = BO_LeakyReluOptions,
      [OP_SQUARED_DIFFERENCE] = BO_SquaredDifferenceOptions,
      [OP_MIRROR_PAD] = BO_MirrorPadOptions, [OP_ABS] = BO_AbsOptions,
      [OP_SPLIT_V] = BO_SplitVOptions, [OP_UNIQUE] = BO_UniqueOptions,
      [OP_REVERSE_V2] = BO_ReverseV2Options, [OP_ADD_N] = BO_AddNOptions,
      [OP_GATHER_ND] = BO_GatherNdOptions, [OP_COS] = BO_CosOptions,
      [OP_WHERE] = BO_WhereOptions, [OP_RANK] = BO_RankOptions,
      [OP_REVERSE_SEQUENCE] = BO_ReverseSequenceOptions,
      [OP_MATRIX_DIAG] = BO_MatrixDiagOptions, [OP_QUANTIZE] = BO_QuantizeOptions,
      [OP_MATRIX_SET_DIAG] = BO_MatrixSetDiagOptions, [OP_HARD_SWISH] = BO_HardSwishOptions,
      [OP_IF] = BO_IfOptions, [OP_WHILE] = BO_WhileOptions,
      [OP_NON_MAX_SUPPRESSION_V4] = BO_NonMaxSuppressionV4Options,
      [OP_NON_MAX_SUPPRESSION_V5] = BO_NonMaxSuppressionV5Options,
      [OP_SCATTER_ND] = BO_ScatterNdOptions, [OP_SELECT_V2] = BO_SelectV2Options,
      [OP_DENSIFY] = BO_DensifyOptions, [OP_SEGMENT_SUM] = BO_SegmentSumOptions,
      [OP_BATCH_MATMUL] = BO_BatchMatMulOptions, [OP_CUMSUM] = BO_CumsumOptions,
      [OP_CALL_ONCE] = BO_CallOnceOptions, [OP_BROADCAST_TO] = BO_BroadcastToOptions,
      [OP_RFFT2D] = BO_Rfft2dOptions, [OP_CONV_3D] = BO_Conv3DOptions,
      [OP_CONV_3D_TRANSPOSE] = BO_Conv3DOptions, [OP_HASHTABLE] = BO_HashtableOptions,
      [OP_HASHTABLE_FIND] = BO_HashtableFindOptions,
      [OP_HASHTABLE_IMPORT] = BO_HashtableImportOptions,
      [OP_HASHTABLE_SIZE] = BO_HashtableSizeOptions, [OP_REDUCE_ALL] = BO_ReducerOptions,
      [OP_VAR_HANDLE] = BO_VarHandleOptions, [OP_READ_VARIABLE] = BO_ReadVariableOptions,
      [OP_ASSIGN_VARIABLE] = BO_AssignVariableOptions,
      [OP_RANDOM_STANDARD_NORMAL] = BO_RandomOptions, [OP_RANDOM_UNIFORM] = BO_RandomOptions,
      [OP_MULTINOMIAL] = BO_RandomOptions, [OP_BUCKETIZE] = BO_BucketizeOptions,
      [OP_GELU] = BO_GeluOptions, [OP_DYNAMIC_UPDATE_SLICE] = BO_DynamicUpdateSliceOptions,
      [OP_UNSORTED_SEGMENT_PROD] = BO_UnsortedSegmentProdOptions,
      [OP_UNSORTED_SEGMENT_MAX] = BO_UnsortedSegmentMaxOptions,
      [OP_UNSORTED_SEGMENT_SUM] = BO_UnsortedSegmentSumOptions,
      [OP_ATAN2] = BO_ATan2Options, [OP_UNSORTED_SEGMENT_MIN] = BO_UnsortedSegmentMinOptions,
      [OP_SIGN] = BO_SignOptions, [OP_BITCAST] = BO_BitcastOptions,
      [OP_BITWISE_XOR] = BO_BitwiseXorOptions, [OP_RIGHT_SHIFT] = BO_RightShiftOptions,
  };
  if (builtin < 0 || builtin > OP_RIGHT_SHIFT) return BO_NONE;
  return map[builtin];
}

/* ---- option tables ------------------------------------------------------ */

#define O(m) offsetof(litert_options, m)
#define FB(id, m) {id, LOF_BOOL, O(m), 0, 0, 0}
#define FBD(id, m, d) {id, LOF_BOOL, O(m), 0, d, 0}
#define FY(id, m) {id, LOF_BYTE, O(m), 0, 0, 0}
#define FYD(id, m, d) {id, LOF_BYTE, O(m), 0, d, 0}
#define FI(id, m) {id, LOF_INT, O(m), 0, 0, 0}
#define FID(id, m, d) {id, LOF_INT, O(m), 0, d, 0}
#define FU(id, m) {id, LOF_UINT, O(m), 0, 0, 0}
#define FF(id, m) {id, LOF_FLOAT, O(m), 0, 0, 0}
#define FL(id, m) {id, LOF_LONG, O(m), 0, 0, 0}
#define FS(id, m) {id, LOF_STRING, O(m), 0, 0, 0}
#define FV(id, m, n, d) {id, LOF_INTVEC, O(m), O(n), d, (int)(sizeof(((litert_options *)0)->m) / sizeof(int))}

static const litert_optfield f_conv2d[] = {FY(0, padding), FI(1, stride_w), FI(2, stride_h),
    FY(3, fused_act), FID(4, dilation_w, 1), FID(5, dilation_h, 1), FY(6, quantized_bias_type)};
static const litert_optfield f_dwconv[] = {FY(0, padding), FI(1, stride_w), FI(2, stride_h),
    FI(3, depth_multiplier), FY(4, fused_act), FID(5, dilation_w, 1), FID(6, dilation_h, 1)};
static const litert_optfield f_pool[] = {FY(0, padding), FI(1, stride_w), FI(2, stride_h),
    FI(3, filter_w), FI(4, filter_h), FY(5, fused_act)};
static const litert_optfield f_svdf[] = {FI(0, rank), FY(1, fused_act),
    FB(2, asymmetric_quantize_inputs)};
static const litert_optfield f_rnn[] = {FY(0, fused_act), FB(1, asymmetric_quantize_inputs)};
static const litert_optfield f_fc[] = {FY(0, fused_act), FY(1, weights_format),
    FB(2, keep_num_dims), FB(3, asymmetric_quantize_inputs), FY(4, quantized_bias_type)};
static const litert_optfield f_softmax[] = {FF(0, beta)};
static const litert_optfield f_concat[] = {FI(0, axis), FY(1, fused_act)};
static const litert_optfield f_addsub[] = {FY(0, fused_act), FBD(1, pot_scale_int16, 1)};
static const litert_optfield f_act[] = {FY(0, fused_act)};
static const litert_optfield f_lrn[] = {FI(0, radius), FF(1, bias), FF(2, alpha), FF(3, beta)};
static const litert_optfield f_lstm[] = {FY(0, fused_act), FF(1, cell_clip), FF(2, proj_clip),
    FY(3, kernel_type), FB(4, asymmetric_quantize_inputs)};
static const litert_optfield f_resize_bilinear[] = {FB(2, align_corners),
    FB(3, half_pixel_centers)};
static const litert_optfield f_call[] = {FU(0, subgraph)};
static const litert_optfield f_reshape[] = {FV(0, new_shape, new_shape_n, -1)};
static const litert_optfield f_block[] = {FI(0, block_size)};
static const litert_optfield f_els[] = {FY(0, combiner)};
static const litert_optfield f_gather[] = {FI(0, axis), FI(1, batch_dims)};
static const litert_optfield f_reducer[] = {FB(0, keep_dims)};
static const litert_optfield f_squeeze[] = {FV(0, squeeze_dims, squeeze_n, 0)};
static const litert_optfield f_seqrnn[] = {FB(0, time_major), FY(1, fused_act),
    FB(2, asymmetric_quantize_inputs)};
static const litert_optfield f_ss[] = {FI(0, begin_mask), FI(1, end_mask), FI(2, ellipsis_mask),
    FI(3, new_axis_mask), FI(4, shrink_axis_mask), FB(5, ss_offset)};
static const litert_optfield f_split[] = {FI(0, num_splits)};
static const litert_optfield f_cast[] = {FY(0, in_data_type), FY(1, out_data_type)};
static const litert_optfield f_outtype[] = {FY(0, out_type)};
static const litert_optfield f_tconv[] = {FY(0, padding), FI(1, stride_w), FI(2, stride_h),
    FY(3, fused_act), FY(4, quantized_bias_type)};
static const litert_optfield f_s2d[] = {FB(0, validate_indices)};
static const litert_optfield f_fakequant[] = {FF(0, fq_min), FF(1, fq_max), FI(2, num_bits),
    FB(3, narrow_range)};
static const litert_optfield f_pack[] = {FI(0, num), FI(1, axis)};
static const litert_optfield f_axis[] = {FI(0, axis)};
static const litert_optfield f_bilstm[] = {FY(0, fused_act), FF(1, cell_clip), FF(2, proj_clip),
    FB(3, merge_outputs), FBD(4, time_major, 1), FB(5, asymmetric_quantize_inputs)};
static const litert_optfield f_birnn[] = {FB(0, time_major), FY(1, fused_act),
    FB(2, merge_outputs), FB(3, asymmetric_quantize_inputs)};
static const litert_optfield f_uselstm[] = {FY(0, fused_act), FF(1, cell_clip),
    FF(2, proj_clip), FB(3, time_major), FB(4, asymmetric_quantize_inputs),
    FB(5, diagonal_recurrent_tensors)};
static const litert_optfield f_resize_nn[] = {FB(0, align_corners), FB(1, half_pixel_centers)};
static const litert_optfield f_leaky[] = {FF(0, alpha)};
static const litert_optfield f_mirror[] = {FY(0, mirror_mode)};
static const litert_optfield f_unique[] = {FYD(0, out_type, DT_INT32)};
static const litert_optfield f_revseq[] = {FI(0, axis), FI(1, batch_dims)};
static const litert_optfield f_if[] = {FI(0, then_subgraph), FI(1, else_subgraph)};
static const litert_optfield f_while[] = {FI(0, cond_subgraph), FI(1, body_subgraph)};
static const litert_optfield f_bmm[] = {FB(0, adj_x), FB(1, adj_y),
    FB(2, asymmetric_quantize_inputs)};
static const litert_optfield f_cumsum[] = {FB(0, exclusive), FB(1, reverse)};
static const litert_optfield f_callonce[] = {FI(0, init_subgraph)};
static const litert_optfield f_conv3d[] = {FY(0, padding), FI(1, stride_d), FI(2, stride_w),
    FI(3, stride_h), FY(4, fused_act), FID(5, dilation_d, 1), FID(6, dilation_w, 1),
    FID(7, dilation_h, 1)};
static const litert_optfield f_hashtable[] = {FI(0, table_id), FY(1, key_dtype),
    FY(2, value_dtype)};
static const litert_optfield f_varhandle[] = {FS(0, container), FS(1, shared_name)};
static const litert_optfield f_random[] = {FL(0, seed), FL(1, seed2)};
static const litert_optfield f_gelu[] = {FB(0, approximate)};

#define SPEC(t, f) [t] = {f, (int)(sizeof f / sizeof f[0])}
static const struct {
  const litert_optfield *f;
  int n;
} specs[BO_COUNT_] = {
    SPEC(BO_Conv2DOptions, f_conv2d), SPEC(BO_DepthwiseConv2DOptions, f_dwconv),
    SPEC(BO_Pool2DOptions, f_pool), SPEC(BO_SVDFOptions, f_svdf), SPEC(BO_RNNOptions, f_rnn),
    SPEC(BO_FullyConnectedOptions, f_fc), SPEC(BO_SoftmaxOptions, f_softmax),
    SPEC(BO_ConcatenationOptions, f_concat), SPEC(BO_AddOptions, f_addsub),
    SPEC(BO_L2NormOptions, f_act), SPEC(BO_LocalResponseNormalizationOptions, f_lrn),
    SPEC(BO_LSTMOptions, f_lstm), SPEC(BO_ResizeBilinearOptions, f_resize_bilinear),
    SPEC(BO_CallOptions, f_call), SPEC(BO_ReshapeOptions, f_reshape),
    SPEC(BO_SpaceToDepthOptions, f_block), SPEC(BO_EmbeddingLookupSparseOptions, f_els),
    SPEC(BO_MulOptions, f_act), SPEC(BO_GatherOptions, f_gather),
    SPEC(BO_ReducerOptions, f_reducer), SPEC(BO_SubOptions, f_addsub),
    SPEC(BO_DivOptions, f_act), SPEC(BO_SqueezeOptions, f_squeeze),
    SPEC(BO_SequenceRNNOptions, f_seqrnn), SPEC(BO_StridedSliceOptions, f_ss),
    SPEC(BO_SplitOptions, f_split), SPEC(BO_CastOptions, f_cast),
    SPEC(BO_ArgMaxOptions, f_outtype), SPEC(BO_TransposeConvOptions, f_tconv),
    SPEC(BO_SparseToDenseOptions, f_s2d), SPEC(BO_ShapeOptions, f_outtype),
    SPEC(BO_ArgMinOptions, f_outtype), SPEC(BO_FakeQuantOptions, f_fakequant),
    SPEC(BO_PackOptions, f_pack), SPEC(BO_OneHotOptions, f_axis),
    SPEC(BO_UnpackOptions, f_pack), SPEC(BO_BidirectionalSequenceLSTMOptions, f_bilstm),
    SPEC(BO_BidirectionalSequenceRNNOptions, f_birnn),
    SPEC(BO_UnidirectionalSequenceLSTMOptions, f_uselstm),
    SPEC(BO_ResizeNearestNeighborOptions, f_resize_nn), SPEC(BO_LeakyReluOptions, f_leaky),
    SPEC(BO_MirrorPadOptions, f_mirror), SPEC(BO_SplitVOptions, f_split),
    SPEC(BO_UniqueOptions, f_unique), SPEC(BO_ReverseSequenceOptions, f_revseq),
    SPEC(BO_IfOptions, f_if), SPEC(BO_WhileOptions, f_while),
    SPEC(BO_DepthToSpaceOptions, f_block), SPEC(BO_BatchMatMulOptions, f_bmm),
    SPEC(BO_CumsumOptions, f_cumsum), SPEC(BO_CallOnceOptions, f_callonce),
    SPEC(BO_Conv3DOptions, f_conv3d), SPEC(BO_HashtableOptions, f_hashtable),
    SPEC(BO_VarHandleOptions, f_varhandle), SPEC(BO_RandomOptions, f_random),
    SPEC(BO_GeluOptions, f_gelu),
};

const litert_optfield *litert_options_fields(int type, int *n) {
  if (type <= 0 || type >= BO_COUNT_ || !specs[type].f) {
    *n = 0;
    return NULL;
  }
  *n = specs[type].n;
  return specs[type].f;
}

void litert_options_default(litert_options *o) {
  memset(o, 0, sizeof *o);
  o->dilation_w = o->dilation_h = o->dilation_d = 1;
  o->new_shape_n = -1;
  o->pot_scale_int16 = 1;
}

void litert_options_copy(litert_options *dst, const litert_options *src) {
  if (dst == src) return;
  *dst = *src;
  dst->container = xstrdup(src->container);
  dst->shared_name = xstrdup(src->shared_name);
}

void litert_options_free(litert_options *o) {
  free(o->container);
  free(o->shared_name);
  o->container = o->shared_name = NULL;
}

/* ---- sizes ---------------------------------------------------------------- */

size_t litert_tensor_bytes(const litert_tensor *t) {
  if (!t || t->rank < 0) return 0;
  size_t es = dtype_size(t->type);
  uint64_t n = 1;
  for (int i = 0; i < t->rank; i++) {
    if (t->shape[i] < 0) return 0;
    n *= (uint64_t)t->shape[i];
    if (n > ((uint64_t)1 << 40)) return 0;
  }
  if (t->type == DT_INT4) return (size_t)((n + 1) / 2);
  if (es == 0) return 0;
  return (size_t)(n * es);
}

/* ---- builtin / custom of an op ------------------------------------------ */

int litert_op_builtin(const litert_model *m, const litert_op *op) {
  if (!m || !op || op->opcode_index >= (uint32_t)m->nopcodes) return -1;
  return m->opcodes[op->opcode_index].builtin;
}

const char *litert_op_custom(const litert_model *m, const litert_op *op) {
  if (!m || !op || op->opcode_index >= (uint32_t)m->nopcodes) return NULL;
  return m->opcodes[op->opcode_index].custom_code;
}

/* ---- building -------------------------------------------------------------- */

litert_model *litert_model_new(void) {
  litert_model *m = xcalloc(1, sizeof *m);
  m->version = 3;
  litert_add_buffer(m, NULL, 0); /* buffer 0: the empty sentinel */
  return m;
}

int litert_add_subgraph(litert_model *m, const char *name) {
  m->subgraphs = xrealloc(m->subgraphs, sizeof *m->subgraphs * (size_t)(m->nsubgraphs + 1));
  litert_subgraph *s = &m->subgraphs[m->nsubgraphs];
  memset(s, 0, sizeof *s);
  s->name = xstrdup(name);
  return m->nsubgraphs++;
}

int litert_add_buffer(litert_model *m, const void *data, size_t size) {
  m->buffers = xrealloc(m->buffers, sizeof *m->buffers * (size_t)(m->nbuffers + 1));
  litert_buffer *b = &m->buffers[m->nbuffers];
  b->data = NULL;
  b->size = 0;
  if (data && size) {
    b->data = xmalloc(size);
    memcpy(b->data, data, size);
    b->size = size;
  }
  return m->nbuffers++;
}

int litert_add_tensor(litert_model *m, int sg, const char *name, int type, int rank,
                      const int32_t *shape, int buffer) {
  litert_subgraph *s = &m->subgraphs[sg];
  s->tensors = xrealloc(s->tensors, sizeof *s->tensors * (size_t)(s->ntensors + 1));
  litert_tensor *t = &s->tensors[s->ntensors];
  memset(t, 0, sizeof *t);
  t->name = xstrdup(name ? name : "");
  t->type = type;
  t->rank = rank;
  if (rank > 0) {
    t->shape = xmalloc(sizeof *t->shape * (size_t)rank);
    memcpy(t->shape, shape, sizeof *t->shape * (size_t)rank);
  }
  t->buffer = buffer > 0 ? (uint32_t)buffer : 0;
  t->has_rank = rank >= 0;
  return s->ntensors++;
}

void litert_tensor_set_quant(litert_model *m, int sg, int t, int n, const float *scale,
                             const int64_t *zp, int qdim) {
  litert_quant *q = &m->subgraphs[sg].tensors[t].q;
  free(q->scale);
  free(q->zero_point);
  memset(q, 0, sizeof *q);
  if (n <= 0) return;
  q->nscale = q->nzero = n;
  q->scale = xmalloc(sizeof *q->scale * (size_t)n);
  q->zero_point = xmalloc(sizeof *q->zero_point * (size_t)n);
  for (int i = 0; i < n; i++) {
    q->scale[i] = scale ? scale[i] : 1.0f;
    q->zero_point[i] = zp ? zp[i] : 0;
  }
  q->quantized_dimension = qdim;
}

static int streq_null(const char *a, const char *b) {
  if (!a || !b) return a == b;
  return strcmp(a, b) == 0;
}

int litert_add_opcode(litert_model *m, int builtin, const char *custom_code, int version) {
  for (int i = 0; i < m->nopcodes; i++)
    if (m->opcodes[i].builtin == builtin && m->opcodes[i].version == version &&
        streq_null(m->opcodes[i].custom_code, custom_code))
      return i;
  m->opcodes = xrealloc(m->opcodes, sizeof *m->opcodes * (size_t)(m->nopcodes + 1));
  litert_opcode *c = &m->opcodes[m->nopcodes];
  c->builtin = builtin;
  c->custom_code = xstrdup(custom_code);
  c->version = version;
  return m->nopcodes++;
}

static int32_t *dup_i32(const int32_t *a, int n) {
  if (n <= 0 || !a) return NULL;
  int32_t *r = xmalloc(sizeof *r * (size_t)n);
  memcpy(r, a, sizeof *r * (size_t)n);
  return r;
}

int litert_add_op(litert_model *m, int sg, int builtin, const char *custom_code, int nin,
                  const int32_t *in, int nout, const int32_t *out, const litert_options *opts) {
  int oc = -1;
  for (int i = 0; i < m->nopcodes; i++) /* reuse any version of the same operator */
    if (m->opcodes[i].builtin == builtin && streq_null(m->opcodes[i].custom_code, custom_code)) {
      oc = i;
      break;
    }
  if (oc < 0) oc = litert_add_opcode(m, builtin, custom_code, 1);
  litert_subgraph *s = &m->subgraphs[sg];
  s->ops = xrealloc(s->ops, sizeof *s->ops * (size_t)(s->nops + 1));
  litert_op *op = &s->ops[s->nops];
  memset(op, 0, sizeof *op);
  op->opcode_index = (uint32_t)oc;
  op->ninputs = nin > 0 ? nin : 0;
  op->inputs = dup_i32(in, nin);
  op->noutputs = nout > 0 ? nout : 0;
  op->outputs = dup_i32(out, nout);
  if (opts) {
    litert_options_copy(&op->opts, opts);
  } else {
    litert_options_default(&op->opts);
    op->opts.type = litert_builtin_options_type(builtin);
  }
  return s->nops++;
}

void litert_set_io(litert_model *m, int sg, int nin, const int32_t *in, int nout,
                   const int32_t *out) {
  litert_subgraph *s = &m->subgraphs[sg];
  free(s->inputs);
  free(s->outputs);
  s->ninputs = nin > 0 ? nin : 0;
  s->inputs = dup_i32(in, nin);
  s->noutputs = nout > 0 ? nout : 0;
  s->outputs = dup_i32(out, nout);
}

/* ---- free ------------------------------------------------------------------ */

void litert_op_free(litert_op *op) {
  free(op->inputs);
  free(op->outputs);
  free(op->intermediates);
  free(op->custom_options);
  litert_options_free(&op->opts);
  memset(op, 0, sizeof *op);
}

void litert_model_free(litert_model *m) {
  if (!m) return;
  free(m->description);
  for (int i = 0; i < m->nopcodes; i++) free(m->opcodes[i].custom_code);
  free(m->opcodes);
  for (int s = 0; s < m->nsubgraphs; s++) {
    litert_subgraph *g = &m->subgraphs[s];
    free(g->name);
    for (int t = 0; t < g->ntensors; t++) {
      litert_tensor *x = &g->tensors[t];
      free(x->name);
      free(x->shape);
      free(x->shape_signature);
      free(x->q.scale);
      free(x->q.zero_point);
    }
    free(g->tensors);
    free(g->inputs);
    free(g->outputs);
    for (int o = 0; o < g->nops; o++) litert_op_free(&g->ops[o]);
    free(g->ops);
  }
  free(m->subgraphs);
  for (int i = 0; i < m->nbuffers; i++) free(m->buffers[i].data);
  free(m->buffers);
  for (int i = 0; i < m->nmetadata; i++) free(m->metadata[i].name);
  free(m->metadata);
  for (int i = 0; i < m->nsignatures; i++) {
    litert_signature *g = &m->signatures[i];
    free(g->key);
    for (int j = 0; j < g->ninputs; j++) free(g->inputs[j].name);
    for (int j = 0; j < g->noutputs; j++) free(g->outputs[j].name);
    free(g->inputs);
    free(g->outputs);
  }
  free(m->signatures);
  free(m);
}

/* ---- equality ------------------------------------------------------------- */

#define NE(...) \
  do { \
    if (why && whylen) snprintf(why, whylen, __VA_ARGS__); \
    return 0; \
  } while (0)

static int same_f32(float a, float b) { return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b)); }

static int opts_equal(const litert_options *a, const litert_options *b, char *why, size_t whylen) {
  if (a->type != b->type) NE("options type %d vs %d", a->type, b->type);
  int n;
  const litert_optfield *f = litert_options_fields(a->type, &n);
  const char *pa = (const char *)a, *pb = (const char *)b;
  for (int i = 0; i < n; i++) {
    const litert_optfield *x = &f[i];
    switch (x->kind) {
      case LOF_FLOAT: {
        float va, vb;
        memcpy(&va, pa + x->off, sizeof va);
        memcpy(&vb, pb + x->off, sizeof vb);
        if (!same_f32(va, vb)) NE("options field %d: %g vs %g", x->id, va, vb);
        break;
      }
      case LOF_LONG: {
        int64_t va, vb;
        memcpy(&va, pa + x->off, sizeof va);
        memcpy(&vb, pb + x->off, sizeof vb);
        if (va != vb) NE("options field %d differs", x->id);
        break;
      }
      case LOF_STRING: {
        char *va, *vb;
        memcpy(&va, pa + x->off, sizeof va);
        memcpy(&vb, pb + x->off, sizeof vb);
        if (!streq_null(va, vb)) NE("options field %d: string differs", x->id);
        break;
      }
      case LOF_INTVEC: {
        int na, nb;
        memcpy(&na, pa + x->off_n, sizeof na);
        memcpy(&nb, pb + x->off_n, sizeof nb);
        if (na != nb) NE("options field %d: %d vs %d entries", x->id, na, nb);
        if (na > 0 && memcmp(pa + x->off, pb + x->off, sizeof(int) * (size_t)na))
          NE("options field %d: entries differ", x->id);
        break;
      }
      default: {
        int va, vb;
        memcpy(&va, pa + x->off, sizeof va);
        memcpy(&vb, pb + x->off, sizeof vb);
        if (va != vb) NE("options field %d: %d vs %d", x->id, va, vb);
      }
    }
  }
  return 1;
}

static int i32s_equal(const int32_t *a, int na, const int32_t *b, int nb) {
  if (na != nb) return 0;
  return na <= 0 || memcmp(a, b, sizeof *a * (size_t)na) == 0;
}

int litert_model_equal(const litert_model *a, const litert_model *b, char *why, size_t whylen) {
  char sub[256];
  if (a->version != b->version) NE("version %u vs %u", a->version, b->version);
  if (!streq_null(a->description, b->description)) NE("description differs");
  if (a->nopcodes != b->nopcodes) NE("%d vs %d opcodes", a->nopcodes, b->nopcodes);
  for (int i = 0; i < a->nopcodes; i++) {
    const litert_opcode *x = &a->opcodes[i], *y = &b->opcodes[i];
    if (x->builtin != y->builtin || x->version != y->version ||
        !streq_null(x->custom_code, y->custom_code))
      NE("opcode %d differs", i);
  }
  if (a->nbuffers != b->nbuffers) NE("%d vs %d buffers", a->nbuffers, b->nbuffers);
  for (int i = 0; i < a->nbuffers; i++) {
    const litert_buffer *x = &a->buffers[i], *y = &b->buffers[i];
    if (x->size != y->size) NE("buffer %d: %zu vs %zu bytes", i, x->size, y->size);
    if (x->size && memcmp(x->data, y->data, x->size)) NE("buffer %d: data differs", i);
  }
  if (a->nsubgraphs != b->nsubgraphs) NE("%d vs %d subgraphs", a->nsubgraphs, b->nsubgraphs);
  for (int s = 0; s < a->nsubgraphs; s++) {
    const litert_subgraph *x = &a->subgraphs[s], *y = &b->subgraphs[s];
    if (!streq_null(x->name, y->name)) NE("subgraph %d: name differs", s);
    if (!i32s_equal(x->inputs, x->ninputs, y->inputs, y->ninputs))
      NE("subgraph %d: inputs differ", s);
    if (!i32s_equal(x->outputs, x->noutputs, y->outputs, y->noutputs))
      NE("subgraph %d: outputs differ", s);
    if (x->ntensors != y->ntensors) NE("subgraph %d: %d vs %d tensors", s, x->ntensors, y->ntensors);
    for (int t = 0; t < x->ntensors; t++) {
      const litert_tensor *p = &x->tensors[t], *q = &y->tensors[t];
      if (!streq_null(p->name, q->name)) NE("subgraph %d tensor %d: name differs", s, t);
      if (p->type != q->type) NE("subgraph %d tensor %d: type differs", s, t);
      if (p->buffer != q->buffer) NE("subgraph %d tensor %d: buffer differs", s, t);
      if (p->is_variable != q->is_variable) NE("subgraph %d tensor %d: is_variable differs", s, t);
      if (p->has_rank != q->has_rank) NE("subgraph %d tensor %d: has_rank differs", s, t);
      if (!i32s_equal(p->shape, p->rank, q->shape, q->rank))
        NE("subgraph %d tensor %d: shape differs", s, t);
      if ((p->shape_signature == NULL) != (q->shape_signature == NULL) ||
          (p->shape_signature && !i32s_equal(p->shape_signature, p->rank, q->shape_signature, q->rank)))
        NE("subgraph %d tensor %d: shape_signature differs", s, t);
      const litert_quant *u = &p->q, *v = &q->q;
      if (u->nscale != v->nscale || u->nzero != v->nzero ||
          u->quantized_dimension != v->quantized_dimension)
        NE("subgraph %d tensor %d: quantization differs", s, t);
      for (int k = 0; k < u->nscale; k++)
        if (!same_f32(u->scale[k], v->scale[k])) NE("subgraph %d tensor %d: scale %d differs", s, t, k);
      if (u->nzero && memcmp(u->zero_point, v->zero_point, sizeof *u->zero_point * (size_t)u->nzero))
        NE("subgraph %d tensor %d: zero points differ", s, t);
    }
    if (x->nops != y->nops) NE("subgraph %d: %d vs %d ops", s, x->nops, y->nops);
    for (int o = 0; o < x->nops; o++) {
      const litert_op *p = &x->ops[o], *q = &y->ops[o];
      if (p->opcode_index != q->opcode_index) NE("subgraph %d op %d: opcode differs", s, o);
      if (!i32s_equal(p->inputs, p->ninputs, q->inputs, q->ninputs))
        NE("subgraph %d op %d: inputs differ", s, o);
      if (!i32s_equal(p->outputs, p->noutputs, q->outputs, q->noutputs))
        NE("subgraph %d op %d: outputs differ", s, o);
      if (!i32s_equal(p->intermediates, p->nintermediates, q->intermediates, q->nintermediates))
        NE("subgraph %d op %d: intermediates differ", s, o);
      if (p->custom_options_len != q->custom_options_len ||
          (p->custom_options_len &&
           memcmp(p->custom_options, q->custom_options, p->custom_options_len)))
        NE("subgraph %d op %d: custom options differ", s, o);
      if (!opts_equal(&p->opts, &q->opts, sub, sizeof sub)) NE("subgraph %d op %d: %s", s, o, sub);
    }
  }
  if (a->nmetadata != b->nmetadata) NE("%d vs %d metadata", a->nmetadata, b->nmetadata);
  for (int i = 0; i < a->nmetadata; i++)
    if (!streq_null(a->metadata[i].name, b->metadata[i].name) ||
        a->metadata[i].buffer != b->metadata[i].buffer)
      NE("metadata %d differs", i);
  if (a->nsignatures != b->nsignatures) NE("%d vs %d signatures", a->nsignatures, b->nsignatures);
  for (int i = 0; i < a->nsignatures; i++) {
    const litert_signature *x = &a->signatures[i], *y = &b->signatures[i];
    if (!streq_null(x->key, y->key) || x->subgraph_index != y->subgraph_index ||
        x->ninputs != y->ninputs || x->noutputs != y->noutputs)
      NE("signature %d differs", i);
    for (int j = 0; j < x->ninputs; j++)
      if (!streq_null(x->inputs[j].name, y->inputs[j].name) ||
          x->inputs[j].tensor_index != y->inputs[j].tensor_index)
        NE("signature %d input %d differs", i, j);
    for (int j = 0; j < x->noutputs; j++)
      if (!streq_null(x->outputs[j].name, y->outputs[j].name) ||
          x->outputs[j].tensor_index != y->outputs[j].tensor_index)
        NE("signature %d output %d differs", i, j);
  }
  return 1;
}
