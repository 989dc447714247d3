#!/usr/bin/env bash
# test_refusals.sh AOTC - every refusal class says in ONE line what is wrong,
# where (subgraph, op index, type or custom code, tensor) and how to fix it,
# exits 1 or 2 and leaves nothing on disk; and a model with a user CUSTOM
# kernel (custom_operators) compiles and verifies against a golden computed
# independently, in plain C, by the model generator.
#
# Models: tests/tools/make_refusal_models.c (aotc's writer). Kernel:
# tests/data/custom_axpb.c.
set -u
AOTC=$(realpath "$1")
GEN=$(dirname "$AOTC")/aotc_make_refusal_models
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d /tmp/aotc-refusals-XXXXXX); trap 'rm -rf "$W"' EXIT
"$GEN" "$W" || { echo "FAIL: cannot make the models"; exit 1; }
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

# check NAME WANT_RC MSG_FILE RC PATTERN... : exit code, exactly one error
# line and nothing else but warnings, every pattern present (fixed strings)
check() {
  local name=$1 want=$2 file=$3 rc=$4; shift 4
  local nerr nother
  nerr=$(grep -c '^aotc: error: ' "$file")
  nother=$(grep -v -c -e '^aotc: error: ' -e '^aotc: warning: ' -e '^FAIL model=' "$file")
  if [ "$want" = any ]; then [ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || { bad "$name: exit $rc"; return; }
  elif [ "$rc" -ne "$want" ]; then bad "$name: exit $rc, want $want: $(cat "$file")"; return; fi
  [ "$nerr" -eq 1 ] && [ "$nother" -eq 0 ] || { bad "$name: not one line: $(cat "$file")"; return; }
  local p
  for p in "$@"; do
    grep '^aotc: error: ' "$file" | grep -q -F -- "$p" || { bad "$name: no '$p' in: $(cat "$file")"; return; }
  done
  grep -q -F '(null)' "$file" && { bad "$name: '(null)' in: $(cat "$file")"; return; }
  ok "$name: $(grep '^aotc: error: ' "$file" | cut -c1-240)"
}

# refuse NAME WANT_RC MODEL [convert flags] -- PATTERN...
refuse() {
  local name=$1 want=$2 model=$3; shift 3
  local flags=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do flags+=("$1"); shift; done
  shift
  rm -rf "$W/out"
  "$AOTC" convert --model.path "$model" --module.path "$W" --module.name out "${flags[@]}" >"$W/msg" 2>&1
  local rc=$?
  if [ -e "$W/out" ] || ls "$W" | grep -q 'aotc-tmp'; then bad "$name: output left on disk"; return; fi
  check "$name" "$want" "$W/msg" $rc "$@"
}

# 1. Flex (Select TF) ops, in the main graph and another subgraph
FIX_FLEX=("TensorFlow Flex" "no microcontroller runtime" "tf.lite.OpsSet.TFLITE_BUILTINS" "unroll=True")
refuse flex 2 "$W/flex.tflite" -- "${FIX_FLEX[@]}" \
  "'FlexTensorListReserve' (2 ops, first subgraph 0 op 1)" "'FlexTensorListSetItem' (1 op, first subgraph 0 op 2)" \
  "'FlexTensorListGetItem' (1 op, first subgraph 1 op 0)"
"$AOTC" inspect "$W/flex.tflite" >"$W/msg" 2>&1
check "flex (inspect)" 2 "$W/msg" $? "${FIX_FLEX[@]}" "subgraph 0 op 1"
"$AOTC" run --model.path "$W/flex.tflite" --input "$W/custom.npz" --output "$W/o.npz" >"$W/msg" 2>&1
rc=$?
[ ! -e "$W/o.npz" ] && check "flex (run)" any "$W/msg" $rc "${FIX_FLEX[@]}" || bad "flex (run) wrote output"

# 2. Vela's ethos-u op, and an unknown custom code
refuse ethos-u 2 "$W/ethos_u.tflite" -- "subgraph 0 op 0" "CUSTOM 'ethos-u'" "compiled by Arm's Vela" "model from before Vela"
refuse "unknown custom" 2 "$W/unknown.tflite" -- "subgraph 0 op 1" "CUSTOM 'MyMystery'" "register a C kernel" "custom_operators" "re-export"

# 3. graph structure: recursion, a tensor no op writes (with a 5,000-character
# name: the message keeps its reason and fix), two writers
refuse recursion 2 "$W/recursive.tflite" -- "recursion 0 (op 0 WHILE) -> 2 (op 0 WHILE) -> 2" "call tree" "break the cycle"
refuse "unwritten tensor" 1 "$W/unwritten.tflite" -- "subgraph 0 op 0 (ADD)" "tensor 1 'ghost_" "(input 1)" "no op writes" "re-export it"
[ "$(wc -c <"$W/msg")" -lt 1100 ] && ok "long name shortened" || bad "long message: $(wc -c <"$W/msg") bytes"
refuse "two writers" 1 "$W/twowriters.tflite" -- "subgraph 0" "tensor 1 'y'" "op 0 (ADD) and op 1 (MUL)" "one writer"

# 4. a YAML key 'path' (the config file is a flag) is not "did you mean 'path'"
printf 'path: x.yaml\n' >"$W/p.yaml"
"$AOTC" convert --path "$W/p.yaml" --model.path "$W/custom.tflite" --module.path "$W" --module.name out >"$W/msg" 2>&1
rc=$?
if grep -q "did you mean 'path'" "$W/msg"; then bad "path key: $(cat "$W/msg")"
else check "path key in YAML" 1 "$W/msg" $rc "'path'" "line 1" "--path FILE" "model.path"; fi

# 5. user CUSTOM kernels: the config file in its own directory, the source
# relative to it, aotc run from elsewhere
mkdir -p "$W/cfg/kernels"
cp "$ROOT/tests/data/custom_axpb.c" "$W/cfg/kernels/"
cat >"$W/cfg/custom.yaml" <<Y
model:
  path: $W/custom.tflite
custom_operators:
  - code: AOTC_TEST_AXPB
    source: kernels/custom_axpb.c
    function: axpb_run
    scratch_bytes: 16
Y
K=(--custom-operators.AOTC_TEST_AXPB.source "$W/cfg/kernels/custom_axpb.c" --custom-operators.AOTC_TEST_AXPB.function axpb_run
   --custom-operators.AOTC_TEST_AXPB.scratch-bytes 16)
(cd / && "$AOTC" convert --path "$W/cfg/custom.yaml" --module.path "$W" --module.name mod >/dev/null 2>"$W/msg") &&
  [ -f "$W/mod/src/custom_axpb.c" ] && grep -q 'axpb_run(&' "$W/mod/src/aot_model.c" &&
  ok "convert with a user kernel (YAML, source relative to the config)" || bad "convert with a user kernel: $(cat "$W/msg")"
for prefix in aot kws; do
  out=$("$AOTC" verify --path "$W/cfg/custom.yaml" --test.golden-data "$W/custom.npz" --module.prefix $prefix 2>&1)
  echo "$out" | grep -q '^PASS' && ok "verify, prefix $prefix: $(echo "$out" | grep '^PASS')" || bad "verify, prefix $prefix: $out"
done
out=$("$AOTC" verify --path "$W/cfg/custom.yaml" --test.golden-data "$W/custom_wrong.npz" 2>&1)
echo "$out" | grep -q '^FAIL' && ok "a wrong golden fails" || bad "a wrong golden passed: $out"
out=$("$AOTC" verify --model.path "$W/custom_dyn.tflite" --test.golden-data "$W/custom.npz" "${K[@]}" \
      --custom-operators.AOTC_TEST_AXPB.outputs 'float32[2,4]' 2>&1)
echo "$out" | grep -q '^PASS' && ok "output rule by flag, dynamic model: PASS" || bad "output rule (flag): $out"
sed "s#custom.tflite#custom_dyn.tflite#" "$W/cfg/custom.yaml" >"$W/cfg/dyn.yaml"
printf '    outputs: [{dtype: float32, shape: [2, 4]}]\n' >>"$W/cfg/dyn.yaml"
out=$("$AOTC" verify --path "$W/cfg/dyn.yaml" --test.golden-data "$W/custom.npz" 2>&1)
echo "$out" | grep -q '^PASS' && ok "output rule in YAML, dynamic model: PASS" || bad "output rule (YAML): $out"
out=$("$AOTC" verify --model.path "$W/custom_loop.tflite" --test.golden-data "$W/custom_loop.npz" "${K[@]}" 2>&1)
echo "$out" | grep -q '^PASS' && ok "user kernel in a WHILE body: PASS" || bad "user kernel in a WHILE body: $out"
if command -v arm-none-eabi-gcc >/dev/null && command -v qemu-system-arm >/dev/null; then
  out=$("$AOTC" verify --path "$W/cfg/custom.yaml" --test.golden-data "$W/custom.npz" --target cortex-m55 2>&1)
  echo "$out" | grep -q '^PASS' && ok "verify on cortex-m55" || bad "cortex-m55: $out"
fi

# 6. user kernel errors
refuse "missing source" 1 "$W/custom.tflite" --custom-operators.AOTC_TEST_AXPB.source "$W/cfg/kernels/nope.c" \
  --custom-operators.AOTC_TEST_AXPB.function axpb_run -- "custom_operators 'AOTC_TEST_AXPB'" "cannot read source" "nope.c" "relative to the config file"
refuse "missing function" 1 "$W/custom.tflite" --custom-operators.AOTC_TEST_AXPB.source "$W/cfg/kernels/custom_axpb.c" \
  --custom-operators.AOTC_TEST_AXPB.function axpb_go -- "custom_operators 'AOTC_TEST_AXPB'" "does not define function 'axpb_go'" "int32_t axpb_go(const aot_custom_args *a)"
refuse "code mismatch" 2 "$W/custom.tflite" --custom-operators.AOTC_TEST_AXPC.source "$W/cfg/kernels/custom_axpb.c" \
  --custom-operators.AOTC_TEST_AXPC.function axpb_run -- "subgraph 0 op 0" "CUSTOM 'AOTC_TEST_AXPB'" "registers 'AOTC_TEST_AXPC'" "case-sensitive"
refuse "no static output shape" 1 "$W/custom_dyn.tflite" "${K[@]}" -- "subgraph 0 op 0 (CUSTOM 'AOTC_TEST_AXPB') output 0" "tensor 2 'y'" "no static shape" "outputs: [{dtype: float32"
refuse "output rule mismatch" 1 "$W/custom.tflite" "${K[@]}" --custom-operators.AOTC_TEST_AXPB.outputs 'float32[3,4]' -- \
  "subgraph 0 op 0 (CUSTOM 'AOTC_TEST_AXPB') output 0" "static shape [2,4]" "gives [3,4]"
refuse "no golden for a user kernel" 1 "$W/custom.tflite" "${K[@]}" --test.enabled -- "subgraph 0 op 0" "user custom operator 'AOTC_TEST_AXPB'" \
  "reference interpreter cannot run" "give test.golden_data"
refuse "built-in custom code" 1 "$W/custom.tflite" --custom-operators.GRU.source "$W/cfg/kernels/custom_axpb.c" \
  --custom-operators.GRU.function axpb_run -- "custom_operators 'GRU'" "aotc implements CUSTOM 'GRU' itself"
"$AOTC" verify --model.path "$W/custom.tflite" "${K[@]}" >"$W/msg" 2>&1
check "verify without golden" 1 "$W/msg" $? "user custom operator 'AOTC_TEST_AXPB'" "give test.golden_data"
# 7. an error inside the temporary module directory names the user's path:
# a 245-character name fits, name.aotc-tmp-PID does not
long=$W/$(printf 'm%.0s' $(seq 245))
"$AOTC" convert --path "$W/cfg/custom.yaml" --module.path "$W" --module.name "$(basename "$long")" >"$W/msg" 2>&1
rc=$?
if grep -q 'aotc-tmp' "$W/msg"; then bad "temporary path in the message: $(cat "$W/msg")"
else check "error in the temporary directory" 1 "$W/msg" $rc "cannot create '$long'"; fi
exit $fail
