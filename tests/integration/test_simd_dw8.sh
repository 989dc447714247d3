#!/usr/bin/env bash
# test_simd_dw8.sh AOTC - the int8 DEPTHWISE_CONV_2D kernel
# (runtime/ConvolutionFunctions/aot_dwconv2d_s8.c with aot_dwconv_mve.h /
# aot_dwconv_dsp.h) against the portable kernel: tests/target/dw8_kernels.c,
# with the same file built with AOT_NO_SIMD as reference
# (tests/target/dw8_ref_kernels.c), on the host (ASan/UBSan when available),
# Cortex-M4 (Arm DSP) and Cortex-M55 (Helium) under QEMU, on random layers
# (filters 1x1..5x5, 1x3, 1x5, 10x8, strides, paddings, dilations, 1..300
# channels, depth multipliers 1-3, maps 1x1..48x48). Then the int8 models
# with depthwise layers must give on cortex-m4 and cortex-m55 exactly the
# outputs of the host build (same output hash, max_abs_err=0 against their
# TFLM goldens). The targets are skipped when arm-none-eabi-gcc or
# qemu-system-arm is missing.
set -u
AOTC=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
S=${AOTC_SHARED:-$ROOT/../shared}
W=$(mktemp -d /tmp/aotc-dw8-XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
SRCS="tests/target/dw8_ref_kernels.c runtime/ConvolutionFunctions/aot_dwconv2d_s8.c"
cd "$ROOT" || exit 1
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
echo 'int main(void){return 0;}' > "$W/t.c"
cc $san "$W/t.c" -o "$W/t" 2>/dev/null || san=""
if cc -std=c99 -pedantic -Wall -Wextra -Werror -O1 -g $san -Iruntime -DDW8_CASES=300 \
     tests/target/dw8_kernels.c $SRCS -lm -o "$W/host" && "$W/host" > "$W/host.txt"; then
  tail -2 "$W/host.txt"
else
  tail -n 20 "$W/host.txt" 2>/dev/null; echo "FAIL dw8_kernels host"; fail=1
fi
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "SKIP test_simd_dw8 targets: arm-none-eabi-gcc or qemu-system-arm missing (make deps)"
  exit $fail
fi
for t in cortex-m4 cortex-m55; do
  want="Arm DSP"; [ $t = cortex-m55 ] && want="Helium"
  args=""; for f in $SRCS; do args="$args --src $f"; done
  bash targets/build-run.sh --target $t -q -I runtime --main tests/target/dw8_kernels.c $args \
    --timeout 600 > "$W/$t.txt" 2> "$W/$t.err"
  rc=$?
  echo "$t: $(grep -E 'slowk|layers compared' "$W/$t.txt" | tr '\n' ' ')$(tail -1 "$W/$t.txt")"
  if [ $rc != 0 ]; then echo "FAIL dw8_kernels $t: exit status $rc"; tail -n 20 "$W/$t.txt" "$W/$t.err"; fail=1; fi
  grep -q "dw8 kernels ($want)" "$W/$t.txt" || { echo "FAIL dw8_kernels $t: the $want path was not built"; fail=1; }
done

if [ ! -d "$S/models" ]; then
  echo "SKIP test_simd_dw8 models: $S/models not found"
  exit $fail
fi
for m in ${DW8_MODELS:-mlperf-tiny/kws_ref_model mlperf-tiny/vww_96_int8 tflm/person_detect}; do
  f="$S/models/$m.tflite"; g="$S/goldens-tflm/$m.npz"
  [ -f "$f" ] && [ -f "$g" ] || { echo "SKIP $m: model or golden missing"; continue; }
  h=$("$AOTC" verify --model.path "$f" --test.golden-data "$g" --target host 2>&1 | grep '^PASS' | grep -o 'hash=[0-9a-f]*')
  for t in cortex-m4 cortex-m55; do
    line=$("$AOTC" verify --model.path "$f" --test.golden-data "$g" --target $t 2>&1 | grep -E '^(PASS|FAIL)')
    c=$(echo "$line" | grep '^PASS' | grep 'max_abs_err=0 ' | grep -o 'hash=[0-9a-f]*')
    echo "$m: host ${h:-none}, $t ${c:-none}"
    if [ -z "$h" ] || [ "$h" != "$c" ]; then echo "FAIL $m $t: $line"; fail=1; fi
  done
done
exit $fail
