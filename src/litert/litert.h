/* litert.h - the mutable in-memory form of a .tflite model (schema v3).
 *
 * The reader (reader*.c) fills it from a flatbuffer with every offset checked; writer.c
 * serializes it back. Model hooks (hooks.c) rewrite it in place. Everything
 * here is owned by the model (free with litert_model_free). Arrays may be
 * grown with xrealloc; counts are authoritative. */
#ifndef AOTC_LITERT_H
#define AOTC_LITERT_H

#include "../aotc.h"

/* Builtin operator codes used by aotc (values from the schema's BuiltinOperator). */
enum {
  OP_ADD = 0, OP_AVERAGE_POOL_2D = 1, OP_CONCATENATION = 2, OP_CONV_2D = 3,
  OP_DEPTHWISE_CONV_2D = 4, OP_DEPTH_TO_SPACE = 5, OP_DEQUANTIZE = 6,
  OP_EMBEDDING_LOOKUP = 7, OP_FLOOR = 8, OP_FULLY_CONNECTED = 9,
  OP_HASHTABLE_LOOKUP = 10, OP_L2_NORMALIZATION = 11, OP_L2_POOL_2D = 12,
  OP_LOCAL_RESPONSE_NORMALIZATION = 13, OP_LOGISTIC = 14, OP_LSH_PROJECTION = 15,
  OP_LSTM = 16, OP_MAX_POOL_2D = 17, OP_MUL = 18, OP_RELU = 19, OP_RELU_N1_TO_1 = 20,
  OP_RELU6 = 21, OP_RESHAPE = 22, OP_RESIZE_BILINEAR = 23, OP_RNN = 24,
  OP_SOFTMAX = 25, OP_SPACE_TO_DEPTH = 26, OP_SVDF = 27, OP_TANH = 28,
  OP_CONCAT_EMBEDDINGS = 29, OP_SKIP_GRAM = 30, OP_CALL = 31, OP_CUSTOM = 32,
  OP_EMBEDDING_LOOKUP_SPARSE = 33, OP_PAD = 34, OP_UNIDIRECTIONAL_SEQUENCE_RNN = 35,
  OP_GATHER = 36, OP_BATCH_TO_SPACE_ND = 37, OP_SPACE_TO_BATCH_ND = 38,
  OP_TRANSPOSE = 39, OP_MEAN = 40, OP_SUB = 41, OP_DIV = 42, OP_SQUEEZE = 43,
  OP_UNIDIRECTIONAL_SEQUENCE_LSTM = 44, OP_STRIDED_SLICE = 45,
  OP_BIDIRECTIONAL_SEQUENCE_RNN = 46, OP_EXP = 47, OP_TOPK_V2 = 48, OP_SPLIT = 49,
  OP_LOG_SOFTMAX = 50, OP_DELEGATE = 51, OP_BIDIRECTIONAL_SEQUENCE_LSTM = 52,
  OP_CAST = 53, OP_PRELU = 54, OP_MAXIMUM = 55, OP_ARG_MAX = 56, OP_MINIMUM = 57,
  OP_LESS = 58, OP_NEG = 59, OP_PADV2 = 60, OP_GREATER = 61, OP_GREATER_EQUAL = 62,
  OP_LESS_EQUAL = 63, OP_SELECT = 64, OP_SLICE = 65, OP_SIN = 66,
  OP_TRANSPOSE_CONV = 67, OP_SPARSE_TO_DENSE = 68, OP_TILE = 69,
  OP_EXPAND_DIMS = 70, OP_EQUAL = 71, OP_NOT_EQUAL = 72, OP_LOG = 73, OP_SUM = 74,
  OP_SQRT = 75, OP_RSQRT = 76, OP_SHAPE = 77, OP_POW = 78, OP_ARG_MIN = 79,
  OP_FAKE_QUANT = 80, OP_REDUCE_PROD = 81, OP_REDUCE_MAX = 82, OP_PACK = 83,
  OP_LOGICAL_OR = 84, OP_ONE_HOT = 85, OP_LOGICAL_AND = 86, OP_LOGICAL_NOT = 87,
  OP_UNPACK = 88, OP_REDUCE_MIN = 89, OP_FLOOR_DIV = 90, OP_REDUCE_ANY = 91,
  OP_SQUARE = 92, OP_ZEROS_LIKE = 93, OP_FILL = 94, OP_FLOOR_MOD = 95,
  OP_RANGE = 96, OP_RESIZE_NEAREST_NEIGHBOR = 97, OP_LEAKY_RELU = 98,
  OP_SQUARED_DIFFERENCE = 99, OP_MIRROR_PAD = 100, OP_ABS = 101,
  OP_SPLIT_V = 102, OP_UNIQUE = 103, OP_CEIL = 104, OP_REVERSE_V2 = 105,
  OP_ADD_N = 106, OP_GATHER_ND = 107, OP_COS = 108, OP_WHERE = 109, OP_RANK = 110,
  OP_ELU = 111, OP_REVERSE_SEQUENCE = 112, OP_MATRIX_DIAG = 113,
  OP_QUANTIZE = 114, OP_MATRIX_SET_DIAG = 115, OP_ROUND = 116, OP_HARD_SWISH = 117,
  OP_IF = 118, OP_WHILE = 119, OP_NON_MAX_SUPPRESSION_V4 = 120,
  OP_NON_MAX_SUPPRESSION_V5 = 121, OP_SCATTER_ND = 122, OP_SELECT_V2 = 123,
  OP_DENSIFY = 124, OP_SEGMENT_SUM = 125, OP_BATCH_MATMUL = 126,
  OP_PLACEHOLDER_FOR_GREATER_OP_CODES = 127, OP_CUMSUM = 128,
  OP_CALL_ONCE = 129, OP_BROADCAST_TO = 130, OP_RFFT2D = 131, OP_CONV_3D = 132,
  OP_IMAG = 133, OP_REAL = 134, OP_COMPLEX_ABS = 135, OP_HASHTABLE = 136,
  OP_HASHTABLE_FIND = 137, OP_HASHTABLE_IMPORT = 138, OP_HASHTABLE_SIZE = 139,
  OP_REDUCE_ALL = 140, OP_CONV_3D_TRANSPOSE = 141, OP_VAR_HANDLE = 142,
  OP_READ_VARIABLE = 143, OP_ASSIGN_VARIABLE = 144, OP_BROADCAST_ARGS = 145,
  OP_RANDOM_STANDARD_NORMAL = 146, OP_BUCKETIZE = 147, OP_RANDOM_UNIFORM = 148,
  OP_MULTINOMIAL = 149, OP_GELU = 150, OP_DYNAMIC_UPDATE_SLICE = 151,
  OP_RELU_0_TO_1 = 152, OP_UNSORTED_SEGMENT_PROD = 153, OP_UNSORTED_SEGMENT_MAX = 154,
  OP_UNSORTED_SEGMENT_SUM = 155, OP_ATAN2 = 156, OP_UNSORTED_SEGMENT_MIN = 157,
  OP_SIGN = 158, OP_BITCAST = 159, OP_BITWISE_XOR = 160, OP_RIGHT_SHIFT = 161,
  OP_BUILTIN_COUNT_ = 210
};
const char *litert_op_name(int builtin);   /* "CONV_2D", or "BUILTIN_<n>" */

