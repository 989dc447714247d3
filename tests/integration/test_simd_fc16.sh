#!/usr/bin/env bash
# test_simd_fc16.sh AOTC - the Helium and Arm DSP paths of the int16x8
# FULLY_CONNECTED and DEPTHWISE_CONV_2D kernels (runtime/aot_fc16_simd.h)
# against the portable kernels: tests/target/fc16_kernels.c, with the same
# files built with AOT_NO_SIMD as reference (tests/target/fc16_ref_kernels.c),
# on the host (ASan/UBSan when available), Cortex-M4 (Arm DSP) and Cortex-M55
# (Helium) under QEMU. Then int16x8 FULLY_CONNECTED and DEPTHWISE_CONV_2D
# models made by aotc_make_quant_model (fc16 / dw kinds: depth 2000 and
# batch 4, 3x3 / Kx1 filters, strides 1-2, SAME / VALID,
# dilation 2, depth multiplier 2, channels not a multiple of 8) must pass
# against the reference interpreter on the host, cortex-m4 and cortex-m55
# with the same output hash, the targets with the dsp / mve variant. (No
# seanet int16 model has a FULLY_CONNECTED or DEPTHWISE_CONV_2D layer, nor a
# one-window CONV_2D that conv_as_fc would turn into one, so none is run
# here.) The targets are skipped when arm-none-eabi-gcc or qemu-system-arm is
# missing. About 3 minutes (the QEMU kernel checks take half a minute).
set -u
AOTC=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MK="$(dirname "$AOTC")/aotc_make_quant_model"
W=$(mktemp -d /tmp/aotc-fc16-XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
SRCS="tests/target/fc16_ref_kernels.c runtime/FullyConnectedFunctions/aot_fc_s16.c runtime/ConvolutionFunctions/aot_dwconv2d_s16.c"
cd "$ROOT" || exit 1
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
echo 'int main(void){return 0;}' > "$W/t.c"
cc $san "$W/t.c" -o "$W/t" 2>/dev/null || san=""
if cc -std=c99 -pedantic -Wall -Wextra -Werror -O1 -g $san -Iruntime tests/target/fc16_kernels.c $SRCS -lm \
     -o "$W/host" && "$W/host" > "$W/host.txt"; then
  echo "host: $(tail -2 "$W/host.txt" | tr '\n' ' ')"
else
  tail -20 "$W/host.txt" 2>/dev/null; echo "FAIL fc16_kernels host"; fail=1
fi
targets=1
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "SKIP test_simd_fc16 targets: arm-none-eabi-gcc or qemu-system-arm missing (make deps)"
  targets=0
fi
if [ $targets = 1 ]; then
  args=""; for f in $SRCS; do args="$args --src $f"; done
  for t in cortex-m4 cortex-m55; do
    want="Arm DSP"; [ $t = cortex-m55 ] && want="Helium"
    bash targets/build-run.sh --target $t -q -I runtime --main tests/target/fc16_kernels.c $args \
      --timeout 600 > "$W/$t.txt" 2> "$W/$t.err"
    rc=$?
    echo "$t: $(tail -2 "$W/$t.txt" | tr '\n' ' ')"
    if [ $rc != 0 ]; then echo "FAIL fc16_kernels $t: exit status $rc"; tail -20 "$W/$t.txt" "$W/$t.err"; fail=1; fi
    grep -q "FC16 kernels ($want)" "$W/$t.txt" || { echo "FAIL fc16_kernels $t: the $want path was not built"; fail=1; }
  done
fi

# the models: name and generator arguments
MODELS="fc_k2000_o32:fc16 1 2000 32 per-channel relu
fc_b4_k128_o50:fc16 4 128 50 per-channel none
dw3x3_dm2_s2:dw int16 11 9 13 3 3 2 2 1 valid
dw5x1_column:dw int16 40 1 24 5 1 1 1 1 same
dw3x3_dil2:dw int16 16 16 12 3 3 1 1 2 same"
if [ ! -x "$MK" ]; then echo "SKIP models: $MK not built (AOTC_TESTS=ON)"; exit $fail; fi
tl=host; [ $targets = 1 ] && tl="host cortex-m4 cortex-m55"
while IFS=: read -r name gen; do
  # shellcheck disable=SC2086
  "$MK" ${gen%% *} "$W/$name.tflite" ${gen#* } || { echo "FAIL $name: generator"; fail=1; continue; }
  h=""
  for t in $tl; do
    if [ $t = host ]; then out=$("$AOTC" verify --model.path "$W/$name.tflite" --target host 2>&1)
    else out=$("$AOTC" verify --model.path "$W/$name.tflite" --target $t --count-instructions --profile 2>&1); fi
    line=$(echo "$out" | grep -E '^(PASS|FAIL)')
    c=$(echo "$line" | grep '^PASS' | grep -o 'hash=[0-9a-f]*')
    [ $t = host ] && h=$c
    ins=$(echo "$line" | grep -o 'instructions=[0-9]*')
    var=$(echo "$out" | grep -oE '(fc_s16|dwconv2d_s16)\([a-z]+\)' | head -1)
    echo "$name $t: ${c:-none} ${ins} ${var}"
    if [ -z "$c" ] || [ "$c" != "$h" ]; then echo "FAIL $name $t: $line"; fail=1; fi
    case $t in
      cortex-m4) [[ $var == *"(dsp)" ]] || { echo "FAIL $name $t: variant $var, not dsp"; fail=1; } ;;
      cortex-m55) [[ $var == *"(mve)" ]] || { echo "FAIL $name $t: variant $var, not mve"; fail=1; } ;;
    esac
  done
done <<< "$MODELS"
exit $fail
