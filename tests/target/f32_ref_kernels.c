/* f32_ref_kernels.c - the float32 CONV_2D, DEPTHWISE_CONV_2D and
 * FULLY_CONNECTED kernels (float32 and hybrid) compiled a second time with AOT_NO_SIMD (the
 * portable loops) and renamed ref_*, for tests/target/f32_kernels.c. */
#define AOT_NO_SIMD 1
#define aot_conv2d_f32 ref_conv2d_f32
#define aot_dwconv2d_f32 ref_dwconv2d_f32
#define aot_fc_f32 ref_fc_f32
#define aot_conv2d_hybrid ref_conv2d_hybrid
#define aot_conv2d_hybrid_buffer_size ref_conv2d_hybrid_buffer_size
#define aot_fc_hybrid ref_fc_hybrid
#define aot_fc_hybrid_buffer_size ref_fc_hybrid_buffer_size

#include "ConvolutionFunctions/aot_conv2d_f32.c"
#include "ConvolutionFunctions/aot_dwconv2d_f32.c"
#include "FullyConnectedFunctions/aot_fc_f32.c"
#include "ConvolutionFunctions/aot_conv2d_hybrid.c"
#include "FullyConnectedFunctions/aot_fc_hybrid.c"
