#!/bin/bash
# test_malformed.sh [N] - malformed .tflite inputs must never crash aotc.
#
# Makes N (default 1000) seeded random mutants of
# $AOTC_SHARED/models/mlperf-tiny/kws_ref_model.tflite (truncations, byte
# flips, 32-bit words and 16-bit vtable entries set to hostile values) and
# runs them, plus every file in models/fuzz-seeds/, through
#   1. a small reader/writer driver built here with ASan + UBSan (all files in
#      one process; any sanitizer report or signal fails), and
#   2. `aotc inspect` (AOTC=path, else build-san/aotc, else build/aotc, if
#      present): every run must exit 0, 1 or 2 - no signal, no sanitizer
#      report (exit 99), no hang (60 s).
# Run from anywhere; AOTC_SHARED defaults to ../shared next to the repo.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
shared=${AOTC_SHARED:-$root/../shared}
base=$shared/models/mlperf-tiny/kws_ref_model.tflite
seeds=$shared/models/fuzz-seeds
if [ ! -f "$base" ]; then
  echo "skipping: $base not found (set AOTC_SHARED)"
  exit 0
fi
# the argument is a mutant count, or (from tests/run-integration.sh) the aotc path
case "${1:-}" in
  '' | *[!0-9]*) [ -n "${1:-}" ] && AOTC=$(realpath "$1"); n=${MALFORMED_N:-1000} ;;
  *) n=$1 ;;
esac
cc=${CC:-cc}
work=$(mktemp -d "${TMPDIR:-/tmp}/aotc-malformed.XXXXXX")
trap 'rm -rf "$work"' EXIT

cat >"$work/mutate.c" <<'EOF'
/* mutate BASE OUTDIR N: writes OUTDIR/mut_NNNN.tflite, seeded by NNNN. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static uint64_t s;
static uint64_t rnd(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }
int main(int argc, char **argv) {
  if (argc != 4) return 2;
  FILE *f = fopen(argv[1], "rb");
  if (!f) return 2;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc((size_t)len), *m = malloc((size_t)len);
  if (fread(b, 1, (size_t)len, f) != (size_t)len) return 2;
  fclose(f);
  int n = atoi(argv[3]);
  static const uint32_t hostile[] = {0, 1, 2, 4, 0x7fffffff, 0x80000000u, 0xffffffffu,
                                     0xfffffffcu, 0x10000, 0xffff};
  for (int i = 0; i < n; i++) {
    s = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1);
    for (int k = 0; k < 4; k++) rnd();
    memcpy(m, b, (size_t)len);
    long out = len;
    int kind = (int)(rnd() % 4);
    if (kind == 0) {
      out = (long)(rnd() % (uint64_t)len);
    } else if (kind == 1) {
      int flips = 1 + (int)(rnd() % 8);
      for (int k = 0; k < flips; k++) m[rnd() % (uint64_t)len] ^= (unsigned char)(1 + rnd() % 255);
    } else if (kind == 2) {
      long at = (long)(rnd() % (uint64_t)(len / 4)) * 4;
      uint32_t v = (rnd() & 1) ? hostile[rnd() % 10] : (uint32_t)rnd();
      if (rnd() % 4 == 0) v = (uint32_t)len - (uint32_t)at + (uint32_t)(rnd() % 64) - 32;
      memcpy(m + at, &v, 4);
    } else {
      /* 16-bit entries in the metadata part (tables and vtables come first) */
      long span = len / 5 > 2 ? len / 5 : len;
      long at = (long)(rnd() % (uint64_t)(span / 2)) * 2;
      uint16_t v = (uint16_t)((rnd() & 1) ? hostile[rnd() % 10] : rnd());
      memcpy(m + at, &v, 2);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/mut_%04d.tflite", argv[2], i);
    FILE *o = fopen(path, "wb");
    if (!o) return 2;
    fwrite(m, 1, (size_t)out, o);
    fclose(o);
  }
  free(b);
  free(m);
  return 0;
}
EOF

