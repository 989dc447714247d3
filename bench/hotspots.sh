#!/usr/bin/env bash
# bench/hotspots.sh AOTC TARGET MODEL.tflite [OUTDIR] [NBLOCKS] - where the
# instructions of a run go, per function: converts the model, builds it for
# cortex-m4 or cortex-m55 with bench/perop_main.c, runs it under QEMU with
# the bench/pcprof.c plugin (executions of every translated block) and maps
# the blocks to the firmware's function symbols. Prints the 15 functions of
# most instructions (share of the whole run, start-up included) and the
# NBLOCKS (default 12) hottest blocks with their addresses (look them up in
# arm-none-eabi-objdump -d OUTDIR/fw-TARGET/firmware.elf). Figures, not a test.
set -eu -o pipefail
AOTC=$(realpath "$1"); TARGET=$2; MODEL=$3
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/.." && pwd)
W=${4:-$(mktemp -d /tmp/aotc-hot-XXXXXX)}; NB=${5:-12}
mkdir -p "$W"
"$AOTC" convert --model.path "$MODEL" --module.path "$W" --module.name mod --force >/dev/null
bash "$ROOT/targets/build-run.sh" --target "$TARGET" --module "$W/mod" --main "$HERE/perop_main.c" \
  --out "$W/fw-$TARGET" --no-run -q >/dev/null
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden \
  -I "$ROOT/targets/qemu-plugin" -o "$W/pcprof.so" "$HERE/pcprof.c"
ELF="$W/fw-$TARGET/firmware.elf"
case $TARGET in cortex-m4) M=mps2-an386 ;; *) M=mps3-an547 ;; esac
timeout 600 qemu-system-arm -M $M -display none -monitor none -serial none \
  -semihosting-config enable=on,target=native -kernel "$ELF" \
  -plugin "$W/pcprof.so,out=$W/tbs-$TARGET.txt" </dev/null >"$W/stdout-$TARGET.txt"
arm-none-eabi-nm -n -S "$ELF" | awk '$3 ~ /^[tT]$/' >"$W/syms-$TARGET.txt"
python3 - "$W/tbs-$TARGET.txt" "$W/syms-$TARGET.txt" "$NB" <<'PY'
import sys, bisect
syms = []
for l in open(sys.argv[2]):
    f = l.split()
    if len(f) == 4: syms.append((int(f[0], 16) & ~1, f[3]))
syms.sort()
addrs = [s[0] for s in syms]
tot, blk = {}, {}
for l in open(sys.argv[1]):
    va, n, c = l.split(); va = int(va, 16); ins = int(n) * int(c)
    i = bisect.bisect_right(addrs, va) - 1
    name = syms[i][1] if i >= 0 else "?"
    tot[name] = tot.get(name, 0) + ins
    blk[(name, va)] = blk.get((name, va), 0) + ins
T = sum(tot.values()) or 1
print("%12s %6s  %s" % ("insns", "share", "function"))
for k, v in sorted(tot.items(), key=lambda x: -x[1])[:15]: print("%12d %5.1f%%  %s" % (v, 100.0 * v / T, k))
print("total %d instructions; hottest blocks:" % T)
for (k, va), v in sorted(blk.items(), key=lambda x: -x[1])[:int(sys.argv[3])]: print("%12d  0x%x  %s" % (v, va, k))
PY
