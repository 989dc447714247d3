#!/usr/bin/env bash
# test_shared_runtime.sh AOTC - two modules of one firmware share one copy of
# the kernels: `aotc runtime` writes a kernel library (prefix rt) for KWS and
# ResNet-8, both are converted with --module.runtime, linked into one host
# program (cmake, -Werror) and pass their TFLM goldens; every kernel is
# defined once (nm), the program is smaller than the same two modules each
# with its own kernels, the neuralspot build glue (module.mk) builds the same
# program, a Cortex-M4 build links when arm-none-eabi-gcc is there, and a
# library without a kernel the model needs, of another version, or of another
# aotc is refused in one line; --all and a user kernel (custom_operators) work.
set -eu
AOTC=$(realpath "$1")
S=${AOTC_SHARED:-../shared}
[ -d "$S/models" ] || { echo "SKIP shared runtime: $S/models not found"; exit 0; }
W=$(mktemp -d /tmp/aotc-srt-XXXXXX); trap 'rm -rf "$W"' EXIT
M=$S/models/mlperf-tiny; G=$S/goldens-tflm/mlperf-tiny
KWS=$M/kws_ref_model.tflite; RN=$M/pretrainedResnet_quant.tflite
fail() { echo "FAIL shared runtime: $*"; exit 1; }

# ---- the library and the two modules against it (cmake) ----
"$AOTC" runtime --module.path "$W/s" --module.name rt --module.prefix rt --module.type cmake "$KWS" "$RN" >/dev/null
conv() { # dir name model golden [extra options]
  local d=$1 n=$2 m=$3 g=$4; shift 4
  "$AOTC" convert --model.path "$m" --module.path "$d" --module.name "$n" --module.prefix "$n" \
    --test.enabled --test.golden-data "$g" "$@" >/dev/null
}
conv "$W/s" kws "$KWS" "$G/kws_ref_model.npz" --module.type cmake --module.runtime "$W/s/rt"
conv "$W/s" rn "$RN" "$G/pretrainedResnet_quant.npz" --module.type cmake --module.runtime "$W/s/rt"
ls "$W/s/kws/src" "$W/s/rn/src" | grep -q -E '_(conv2d|fc|softmax)_s8\.c$' && fail "a module copied kernels"
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
cat > "$W/s/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.13)
project(both C)
add_subdirectory(kws)
add_subdirectory(rn)
add_executable(both ../main.c)
target_link_libraries(both PRIVATE kws rn)
CM
cmake -S "$W/s" -B "$W/s/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS=-Werror >/dev/null
cmake --build "$W/s/build" -j2 >/dev/null || fail "cmake build against the shared library"
"$W/s/build/both" || fail "the shared-runtime program"

# ---- each kernel defined once; the modules define none ----
kern=$(nm --defined-only "$W/s/build/rt/librt.a" | awk '$2=="T" {print $3}' | sed 's/^rt_//' | sort -u)
[ -n "$kern" ] || fail "the library defines no kernels"
for k in $kern; do
  n=$(nm --defined-only "$W/s/build/both" | awk '{print $3}' | grep -c -E "^[a-z0-9]+_$k\$" || true)
  [ "$n" = 1 ] || fail "kernel $k defined $n times in the program"
done
bad=$(nm -g --defined-only "$W/s/build/kws/libkws.a" "$W/s/build/rn/librn.a" | awk 'NF==3 {print $3}' | grep -v -E '^(kws|rn)_' || true)
[ -z "$bad" ] && true || fail "unprefixed exported symbols: $bad"
for k in $kern; do
  nm --defined-only "$W/s/build/kws/libkws.a" "$W/s/build/rn/librn.a" | awk '{print $3}' | grep -q -E "^(kws|rn)_$k\$" && fail "a module defines kernel $k"
done

# ---- the same two modules, each with its own kernels: larger ----
mkdir -p "$W/a"
conv "$W/a" kws "$KWS" "$G/kws_ref_model.npz" --module.type cmake
conv "$W/a" rn "$RN" "$G/pretrainedResnet_quant.npz" --module.type cmake
cp "$W/s/CMakeLists.txt" "$W/a/CMakeLists.txt"
cmake -S "$W/a" -B "$W/a/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS=-Werror >/dev/null
cmake --build "$W/a/build" -j2 >/dev/null
"$W/a/build/both" >/dev/null || fail "the standalone program"
ts=$(size -A "$W/s/build/both" | awk '$1==".text" {print $2}'); ta=$(size -A "$W/a/build/both" | awk '$1==".text" {print $2}')
echo "host .text: two standalone modules $ta bytes, shared runtime $ts bytes"
[ "$ts" -lt "$ta" ] || fail "the shared-runtime program is not smaller ($ts >= $ta)"

