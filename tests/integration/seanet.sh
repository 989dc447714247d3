#!/usr/bin/env bash
# seanet.sh AOTC - runs every seanet int16 single-op model of
# $AOTC_SHARED/models/tflm/seanet-int16 through `aotc verify` (host) against
# its golden CSV (reference kernels) with a tolerance of 1 LSB, and reports how
# many are bit-exact. Fails if any vector is off by more than 1 LSB.
set -u
AOTC=$(realpath "$1")
SHARED=${AOTC_SHARED:-../shared}
DIR="$SHARED/models/tflm/seanet-int16"
if [ ! -d "$DIR" ]; then echo "SKIP seanet: $DIR not found (set AOTC_SHARED)"; exit 0; fi
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d /tmp/aotc-seanet-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
one() {
  model=$1
  base=${model%.tflite}
  name=$(basename "$base")
  args=()
  for f in "${base}"_input*.csv; do
    n=${f##*_input}; n=${n%%_*}
    dt=${f##*_}; dt=${dt%.csv}
    args+=("input_$n=$f:$dt")
  done
  for f in "${base}"_golden_*.csv; do
    dt=${f##*_}; dt=${dt%.csv}
    args+=("output_0=$f:$dt")
  done
  python3 "$HERE/csv2npz.py" "$WORK/$name.npz" "${args[@]}"
  line=$("$AOTC" verify --model.path "$model" --test.golden-data "$WORK/$name.npz" --test.tolerance 1 2>&1 | grep -E '^(PASS|FAIL)' | head -1)
  echo "$name $line"
}
export -f one
export AOTC WORK HERE
ls "$DIR"/*/*.tflite | xargs -P "${JOBS:-2}" -I{} bash -c 'one {}' > "$WORK/results.txt"
sort -V "$WORK/results.txt" | sed 's/ model=[^ ]*//' > "$WORK/sorted.txt"
total=$(wc -l < "$WORK/sorted.txt")
pass=$(grep -c ' PASS ' "$WORK/sorted.txt")
exact=$(grep ' PASS ' "$WORK/sorted.txt" | grep -c 'exact=100.00%')
grep -v ' PASS ' "$WORK/sorted.txt" | head -20
echo "seanet int16: $pass/$total within 1 LSB, $exact/$total bit-exact (TFLM reference kernels: 124/127 bit-exact)"
[ "$pass" = "$total" ] && [ "$total" -gt 0 ]
