#!/usr/bin/env bash
# test_dsp.sh AOTC - the Arm DSP (SMLAD) int8 kernels on Cortex-M4F under QEMU:
# tests/target/mve_kernels.c compares them with the portable kernels
# (tests/target/mve_ref_kernels.c: the same files built with AOT_NO_SIMD)
# on random shapes, and checks the requantization against aot_mbqm.
# Then the shared int8 models must give on cortex-m4 exactly the outputs
# of the host build (same output hash, max_abs_err=0 against the TFLM
# goldens). Skips when arm-none-eabi-gcc or qemu-system-arm is missing.
set -u
AOTC=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
S=${AOTC_SHARED:-$ROOT/../shared}
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "SKIP test_dsp: arm-none-eabi-gcc or qemu-system-arm missing (make deps)"
  exit 0
fi
W=$(mktemp -d /tmp/aotc-dsp-XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
bash "$ROOT/targets/build-run.sh" --target cortex-m4 -q -I "$ROOT/runtime" \
  --main "$ROOT/tests/target/mve_kernels.c" --src "$ROOT/tests/target/mve_ref_kernels.c" \
  --src "$ROOT/runtime/ConvolutionFunctions/aot_conv2d_s8.c" \
  --src "$ROOT/runtime/ConvolutionFunctions/aot_dwconv2d_s8.c" \
  --src "$ROOT/runtime/FullyConnectedFunctions/aot_fc_s8.c" \
  --src "$ROOT/runtime/PoolingFunctions/aot_avgpool_s8.c" \
  --timeout 600 >"$W/kernels.txt" 2>"$W/kernels.err"
rc=$?
cat "$W/kernels.txt"
if [ $rc != 0 ]; then
  echo "dsp kernels: exit status $rc"; tail -20 "$W/kernels.err"; fail=1
fi
grep -q "DSP kernels (SMLAD)" "$W/kernels.txt" || { echo "dsp kernels: the DSP path was not built"; fail=1; }

if [ ! -d "$S/models" ]; then
  echo "SKIP test_dsp models: $S/models not found"
else
  for m in ${DSP_MODELS:-mlperf-tiny/kws_ref_model mlperf-tiny/vww_96_int8 mlperf-tiny/pretrainedResnet_quant mlperf-tiny/ad01_int8}; do
    f="$S/models/$m.tflite"; g="$S/goldens-tflm/$m.npz"
    [ -f "$f" ] && [ -f "$g" ] || { echo "SKIP $m: model or golden missing"; continue; }
    h=$("$AOTC" verify --model.path "$f" --test.golden-data "$g" --target host 2>&1 | grep '^PASS' | grep -o 'hash=[0-9a-f]*')
    line=$("$AOTC" verify --model.path "$f" --test.golden-data "$g" --target cortex-m4 2>&1 | grep -E '^(PASS|FAIL)')
    c=$(echo "$line" | grep '^PASS' | grep 'max_abs_err=0 ' | grep -o 'hash=[0-9a-f]*')
    echo "$m: host ${h:-none}, cortex-m4 ${c:-none}"
    if [ -z "$h" ] || [ "$h" != "$c" ]; then echo "FAIL $m: $line"; fail=1; fi
  done
fi
exit $fail
