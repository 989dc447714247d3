#!/usr/bin/env bash
# test_helia_memory.sh AOTC - memory placement as helia-aot's users configure it:
#  - KWS and VWW on apollo4p_evb with scratch forced into a too-small DTCM fail
#    with one line naming the memory, the bytes needed and available;
#  - scratch in DTCM, constants in MRAM on apollo4p_evb: the module builds, each
#    region goes to the memory its rule names (PUT_IN macro per region);
#  - memory.allocate_arenas: false: no arena buffers in the module; every
#    <prefix>_bind_arena status for its case (helia-aot's codes); a correctly
#    bound module passes its golden test;
#  - the residency JSON (schema 3) parses and no two tensors alive at the same
#    time overlap (lifetimes from the README's operator order are not needed:
#    every overlapping pair must be in different regions or be an alias).
set -u
AOTC=$(realpath "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
D="$HERE/../data/helia"
S=$(realpath "${AOTC_SHARED:-../shared}" 2>/dev/null || echo "${AOTC_SHARED:-../shared}")
[ -d "$S/models" ] || { echo "SKIP helia memory: $S/models not found"; exit 0; }
W=$(mktemp -d /tmp/aotc-hmem-XXXXXX); trap 'rm -rf "$W"' EXIT
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
KWS="$S/models/mlperf-tiny/kws_ref_model.tflite"
VWW="$S/models/mlperf-tiny/vww_96_int8.tflite"
SCR='{type: scratch, attributes: {memory: dtcm}}'

for m in "$KWS" "$VWW"; do
  n=$(basename "$m" .tflite)
  msg=$("$AOTC" convert --model.path "$m" --module.path "$W/small" --module.name "$n" --platform.name apollo4p_evb \
        --memory.tensors "$SCR" --memory.constraints '[{name: dtcm, max_size: 4096}]' 2>&1 >/dev/null | grep -v '^aotc: note'); rc=$?
  [ "$(echo "$msg" | wc -l)" = 1 ] && echo "$msg" | grep -q "memory dtcm: the plan needs [0-9]* bytes" &&
    echo "$msg" | grep -q "but 4096 are available" && [ ! -e "$W/small/$n" ] &&
    ok "$n: too-small DTCM refused: $msg" || bad "$n too-small DTCM: $msg"
done

# scratch in DTCM, constants cold in MRAM
"$AOTC" convert --model.path "$KWS" --module.path "$W" --module.name place --module.prefix kws --platform.name apollo4p_evb \
  --memory.tensors "$SCR" '{type: constant, attributes: {memory: mram}}' --test.enabled \
  --test.golden-data "$S/goldens-tflm/mlperf-tiny/kws_ref_model.npz" >/dev/null 2>&1 || bad "placement convert"
M="$W/place"
grep -q 'KWS_PUT_IN_DTCM static uint8_t kws_arena_dtcm_buf' "$M/src/kws_tensors.c" &&
  grep -q 'KWS_PUT_IN_MRAM_INIT const kws_constants_t kws_constants' "$M/src/kws_constants.c" &&
  ok "scratch arena prefixed KWS_PUT_IN_DTCM, constants KWS_PUT_IN_MRAM_INIT" || bad "placement macros"
(cd "$M" && cc -std=c99 -Wall -Wextra -Werror -pedantic -Iincludes-api -Isrc src/*.c -o "$W/place_t" -lm) &&
  "$W/place_t" | grep -q '^PASS' && ok "placed module passes its golden test on host" || bad "placed module test"

# the same module for Cortex-M4 under QEMU, with an attributes header naming
# sections: the map shows the arena and the constants in them; output = golden
if command -v arm-none-eabi-gcc >/dev/null && command -v qemu-system-arm >/dev/null; then
  printf '#define KWS_PUT_IN_DTCM __attribute__((section(".bss.aot_dtcm")))\n#define KWS_PUT_IN_MRAM_INIT __attribute__((section(".rodata.aot_mram")))\n' > "$W/attrs.h"
  HERE=$(cd "$(dirname "$0")" && pwd)
  out=$(bash "$HERE/../../targets/build-run.sh" --target cortex-m4 --module "$M" --main "$M/src/kws_test_main.c" \
        --cflags "-include $W/attrs.h" --out "$W/m4" 2>&1)
  echo "$out" | grep -q '^PASS' && ok "cortex-m4 (QEMU) placed module passes: $(echo "$out" | grep '^PASS' | cut -c1-70)" || bad "m4 run: $out"
  arena=$(sed -n 's/^#define kws_arena_dtcm_size \([0-9]*\)$/\1/p' "$M/includes-api/kws_tensors.h")
  python3 - "$W/m4/firmware.map" "$arena" <<'P' && ok "linker map: the scratch arena in .bss.aot_dtcm (KWS_PUT_IN_DTCM), the constants in .rodata.aot_mram (KWS_PUT_IN_MRAM_INIT)" || bad "linker map sections"
import sys, re
m = open(sys.argv[1]).read()
def section(name, obj):
    # an input section line: name [newline] address size object
    r = re.search(re.escape(name) + r"\s+0x[0-9a-f]+\s+(0x[0-9a-f]+)\s+\S*" + obj, m)
    assert r, name
    return int(r.group(1), 16)
# the whole planned arena (activations and the operators' scratch), as the
# module's header states it, and at least KWS's largest two activations
assert int(sys.argv[2]) >= 16000
assert section(".bss.aot_dtcm", "kws_tensors") == int(sys.argv[2])
assert section(".rodata.aot_mram", "kws_constants") >= 24000
P
else echo "SKIP: no arm-none-eabi-gcc/qemu-system-arm for the Cortex-M4 placement check"; fi

# scratch in DTCM, constants kept in MRAM and staged into SRAM at init (KWS and
# VWW, Cortex-M4 under QEMU): each symbol lands in the section its
# <PREFIX>_PUT_IN_<MEMORY> macro names (the linker map, and the symbol tables of
# the objects linked, for the static arena buffer); the
# blob counts against MRAM and the copy against SRAM; the output matches the golden
STAGE='{type: constant, attributes: {memory: mram, constant_destination_memory: sram}}'
for m in "$KWS" "$VWW"; do
  n=$(basename "$m" .tflite); P=st${n%%_*}; PU=$(echo "$P" | tr a-z A-Z)
  "$AOTC" convert --model.path "$m" --module.path "$W" --module.name "stage_$n" --module.prefix "$P" --platform.name apollo4p_evb \
    --memory.tensors "$SCR" "$STAGE" --memory.dump_residency_json --test.enabled \
    --test.golden-data "$S/goldens-tflm/mlperf-tiny/$n.npz" >/dev/null 2>"$W/stage.err" || { bad "$n staged convert: $(cat "$W/stage.err")"; continue; }
  M="$W/stage_$n"
  python3 - "$M/${P}_residency.json" <<'PY' && ok "$n staged: residency says constants staged from mram into sram" || bad "$n staged residency"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["arenas"]["constant"]
assert len(c) == 1 and c[0]["kind"] == "staged" and c[0]["memory"] == "sram" and c[0]["source_memory"] == "mram", c
assert d["arenas"]["scratch"][0]["memory"] == "dtcm"
assert all(t["source_memory"] == "mram" and t["memory"] == "sram" for t in d["tensors"] if t["role"] == "constant")
PY
  # the blob and its copy both count: a too-small SRAM is refused with the numbers
  msg=$("$AOTC" convert --model.path "$m" --module.path "$W/small" --module.name "$n" --platform.name apollo4p_evb \
        --memory.tensors "$SCR" "$STAGE" --memory.constraints '[{name: sram, max_size: 2048}]' 2>&1 >/dev/null | grep -v '^aotc: note'); rc=$?
  [ "$(echo "$msg" | wc -l)" = 1 ] && echo "$msg" | grep -q "memory sram: the plan needs [0-9]* bytes (staged constants [0-9]*) but 2048 are available" &&
    ok "$n: staged constants over a small SRAM refused: $msg" || bad "$n small SRAM: $msg"
  command -v arm-none-eabi-gcc >/dev/null && command -v qemu-system-arm >/dev/null || { echo "SKIP: no QEMU for $n staged"; continue; }
  printf '#define %s_PUT_IN_DTCM __attribute__((section(".bss.aot_dtcm")))\n#define %s_PUT_IN_SRAM __attribute__((section(".bss.aot_sram")))\n#define %s_PUT_IN_MRAM_INIT __attribute__((section(".rodata.aot_mram")))\n' \
    "$PU" "$PU" "$PU" > "$W/attrs_$P.h"
  out=$(bash "$HERE/../../targets/build-run.sh" --target cortex-m4 --module "$M" --main "$M/src/${P}_test_main.c" \
        --cflags "-include $W/attrs_$P.h" --out "$W/m4_$n" 2>&1)
  echo "$out" | grep -q '^PASS' && ok "$n staged, cortex-m4 (QEMU): $(echo "$out" | grep '^PASS' | cut -c1-70)" || bad "$n staged m4 run: $(echo "$out" | tail -3)"
  arm-none-eabi-objdump -t "$W/m4_$n"/obj/module/*-"${P}"_tensors.o "$W/m4_$n"/obj/module/*-"${P}"_constants.o > "$W/syms_$n.txt" 2>/dev/null
  python3 - "$W/m4_$n/firmware.map" "$W/syms_$n.txt" "$M/includes-api/${P}_tensors.h" "$P" <<'PY' && ok "$n staged: map and symbols: ${P}_arena_dtcm_buf in .bss.aot_dtcm (PUT_IN_DTCM), ${P}_constants_blob in .rodata.aot_mram (PUT_IN_MRAM_INIT), ${P}_constants in .bss.aot_sram (PUT_IN_SRAM), sizes as planned" || bad "$n staged map/symbols"
import re, sys
mp, syms, hdr, p = open(sys.argv[1]).read(), open(sys.argv[2]).read(), open(sys.argv[3]).read(), sys.argv[4]
size = lambda name: int(re.search(r"#define %s_size (\d+)" % name, hdr).group(1))
def sym(name):  # objdump -t of the firmware's objects: addr flags section size name
    r = [m for m in re.finditer(r"^[0-9a-f]+ .{7} (\S+)\s+([0-9a-f]+) %s$" % re.escape(name), syms, re.M)
         if m.group(1) != "*UND*"]
    assert len(r) == 1, name
    return r[0].group(1), int(r[0].group(2), 16)
def in_map(section, name):  # the map lists the symbol under its input section
    r = re.search(re.escape(section) + r"\s+0x[0-9a-f]+\s+(0x[0-9a-f]+)\s+\S+\n\s+0x[0-9a-f]+\s+" + re.escape(name) + r"\n", mp)
    assert r, (section, name)
    return int(r.group(1), 16)
assert sym(p + "_arena_dtcm_buf") == (".bss.aot_dtcm", size(p + "_arena_dtcm")), sym(p + "_arena_dtcm_buf")
assert sym(p + "_constants_blob")[0] == ".rodata.aot_mram" and sym(p + "_constants")[0] == ".bss.aot_sram"
assert sym(p + "_constants")[1] == sym(p + "_constants_blob")[1] and size(p + "_arena_const_sram") >= sym(p + "_constants")[1]
assert in_map(".rodata.aot_mram", p + "_constants_blob") == sym(p + "_constants_blob")[1]
assert in_map(".bss.aot_sram", p + "_constants") == sym(p + "_constants")[1]
PY
done

# constants by tensor id (helia-profiler's VWW hot-path config): ten weights
# kept in MRAM and staged into DTCM, the other constants read in place from
# MRAM; two constant regions; the staged group's references point at its copy;
# Cortex-M4 (QEMU) output = golden; each object in its PUT_IN section
IDS='{type: constant, id: ["45","47","46","49","48","54","51","53","52","55"], attributes: {memory: mram, constant_destination_memory: dtcm}}'
"$AOTC" convert --model.path "$VWW" --module.path "$W" --module.name byid --module.prefix bi --platform.name apollo4p_evb \
  --memory.tensors "$SCR" '{type: constant, attributes: {memory: mram}}' "$IDS" --memory.dump_residency_json --test.enabled \
  --test.golden-data "$S/goldens-tflm/mlperf-tiny/vww_96_int8.npz" >/dev/null 2>"$W/byid.err" || bad "by-id convert: $(cat "$W/byid.err")"
M="$W/byid"
python3 - "$M/bi_residency.json" <<'PY' && ! grep -q "not applied" "$W/byid.err" && ok "constants by id: residency has a staged mram->dtcm region of the 10 tensors and a cold mram region; nothing reported as not applied" || bad "by-id residency: $(cat "$W/byid.err")"
import json, sys
d = json.load(open(sys.argv[1]))
c = {a["memory"]: a for a in d["arenas"]["constant"]}
assert c["dtcm"]["kind"] == "staged" and c["dtcm"]["source_memory"] == "mram" and c["dtcm"]["tensor_count"] == 10, c
assert c["mram"]["kind"] == "cold" and c["mram"]["tensor_count"] > 10, c
ids = {t["id"] for t in d["tensors"] if t["role"] == "constant" and t["memory"] == "dtcm"}
assert ids == {"45", "47", "46", "49", "48", "54", "51", "53", "52", "55"}, ids
PY
[ "$(grep -c 'bi_constants_dtcm\.c_' "$M/src/bi_model.c")" -ge 10 ] && ok "constants by id: the operators read the ten staged weights from bi_constants_dtcm" || bad "by-id references"
if command -v arm-none-eabi-gcc >/dev/null && command -v qemu-system-arm >/dev/null; then
  printf '#define BI_PUT_IN_DTCM __attribute__((section(".bss.aot_dtcm")))\n#define BI_PUT_IN_MRAM_INIT __attribute__((section(".rodata.aot_mram")))\n' > "$W/attrs_bi.h"
  out=$(bash "$HERE/../../targets/build-run.sh" --target cortex-m4 --module "$M" --main "$M/src/bi_test_main.c" \
        --cflags "-include $W/attrs_bi.h" --out "$W/m4_bi" 2>&1)
  echo "$out" | grep -q '^PASS' && ok "constants by id, cortex-m4 (QEMU): $(echo "$out" | grep '^PASS' | cut -c1-60)" || bad "by-id m4: $(echo "$out" | tail -3)"
  syms=$(arm-none-eabi-objdump -t "$W/m4_bi"/obj/module/*-bi_constants.o 2>/dev/null)
  echo "$syms" | grep -qE '\.rodata\.aot_mram\s+[0-9a-f]+ bi_constants$' && echo "$syms" | grep -qE '\.rodata\.aot_mram\s+[0-9a-f]+ bi_constants_dtcm_blob$' &&
    echo "$syms" | grep -qE '\.bss\.aot_dtcm\s+[0-9a-f]+ bi_constants_dtcm$' &&
    ok "constants by id: bi_constants and bi_constants_dtcm_blob in .rodata.aot_mram (BI_PUT_IN_MRAM_INIT), bi_constants_dtcm in .bss.aot_dtcm (BI_PUT_IN_DTCM)" || bad "by-id sections: $syms"
fi

# hydration: a user's strong <prefix>_hydrate_constants replaces the weak one
# (called once per init, the module passes); memory.auto_hydrate_constants
# false: run before hydration -> hydration_required (200); hydrate with NULL
# -> null_context (13), before context init -> hydrate_uninited_context (11)
for auto in true false; do
  "$AOTC" convert --model.path "$KWS" --module.path "$W" --module.name "hyd_$auto" --module.prefix hy --platform.name apollo4p_evb \
    --memory.tensors "$STAGE" --memory.auto_hydrate_constants "$auto" --test.enabled \
    --test.golden-data "$S/goldens-tflm/mlperf-tiny/kws_ref_model.npz" >/dev/null 2>&1 || bad "hydrate convert ($auto)"
done
cat > "$W/hyd.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "hy_model.h"
#include "hy_test_case.h"
static int calls;
int32_t hy_hydrate_constants(hy_model_context_t *ctx) {  /* e.g. a DMA transfer */
  if (ctx == NULL) return hy_status_null_context;
  calls++;
  for (int r = 0; r < hy_num_arena_buffers; r++)
    if (hy_constant_sizes[r]) memcpy(hy_constant_runtimes[r], hy_constant_sources[r], hy_constant_sizes[r]);
  return hy_status_ok;
}
int main(void) {
  static hy_model_context_t ctx;
  if (hy_model_init(&ctx) != 0 || calls != 1) { printf("init %d calls\n", calls); return 1; }
  if (hy_test_case_run() != 0) return 2;
  printf("override called %d times\n", calls);
  return calls >= 2 ? 0 : 3;
}
C
cat > "$W/hyd_off.c" <<'C'
#include <stdio.h>
#include "hy_model.h"
#include "hy_test_case.h"
int main(void) {
  static hy_model_context_t ctx, fresh;
  int bad = 0;
#define EXPECT(e, v) do { int32_t s_ = (e); if (s_ != (v)) { printf("%s = %ld, want %d\n", #e, (long)s_, (v)); bad++; } } while (0)
  EXPECT(hy_hydrate_constants(NULL), 13);
  EXPECT(hy_hydrate_constants(&fresh), 11);
  EXPECT(hy_model_init(&ctx), 0);
  EXPECT(hy_model_run(&ctx), 200);
  EXPECT(hy_model_hydrate(&ctx), 0);
  EXPECT(hy_model_run(&ctx), 0);
  return bad;
}
C
M="$W/hyd_true"
cc -std=c99 -Wall -Wextra -Werror -I"$M/includes-api" -I"$M/src" "$W/hyd.c" $(ls "$M"/src/*.c | grep -v test_main) -o "$W/hyd" -lm 2>"$W/hyd.err" &&
  out=$("$W/hyd") && ok "a strong hy_hydrate_constants replaces the weak one and the module passes: $out" || bad "hydrate override: $(head -3 "$W/hyd.err") $out"
M="$W/hyd_false"
cc -std=c99 -Wall -Wextra -Werror -I"$M/includes-api" -I"$M/src" "$W/hyd_off.c" $(ls "$M"/src/*.c | grep -v test_main) -o "$W/hyd_off" -lm 2>"$W/hyd_off.err" &&
  out=$("$W/hyd_off") && ok "auto_hydrate_constants false: statuses 13, 11, then run 200 until hy_model_hydrate, then 0" || bad "hydrate statuses: $(head -3 "$W/hyd_off.err") $out"

# placement reaches the build: the CMake hook <MODULE>_ATTRIBUTES_HEADER
# force-includes the user's PUT_IN macros (the library's arena lands in the
# section named); the built-in board defaults (Ambiq linker sections) apply
# when the board's AM_PART_<SOC> is defined, and yield to the user's macros
"$AOTC" convert --model.path "$KWS" --module.path "$W" --module.name hook --module.prefix kh --module.type cmake \
  --platform.name apollo4p_evb --memory.tensors '{type: scratch, attributes: {memory: sram}}' >/dev/null 2>&1 || bad "hook convert"
M="$W/hook"
printf '#define KH_PUT_IN_SRAM __attribute__((section(".bss.hook_sram")))\n' > "$W/hook_attrs.h"
if cmake -S "$M" -B "$W/hook_build" -DHOOK_ATTRIBUTES_HEADER="$W/hook_attrs.h" >/dev/null 2>&1 && cmake --build "$W/hook_build" >/dev/null 2>&1; then
  objdump -t "$W/hook_build"/*.a 2>/dev/null | grep -qE '\.bss\.hook_sram\s+[0-9a-f]+ kh_arena_sram_buf$' &&
    ok "CMake HOOK_ATTRIBUTES_HEADER: the library's kh_arena_sram_buf is in .bss.hook_sram" || bad "attributes header not applied"
else bad "cmake build with the attributes header"; fi
def() { echo '#include "kh_platform.h"' | cc -E -dM "$@" -I"$M/includes-api" - | sed -n 's/^#define KH_PUT_IN_SRAM //p'; }
[ -z "$(def)" ] && [ "$(def -DAM_PART_APOLLO4P)" = '__attribute__((section(".sram_bss")))' ] &&
  [ -z "$(def -DAM_PART_APOLLO4P -DKH_NO_BOARD_SECTIONS)" ] && [ "$(def -DAM_PART_APOLLO4P '-DKH_PUT_IN_SRAM=X')" = X ] &&
  [ "$(echo '#include "kh_platform.h"' | cc -E -dM -DAM_PART_APOLLO4P -I"$M/includes-api" - | sed -n 's/^#define KH_PUT_IN_SRAM_INIT //p')" = '__attribute__((section(".shared")))' ] &&
  ok "apollo4p_evb board defaults: KH_PUT_IN_SRAM -> .sram_bss, _INIT -> .shared with AM_PART_APOLLO4P only; KH_NO_BOARD_SECTIONS and the user's macro win" ||
  bad "board defaults: '$(def)' '$(def -DAM_PART_APOLLO4P)'"

# memory.allocate_arenas: false (a stateful model: scratch and persistent regions)
LSTM="$S/models/tflm/trained_lstm_int8.tflite"
"$AOTC" convert --model.path "$LSTM" --module.path "$W" --module.name ext --module.prefix ex \
  --no-memory.allocate-arenas --test.enabled --test.golden-data "$S/goldens-tflm/tflm/trained_lstm_int8.npz" >/dev/null 2>&1 ||
  bad "external-arena convert"
M="$W/ext"
cat > "$W/bind.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "ex_model.h"
#include "ex_test_case.h"
static unsigned char scr[ex_arena_sram_size + 16] __attribute__((aligned(16)));
static unsigned char per[ex_arena_persistent_sram_size] __attribute__((aligned(16)));
int main(void) {
  static ex_model_context_t ctx;
  int bad = 0;
  void *bufs[ex_num_arena_buffers];
  size_t sizes[ex_num_arena_buffers];
#define EXPECT(e, v) do { int32_t s_ = (e); if (s_ != (v)) { printf("%s = %ld, want %d\n", #e, (long)s_, (v)); bad++; } } while (0)
  EXPECT(ex_model_init(&ctx), 10);                                   /* context_arena_unbound */
  EXPECT(ex_model_run(&ctx), 14);                                    /* not_initialized */
  EXPECT(ex_bind_arena((ex_arena_region_t)99, scr, sizeof scr), 1); /* unknown region */
  EXPECT(ex_bind_arena(ex_arena_const_mram, scr, sizeof scr), 1);   /* constants are not bound */
  EXPECT(ex_bind_arena(ex_arena_sram, NULL, sizeof scr), 2);        /* null buffer */
  EXPECT(ex_bind_arena(ex_arena_sram, scr, ex_arena_sram_size - 1), 3); /* undersized */
  EXPECT(ex_bind_arena(ex_arena_sram, scr + 1, ex_arena_sram_size), 4); /* misaligned */
  EXPECT(ex_bind_arenas(NULL, sizes, ex_num_arena_buffers), 100);
  EXPECT(ex_bind_arenas(bufs, sizes, 1), 101);
  EXPECT(ex_bind_arena(ex_arena_sram, scr, ex_arena_sram_size), 0);
  EXPECT(ex_model_init(&ctx), 10);                                   /* persistent still unbound */
  EXPECT(ex_bind_arena(ex_arena_persistent_sram, per, sizeof per), 0);
  EXPECT(ex_model_init(&ctx), 0);
  if (bad) return 1;
  return ex_test_case_run() == 0 ? 0 : 2;
}
C
if cc -std=c99 -Wall -Wextra -Werror -I"$M/includes-api" -I"$M/src" "$W/bind.c" $(ls "$M"/src/*.c | grep -v test_main) \
     -o "$W/bind" -lm 2>"$W/bind.err"; then
  out=$("$W/bind"); rc=$?
  [ $rc -eq 0 ] && ok "allocate_arenas false: each bind status (1,2,3,4,10,14,100,101) and a bound module passes: $(echo "$out" | tail -1 | cut -c1-60)" ||
    bad "bind statuses rc=$rc: $out"
else bad "bind test build: $(head -3 "$W/bind.err")"; fi
cc -std=c99 -c -I"$M/includes-api" -I"$M/src" "$M/src/ex_tensors.c" -o "$W/ext_t.o" &&
  ! nm "$W/ext_t.o" | grep -q '_buf$' && ok "allocate_arenas false: no arena buffers in the module" || bad "arena buffers emitted"

# residency report: parses; tensors alive at the same time do not overlap
"$AOTC" convert --model.path "$VWW" --module.path "$W" --module.name res --module.prefix vww \
  --memory.dump_residency_json >/dev/null 2>&1 || bad "residency convert"
python3 - "$W/res/vww_residency.json" <<'P' && ok "residency JSON (schema 3) parses; sizes within regions" || bad "residency JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema_version"] == 3 and len(d["plan_hash"]) == 16 and len(d["tensor_layout_hash"]) == 16
regions = {}
for role in ("scratch", "persistent", "constant"):
    for a in d["arenas"][role]:
        regions[a["region_id"]] = a
        assert a["used"] <= a["total_size"]
for t in d["tensors"]:
    assert isinstance(t["id"], str)
    assert t["role"] in ("scratch", "persistent", "constant")
P
# operators scratch_placement: the LSTM's own scratch (op 0) moves out of the
# DTCM scratch arena into an SRAM scratch region on apollo510_evb; the arena
# shrinks by it; the module passes on the host and on Cortex-M55 (QEMU) with
# the region in the section LS_PUT_IN_SRAM names; bad memories are refused
OPR='{type: UNIDIRECTIONAL_SEQUENCE_LSTM, attributes: {scratch_placement: SRAM}}'
LG="$S/goldens-tflm/tflm/trained_lstm_int8.npz"
"$AOTC" convert --model.path "$LSTM" --module.path "$W" --module.name opsc0 --module.prefix ls --platform.name apollo510_evb >/dev/null 2>&1 &&
"$AOTC" convert --model.path "$LSTM" --module.path "$W" --module.name opsc --module.prefix ls --platform.name apollo510_evb \
  --operators "$OPR" --memory.dump_residency_json --test.enabled --test.golden-data "$LG" >/dev/null 2>"$W/opsc.err" || bad "scratch_placement convert: $(cat "$W/opsc.err")"
M="$W/opsc"
sz() { sed -n "s/^#define $2_size \([0-9]*\)$/\1/p" "$1/includes-api/ls_tensors.h"; }
a0=$(sz "$W/opsc0" ls_arena_dtcm); a1=$(sz "$M" ls_arena_dtcm); r1=$(sz "$M" ls_arena_sram)
grep -q '{ls_tensor_type_scratch, ls_arena_sram, 0, [0-9]*},  /\* tensor_unidirectional_sequence_lstm_0_scratch' "$M/src/ls_tensors.c" &&
  [ -n "$r1" ] && [ "$a1" -lt "$a0" ] && [ $((a0 - a1)) -le "$r1" ] && ! grep -q "has no effect" "$W/opsc.err" &&
  ok "scratch_placement SRAM: op 0's scratch in ls_arena_sram ($r1 bytes); the DTCM arena $a0 -> $a1 bytes; no 'no effect' note" ||
  bad "scratch_placement layout: dtcm $a0 -> $a1, sram '$r1' $(cat "$W/opsc.err")"
(cd "$M" && cc -std=c99 -Wall -Wextra -Werror -pedantic -O2 -Iincludes-api -Isrc src/*.c -o "$W/opsc_t" -lm) &&
  "$W/opsc_t" | grep -q '^PASS' && ok "scratch_placement module passes its golden test on the host" || bad "scratch_placement host test"
if command -v arm-none-eabi-gcc >/dev/null && command -v qemu-system-arm >/dev/null; then
  printf '#define LS_PUT_IN_SRAM __attribute__((section(".bss.aot_sram")))\n#define LS_PUT_IN_DTCM __attribute__((section(".bss.aot_dtcm")))\n' > "$W/attrs_ls.h"
  out=$(bash "$HERE/../../targets/build-run.sh" --target cortex-m55 --module "$M" --main "$M/src/ls_test_main.c" \
        --cflags "-include $W/attrs_ls.h" --out "$W/m55_ls" 2>&1)
  echo "$out" | grep -q '^PASS' && ok "scratch_placement module on cortex-m55 (QEMU): $(echo "$out" | grep '^PASS' | cut -c1-60)" || bad "scratch_placement m55: $(echo "$out" | tail -3)"
  arm-none-eabi-objdump -t "$W/m55_ls"/obj/module/*-ls_tensors.o 2>/dev/null | grep -qE "\.bss\.aot_sram\s+0*$(printf %x "$r1") ls_arena_sram_buf$" &&
    ok "ls_arena_sram_buf ($r1 bytes) in .bss.aot_sram (LS_PUT_IN_SRAM)" || bad "scratch region section"
fi
for bad_mem in PSRAM:apollo4p_evb:"which platform apollo4p_evb does not have" MRAM:apollo510_evb:"a non-volatile memory"; do
  mem=${bad_mem%%:*}; rest=${bad_mem#*:}; pf=${rest%%:*}; want=${rest#*:}
  msg=$("$AOTC" convert --model.path "$LSTM" --module.path "$W/opbad" --platform.name "$pf" \
        --operators "{type: UNIDIRECTIONAL_SEQUENCE_LSTM, id: '0', attributes: {scratch_placement: $mem}}" 2>&1 >/dev/null | grep -v '^aotc: note'); rc=$?
  [ "$(echo "$msg" | wc -l)" = 1 ] && echo "$msg" | grep -q "op 0 (UNIDIRECTIONAL_SEQUENCE_LSTM) has scratch_placement '$(echo "$mem" | tr A-Z a-z)', $want" &&
    [ ! -e "$W/opbad" ] && ok "scratch_placement $mem on $pf refused: $msg" || bad "scratch_placement $mem: $msg"
done

# activations by tensor id: KWS on apollo510_evb with the scratch arena in DTCM
# and tensors 0 (the input), 24 and 25 in SRAM: a scratch region of its own,
# planned on its own; host and Cortex-M55 (QEMU) match the golden; the tensor
# descriptors say SRAM for exactly those; a non-volatile memory is refused
"$AOTC" convert --model.path "$KWS" --module.path "$W" --module.name actid --module.prefix ka --platform.name apollo510_evb \
  --memory.tensors "$SCR" '{type: scratch, id: ["0", "24", "25"], attributes: {memory: sram}}' --memory.dump_residency_json \
  --test.enabled --test.golden-data "$S/goldens-tflm/mlperf-tiny/kws_ref_model.npz" >/dev/null 2>"$W/actid.err" || bad "activations by id convert: $(cat "$W/actid.err")"
MA="$W/actid"
python3 - "$MA/ka_residency.json" <<'PY' && ! grep -q "not applied" "$W/actid.err" && ok "activations by id: tensors 0, 24, 25 in the SRAM scratch region, the others in DTCM" || bad "activations by id residency: $(cat "$W/actid.err")"
import json, sys
d = json.load(open(sys.argv[1]))
mem = {t["id"]: t["memory"] for t in d["tensors"] if t["role"] == "scratch"}
assert {i for i, m in mem.items() if m == "sram"} == {"0", "24", "25"}, mem
assert {a["memory"] for a in d["arenas"]["scratch"]} == {"dtcm", "sram"}
PY
(cd "$MA" && cc -std=c99 -Wall -Wextra -Werror -pedantic -O2 -Iincludes-api -Isrc src/*.c -o "$W/actid_t" -lm) &&
  "$W/actid_t" | grep -q '^PASS' && ok "activations by id: the module passes its golden test on the host" || bad "activations by id host test"
if command -v arm-none-eabi-gcc >/dev/null && command -v qemu-system-arm >/dev/null; then
  printf '#define KA_PUT_IN_SRAM __attribute__((section(".bss.aot_sram")))\n' > "$W/attrs_ka.h"
  out=$(bash "$HERE/../../targets/build-run.sh" --target cortex-m55 --module "$MA" --main "$MA/src/ka_test_main.c" \
        --cflags "-include $W/attrs_ka.h" --out "$W/m55_ka" 2>&1)
  echo "$out" | grep -q '^PASS' && ok "activations by id on cortex-m55 (QEMU): $(echo "$out" | grep '^PASS' | cut -c1-60)" || bad "activations by id m55: $(echo "$out" | tail -3)"
fi
msg=$("$AOTC" convert --model.path "$KWS" --module.path "$W/actbad" --platform.name apollo510_evb \
      --memory.tensors '{type: scratch, id: "24", attributes: {memory: mram}}' 2>&1 >/dev/null); rc=$?
[ $rc -ne 0 ] && [ "$(echo "$msg" | wc -l)" = 1 ] && echo "$msg" | grep -q "tensor 24 has memory 'mram', a non-volatile memory" &&
  ok "an activation placed in MRAM is refused: $msg" || bad "activation in mram: $msg"

# the same against lifetimes read from the .tflite itself (tflite_lifetimes.py,
# independent of aotc), per arena region (residency_overlap.py): KWS, VWW, the
# staged modules above and a stateful LSTM (a persistent region too)
"$AOTC" convert --model.path "$KWS" --module.path "$W" --module.name reskws --module.prefix kw \
  --memory.dump_residency_json >/dev/null 2>&1 || bad "residency convert kws"
"$AOTC" convert --model.path "$LSTM" --module.path "$W" --module.name reslstm --module.prefix ls \
  --memory.dump_residency_json >/dev/null 2>&1 || bad "residency convert lstm"
for pair in "$VWW:$W/res/vww_residency.json" "$KWS:$W/reskws/kw_residency.json" "$LSTM:$W/reslstm/ls_residency.json" "$LSTM:$M/ls_residency.json" \
            "$KWS:$W/stage_kws_ref_model/stkws_residency.json" "$VWW:$W/stage_vww_96_int8/stvww_residency.json" \
            "$VWW:$W/byid/bi_residency.json" "$KWS:$W/actid/ka_residency.json"; do
  m=${pair%%:*}; j=${pair#*:}
  python3 "$D/tflite_lifetimes.py" "$m" > "$W/life.json" || { bad "lifetimes of $m"; continue; }
  r=$(python3 "$D/residency_overlap.py" "$j" "$W/life.json" 2>&1) &&
    ok "$(basename "$j"): no two slots of one region alive at once share bytes (lifetimes from the .tflite): $r" || bad "$(basename "$j"): $r"
done
"$AOTC" inspect --memory "$VWW" > "$W/mem.txt" 2>&1 || bad "inspect --memory"
python3 - "$W/mem.txt" <<'P' && ok "inspect --memory: lifetimes of every scratch tensor; no two live tensors overlap; SVG well formed" || bad "inspect --memory overlap/SVG"
import sys, re, xml.dom.minidom
txt = open(sys.argv[1]).read()
rows = [tuple(map(int, m.groups())) for m in re.finditer(r"^tensor \S+ first=(\d+) last=(\d+) offset=(\d+) size=(\d+)", txt, re.M)]
assert rows, "no tensors listed"
for i, a in enumerate(rows):
    for b in rows[i + 1:]:
        live = a[0] <= b[1] and b[0] <= a[1] and a[1] != b[0] and b[1] != a[0]  # in-place hand-off allowed
        overlap = a[2] < b[2] + b[3] and b[2] < a[2] + a[3]
        assert not (live and overlap and a[2:] != b[2:]), (a, b)
svg = txt[txt.index("<svg"):txt.rindex("</svg>") + 6]
xml.dom.minidom.parseString(svg)
assert "peak" in svg
P
exit $fail
