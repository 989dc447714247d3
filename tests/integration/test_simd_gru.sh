#!/usr/bin/env bash
# test_simd_gru.sh AOTC - the GRU kernels' target variants (aot_gru_f32_s8w:
# SMLAD on Cortex-M4, VMLADAVA on Cortex-M55; aot_gru_f32: VFP assembly on
# M4, Helium on M55) against the portable kernels (AOT_NO_SIMD) in one
# firmware per core under QEMU (tests/target/gru_kernels.c). Fails when a
# variant differs (M4: any bit; M55: beyond the bound printed), when the
# SIMD path was not built, or when the firmware fails. Skips when
# arm-none-eabi-gcc or qemu-system-arm is missing. (Float kernels: no host
# run, whose portable build is the reference; so not simd_kernels.)
set -u
. "$(dirname "$0")/simd_lib.sh"
simd_init simdgru "$1"
[ "$SIMD_TARGETS" = 1 ] || exit 0
for t in cortex-m4 cortex-m55; do
  bash targets/build-run.sh --target $t -q -I runtime --main tests/target/gru_kernels.c \
    --src tests/target/gru_ref_kernels.c --src runtime/RecurrentFunctions/aot_gru_f32.c \
    --timeout 600 >"$W/$t.txt" 2>"$W/$t.err"
  rc=$?
  sed "s/^/$t: /" "$W/$t.txt"
  if [ $rc != 0 ]; then echo "$t: exit status $rc"; tail -20 "$W/$t.err"; fail=1; fi
  want="DSP/VFP"; [ $t = cortex-m55 ] && want="Helium"
  grep -q "GRU kernels ($want)" "$W/$t.txt" || { echo "$t: the $want path was not built"; fail=1; }
  grep -q " 0 failed" "$W/$t.txt" || fail=1
done
exit $fail
