/* fmve_ref_kernels.c - the int8 CONV_2D kernel compiled a second time with
 * AOT_NO_SIMD (its portable C loop) and renamed ref_conv2d_s8, so that
 * fmve_kernels.c can compare it with the build of the same file for the
 * target (Helium, Arm DSP with its few-channel path, or the host's portable
 * build) byte for byte. */
#define AOT_NO_SIMD 1
#define aot_conv2d_s8 ref_conv2d_s8

#include "ConvolutionFunctions/aot_conv2d_s8.c"
