#!/usr/bin/env bash
# test_simd_first.sh AOTC - the int8 CONV_2D kernel on first-layer shapes
# (1-4 input channels: the Cortex-M4 DSP build's few-channel path,
# runtime/aot_conv_first.h) against its portable loop:
# tests/target/first_kernels.c, with the same file built with AOT_NO_SIMD as
# reference (tests/target/first_ref_kernels.c; the few-channel path fed by
# the constants aot_conv2d_s8_first_pack computes, as aotc does), on the
# host (ASan/UBSan when available), Cortex-M4 (Arm DSP) and Cortex-M55
# (Helium) under QEMU (simd_lib.sh). Then models must pass their TFLM
# goldens ($AOTC_SHARED/goldens-tflm) on the host, cortex-m4 and cortex-m55
# with one output hash: micro_speech (its first layer on the path) and
# str_ww here (FIRST_MODELS names others); VWW and person_detect are run so
# by test_simd_dw8.sh, ResNet-8 by test_simd_ew_rec.sh, KWS by both. The
# targets are skipped when arm-none-eabi-gcc or qemu-system-arm is missing.
set -u
. "$(dirname "$0")/simd_lib.sh"
simd_init first "$1"
simd_kernels tests/target/first_kernels.c "first kernels" tests/target/first_ref_kernels.c \
  runtime/ConvolutionFunctions/aot_conv2d_s8.c

if [ ! -d "$S/models" ]; then
  echo "SKIP test_simd_first models: $S/models not found"
  exit $fail
fi
for m in ${FIRST_MODELS:-tflm/micro_speech_quantized mlperf-tiny/str_ww_ref_model}; do
  f="$S/models/$m.tflite"; g="$S/goldens-tflm/$m.npz"
  [ -f "$f" ] && [ -f "$g" ] || { echo "SKIP $m: model or golden missing"; continue; }
  SIMD_KERNEL=conv2d_s8 simd_hash3 "$m" "$f" --test.golden-data "$g"
done
exit $fail
