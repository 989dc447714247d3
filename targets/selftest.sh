#!/usr/bin/env bash
# selftest.sh - self-test of the Cortex-M QEMU targets (targets/build-run.sh).
#
# Usage: targets/selftest.sh [cortex-m4] [cortex-m55]   (default: both)
# Environment: KEEP=1 keeps the work directory.
# Exit status 0 when every check passes. Needs gcc-arm-none-eabi,
# libnewlib-arm-none-eabi, qemu-system-arm and a host gcc (for the plugin);
# prints "SKIP" and exits 0 when the cross tools or QEMU are missing, unless
# REQUIRE_TOOLS=1.
set -u -o pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BR="$HERE/build-run.sh"
PROG="$HERE/selftest/selftest.c"

for tool in arm-none-eabi-gcc qemu-system-arm gcc; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    if [ "${REQUIRE_TOOLS:-0}" = 1 ]; then
      echo "selftest: FAIL: '$tool' not found" >&2
      exit 1
    fi
    echo "selftest: SKIP: '$tool' not found"
    exit 0
  fi
done

TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(cortex-m4 cortex-m55)

WORK="$(mktemp -d "${TMPDIR:-/tmp}/aotc-selftest.XXXXXX")"
if [ "${KEEP:-0}" = 1 ]; then
  echo "selftest: work directory $WORK"
else
  trap 'rm -rf "$WORK"' EXIT
fi

N=0
FAILS=0
pass() { N=$((N + 1)); echo "ok $N - $*"; }
fail() { N=$((N + 1)); FAILS=$((FAILS + 1)); echo "not ok $N - $*"; }
expect() { # description condition...
  local d="$1"
  shift
  if "$@"; then pass "$d"; else fail "$d"; fi
}

# run NAME TARGET build-run-args... -> sets RC, output in $WORK/NAME.{out,err}
run() {
  local name="$1" t="$2"
  shift 2
  "$BR" -q --target "$t" --out "$WORK/$name" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"
  RC=$?
}
region() { sed -n 's/^insns_region=//p' "$WORK/$1/insn_count.txt" 2>/dev/null; }
total() { sed -n 's/^insns_total=//p' "$WORK/$1/insn_count.txt" 2>/dev/null; }
has() { grep -q -- "$2" "$WORK/$1"; }
kv() { sed -n "s/^$2=//p" "$WORK/$1/size.txt"; }

for t in "${TARGETS[@]}"; do
  # 1. normal run: output, exit 0, sizes, instruction count
  run "$t-ok" "$t" --main "$PROG" --count-insns -DSELFTEST_LOOPS=10
  expect "$t: exit status 0 (got $RC)" [ "$RC" = 0 ]
  expect "$t: hello on stdout" has "$t-ok.out" "hello from $t"
  expect "$t: all checks ok" has "$t-ok.out" "selftest: 0 failure(s)"
  expect "$t: no FAILED check" bash -c "! grep -q FAILED '$WORK/$t-ok.out'"
  expect "$t: stderr forwarded separately" has "$t-ok.err" "selftest: stderr works"
  expect "$t: stderr not on stdout" bash -c "! grep -q 'stderr works' '$WORK/$t-ok.out'"
  if [ "$t" = cortex-m55 ]; then
    expect "$t: MVE enabled" has "$t-ok.out" "ok: MVE integer and float vectors"
  fi
  expect "$t: size report" [ -n "$(kv "$t-ok" firmware_flash)" ]
  expect "$t: count line on stderr" has "$t-ok.err" "build-run: insns_total="
  c10=$(region "$t-ok")
  tot1=$(total "$t-ok")
  expect "$t: region count present ($c10)" [ -n "$c10" ]

  # 2. same program again: deterministic count
  run "$t-ok2" "$t" --main "$PROG" --count-insns -DSELFTEST_LOOPS=10
  ok=0; [ -n "$tot1" ] && [ "$tot1" = "$(total "$t-ok2")" ] && ok=1
  expect "$t: repeatable total count ($tot1 = $(total "$t-ok2"))" [ "$ok" = 1 ]

  # 3. count grows linearly with the loop count
  run "$t-l100" "$t" --main "$PROG" --count-insns -DSELFTEST_LOOPS=100
  run "$t-l1000" "$t" --main "$PROG" --count-insns -DSELFTEST_LOOPS=1000
  c100=$(region "$t-l100")
  c1000=$(region "$t-l1000")
  if [ -n "$c10" ] && [ -n "$c100" ] && [ -n "$c1000" ]; then
    ok=0; [ "$c10" -lt "$c100" ] && [ "$c100" -lt "$c1000" ] && ok=1
    expect "$t: count grows with loops ($c10 < $c100 < $c1000)" [ "$ok" = 1 ]
    expect "$t: count linear in loops (($c1000-$c100) = 10*($c100-$c10))" \
      [ $((c1000 - c100)) -eq $((10 * (c100 - c10))) ]
  else
    fail "$t: region counts missing"
  fi

  # 4. non-zero exit status propagated
  run "$t-exit3" "$t" --main "$PROG" -DSELFTEST_EXIT=3
  expect "$t: exit status 3 propagated (got $RC)" [ "$RC" = 3 ]

  # 5. faults are reported and end the run
  run "$t-udf" "$t" --main "$PROG" -DSELFTEST_FAULT=1
  expect "$t: undefined instruction -> 206 (got $RC)" [ "$RC" = 206 ]
  expect "$t: fault report" has "$t-udf.err" "FAULT: UsageFault"
  expect "$t: fault PC located" has "$t-udf.err" "fault PC: main at"
  run "$t-stack" "$t" --main "$PROG" -DSELFTEST_FAULT=2
  ok=0; [ "$RC" -ge 203 ] && [ "$RC" -le 207 ] && ok=1
  expect "$t: stack overflow -> fault (got $RC)" [ "$ok" = 1 ]
  expect "$t: stack overflow diagnosed" bash -c "grep -qE 'STKOF|MSTKERR' '$WORK/$t-stack.err'"
  run "$t-wrom" "$t" --main "$PROG" -DSELFTEST_FAULT=3
  expect "$t: write to constant -> MemManage 204 (got $RC)" [ "$RC" = 204 ]
  run "$t-div0" "$t" --main "$PROG" -DSELFTEST_FAULT=4
  expect "$t: division by zero -> 206 (got $RC)" [ "$RC" = 206 ]
  expect "$t: DIVBYZERO reported" has "$t-div0.err" "DIVBYZERO"

  # 6. a hang ends with the timeout status
  run "$t-hang" "$t" --main "$PROG" -DSELFTEST_FAULT=5 --timeout 2
  expect "$t: endless loop -> timeout 124 (got $RC)" [ "$RC" = 124 ]

  # 7. module directory: include/ + src/, host-only file excluded,
  #    main inside src/ not compiled twice, module sizes reported
  M="$WORK/$t-mod"
  mkdir -p "$M/include" "$M/src"
  cat >"$M/include/st_mod.h" <<'EOF'
