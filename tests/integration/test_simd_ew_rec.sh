#!/usr/bin/env bash
# test_simd_ew_rec.sh AOTC - the fast quantized ADD / SUB / MUL (int8, int16),
# SVDF and integer LSTM paths (runtime/aot_ew_simd.h, runtime/aot_rec_simd.h)
# against the portable kernels: tests/target/ew_rec_kernels.c, with the same
# files built with AOT_NO_SIMD as reference (tests/target/ew_rec_ref_kernels.c),
# on the host (fast scalar paths, ASan/UBSan when available), Cortex-M4 (Arm
# DSP) and Cortex-M55 (Helium) under QEMU; long flat int8 / int16 ADD / SUB
# rows (the rescale table, aot_ews_s16_flat) and long int8 MUL rows too. Then the ResNet-8 (three int8 ADDs)
# and SVDF/LSTM models must give on cortex-m55 and cortex-m4 exactly the
# outputs of the host build (same output hash). The targets are skipped when
# arm-none-eabi-gcc or qemu-system-arm is missing.
set -u
AOTC=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
S=${AOTC_SHARED:-$ROOT/../shared}
W=$(mktemp -d /tmp/aotc-ewrec-XXXXXX)
trap 'rm -rf "$W"' EXIT
fail=0
SRCS="tests/target/ew_rec_ref_kernels.c runtime/RecurrentFunctions/aot_svdf_s8.c runtime/RecurrentFunctions/aot_lstm_q.c runtime/RecurrentFunctions/aot_lstm_s8p.c runtime/RecurrentFunctions/aot_svdf_s8p.c"
for f in add sub mul; do for t in s8 s16; do SRCS="$SRCS runtime/BasicMathFunctions/aot_${f}_$t.c"; done; done
cd "$ROOT" || exit 1
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
echo 'int main(void){return 0;}' > "$W/t.c"
cc $san "$W/t.c" -o "$W/t" 2>/dev/null || san=""
if cc -std=c99 -pedantic -Wall -Wextra -Werror -O1 -g $san -Iruntime tests/target/ew_rec_kernels.c $SRCS -lm \
     -o "$W/host" && "$W/host" > "$W/host.txt"; then
  tail -1 "$W/host.txt"
else
  cat "$W/host.txt" 2>/dev/null | tail -20; echo "FAIL ew_rec_kernels host"; fail=1
fi
if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
  echo "SKIP test_simd_ew_rec targets: arm-none-eabi-gcc or qemu-system-arm missing (make deps)"
  exit $fail
fi
for t in cortex-m4 cortex-m55; do
  want="Arm DSP"; [ $t = cortex-m55 ] && want="Helium"
  args=""; for f in $SRCS; do args="$args --src $f"; done
  bash targets/build-run.sh --target $t -q -I runtime --main tests/target/ew_rec_kernels.c $args \
    --timeout 600 > "$W/$t.txt" 2> "$W/$t.err"
  rc=$?
  echo "$t: $(tail -1 "$W/$t.txt")"
  if [ $rc != 0 ]; then echo "FAIL ew_rec_kernels $t: exit status $rc"; tail -20 "$W/$t.txt" "$W/$t.err"; fail=1; fi
  grep -q "EW kernels ($want)" "$W/$t.txt" || { echo "FAIL ew_rec_kernels $t: the $want path was not built"; fail=1; }
done

if [ ! -d "$S/models" ]; then
  echo "SKIP test_simd_ew_rec models: $S/models not found"
  exit $fail
fi
for m in ${EWREC_MODELS:-mlperf-tiny/pretrainedResnet_quant tflm/keyword_scrambled_8bit tflm/trained_lstm_int8}; do
  f="$S/models/$m.tflite"; g="$S/goldens-tflm/$m.npz"
  [ -f "$f" ] && [ -f "$g" ] || { echo "SKIP $m: model or golden missing"; continue; }
  h=$("$AOTC" verify --model.path "$f" --test.golden-data "$g" --target host 2>&1 | grep '^PASS' | grep -o 'hash=[0-9a-f]*')
  for t in cortex-m4 cortex-m55; do
    line=$("$AOTC" verify --model.path "$f" --test.golden-data "$g" --target $t 2>&1 | grep -E '^(PASS|FAIL)')
    c=$(echo "$line" | grep '^PASS' | grep -o 'hash=[0-9a-f]*')
    echo "$m: host ${h:-none}, $t ${c:-none}"
    if [ -z "$h" ] || [ "$h" != "$c" ]; then echo "FAIL $m $t: $line"; fail=1; fi
  done
done
exit $fail
