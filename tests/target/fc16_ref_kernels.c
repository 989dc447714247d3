/* fc16_ref_kernels.c - the int16x8 FULLY_CONNECTED and DEPTHWISE_CONV_2D
 * kernels compiled a second time with AOT_NO_SIMD (the portable C loops, the
 * reference) and renamed ref_*, so that fc16_kernels.c can compare them with
 * the build of the same files for the target (Helium or Arm DSP paths of
 * aot_fc16_simd.h) byte for byte. */
#define AOT_NO_SIMD 1
#define aot_fc_s16 ref_fc_s16
#define aot_dwconv2d_s16 ref_dwconv2d_s16
#include "FullyConnectedFunctions/aot_fc_s16.c"
#include "ConvolutionFunctions/aot_dwconv2d_s16.c"
