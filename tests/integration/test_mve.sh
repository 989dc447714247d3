#!/usr/bin/env bash
# test_mve.sh AOTC - the Helium (MVE) int8 kernels on Cortex-M55 under QEMU:
# tests/target/mve_kernels.c compares them with the portable kernels
# (tests/target/mve_ref_kernels.c: the same files built with AOT_NO_SIMD)
# on random shapes, and checks the vector requantization against aot_mbqm.
# Then the shared int8 models must give on cortex-m55 exactly the outputs
# of the host build (same output hash, max_abs_err=0 against the TFLM
# goldens). Skips when arm-none-eabi-gcc or qemu-system-arm is missing.
set -u
AOTC=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
S=${AOTC_SHARED:-$ROOT/../shared}
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "SKIP test_mve: arm-none-eabi-gcc or qemu-system-arm missing (make deps)"
  exit 0
fi
W=$(mktemp -d /tmp/aotc-mve-XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
bash "$ROOT/targets/build-run.sh" --target cortex-m55 -q -I "$ROOT/runtime" \
  --main "$ROOT/tests/target/mve_kernels.c" --src "$ROOT/tests/target/mve_ref_kernels.c" \
  --src "$ROOT/runtime/ConvolutionFunctions/aot_conv2d_s8.c" \
  --src "$ROOT/runtime/ConvolutionFunctions/aot_dwconv2d_s8.c" \
  --src "$ROOT/runtime/FullyConnectedFunctions/aot_fc_s8.c" \
  --src "$ROOT/runtime/PoolingFunctions/aot_avgpool_s8.c" \
  --timeout 600 >"$W/kernels.txt" 2>"$W/kernels.err"
rc=$?
cat "$W/kernels.txt"
if [ $rc != 0 ]; then
  echo "mve_kernels: exit status $rc"; tail -20 "$W/kernels.err"; fail=1
fi
grep -q "MVE kernels (Helium)" "$W/kernels.txt" || { echo "mve_kernels: the MVE path was not built"; fail=1; }

if [ ! -d "$S/models" ]; then
  echo "SKIP test_mve models: $S/models not found"
else
  for m in ${MVE_MODELS:-mlperf-tiny/vww_96_int8 mlperf-tiny/ad01_int8 mlperf-tiny/str_ww_ref_model tflm/micro_speech_quantized}; do
    f="$S/models/$m.tflite"; g="$S/goldens-tflm/$m.npz"
    [ -f "$f" ] && [ -f "$g" ] || { echo "SKIP $m: model or golden missing"; continue; }
    h=$("$AOTC" verify --model.path "$f" --test.golden-data "$g" --target host 2>&1 | grep '^PASS' | grep -o 'hash=[0-9a-f]*')
    line=$("$AOTC" verify --model.path "$f" --test.golden-data "$g" --target cortex-m55 2>&1 | grep -E '^(PASS|FAIL)')
    c=$(echo "$line" | grep '^PASS' | grep 'max_abs_err=0 ' | grep -o 'hash=[0-9a-f]*')
    echo "$m: host ${h:-none}, cortex-m55 ${c:-none}"
    if [ -z "$h" ] || [ "$h" != "$c" ]; then echo "FAIL $m: $line"; fail=1; fi
  done
fi
exit $fail
