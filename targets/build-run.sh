#!/usr/bin/env bash
# build-run.sh - build C sources (an aotc module + a main) for a Cortex-M
# board emulated by QEMU, run the firmware, forward its output and return its
# exit status. Optionally count the executed instructions.
#
# Usage:
#   targets/build-run.sh --target cortex-m4|cortex-m55 [sources] [options]
#
# Sources (at least one .c in total):
#   --module DIR        all DIR/src/*.c (the module and its copied runtime
#                       kernels); include path DIR/includes-api (or DIR/include) and DIR/src
#   --exclude GLOB      skip module sources whose file name matches GLOB
#                       (repeatable), e.g. --exclude '*_host.c'
#   --main FILE.c       the program's main(); a module source with the same
#                       path is not compiled twice
#   --src FILE.c        more sources compiled like the module (repeatable)
#   --extra-src FILE.c  sources compiled with relaxed flags: -std=gnu99
#                       -Wall -Wextra, warnings allowed (repeatable)
#   -I DIR              extra include directory (repeatable)
#   -D NAME[=VALUE]     extra preprocessor definition (repeatable)
# Module sources, --main and --src are compiled with
#   -std=c99 -Wall -Wextra -Werror -pedantic
# Every C file gets -O2 (see --opt) -g -ffunction-sections -fdata-sections,
# the CPU flags below, -DAOTC_TARGET_CORTEX_M=1 and
# -DAOTC_TARGET_CORTEX_M4=1 or -DAOTC_TARGET_CORTEX_M55=1, and
# targets/cortex-m on the include path (target.h: instruction-count markers
# target_count_start()/target_count_stop()). Linked with -Wl,--gc-sections,
# newlib (full printf, including %f and %lld) and libm.
#   cortex-m4:  -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard,
#               QEMU machine mps2-an386
#   cortex-m55: -mcpu=cortex-m55 -mfloat-abi=hard (FPU + MVE),
#               QEMU machine mps3-an547
#
# Options:
#   --out DIR           build directory, kept (default: a temporary
#                       directory, deleted at exit)
#   --count-insns       count guest instructions with the QEMU plugin
#                       (targets/qemu-plugin/insn_count.c, built on demand);
#                       writes OUT/insn_count.txt and prints to stderr:
#                         build-run: insns_total=N insns_region=N regions=N
#                       insns_region sums the instructions between
#                       target_count_start() and target_count_stop() calls
#   --timeout SEC       wall-clock limit of the QEMU run (default 300)
#   --opt FLAG          optimisation flag (default -O2)
#   --cc clang          compile the module, --main and --src sources with
#                       clang (the LLVM compiler Arm Compiler 6 is built on)
#                       instead of arm-none-eabi-gcc, against newlib's
#                       headers and with GCC's short enums; the target
#                       files, the link and the libraries stay
#                       arm-none-eabi-gcc's
#   --cflags "FLAGS"    extra flags for every C file (word-split)
#   --stack-size BYTES  main stack size (default 65536)
#   --no-run            build only (sizes are still reported)
#   --elf FILE          do not build; run this ELF (built by this script)
#   --qemu-arg ARG      extra QEMU argument (repeatable)
#   -j, --jobs N        parallel compilations (default 1)
#   -q, --quiet         no progress messages
#   -h, --help          this text
#
# Output: the program's stdout goes to stdout, its stderr (and the fault
# report) to stderr; the script's own messages go to stderr, prefixed with
# "build-run:". In OUT: firmware.elf, firmware.map, size.txt (size of the
# firmware and, as key=value lines, of the module: module_text,
# module_rodata, module_data, module_bss = bytes of the module sources'
# input sections kept in the link, counting only --module sources that
# are not the --main file nor excluded; firmware_flash, firmware_ram), and
# insn_count.txt with --count-insns.
#
# Exit status:
#   the program's exit status (return value of main / exit(); keep it small,
#     0 = success)
#   200+N  the firmware took fault/exception N (203 HardFault, 204 MemManage,
#          205 BusFault, 206 UsageFault, 207 SecureFault); report on stderr
#   134    abort() in the firmware, or QEMU aborted (CPU lockup)
#   124    timeout
#   64     usage error or missing tool
#   65     compile or link error
set -u -o pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TDIR="$HERE/cortex-m"
PDIR="$HERE/qemu-plugin"

