#!/usr/bin/env bash
# test_sequence.sh AOTC - sequence mode: a different expected output per step
# (the stateful TFLM goldens' runK outputs), checked at every step, with and
# without a reset (test.resets re-runs init before the given step).
set -u
AOTC=$(realpath "$1")
S=${AOTC_SHARED:-../shared}
HERE=$(cd "$(dirname "$0")" && pwd)
[ -d "$S/goldens-tflm" ] || { echo "SKIP sequence: $S/goldens-tflm not found"; exit 0; }
W=$(mktemp -d /tmp/aotc-seq-XXXXXX); trap 'rm -rf "$W"' EXIT
fail=0
# okay_nabu: int8 in, uint8 out (1 LSB); call_once_mul: float (1e-5)
for spec in streaming/okay_nabu_v2:1 litert-testdata/call_once_mul:1e-5; do
  m=${spec%%:*}; tol=${spec#*:}
  f=$(ls "$S/models/$m".* | head -1)
  n=$(basename "$m")
  python3 "$HERE/seqgolden.py" "$S/goldens-tflm/$m.npz" "$W/$n-seq.npz" 0,1,2
  python3 "$HERE/seqgolden.py" "$S/goldens-tflm/$m.npz" "$W/$n-reset.npz" 0,1,0,1,2
  python3 "$HERE/seqgolden.py" "$S/goldens-tflm/$m.npz" "$W/$n-wrong.npz" 0,0,0
  for case in "seq:" "reset:--test.resets 2"; do
    name=${case%%:*}; extra=${case#*:}
    line=$("$AOTC" verify --model.path "$f" --test.golden-data "$W/$n-$name.npz" --test.mode sequence --test.tolerance "$tol" $extra 2>&1 | grep -E '^(PASS|FAIL)' | head -1)
    echo "$n $name: $line"
    case "$line" in PASS*) ;; *) fail=1 ;; esac
  done
  # a golden that ignores the state must fail (the check has teeth)
  if "$AOTC" verify --model.path "$f" --test.golden-data "$W/$n-wrong.npz" --test.mode sequence --test.tolerance "$tol" >/dev/null 2>&1; then
    echo "$n: a stateless expectation passed - the sequence check cannot fail"; fail=1
  else echo "$n: stateless expectation correctly fails"; fi
done
exit $fail
