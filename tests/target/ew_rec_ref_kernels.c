/* ew_rec_ref_kernels.c - the quantized ADD / SUB / MUL, SVDF and integer LSTM
 * kernels compiled a second time with AOT_NO_SIMD (the portable C loops) and
 * renamed ref_*, so that ew_rec_kernels.c can compare them with the build of
 * the same files for the target (Helium, Arm DSP or the host's fast scalar
 * paths, aot_ew_simd.h / aot_rec_simd.h) byte for byte. */
#define AOT_NO_SIMD 1
#define aot_add_s8 ref_add_s8
#define aot_sub_s8 ref_sub_s8
#define aot_mul_s8 ref_mul_s8
#define aot_add_s16 ref_add_s16
#define aot_sub_s16 ref_sub_s16
#define aot_mul_s16 ref_mul_s16
#define aot_add_s8_flat ref_add_s8_flat
#define aot_sub_s8_flat ref_sub_s8_flat
#define aot_add_s16_flat ref_add_s16_flat
#define aot_sub_s16_flat ref_sub_s16_flat
#define aot_add_s8_tab ref_add_s8_tab
#define aot_sub_s8_tab ref_sub_s8_tab

#include "BasicMathFunctions/aot_add_s8.c"
#include "BasicMathFunctions/aot_sub_s8.c"
#include "BasicMathFunctions/aot_mul_s8.c"
#include "BasicMathFunctions/aot_add_s16.c"
#include "BasicMathFunctions/aot_sub_s16.c"
#include "BasicMathFunctions/aot_mul_s16.c"

#define aot_svdf_s8_s8 ref_svdf_s8_s8
#define aot_svdf_s8_s16 ref_svdf_s8_s16
#define aot_lstm_s8 ref_lstm_s8
#define aot_lstm_s16 ref_lstm_s16
#include "RecurrentFunctions/aot_svdf_s8.c"
#include "RecurrentFunctions/aot_lstm_q.c"
