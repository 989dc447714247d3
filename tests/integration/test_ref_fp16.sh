#!/usr/bin/env bash
# test_ref_fp16.sh AOTC - the host reference interpreter runs fully float16
# models (src/ref/ref_f16.c): `aotc fp16` of the shared float32 GRU (float32
# I/O, CASTs to float16, every op float16), then `aotc verify` WITHOUT a
# golden, so the expected outputs come from the reference interpreter over
# the original float16 graph:
#   - the WHILE-lowering build (each float16 op run as the float32 op and
#     rounded to binary16, as lower_fp16 compiles it) must equal the
#     reference exactly (100 % equal outputs);
#   - the fused float16 GRU kernel (its own operation order inside the cell,
#     the state rounded to binary16 per step) within 1e-3.
set -eu -o pipefail
AOTC=$(realpath "$1")
S=${AOTC_SHARED:-../shared}
m=$S/models/gru/bigru64_fp32.tflite
[ -f "$m" ] || { echo "SKIP ref fp16: $m not found"; exit 0; }
W=$(mktemp -d /tmp/aotc-reffp16-XXXXXX); trap 'rm -rf "$W"' EXIT
fails=0
"$AOTC" fp16 "$m" "$W/b16.tflite" > /dev/null 2>&1
out=$("$AOTC" verify --model.path "$W/b16.tflite" --litert-hooks.fuse_rolled_gru false 2>&1) || { echo "$out"; fails=1; }
echo "$out" | grep '^PASS' || true
case "$out" in *"exact=100.00%"*) ;; *) echo "WHILE build of the float16 model differs from the reference"; fails=1 ;; esac
out=$("$AOTC" verify --model.path "$W/b16.tflite" --test.tolerance 1e-3 2>&1) || { echo "$out"; fails=1; }
echo "$out" | grep '^PASS' || true
exit $fails
