/* fp16.h - rewriting a float model into a fully float16 model (`aotc fp16`). */
#ifndef AOTC_FP16_H
#define AOTC_FP16_H

#include "litert.h"

/* Rewrites m in place into a fully float16 model: every float32 tensor of
 * every subgraph (weights, activations, variable state, loop bodies) becomes
 * float16, constants are converted (round to nearest even; values beyond the
 * float16 range become infinities and are counted in a warning),
 * DEQUANTIZE of constants (float16 weights, int8 weights) is folded into
 * float16 constants, DEQUANTIZE / CAST that became float16 -> float16 are
 * removed, CAST options follow the new types and int8 weights read
 * directly by float ops (hybrid models) are dequantized to float16.
 *
 * Model inputs and outputs (of subgraph 0 and of every signature's
 * subgraph) that were float32 stay float32 behind CAST ops (float32 ->
 * float16 at the start, float16 -> float32 at the end), unless io_fp16 is
 * set, in which case they become float16 too (signatures keep pointing at
 * the same names).
 *
 * Returns 0, or -1 with a diagnostic (code 2) for a model it cannot
 * convert: quantized activations (QUANTIZE ops, quantized non-constant
 * tensors). */
int litert_to_fp16(litert_model *m, int io_fp16, aotc_diag *d);

/* What a conversion did (for reports). */
typedef struct litert_fp16_stats {
  int tensors;            /* float32 tensors turned float16 */
  int constants;          /* of which constants (converted data) */
  int folded;             /* DEQUANTIZE ops folded into constants */
  int removed;            /* identity DEQUANTIZE / CAST ops removed */
  int casts;              /* CAST ops added for float32 inputs / outputs */
  size_t overflow;        /* constant values that became +-inf */
  size_t underflow;       /* non-zero constant values that became +-0 */
} litert_fp16_stats;
/* litert_to_fp16 that also fills *st (if non-NULL). */
int litert_to_fp16_ex(litert_model *m, int io_fp16, litert_fp16_stats *st, aotc_diag *d);

#endif
