/* aot_add_s16.c - ADD int16_t, TFLite general quantized path: both inputs are
 * rescaled to a common scale with left_shift headroom, then summed and
 * rescaled to the output (reference_ops AddElementwise / SubElementwise); the
 * template in aot_ew_q.h, with the fast rows of aot_ew_simd.h. */
#include "aot_ew_q.h"

AOT_EWQ_ADDSUB(aot_add_s16, aot_add_s16_flat,
               int16_t, +, vaddq_s32, vldrhq_z_s32, vstrhq_p_s32, 0, 65535, 15, 1)
