#!/usr/bin/env bash
# test_helia_configs.sh AOTC - helia-aot users' real configs and command lines
# (tests/data/helia/, recreated from the public repositories; only model paths
# differ) run unchanged: each convert succeeds and writes the module where
# helia-aot would (<module.path>/<module.name>/), then the same config passes
# its golden test on the host (aotc verify with the config and a golden) and
# under QEMU (verify without --target: the core of the config's platform,
# Cortex-M55 for the Apollo5 boards; Cortex-M4 for the configs without one).
# Also: options without meaning for aotc are noted once on stderr; unknown keys
# still fail in one line with a suggestion; helia-aot's --no-<flag> and the
# transforms list with "*" work.
set -u
AOTC=$(realpath "$1")
S=$(realpath "${AOTC_SHARED:-../shared}" 2>/dev/null || echo "${AOTC_SHARED:-../shared}")
[ -d "$S/models" ] || { echo "SKIP helia configs: $S/models not found"; exit 0; }
HERE=$(cd "$(dirname "$0")" && pwd)
D="$HERE/../data/helia"
W=$(mktemp -d /tmp/aotc-helia-XXXXXX); trap 'rm -rf "$W"' EXIT
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

QEMU=; command -v arm-none-eabi-gcc >/dev/null && command -v qemu-system-arm >/dev/null && QEMU=1
[ -n "$QEMU" ] || echo "SKIP: no arm-none-eabi-gcc/qemu-system-arm: the configs run on the host only"

