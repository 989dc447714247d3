#!/bin/sh
# run_semantic.sh SECONDS - build the semantic libFuzzer target
# (tests/fuzz/fuzz_semantic.c: a custom mutator that rewires subgraph indices,
# tensor indices, quantization parameters, dtypes, shapes, buffers and op
# options of valid models, then the whole conversion; clang, ASan + UBSan) and
# fuzz it for SECONDS (default 60). Seeds: the $AOTC_SHARED models that fit
# and the hostile models of tests/tools/make_hostile_models.c (taken from
# $SAN_BUILD, default build-san, or built here). Exits non-zero if the
# fuzzer found a crash (reproducer in $FUZZ_OUT/artifacts).
set -eu
secs=${1:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${AOTC_SHARED:-$root/../shared}
out=${FUZZ_OUT:-/tmp/aotc-fuzz-semantic}
max_len=${FUZZ_MAX_LEN:-65536}
san=${SAN_BUILD:-$root/build-san}
CC=${CC_FUZZ:-clang}
if ! command -v "$CC" >/dev/null 2>&1; then
  echo "fuzz: $CC not found; skipping"
  exit 0
fi
mkdir -p "$out/corpus" "$out/artifacts" "$out/seeds"
srcs=$(find "$root/src" "$root/runtime" -name '*.c' | sort)
"$CC" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -DAOTC_RUNTIME_DIR="\"$root/runtime\"" -DAOTC_SOURCE_DIR="\"$root\"" \
  -I"$root/src" -I"$root/runtime" $(pkg-config --cflags yaml-0.1 libzip) \
  "$root/tests/fuzz/fuzz_semantic.c" $srcs $(pkg-config --libs yaml-0.1 libzip) -lm \
  -o "$out/fuzz_semantic"
gen=$san/aotc_make_hostile_models
if [ ! -x "$gen" ]; then
  gen=$out/make_hostile_models
  cc -O1 -DAOTC_RUNTIME_DIR="\"$root/runtime\"" -DAOTC_SOURCE_DIR="\"$root\"" \
    -I"$root/src" -I"$root/runtime" $(pkg-config --cflags yaml-0.1 libzip) \
    "$root/tests/tools/make_hostile_models.c" $srcs $(pkg-config --libs yaml-0.1 libzip) -lm -o "$gen"
fi
"$gen" "$out/seeds" > /dev/null
n=0
for f in "$out/seeds"/*.tflite; do
  [ "$(wc -c <"$f")" -le "$max_len" ] || continue
  cp "$f" "$out/corpus/hostile_$(basename "$f")"
  n=$((n + 1))
done
if [ -d "$shared/models" ]; then
  for f in $(find "$shared/models" -type f \( -name '*.tflite' -o -name '*.bin' \) | sort); do
    [ "$(wc -c <"$f")" -le "$max_len" ] || continue
    cp "$f" "$out/corpus/seed_$(echo "$f" | sed 's|.*/models/||; s|/|_|g')"
    n=$((n + 1))
  done
fi
echo "fuzz (semantic): seeded $n models"
# inputs that once crashed (tests/fuzz/regressions/semantic/) must run clean first
reg=$(find "$root/tests/fuzz/regressions/semantic" -type f 2>/dev/null | sort)
if [ -n "$reg" ]; then
  "$out/fuzz_semantic" -runs=1 $reg || { echo "fuzz (semantic): a regression input fails"; exit 1; }
fi
"$out/fuzz_semantic" -max_total_time="$secs" -max_len="$max_len" -timeout=20 \
  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$out/artifacts/" "$out/corpus"
