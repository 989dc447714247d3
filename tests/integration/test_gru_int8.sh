#!/usr/bin/env bash
# test_gru_int8.sh AOTC - rolled GRUs with int8 weights (dynamic-range
# quantization), made from the shared float32 GRUs by aotc_make_gru_int8
# (every FULLY_CONNECTED weight of the loop bodies int8 symmetric, per row
# or per tensor, asymmetric_quantize_inputs set, as TF's converter writes
# them). No LiteRT runtime is installed here: the reference is aotc's host
# reference interpreter over the ORIGINAL unfused graph (`aotc verify`
# without a golden), whose hybrid FULLY_CONNECTED quantizes each input row
# at run time as the LiteRT runtime does.
#   - the hook must fuse every loop (module uses aot_gru_f32_s8w, keeps the
#     weights int8: the module's constants shrink);
#   - the fused module must match the reference within 1e-5 abs + 1e-4 rel;
#   - the WHILE-lowering build (--litert-hooks.fuse_rolled_gru false) must
#     match the same reference exactly (100 % equal outputs), so the fused
#     error against the reference is also its error against the lowering;
#   - a mutated cell (its last MUL an ADD: the proof fails) still compiles
#     and verifies through the WHILE lowering;
#   - a proven cell with int8 x and float h projections (no kernel runs
#     that mix) falls back to the WHILE lowering with a one-line note;
#   - a model that already declares CUSTOM("GRU") is refused in one line;
#   - bigru64 int8 also runs on Cortex-M4 / Cortex-M55 under QEMU when the
#     Arm tools are installed (DSP / Helium row products).
set -eu -o pipefail
AOTC=$(realpath "$1")
GEN=$(dirname "$AOTC")/aotc_make_gru_int8
S=${AOTC_SHARED:-../shared}
if [ ! -d "$S/models/gru" ]; then echo "SKIP int8 GRU: $S/models/gru not found"; exit 0; fi
if [ ! -x "$GEN" ]; then echo "SKIP int8 GRU: $GEN not built"; exit 0; fi
W=$(mktemp -d /tmp/aotc-gruint8-XXXXXX); trap 'rm -rf "$W"' EXIT
NOFUSE=(--litert-hooks.fuse_rolled_gru false)
fails=0

# PASS line -> "max_abs_err exact%"
verify() { "$AOTC" verify "$@" 2>&1 | tee "$W/last.log" | grep '^PASS' || { cat "$W/last.log"; return 1; }; }

for name in bigru64_fp32 precise_hey_mycroft; do
  m=$S/models/gru/$name.tflite
  [ -f "$m" ] || { echo "SKIP $name: not found"; continue; }
  for mode in per-channel per-tensor; do
    q=$W/${name}_$mode.tflite
    if [ $mode = per-tensor ]; then "$GEN" "$m" "$q" per-tensor; else "$GEN" "$m" "$q"; fi
    # the fused module: every loop fused, int8 weights in flash
    if ! "$AOTC" convert --model.path "$q" --module.path "$W" --module.name f --force > "$W/conv.log" 2>&1; then
      cat "$W/conv.log"; fails=1; continue
    fi
    grep -q "fused" "$W/conv.log" || { echo "$name $mode: no loop fused"; cat "$W/conv.log"; fails=1; }
    grep -q "not fused" "$W/conv.log" && { echo "$name $mode: a loop was not fused"; fails=1; }
    [ -f "$W/f/src/aot_gru_s8w.c" ] || { echo "$name $mode: module lacks the hybrid GRU kernel"; fails=1; }
    grep -q "static const int8_t .*w_packed" "$W/f/src/aot_constants.c" "$W/f/src/aot_model.c" 2>/dev/null ||
      { echo "$name $mode: GRU weights are not int8 in the module"; fails=1; }
    # (a) against the reference interpreter on the original graph
    line=$(verify --model.path "$q") || { echo "$name $mode: fused module does not match"; fails=1; continue; }
    echo "$name $mode fused vs reference: $line"
    # (b) the WHILE lowering is the reference's arithmetic op for op
    line=$(verify --model.path "$q" "${NOFUSE[@]}") || { echo "$name $mode: WHILE build fails"; fails=1; continue; }
    echo "$name $mode WHILE vs reference: $line"
    case "$line" in *"exact=100.00%"*) ;; *) echo "$name $mode: WHILE build not exact"; fails=1 ;; esac
  done
  # a cell the hook cannot prove: compiles and verifies through WHILE
  "$GEN" "$m" "$W/mut.tflite" mutate > /dev/null
  "$AOTC" convert --model.path "$W/mut.tflite" --module.path "$W" --module.name mu --force > "$W/mu.log" 2>&1 ||
    { cat "$W/mu.log"; fails=1; }
  [ -f "$W/mu/src/aot_gru_s8w.c" ] && { echo "$name mutated: fused although the proof must fail"; fails=1; }
  verify --model.path "$W/mut.tflite" > /dev/null || { echo "$name mutated: WHILE build fails"; fails=1; }
  # a proven cell no kernel runs (int8 x projection, float h projection):
  # a one-line note per loop, the WHILE lowering compiles and verifies it
  "$GEN" "$m" "$W/fo.tflite" first-only > /dev/null
  "$AOTC" convert --model.path "$W/fo.tflite" --module.path "$W" --module.name fo --force > "$W/fo.log" 2>&1 ||
    { cat "$W/fo.log"; fails=1; }
  grep -q "(WHILE, GRU loop '.*') not fused, kept as a loop: the cell mixes int8 and float" "$W/fo.log" ||
    { echo "$name first-only: no fallback note"; cat "$W/fo.log"; fails=1; }
  [ -f "$W/fo/src/aot_gru_s8w.c" ] && { echo "$name first-only: fused"; fails=1; }
  verify --model.path "$W/fo.tflite" > /dev/null || { echo "$name first-only: WHILE build fails"; fails=1; }
done

# a colliding CUSTOM("GRU") opcode stays refused, in one line
m=$S/models/gru/bigru64_fp32.tflite
if [ -f "$m" ]; then
  "$GEN" "$m" "$W/b8.tflite" > /dev/null
  if "$GEN" "$W/b8.tflite" "$W/coll.tflite" collide > /dev/null 2>&1; then
    if "$AOTC" convert --model.path "$W/coll.tflite" --module.path "$W" --module.name c --force > "$W/c.log" 2>&1; then
      echo "collision: converted"; fails=1
    else
      rc=$?
      [ $rc -eq 2 ] || { echo "collision: exit $rc, expected 2"; fails=1; }
      grep -q 'already declares a custom operator code "GRU"' "$W/c.log" || { cat "$W/c.log"; fails=1; }
      [ "$(grep -c 'error' "$W/c.log")" -eq 1 ] || { echo "collision: not one line"; cat "$W/c.log"; fails=1; }
      [ -e "$W/c" ] && { echo "collision: half-written module"; fails=1; }
    fi
  else
    echo "collision: generator failed"; fails=1
  fi
  if command -v qemu-system-arm > /dev/null && command -v arm-none-eabi-gcc > /dev/null; then
    for t in cortex-m4 cortex-m55; do
      line=$(verify --model.path "$W/b8.tflite" --target $t) || { echo "int8 bigru64 on $t fails"; fails=1; continue; }
      echo "bigru64 int8 fused on $t vs reference: $line"
    done
  else
    echo "SKIP cortex-m: arm-none-eabi-gcc or qemu-system-arm missing"
  fi
fi
exit $fails