for f in "$D"/*.yaml; do sed "s|@SHARED@|$S|g" "$f" > "$W/$(basename "$f")"; done

# config -> golden (an independent TFLM golden for the model the config names)
golden_of() {
  local m
  m=$(grep -v '^ *#' "$1" | grep -o 'models/[^ ]*\.tflite' | head -1 | sed 's|^models/||; s|\.tflite$||')
  if [ -f "$S/goldens-tflm/$m.npz" ]; then echo "$S/goldens-tflm/$m.npz"; else echo "$S/goldens/$m.npz"; fi
}
# where helia-aot writes the module: <module.path>/<module.name>
target_of() {
  python3 - "$1" <<'P'
import sys, re
txt = open(sys.argv[1]).read()
sec = None; path = "."; name = "helia_aot_nn"
for line in txt.splitlines():
    if re.match(r'^\S', line): sec = line.split(':')[0].strip()
    m = re.match(r'^\s+(path|name):\s*(\S+)', line)
    if sec == 'module' and m:
        if m.group(1) == 'path': path = m.group(2)
        else: name = m.group(2)
print(path.rstrip('/') + '/' + name)
P
}

n=0
for f in "$W"/*.yaml; do
  b=$(basename "$f" .yaml); n=$((n + 1))
  mkdir -p "$W/run-$b"
  out=$(cd "$W/run-$b" && "$AOTC" convert --path "$f" 2>"$W/run-$b.err"); rc=$?
  t="$W/run-$b/$(target_of "$f")"
  if [ $rc -eq 0 ] && [ -f "$t/.aotc-module" ]; then ok "$b: converts unchanged into $(target_of "$f")"
  else bad "$b: convert rc=$rc: $(cat "$W/run-$b.err")"; continue; fi
  # notes are one line each, never repeated
  if [ -s "$W/run-$b.err" ]; then
    dup=$(sort "$W/run-$b.err" | uniq -d | head -1)
    [ -z "$dup" ] || bad "$b: repeated message: $dup"
  fi
  g=$(golden_of "$f")
  line=$(cd "$W/run-$b" && "$AOTC" verify --path "$f" --target host --test.golden-data "$g" 2>&1 | grep -E '^(PASS|FAIL)' | head -1)
  case "$line" in PASS*) ok "$b: golden test on host: ${line%% hash=*}" ;; *) bad "$b: verify: $line" ;; esac
  # under QEMU: verify without --target runs on the platform's core (said on
  # stderr); a config without a platform runs on Cortex-M4
  if [ -n "$QEMU" ]; then
    if grep -qE '^\s+name:\s*(apollo|generic)' "$f"; then targ=(); else targ=(--target cortex-m4); fi
    vout=$(cd "$W/run-$b" && "$AOTC" verify --path "$f" "${targ[@]}" --test.golden-data "$g" 2>&1)
    line=$(echo "$vout" | grep -E '^(PASS|FAIL)' | head -1)
    if [ ${#targ[@]} -eq 0 ] && ! echo "$vout" | grep -q "^aotc: verify: no --target given: running on cortex-m"; then
      bad "$b: verify did not say which core it runs on: $(echo "$vout" | head -2)"
    fi
    case "$line" in PASS*target=cortex-m*) ok "$b: golden test under QEMU: $(echo "${line%% hash=*}" | sed 's/model=[^ ]* //')" ;;
      *) bad "$b: QEMU verify: $(echo "$vout" | tail -3)" ;; esac
  fi
done
[ $n -eq 10 ] && ok "ten configs" || bad "expected ten configs, found $n"

# the three command lines
mkdir -p "$W/cli-resnet/modules" "$W/generated/kws"
cp "$S/models/mlperf-tiny/pretrainedResnet_quant.tflite" "$W/cli-resnet/model.tflite"
cp "$S/models/mlperf-tiny/kws_ref_model.tflite" "$W/generated/kws/kws.tflite"
printf 'resnet-aot/\n' > "$W/cli-resnet/modules/.gitignore"
grep -v '^#' "$D/cli.txt" | while IFS='|' read -r name golden args; do
  args=${args//@SHARED@/$S}; args=${args//@W@/$W}
  dir="$W"; [ "$name" = neuralspotx_resnet ] && dir="$W/cli-resnet"
  # shellcheck disable=SC2086
  if (cd "$dir" && "$AOTC" $args >"$W/$name.out" 2>&1); then ok "command line $name runs unchanged"
  else echo "FAIL: command line $name: $(cat "$W/$name.out")"; echo fail > "$W/cli.failed"; continue; fi
  vargs=${args/convert/verify}
  vargs=$(echo "$vargs" | sed 's/--force//; s/--module.path [^ ]*//')
  # shellcheck disable=SC2086
  line=$(cd "$dir" && "$AOTC" $vargs --target host --test.golden-data "$S/$golden" 2>&1 | grep -E '^(PASS|FAIL)' | head -1)
  case "$line" in PASS*) echo "ok: $name: golden test on host: ${line%% hash=*}" ;;
    *) echo "FAIL: $name verify: $line"; echo fail > "$W/cli.failed" ;; esac
  [ -n "$QEMU" ] || continue
  # shellcheck disable=SC2086
  line=$(cd "$dir" && "$AOTC" $vargs --test.golden-data "$S/$golden" 2>&1 | grep -E '^(PASS|FAIL)' | head -1)
  case "$line" in PASS*target=cortex-m*) echo "ok: $name: golden test under QEMU: $(echo "${line%% hash=*}" | sed 's/model=[^ ]* //')" ;;
    *) echo "FAIL: $name QEMU verify: $line"; echo fail > "$W/cli.failed" ;; esac
done
[ -e "$W/cli.failed" ] && fail=1
[ -f "$W/cli-resnet/modules/resnet-aot/.aotc-module" ] && [ -f "$W/cli-resnet/modules/.gitignore" ] &&
  ok "resnet command line: modules/resnet-aot/ written, modules/.gitignore kept" || bad "resnet layout"
[ -f "$W/generated/kws/kws.tflite" ] && cmp -s "$W/generated/kws/kws.tflite" "$S/models/mlperf-tiny/kws_ref_model.tflite" &&
  [ -d "$W/generated/kws/kws" ] && ok "cmsis-aot-tester layout: the .tflite beside the module survives" || bad "cmsis-aot-tester layout"

# notes: an option without meaning is said once; unknown keys fail with a suggestion
KWS="$S/models/mlperf-tiny/kws_ref_model.tflite"
err=$("$AOTC" convert --model.path "$KWS" --module.path "$W/n" --documentation.html true --test.skip-verification \
      --operators '{type: CONV_2D, attributes: {code_placement: ITCM}}' 2>&1 >/dev/null)
[ "$(echo "$err" | grep -c "documentation.html")" = 1 ] && [ "$(echo "$err" | grep -c "operators")" = 1 ] &&
  [ "$(echo "$err" | grep -c "skip_verification")" = 1 ] && ok "no-effect options noted once each" || bad "notes: $err"
