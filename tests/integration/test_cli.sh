#!/usr/bin/env bash
# test_cli.sh AOTC - command-line behaviour: deterministic output, atomic and
# non-clobbering convert, one-line errors with suggestions and exit codes,
# every unsupported op listed at once, inspect --json fields, config file +
# flag precedence, inconsistent SVDF state refused.
set -u
AOTC=$(realpath "$1")
S=${AOTC_SHARED:-../shared}
[ -d "$S/models" ] || { echo "SKIP cli: $S/models not found"; exit 0; }
W=$(mktemp -d /tmp/aotc-cli-XXXXXX); trap 'rm -rf "$W"' EXIT
KWS="$S/models/mlperf-tiny/kws_ref_model.tflite"
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

# 1. same input, byte-identical module
"$AOTC" convert --model.path "$KWS" --module.path "$W" --module.name "a" >/dev/null &&
"$AOTC" convert --model.path "$KWS" --module.path "$W/elsewhere" --module.name "a" >/dev/null &&
diff -r "$W/a" "$W/elsewhere/a" >/dev/null && ok "deterministic output" || bad "two converts differ"
# 1a. with test data (golden.npz inside the module), converts seconds apart: no time stamps
"$AOTC" convert --model.path "$KWS" --module.path "$W/t1" --module.name "a" --test.enabled >/dev/null 2>&1 &&
sleep 2 &&
"$AOTC" convert --model.path "$KWS" --module.path "$W/t2" --module.name "a" --test.enabled >/dev/null 2>&1 &&
ls "$W/t1/a/"*.npz >/dev/null 2>&1 && diff -r "$W/t1/a" "$W/t2/a" >/dev/null &&
  ok "deterministic output with test data (.npz without time stamps)" || bad "two converts with test data differ"

# 1b. the module builds warning-free with clang as well as gcc
if command -v clang >/dev/null; then
  (cd "$W/a" && for f in src/*.c; do
     clang -std=c99 -Wall -Wextra -Werror -pedantic -Iincludes-api -Isrc -c "$f" -o /dev/null || exit 1; done) &&
    ok "module builds with clang -std=c99 -pedantic -Werror" || bad "clang build of the module"
fi

# 2. an existing directory is not replaced without --force, and stays as it was
touch "$W/a/marker"
msg=$("$AOTC" convert --model.path "$KWS" --module.path "$W" --module.name "a" 2>&1); rc=$?
[ $rc -ne 0 ] && [ -e "$W/a/marker" ] && echo "$msg" | grep -q -- "--force" && ok "refuses to overwrite: $msg" || bad "overwrite without --force"
"$AOTC" convert --model.path "$KWS" --module.path "$W" --module.name "a" --force >/dev/null && [ ! -e "$W/a/marker" ] && ok "--force replaces" || bad "--force"

# 3. a failing convert leaves nothing behind (no half-written directory)
msg=$("$AOTC" convert --model.path "$S/models/litert-testdata/svdf_calibrated.bin" --module.path "$W" --module.name "svdf" 2>&1); rc=$?
[ $rc -eq 2 ] && [ ! -e "$W/svdf" ] && [ -z "$(ls -A "$W" | grep aotc-)" ] && ok "unsupported model: exit 2, nothing written" || bad "svdf: rc=$rc"
echo "$msg" | grep -q "memory_size x num_filters" && [ "$(echo "$msg" | wc -l)" -eq 1 ] && ok "SVDF state refused: $msg" || bad "svdf message: $msg"

# 4. unknown flag: one line, names it, suggests the closest
msg=$("$AOTC" convert --model.path "$KWS" --module.path "$W" --module.name "c" --module.prefx kws 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$msg" | grep -q "module.prefix" && [ ! -e "$W/c" ] && ok "unknown flag: $msg" || bad "unknown flag: $msg"

# 5. malformed model: one-line error with the byte offset, non-zero exit
head -c 3000 "$KWS" > "$W/trunc.tflite"
msg=$("$AOTC" convert --model.path "$W/trunc.tflite" --module.path "$W" --module.name "d" 2>&1); rc=$?
[ $rc -ne 0 ] && [ "$(echo "$msg" | wc -l)" -eq 1 ] && echo "$msg" | grep -qi "offset" && [ ! -e "$W/d" ] && ok "truncated model: $msg" || bad "truncated: $msg"

# 7. config file with flags on top
cat > "$W/cfg.yaml" <<Y
model:
  path: $KWS
module:
  path: $W
  name: e
  prefix: fromfile
Y
"$AOTC" convert --path "$W/cfg.yaml" --module.prefix fromflag >/dev/null &&
[ -f "$W/e/includes-api/fromflag_model.h" ] && ok "YAML config + flag override" || bad "config precedence"
printf 'module:\n  prefx: x\n' > "$W/bad.yaml"
msg=$("$AOTC" convert --path "$W/bad.yaml" --model.path "$KWS" --module.path "$W" --module.name "f" 2>&1)
echo "$msg" | grep -q "did you mean 'module.prefix'" && ok "unknown YAML key: $msg" || bad "yaml key: $msg"

# 8. inspect --json carries the planner figures
j=$("$AOTC" inspect --json "$KWS")
for k in arena_bytes arena_lower_bound_bytes constant_bytes macs fused_gru_loops; do
  echo "$j" | grep -q "\"$k\": [0-9]" || bad "inspect --json lacks $k"
done
ok "inspect --json fields"

# 9. the residency report
"$AOTC" convert --model.path "$S/models/tflm/keyword_scrambled_8bit.tflite" --module.path "$W" --module.name "g" \
  --memory.dump_residency_json >/dev/null && grep -q '"role": "persistent"' "$W/g/aot_residency.json" &&
  ok "residency json with persistent tensors" || bad "residency json"
exit $fail
