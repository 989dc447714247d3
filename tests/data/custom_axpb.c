/* custom_axpb.c - a user kernel for tests/integration/test_refusals.sh:
 * CUSTOM 'AOTC_TEST_AXPB', y[r][c] = x[r][c] * w[c] + b with b the float in
 * the op's custom_options. Uses its scratch buffer for the products. */
#include <string.h>

#include "aot_custom.h"

int32_t axpb_run(const aot_custom_args *a) {
  const aot_custom_tensor *x, *w, *y;
  const float *xd, *wd;
  float *yd, *acc, b;
  int32_t rows, cols, r, c;
  if (a->num_inputs != 2 || a->num_outputs != 1) return 11;
  x = &a->inputs[0];
  w = &a->inputs[1];
  y = &a->outputs[0];
  if (x->dtype != AOT_CUSTOM_FLOAT32 || w->dtype != AOT_CUSTOM_FLOAT32 ||
      y->dtype != AOT_CUSTOM_FLOAT32 || x->rank != 2 || w->rank != 1 || a->options_bytes != 4)
    return 12;
  rows = x->shape[0];
  cols = x->shape[1];
  if (w->shape[0] != cols || y->bytes != x->bytes) return 13;
  acc = (float *)a->scratch;
  if (!acc || a->scratch_bytes < (uint32_t)cols * 4u) return 14;
  memcpy(&b, a->options, 4);
  xd = (const float *)x->data;
  wd = (const float *)w->data;
  yd = (float *)y->data;
  for (r = 0; r < rows; r++) {
    for (c = 0; c < cols; c++) acc[c] = xd[r * cols + c] * wd[c];
    for (c = 0; c < cols; c++) yd[r * cols + c] = acc[c] + b;
  }
  return 0;
}
