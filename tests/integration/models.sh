#!/usr/bin/env bash
# models.sh AOTC [TARGET] - `aotc verify` for every non-recurrent shared model
# with a golden: integer outputs against the TFLM golden (reference kernels,
# within 1 LSB), float outputs against the LiteRT golden (1e-4). Prints one
# line per model with its exact-match percentage; fails if any model fails.
set -u
AOTC=$(realpath "$1")
TARGET=${2:-host}
SHARED=${AOTC_SHARED:-../shared}
if [ ! -d "$SHARED/models" ]; then echo "SKIP models: $SHARED/models not found (set AOTC_SHARED)"; exit 0; fi
MODELS=${MODELS:-"mlperf-tiny/ad01_int8 mlperf-tiny/kws_ref_model mlperf-tiny/kws_ref_model_float32
mlperf-tiny/pretrainedResnet_quant mlperf-tiny/vww_96_int8 mlperf-tiny/str_ww_ref_model
tflm/hello_world_int8 tflm/hello_world_float tflm/micro_speech_quantized"}
fails=0
for m in $MODELS; do
  model="$SHARED/models/$m.tflite"
  if [ -f "$SHARED/goldens-tflm/$m.npz" ]; then golden="$SHARED/goldens-tflm/$m.npz"; src=tflm
  else golden="$SHARED/goldens/$m.npz"; src=litert; fi
  case "$m" in
    # hybrid model: its int8-weight CONV_2Ds quantize their float inputs at
    # run time exactly as the LiteRT runtime (XNNPACK qd8) does.
    *kws_ref_model_float32) tol=1e-4 ;;
    *float*) tol=1e-4 ;;
    *) tol=1 ;;
  esac
  line=$("$AOTC" verify --model.path "$model" --test.golden-data "$golden" --test.tolerance "$tol" \
         --target "$TARGET" 2>&1 | grep -E '^(PASS|FAIL)' | head -1)
  echo "$line golden=$src"
  case "$line" in PASS*) ;; *) fails=$((fails + 1)) ;; esac
done
# person_detect has no golden: it must still compile and build.
if [ "$TARGET" = host ] && [ -z "${MODELS_ONLY:-}" ]; then
  tmp=$(mktemp -d /tmp/aotc-pd-XXXXXX)
  if "$AOTC" convert --model.path "$SHARED/models/tflm/person_detect.tflite" --module.path "$tmp" --module.name m >/dev/null &&
     (cd "$tmp/m" && ${CC:-cc} -std=c99 -Wall -Wextra -Werror -pedantic -Iincludes-api -Isrc -c src/*.c); then
    echo "BUILT model=tflm/person_detect (no golden: compiles warning-free)"
  else
    echo "FAIL model=tflm/person_detect (convert or build failed)"; fails=$((fails + 1))
  fi
  rm -rf "$tmp"
fi
echo "models ($TARGET): $fails failure(s)"
[ "$fails" = 0 ]
