#!/usr/bin/env bash
# test_simd_fc16.sh AOTC - the Helium and Arm DSP paths of the int16x8
# FULLY_CONNECTED and DEPTHWISE_CONV_2D kernels (runtime/aot_fc16_simd.h)
# against the portable kernels: tests/target/fc16_kernels.c, with the same
# files built with AOT_NO_SIMD as reference (tests/target/fc16_ref_kernels.c),
# on the host (ASan/UBSan when available), Cortex-M4 (Arm DSP) and Cortex-M55
# (Helium) under QEMU. Then int16x8 FULLY_CONNECTED and DEPTHWISE_CONV_2D
# models made by aotc_make_quant_model (fc16 / dw kinds: depth 2000 and
# batch 4, 3x3 / Kx1 filters, strides 1-2, SAME / VALID,
# dilation 2, depth multiplier 2, channels not a multiple of 8) must pass
# against the reference interpreter on the host, cortex-m4 and cortex-m55
# with the same output hash, the targets with the dsp / mve variant. (No
# seanet int16 model has a FULLY_CONNECTED or DEPTHWISE_CONV_2D layer, nor a
# one-window CONV_2D that conv_as_fc would turn into one, so none is run
# here.) The targets are skipped when arm-none-eabi-gcc or qemu-system-arm is
# missing. About 3 minutes (the QEMU kernel checks take half a minute).
set -u
. "$(dirname "$0")/simd_lib.sh"
simd_init fc16 "$1"
MK="$(dirname "$AOTC")/aotc_make_quant_model"
simd_kernels tests/target/fc16_kernels.c "FC16 kernels" tests/target/fc16_ref_kernels.c \
  runtime/FullyConnectedFunctions/aot_fc_s16.c runtime/ConvolutionFunctions/aot_dwconv2d_s16.c

# the models: name and generator arguments
MODELS="fc_k2000_o32:fc16 1 2000 32 per-channel relu
fc_b4_k128_o50:fc16 4 128 50 per-channel none
dw3x3_dm2_s2:dw int16 11 9 13 3 3 2 2 1 valid
dw5x1_column:dw int16 40 1 24 5 1 1 1 1 same
dw3x3_dil2:dw int16 16 16 12 3 3 1 1 2 same"
if [ ! -x "$MK" ]; then echo "SKIP models: $MK not built (AOTC_TESTS=ON)"; exit $fail; fi
while IFS=: read -r name gen; do
  # shellcheck disable=SC2086
  "$MK" ${gen%% *} "$W/$name.tflite" ${gen#* } || { echo "FAIL $name: generator"; fail=1; continue; }
  SIMD_KERNEL='fc_s16|dwconv2d_s16' simd_hash3 "$name" "$W/$name.tflite"
done <<< "$MODELS"
exit $fail
