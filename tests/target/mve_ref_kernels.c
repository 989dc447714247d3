/* mve_ref_kernels.c - the int8 kernels compiled a second time with
 * AOT_NO_SIMD (the portable C loops) and renamed ref_*, so that
 * mve_kernels.c can compare them with the Helium (MVE) build of the same
 * files byte for byte. */
#define AOT_NO_SIMD 1
#define aot_conv2d_s8 ref_conv2d_s8
#define aot_dwconv2d_s8 ref_dwconv2d_s8
#define aot_fc_s8 ref_fc_s8
#define aot_avgpool_s8 ref_avgpool_s8

#include "ConvolutionFunctions/aot_conv2d_s8.c"
#include "ConvolutionFunctions/aot_dwconv2d_s8.c"
#include "FullyConnectedFunctions/aot_fc_s8.c"
#include "PoolingFunctions/aot_avgpool_s8.c"
