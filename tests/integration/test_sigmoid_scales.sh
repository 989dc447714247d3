#!/usr/bin/env bash
# test_sigmoid_scales.sh AOTC - end to end, single-op LOGISTIC / TANH models
# (written by aotc_make_quant_model with aotc's LiteRT writer) at input
# scales from 1e-6 to 1e5, int8 (random-ish zero points) and int16, the
# huge gate scales of converted LSTM cells included: each must convert and
# `verify` (module built with its own flags, every output compared with the
# host reference interpreter). Scales TFLM cannot run (int16 >= 174763,
# int8 < 2^-28) must be refused with one line. Bit-exactness against TFLM's
# arithmetic is tests/unit/test_sigmoid_scales.c.
set -u
AOTC=$(realpath "$1")
GEN=$(dirname "$AOTC")/aotc_make_quant_model
[ -x "$GEN" ] || { echo "missing $GEN"; exit 1; }
W=$(mktemp -d /tmp/aotc-sigsc-XXXXXX); trap 'rm -rf "$W"' EXIT
fail=0 n=0
for dt in int8 int16; do
  for op in logistic tanh; do
    zp=0
    for sc in 1e-6 3e-4 0.01 0.1 2.5 7.99 8 12.5 100 3000 6000 1e5; do
      [ "$dt" = int8 ] && zp=$(( (n * 37) % 256 - 128 ))
      "$GEN" sigmoid "$W/m.tflite" "$op" "$dt" "$sc" "$zp" || { echo "generator failed"; fail=1; continue; }
      v=$("$AOTC" verify --model.path "$W/m.tflite" 2>&1)
      if printf '%s' "$v" | grep -q '^PASS'; then echo "PASS $dt $op scale $sc zp $zp"
      else echo "FAIL $dt $op scale $sc zp $zp: $v"; fail=1; fi
      n=$((n + 1))
    done
  done
done
refuse() {
  "$GEN" sigmoid "$W/m.tflite" "$2" "$1" "$3" 0 || { fail=1; return; }
  rm -rf "$W/mod"
  msg=$("$AOTC" convert --model.path "$W/m.tflite" --module.path "$W/mod" 2>&1); rc=$?
  if [ $rc -ne 0 ] && [ ! -e "$W/mod" ] && [ "$(printf '%s\n' "$msg" | grep -c .)" -eq 1 ] &&
     printf '%s' "$msg" | grep -q "$4"; then echo "refused $1 $2 $3: $msg"
  else echo "NOT refused as expected ($1 $2 $3): rc=$rc $msg"; fail=1; fi
}
refuse int16 logistic 2e5 "does not fit int32"
refuse int16 tanh 1e-15 "too small"
refuse int8 logistic 1e-9 "below 2^-28"
echo "sigmoid scales: $n models, fail=$fail"
exit $fail
