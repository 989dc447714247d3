#!/usr/bin/env bash
# test_dw_as_conv.sh AOTC - a DEPTHWISE_CONV_2D of one input channel runs as
# the CONV_2D it equals (src/passes/dw_as_conv.c, transform
# depthwise_as_conv). Single-layer models from aotc_make_quant_model
# ("dwone": depth multiplier M, per-channel filter scales, fused RELU) in
# int8, int16x8 and float32, with and without the transform. Checks:
#  - with it, the module calls a CONV_2D kernel under the model's op name
#    (op1_depthwise_conv_2d, "DEPTHWISE_CONV_2D, run as CONV_2D"); without
#    it, the depthwise kernel;
#  - both modules pass verify against the reference interpreter (which runs
#    the model's own DEPTHWISE_CONV_2D) on host, Cortex-M4 and Cortex-M55,
#    integer outputs exactly, with the same output hash;
#  - on both cores the int8 layers count fewer instructions with it.
# And layers over one column ("column": input [1, 23, 1, C], filter KH x 1,
# depthwise and CONV_2D, strides, dilations, SAME / VALID, three dtypes): the
# lowering passes them to the kernels as one row (.in_h = 1, .in_w = 23,
# src/ops/op_conv.c conv_column_as_row); they pass verify exactly on host,
# Cortex-M4 and Cortex-M55.
# The QEMU parts skip when arm-none-eabi-gcc or qemu-system-arm is missing.
set -u
AOTC=$(realpath "$1")
GEN=$(dirname "$AOTC")/aotc_make_quant_model
W=$(mktemp -d /tmp/aotc-dwconv-XXXXXX)
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL test_dw_as_conv: $*"; exit 1; }
[ -x "$GEN" ] || fail "$GEN missing (build with AOTC_TESTS=ON)"
qemu=1
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "test_dw_as_conv: arm-none-eabi-gcc or qemu-system-arm missing, QEMU parts skipped"
  qemu=0
fi
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
n=0
for spec in "int8 10 8 8 2 same" "int8 3 3 4 1 valid" "int16 5 3 6 2 same" "float32 3 3 8 1 same"; do
  n=$((n + 1))
  m="$W/m$n.tflite"
  "$GEN" dwone "$m" $spec >/dev/null || fail "could not write the model ($spec)"
  for on in true false; do
    "$AOTC" convert --model.path "$m" --module.path "$W/c$n-$on" --module.name m \
      --transforms.depthwise_as_conv $on >/dev/null || fail "$spec: convert ($on)"
  done
  src=$(ls "$W/c$n-true/m/src/"*_model.c)
  grep -q "op 0: DEPTHWISE_CONV_2D, run as CONV_2D" "$src" || fail "$spec: op 0 not run as CONV_2D"
  grep -Eq "aot_conv2d_(s8|s16|f32)\(&op0_depthwise_conv_2d_p" "$src" ||
    fail "$spec: no CONV_2D kernel call under the model's op name"
  grep -Eq "aot_dwconv2d_(s8|s16|f32)\(" "$W/c$n-false/m/src/"*_model.c ||
    fail "$spec: the depthwise kernel is not called with the transform off"
  targets=host
  [ $qemu = 1 ] && targets="host cortex-m4 cortex-m55"
  for t in $targets; do
    declare -A ins hash
    for on in true false; do
      count=--count-instructions
      [ $t = host ] && count=
      out=$("$AOTC" verify --model.path "$m" --target $t $count --transforms.depthwise_as_conv $on \
        2>&1 | grep -E "^(PASS|FAIL)")
      echo "$spec $t depthwise_as_conv=$on: $out"
      case $spec,$out in
        float32*,PASS*) ;;
        *,PASS*max_abs_err=0\ *) ;;
        *) fail "$spec on $t ($on): $out" ;;
      esac
      hash[$on]=$(echo "$out" | field hash)
      ins[$on]=$(echo "$out" | field instructions)
    done
    [ "${hash[true]}" = "${hash[false]}" ] || fail "$spec on $t: outputs differ with the transform"
    case $t,$spec in
      host,*|*,int16*|*,float32*) ;;
      *)
        [ -n "${ins[true]}" ] && [ -n "${ins[false]}" ] || fail "$spec on $t: no instruction count"
        [ "${ins[true]}" -lt "${ins[false]}" ] ||
          fail "$spec on $t: ${ins[true]} instructions as CONV_2D, ${ins[false]} as depthwise" ;;
    esac
  done
done
for spec in "dw int8 5 16 1 1 valid" "dw int8 3 24 2 1 same" "dw int8 4 8 1 2 same" \
  "conv int8 3 8 1 1 same" "conv int8 5 4 2 1 valid" "dw int16 3 8 1 1 same" "dw float32 5 8 2 1 same"; do
  n=$((n + 1))
  m="$W/m$n.tflite"
  "$GEN" column "$m" $spec >/dev/null || fail "could not write the column model ($spec)"
  "$AOTC" convert --model.path "$m" --module.path "$W/c$n" --module.name m >/dev/null ||
    fail "column $spec: convert"
  grep -q "\.in_h = 1, \.in_w = 23," "$W/c$n/m/src/"*_model.c ||
    fail "column $spec: not passed to the kernel as a row"
  targets=host
  [ $qemu = 1 ] && targets="host cortex-m4 cortex-m55"
  for t in $targets; do
    out=$("$AOTC" verify --model.path "$m" --target $t 2>&1 | grep -E "^(PASS|FAIL)")
    echo "column $spec $t: $out"
    case $spec,$out in
      *float32*,PASS*) ;;
      *,PASS*max_abs_err=0\ *) ;;
      *) fail "column $spec on $t: $out" ;;
    esac
  done
done
echo "PASS test_dw_as_conv"