say() { [ "$QUIET" = 1 ] || echo "build-run: $*" >&2; }
die() { echo "build-run: error: $*" >&2; exit "${2:-64}"; }
usage() { sed -n '2,/^set -u/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; }

TARGET=""
MODULE_DIRS=()
EXCLUDES=()
MAIN=""
SRCS=()
EXTRA_SRCS=()
INCS=()
DEFS=()
OUT=""
COUNT=0
TIMEOUT=300
OPT="-O2"
MODCC=""
USER_CFLAGS=""
STACK_SIZE=65536
NO_RUN=0
RUN_ELF=""
QEMU_EXTRA=()
QUIET=0
JOBS=1

need_arg() { [ $# -ge 2 ] || die "option $1 needs an argument"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --target) need_arg "$@"; TARGET="$2"; shift 2 ;;
    --target=*) TARGET="${1#*=}"; shift ;;
    --module) need_arg "$@"; MODULE_DIRS+=("$2"); shift 2 ;;
    --exclude) need_arg "$@"; EXCLUDES+=("$2"); shift 2 ;;
    --main) need_arg "$@"; MAIN="$2"; shift 2 ;;
    --src) need_arg "$@"; SRCS+=("$2"); shift 2 ;;
    --extra-src) need_arg "$@"; EXTRA_SRCS+=("$2"); shift 2 ;;
    -I) need_arg "$@"; INCS+=("$2"); shift 2 ;;
    -I*) INCS+=("${1#-I}"); shift ;;
    -D) need_arg "$@"; DEFS+=("$2"); shift 2 ;;
    -D*) DEFS+=("${1#-D}"); shift ;;
    --out) need_arg "$@"; OUT="$2"; shift 2 ;;
    --count-insns) COUNT=1; shift ;;
    --timeout) need_arg "$@"; TIMEOUT="$2"; shift 2 ;;
    --opt) need_arg "$@"; OPT="$2"; shift 2 ;;
    --cc) need_arg "$@"; MODCC="$2"; shift 2 ;;
    --cflags) need_arg "$@"; USER_CFLAGS="$USER_CFLAGS $2"; shift 2 ;;
    --stack-size) need_arg "$@"; STACK_SIZE="$2"; shift 2 ;;
    --no-run) NO_RUN=1; shift ;;
    --elf) need_arg "$@"; RUN_ELF="$2"; shift 2 ;;
    --qemu-arg) need_arg "$@"; QEMU_EXTRA+=("$2"); shift 2 ;;
    -j|--jobs) need_arg "$@"; JOBS="$2"; shift 2 ;;
    -j*) JOBS="${1#-j}"; shift ;;
    -q|--quiet) QUIET=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done

case "$TARGET" in
  cortex-m4|m4)
    TARGET=cortex-m4
    CPU_FLAGS=(-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard -mthumb)
    MACHINE=mps2-an386
    LDSCRIPT=mps2-an386.ld
    CLANG_TRIPLE=thumbv7em-none-eabihf
    TDEF=-DAOTC_TARGET_CORTEX_M4=1 ;;
  cortex-m55|m55)
    TARGET=cortex-m55
    CPU_FLAGS=(-mcpu=cortex-m55 -mfloat-abi=hard -mthumb)
    MACHINE=mps3-an547
    LDSCRIPT=mps3-an547.ld
    CLANG_TRIPLE=thumbv8.1m.main-none-eabihf
    TDEF=-DAOTC_TARGET_CORTEX_M55=1 ;;
  "") die "--target cortex-m4|cortex-m55 is required" ;;
  *) die "unknown target '$TARGET' (cortex-m4 or cortex-m55)" ;;
esac
case "$TIMEOUT" in ''|*[!0-9]*) die "--timeout needs a number of seconds" ;; esac
case "$JOBS" in ''|*[!0-9]*|0) die "--jobs needs a positive number" ;; esac
case "$STACK_SIZE" in ''|*[!0-9]*) die "--stack-size needs a number of bytes" ;; esac

