#!/usr/bin/env bash
# test_measure.sh AOTC - `aotc verify --count-instructions / --profile`
# (issue 7 item 1) against independent counts:
#  - the counting plugin counts a hand-written loop (tests/target/insn_loop.c)
#    exactly: 2*N+2 instructions, on both boards, for two values of N;
#  - verify --count-instructions on kws (Cortex-M4) equals the count of a
#    firmware built separately from bench/bench_main.c with
#    targets/build-run.sh --count-insns;
#  - verify --profile: the per-operator instructions sum to within 1% of the
#    whole inference (and below it), and every operator row has a count.
# Needs arm-none-eabi-gcc and qemu-system-arm; skips otherwise.
set -u
AOTC=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${AOTC_SHARED:-${SHARED:-$ROOT/../shared}}
BR=$ROOT/targets/build-run.sh
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "SKIP: arm-none-eabi-gcc or qemu-system-arm missing"; exit 0
fi
W=$(mktemp -d /tmp/aotc-measure-XXXXXX); trap 'rm -rf "$W"' EXIT
fail=0
ok() { echo "ok - $*"; }
bad() { echo "FAIL - $*"; fail=1; }

# 1. the plugin on a loop of known length
for t in cortex-m4 cortex-m55; do
  for n in 100 1000; do
    o=$W/loop-$t-$n
    if ! bash "$BR" --target "$t" --main "$ROOT/tests/target/insn_loop.c" -D LOOP_N=$n \
        --count-insns --out "$o" -q >"$o.log" 2>&1; then
      bad "insn_loop $t N=$n: build/run failed: $(tail -3 "$o.log")"; continue
    fi
    got=$(sed -n 's/^region_0=//p' "$o/insn_count.txt")
    if [ "$got" = $((2 * n + 2)) ]; then ok "insn_loop $t N=$n: $got instructions (2N+2)"
    else bad "insn_loop $t N=$n: counted '$got', expected $((2 * n + 2))"; fi
  done
done

M=$SHARED/models/mlperf-tiny/kws_ref_model.tflite
G=$SHARED/goldens-tflm/mlperf-tiny/kws_ref_model.npz
if [ ! -f "$M" ] || [ ! -f "$G" ]; then
  echo "SKIP: $M or its golden missing"
  exit $fail
fi

# 2. verify's count equals bench's independently built firmware
out=$("$AOTC" verify --model.path "$M" --test.golden-data "$G" --target cortex-m4 \
      --module.prefix aot --count-instructions 2>&1)
v=$(echo "$out" | sed -n 's/^PASS .* instructions=\([0-9]*\).*/\1/p')
mkdir -p "$W/mod"
if ! "$AOTC" convert --model.path "$M" --module.path "$W/mod" --module.prefix aot >"$W/conv.log" 2>&1; then
  bad "convert kws: $(cat "$W/conv.log")"
elif ! bash "$BR" --target cortex-m4 --module "$W/mod/helia_aot_nn" --exclude 'aot_test_*' \
      --main "$ROOT/bench/bench_main.c" --count-insns --out "$W/bench" -q >"$W/bench.log" 2>&1; then
  bad "bench firmware: $(tail -3 "$W/bench.log")"
else
  b=$(sed -n 's/^region_0=//p' "$W/bench/insn_count.txt")
  if [ -n "$v" ] && [ "$v" = "$b" ]; then ok "kws cortex-m4: verify $v = bench $b instructions"
  else bad "kws cortex-m4: verify '$v' != bench '$b' ($(echo "$out" | tail -2))"; fi
fi

# 3. the profile sums to the total within 1%
out=$("$AOTC" verify --model.path "$M" --test.golden-data "$G" --target cortex-m55 --profile 2>&1)
line=$(echo "$out" | grep '^profile total:')
rows=$(echo "$out" | awk '/^ +[0-9]+  /{n++} END{print n+0}')
norow=$(echo "$out" | awk '/^ +[0-9]+  / && $0 ~ / -1 /{n++} END{print n+0}')
s=$(echo "$line" | sed -n 's/^profile total: \([0-9]*\) .* \([0-9]*\) for the whole.*/\1/p')
tot=$(echo "$line" | sed -n 's/.* \([0-9]*\) for the whole inference.*/\1/p')
sum=$(echo "$out" | awk '/^ +[0-9]+  /{s+=$(NF-2)} END{print s+0}')
if [ -n "$s" ] && [ -n "$tot" ] && [ "$sum" = "$s" ] && [ "$rows" -ge 10 ] && [ "$norow" = 0 ] &&
   [ "$s" -le "$tot" ] && [ $((100 * (tot - s))) -le "$tot" ]; then
  ok "kws cortex-m55 profile: $rows ops sum $s of $tot instructions"
else
  bad "kws cortex-m55 profile: rows=$rows sum=$sum s='$s' total='$tot' missing=$norow: $line"
fi
# 4. the SVDF profile: the packed kernel's Helium variant is named (found from
# the module file that defines the kernel), and the MACs of an SVDF op are
# filters x (input + memory), by hand for op 3 of keyword_scrambled_8bit:
# weights_feature [64,16], state [1,512] = 64 filters x memory 8 -> 64 x 24.
SM="$SHARED/models/tflm/keyword_scrambled_8bit.tflite"; SG="$SHARED/goldens-tflm/tflm/keyword_scrambled_8bit.npz"
if [ -f "$SM" ] && [ -f "$SG" ]; then
  out=$("$AOTC" verify --model.path "$SM" --test.golden-data "$SG" --target cortex-m55 --profile 2>&1)
  row=$(echo "$out" | awk '$1 == 3 && $2 == "SVDF"')
  if echo "$row" | grep -q ' 1536 .*svdf_s8p_s8(mve)$'; then ok "svdf cortex-m55 profile: op 3 1536 MACs, svdf_s8p_s8(mve)"
  else bad "svdf cortex-m55 profile row: '$row'"; fi
else
  echo "SKIP svdf profile: $SM not found"
fi
# 5. an entry point that keeps the portable loop in a SIMD build is labelled
# so (<FUNCTION>_NO_DSP): QUANTIZE int32 -> int16 on cortex-m4 runs the
# portable loop, int16 -> int32 the DSP one; on cortex-m55 both run Helium
QD="$SHARED/models/tflm/seanet-int16/quantize"
if [ -f "$QD/quantize0.tflite" ]; then
  for spec in "quantize0 cortex-m4 requantize_s32_s16(portable)" "quantize1 cortex-m4 requantize_s16_s32(dsp)" \
              "quantize0 cortex-m55 requantize_s32_s16(mve)"; do
    set -- $spec
    row=$("$AOTC" verify --model.path "$QD/$1.tflite" --target $2 --profile 2>&1 | awk '$2 == "QUANTIZE"')
    case "$row" in *" $3") ok "$1 $2 profile: $3" ;; *) bad "$1 $2 profile row: '$row' (want $3)" ;; esac
  done
else
  echo "SKIP quantize profile: $QD not found"
fi
exit $fail
