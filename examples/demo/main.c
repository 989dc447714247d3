/* main.c - demo host program: runs one inference of the generated module
 * (prefix aot) on a deterministic input and prints the outputs. */
#include <stdio.h>
#include <string.h>

#include "aot_model.h"

static aot_model_context_t ctx;

static double value(const aot_tensor_t *t, size_t i) {
  switch (t->dtype) {
    case AOT_DTYPE_FLOAT32: return ((const float *)t->data)[i];
    case AOT_DTYPE_INT8: return ((const int8_t *)t->data)[i];
    case AOT_DTYPE_UINT8: return ((const uint8_t *)t->data)[i];
    case AOT_DTYPE_INT16: return ((const int16_t *)t->data)[i];
    case AOT_DTYPE_INT32: return ((const int32_t *)t->data)[i];
    default: return 0.0;
  }
}

int main(void) {
  int32_t st = aot_model_init(&ctx);
  size_t i;
  int k;
  if (st != AOT_STATUS_OK) {
    printf("init failed: status %ld\n", (long)st);
    return 1;
  }
  for (k = 0; k < AOT_NUM_INPUTS; k++) {
    unsigned char *p = (unsigned char *)ctx.inputs[k].data;
    for (i = 0; i < ctx.inputs[k].bytes; i++) p[i] = (unsigned char)((i * 37u + 11u) & 0x3f);
    if (ctx.inputs[k].dtype == AOT_DTYPE_FLOAT32)
      for (i = 0; i < ctx.inputs[k].count; i++) ((float *)ctx.inputs[k].data)[i] = (float)(i % 17) / 17.0f;
  }
  st = aot_model_run(&ctx);
  if (st != AOT_STATUS_OK) {
    printf("run failed: status %ld\n", (long)st);
    return 1;
  }
  for (k = 0; k < AOT_NUM_OUTPUTS; k++) {
    const aot_tensor_t *t = &ctx.outputs[k];
    printf("output %d '%s' (%lu values):", k, t->name, (unsigned long)t->count);
    for (i = 0; i < t->count && i < 16; i++) printf(" %g", value(t, i));
    if (t->count > 16) printf(" ...");
    printf("\n");
    if (t->scale > 0.0f) {
      printf("  dequantized:");
      for (i = 0; i < t->count && i < 16; i++) printf(" %.4f", t->scale * (value(t, i) - t->zero_point));
      printf("\n");
    }
  }
  printf("scratch arena: %lu bytes, persistent arena: %lu bytes\n",
         (unsigned long)AOT_SCRATCH_ARENA_BYTES, (unsigned long)AOT_PERSISTENT_ARENA_BYTES);
  return 0;
}
