#!/bin/sh
# run_convert.sh SECONDS - build the libFuzzer target for the whole conversion
# (reader + hooks + IR + transforms + plan + codegen; clang, ASan + UBSan) and
# fuzz it for SECONDS (default 60) on a corpus seeded from $AOTC_SHARED models
# and fuzz seeds. Exits non-zero if the fuzzer found a crash (reproducer in
# $FUZZ_OUT/artifacts).
set -eu
secs=${1:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${AOTC_SHARED:-$root/../shared}
out=${FUZZ_OUT:-/tmp/aotc-fuzz-convert}
max_len=${FUZZ_MAX_LEN:-65536}
CC=${CC_FUZZ:-clang}
if ! command -v "$CC" >/dev/null 2>&1; then
  echo "fuzz: $CC not found; skipping"
  exit 0
fi
mkdir -p "$out/corpus" "$out/artifacts" "$out/obj"
srcs=$(find "$root/src" "$root/runtime" -name '*.c' | sort)
# the compiler's sources need the same definitions as the CMake build
"$CC" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -DAOTC_RUNTIME_DIR="\"$root/runtime\"" -DAOTC_SOURCE_DIR="\"$root\"" \
  -I"$root/src" -I"$root/runtime" $(pkg-config --cflags yaml-0.1 libzip) \
  "$root/tests/fuzz/fuzz_convert.c" $srcs $(pkg-config --libs yaml-0.1 libzip) -lm \
  -o "$out/fuzz_convert"
if [ -d "$shared/models" ]; then
  n=0
  for f in $(find "$shared/models" -type f \( -name '*.tflite' -o -name '*.bin' \) | sort); do
    sz=$(wc -c <"$f")
    [ "$sz" -le "$max_len" ] || continue
    cp "$f" "$out/corpus/seed_$(echo "$f" | sed 's|.*/models/||; s|/|_|g')"
    n=$((n + 1))
  done
  echo "fuzz: seeded $n files from $shared/models"
fi
"$out/fuzz_convert" -max_total_time="$secs" -max_len="$max_len" -timeout=20 \
  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$out/artifacts/" "$out/corpus"
