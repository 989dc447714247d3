#!/usr/bin/env bash
# test_layers.sh AOTC - the compiler's stages call only earlier stages.
#
# Stages, in order: base (src/aotc.h, src/util.c, src/config, src/io) ->
# litert -> ir -> ops -> passes -> plan -> codegen -> ref -> driver
# (src/compile.c, src/compile_*.c) -> cmd. Two checks over the built objects and the sources:
#   1. every symbol an object of stage S uses from another object of the
#      compiler is defined in a stage <= S (nm over the aotc_core objects);
#   2. every #include "..." of a source of stage S names a header of a stage
#      <= S; runtime headers (the kernels copied into modules) may be included
#      only from ops, passes and ref, except the support headers aot_common.h
#      and aot_f16.h (no kernels, usable anywhere).
# Known exceptions are listed below with the reason; the test fails on any
# other violation and on an exception that no longer occurs.
set -u
AOTC=$1
HERE=$(cd "$(dirname "$0")/../.." && pwd)
OBJ=$(cd "$(dirname "$AOTC")" && pwd)/CMakeFiles/aotc_core.dir/src
[ -d "$OBJ" ] || { echo "FAIL: no objects under $OBJ"; exit 1; }
command -v nm >/dev/null || { echo "SKIP: nm missing (binutils)"; exit 0; }

rank() {  # stage rank of a path relative to src/ (or "cmd/...")
  case "$1" in
    aotc.h|util.c|config/*|io/*|platform/*) echo 0 ;;
    litert/*) echo 1 ;;
    ir/*) echo 2 ;;
    ops/*) echo 3 ;;
    passes/*) echo 4 ;;
    plan/*) echo 5 ;;
    codegen/*) echo 6 ;;
    ref/*) echo 7 ;;
    compile.c|compile.h|compile_*.c|compile_*.h) echo 8 ;;
    cmd/*) echo 9 ;;
    *) echo 99 ;;
  esac
}

# Exceptions: "<from> <to>" pairs (paths relative to src/, or runtime header names).
EXCEPT=(
  # the GRU hook writes the fused op's custom options, whose layout
  # (AOT_GRU_*) is defined by the runtime's recurrent header
  # (gru_match.c: the activation codes; gru_rewrite.c: the options)
  "litert/gru_match.c aot_recurrent.h"
  "litert/gru_rewrite.c aot_recurrent.h"
)
fails=0
seen_except=()
is_except() {
  local k
  for k in "${EXCEPT[@]}"; do [ "$k" = "$1" ] && { seen_except+=("$1"); return 0; }; done
  return 1
}

# 1. symbols
declare -A def_rank
while read -r o; do
  rel=${o#$OBJ/}; rel=${rel%.o}
  [ -f "$HERE/src/$rel" ] || continue  # a stale object of a moved source
  r=$(rank "$rel")
  for s in $(nm --defined-only -g "$o" 2>/dev/null | awk '$2 ~ /[TDRB]/ {print $3}'); do
    def_rank[$s]="$r $rel"
  done
done < <(find "$OBJ" -name '*.c.o')
while read -r o; do
  rel=${o#$OBJ/}; rel=${rel%.o}
  [ -f "$HERE/src/$rel" ] || continue
  r=$(rank "$rel")
  for s in $(nm --undefined-only -g "$o" 2>/dev/null | awk '{print $2}'); do
    d=${def_rank[$s]:-}
    [ -n "$d" ] || continue
    dr=${d%% *}; df=${d#* }
    if [ "$dr" -gt "$r" ]; then
      echo "FAIL: $rel (stage $r) calls $s from $df (stage $dr, a later stage)"
      fails=$((fails + 1))
    fi
  done
done < <(find "$OBJ" -name '*.c.o')

# 2. includes
cd "$HERE" || exit 1
while read -r f; do
  rel=${f#src/}
  r=$(rank "$rel")
  dir=$(dirname "$f")
  while read -r inc; do
    [ -n "$inc" ] || continue
    if [ -f "runtime/$inc" ] || [ -f "runtime/$(basename "$inc")" ]; then
      case "$(basename "$inc")" in aot_common.h|aot_f16.h) continue ;; esac
      case "$r" in 3|4|7) continue ;; esac
      is_except "$rel $(basename "$inc")" && continue
      echo "FAIL: $rel (stage $r) includes the runtime kernel header $inc"
      fails=$((fails + 1))
      continue
    fi
    tgt=$(realpath -m --relative-to="$HERE/src" "$dir/$inc" 2>/dev/null)
    case "$tgt" in ../cmd/*) tgt=${tgt#../} ;; esac  # cmd/ sits beside src/
    [ -f "src/$tgt" ] || [ -f "$tgt" ] || tgt=$inc
    [ -f "src/$tgt" ] || [ -f "$tgt" ] || continue
    tr=$(rank "$tgt")
    if [ "$tr" -gt "$r" ]; then
      echo "FAIL: $rel (stage $r) includes $tgt (stage $tr, a later stage)"
      fails=$((fails + 1))
    fi
  done < <(grep -o '^#include "[^"]*"' "$f" | sed 's/#include "//;s/"$//')
done < <(find src cmd -name '*.[ch]')

for k in "${EXCEPT[@]}"; do
  found=0
  for s in "${seen_except[@]:-}"; do [ "$s" = "$k" ] && found=1; done
  [ $found = 1 ] || { echo "FAIL: listed exception '$k' no longer occurs: remove it"; fails=$((fails + 1)); }
done
if [ $fails -gt 0 ]; then echo "test_layers: $fails violation(s)"; exit 1; fi
echo "test_layers: every stage calls and includes only earlier stages"