CC=arm-none-eabi-gcc
SIZE=arm-none-eabi-size
NM=arm-none-eabi-nm
ADDR2LINE=arm-none-eabi-addr2line
QEMU=qemu-system-arm
case "$MODCC" in
  "") ;;
  clang|clang-[0-9]*)
    command -v "$MODCC" >/dev/null 2>&1 || die "'$MODCC' not found (apt-get install clang)"
    # the directory of the stdio.h arm-none-eabi-gcc includes
    NEWLIB_INC=$(echo '#include <stdio.h>' | "$CC" "${CPU_FLAGS[@]}" -E -xc - 2>/dev/null |
                 sed -n 's|^# [0-9]* "\(.*\)/stdio.h".*|\1|p' | head -1)
    [ -f "$NEWLIB_INC/stdio.h" ] || die "newlib's stdio.h not found (apt-get install libnewlib-arm-none-eabi)" ;;
  *) die "--cc takes clang (or clang-N), not '$MODCC'" ;;
esac
for tool in "$CC" "$SIZE" "$NM" timeout; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found (apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi)"
done
if [ "$NO_RUN" = 0 ]; then
  command -v "$QEMU" >/dev/null 2>&1 || die "'$QEMU' not found (apt-get install qemu-system-arm)"
fi

# ---- build directory ----
if [ -n "$OUT" ]; then
  mkdir -p "$OUT" || die "cannot create $OUT"
  OUT="$(cd "$OUT" && pwd)"
else
  OUT="$(mktemp -d "${TMPDIR:-/tmp}/aotc-build-run.XXXXXX")" || die "mktemp failed"
  trap 'rm -rf "$OUT"' EXIT
fi

ELF="$OUT/firmware.elf"
MAP="$OUT/firmware.map"

abspath() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }

