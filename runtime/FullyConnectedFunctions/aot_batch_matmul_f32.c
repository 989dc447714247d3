/* aot_batch_matmul_f32.c - BATCH_MATMUL float32, as the TFLite reference:
 * products summed over k in order (no activation). Batch dimensions broadcast
 * (stride 0); the template aot_bmm_k.h. */
#define AOT_BMM_NAME aot_batch_matmul_f32
#define AOT_BMM_T float
#define AOT_BMM_ACC float
#define AOT_BMM_MAC(l, r) (r) * (l)
#define AOT_BMM_OUT(acc) (acc)
#include "aot_bmm_k.h"