# ---- neuralspot glue: module.mk of each module includes the library's once ----
"$AOTC" runtime --module.path "$W/n" --module.name rt --module.prefix rt "$KWS" "$RN" >/dev/null
conv "$W/n" kws "$KWS" "$G/kws_ref_model.npz" --module.runtime "$W/n/rt"
conv "$W/n" rn "$RN" "$G/pretrainedResnet_quant.npz" --module.runtime "$W/n/rt"
cat > "$W/n/Makefile" <<'MK'
sources :=
includes_api :=
local_includes :=
include kws/module.mk
include rn/module.mk
both: $(sources) ../main.c
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror -pedantic $(addprefix -I,$(includes_api) $(local_includes)) $^ -lm -o $@
MK
make -s -C "$W/n" both >/dev/null || fail "the module.mk build"
"$W/n/both" >/dev/null || fail "the module.mk program"
[ "$(make -s -C "$W/n" -p -n both 2>/dev/null | grep '^sources :=' | tr ' ' '\n' | grep -c 'rt_conv2d_s8\.c$')" = 1 ] ||
  fail "module.mk: the library's sources not listed exactly once"

# ---- Cortex-M4 (compile and link, no run) ----
if command -v arm-none-eabi-gcc >/dev/null; then
  CF="-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -O2 -std=c99 -Wall -Wextra -Werror -pedantic -ffunction-sections -fdata-sections"
  for v in s a; do
    inc=$(find "$W/$v" -path '*/build' -prune -o -type d \( -name includes-api -o -name src \) -print | sed 's/^/-I/')
    srcs=$(find "$W/$v" -path '*/build' -prune -o -name '*.c' ! -name '*_test_main.c' -print)
    arm-none-eabi-gcc $CF $inc $srcs "$W/main.c" --specs=nosys.specs -Wl,--gc-sections -lm -o "$W/$v/m4.elf" ||
      fail "cortex-m4 build ($v)"
  done
  ms=$(arm-none-eabi-size -A "$W/s/m4.elf" | awk '$1==".text" {print $2}'); ma=$(arm-none-eabi-size -A "$W/a/m4.elf" | awk '$1==".text" {print $2}')
  echo "cortex-m4 .text: two standalone modules $ma bytes, shared runtime $ms bytes"
  # Not asserted on Cortex-M4: the library compiles every kernel path (its
  # aot_features.h has all AOT_F_* on), while each standalone module keeps only
  # the DSP paths its layers reach; with two models the standalone pair is the
  # smaller one there (a library of the union of its models' paths is to do).
  [ "$ms" -lt "$ma" ] || echo "note: cortex-m4: the shared-runtime build is larger ($ms >= $ma): it compiles every kernel path"
fi

# ---- refusals: one line, non-zero, nothing written ----
refuse() { # what expected-text args...
  local what=$1 want=$2; shift 2
  if "$AOTC" "$@" >"$W/out" 2>&1; then fail "$what: accepted"; fi
  [ "$(wc -l < "$W/out")" = 1 ] || { cat "$W/out"; fail "$what: not one line"; }
  grep -q -- "$want" "$W/out" || { cat "$W/out"; fail "$what: message"; }
}
refuse "missing kernel" "lacks the kernel FullyConnectedFunctions/aot_fc_f32.c" convert --model.path "$S/models/tflm/hello_world_float.tflite" \
  --module.path "$W/r" --module.name x --module.prefix x --module.runtime "$W/s/rt"