/* ActivationFunctionType */
enum { ACT_NONE = 0, ACT_RELU = 1, ACT_RELU_N1_TO_1 = 2, ACT_RELU6 = 3,
       ACT_TANH = 4, ACT_SIGN_BIT = 5 };
/* Padding */
enum { PAD_SAME = 0, PAD_VALID = 1 };

/* Options of every supported builtin, flattened into one struct: a reader
 * fills only the fields its op's options table has (others stay at their
 * schema defaults, set by litert_options_default). */
typedef struct litert_options {
  int type;                 /* BuiltinOptions union type; 0 = none present */
  int fused_act;            /* fused_activation_function */
  int padding;              /* PAD_SAME / PAD_VALID */
  int stride_w, stride_h;
  int dilation_w, dilation_h;   /* default 1 */
  int depth_multiplier;
  int filter_w, filter_h;
  float beta;               /* SOFTMAX */
  float alpha;              /* LEAKY_RELU */
  int axis;                 /* CONCATENATION, PACK, UNPACK, GATHER */
  int num;                  /* PACK values_count, UNPACK num */
  int num_splits;           /* SPLIT, SPLIT_V */
  int keep_dims;            /* MEAN / reducers */
  int new_shape[8];         /* RESHAPE new_shape */
  int new_shape_n;          /* -1: absent */
  int squeeze_dims[8];
  int squeeze_n;
  int begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask;
  int ss_offset;            /* StridedSliceOptions.offset */
  int weights_format;       /* FULLY_CONNECTED */
  int keep_num_dims;        /* FULLY_CONNECTED */
  int asymmetric_quantize_inputs;
  int pot_scale_int16;      /* ADD / SUB, default 1 */
  int rank;                 /* SVDF */
  float cell_clip, proj_clip;   /* LSTM */
  int time_major;           /* UNIDIRECTIONAL_SEQUENCE_LSTM */
  int diagonal_recurrent_tensors;
  int batch_dims;           /* GATHER */
  int cond_subgraph, body_subgraph;   /* WHILE */
  int then_subgraph, else_subgraph;   /* IF */
  int init_subgraph;        /* CALL_ONCE */
  char *container, *shared_name;      /* VAR_HANDLE */
  int in_data_type, out_data_type;    /* CAST */
  int mirror_mode;          /* MIRROR_PAD */
  int align_corners, half_pixel_centers;   /* RESIZE_* */
  int adj_x, adj_y;         /* BATCH_MATMUL */
  int block_size;           /* DEPTH_TO_SPACE / SPACE_TO_DEPTH */
  int approximate;          /* GELU */
  int exclusive, reverse;   /* CUMSUM */
  int out_type;             /* ARG_MAX / ARG_MIN output_type; SHAPE out_type;
                               UNIQUE idx_out_type */
  /* --- added with the reader/writer (so a read-write roundtrip keeps them) --- */
  int quantized_bias_type;  /* CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV (0: unset) */
  int merge_outputs;        /* BIDIRECTIONAL_SEQUENCE_LSTM / _RNN */
  int kernel_type;          /* LSTM */
  int stride_d, dilation_d; /* CONV_3D (dilation default 1) */
  int radius;               /* LOCAL_RESPONSE_NORMALIZATION (alpha, beta above) */
  float bias;               /* LOCAL_RESPONSE_NORMALIZATION */
  float fq_min, fq_max;     /* FAKE_QUANT */
  int num_bits, narrow_range;   /* FAKE_QUANT */
  int subgraph;             /* CALL */
  int64_t seed, seed2;      /* RANDOM_* */
  int table_id, key_dtype, value_dtype;   /* HASHTABLE */
  int validate_indices;     /* SPARSE_TO_DENSE */
  int combiner;             /* EMBEDDING_LOOKUP_SPARSE */
  /* ONE_HOT uses axis; REVERSE_SEQUENCE uses axis (seq_dim) and batch_dims
   * (batch_dim); LRN uses alpha and beta. */
} litert_options;
void litert_options_default(litert_options *o);

