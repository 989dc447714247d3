#!/usr/bin/env bash
# test_opt_levels.sh AOTC - a module builds and gives its golden outputs at
# every optimisation level a firmware engineer uses, not only the -O2 of the
# other tests: -O0 (debug builds; the portable kernels, aot_common.h), -Og
# and -Os (the DSP / Helium kernels), and Clang at -O2 (the compiler of Arm
# Compiler 6 and the Arm Toolchain for Embedded; the DSP / Helium kernels too,
# aot_common.h), on Cortex-M4 and Cortex-M55 under QEMU, with -Wall -Wextra
# -Werror -pedantic. The models cover the kernels with inline assembly: KWS
# (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED), ResNet-8 (ADD), SVDF and the
# int8 LSTM. Each module's own test main compares every output with the TFLM
# golden; every level must give the same output hash, and Clang's build of
# the module's kernel files must define their SIMD variant macros
# (<FILE>_DSP / <FILE>_MVE 1, the ones aotc verify --profile reads).
set -u
AOTC=$(realpath "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
S=$(realpath "${AOTC_SHARED:-../shared}" 2>/dev/null || echo "${AOTC_SHARED:-../shared}")
[ -d "$S/models" ] || { echo "SKIP opt levels: $S/models not found"; exit 0; }
command -v arm-none-eabi-gcc >/dev/null && command -v qemu-system-arm >/dev/null ||
  { echo "SKIP opt levels: no arm-none-eabi-gcc/qemu-system-arm"; exit 0; }
W=$(mktemp -d /tmp/aotc-optlv-XXXXXX); trap 'rm -rf "$W"' EXIT
fail=0
NEWLIB_INC=$(echo '#include <stdio.h>' | arm-none-eabi-gcc -E -xc - 2>/dev/null |
             sed -n 's|^# [0-9]* "\(.*\)/stdio.h".*|\1|p' | head -1)
simd_variants() { # module target: SIMD variant macros Clang -O2 defines in its .c files
  local f fl=(-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 --target=thumbv7em-none-eabihf) n=0
  [ "$2" = cortex-m55 ] && fl=(-mcpu=cortex-m55 --target=thumbv8.1m.main-none-eabihf)
  for f in "$1"/src/*.c; do
    n=$((n + $(clang "${fl[@]}" -mfloat-abi=hard -fshort-enums -isystem "$NEWLIB_INC" -O2 \
                 -DAOTC_TARGET_CORTEX_M=1 -I "$1/src" -I "$1/includes-api" -dM -E "$f" 2>/dev/null |
               grep -cE '^#define [A-Z][A-Z0-9_]*_(DSP|MVE) 1$')))
  done
  echo $n
}
for spec in mlperf-tiny/kws_ref_model mlperf-tiny/pretrainedResnet_quant tflm/keyword_scrambled_8bit \
            tflm/trained_lstm_int8; do
  n=${spec##*/}
  "$AOTC" convert --model.path "$S/models/$spec.tflite" --module.path "$W" --module.name "$n" \
    --module.prefix "$n" --test.enabled --test.golden-data "$S/goldens-tflm/$spec.npz" >/dev/null 2>&1 ||
    { echo "FAIL: $n: convert"; fail=1; continue; }
  for t in cortex-m4 cortex-m55; do
    levels=${AOTC_OPT_LEVELS:--O0 -Og -Os}
    command -v clang >/dev/null && levels="$levels clang:-O2"
    h0=""
    for o in $levels; do
      cc=()
      case $o in clang:*) cc=(--cc clang); o=${o#clang:} ;; esac
      out=$(bash "$HERE/../../targets/build-run.sh" --target $t --module "$W/$n" --main "$W/$n/src/${n}_test_main.c" \
            --opt "$o" "${cc[@]}" -q --timeout 600 2>&1)
      simd=-
      [ "${cc[*]}" ] && simd=$(simd_variants "$W/$n" $t)
      o="${cc[*]:+clang }$o"
      line=$(echo "$out" | grep -m1 '^PASS model=')
      h=$(echo "$line" | grep -o 'hash=[0-9a-f]*')
      [ -n "$h0" ] || h0=$h
      if [ -z "$line" ]; then
        echo "FAIL: $n $t $o: $(echo "$out" | grep -m3 -E 'error|FAIL' | tr '\n' ' ' | cut -c1-400)"; fail=1
      elif [ "$h" != "$h0" ]; then echo "FAIL: $n $t $o: $h, not the $h0 of the first level"; fail=1
      elif [ "$simd" = 0 ]; then echo "FAIL: $n $t $o: no SIMD kernel variant in Clang's build"; fail=1
      else echo "ok: $n $t $o: ${line:0:60} (SIMD variants: $simd)"; fi
    done
  done
done
[ $fail = 0 ] && echo "opt levels: all passed"
exit $fail
