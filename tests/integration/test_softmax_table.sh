#!/usr/bin/env bash
# test_softmax_table.sh AOTC - int8 SOFTMAX with the exponential table made
# at compile time (op_activation.c, softmax_s8_table): one-op models made by
# aotc_make_quant_model softmax, large ones (the table; the module's source
# must hold op..._exp_tab) and small ones (no table), int8 and int16 outputs,
# several input scales, must pass against the reference interpreter on the
# host, cortex-m4 and cortex-m55 with one output hash; prints instructions
# per element. (That the table gives exactly the computed outputs is
# test_lower's softmax test; the computed path is checked against TFLM's
# goldens by the shared models.)
set -u
. "$(dirname "$0")/simd_lib.sh"
simd_init softmax "$1"
MK="$(dirname "$AOTC")/aotc_make_quant_model"
[ -x "$MK" ] || { echo "SKIP test_softmax_table: $MK not built (AOTC_TESTS=ON)"; exit 0; }
# rows depth scale output table?
while read -r rows depth scale out tab; do
  f="$W/sm_${rows}x${depth}_${scale}_$out.tflite"
  "$MK" softmax "$f" "$rows" "$depth" "$scale" "$out" || { echo "FAIL generator $f"; fail=1; continue; }
  rm -rf "$W/mod"
  "$AOTC" convert --model.path "$f" --module.path "$W/mod" --module.name sm >/dev/null 2>&1 ||
    { echo "FAIL convert $f"; fail=1; continue; }
  has=no; grep -rqs "_exp_tab\[" "$W/mod" && has=yes
  [ "$has" = "$tab" ] || { echo "FAIL ${rows}x$depth scale $scale: table $has, expected $tab"; fail=1; }
  line=$(simd_hash3 "softmax ${rows}x$depth scale $scale $out (table $has)" "$f")
  echo "$line"
  for i in $(echo "$line" | grep -o 'instructions=[0-9]*' | cut -d= -f2); do
    printf '  %d instructions per element\n' $((i / (rows * depth)))
  done
done <<'EOF2'
1 12 0.1 int8 no
4 40 0.1 int8 no
1 700 0.1 int8 yes
4 256 0.1 int8 yes
4 256 0.1 int16 yes
8 100 0.5 int8 yes
1 12 0.5 int8 no
EOF2
exit $fail
