#!/usr/bin/env bash
# bench/perop.sh AOTC TARGET MODEL.tflite [OUTDIR] - per-operator instruction
# counts of one inference under QEMU (cortex-m4 or cortex-m55): converts the
# model, builds it with bench/perop_main.c (the op callback brackets every
# operator with the count markers), runs it with bench/perop_count.c (one
# count per region) and prints per op: id, kernel called, MACs (conv,
# depthwise, fully connected, from the emitted parameters), instructions and
# instructions per MAC, then the whole model. Figures, not a test.
set -eu -o pipefail
AOTC=$(realpath "$1"); TARGET=$2; MODEL=$3
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/.." && pwd)
W=${4:-$(mktemp -d /tmp/aotc-perop-XXXXXX)}
mkdir -p "$W"
"$AOTC" convert --model.path "$MODEL" --module.path "$W" --module.name mod --force >/dev/null
bash "$ROOT/targets/build-run.sh" --target "$TARGET" --module "$W/mod" --main "$HERE/perop_main.c" \
  --out "$W/fw-$TARGET" --no-run -q >/dev/null
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden \
  -I "$ROOT/targets/qemu-plugin" -o "$W/perop_count.so" "$HERE/perop_count.c"
ELF="$W/fw-$TARGET/firmware.elf"
START=$(arm-none-eabi-nm "$ELF" | awk '$3 == "target_count_start" { print $1 }')
STOP=$(arm-none-eabi-nm "$ELF" | awk '$3 == "target_count_stop" { print $1 }')
case $TARGET in cortex-m4) M=mps2-an386 ;; *) M=mps3-an547 ;; esac
timeout 600 qemu-system-arm -M $M -display none -monitor none -serial none \
  -semihosting-config enable=on,target=native -kernel "$ELF" \
  -plugin "$W/perop_count.so,out=$W/regions-$TARGET.txt,start=0x$START,stop=0x$STOP" \
  </dev/null >"$W/stdout-$TARGET.txt"
python3 - "$W/mod/src/aot_model.c" "$W/stdout-$TARGET.txt" "$W/regions-$TARGET.txt" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
ops = [int(l[3:]) for l in open(sys.argv[2]) if l.startswith("op=")]
cnt = [int(l[7:]) for l in open(sys.argv[3]) if l.startswith("region=")]
params, kern = {}, {}
for m in re.finditer(r"static const aot_(\w+)_params (op(\d+)_\w+)_p = \{(.*?)\};", src, re.S):
    d = dict((k, int(v)) for k, v in re.findall(r"\.(\w+) = (-?\d+)\b", m.group(4)))
    params[int(m.group(3))] = (m.group(1), m.group(2), d)
for m in re.finditer(r"st = (aot_\w+)\(&op(\d+)_", src):
    kern.setdefault(int(m.group(2)), m.group(1))
def macs(i):
    if i not in params: return 0
    t, name, d = params[i]
    if t == "conv":
        n = d["batches"] * d["out_h"] * d["out_w"] * d["out_c"] * d["filter_h"] * d["filter_w"]
        return n * (1 if "depthwise" in name else d["filter_in_c"])
    if t == "fc": return d["batches"] * d["in_depth"] * d["out_depth"]
    return 0
def shape(i):
    if i not in params: return ""
    t, name, d = params[i]
    if t == "conv":
        return "%dx%dx%d->%dx%dx%d f%dx%d s%d" % (d["in_h"], d["in_w"], d["in_c"], d["out_h"], d["out_w"], d["out_c"], d["filter_h"], d["filter_w"], d["stride_h"])
    if t == "fc": return "%dx%d->%d" % (d["batches"], d["in_depth"], d["out_depth"])
    if t == "pool": return "%dx%dx%d f%dx%d" % (d["in_h"], d["in_w"], d["channels"], d["filter_h"], d["filter_w"])
    return ""
print("%4s %-26s %-30s %10s %11s %8s" % ("op", "kernel", "shape", "MACs", "insns", "ins/MAC"))
tot = 0
for i, c in zip(ops, cnt):
    mc = macs(i); tot += c
    print("%4d %-26s %-30s %10d %11d %8s" % (i, kern.get(i, "?"), shape(i), mc, c, "%.2f" % (c / mc) if mc else "-"))
print("total %d instructions in ops" % tot)
PY
