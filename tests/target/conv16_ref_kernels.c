/* conv16_ref_kernels.c - the int16x8 CONV_2D and TRANSPOSE_CONV kernels
 * compiled a second time with AOT_NO_SIMD (their portable C loops) and
 * renamed ref_*, so that conv16_kernels.c can compare them with the build
 * of the same files for the target (Helium, Arm DSP, or the host's portable
 * build) byte for byte. */
#define AOT_NO_SIMD 1
#define aot_conv2d_s16 ref_conv2d_s16
#define aot_tconv2d_s16 ref_tconv2d_s16

#include "ConvolutionFunctions/aot_conv2d_s16.c"
#include "ConvolutionFunctions/aot_tconv2d_s16.c"
