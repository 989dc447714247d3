#!/usr/bin/env bash
# test_softmax_table.sh AOTC - int8 SOFTMAX by tables made at compile time
# (op_activation.c): one-op models made by aotc_make_quant_model softmax,
# int8 and int16 outputs, several input scales, must pass against the
# reference interpreter on the host, cortex-m4 and cortex-m55 with one output
# hash; prints instructions per element. Which path each model must take:
#   tab  - the exponential table (softmax_s8_table; large ops): the module's
#          source holds op..._exp_tab;
#   none - the general kernel computing its exponentials (small ops);
#   two  - rows of two (softmax2_tables): the module calls aot_softmax2_s8
#          (_s16), compiles aot_softmax2_s8.c and not the general kernel's
#          aot_softmax_s8.c (and for one model, --profile on cortex-m4 names
#          softmax2_s8).
# Then VWW (a 2-class head) against its TFLM golden on the three targets
# with one hash, taking the two-class path. (That the tables give exactly
# the general kernel's outputs for every input is the unit tests' job:
# test_lower's softmax test, test_softmax2 for all 65,536 rows of two.)
set -u
. "$(dirname "$0")/simd_lib.sh"
simd_init softmax "$1"
MK="$(dirname "$AOTC")/aotc_make_quant_model"
[ -x "$MK" ] || { echo "SKIP test_softmax_table: $MK not built (AOTC_TESTS=ON)"; exit 0; }
# the path a converted module ($W/mod) takes: tab, two or none
path_of() {
  local two=no
  grep -rqs "aot_softmax2_s8\(_s16\)\?(&" "$W/mod" && [ -f "$(ls -d "$W"/mod/*/src)/aot_softmax2_s8.c" ] &&
    [ ! -f "$(ls -d "$W"/mod/*/src)/aot_softmax_s8.c" ] && two=yes
  if grep -rqs "_exp_tab\[" "$W/mod"; then echo tab
  elif [ $two = yes ]; then echo two
  elif grep -rqs "aot_softmax2_s8\(_s16\)\?(&" "$W/mod"; then echo "two-class kernel with the general one"
  else echo none; fi
}
# rows depth scale output path
while read -r rows depth scale out want; do
  f="$W/sm_${rows}x${depth}_${scale}_$out.tflite"
  "$MK" softmax "$f" "$rows" "$depth" "$scale" "$out" || { echo "FAIL generator $f"; fail=1; continue; }
  rm -rf "$W/mod"
  "$AOTC" convert --model.path "$f" --module.path "$W/mod" --module.name sm >/dev/null 2>&1 ||
    { echo "FAIL convert $f"; fail=1; continue; }
  has=$(path_of)
  [ "$has" = "$want" ] || { echo "FAIL ${rows}x$depth scale $scale: path $has, expected $want"; fail=1; }
  line=$(simd_hash3 "softmax ${rows}x$depth scale $scale $out (path $has)" "$f")
  echo "$line"
  case "$line" in FAIL*) fail=1 ;; esac
  for i in $(echo "$line" | grep -o 'instructions=[0-9]*' | cut -d= -f2); do
    printf '  %d instructions per element\n' $((i / (rows * depth)))
  done
  if [ "$want" = two ] && [ "$rows" = 64 ] && [ "$SIMD_TARGETS" = 1 ]; then
    "$AOTC" verify --model.path "$f" --target cortex-m4 --count-instructions --profile 2>&1 |
      grep -qE "SOFTMAX .*softmax2_s8(_s16)?\(portable\)" ||
      { echo "FAIL ${rows}x$depth scale $scale: --profile does not name softmax2_s8"; fail=1; }
  fi
done <<'EOF2'
1 12 0.1 int8 none
4 40 0.1 int8 none
1 700 0.1 int8 tab
4 256 0.1 int8 tab
4 256 0.1 int16 tab
8 100 0.5 int8 tab
4096 2 0.02 int8 two
4096 2 0.5 int16 two
64 2 8 int8 two
EOF2
# VWW: its 2-class head against TFLM's golden
m="$S/models/mlperf-tiny/vww_96_int8.tflite" g="$S/goldens-tflm/mlperf-tiny/vww_96_int8.npz"
if [ -f "$m" ] && [ -f "$g" ]; then
  rm -rf "$W/mod"
  "$AOTC" convert --model.path "$m" --module.path "$W/mod" --module.name vww >/dev/null 2>&1 ||
    { echo "FAIL convert $m"; fail=1; }
  has=$(path_of)
  [ "$has" = two ] || { echo "FAIL vww: softmax path $has, expected two"; fail=1; }
  line=$(simd_hash3 "vww_96_int8 (softmax path $has)" "$m" --test.golden-data "$g")
  echo "$line"
  case "$line" in FAIL*) fail=1 ;; esac
else
  echo "SKIP vww: $m or $g missing (AOTC_SHARED)"
fi
exit $fail
