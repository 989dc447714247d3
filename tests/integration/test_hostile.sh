#!/usr/bin/env bash
# test_hostile.sh AOTC - hostile models (issue 11, classes 1-7, 14, 15) written
# by tests/tools/make_hostile_models.c (aotc's writer). Every model must either
# be refused with one line (aotc: error: ... containing the manifest's word),
# exit 1 or 2, no sanitizer report, nothing left on disk (no module
# directory, no OUT.aotc-tmp-PID); or give a module that compiles with its own
# flags (-std=c99 -Wall -Wextra -Werror -pedantic, which turns trigraphs on
# and limits string literals to 4095 bytes) and whose `aotc verify` passes
# (the expected outputs then come from the reference interpreter, so a
# module that computes something else fails). The manifest says which outcome
# each model must have; an unexpected acceptance or refusal fails the test.
set -u -o pipefail
AOTC=$(realpath "$1")
BIN=$(dirname "$AOTC")
GEN=$BIN/aotc_make_hostile_models
if [ ! -x "$GEN" ]; then echo "FAIL: $GEN not built"; exit 1; fi
W=$(mktemp -d /tmp/aotc-hostile-XXXXXX); trap 'rm -rf "$W"' EXIT
"$GEN" "$W" > "$W/manifest" || { echo "FAIL: generator"; exit 1; }
CC=${CC:-cc}
fails=0 n=0
fail() { echo "FAIL $1: $2"; fails=$((fails + 1)); }
while read -r name expect word prefix; do
  n=$((n + 1))
  m=$W/$name.tflite out=$W/out_$name mod=$W/out_$name/m
  pf=(); [ -n "$prefix" ] && pf=(--module.prefix "$prefix")
  p=${prefix:-aot}
  "$AOTC" convert --model.path "$m" --module.path "$out" --module.name m "${pf[@]}" > "$W/$name.log" 2>&1
  rc=$?
  if ls -d "$out".aotc-* "$out"/.*aotc* "$W"/.*aotc* > /dev/null 2>&1; then fail "$name" "temporary directory left behind"; fi
  if grep -q "Sanitizer\|runtime error" "$W/$name.log"; then fail "$name" "sanitizer report"; head -5 "$W/$name.log"; continue; fi
  if [ "$expect" = refuse ]; then
    lines=$(wc -l < "$W/$name.log")
    if [ $rc -ne 1 ] && [ $rc -ne 2 ]; then fail "$name" "expected a refusal with exit 1 or 2, got exit $rc"; cat "$W/$name.log"; continue; fi
    [ -e "$out" ] && fail "$name" "refused but left $out"
    [ "$lines" -eq 1 ] || { fail "$name" "refusal is $lines lines"; cat "$W/$name.log"; }
    grep -q "^aotc: error: .*$word" "$W/$name.log" || { fail "$name" "refusal does not say '$word'"; cat "$W/$name.log"; }
    continue
  fi
  if [ $rc -ne 0 ]; then fail "$name" "refused, expected a module"; cat "$W/$name.log"; continue; fi
  if ! (cd "$mod" && for f in src/*.c; do
          $CC -std=c99 -Wall -Wextra -Werror -pedantic -Iincludes-api -Isrc -c "$f" -o /dev/null || exit 1
        done) > "$W/$name.cc" 2>&1; then
    fail "$name" "module does not compile with its own flags"; head -5 "$W/$name.cc"
  fi
  if [ "$word" != - ] && ! grep -qF -- "$word" "$mod"/src/*.c; then fail "$name" "src/${p}_*.c lack '$word'"; fi
  "$AOTC" verify --model.path "$m" "${pf[@]}" > "$W/$name.verify" 2>&1 || { fail "$name" "verify failed"; tail -5 "$W/$name.verify"; }
done < "$W/manifest"
# the prefix rename keeps model text: the tensor named 'aot_x AOT_Y' keeps its name
if [ -d "$W/out_name_2/m" ]; then
  grep -qF '"aot_x AOT_Y"' "$W"/out_name_2/m/src/kws_*.c || fail name_2 "tensor name renamed by the prefix"
  grep -q "aot_model\|aot_status" "$W"/out_name_2/m/src/kws_*.c "$W"/out_name_2/m/includes-api/*.h &&
    fail name_2 "a generated identifier kept the aot prefix"
fi
# a 1 MB name is cut (C99: 4095 bytes per literal)
if [ -d "$W/out_name_1mb/m" ]; then
  len=$(cat "$W"/out_name_1mb/m/src/*.c | grep -o 'name = "[^"]*"' | awk '{ if (length($0) > m) m = length($0) } END { print m }')
  [ "${len:-0}" -lt 4000 ] || fail name_1mb "name literal of $len bytes"
fi
# trigraphs: the module must also compile with trigraphs explicitly on
if [ -d "$W/out_name_0/m" ]; then
  (cd "$W/out_name_0/m" && for f in src/*.c; do
     $CC -std=c99 -trigraphs -Wall -Werror -Iincludes-api -Isrc -c "$f" -o /dev/null || exit 1; done) ||
    fail name_0 "trigraph in a generated string"
fi
echo "hostile models: $n cases, $fails failures"
[ $fails -eq 0 ]