typedef struct litert_quant {
  int nscale;               /* 0: not quantized */
  float *scale;
  int nzero;
  int64_t *zero_point;
  int quantized_dimension;
} litert_quant;

typedef struct litert_tensor {
  char *name;
  int type;                 /* aotc_dtype */
  int rank;                 /* -1: shape absent (unknown rank) */
  int32_t *shape;           /* rank entries */
  int32_t *shape_signature; /* rank entries, or NULL if absent */
  uint32_t buffer;          /* index into model->buffers; 0 = no data */
  int is_variable;
  litert_quant q;
  int has_rank;             /* Tensor.has_rank as stored (added with the writer, so
                               a roundtrip keeps it: the LiteRT runtime honours
                               shape_signature only when it is set); the
                               builders set it for rank >= 0 */
} litert_tensor;

typedef struct litert_op {
  uint32_t opcode_index;
  int32_t *inputs;          /* tensor indices; -1 = optional input absent */
  int ninputs;
  int32_t *outputs;
  int noutputs;
  int32_t *intermediates;
  int nintermediates;
  litert_options opts;
  uint8_t *custom_options;  /* raw bytes, or NULL */
  size_t custom_options_len;
} litert_op;

typedef struct litert_subgraph {
  char *name;
  litert_tensor *tensors;
  int ntensors;
  int32_t *inputs;
  int ninputs;
  int32_t *outputs;
  int noutputs;
  litert_op *ops;
  int nops;
} litert_subgraph;

typedef struct litert_buffer {
  uint8_t *data;            /* owned copy; NULL if empty */
  size_t size;
} litert_buffer;

typedef struct litert_opcode {
  int builtin;              /* max(deprecated_builtin_code, builtin_code) */
  char *custom_code;        /* for OP_CUSTOM, else NULL */
  int version;
} litert_opcode;

typedef struct litert_metadata {
  char *name;
  uint32_t buffer;
} litert_metadata;

typedef struct litert_sigtensor {
  char *name;
  uint32_t tensor_index;
} litert_sigtensor;

typedef struct litert_signature {
  char *key;
  uint32_t subgraph_index;
  litert_sigtensor *inputs;
  int ninputs;
  litert_sigtensor *outputs;
  int noutputs;
} litert_signature;

