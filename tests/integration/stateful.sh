#!/usr/bin/env bash
# stateful.sh AOTC [TARGET] - stateful and control-flow shared models through
# `aotc verify`: state carried over N runs (persistent variable tensors,
# resource variables with CALL_ONCE, WHILE loops). Integer outputs against the
# TFLM golden where it exists, else the LiteRT golden; expectations for run
# counts a golden lacks come from the reference interpreter.
set -u
AOTC=$(realpath "$1")
TARGET=${2:-host}
S=${AOTC_SHARED:-../shared}
[ -d "$S/models" ] || { echo "SKIP stateful: $S/models not found"; exit 0; }
fails=0
while read -r m runs tol; do
  [ -n "$m" ] || continue
  f=$(ls "$S/models/$m".* | head -1)
  g="$S/goldens-tflm/$m.npz"; [ -f "$g" ] || g="$S/goldens/$m.npz"
  line=$("$AOTC" verify --model.path "$f" --test.golden-data "$g" --test.num-iterations "$runs" \
         --test.tolerance "$tol" --target "$TARGET" 2>&1 | grep -E '^(PASS|FAIL)' | head -1)
  echo "$line runs=$runs"
  case "$line" in PASS*) ;; *) fails=$((fails + 1)) ;; esac
done <<'LIST'
tflm/keyword_scrambled_8bit 3 1
tflm/trained_lstm 1 1e-4
tflm/trained_lstm 3 1e-4
tflm/trained_lstm_int8 1 1
tflm/trained_lstm_int8 3 1
litert-testdata/unidirectional_sequence_lstm 1 1e-4
litert-testdata/unidirectional_sequence_lstm 3 1e-4
streaming/okay_nabu_v2 3 1
litert-testdata/resource_vars_calibrated 3 1
litert-testdata/call_once_mul 3 1
litert-testdata/multi_subgraphs_while 1 1e-4
litert-testdata/nested_while 1 1e-4
LIST
echo "stateful ($TARGET): $fails failure(s)"
[ "$fails" = 0 ]
