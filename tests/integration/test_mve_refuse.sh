#!/usr/bin/env bash
# test_mve_refuse.sh AOTC - the Helium int8 convolution kernels built as a
# module with none of the optional paths (a copy of runtime/ whose
# aot_features.h has every AOT_F_<X> but DW_S8_DM1 and CONV_S8_NOKB set to 0) refuse the
# layers that need them with AOT_KERNEL_BAD_PARAM and run the others
# (tests/target/mve_refuse.c under QEMU, Cortex-M55); then with DW_S8_DM1 0
# too, every depth multiplier 1 layer is refused. AOTC is unused (the kernels are
# built directly). Skips when arm-none-eabi-gcc or qemu-system-arm is missing.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "SKIP test_mve_refuse: arm-none-eabi-gcc or qemu-system-arm missing (make deps)"
  exit 0
fi
W=$(mktemp -d /tmp/aotc-mverefuse-XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
for dm1 in 1 0; do
  rm -rf "$W/rt"
  cp -r "$ROOT/runtime" "$W/rt"
  sed -i 's/^#define AOT_F_\([A-Z0-9_]*\) 1$/#define AOT_F_\1 0/' "$W/rt/aot_features.h"
  sed -i "s/^#define AOT_F_DW_S8_DM1 0\$/#define AOT_F_DW_S8_DM1 $dm1/" "$W/rt/aot_features.h"
  # mve_refuse.c's layers come without aotc's folded bias (kbias NULL)
  sed -i 's/^#define AOT_F_CONV_S8_NOKB 0$/#define AOT_F_CONV_S8_NOKB 1/' "$W/rt/aot_features.h"
  if [ "$(grep -c '^#define AOT_F_[A-Z0-9_]* 1$' "$W/rt/aot_features.h")" != "$((dm1 + 1))" ] ||
     ! grep -q '^#define AOT_F_DW_S8_CLIP 0$' "$W/rt/aot_features.h"; then
    echo "FAIL test_mve_refuse: could not switch the paths off"; exit 1
  fi
  def=()
  [ "$dm1" = 0 ] && def=(-D REFUSE_DM1)
  bash "$ROOT/targets/build-run.sh" --target cortex-m55 -q -I "$W/rt" "${def[@]}" \
    --main "$ROOT/tests/target/mve_refuse.c" \
    --src "$W/rt/ConvolutionFunctions/aot_conv2d_s8.c" \
    --src "$W/rt/ConvolutionFunctions/aot_dwconv2d_s8.c" \
    --timeout 300 >"$W/out.txt" 2>"$W/err.txt"
  rc=$?
  echo "DW_S8_DM1=$dm1: $(tail -1 "$W/out.txt")"
  if [ $rc != 0 ]; then
    cat "$W/out.txt"; tail -20 "$W/err.txt"; echo "exit status $rc"; fail=1
  fi
done
[ $fail = 0 ] || { echo "FAIL test_mve_refuse"; exit 1; }
echo "PASS test_mve_refuse"