typedef struct litert_model {
  uint32_t version;
  char *description;
  litert_opcode *opcodes;
  int nopcodes;
  litert_subgraph *subgraphs;
  int nsubgraphs;
  litert_buffer *buffers;
  int nbuffers;
  litert_metadata *metadata;
  int nmetadata;
  litert_signature *signatures;
  int nsignatures;
} litert_model;

/* Reads a .tflite image. Returns NULL and a one-line message in d (naming
 * what is wrong and the byte offset) for any malformed input. Never reads out
 * of bounds. Also validates every tensor/buffer/opcode/subgraph index and
 * that tensor data sizes match shape x dtype. */
litert_model *litert_read(const uint8_t *data, size_t len, aotc_diag *d);
litert_model *litert_read_file(const char *path, aotc_diag *d);
void litert_model_free(litert_model *m);
/* Frees what an op owns (tensor lists, custom options, option strings) and
 * zeroes it. */
void litert_op_free(litert_op *op);

/* Serializes to a valid .tflite flatbuffer (malloc'd, *len set). */
int litert_write(const litert_model *m, uint8_t **out, size_t *len, aotc_diag *d);
int litert_write_file(const litert_model *m, const char *path, aotc_diag *d);

/* Builtin code of an op. */
int litert_op_builtin(const litert_model *m, const litert_op *op);
const char *litert_op_custom(const litert_model *m, const litert_op *op);

/* Building models (for tests, the demo and hooks). Each returns the index
 * of what it added. */
litert_model *litert_model_new(void);
int litert_add_subgraph(litert_model *m, const char *name);
int litert_add_buffer(litert_model *m, const void *data, size_t size);
int litert_add_tensor(litert_model *m, int sg, const char *name, int type,
                      int rank, const int32_t *shape, int buffer);
void litert_tensor_set_quant(litert_model *m, int sg, int t, int n,
                             const float *scale, const int64_t *zp, int qdim);
int litert_add_opcode(litert_model *m, int builtin, const char *custom_code, int version);
int litert_add_op(litert_model *m, int sg, int builtin, const char *custom_code,
                  int nin, const int32_t *in, int nout, const int32_t *out,
                  const litert_options *opts);
void litert_set_io(litert_model *m, int sg, int nin, const int32_t *in, int nout,
                   const int32_t *out);

/* Size of a tensor in bytes from its shape and type (0 for unknown/dynamic). */
size_t litert_tensor_bytes(const litert_tensor *t);

/* ---- added with the reader/writer ------------------------------------- */

