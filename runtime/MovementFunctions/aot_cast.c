/* aot_cast.c - CAST between float32, float16, int8, uint8, int16, uint16,
 * int32, uint32, int64 and bool (static_cast semantics of the reference
 * kernel). float16 is IEEE binary16 (uint16_t bit patterns): it decodes
 * exactly to float and encodes from float with round to nearest even
 * (aot_f16.h); an integer becomes float16 through float, as Eigen::half does.
 * Elements go through a small chunk buffer (int64 or float) so the type
 * dispatch happens once per chunk, not per element. */
#include "aot_f16.h"
#include "aot_movement.h"

#define AOT_CAST_CHUNK 32

/* float -> int64, truncating toward zero; NaN -> 0; saturating. */
static int64_t aot_cast_f2i(float f) {
  if (f != f) return 0;
  if (f >= 9223372036854775807.0f) return INT64_MAX;
  if (f <= -9223372036854775808.0f) return INT64_MIN;
  return (int64_t)f;
}

/* 1 for the element types CAST converts. */
static int aot_cast_type_ok(int32_t t) {
  switch (t) {
    case AOT_MV_FLOAT32: case AOT_MV_FLOAT16: case AOT_MV_INT8: case AOT_MV_UINT8:
    case AOT_MV_BOOL: case AOT_MV_INT16: case AOT_MV_UINT16: case AOT_MV_INT32:
    case AOT_MV_UINT32: case AOT_MV_INT64:
      return 1;
    default:
      return 0;
  }
}

#define AOT_LOAD(T, expr)                                       \
  do {                                                          \
    const T *s_ = (const T *)input + base;                      \
    for (k = 0; k < n; k++) iv[k] = (expr);                     \
  } while (0)

#define AOT_STORE(T, expr)                                      \
  do {                                                          \
    T *d_ = (T *)output + base;                                 \
    for (k = 0; k < n; k++) d_[k] = (expr);                     \
  } while (0)

int32_t aot_cast(const aot_cast_params *p, const void *input, void *output) {
  int64_t iv[AOT_CAST_CHUNK];
  float fv[AOT_CAST_CHUNK];
  int32_t base, n, k;
  const int in_f = p->in_type == AOT_MV_FLOAT32 || p->in_type == AOT_MV_FLOAT16;
  if (!aot_cast_type_ok(p->in_type) || !aot_cast_type_ok(p->out_type))
    return AOT_KERNEL_BAD_PARAM;
  if (p->count < 0) return AOT_KERNEL_BAD_PARAM;
  for (base = 0; base < p->count; base += AOT_CAST_CHUNK) {
    n = p->count - base < AOT_CAST_CHUNK ? p->count - base : AOT_CAST_CHUNK;
    /* load */
    switch (p->in_type) {
      case AOT_MV_FLOAT32: {
        const float *s = (const float *)input + base;
        for (k = 0; k < n; k++) fv[k] = s[k];
        break;
      }
      case AOT_MV_FLOAT16: {
        const uint16_t *s = (const uint16_t *)input + base;
        for (k = 0; k < n; k++) fv[k] = aot_f16_to_f32(s[k]);
        break;
      }
      case AOT_MV_INT8: AOT_LOAD(int8_t, s_[k]); break;
      case AOT_MV_UINT8: AOT_LOAD(uint8_t, s_[k]); break;
      case AOT_MV_BOOL: AOT_LOAD(uint8_t, s_[k] != 0); break;
      case AOT_MV_INT16: AOT_LOAD(int16_t, s_[k]); break;
      case AOT_MV_UINT16: AOT_LOAD(uint16_t, s_[k]); break;
      case AOT_MV_INT32: AOT_LOAD(int32_t, s_[k]); break;
      case AOT_MV_UINT32: AOT_LOAD(uint32_t, s_[k]); break;
      default: AOT_LOAD(int64_t, s_[k]); break;
    }
    /* convert and store */
    if (p->out_type == AOT_MV_FLOAT32) {
      float *d = (float *)output + base;
      for (k = 0; k < n; k++) d[k] = in_f ? fv[k] : (float)iv[k];
      continue;
    }
    if (p->out_type == AOT_MV_FLOAT16) {
      uint16_t *d = (uint16_t *)output + base;
      for (k = 0; k < n; k++) d[k] = aot_f32_to_f16(in_f ? fv[k] : (float)iv[k]);
      continue;
    }
    if (p->out_type == AOT_MV_BOOL) {
      uint8_t *d = (uint8_t *)output + base;
      for (k = 0; k < n; k++) d[k] = (uint8_t)(in_f ? (fv[k] != 0.0f) : (iv[k] != 0));
      continue;
    }
    if (in_f) {
      for (k = 0; k < n; k++) {
        int64_t v = aot_cast_f2i(fv[k]);
        if (p->out_type == AOT_MV_INT32)
          v = v > INT32_MAX ? INT32_MAX : (v < INT32_MIN ? INT32_MIN : v);
        iv[k] = v;
      }
    }
    /* integer narrowing wraps (written without implementation-defined
     * conversions) */
    switch (p->out_type) {
      case AOT_MV_INT8:
        AOT_STORE(int8_t, (int8_t)((int32_t)(((uint64_t)iv[k] & 0xFFu) ^ 0x80u) - 0x80));
        break;
      case AOT_MV_UINT8: AOT_STORE(uint8_t, (uint8_t)((uint64_t)iv[k] & 0xFFu)); break;
      case AOT_MV_INT16:
        AOT_STORE(int16_t, (int16_t)((int32_t)(((uint64_t)iv[k] & 0xFFFFu) ^ 0x8000u) - 0x8000));
        break;
      case AOT_MV_UINT16: AOT_STORE(uint16_t, (uint16_t)((uint64_t)iv[k] & 0xFFFFu)); break;
      case AOT_MV_INT32:
        AOT_STORE(int32_t, (int32_t)((int64_t)(((uint64_t)iv[k] & 0xFFFFFFFFu) ^ 0x80000000u) -
                                     (int64_t)0x80000000));
        break;
      case AOT_MV_UINT32: AOT_STORE(uint32_t, (uint32_t)((uint64_t)iv[k] & 0xFFFFFFFFu)); break;
      default: AOT_STORE(int64_t, iv[k]); break;
    }
  }
  return AOT_KERNEL_OK;
}
