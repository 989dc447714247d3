#!/usr/bin/env bash
# test_simd_dw8.sh AOTC - the int8 DEPTHWISE_CONV_2D kernel
# (runtime/ConvolutionFunctions/aot_dwconv2d_s8.c with aot_dwconv_mve.h /
# aot_dwconv_dsp.h) against the portable kernel: tests/target/dw8_kernels.c,
# with the same file built with AOT_NO_SIMD as reference
# (tests/target/dw8_ref_kernels.c), on the host (ASan/UBSan when available),
# Cortex-M4 (Arm DSP) and Cortex-M55 (Helium) under QEMU (simd_lib.sh), on random layers
# (filters 1x1..5x5, 1x3, 1x5, 10x8, strides, paddings, dilations, 1..300
# channels, depth multipliers 1-3, maps 1x1..48x48). Then the int8 models
# with depthwise layers must give on cortex-m4 and cortex-m55 exactly the
# outputs of the host build (same output hash, max_abs_err=0 against their
# TFLM goldens). The targets are skipped when arm-none-eabi-gcc or
# qemu-system-arm is missing.
set -u
. "$(dirname "$0")/simd_lib.sh"
simd_init dw8 "$1"
SIMD_HOST_CFLAGS=-DDW8_CASES=300 simd_kernels tests/target/dw8_kernels.c "dw8 kernels" \
  tests/target/dw8_ref_kernels.c runtime/ConvolutionFunctions/aot_dwconv2d_s8.c

if [ ! -d "$S/models" ]; then
  echo "SKIP test_simd_dw8 models: $S/models not found"
  exit $fail
fi
for m in ${DW8_MODELS:-mlperf-tiny/kws_ref_model mlperf-tiny/vww_96_int8 tflm/person_detect}; do
  f="$S/models/$m.tflite"; g="$S/goldens-tflm/$m.npz"
  [ -f "$f" ] && [ -f "$g" ] || { echo "SKIP $m: model or golden missing"; continue; }
  SIMD_KERNEL=dwconv2d_s8 simd_hash3 "$m" "$f" --test.golden-data "$g"
done
exit $fail
