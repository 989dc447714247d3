#!/usr/bin/env bash
# bench/seanet.sh AOTC [OP ...] - instructions of the int16x8 layers of a real
# streaming denoising network (SEANet, TFLM's integration test models in
# $AOTC_SHARED/models/tflm/seanet-int16: one model per layer) on Cortex-M4
# and Cortex-M55. Each figure comes from `aotc verify --count-instructions`
# against the layer's golden CSV (reference kernels, tolerance 1), so a
# layer that does not pass prints FAIL instead of a count. Prints one line
# per layer (MACs, instructions and instructions per MAC per core, the
# kernel variant) and the totals per operator type: the whole network's
# layers summed, a stand-in for the network, whose full graph is not public.
# OP limits the run to those folders (conv, transpose_conv, add, sub,
# leaky_relu, pad, quantize, strided_slice); JOBS (default 2) layers run at
# once. The CONV_2D layers are also set against CMSIS-NN's counts of the same
# layers (bench/cmsis_s16_reference.tsv). Figures, not a test.
set -u
AOTC=$(realpath "$1"); shift
SHARED=${AOTC_SHARED:-../shared}
DIR="$SHARED/models/tflm/seanet-int16"
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
[ -d "$DIR" ] || { echo "SKIP seanet bench: $DIR not found"; exit 0; }
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "SKIP seanet bench: arm-none-eabi-gcc or qemu-system-arm missing"; exit 0
fi
OPS=${*:-"conv transpose_conv add sub leaky_relu pad quantize strided_slice"}
W=$(mktemp -d /tmp/aotc-seanet-bench-XXXXXX)
trap 'rm -rf "$W"' EXIT
# one layer: its line of all.tsv into $W/row-<op>-<name>
one() {
  local op=$1 model=$2 base name f n dt out opl macs=0 var cols=()
  base=${model%.tflite}; name=$(basename "$base")
  local args=()
  for f in "${base}"_input*.csv; do
    n=${f##*_input}; n=${n%%_*}; dt=${f##*_}; dt=${dt%.csv}
    args+=("input_$n=$f:$dt")
  done
  for f in "${base}"_golden_*.csv; do dt=${f##*_}; dt=${dt%.csv}; args+=("output_0=$f:$dt"); done
  python3 "$ROOT/tests/integration/csv2npz.py" "$W/$name.npz" "${args[@]}"
  for t in cortex-m4 cortex-m55; do
    out=$("$AOTC" verify --model.path "$model" --test.golden-data "$W/$name.npz" --test.tolerance 1 \
            --target $t --count-instructions --profile 2>&1)
    n=$(echo "$out" | grep '^PASS' | grep -o 'instructions=[0-9]*' | cut -d= -f2)
    [ -n "$n" ] || n=FAIL
    opl=$(echo "$out" | awk '/^ +[0-9]+ +[A-Z_0-9]+ /' | head -1)
    macs=$(echo "$opl" | awk '{ for (i = 3; i <= NF; i++) if ($i ~ /^[0-9]+$/) { print $i; exit } }')
    var=$(echo "$opl" | grep -o '([a-z0-9,-]*)' | tail -1 | tr -d '()')
    cols+=("$n" "${var:--}")
  done
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$op" "$name" "${macs:-0}" "${cols[0]}" "${cols[1]}" \
    "${cols[2]}" "${cols[3]}" > "$W/row-$op-$name"
}
export -f one
export AOTC ROOT W
for op in $OPS; do
  ls "$DIR/$op"/*.tflite 2>/dev/null | sort -V | sed "s|^|$op |"
done > "$W/list"
xargs -P "${JOBS:-2}" -L 1 bash -c 'one "$0" "$1"' < "$W/list"
while read -r op model; do
  name=$(basename "${model%.tflite}")
  cat "$W/row-$op-$name" 2>/dev/null || printf '%s\t%s\t0\tFAIL\t-\tFAIL\t-\n' "$op" "$name"
done < "$W/list" > "$W/all.tsv"
# CMSIS-NN's counts of the same CONV_2D layers (bench/cmsis_s16_reference.tsv,
# measured outside this repository), ratio = aotc / CMSIS-NN
printf '%-18s %9s %10s %6s %-6s %10s %6s %-6s %10s %6s %10s %6s\n' layer MACs insns_m4 /MAC var_m4 \
  insns_m55 /MAC var_m55 cmsis_m4 ratio cmsis_m55 ratio
awk -F'\t' '
  function pm(n, m) { return (n ~ /^[0-9]+$/ && m > 0) ? sprintf("%.2f", n / m) : "-" }
  NR == FNR { if ($0 !~ /^#/ && $2 == "conv") { c4[$1] = $5; c55[$1] = $7 }; next }
  { k = ($1 == "conv" && ($2 in c4)) ? $2 : ""
    printf "%-18s %9s %10s %6s %-6s %10s %6s %-6s %10s %6s %10s %6s\n", $2, $3, $4, pm($4, $3), $5, $6,
      pm($6, $3), $7, k ? c4[k] : "-", k ? pm($4, c4[k]) : "-", k ? c55[k] : "-", k ? pm($6, c55[k]) : "-"
    ops[$1] = 1; n[$1]++; mac[$1] += $3
    if ($4 ~ /^[0-9]+$/) a[$1] += $4; else f[$1]++
    if ($6 ~ /^[0-9]+$/) b[$1] += $6; else f[$1]++
    if (k) { ca[$1] += c4[k]; cb[$1] += c55[k]; ra[$1] += $4; rb[$1] += $6 } }
  END {
    print ""
    printf "%-16s %6s %10s %12s %6s %12s %6s\n", "per op type", "layers", "MACs", "insns_m4", "/MAC", "insns_m55", "/MAC"
    for (o in ops) {
      printf "%-16s %6d %10d %12d %6s %12d %6s%s\n", o, n[o], mac[o], a[o], pm(a[o], mac[o]), b[o], pm(b[o], mac[o]),
        f[o] ? "  (" f[o] " FAIL)" : ""
      ta += a[o]; tb += b[o]; tm += mac[o]; tn += n[o]
    }
    printf "%-16s %6d %10d %12d %6s %12d %6s\n", "all", tn, tm, ta, pm(ta, tm), tb, pm(tb, tm)
    for (o in ca)
      printf "\n%s layers against CMSIS-NN: M4 %d vs %d (ratio %s), M55 %d vs %d (ratio %s)\n", o, ra[o], ca[o],
        pm(ra[o], ca[o]), rb[o], cb[o], pm(rb[o], cb[o])
  }' "$HERE/cmsis_s16_reference.tsv" "$W/all.tsv"
