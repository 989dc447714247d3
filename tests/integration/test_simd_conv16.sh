#!/usr/bin/env bash
# test_simd_conv16.sh AOTC - the int16x8 CONV_2D and TRANSPOSE_CONV kernels'
# SIMD paths (runtime/aot_s16_simd.h) against their portable loops:
# tests/target/conv16_kernels.c, with the same files built with AOT_NO_SIMD
# as reference (tests/target/conv16_ref_kernels.c), on the host (ASan/UBSan
# when available), Cortex-M4 (Arm DSP) and Cortex-M55 (Helium) under QEMU
# (simd_lib.sh).
# Then every seanet int16 conv* / transpose_conv* model
# ($AOTC_SHARED/models/tflm/seanet-int16) must pass its golden (tolerance 1)
# on cortex-m4 and cortex-m55 with the output hash of the host build.
# SEANET16_MODELS="conv5 transpose_conv0" limits the models. The targets are
# skipped when arm-none-eabi-gcc or qemu-system-arm is missing.
set -u
. "$(dirname "$0")/simd_lib.sh"
simd_init conv16 "$1"
simd_kernels tests/target/conv16_kernels.c "conv16 kernels" tests/target/conv16_ref_kernels.c \
  runtime/ConvolutionFunctions/aot_conv2d_s16.c runtime/ConvolutionFunctions/aot_tconv2d_s16.c
[ "$SIMD_TARGETS" = 1 ] || exit $fail

D="$S/models/tflm/seanet-int16"
if [ ! -d "$D" ]; then
  echo "SKIP test_simd_conv16 models: $D not found (set AOTC_SHARED)"
  exit $fail
fi
if [ -n "${SEANET16_MODELS:-}" ]; then
  for m in $SEANET16_MODELS; do ls "$D"/*/"$m".tflite 2>/dev/null; done
else
  ls "$D"/conv/conv*.tflite "$D"/transpose_conv/transpose_conv*.tflite 2>/dev/null
fi | seanet_many "conv / transpose_conv"
exit $fail
