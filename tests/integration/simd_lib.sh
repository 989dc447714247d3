# simd_lib.sh - sourced by the tests/integration/test_simd_*.sh scripts (not a
# test itself: run-integration.sh runs test_*.sh only). What every SIMD kernel
# test does the same way:
#  - simd_init TAG AOTC: ROOT, S (shared data), W (a temporary directory removed
#    at exit), fail=0, SIMD_TARGETS (1 when arm-none-eabi-gcc and
#    qemu-system-arm exist), cd to ROOT;
#  - simd_kernels MAIN BANNER SRC...: the kernel comparison firmware MAIN with
#    the sources SRC (the reference copy built with AOT_NO_SIMD among them) on
#    the host (gcc -pedantic -Werror, ASan/UBSan when available, plus
#    $SIMD_HOST_CFLAGS, e.g. fewer cases under the sanitizers), then on
#    cortex-m4 and cortex-m55 under QEMU, where its first lines must say
#    "BANNER (Arm DSP)" / "BANNER (Helium)": the SIMD path was built. Prints
#    the last two lines of each run; sets fail=1 on any failure;
#  - simd_hash3 LABEL MODEL [VERIFY ARGS...]: aotc verify of MODEL on host,
#    cortex-m4 and cortex-m55 (targets only when SIMD_TARGETS=1); fails unless
#    all pass with one output hash and, when SIMD_KERNEL names kernels (an
#    extended regex such as 'fc_s16|dwconv2d_s16'), unless --profile shows the
#    first of them as "(dsp)" on cortex-m4 and "(mve)" on cortex-m55; prints
#    the targets' instruction counts;
#  - seanet_one MODEL: (exported, for xargs -P) the model's golden .npz made
#    from its CSVs (csv2npz.py), then verify with tolerance 1 on host,
#    cortex-m4 and cortex-m55; prints "NAME host:HASH cortex-m4:HASH
#    cortex-m55:HASH PASS" or "NAME FAIL ..."; seanet_many reads model paths on
#    stdin, runs seanet_one on JOBS (2) at once and fails unless all pass.

simd_init() {
  SIMD_TAG=$1
  AOTC=$(realpath "$2")
  ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  S=${AOTC_SHARED:-$ROOT/../shared}
  W=$(mktemp -d "/tmp/aotc-$SIMD_TAG-XXXXXX")
  trap 'rm -rf "$W"' EXIT
  fail=0
  SIMD_TARGETS=1
  if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null; then
    echo "SKIP $SIMD_TAG targets: arm-none-eabi-gcc or qemu-system-arm missing (make deps)"
    SIMD_TARGETS=0
  fi
  cd "$ROOT" || exit 1
  export AOTC W ROOT
}

simd_kernels() {
  local main=$1 banner=$2 san t want rc args=()
  shift 2
  san="-fsanitize=address,undefined -fno-sanitize-recover=all"
  echo 'int main(void){return 0;}' > "$W/t.c"
  cc $san "$W/t.c" -o "$W/t" 2>/dev/null || san=""
  # shellcheck disable=SC2086
  if cc -std=c99 -pedantic -Wall -Wextra -Werror -O1 -g $san ${SIMD_HOST_CFLAGS:-} -Iruntime "$main" "$@" -lm \
       -o "$W/host" && "$W/host" > "$W/host.txt"; then
    echo "host: $(tail -2 "$W/host.txt" | tr '\n' ' ')"
  else
    tail -20 "$W/host.txt" 2>/dev/null; echo "FAIL $SIMD_TAG kernels host"; fail=1
  fi
  [ "$SIMD_TARGETS" = 1 ] || return 0
  for f in "$@"; do args+=(--src "$f"); done
  for t in cortex-m4 cortex-m55; do
    want="Arm DSP"; [ $t = cortex-m55 ] && want="Helium"
    bash targets/build-run.sh --target $t -q -I runtime --main "$main" "${args[@]}" \
      --timeout 600 > "$W/$t.txt" 2> "$W/$t.err"
    rc=$?
    echo "$t: $(tail -2 "$W/$t.txt" | tr '\n' ' ')"
    if [ $rc != 0 ]; then echo "FAIL $SIMD_TAG kernels $t: exit status $rc"; tail -20 "$W/$t.txt" "$W/$t.err"; fail=1; fi
    grep -q "$banner ($want)" "$W/$t.txt" ||
      { echo "FAIL $SIMD_TAG kernels $t: the $want path was not built (no '$banner ($want)')"; fail=1; }
  done
}

