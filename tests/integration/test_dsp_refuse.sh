#!/usr/bin/env bash
# test_dsp_refuse.sh AOTC - the Arm DSP int8 FULLY_CONNECTED kernel built as a
# module whose layers have no row longer than 1024 values (a copy of runtime/
# whose aot_features.h sets AOT_F_FC_S8_LONG to 0) refuses a longer row with
# AOT_KERNEL_BAD_PARAM and computes the shorter ones exactly
# (tests/target/dsp_fc_refuse.c under QEMU, Cortex-M4). AOTC is unused (the
# kernel is built directly). Skips when arm-none-eabi-gcc or qemu-system-arm
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
echo "PASS test_dsp_refuse"
