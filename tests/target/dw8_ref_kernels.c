/* dw8_ref_kernels.c - the int8 DEPTHWISE_CONV_2D kernel compiled a second
 * time with AOT_NO_SIMD (the portable C loops) and renamed ref_*, so that
 * dw8_kernels.c can compare it with the build of the same file for the
 * target (Helium, Arm DSP, or the host's portable build) byte for byte. */
#define AOT_NO_SIMD 1
#define aot_dwconv2d_s8 ref_dwconv2d_s8

#include "ConvolutionFunctions/aot_dwconv2d_s8.c"
