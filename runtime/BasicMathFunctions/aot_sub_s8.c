/* aot_sub_s8.c - SUB int8_t, TFLite general quantized path: both inputs are
 * rescaled to a common scale with left_shift headroom, then subtracted and
 * rescaled to the output (reference_ops AddElementwise / SubElementwise); the
 * template in aot_ew_q.h, with the fast rows of aot_ew_simd.h. */
#include "aot_ew_q.h"

AOT_EWQ_ADDSUB(aot_sub_s8, aot_sub_s8_flat,
               int8_t, -, vsubq_s32, vldrbq_z_s32, vstrbq_p_s32, 1, 255, 20, 0)
