#!/usr/bin/env bash
# test_while_gru.sh AOTC - the Keras rolled-GRU models compiled WITHOUT the
# GRU fusion hook (--litert-hooks.fuse_rolled_gru false): their WHILE loops
# are lowered as C loops over the cond/body subgraphs. This needs the static
# shape pass (placeholder shapes, shape arithmetic folded, the TensorList
# set-item rewritten to DYNAMIC_UPDATE_SLICE with a run-time start) and
# GATHER at the loop counter. Each model must match its LiteRT golden within
# 1e-4 (float32 arithmetic, same op order as LiteRT up to summation order),
# the module must not use the fused GRU kernel, and must use the run-time
# offset copy. Also: the LSTM test model whose output tensor has no shape,
# and the float16 rewrite of bigru64 (aotc fp16) with its loops unfused
# (tolerance 1e-3, see test_fp16_gru.sh). bigru64_fp32 also runs on
# Cortex-M55 / Cortex-M4 under QEMU when the Arm tools are installed.
set -eu -o pipefail
AOTC=$(realpath "$1")
S=${AOTC_SHARED:-../shared}
if [ ! -d "$S/models/gru" ] || [ ! -d "$S/goldens/gru" ]; then
  echo "SKIP WHILE-lowered GRU: $S/models/gru or $S/goldens/gru not found"; exit 0
fi
W=$(mktemp -d /tmp/aotc-whilegru-XXXXXX); trap 'rm -rf "$W"' EXIT
NOFUSE=(--litert-hooks.fuse_rolled_gru false)
fails=0

for name in bigru64_fp32 bigru64_fp16w precise_hey_mycroft; do
  m=$S/models/gru/$name.tflite g=$S/goldens/gru/$name.npz
  if [ ! -f "$m" ] || [ ! -f "$g" ]; then echo "SKIP $name: not found"; continue; fi
  "$AOTC" verify --model.path "$m" --test.golden-data "$g" --test.tolerance 1e-4 "${NOFUSE[@]}" || fails=1
  if "$AOTC" convert --model.path "$m" --module.path "$W" --module.name "$name" "${NOFUSE[@]}" > "$W/$name.log" 2>&1; then
    if grep -q "fused" "$W/$name.log"; then echo "$name: GRU loop fused despite the switch"; fails=1; fi
    [ -f "$W/$name/src/aot_gru_f32.c" ] && { echo "$name: module uses the fused GRU kernel"; fails=1; }
    [ -f "$W/$name/src/aot_copy_nd_dyn.c" ] || { echo "$name: no run-time-offset copy (set-item)"; fails=1; }
    grep -q "aot_subgraph_" "$W/$name/src/aot_model.c" || { echo "$name: no WHILE subgraph functions"; fails=1; }
  else
    cat "$W/$name.log"; fails=1
  fi
done

m=$S/models/litert-testdata/unidirectional_sequence_lstm.bin
g=$S/goldens/litert-testdata/unidirectional_sequence_lstm.npz
if [ -f "$m" ] && [ -f "$g" ]; then
  "$AOTC" verify --model.path "$m" --test.golden-data "$g" --test.tolerance 1e-4 || fails=1
else
  echo "SKIP unidirectional_sequence_lstm: not found"
fi

m=$S/models/gru/bigru64_fp32.tflite g=$S/goldens/gru/bigru64_fp32.npz
if [ -f "$m" ] && [ -f "$g" ]; then
  "$AOTC" fp16 "$m" "$W/b16.tflite" > /dev/null
  "$AOTC" verify --model.path "$W/b16.tflite" --test.golden-data "$g" --test.tolerance 1e-3 "${NOFUSE[@]}" || fails=1
  if command -v qemu-system-arm > /dev/null && command -v arm-none-eabi-gcc > /dev/null; then
    for t in cortex-m55 cortex-m4; do
      "$AOTC" verify --model.path "$m" --test.golden-data "$g" --test.tolerance 1e-4 --target $t "${NOFUSE[@]}" || fails=1
    done
  else
    echo "SKIP cortex-m: arm-none-eabi-gcc or qemu-system-arm missing"
  fi
fi
exit $fails
