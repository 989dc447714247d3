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
  python3 - "$W/m4/firmware.map" <<'P' && ok "linker map: the scratch arena in .bss.aot_dtcm (KWS_PUT_IN_DTCM), the constants in .rodata.aot_mram (KWS_PUT_IN_MRAM_INIT)" || bad "linker map sections"
import sys, re
m = open(sys.argv[1]).read()
def section(name, obj):
    # an input section line: name [newline] address size object
    r = re.search(re.escape(name) + r"\s+0x[0-9a-f]+\s+(0x[0-9a-f]+)\s+\S*" + obj, m)
    assert r, name
    return int(r.group(1), 16)
assert section(".bss.aot_dtcm", "kws_tensors") == 16000
assert section(".rodata.aot_mram", "kws_constants") >= 24000
P
else echo "SKIP: no arm-none-eabi-gcc/qemu-system-arm for the Cortex-M4 placement check"; fi

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
