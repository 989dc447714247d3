#!/usr/bin/env bash
# test_simd_ew16.sh AOTC - the fast LEAKY_RELU (int8, int16), QUANTIZE
# (requantize), int16 ADD / SUB broadcast and int8 MAX_POOL_2D paths
# (runtime/aot_leaky_simd.h, QuantizationFunctions/aot_requantize.c,
# aot_ew_q.h, PoolingFunctions/aot_maxpool_s8.c) against the portable
# kernels: tests/target/ew16_kernels.c, with the same files built with
# AOT_NO_SIMD as reference (tests/target/ew16_ref_kernels.c), on the host
# (fast scalar paths, ASan/UBSan when available), Cortex-M4 (Arm DSP) and
# Cortex-M55 (Helium) under QEMU. Then seanet int16 models of those op types
# ($AOTC_SHARED/models/tflm/seanet-int16/{leaky_relu,quantize,sub,add}; 19 of
# the 47 unless EW16_SEANET=all) must pass their golden (tolerance 1) on the
# host, cortex-m4 and cortex-m55 with the same output hash, and three int8
# MAX_POOL_2D models made by aotc_make_quant_model give the host's outputs on
# both targets. The targets are skipped when arm-none-eabi-gcc or
# qemu-system-arm is missing.
set -u
AOTC=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
S=${AOTC_SHARED:-$ROOT/../shared}
W=$(mktemp -d /tmp/aotc-ew16-XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
SRCS="tests/target/ew16_ref_kernels.c runtime/ActivationFunctions/aot_leaky_relu_s8.c runtime/ActivationFunctions/aot_leaky_relu_s16.c runtime/BasicMathFunctions/aot_add_s16.c runtime/BasicMathFunctions/aot_sub_s16.c runtime/QuantizationFunctions/aot_requantize.c runtime/PoolingFunctions/aot_maxpool_s8.c"
cd "$ROOT" || exit 1
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
echo 'int main(void){return 0;}' > "$W/t.c"
cc $san "$W/t.c" -o "$W/t" 2>/dev/null || san=""
if cc -std=c99 -pedantic -Wall -Wextra -Werror -O1 -g $san -Iruntime tests/target/ew16_kernels.c $SRCS -lm \
     -o "$W/host" && "$W/host" > "$W/host.txt"; then
  echo "host: $(tail -1 "$W/host.txt")"
else
  tail -20 "$W/host.txt" 2>/dev/null; echo "FAIL ew16_kernels host"; fail=1
fi
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "SKIP test_simd_ew16 targets: arm-none-eabi-gcc or qemu-system-arm missing (make deps)"
  exit $fail
fi
for t in cortex-m4 cortex-m55; do
  want="Arm DSP"; [ $t = cortex-m55 ] && want="Helium"
  args=""; for f in $SRCS; do args="$args --src $f"; done
  bash targets/build-run.sh --target $t -q -I runtime --main tests/target/ew16_kernels.c $args \
    --timeout 600 > "$W/$t.txt" 2> "$W/$t.err"
  rc=$?
  echo "$t: $(grep -E 'cases' "$W/$t.txt" | tr '\n' ';') $(tail -1 "$W/$t.txt")"
  if [ $rc != 0 ]; then echo "FAIL ew16_kernels $t: exit status $rc"; tail -20 "$W/$t.txt" "$W/$t.err"; fail=1; fi
  grep -q "EW16 kernels ($want)" "$W/$t.txt" || { echo "FAIL ew16_kernels $t: the $want path was not built"; fail=1; }
done

# int8 MAX_POOL_2D models (aotc_make_quant_model maxpool): host, M4, M55 equal
GEN=$(dirname "$AOTC")/aotc_make_quant_model
for spec in "16 16 32 3 2 same 0" "12 12 10 2 2 valid 1" "9 7 5 3 1 same 1"; do
  f="$W/mp_${spec// /_}.tflite"
  "$GEN" maxpool "$f" $spec || { echo "FAIL maxpool model $spec"; fail=1; continue; }
  h=""
  for t in host cortex-m4 cortex-m55; do
    line=$("$AOTC" verify --model.path "$f" --target $t 2>&1 | grep -E '^(PASS|FAIL)')
    c=$(echo "$line" | grep '^PASS' | grep -o 'hash=[0-9a-f]*')
    [ $t = host ] && h=$c
    if [ -z "$c" ] || [ "$c" != "$h" ]; then echo "FAIL maxpool $spec $t: $line (host $h)"; fail=1; fi
  done
  echo "maxpool $spec: host/cortex-m4/cortex-m55 ${h:-none}"
done

D="$S/models/tflm/seanet-int16"
if [ ! -d "$D" ]; then
  echo "SKIP test_simd_ew16 models: $D not found"
  exit $fail
fi
# one model: golden .npz from the CSVs (as seanet.sh), then host / M4 / M55
one() {
  m=$1; base=${m%.tflite}; name=$(basename "$base"); args=()
  for f in "${base}"_input*.csv; do
    n=${f##*_input}; n=${n%%_*}; dt=${f##*_}; dt=${dt%.csv}
    args+=("input_$n=$f:$dt")
  done
  for f in "${base}"_golden_*.csv; do dt=${f##*_}; dt=${dt%.csv}; args+=("output_0=$f:$dt"); done
  python3 "$ROOT/tests/integration/csv2npz.py" "$W/$name.npz" "${args[@]}" || { echo "$name FAIL csv2npz"; return; }
  h=""; out="$name"
  for t in host cortex-m4 cortex-m55; do
    line=$("$AOTC" verify --model.path "$m" --test.golden-data "$W/$name.npz" --test.tolerance 1 \
           --target $t 2>&1 | grep -E '^(PASS|FAIL)' | head -1)
    c=$(echo "$line" | grep '^PASS' | grep -o 'hash=[0-9a-f]*')
    [ -z "$c" ] && { echo "$name FAIL $t: $line"; return; }
    [ $t = host ] && h=$c
    [ "$c" != "$h" ] && { echo "$name FAIL $t: $c differs from host $h"; return; }
    out="$out $t:${c#hash=}"
  done
  echo "$out PASS"
}
export -f one
export AOTC W ROOT
# EW16_SEANET=all: every model (47); default: one of each shape and parameter
# kind (19, to keep the test's time moderate)
if [ "${EW16_SEANET:-}" = all ]; then
  ls "$D"/leaky_relu/*.tflite "$D"/quantize/*.tflite "$D"/sub/*.tflite "$D"/add/*.tflite
else
  for m in leaky_relu/leaky_relu{0,4,5,6,10,11} quantize/quantize{0,1} sub/sub{0,1,2,3,4} \
           add/add{0,1,3,4,10,16}; do echo "$D/$m.tflite"; done
fi |
  xargs -P "${JOBS:-2}" -I{} bash -c 'one {}' > "$W/models.txt"
n=$(wc -l < "$W/models.txt"); p=$(grep -c ' PASS$' "$W/models.txt")
grep -v ' PASS$' "$W/models.txt"
echo "seanet leaky_relu/quantize/sub/add: $p/$n models pass on host, cortex-m4, cortex-m55 with equal hashes"
[ "$p" = "$n" ] && [ "$n" -gt 0 ] || fail=1
exit $fail
