#!/usr/bin/env bash
# test_kernel_choice.sh AOTC - kernel choice by counted cost
# (src/passes/kernel_choice.c, transform kernel_choice). Two models from
# aotc_make_quant_model ("choice dw", "choice conv"): a layer that needs the
# other Cortex-M4 DSP engine anyway (a 5x5 depthwise layer, a grouped
# CONV_2D), then a layer the cost model finds faster on that engine. Checks:
#  - the second layer's params carry the choice (.dsp_variant), the first's
#    do not, and with --transforms.kernel_choice false none does;
#  - the module passes verify against the reference interpreter, exactly, on
#    host, Cortex-M4 and Cortex-M55 (QEMU), with the same output hash as the
#    module built without the choice;
#  - on Cortex-M4 the module with the choice counts fewer instructions than
#    the one without (instruction counts under QEMU are repeatable).
# The QEMU parts skip when arm-none-eabi-gcc or qemu-system-arm is missing.
set -u
AOTC=$(realpath "$1")
GEN=$(dirname "$AOTC")/aotc_make_quant_model
W=$(mktemp -d /tmp/aotc-kchoice-XXXXXX)
trap 'rm -rf "$W"' EXIT
fail() { echo "FAIL test_kernel_choice: $*"; exit 1; }
[ -x "$GEN" ] || fail "$GEN missing (build with AOTC_TESTS=ON)"
qemu=1
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "test_kernel_choice: arm-none-eabi-gcc or qemu-system-arm missing, QEMU parts skipped"
  qemu=0
fi
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
for m in dw conv; do
  case $m in dw) want=2 ;; conv) want=1 ;; esac
  "$GEN" choice "$W/$m.tflite" $m >/dev/null || fail "could not write the $m model"
  for kc in true false; do
    "$AOTC" convert --model.path "$W/$m.tflite" --module.path "$W/$m-$kc" --module.name m \
      --transforms.kernel_choice $kc >/dev/null || fail "$m: convert (kernel_choice $kc)"
  done
  src=$(ls "$W/$m-true/m/src/"*_model.c)
  # the params of op 1 (the second layer) carry the choice, op 0's do not
  awk '/static const aot_conv_params op1_/,/^};/' "$src" | grep -q "\.dsp_variant = $want " ||
    fail "$m: op 1 does not take the other path (dsp_variant $want)"
  awk '/static const aot_conv_params op0_/,/^};/' "$src" | grep -q "dsp_variant" &&
    fail "$m: op 0 took another path"
  grep -q "dsp_variant" "$W/$m-false/m/src/"*_model.c && fail "$m: a path chosen with kernel_choice false"
  targets=host
  [ $qemu = 1 ] && targets="host cortex-m4 cortex-m55"
  for t in $targets; do
    declare -A ins hash
    for kc in true false; do
      count=--count-instructions
      [ $t = host ] && count=
      out=$("$AOTC" verify --model.path "$W/$m.tflite" --target $t $count \
        --transforms.kernel_choice $kc 2>&1 | grep -E "^(PASS|FAIL)")
      echo "$m $t kernel_choice=$kc: $out"
      case $out in PASS*max_abs_err=0\ *) ;; *) fail "$m on $t (kernel_choice $kc): $out" ;; esac
      hash[$kc]=$(echo "$out" | field hash)
      ins[$kc]=$(echo "$out" | field instructions)
    done
    [ "${hash[true]}" = "${hash[false]}" ] || fail "$m on $t: outputs differ with the choice"
    if [ $t = cortex-m4 ]; then
      [ -n "${ins[true]}" ] && [ -n "${ins[false]}" ] || fail "$m: no instruction count"
      [ "${ins[true]}" -lt "${ins[false]}" ] ||
        fail "$m on cortex-m4: ${ins[true]} instructions with the choice, ${ins[false]} without"
    fi
  done
done
echo "PASS test_kernel_choice"
