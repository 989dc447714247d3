#!/usr/bin/env bash
# test_simd_fmve.sh AOTC - the int8 CONV_2D kernel on the layers its
# Cortex-M55 Helium few-channel path takes (1-4 input channels, one group,
# dilation 1: runtime/aot_conv_first_mve.h) against its portable loop:
# tests/target/fmve_kernels.c, with the same file built with AOT_NO_SIMD as
# reference (tests/target/fmve_ref_kernels.c), on the host (ASan/UBSan when
# available), Cortex-M4 (Arm DSP) and Cortex-M55 (Helium) under QEMU
# (simd_lib.sh). Then the models whose first layer takes it (VWW, ResNet-8,
# person_detect) and KWS (its 10x4 first layer of 5-column output rows stays
# on the generic path; FMVE_MODELS names others) must pass their
# TFLM goldens ($AOTC_SHARED/goldens-tflm) on the host, cortex-m4 and
# cortex-m55 with one output hash. The targets are skipped when
# arm-none-eabi-gcc or qemu-system-arm is missing.
set -u
. "$(dirname "$0")/simd_lib.sh"
simd_init fmve "$1"
simd_kernels tests/target/fmve_kernels.c "fmve kernels" tests/target/fmve_ref_kernels.c \
  runtime/ConvolutionFunctions/aot_conv2d_s8.c

if [ ! -d "$S/models" ]; then
  echo "SKIP test_simd_fmve models: $S/models not found"
  exit $fail
fi
for m in ${FMVE_MODELS:-mlperf-tiny/vww_96_int8 mlperf-tiny/pretrainedResnet_quant tflm/person_detect mlperf-tiny/kws_ref_model}; do
  f="$S/models/$m.tflite"; g="$S/goldens-tflm/$m.npz"
  [ -f "$f" ] && [ -f "$g" ] || { echo "SKIP $m: model or golden missing"; continue; }
  SIMD_KERNEL=conv2d_s8 simd_hash3 "$m" "$f" --test.golden-data "$g"
done
exit $fail
