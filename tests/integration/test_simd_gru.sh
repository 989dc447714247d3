#!/usr/bin/env bash
# test_simd_gru.sh AOTC - the GRU kernels' target variants (aot_gru_f32_s8w:
# SMLAD on Cortex-M4, VMLADAVA on Cortex-M55; aot_gru_f32: VFP assembly on
# M4, Helium on M55) against the portable kernels (AOT_NO_SIMD) in one
# firmware per core under QEMU (tests/target/gru_kernels.c). Fails when a
# variant differs (M4: any bit; M55: beyond the bound printed), when the
# SIMD path was not built, or when the firmware fails. Skips when
# arm-none-eabi-gcc or qemu-system-arm is missing.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "SKIP test_simd_gru: arm-none-eabi-gcc or qemu-system-arm missing (make deps)"
  exit 0
fi
W=$(mktemp -d /tmp/aotc-simdgru-XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
for t in cortex-m4 cortex-m55; do
  bash "$ROOT/targets/build-run.sh" --target $t -q -I "$ROOT/runtime" \
    --main "$ROOT/tests/target/gru_kernels.c" --src "$ROOT/tests/target/gru_ref_kernels.c" \
    --src "$ROOT/runtime/RecurrentFunctions/aot_gru_f32.c" \
    --timeout 600 >"$W/$t.txt" 2>"$W/$t.err"
  rc=$?
  sed "s/^/$t: /" "$W/$t.txt"
  if [ $rc != 0 ]; then echo "$t: exit status $rc"; tail -20 "$W/$t.err"; fail=1; fi
  want="DSP/VFP"; [ $t = cortex-m55 ] && want="Helium"
  grep -q "GRU kernels ($want)" "$W/$t.txt" || { echo "$t: the $want path was not built"; fail=1; }
  grep -q " 0 failed" "$W/$t.txt" || fail=1
done
exit $fail
