#!/usr/bin/env bash
# test_explicit_state.sh AOTC - explicit state carried by the caller: a model
# whose state is an input/output pair runs 4 iterations with
# --test.state-feedback 1:1 and matches the reference interpreter's loop; each
# invalid mapping is rejected with its message.
set -u
AOTC=$(realpath "$1")
GEN=$(dirname "$AOTC")/aotc_make_state_model
W=$(mktemp -d /tmp/aotc-xstate-XXXXXX); trap 'rm -rf "$W"' EXIT
"$GEN" "$W/state.tflite" || { echo "cannot make the model"; exit 1; }
fail=0
# the generated test seeds the state from the stimulus, carries output 1 into
# input 1 with memmove for 4 iterations; expectation from `aotc run` (reference)
out=$("$AOTC" verify --model.path "$W/state.tflite" --test.state-feedback 1:1 --test.num-iterations 4 --test.tolerance 1e-6 2>&1)
echo "$out" | grep -q '^PASS' || { echo "feedback verify failed: $out"; fail=1; }
echo "$out" | grep '^PASS'
expect_error() {
  local what=$1 pattern=$2; shift 2
  local msg
  msg=$("$AOTC" convert --model.path "$W/state.tflite" --module.path "$W" --module.name "bad" --force --test.enabled "$@" 2>&1)
  if [ $? -ne 0 ] && echo "$msg" | grep -q -- "$pattern" && [ ! -e "$W/bad" ]; then echo "rejected ($what): $msg"
  else echo "NOT rejected as expected ($what): $msg"; fail=1; fi
}
expect_error "output out of range" "output position 7 is out of range" --test.state-feedback 7:1
expect_error "input out of range" "input position 5 is out of range" --test.state-feedback 1:5
expect_error "dtype mismatch" "must have one dtype" --test.state-feedback 2:1
expect_error "shape mismatch" "different shapes" --test.state-feedback 3:1
expect_error "two outputs to one input" "both assigned to input 1" --test.state-feedback 0:1,1:1
exit $fail
