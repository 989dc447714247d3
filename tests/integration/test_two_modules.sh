#!/usr/bin/env bash
# test_two_modules.sh AOTC - KWS (prefix kws) and ResNet-8 (prefix rn) modules,
# each with its test case, link into one host program and both pass.
set -eu
AOTC=$(realpath "$1")
S=${AOTC_SHARED:-../shared}
[ -d "$S/models" ] || { echo "SKIP two modules: $S/models not found"; exit 0; }
W=$(mktemp -d /tmp/aotc-two-XXXXXX); trap 'rm -rf "$W"' EXIT
"$AOTC" convert --model.path "$S/models/mlperf-tiny/kws_ref_model.tflite" --module.path "$W" --module.name "kws" \
  --module.prefix kws --module.type cmake --test.enabled --test.golden-data "$S/goldens-tflm/mlperf-tiny/kws_ref_model.npz" >/dev/null
"$AOTC" convert --model.path "$S/models/mlperf-tiny/pretrainedResnet_quant.tflite" --module.path "$W" --module.name "rn" \
  --module.prefix rn --module.type cmake --test.enabled --test.golden-data "$S/goldens-tflm/mlperf-tiny/pretrainedResnet_quant.npz" >/dev/null
cat > "$W/main.c" <<'C'
#include <stdio.h>
#include "kws_test_case.h"
#include "rn_test_case.h"
int main(void) {
  int a = (int)kws_test_case_run(), b = (int)rn_test_case_run();
  printf("kws=%d rn=%d\n", a, b);
  return a || b;
}
C
# build each module as its own static library with its CMakeLists, then link both
for m in kws rn; do
  cmake -S "$W/$m" -B "$W/$m/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$W/$m/build" -j2 >/dev/null
done
cc -std=c99 -Wall -Wextra -Werror -pedantic -I"$W/kws/includes-api" -I"$W/rn/includes-api" \
  "$W/main.c" \
  "$W/kws/build/libkws.a" "$W/rn/build/librn.a" -lm -o "$W/both"
# every exported symbol carries its module's prefix
bad=$(nm -g --defined-only "$W/kws/build/libkws.a" "$W/rn/build/librn.a" | awk 'NF==3 {print $3}' | grep -v -E '^(kws|rn)_' || true)
if [ -n "$bad" ]; then echo "unprefixed exported symbols: $bad"; exit 1; fi
"$W/both"