# ---- build ----
build() {
  local strict=() modsrc=() relaxed=() f base skip g inc_flags=() def_flags=()
  local seen=" "
  add_strict() { # file [module]
    local p
    [ -f "$1" ] || die "no such source file: $1"
    p="$(abspath "$1")"
    case "$seen" in *" $p "*) return ;; esac
    seen="$seen$p "
    if [ $# -gt 1 ]; then modsrc+=("$p"); else strict+=("$p"); fi
  }
  [ -n "$MAIN" ] && add_strict "$MAIN"
  for d in "${MODULE_DIRS[@]+"${MODULE_DIRS[@]}"}"; do
    [ -d "$d/src" ] || die "module directory '$d' has no src/"
    [ -d "$d/include" ] && inc_flags+=(-I "$(cd "$d/include" && pwd)")
    [ -d "$d/includes-api" ] && inc_flags+=(-I "$(cd "$d/includes-api" && pwd)")
    inc_flags+=(-I "$(cd "$d/src" && pwd)")
    for f in "$d"/src/*.c; do
      [ -e "$f" ] || continue
      base="$(basename "$f")"
      skip=0
      for g in "${EXCLUDES[@]+"${EXCLUDES[@]}"}"; do
        # shellcheck disable=SC2254
        case "$base" in $g) skip=1 ;; esac
      done
      [ "$skip" = 1 ] && continue
      add_strict "$f" module
    done
  done
  for f in "${SRCS[@]+"${SRCS[@]}"}"; do add_strict "$f"; done
  for f in "${EXTRA_SRCS[@]+"${EXTRA_SRCS[@]}"}"; do
    [ -f "$f" ] || die "no such source file: $f"
    relaxed+=("$(abspath "$f")")
  done
  [ $(( ${#modsrc[@]} + ${#strict[@]} + ${#relaxed[@]} )) -gt 0 ] || die "no source files (use --module, --main, --src)"

  for d in "${INCS[@]+"${INCS[@]}"}"; do inc_flags+=(-I "$d"); done
  for d in "${DEFS[@]+"${DEFS[@]}"}"; do def_flags+=("-D$d"); done

  # shellcheck disable=SC2206
  local common=("${CPU_FLAGS[@]}" "$OPT" -g -ffunction-sections -fdata-sections
                -DAOTC_TARGET_CORTEX_M=1 "$TDEF" -I "$TDIR"
                "${inc_flags[@]+"${inc_flags[@]}"}" "${def_flags[@]+"${def_flags[@]}"}" $USER_CFLAGS)
  local strict_flags=(-std=c99 -Wall -Wextra -Werror -pedantic)
  local relaxed_flags=(-std=gnu99 -Wall -Wextra)
  local target_flags=(-std=gnu99 -Wall -Wextra -Werror -fno-tree-loop-distribute-patterns)

  rm -rf "$OUT/obj"
  mkdir -p "$OUT/obj/module" "$OUT/obj/main" "$OUT/obj/extra" "$OUT/obj/target"
  local objs=() o i=0 running=0 failed=0
  compile() { # dir flags... src  (runs up to $JOBS compilers at a time)
    local dir="$1" src="${*: -1}"
    shift
    local flags=("${@:1:$(($# - 1))}")
    i=$((i + 1))
    o="$OUT/obj/$dir/$i-$(basename "${src%.c}").o"
    objs+=("$o")
    local cc=("$CC")
    # --cc clang: the module and main sources, against newlib's headers
    if [ -n "$MODCC" ] && [ "$dir" != target ]; then
      cc=("$MODCC" --target="$CLANG_TRIPLE" -fshort-enums -isystem "$NEWLIB_INC")
    fi
    ( "${cc[@]}" "${common[@]}" "${flags[@]}" -c "$src" -o "$o" ||
        { echo "build-run: error: compilation of $src failed" >&2; exit 1; } ) &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
      wait -n || failed=1
      running=$((running - 1))
    fi
  }
  say "building $TARGET firmware (${#modsrc[@]} module + ${#strict[@]} main/--src + ${#relaxed[@]} relaxed sources) in $OUT"
  for f in "${modsrc[@]+"${modsrc[@]}"}"; do compile module "${strict_flags[@]}" "$f"; done
  for f in "${strict[@]+"${strict[@]}"}"; do compile main "${strict_flags[@]}" "$f"; done
  for f in "${relaxed[@]+"${relaxed[@]}"}"; do compile extra "${relaxed_flags[@]}" "$f"; done
  for f in startup.c semihost.c syscalls.c; do compile target "${target_flags[@]}" "$TDIR/$f"; done
  while [ "$running" -gt 0 ]; do
    wait -n || failed=1
    running=$((running - 1))
  done
  [ "$failed" = 0 ] || die "compilation failed" 65

  "$CC" "${CPU_FLAGS[@]}" "$OPT" -nostartfiles -L "$TDIR" -T "$LDSCRIPT" \
    -Wl,--gc-sections -Wl,--enable-non-contiguous-regions -Wl,-Map="$MAP" -Wl,--defsym=__stack_size__="$STACK_SIZE" \
    -o "$ELF" "${objs[@]}" -lm || die "link failed" 65
}

report_sizes() {
  {
    echo "# target=$TARGET machine=$MACHINE"
    echo "# arm-none-eabi-size -A firmware.elf"
    "$SIZE" -A "$ELF" | grep -vE '^(\.(debug|comment|ARM\.attributes|stab)|Total|$)'
    echo "# arm-none-eabi-size -B firmware.elf (bss includes the stack)"
    "$SIZE" -B "$ELF"
    echo "# bytes of the --module sources (without --main and excluded files) kept in the link"
    awk -v objdir="$OUT/obj/module/" '
      function hex(s,   v, i) { s = tolower(substr(s, 3)); v = 0
        for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
        return v }
      function add(size, file) {
        if (index(file, objdir) != 1) return
        if (out == ".text" || out == ".vectors") t += hex(size)
        else if (out == ".rodata" || out == ".ARM.exidx" || out == ".ARM.extab" || out == ".init_arrays") r += hex(size)
        else if (out == ".data") d += hex(size)
        else if (out == ".bss") b += hex(size)
      }
      /^Linker script and memory map/ { inmap = 1; next }
      !inmap { next }
      /^[^ ]/ { n = split($0, f, " "); out = f[1]; pending = 0; next }
      {
        n = split($0, f, " ")
        if (n == 1 && f[1] ~ /^[.A-Z]/) { pending = 1; next }
        if (pending && n == 3 && f[1] ~ /^0x/ && f[2] ~ /^0x/) add(f[2], f[3])
        else if (n == 4 && f[2] ~ /^0x/ && f[3] ~ /^0x/) add(f[3], f[4])
        pending = 0
      }
      END { printf "module_text=%d\nmodule_rodata=%d\nmodule_data=%d\nmodule_bss=%d\n", t, r, d, b }
    ' "$MAP"
    "$SIZE" -A "$ELF" | awk '
      $1 == ".vectors" || $1 == ".text" || $1 == ".rodata" || $1 == ".ARM.exidx" || $1 == ".ARM.extab" || $1 == ".init_arrays" { fl += $2 }
      $1 == ".data" { fl += $2; ram += $2 }
      $1 == ".bss" || $1 == ".stack" { ram += $2 }
      END { printf "firmware_flash=%d\nfirmware_ram=%d\n", fl, ram }'
    echo "stack_size=$STACK_SIZE"
  } > "$OUT/size.txt"
  say "sizes: $(grep -E '^(module|firmware)_' "$OUT/size.txt" | tr '\n' ' ')"
}

if [ -n "$RUN_ELF" ]; then
  [ -f "$RUN_ELF" ] || die "no such ELF: $RUN_ELF"
  ELF="$(abspath "$RUN_ELF")"
else
  build
  report_sizes
fi

[ "$NO_RUN" = 1 ] && exit 0

# ---- run ----
PLUGIN_ARGS=()
if [ "$COUNT" = 1 ]; then
  command -v gcc >/dev/null 2>&1 || die "host gcc needed to build the QEMU plugin"
  PLUGIN_SO="$OUT/insn_count.so"
  gcc -std=gnu11 -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden \
    -o "$PLUGIN_SO" "$PDIR/insn_count.c" || die "building the QEMU plugin failed" 65
  case "$OUT" in *,*) die "--count-insns: the build directory path must not contain ','" ;; esac
  START=$("$NM" "$ELF" | awk '$3 == "target_count_start" { print $1 }')
  STOP=$("$NM" "$ELF" | awk '$3 == "target_count_stop" { print $1 }')
  PARG="$PLUGIN_SO,out=$OUT/insn_count.txt"
  [ -n "$START" ] && [ -n "$STOP" ] && PARG="$PARG,start=0x$START,stop=0x$STOP"
  rm -f "$OUT/insn_count.txt"
  PLUGIN_ARGS=(-plugin "$PARG")
fi

ulimit -c 0 2>/dev/null || true
say "running on QEMU $MACHINE (timeout ${TIMEOUT}s)"
STDERR_LOG="$OUT/stderr.txt"
# QEMU's stderr (the program's stderr and fault report) is shown and kept.
(
  timeout -k 5 "$TIMEOUT" "$QEMU" -M "$MACHINE" -display none -monitor none \
    -serial none -semihosting-config enable=on,target=native -kernel "$ELF" \
    "${PLUGIN_ARGS[@]+"${PLUGIN_ARGS[@]}"}" "${QEMU_EXTRA[@]+"${QEMU_EXTRA[@]}"}" \
    </dev/null 2>&1 1>&3 3>&- | tee "$STDERR_LOG" >&2
  exit "${PIPESTATUS[0]}"
) 3>&1
RC=$?

if [ "$RC" = 124 ]; then
  echo "build-run: TIMEOUT: the firmware did not exit within ${TIMEOUT}s" >&2
elif [ "$RC" -ge 200 ] 2>/dev/null && grep -q '^\*\*\* FAULT' "$STDERR_LOG" 2>/dev/null; then
  PCS=$(sed -n 's/^ *PC=\(0x[0-9a-f]*\) LR=\(0x[0-9a-f]*\).*/\1 \2/p' "$STDERR_LOG" | head -1)
  if [ -n "$PCS" ] && command -v "$ADDR2LINE" >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    set -- $PCS
    echo "build-run: fault PC: $("$ADDR2LINE" -f -p -e "$ELF" "$1")" >&2
    echo "build-run: fault LR: $("$ADDR2LINE" -f -p -e "$ELF" "$(printf '0x%x' $(( $2 & ~1 )))")" >&2
  fi
elif [ "$RC" = 134 ] && grep -q 'Lockup' "$STDERR_LOG" 2>/dev/null; then
  echo "build-run: QEMU stopped on a CPU lockup (fault inside the fault handler)" >&2
fi

if [ "$COUNT" = 1 ]; then
  if [ -f "$OUT/insn_count.txt" ]; then
    echo "build-run: $(grep -v "^region_" "$OUT/insn_count.txt" | tr "\n" " " | sed "s/ $//")" >&2
  else
    echo "build-run: no instruction count (QEMU did not exit normally)" >&2
  fi
fi
say "exit status $RC"
exit "$RC"
