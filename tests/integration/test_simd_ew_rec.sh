#!/usr/bin/env bash
# test_simd_ew_rec.sh AOTC - the fast quantized ADD / SUB / MUL (int8, int16),
# SVDF and integer LSTM paths (runtime/aot_ew_simd.h, runtime/aot_rec_simd.h)
# against the portable kernels: tests/target/ew_rec_kernels.c, with the same
# files built with AOT_NO_SIMD as reference (tests/target/ew_rec_ref_kernels.c),
# on the host (fast scalar paths, ASan/UBSan when available), Cortex-M4 (Arm
# DSP) and Cortex-M55 (Helium) under QEMU (simd_lib.sh); long flat int8 / int16
# ADD / SUB rows (the rescale table, aot_ews_s16_flat) and long int8 MUL rows
# too. Then the ResNet-8 (three int8 ADDs) and SVDF/LSTM models must pass their
# TFLM goldens on the host, cortex-m4 and cortex-m55 with one output hash. The
# targets are skipped when arm-none-eabi-gcc or qemu-system-arm is missing.
set -u
. "$(dirname "$0")/simd_lib.sh"
simd_init ewrec "$1"
SRCS="tests/target/ew_rec_ref_kernels.c runtime/RecurrentFunctions/aot_svdf_s8.c runtime/RecurrentFunctions/aot_lstm_q.c runtime/RecurrentFunctions/aot_lstm_s8p.c runtime/RecurrentFunctions/aot_svdf_s8p.c"
for f in add sub mul; do for t in s8 s16; do SRCS="$SRCS runtime/BasicMathFunctions/aot_${f}_$t.c"; done; done
# shellcheck disable=SC2086
simd_kernels tests/target/ew_rec_kernels.c "EW kernels" $SRCS

if [ ! -d "$S/models" ]; then
  echo "SKIP test_simd_ew_rec models: $S/models not found"
  exit $fail
fi
for m in ${EWREC_MODELS:-mlperf-tiny/pretrainedResnet_quant tflm/keyword_scrambled_8bit tflm/trained_lstm_int8}; do
  f="$S/models/$m.tflite"; g="$S/goldens-tflm/$m.npz"
  [ -f "$f" ] && [ -f "$g" ] || { echo "SKIP $m: model or golden missing"; continue; }
  simd_hash3 "$m" "$f" --test.golden-data "$g"
done
exit $fail