simd_hash3() {
  local label=$1 model=$2 t out line c h="" tl=host var want counts="" prof=()
  shift 2
  [ "$SIMD_TARGETS" = 1 ] && tl="host cortex-m4 cortex-m55"
  for t in $tl; do
    prof=(); [ $t != host ] && prof=(--count-instructions --profile)
    out=$("$AOTC" verify --model.path "$model" "$@" --target $t "${prof[@]}" 2>&1)
    line=$(echo "$out" | grep -E '^(PASS|FAIL)' | head -1)
    c=$(echo "$line" | grep '^PASS' | grep -o 'hash=[0-9a-f]*')
    [ $t = host ] && h=$c
    if [ -z "$c" ] || [ "$c" != "$h" ]; then echo "FAIL $label $t: $line (host ${h:-none})"; fail=1; return; fi
    [ $t = host ] && continue
    counts="$counts $t $(echo "$line" | grep -o 'instructions=[0-9]*')"
    if [ -n "${SIMD_KERNEL:-}" ]; then
      want=dsp; [ $t = cortex-m55 ] && want=mve
      var=$(echo "$out" | grep -oE "($SIMD_KERNEL)\([a-z,-]+\)" | head -1)
      case "${var##*(}" in
        "$want)" | "$want,"*) ;;
        *) echo "FAIL $label $t: kernel ${var:-none}, not ($want)"; fail=1; return ;;
      esac
    fi
  done
  echo "$label: $tl ${h:-none}$counts"
}

seanet_one() {
  local m=$1 base name f n dt t line c h="" out args=()
  base=${m%.tflite}; name=$(basename "$base")
  for f in "${base}"_input*.csv; do
    n=${f##*_input}; n=${n%%_*}; dt=${f##*_}; dt=${dt%.csv}
    args+=("input_$n=$f:$dt")
  done
  for f in "${base}"_golden_*.csv; do dt=${f##*_}; dt=${dt%.csv}; args+=("output_0=$f:$dt"); done
  python3 "$ROOT/tests/integration/csv2npz.py" "$W/$name.npz" "${args[@]}" || { echo "$name FAIL csv2npz"; return; }
  out="$name"
  for t in host cortex-m4 cortex-m55; do
    line=$("$AOTC" verify --model.path "$m" --test.golden-data "$W/$name.npz" --test.tolerance 1 \
           --target $t 2>&1 | grep -E '^(PASS|FAIL)' | head -1)
    c=$(echo "$line" | grep '^PASS' | grep -o 'hash=[0-9a-f]*')
    [ -z "$c" ] && { echo "$name FAIL $t: $line"; return; }
    [ $t = host ] && h=$c
    [ "$c" != "$h" ] && { echo "$name FAIL $t: $c differs from host $h"; return; }
    out="$out $t:${c#hash=}"
  done
  echo "$out PASS"
}
export -f seanet_one

seanet_many() {
  local label=$1 n p
  xargs -P "${JOBS:-2}" -I{} bash -c 'seanet_one {}' | sort -V > "$W/models.txt"
  n=$(grep -c '' "$W/models.txt"); p=$(grep -c ' PASS$' "$W/models.txt")
  grep -v ' PASS$' "$W/models.txt"
  echo "seanet $label: $p/$n models pass on host, cortex-m4, cortex-m55 with equal hashes"
  [ "$p" = "$n" ] && [ "$n" -gt 0 ] || fail=1
}