printf 'memory:\n  tensorz: []\n' > "$W/typo.yaml"
msg=$("$AOTC" convert --path "$W/typo.yaml" --model.path "$KWS" --module.path "$W/t" 2>&1); rc=$?
[ $rc -ne 0 ] && [ "$(echo "$msg" | wc -l)" = 1 ] && echo "$msg" | grep -q "did you mean 'memory.tensors'" &&
  ok "unknown key: $msg" || bad "typo key: $msg"
printf 'memory:\n  tensors:\n    - type: scratch\n      attributes: {memroy: dtcm}\n' > "$W/typo2.yaml"
msg=$("$AOTC" convert --path "$W/typo2.yaml" --model.path "$KWS" --module.path "$W/t" 2>&1); rc=$?
[ $rc -ne 0 ] && [ "$(echo "$msg" | wc -l)" = 1 ] && echo "$msg" | grep -q "did you mean 'memory'" &&
  ok "unknown rule attribute: $msg" || bad "typo attribute: $msg"
msg=$("$AOTC" convert --model.path "$KWS" --module.path "$W/t" --platform.name apollo9_evb 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$msg" | grep -q "apollo510_evb" && ok "unknown platform: $msg" || bad "platform: $msg"
# transforms list with "*": every transform off gives a different (unfused) module
printf 'transforms:\n  - name: "*"\n    enabled: false\n' > "$W/tx.yaml"
"$AOTC" convert --path "$W/tx.yaml" --model.path "$KWS" --module.path "$W/tx" --module.name off >/dev/null 2>&1 &&
"$AOTC" convert --model.path "$KWS" --module.path "$W/tx" --module.name on >/dev/null 2>&1 &&
  ! diff -q "$W/tx/off/src" "$W/tx/on/src" >/dev/null 2>&1 && ok "transforms [{name: '*', enabled: false}] honoured" ||
  bad "transforms list"
# platform.cpu guard: a module for apollo4p_evb (cortex-m4) compiles for the
# M4 and on the host, stops with one #error for an M55 build unless
# <PREFIX>_ALLOW_OTHER_CPU is defined; a module without a platform builds anywhere
if command -v arm-none-eabi-gcc >/dev/null; then
  "$AOTC" convert --model.path "$KWS" --module.path "$W/cpu" --module.name m4 --module.prefix g4 --platform.name apollo4p_evb >/dev/null 2>&1 &&
  "$AOTC" convert --model.path "$KWS" --module.path "$W/cpu" --module.name any --module.prefix ga >/dev/null 2>&1 || bad "cpu guard converts"
  cg() { arm-none-eabi-gcc -mthumb -std=c99 -Werror "$@" 2>&1; }
  M="$W/cpu/m4"
  e55=$(cg -mcpu=cortex-m55 -c -I"$M/includes-api" -I"$M/src" "$M/src/g4_model.c" -o "$W/cpu.o")
  if cg -mcpu=cortex-m4 -c -I"$M/includes-api" -I"$M/src" "$M/src/g4_model.c" -o "$W/cpu.o" >/dev/null &&
     cc -std=c99 -c -I"$M/includes-api" -I"$M/src" "$M/src/g4_model.c" -o "$W/cpu.o" &&
     [ "$(echo "$e55" | grep -c 'error: #error')" = 1 ] && echo "$e55" | grep -q 'generated for cortex-m4 (platform.cpu)' &&
     cg -mcpu=cortex-m55 -DG4_ALLOW_OTHER_CPU -c -I"$M/includes-api" -I"$M/src" "$M/src/g4_model.c" -o "$W/cpu.o" >/dev/null &&
     cg -mcpu=cortex-m55 -c -I"$W/cpu/any/includes-api" -I"$W/cpu/any/src" "$W/cpu/any/src/ga_model.c" -o "$W/cpu.o" >/dev/null; then
    ok "platform.cpu guard: cortex-m4 module builds for the M4 and the host, #error for an M55 build ($(echo "$e55" | grep -o '#error.*' | cut -c1-60)...), G4_ALLOW_OTHER_CPU overrides"
  else bad "platform.cpu guard: $e55"; fi
fi

# --no-<flag>
"$AOTC" convert --model.path "$KWS" --module.path "$W/nf" --no-test.enabled --no-force >/dev/null &&
  ok "--no-test.enabled --no-force accepted" || bad "--no-flags"
exit $fail
