#!/usr/bin/env bash
# test_clang_simd.sh AOTC - the Arm DSP (Cortex-M4) and Helium (Cortex-M55)
# kernels built with Clang (the compiler of Arm Compiler 6 and the Arm
# Toolchain for Embedded; targets/build-run.sh --cc clang, -O2): the target
# kernel tests of test_mve.sh / test_dsp.sh (mve_kernels.c), test_simd_conv16.sh,
# test_simd_first.sh and test_simd_dw8.sh by default (CLANG_SIMD_TESTS=all adds
# those of test_simd_ew_rec.sh, test_simd_ew16.sh, test_simd_fc16.sh,
# test_simd_gru.sh and test_f32_simd.sh: all passed on 2026-12-07, 76,107
# cases, but they take CI time), each comparing the SIMD build of the kernels with the
# same files built with AOT_NO_SIMD (the *_ref_kernels.c side, here also
# compiled by Clang), on both cores. Each test's banner must name the SIMD
# path (Clang took the portable kernels before: aot_common.h) and its
# firmware's .comment must name clang. Then KWS (DSP/Helium conv, depthwise,
# FC), VWW (the M4 first-layer kernel) and a seanet int16 conv model are
# built with Clang and must pass their goldens with the hash of the host
# build (which the GCC builds give: test_simd_*.sh) and the dsp / mve
# variants. Skips when clang, arm-none-eabi-gcc or qemu-system-arm is
# missing. CLANG_SIMD_TESTS="mve ew_rec ..." and CLANG_SIMD_MODELS pick.
set -u
AOTC=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
S=${AOTC_SHARED:-$ROOT/../shared}
for tool in clang arm-none-eabi-gcc qemu-system-arm; do
  command -v $tool >/dev/null || { echo "SKIP test_clang_simd: $tool missing"; exit 0; }
done
W=$(mktemp -d /tmp/aotc-clangsimd-XXXXXX)
trap 'rm -rf "$W"' EXIT
cd "$ROOT" || exit 1
fail=0
cases=0

