/* main.c - demo host program: runs one inference of the generated module
 * (prefix aot) on a deterministic input and prints the outputs. */
#include <stdio.h>
#include <string.h>

#include "aot_model.h"

static aot_model_context_t ctx;

static double value(const aot_tensor_io_t *t, size_t i) {
  switch (t->dtype) {
    case aot_dtype_float32: return ((const float *)t->data)[i];
    case aot_dtype_int8: return ((const int8_t *)t->data)[i];
    case aot_dtype_uint8: return ((const uint8_t *)t->data)[i];
    case aot_dtype_int16: return ((const int16_t *)t->data)[i];
    case aot_dtype_int32: return ((const int32_t *)t->data)[i];
    default: return 0.0;
  }
}

int main(void) {
  int32_t st = aot_model_init(&ctx);
  size_t i;
  int k;
  if (st != aot_status_ok) {
    printf("init failed: status %ld\n", (long)st);
    return 1;
  }
  for (k = 0; k < aot_num_inputs; k++) {
    unsigned char *p = (unsigned char *)ctx.inputs[k].data;
    for (i = 0; i < ctx.inputs[k].bytes; i++) p[i] = (unsigned char)((i * 37u + 11u) & 0x3f);
    if (ctx.inputs[k].dtype == aot_dtype_float32)
      for (i = 0; i < ctx.inputs[k].size; i++) ((float *)ctx.inputs[k].data)[i] = (float)(i % 17) / 17.0f;
  }
  st = aot_model_run(&ctx);
  if (st != aot_status_ok) {
    printf("run failed: status %ld\n", (long)st);
    return 1;
  }
  for (k = 0; k < aot_num_outputs; k++) {
    const aot_tensor_io_t *t = &ctx.outputs[k];
    printf("output %d '%s' (%lu values):", k, t->name, (unsigned long)t->size);
    for (i = 0; i < t->size && i < 16; i++) printf(" %g", value(t, i));
    if (t->size > 16) printf(" ...");
    printf("\n");
    if (t->scale > 0.0f) {
      printf("  dequantized:");
      for (i = 0; i < t->size && i < 16; i++) printf(" %.4f", t->scale * (value(t, i) - t->zero_point));
      printf("\n");
    }
  }
  printf("scratch arena: %lu bytes, persistent arena: %lu bytes\n",
         (unsigned long)aot_arena_sizes[0], (unsigned long)(aot_num_arena_buffers > 2 ? aot_arena_sizes[1] : 0));
  return 0;
}
