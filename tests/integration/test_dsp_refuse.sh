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
# AOTC is unused (the kernels are built directly). Skips when arm-none-eabi-gcc or qemu-system-arm
# is missing.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "SKIP test_dsp_refuse: arm-none-eabi-gcc or qemu-system-arm missing (make deps)"
  exit 0
fi
W=$(mktemp -d /tmp/aotc-dsprefuse-XXXXXX)
trap 'rm -rf "$W"' EXIT
cp -r "$ROOT/runtime" "$W/rt"
sed -i 's/^#define AOT_F_FC_S8_LONG 1$/#define AOT_F_FC_S8_LONG 0/' "$W/rt/aot_features.h"
grep -q '^#define AOT_F_FC_S8_LONG 0$' "$W/rt/aot_features.h" ||
  { echo "FAIL test_dsp_refuse: could not switch FC_S8_LONG off"; exit 1; }
bash "$ROOT/targets/build-run.sh" --target cortex-m4 -q -I "$W/rt" \
  --main "$ROOT/tests/target/dsp_fc_refuse.c" \
  --src "$W/rt/FullyConnectedFunctions/aot_fc_s8.c" \
  --timeout 300 >"$W/out.txt" 2>"$W/err.txt"
rc=$?
tail -1 "$W/out.txt"
if [ $rc != 0 ]; then cat "$W/out.txt"; tail -20 "$W/err.txt"; echo "FAIL test_dsp_refuse"; exit 1; fi

cp -r "$ROOT/runtime" "$W/rc"
for f in CONV_S8_G4 CONV_S8_BIG CONV_S8_NARROW; do
  sed -i "s/^#define AOT_F_$f 1\$/#define AOT_F_$f 0/" "$W/rc/aot_features.h"
  grep -q "^#define AOT_F_$f 0\$" "$W/rc/aot_features.h" ||
    { echo "FAIL test_dsp_refuse: could not switch $f off"; exit 1; }
done
bash "$ROOT/targets/build-run.sh" --target cortex-m4 -q -I "$W/rc" \
  --main "$ROOT/tests/target/dsp_conv_refuse.c" \
  --src "$W/rc/ConvolutionFunctions/aot_conv2d_s8.c" \
  --timeout 300 >"$W/out2.txt" 2>"$W/err2.txt"
rc=$?
tail -1 "$W/out2.txt"
if [ $rc != 0 ]; then cat "$W/out2.txt"; tail -20 "$W/err2.txt"; echo "FAIL test_dsp_refuse"; exit 1; fi
echo "PASS test_dsp_refuse"