cp -r "$W/s/rt" "$W/rt2"; rm -rf "$W/rt2/build"
sed -i 's/^\(kernel ConvolutionFunctions\/aot_conv2d_s8.c\) ./\1 0/' "$W/rt2/aotc-runtime.txt"
refuse "kernel version" "aot_conv2d_s8.c differs" convert --model.path "$KWS" --module.path "$W/r" --module.name x --module.prefix x --module.runtime "$W/rt2"
sed -i 's/^\(header aot_conv.h\) ./\1 0/' "$W/rt2/aotc-runtime.txt"
refuse "header version" "kernel header aot_conv.h differs" convert --model.path "$KWS" --module.path "$W/r" --module.name x --module.prefix x --module.runtime "$W/rt2"
sed -i 's/^aotc .*/aotc 0.0.1/' "$W/rt2/aotc-runtime.txt"
refuse "aotc version" "written by aotc 0.0.1" convert --model.path "$KWS" --module.path "$W/r" --module.name x --module.prefix x --module.runtime "$W/rt2"
refuse "no library" "no aotc-runtime.txt" convert --model.path "$KWS" --module.path "$W/r" --module.name x --module.prefix x --module.runtime "$W"
refuse "same prefix" "prefix of the runtime library" convert --model.path "$KWS" --module.path "$W/r" --module.name x --module.prefix rt --module.runtime "$W/s/rt"
refuse "no models" "no models" runtime --module.path "$W/r" --module.name rt --module.prefix rt
refuse "zephyr library" "writes cmake, nsx or neuralspot" runtime --module.path "$W/r" --module.name rt --module.type zephyr --all
refuse "zephyr module" "zephyr build glue cannot link" convert --model.path "$KWS" --module.path "$W/r" --module.name x --module.prefix x --module.type zephyr --module.runtime "$W/s/rt"
refuse "archive module" "is an archive" convert --model.path "$KWS" --module.path "$W/r.zip" --module.name x --module.prefix x --module.runtime "$W/s/rt"
[ ! -e "$W/r" ] && [ ! -e "$W/r.zip" ] || fail "a refusal wrote files"

# ---- --all: every runtime kernel; a float model runs against it ----
"$AOTC" runtime --module.path "$W/all" --module.name rta --module.prefix rta --all >/dev/null
nk=$(grep -c '^kernel ' "$W/all/rta/aotc-runtime.txt"); nr=$(ls "$W/all/rta/src" | wc -l)
[ "$nk" -gt 50 ] && [ "$nk" = "$nr" ] || fail "--all: $nk kernels in the manifest, $nr sources"
HW=$S/models/tflm/hello_world_float.tflite
"$AOTC" convert --model.path "$HW" --module.path "$W/all" --module.name hw --module.prefix hw --test.enabled --module.runtime "$W/all/rta" >/dev/null 2>&1
# the kernels it needs: those a standalone module of it copies
"$AOTC" convert --model.path "$HW" --module.path "$W/all" --module.name hw0 --module.prefix hw0 >/dev/null
ks=$(cd "$W/all/hw0/src" && ls hw0_*.c | grep -v -E '^hw0_(model|tensors|constants)\.c$' | sed "s|^hw0_|$W/all/rta/src/rta_|")
[ -n "$ks" ] || fail "--all: the standalone module copied no kernels"
cc -std=c99 -O1 -Wall -Wextra -Werror -pedantic -I"$W/all/hw/includes-api" -I"$W/all/hw/src" -I"$W/all/rta/includes-api" \
  "$W/all/hw/src/"*.c $ks -lm -o "$W/all/hw_test" || fail "--all: building a float module against the library"
"$W/all/hw_test" >/dev/null || fail "--all: the float module's test"
# ---- a user kernel (custom_operators) stays in the module, on the library's types ----
GEN=$(dirname "$AOTC")/aotc_make_refusal_models
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if [ -x "$GEN" ]; then
  mkdir -p "$W/c" && "$GEN" "$W/c" >/dev/null
  K=(--custom-operators.AOTC_TEST_AXPB.source "$ROOT/tests/data/custom_axpb.c" --custom-operators.AOTC_TEST_AXPB.function axpb_run
     --custom-operators.AOTC_TEST_AXPB.scratch-bytes 16)
  "$AOTC" runtime --module.path "$W/c" --module.name rt --module.prefix rt "${K[@]}" "$W/c/custom.tflite" >/dev/null
  "$AOTC" convert --model.path "$W/c/custom.tflite" "${K[@]}" --module.path "$W/c" --module.name cm --module.prefix cm \
    --module.runtime "$W/c/rt" --test.enabled --test.golden-data "$W/c/custom.npz" >/dev/null
  grep -q 'rt_custom_args' "$W/c/cm/src/custom_axpb.c" || fail "the user kernel does not use the library's types"
  cc -std=c99 -Wall -Wextra -Werror -pedantic -I"$W/c/cm/includes-api" -I"$W/c/cm/src" -I"$W/c/rt/includes-api" \
    "$W/c/cm/src/"*.c "$W/c/rt/src/"*.c -lm -o "$W/c/t" || fail "building the module with a user kernel"
  "$W/c/t" >/dev/null || fail "the module with a user kernel"
fi
echo "PASS shared runtime"
