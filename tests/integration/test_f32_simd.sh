#!/usr/bin/env bash
# test_f32_simd.sh AOTC - the float32 CONV_2D / DEPTHWISE_CONV_2D /
# FULLY_CONNECTED target variants (runtime/aot_f32_simd.h) against the
# portable kernels and a double-precision reference, and the hybrid
# CONV_2D / FULLY_CONNECTED target loops (runtime/aot_hybrid_simd.h) against
# their portable build, bit for bit: tests/target/f32_kernels.c
# with the same files built with AOT_NO_SIMD (tests/target/f32_ref_kernels.c),
# on the host (portable, and the register-blocked loops forced with
# AOT_F32_FORCE_BLK; ASan/UBSan when available), Cortex-M4 (register-blocked
# FPU loops) and Cortex-M55 (Helium) under QEMU. Then the float KWS model
# (hybrid conv, float depthwise and FC) must pass its golden on both cores.
# The targets are skipped when arm-none-eabi-gcc or qemu-system-arm is missing.
set -u
AOTC=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
S=${AOTC_SHARED:-$ROOT/../shared}
W=$(mktemp -d /tmp/aotc-f32simd-XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
SRCS="tests/target/f32_ref_kernels.c runtime/ConvolutionFunctions/aot_conv2d_f32.c runtime/ConvolutionFunctions/aot_dwconv2d_f32.c runtime/FullyConnectedFunctions/aot_fc_f32.c runtime/ConvolutionFunctions/aot_conv2d_hybrid.c runtime/FullyConnectedFunctions/aot_fc_hybrid.c"
cd "$ROOT" || exit 1
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
echo 'int main(void){return 0;}' > "$W/t.c"
cc $san "$W/t.c" -o "$W/t" 2>/dev/null || san=""
for d in "" -DAOT_F32_FORCE_BLK; do
  if cc -std=c99 -pedantic -Wall -Wextra -Werror -O1 -g $san $d -Iruntime -Itargets/cortex-m \
       tests/target/f32_kernels.c $SRCS -lm -o "$W/host" && "$W/host" > "$W/host.txt"; then
    echo "host ${d:-portable}: $(tail -1 "$W/host.txt")"
  else
    tail -20 "$W/host.txt" 2>/dev/null; echo "FAIL f32_kernels host $d"; fail=1
  fi
done
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "SKIP test_f32_simd targets: arm-none-eabi-gcc or qemu-system-arm missing (make deps)"
  exit $fail
fi
args=""; for f in $SRCS; do args="$args --src $f"; done
for t in cortex-m4 cortex-m55; do
  want="register-blocked FPU"; [ $t = cortex-m55 ] && want="Helium"
  bash targets/build-run.sh --target $t -q -I runtime --main tests/target/f32_kernels.c $args \
    --timeout 600 > "$W/$t.txt" 2> "$W/$t.err"
  rc=$?
  echo "$t: $(tail -1 "$W/$t.txt")"
  if [ $rc != 0 ]; then echo "FAIL f32_kernels $t: exit status $rc"; tail -n 20 "$W/$t.txt" "$W/$t.err"; fail=1; fi
  grep -q "f32 kernels ($want)" "$W/$t.txt" || { echo "FAIL f32_kernels $t: the $want path was not built"; fail=1; }
done

m=mlperf-tiny/kws_ref_model_float32
f="$S/models/$m.tflite"; g="$S/goldens/$m.npz"
if [ ! -f "$f" ] || [ ! -f "$g" ]; then
  echo "SKIP $m: model or golden missing"
  exit $fail
fi
for t in cortex-m4 cortex-m55; do
  line=$("$AOTC" verify --model.path "$f" --test.golden-data "$g" --target $t 2>&1 | grep -E '^(PASS|FAIL)')
  echo "$m $t: ${line:-no result}"
  case $line in PASS*) ;; *) fail=1 ;; esac
done
exit $fail
