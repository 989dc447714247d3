#!/usr/bin/env bash
# test_conv_as_fc.sh AOTC - a CONV_2D whose one window is the whole input
# runs as the FULLY_CONNECTED it equals (src/passes/conv_as_fc.c, transform
# conv_as_fc). Single-layer models from aotc_make_quant_model ("window":
# input [1, IH, IW, C], filter IH x IW, VALID, fused RELU, per-channel or
# per-tensor filter scales) in int8 and int16x8, with and without the
# transform. Checks:
#  - with it, the module calls the FC kernel under the model's op name
#    (op0_conv_2d, "CONV_2D, run as FULLY_CONNECTED"); without it, the
#    CONV_2D kernel;
#  - both modules pass verify against the reference interpreter (which runs
#    the model's own CONV_2D on the convolution kernel) exactly on host,
#    Cortex-M4 and Cortex-M55, with the same output hash;
#  - on both cores the layers count fewer instructions with it.
# The QEMU parts skip when arm-none-eabi-gcc or qemu-system-arm is missing.
set -u
AOTC=$(realpath "$1")
GEN=$(dirname "$AOTC")/aotc_make_quant_model
W=$(mktemp -d /tmp/aotc-convfc-XXXXXX)
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL test_conv_as_fc: $*"; exit 1; }
[ -x "$GEN" ] || fail "$GEN missing (build with AOTC_TESTS=ON)"
targets=host
if command -v arm-none-eabi-gcc >/dev/null && command -v qemu-system-arm >/dev/null; then
  targets="host cortex-m4 cortex-m55"
else
  echo "test_conv_as_fc: arm-none-eabi-gcc or qemu-system-arm missing, QEMU parts skipped"
fi
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
n=0
for spec in "int8 5 1 40 32 per-channel" "int8 1 1 64 64 per-tensor" "int8 3 3 8 16 per-channel" \
  "int8 1 5 7 9 per-tensor" "int8 1 1 12 2 per-channel" "int16 4 1 16 24 per-channel" \
  "int16 1 1 32 8 per-tensor"; do
  n=$((n + 1))
  m="$W/m$n.tflite"
  "$GEN" window "$m" $spec >/dev/null || fail "could not write the model ($spec)"
  for on in true false; do
    "$AOTC" convert --model.path "$m" --module.path "$W/c$n-$on" --module.name m \
      --transforms.conv_as_fc $on >/dev/null || fail "$spec: convert ($on)"
  done
  src=$(ls "$W/c$n-true/m/src/"*_model.c)
  grep -q "op 0: CONV_2D, run as FULLY_CONNECTED" "$src" || fail "$spec: op 0 not run as FULLY_CONNECTED"
  grep -Eq "aot_fc_s(8|16)\(&op0_conv_2d_p" "$src" || fail "$spec: no FC kernel call under the model's op name"
  grep -Eq "aot_conv2d_s(8|16)\(" "$W/c$n-false/m/src/"*_model.c ||
    fail "$spec: the CONV_2D kernel is not called with the transform off"
  for t in $targets; do
    declare -A ins hash
    for on in true false; do
      count=--count-instructions
      [ $t = host ] && count=
      out=$("$AOTC" verify --model.path "$m" --target $t $count --transforms.conv_as_fc $on 2>&1 |
        grep -E "^(PASS|FAIL)")
      echo "$spec $t conv_as_fc=$on: $out"
      case $out in
        PASS*max_abs_err=0\ *) ;;
        *) fail "$spec on $t ($on): $out" ;;
      esac
      hash[$on]=$(echo "$out" | field hash)
      ins[$on]=$(echo "$out" | field instructions)
    done
    [ "${hash[true]}" = "${hash[false]}" ] || fail "$spec on $t: outputs differ with the transform"
    if [ $t != host ]; then
      [ -n "${ins[true]}" ] && [ -n "${ins[false]}" ] || fail "$spec on $t: no instruction count"
      [ "${ins[true]}" -lt "${ins[false]}" ] ||
        fail "$spec on $t: ${ins[true]} instructions as FULLY_CONNECTED, ${ins[false]} as CONV_2D"
    fi
  done
done
echo "PASS test_conv_as_fc"
