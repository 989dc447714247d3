/* aot_features.h - the kernel paths a module compiles. Every AOT_F_<X> is 1
 * here, so the runtime as shipped (host builds, the firmware kernel tests)
 * compiles every path. aotc writes each module its own copy with the paths
 * none of its layers can reach set to 0 (the operators name the paths they
 * need, emit_feature; codegen_features.c), and the kernels leave those out:
 * a call that would need a missing path returns AOT_KERNEL_BAD_PARAM. Only
 * lines "#define AOT_F_<X> 1" are rewritten; the meaning of each is what
 * the operator tests before naming it. */
#ifndef AOT_FEATURES_H
#define AOT_FEATURES_H

/* int8 CONV_2D with more than 1024 filter taps (filter_h * filter_w *
 * filter_in_c): the DSP build's portable fallback beyond its im2col */
#define AOT_F_CONV_S8_BIG 1
/* int8 CONV_2D whose windows need im2col with fill: padding (a window
 * past the image edge, aot_dsp_clips), dilation_w above 1 or groups */
#define AOT_F_CONV_S8_CLIP 1
/* int8 DEPTHWISE_CONV_2D with a window past the image edge (padding) */
#define AOT_F_DW_S8_CLIP 1
/* int8 DEPTHWISE_CONV_2D with depth multiplier 1 and channels not a
 * multiple of four */
#define AOT_F_DW_S8_TAIL 1
/* int8 DEPTHWISE_CONV_2D with depth multiplier 1 (the Helium build's
 * 8-channel blocks; the DSP build compiles its paths regardless) */
#define AOT_F_DW_S8_DM1 1
/* int8 DEPTHWISE_CONV_2D with depth multiplier 1 and fewer than 8
 * channels (the Helium build's gather path, aot_dw_s8_mve_g8) */
#define AOT_F_DW_S8_FEW 1
/* int8 DEPTHWISE_CONV_2D with depth multiplier 1 that the DSP build's 3x3
 * path does not take (aot_dwconv2d_s8_dsp_is3: other filters, dilation,
 * stride_w above 2): its tap-pair loop
 * aot_dw_s8_dsp_dm1 */
#define AOT_F_DW_S8_GEN 1
/* int8 DEPTHWISE_CONV_2D that the DSP build's 3x3 path takes
 * (aot_dwconv2d_s8_dsp_is3) with rows of stride 1, resp. 2, in the
 * orientation it runs them (aot_dwconv2d_s8_dsp_tr): its stride 1 and
 * stride 2 row loops (aot_dw3_row); neither leaves the 3x3 path out */
#define AOT_F_DW_S8_3S1 1
#define AOT_F_DW_S8_3S2 1
/* int8 DEPTHWISE_CONV_2D that the DSP build's 3x3 path takes with a channel
 * whose requantization does not fold (aot_dwconv2d_s8_dsp_slow, or no
 * folded bias): its exact-sum row loop aot_dw3_slow */
#define AOT_F_DW_S8_3SLOW 1
/* int8 DEPTHWISE_CONV_2D with depth multiplier above 1 */
#define AOT_F_DW_S8_DM 1
/* int8 DEPTHWISE_CONV_2D with more than 49 filter taps (the DSP build's
 * limit, AOT_DW_S8_DSP_TAPS) */
#define AOT_F_DW_S8_BIG 1
/* int8 FULLY_CONNECTED with rows of more than 1024 values (the DSP
 * build's chunked widening, AOT_FC_S8_XW) */
#define AOT_F_FC_S8_LONG 1

/* ---- size helper's paths ---- */
/* int8 ADD / SUB of equal shapes (aot_add_s8_flat, aot_sub_s8_flat) that
 * the rescale table does not take (fewer than AOT_EWS_TAB_MIN elements, or
 * !aot_ews_tab_applies, aot_elementwise.h): their portable loop */