/* BuiltinOptions union type ids (schema v3), the values of litert_options.type. */
enum {
  BO_NONE = 0, BO_Conv2DOptions = 1, BO_DepthwiseConv2DOptions = 2,
  BO_ConcatEmbeddingsOptions = 3, BO_LSHProjectionOptions = 4, BO_Pool2DOptions = 5,
  BO_SVDFOptions = 6, BO_RNNOptions = 7, BO_FullyConnectedOptions = 8,
  BO_SoftmaxOptions = 9, BO_ConcatenationOptions = 10, BO_AddOptions = 11,
  BO_L2NormOptions = 12, BO_LocalResponseNormalizationOptions = 13, BO_LSTMOptions = 14,
  BO_ResizeBilinearOptions = 15, BO_CallOptions = 16, BO_ReshapeOptions = 17,
  BO_SkipGramOptions = 18, BO_SpaceToDepthOptions = 19,
  BO_EmbeddingLookupSparseOptions = 20, BO_MulOptions = 21, BO_PadOptions = 22,
  BO_GatherOptions = 23, BO_BatchToSpaceNDOptions = 24, BO_SpaceToBatchNDOptions = 25,
  BO_TransposeOptions = 26, BO_ReducerOptions = 27, BO_SubOptions = 28,
  BO_DivOptions = 29, BO_SqueezeOptions = 30, BO_SequenceRNNOptions = 31,
  BO_StridedSliceOptions = 32, BO_ExpOptions = 33, BO_TopKV2Options = 34,
  BO_SplitOptions = 35, BO_LogSoftmaxOptions = 36, BO_CastOptions = 37,
  BO_DequantizeOptions = 38, BO_MaximumMinimumOptions = 39, BO_ArgMaxOptions = 40,
  BO_LessOptions = 41, BO_NegOptions = 42, BO_PadV2Options = 43, BO_GreaterOptions = 44,
  BO_GreaterEqualOptions = 45, BO_LessEqualOptions = 46, BO_SelectOptions = 47,
  BO_SliceOptions = 48, BO_TransposeConvOptions = 49, BO_SparseToDenseOptions = 50,
  BO_TileOptions = 51, BO_ExpandDimsOptions = 52, BO_EqualOptions = 53,
  BO_NotEqualOptions = 54, BO_ShapeOptions = 55, BO_PowOptions = 56,
  BO_ArgMinOptions = 57, BO_FakeQuantOptions = 58, BO_PackOptions = 59,
  BO_LogicalOrOptions = 60, BO_OneHotOptions = 61, BO_LogicalAndOptions = 62,
  BO_LogicalNotOptions = 63, BO_UnpackOptions = 64, BO_FloorDivOptions = 65,
  BO_SquareOptions = 66, BO_ZerosLikeOptions = 67, BO_FillOptions = 68,
  BO_BidirectionalSequenceLSTMOptions = 69, BO_BidirectionalSequenceRNNOptions = 70,
  BO_UnidirectionalSequenceLSTMOptions = 71, BO_FloorModOptions = 72,
  BO_RangeOptions = 73, BO_ResizeNearestNeighborOptions = 74, BO_LeakyReluOptions = 75,
  BO_SquaredDifferenceOptions = 76, BO_MirrorPadOptions = 77, BO_AbsOptions = 78,
  BO_SplitVOptions = 79, BO_UniqueOptions = 80, BO_ReverseV2Options = 81,
  BO_AddNOptions = 82, BO_GatherNdOptions = 83, BO_CosOptions = 84, BO_WhereOptions = 85,
  BO_RankOptions = 86, BO_ReverseSequenceOptions = 87, BO_MatrixDiagOptions = 88,
  BO_QuantizeOptions = 89, BO_MatrixSetDiagOptions = 90, BO_HardSwishOptions = 91,
  BO_IfOptions = 92, BO_WhileOptions = 93, BO_DepthToSpaceOptions = 94,
  BO_NonMaxSuppressionV4Options = 95, BO_NonMaxSuppressionV5Options = 96,
  BO_ScatterNdOptions = 97, BO_SelectV2Options = 98, BO_DensifyOptions = 99,
  BO_SegmentSumOptions = 100, BO_BatchMatMulOptions = 101, BO_CumsumOptions = 102,
  BO_CallOnceOptions = 103, BO_BroadcastToOptions = 104, BO_Rfft2dOptions = 105,
  BO_Conv3DOptions = 106, BO_HashtableOptions = 107, BO_HashtableFindOptions = 108,
  BO_HashtableImportOptions = 109, BO_HashtableSizeOptions = 110,
  BO_VarHandleOptions = 111, BO_ReadVariableOptions = 112,
  BO_AssignVariableOptions = 113, BO_RandomOptions = 114, BO_BucketizeOptions = 115,
  BO_GeluOptions = 116, BO_DynamicUpdateSliceOptions = 117,
  BO_UnsortedSegmentProdOptions = 118, BO_UnsortedSegmentMaxOptions = 119,
  BO_UnsortedSegmentMinOptions = 120, BO_UnsortedSegmentSumOptions = 121,
  BO_ATan2Options = 122, BO_SignOptions = 123, BO_BitcastOptions = 124,
  BO_BitwiseXorOptions = 125, BO_RightShiftOptions = 126, BO_COUNT_ = 127
};
const char *litert_options_name(int type);   /* "Conv2DOptions", or "BuiltinOptions<n>" */
/* The options table type the schema pairs with a builtin (BO_NONE if it has none
 * or aotc does not know it). */
int litert_builtin_options_type(int builtin);

/* Schema description of the option tables whose fields litert_options holds
 * (shared by reader_ops.c and writer.c so that a roundtrip is exact). */
enum { LOF_BOOL, LOF_BYTE, LOF_INT, LOF_UINT, LOF_FLOAT, LOF_LONG, LOF_INTVEC, LOF_STRING };
typedef struct litert_optfield {
  int id;                   /* field id in the options table */
  int kind;                 /* LOF_* */
  size_t off;               /* offsetof(litert_options, member) */
  size_t off_n;             /* LOF_INTVEC: offset of the count member */
  int def;                  /* default (int kinds; LOF_INTVEC: count when absent) */
  int cap;                  /* LOF_INTVEC: capacity of the array member */
} litert_optfield;
/* Fields of option table `type` (NULL/0 if it has none aotc keeps). */
const litert_optfield *litert_options_fields(int type, int *n);

/* Deep copy of the options (duplicates the strings); free with litert_options_free. */
void litert_options_copy(litert_options *dst, const litert_options *src);
void litert_options_free(litert_options *o);

/* Structural equality of two models (every field the reader fills). Returns 1 if
 * equal, else 0 with a short description of the first difference in why. */
int litert_model_equal(const litert_model *a, const litert_model *b, char *why, size_t whylen);

#endif