#ifndef ST_MOD_H
#define ST_MOD_H
#include <stdint.h>
int32_t st_mod_dot(const int8_t *a, int n);
#endif
EOF
  cat >"$M/src/st_mod.c" <<'EOF'
#include "st_mod.h"
static const int8_t st_mod_w[256] = {1, 2, 3, -4, 5};
static int32_t st_mod_scratch[32];
int32_t st_mod_dot(const int8_t *a, int n) {
  int32_t s = 0;
  int i;
  for (i = 0; i < n; i++) s += (int32_t)a[i] * st_mod_w[i & 255];
  st_mod_scratch[n & 31] = s;
  return s + st_mod_scratch[0];
}
EOF
  cat >"$M/src/st_mod_host.c" <<'EOF'
#error "host-only file: must be excluded"
EOF
  cat >"$M/src/st_mod_test_main.c" <<'EOF'
#include <stdio.h>
#include "st_mod.h"
#include "target.h"
int main(void) {
  static const int8_t in[5] = {1, 1, 1, 1, 1};
  int32_t r;
  target_count_start();
  r = st_mod_dot(in, 5);
  target_count_stop();
  printf("dot=%ld\n", (long)r);
  return r == 7 ? 0 : 1;
}
EOF
  run "$t-mod" "$t" --module "$M" --main "$M/src/st_mod_test_main.c" --exclude '*_host.c' --count-insns
  expect "$t: module build + run (got $RC)" [ "$RC" = 0 ]
  expect "$t: module output" has "$t-mod.out" "dot=7"
  expect "$t: module_text > 0" [ "$(kv "$t-mod" module_text)" -gt 0 ]
  expect "$t: module_rodata >= 256" [ "$(kv "$t-mod" module_rodata)" -ge 256 ]
  expect "$t: module_bss >= 128" [ "$(kv "$t-mod" module_bss)" -ge 128 ]
  run "$t-modfail" "$t" --module "$M" --main "$M/src/st_mod_test_main.c" --no-run
  expect "$t: host-only file not excluded -> build error 65 (got $RC)" [ "$RC" = 65 ]

  # 8. strict flags on module sources
  printf 'int st_unused(int x) { int y; return x; }\n' >"$M/src/st_mod_warn.c"
  run "$t-werror" "$t" --module "$M" --main "$M/src/st_mod_test_main.c" --exclude '*_host.c' --no-run
  expect "$t: warning in module source -> build error 65 (got $RC)" [ "$RC" = 65 ]
  rm -f "$M/src/st_mod_warn.c"
done

echo "selftest: $((N - FAILS))/$N passed"
[ "$FAILS" = 0 ]
