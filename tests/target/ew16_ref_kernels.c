/* ew16_ref_kernels.c - the LEAKY_RELU (int8, int16), QUANTIZE (requantize,
 * every integer type pair), int16 ADD / SUB and int8 MAX_POOL_2D kernels
 * compiled a second
 * time with AOT_NO_SIMD (the portable C loops) and renamed ref_*, so that
 * ew16_kernels.c can compare them byte for byte with the build of the same
 * files for the target (Helium, Arm DSP, or the host's fast scalar paths). */
#define AOT_NO_SIMD 1
#define aot_leaky_relu_s8 ref_leaky_relu_s8
#define aot_leaky_relu_s16 ref_leaky_relu_s16
#define aot_add_s16 ref_add_s16
#define aot_sub_s16 ref_sub_s16
#define aot_add_s16_flat ref_add_s16_flat
#define aot_sub_s16_flat ref_sub_s16_flat
#define aot_maxpool_s8 ref_maxpool_s8
#define aot_requantize_s8_s8 ref_requantize_s8_s8
#define aot_requantize_s8_u8 ref_requantize_s8_u8
#define aot_requantize_s8_s16 ref_requantize_s8_s16
#define aot_requantize_s8_s32 ref_requantize_s8_s32
#define aot_requantize_u8_s8 ref_requantize_u8_s8
#define aot_requantize_s16_s8 ref_requantize_s16_s8
#define aot_requantize_s16_s16 ref_requantize_s16_s16
#define aot_requantize_s16_s32 ref_requantize_s16_s32
#define aot_requantize_s32_s8 ref_requantize_s32_s8
#define aot_requantize_s32_s16 ref_requantize_s32_s16

#include "ActivationFunctions/aot_leaky_relu_s8.c"
#include "ActivationFunctions/aot_leaky_relu_s16.c"
#include "BasicMathFunctions/aot_add_s16.c"
#include "BasicMathFunctions/aot_sub_s16.c"
#include "QuantizationFunctions/aot_requantize.c"
#include "PoolingFunctions/aot_maxpool_s8.c"
