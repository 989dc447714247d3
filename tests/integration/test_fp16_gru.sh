#!/usr/bin/env bash
# test_fp16_gru.sh AOTC - acceptance test of fully float16 GRU models:
# `aotc fp16` rewrites the float32 bigru64 model into a float16 one, the GRU
# loops fuse into float16 GRU ops, every other op runs in float32 between
# float16 <-> float32 CASTs (transform lower_fp16), and the module matches the
# LiteRT float32 golden within an FP16 tolerance on the host, Cortex-M55 (FP16
# arithmetic in the GRU) and Cortex-M4 (QEMU, when the Arm tools exist).
#
# Tolerance T = 1e-3 (absolute, on softmax probabilities in [0, 1]):
# binary16 keeps 11 significant bits, unit roundoff u = 2^-11 = 4.9e-4, so
# storing a value in [0.5, 1) in float16 alone moves it by up to 2^-12 =
# 2.4e-4 (half an ulp). The model's output tensor is float16 before its final
# CAST to float32, so that rounding is unavoidable: on this input the largest
# probability 0.829816 is stored as 0.829590, error 2.26e-4 - the whole
# measured error (host, M4 and M55 alike). The float16 rounding of weights and
# activations upstream adds relative errors of a few u (measured: rms 2-5e-4
# relative on every intermediate tensor, logits within 3.8e-4 absolute), which
# softmax passes on damped by p(1-p) <= 1/4. T = 1e-3 = 2 ulp of float16 in
# [0.5, 1) covers both with a margin of ~4x over the measurement; float32
# models stay at ~1e-7 and the float16-weight model at ~1e-5 for comparison.
set -eu -o pipefail
AOTC=$(realpath "$1")
S=${AOTC_SHARED:-../shared}
M=$S/models/gru/bigru64_fp32.tflite
G=$S/goldens/gru/bigru64_fp32.npz
if [ ! -f "$M" ] || [ ! -f "$G" ]; then echo "SKIP fp16 GRU: $M or $G not found"; exit 0; fi
T=1e-3
W=$(mktemp -d /tmp/aotc-fp16gru-XXXXXX); trap 'rm -rf "$W"' EXIT
fails=0

"$AOTC" fp16 "$M" "$W/b16.tflite"
# every operator of the float16 model is supported
"$AOTC" inspect "$W/b16.tflite" > "$W/inspect.txt" 2>&1
if grep -q '^unsupported' "$W/inspect.txt"; then cat "$W/inspect.txt"; exit 1; fi
grep -q 'fused GRU loops: *2' "$W/inspect.txt" || { cat "$W/inspect.txt"; echo "GRU loops not fused"; exit 1; }
# the GRUs run the float16 kernel, the other ops the float32 ones behind casts
"$AOTC" convert --model.path "$W/b16.tflite" --module.path "$W" --module.name "mod" > /dev/null
for k in aot_gru_f16.c aot_cast.c aot_conv2d_f32.c aot_fc_f32.c; do
  [ -f "$W/mod/src/$k" ] || { echo "module lacks $k"; fails=1; }
done
[ -f "$W/mod/src/aot_gru_f32.c" ] && { echo "module uses the float32 GRU kernel"; fails=1; }

targets=host
if command -v qemu-system-arm > /dev/null && command -v arm-none-eabi-gcc > /dev/null; then
  targets="host cortex-m55 cortex-m4"
else
  echo "SKIP cortex-m: arm-none-eabi-gcc or qemu-system-arm missing"
fi
for t in $targets; do
  if ! "$AOTC" verify --model.path "$W/b16.tflite" --test.golden-data "$G" --test.tolerance $T \
      --target "$t" | tee "$W/verify-$t.txt"; then
    fails=1
  fi
done
# Cortex-M4 computes in float32 like the host (FP16 only as storage): same bits
if [ -f "$W/verify-cortex-m4.txt" ]; then
  h=$(grep -o 'hash=[0-9a-f]*' "$W/verify-host.txt" || true)
  c=$(grep -o 'hash=[0-9a-f]*' "$W/verify-cortex-m4.txt" || true)
  echo "outputs: host $h, cortex-m4 $c"
  [ -n "$h" ] && [ "$h" = "$c" ] || { echo "cortex-m4 outputs differ from the host's"; fails=1; }
fi

# the same tolerance holds for the other float16 GRU models (host)
for name in bigru64_fp16w precise_hey_mycroft; do
  m=$S/models/gru/$name.tflite g=$S/goldens/gru/$name.npz
  [ -f "$m" ] && [ -f "$g" ] || { echo "SKIP $name: not found"; continue; }
  "$AOTC" fp16 "$m" "$W/$name.fp16.tflite"
  "$AOTC" verify --model.path "$W/$name.fp16.tflite" --test.golden-data "$g" --test.tolerance $T || fails=1
done
exit $fails
