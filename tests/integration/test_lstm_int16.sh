#!/usr/bin/env bash
# test_lstm_int16.sh AOTC - int16x8 UNIDIRECTIONAL_SEQUENCE_LSTM end to end
# (issue 7). make_lstm_int16 writes five models (batch 1 and 2, time-major,
# cell_clip, 33 x 40; int16 activations, int8 weights, int64 biases) and sequence
# goldens of three runs with the state carried. On host, cortex-m4 and
# cortex-m55 (QEMU):
#  - the packed kernel (aot_lstm_s16p) is within the propagated quantization
#    bound of a double-precision float LSTM on the dequantized weights;
#  - a golden that resets the state every run fails (the check has teeth);
#  - packed == the reference interpreter's portable aot_lstm_s16, tolerance 0;
#  - with AOTC_LSTM_PORTABLE=1 (test hook) the module calls aot_lstm_s16 and
#    its outputs hash the same as the packed module's.
set -u
AOTC=$(realpath "$1")
BIN=$(dirname "$AOTC")
GEN="$BIN/aotc_make_lstm_int16"
[ -x "$GEN" ] || { echo "SKIP lstm_int16: $GEN not built"; exit 0; }
W=$(mktemp -d /tmp/aotc-l16-XXXXXX); trap 'rm -rf "$W"' EXIT
fail=0
targets="host"
if command -v arm-none-eabi-gcc >/dev/null && command -v qemu-system-arm >/dev/null; then
  targets="host cortex-m4 cortex-m55"
else echo "note: no arm-none-eabi-gcc / qemu-system-arm: host only"; fi
vline() { # env golden tol target
  local env=$1 g=$2 tol=$3 t=$4 topt=""
  [ "$t" = host ] || topt="--target $t"
  env $env "$AOTC" verify --model.path "$W/m.tflite" --test.golden-data "$g" --test.mode sequence \
    --test.tolerance "$tol" $topt 2>&1 | grep -E '^(PASS|FAIL)' | head -1
}
hash_of() { sed -n 's/.*hash=\([0-9a-f]*\).*/\1/p'; }
for c in 0 1 2 3 4; do
  info=$("$GEN" $c "$W/m.tflite" "$W/g.npz" "$W/i.npz" "$W/s.npz") || { echo "case $c: generator failed"; fail=1; continue; }
  tol=$(echo "$info" | awk '{print $2}'); sdiff=$(echo "$info" | awk '{print $4}')
  echo "case $c: $info"
  if [ "$sdiff" -le "$tol" ]; then echo "case $c: stateless differs by $sdiff <= tolerance $tol: no teeth"; fail=1; fi
  # the module calls the packed kernel, or the portable one when forced
  rm -rf "$W/mod" "$W/modp"
  "$AOTC" convert --model.path "$W/m.tflite" --module.path "$W/mod" --module.name l --module.prefix l >/dev/null 2>&1
  AOTC_LSTM_PORTABLE=1 "$AOTC" convert --model.path "$W/m.tflite" --module.path "$W/modp" --module.name l --module.prefix l >/dev/null 2>&1
  grep -q 'l_lstm_s16p(' "$W/mod/l/src/l_model.c" 2>/dev/null || { echo "case $c: module does not call aot_lstm_s16p"; fail=1; }
  if ! grep -q 'l_lstm_s16(' "$W/modp/l/src/l_model.c" 2>/dev/null || grep -q 'l_lstm_s16p(' "$W/modp/l/src/l_model.c"; then
    echo "case $c: AOTC_LSTM_PORTABLE=1 module does not call aot_lstm_s16 only"; fail=1
  fi
  for t in $targets; do
    a=$(vline "" "$W/g.npz" "$tol" $t)
    b=$(vline "" "$W/s.npz" "$tol" $t)
    e=$(vline "" "$W/i.npz" 0 $t)
    p=$(vline AOTC_LSTM_PORTABLE=1 "$W/i.npz" 0 $t)
    case "$a" in PASS*) ;; *) echo "case $c $t float reference: $a"; fail=1 ;; esac
    case "$b" in FAIL*) ;; *) echo "case $c $t stateless golden did not fail: $b"; fail=1 ;; esac
    case "$e" in PASS*) ;; *) echo "case $c $t packed vs portable: $e"; fail=1 ;; esac
    case "$p" in PASS*) ;; *) echo "case $c $t forced portable: $p"; fail=1 ;; esac
    hp=$(echo "$e" | hash_of); hq=$(echo "$p" | hash_of)
    [ -n "$hp" ] && [ "$hp" = "$hq" ] || { echo "case $c $t: packed hash '$hp' != portable hash '$hq'"; fail=1; }
    echo "case $c $t: float ref $(echo "$a" | grep -o 'max_abs_err=[0-9]*') (tol $tol), packed==portable $(echo "$e" | grep -o 'max_abs_err=[0-9]*') hash $hp/$hq"
  done
done
[ $fail = 0 ] && echo "lstm_int16: all passed"
exit $fail
