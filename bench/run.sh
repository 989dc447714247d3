#!/usr/bin/env bash
# bench/run.sh AOTC - prints benchmark figures per shared model: arena bytes,
# lower bound, persistent bytes, constants bytes, module code bytes
# (arm-none-eabi text of the module for cortex-m4, constants excluded),
# convert time, and instructions per inference on cortex-m4 / cortex-m55
# (QEMU instruction counts between markers; repeatable).
set -u
AOTC=$(realpath "$1")
SHARED=${AOTC_SHARED:-../shared}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
if [ ! -d "$SHARED/models" ]; then echo "SKIP bench: $SHARED/models not found"; exit 0; fi
MODELS=${BENCH_MODELS:-"mlperf-tiny/kws_ref_model mlperf-tiny/pretrainedResnet_quant mlperf-tiny/ad01_int8
mlperf-tiny/str_ww_ref_model mlperf-tiny/vww_96_int8 mlperf-tiny/kws_ref_model_float32 tflm/micro_speech_quantized
tflm/person_detect tflm/hello_world_int8 tflm/keyword_scrambled_8bit tflm/trained_lstm tflm/trained_lstm_int8
streaming/okay_nabu_v2 gru/bigru64_fp32"}
WORK=$(mktemp -d /tmp/aotc-bench-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
have_arm=0
command -v arm-none-eabi-gcc >/dev/null && command -v qemu-system-arm >/dev/null && have_arm=1
printf '%-34s %9s %9s %6s %9s %10s %9s %8s %12s %12s\n' model arena lower_bd ratio persist constants code_m4 conv_ms insns_m4 insns_m55
for m in $MODELS; do
  f="$SHARED/models/$m.tflite"
  [ -f "$f" ] || continue
  name=$(basename "$m" | tr -c 'A-Za-z0-9_\n' _)  # module names are C identifiers
  json=$("$AOTC" inspect --json "$f" 2>/dev/null)
  get() { echo "$json" | grep -o "\"$1\": [0-9]*" | head -1 | grep -o '[0-9]*$'; }
  arena=$(get arena_bytes); lb=$(get arena_lower_bound_bytes); pers=$(get persistent_bytes); cb=$(get constant_bytes)
  t0=$(date +%s%N)
  if ! "$AOTC" convert --model.path "$f" --module.path "$WORK" --module.name "$name" --force >/dev/null 2>"$WORK/$name.err"; then
    printf '%-34s %s\n' "$m" "convert failed: $(head -c 120 "$WORK/$name.err")"
    continue
  fi
  t1=$(date +%s%N)
  ms=$(( (t1 - t0) / 1000000 ))
  ratio=$(awk -v a="${arena:-0}" -v b="${lb:-0}" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')
  code="-"; code55="-"; i4="-"; i55="-"
  if [ $have_arm = 1 ]; then
    for t in cortex-m4 cortex-m55; do
      out="$WORK/$name-$t"
      if bash "$ROOT/targets/build-run.sh" --target $t --module "$WORK/$name" --main "$HERE/bench_main.c" \
           --count-insns --out "$out" -q >/dev/null 2>&1; then
        n=$(grep -o 'insns_region=[0-9]*' "$out/insn_count.txt" | cut -d= -f2)
      else n="fail"; fi
      if [ $t = cortex-m4 ]; then i4=$n; code=$(grep -o 'module_text=[0-9]*' "$out/size.txt" 2>/dev/null | cut -d= -f2)
      else i55=$n; code55=$(grep -o 'module_text=[0-9]*' "$out/size.txt" 2>/dev/null | cut -d= -f2); fi
    done
  fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$m" "$i4" "$i55" "${code:--}" "${code55:--}" >> "$WORK/aotc.tsv"
  printf '%-34s %9s %9s %6s %9s %10s %9s %8s %12s %12s\n' "$m" "${arena:--}" "${lb:--}" "$ratio" "${pers:--}" "${cb:--}" "${code:--}" "$ms" "$i4" "$i55"
done
echo "arena = scratch arena bytes; lower_bd = largest sum of live tensor bytes at any op; code_m4 = module .text for cortex-m4 (constants excluded)"

# aotc against TFLM + CMSIS-NN (bench/tflm_reference.tsv): instructions and
# ratios per core, instructions per MAC, code bytes and their ratio.
if [ -s "$WORK/aotc.tsv" ]; then
  echo
  echo "against TFLM + CMSIS-NN (bench/tflm_reference.tsv; ratio = aotc / TFLM, goal <= 0.8; code goal <= 0.25)"
  awk -F'\t' 'NR == FNR { if ($0 !~ /^#/ && NF >= 5) { macs[$1] = $2; t4[$1] = $3; t55[$1] = $4; tc[$1] = $5 }; next }
    function r(a, b) { return (a ~ /^[0-9]+$/ && b > 0) ? sprintf("%.3f", a / b) : "-" }
    function ipm(a, m) { return (a ~ /^[0-9]+$/ && m > 0) ? sprintf("%.2f", a / m) : "-" }
    BEGIN { printf "%-34s %12s %12s %6s %6s %12s %12s %6s %6s %9s %9s %6s\n", "model", "aotc_m4", "tflm_m4", "ratio", "i/MAC",
            "aotc_m55", "tflm_m55", "ratio", "i/MAC", "code_m4", "tflm_code", "ratio" }
    ($1 in t4) { printf "%-34s %12s %12s %6s %6s %12s %12s %6s %6s %9s %9s %6s\n", $1, $2, t4[$1], r($2, t4[$1]), ipm($2, macs[$1]),
                 $3, t55[$1], r($3, t55[$1]), ipm($3, macs[$1]), $4, tc[$1], r($4, tc[$1]) }' \
    "$HERE/tflm_reference.tsv" "$WORK/aotc.tsv"
fi

# Rolled GRU: fused GRU operator vs the WHILE loop compiled to C, and the
# flash bytes of the constants with float32, FP16 (PTQ) and fully-FP16 weights.
echo
echo "rolled GRU (bigru64): instructions per inference and constants"
printf '%-40s %12s %12s %12s\n' variant constants insns_m4 insns_m55
gru_row() {
  local label=$1 model=$2; shift 2
  local mname="gru_$(echo "$label" | tr -c 'A-Za-z0-9_\n' _)"  # a C identifier
  local dir="$WORK/$mname"
  if ! "$AOTC" convert --model.path "$model" --module.path "$WORK" --module.name "$mname" --force "$@" >/dev/null 2>"$dir.err"; then
    printf '%-40s %s\n' "$label" "convert failed: $(head -c 100 "$dir.err")"; return
  fi
  local cb i4="-" i55="-"
  cb=$("$AOTC" inspect --json "$model" "$@" 2>/dev/null | grep -o '"constant_bytes": [0-9]*' | grep -o '[0-9]*$')
  if [ $have_arm = 1 ]; then
    for t in cortex-m4 cortex-m55; do
      if bash "$ROOT/targets/build-run.sh" --target $t --module "$dir" --main "$HERE/bench_main.c" \
           --count-insns --out "$dir-$t" -q >/dev/null 2>&1; then
        n=$(grep -o 'insns_region=[0-9]*' "$dir-$t/insn_count.txt" | cut -d= -f2)
      else n=fail; fi
      if [ $t = cortex-m4 ]; then i4=$n; else i55=$n; fi
    done
  fi
  printf '%-40s %12s %12s %12s\n' "$label" "${cb:--}" "$i4" "$i55"
}
G="$SHARED/models/gru"
if [ -f "$G/bigru64_fp32.tflite" ]; then
  gru_row "fp32 fused GRU" "$G/bigru64_fp32.tflite"
  gru_row "fp32 WHILE-lowered" "$G/bigru64_fp32.tflite" --litert-hooks.fuse_rolled_gru false
  gru_row "fp16 weights (PTQ) fused" "$G/bigru64_fp16w.tflite"
  if "$AOTC" fp16 "$G/bigru64_fp32.tflite" "$WORK/bigru64_f16.tflite" >/dev/null 2>&1; then
    gru_row "fully fp16 (aotc fp16) fused" "$WORK/bigru64_f16.tflite"
  fi
fi
