#!/usr/bin/env bash
# test_simd_conv16.sh AOTC - the int16x8 CONV_2D and TRANSPOSE_CONV kernels'
# SIMD paths (runtime/aot_s16_simd.h) against their portable loops:
# tests/target/conv16_kernels.c, with the same files built with AOT_NO_SIMD
# as reference (tests/target/conv16_ref_kernels.c), on the host (ASan/UBSan
# when available), Cortex-M4 (Arm DSP) and Cortex-M55 (Helium) under QEMU.
# Then every seanet int16 conv* / transpose_conv* model
# ($AOTC_SHARED/models/tflm/seanet-int16) must pass its golden (tolerance 1)
# on cortex-m4 and cortex-m55 with the output hash of the host build.
# SEANET16_MODELS="conv5 transpose_conv0" limits the models. The targets are
# skipped when arm-none-eabi-gcc or qemu-system-arm is missing.
set -u
AOTC=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
S=${AOTC_SHARED:-$ROOT/../shared}
W=$(mktemp -d /tmp/aotc-conv16-XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
SRCS="tests/target/conv16_ref_kernels.c runtime/ConvolutionFunctions/aot_conv2d_s16.c runtime/ConvolutionFunctions/aot_tconv2d_s16.c"
cd "$ROOT" || exit 1
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
echo 'int main(void){return 0;}' > "$W/t.c"
cc $san "$W/t.c" -o "$W/t" 2>/dev/null || san=""
if cc -std=c99 -pedantic -Wall -Wextra -Werror -O1 -g $san -Iruntime tests/target/conv16_kernels.c $SRCS -lm \
     -o "$W/host" && "$W/host" > "$W/host.txt"; then
  echo "host: $(tail -1 "$W/host.txt")"
else
  tail -20 "$W/host.txt" 2>/dev/null; echo "FAIL conv16_kernels host"; fail=1
fi
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "SKIP test_simd_conv16 targets: arm-none-eabi-gcc or qemu-system-arm missing (make deps)"
  exit $fail
fi
for t in cortex-m4 cortex-m55; do
  want="Arm DSP"; [ $t = cortex-m55 ] && want="Helium"
  args=""; for f in $SRCS; do args="$args --src $f"; done
  bash targets/build-run.sh --target $t -q -I runtime --main tests/target/conv16_kernels.c $args \
    --timeout 600 > "$W/$t.txt" 2> "$W/$t.err"
  rc=$?
  echo "$t: $(sed -n 2p "$W/$t.txt"); $(tail -1 "$W/$t.txt")"
  if [ $rc != 0 ]; then echo "FAIL conv16_kernels $t: exit status $rc"; tail -20 "$W/$t.txt" "$W/$t.err"; fail=1; fi
  grep -q "conv16 kernels ($want)" "$W/$t.txt" || { echo "FAIL conv16_kernels $t: the $want path was not built"; fail=1; }
done

D="$S/models/tflm/seanet-int16"
if [ ! -d "$D" ]; then
  echo "SKIP test_simd_conv16 models: $D not found (set AOTC_SHARED)"
  exit $fail
fi
# one model: golden .npz from its CSVs, then host, cortex-m4, cortex-m55
one() {
  f=$1; base=${f%.tflite}; name=$(basename "$base")
  args=()
  for c in "${base}"_input*.csv; do
    n=${c##*_input}; n=${n%%_*}; dt=${c##*_}; dt=${dt%.csv}; args+=("input_$n=$c:$dt")
  done
  for c in "${base}"_golden_*.csv; do dt=${c##*_}; dt=${dt%.csv}; args+=("output_0=$c:$dt"); done
  python3 "$ROOT/tests/integration/csv2npz.py" "$W/$name.npz" "${args[@]}" || { echo "$name FAIL npz"; return; }
  r="$name"
  for t in host cortex-m4 cortex-m55; do
    line=$("$AOTC" verify --model.path "$f" --test.golden-data "$W/$name.npz" --test.tolerance 1 \
           --target $t 2>&1 | grep -E '^(PASS|FAIL)' | head -1)
    st=${line%% *}; h=$(echo "$line" | grep -o 'hash=[0-9a-f]*')
    r="$r $t:${st:-none}:${h:-none}"
  done
  echo "$r"
}
export -f one
export AOTC W ROOT
models=""
if [ -n "${SEANET16_MODELS:-}" ]; then
  for m in $SEANET16_MODELS; do models="$models $(ls "$D"/*/"$m".tflite 2>/dev/null)"; done
else
  models=$(ls "$D"/conv/conv*.tflite "$D"/transpose_conv/transpose_conv*.tflite 2>/dev/null)
fi
printf '%s\n' $models | xargs -P "${JOBS:-2}" -I{} bash -c 'one {}' | sort -V > "$W/models.txt"
n=0
while read -r name h m4 m55; do
  n=$((n + 1))
  hh=${h##*:}
  if [ "$h" != "host:PASS:$hh" ] || [ "$hh" = none ] || [ "$m4" != "cortex-m4:PASS:$hh" ] || [ "$m55" != "cortex-m55:PASS:$hh" ]; then
    echo "FAIL $name: $h $m4 $m55"; fail=1
  fi
done < "$W/models.txt"
echo "seanet int16 conv / transpose_conv: $n models, host / cortex-m4 / cortex-m55 $(grep -c '' "$W/models.txt") compared"
[ "$n" -gt 0 ] || { echo "FAIL no seanet models ran"; fail=1; }
exit $fail
