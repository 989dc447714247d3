#!/usr/bin/env bash
# test_dsp_refuse.sh AOTC - the Arm DSP int8 kernels built as a module that
# left a variant path out refuse the layers of that path with
# AOT_KERNEL_BAD_PARAM and compute the others exactly (under QEMU,
# Cortex-M4, on copies of runtime/ with features switched off):
#  - FULLY_CONNECTED without AOT_F_FC_S8_LONG: rows over 1024 values
#    (tests/target/dsp_fc_refuse.c);
#  - CONV_2D without AOT_F_CONV_S8_G4, _BIG and _NARROW: grouped layers,
#    windows over 1024 taps, narrow activation ranges, and a filter packed
#    for Helium (tests/target/dsp_conv_refuse.c).
# AOTC is unused (the kernels are built directly). Skips when
# arm-none-eabi-gcc or qemu-system-arm is missing.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "SKIP test_dsp_refuse: arm-none-eabi-gcc or qemu-system-arm missing (make deps)"
  exit 0
fi
W=$(mktemp -d /tmp/aotc-dsprefuse-XXXXXX)
trap 'rm -rf "$W"' EXIT
# refuse NAME MAIN KERNEL FEATURE... : MAIN with KERNEL (a runtime file) from
# a copy of runtime/ whose aot_features.h switches each FEATURE off
refuse() {
  local name=$1 main=$2 kernel=$3 f
  shift 3
  cp -r "$ROOT/runtime" "$W/$name"
  for f in "$@"; do
    sed -i "s/^#define AOT_F_$f 1\$/#define AOT_F_$f 0/" "$W/$name/aot_features.h"
    grep -q "^#define AOT_F_$f 0\$" "$W/$name/aot_features.h" ||
      { echo "FAIL test_dsp_refuse: could not switch $f off"; exit 1; }
  done
  bash "$ROOT/targets/build-run.sh" --target cortex-m4 -q -I "$W/$name" \
    --main "$ROOT/tests/target/$main" --src "$W/$name/$kernel" \
    --timeout 300 >"$W/$name.out" 2>"$W/$name.err"
  local rc=$?
  tail -1 "$W/$name.out"
  if [ $rc != 0 ]; then cat "$W/$name.out"; tail -20 "$W/$name.err"; echo "FAIL test_dsp_refuse"; exit 1; fi
}
refuse fc dsp_fc_refuse.c FullyConnectedFunctions/aot_fc_s8.c FC_S8_LONG
refuse conv dsp_conv_refuse.c ConvolutionFunctions/aot_conv2d_s8.c CONV_S8_G4 CONV_S8_BIG CONV_S8_NARROW
echo "PASS test_dsp_refuse"