#define AOT_F_EW_S8_FLATP 1
/* int8 AVERAGE_POOL_2D with windows of more than 256 taps or channels not a
 * multiple of 8: the portable loop of the Helium and DSP builds (Helium
 * needs it only for the large windows; the portable build always has it) */
#define AOT_F_POOL_S8_TAIL 1
/* int8 CONV_2D / DEPTHWISE_CONV_2D without aotc's folded bias (a filter
 * computed at run time: aot_conv_params.kbias NULL): the SIMD kernels' own
 * filter sums (AOT_KB, aot_conv.h) */
#define AOT_F_CONV_S8_NOKB 1
/* int8 CONV_2D of up to 1024 taps with groups or dilation_w above 1 (not
 * aot_conv2d_s8_dsp_gw): the DSP build's four-position path
 * (aot_dsp_conv4.h); every other such layer runs on its pointwise kernel */
#define AOT_F_CONV_S8_G4 1
/* int8 CONV_2D that the four-position path takes with filters of a
 * multiple of four taps plus 1-3, not reordered: its padded last filter */
#define AOT_F_CONV_S8_FPAD 1
/* int8 CONV_2D / DEPTHWISE_CONV_2D with an activation range narrower than
 * int8: the DSP kernels' clamps (AOT_FULL8, aot_conv.h) */
#define AOT_F_CONV_S8_NARROW 1
/* int8 pointwise CONV_2D with a channel of one output whatever the input
 * (aot_conv2d_s8_pw_const), or without the folded bias: the DSP pointwise
 * kernel's constant channels */
#define AOT_F_CONV_S8_PWK 1
/* int8 CONV_2D of 1-4 input channels that the DSP build runs on its
 * few-channel path (aot_conv2d_s8_dsp_first, aot_conv_first.h) */
#define AOT_F_CONV_S8_FIRST 1
/* that path's layers with stride_w * in_c odd or an odd left padding
 * pad_w * in_c (aot_conv2d_s8_first_lay.spread): its rows widened then
 * spread, with the copies shifted by one value; and the other layers: four
 * input values into two words at a time */
#define AOT_F_CONV_S8_FSPREAD 1
#define AOT_F_CONV_S8_FEVEN 1
/* that path's layers with a channel aot_dsp_kc_set does not give the fast
 * requantization, a narrower activation range than int8 or out_c not a
 * multiple of 8 (aot_conv2d_s8_first_pack's AOT_CF_FAST): its per-position loop */
#define AOT_F_CONV_S8_FSLOW 1
/* int8 CONV_2D that is not pointwise and that the DSP build runs on its
 * pointwise kernel with the windows gathered (aot_conv2d_s8_dsp_gw, not on
 * the few-channel path): aot_pw_gather in aot_conv_pw_dsp.h */
#define AOT_F_CONV_S8_GW 1
/* int8 CONV_2D of 1-4 input channels that the Helium build runs on its
 * few-channel path (aot_conv2d_s8_fmve_fits, aot_conv_first_mve.h) */
#define AOT_F_CONV_S8_FMVE 1
/* int8 FULLY_CONNECTED with four or more output channels and at least
 * 1024 weights that AOT_F_FC_S8_ROWS3 does not take (the DSP and portable
 * builds' four-row loop; without it every row takes the one-row loop) */
#define AOT_F_FC_S8_ROWS4 1
/* int8 FULLY_CONNECTED with four or more output channels, rows of a
 * multiple of four values from 8 to 1024 and at least 4096 weights (the DSP
 * build's three-row loop, aot_fc_dsp.h, compiled without the four-row loop
 * when no other layer needs that) */
#define AOT_F_FC_S8_ROWS3 1

/* int8 SOFTMAX reading the exponential table the compiler made
 * (aot_softmax_params.exp_tab, op_activation.c softmax_s8_table); without
 * it the kernel computes every exponential and has no table test per
 * element */
#define AOT_F_SOFTMAX_S8_TAB 1

#endif
