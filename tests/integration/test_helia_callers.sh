#!/usr/bin/env bash
# test_helia_callers.sh AOTC - firmware written against helia-aot's generated C
# API compiles UNCHANGED against aotc modules and works:
#  1. neuralspotx examples/resnet_example/src/main.c (the real file, with its
#     committed model and input) built after the README's convert line, with a
#     host stand-in for nsx_core.h: it must print "classification match: PASS"
#     for the expected class (cat);
#  2. a heartkit-parity-like caller (C11: static asserts on <p>_input_0_size,
#     descriptors, region sizes, plan hash, init/run events, the test case);
#  3. the heliaAOT blocks of helia-profiler's main_aot.cc.j2 rendered for one
#     model, compiled as C++20 (designated initializers, the callback states).
# Also the module layout helia-aot's tools look for (includes-api/, src/,
# *_test_case.h) and each module type's build glue (cmake builds; module.mk is
# included by a host Makefile; zephyr and nsx files parse and name the CMake dir).
set -u
AOTC=$(realpath "$1")
S=$(realpath "${AOTC_SHARED:-../shared}" 2>/dev/null || echo "${AOTC_SHARED:-../shared}")
[ -d "$S/models" ] || { echo "SKIP helia callers: $S/models not found"; exit 0; }
HERE=$(cd "$(dirname "$0")" && pwd)
C="$HERE/../data/helia/callers"
W=$(mktemp -d /tmp/aotc-callers-XXXXXX); trap 'rm -rf "$W"' EXIT
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
CC=${CC:-cc}
CXX=${CXX:-c++}

