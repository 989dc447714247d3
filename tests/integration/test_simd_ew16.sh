#!/usr/bin/env bash
# test_simd_ew16.sh AOTC - the fast LEAKY_RELU (int8, int16), QUANTIZE
# (requantize), int16 ADD / SUB broadcast and int8 MAX_POOL_2D paths
# (runtime/aot_leaky_simd.h, QuantizationFunctions/aot_requantize.c,
# aot_ew_q.h, PoolingFunctions/aot_maxpool_s8.c) against the portable
# kernels: tests/target/ew16_kernels.c, with the same files built with
# AOT_NO_SIMD as reference (tests/target/ew16_ref_kernels.c), on the host
# (fast scalar paths, ASan/UBSan when available), Cortex-M4 (Arm DSP) and
# Cortex-M55 (Helium) under QEMU. Then seanet int16 models of those op types
# ($AOTC_SHARED/models/tflm/seanet-int16/{leaky_relu,quantize,sub,add}; 19 of
# the 47 unless EW16_SEANET=all) must pass their golden (tolerance 1) on the
# host, cortex-m4 and cortex-m55 with the same output hash, and three int8
# MAX_POOL_2D models made by aotc_make_quant_model give the host's outputs on
# both targets. The targets are skipped when arm-none-eabi-gcc or
# qemu-system-arm is missing.
set -u
. "$(dirname "$0")/simd_lib.sh"
simd_init ew16 "$1"
simd_kernels tests/target/ew16_kernels.c "EW16 kernels" tests/target/ew16_ref_kernels.c \
  runtime/ActivationFunctions/aot_leaky_relu_s8.c runtime/ActivationFunctions/aot_leaky_relu_s16.c \
  runtime/BasicMathFunctions/aot_add_s16.c runtime/BasicMathFunctions/aot_sub_s16.c \
  runtime/QuantizationFunctions/aot_requantize.c runtime/PoolingFunctions/aot_maxpool_s8.c
[ "$SIMD_TARGETS" = 1 ] || exit $fail

# int8 MAX_POOL_2D models (aotc_make_quant_model maxpool): host, M4, M55 equal
GEN=$(dirname "$AOTC")/aotc_make_quant_model
for spec in "16 16 32 3 2 same 0" "12 12 10 2 2 valid 1" "9 7 5 3 1 same 1"; do
  f="$W/mp_${spec// /_}.tflite"
  # shellcheck disable=SC2086
  "$GEN" maxpool "$f" $spec || { echo "FAIL maxpool model $spec"; fail=1; continue; }
  SIMD_KERNEL=maxpool_s8 simd_hash3 "maxpool $spec" "$f"
done

D="$S/models/tflm/seanet-int16"
if [ ! -d "$D" ]; then
  echo "SKIP test_simd_ew16 models: $D not found"
  exit $fail
fi
# EW16_SEANET=all: every model (47); default: one of each shape and parameter
# kind (19, to keep the test's time moderate)
if [ "${EW16_SEANET:-}" = all ]; then
  ls "$D"/leaky_relu/*.tflite "$D"/quantize/*.tflite "$D"/sub/*.tflite "$D"/add/*.tflite
else
  for m in leaky_relu/leaky_relu{0,4,5,6,10,11} quantize/quantize{0,1} sub/sub{0,1,2,3,4} \
           add/add{0,1,3,4,10,16}; do echo "$D/$m.tflite"; done
fi | seanet_many "leaky_relu / quantize / sub / add"
exit $fail