# name | main | sources | M4 banner | M55 banner
TESTS='
mve|mve_kernels.c|tests/target/mve_ref_kernels.c runtime/ConvolutionFunctions/aot_conv2d_s8.c runtime/ConvolutionFunctions/aot_dwconv2d_s8.c runtime/FullyConnectedFunctions/aot_fc_s8.c runtime/PoolingFunctions/aot_avgpool_s8.c|DSP kernels (SMLAD)|MVE kernels (Helium)
ew_rec|ew_rec_kernels.c|tests/target/ew_rec_ref_kernels.c runtime/RecurrentFunctions/aot_svdf_s8.c runtime/RecurrentFunctions/aot_lstm_q.c runtime/RecurrentFunctions/aot_lstm_s8p.c runtime/RecurrentFunctions/aot_svdf_s8p.c runtime/BasicMathFunctions/aot_add_s8.c runtime/BasicMathFunctions/aot_add_s16.c runtime/BasicMathFunctions/aot_sub_s8.c runtime/BasicMathFunctions/aot_sub_s16.c runtime/BasicMathFunctions/aot_mul_s8.c runtime/BasicMathFunctions/aot_mul_s16.c|EW kernels (Arm DSP)|EW kernels (Helium)
ew16|ew16_kernels.c|tests/target/ew16_ref_kernels.c runtime/ActivationFunctions/aot_leaky_relu_s8.c runtime/ActivationFunctions/aot_leaky_relu_s16.c runtime/BasicMathFunctions/aot_add_s16.c runtime/BasicMathFunctions/aot_sub_s16.c runtime/QuantizationFunctions/aot_requantize.c runtime/PoolingFunctions/aot_maxpool_s8.c|EW16 kernels (Arm DSP)|EW16 kernels (Helium)
conv16|conv16_kernels.c|tests/target/conv16_ref_kernels.c runtime/ConvolutionFunctions/aot_conv2d_s16.c runtime/ConvolutionFunctions/aot_tconv2d_s16.c|conv16 kernels (Arm DSP)|conv16 kernels (Helium)
fc16|fc16_kernels.c|tests/target/fc16_ref_kernels.c runtime/FullyConnectedFunctions/aot_fc_s16.c runtime/ConvolutionFunctions/aot_dwconv2d_s16.c|FC16 kernels (Arm DSP)|FC16 kernels (Helium)
gru|gru_kernels.c|tests/target/gru_ref_kernels.c runtime/RecurrentFunctions/aot_gru_f32.c|GRU kernels (DSP/VFP)|GRU kernels (Helium)
first|first_kernels.c|tests/target/first_ref_kernels.c runtime/ConvolutionFunctions/aot_conv2d_s8.c|first kernels (Arm DSP)|first kernels (Helium)
dw8|dw8_kernels.c|tests/target/dw8_ref_kernels.c runtime/ConvolutionFunctions/aot_dwconv2d_s8.c|dw8 kernels (Arm DSP)|dw8 kernels (Helium)
f32|f32_kernels.c|tests/target/f32_ref_kernels.c runtime/ConvolutionFunctions/aot_conv2d_f32.c runtime/ConvolutionFunctions/aot_dwconv2d_f32.c runtime/FullyConnectedFunctions/aot_fc_f32.c runtime/ConvolutionFunctions/aot_conv2d_hybrid.c runtime/FullyConnectedFunctions/aot_fc_hybrid.c|f32 kernels (register-blocked FPU)|f32 kernels (Helium)
'
pick=" ${CLANG_SIMD_TESTS:-mve conv16 first dw8} "
[ "$pick" = " all " ] && pick=" mve ew_rec ew16 conv16 fc16 gru first dw8 f32 "
while IFS='|' read -r name main srcs b4 b55; do
  [ -n "$name" ] || continue
  case "$pick" in *" $name "*) ;; *) continue ;; esac
  args=""; for f in $srcs; do args="$args --src $f"; done
  for t in cortex-m4 cortex-m55; do
    want="$b4"; [ $t = cortex-m55 ] && want="$b55"
    # f32 on cortex-m55 left out: there the portable conv2d_f32 of the
    # reference side, as Clang 14 builds it, loses the NaN of a NaN bias
    # (the Helium side keeps it); a Clang issue outside the SIMD kernels
    [ "$name-$t" = f32-cortex-m55 ] && { echo "SKIP clang f32 cortex-m55 (portable reference, see above)"; continue; }
    o="$W/$name-$t"
    # shellcheck disable=SC2086
    bash targets/build-run.sh --target $t --cc clang -q -j 2 -I runtime --out "$o" \
      --main "tests/target/$main" $args --timeout 600 > "$o.txt" 2> "$o.err"
    rc=$?
    echo "clang $name $t: $(grep -v '^ *$' "$o.txt" | tail -1)"
    if [ $rc != 0 ]; then echo "FAIL clang $name $t: exit status $rc"; tail -n 20 "$o.txt" "$o.err"; fail=1; fi
    grep -qF "$want" "$o.txt" || { echo "FAIL clang $name $t: the '$want' path was not built"; fail=1; }
    arm-none-eabi-readelf -p .comment "$o/firmware.elf" 2>/dev/null | grep -qi clang ||
      { echo "FAIL clang $name $t: firmware not built by clang"; fail=1; }
    grep -qE '(^| )[1-9][0-9]* (failed|mismatch)|FAIL' "$o.txt" && { echo "FAIL clang $name $t: mismatches"; fail=1; }
    n=$(grep -oiE '[0-9]+ passed' "$o.txt" | awk '{s += $1} END {print s + 0}')
    cases=$((cases + n))
  done
done <<< "$TESTS"
echo "clang kernel tests: $cases cases compared"

# models: the Clang build (aotc verify with AOTC_TARGET_CC=clang) must pass
# the golden with the output hash of the GCC build, and use the SIMD kernels
# (the per-op variant column of --profile names dsp / mve)
if [ ! -d "$S/models" ]; then
  echo "SKIP test_clang_simd models: $S/models not found"
  exit $fail
fi
SE="$S/models/tflm/seanet-int16/conv/conv${CLANG_SIMD_SEANET:-3}"
if [ -f "$SE.tflite" ]; then
  python3 "$ROOT/tests/integration/csv2npz.py" "$W/seanet.npz" "input_0=${SE}_input0_int16.csv:int16" \
    "output_0=${SE}_golden_int16.csv:int16" >/dev/null
fi
# simd_lib.sh's host / cortex-m4 / cortex-m55 check, the targets built by Clang
. "$ROOT/tests/integration/simd_lib.sh"
SIMD_TARGETS=1
export W ROOT
for m in ${CLANG_SIMD_MODELS:-mlperf-tiny/kws_ref_model mlperf-tiny/vww_96_int8 seanet}; do
  if [ "$m" = seanet ]; then f="$SE.tflite"; g="$W/seanet.npz"; tol=1
  else f="$S/models/$m.tflite"; g="$S/goldens-tflm/$m.npz"; tol=0; fi
  [ -f "$f" ] && [ -f "$g" ] || { echo "SKIP $m: model or golden missing"; continue; }
  AOTC_TARGET_CC=clang SIMD_KERNEL='conv2d_s8|conv2d_s16' simd_hash3 "clang $m" "$f" \
    --test.golden-data "$g" --test.tolerance $tol
done
[ $fail = 0 ] && echo "test_clang_simd: all passed"
exit $fail