cat >"$work/read_models.c" <<'EOF'
/* read_models FILE...: reads each with litert_read; accepted models are
 * written and read back. Prints a summary; crashes are the failure mode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "litert/litert.h"
int main(int argc, char **argv) {
  int ok = 0, rejected = 0, bad = 0;
  for (int i = 1; i < argc; i++) {
    aotc_diag d = {0};
    d.quiet = 1;
    litert_model *m = litert_read_file(argv[i], &d);
    if (!m) {
      if (!strstr(d.msg, "malformed .tflite") && !strstr(d.msg, "unsupported .tflite")) {
        printf("%s: unexpected message: %s\n", argv[i], d.msg);
        bad++;
      }
      rejected++;
      continue;
    }
    uint8_t *buf;
    size_t len;
    if (litert_write(m, &buf, &len, &d) == 0) {
      litert_model *r = litert_read(buf, len, &d);
      if (!r || !litert_model_equal(m, r, NULL, 0)) {
        printf("%s: accepted but write/read roundtrip fails: %s\n", argv[i], r ? "differs" : d.msg);
        bad++;
      }
      litert_model_free(r);
      free(buf);
    } else {
      printf("%s: write failed: %s\n", argv[i], d.msg);
      bad++;
    }
    litert_model_free(m);
    ok++;
  }
  printf("reader: %d accepted, %d rejected, %d bad\n", ok, rejected, bad);
  return bad ? 1 : 0;
}
EOF

export ASAN_OPTIONS="exitcode=99:abort_on_error=0:detect_leaks=1"
export UBSAN_OPTIONS="halt_on_error=1:exitcode=99:print_stacktrace=1"

"$cc" -O2 -o "$work/mutate" "$work/mutate.c" || { echo "cannot build the mutator"; exit 1; }
mkdir -p "$work/m"
"$work/mutate" "$base" "$work/m" "$n" || { echo "mutator failed"; exit 1; }
files=("$work"/m/*.tflite)
if [ -d "$seeds" ]; then files+=("$seeds"/*); fi
echo "malformed: ${#files[@]} inputs ($n mutants of $(basename "$base") + fuzz seeds)"

passed=0
failed=0

# 1. reader driver with sanitizers, all inputs in one process
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
if "$cc" -std=c11 -g -O1 $san -Isrc src/litert/reader*.c src/litert/writer.c src/litert/model.c \
    src/util.c "$work/read_models.c" -lm -o "$work/read_models" 2>"$work/cc.err"; then
  "$work/read_models" "${files[@]}" >"$work/reader.out" 2>&1
  rc=$?
  tail -1 "$work/reader.out"
  if [ $rc -eq 0 ]; then
    passed=$((passed + 1))
  else
    echo "FAIL: reader driver exited $rc"
    tail -40 "$work/reader.out"
    failed=$((failed + 1))
  fi
else
  echo "FAIL: cannot build the reader driver"
  cat "$work/cc.err"
  failed=$((failed + 1))
fi

# 2. aotc inspect, one process per input
aotc=${AOTC:-}
if [ -z "$aotc" ]; then
  for c in build-san/aotc build/aotc; do
    if [ -x "$c" ]; then aotc=$c; break; fi
  done
fi
if [ -n "$aotc" ] && [ -x "$aotc" ]; then
  echo "malformed: running $aotc inspect on each input"
  to=""
  command -v timeout >/dev/null 2>&1 && to="timeout 60"
  export ASAN_OPTIONS="exitcode=99:detect_leaks=0"
  codes=""
  for f in "${files[@]}"; do
    $to "$aotc" inspect "$f" >/dev/null 2>"$work/err"
    rc=$?
    case $rc in
      0 | 1 | 2) passed=$((passed + 1)); codes="$codes $rc" ;;
      *)
        failed=$((failed + 1))
        keep=${TMPDIR:-/tmp}/aotc-malformed-fail-$(basename "$f")
        cp "$f" "$keep"
        echo "FAIL: aotc inspect $(basename "$f") exited $rc (input kept as $keep)"
        head -20 "$work/err"
        ;;
    esac
  done
  echo "aotc inspect exit codes:$(echo "$codes" | tr ' ' '\n' | sort | uniq -c | awk 'NF == 2 {printf " %s x%s", $2, $1}')"
else
  echo "malformed: no aotc binary found (set AOTC or build build-san/aotc); reader driver only"
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