# 1. neuralspotx resnet_example, unchanged
R="$W/resnet_example"; mkdir -p "$R/src" "$R/modules"
cp "$C/neuralspotx_resnet/main.c" "$C/neuralspotx_resnet/resnet_sample_data.h" "$R/src/"
cp "$C/neuralspotx_resnet/model.tflite" "$R/"
if (cd "$R" && "$AOTC" convert --model.path ./model.tflite --module.path ./modules --module.type nsx \
      --module.name resnet-aot --module.prefix resnet --platform.name apollo510_evb --force >/dev/null); then
  M="$R/modules/resnet-aot"
  [ -d "$M/includes-api" ] && [ -d "$M/src" ] && [ -f "$M/nsx-module.yaml" ] && grep -q 'nsx::resnet_aot' "$M/CMakeLists.txt" &&
    ok "resnet: modules/resnet-aot/ with includes-api/, src/, nsx-module.yaml, nsx::resnet_aot" || bad "resnet layout"
  if $CC -std=c99 -DRESNET_EXAMPLE_HAS_AOT=1 -DRESNET_EXAMPLE_HAS_SAMPLE_DATA=1 -I"$C/stub" -I"$R/src" \
       -I"$M/includes-api" -I"$M/src" "$R/src/main.c" "$M"/src/*.c -o "$W/resnet" -lm 2>"$W/resnet.err"; then
    out=$("$W/resnet")
    echo "$out" | grep -q "predicted class index: 3 (cat)" && echo "$out" | grep -q "classification match: PASS" &&
      ok "resnet main.c (unchanged) classifies its committed input: $(echo "$out" | grep -E 'predicted|max logit' | tr -d '\r' | tr '\n' ' ')" ||
      bad "resnet run: $out"
  else bad "resnet main.c does not compile: $(head -5 "$W/resnet.err")"; fi
else bad "resnet convert"; fi

# 2. heartkit-parity-like caller against the arrhythmia config (scratch in DTCM)
H="$W/hk"; mkdir -p "$H"
sed "s|@SHARED@|$S|g" "$HERE/../data/helia/heartkit_arrhythmia.yaml" > "$H/arrhythmia.yaml"
if (cd "$H" && "$AOTC" convert --path arrhythmia.yaml --module.prefix hkv --test.enabled \
      --test.golden-data "$S/goldens-tflm/mlperf-tiny/kws_ref_model.npz" >/dev/null 2>&1); then
  M="$H/modules/hkv_arrhythmia_aot"
  ls "$M"/includes-api/*_test_case.h >/dev/null 2>&1 && ok "heartkit: *_test_case.h under includes-api/" || bad "no test_case.h"
  if $CC -std=c11 -Wall -Wextra -Werror -pedantic -I"$M/includes-api" -I"$M/src" "$C/heartkit_parity_like.c" \
       $(ls "$M"/src/*.c | grep -v _test_main.c) -o "$W/parity" -lm 2>"$W/parity.err"; then
    out=$("$W/parity"); rc=$?
    [ $rc -eq 0 ] && echo "$out" | grep -q '^PASS' && ok "heartkit-parity-like caller: $(echo "$out" | head -1)" ||
      bad "parity caller rc=$rc: $out"
  else bad "parity caller does not compile: $(head -5 "$W/parity.err")"; fi
  # the placement hooks take a user's attributes header (force-included)
  printf '#define HKV_PUT_IN_DTCM __attribute__((section(".bss.dtcm_test")))\n#define HKV_PUT_IN_MRAM_INIT __attribute__((section(".rodata.mram_test")))\n' > "$W/attrs.h"
  $CC -std=c99 -c -include "$W/attrs.h" -I"$M/includes-api" -I"$M/src" "$M/src/hkv_tensors.c" -o "$W/t.o" 2>/dev/null &&
  $CC -std=c99 -c -include "$W/attrs.h" -I"$M/includes-api" -I"$M/src" "$M/src/hkv_constants.c" -o "$W/c.o" 2>/dev/null &&
    objdump -t "$W/t.o" | grep -q 'dtcm_test.*hkv_arena_dtcm_buf' &&
    objdump -t "$W/c.o" | grep -q 'mram_test.*hkv_constants' &&
    ok "PUT_IN hooks place the DTCM arena and the MRAM constants in the sections the macros name" || bad "PUT_IN hooks"
else bad "heartkit convert"; fi

# 3. helia-profiler main_aot (C++)
P="$W/prof"; mkdir -p "$P"
if "$AOTC" convert --model.path "$S/models/mlperf-tiny/kws_ref_model.tflite" --module.path "$P" --module.name hpx_model \
     --module.prefix hpx --module.type nsx --platform.name apollo510_evb --force >/dev/null 2>&1; then
  M="$P/hpx_model"
  if $CXX -std=c++20 -Wall -Werror -I"$M/includes-api" -c "$C/profiler_aot_like.cc" -o "$W/prof.o" 2>"$W/prof.err" &&
     (cd "$M" && for f in src/*.c; do $CC -std=c99 -Iincludes-api -Isrc -c "$f" -o "$W/$(basename "$f").o" || exit 1; done) &&
     rm -f "$W"/hpx_test_main.c.o && $CXX "$W/prof.o" "$W"/hpx_*.c.o -o "$W/prof.exe" -lm; then
    out=$("$W/prof.exe"); rc=$?
    [ $rc -eq 0 ] && ok "profiler main_aot caller (C++20): $(echo "$out" | tail -1)" || bad "profiler caller rc=$rc"
  else bad "profiler caller does not compile: $(head -5 "$W/prof.err")"; fi
else bad "profiler convert"; fi

# 4. build glue per module.type
KWS="$S/models/mlperf-tiny/kws_ref_model.tflite"
for t in cmake neuralspot zephyr nsx cmsis_pack; do
  "$AOTC" convert --model.path "$KWS" --module.path "$W/types" --module.name "m_$t" --module.prefix kws \
    --module.type $t --test.enabled >/dev/null 2>&1 || { bad "module.type $t: convert"; continue; }
done
M="$W/types/m_cmake"
cmake -S "$M" -B "$M/build" >/dev/null 2>&1 && cmake --build "$M/build" >/dev/null 2>&1 && "$M/build/kws_test" | grep -q '^PASS' &&
  ok "cmake: the static library and its test build and pass" || bad "cmake module"
M="$W/types/m_neuralspot"
cat > "$W/Makefile.ns" <<MK
include $M/module.mk
all: ; \$(CC) -std=c99 \$(addprefix -I,\$(M_NEURALSPOT_INCLUDES)) \$(M_NEURALSPOT_SOURCES) $M/src/kws_test_main.c -o $W/ns_test -lm
MK
make -s -f "$W/Makefile.ns" all >/dev/null 2>&1 && "$W/ns_test" | grep -q '^PASS' &&
  ok "neuralspot: a host Makefile including module.mk builds and passes" || bad "module.mk"
M="$W/types/m_zephyr"
python3 - "$M" <<'P' && ok "zephyr: module.yml parses and names the zephyr CMake dir and Kconfig" || bad "zephyr files"
import sys, os, re
d = sys.argv[1]
txt = open(os.path.join(d, "zephyr/module.yml")).read()
try:
    import yaml
    y = yaml.safe_load(txt)
except ImportError:
    y = {"build": {"cmake": re.search(r"cmake: (\S+)", txt).group(1), "kconfig": re.search(r"kconfig: (\S+)", txt).group(1)}}
assert y["build"]["cmake"] == "zephyr" and os.path.isfile(os.path.join(d, y["build"]["cmake"], "CMakeLists.txt"))
assert os.path.isfile(os.path.join(d, y["build"]["kconfig"]))
assert "zephyr_library" in open(os.path.join(d, "zephyr/CMakeLists.txt")).read()
P
M="$W/types/m_nsx"
python3 - "$M" <<'P' && ok "nsx: nsx-module.yaml parses, target nsx::m_nsx, CMakeLists defines the alias" || bad "nsx files"
import sys, os
d = sys.argv[1]
txt = open(os.path.join(d, "nsx-module.yaml")).read()
try:
    import yaml
    y = yaml.safe_load(txt)
    assert y["build"]["cmake"]["targets"] == ["nsx::m_nsx"], y
except ImportError:
    assert '"nsx::m_nsx"' in txt
assert "add_library(nsx::m_nsx ALIAS m_nsx)" in open(os.path.join(d, "CMakeLists.txt")).read()
P
M="$W/types/m_cmsis_pack"
python3 -c "import xml.dom.minidom,sys; x=xml.dom.minidom.parse(sys.argv[1]); assert x.getElementsByTagName('vendor')[0].firstChild.data=='Ambiq'" \
  "$M/Ambiq.m_cmsis_pack.pdsc" && ok "cmsis_pack: Ambiq.<name>.pdsc is valid XML" || bad "pdsc"
"$AOTC" convert --model.path "$KWS" --module.path "$W/out.pack" --module.name kwspack --module.type cmsis_pack >/dev/null 2>&1 &&
  python3 -c "import zipfile,sys; n=zipfile.ZipFile(sys.argv[1]).namelist(); assert 'kwspack/Ambiq.kwspack.pdsc' in n, n" "$W/out.pack" &&
  ok "cmsis_pack: a .pack module.path writes the pack (zip)" || bad ".pack"
# no build-machine paths, deterministic banner
M="$W/types/m_cmake"
if grep -rqs "$S\|$W" "$M" --exclude-dir=build; then bad "absolute paths in generated files: $(grep -rls "$S\|$W" "$M" --exclude-dir=build | head -3)"
else ok "no absolute build-machine paths in generated files"; fi
sha=$(sha256sum "$KWS" | cut -d' ' -f1)
grep -q "kws_ref_model.tflite (sha256 $sha)" "$M/src/kws_model.c" && ok "banner: model file name and sha256" || bad "banner"
exit $fail
