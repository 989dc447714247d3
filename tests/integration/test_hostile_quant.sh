#!/usr/bin/env bash
# test_hostile_quant.sh AOTC - hostile quantization and window geometry
# (issue 11 items 8 and 9): every case of aotc_make_quant_model's hostile
# matrix (valid flatbuffers; one zero point, scale, scale ratio, dilation or
# stride made hostile) must either be refused by `convert` with exit 1 or 2,
# a one-line message naming the op, no sanitizer report and nothing on disk,
# or convert cleanly and pass `verify` (module built with its own flags, run
# against the host reference interpreter). Can fail on: a crash or sanitizer
# report, a multi-line or op-less message, a leftover output directory, an
# accepted model whose verify fails.
set -u
AOTC=$(realpath "$1")
GEN=$(dirname "$AOTC")/aotc_make_quant_model
[ -x "$GEN" ] || { echo "missing $GEN"; exit 1; }
W=$(mktemp -d /tmp/aotc-hostq-XXXXXX); trap 'rm -rf "$W"' EXIT
fail=0 refused=0 accepted=0 i=0
while :; do
  desc=$("$GEN" hostile "$W/m.tflite" "$i"); rc=$?
  [ $rc -eq 3 ] && break
  [ $rc -eq 0 ] || { echo "case $i: generator failed"; fail=1; i=$((i + 1)); continue; }
  rm -rf "$W/mod"
  out=$("$AOTC" convert --model.path "$W/m.tflite" --module.path "$W/mod" 2>"$W/err"); rc=$?
  err=$(cat "$W/err")
  if grep -qE "runtime error|AddressSanitizer|LeakSanitizer|UndefinedBehavior" "$W/err"; then
    echo "case $i ($desc): SANITIZER: $err"; fail=1
  elif [ $rc -ne 0 ]; then
    lines=$(printf '%s\n' "$err" | grep -c .)
    if { [ $rc -ne 1 ] && [ $rc -ne 2 ]; } || [ "$lines" -ne 1 ] || [ -e "$W/mod" ] ||
       ! printf '%s' "$err" | grep -qE "op [0-9]+"; then
      echo "case $i ($desc): bad refusal rc=$rc lines=$lines: $err"; fail=1
    else
      refused=$((refused + 1)); echo "refused  $i ($desc): $err"
    fi
  else
    v=$("$AOTC" verify --model.path "$W/m.tflite" 2>&1)
    if printf '%s' "$v" | grep -q '^PASS'; then
      accepted=$((accepted + 1)); echo "verified $i ($desc)"
    else
      echo "case $i ($desc): converted but verify failed: $v"; fail=1
    fi
  fi
  rm -rf "$W/mod" "$W/err"
  i=$((i + 1))
done
echo "hostile quantization: $i cases, $refused refused, $accepted verified, fail=$fail"
[ $i -gt 200 ] || { echo "too few cases"; fail=1; }
exit $fail
