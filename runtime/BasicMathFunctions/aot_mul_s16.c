/* aot_mul_s16.c - MUL int16_t (reference_integer_ops MulElementwise): the product
 * of the offset inputs is rescaled with one multiplier; the template in
 * aot_ew_q.h, with the fast rows of aot_ew_simd.h. */
#include "aot_ew_q.h"

AOT_EWQ_MUL(aot_mul_s16, int16_t, vldrhq_z_s32, vstrhq_p_s32)
