#!/usr/bin/env bash
# run-integration.sh AOTC - every end-to-end suite; fails if any fails.
set -u
AOTC=$1
HERE=$(cd "$(dirname "$0")" && pwd)
fails=()
run() {
  local name=$1; shift
  echo "=== $name"
  if "$@"; then echo "=== $name: ok"; else echo "=== $name: FAILED"; fails+=("$name"); fi
}
LOGS=$(mktemp -d /tmp/aotc-integration-XXXXXX)
trap 'rm -rf "$LOGS"' EXIT
run "shared models (host)" bash -c "bash '$HERE/integration/models.sh' '$AOTC' host | tee '$LOGS/host.txt'; exit \${PIPESTATUS[0]}"
run "seanet int16 vectors" bash "$HERE/integration/seanet.sh" "$AOTC"
run "stateful models (host)" bash "$HERE/integration/stateful.sh" "$AOTC" host
for t in "$HERE"/integration/test_*.sh; do
  [ -f "$t" ] && run "$(basename "$t" .sh)" bash "$t" "$AOTC"
done
if command -v qemu-system-arm >/dev/null && command -v arm-none-eabi-gcc >/dev/null; then
  for t in cortex-m4 cortex-m55; do
    run "$t stateful (QEMU)" bash "$HERE/integration/stateful.sh" "$AOTC" $t
    run "$t (QEMU)" bash -c "MODELS_ONLY=1 MODELS='mlperf-tiny/kws_ref_model mlperf-tiny/pretrainedResnet_quant' bash '$HERE/integration/models.sh' '$AOTC' $t | tee '$LOGS/$t.txt'; exit \${PIPESTATUS[0]}"
    # the Cortex-M outputs must be bit-identical to the host build's
    run "$t outputs identical to host" bash -c "
      for m in kws_ref_model pretrainedResnet_quant; do
        h=\$(grep \"/\$m.tflite target=host\" '$LOGS/host.txt' | grep -o 'hash=[0-9a-f]*')
        c=\$(grep \"/\$m.tflite target=$t\" '$LOGS/$t.txt' | grep -o 'hash=[0-9a-f]*')
        echo \"\$m: host \$h, $t \$c\"; [ -n \"\$h\" ] && [ \"\$h\" = \"\$c\" ] || exit 1
      done"
  done
else
  echo "SKIP cortex-m: arm-none-eabi-gcc or qemu-system-arm missing (make deps)"
fi
if [ ${#fails[@]} -gt 0 ]; then echo "integration failures: ${fails[*]}"; exit 1; fi
echo "integration: all passed"
