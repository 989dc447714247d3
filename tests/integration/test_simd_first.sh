#!/usr/bin/env bash
# test_simd_first.sh AOTC - the int8 CONV_2D kernel on first-layer shapes
# (1-4 input channels: the Cortex-M4 DSP build's few-channel path,
# runtime/aot_conv_first.h) against its portable loop:
# tests/target/first_kernels.c, with the same file built with AOT_NO_SIMD as
# reference (tests/target/first_ref_kernels.c), on the host (ASan/UBSan
# when available), Cortex-M4 (Arm DSP) and Cortex-M55 (Helium) under QEMU.
# Then the models whose first layer it is (VWW, person_detect, ResNet-8,
# KWS, micro_speech, str_ww) must pass their TFLM goldens
# ($AOTC_SHARED/goldens-tflm) on the host, cortex-m4 and cortex-m55 with
# the output hash of the host build. FIRST_MODELS="vww_96_int8" limits the
# models. The targets are skipped when arm-none-eabi-gcc or qemu-system-arm
# is missing.
set -u
AOTC=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
S=${AOTC_SHARED:-$ROOT/../shared}
W=$(mktemp -d /tmp/aotc-first-XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
SRCS="tests/target/first_ref_kernels.c runtime/ConvolutionFunctions/aot_conv2d_s8.c"
cd "$ROOT" || exit 1
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
echo 'int main(void){return 0;}' > "$W/t.c"
cc $san "$W/t.c" -o "$W/t" 2>/dev/null || san=""
if cc -std=c99 -pedantic -Wall -Wextra -Werror -O1 -g $san -Iruntime tests/target/first_kernels.c $SRCS -lm \
     -o "$W/host" && "$W/host" > "$W/host.txt"; then
  echo "host: $(sed -n 2p "$W/host.txt"); $(tail -1 "$W/host.txt")"
else
  tail -20 "$W/host.txt" 2>/dev/null; echo "FAIL first_kernels host"; fail=1
fi
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "SKIP test_simd_first targets: arm-none-eabi-gcc or qemu-system-arm missing (make deps)"
  exit $fail
fi
for t in cortex-m4 cortex-m55; do
  want="Arm DSP"; [ $t = cortex-m55 ] && want="Helium"
  args=""; for f in $SRCS; do args="$args --src $f"; done
  bash targets/build-run.sh --target $t -q -I runtime --main tests/target/first_kernels.c $args \
    --timeout 600 > "$W/$t.txt" 2> "$W/$t.err"
  rc=$?
  echo "$t: $(grep '^cases' "$W/$t.txt"); $(tail -1 "$W/$t.txt")"
  if [ $rc != 0 ]; then echo "FAIL first_kernels $t: exit status $rc"; tail -20 "$W/$t.txt" "$W/$t.err"; fail=1; fi
  grep -q "first kernels ($want)" "$W/$t.txt" || { echo "FAIL first_kernels $t: the $want path was not built"; fail=1; }
done

G="$S/goldens-tflm"
if [ ! -d "$G" ]; then
  echo "SKIP test_simd_first models: $G not found (set AOTC_SHARED)"
  exit $fail
fi
one() {
  m=$1; d=${m%/*}; name=${m#*/}
  r="$name"
  for t in host cortex-m4 cortex-m55; do
    line=$("$AOTC" verify --model.path "$S/models/$m.tflite" --test.golden-data "$G/$d/$name.npz" \
           --target $t 2>&1 | grep -E '^(PASS|FAIL)' | head -1)
    st=${line%% *}; h=$(echo "$line" | grep -o 'hash=[0-9a-f]*')
    r="$r $t:${st:-none}:${h:-none}"
  done
  echo "$r"
}
export -f one
export AOTC S G
all="mlperf-tiny/vww_96_int8 tflm/person_detect mlperf-tiny/pretrainedResnet_quant mlperf-tiny/kws_ref_model tflm/micro_speech_quantized mlperf-tiny/str_ww_ref_model"
models=""
for m in $all; do
  if [ -z "${FIRST_MODELS:-}" ] || [[ " $FIRST_MODELS " == *" ${m#*/} "* ]]; then models="$models $m"; fi
done
printf '%s\n' $models | xargs -P "${JOBS:-2}" -I{} bash -c 'one {}' > "$W/models.txt"
n=0
while read -r name h m4 m55; do
  n=$((n + 1))
  hh=${h##*:}
  if [ "$h" != "host:PASS:$hh" ] || [ "$hh" = none ] || [ "$m4" != "cortex-m4:PASS:$hh" ] || [ "$m55" != "cortex-m55:PASS:$hh" ]; then
    echo "FAIL $name: $h $m4 $m55"; fail=1
  fi
done < "$W/models.txt"
echo "first-layer models: $n, host / cortex-m4 / cortex-m55 against the TFLM goldens"
[ "$n" -gt 0 ] || { echo "FAIL no models ran"; fail=1; }
exit $fail
