/* aot_custom.h - the calling convention of user-supplied CUSTOM operator
 * kernels (C99).
 *
 * A model op CUSTOM("<code>") registered in the aotc config (custom_operators:
 * code, source, function, scratch_bytes) is compiled to one call
 *
 *     int32_t <function>(const aot_custom_args *a);
 *
 * with every field precomputed by aotc: the tensors' data pointers (inputs
 * are read-only even though the pointer is not const-qualified; an absent
 * optional input has data == NULL and rank 0), element types (the .tflite
 * TensorType values below), shapes, quantization of the first channel, the
 * op's custom_options bytes as stored in the model (a flexbuffer when the
 * converter wrote one; aotc does not decode them) and a scratch buffer of
 * scratch_bytes bytes (NULL when 0) that lives only during the call. The
 * kernel returns 0 (AOT_KERNEL_OK) on success; any other value stops the run
 * and <prefix>_model_run returns it as the op's failure status.
 *
 * aotc renames the aot_ / AOT_ prefix of this header to the module prefix
 * (aot_custom_args becomes kws_custom_args with --module.prefix kws); write
 * the kernel against aot_custom.h and include it as "aot_custom.h". */
#ifndef AOT_CUSTOM_H
#define AOT_CUSTOM_H

#include <stdint.h>

/* Element types: the .tflite schema's TensorType values. */
#define AOT_CUSTOM_FLOAT32 0
#define AOT_CUSTOM_FLOAT16 1
#define AOT_CUSTOM_INT32 2
#define AOT_CUSTOM_UINT8 3
#define AOT_CUSTOM_INT64 4
#define AOT_CUSTOM_BOOL 6
#define AOT_CUSTOM_INT16 7
#define AOT_CUSTOM_INT8 9

typedef struct aot_custom_tensor {
  void *data;             /* NULL: optional input absent */
  const int32_t *shape;   /* rank entries */
  int32_t rank;
  int32_t dtype;          /* AOT_CUSTOM_* */
  uint32_t bytes;         /* element count x element size */
  float scale;            /* 0 when not quantized */
  int32_t zero_point;
} aot_custom_tensor;

typedef struct aot_custom_args {
  const aot_custom_tensor *inputs;
  int32_t num_inputs;
  const aot_custom_tensor *outputs;
  int32_t num_outputs;
  const uint8_t *options;   /* the op's custom_options (NULL when none) */
  uint32_t options_bytes;
  void *scratch;            /* scratch_bytes bytes, or NULL */
  uint32_t scratch_bytes;
} aot_custom_args;

#endif
