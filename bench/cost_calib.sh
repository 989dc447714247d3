#!/usr/bin/env bash
# bench/cost_calib.sh [OUTDIR] - the int8 CONV_2D / DEPTHWISE_CONV_2D DSP
# kernels' instruction counts on Cortex-M4 (QEMU) over a grid of layers,
# each on both of its paths (bench/cost_calib_main.c), printed beside the
# compiler's estimates (src/ops/cost_dsp.c, through bench/cost_est.c) with
# the error of each; then the share of cases where the estimate picks the
# faster path. Figures, not a test; bench/cost_fit.py OUTDIR refits the
# coefficients from the counts it leaves in OUTDIR.
set -eu -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/.." && pwd)
W=${1:-$(mktemp -d /tmp/aotc-calib-XXXXXX)}
mkdir -p "$W"
# the kernels as a module built from such layers has them: the variant
# paths the grid reaches on, the others (exact-sum rows, narrow ranges, no
# folded bias, large filters, depth multipliers) off, as aotc leaves them
# out of a module without such layers (they slow the paths that remain)
rm -rf "$W/rt"
cp -r "$ROOT/runtime" "$W/rt"
for f in DW_S8_3SLOW CONV_S8_NARROW CONV_S8_NOKB CONV_S8_PWK DW_S8_DM DW_S8_BIG CONV_S8_BIG DW_S8_FEW; do
  sed -i "s/^#define AOT_F_$f 1\$/#define AOT_F_$f 0/" "$W/rt/aot_features.h"
  grep -q "^#define AOT_F_$f 0\$" "$W/rt/aot_features.h" || { echo "cannot switch $f off"; exit 1; }
done
bash "$ROOT/targets/build-run.sh" --target cortex-m4 -I "$W/rt" --main "$HERE/cost_calib_main.c" \
  --src "$W/rt/ConvolutionFunctions/aot_conv2d_s8.c" \
  --src "$W/rt/ConvolutionFunctions/aot_dwconv2d_s8.c" \
  --out "$W/fw" --no-run -q >/dev/null
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden \
  -I "$ROOT/targets/qemu-plugin" -o "$W/perop_count.so" "$HERE/perop_count.c"
gcc -std=c11 -O2 -Wall -Wextra -Werror -I "$ROOT/src" -I "$ROOT/runtime" -o "$W/cost_est" \
  "$HERE/cost_est.c" "$ROOT/src/ops/cost_dsp.c"
ELF="$W/fw/firmware.elf"
START=$(arm-none-eabi-nm "$ELF" | awk '$3 == "target_count_start" { print $1 }')
STOP=$(arm-none-eabi-nm "$ELF" | awk '$3 == "target_count_stop" { print $1 }')
timeout 1200 qemu-system-arm -M mps2-an386 -display none -monitor none -serial none \
  -semihosting-config enable=on,target=native -kernel "$ELF" \
  -plugin "$W/perop_count.so,out=$W/regions.txt,start=0x$START,stop=0x$STOP" \
  </dev/null >"$W/stdout.txt"
grep -q '^done$' "$W/stdout.txt" || { echo "calibration firmware failed"; tail -5 "$W/stdout.txt"; exit 1; }
if grep -q '^status' "$W/stdout.txt"; then echo "a kernel call failed"; grep -m3 '^status' "$W/stdout.txt"; exit 1; fi
grep '^case=' "$W/stdout.txt" | sed 's/^case=//' >"$W/cases.txt"
grep '^region=' "$W/regions.txt" | sed 's/^region=//' >"$W/counts.txt"
paste -d' ' "$W/cases.txt" "$W/counts.txt" | "$W/cost_est"
