#!/bin/sh
# run.sh SECONDS - build the libFuzzer target for the .tflite reader/writer
# (clang, ASan + UBSan) and fuzz it for SECONDS (default 60) on a corpus seeded
# from $AOTC_SHARED/models/fuzz-seeds and the shared models.
#   FUZZ_OUT  work directory (default /tmp/aotc-fuzz): binary, corpus, crashes
#   FUZZ_MAX_LEN  largest input (default 65536); larger seed models are skipped
# Exits non-zero if the fuzzer found a crash (the reproducer is in $FUZZ_OUT).
set -eu
secs=${1:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${AOTC_SHARED:-$root/../shared}
out=${FUZZ_OUT:-/tmp/aotc-fuzz}
max_len=${FUZZ_MAX_LEN:-65536}
CC=${CC_FUZZ:-clang}

if ! command -v "$CC" >/dev/null 2>&1; then
  echo "fuzz: $CC not found; skipping"
  exit 0
fi
mkdir -p "$out/corpus" "$out/artifacts"
"$CC" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$root/src" "$root/tests/fuzz/fuzz_reader.c" \
  "$root/src/litert/reader"*.c "$root/src/litert/writer.c" "$root/src/litert/model.c" \
  "$root/src/util.c" -lm -o "$out/fuzz_reader"

if [ -d "$shared/models" ]; then
  n=0
  for f in $(find "$shared/models" -type f \( -name '*.tflite' -o -name '*.bin' \) | sort); do
    sz=$(wc -c <"$f")
    [ "$sz" -le "$max_len" ] || continue
    cp "$f" "$out/corpus/seed_$(echo "$f" | sed 's|.*/models/||; s|/|_|g')"
    n=$((n + 1))
  done
  echo "fuzz: seeded $n files from $shared/models"
else
  echo "fuzz: $shared/models not found (set AOTC_SHARED); fuzzing from an empty corpus"
fi

"$out/fuzz_reader" -max_total_time="$secs" -max_len="$max_len" -timeout=20 \
  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$out/artifacts/" "$out/corpus"
