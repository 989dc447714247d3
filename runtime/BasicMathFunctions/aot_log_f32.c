/* aot_log_f32.c - LOG float32: logf(x). */
#include <math.h>

#include "aot_elementwise.h"

int32_t aot_log_f32(const aot_unary_params *p, const float *in, float *out) {
  int32_t i;
  for (i = 0; i < p->size; i++) {
    const float x = in[i];
    out[i] = logf(x);
  }
  return AOT_KERNEL_OK;
}
