/* aot_cast.c - CAST between float32, int8, uint8, int16, uint16, int32,
 * uint32, int64 and bool (static_cast semantics of the reference kernel). */
#include "aot_movement.h"

/* float -> int64, truncating toward zero; NaN -> 0; saturating. */
static int64_t aot_cast_f2i(float f) {
  if (f != f) return 0;
  if (f >= 9223372036854775807.0f) return INT64_MAX;
  if (f <= -9223372036854775808.0f) return INT64_MIN;
  return (int64_t)f;
}

static int32_t aot_cast_load(int32_t type, const void *in, int32_t i, int64_t *iv, float *fv) {
  switch (type) {
    case AOT_MV_FLOAT32: *fv = ((const float *)in)[i]; return 1;
    case AOT_MV_INT8: *iv = ((const int8_t *)in)[i]; return 0;
    case AOT_MV_UINT8: *iv = ((const uint8_t *)in)[i]; return 0;
    case AOT_MV_BOOL: *iv = ((const uint8_t *)in)[i] != 0; return 0;
    case AOT_MV_INT16: *iv = ((const int16_t *)in)[i]; return 0;
    case AOT_MV_UINT16: *iv = ((const uint16_t *)in)[i]; return 0;
    case AOT_MV_INT32: *iv = ((const int32_t *)in)[i]; return 0;
    case AOT_MV_UINT32: *iv = ((const uint32_t *)in)[i]; return 0;
    case AOT_MV_INT64: *iv = ((const int64_t *)in)[i]; return 0;
    default: return -1;
  }
}

int32_t aot_cast(const aot_cast_params *p, const void *input, void *output) {
  int32_t i;
  int64_t iv = 0;
  float fv = 0.0f;
  uint64_t u;
  switch (p->out_type) {
    case AOT_MV_FLOAT32: case AOT_MV_INT8: case AOT_MV_UINT8: case AOT_MV_BOOL:
    case AOT_MV_INT16: case AOT_MV_UINT16: case AOT_MV_INT32: case AOT_MV_UINT32:
    case AOT_MV_INT64:
      break;
    default:
      return AOT_KERNEL_BAD_PARAM;
  }
  for (i = 0; i < p->count; i++) {
    int32_t isf = aot_cast_load(p->in_type, input, i, &iv, &fv);
    if (isf < 0) return AOT_KERNEL_BAD_PARAM;
    if (p->out_type == AOT_MV_FLOAT32) {
      ((float *)output)[i] = isf ? fv : (float)iv;
      continue;
    }
    if (p->out_type == AOT_MV_BOOL) {
      ((uint8_t *)output)[i] = (uint8_t)(isf ? (fv != 0.0f) : (iv != 0));
      continue;
    }
    if (isf) {
      iv = aot_cast_f2i(fv);
      if (p->out_type == AOT_MV_INT32) iv = iv > INT32_MAX ? INT32_MAX : (iv < INT32_MIN ? INT32_MIN : iv);
    }
    u = (uint64_t)iv;
    switch (p->out_type) {
      case AOT_MV_INT8:
        ((int8_t *)output)[i] = (int8_t)((int32_t)((u & 0xFFu) ^ 0x80u) - 0x80);
        break;
      case AOT_MV_UINT8: ((uint8_t *)output)[i] = (uint8_t)(u & 0xFFu); break;
      case AOT_MV_INT16:
        ((int16_t *)output)[i] = (int16_t)((int32_t)((u & 0xFFFFu) ^ 0x8000u) - 0x8000);
        break;
      case AOT_MV_UINT16: ((uint16_t *)output)[i] = (uint16_t)(u & 0xFFFFu); break;
      case AOT_MV_INT32:
        ((int32_t *)output)[i] =
            (int32_t)((int64_t)((u & 0xFFFFFFFFu) ^ 0x80000000u) - (int64_t)0x80000000);
        break;
      case AOT_MV_UINT32: ((uint32_t *)output)[i] = (uint32_t)(u & 0xFFFFFFFFu); break;
      default: ((int64_t *)output)[i] = iv; break;
    }
  }
  return AOT_KERNEL_OK;
}
