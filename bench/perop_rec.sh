#!/usr/bin/env bash
# bench/perop_rec.sh AOTC MODEL.tflite [KERNEL_REGEX] [TARGETS]
# Instructions of one inference per operator whose kernel name matches
# KERNEL_REGEX (extended regex on the aot_* kernel called in the generated
# aot_model.c; default: every operator), on each target of TARGETS (default
# "cortex-m4 cortex-m55"), counted under QEMU between markers that the module's
# op callback places around the operator (bench/perop_rec_main.c). Prints
#   target op_id kernel instructions
# one line per operator, then the total of the selected operators, then the
# whole inference (bench_main.c) for comparison.
set -u
AOTC=$(realpath "$1"); MODEL=$2; RE=${3:-.}; TARGETS=${4:-"cortex-m4 cortex-m55"}
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/.." && pwd)
WORK=$(mktemp -d /tmp/aotc-perop-XXXXXX); trap 'rm -rf "$WORK"' EXIT
"$AOTC" convert --model.path "$MODEL" --module.path "$WORK" --module.name m --force >/dev/null || exit 1
ops=$(grep -oE 'st = aot_[a-z0-9_]+\(&op[0-9]+_' "$WORK/m/src/aot_model.c" |
      sed -E 's/st = (aot_[a-z0-9_]+)\(&op([0-9]+)_/\2 \1/' | awk -v re="$RE" '$2 ~ re')
count() { # target ids-list out-dir main
  bash "$ROOT/targets/build-run.sh" --target "$1" --module "$WORK/m" --main "$4" -D "PEROP_IDS=$2" \
    --count-insns --out "$3" -q >/dev/null 2>&1 || { echo fail; return; }
  grep -o 'insns_region=[0-9]*' "$3/insn_count.txt" | cut -d= -f2
}
for t in $TARGETS; do
  all=""; sum=0
  while read -r id k; do
    [ -n "$id" ] || continue
    n=$(count "$t" "$id" "$WORK/o-$t-$id" "$HERE/perop_rec_main.c")
    printf '%-10s %4s %-28s %10s\n' "$t" "$id" "$k" "$n"
    [ "$n" = fail ] || sum=$((sum + n))
  done <<< "$ops"
  n=$(count "$t" -1 "$WORK/o-$t-all" "$HERE/bench_main.c")
  printf '%-10s %4s %-28s %10s\n' "$t" sum "selected" "$sum"
  printf '%-10s %4s %-28s %10s\n' "$t" all "inference" "$n"
done
